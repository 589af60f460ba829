/* calib_wake.c - benchmarks of waking a sleeping thread: what FUTEX_WAKE
 * costs the waker, how long the sleeper takes to run on an idle or a busy
 * CPU, futex ping-pongs on one and on two CPUs, the cost of a context
 * switch (sched_yield), and whether a woken thread preempts its waker on
 * one CPU.  Beside the futex: CRuby 3.1/3.2's other native sleep, ppoll on
 * an eventfd woken by a write to it (thread_pthread.c native_ppoll_sleep,
 * ubf_ppoll_sleep -> rb_thread_wakeup_timer_thread_fd, then one read in
 * consume_communication_pipe: with USE_EVENTFD the first successful read
 * returns), as a ping-pong on one CPU beside the futex one.
 *
 * Latencies are taken between two threads on CLOCK_MONOTONIC, which is one
 * clock for every CPU: the waker reads it just before FUTEX_WAKE, the
 * sleeper just after its FUTEX_WAIT returns.  Before each one-way wake the
 * waker sleeps a random 200-600 us, long enough for an idle CPU to reach
 * its idle state (and short enough to take thousands of samples), never
 * periodic, so that nothing phase-locks with the tick.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/err.h"
#include "../common/stats.h"
#include "calib_int.h"
#include "exec_efd.h"

/* A wake counts as "at once" on a busy CPU below this latency: anything
 * longer waited for the busy thread's time slice (>= 0.75 ms on Linux). */
#define AT_ONCE_NS 250000LL

static void sleep_ns(long long ns)
{
    struct timespec ts = { (time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL) };
    while (nanosleep(&ts, &ts) != 0) {
    }
}

void calib_thread_switches(long *vol, long *invol)
{
    struct rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    *vol = ru.ru_nvcsw;
    *invol = ru.ru_nivcsw;
}

/* ---- one-way wakes: idle CPU, busy CPU --------------------------------------- */

struct sleeper {
    atomic_int word;       /* 0: sleep; 1: woken */
    atomic_int ack;        /* wakes handled */
    atomic_int quit;
    atomic_int spin;       /* the busy-CPU spinner runs while set */
    long long t1;          /* when the sleeper last ran after a wake */
    atomic_llong t0;       /* when it last called FUTEX_WAIT (calib_now_ns) */
    atomic_llong pre_spin; /* ns it spins before each FUTEX_WAIT (0: none) */
    long long cpu_wait;    /* its CPU time in that FUTEX_WAIT (the way in, the way out) */
    const struct calib_ctx *c; /* the CPU-time clock's cost (calib_cpu_interval) */
};

/* native_ppoll_sleep: ppoll on two fds until `fd` is readable, then
 * consume_communication_pipe's read (one read of an eventfd) */
static void efd_sleep(int fd, int idle)
{
    for (;;) {
        struct pollfd pfd[2] = { { idle, POLLIN, 0 }, { fd, POLLIN, 0 } };
        if (ppoll(pfd, 2, NULL, NULL) > 0 && (pfd[1].revents & POLLIN)) break;
    }
    exec_efd_read(fd);
}

static void *sleeper_thread(void *arg)
{
    struct sleeper *s = arg;
    for (int n = 1;; n++) {
        long long ps = atomic_load(&s->pre_spin);
        if (ps > 0) calib_spin_ns(ps);
        long long c0 = calib_thread_cpu_ns();
        atomic_store(&s->t0, calib_now_ns());
        calib_futex_wait(&s->word, 0);
        if (atomic_load(&s->quit)) return NULL;
        s->t1 = calib_now_ns();  /* before the CPU clock's own system call */
        s->cpu_wait = calib_cpu_interval(s->c, c0, calib_thread_cpu_ns());
        atomic_store(&s->word, 0);
        atomic_store(&s->ack, n);
    }
}

static void *spinner_thread(void *arg)
{
    struct sleeper *s = arg;
    while (atomic_load_explicit(&s->spin, memory_order_relaxed)) {
    }
    return NULL;
}

/* Wake the sleeper once; *lat = wake -> running (wall clock), *cost = the
 * waker's CPU time in FUTEX_WAKE (its thread CPU clock: if the sleeper
 * preempts it, the sleeper's run is not counted).  A sleeper on the
 * waker's own CPU is waited for by sleeping, not spinning.  Returns 0 if
 * the sleeper was not asleep in the kernel (the sample is dropped). */
static int wake_once(struct sleeper *s, bool same_cpu, unsigned long long *rnd, long long *lat,
                     long long *cost)
{
    sleep_ns(200000 + (long long)(calib_rand(rnd) % 400000));
    int n = atomic_load(&s->ack) + 1;
    long long c0 = calib_thread_cpu_ns();
    long long t0 = calib_now_ns();
    atomic_store(&s->word, 1);
    int woken = calib_futex_wake(&s->word, 1);
    long long c1 = calib_thread_cpu_ns();
    while (atomic_load(&s->ack) != n)
        if (same_cpu) sleep_ns(20000);
    *lat = s->t1 - t0;
    *cost = calib_cpu_interval(s->c, c0, c1);
    return woken == 1;
}

/* A sleeper on `cpu`, in FUTEX_WAIT until woken (s zeroed first; its CPU
 * times taken less c's clock cost).  GV_OK, or calib_thread_start's error
 * with c->err set. */
static int start_sleeper(struct calib_ctx *c, struct sleeper *s, int cpu, pthread_t *t)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    return calib_thread_start(c, t, cpu, sleeper_thread, s);
}

static void stop_sleeper(struct sleeper *s, pthread_t t)
{
    atomic_store(&s->quit, 1);
    atomic_store(&s->word, 1);
    calib_futex_wake(&s->word, 1);
    pthread_join(t, NULL);
}

enum wake_where { WAKE_LOCAL, WAKE_IDLE, WAKE_BUSY };

/* The sleeper on the waker's CPU (LOCAL: the waker's cost without an IPI),
 * on the second CPU idle (IDLE: the cost with an IPI, and the latency), or
 * on the second CPU shared with a spinner (BUSY: latency and how often it
 * ran at once). */
static void bench_wake(struct calib_ctx *c, enum wake_where where)
{
    static const enum calib_id ids_of[3][2] = {
        [WAKE_LOCAL] = { CALIB_FUTEX_WAKE, CALIB_FUTEX_WAKE },
        [WAKE_IDLE] = { CALIB_FUTEX_WAKE_REMOTE, CALIB_WAKE_IDLE },
        [WAKE_BUSY] = { CALIB_WAKE_BUSY_PREEMPT, CALIB_WAKE_BUSY },
    };
    const enum calib_id *ids = ids_of[where];
    int nids = where == WAKE_LOCAL ? 1 : 2;
    if (where != WAKE_LOCAL && c->cpu1 < 0) {
        calib_skip_ids(c, ids, nids, "needs two CPUs");
        return;
    }
    int cpu = where == WAKE_LOCAL ? c->cpu0 : c->cpu1;
    struct sleeper s;
    pthread_t ts, tspin;
    if (start_sleeper(c, &s, cpu, &ts) != GV_OK) {
        calib_skip_ids(c, ids, nids, c->err);
        c->err[0] = '\0';
        return;
    }
    atomic_store(&s.spin, 1);  /* (the spinner's, started next) */
    if (where == WAKE_BUSY && calib_thread_start(c, &tspin, cpu, spinner_thread, &s) != GV_OK) {
        stop_sleeper(&s, ts);
        calib_skip_ids(c, ids, nids, c->err);
        c->err[0] = '\0';
        return;
    }
    unsigned long long rnd = 0x9e3779b97f4a7c15ull;
    /* first: the waker's cost (LOCAL, IDLE) or the at-once share (BUSY);
     * second: the latency (IDLE; BUSY when at once) */
    struct calib_series first = { 0 }, second = { 0 }, round = { 0 };
    struct calib_loop l;
    calib_loop_start(&l, calib_budget(c, where == WAKE_BUSY ? 5.0 : 3.0), c->min_rounds, 400,
                     c->o->max_spread);
    int per_round = where == WAKE_BUSY ? 20 : 40;
    double v;
    do {
        round.n = 0;
        int fast = 0, kept = 0;
        for (int i = 0; i < per_round; i++) {
            long long lat, cost;
            if (!wake_once(&s, where == WAKE_LOCAL, &rnd, &lat, &cost)) continue;
            kept++;
            if (where == WAKE_BUSY) {
                if (lat < AT_ONCE_NS) {
                    fast++;
                    calib_series_add(&second, (double)lat);
                }
                continue;
            }
            calib_series_add(&first, (double)cost);
            calib_series_add(&round, (double)(where == WAKE_LOCAL ? cost : lat));
            if (where == WAKE_IDLE) calib_series_add(&second, (double)lat);
        }
        if (where == WAKE_BUSY) {
            v = kept ? (double)fast / kept : 0;
            calib_series_add(&first, v);
        } else {
            double q1, q3;
            calib_summarise(round.v, round.n, &v, &q1, &q3);
        }
    } while (calib_loop_more(&l, v));
    if (where == WAKE_BUSY) {
        atomic_store(&s.spin, 0);
        pthread_join(tspin, NULL);
    }
    stop_sleeper(&s, ts);
    struct calib_stat *s0 = &c->r->m[ids[0]];
    calib_series_stat(&first, s0);
    calib_loop_end(&l, s0);
    if (nids == 2) {
        struct calib_stat *s1 = &c->r->m[ids[1]];
        calib_series_stat(&second, s1);
        calib_stat_rounds_of(s1, s0);
        if (where == WAKE_BUSY && !s1->measured)
            snprintf(s1->note, sizeof s1->note, "no wake onto the busy CPU ran within %lld us",
                     AT_ONCE_NS / 1000);
    }
    calib_series_free(&first);
    calib_series_free(&second);
    calib_series_free(&round);
    for (int i = 0; i < nids; i++) calib_done(c, ids[i]);
}

/* ---- wakes after an idle time (CALIB_WAKE_AFTER_IDLE_*) ----------------------------
 * How long an idle CPU takes to run a woken thread, by how long it has been
 * idle: a deeper idle state is slower to leave (cpuidle picks one by the
 * expected idle time), and a guest's vCPU idle past the host's halt polling
 * must be woken by the host.  The sleeper sleeps on the second CPU; the
 * waker, on the first, spins for the idle time (so that its own CPU stays
 * busy and the time is exact), then wakes it and spins until it ran; the
 * waker's CPU time in FUTEX_WAKE is recorded beside the latency (what
 * sending the IPI to that CPU costs it).  Each round takes every idle time
 * once, in a shuffled order, so that a quiet or a busy moment of the host
 * falls on all of them alike; rounds go on until the medians of the
 * longest idle time's rounds agree.
 *
 * An idle time is taken as a block: IDLE_LEAD wakes after it that are not
 * recorded, then IDLE_PER_ROUND that are.  What an idle vCPU costs to wake
 * follows the recent idle periods as well as this one: on an AMD EPYC
 * guest (2026-12-02) a wake after 5 us cost the waker 7-9 us and ran the
 * sleeper 10-12 us later when the idle periods before it were short too,
 * and 34 us and 75-85 us when they were mixed with long ones (a host's
 * adaptive halt polling, which a long halt resets, behaves so:
 * Documentation/virt/kvm/halt-polling.rst).  A model core's wake is
 * charged by its own idle time, as in a run whose idle periods are all
 * alike; the lead-in makes each block that steady state. */
#define IDLE_LEAD 3
#define IDLE_PER_ROUND 5

/* *lat, *cost as wake_once's; the sleeper's CPU in its wait is s->cpu_wait
 * once this returns.  With stat_path, *stat_ns is a stat(2) of it made
 * right after the wake, as a File.mtime loop's releaser makes its call
 * after the FUTEX_WAKE of its release: on the AMD EPYC guest such a call
 * cost a third more than in calibrate's loop of calls (docs/validate.md,
 * "The 2-thread mtime loop's race on two CPUs"). */
static int wake_after_spin(struct sleeper *s, long long idle_ns, long long *lat, long long *cost,
                           const char *stat_path, long long *stat_ns)
{
    int n = atomic_load(&s->ack) + 1;
    calib_spin_ns(idle_ns);
    long long c0 = calib_thread_cpu_ns();
    long long t0 = calib_now_ns();
    atomic_store(&s->word, 1);
    int woken = calib_futex_wake(&s->word, 1);
    *cost = calib_cpu_interval(s->c, c0, calib_thread_cpu_ns());
    if (stat_path) {
        struct stat st;
        long long t2 = calib_now_ns();
        (void)stat(stat_path, &st);
        *stat_ns = calib_now_ns() - t2;
    }
    while (atomic_load(&s->ack) != n) {
    }
    *lat = s->t1 - t0;
    return woken == 1;
}

/* ---- a wake onto a CPU that is waking up (CALIB_WAKE_WAKING) -----------------
 * A GVL hand-off on two CPUs often wakes its successor on the CPU that a
 * wake of the timer thread, made a moment before by the same thread, is
 * still waking up (the eventfd write when the timeslice set fills, then
 * the hand-off's FUTEX_WAKE).  That second wake cost the pthread
 * executor's holders more, and more unevenly, than a wake onto an idle or
 * a running CPU: on the Intel Xeon guest of 2026-12-06, with the timer
 * woken onto the successor's CPU, the hand-off's pthread_cond_signal took a
 * median 1.4-1.6 us but 2.9-3.1 us in one in ten and 4.1-4.3 us in one in
 * fifty (with the timer kept on the holder's CPU: 1.3, 1.5 and 1.9 us);
 * the holder leaves the timeslice set only after it, and those slow ones
 * are when the timer finds it there (docs/validate.md, "The eager timer's
 * rare finds on two CPUs").  Here: a second sleeper on the second CPU; the
 * waker spins 10 us (that CPU idles), wakes the first sleeper, spins a
 * drawn time within the first wake's latency (wake_after_idle_10us_ns,
 * else 5 us) and wakes the second, whose FUTEX_WAKE's CPU time is the
 * sample; rounds until their medians agree. */
#define WAKING_PER_ROUND 40

int calib_waking_summarise(const double *ns, int n, struct calib_waking *out)
{
    memset(out, 0, sizeof *out);
    if (n <= 0) return GV_EINVAL;
    double *s = malloc((size_t)n * sizeof *s);
    if (!s) return GV_ENOMEM;
    memcpy(s, ns, (size_t)n * sizeof *s);
    stats_sort(s, (size_t)n);
    out->n = CALIB_WAKING_LENS;
    for (int i = 0; i < CALIB_WAKING_LENS; i++)
        out->cost_ns[i] = calib_quantile(s, n, ((double)i + 0.5) / CALIB_WAKING_LENS);
    out->measured = true;
    free(s);
    return GV_OK;
}

static void bench_wake_waking(struct calib_ctx *c, struct sleeper *first)
{
    struct calib_stat *st = &c->r->m[CALIB_WAKE_WAKING];
    struct sleeper s2;
    pthread_t t2;
    if (start_sleeper(c, &s2, c->cpu1, &t2) != GV_OK) {
        calib_skip(st, c->err);
        c->err[0] = '\0';
        calib_done(c, CALIB_WAKE_WAKING);
        return;
    }
    const struct calib_stat *w10 = &c->r->m[CALIB_WAKE_AFTER_IDLE_10US];
    long long window = w10->measured && w10->median >= 1000 ? (long long)w10->median : 5000;
    unsigned long long rnd = 0x9e3779b97f4a7c15ull;
    long long lat, cost;
    wake_after_spin(&s2, 1000000, &lat, &cost, NULL, NULL);  /* asleep once before the first sample */
    struct calib_series all = { 0 }, round = { 0 };
    struct calib_loop l;
    calib_loop_start(&l, calib_budget(c, 0.5), c->min_rounds, 200, c->o->max_spread);
    double med = 0;
    do {
        round.n = 0;
        for (int tries = 0; round.n < WAKING_PER_ROUND && tries < 4 * WAKING_PER_ROUND; tries++) {
            int n1 = atomic_load(&first->ack) + 1, n2 = atomic_load(&s2.ack) + 1;
            calib_spin_ns(calib_idle_ns[0]);
            atomic_store(&first->word, 1);
            int w1 = calib_futex_wake(&first->word, 1);
            calib_spin_ns((long long)(calib_rand(&rnd) % (unsigned long long)window));
            long long c0 = calib_thread_cpu_ns();
            atomic_store(&s2.word, 1);
            int w2 = calib_futex_wake(&s2.word, 1);
            long long c1 = calib_thread_cpu_ns();
            while (atomic_load(&first->ack) != n1 || atomic_load(&s2.ack) != n2) {
            }
            if (w1 == 1 && w2 == 1) {
                double v = (double)calib_cpu_interval(c, c0, c1);
                calib_series_add(&round, v);
                calib_series_add(&all, v);
            }
        }
        double q1, q3;
        if (round.oom || calib_summarise(round.v, round.n, &med, &q1, &q3) != GV_OK) break;
    } while (calib_loop_more(&l, med));
    calib_loop_end(&l, st);
    stop_sleeper(&s2, t2);
    int rc = all.oom || round.oom ? GV_ENOMEM : calib_waking_summarise(all.v, all.n, &c->r->waking);
    if (rc == GV_OK) {
        calib_series_stat(&all, st);
        snprintf(st->note, sizeof st->note, "the second wake 0-%lld ns after the first (drawn evenly)", window);
    } else {
        calib_skip(st, rc == GV_ENOMEM ? "out of memory" : "no second sleeper was asleep when woken");
    }
    calib_series_free(&all);
    calib_series_free(&round);
    calib_done(c, CALIB_WAKE_WAKING);
}

/* ---- a wake before the sleeper's vCPU halted (CALIB_WAKE_PREHALT_*) -------
 * On the 2-vCPU Intel Xeon guest of Linux 6.18.44-fc-v1300 (2026-12-08) a
 * FUTEX_WAKE made 1-6 us after the sleeper on the other, idle vCPU called
 * FUTEX_WAIT cost its waker 0.7 us in 68-98% of the wakes, and the sleeper
 * was back 16-18 us after its call; from 9 us on nearly every one cost
 * 9-10 us (the IPI to a halted vCPU, a VM exit) and took 25 us
 * (scripts/wake_after_sleep.c): the sleeper's way into its wait and the
 * vCPU's into halt take several microseconds there, and a wake within
 * them needs no IPI.  A GVL hand-off on two CPUs often wakes a thread that
 * went to sleep a moment before: in the pthread executor's and Ruby
 * 3.1.2's 2-thread mtime loops there a wake that woke someone cost its
 * waker a mean 4.2 and 3.7 us (docs/validate.md, "A wake before the vCPU
 * halts").  Here: the waker, spinning on the first CPU, wakes the sleeper
 * 1, 2, .. 12 us after its FUTEX_WAIT call (blocks of PREHALT_LEAD
 * unrecorded and PREHALT_PER_BLOCK recorded wakes per delay, so that each
 * delay meets the sleeper's recent short sleeps); a wake is one without
 * the IPI when it cost the waker less than halfway from futex_wake_ns to
 * wake_ipi_after_idle_10us_ns.  The sleeper spins PREHALT_RUN before each
 * wait, as a thread that ran before it slept (a hand-off's successor):
 * right after a vCPU's long idle the first microseconds behave otherwise,
 * and PREHALT_WARM passes go unrecorded (on that guest, after the longer
 * idle times above, the first two passes found no such wake at all).
 * Each pass gives the window (where that share falls below one half for
 * good, interpolated between the delays around it; 0 if it is below at
 * every delay), the share over the delays below it, and the median return
 * (call to return) of those wakes; the measurements
 * are the passes' medians.  Where the IPI costs less than three plain
 * FUTEX_WAKEs nothing tells the two kinds apart: skipped (no key). */
#define PREHALT_DELAYS 12
#define PREHALT_LEAD 3
#define PREHALT_PER_BLOCK 20
#define PREHALT_RUN 20000
#define PREHALT_WARM 2

/* Wake s delay_ns after its FUTEX_WAIT call: *cost the waker's CPU in the
 * FUTEX_WAKE, *back the sleeper's call to its return; 0 if it was not
 * asleep in the kernel. */
static int wake_into_wait(struct sleeper *s, long long delay_ns, long long *cost, long long *back)
{
    int n = atomic_load(&s->ack) + 1;
    long long prev = s->t1, t0;
    while ((t0 = atomic_load(&s->t0)) <= prev) {
    }
    calib_spin_ns(t0 + delay_ns - calib_now_ns());
    long long c0 = calib_thread_cpu_ns();
    atomic_store(&s->word, 1);
    int woken = calib_futex_wake(&s->word, 1);
    *cost = calib_cpu_interval(s->c, c0, calib_thread_cpu_ns());
    while (atomic_load(&s->ack) != n) {
    }
    *back = s->t1 - t0;
    return woken == 1;
}

/* One pass's window (ns; 0: none), share and return (-1: no wake without
 * the IPI below the window) from the share of such wakes at each delay
 * ((i + 1) us) and their returns. */
void calib_prehalt_pass(const double *share, int ndelays, const double *returns, const int *delay_of, int nret,
                        double *window, double *in_share, double *ret)
{
    *window = 0;
    *in_share = 0;
    *ret = -1;
    int i = ndelays;  /* one past the last delay whose share is one half or more */
    while (i > 0 && share[i - 1] < 0.5) i--;
    if (i == 0) return;
    double sum = 0;
    for (int j = 0; j < i; j++) sum += share[j];
    *in_share = sum / i;
    if (i == ndelays) {
        *window = 1000.0 * ndelays;
    } else {  /* between i us (share >= 1/2) and i + 1 us (below) */
        *window = 1000.0 * (i + (share[i - 1] - 0.5) / (share[i - 1] - share[i]));
    }
    double v[PREHALT_DELAYS * PREHALT_PER_BLOCK];
    int n = 0;
    for (int k = 0; k < nret && n < (int)(sizeof v / sizeof v[0]); k++)
        if (1000.0 * (delay_of[k] + 1) <= *window) v[n++] = returns[k];
    double q1, q3;
    if (n > 0 && calib_summarise(v, n, ret, &q1, &q3) != GV_OK) *ret = -1;
}

static void bench_wake_prehalt(struct calib_ctx *c, struct sleeper *s)
{
    static const enum calib_id ids[] = { CALIB_WAKE_PREHALT_WINDOW, CALIB_WAKE_PREHALT_SHARE,
                                         CALIB_WAKE_PREHALT_RETURN };
    const int nids = (int)(sizeof ids / sizeof ids[0]);
    const struct calib_stat *fw = &c->r->m[CALIB_FUTEX_WAKE], *ipi = &c->r->m[CALIB_WAKE_IPI_AFTER_IDLE_10US];
    if (!fw->measured || !ipi->measured || ipi->median < 3 * fw->median) {
        calib_skip_ids(c, ids, nids,
                       "a wake onto a halted CPU costs its waker less than three of futex_wake_ns: no IPI to tell apart");
        return;
    }
    double cheap_below = (fw->median + ipi->median) / 2;
    struct calib_series win = { 0 }, shr = { 0 }, ret = { 0 };
    atomic_store(&s->pre_spin, PREHALT_RUN);
    int passes = c->o->quick ? 3 : 8;
    for (int pass = -PREHALT_WARM; pass < passes; pass++) {
        double share[PREHALT_DELAYS], returns[PREHALT_DELAYS * PREHALT_PER_BLOCK];
        int delay_of[PREHALT_DELAYS * PREHALT_PER_BLOCK], nret = 0;
        for (int d = 0; d < PREHALT_DELAYS; d++) {
            int n = 0, cheap = 0;
            for (int k = 0; k < PREHALT_LEAD + PREHALT_PER_BLOCK; k++) {
                long long cost, back;
                if (!wake_into_wait(s, 1000LL * (d + 1), &cost, &back) || k < PREHALT_LEAD) continue;
                n++;
                if ((double)cost < cheap_below) {
                    cheap++;
                    returns[nret] = (double)back;
                    delay_of[nret++] = d;
                }
            }
            share[d] = n > 0 ? (double)cheap / n : 0;
        }
        double w, sh, r;
        calib_prehalt_pass(share, PREHALT_DELAYS, returns, delay_of, nret, &w, &sh, &r);
        if (pass < 0) continue;
        calib_series_add(&win, w);
        calib_series_add(&shr, sh);
        if (r >= 0) calib_series_add(&ret, r);
    }
    atomic_store(&s->pre_spin, 0);
    if (win.oom || shr.oom || ret.oom) {
        calib_skip_ids(c, ids, nids, "out of memory");
    } else {
        calib_series_stat(&win, &c->r->m[CALIB_WAKE_PREHALT_WINDOW]);
        calib_series_stat(&shr, &c->r->m[CALIB_WAKE_PREHALT_SHARE]);
        calib_series_stat(&ret, &c->r->m[CALIB_WAKE_PREHALT_RETURN]);
        if (ret.n == 0) calib_skip(&c->r->m[CALIB_WAKE_PREHALT_RETURN], "no wake without the IPI");
        for (int i = 0; i < nids; i++) {
            struct calib_stat *st = &c->r->m[ids[i]];
            if (st->measured)
                snprintf(st->note, sizeof st->note, "%d passes of %d wakes 1..%d us after the call; no IPI: under %.4g ns",
                         passes, PREHALT_DELAYS * PREHALT_PER_BLOCK, PREHALT_DELAYS, cheap_below);
            calib_done(c, ids[i]);
        }
    }
    calib_series_free(&win);
    calib_series_free(&shr);
    calib_series_free(&ret);
}

static void bench_wake_after_idle(struct calib_ctx *c)
{
    enum calib_id ids[CALIB_IDLE_LEVELS], ipi_ids[CALIB_IDLE_LEVELS];
    for (int i = 0; i < CALIB_IDLE_LEVELS; i++) {
        ids[i] = (enum calib_id)(CALIB_WAKE_AFTER_IDLE_10US + i);
        ipi_ids[i] = (enum calib_id)(CALIB_WAKE_IPI_AFTER_IDLE_10US + i);
    }
    /* measured in the 10 us idle time's wakes, or with its sleeper after them */
    static const enum calib_id w10_ids[] = { CALIB_WAKE_IDLE_CPU, CALIB_STAT_AFTER_WAKE, CALIB_WAKE_WAKING,
                                             CALIB_WAKE_PREHALT_WINDOW, CALIB_WAKE_PREHALT_SHARE,
                                             CALIB_WAKE_PREHALT_RETURN };
    const int nw10 = (int)(sizeof w10_ids / sizeof w10_ids[0]);
    if (c->cpu1 < 0) {
        calib_skip_ids(c, ids, CALIB_IDLE_LEVELS, "needs two CPUs");
        calib_skip_ids(c, ipi_ids, CALIB_IDLE_LEVELS, "needs two CPUs");
        calib_skip_ids(c, w10_ids, nw10, "needs two CPUs");
        return;
    }
    struct sleeper s;
    pthread_t ts;
    if (start_sleeper(c, &s, c->cpu1, &ts) != GV_OK) {
        calib_skip_ids(c, ids, CALIB_IDLE_LEVELS, c->err);
        calib_skip_ids(c, ipi_ids, CALIB_IDLE_LEVELS, c->err);
        calib_skip_ids(c, w10_ids, nw10, c->err);
        c->err[0] = '\0';
        return;
    }
    long long warm, warm_cost, stat_ns = 0;
    wake_after_spin(&s, 1000000, &warm, &warm_cost, NULL, NULL);  /* the sleeper asleep once before the first sample */
    unsigned long long rnd = 0x2545f4914f6cdd1dull;
    /* rounds go on until the longest idle time's medians agree */
    _Static_assert(CALIB_IDLE_LEVELS <= CALIB_KINDS_MAX, "the idle times are calib_kinds");
    struct calib_kinds kinds, ipi;
    /* the sleeper's CPU time in its FUTEX_WAIT at the shortest idle time (a
     * hand-off's): a guest charges its thread for part of the way out of
     * the halted vCPU, which the model's idle wake counts as idle time
     * otherwise (wake_idle_cpu, docs/calibrate.md) */
    struct calib_series sleep_cpu = { 0 }, stat_after = { 0 };
    calib_kinds_start(&kinds, c, ids, CALIB_IDLE_LEVELS, CALIB_IDLE_LEVELS - 1, 4.0, 2 * c->min_rounds);
    calib_kinds_start(&ipi, c, ipi_ids, CALIB_IDLE_LEVELS, CALIB_IDLE_LEVELS - 1, 4.0, 2 * c->min_rounds);
    do {
        int order[CALIB_IDLE_LEVELS];
        calib_rounds_order(order, CALIB_IDLE_LEVELS, 1, &rnd);
        for (int i = 0; i < CALIB_IDLE_LEVELS; i++)
            for (int j = 0; j < IDLE_LEAD + IDLE_PER_ROUND; j++) {
                long long d, cost;
                const char *sp = order[i] == 0 ? c->o->stat_path : NULL;
                if (wake_after_spin(&s, calib_idle_ns[order[i]], &d, &cost, sp, &stat_ns) && j >= IDLE_LEAD) {
                    calib_kinds_add(&kinds, order[i], (double)d);
                    calib_kinds_add(&ipi, order[i], (double)cost);
                    if (order[i] == 0) calib_series_add(&sleep_cpu, (double)s.cpu_wait);
                    if (sp) calib_series_add(&stat_after, (double)stat_ns);
                }
            }
        calib_kinds_round_end(&ipi);
    } while (calib_kinds_round_end(&kinds));
    calib_kinds_end(&kinds, c);
    calib_kinds_end(&ipi, c);
    bench_wake_waking(c, &s);
    bench_wake_prehalt(c, &s);
    stop_sleeper(&s, ts);
    struct calib_stat *sc = &c->r->m[CALIB_WAKE_IDLE_CPU];
    const struct calib_stat *w10 = &c->r->m[CALIB_WAKE_AFTER_IDLE_10US];
    calib_series_stat(&sleep_cpu, sc);
    calib_stat_rounds_of(sc, w10);  /* the rounds of its idle time's wakes */
    calib_series_free(&sleep_cpu);
    struct calib_stat *sa = &c->r->m[CALIB_STAT_AFTER_WAKE];
    calib_series_stat(&stat_after, sa);
    calib_stat_rounds_of(sa, w10);
    calib_series_free(&stat_after);
}

/* calib_wake_stat_windows (calib_int.h): the speed stage's wakes
 * (calib_speed.c), the 10 us idle time's wakes of the benchmark above in
 * windows; a wake that found the sleeper awake is done again.  The
 * windows come in blocks of WAKE_STAT_BLOCK, the waker on the first CPU
 * and on the second in turn (the sleeper on the other): a vCPU can stay at
 * one level for seconds while the other moves (on the Intel Xeon guest,
 * 2026-12-06 16:53 UTC, 99% of the first CPU's speed windows slow and 22%
 * of the second's), and windows on one CPU alone then meet one level and
 * measure no share (the profiles of `xeon-2vcpu-2026-12-06-v1272-s36` and
 * `-s41`: their models then slowed a wake's cost as much as a stat, where
 * the same guest's other profiles measured 0.29-0.31 of it). */
#define WAKE_STAT_BLOCK 25
int calib_wake_stat_windows(struct calib_ctx *c, int n, int rounds, double *wake_ns, double *stat_ns)
{
    struct sleeper s;
    pthread_t ts;
    int rc = GV_OK;
    bool running = false;
    double *w = malloc((size_t)rounds * sizeof *w), *st = malloc((size_t)rounds * sizeof *st);
    if (!w || !st) rc = gv_fail(c->err, c->errlen, GV_ENOMEM, "out of memory");
    long long lat, cost, stat_ns1 = 0;
    for (int i = 0; i < n && rc == GV_OK; i++) {
        if (i % WAKE_STAT_BLOCK == 0) {
            /* the next block: the waker on one CPU, the sleeper on the other */
            bool second = (i / WAKE_STAT_BLOCK) % 2;
            if (running) stop_sleeper(&s, ts);
            running = false;
            rc = calib_pin_self(c, second ? c->cpu1 : c->cpu0);
            if (rc == GV_OK) rc = start_sleeper(c, &s, second ? c->cpu0 : c->cpu1, &ts);
            if (rc != GV_OK) break;
            running = true;
            wake_after_spin(&s, 1000000, &lat, &cost, NULL, NULL);  /* asleep once before the first */
        }
        int j = 0;
        for (int tries = 0; j < rounds && tries < 4 * rounds; tries++)
            if (wake_after_spin(&s, calib_idle_ns[0], &lat, &cost, c->o->stat_path, &stat_ns1)) {
                w[j] = (double)cost;
                st[j++] = (double)stat_ns1;
            }
        if (j == 0) {
            rc = gv_fail(c->err, c->errlen, GV_ERUN, "the sleeper was never asleep when woken");
            break;
        }
        stats_sort(w, (size_t)j);
        stats_sort(st, (size_t)j);
        wake_ns[i] = w[j / 2];
        stat_ns[i] = st[j / 2];
    }
    if (running) stop_sleeper(&s, ts);
    int back = calib_pin_self(c, c->cpu0);
    free(w);
    free(st);
    return rc == GV_OK ? back : rc;
}

/* calib_wake_probe (calib.h): the first idle time's block of the benchmark
 * above, alone - IDLE_LEAD wakes not recorded, then `wakes` that are. */
int calib_wake_probe(int wakes, struct calib_wake_probe *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (wakes < 1 || wakes > 1000) return gv_fail(err, errlen, GV_EINVAL, "probe wakes %d not in 1..1000", wakes);
    double *lat = calloc((size_t)wakes, sizeof *lat), *cost = calloc((size_t)wakes, sizeof *cost);
    if (!lat || !cost) {
        free(lat);
        free(cost);
        return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    }
    struct calib_probe_env e;
    struct sleeper sl;
    pthread_t ts;
    int rc = calib_probe_begin(&e, "wake", err, errlen);
    if (rc == GV_OK && (rc = start_sleeper(&e.c, &sl, e.c.cpu1, &ts)) != GV_OK) calib_probe_end(&e);
    if (rc == GV_OK) {
        long long d, dc;
        wake_after_spin(&sl, 1000000, &d, &dc, NULL, NULL);  /* the sleeper asleep once before the first sample */
        int n = 0;
        for (int i = 0; i < IDLE_LEAD + wakes; i++)
            if (wake_after_spin(&sl, calib_idle_ns[0], &d, &dc, NULL, NULL) && i >= IDLE_LEAD) {
                lat[n] = (double)d;
                cost[n] = (double)dc;
                n++;
            }
        stop_sleeper(&sl, ts);
        if (n > 0) {
            stats_sort(lat, n);
            stats_sort(cost, n);
            out->measured = true;
            out->lat_ns = lat[n / 2];
            out->cost_ns = cost[n / 2];
        }
        out->wakes = n;
        out->cpus[0] = e.c.cpu0;
        out->cpus[1] = e.c.cpu1;
        calib_probe_end(&e);
    }
    free(lat);
    free(cost);
    return rc;
}

/* ---- futex ping-pong ------------------------------------------------------------ */

struct pingpong {
    atomic_int word[2];    /* word[i] = 1: thread i's turn */
    int efd[2];            /* >= 0: thread i sleeps in ppoll on efd[i] instead (efd_sleep) */
    int efd_idle;          /* ppoll's second fd, never written */
    atomic_int quit;       /* the other thread could not start */
    long n;                /* turns each */
    long vol[2], invol[2]; /* switches during the run, per thread */
    bool time_wakes;       /* read the waker's CPU clock around each wake */
    long long wake_cpu[2]; /* then: each thread's CPU ns in its wakes */
};

/* The wake of the other thread, on the waker's CPU clock if asked. */
static void pp_wake(struct pingpong *p, int me, int other)
{
    long long c0 = p->time_wakes ? calib_thread_cpu_ns() : 0;
    if (p->efd[0] >= 0) {
        exec_efd_write(p->efd[other]);
    } else {
        atomic_store(&p->word[other], 1);
        calib_futex_wake(&p->word[other], 1);
    }
    if (p->time_wakes) p->wake_cpu[me] += calib_thread_cpu_ns() - c0;
}

struct pp_arg {
    struct pingpong *p;
    int who;
};

static void *pp_thread(void *arg)
{
    struct pp_arg *a = arg;
    struct pingpong *p = a->p;
    int me = a->who, other = 1 - me;
    long v0, i0, v1, i1;
    calib_thread_switches(&v0, &i0);
    for (long i = 0; i < p->n; i++) {
        if (p->efd[0] >= 0) {
            efd_sleep(p->efd[me], p->efd_idle);
        } else {
            calib_futex_wait(&p->word[me], 0);
            atomic_store(&p->word[me], 0);
        }
        if (atomic_load(&p->quit)) break;
        pp_wake(p, me, other);
    }
    calib_thread_switches(&v1, &i1);
    p->vol[me] = v1 - v0;
    p->invol[me] = i1 - i0;
    return NULL;
}

static void close_fds(int *fd, int n)
{
    for (int i = 0; i < n; i++)
        if (fd[i] >= 0) close(fd[i]);
}

/* One ping-pong of 2n hand-offs on cpu_a / cpu_b: ns per hand-off, and the
 * involuntary share of the two threads' switches.  ppoll: the threads
 * sleep in ppoll on eventfds (thread 0's starts readable: its turn). */
static int pingpong_round(struct calib_ctx *c, int cpu_a, int cpu_b, long n, bool ppoll_sleep, double *per,
                          double *invol, double *wake_cpu)
{
    struct pingpong p;
    memset(&p, 0, sizeof p);
    p.n = n;
    p.time_wakes = wake_cpu != NULL;
    p.efd[0] = p.efd[1] = p.efd_idle = -1;
    if (ppoll_sleep) {
        p.efd[0] = eventfd(1, EFD_NONBLOCK | EFD_CLOEXEC);
        p.efd[1] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        p.efd_idle = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (p.efd[0] < 0 || p.efd[1] < 0 || p.efd_idle < 0) {
            close_fds(p.efd, 2);
            close_fds(&p.efd_idle, 1);
            snprintf(c->err, c->errlen, "eventfd: %s", strerror(errno));
            return GV_ERUN;
        }
    }
    atomic_store(&p.word[0], 1);
    struct pp_arg a0 = { &p, 0 }, a1 = { &p, 1 };
    pthread_t t0, t1;
    long long start = calib_now_ns();
    int rc = GV_OK;
    if (calib_thread_start(c, &t1, cpu_b, pp_thread, &a1) != GV_OK) {
        rc = GV_ERUN;
    } else if (calib_thread_start(c, &t0, cpu_a, pp_thread, &a0) != GV_OK) {
        atomic_store(&p.quit, 1);
        if (ppoll_sleep) {
            exec_efd_write(p.efd[1]);
        } else {
            atomic_store(&p.word[1], 1);
            calib_futex_wake(&p.word[1], 1);
        }
        pthread_join(t1, NULL);
        rc = GV_ERUN;
    } else {
        pthread_join(t0, NULL);
        pthread_join(t1, NULL);
    }
    close_fds(p.efd, 2);
    close_fds(&p.efd_idle, 1);
    if (rc != GV_OK) return rc;
    long long dt = calib_now_ns() - start;
    *per = (double)dt / (double)(2 * n);
    if (wake_cpu) *wake_cpu = (double)(p.wake_cpu[0] + p.wake_cpu[1]) / (double)(2 * n);
    long sw = p.vol[0] + p.vol[1] + p.invol[0] + p.invol[1];
    *invol = sw > 0 ? (double)(p.invol[0] + p.invol[1]) / (double)sw : 0;
    return GV_OK;
}

struct pp_rounds {
    int cpu_b;
    long n;
    struct calib_series invol;   /* the involuntary share of each round */
};

static int pp_round(struct calib_ctx *c, void *ctx, double *v)
{
    struct pp_rounds *p = ctx;
    double invol;
    int rc = pingpong_round(c, c->cpu0, p->cpu_b, p->n, false, v, &invol, NULL);
    if (rc == GV_OK) calib_series_add(&p->invol, invol);
    return rc;
}

static void bench_pingpong(struct calib_ctx *c, bool same)
{
    enum calib_id id = same ? CALIB_HANDOFF_SAME : CALIB_HANDOFF_CROSS;
    if (!same && c->cpu1 < 0) {
        calib_skip_ids(c, &id, 1, "needs two CPUs");
        return;
    }
    struct pp_rounds p = { same ? c->cpu0 : c->cpu1, c->o->quick ? 2000 : 5000, { 0 } };
    int rc = calib_rounds(c, id, 2.5, pp_round, &p);
    calib_done(c, id);
    if (same) {
        struct calib_stat *si = &c->r->m[CALIB_HANDOFF_SAME_INVOL];
        if (rc == GV_OK) {
            calib_series_stat(&p.invol, si);
            si->rounds = c->r->m[id].rounds;
        } else {
            calib_skip(si, c->r->m[id].note);
        }
        calib_done(c, CALIB_HANDOFF_SAME_INVOL);
    }
    calib_series_free(&p.invol);
}

/* The eventfd + ppoll ping-pong on one CPU, each round beside a futex
 * round (which first alternates): the ppoll hand-off, what it adds to the
 * futex one, and how much of that the waker's write(2) costs beyond its
 * FUTEX_WAKE (each wake on the waker's CPU clock, in both rounds; the
 * clock reads add the same to both), round by round: a difference of two
 * medians taken apart on a shared machine is mostly noise, and a one-way
 * wake after a pause (futex_wake_ns) finds colder caches than a hand-off
 * chain (calib_map.c) */
struct ppoll_rounds {
    long n;
    int k;
    struct calib_series extra, waker;
};

static int ppoll_round(struct calib_ctx *c, void *ctx, double *v)
{
    struct ppoll_rounds *p = ctx;
    double fut, pol, invol, fut_ts, pol_ts, fut_wake, pol_wake;
    bool futex_first = p->k++ & 1;
    int rc = GV_OK;
    for (int i = 0; i < 2 && rc == GV_OK; i++) {
        bool ppoll_sleep = (i == 0) != futex_first;
        rc = pingpong_round(c, c->cpu0, c->cpu0, p->n, ppoll_sleep, ppoll_sleep ? &pol : &fut, &invol, NULL);
    }
    for (int i = 0; i < 2 && rc == GV_OK; i++) {
        bool ppoll_sleep = (i == 0) != futex_first;
        rc = pingpong_round(c, c->cpu0, c->cpu0, p->n, ppoll_sleep, ppoll_sleep ? &pol_ts : &fut_ts, &invol,
                            ppoll_sleep ? &pol_wake : &fut_wake);
    }
    if (rc != GV_OK) return rc;
    calib_series_add(&p->extra, pol - fut);
    calib_series_add(&p->waker, pol_wake - fut_wake);
    *v = pol;
    return GV_OK;
}

static void series_to(struct calib_ctx *c, enum calib_id id, const struct calib_series *s, int rc)
{
    struct calib_stat *st = &c->r->m[id];
    const struct calib_stat *base = &c->r->m[CALIB_HANDOFF_PPOLL];
    if (rc == GV_OK) {
        calib_series_stat(s, st);
        calib_stat_rounds_of(st, base);
    } else {
        calib_skip(st, base->note);
    }
    calib_done(c, id);
}

static void bench_pingpong_ppoll(struct calib_ctx *c)
{
    struct ppoll_rounds p = { c->o->quick ? 2000 : 5000, 0, { 0 }, { 0 } };
    int rc = calib_rounds(c, CALIB_HANDOFF_PPOLL, 2.5, ppoll_round, &p);
    calib_done(c, CALIB_HANDOFF_PPOLL);
    series_to(c, CALIB_HANDOFF_PPOLL_EXTRA, &p.extra, rc);
    series_to(c, CALIB_EVENTFD_WAKE_EXTRA, &p.waker, rc);
    calib_series_free(&p.extra);
    calib_series_free(&p.waker);
}

/* ---- context switch: two threads yielding on one CPU ---------------------------- */

struct yield_ctx {
    long n;
    long sw[2];
    atomic_int started;
};

struct yield_arg {
    struct yield_ctx *y;
    int who;
};

static void *yield_thread(void *arg)
{
    struct yield_arg *a = arg;
    long v0, i0, v1, i1;
    atomic_fetch_add(&a->y->started, 1);
    while (atomic_load(&a->y->started) < 2) sched_yield();
    calib_thread_switches(&v0, &i0);
    for (long i = 0; i < a->y->n; i++) sched_yield();
    calib_thread_switches(&v1, &i1);
    a->y->sw[a->who] = (v1 - v0) + (i1 - i0);
    return NULL;
}

static int yield_round(struct calib_ctx *c, void *ctx, double *v)
{
    (void)ctx;
    struct yield_ctx y;
    memset(&y, 0, sizeof y);
    y.n = c->o->quick ? 5000 : 10000;
    struct yield_arg a0 = { &y, 0 }, a1 = { &y, 1 };
    pthread_t t0, t1;
    if (calib_thread_start(c, &t0, c->cpu0, yield_thread, &a0) != GV_OK) return GV_ERUN;
    long long start = calib_now_ns();
    if (calib_thread_start(c, &t1, c->cpu0, yield_thread, &a1) != GV_OK) {
        atomic_fetch_add(&y.started, 1);
        pthread_join(t0, NULL);
        return GV_ERUN;
    }
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
    long long dt = calib_now_ns() - start;
    long sw = y.sw[0] + y.sw[1];
    *v = sw > 0 ? (double)dt / (double)sw : 0;
    return GV_OK;
}

static void bench_yield(struct calib_ctx *c)
{
    calib_rounds(c, CALIB_YIELD_SWITCH, 1.5, yield_round, NULL);
    calib_done(c, CALIB_YIELD_SWITCH);
}

/* ---- wakeup preemption on one CPU ------------------------------------------------ *
 * A hand-off chain like a GVL's: A works 2 us, wakes B and goes on working
 * for 10 us (a releaser back from its system call), then sleeps until B
 * wakes it; B, woken, works 2 us, wakes A and sleeps.  Both on one CPU.  B
 * preempted A if B ran before A's 10 us were over. */

#define PRE_WORK_NS 2000
#define PRE_AFTER_NS 10000

struct preempt_ctx {
    atomic_int word[2];
    atomic_int quit;        /* A could not start */
    long n;
    long long t_wake_end;   /* A's end of work after the wake */
    long long t_b;          /* when B ran */
    long preempted, total;
};

static void *preempt_b(void *arg)
{
    struct preempt_ctx *p = arg;
    for (long i = 0; i < p->n; i++) {
        calib_futex_wait(&p->word[1], 0);
        if (atomic_load(&p->quit)) break;
        p->t_b = calib_now_ns();
        atomic_store(&p->word[1], 0);
        calib_spin_ns(PRE_WORK_NS);
        atomic_store(&p->word[0], 1);
        calib_futex_wake(&p->word[0], 1);
    }
    return NULL;
}

static void preempt_a(struct preempt_ctx *p)
{
    for (long i = 0; i < p->n; i++) {
        calib_spin_ns(PRE_WORK_NS);
        long long t0 = calib_now_ns();
        atomic_store(&p->word[1], 1);
        calib_futex_wake(&p->word[1], 1);
        /* work on: PRE_AFTER_NS of CPU time, not of wall time (a preemption
         * must not shorten it) */
        long long c0 = calib_thread_cpu_ns();
        while (calib_thread_cpu_ns() - c0 < PRE_AFTER_NS) {
        }
        p->t_wake_end = calib_now_ns();
        calib_futex_wait(&p->word[0], 0);
        atomic_store(&p->word[0], 0);
        if (p->t_b >= t0) {
            p->total++;
            if (p->t_b < p->t_wake_end) p->preempted++;
        }
    }
}

static void *preempt_a_thread(void *arg)
{
    preempt_a(arg);
    return NULL;
}

static int preempt_round(struct calib_ctx *c, void *ctx, double *v)
{
    (void)ctx;
    struct preempt_ctx p;
    memset(&p, 0, sizeof p);
    p.n = c->o->quick ? 300 : 600;
    pthread_t ta, tb;
    if (calib_thread_start(c, &tb, c->cpu0, preempt_b, &p) != GV_OK) return GV_ERUN;
    if (calib_thread_start(c, &ta, c->cpu0, preempt_a_thread, &p) != GV_OK) {
        atomic_store(&p.quit, 1);
        atomic_store(&p.word[1], 1);
        calib_futex_wake(&p.word[1], 1);
        pthread_join(tb, NULL);
        return GV_ERUN;
    }
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    *v = p.total ? (double)p.preempted / (double)p.total : 0;
    return GV_OK;
}

static void bench_preempt(struct calib_ctx *c)
{
    calib_rounds(c, CALIB_WAKE_PREEMPT, 2.5, preempt_round, NULL);
    calib_done(c, CALIB_WAKE_PREEMPT);
}

void calib_bench_wake(struct calib_ctx *c)
{
    calib_name("yield");
    bench_yield(c);
    calib_name("pp_same");
    bench_pingpong(c, true);
    calib_name("pp_ppoll");
    bench_pingpong_ppoll(c);
    calib_name("preempt");
    bench_preempt(c);
    calib_name("wake_local");
    bench_wake(c, WAKE_LOCAL);
    calib_name("wake_idle");
    bench_wake(c, WAKE_IDLE);
    calib_name("wake_busy");
    bench_wake(c, WAKE_BUSY);
    calib_name("wake_after");
    bench_wake_after_idle(c);
    calib_name("pp_cross");
    bench_pingpong(c, false);
    calib_name("pack");
    calib_bench_pack(c);
    calib_name("pack_util");
    calib_bench_pack_util(c);
    calib_name("race");
    calib_bench_race(c);
    calib_name("cond_section");
    calib_bench_cond_section(c);
}
