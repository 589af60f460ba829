/* process_clock.c - what a window between two reads of the process's CPU
 * clock (CLOCK_PROCESS_CPUTIME_ID, what Ruby's GC.stat(:time) sums over a
 * collection) counts of a thread running on another CPU.  Linux brings
 * only the reader's own runtime up to date; another CPU's running thread
 * is taken as it was at its last tick or switch (kernel/sched/cputime.c
 * thread_group_cputime).  sim/machine.h mach_cpu_clock_read models it
 * (docs/validate.md, "GC.stat(:time) on two CPUs").
 *
 *   cc -O2 -pthread -o process_clock scripts/process_clock.c
 *   ./process_clock [ROUNDS]
 *
 * Thread A (CPU 0) spins throughout.  1: thread B (CPU 1) spins throughout;
 * A reads the clock around 100 us of its own spinning: the windows count B
 * only when B's tick falls inside (the window's excess over A's own 100 us
 * is then about a tick).  2: B is woken, spins R us, then A opens a window,
 * B spins 10 us more and sleeps (FUTEX_WAIT, a switch), A closes the window
 * 50 us after it opened: the excess is B's R + 10 us - its time since its
 * last switch - not the 10 us B ran inside the window.  Prints the share of
 * windows with an excess of more than 1.5x A's own, and the median excess. */
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

static long long ns(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void spin_until(long long t)
{
    while (ns(CLOCK_MONOTONIC) < t) {
    }
}

static void pin(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

static atomic_int word, stop;        /* B's futex word: 1 = run a round */
static _Atomic long long open_at;    /* case 2: when A opened the window */
static long long run_before;         /* case 2: R, ns */
static int mode;

static void *b_main(void *arg)
{
    (void)arg;
    pin(1);
    if (mode == 1) {
        while (!stop) {
        }
        return NULL;
    }
    for (;;) {
        while (atomic_load(&word) == 0) syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
        if (stop) return NULL;
        spin_until(ns(CLOCK_MONOTONIC) + run_before);
        atomic_store(&open_at, 1);           /* A opens its window now */
        spin_until(ns(CLOCK_MONOTONIC) + 10000);
        atomic_store(&word, 0);              /* and sleeps */
    }
}

static int cmp(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static void report(const char *what, long long *ex, int n, long long own)
{
    int big = 0;
    for (int i = 0; i < n; i++) big += ex[i] * 2 > own;
    qsort(ex, (size_t)n, sizeof *ex, cmp);
    printf("%-44s %5.1f%% of windows count more than 1.5x A's own; median excess %.1f us\n", what,
           100.0 * big / n, (double)ex[n / 2] / 1e3);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 2000;
    if (rounds < 1) rounds = 1;
    long long *ex = malloc(sizeof *ex * (size_t)rounds);
    if (!ex) return 1;
    pin(0);
    pthread_t t;
    mode = 1;
    pthread_create(&t, NULL, b_main, NULL);
    spin_until(ns(CLOCK_MONOTONIC) + 20000000);
    for (int i = 0; i < rounds; i++) {
        long long p0 = ns(CLOCK_PROCESS_CPUTIME_ID), a0 = ns(CLOCK_THREAD_CPUTIME_ID);
        spin_until(ns(CLOCK_MONOTONIC) + 100000);
        ex[i] = ns(CLOCK_PROCESS_CPUTIME_ID) - p0 - (ns(CLOCK_THREAD_CPUTIME_ID) - a0);
    }
    report("1: B spinning throughout, 100 us windows:", ex, rounds, 100000);
    stop = 1;
    pthread_join(t, NULL);
    stop = 0;
    mode = 2;
    pthread_create(&t, NULL, b_main, NULL);
    static const long long rs[] = { 0, 200000, 1000000 };
    for (size_t k = 0; k < sizeof rs / sizeof *rs; k++) {
        run_before = rs[k];
        for (int i = 0; i < rounds / 4; i++) {
            atomic_store(&open_at, 0);
            atomic_store(&word, 1);
            syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
            while (atomic_load(&open_at) == 0) {
            }
            long long p0 = ns(CLOCK_PROCESS_CPUTIME_ID), a0 = ns(CLOCK_THREAD_CPUTIME_ID);
            spin_until(ns(CLOCK_MONOTONIC) + 50000);  /* B sleeps 10 us in */
            ex[i] = ns(CLOCK_PROCESS_CPUTIME_ID) - p0 - (ns(CLOCK_THREAD_CPUTIME_ID) - a0);
            while (atomic_load(&word) != 0) {
            }
        }
        char what[64];
        snprintf(what, sizeof what, "2: B ran %lld us before, 10 us inside:", rs[k] / 1000);
        report(what, ex, rounds / 4, 50000);
    }
    stop = 1;
    atomic_store(&word, 1);
    syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    pthread_join(t, NULL);
    free(ex);
    return 0;
}
