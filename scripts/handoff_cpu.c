/* handoff_cpu.c - how much CPU time a cross-CPU hand-off costs, and whose
 * it is.  On the AMD EPYC guest of docs/validate.md, "Where the threads
 * ran", the executor's eager ping-pong on two CPUs kept 0.78 CPUs busy
 * where the model, with the same wall time and hand-offs, kept 0.41: the
 * model charged the waker's FUTEX_WAKE and nothing of the sleeper's side.
 *
 *   cc -O2 -pthread -o handoff_cpu scripts/handoff_cpu.c
 *   ./handoff_cpu [ROUNDS [GAP_NS]]
 *
 * Two threads, pinned one per CPU, take turns: the one whose turn it is
 * spins GAP_NS (default 2000), hands the turn over and wakes the other
 * (FUTEX_WAKE), which sleeps meanwhile in FUTEX_WAIT on the turn word.
 * Prints per hand-off: the wall time, the two threads' CPU time
 * (CLOCK_THREAD_CPUTIME_ID) less the spin, and of it the waker's time in
 * FUTEX_WAKE and the sleeper's in its FUTEX_WAIT (the way in and out); and
 * how many FUTEX_WAITs slept (with a short gap the turn often comes back
 * before the waiter is asleep: the call returns EAGAIN, or the wake finds
 * it on its way in). */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe.h"

static _Atomic int turn;
static int rounds, gap_ns;
static long long cpu_of[2], wait_cpu[2], wake_cpu[2], waits[2], slept[2];

static long long thread_cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void *run(void *arg)
{
    int me = (int)(long)arg;
    allow(me, -1);
    long long c0 = thread_cpu_ns();
    for (int i = 0; i < rounds; i++) {
        while (atomic_load(&turn) != me) {
            long long w0 = thread_cpu_ns();
            long r = syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, 1 - me, NULL, NULL, 0);
            wait_cpu[me] += thread_cpu_ns() - w0;
            waits[me]++;
            if (r == 0) slept[me]++;  /* else EAGAIN: the turn came before it slept */
        }
        spin_ns(gap_ns);
        atomic_store(&turn, 1 - me);
        long long k0 = thread_cpu_ns();
        syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        wake_cpu[me] += thread_cpu_ns() - k0;
    }
    cpu_of[me] = thread_cpu_ns() - c0;
    return NULL;
}

int main(int argc, char **argv)
{
    rounds = argc > 1 ? atoi(argv[1]) : 20000;
    gap_ns = argc > 2 ? atoi(argv[2]) : 2000;
    if (rounds < 1 || gap_ns < 0) {
        fprintf(stderr, "usage: handoff_cpu [ROUNDS [GAP_NS]]\n");
        return 2;
    }
    pthread_t t[2];
    long long w0 = now_ns();
    for (int i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, run, (void *)(long)i) != 0) {
            fprintf(stderr, "handoff_cpu: pthread_create failed\n");
            return 1;
        }
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    double n = 2.0 * rounds, wall = (double)(now_ns() - w0);
    long long nw = waits[0] + waits[1], ns = slept[0] + slept[1];
    printf("%d hand-offs, gap %d ns: wall %.0f ns each; CPU %.0f ns each beyond the gap, of it the waker's "
           "FUTEX_WAKE %.0f and the sleeper's FUTEX_WAIT %.0f; %lld waits, %lld returned 0 (woken), "
           "%.0f ns of CPU each\n",
           2 * rounds, gap_ns, wall / n, (double)(cpu_of[0] + cpu_of[1]) / n - gap_ns,
           (double)(wake_cpu[0] + wake_cpu[1]) / n, (double)(wait_cpu[0] + wait_cpu[1]) / n, nw, ns,
           nw ? (double)(wait_cpu[0] + wait_cpu[1]) / (double)nw : 0.0);
    return 0;
}
