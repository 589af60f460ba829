/* imp_classify.c - what each segment of a trace becomes in the replay.
 *
 * A GVL trace says when a thread released the GVL (`waiting`) but not why.
 * Replaying every such wait as a fixed duration would freeze the recorded
 * schedule: a thread that waited 3 ms on a Queue because its producer was
 * slow would wait 3 ms under every policy.  So each waiting segment gets a
 * class, from what the other threads did around its end (docs/import.md):
 *
 *   end     it never ended: the thread was still blocked when tracing
 *           stopped (a pool thread waiting for work); the thread ends there;
 *   yield   a few microseconds between `running` and `wants_gvl` after at
 *           least half a quantum of running while another thread waited:
 *           CRuby 3.3+ reports its quantum hand-over (thread_sched_yield)
 *           as SUSPENDED then READY.  The simulator makes its own yields;
 *   join    it ended within the window of another thread's death: Thread#
 *           join (rb_threadptr_join_list_wakeup runs in the dying thread,
 *           before its EXITED event, so the end may come just before it);
 *   sync    it ended within the window of another thread's GVL release, or
 *           while another thread held the GVL that it released within the
 *           window: a Queue push, Mutex unlock or ConditionVariable signal
 *           runs with the GVL held, so the woken thread's READY comes while
 *           its waker still runs (3.2: the waker's OS wake is immediate) or
 *           right after the waker's release (3.3: into the ready queue);
 *   exit    a few microseconds just before the thread died: 3.3+ releases
 *           the GVL (SUSPENDED) before its EXITED event; part of the end;
 *   io      otherwise: nothing another thread did explains its end, so it
 *           is I/O (or a timer) of the measured length.
 * The trace of `gvlsim run --trace` names its waits (`blocking` is I/O,
 * `parked` a queue or a join); only the waker is searched for.
 *
 * Ractors are not in a gvl-tracing trace either: two threads that hold a
 * GVL at the same time for longer than RACTOR_OVERLAP cannot share one, so
 * they are put in different Ractors (a greedy colouring, the main thread in
 * the main Ractor).  A created thread (first state `started`) was spawned
 * by the thread holding the GVL at its start (Thread.new runs with the GVL
 * held), or by the last one to release it within the window.  Wakes and
 * creations are searched among the threads of the waiting thread's Ractor:
 * a thread of a new Ractor starts at its recorded time, and a wait ended
 * from another Ractor (Ractor#take, a message) is replayed as I/O.
 */
#include "import.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"

#define DEFAULT_WINDOW (100 * SIM_US)
#define DEFAULT_QUANTUM (100 * SIM_MS)
/* A longer simultaneous hold than this is two Ractors: the hooks of one
 * GVL's hand-over overlap by at most about 0.1 ms in the traces read. */
#define RACTOR_OVERLAP SIM_MS
/* ... and so is an overlap longer than this past an end reported before
 * the release (the clock reads of two threads' hooks, 1 us timestamps) */
#define OVERLAP_SLACK (20 * SIM_US)
#define MAX_RACTOR_THREADS 4096
/* holds of one Ractor overlap only where one ends and the next begins: the
 * hold around a time is among the last few that began before it */
#define HOLDER_SCAN 64

static const char *const class_names[IMP_CLS_COUNT] = {
    [IMP_CLS_NONE] = "-", [IMP_CLS_IO] = "io",       [IMP_CLS_SYNC] = "sync",
    [IMP_CLS_JOIN] = "join", [IMP_CLS_YIELD] = "yield", [IMP_CLS_END] = "end",
    [IMP_CLS_EXIT] = "exit",
};

const char *imp_class_name(enum imp_class c) { return c < IMP_CLS_COUNT ? class_names[c] : "?"; }

static const char *const rule_texts[IMP_RULE_COUNT] = {
    [IMP_RULE_NONE] = "",
    [IMP_RULE_KNOWN] = "named by the trace",
    [IMP_RULE_OVERRIDE] = "--classify",
    [IMP_RULE_OPEN_END] = "still waiting when the trace ended",
    [IMP_RULE_AFTER_DEATH] = "ended right after another thread died",
    [IMP_RULE_RELEASE] = "ended at another thread's GVL release",
    [IMP_RULE_YIELD] = "the quantum's hand-over",
    [IMP_RULE_ALONE] = "no other thread acted near its end",
    [IMP_RULE_EXIT] = "the thread's exit",
};

const char *imp_rule_text(enum imp_rule r) { return r < IMP_RULE_COUNT ? rule_texts[r] : "?"; }

static bool holds(enum imp_state s) { return s == IMP_RUNNING || s == IMP_GC; }

/* A GVL hold: a maximal run of running/gc segments of one thread. */
struct hold {
    sim_time a, b;
    int th, ractor;
    bool yields;   /* ended by a quantum yield (next state wants_gvl or a yield), not a release */
};

struct ctx {
    struct imp_trace *t;
    struct hold *holds;      /* sorted by (Ractor, a) */
    int nholds;
    sim_time *max_end;       /* max b over the holds of one Ractor up to i (for "who holds at t") */
    struct hold *rels;       /* real releases, sorted by (Ractor, b) */
    int nrels;
    int *hfrom, *rfrom;      /* per Ractor: its first hold and release; [nractors]: the end */
    int *rother;             /* per release: the last one before it by another thread of its Ractor, or -1 */
    struct death { sim_time at; int th; } *deaths;  /* sorted by time */
    int ndeaths;
    sim_time window, quantum;
};

/* holds are compared within a Ractor: qsort's comparators get no context,
 * so a hold carries its thread's Ractor */
static int cmp_hold_a(const void *x, const void *y)
{
    const struct hold *p = x, *q = y;
    if (p->ractor != q->ractor) return p->ractor - q->ractor;
    return p->a < q->a ? -1 : p->a > q->a ? 1 : p->th - q->th;
}

static int cmp_hold_b(const void *x, const void *y)
{
    const struct hold *p = x, *q = y;
    if (p->ractor != q->ractor) return p->ractor - q->ractor;
    return p->b < q->b ? -1 : p->b > q->b ? 1 : p->th - q->th;
}

/* from[r]: the index of the first entry of Ractor r in a sorted array of n;
 * from[nr] = n */
static void ractor_ranges(const struct hold *h, int n, int nr, int *from)
{
    int k = 0;
    for (int r = 0; r <= nr; r++) {
        while (k < n && h[k].ractor < r) k++;
        from[r] = k;
    }
}

static void free_holds(struct ctx *c)
{
    free(c->holds);
    free(c->rels);
    free(c->max_end);
    free(c->hfrom);
    free(c->rfrom);
    free(c->rother);
    c->holds = c->rels = NULL;
    c->max_end = NULL;
    c->hfrom = c->rfrom = c->rother = NULL;
}

/* Every hold of every thread; `yields` is decided after the yield pass. */
static int collect_holds(struct ctx *c)
{
    struct imp_trace *t = c->t;
    int n = 0;
    for (int i = 0; i < t->nthreads; i++)
        for (int k = 0; k < t->threads[i].nsegs; k++)
            if (holds(t->threads[i].segs[k].st) && (k == 0 || !holds(t->threads[i].segs[k - 1].st))) n++;
    int nr = t->nractors > 0 ? t->nractors : 1;
    c->holds = malloc(((size_t)n + 1) * sizeof *c->holds);
    c->rels = malloc(((size_t)n + 1) * sizeof *c->rels);
    c->max_end = malloc(((size_t)n + 1) * sizeof *c->max_end);
    c->hfrom = malloc(((size_t)nr + 1) * sizeof *c->hfrom);
    c->rfrom = malloc(((size_t)nr + 1) * sizeof *c->rfrom);
    c->rother = malloc(((size_t)n + 1) * sizeof *c->rother);
    if (!c->holds || !c->rels || !c->max_end || !c->hfrom || !c->rfrom || !c->rother) return GV_ENOMEM;
    n = 0;
    for (int i = 0; i < t->nthreads; i++) {
        struct imp_thread *th = &t->threads[i];
        for (int k = 0; k < th->nsegs; k++) {
            if (!holds(th->segs[k].st) || (k > 0 && holds(th->segs[k - 1].st))) continue;
            int e = k;
            while (e + 1 < th->nsegs && holds(th->segs[e + 1].st)) e++;
            bool y = false;
            if (e + 1 < th->nsegs) {
                const struct imp_seg *nx = &th->segs[e + 1];
                y = nx->st == IMP_WANTS_GVL || (nx->st == IMP_WAITING && nx->cls == IMP_CLS_YIELD);
            }
            c->holds[n++] = (struct hold){ th->segs[k].t0, th->segs[e].t1, i, th->ractor, y };
        }
    }
    c->nholds = n;
    qsort(c->holds, (size_t)n, sizeof *c->holds, cmp_hold_a);
    for (int i = 0; i < n; i++)
        c->max_end[i] = i == 0 || c->holds[i].ractor != c->holds[i - 1].ractor || c->holds[i].b > c->max_end[i - 1]
                      ? c->holds[i].b : c->max_end[i - 1];
    c->nrels = 0;
    for (int i = 0; i < n; i++)
        if (!c->holds[i].yields) c->rels[c->nrels++] = c->holds[i];
    qsort(c->rels, (size_t)c->nrels, sizeof *c->rels, cmp_hold_b);
    ractor_ranges(c->holds, n, nr, c->hfrom);
    ractor_ranges(c->rels, c->nrels, nr, c->rfrom);
    for (int i = 0; i < c->nrels; i++) {
        bool first = i == 0 || c->rels[i - 1].ractor != c->rels[i].ractor;
        c->rother[i] = first ? -1 : c->rels[i - 1].th != c->rels[i].th ? i - 1 : c->rother[i - 1];
    }
    return GV_OK;
}

/* ---- Ractors -------------------------------------------------------------- */

static void infer_ractors(struct ctx *c)
{
    struct imp_trace *t = c->t;
    int n = t->nthreads;
    t->nractors = 1;
    for (int i = 0; i < n; i++) t->threads[i].ractor = 0;
    if (n < 2 || n > MAX_RACTOR_THREADS) return;
    unsigned char *conflict = calloc((size_t)n * (size_t)n, 1);
    int *colour = malloc((size_t)n * sizeof *colour);
    if (!conflict || !colour) {  /* no inference: one Ractor, as a trace without Ractors has */
        free(conflict);
        free(colour);
        return;
    }
    /* sweep the holds by start (one Ractor so far: sorted by start).  In
     * one Ractor a hold can only overlap the next one by the lag of its own
     * end: CRuby 3.2 reports a quantum yield's release late, at the
     * yielder's READY; every other end (SUSPENDED, the thread's exit) is
     * reported before the release.  So an overlap longer than RACTOR_OVERLAP,
     * or longer than OVERLAP_SLACK past an end reported in time, or a hold
     * taken and released within another, means two GVLs. */
    for (int i = 0; i < c->nholds; i++) {
        const struct hold *p = &c->holds[i];
        for (int j = i + 1; j < c->nholds && c->holds[j].a < p->b; j++) {
            const struct hold *q = &c->holds[j];
            sim_time o = (q->b < p->b ? q->b : p->b) - q->a;
            bool inside = !p->yields && q->b + OVERLAP_SLACK <= p->b;  /* q took and released it while p held it */
            if (p->th != q->th && (o > RACTOR_OVERLAP || (!p->yields && o > OVERLAP_SLACK) || inside))
                conflict[(size_t)p->th * (size_t)n + (size_t)q->th] =
                    conflict[(size_t)q->th * (size_t)n + (size_t)p->th] = 1;
        }
    }
    int main_i = 0;
    for (int i = 0; i < n; i++)
        if (t->threads[i].is_main) main_i = i;
    for (int i = 0; i < n; i++) colour[i] = -1;
    colour[main_i] = 0;
    for (int k = 0; k < n; k++) {
        if (k == main_i) continue;
        for (int col = 0;; col++) {
            bool ok = true;
            for (int j = 0; j < n && ok; j++)
                if (colour[j] == col && conflict[(size_t)k * (size_t)n + (size_t)j]) ok = false;
            if (ok) { colour[k] = col; break; }
        }
    }
    for (int i = 0; i < n; i++) {
        t->threads[i].ractor = colour[i];
        if (colour[i] + 1 > t->nractors) t->nractors = colour[i] + 1;
    }
    free(conflict);
    free(colour);
}

/* ---- who acted near a time ------------------------------------------------ */

/* Threads of one Ractor: only they can wake each other in a replay (the
 * model has no Ractor messages; a Thread::Queue is not shared across
 * Ractors in Ruby). */
static bool peer(const struct ctx *c, int th, int self)
{
    return th != self && c->t->threads[th].ractor == c->t->threads[self].ractor;
}

/* The hold of another thread of self's Ractor containing time x
 * (a <= x < b), or NULL. */
static const struct hold *holder_at(const struct ctx *c, sim_time x, int self)
{
    /* the last hold of the Ractor starting at or before x, then back while
     * one could still cover x (holds of one Ractor hardly overlap) */
    int r = c->t->threads[self].ractor, from = c->hfrom[r], lo = from, hi = c->hfrom[r + 1];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (c->holds[mid].a <= x) lo = mid + 1;
        else hi = mid;
    }
    for (int i = lo - 1, k = 0; i >= from && c->max_end[i] > x && k < HOLDER_SCAN; i--, k++)
        if (c->holds[i].th != self && c->holds[i].a <= x && x < c->holds[i].b) return &c->holds[i];
    return NULL;
}

/* The last real release (not a yield) by a peer at or before x. */
static const struct hold *release_before(const struct ctx *c, sim_time x, int self)
{
    int r = c->t->threads[self].ractor, from = c->rfrom[r], lo = from, hi = c->rfrom[r + 1];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (c->rels[mid].b <= x) lo = mid + 1;
        else hi = mid;
    }
    int i = lo - 1;
    if (i >= from && c->rels[i].th == self) i = c->rother[i];
    return i >= from ? &c->rels[i] : NULL;
}

static int cmp_death(const void *x, const void *y)
{
    const struct death *p = x, *q = y;
    return p->at < q->at ? -1 : p->at > q->at ? 1 : p->th - q->th;
}

static int collect_deaths(struct ctx *c)
{
    const struct imp_trace *t = c->t;
    c->deaths = malloc(((size_t)t->nthreads + 1) * sizeof *c->deaths);
    if (!c->deaths) return GV_ENOMEM;
    c->ndeaths = 0;
    for (int i = 0; i < t->nthreads; i++)
        if (t->threads[i].died && t->threads[i].nsegs > 0)
            c->deaths[c->ndeaths++] = (struct death){ t->threads[i].segs[t->threads[i].nsegs - 1].t1, i };
    qsort(c->deaths, (size_t)c->ndeaths, sizeof *c->deaths, cmp_death);
    return GV_OK;
}

/* The death of a peer nearest to x (before or after): its thread,
 * or -1.  A joiner is woken by the dying thread before that thread's own
 * EXITED event (thread_start_func_2: rb_threadptr_join_list_wakeup, then
 * the exit), so the joiner's wait may end just before the death. */
static int death_near(const struct ctx *c, sim_time x, int self, sim_time *when)
{
    int lo = 0, hi = c->ndeaths;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (c->deaths[mid].at <= x) lo = mid + 1;
        else hi = mid;
    }
    int before = -1, after = -1;
    for (int i = lo - 1; i >= 0 && before < 0; i--)
        if (peer(c, c->deaths[i].th, self)) before = i;
    for (int i = lo; i < c->ndeaths && after < 0; i++)
        if (peer(c, c->deaths[i].th, self)) after = i;
    int best = before;
    if (after >= 0 && (best < 0 || c->deaths[after].at - x < x - c->deaths[best].at)) best = after;
    if (best < 0) return -1;
    *when = c->deaths[best].at;
    return c->deaths[best].th;
}

/* The act that ended a wait of thread `self` at `end`: the nearest of a
 * peer holding the GVL around `end` and releasing it within `limit` after,
 * a peer's release within `limit` before (SYNC), and a peer's death within
 * the window of `end` (JOIN).  Fills the segment; false if none. */
static bool find_waker(const struct ctx *c, int self, sim_time end, sim_time limit, struct imp_seg *s)
{
    const struct hold *h = holder_at(c, end, self);
    const struct hold *r = release_before(c, end, self);
    sim_time gh = h && !h->yields ? h->b - end : -1, gr = r ? end - r->b : -1;
    if (gh > limit) gh = -1;
    if (gr > limit) gr = -1;
    int waker = -1;
    sim_time gap = -1, at = 0;
    sim_time from = 0;
    if (gh >= 0 && (gr < 0 || gh <= gr)) {
        waker = h->th;
        gap = gh;
        at = end;   /* the waker acted before the wait ended: at the latest then */
        from = h->a;
    } else if (gr >= 0) {
        waker = r->th;
        gap = gr;
        at = r->b;
        from = r->a;
    }
    /* the releaser holds the GVL again when the wait ends: it may have
     * acted in that hold as well */
    sim_time next = gr >= 0 && waker == r->th && h && h->th == waker && h->a >= r->b ? h->a : -1;
    sim_time dt = 0;
    int dead = death_near(c, end, self, &dt);
    sim_time gd = dead < 0 ? -1 : dt > end ? dt - end : end - dt;
    if (dead >= 0 && gd <= c->window && gd <= limit && (waker < 0 || gd <= gap)) {
        s->cls = IMP_CLS_JOIN;
        s->waker = dead;
        s->wake_at = dt;   /* the dying thread's last act */
        s->gap = gd;
        return true;
    }
    if (waker < 0) return false;
    s->cls = IMP_CLS_SYNC;
    s->waker = waker;
    s->wake_at = at;
    s->wake_from = from;
    s->wake_next = next;
    s->gap = gap;
    return true;
}

/* ---- the passes ----------------------------------------------------------- */

/* Did another thread of the same Ractor want the GVL at time x? */
static bool someone_waits(const struct imp_trace *t, int self, sim_time x)
{
    for (int i = 0; i < t->nthreads; i++) {
        const struct imp_thread *th = &t->threads[i];
        if (i == self || th->ractor != t->threads[self].ractor) continue;
        int lo = 0, hi = th->nsegs;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (th->segs[mid].t0 <= x) lo = mid + 1;
            else hi = mid;
        }
        if (lo > 0 && th->segs[lo - 1].st == IMP_WANTS_GVL && x < th->segs[lo - 1].t1) return true;
    }
    return false;
}

static void mark_yields(struct ctx *c)
{
    struct imp_trace *t = c->t;
    if (t->form != IMP_FORM_GVL_TRACING) return;
    for (int i = 0; i < t->nthreads; i++) {
        struct imp_thread *th = &t->threads[i];
        for (int k = 1; k + 1 < th->nsegs; k++) {
            struct imp_seg *s = &th->segs[k];
            if (s->st != IMP_WAITING || s->cls != IMP_CLS_NONE || th->segs[k + 1].st != IMP_WANTS_GVL ||
                !holds(th->segs[k - 1].st) || s->t1 - s->t0 > c->window)
                continue;
            sim_time ran = 0;
            for (int j = k - 1; j >= 0 && holds(th->segs[j].st); j--) ran += th->segs[j].t1 - th->segs[j].t0;
            if (ran * 2 >= c->quantum && someone_waits(t, i, s->t0)) {
                s->cls = IMP_CLS_YIELD;
                s->rule = IMP_RULE_YIELD;
            }
        }
    }
}

static const struct imp_override *override_for(const struct imp_classify_opts *o, const struct imp_thread *th,
                                               int index)
{
    char tid[32];
    snprintf(tid, sizeof tid, "%" PRId64, th->tid);
    const struct imp_override *hit = NULL;
    for (int i = 0; o && i < o->noverrides; i++) {
        const struct imp_override *v = &o->overrides[i];
        if ((!strcmp(v->thread, th->name) || !strcmp(v->thread, tid)) && (v->index < 0 || v->index == index))
            hit = v;   /* the last one given wins */
    }
    return hit;
}

static int check_overrides(const struct imp_trace *t, const struct imp_classify_opts *o, char *err,
                           size_t errlen)
{
    for (int i = 0; o && i < o->noverrides; i++) {
        const struct imp_override *v = &o->overrides[i];
        const struct imp_thread *th = NULL;
        char tid[32];
        for (int k = 0; k < t->nthreads && !th; k++) {
            snprintf(tid, sizeof tid, "%" PRId64, t->threads[k].tid);
            if (!strcmp(v->thread, t->threads[k].name) || !strcmp(v->thread, tid)) th = &t->threads[k];
        }
        if (!th)
            return gv_fail(err, errlen, GV_EINVAL, "--classify %s:...: no thread of that name or tid in %s",
                           v->thread, t->file);
        int nw = 0;
        for (int k = 0; k < th->nsegs; k++) nw += th->segs[k].st == IMP_WAITING;
        if (v->index >= nw)
            return gv_fail(err, errlen, GV_EINVAL, "--classify %s:%d: thread %s has %d waiting segments (0..%d)",
                           v->thread, v->index, th->name, nw, nw - 1);
    }
    return GV_OK;
}

static int classify_waits(struct ctx *c, const struct imp_classify_opts *o, char *err, size_t errlen)
{
    struct imp_trace *t = c->t;
    for (int i = 0; i < t->nthreads; i++) {
        struct imp_thread *th = &t->threads[i];
        int w = 0;
        for (int k = 0; k < th->nsegs; k++) {
            struct imp_seg *s = &th->segs[k];
            if (s->st != IMP_WAITING) continue;
            s->wait_index = w++;
            const struct imp_override *v = override_for(o, th, s->wait_index);
            if (s->cls == IMP_CLS_END) {
                s->rule = IMP_RULE_OPEN_END;
                if (v && v->index >= 0)
                    return gv_fail(err, errlen, GV_EINVAL,
                                   "--classify %s:%d: that wait never ended (still waiting when the trace "
                                   "ended): it has no length to replay", v->thread, v->index);
                continue;
            }
            if (v) {
                s->cls = IMP_CLS_NONE;
                if (v->cls == IMP_CLS_IO) {
                    s->cls = IMP_CLS_IO;
                    if (t->form == IMP_FORM_GVL_TRACING) s->oncpu = s->t1 - s->t0 < IMP_ONCPU_MAX;
                } else if (!find_waker(c, i, s->t1, SIM_TIME_MAX, s)) {
                    return gv_fail(err, errlen, GV_EINVAL,
                                   "--classify %s:%d=sync: no other thread held or released the GVL, or "
                                   "died, before that wait ended: nothing can have woken it",
                                   v->thread, s->wait_index);
                }
                s->rule = IMP_RULE_OVERRIDE;
                continue;
            }
            if (s->cls == IMP_CLS_YIELD) continue;
            if (k == th->nsegs - 1 && th->died && s->known == IMP_CLS_NONE && s->t1 - s->t0 <= c->window) {
                /* thread_sched_to_dead: SUSPENDED, then EXITED (3.3+) */
                s->cls = IMP_CLS_EXIT;
                s->rule = IMP_RULE_EXIT;
                continue;
            }
            if (s->known == IMP_CLS_IO) {
                s->cls = IMP_CLS_IO;
                s->rule = IMP_RULE_KNOWN;
                continue;
            }
            if (t->form == IMP_FORM_GVL_TRACING) s->oncpu = s->t1 - s->t0 < IMP_ONCPU_MAX;
            /* a wait the trace calls parked (gvlsim) is woken by someone: the
             * nearest act, whatever its distance */
            sim_time limit = s->known == IMP_CLS_SYNC ? SIM_TIME_MAX : c->window;
            if (find_waker(c, i, s->t1, limit, s)) {
                s->rule = s->known == IMP_CLS_SYNC ? IMP_RULE_KNOWN
                        : s->cls == IMP_CLS_JOIN ? IMP_RULE_AFTER_DEATH : IMP_RULE_RELEASE;
            } else {
                s->cls = IMP_CLS_IO;
                s->rule = IMP_RULE_ALONE;
            }
        }
    }
    return GV_OK;
}

/* A created thread starts when its creator created it. */
static void find_spawners(struct ctx *c)
{
    struct imp_trace *t = c->t;
    for (int i = 0; i < t->nthreads; i++) {
        struct imp_thread *th = &t->threads[i];
        th->spawner = -1;
        if (!th->created || th->is_main) continue;
        const struct hold *h = holder_at(c, th->start, i);
        const struct hold *r = release_before(c, th->start, i);
        if (h) {
            th->spawner = h->th;
            th->spawn_at = th->start;
            th->spawn_from = h->a;
        } else if (r && th->start - r->b <= c->window) {
            th->spawner = r->th;
            th->spawn_at = r->b;
            th->spawn_from = r->a;
        }
    }
}

int imp_override_parse(const char *spec, struct imp_override *out, char *err, size_t errlen)
{
    const char *colon = strrchr(spec, ':'), *eq = strrchr(spec, '=');
    if (!colon || !eq || eq < colon || colon == spec) {
        snprintf(err, errlen, "expected THREAD:INDEX=io|sync, got \"%s\"", spec);
        return -1;
    }
    const char *cls = eq + 1;
    if (!strcmp(cls, "io")) out->cls = IMP_CLS_IO;
    else if (!strcmp(cls, "sync")) out->cls = IMP_CLS_SYNC;
    else {
        snprintf(err, errlen, "unknown class \"%s\" in \"%s\" (io or sync)", cls, spec);
        return -1;
    }
    if (eq - colon == 2 && colon[1] == '*') {
        out->index = -1;
    } else {
        long v = 0;
        const char *p = colon + 1;
        if (p == eq) {
            snprintf(err, errlen, "missing INDEX in \"%s\" (a waiting index from 0, or *)", spec);
            return -1;
        }
        for (; p < eq; p++) {
            if (*p < '0' || *p > '9' || v > 100000000) {
                snprintf(err, errlen, "bad INDEX in \"%s\" (a waiting index from 0, or *)", spec);
                return -1;
            }
            v = v * 10 + (*p - '0');
        }
        out->index = (int)v;
    }
    if ((size_t)(colon - spec) >= sizeof out->thread) {
        snprintf(err, errlen, "thread name too long in \"%.40s...\"", spec);
        return -1;
    }
    memcpy(out->thread, spec, (size_t)(colon - spec));
    out->thread[colon - spec] = '\0';
    return 0;
}

int imp_classify(struct imp_trace *t, const struct imp_classify_opts *o, char *err, size_t errlen)
{
    struct ctx c = { .t = t };
    c.window = o && o->window > 0 ? o->window : DEFAULT_WINDOW;
    c.quantum = o && o->quantum > 0 ? o->quantum : t->quantum > 0 ? t->quantum : DEFAULT_QUANTUM;
    int rc = check_overrides(t, o, err, errlen);
    if (rc != GV_OK) return rc;
    if ((rc = collect_holds(&c)) != GV_OK) goto out;
    infer_ractors(&c);
    mark_yields(&c);
    /* the Ractors and the yields are known now: holds are searched per
     * Ractor, and holds ended by a yield are not releases */
    free_holds(&c);
    if ((rc = collect_holds(&c)) != GV_OK || (rc = collect_deaths(&c)) != GV_OK) goto out;
    rc = classify_waits(&c, o, err, errlen);
    if (rc == GV_OK) find_spawners(&c);
out:
    if (rc == GV_ENOMEM) snprintf(err, errlen, "out of memory");
    free_holds(&c);
    free(c.deaths);
    return rc;
}

void imp_totals(const struct imp_trace *t, struct imp_totals *out)
{
    memset(out, 0, sizeof *out);
    out->wall = t->end;
    out->threads = t->nthreads;
    for (int i = 0; i < t->nthreads; i++)
        for (int k = 0; k < t->threads[i].nsegs; k++) {
            const struct imp_seg *s = &t->threads[i].segs[k];
            sim_time d = s->t1 - s->t0;
            switch (s->st) {
            case IMP_RUNNING: out->running += d; break;
            case IMP_GC: out->gc += d; break;
            case IMP_WANTS_GVL: out->wants_gvl += d; break;
            case IMP_SLEEPING: out->sleeping += d; break;
            case IMP_WAITING:
                out->waits++;
                out->cls[s->cls]++;
                if (s->cls != IMP_CLS_END) out->waiting += d;
                break;
            default: break;
            }
        }
}

static int cmp_time(const void *x, const void *y)
{
    sim_time a = *(const sim_time *)x, b = *(const sim_time *)y;
    return a < b ? -1 : a > b;
}

static sim_time median_of(sim_time *v, int n)
{
    if (n == 0) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_time);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Is the first hold of self's Ractor to start at or after x self's?  A
 * zero-length hold is not one: it marks where 3.2's native_sleep released
 * the GVL after its first SUSPENDED (imp_add_seg), the release itself. */
static bool next_hold_is(const struct ctx *c, sim_time x, int self)
{
    int r = c->t->threads[self].ractor, lo = c->hfrom[r], hi = c->hfrom[r + 1];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (c->holds[mid].a < x) lo = mid + 1;
        else hi = mid;
    }
    while (lo < c->hfrom[r + 1] && c->holds[lo].a == c->holds[lo].b) lo++;
    return lo < c->hfrom[r + 1] && c->holds[lo].th == self;
}

static const sim_time quiet_bin_from[IMP_QUIET_BINS + 1] = { 0, 100 * SIM_US, SIM_MS, 10 * SIM_MS, SIM_TIME_MAX };
static const char *const quiet_bin_names[IMP_QUIET_BINS] = { "lt100us", "lt1ms", "lt10ms", "ge10ms" };

sim_time imp_quiet_bin_from(int i)
{
    return i >= 0 && i <= IMP_QUIET_BINS ? quiet_bin_from[i] : SIM_TIME_MAX;
}

const char *imp_quiet_bin_name(int i)
{
    return i >= 0 && i < IMP_QUIET_BINS ? quiet_bin_names[i] : "";
}

/* How long before x no thread but `self` had changed state: every state
 * change is an event its thread fires on a CPU (up to 3.2 all of them;
 * 3.3's waker fires a woken thread's READY), so the CPUs other than
 * self's ran no traced thread since then - at most; an untraced thread
 * (the timer thread) or a woken thread that found the GVL taken again
 * (3.2 records nothing then) may have run there meanwhile. */
static sim_time quiet_before(const struct imp_trace *t, sim_time x, int self)
{
    sim_time last = 0;
    for (int i = 0; i < t->nthreads; i++) {
        const struct imp_thread *th = &t->threads[i];
        if (i == self || th->nsegs == 0 || th->segs[0].t0 >= x) continue;
        int lo = 0, hi = th->nsegs;  /* the last segment starting before x */
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (th->segs[mid].t0 < x) lo = mid;
            else hi = mid;
        }
        if (th->segs[lo].t0 > last) last = th->segs[lo].t0;
    }
    return x - last;
}

int imp_latencies(const struct imp_trace *t, struct imp_latency *out)
{
    memset(out, 0, sizeof *out);
    struct ctx c = { .t = (struct imp_trace *)t };
    int rc = collect_holds(&c), n = 0;
    sim_time *hv = NULL, *av = NULL, *fv = NULL, *jv = NULL, *dv = NULL, *last = NULL, *ql = NULL, *qt = NULL;
    if (rc != GV_OK) goto done;
    for (int i = 0; i < t->nthreads; i++) n += t->threads[i].nsegs;
    hv = malloc(((size_t)n + 1) * sizeof *hv);
    av = malloc(((size_t)n + 1) * sizeof *av);
    fv = malloc(((size_t)n + 1) * sizeof *fv);
    jv = malloc(((size_t)n + 1) * sizeof *jv);
    dv = malloc(((size_t)n + 1) * sizeof *dv);
    last = malloc(((size_t)t->nthreads + 1) * sizeof *last);
    /* bin b's latencies and quiet times at [b * (n + 1), ...) */
    ql = malloc(((size_t)n + 1) * IMP_QUIET_BINS * sizeof *ql);
    qt = malloc(((size_t)n + 1) * IMP_QUIET_BINS * sizeof *qt);
    if (!hv || !av || !fv || !jv || !dv || !last || !ql || !qt) { rc = GV_ENOMEM; goto done; }
    /* a dying thread's release: the end of its last hold (-1: it did not die) */
    for (int i = 0; i < t->nthreads; i++) {
        const struct imp_thread *th = &t->threads[i];
        last[i] = -1;
        for (int k = th->nsegs - 1; th->died && k >= 0 && last[i] < 0; k--)
            if (holds(th->segs[k].st)) last[i] = th->segs[k].t1;
    }
    for (int i = 0; i < t->nthreads; i++) {
        const struct imp_thread *th = &t->threads[i];
        for (int k = 0; k < th->nsegs; k++) {
            const struct imp_seg *s = &th->segs[k];
            if (s->st == IMP_WAITING && s->cls == IMP_CLS_JOIN && s->waker >= 0 && last[s->waker] >= 0)
                jv[out->joins++] = s->t1 - last[s->waker];
        }
        for (int k = 0; k + 1 < th->nsegs; k++) {
            const struct imp_seg *s = &th->segs[k];
            if (s->st != IMP_WANTS_GVL || !holds(th->segs[k + 1].st)) continue;
            const struct hold *r = release_before(&c, s->t1, i);
            if (r && r->b >= s->t0 && next_hold_is(&c, r->b, i)) {
                hv[out->handoffs++] = s->t1 - r->b;
                if (r->b == last[r->th]) {
                    dv[out->death_handoffs++] = s->t1 - r->b;
                    continue;
                }
                sim_time q = quiet_before(t, r->b, r->th);
                int b = 0;
                while (b + 1 < IMP_QUIET_BINS && q >= quiet_bin_from[b + 1]) b++;
                size_t at = (size_t)b * ((size_t)n + 1) + (size_t)out->quiet[b]++;
                ql[at] = s->t1 - r->b;
                qt[at] = q;
                continue;
            }
            /* held by a peer at any time of [t0, t1)?  a hold starting inside, or one around t0 */
            bool busy = holder_at(&c, s->t0, i) != NULL;
            int ra = th->ractor, lo = c.hfrom[ra], hi = c.hfrom[ra + 1];
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (c.holds[mid].a < s->t0) lo = mid + 1;
                else hi = mid;
            }
            for (int j = lo; j < c.hfrom[ra + 1] && c.holds[j].a < s->t1 && !busy; j++)
                busy = c.holds[j].b > c.holds[j].a && c.holds[j].th != i;
            if (busy) continue;
            /* the READY hooks that wrote the tracer's buffer out at the end of av,
             * the others at its start */
            bool flushed = t->flush && s->event >= 0 && s->event < t->nevents && t->flush[s->event];
            if (flushed) fv[out->flushes++] = s->t1 - s->t0;
            else av[out->acquires - out->flushes] = s->t1 - s->t0;
            out->acquires++;
        }
    }
    out->handoff_median = median_of(hv, out->handoffs);
    out->plain_median = median_of(av, out->acquires - out->flushes);
    out->flush_median = median_of(fv, out->flushes);
    memcpy(av + (out->acquires - out->flushes), fv, (size_t)out->flushes * sizeof *fv);
    out->acquire_median = median_of(av, out->acquires);
    out->join_median = median_of(jv, out->joins);
    out->death_handoff_median = median_of(dv, out->death_handoffs);
    for (int b = 0; b < IMP_QUIET_BINS; b++) {
        out->quiet_median[b] = median_of(ql + (size_t)b * ((size_t)n + 1), out->quiet[b]);
        out->quiet_time[b] = median_of(qt + (size_t)b * ((size_t)n + 1), out->quiet[b]);
    }
done:
    free(ql);
    free(qt);
    free(hv);
    free(av);
    free(fv);
    free(jv);
    free(dv);
    free(last);
    free_holds(&c);
    return rc;
}
