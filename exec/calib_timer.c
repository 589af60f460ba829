/* calib_timer.c - how late a timed futex wait ends (CALIB_TIMER_LATE_*).
 *
 * glibc's pthread_cond_timedwait sleeps in FUTEX_WAIT_BITSET with an
 * absolute CLOCK_MONOTONIC deadline (nptl/pthread_cond_wait.c,
 * __futex_abstimed_wait_common64).  Linux arms that sleep's hrtimer over
 * [deadline, deadline + current->timer_slack_ns] (kernel/futex/waitwake.c
 * futex_wait -> futex_setup_timer), and a timer alone on its CPU fires at
 * the end of the range: a normal thread's slack is 50 us
 * (init/init_task.c; prctl(2) PR_SET_TIMERSLACK).  What the thread sees
 * is that plus the time from the expiry to its own code running again
 * (the interrupt, the wake-up, the switch, the futex's return).
 *
 * The measuring thread waits on the first CPU with a busy thread beside it
 * there (a threshold helper polls while a Ruby thread runs), for each size
 * with its default slack and with the slack set to 1 ns, and records the
 * time from the deadline to its return.  A round takes every (size, slack)
 * TIMER_PER_ROUND times in a shuffled order, so that a busy moment of the
 * host falls on all of them alike; rounds go on until the longest size's
 * medians agree, or the budget is spent.  The thread's slack is restored.
 *
 * CALIB_TIMER_STALL: the busy thread reads the clock in its loop and
 * notes every gap of STALL_GAP_NS or more.  At a 1 ns-slack wait's expiry
 * (its deadline) it is in a gap that lasts until the waiter is asleep
 * again: the waiter's own CPU (its wake-up, its bookkeeping, its next
 * wait's entry) and whatever else stopped the CPU.  Less the waiter's CPU
 * time per wait (its thread clock from one wait's start to the next's),
 * that is how long the CPU stopped at the expiry.  On a virtual CPU whose
 * timer interrupt the host delivers it is tens of microseconds (an AMD
 * EPYC Firecracker guest: the helper's traced expiry stopped the guest
 * 41 us, docs/validate.md); on bare metal about nothing.
 */
#include <errno.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../common/err.h"
#include "calib_int.h"

#define TIMER_PER_ROUND 3
#define TIMER_CASES (2 * CALIB_TIMER_SIZES)
#define STALL_GAP_NS 2000       /* a clock read this much after the last one is a gap */
#define STALL_GAPS (1 << 16)    /* gaps kept (a full run sees a few thousand) */
#define STALL_WAITS 4096        /* waits kept */
#define STALL_LATE_NS 20000     /* an expiry's gap begins at most this long after the deadline */

const long long calib_timer_ns[CALIB_TIMER_SIZES] = { 100000, 300000, 1000000 };

struct spinner {
    atomic_int stop;
    long long (*gap)[2];        /* [start, end] of each gap, ns; NULL: none kept */
    atomic_int ngap;
};

static void *spin_thread(void *arg)
{
    struct spinner *s = arg;
    long long last = calib_now_ns();
    while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
        long long now = calib_now_ns();
        int n = atomic_load_explicit(&s->ngap, memory_order_relaxed);
        if (now - last >= STALL_GAP_NS && s->gap && n < STALL_GAPS) {
            s->gap[n][0] = last;
            s->gap[n][1] = now;
            atomic_store_explicit(&s->ngap, n + 1, memory_order_release);
        }
        last = now;
    }
    return NULL;
}

/* The waits of one run, in order: deadline, the waiter's CPU clock at its
 * start, whether its slack was 1 ns. */
struct stall_waits {
    long long dl[STALL_WAITS], cpu[STALL_WAITS];
    bool one_ns[STALL_WAITS];
    int n;
};

/* The gap the busy thread was in at `at`, or that began within
 * STALL_LATE_NS after it, ns long (-1: none).  The CPU stops a few
 * microseconds after the deadline (3.3-4.1 us on the AMD EPYC guest): the
 * hrtimer's expiry, programmed in the CPU's own clock, comes that much
 * after the clock_gettime deadline. */
static long long gap_at(const struct spinner *s, int ngap, long long at)
{
    int lo = 0, hi = ngap - 1, found = -1;
    while (lo <= hi) {  /* the last gap starting at or before at + STALL_LATE_NS */
        int mid = (lo + hi) / 2;
        if (s->gap[mid][0] <= at + STALL_LATE_NS) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return found >= 0 && s->gap[found][1] >= at ? s->gap[found][1] - s->gap[found][0] : -1;
}

static void stall_stat(struct calib_ctx *c, const struct spinner *s, const struct stall_waits *w)
{
    struct calib_stat *st = &c->r->m[CALIB_TIMER_STALL];
    int ngap = atomic_load_explicit(&s->ngap, memory_order_acquire);
    struct calib_series v = { 0 };
    for (int i = 0; i + 1 < w->n; i++) {
        if (!w->one_ns[i]) continue;
        long long g = gap_at(s, ngap, w->dl[i]);
        if (g >= 0) calib_series_add(&v, (double)(g - (w->cpu[i + 1] - w->cpu[i])));
    }
    if (v.n > 0) {
        calib_series_stat(&v, st);
        st->rounds = 1;
    } else {
        calib_skip(st, "the busy thread saw no gap at any expiry");
    }
    calib_series_free(&v);
    calib_done(c, CALIB_TIMER_STALL);
}

/* One timed wait on a futex word nobody changes: the deadline -> the
 * return, ns; the wait noted in w (if not NULL). */
static long long late_once(long long wait_ns, struct stall_waits *w, bool one_ns)
{
    static atomic_int word;
    long long dl = calib_now_ns() + wait_ns;
    if (w && w->n < STALL_WAITS) {
        w->dl[w->n] = dl;
        w->cpu[w->n] = calib_thread_cpu_ns();
        w->one_ns[w->n++] = one_ns;
    }
    struct timespec ts = { (time_t)(dl / 1000000000LL), (long)(dl % 1000000000LL) };
    long r;
    do {
        r = syscall(SYS_futex, (int *)&word, FUTEX_WAIT_BITSET_PRIVATE, 0, &ts, NULL, FUTEX_BITSET_MATCH_ANY);
    } while (r == -1 && errno == EINTR);
    return calib_now_ns() - dl;
}

static enum calib_id case_id(int k)
{
    return (enum calib_id)((k < CALIB_TIMER_SIZES ? CALIB_TIMER_LATE_100US : CALIB_TIMER_LATE_1NS_100US) +
                           k % CALIB_TIMER_SIZES);
}

void calib_bench_timer(struct calib_ctx *c)
{
    enum calib_id ids[TIMER_CASES];
    for (int k = 0; k < TIMER_CASES; k++) ids[k] = case_id(k);
    int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    struct spinner sp;
    memset(&sp, 0, sizeof sp);
    struct stall_waits *w = calloc(1, sizeof *w);
    sp.gap = malloc(STALL_GAPS * sizeof *sp.gap);
    pthread_t ts;
    if (slack < 0 || calib_thread_start(c, &ts, c->cpu0, spin_thread, &sp) != GV_OK) {
        calib_skip_ids(c, ids, TIMER_CASES, slack < 0 ? "PR_GET_TIMERSLACK failed" : c->err);
        enum calib_id stall = CALIB_TIMER_STALL;
        calib_skip_ids(c, &stall, 1, slack < 0 ? "PR_GET_TIMERSLACK failed" : c->err);
        c->err[0] = '\0';
        free(w);
        free(sp.gap);
        return;
    }
    if (!w || !sp.gap) {  /* no stall measurement: the rest as before */
        free(w);
        free(sp.gap);
        w = NULL;
        sp.gap = NULL;
    }
    unsigned long long rnd = 0x9e3779b97f4a7c15ull;
    /* the rounds go on until the longest wait's, default slack, agree */
    _Static_assert(TIMER_CASES <= CALIB_KINDS_MAX, "the timed waits are calib_kinds");
    struct calib_kinds kinds;
    calib_kinds_start(&kinds, c, ids, TIMER_CASES, CALIB_TIMER_SIZES - 1, 1.5, c->min_rounds);
    late_once(calib_timer_ns[0], NULL, false);  /* the spinner running, the first wait's setup out of the samples */
    do {
        int order[TIMER_CASES * TIMER_PER_ROUND], n = TIMER_CASES * TIMER_PER_ROUND;
        calib_rounds_order(order, TIMER_CASES, TIMER_PER_ROUND, &rnd);
        for (int i = 0; i < n; i++) {
            int k = order[i];
            prctl(PR_SET_TIMERSLACK, k < CALIB_TIMER_SIZES ? (unsigned long)slack : 1UL, 0, 0, 0);
            calib_kinds_add(&kinds, k, (double)late_once(calib_timer_ns[k % CALIB_TIMER_SIZES], w, k >= CALIB_TIMER_SIZES));
        }
    } while (calib_kinds_round_end(&kinds));
    prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
    if (w) late_once(calib_timer_ns[0], w, false);  /* the last 1 ns wait's CPU ends at this one's start */
    atomic_store(&sp.stop, 1);
    pthread_join(ts, NULL);
    calib_kinds_end(&kinds, c);
    if (w) {
        stall_stat(c, &sp, w);
    } else {
        enum calib_id stall = CALIB_TIMER_STALL;
        calib_skip_ids(c, &stall, 1, "out of memory");
    }
    free(w);
    free(sp.gap);
}
