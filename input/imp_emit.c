/* imp_emit.c - a classified trace -> the scenario's JSON tree.
 *
 * Each traced thread becomes one thread template that replays its own
 * history, segment by segment:
 *   running              compute of the measured length (the GVL held);
 *   gc                   gc of the measured length (a GC start: the GVL
 *                        held, state gc, with several Ractors the VM lock
 *                        and a barrier);
 *   sleeping             sleep of the measured length, less the replay
 *                        machine's wake-up (imp_wake_of: the recorded
 *                        length ends once the thread ran again);
 *   waiting, io          a GVL-releasing syscall of the measured length:
 *                        off the CPU (io_wait; less the wake-up, as a
 *                        sleep) or, when short, on it;
 *   waiting, sync        queue_pop on the thread's own wake queue
 *                        "wake.K" (a Thread::Queue), which its waker pushes
 *                        at the point of its own timeline where the trace
 *                        shows it acted (a compute is split there; up to
 *                        3.2 one wake-up before the end: imp_start_lead): which
 *                        Mutex, ConditionVariable or Queue it was is not in
 *                        the trace, only who ended the wait;
 *   waiting, join        join of the thread that died (Thread#join: the
 *                        dying thread wakes its joiners);
 *   waiting, yield/end   nothing (the quantum is the simulator's; a thread
 *                        still blocked when tracing stopped ends there);
 *   wants_gvl, started   nothing: that is what the simulator predicts.
 * A thread created while tracing is a "spawned" template, started by a
 * spawn op (Thread.new) of its creator where the trace shows the creation
 * (up to 3.2 one start-up before its `started` event: imp_start_lead);
 * one whose creator is not found (another Ractor's) and one that existed
 * before tracing began start at their first event ("start").  A wake queue
 * is a semaphore: a push that comes before the pop is kept, so a replay
 * whose schedule differs from the trace's neither loses a wake-up nor
 * deadlocks.  Every op carries "trace": where it comes from and why it is
 * what it is.
 */
#include "import.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "ruby_version.h"
#include "schema.h"
#include "units.h"

/* An exact duration string: "16.7905ms", "2us", "0ns". */
static void dur_str(char *buf, size_t len, sim_time ps)
{
    static const struct { sim_time u; const char *name; int digits; } units[] = {
        { SIM_S, "s", 12 }, { SIM_MS, "ms", 9 }, { SIM_US, "us", 6 }, { SIM_NS, "ns", 3 }, { SIM_PS, "ps", 0 },
    };
    if (ps <= 0) {
        snprintf(buf, len, "0ns");
        return;
    }
    size_t k = 0;
    while (k + 1 < sizeof units / sizeof units[0] && ps < units[k].u) k++;
    int64_t ip = ps / units[k].u, fp = ps % units[k].u;
    if (fp == 0) {
        snprintf(buf, len, "%" PRId64 "%s", ip, units[k].name);
        return;
    }
    char frac[16];
    snprintf(frac, sizeof frac, "%0*" PRId64, units[k].digits, fp);
    size_t fl = strlen(frac);
    while (fl > 0 && frac[fl - 1] == '0') frac[--fl] = '\0';
    snprintf(buf, len, "%" PRId64 ".%s%s", ip, frac, units[k].name);
}

/* Something a thread does to another at a point of its timeline. */
struct act {
    sim_time at;
    sim_time recorded;   /* where the trace shows it (a spawn may come earlier) */
    int target;   /* thread index */
    int seg;      /* the target's waiting segment, or -1: its creation */
    int order;    /* creation order: ties keep it */
};

struct em {
    const struct imp_trace *t;
    struct act **acts;   /* per thread */
    int *nacts, *capacts;
    bool *wakeq;         /* thread has a wake queue */
    struct imp_hook hook;  /* the tracer's hook (imp_emit_opts) */
    const struct imp_emit_opts *o;
    bool oom;
};

static void add_act(struct em *e, int waker, sim_time at, sim_time recorded, int target, int seg)
{
    if (e->nacts[waker] == e->capacts[waker]) {
        int cap = e->capacts[waker] ? e->capacts[waker] * 2 : 8;
        struct act *a = realloc(e->acts[waker], (size_t)cap * sizeof *a);
        if (!a) { e->oom = true; return; }
        e->acts[waker] = a;
        e->capacts[waker] = cap;
    }
    e->acts[waker][e->nacts[waker]] = (struct act){ at, recorded, target, seg, e->nacts[waker] };
    e->nacts[waker]++;
    if (seg >= 0) e->wakeq[target] = true;   /* a creation is a spawn */
}

static int cmp_act(const void *x, const void *y)
{
    const struct act *p = x, *q = y;
    if (p->at != q->at) return p->at < q->at ? -1 : 1;
    if (p->recorded != q->recorded) return p->recorded < q->recorded ? -1 : 1;
    return p->order - q->order;
}

/* ---- JSON helpers ------------------------------------------------------------ */

static cJSON *op_new(struct em *e, cJSON *prog, const char *name, const char *trace_fmt, ...)
    __attribute__((format(printf, 4, 5)));

static cJSON *op_new(struct em *e, cJSON *prog, const char *name, const char *trace_fmt, ...)
{
    cJSON *op = cJSON_CreateObject();
    if (!op || !cJSON_AddStringToObject(op, "op", name)) {
        cJSON_Delete(op);
        e->oom = true;
        return NULL;
    }
    if (trace_fmt) {
        char buf[512];
        va_list ap;
        va_start(ap, trace_fmt);
        vsnprintf(buf, sizeof buf, trace_fmt, ap);
        va_end(ap);
        if (!cJSON_AddStringToObject(op, "trace", buf)) e->oom = true;
    }
    if (!cJSON_AddItemToArray(prog, op)) {
        cJSON_Delete(op);
        e->oom = true;
        return NULL;
    }
    return op;
}

static void add_dur_key(struct em *e, cJSON *op, const char *k, sim_time d)
{
    char b[48];
    dur_str(b, sizeof b, d);
    if (op && !cJSON_AddStringToObject(op, k, b)) e->oom = true;
}

static void add_dur(struct em *e, cJSON *op, sim_time d) { add_dur_key(e, op, "dur", d); }

static void add_str(struct em *e, cJSON *op, const char *k, const char *v)
{
    if (op && !cJSON_AddStringToObject(op, k, v)) e->oom = true;
}

static void add_bool(struct em *e, cJSON *op, const char *k, bool v)
{
    if (op && !cJSON_AddBoolToObject(op, k, v)) e->oom = true;
}

static void wake_queue(char *buf, size_t len, int thread) { snprintf(buf, len, "wake.%d", thread); }

/* Act `a`: the spawn of the target, or the push into its wake queue. */
static void emit_act(struct em *e, cJSON *prog, const struct act *a)
{
    const struct imp_thread *tt = &e->t->threads[a->target];
    if (a->seg < 0) {
        char lead[48];
        units_format(a->recorded - a->at, lead, sizeof lead);
        add_str(e, op_new(e, prog, "spawn", a->recorded > a->at ? "creates %s (%s before its started event, "
                          "which Ruby up to 3.2 fires from the new thread once it runs)" : "creates %s%s",
                          tt->name, a->recorded > a->at ? lead : ""), "thread", tt->name);
        return;
    }
    char q[32];
    wake_queue(q, sizeof q, a->target);
    cJSON *op = op_new(e, prog, "queue_push", "wakes %s's waiting[%d] (e%d)", tt->name,
                       tt->segs[a->seg].wait_index, tt->segs[a->seg].event);
    add_str(e, op, "queue", q);
}

/* The CPU time of [a, b) within segment s: all of it, or (a gvlsim trace,
 * which shows when the thread had a core) its share of the CPU time. */
static sim_time cpu_of(const struct imp_seg *s, sim_time a, sim_time b)
{
    if (s->cpu < 0 || s->t1 == s->t0) return b - a;
    return (sim_time)((double)(b - a) * (double)s->cpu / (double)(s->t1 - s->t0) + 0.5);
}

/* compute (or gc) [t0, t1) with the acts that fall in it; *next is the
 * first act not yet emitted. */
static void emit_hold(struct em *e, cJSON *prog, int ti, const struct imp_seg *s, int *next)
{
    const struct act *acts = e->acts[ti];
    sim_time at = s->t0;
    int part = 0;
    for (;;) {
        bool have = *next < e->nacts[ti] && acts[*next].at <= s->t1;
        sim_time until = have ? acts[*next].at : s->t1;
        if (until > at) {
            sim_time d = cpu_of(s, at, until);
            if (d > 0) {
                cJSON *op = op_new(e, prog, s->st == IMP_GC ? "gc" : "compute",
                                   part ? "e%d %s (part %d)" : "e%d %s", s->event, imp_state_name(s->st), part + 1);
                add_dur(e, op, d);
                part++;
            }
            at = until;
        }
        if (!have) break;
        emit_act(e, prog, &acts[(*next)++]);
    }
}

sim_time imp_wake_of(const struct imp_emit_opts *o, sim_time len)
{
    if (o->wake <= 0 || len <= 0) return 0;
    sim_time w = o->wake;
    if (o->wake_extra && o->wake_extra->n > 0 && len > w) w += gv_curve_at(o->wake_extra, len - w);
    return w < len ? w : len;
}

/* Does s, a sleep or an off-CPU wait, hold its wake-up (no core track
 * shows where it began)? */
static bool holds_wake(const struct imp_seg *s)
{
    return s->cpu < 0 && (s->st == IMP_SLEEPING || (s->st == IMP_WAITING && s->cls == IMP_CLS_IO && !s->oncpu));
}

int imp_holds_wake(const struct imp_trace *t)
{
    int n = 0;
    for (int i = 0; i < t->nthreads; i++)
        for (int k = 0; k < t->threads[i].nsegs; k++) n += holds_wake(&t->threads[i].segs[k]);
    return n;
}

/* The length to replay of s, a sleep or an I/O wait, less the tracer's
 * write that opened it (emitted with the hold before it): what a gvlsim
 * trace's core tracks show (the CPU time of a system call; an off-CPU
 * wait up to its wake-up), else the recorded length, less the replay
 * machine's wake-up when s holds one (said in note, for the op's
 * "trace"). */
static sim_time replay_len(const struct em *e, const struct imp_seg *s, sim_time write, char *note, size_t len)
{
    note[0] = '\0';
    if (s->cpu >= 0) return s->cpu - write;
    sim_time d = s->t1 - s->t0 - write;
    sim_time w = holds_wake(s) ? imp_wake_of(e->o, d) : 0;
    if (w > 0) {
        char a[48], b[48];
        units_format(d, a, sizeof a);
        units_format(w, b, sizeof b);
        snprintf(note, len, " (%s recorded, which holds the OS's wake-up of the thread: less the replay "
                 "machine's, %s, which the replay adds)", a, b);
    }
    return d - w;
}

/* write: the part of s that the thread spent in the tracer's SUSPENDED
 * hook before it released the GVL, emitted with the hold before s */
static void emit_wait(struct em *e, cJSON *prog, int ti, const struct imp_seg *s, sim_time write)
{
    const struct imp_trace *t = e->t;
    char gap[48], q[32], note[256];
    cJSON *op;
    sim_time d;
    switch (s->cls) {
    case IMP_CLS_IO:
        d = replay_len(e, s, write, note, sizeof note);
        op = op_new(e, prog, "syscall", "e%d waiting[%d] io%s: %s%s", s->event, s->wait_index,
                    s->oncpu ? " on the CPU" : "", imp_rule_text(s->rule), note);
        add_dur(e, op, d);
        if (!s->oncpu) add_str(e, op, "call", "nanosleep");
        add_bool(e, op, "io_wait", !s->oncpu);
        break;
    case IMP_CLS_SYNC:
    case IMP_CLS_JOIN:
        units_format(s->gap, gap, sizeof gap);
        op = op_new(e, prog, s->cls == IMP_CLS_JOIN ? "join" : "queue_pop",
                    "e%d waiting[%d] %s: %s (%s %s %s its end; %s)", s->event, s->wait_index,
                    imp_class_name(s->cls), t->threads[s->waker].name,
                    s->cls == IMP_CLS_JOIN ? "died" : s->wake_at < s->t1 ? "released the GVL" : "held the GVL",
                    gap, s->wake_at < s->t1 ? "before" : "around", imp_rule_text(s->rule));
        if (s->cls == IMP_CLS_JOIN) {
            add_str(e, op, "thread", t->threads[s->waker].name);
        } else {
            wake_queue(q, sizeof q, ti);
            add_str(e, op, "queue", q);
        }
        break;
    default:  /* yield, end: not replayed */
        break;
    }
}

/* The write of the tracer's buffer in the SUSPENDED hook that opens release
 * s, or 0.  gvl-tracing stamps SUSPENDED when its hook starts, so a hook
 * that writes its buffer out (imp_trace.flush) shows the write at the start
 * of s; but CRuby fires SUSPENDED before it releases the GVL
 * (thread_sched_to_waiting of v3_2_0: the hook, then gvl->lock and the
 * release; v3_3_0's thread_sched_to_waiting_common: the hook, then the
 * wake-up of the next thread), so the write holds the GVL.  Its length is
 * the one measured at READY (event_hook_flush). */
static sim_time suspended_write(const struct em *e, const struct imp_seg *s)
{
    const struct imp_trace *t = e->t;
    if (e->hook.every <= 0 || !t->flush || s->event < 0 || s->event >= t->nevents || !t->flush[s->event]) return 0;
    if (s->st == IMP_WAITING && s->cls != IMP_CLS_IO && s->cls != IMP_CLS_SYNC && s->cls != IMP_CLS_JOIN) return 0;
    if (s->st != IMP_WAITING && s->st != IMP_SLEEPING) return 0;
    return e->hook.flush < s->t1 - s->t0 ? e->hook.flush : 0;   /* (one shorter did not contain it) */
}

static cJSON *emit_thread(struct em *e, int ti)
{
    const struct imp_thread *th = &e->t->threads[ti];
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddStringToObject(o, "name", th->name)) {
        cJSON_Delete(o);
        e->oom = true;
        return NULL;
    }
    if (th->spawner >= 0) {
        add_bool(e, o, "spawned", true);
    } else if (!th->is_main && th->start > 0) {
        add_dur_key(e, o, "start", th->start);
    }
    cJSON *prog = cJSON_CreateArray();
    if (!prog || !cJSON_AddItemToObject(o, "program", prog)) {
        cJSON_Delete(o);
        cJSON_Delete(prog);
        e->oom = true;
        return NULL;
    }
    int next = 0;
    sim_time write = 0;   /* of the SUSPENDED hook that opened s, emitted with the hold before it */
    for (int k = 0; k < th->nsegs; k++) {
        const struct imp_seg *s = &th->segs[k];
        if (k == 0 || !(th->segs[k - 1].st == IMP_RUNNING || th->segs[k - 1].st == IMP_GC)) write = 0;
        /* acts before this segment (none by construction, but never lost) */
        while (next < e->nacts[ti] && e->acts[ti][next].at < s->t0) emit_act(e, prog, &e->acts[ti][next++]);
        switch (s->st) {
        case IMP_RUNNING:
        case IMP_GC:
            emit_hold(e, prog, ti, s, &next);
            if (k + 1 < th->nsegs && (write = suspended_write(e, &th->segs[k + 1])) > 0) {
                cJSON *op = op_new(e, prog, "compute", "e%d the tracer's SUSPENDED hook writing its buffer out, "
                                   "with the GVL held", th->segs[k + 1].event);
                add_dur(e, op, write);
            }
            break;
        case IMP_SLEEPING: {
            char note[256];
            sim_time d = replay_len(e, s, write, note, sizeof note);
            add_dur(e, op_new(e, prog, "sleep", "e%d sleeping%s", s->event, note), d);
            break;
        }
        case IMP_WAITING:
            emit_wait(e, prog, ti, s, write);
            break;
        default:
            break;
        }
    }
    while (next < e->nacts[ti]) emit_act(e, prog, &e->acts[ti][next++]);
    return o;
}

static char *describe(const struct imp_trace *t, const struct imp_emit_opts *o)
{
    struct imp_totals tot;
    imp_totals(t, &tot);
    char wall[48];
    units_format(tot.wall, wall, sizeof wall);
    const char *base = strrchr(t->file, '/');
    base = base ? base + 1 : t->file;
    size_t n = strlen(base) + 1536;
    char *s = malloc(n);
    if (!s) return NULL;
    int len = snprintf(s, n,
             "Imported by gvlsim import from %s (%s trace%s%s%s): %d thread%s in %d Ractor%s, %s. "
             "Waits: %d io (fixed length), %d sync and %d join (woken by another thread), %d quantum "
             "yields and %d thread exits (not copied), %d still open at the end.",
             base, t->form == IMP_FORM_GVLSIM ? "gvlsim" : "gvl-tracing", o->ruby ? ", Ruby " : "",
             o->ruby ? o->ruby : "", o->ruby ? "" : ", Ruby version not recorded", t->nthreads,
             t->nthreads == 1 ? "" : "s", t->nractors, t->nractors == 1 ? "" : "s", wall, tot.cls[IMP_CLS_IO],
             tot.cls[IMP_CLS_SYNC], tot.cls[IMP_CLS_JOIN], tot.cls[IMP_CLS_YIELD], tot.cls[IMP_CLS_EXIT],
             tot.cls[IMP_CLS_END]);
    if (o->hook.hook > 0 && len > 0 && (size_t)len < n) {
        char h[48], f[48] = "";
        units_format(o->hook.hook, h, sizeof h);
        if (o->hook.every > 0) units_format(o->hook.flush, f, sizeof f);
        len += snprintf(s + len, n - (size_t)len,
                        " runtime.event_hook %s: the tracer's READY hook, the median of the trace's %d acquisitions "
                        "of a free GVL", h, o->hook.every > 0 ? o->hook_samples - o->hook_flushes : o->hook_samples);
        if (o->hook.every > 0 && len > 0 && (size_t)len < n)
            len += snprintf(s + len, n - (size_t)len,
                            " that did not write the tracer's buffer out; the %d that did took %s more "
                            "(event_hook_flush), one in %d (event_hook_flush_every)",
                            o->hook_flushes, f, o->hook.every);
        if (len > 0 && (size_t)len < n)
            len += snprintf(s + len, n - (size_t)len, " (--set runtime.event_hook=0 replays the program without the tracer).");
    }
    int woken = imp_holds_wake(t);
    if (o->wake > 0 && woken > 0 && len > 0 && (size_t)len < n) {
        char w[48];
        units_format(o->wake, w, sizeof w);
        snprintf(s + len, n - (size_t)len,
                 " Sleeps and off-CPU I/O waits (%d) end where the trace shows the thread running again, so "
                 "they hold its wake-up: each is replayed that much shorter, by the wake-up of a thread on an "
                 "idle core of the profile the import was given (%s%s), which the replay adds itself.",
                 woken, w, o->wake_extra && o->wake_extra->n > 0 ? " plus wake_idle_extra after the sleep's length" : "");
    }
    return s;
}

struct imp_hook imp_event_hook(const struct imp_trace *t, const struct imp_latency *lat)
{
    struct imp_hook h = { 0, 0, 0 };
    if (t->form != IMP_FORM_GVL_TRACING || lat->acquires == 0) return h;
    if (lat->flushes == 0 || lat->flushes == lat->acquires || lat->flush_median <= lat->plain_median) {
        h.hook = lat->acquire_median;
        return h;
    }
    h.hook = lat->plain_median;
    h.flush = lat->flush_median - lat->plain_median;
    h.every = (lat->acquires + lat->flushes / 2) / lat->flushes;
    return h;
}

sim_time imp_start_lead(const struct imp_trace *t, const char *ruby, sim_time startup)
{
    struct rver v, v33 = { 3, 3, -1 };
    if (t->form != IMP_FORM_GVL_TRACING || !ruby || rver_parse(ruby, &v) != 0 || rver_cmp(&v, &v33) >= 0) return 0;
    return startup;
}

cJSON *imp_emit(const struct imp_trace *t, const struct imp_emit_opts *o)
{
    int n = t->nthreads;
    struct em e = { .t = t, .hook = o->hook, .o = o };
    e.acts = calloc((size_t)n, sizeof *e.acts);
    e.nacts = calloc((size_t)n, sizeof *e.nacts);
    e.capacts = calloc((size_t)n, sizeof *e.capacts);
    e.wakeq = calloc((size_t)n, sizeof *e.wakeq);
    cJSON *root = cJSON_CreateObject();
    char *desc = NULL;
    if (!e.acts || !e.nacts || !e.capacts || !e.wakeq || !root) goto oom;

    for (int i = 0; i < n; i++) {
        const struct imp_thread *th = &t->threads[i];
        if (th->spawner >= 0) {
            sim_time at = th->spawn_at - o->start_lead;
            add_act(&e, th->spawner, at > th->spawn_from ? at : th->spawn_from, th->spawn_at, i, -1);
        }
        for (int k = 0; k < th->nsegs; k++) {
            const struct imp_seg *s = &th->segs[k];
            if (s->st != IMP_WAITING || s->cls != IMP_CLS_SYNC) continue;
            sim_time at = s->t1 - o->start_lead;   /* one wake-up before the READY that ends it */
            if (s->wake_next < 0 || at < s->wake_next)
                at = at > s->wake_at ? s->wake_at : at < s->wake_from ? s->wake_from : at;
            add_act(&e, s->waker, at, s->wake_at, i, k);
        }
    }
    if (e.oom) goto oom;
    for (int i = 0; i < n; i++)
        if (e.nacts[i]) qsort(e.acts[i], (size_t)e.nacts[i], sizeof *e.acts[i], cmp_act);

    if (!(desc = describe(t, o))) goto oom;
    if (!cJSON_AddStringToObject(root, "name", o->name) || !cJSON_AddStringToObject(root, "description", desc))
        goto oom;
    if (o->machine) {
        /* the profile's costs, but the trace's durations as measured: they
         * come from the traced machine itself (work_scale 1) */
        cJSON *m = cJSON_AddObjectToObject(root, "machine");
        if (!m || !cJSON_AddStringToObject(m, "profile", o->machine) || !cJSON_AddNumberToObject(m, "work_scale", 1))
            goto oom;
    }
    cJSON *rt = cJSON_AddObjectToObject(root, "runtime");
    if (!rt) goto oom;
    if (o->ruby && sch_find(&sch_runtime, "ruby") && !cJSON_AddStringToObject(rt, "ruby", o->ruby)) goto oom;
    if (t->quantum > 0) {
        char b[48];
        dur_str(b, sizeof b, t->quantum);
        if (!cJSON_AddStringToObject(rt, "quantum", b)) goto oom;
    }
    if (o->hook.hook > 0) {
        char b[48];
        dur_str(b, sizeof b, o->hook.hook);
        if (!cJSON_AddStringToObject(rt, "event_hook", b)) goto oom;
        if (o->hook.every > 0) {
            dur_str(b, sizeof b, o->hook.flush);
            if (!cJSON_AddStringToObject(rt, "event_hook_flush", b) ||
                !cJSON_AddNumberToObject(rt, "event_hook_flush_every", o->hook.every))
                goto oom;
        }
    }
    cJSON *qs = cJSON_AddArrayToObject(root, "queues");
    if (!qs) goto oom;
    for (int i = 0; i < n; i++) {
        if (!e.wakeq[i]) continue;
        char q[32];
        wake_queue(q, sizeof q, i);
        cJSON *qo = cJSON_CreateObject();
        if (!qo || !cJSON_AddStringToObject(qo, "name", q) || !cJSON_AddItemToArray(qs, qo)) {
            cJSON_Delete(qo);
            goto oom;
        }
    }
    cJSON *rs = cJSON_AddArrayToObject(root, "ractors");
    if (!rs) goto oom;
    for (int r = 0; r < t->nractors; r++) {
        cJSON *ro = cJSON_CreateObject(), *ths = cJSON_CreateArray();
        char rn[32];
        snprintf(rn, sizeof rn, r == 0 ? "main" : "r%d", r);
        if (!ro || !ths || !cJSON_AddStringToObject(ro, "name", rn) || !cJSON_AddItemToObject(ro, "threads", ths) ||
            !cJSON_AddItemToArray(rs, ro)) {
            cJSON_Delete(ro);
            cJSON_Delete(ths);
            goto oom;
        }
        /* the main thread first in the main Ractor (ractors[0].threads[0]) */
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < n; i++) {
                if (t->threads[i].ractor != r || t->threads[i].is_main != (pass == 0)) continue;
                cJSON *tho = emit_thread(&e, i);
                if (!tho || !cJSON_AddItemToArray(ths, tho)) {
                    cJSON_Delete(tho);
                    goto oom;
                }
            }
    }
    if (e.oom) goto oom;
    goto done;
oom:
    cJSON_Delete(root);
    root = NULL;
done:
    for (int i = 0; e.acts && i < n; i++) free(e.acts[i]);
    free(e.acts);
    free(e.nacts);
    free(e.capacts);
    free(e.wakeq);
    free(desc);
    return root;
}

/* ---- the text ------------------------------------------------------------- */

struct buf {
    char *s;
    size_t n, cap;
    bool oom;
};

static void put(struct buf *b, const char *s)
{
    size_t l = strlen(s);
    if (b->oom) return;
    if (b->n + l + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + l + 1) cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) { b->oom = true; return; }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, l + 1);
    b->n += l;
}

static void put_json(struct buf *b, const cJSON *v)
{
    char *s = cJSON_PrintUnformatted(v);
    if (!s) { b->oom = true; return; }
    put(b, s);
    cJSON_free(s);
}

static void put_key(struct buf *b, const char *indent, const cJSON *v)
{
    put(b, indent);
    cJSON *k = cJSON_CreateString(v->string);
    if (!k) { b->oom = true; return; }
    put_json(b, k);
    cJSON_Delete(k);
    put(b, ": ");
}

/* An array of objects, one element a line. */
static void put_lines(struct buf *b, const cJSON *arr, const char *indent)
{
    put(b, "[");
    const cJSON *x;
    bool first = true;
    cJSON_ArrayForEach(x, arr) {
        put(b, first ? "\n" : ",\n");
        put(b, indent);
        put_json(b, x);
        first = false;
    }
    put(b, "\n");
    put(b, indent + 2);
    put(b, "]");
}

/* A thread: its keys on one line, its program one op a line. */
static void put_thread(struct buf *b, const cJSON *th)
{
    put(b, "{ ");
    const cJSON *k;
    bool first = true;
    cJSON_ArrayForEach(k, th) {
        if (!first) put(b, ", ");
        first = false;
        put_key(b, "", k);
        if (!strcmp(k->string, "program")) put_lines(b, k, "          ");
        else put_json(b, k);
    }
    put(b, " }");
}

/* A Ractor: its keys (each followed by ", ") on one line, then its
 * threads one a line. */
static void put_ractor(struct buf *b, const cJSON *r)
{
    put(b, "{ ");
    const cJSON *k;
    cJSON_ArrayForEach(k, r) {
        put_key(b, "", k);
        if (strcmp(k->string, "threads")) {
            put_json(b, k);
            put(b, ", ");
            continue;
        }
        put(b, "[");
        const cJSON *th;
        bool first = true;
        cJSON_ArrayForEach(th, k) {
            put(b, first ? "\n      " : ",\n      ");
            first = false;
            put_thread(b, th);
        }
        put(b, "\n    ]");
    }
    put(b, " }");
}

char *imp_print(const cJSON *root)
{
    struct buf b = { 0 };
    put(&b, "{");
    const cJSON *k;
    bool first = true;
    cJSON_ArrayForEach(k, root) {
        put(&b, first ? "\n" : ",\n");
        first = false;
        put_key(&b, "  ", k);
        if (!strcmp(k->string, "queues")) {
            put_lines(&b, k, "    ");
        } else if (!strcmp(k->string, "ractors")) {
            put(&b, "[");
            const cJSON *r;
            bool rfirst = true;
            cJSON_ArrayForEach(r, k) {
                put(&b, rfirst ? "\n    " : ",\n    ");
                rfirst = false;
                put_ractor(&b, r);
            }
            put(&b, "\n  ]");
        } else {
            put_json(&b, k);
        }
    }
    put(&b, "\n}\n");
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
