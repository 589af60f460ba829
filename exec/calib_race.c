/* calib_race.c - a FUTEX_WAIT's way in, and a FUTEX_WAKE that meets one
 * there (CALIB_FUTEX_WAIT_WINDOW, CALIB_FUTEX_WAKE_RACE: the machine keys
 * futex_wait_window and futex_wake_race); the section a condvar waiter
 * holds its mutex through (CALIB_COND_SECTION: cond_wait_section, below).
 *
 * A thread that waits on a futex is registered (the mutex word swapped to
 * 2, the condvar's waiter counted) before the kernel has queued it: until
 * FUTEX_WAIT compares the word under the hash bucket's lock, a store to
 * the word from another CPU makes the wait return at once (EAGAIN), and
 * the FUTEX_WAKE that follows the store finds nobody.  Whether a waiter
 * sleeps is a race between that way in and what the other CPU does before
 * its store; the 3.1 GVL runs it at every hand-off on two CPUs (a
 * signalled waiter re-locking gvl->lock while its signaller is still in
 * the FUTEX_WAKE of its signal: docs/validate.md, "The race on the GVL's
 * native lock").  Both sides have spreads, and the model draws them.
 *
 * The measurement: thread A (the caller, first CPU) and thread B (second
 * CPU) agree on a start 20 us ahead and spin to it; A calls FUTEX_WAIT on a
 * word at 1, untimed as glibc's lock and condvar waits are (a timeout arms
 * an hrtimer first, which measured 100-150 ns more way in on an AMD EPYC
 * guest); B spins d ns more, stores 0 and calls FUTEX_WAKE, timed.  d runs
 * over RACE_DELAYS steps of RACE_STEP_NS, shuffled within each round, each
 * RACE_PER_DELAY times a round.  The share of A's waits that returned at
 * once at d is the chance that the way in outlasts d (the store's trip to
 * A's CPU included, as a signaller's is): the window's quantiles are where
 * that share, made non-increasing in d, crosses them.  B's FUTEX_WAKE in a
 * trial whose wait returned at once is a wake that met a wait on its way
 * in - the same system call as futex_wake_none's, but through a hash
 * bucket the waiter holds or has just left (kernel/futex/waitwake.c
 * futex_wake: futex_hb_waiters_pending, then the bucket's spinlock): it
 * measured 280-400 ns at the median against 240 ns alone there.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/err.h"
#include "../common/stats.h"
#include "calib_int.h"

#define RACE_STEP_NS 25
#define RACE_DELAYS 49           /* 0 .. 1200 ns */
#define RACE_PER_DELAY 8
#define RACE_LEAD_NS 20000LL     /* the agreed start this far ahead */

/* The pair's agreement on a trial: A names it (go) and when B acts (at),
 * B says when it is done.  Both benchmarks below run their trials so. */
struct trial_sync {
    atomic_int go;               /* trial number B is to run; -1: quit */
    atomic_int done;             /* the trial B finished */
    _Atomic long long at;        /* when B acts */
};

/* B: wait for the trial after `seen`, then spin to its time; the trial's
 * number, or -1 to quit. */
static int trial_await(struct trial_sync *t, int seen)
{
    int g;
    while ((g = atomic_load(&t->go)) == seen) {}
    if (g < 0) return -1;
    long long at = atomic_load(&t->at);
    while (calib_now_ns() < at) {}
    return g;
}

/* A: start trial n, B to act d ns after the agreed start, and spin to
 * that start. */
static void trial_begin(struct trial_sync *t, int n, long long d)
{
    long long t0 = calib_now_ns() + RACE_LEAD_NS;
    atomic_store(&t->at, t0 + d);
    atomic_store(&t->go, n);
    while (calib_now_ns() < t0) {}
}

struct race {
    struct trial_sync sync;      /* B stores at sync.at */
    atomic_int word;             /* A waits while it is 1 */
    long long wake_ns;           /* B's FUTEX_WAKE of the last trial */
    int woke;                    /* ... and how many it woke */
};

static void *race_waker(void *arg)
{
    struct race *r = arg;
    for (int g = 0; (g = trial_await(&r->sync, g)) >= 0;) {
        atomic_store(&r->word, 0);
        long long t0 = calib_now_ns();
        long n = syscall(SYS_futex, (int *)&r->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        r->wake_ns = calib_now_ns() - t0;
        r->woke = n > 0 ? (int)n : 0;
        atomic_store(&r->sync.done, g);
    }
    return NULL;
}

/* One trial at delay d: whether A's wait returned at once; B's wake into
 * *wake_ns. */
static bool trial(struct race *r, int n, long long d, long long *wake_ns)
{
    atomic_store(&r->word, 1);
    trial_begin(&r->sync, n, d);
    long rc = syscall(SYS_futex, (int *)&r->word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
    bool at_once = rc == -1 && errno == EAGAIN;
    while (atomic_load(&r->sync.done) != n) {}
    *wake_ns = r->wake_ns;
    return at_once && r->woke == 0;
}

/* The shares s[0..ndelays) (non-increasing in the delay) at the
 * quantiles (k + 1/2) / nq, k < nq, into out: where they cross 1 - q,
 * linearly between two delays. */
static void share_quantiles(const double *s, int ndelays, double step_ns, int nq, double *out)
{
    for (int k = 0; k < nq; k++) {
        double q = ((double)k + 0.5) / nq, want = 1 - q;  /* the window outlasts d with chance 1 - q */
        int i = 0;
        while (i < ndelays - 1 && s[i + 1] > want) i++;
        double x;
        if (i == ndelays - 1) x = (double)i * step_ns;
        else if (s[i] <= want) x = (double)i * step_ns;  /* (only at i = 0: the grid's first share is below) */
        else x = ((double)i + (s[i] - want) / (s[i] - s[i + 1])) * step_ns;
        out[k] = x;
    }
}

/* count[i] / trials[i], made non-increasing from the right (a later
 * delay's share bounds an earlier one's from below); NULL: out of memory */
static double *shares_of(const int *count, const int *trials, int ndelays)
{
    double *s = malloc((size_t)ndelays * sizeof *s);
    if (!s) return NULL;
    for (int i = 0; i < ndelays; i++) s[i] = trials[i] > 0 ? (double)count[i] / trials[i] : 0;
    for (int i = ndelays - 2; i >= 0; i--)
        if (s[i] < s[i + 1]) s[i] = s[i + 1];
    return s;
}

int calib_window_quantiles(const int *at_once, const int *trials, int ndelays, double step_ns, int nq,
                           double *out)
{
    if (ndelays < 2 || nq < 1 || !(step_ns > 0)) return GV_EINVAL;
    double *s = shares_of(at_once, trials, ndelays);
    if (!s) return GV_ENOMEM;
    int rc = GV_OK;
    if (!(s[0] > 0.5) || !(s[ndelays - 1] < 0.5)) rc = GV_ERUN;  /* the median lies outside the grid */
    else share_quantiles(s, ndelays, step_ns, nq, out);
    free(s);
    return rc;
}

int calib_section_quantiles(const int *held, const int *trials, int ndelays, double step_ns, int nq, double *out)
{
    if (ndelays < 2 || nq < 1 || !(step_ns > 0)) return GV_EINVAL;
    double *s = shares_of(held, trials, ndelays);
    if (!s) return GV_ENOMEM;
    int rc = GV_OK;
    double peak = s[0];
    if (!(peak > 0) || !(s[ndelays - 1] < 0.5 * peak)) {
        rc = GV_ERUN;  /* never held, or the median lies beyond the grid */
    } else {
        for (int i = 0; i < ndelays; i++) s[i] /= peak;
        share_quantiles(s, ndelays, step_ns, nq, out);
    }
    free(s);
    return rc;
}

/* ---- a benchmark over a grid of delays -------------------------------------- */
#define GRID_DELAYS_MAX 64
#define GRID_TRIALS_MAX 512      /* delays x per_delay in a round */
_Static_assert(RACE_DELAYS <= GRID_DELAYS_MAX && RACE_DELAYS * RACE_PER_DELAY <= GRID_TRIALS_MAX,
               "the race's grid fits");

/* The delays 0, step_ns, ... (ndelays of them), each per_delay times a
 * round in a shuffled order; trial(ctx, n, d) runs trial n at delay d
 * and says whether it counts; quantiles (calib_window_quantiles or
 * calib_section_quantiles) reads the counts. */
struct delay_grid {
    int ndelays, per_delay;
    double step_ns;
    bool (*trial)(void *ctx, int n, long long d);
    void *ctx;
    int (*quantiles)(const int *count, const int *trials, int ndelays, double step_ns, int nq, double *out);
};

/* Rounds of g for about budget_s seconds, until the rounds' medians agree
 * (calib_loop; its rounds and spread recorded in st) or one round's
 * quantile cannot be had (its error); then the quantiles of all the
 * trials: CALIB_RACE_LENS equally likely values into lens, the median and
 * the quartiles.  *ntrials: the trials run. */
static int grid_rounds(const struct delay_grid *g, struct calib_ctx *c, double budget_s, struct calib_stat *st,
                       unsigned long long rnd, double *lens, double *med, double quart[2], int *ntrials)
{
    struct calib_loop loop, *l = &loop;
    calib_loop_start(l, calib_budget(c, budget_s), c->min_rounds, 200, c->o->max_spread);
    int count[GRID_DELAYS_MAX] = { 0 }, trials[GRID_DELAYS_MAX] = { 0 };
    int order[GRID_TRIALS_MAX];
    int nd = g->ndelays, per = nd * g->per_delay, n = 0, rc = GV_OK;
    double v = 0;
    do {
        int r_count[GRID_DELAYS_MAX] = { 0 }, r_trials[GRID_DELAYS_MAX] = { 0 };
        calib_rounds_order(order, nd, g->per_delay, &rnd);
        for (int i = 0; i < per; i++) {
            int k = order[i];
            r_trials[k]++;
            r_count[k] += g->trial(g->ctx, ++n, (long long)k * (long long)g->step_ns);
        }
        for (int k = 0; k < nd; k++) {
            trials[k] += r_trials[k];
            count[k] += r_count[k];
        }
        /* the round's median: what the rounds must agree on */
        rc = g->quantiles(r_count, r_trials, nd, g->step_ns, 1, &v);
        if (rc != GV_OK) break;
    } while (calib_loop_more(l, v));
    calib_loop_end(l, st);
    *ntrials = n;
    if (rc == GV_OK) rc = g->quantiles(count, trials, nd, g->step_ns, CALIB_RACE_LENS, lens);
    if (rc == GV_OK) rc = g->quantiles(count, trials, nd, g->step_ns, 1, med);
    if (rc == GV_OK) rc = g->quantiles(count, trials, nd, g->step_ns, 2, quart);  /* 1/4, 3/4 */
    return rc;
}

/* calib_bench_race's trial: a wait that returned at once counts, and its
 * waker's FUTEX_WAKE joins the wakes */
struct race_ctx {
    struct race *r;
    struct calib_series wakes;
};

static bool race_trial(void *ctx, int n, long long d)
{
    struct race_ctx *x = ctx;
    long long wake;
    bool once = trial(x->r, n, d, &wake);
    if (once) calib_series_add(&x->wakes, (double)wake);
    return once;
}

void calib_bench_race(struct calib_ctx *c)
{
    static const enum calib_id ids[] = { CALIB_FUTEX_WAIT_WINDOW, CALIB_FUTEX_WAKE_RACE };
    if (c->cpu1 < 0) {
        calib_skip_ids(c, ids, 2, "needs two CPUs");
        return;
    }
    struct race r;
    memset(&r, 0, sizeof r);
    pthread_t tb;
    if (calib_thread_start(c, &tb, c->cpu1, race_waker, &r) != GV_OK) {
        calib_skip_ids(c, ids, 2, c->err);
        c->err[0] = '\0';
        return;
    }
    struct race_ctx x = { .r = &r };
    struct delay_grid g = { RACE_DELAYS, RACE_PER_DELAY, RACE_STEP_NS, race_trial, &x, calib_window_quantiles };
    struct calib_stat *w = &c->r->m[CALIB_FUTEX_WAIT_WINDOW], *k = &c->r->m[CALIB_FUTEX_WAKE_RACE];
    struct calib_race *out = &c->r->race;
    double med, quart[2];
    int n;
    int rc = grid_rounds(&g, c, 1.0, w, 0x2545f4914f6cdd1dull, out->window_ns, &med, quart, &n);
    atomic_store(&r.sync.go, -1);
    pthread_join(tb, NULL);
    struct calib_series *wakes = &x.wakes;
    if (rc != GV_OK || wakes->oom || wakes->n == 0) {
        calib_skip_ids(c, ids, 2, rc == GV_ERUN ? "the waits' median way in lies outside 0-1200 ns"
                                  : rc != GV_OK || wakes->oom ? "out of memory" : "no wait returned at once");
        calib_series_free(wakes);
        return;
    }
    w->measured = true;
    w->median = med;
    w->q1 = quart[0];
    w->q3 = quart[1];
    w->samples = n;
    snprintf(w->note, sizeof w->note, "%d waits at %d delays of 0-%d ns after the call, %d of them returned at once",
             w->samples, RACE_DELAYS, (RACE_DELAYS - 1) * RACE_STEP_NS, wakes->n);
    calib_series_stat(wakes, k);
    calib_stat_rounds_of(k, w);
    stats_sort(wakes->v, (size_t)wakes->n);
    for (int i = 0; i < CALIB_RACE_LENS; i++)
        out->wake_ns[i] = calib_quantile(wakes->v, wakes->n, ((double)i + 0.5) / CALIB_RACE_LENS);
    out->n = CALIB_RACE_LENS;
    out->measured = true;
    calib_series_free(wakes);
    calib_done(c, CALIB_FUTEX_WAIT_WINDOW);
    calib_done(c, CALIB_FUTEX_WAKE_RACE);
}

/* ---- the condvar waiter's section ---------------------------------------------
 * A thread about to wait on a condvar holds its mutex from its lock until
 * pthread_cond_wait has registered it (__wseq) and unlocks the mutex
 * (nptl pthread_cond_wait.c __pthread_cond_wait_common); CRuby 3.3+
 * holds sched->lock_ so from thread_sched_to_running's lock through the
 * ready queue to the cond_wait of thread_sched_wait_running_turn.  A
 * thread on another CPU that locks the mutex meanwhile - the GVL's holder
 * on its way out - finds it held and goes to sleep on it (__lll_lock_wait),
 * and the waiter's unlock owes a FUTEX_WAKE before its own FUTEX_WAIT:
 * the waiter then sleeps far more often than after a signal that came a
 * little later (a probe on the AMD EPYC guest, 2026-12-07: 63-93% of the
 * waits slept when the signaller locked 20-80 ns after the waiter, 18% at
 * 120 ns, 1-3% when 140-480 ns after).
 *
 * The measurement: thread A (first CPU) and thread B (second CPU) agree
 * on a start 20 us ahead; A locks the mutex and waits on the condvar for
 * a flag; B, d ns after the start, locks the mutex, sets the flag,
 * signals and unlocks.  Whether B's lock found the mutex held is read
 * from glibc's word right after it returned: 2 after __lll_lock_wait
 * (the contended path swaps 2 in), 1 after the uncontended CAS.  d runs
 * over SECTION_DELAYS steps of SECTION_STEP_NS, shuffled within each
 * round; the share found held at d, made non-increasing in d and taken
 * over its peak (a B that came first found the mutex free whatever the
 * section), gives the section's quantiles (calib_section_quantiles).  A's
 * voluntary switches tell whether it slept, for the note.  glibc only:
 * the mutex word is read from its pthread_mutex_t. */
#define SECTION_STEP_NS 20
#define SECTION_DELAYS 31        /* 0 .. 600 ns */
#define SECTION_PER_DELAY 8
_Static_assert(SECTION_DELAYS <= GRID_DELAYS_MAX && SECTION_DELAYS * SECTION_PER_DELAY <= GRID_TRIALS_MAX,
               "the section's grid fits");

/* The mutex shares its line with the words the pair agrees on, which B
 * reads as it waits for its trial: A's lock fetches the line first, as a
 * waiter's lock of sched->lock_ fetches it from the GVL's holder, who
 * touched it last (the lock word shares its line with sched->running and
 * the ready queue).  So the section is measured from A's call, that fetch
 * included; with the mutex on a line of its own (a throw-away on the AMD
 * EPYC guest, 2026-12-07) B's lock found it held seldom and at no steady
 * delay. */
struct section {
    struct trial_sync sync;      /* B locks at sync.at */
    pthread_mutex_t m;
    pthread_cond_t c;
    int flag;                    /* under m: B has signalled */
    bool held;                   /* B's lock of the last trial found m held */
};

static void *section_signaller(void *arg)
{
    struct section *s = arg;
    for (int g = 0; (g = trial_await(&s->sync, g)) >= 0;) {
        pthread_mutex_lock(&s->m);
#ifdef __GLIBC__
        s->held = s->m.__data.__lock == 2;
#endif
        s->flag = 1;
        pthread_cond_signal(&s->c);
        pthread_mutex_unlock(&s->m);
        atomic_store(&s->sync.done, g);
    }
    return NULL;
}

/* One trial at delay d: whether B found the mutex held; whether A slept
 * into *slept. */
static bool section_trial(struct section *s, int n, long long d, bool *slept)
{
    s->flag = 0;  /* (B waits for go) */
    long v0, v1, inv;
    calib_thread_switches(&v0, &inv);
    trial_begin(&s->sync, n, d);
    pthread_mutex_lock(&s->m);
    while (!s->flag) pthread_cond_wait(&s->c, &s->m);
    pthread_mutex_unlock(&s->m);
    calib_thread_switches(&v1, &inv);
    while (atomic_load(&s->sync.done) != n) {}
    *slept = v1 != v0;
    return s->held;
}

/* calib_bench_cond_section's trial: a lock that found the mutex held
 * counts; whether the waiter slept after it, for the note */
struct section_ctx {
    struct section *s;
    int held, slept_held, slept_free;
};

static bool section_count(void *ctx, int n, long long d)
{
    struct section_ctx *x = ctx;
    bool slept, h = section_trial(x->s, n, d, &slept);
    x->held += h;
    if (slept && h) x->slept_held++;
    else if (slept) x->slept_free++;
    return h;
}

void calib_bench_cond_section(struct calib_ctx *c)
{
    struct calib_stat *st = &c->r->m[CALIB_COND_SECTION];
#ifndef __GLIBC__
    calib_skip(st, "needs glibc's mutex");
    return;
#endif
    if (c->cpu1 < 0) {
        calib_skip(st, "needs two CPUs");
        return;
    }
    struct section s;
    memset(&s, 0, sizeof s);
    pthread_mutex_init(&s.m, NULL);
    pthread_cond_init(&s.c, NULL);
    pthread_t tb;
    if (calib_thread_start(c, &tb, c->cpu1, section_signaller, &s) != GV_OK) {
        calib_skip(st, c->err);
        c->err[0] = '\0';
        goto out;
    }
    struct section_ctx x = { .s = &s };
    struct delay_grid g = { SECTION_DELAYS, SECTION_PER_DELAY, SECTION_STEP_NS, section_count, &x,
                            calib_section_quantiles };
    struct calib_race *out = &c->r->race;
    double med, quart[2];
    int n;
    int rc = grid_rounds(&g, c, 0.5, st, 0x9e3779b97f4a7c15ull, out->section_ns, &med, quart, &n);
    atomic_store(&s.sync.go, -1);
    pthread_join(tb, NULL);
    if (rc != GV_OK) {
        calib_skip(st, rc == GV_ERUN ? "no lock found the mutex held, or the section's median lies beyond 600 ns"
                                     : "out of memory");
        goto out;
    }
    st->measured = true;
    st->median = med;
    st->q1 = quart[0];
    st->q3 = quart[1];
    st->samples = n;
    snprintf(st->note, sizeof st->note,
             "%d signals at %d delays of 0-%d ns after the waiter's lock, %d found the mutex held; "
             "the waiter slept after %.0f%% of those, %.0f%% of the others",
             n, SECTION_DELAYS, (SECTION_DELAYS - 1) * SECTION_STEP_NS, x.held,
             x.held ? 100.0 * x.slept_held / x.held : 0.0, n > x.held ? 100.0 * x.slept_free / (n - x.held) : 0.0);
    out->section_measured = true;
    calib_done(c, CALIB_COND_SECTION);
out:
    pthread_cond_destroy(&s.c);
    pthread_mutex_destroy(&s.m);
}
