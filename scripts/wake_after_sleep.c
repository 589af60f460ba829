/* wake_after_sleep.c - does a thread woken right after it went to sleep
 * come back faster than one that slept longer?  The model charges every
 * wake of a sleeper on an idle core wake_idle_core (measured by `gvlsim
 * calibrate` after 10 us of idleness) plus wake_idle_extra for longer
 * idleness; this checks the short end (docs/validate.md, "The 2-CPU
 * ping-pong of the 3.1 GVL").
 *
 *   cc -O2 -pthread -o wake_after_sleep scripts/wake_after_sleep.c
 *   ./wake_after_sleep [ROUNDS]
 *
 * Thread A (CPU 0) notes the time and calls FUTEX_WAIT; thread B (CPU 1)
 * spins until X ns after that time, notes the time, stores to the word and
 * calls FUTEX_WAKE, timing its own call.  A's latency is from B's note to
 * A's return.  Prints, for each X, the share of waits that slept (returned
 * 0, not EAGAIN), the latency's 10th, 50th and 90th percentiles, and those
 * of B's FUTEX_WAKE (the waker's cost: with the IPI when A slept); then
 * the share of those wakes that cost B under 3 us (no IPI: A's vCPU had
 * not halted yet) with their median latency, and the others' median.  On
 * the Intel Xeon guest of Linux 6.18.44-fc-v1300 (2026-12-08) 68-98% of
 * the wakes 1-6 us after the call were of the first kind, almost none from
 * 9 us on (docs/validate.md, "A wake before the vCPU halts"; `gvlsim
 * calibrate` measures it: wake_prehalt_*). */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe.h"

static const long long sleeps[] = { 0, 500, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 30000 };
#define NSLEEPS (int)(sizeof sleeps / sizeof sleeps[0])

static _Atomic int word, go;
static _Atomic long long slept_at, woke_at, wait_for, wake_ns;

static void *waker(void *arg)
{
    (void)arg;
    allow(1, -1);
    for (;;) {
        int g;
        while ((g = atomic_load(&go)) == 0) {}
        if (g < 0) return NULL;
        long long at = atomic_load(&slept_at) + atomic_load(&wait_for);
        while (now_ns() < at) {}
        atomic_store(&woke_at, now_ns());
        atomic_store(&word, 1);
        long long w0 = now_ns();
        syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        atomic_store(&wake_ns, now_ns() - w0);
        atomic_store(&go, 0);
    }
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 400;
    if (rounds < 10) {
        fprintf(stderr, "usage: wake_after_sleep [ROUNDS >= 10]\n");
        return 2;
    }
    long long *lat = malloc((size_t)rounds * sizeof *lat);
    long long *wk = malloc((size_t)rounds * sizeof *wk);
    pthread_t b;
    if (!lat || !wk || pthread_create(&b, NULL, waker, NULL) != 0) {
        perror("wake_after_sleep");
        return 1;
    }
    allow(0, -1);
    printf("woken after   slept    latency p10 / p50 / p90       waker's FUTEX_WAKE p10 / p50 / p90\n");
    for (int i = 0; i < NSLEEPS; i++) {
        int slept = 0;
        for (int k = 0; k < rounds; k++) {
            atomic_store(&word, 0);
            spin_ns(50000);  /* the other CPU idles meanwhile */
            atomic_store(&wait_for, sleeps[i]);
            atomic_store(&slept_at, now_ns());
            atomic_store(&go, 1);
            long rc = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
            long long back = now_ns();
            while (atomic_load(&go) != 0) {}
            slept += rc == 0;
            lat[k] = back - atomic_load(&woke_at);
            wk[k] = atomic_load(&wake_ns);
        }
        long long *cl = malloc((size_t)rounds * sizeof *cl), *xl = malloc((size_t)rounds * sizeof *xl);
        int nc = 0, nx = 0;
        if (!cl || !xl) {
            perror("wake_after_sleep");
            return 1;
        }
        for (int k = 0; k < rounds; k++) {
            if (wk[k] < 3000)
                cl[nc++] = lat[k];
            else
                xl[nx++] = lat[k];
        }
        qsort(cl, (size_t)nc, sizeof *cl, cmp_ll);
        qsort(xl, (size_t)nx, sizeof *xl, cmp_ll);
        qsort(lat, (size_t)rounds, sizeof *lat, cmp_ll);
        qsort(wk, (size_t)rounds, sizeof *wk, cmp_ll);
        printf("%8lld ns   %4.0f%%    %6lld / %6lld / %6lld ns    %6lld / %6lld / %6lld ns\n", sleeps[i],
               100.0 * slept / rounds, lat[rounds / 10], lat[rounds / 2], lat[rounds * 9 / 10],
               wk[rounds / 10], wk[rounds / 2], wk[rounds * 9 / 10]);
        printf("              no IPI %3.0f%%: latency p50 %lld ns; with it: %lld ns\n", 100.0 * nc / rounds,
               nc ? cl[nc / 2] : -1, nx ? xl[nx / 2] : -1);
        free(cl);
        free(xl);
    }
    atomic_store(&go, -1);
    pthread_join(b, NULL);
    free(lat);
    free(wk);
    return 0;
}
