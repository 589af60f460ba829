/* imp_gvlsim.c - the form of a trace written by `gvlsim run --trace`
 * (output/trace.c; imp_read.h): an object {"traceEvents": [...],
 * "metadata": {"generator": "gvlsim", ...}} whose thread tracks are `X`
 * slices of category "thread", named by the CSV's state names, and whose
 * core tracks say which task had a core when.
 */
#include "imp_read.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "units.h"

#define NELEM(a) (sizeof a / sizeof a[0])

/* gvlsim's thread states (output/trace.c, thread_state_name). */
static const struct { const char *name; enum imp_state st; enum imp_class known; } sim_states[] = {
    { "running", IMP_RUNNING, IMP_CLS_NONE },       { "wants_gvl", IMP_WANTS_GVL, IMP_CLS_NONE },
    { "blocking", IMP_WAITING, IMP_CLS_IO },        { "parked", IMP_WAITING, IMP_CLS_SYNC },
    { "sleeping", IMP_SLEEPING, IMP_CLS_NONE },     { "barrier_init", IMP_OTHER, IMP_CLS_NONE },
    { "barrier_join", IMP_OTHER, IMP_CLS_NONE },    { "vmlock_wait", IMP_OTHER, IMP_CLS_NONE },
    { "wants_snt", IMP_OTHER, IMP_CLS_NONE },      { "gc", IMP_GC, IMP_CLS_NONE },
};
#define SIM_STATE_LIST "running, wants_gvl, blocking, parked, sleeping, barrier_init, " \
                       "barrier_join, vmlock_wait, wants_snt, gc"

/* A core busy running a task (core slices name the task as the thread
 * tracks name the thread): was a blocking thread on a CPU? */
static int add_busy(struct rd *r, const cJSON *ev)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(ev, "args");
    const char *state = cJSON_IsObject(a) ? imp_field_str(a, "state") : NULL;
    const char *task = cJSON_IsObject(a) ? imp_field_str(a, "task") : NULL;
    const cJSON *tv = cJSON_GetObjectItemCaseSensitive(ev, "ts"), *dv = cJSON_GetObjectItemCaseSensitive(ev, "dur");
    if (!state || !task || !cJSON_IsNumber(tv) || !cJSON_IsNumber(dv)) return GV_OK;
    /* microseconds, as the thread slices (whose values are checked; a core
     * slice out of their range says nothing about them) */
    if (!(fabs(tv->valuedouble) < 9e12) || !(fabs(dv->valuedouble) < 9e12)) return GV_OK;
    bool busy = !strcmp(state, "busy");
    if (!busy && strcmp(state, "wake") && strcmp(state, "switch")) return GV_OK;
    if (r->nbusy == r->capbusy) {
        size_t cap = r->capbusy ? r->capbusy * 2 : 256;
        struct busy *b = realloc(r->busy, cap * sizeof *b);
        if (!b) return GV_ENOMEM;
        r->busy = b;
        r->capbusy = cap;
    }
    char *name = strdup(task);
    if (!name) return GV_ENOMEM;
    sim_time t0 = (sim_time)llround(tv->valuedouble * 1e6);
    r->busy[r->nbusy++] = (struct busy){ name, t0, t0 + (sim_time)llround(dv->valuedouble * 1e6), busy };
    return GV_OK;
}

static int cmp_busy(const void *x, const void *y)
{
    const struct busy *p = x, *q = y;
    int c = strcmp(p->task, q->task);
    return c ? c : p->t0 < q->t0 ? -1 : p->t0 > q->t0;
}

/* How long each slice of a thread had a core.  A blocking slice during
 * which the thread's task was busy on a core for at least half its length
 * was a system call on the CPU (io_wait false); a running slice or a
 * system call that waited for a core replays only the time it had one.
 * An off-CPU wait (a sleep, an io_wait system call) ends when its thread
 * is woken, which an idle core's "wake" or a busy core's "switch" to the
 * task shows: the wake-up is the machine's, not the wait's own length.
 * Without a core track, a thread's slices are taken as gvl-tracing's are
 * (imp_wake_of). */
static void mark_oncpu(struct rd *r)
{
    struct imp_trace *t = r->t;
    if (r->nbusy) qsort(r->busy, r->nbusy, sizeof *r->busy, cmp_busy);
    for (int ti = 0; ti < t->nthreads; ti++) {
        struct imp_thread *th = &t->threads[ti];
        if (!th->name) continue;
        size_t lo = 0, hi = r->nbusy;   /* the first core slice of this task */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (strcmp(r->busy[mid].task, th->name) < 0) lo = mid + 1;
            else hi = mid;
        }
        size_t first = lo;
        /* a task no core track names (a trace whose core slices were cut
         * out): its slices say nothing of when it had a core (cpu -1) */
        if (first == r->nbusy || strcmp(r->busy[first].task, th->name)) continue;
        for (int k = 0; k < th->nsegs; k++) {
            struct imp_seg *s = &th->segs[k];
            bool hold = s->st == IMP_RUNNING || s->st == IMP_GC;
            if (s->known != IMP_CLS_IO && !hold && s->st != IMP_SLEEPING) continue;
            /* slices of one task do not overlap: skip those that ended before s */
            while (first < r->nbusy && !strcmp(r->busy[first].task, th->name) && r->busy[first].t1 <= s->t0)
                first++;
            sim_time on = 0, woke = -1;
            for (size_t j = first; j < r->nbusy && !strcmp(r->busy[j].task, th->name) && r->busy[j].t0 < s->t1;
                 j++) {
                const struct busy *b = &r->busy[j];
                sim_time a = b->t0 > s->t0 ? b->t0 : s->t0, e = b->t1 < s->t1 ? b->t1 : s->t1;
                if (b->busy && e > a) on += e - a;
                if (!b->busy && b->t0 > s->t0) woke = b->t0;   /* the last wake-up in the slice */
            }
            if (hold) {
                s->cpu = on;
                continue;
            }
            if (s->known == IMP_CLS_IO) s->oncpu = on * 2 >= s->t1 - s->t0;
            s->cpu = s->oncpu ? on : woke >= 0 ? woke - s->t0 : -1;
        }
    }
}

int imp_read_gvlsim(struct rd *r, const cJSON *root, const cJSON *events)
{
    struct imp_trace *t = r->t;
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(root, "metadata");
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(meta, "truncated"))) {
        imp_err_at(r, imp_off_of(r, meta),
               "this gvlsim trace was cut at its event cap (--trace-max-events): it does not hold the "
               "whole run");
        return GV_EINVAL;
    }
    int i = -1;
    const cJSON *ev;
    cJSON_ArrayForEach(ev, events) {
        int use = imp_event_use(r, ev, ++i);
        if (use < 0) break;
        if (!use) continue;
        const char *ph = imp_field_str(ev, "ph"), *cat = imp_field_str(ev, "cat"), *nm = imp_field_str(ev, "name");
        if (!ph) {
            imp_err_at(r, imp_off_of(r, ev), "event %d: missing \"ph\" (the event's phase)", i);
            continue;
        }
        int64_t tid;
        if (!strcmp(ph, "M") && nm && !strcmp(nm, "thread_name")) {
            const char *tn = imp_meta_arg_name(ev);
            if (!imp_field_int(r, ev, i, "tid", &tid)) continue;
            if (!tn) {
                imp_err_at(r, imp_off_of(r, ev), "event %d: thread_name without args.name", i);
                continue;
            }
            int ti = imp_thread_of(r, tid, 0);
            if (ti < 0 || imp_set_name(t, ti, tn) != GV_OK) return GV_ENOMEM;
            continue;
        }
        if (!strcmp(ph, "X") && cat && !strcmp(cat, "core")) {
            if (add_busy(r, ev) != GV_OK) return GV_ENOMEM;
            t->other_events++;
            continue;
        }
        if (strcmp(ph, "X") || !cat || strcmp(cat, "thread")) {
            if (!strcmp(ph, "B") || !strcmp(ph, "E")) {
                imp_err_at(r, imp_off_of(r, ev), "event %d: a %s event in a gvlsim trace (its thread states are X slices)",
                       i, ph);
                continue;
            }
            t->other_events++;  /* cores, the timer, counters, instants: what the model predicts */
            continue;
        }
        sim_time ts, dur;
        if (!imp_field_int(r, ev, i, "tid", &tid) || !imp_field_us(r, ev, i, "ts", &ts) ||
            !imp_field_us(r, ev, i, "dur", &dur))
            continue;
        size_t k;
        for (k = 0; k < NELEM(sim_states); k++)
            if (nm && !strcmp(sim_states[k].name, nm)) break;
        if (k == NELEM(sim_states)) {
            imp_err_at(r, imp_off_of(r, ev), "event %d (tid %" PRId64 "): unknown thread state \"%.40s\" (gvlsim's: %s)",
                   i, tid, nm ? nm : "", SIM_STATE_LIST);
            continue;
        }
        int ti = imp_thread_of(r, tid, ts);
        if (ti < 0) return GV_ENOMEM;
        struct th_rd *x = &r->th[ti];
        if (x->broken) continue;
        if (x->any && ts < x->last) {
            char a[48], b[48];
            units_format(x->last, a, sizeof a);
            units_format(ts, b, sizeof b);
            imp_err_at(r, imp_off_of(r, ev),
                   "event %d (tid %" PRId64 "): time goes backwards: this slice starts at %s, before the "
                   "end of the previous one (event %d) at %s", i, tid, b, x->last_ev, a);
            x->broken = true;
            continue;
        }
        if (!x->any) t->threads[ti].start = ts;
        if (imp_add_seg(t, &t->threads[ti], sim_states[k].st, ts, ts + dur, i, sim_states[k].known) != GV_OK)
            return GV_ENOMEM;
        x->any = true;
        x->last = ts + dur;
        x->last_ev = i;
        if (ts + dur > t->end) t->end = ts + dur;
    }
    /* gvlsim's threads end with their last slice */
    for (int ti = 0; ti < t->nthreads; ti++) t->threads[ti].died = t->threads[ti].nsegs > 0;
    if (!r->nerr) mark_oncpu(r);
    return r->nerr ? GV_EINVAL : GV_OK;
}
