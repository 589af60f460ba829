/* free_paced.c - what glibc's free of another thread's chunks costs when
 * that thread allocates at the pace of a Ruby Ractor, not in a tight loop
 * as `gvlsim calibrate`'s free_remote_ns has it (docs/validate.md,
 * "proc_heavy's objspace lines, access by access").
 *
 *   cc -O2 -pthread -o free_paced scripts/free_paced.c
 *   ./free_paced ROUNDS SPIN_NS
 *
 * The owner (pinned to CPU 1) allocates and writes a 40-byte and a 48-byte
 * chunk (an environment's body and a Proc's) per step, then spins SPIN_NS
 * (the rest of its op); its chunks queue in a ring, and when the ring is
 * full it frees its oldest itself.  The sweeper (CPU 0) frees batches of
 * 2,000 chunks, in turn the owner's oldest (remote) and chunks it allocated
 * itself (own), timing only its free loop on its CPU clock; every ten
 * rounds it prints the mean CPU ns a free of each kind. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe.h"

#define BATCH 2000
#define RING (1 << 16)

static void *ring[RING];
static _Atomic long head, tail;
static _Atomic int stop;
static long pace_ns;

static long long cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void *owner(void *arg)
{
    (void)arg;
    allow(1, -1);
    while (!atomic_load(&stop)) {
        long h = atomic_load(&head), t = atomic_load(&tail);
        if (h - t < RING - 2) {
            void *a = malloc(40), *b = malloc(48);
            if (a) memset(a, 1, 40);
            if (b) memset(b, 1, 48);
            ring[h % RING] = a;
            ring[(h + 1) % RING] = b;
            atomic_store(&head, h + 2);
        } else if (atomic_compare_exchange_strong(&tail, &t, t + 1)) {
            free(ring[t % RING]);
        }
        spin_ns(pace_ns);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 60;
    pace_ns = argc > 2 ? atol(argv[2]) : 250;
    allow(0, -1);
    pthread_t t;
    if (pthread_create(&t, NULL, owner, NULL) != 0) return 1;
    static void *batch[BATCH];
    double sum[2] = { 0, 0 };
    int cnt[2] = { 0, 0 };
    for (int r = 0; r < rounds; r++) {
        int remote = r & 1;
        if (remote) {
            for (;;) {  /* the owner may free its oldest meanwhile */
                long tl = atomic_load(&tail);
                if (atomic_load(&head) - tl < BATCH) {
                    spin_ns(1000);
                    continue;
                }
                for (int i = 0; i < BATCH; i++) batch[i] = ring[(tl + i) % RING];
                if (atomic_compare_exchange_strong(&tail, &tl, tl + BATCH)) break;
            }
        } else {
            for (int i = 0; i < BATCH; i++)
                if ((batch[i] = malloc(i & 1 ? 48 : 40))) memset(batch[i], 1, 40);
            spin_ns(500000);  /* as old as the owner's, about */
        }
        long long c = cpu_ns();
        for (int i = 0; i < BATCH; i++) free(batch[i]);
        sum[remote] += (double)(cpu_ns() - c) / BATCH;
        cnt[remote]++;
        if (r % 10 == 9) {
            printf("own %.1f remote %.1f ns a free\n", sum[0] / cnt[0], sum[1] / cnt[1]);
            sum[0] = sum[1] = 0;
            cnt[0] = cnt[1] = 0;
        }
    }
    atomic_store(&stop, 1);
    pthread_join(t, NULL);
    return 0;
}
