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
 * the sched_wakes probe's records at each wake-up and switch add to), and
 * for each thread the timed calls' 10th, 50th, 90th and 99th
 * percentiles and the share of them that took 4 to 10 us (calls of 10 us
 * or more are the host's steal, docs/calibrate.md, and left out of that
 * share). */
#include "probe.h"

#include <stdio.h>

static int cycles = 100000, cpu;
static _Atomic int turn;
static int nobody;  /* no thread ever waits on it */
static long long *took[2];

static void *player(void *arg)
{
    int me = (int)(long)arg;
    allow(cpu, -1);
    for (int i = 0; i < cycles; i++) {
        while (atomic_load(&turn) != me) syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, 1 - me, NULL, NULL, 0);
        long long a = now_ns();
        syscall(SYS_futex, &nobody, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        took[me][i] = now_ns() - a;
        atomic_store(&turn, 1 - me);
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
        if (!(took[k] = malloc((size_t)cycles * sizeof *took[k]))) return 1;
    long long t0 = now_ns();
    if (run_two(player, (void *)0L, (void *)1L) != 0) return 1;
    printf("%.0f ns a hand-off (a FUTEX_WAKE that preempts, the woken thread's return, its timed call)\n",
           (double)(now_ns() - t0) / (2.0 * cycles));
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
