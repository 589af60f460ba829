/* calib_pack_util.c - up to what load does the kernel keep a wakee on its
 * waker's busy CPU (CALIB_WAKE_PACK_UTIL: the machine key wake_pack_util)?
 *
 * calib_pack.c measures whether a wakee stays behind its waker with the
 * other CPU idle; its pair is idle most of the time.  On the AMD EPYC
 * guest of 2026-12-04 it read 1 (every wake kept) while the eager
 * ping-pong's wakes left the waker's CPU, and scripts/pack_util.c showed
 * why: a wakee stayed behind its waker every time when the waker's CPU
 * had been busy 70% of the 100 ms before, never at 75%; and with the wakee
 * itself busy a quarter of its own time the waker's 25% kept it, 50% did
 * not (docs/validate.md, "Where the threads ran").  The guest's packing
 * weighs the two threads' recent running, as Linux's load tracking (PELT)
 * keeps it per task.
 *
 * The measurement: the wakee runs on the first CPU (pinned there, then
 * allowed both) and sleeps; the waker, on the first CPU, loads it for
 * UTIL_WINDOW_MS in 1 ms periods, busy a share d of each and napping the
 * rest (PELT halves every 32 ms: 100 ms bring a task's utilization near
 * d), spins 100 us, wakes the wakee, spins 20 us and naps until the wakee
 * says where it ran.  A sample whose waker lost more than a tenth of its
 * busy time to another task (its CPU-time clock against the wall clock)
 * is dropped.  Each round bisects d over the grid (0.30 .. 0.95 by 0.05):
 * UTIL_PROBE samples at a share (one with --quick), the majority deciding
 * on which side the threshold lies; the round's value is the middle of the
 * last two shares; three rounds at least (one with --quick).
 * Run only on a packing machine (wake_pack_short above 1/2), and only
 * when the lowest share packs and the highest does not (else no limit
 * was seen: skipped with a note, no key).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "calib_int.h"

#define UTIL_WINDOW_MS 100
#define UTIL_STEPS 14          /* the grid: 0.30, 0.35, ..., 0.95 */
#define UTIL_PROBE 3           /* samples per bisection step (a majority decides); --quick: 1 */

static double grid(int i)
{
    return 0.30 + 0.05 * i;
}

struct util_wakee {
    atomic_int word;           /* 0: sleep; 1: woken */
    atomic_int cmd;            /* the sample to go to sleep for; -1: quit */
    atomic_int ack;            /* n: asleep for sample n; -n: ran after its wake */
    atomic_int cpu;            /* where it ran */
    int cpus[2];
};

static void *util_wakee_thread(void *arg)
{
    struct util_wakee *w = arg;
    for (int n = 1;; n++) {
        int c;
        while ((c = atomic_load(&w->cmd)) != n)
            if (c < 0) return NULL;
            else calib_nap_ns(10000);
        calib_allow(w->cpus[0], -1);  /* last run on the waker's CPU */
        calib_spin_ns(20000);
        calib_allow(w->cpus[0], w->cpus[1]);
        atomic_store(&w->ack, n);
        calib_futex_wait(&w->word, 0);
        atomic_store(&w->cpu, sched_getcpu());
        atomic_store(&w->word, 0);
        atomic_store(&w->ack, -n);
    }
}

/* One sample at share d: 1 if the wakee ran on the waker's CPU, 0 if not,
 * -1 if dropped. */
static int util_sample(struct calib_ctx *c, struct util_wakee *w, int n, double d)
{
    atomic_store(&w->cmd, n);
    while (atomic_load(&w->ack) != n) calib_nap_ns(10000);
    long long busy = (long long)(d * 1e6), c0 = calib_thread_cpu_ns();
    for (int ms = 0; ms < UTIL_WINDOW_MS; ms++) {
        calib_spin_ns(busy);
        calib_nap_ns(1000000 - (long)busy);
    }
    long long ran = calib_thread_cpu_ns() - c0;
    calib_spin_ns(100000);
    atomic_store(&w->word, 1);
    calib_futex_wake(&w->word, 1);
    calib_spin_ns(20000);
    while (atomic_load(&w->ack) != -n) calib_nap_ns(10000);
    if ((double)ran < 0.9 * (double)busy * UTIL_WINDOW_MS) return -1;  /* another task took the waker's CPU */
    return atomic_load(&w->cpu) == c->cpu0;
}

/* Samples per step: UTIL_PROBE, one with --quick (its whole run within
 * 15 s). */
static int probe_n(const struct calib_ctx *c)
{
    return c->scale < 1 ? 1 : UTIL_PROBE;
}

/* probe_n counted samples at grid point i: how many packed, or -1. */
static int util_probe(struct calib_ctx *c, struct util_wakee *w, int *n, int i, int *dropped)
{
    int kept = 0, got = 0, want = probe_n(c);
    for (int t = 0; got < want && t < 3 * want; t++) {
        int r = util_sample(c, w, ++*n, grid(i));
        if (r < 0) {
            ++*dropped;
            continue;
        }
        got++;
        kept += r;
    }
    return got == want ? kept : -1;
}

void calib_bench_pack_util(struct calib_ctx *c)
{
    struct calib_stat *st = &c->r->m[CALIB_WAKE_PACK_UTIL];
    const struct calib_stat *sh = &c->r->m[CALIB_WAKE_PACK_SHORT];
    if (c->cpu1 < 0) {
        calib_skip(st, "needs two CPUs");
    } else if (!sh->measured || !(sh->median > 0.5)) {
        calib_skip(st, "no packing to limit (wake_pack_short not above 1/2)");
    } else {
        struct util_wakee w;
        memset(&w, 0, sizeof w);
        w.cpus[0] = c->cpu0;
        w.cpus[1] = c->cpu1;
        pthread_t t;
        if (calib_thread_start(c, &t, c->cpu0, util_wakee_thread, &w) != GV_OK) {
            calib_skip(st, c->err);
            c->err[0] = '\0';
        } else {
            struct calib_series v = { 0 };
            struct calib_loop l;
            calib_loop_start(&l, calib_budget(c, 2.0), c->scale < 1 ? 1 : 3, 20,
                             c->o->max_spread);
            int n = 0, dropped = 0;
            const char *why = NULL;
            /* the ends first: a limit within the grid */
            int lo = util_probe(c, &w, &n, 0, &dropped), hi = util_probe(c, &w, &n, UTIL_STEPS - 1, &dropped);
            if (lo < 0 || hi < 0)
                why = "too many samples dropped (another task took the waker's CPU)";
            else if (2 * lo <= probe_n(c))
                why = "not kept even at 30% load";
            else if (2 * hi > probe_n(c))
                why = "kept even at 95% load (no limit)";
            if (!why) do {
                int a = 0, b = UTIL_STEPS - 1;  /* kept at a, not at b */
                while (b - a > 1) {
                    int mid = (a + b) / 2, k = util_probe(c, &w, &n, mid, &dropped);
                    if (k < 0) break;
                    if (2 * k > probe_n(c)) a = mid;
                    else b = mid;
                }
                if (b - a > 1) {
                    why = "too many samples dropped (another task took the waker's CPU)";
                    break;
                }
                calib_series_add(&v, (grid(a) + grid(b)) / 2);
            } while (calib_loop_more(&l, v.n ? v.v[v.n - 1] : 0));
            atomic_store(&w.cmd, -1);
            pthread_join(t, NULL);
            if (v.n > 0) {
                calib_series_stat(&v, st);
                calib_loop_end(&l, st);
                snprintf(st->note, sizeof st->note, "%d samples of %d ms, %d dropped", n - dropped, UTIL_WINDOW_MS,
                         dropped);
            } else {
                calib_loop_end(&l, st);
                calib_skip(st, why ? why : "no round complete");
            }
            calib_series_free(&v);
        }
    }
    calib_done(c, CALIB_WAKE_PACK_UTIL);
}
