/* futex_probe_cost.c - what a FUTEX_WAKE costs in a one-CPU ping-pong, to
 * be run bare and under `make bpf`'s futex_calls probe: the probe's own
 * cost is in every futex call it times (docs/bpf.md, "What the futex probe
 * costs").  Two threads on one CPU hand a futex word back and forth
 * (FUTEX_WAIT / FUTEX_WAKE, each wake preempting its waker); right after
 * each wake-up the woken thread makes a FUTEX_WAKE of nobody on a word no
 * one waits on, timed from user space (the whole call: entry, kernel,
 * exit).
 *
 *   cc -O2 -pthread -o futex_probe_cost scripts/futex_probe_cost.c
 *   ./futex_probe_cost [CYCLES [CPU]]
 *   build/bpf/bpf_record build/bpf/futex_calls.bpf.o f.txt ./futex_probe_cost
 *
 * Prints the time a hand-off takes (the whole run over its hand-offs, what
 * the sched_wakes probe's records at each wake-up and switch add to); the
 * latency of the hand-offs that woke a sleeper, from the waker's clock
 * read right before its FUTEX_WAKE to the woken thread's right after its
 * FUTEX_WAIT returned (its 10th to 99th percentiles: two modes bare, the
 * wakes that preempted their waker and those that waited for it to sleep;
 * a probe's cost need not be even, and late switches are what moves a
 * chain of wake-ups that preempt); and for each thread the
 * timed calls' 10th, 50th, 90th and 99th percentiles and the share of
 * them that took 4 to 10 us (calls of 10 us or more are the host's steal,
 * docs/calibrate.md, and left out of that share). */
#include "probe.h"

#include <stdio.h>

static int cycles = 100000, cpu;
static _Atomic int turn;
static int nobody;  /* no thread ever waits on it */
static _Atomic long long sent;  /* the waker's clock before its FUTEX_WAKE */
static long long *took[2], *late[2];

static void *player(void *arg)
{
    int me = (int)(long)arg;
    allow(cpu, -1);
    for (int i = 0; i < cycles; i++) {
        int slept = 0;
        while (atomic_load(&turn) != me) {
            syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, 1 - me, NULL, NULL, 0);
            slept = 1;
        }
        long long a = now_ns();
        late[me][i] = slept ? a - atomic_load(&sent) : -1;
        syscall(SYS_futex, &nobody, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        took[me][i] = now_ns() - a;
        atomic_store(&turn, 1 - me);
        atomic_store(&sent, now_ns());
        syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1) cycles = atoi(argv[1]);
    if (argc > 2) cpu = atoi(argv[2]);
    if (cycles < 100) cycles = 100;
    for (int k = 0; k < 2; k++)
        if (!(took[k] = malloc((size_t)cycles * sizeof *took[k])) || !(late[k] = malloc((size_t)cycles * sizeof *late[k])))
            return 1;
    long long t0 = now_ns();
    if (run_two(player, (void *)0L, (void *)1L) != 0) return 1;
    printf("%.0f ns a hand-off (a FUTEX_WAKE that preempts, the woken thread's return, its timed call)\n",
           (double)(now_ns() - t0) / (2.0 * cycles));
    int nw;
    long long *w = woken_sorted(late, cycles, &nw);
    if (!w) return 1;
    if (nw > 0) {
        printf("hand-offs that woke a sleeper: %d; FUTEX_WAKE to the woken thread's return: p10 %lld p50 %lld p75 %lld "
               "p90 %lld p99 %lld ns\n",
               nw, w[nw / 10], w[nw / 2], w[nw * 3 / 4], w[nw * 9 / 10], w[nw * 99 / 100]);
    }
    free(w);
    for (int k = 0; k < 2; k++) {
        long long *d = took[k];
        qsort(d, (size_t)cycles, sizeof *d, cmp_ll);
        int slow = 0;
        for (int i = 0; i < cycles; i++)
            if (d[i] >= 4000 && d[i] < 10000) slow++;
        printf("thread %d: FUTEX_WAKE of nobody right after its wake-up, %d calls: p10 %lld p50 %lld p90 %lld "
               "p99 %lld ns; 4-10 us %.2f%%\n",
               k, cycles, d[cycles / 10], d[cycles / 2], d[cycles * 9 / 10], d[cycles * 99 / 100],
               100.0 * slow / cycles);
    }
    return 0;
}
