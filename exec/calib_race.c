/* calib_race.c - a FUTEX_WAIT's way in, and a FUTEX_WAKE that meets one
 * there (CALIB_FUTEX_WAIT_WINDOW, CALIB_FUTEX_WAKE_RACE: the machine keys
 * futex_wait_window and futex_wake_race).
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

struct race {
    atomic_int word;             /* A waits while it is 1 */
    atomic_int go;               /* trial number B is to run; -1: quit */
    atomic_int done;             /* the trial B finished */
    _Atomic long long at;        /* when B stores */
    long long wake_ns;           /* B's FUTEX_WAKE of the last trial */
    int woke;                    /* ... and how many it woke */
};

static void *race_waker(void *arg)
{
    struct race *r = arg;
    for (int seen = 0;;) {
        int g;
        while ((g = atomic_load(&r->go)) == seen) {}
        if (g < 0) return NULL;
        seen = g;
        long long at = atomic_load(&r->at);
        while (calib_now_ns() < at) {}
        atomic_store(&r->word, 0);
        long long t0 = calib_now_ns();
        long n = syscall(SYS_futex, (int *)&r->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        r->wake_ns = calib_now_ns() - t0;
        r->woke = n > 0 ? (int)n : 0;
        atomic_store(&r->done, g);
    }
}

/* One trial at delay d: whether A's wait returned at once; B's wake into
 * *wake_ns. */
static bool trial(struct race *r, int n, long long d, long long *wake_ns)
{
    atomic_store(&r->word, 1);
    long long t0 = calib_now_ns() + RACE_LEAD_NS;
    atomic_store(&r->at, t0 + d);
    atomic_store(&r->go, n);
    while (calib_now_ns() < t0) {}
    long rc = syscall(SYS_futex, (int *)&r->word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
    bool at_once = rc == -1 && errno == EAGAIN;
    while (atomic_load(&r->done) != n) {}
    *wake_ns = r->wake_ns;
    return at_once && r->woke == 0;
}

int calib_window_quantiles(const int *at_once, const int *trials, int ndelays, double step_ns, int nq,
                           double *out)
{
    if (ndelays < 2 || nq < 1 || !(step_ns > 0)) return GV_EINVAL;
    double *s = malloc((size_t)ndelays * sizeof *s);
    if (!s) return GV_ENOMEM;
    /* the share at each delay, then non-increasing from the right (a
     * later delay's share bounds an earlier one's from below) */
    for (int i = 0; i < ndelays; i++) s[i] = trials[i] > 0 ? (double)at_once[i] / trials[i] : 0;
    for (int i = ndelays - 2; i >= 0; i--)
        if (s[i] < s[i + 1]) s[i] = s[i + 1];
    int rc = GV_OK;
    if (!(s[0] > 0.5) || !(s[ndelays - 1] < 0.5)) rc = GV_ERUN;  /* the median lies outside the grid */
    for (int k = 0; k < nq && rc == GV_OK; k++) {
        double q = ((double)k + 0.5) / nq, want = 1 - q;  /* the window outlasts d with chance 1 - q */
        int i = 0;
        while (i < ndelays - 1 && s[i + 1] > want) i++;
        double x;
        if (i == ndelays - 1) x = (double)i * step_ns;
        else if (s[i] <= want) x = (double)i * step_ns;  /* (only at i = 0: the grid's first share is below) */
        else x = ((double)i + (s[i] - want) / (s[i] - s[i + 1])) * step_ns;
        out[k] = x;
    }
    free(s);
    return rc;
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
    int at_once[RACE_DELAYS] = { 0 }, trials[RACE_DELAYS] = { 0 };
    int order[RACE_DELAYS * RACE_PER_DELAY];
    struct calib_series wakes = { 0 };
    struct calib_loop l;
    calib_loop_start(&l, calib_budget(c, 1.0), c->min_rounds, 200, c->o->max_spread);
    unsigned long long rnd = 0x2545f4914f6cdd1dull;
    int n = 0, rc = GV_OK;
    double v = 0;
    do {
        int r_once[RACE_DELAYS] = { 0 }, r_trials[RACE_DELAYS] = { 0 };
        calib_rounds_order(order, RACE_DELAYS, RACE_PER_DELAY, &rnd);
        for (int i = 0; i < RACE_DELAYS * RACE_PER_DELAY; i++) {
            int k = order[i];
            long long wake;
            bool once = trial(&r, ++n, (long long)k * RACE_STEP_NS, &wake);
            r_trials[k]++;
            r_once[k] += once;
            if (once) calib_series_add(&wakes, (double)wake);
        }
        for (int k = 0; k < RACE_DELAYS; k++) {
            trials[k] += r_trials[k];
            at_once[k] += r_once[k];
        }
        /* the round's window median: what the rounds must agree on */
        rc = calib_window_quantiles(r_once, r_trials, RACE_DELAYS, RACE_STEP_NS, 1, &v);
        if (rc != GV_OK) break;
    } while (calib_loop_more(&l, v));
    atomic_store(&r.go, -1);
    pthread_join(tb, NULL);
    struct calib_stat *w = &c->r->m[CALIB_FUTEX_WAIT_WINDOW], *k = &c->r->m[CALIB_FUTEX_WAKE_RACE];
    struct calib_race *out = &c->r->race;
    double med, quart[2];  /* the window's median and quartiles (nq = 2: the quantiles 1/4 and 3/4) */
    if (rc == GV_OK)
        rc = calib_window_quantiles(at_once, trials, RACE_DELAYS, RACE_STEP_NS, CALIB_RACE_LENS, out->window_ns);
    if (rc == GV_OK) rc = calib_window_quantiles(at_once, trials, RACE_DELAYS, RACE_STEP_NS, 1, &med);
    if (rc == GV_OK) rc = calib_window_quantiles(at_once, trials, RACE_DELAYS, RACE_STEP_NS, 2, quart);
    calib_loop_end(&l, w);
    if (rc != GV_OK || wakes.oom || wakes.n == 0) {
        calib_skip_ids(c, ids, 2, rc == GV_ERUN ? "the waits' median way in lies outside 0-1200 ns"
                                  : rc != GV_OK || wakes.oom ? "out of memory" : "no wait returned at once");
        calib_series_free(&wakes);
        return;
    }
    w->measured = true;
    w->median = med;
    w->q1 = quart[0];
    w->q3 = quart[1];
    for (int i = 0; i < RACE_DELAYS; i++) w->samples += trials[i];
    snprintf(w->note, sizeof w->note, "%d waits at %d delays of 0-%d ns after the call, %d of them returned at once",
             w->samples, RACE_DELAYS, (RACE_DELAYS - 1) * RACE_STEP_NS, wakes.n);
    calib_series_stat(&wakes, k);
    calib_stat_rounds_of(k, w);
    stats_sort(wakes.v, (size_t)wakes.n);
    for (int i = 0; i < CALIB_RACE_LENS; i++)
        out->wake_ns[i] = calib_quantile(wakes.v, wakes.n, ((double)i + 0.5) / CALIB_RACE_LENS);
    out->n = CALIB_RACE_LENS;
    out->measured = true;
    calib_series_free(&wakes);
    calib_done(c, CALIB_FUTEX_WAIT_WINDOW);
    calib_done(c, CALIB_FUTEX_WAKE_RACE);
}
