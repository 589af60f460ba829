/* probe.h - what the stand-alone probes of scripts/ (wake_paths.c,
 * wake_pull.c, timer_pull.c, futex_split.c, free_paced.c, objspace_pair.c,
 * line_load_then_add.c, futex_window.c, wake_after_sleep.c,
 * call_after_sleep.c, round_after_switch.c, wake_pingpong.c, handoff_cpu.c, release_signal.c,
 * relock_race.c, pack_util.c, llc_util.c, timed_wake.c, futex_eagain.c, stat_after_wake.c, wake_scope.c,
 * speed_scope.c, cond_chain.c, futex_probe_cost.c, cond_relock.c) share: the
 * monotonic clock, a busy spin and a nap, the calling thread's CPUs, a pair of
 * threads run to their end, a qsort comparator of long longs, the woken
 * hand-offs' latencies sorted (futex_probe_cost.c, cond_relock.c) and the wakee
 * of the placement probes (pack_util.c, llc_util.c).  Header only, so that each probe still builds
 * with one `cc -O2 -pthread scripts/NAME.c` (tests/e2e/probes.sh builds
 * them all). */
#ifndef SCRIPTS_PROBE_H
#define SCRIPTS_PROBE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

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

/* Sleep about ns nanoseconds (below a second). */
static inline void nap_ns(long ns)
{
    struct timespec ts = { 0, ns };
    nanosleep(&ts, NULL);
}

/* The placement probes' wakee (place_wakee on its own thread): for each
 * sample n, asked for by place_arm, it runs on CPU 0 alone for 20 us (its
 * previous CPU is the waker's), is then allowed CPUs 0 and 1 and sleeps on
 * a futex; woken by place_wake, it notes the CPU it runs on, which
 * place_wake returns.  place_stop ends it. */
struct place_ctl {
    _Atomic int word, cmd, ack, cpu;
};

static inline void *place_wakee(void *arg)
{
    struct place_ctl *c = arg;
    for (int n = 1;; n++) {
        int k;
        while ((k = atomic_load(&c->cmd)) != n)
            if (k < 0) return NULL;
        allow(0, -1);
        spin_ns(20000);
        allow(0, 1);
        atomic_store(&c->ack, n);
        while (atomic_load(&c->word) == 0) syscall(SYS_futex, &c->word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
        atomic_store(&c->cpu, sched_getcpu());
        atomic_store(&c->word, 0);
        atomic_store(&c->ack, -n);
    }
}

/* Sample n: the wakee runs on CPU 0, then sleeps (returns once it does). */
static inline void place_arm(struct place_ctl *c, int n)
{
    atomic_store(&c->cmd, n);
    while (atomic_load(&c->ack) != n) nap_ns(10000);
}

/* Wake it, spin 20 us more (the waker keeps its CPU), wait for it to say
 * where it ran: that CPU. */
static inline int place_wake(struct place_ctl *c, int n)
{
    atomic_store(&c->word, 1);
    syscall(SYS_futex, &c->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    spin_ns(20000);
    while (atomic_load(&c->ack) != -n) nap_ns(10000);
    return atomic_load(&c->cpu);
}

static inline void place_stop(struct place_ctl *c, pthread_t t)
{
    atomic_store(&c->cmd, -1);
    pthread_join(t, NULL);
}

/* qsort(3) order of long longs (timings in ns). */
static inline int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* The latencies of late[0] and late[1] (cycles each) that are not negative
 * - the hand-offs that woke a sleeper, both threads together - sorted, in
 * a new array (free it); their number in *n.  NULL if out of memory. */
static inline long long *woken_sorted(long long *const late[2], int cycles, int *n)
{
    long long *w = malloc(2 * (size_t)cycles * sizeof *w);
    if (!w) return NULL;
    *n = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < cycles; i++)
            if (late[k][i] >= 0) w[(*n)++] = late[k][i];
    qsort(w, (size_t)*n, sizeof *w, cmp_ll);
    return w;
}

#endif
