/* line_load_then_add.c - what an access to a cache line that the other CPU
 * wrote last costs, by kind: a locked add, a load followed by a locked add
 * (as gc.c objspace_malloc_increase_body reads the flags, then adds), a
 * load alone, and a load of a line this CPU holds.  Does a load then a
 * locked add move the line twice (shared, then an upgrade) or once?
 * (docs/validate.md, "proc_heavy's objspace lines, access by access")
 *
 *   cc -O2 -pthread -o line_load_then_add scripts/line_load_then_add.c
 *   ./line_load_then_add ROUNDS
 *
 * Thread B (pinned to CPU 1) stores to the line L, then passes the turn on
 * another line; thread A (CPU 0) waits for the turn, spins ~230 ns, then
 * times one access kind with rdtscp (the kinds taken round by round in
 * turn, so that a quiet or a busy moment falls on all alike), and passes
 * the turn back.  Prints the median and quartiles of each kind, in ns at
 * the TSC's rate (measured against CLOCK_MONOTONIC over the run).  x86-64. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

#include "probe.h"

enum { KIND_ADD, KIND_LOAD_ADD, KIND_LOAD, KIND_OWN_LOAD, KINDS };
static const char *const kind_name[KINDS] = { "lock add", "load + lock add", "load", "load, own line" };

static _Alignas(64) _Atomic long line;
static _Alignas(64) _Atomic long turn;   /* 0: B's, 1: A's */
static _Alignas(64) _Atomic long own;
static long rounds;

static void *writer(void *arg)
{
    (void)arg;
    allow(1, -1);
    for (long i = 0; i < rounds; i++) {
        while (atomic_load_explicit(&turn, memory_order_acquire) != 0) {
        }
        atomic_store_explicit(&line, i, memory_order_relaxed);
        atomic_store_explicit(&turn, 1, memory_order_release);
    }
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    rounds = argc > 1 ? atol(argv[1]) : 200000;
    if (rounds < KINDS * 4) rounds = KINDS * 4;
    allow(0, -1);
    unsigned long *d[KINDS];
    long n[KINDS] = { 0 };
    for (int k = 0; k < KINDS; k++)
        if (!(d[k] = malloc(sizeof *d[k] * (size_t)rounds))) return 1;
    struct timespec ts0, ts1;
    clock_gettime(CLOCK_MONOTONIC, &ts0);
    unsigned long c0 = __rdtsc();
    pthread_t t;
    if (pthread_create(&t, NULL, writer, NULL) != 0) return 1;
    long sink = 0;
    unsigned aux;
    for (long i = 0; i < rounds; i++) {
        while (atomic_load_explicit(&turn, memory_order_acquire) != 1) {
        }
        unsigned long w = __rdtsc();
        while (__rdtsc() - w < 600) {
        }
        int k = (int)(i % KINDS);
        _mm_lfence();
        unsigned long s = __rdtscp(&aux);
        _mm_lfence();
        switch (k) {
        case KIND_ADD: atomic_fetch_add(&line, 1); break;
        case KIND_LOAD_ADD:
            sink += atomic_load_explicit(&line, memory_order_relaxed);
            atomic_fetch_add(&line, 1);
            break;
        case KIND_LOAD: sink += atomic_load_explicit(&line, memory_order_relaxed); break;
        default: sink += atomic_load_explicit(&own, memory_order_relaxed); break;
        }
        unsigned long e = __rdtscp(&aux);
        _mm_lfence();
        d[k][n[k]++] = e - s;
        atomic_store_explicit(&turn, 0, memory_order_release);
    }
    pthread_join(t, NULL);
    clock_gettime(CLOCK_MONOTONIC, &ts1);
    double ghz = (double)(__rdtsc() - c0) /
                 ((double)(ts1.tv_sec - ts0.tv_sec) * 1e9 + (double)(ts1.tv_nsec - ts0.tv_nsec));
    for (int k = 0; k < KINDS; k++) {
        qsort(d[k], (size_t)n[k], sizeof *d[k], cmp);
        printf("%-16s median %6.1f ns (q1 %6.1f, q3 %6.1f)\n", kind_name[k], d[k][n[k] / 2] / ghz,
               d[k][n[k] / 4] / ghz, d[k][3 * n[k] / 4] / ghz);
    }
    printf("TSC %.3f GHz (%ld)\n", ghz, sink & 1);
    return 0;
}
