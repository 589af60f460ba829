/* futex_split.c - what a FUTEX_WAIT that sleeps costs its own thread before
 * it sleeps (the system call's entry and the kernel's wait path up to the
 * switch) and after it is picked again (the switch's second half and the
 * return), on one CPU; and what a FUTEX_WAKE that finds nobody asleep costs
 * (glibc's lll_unlock makes one whenever the lock word is 2, which
 * __lll_lock_wait leaves after every sleep on the lock).  EEVDF charges each
 * part to the thread that runs it (update_curr), so the split decides where
 * the thread stands at the next wake (docs/validate.md, "What starts a
 * stretch").
 *
 *   cc -O2 -pthread -o futex_split scripts/futex_split.c
 *   ./futex_split [ROUNDS]
 *
 * Both threads on CPU 0.  B reads its thread CPU clock and sleeps in
 * FUTEX_WAIT; A, running while B sleeps, reads B's clock (pthread_getcpuclockid)
 * and wakes it; B reads its clock again.  Samples where B did not sleep or
 * A's wake found nobody are dropped.  Each figure holds about half of one
 * clock read (printed). */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"

static _Atomic int word, ready;
static _Atomic long b_iter;
static clockid_t b_clock;
static long rounds = 20000;
static long long *before, *asleep, *after;
static char *b_slept, *a_woke;

static long long cpu_of(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long futex(_Atomic int *w, int op, int val)
{
    return syscall(SYS_futex, w, op, val, NULL, NULL, 0);
}

static void *sleeper(void *arg)
{
    (void)arg;
    allow(0, -1);
    pthread_getcpuclockid(pthread_self(), &b_clock);
    atomic_store(&ready, 1);
    for (long i = 0; i < rounds; i++) {
        before[i] = cpu_of(CLOCK_THREAD_CPUTIME_ID);
        atomic_store(&b_iter, i + 1);
        b_slept[i] = futex(&word, FUTEX_WAIT_PRIVATE, 0) == 0;
        after[i] = cpu_of(CLOCK_THREAD_CPUTIME_ID);
        while (atomic_load(&word) == 0) {}  /* (a return without A's store) */
        atomic_store(&word, 0);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1) rounds = atol(argv[1]);
    if (rounds < 200) rounds = 200;
    before = calloc((size_t)rounds, sizeof *before);
    asleep = calloc((size_t)rounds, sizeof *asleep);
    after = calloc((size_t)rounds, sizeof *after);
    b_slept = calloc((size_t)rounds, 1);
    a_woke = calloc((size_t)rounds, 1);
    long long *entry = calloc((size_t)rounds, sizeof *entry), *ret = calloc((size_t)rounds, sizeof *ret);
    if (!before || !asleep || !after || !b_slept || !a_woke || !entry || !ret) return 1;
    allow(0, -1);
    pthread_t b;
    pthread_create(&b, NULL, sleeper, NULL);
    while (!atomic_load(&ready)) sched_yield();
    long long r0 = cpu_of(CLOCK_THREAD_CPUTIME_ID), r1 = r0;
    for (int i = 0; i < 1000; i++) r1 = cpu_of(CLOCK_THREAD_CPUTIME_ID);
    for (long i = 0; i < rounds; i++) {
        while (atomic_load(&b_iter) < i + 1) sched_yield();
        sched_yield();  /* B, between its clock read and its sleep, finishes */
        asleep[i] = cpu_of(b_clock);
        atomic_store(&word, 1);
        a_woke[i] = futex(&word, FUTEX_WAKE_PRIVATE, 1) == 1;
        while (atomic_load(&word) == 1) sched_yield();
    }
    pthread_join(b, NULL);
    long n = 0;
    for (long i = 100; i < rounds; i++)  /* (the first rounds warm up) */
        if (b_slept[i] && a_woke[i]) {
            entry[n] = asleep[i] - before[i];
            ret[n] = after[i] - asleep[i];
            n++;
        }
    /* FUTEX_WAKE on a word nobody waits on, against a bare system call */
    static _Atomic int empty = 2;
    long long e0 = cpu_of(CLOCK_THREAD_CPUTIME_ID);
    for (long i = 0; i < 200000; i++) futex(&empty, FUTEX_WAKE_PRIVATE, 1);
    long long e1 = cpu_of(CLOCK_THREAD_CPUTIME_ID);
    for (long i = 0; i < 200000; i++) syscall(SYS_getpid);
    long long e2 = cpu_of(CLOCK_THREAD_CPUTIME_ID);
    if (n == 0) {
        fprintf(stderr, "futex_split: no round where B slept\n");
        return 1;
    }
    qsort(entry, (size_t)n, sizeof *entry, cmp_ll);
    qsort(ret, (size_t)n, sizeof *ret, cmp_ll);
    printf("clock read %lld ns; %ld waits that slept: entry p10/median/p90 %lld/%lld/%lld ns, "
           "return %lld/%lld/%lld ns\n", (r1 - r0) / 1000, n, entry[n / 10], entry[n / 2], entry[9 * n / 10],
           ret[n / 10], ret[n / 2], ret[9 * n / 10]);
    printf("FUTEX_WAKE with nobody asleep %.1f ns, getpid %.1f ns\n", (double)(e1 - e0) / 200000,
           (double)(e2 - e1) / 200000);
    return 0;
}
