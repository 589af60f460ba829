/* probe.h - what the stand-alone probes of scripts/ (wake_paths.c,
 * wake_pull.c, timer_pull.c, futex_split.c, free_paced.c, objspace_pair.c,
 * line_load_then_add.c, futex_window.c, wake_after_sleep.c,
 * call_after_sleep.c, round_after_switch.c, wake_pingpong.c, handoff_cpu.c, release_signal.c,
 * relock_race.c, pack_util.c, llc_util.c, timed_wake.c, futex_eagain.c, stat_after_wake.c, wake_scope.c,
 * speed_scope.c) share: the
 * monotonic clock, a busy spin, the calling thread's CPUs, a pair of
 * threads run to their end and a qsort comparator of long longs.  Header only, so that each probe still builds
 * with one `cc -O2 -pthread scripts/NAME.c` (tests/e2e/probes.sh builds
 * them all). */
#ifndef SCRIPTS_PROBE_H
#define SCRIPTS_PROBE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

static inline long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Keep the CPU busy for ns nanoseconds. */
static inline void spin_ns(long long ns)
{
    long long end = now_ns() + ns;
    while (now_ns() < end) {}
}

/* Let the calling thread run on CPU a alone, or on a and b (b >= 0). */
static inline void allow(int a, int b)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(a, &s);
    if (b >= 0) CPU_SET(b, &s);
    sched_setaffinity(0, sizeof s, &s);
}

/* fn(a0) and fn(a1) on two new threads, both waited for; -1 if one could
 * not be created (the first may be left running: the probe then exits). */
static inline int run_two(void *(*fn)(void *), void *a0, void *a1)
{
    pthread_t th[2];
    if (pthread_create(&th[0], NULL, fn, a0) != 0) return -1;
    if (pthread_create(&th[1], NULL, fn, a1) != 0) return -1;
    pthread_join(th[0], NULL);
    pthread_join(th[1], NULL);
    return 0;
}

/* qsort(3) order of long longs (timings in ns). */
static inline int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

#endif
