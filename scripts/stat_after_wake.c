/* stat_after_wake.c - what a stat(2) costs its caller in a two-thread
 * File.mtime loop, beside what `gvlsim calibrate` times (syscall_stat_ns:
 * one thread calling stat in a loop, the other CPU idle).  In the loop the
 * thread releasing the GVL has just woken the waiter on the other CPU
 * (FUTEX_WAKE of a sleeper there: an IPI), and the two threads stat the
 * same file in turn.  Rounds, each of N calls on CPU 0, medians in ns:
 *   alone        stat after a 30 us spin, the other CPU idle
 *   after wake   stat GAP ns after a FUTEX_WAKE that woke a thread
 *                sleeping on CPU 1 (which goes back to sleep at once)
 *   alternating  the two CPUs stat the file in turn (no wake: a spin flag)
 * Session 28 (docs/validate.md, "The 2-thread mtime loop's race on two
 * CPUs"): on the AMD EPYC guest stat took 1.34-1.42 us alone in the
 * rounds the guest ran at its usual speed and 1.53-1.69 us right after
 * such a wake, 1.71-2.16 us 25 us after it (not a transient that passes);
 * an executor's File.mtime loop on two CPUs timed its stat calls at a
 * median of 1.82 us where calibrate's loop gave 1.37 us.
 *   cc -O2 -pthread scripts/stat_after_wake.c && ./a.out FILE [ROUNDS]
 */
#include "probe.h"

#include <linux/futex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { N = 5000 };
static const char *path;
static atomic_int word, back, stop, turn;
static long long d[N];

static long futex(atomic_int *w, int op, int val)
{
    return syscall(SYS_futex, w, op, val, NULL, NULL, 0);
}

/* on CPU 1: sleep until woken, say so, sleep again */
static void *sleeper(void *arg)
{
    (void)arg;
    allow(1, -1);
    while (!atomic_load(&stop)) {
        while (atomic_load(&word) == 0 && !atomic_load(&stop)) futex(&word, FUTEX_WAIT_PRIVATE, 0);
        atomic_store(&word, 0);
        atomic_store(&back, 1);
    }
    return NULL;
}

static long long median(void)
{
    qsort(d, N, sizeof d[0], cmp_ll);
    return d[N / 2];
}

static long long timed_stat(void)
{
    struct stat st;
    long long t0 = now_ns();
    (void)stat(path, &st);
    return now_ns() - t0;
}

static long long alone(void)
{
    for (int i = 0; i < N; i++) {
        spin_ns(30000);
        d[i] = timed_stat();
    }
    return median();
}

static long long after_wake(long long gap)
{
    for (int i = 0; i < N; i++) {
        spin_ns(30000);
        atomic_store(&back, 0);
        atomic_store(&word, 1);
        futex(&word, FUTEX_WAKE_PRIVATE, 1);
        spin_ns(gap);
        d[i] = timed_stat();
        while (!atomic_load(&back)) {}
    }
    return median();
}

/* both CPUs stat the file in turn; CPU 0's calls are kept */
static void *alternate(void *arg)
{
    int me = (int)(long)arg;
    allow(me, -1);
    for (int i = 0; i < N; i++) {
        while (atomic_load(&turn) != me) {}
        long long t = timed_stat();
        if (me == 0) d[i] = t;
        atomic_store(&turn, 1 - me);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [ROUNDS]\n", argv[0]);
        return 2;
    }
    path = argv[1];
    int rounds = argc > 2 ? atoi(argv[2]) : 3;
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    printf("%-8s %8s %12s %12s %13s %12s\n", "round", "alone", "wake+0us", "wake+3us", "wake+25us", "alternating");
    for (int r = 0; r < rounds; r++) {
        allow(0, -1);
        pthread_t t;
        atomic_store(&stop, 0);
        if (pthread_create(&t, NULL, sleeper, NULL) != 0) return 1;
        long long a = alone(), w0 = after_wake(0), w3 = after_wake(3000), w25 = after_wake(25000);
        atomic_store(&stop, 1);
        atomic_store(&word, 1);
        futex(&word, FUTEX_WAKE_PRIVATE, 1);
        pthread_join(t, NULL);
        atomic_store(&turn, 0);
        if (run_two(alternate, (void *)0L, (void *)1L) != 0) return 1;
        printf("%-8d %8lld %12lld %12lld %13lld %12lld\n", r + 1, a, w0, w3, w25, median());
    }
    return 0;
}
