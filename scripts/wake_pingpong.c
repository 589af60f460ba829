/* wake_pingpong.c - how long a wake takes when both threads take turns
 * sleeping, as two GVL contenders do.  In the executor's 2-thread mtime
 * loop of the 3.1 GVL a sleeping timer came back 12.5 us (median) after the
 * releaser's pthread_cond_signal began, against calibrate's wake_idle_core
 * of 10.1 us (docs/validate.md, "The 3.1 loop's regime"); this measures the
 * same wake outside the executor.
 *
 *   cc -O2 -pthread -o wake_pingpong scripts/wake_pingpong.c
 *   ./wake_pingpong [ROUNDS]
 *
 * Two threads, one per CPU, take turns: the one whose turn it is works
 * (spins) GAP ns, then hands the turn over and wakes the other, which
 * sleeps meanwhile - in FUTEX_WAIT on the turn word ("futex"), or in
 * pthread_cond_wait on its own condvar under one mutex ("condvar", the
 * waker signalling with the mutex held, as CRuby's GVL does).  Prints, for
 * each GAP (the sleeper's idle time, about), the latency from the wake
 * call to the sleeper's return from its wait (10th / 50th / 90th
 * percentile; the condvar's return with the mutex locked again, where the
 * executor's trace took it) and the waker's time in the call (FUTEX_WAKE,
 * or pthread_cond_signal). */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe.h"

static const long long gaps[] = { 1000, 5000, 10000, 20000 };
#define NGAPS (int)(sizeof gaps / sizeof gaps[0])
enum { SKIP = 100 };  /* the first turns, before both threads settle */

struct run {
    int cond;             /* condvar and mutex, else a bare futex */
    long long gap;
    int rounds;
    _Atomic int turn;
    pthread_mutex_t m;
    pthread_cond_t cv[2];
    _Atomic long long woken_at[2];  /* when the wake of thread i began */
    long long *lat, *cost;          /* thread 0's latencies, thread 1's wake costs */
};

struct arg {
    struct run *r;
    int me;
};

/* returns when the wait returned (pthread_cond_wait's return, with the
 * mutex locked again: before the unlock, which makes a FUTEX_WAKE of its
 * own since the re-lock left the word at 2) */
static long long wait_turn(struct run *r, int me)
{
    long long t;
    if (!r->cond) {
        while (atomic_load(&r->turn) != me) syscall(SYS_futex, &r->turn, FUTEX_WAIT_PRIVATE, 1 - me, NULL, NULL, 0);
        return now_ns();
    }
    pthread_mutex_lock(&r->m);
    while (atomic_load(&r->turn) != me) pthread_cond_wait(&r->cv[me], &r->m);
    t = now_ns();
    pthread_mutex_unlock(&r->m);
    return t;
}

/* hand the turn to `other` and wake it; returns the time the wake call took */
static long long give_turn(struct run *r, int other)
{
    long long t0;
    if (!r->cond) {
        t0 = now_ns();
        atomic_store(&r->woken_at[other], t0);
        atomic_store(&r->turn, other);
        syscall(SYS_futex, &r->turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        return now_ns() - t0;
    }
    pthread_mutex_lock(&r->m);
    atomic_store(&r->turn, other);
    t0 = now_ns();
    atomic_store(&r->woken_at[other], t0);
    pthread_cond_signal(&r->cv[other]);
    long long c = now_ns() - t0;
    pthread_mutex_unlock(&r->m);
    return c;
}

static void *player(void *p)
{
    struct arg *a = p;
    struct run *r = a->r;
    allow(a->me, -1);
    for (int i = 0; i < r->rounds; i++) {
        long long back = wait_turn(r, a->me);
        if (a->me == 0) r->lat[i] = back - atomic_load(&r->woken_at[0]);
        spin_ns(r->gap);
        long long c = give_turn(r, 1 - a->me);
        if (a->me == 1) r->cost[i] = c;
    }
    return NULL;
}

static void print_pct(const char *what, long long *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_ll);
    printf("  %s %lld / %lld / %lld", what, v[n / 10], v[n / 2], v[n * 9 / 10]);
}

int main(int argc, char **argv)
{
    struct run r = { .rounds = argc > 1 ? atoi(argv[1]) : 20000 };
    if (r.rounds <= 10 * SKIP) {
        fprintf(stderr, "usage: wake_pingpong [ROUNDS > %d]\n", 10 * SKIP);
        return 2;
    }
    r.lat = calloc((size_t)r.rounds, sizeof *r.lat);
    r.cost = calloc((size_t)r.rounds, sizeof *r.cost);
    if (!r.lat || !r.cost) {
        perror("wake_pingpong");
        return 1;
    }
    pthread_mutex_init(&r.m, NULL);
    for (int i = 0; i < 2; i++) pthread_cond_init(&r.cv[i], NULL);
    printf("ns, 10th / 50th / 90th percentile of %d turns\n", r.rounds - SKIP);
    for (int c = 0; c < 2; c++)
        for (int g = 0; g < NGAPS; g++) {
            r.cond = c;
            r.gap = gaps[g];
            atomic_store(&r.turn, 0);
            atomic_store(&r.woken_at[0], now_ns());
            pthread_t th[2];
            struct arg a[2] = { { &r, 0 }, { &r, 1 } };
            for (int i = 0; i < 2; i++)
                if (pthread_create(&th[i], NULL, player, &a[i]) != 0) {
                    perror("wake_pingpong: pthread_create");
                    return 1;
                }
            for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
            printf("%-7s gap %5lld:", c ? "condvar" : "futex", r.gap);
            print_pct("wake latency", r.lat + SKIP, r.rounds - SKIP);
            print_pct("waker's call", r.cost + SKIP, r.rounds - SKIP);
            printf("\n");
        }
    free(r.lat);
    free(r.cost);
    return 0;
}
