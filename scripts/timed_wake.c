/* timed_wake.c - is a sleeper in a timed wait woken as fast as one in an
 * untimed wait?  3.1's designated timer thread (do_gvl_timer) waits for the
 * GVL with a 100 ms deadline (pthread_cond_timedwait: FUTEX_WAIT_BITSET
 * with an absolute CLOCK_REALTIME time, which arms an hrtimer on the way
 * in and cancels it on the way out); every other waiter waits without one.
 * `gvlsim calibrate` measures the untimed wake (wake_after_idle_10us_ns);
 * this probe puts the two side by side (docs/validate.md, "The v1272
 * guest").
 *
 *   cc -O2 -pthread -o timed_wake scripts/timed_wake.c
 *   ./timed_wake [ROUNDS]
 *
 * Thread A (CPU 0) notes the time and sleeps in FUTEX_WAIT_BITSET, in turn
 * untimed and with a deadline 100 ms ahead; thread B (CPU 1) spins until
 * 10 us after that note (A's CPU idle that long), notes the time, stores
 * to the word and calls FUTEX_WAKE, timing its own call.  A's latency is
 * from B's note to A's return.  Prints, per kind of wait, the share of
 * waits that slept and the 10th, 50th and 90th percentiles of A's latency
 * and of B's FUTEX_WAKE. */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"

#define IDLE_NS 10000LL

static _Atomic int word, go, done;
static _Atomic long long a_at, b_at;
static long long *lat[2], *wake[2];
static int slept[2], n[2];

static void *waker(void *arg)
{
    int rounds = *(int *)arg;
    allow(1, -1);
    for (int i = 0; i < 2 * rounds; i++) {
        while (atomic_load(&go) != i + 1) {}
        long long t = atomic_load(&a_at) + IDLE_NS;
        while (now_ns() < t) {}
        long long b = now_ns();
        atomic_store(&b_at, b);
        atomic_store(&word, 0);
        syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        wake[i % 2][i / 2] = now_ns() - b;
        while (atomic_load(&done) != i + 1) {}
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 400;
    if (rounds < 10) rounds = 10;
    for (int k = 0; k < 2; k++) {
        lat[k] = calloc((size_t)rounds, sizeof *lat[k]);
        wake[k] = calloc((size_t)rounds, sizeof *wake[k]);
        if (!lat[k] || !wake[k]) return 1;
    }
    allow(0, -1);
    pthread_t b;
    if (pthread_create(&b, NULL, waker, &rounds)) return 1;
    for (int i = 0; i < 2 * rounds; i++) {
        int timed = i % 2;
        atomic_store(&word, 1);
        struct timespec abs;
        clock_gettime(CLOCK_REALTIME, &abs);
        abs.tv_nsec += 100000000;
        if (abs.tv_nsec >= 1000000000) { abs.tv_sec++; abs.tv_nsec -= 1000000000; }
        atomic_store(&a_at, now_ns());
        atomic_store(&go, i + 1);
        long rc = syscall(SYS_futex, &word, FUTEX_WAIT_BITSET_PRIVATE | (timed ? FUTEX_CLOCK_REALTIME : 0), 1,
                          timed ? &abs : NULL, NULL, FUTEX_BITSET_MATCH_ANY);
        long long back = now_ns();
        if (rc == 0) slept[timed]++;
        lat[timed][n[timed]++] = back - atomic_load(&b_at);
        atomic_store(&done, i + 1);
        spin_ns(20000);  /* let B reach its next wait for `go` */
    }
    pthread_join(b, NULL);
    printf("wait      slept   A's wake-up p10 / p50 / p90 (ns)   B's FUTEX_WAKE p10 / p50 / p90 (ns)\n");
    for (int k = 0; k < 2; k++) {
        qsort(lat[k], (size_t)n[k], sizeof *lat[k], cmp_ll);
        qsort(wake[k], (size_t)rounds, sizeof *wake[k], cmp_ll);
        printf("%-8s %5.1f%%   %7lld / %7lld / %7lld            %7lld / %7lld / %7lld\n", k ? "timed" : "untimed",
               100.0 * slept[k] / n[k], lat[k][n[k] / 10], lat[k][n[k] / 2], lat[k][n[k] * 9 / 10],
               wake[k][rounds / 10], wake[k][rounds / 2], wake[k][rounds * 9 / 10]);
    }
    return 0;
}
