/* trace.c - Chrome trace-event JSON from the vm and machine observers.
 *
 * Layout and cap rules are in trace.h.  Everything streams to the output
 * as it happens (nothing is held in memory but the open slice of each
 * track), so a trace of millions of events costs no more memory than a
 * short one.  Perfetto sorts JSON events itself, so slices written when
 * they close, out of start-time order, are fine. */
#include "trace.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/observer.h"
#include "../input/scenario.h"
#include "../sim/machine.h"
#include "gzfile.h"
#include "../common/metrics.h"

#define TRACE_PID 1

struct th_open {
    enum thread_state st;  /* TS_COUNT: not started or dead */
    int cpu;               /* a real run's CPU at the state's start (-1: none, a simulated run) */
    sim_time since;
};

struct core_open {
    enum mach_core_state st;
    const struct mach_task *task;
    sim_time since;
};

struct trace {
    struct gzfile *g;
    struct run_observer *obs;    /* installed by trace_observe, cleared by trace_end */
    struct mach_observer *mobs;
    char **ractor_names;         /* readyq counter series, one per Ractor */
    int nractors;
    uint64_t max, written, dropped, reserve;
    bool cut;
    sim_time cut_at;
    int nthreads, ncores;
    struct th_open *th;
    struct core_open *core;
    int cores_busy;
    const struct mach_task *timer_nt;
    bool timer_open;
    sim_time timer_since;
    int timer_core;
    bool prepared;               /* trace_prepare ran */
};

/* ---- formatting ----------------------------------------------------------- */

void trace_format_us(char *buf, size_t len, sim_time ps)
{
    int neg = ps < 0;
    uint64_t v = neg ? (uint64_t)(-ps) : (uint64_t)ps;
    snprintf(buf, len, "%s%" PRIu64 ".%06" PRIu64, neg ? "-" : "", v / 1000000u, v % 1000000u);
}

static void trace_put(struct trace *t, const char *s) { gzf_puts(t->g, s); }

static void put_us(struct trace *t, sim_time ps)
{
    char b[48];
    trace_format_us(b, sizeof b, ps);
    trace_put(t, b);
}

static void put_i64(struct trace *t, int64_t v)
{
    char b[32];
    snprintf(b, sizeof b, "%" PRId64, v);
    trace_put(t, b);
}

/* A JSON string literal: quotes, backslashes and control bytes escaped. */
static void trace_put_str(struct trace *t, const char *s)
{
    char esc[8];
    const char *run = s;
    gzf_write(t->g, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        gzf_write(t->g, run, (size_t)(s - run));
        if (c == '"' || c == '\\') snprintf(esc, sizeof esc, "\\%c", c);
        else snprintf(esc, sizeof esc, "\\u%04x", c);
        trace_put(t, esc);
        run = s + 1;
    }
    gzf_write(t->g, run, (size_t)(s - run));
    gzf_write(t->g, "\"", 1);
}

/* Start an event: the separator and the fields every event has. */
static void ev_begin(struct trace *t, char ph, const char *cat, const char *name, int tid)
{
    char b[64];
    trace_put(t, t->written > 1 ? ",\n{\"ph\":\"" : "\n{\"ph\":\"");
    gzf_write(t->g, &ph, 1);
    trace_put(t, "\"");
    if (cat) {
        trace_put(t, ",\"cat\":");
        trace_put_str(t, cat);
    }
    trace_put(t, ",\"name\":");
    trace_put_str(t, name);
    snprintf(b, sizeof b, ",\"pid\":%d,\"tid\":%d", TRACE_PID, tid);
    trace_put(t, b);
}

/* ---- the cap -------------------------------------------------------------- */

static void cut_here(struct trace *t, sim_time now);

/* May one more event be written?  Keeps `reserve` slots to close every
 * open slice: when they are needed, the trace is cut at `now`. */
static bool admit(struct trace *t, sim_time now)
{
    if (t->cut) {
        t->dropped++;
        return false;
    }
    if (t->written + 1 + t->reserve > t->max) {
        cut_here(t, now);
        t->dropped++;
        return false;
    }
    t->written++;
    return true;
}

/* ---- tracks --------------------------------------------------------------- */

static int tid_thread(int id) { return 1 + id; }
static int tid_timer(const struct trace *t) { return 1 + t->nthreads; }
static int tid_core(const struct trace *t, int c) { return 2 + t->nthreads + c; }

static void slice_body(struct trace *t, sim_time from, sim_time to)
{
    trace_put(t, ",\"ts\":");
    put_us(t, from);
    trace_put(t, ",\"dur\":");
    put_us(t, to - from);
}

static void write_thread_slice(struct trace *t, int id, const struct th_open *o, sim_time to)
{
    ev_begin(t, 'X', "thread", thread_state_name(o->st), tid_thread(id));
    slice_body(t, o->since, to);
    if (o->cpu >= 0) {
        trace_put(t, ",\"args\":{\"cpu\":");
        put_i64(t, o->cpu);
        trace_put(t, "}");
    }
    trace_put(t, "}");
}

static const char *core_state_name(enum mach_core_state st)
{
    switch (st) {
    case CORE_SWITCHING: return "switch";
    case CORE_WAKING: return "wake";
    case CORE_BUSY: return "busy";
    case CORE_IDLE: break;
    }
    return "idle";
}

static void write_core_slice(struct trace *t, int c, const struct core_open *o, sim_time to)
{
    const char *task = o->task && o->task->name ? o->task->name : "?";
    ev_begin(t, 'X', "core", o->st == CORE_BUSY ? task : core_state_name(o->st), tid_core(t, c));
    slice_body(t, o->since, to);
    trace_put(t, ",\"args\":{\"state\":");
    trace_put_str(t, core_state_name(o->st));
    trace_put(t, ",\"task\":");
    trace_put_str(t, task);
    trace_put(t, "}}");
}

static void write_timer_slice(struct trace *t, sim_time to)
{
    ev_begin(t, 'X', "timer", "on_cpu", tid_timer(t));
    slice_body(t, t->timer_since, to);
    trace_put(t, ",\"args\":{\"core\":");
    put_i64(t, t->timer_core);
    trace_put(t, "}}");
}

static void write_counter(struct trace *t, const char *name, const char *series, int64_t v,
                          sim_time now)
{
    ev_begin(t, 'C', NULL, name, tid_thread(0));
    trace_put(t, ",\"ts\":");
    put_us(t, now);
    trace_put(t, ",\"args\":{");
    trace_put_str(t, series);
    trace_put(t, ":");
    put_i64(t, v);
    trace_put(t, "}}");
}

static void write_instant(struct trace *t, const char *name, int tid, sim_time now)
{
    ev_begin(t, 'i', "instant", name, tid >= 0 ? tid : tid_thread(0));
    trace_put(t, tid >= 0 ? ",\"s\":\"t\",\"ts\":" : ",\"s\":\"p\",\"ts\":");
    put_us(t, now);
    trace_put(t, "}");
}

/* Close every open slice at `now`, writing it if `write` (else counting it
 * as dropped).  The states stay recorded as open from `now` on. */
static void close_all(struct trace *t, sim_time now, bool write)
{
    for (int i = 0; i < t->nthreads; i++) {
        struct th_open *o = &t->th[i];
        if (o->st >= TS_COUNT || o->since >= now) continue;
        if (write) {
            t->written++;
            write_thread_slice(t, i, o, now);
        } else {
            t->dropped++;
        }
        o->since = now;
    }
    for (int c = 0; c < t->ncores; c++) {
        struct core_open *o = &t->core[c];
        if (o->st == CORE_IDLE || o->since >= now) continue;
        if (write) {
            t->written++;
            write_core_slice(t, c, o, now);
        } else {
            t->dropped++;
        }
        o->since = now;
    }
    if (t->timer_open && t->timer_since < now) {
        if (write) {
            t->written++;
            write_timer_slice(t, now);
        } else {
            t->dropped++;
        }
        t->timer_since = now;
    }
}

static void cut_here(struct trace *t, sim_time now)
{
    t->cut = true;
    t->cut_at = now;
    close_all(t, now, true);
    t->written++;
    write_instant(t, "trace_truncated", -1, now);
}

/* ---- observers ------------------------------------------------------------ */

static void on_thread_state(void *ctx, int thread, enum thread_state from, enum thread_state to,
                            sim_time now)
{
    (void)from;
    struct trace *t = ctx;
    struct th_open *o = &t->th[thread];
    if (o->st < TS_COUNT && now > o->since && admit(t, now))
        write_thread_slice(t, thread, o, now);
    o->st = to;
    o->cpu = -1;
    o->since = now;
}

void trace_thread_cpu(struct trace *t, int thread, int cpu)
{
    t->th[thread].cpu = cpu;
}

static void on_readyq(void *ctx, int ractor, int len, sim_time now)
{
    struct trace *t = ctx;
    if (admit(t, now)) write_counter(t, "readyq", t->ractor_names[ractor], len, now);
}

static void on_instant(void *ctx, const char *name, int thread, sim_time now)
{
    struct trace *t = ctx;
    if (admit(t, now)) write_instant(t, name, thread >= 0 ? tid_thread(thread) : -1, now);
}

static void on_counter(void *ctx, const char *name, int64_t value, sim_time now)
{
    struct trace *t = ctx;
    if (admit(t, now)) write_counter(t, name, "value", value, now);
}

static void on_core_change(void *ctx, int core, enum mach_core_state st, const struct mach_task *task,
                           sim_time now)
{
    struct trace *t = ctx;
    struct core_open *o = &t->core[core];
    if (st == o->st && task == o->task) return;  /* mach_finish: nothing changed */
    if (o->st != CORE_IDLE && now > o->since && admit(t, now)) write_core_slice(t, core, o, now);
    /* the timer thread's own track mirrors its time on a core */
    if (o->st == CORE_BUSY && o->task == t->timer_nt && t->timer_open) {
        if (now > t->timer_since && admit(t, now)) write_timer_slice(t, now);
        t->timer_open = false;
    }
    if (st == CORE_BUSY && task == t->timer_nt) {
        t->timer_open = true;
        t->timer_since = now;
        t->timer_core = core;
    }
    int was_busy = o->st != CORE_IDLE, busy = st != CORE_IDLE;
    o->st = st;
    o->task = task;
    o->since = now;
    if (busy != was_busy) {
        t->cores_busy += busy - was_busy;
        if (admit(t, now)) write_counter(t, "cores", "busy", t->cores_busy, now);
    }
}

/* ---- open / end / commit -------------------------------------------------- */

static void write_meta(struct trace *t, const char *what, int tid, const char *key, const char *sval,
                       int64_t ival)
{
    if (!admit(t, 0)) return;
    ev_begin(t, 'M', NULL, what, tid);
    trace_put(t, ",\"args\":{");
    trace_put_str(t, key);
    trace_put(t, ":");
    if (sval) trace_put_str(t, sval);
    else put_i64(t, ival);
    trace_put(t, "}}");
}

static void detach(struct trace *t)
{
    if (t->obs) memset(t->obs, 0, sizeof *t->obs);
    if (t->mobs) memset(t->mobs, 0, sizeof *t->mobs);
    t->obs = NULL;
    t->mobs = NULL;
}

static void trace_free(struct trace *t)
{
    if (t->ractor_names)
        for (int r = 0; r < t->nractors; r++) free(t->ractor_names[r]);
    free(t->ractor_names);
    free(t->th);
    free(t->core);
    free(t);
}

int trace_open(struct trace **out, const char *path, uint64_t max_events,
               const struct run_layout *lay, char *err, size_t errlen)
{
    *out = NULL;
    struct trace *t = calloc(1, sizeof *t);
    if (!t) return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", path);
    t->nthreads = lay->nthreads;
    t->ncores = lay->backend ? 0 : lay->ncores;  /* a real run's cores are not recorded */
    t->nractors = lay->nractors;
    t->th = calloc((size_t)(t->nthreads ? t->nthreads : 1), sizeof *t->th);
    t->core = calloc((size_t)t->ncores, sizeof *t->core);
    t->ractor_names = calloc((size_t)(t->nractors ? t->nractors : 1), sizeof *t->ractor_names);
    bool oom = !t->th || !t->core || !t->ractor_names;
    for (int r = 0; !oom && r < t->nractors; r++)
        oom = !(t->ractor_names[r] = strdup(lay->ractor_names[r]));
    if (oom) {
        trace_free(t);
        return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", path);
    }
    int rc = gzf_open(&t->g, path, gzf_path_wants_gzip(path), err, errlen);
    if (rc != GV_OK) {
        trace_free(t);
        return rc;
    }
    for (int i = 0; i < t->nthreads; i++) t->th[i] = (struct th_open){ .st = TS_COUNT, .cpu = -1 };
    for (int c = 0; c < t->ncores; c++) t->core[c].st = CORE_IDLE;
    t->max = max_events;
    /* one slot per track that can have an open slice, plus the cut marker */
    t->reserve = (uint64_t)t->nthreads + (uint64_t)t->ncores + 1 + 1;

    char pname[512];
    snprintf(pname, sizeof pname, "%s [%s%s%s, %d core%s, seed %" PRIu64 "]", lay->scenario,
             lay->backend ? lay->backend : "", lay->backend ? ": " : "", lay->policy, lay->ncores,
             lay->ncores == 1 ? "" : "s", lay->seed);
    trace_put(t, "{\"traceEvents\":[");
    write_meta(t, "process_name", tid_thread(0), "name", pname, 0);
    char name[64];
    int sort = 0;
    for (int i = 0; i < t->nthreads; i++) {
        write_meta(t, "thread_name", tid_thread(i), "name", lay->thread_names[i], 0);
        write_meta(t, "thread_sort_index", tid_thread(i), "sort_index", NULL, sort++);
    }
    if (!lay->backend) {
        write_meta(t, "thread_name", tid_timer(t), "name", "timer thread", 0);
        write_meta(t, "thread_sort_index", tid_timer(t), "sort_index", NULL, sort++);
    }
    for (int c = 0; c < t->ncores; c++) {
        snprintf(name, sizeof name, "core %d", c);
        write_meta(t, "thread_name", tid_core(t, c), "name", name, 0);
        write_meta(t, "thread_sort_index", tid_core(t, c), "sort_index", NULL, sort++);
    }
    /* counters start at zero (a simulated run's) */
    for (int r = 0; !lay->backend && r < t->nractors; r++)
        if (admit(t, 0)) write_counter(t, "readyq", t->ractor_names[r], 0, 0);
    if (!lay->backend && admit(t, 0)) write_counter(t, "cores", "busy", 0, 0);
    *out = t;
    return GV_OK;
}

void trace_observe(struct trace *t, struct run_observer *obs, struct mach_observer *mobs,
                   const struct mach_task *timer)
{
    t->obs = obs;
    t->mobs = mobs;
    t->timer_nt = timer;
    obs->ctx = t;
    obs->thread_state = on_thread_state;
    obs->readyq = on_readyq;
    obs->instant = on_instant;
    obs->counter = on_counter;
    mobs->ctx = t;
    mobs->core_change = on_core_change;
}

void trace_cut(struct trace *t, sim_time at, uint64_t dropped)
{
    if (!t->cut) cut_here(t, at);
    t->dropped += dropped;
}

void trace_end(struct trace *t, sim_time end)
{
    close_all(t, end, !t->cut);
    detach(t);
}

void trace_get_stats(const struct trace *t, struct trace_stats *st)
{
    st->written = t->written;
    st->dropped = t->dropped;
    st->max_events = t->max;
    st->truncated = t->cut;
    st->cut_at = t->cut ? t->cut_at : 0;
}

int trace_prepare(struct trace *t, struct trace_stats *st, char *err, size_t errlen)
{
    detach(t);
    struct trace_stats s;
    trace_get_stats(t, &s);
    if (st) *st = s;
    if (t->prepared) return gzf_prepare(t->g, err, errlen);
    t->prepared = true;
    char b[256];
    trace_put(t, "\n],\n\"displayTimeUnit\":\"ns\",\n\"metadata\":{\"generator\":\"gvlsim\"");
    snprintf(b, sizeof b,
             ",\"max_events\":%" PRIu64 ",\"events\":%" PRIu64 ",\"dropped_events\":%" PRIu64
             ",\"truncated\":%s",
             s.max_events, s.written, s.dropped, s.truncated ? "true" : "false");
    trace_put(t, b);
    if (s.truncated) {
        trace_put(t, ",\"truncated_at_us\":");
        put_us(t, s.cut_at);
    }
    trace_put(t, "}}\n");
    return gzf_prepare(t->g, err, errlen);
}

int trace_commit(struct trace *t, struct trace_stats *st, char *err, size_t errlen)
{
    int rc = trace_prepare(t, st, err, errlen);
    if (rc == GV_OK) rc = gzf_commit(t->g, err, errlen);
    else gzf_abort(t->g);
    trace_free(t);
    return rc;
}

void trace_abort(struct trace *t)
{
    if (!t) return;
    detach(t);
    gzf_abort(t->g);
    trace_free(t);
}
