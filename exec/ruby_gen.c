/* ruby_gen.c - a scenario as a Ruby program (see ruby_gen.h).
 *
 * Layout of a program: the prelude (ruby_prelude.c: calibration, the busy
 * and instruction loops, /proc switch counts, stop.time, join, the report),
 * the scenario's constants, one method per env_escape iseq, one method per
 * thread template (gv_tR_T: its program, straight-line Ruby with `while`
 * loops), one method per non-main Ractor template (gv_rR: its threads, its
 * queues, its start gate and its report to the main Ractor), then the main
 * Ractor's part.
 *
 * Every thread template method has the same locals, which op emitters may
 * use: ops (measured loop iterations), sys (syscall ops), ins (instructions
 * of insns computes), to (waits that timed out), lat (one array of
 * latency samples, in ns, per named measure), c (the compute carry), rng
 * (Random of the thread), st (the Ractor's [stopped, deadline, start]), res
 * (its queues, then its mutexes, then its condition variables), q<i>
 * (queue i), m<i> (mutex i), cv<i> (condition variable i), dn (a /dev/null
 * File), fd (the File of the last open_devnull), nv (a pipe that is never
 * written: the I/O waits), keep (the objects alloc keeps live), x (the item
 * a pop took), n<d>/i<d> (loop d's bounds) and ms<d>/mp<d> (when block d's
 * sample started, and whether a pop set it).  A queue item is its arrival
 * time (ns, CLOCK_MONOTONIC; 0 for the items present at start), so a
 * measure with latency_from pop counts from it.
 *
 * An op kind is one entry of op_kinds[]: check (refuse what Ruby cannot
 * express, naming the op), needs (the locals it uses), emit (its lines).
 */
#include "ruby_gen.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/sbuf.h"


/* The calibration's largest accepted spread, the pthread executor's default;
 * here it bounds the uncertainty of the busy loop's mean (gv_calibrate). */
#define RGEN_MAX_SPREAD 0.10

enum {
    NEED_RNG = 1u,      /* rng: a distribution is drawn */
    NEED_DEVNULL = 2u,  /* dn: write_devnull without an open_devnull */
    NEED_FD = 4u,       /* fd: open_devnull / close */
    NEED_PIPE = 8u,     /* nv: I/O waits */
    NEED_KEEP = 16u,    /* keep: alloc's survivors */
    NEED_RAISE = 32u    /* a cv_wait whose timeout raises: the method rescues GvRaise */
};

/* Measured blocks open while a program is emitted: loop depth, and
 * whether a pop inside sets its start (latency_from pop). */
#define RGEN_MAX_BLOCKS (SCN_MAX_LOOP_DEPTH + 1)

struct rgen {
    const struct scenario *scn;
    struct sbuf out;  /* the program */
    int line;         /* lines completed */
    int indent;
    bool oom;
    bool stop;        /* stop.time: loops and waits check the stop flag */
    bool stamp;       /* a measure has latency_from pop: items are their arrival times */
    int depth;        /* block nesting while emitting a program */
    int ninst;        /* instances of the thread template being emitted */
    struct rgen_line *lines;
    int nlines, caplines;
    /* the measured blocks open: depth, latency_from pop */
    int mdepth[RGEN_MAX_BLOCKS];
    bool mpop[RGEN_MAX_BLOCKS];
    int nmeasured;
    /* the empirical distributions, each a constant GV_EMP<i> */
    const struct scn_dist **emp;
    int nemp, capemp;
};

/* Where an op is, for the checks. */
struct rgen_place {
    const struct scenario *scn;
    int ractor, thread;   /* templates */
    int *queue_owner;     /* per queue: the Ractor template that uses it, -1 if none yet */
    int *sync_owner;      /* per mutex, then per condition variable: the same */
};

/* ---- output --------------------------------------------------------------- */

static void put(struct rgen *g, const char *s, size_t n)
{
    if (!g->oom) sbuf_putn(&g->out, s, n);
    for (size_t i = 0; i < n; i++) g->line += s[i] == '\n';
}

static void lit(struct rgen *g, const char *s)
{
    put(g, s, strlen(s));
}

static void vout(struct rgen *g, const char *fmt, va_list ap)
{
    char small[512];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        va_end(ap2);
        return;
    }
    if ((size_t)n < sizeof small) {
        put(g, small, (size_t)n);
    } else {
        char *big = malloc((size_t)n + 1);
        if (!big) {
            g->oom = true;
        } else {
            vsnprintf(big, (size_t)n + 1, fmt, ap2);
            put(g, big, (size_t)n);
            free(big);
        }
    }
    va_end(ap2);
}

__attribute__((format(printf, 2, 3))) static void out(struct rgen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vout(g, fmt, ap);
    va_end(ap);
}

static void pad(struct rgen *g)
{
    for (int i = 0; i < g->indent; i++) lit(g, "  ");
}

/* A whole line at the current indentation. */
__attribute__((format(printf, 2, 3))) static void line(struct rgen *g, const char *fmt, ...)
{
    pad(g);
    va_list ap;
    va_start(ap, fmt);
    vout(g, fmt, ap);
    va_end(ap);
    lit(g, "\n");
}

/* The line that runs `op`: code, then "# /pointer (line N)"; remembered
 * for error reports. */
__attribute__((format(printf, 3, 4))) static void op_line(struct rgen *g, const struct scn_op *op,
                                                          const char *fmt, ...)
{
    if (g->nlines == g->caplines) {
        int cap = g->caplines ? 2 * g->caplines : 64;
        struct rgen_line *l = realloc(g->lines, (size_t)cap * sizeof *l);
        if (!l) {
            g->oom = true;
            return;
        }
        g->lines = l;
        g->caplines = cap;
    }
    g->lines[g->nlines++] = (struct rgen_line){ g->line + 1, op };
    pad(g);
    va_list ap;
    va_start(ap, fmt);
    vout(g, fmt, ap);
    va_end(ap);
    out(g, " # %s (line %d)\n", op->path, op->line);
}

/* s inside a Ruby double-quoted string literal: no interpolation, and
 * bytes outside printable ASCII as \x escapes (the same bytes, whatever
 * the source encoding). */
static void rstr_part(struct rgen *g, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\' || ch == '#') {
            char e[2] = { '\\', (char)ch };
            put(g, e, 2);
        } else if (ch < 0x20 || ch >= 0x7f) {
            out(g, "\\x%02x", ch);
        } else {
            put(g, (const char *)s, 1);
        }
    }
}

/* A Ruby double-quoted string literal of s. */
static void rstr(struct rgen *g, const char *s)
{
    lit(g, "\"");
    rstr_part(g, s);
    lit(g, "\"");
}

/* ---- durations -------------------------------------------------------------- */

static double ns_of(sim_time t)
{
    return (double)t / (double)SIM_NS;
}

/* The index of an empirical distribution's constant, GV_EMP<i>. */
static int emp_index(const struct rgen *g, const struct scn_dist *d)
{
    for (int i = 0; i < g->nemp; i++)
        if (g->emp[i] == d) return i;
    return 0;  /* not reached: rgen_generate collects every one */
}

/* A Ruby expression for a duration drawn from d (each execution, from the
 * thread's rng), in nanoseconds or in seconds; in buf. */
static const char *dist_expr(const struct rgen *g, char *buf, size_t len, const struct scn_dist *d, bool seconds)
{
    char ns[128];
    switch (d->kind) {
    case DIST_CONST:
        if (seconds) snprintf(buf, len, "%.12g", (double)d->a / (double)SIM_S);
        else snprintf(buf, len, "%.3f", ns_of(d->a));
        return buf;
    case DIST_UNIFORM: snprintf(ns, sizeof ns, "%.3f + %.3f * rng.rand", ns_of(d->a), ns_of(d->b - d->a)); break;
    case DIST_EXP: snprintf(ns, sizeof ns, "-%.3f * Math.log(1.0 - rng.rand)", ns_of(d->a)); break;
    case DIST_LOGNORMAL:
        snprintf(ns, sizeof ns, "%.3f * Math.exp(%.17g * gv_normal(rng))", ns_of(d->a), d->sigma);
        break;
    case DIST_EMPIRICAL: snprintf(ns, sizeof ns, "gv_pick(rng, *GV_EMP%d)", emp_index(g, d)); break;
    case DIST_KIND_COUNT: snprintf(ns, sizeof ns, "0"); break;
    }
    if (seconds) snprintf(buf, len, "(%s) / 1e9", ns);
    else snprintf(buf, len, "%s", ns);
    return buf;
}

static unsigned dist_needs(const struct scn_dist *d)
{
    return d->kind == DIST_CONST ? 0 : NEED_RNG;
}

/* ---- op kinds --------------------------------------------------------------- */

static int emit_prog(struct rgen *g, const struct scn_prog *prog);

static int refuse(char *err, size_t errlen, const struct scn_op *op, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int refuse(char *err, size_t errlen, const struct scn_op *op, const char *fmt, ...)
{
    int n = snprintf(err, errlen, "%s (line %d): ", op->path, op->line);
    if (n < 0 || (size_t)n >= errlen) return GV_EUNSUP;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return GV_EUNSUP;
}

static int check_ok(const struct rgen_place *p, const struct scn_op *op, char *err, size_t errlen)
{
    (void)p;
    (void)op;
    (void)err;
    (void)errlen;
    return GV_OK;
}

static unsigned needs_none(const struct scn_op *op)
{
    (void)op;
    return 0;
}

/* compute: the calibrated busy loop for a duration; the counted loop for insns */
static unsigned needs_compute(const struct scn_op *op)
{
    return op->u.compute.has_insns ? 0 : dist_needs(&op->u.compute.dur);
}

static int emit_compute(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    if (op->u.compute.has_insns) {
        op_line(g, op, "ins += gv_insns(%" PRIu64 ")", op->u.compute.insns);
        return 1;
    }
    char e[160];
    op_line(g, op, "c = gv_spin(%s, c)", dist_expr(g, e, sizeof e, &op->u.compute.dur, false));
    return 1;
}

/* syscall: the Ruby method that makes the call.  Only combinations with a
 * Ruby counterpart: a GVL-releasing stat/open/write/close/I/O wait, and a
 * getppid that keeps the GVL. */
static int check_syscall(const struct rgen_place *p, const struct scn_op *op, char *err, size_t errlen)
{
    (void)p;
    enum scn_syscall_call call = op->u.syscall.call;
    bool rel = op->u.syscall.releases_gvl;
    if (call == CALL_GETPID && rel)
        return refuse(err, errlen, op,
                      "syscall \"getpid\" with releases_gvl: no Ruby method releases the GVL around "
                      "getppid(2); use releases_gvl false (Process.ppid) or call \"stat\" (File.mtime)");
    if (call != CALL_GETPID && !rel)
        return refuse(err, errlen, op,
                      "syscall \"%s\" with releases_gvl false: Ruby always releases the GVL around it "
                      "(File.mtime, File.open, IO#syswrite, IO#close, IO.select are blocking regions)",
                      scn_call_name(call));
    return GV_OK;
}

static unsigned needs_syscall(const struct scn_op *op)
{
    unsigned n = 0;
    if (op->u.syscall.io_wait || op->u.syscall.call == CALL_NANOSLEEP) n |= NEED_PIPE | dist_needs(&op->u.syscall.dur);
    if (op->u.syscall.call == CALL_WRITE_DEVNULL) n |= NEED_DEVNULL | NEED_FD;
    if (op->u.syscall.call == CALL_OPEN_DEVNULL || op->u.syscall.call == CALL_CLOSE) n |= NEED_FD;
    return n;
}

static bool is_call(const struct scn_prog *prog, int i, enum scn_syscall_call call)
{
    if (i >= prog->nops) return false;
    const struct scn_op *op = &prog->ops[i];
    return op->kind == OP_SYSCALL && op->u.syscall.call == call && op->u.syscall.releases_gvl &&
           !op->u.syscall.io_wait;
}

/* An I/O wait of the op's duration: IO.select on a pipe nobody writes, a
 * blocking region the thread spends asleep in the kernel. */
static void io_wait(struct rgen *g, const struct scn_op *op)
{
    char d[160];
    dist_expr(g, d, sizeof d, &op->u.syscall.dur, true);
    if (g->stop) op_line(g, op, "gv_iowait(nv, %s, st); sys += 1", d);
    else op_line(g, op, "IO.select([nv], nil, nil, %s); sys += 1", d);
}

static int emit_syscall(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    /* open + write + close of /dev/null is File.write: its three blocking
     * regions (rb_sysopen, the flush's write, maygvl_close), one Ruby call */
    if (is_call(prog, i, CALL_OPEN_DEVNULL) && is_call(prog, i + 1, CALL_WRITE_DEVNULL) &&
        is_call(prog, i + 2, CALL_CLOSE)) {
        op_line(g, op, "File.write(GV_NULL, \"0\"); sys += 3");
        op_line(g, &prog->ops[i + 1], "# (File.write: write)");
        op_line(g, &prog->ops[i + 2], "# (File.write: close)");
        return 3;
    }
    switch (op->u.syscall.call) {
    case CALL_STAT: op_line(g, op, "File.mtime(GV_STAT); sys += 1"); break;
    case CALL_WRITE_DEVNULL: op_line(g, op, "(fd || dn).syswrite(\"0\"); sys += 1"); break;
    case CALL_OPEN_DEVNULL: op_line(g, op, "fd&.close; fd = File.open(GV_NULL, \"w\"); sys += 1"); break;
    case CALL_CLOSE: op_line(g, op, "fd&.close; fd = nil; sys += 1"); break;
    case CALL_GETPID: op_line(g, op, "Process.ppid; sys += 1"); break;
    case CALL_NANOSLEEP: io_wait(g, op); return 1;
    case CALL_COUNT: break;
    }
    /* a call that then waits off the CPU (io_wait): the call, then the wait */
    if (op->u.syscall.io_wait) io_wait(g, op);
    return 1;
}

/* queues: a Thread::Queue cannot be shared between Ractors, so all users of
 * a queue must be threads of one Ractor instance */
static int check_queue(const struct rgen_place *p, const struct scn_op *op, char *err, size_t errlen)
{
    int q = op->u.queue.queue;
    const struct scn_ractor *r = &p->scn->ractors[p->ractor];
    const char *qname = p->scn->queues[q].name;
    if (p->ractor > 0 && r->count > 1)
        return refuse(err, errlen, op,
                      "queue \"%s\" is used by ractors[%d], which has %d copies: a Thread::Queue "
                      "cannot be shared between Ractors", qname, p->ractor, r->count);
    if (p->queue_owner[q] >= 0 && p->queue_owner[q] != p->ractor)
        return refuse(err, errlen, op,
                      "queue \"%s\" is used by threads of ractors[%d] and ractors[%d]: a Thread::Queue "
                      "cannot be shared between Ractors", qname, p->queue_owner[q], p->ractor);
    p->queue_owner[q] = p->ractor;
    return GV_OK;
}

static int emit_queue_push(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    /* the item: its arrival time when a measure counts from it, else 1 */
    op_line(g, op, "q%d.push(%s)", op->u.queue.queue, g->stamp ? "gv_now" : "1");
    return 1;
}

/* The innermost measured block with latency_from pop starts when the
 * popped item arrived (the first pop of its iteration). */
static void popped(struct rgen *g)
{
    for (int k = g->nmeasured - 1; k >= 0; k--) {
        if (!g->mpop[k]) continue;
        int d = g->mdepth[k];
        line(g, "if x && !mp%d", d);
        line(g, "  mp%d = true", d);
        line(g, "  ms%d = x > 0 ? x : st[2] # an item present at the start arrived then", d);
        line(g, "end");
        return;
    }
}

static bool in_pop_measure(const struct rgen *g)
{
    for (int k = 0; k < g->nmeasured; k++)
        if (g->mpop[k]) return true;
    return false;
}

static int emit_queue_pop(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    int q = op->u.queue.queue;
    const char *x = in_pop_measure(g) ? "x = " : "";
    if (op->u.queue.has_timeout) {
        /* Queue#pop(timeout:) (3.2+): nil once the timeout passed */
        op_line(g, op, "x = q%d.pop(timeout: %.12g)", q, (double)op->u.queue.timeout / (double)SIM_S);
        if (g->stop) line(g, "raise GvStop if !x && st[0]");
        line(g, "to += 1 unless x");
    } else if (g->stop) {
        /* at stop.time the queue is closed: a parked pop returns nil */
        op_line(g, op, "%sq%d.pop || raise(GvStop)", x, q);
    } else {
        op_line(g, op, "%sq%d.pop", x, q);
    }
    popped(g);
    return 1;
}

static unsigned needs_sleep(const struct scn_op *op)
{
    return dist_needs(&op->u.sleep.dur);
}

static int emit_sleep(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    char d[160];
    dist_expr(g, d, sizeof d, &op->u.sleep.dur, true);
    if (g->stop) op_line(g, op, "gv_sleep(%s, st)", d);
    else op_line(g, op, "sleep(%s)", d);
    return 1;
}

/* A measured block opens (depth d; -d when its start was set already, by
 * a measure op's own line) and closes with a sample of measure mid. */
static void measured_open(struct rgen *g, int d, bool from_pop)
{
    int depth = d < 0 ? -d : d;
    if (d > 0) line(g, "ms%d = gv_now", depth);
    if (from_pop) line(g, "mp%d = false", depth);
    if (g->nmeasured < RGEN_MAX_BLOCKS) {
        g->mdepth[g->nmeasured] = depth;
        g->mpop[g->nmeasured] = from_pop;
        g->nmeasured++;
    }
}

static void measured_close(struct rgen *g, int d, int mid)
{
    line(g, "gv_sample(lat[%d], ms%d, st)", mid - 1, d);
    if (g->nmeasured > 0) g->nmeasured--;
}

/* loop: a `while` with its bound in n<d>; forever is `while true` (ended
 * by the stop flag, which every loop checks when the run has stop.time) */
static int emit_loop(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    int d = ++g->depth;
    uint64_t n = op->u.loop.times;
    switch (op->u.loop.mode) {
    case LOOP_TIMES: op_line(g, op, "n%d = %" PRIu64 "; i%d = 0", d, n, d); break;
    case LOOP_TIMES_TOTAL: {
        /* the instance's share: N / k, plus one for the first N % k (scn_loop_times) */
        uint64_t k = (uint64_t)(g->ninst > 0 ? g->ninst : 1);
        if (n % k) op_line(g, op, "n%d = %" PRIu64 " + (inst < %" PRIu64 " ? 1 : 0); i%d = 0", d, n / k, n % k, d);
        else op_line(g, op, "n%d = %" PRIu64 "; i%d = 0", d, n / k, d);
        break;
    }
    case LOOP_FOREVER: op_line(g, op, "while true"); break;
    }
    if (op->u.loop.mode != LOOP_FOREVER) line(g, "while i%d < n%d", d, d);
    g->indent++;
    if (g->stop) line(g, "raise GvStop if st[0]");
    if (op->u.loop.mid) measured_open(g, d, op->u.loop.from_pop);
    emit_prog(g, op->u.loop.body);
    if (op->u.loop.mid) measured_close(g, d, op->u.loop.mid);
    if (op->u.loop.measure && g->scn->warmup > 0) line(g, "ops += 1 if gv_now - st[2] >= GV_WARMUP_NS");
    else if (op->u.loop.measure) line(g, "ops += 1");
    if (op->u.loop.mode != LOOP_FOREVER) line(g, "i%d += 1", d);
    g->indent--;
    line(g, "end");
    g->depth--;
    return 1;
}

/* measure: the block's duration is one sample of its measure */
static int emit_measure(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    int d = ++g->depth;
    op_line(g, op, "ms%d = gv_now", d);
    measured_open(g, -d, op->u.measure.from_pop);
    emit_prog(g, op->u.measure.body);
    measured_close(g, d, op->u.measure.mid);
    g->depth--;
    return 1;
}

/* branch: one draw, then one body or the other */
static unsigned needs_branch(const struct scn_op *op)
{
    (void)op;
    return NEED_RNG;
}

static int emit_branch(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    op_line(g, op, "if rng.rand < %.17g", op->u.branch.p);
    g->indent++;
    emit_prog(g, op->u.branch.then_body);
    g->indent--;
    if (op->u.branch.else_body && op->u.branch.else_body->nops > 0) {
        line(g, "else");
        g->indent++;
        emit_prog(g, op->u.branch.else_body);
        g->indent--;
    }
    line(g, "end");
    return 1;
}

/* Thread::Mutex, Thread::ConditionVariable: not shareable, so their users
 * are threads of one Ractor template with one copy (the loader checks
 * it); the Ractor creates them */
static int check_sync(const struct rgen_place *p, const struct scn_op *op, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    int nm = p->scn->nmutexes;
    if (op->kind == OP_MUTEX_LOCK || op->kind == OP_MUTEX_UNLOCK || op->kind == OP_SYNCHRONIZE)
        p->sync_owner[op->u.mutex.mutex] = p->ractor;
    if (op->kind == OP_CV_WAIT) p->sync_owner[op->u.cv.mutex] = p->ractor;
    if (op->kind == OP_CV_WAIT || op->kind == OP_CV_SIGNAL || op->kind == OP_CV_BROADCAST)
        p->sync_owner[nm + op->u.cv.cv] = p->ractor;
    if (op->kind == OP_CV_WAIT && op->u.cv.while_empty) {
        struct scn_op q = *op;  /* its queue: owned like a pop's */
        q.u.queue.queue = op->u.cv.while_empty - 1;
        return check_queue(p, &q, err, errlen);
    }
    return GV_OK;
}

static int emit_mutex(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    int m = op->u.mutex.mutex;
    switch (op->kind) {
    case OP_MUTEX_LOCK: op_line(g, op, "m%d.lock", m); break;
    case OP_MUTEX_UNLOCK: op_line(g, op, "m%d.unlock", m); break;
    default:
        op_line(g, op, "m%d.synchronize do", m);
        g->indent++;
        emit_prog(g, op->u.mutex.body);
        g->indent--;
        line(g, "end");
        break;
    }
    return 1;
}

/* cv_wait: ConditionVariable#wait; with while_empty the loop of a pool's
 * acquire (`cv.wait(m, t) while q.empty?`), its timeout a deadline; when
 * the wait times out, `raise` ends the thread (GvRaise) */
static unsigned needs_cv_wait(const struct scn_op *op)
{
    return op->u.cv.has_timeout && op->u.cv.raise ? NEED_RAISE : 0;
}

static int emit_cv_wait(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    int cv = op->u.cv.cv, m = op->u.cv.mutex;
    const char *give_up = op->u.cv.raise ? "raise GvRaise" : "break";
    int64_t tns = (op->u.cv.timeout + SIM_NS / 2) / SIM_NS;
    if (!op->u.cv.while_empty) {
        if (!op->u.cv.has_timeout) {
            if (g->stop) op_line(g, op, "cv%d.wait(m%d, gv_left(st)); raise GvStop if st[0] || gv_now >= st[1]", cv, m);
            else op_line(g, op, "cv%d.wait(m%d)", cv, m);
            return 1;
        }
        /* Mutex#sleep says nothing reliable about its timeout: the time does */
        op_line(g, op, "w0 = gv_now; cv%d.wait(m%d, %.12g)", cv, m, (double)tns / 1e9);
        line(g, "if gv_now - w0 >= %" PRId64, tns);
        line(g, "  to += 1");
        if (op->u.cv.raise) line(g, "  raise GvRaise");
        line(g, "end");
        return 1;
    }
    int q = op->u.cv.while_empty - 1;
    if (op->u.cv.has_timeout) op_line(g, op, "dl = gv_now + %" PRId64, tns);
    else op_line(g, op, "# cv_wait while queue %d is empty", q);
    line(g, "while q%d.empty?", q);
    g->indent++;
    if (g->stop) line(g, "raise GvStop if st[0] || gv_now >= st[1]");
    if (op->u.cv.has_timeout) {
        line(g, "w = dl - gv_now");
        line(g, "if w <= 0");
        line(g, "  to += 1");
        line(g, "  %s", give_up);
        line(g, "end");
        if (g->stop) line(g, "w = st[1] - gv_now if st[1] - gv_now < w");
        line(g, "cv%d.wait(m%d, w / 1e9)", cv, m);
    } else if (g->stop) {
        line(g, "cv%d.wait(m%d, gv_left(st))", cv, m);
    } else {
        line(g, "cv%d.wait(m%d)", cv, m);
    }
    g->indent--;
    line(g, "end");
    return 1;
}

static int emit_cv_signal(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    op_line(g, op, "cv%d.%s", op->u.cv.cv, op->kind == OP_CV_SIGNAL ? "signal" : "broadcast");
    return 1;
}

/* spawn: Thread.new of the template's next instance (the main Ractor's
 * threads; its list of threads is a global there) */
static int check_spawn(const struct rgen_place *p, const struct scn_op *op, char *err, size_t errlen)
{
    if (p->ractor != 0)
        return refuse(err, errlen, op, "spawn is generated only in the main Ractor (its threads are joined there)");
    return GV_OK;
}

static int emit_spawn(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    int t = op->u.spawn.tmpl;  /* a template of the main Ractor: its index there */
    op_line(g, op, "gv_spawn_0_%d(st, res)", t);
    return 1;
}

/* alloc: the objects, the surviving share kept live */
static unsigned needs_alloc(const struct scn_op *op)
{
    (void)op;
    return NEED_KEEP;
}

static int emit_alloc(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    uint64_t n = op->u.alloc.objects;
    uint64_t k = (uint64_t)llround((double)n * op->u.alloc.survive);
    if (k > n) k = n;
    if (k) op_line(g, op, "%" PRIu64 ".times { keep << Object.new }; %" PRIu64 ".times { Object.new }", k, n - k);
    else op_line(g, op, "%" PRIu64 ".times { Object.new }", n);
    return 1;
}

/* gc: Ruby cannot run a collection of a given length (GC.start's is its
 * heap's), so the program holds the GVL for it, as the collection does; a
 * multi-Ractor GC's barrier is not reproduced. */
static unsigned needs_gc(const struct scn_op *op)
{
    return dist_needs(&op->u.gc.dur);
}

static int emit_gc(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    char e[160];
    op_line(g, op, "c = gv_spin(%s, c)", dist_expr(g, e, sizeof e, &op->u.gc.dur, false));
    return 1;
}

/* env_escape: a lambda capturing a local of a method (one method per iseq),
 * so every call materialises that method's environment (vm_make_env_each) */
static int emit_env_escape(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    op_line(g, op, "gv_escape_%d", op->u.env_escape.iseq);
    return 1;
}

/* join: the main thread waits for every other thread and Ractor */
static int check_join(const struct rgen_place *p, const struct scn_op *op, char *err, size_t errlen)
{
    if (op->u.join.tmpl && p->scn->tmpls && p->scn->tmpls[op->u.join.tmpl - 1].ractor != 0)
        return refuse(err, errlen, op, "join of a template of another Ractor: its threads are not the main Ractor's");
    if (op->u.join.tmpl && p->ractor == 0) return GV_OK;
    if (p->ractor != 0 || p->thread != 0 || p->scn->ractors[0].threads[0].count != 1)
        return refuse(err, errlen, op,
                      "join is generated only in the main thread (ractors[0].threads[0] with count 1): "
                      "another thread cannot wait for the threads of other Ractors");
    return GV_OK;
}

static int emit_join(struct rgen *g, const struct scn_prog *prog, int i)
{
    const struct scn_op *op = &prog->ops[i];
    /* of one template: each of its started threads, in turn */
    if (op->u.join.tmpl) op_line(g, op, "$gv_tmpl[%d].each(&:join)", op->u.join.tmpl - 1);
    else op_line(g, op, "gv_join");
    return 1;
}

struct op_kind {
    int (*check)(const struct rgen_place *p, const struct scn_op *op, char *err, size_t errlen);
    unsigned (*needs)(const struct scn_op *op);
    /* emits prog->ops[i] (and any ops after it that it folds in); returns
     * how many ops it consumed */
    int (*emit)(struct rgen *g, const struct scn_prog *prog, int i);
};

static const struct op_kind op_kinds[OP_KIND_COUNT] = {
    [OP_COMPUTE] = { check_ok, needs_compute, emit_compute },
    [OP_SYSCALL] = { check_syscall, needs_syscall, emit_syscall },
    [OP_QUEUE_PUSH] = { check_queue, needs_none, emit_queue_push },
    [OP_QUEUE_POP] = { check_queue, needs_none, emit_queue_pop },
    [OP_SLEEP] = { check_ok, needs_sleep, emit_sleep },
    [OP_LOOP] = { check_ok, needs_none, emit_loop },
    [OP_ENV_ESCAPE] = { check_ok, needs_none, emit_env_escape },
    [OP_JOIN] = { check_join, needs_none, emit_join },
    [OP_MEASURE] = { check_ok, needs_none, emit_measure },
    [OP_BRANCH] = { check_ok, needs_branch, emit_branch },
    [OP_MUTEX_LOCK] = { check_sync, needs_none, emit_mutex },
    [OP_MUTEX_UNLOCK] = { check_sync, needs_none, emit_mutex },
    [OP_SYNCHRONIZE] = { check_sync, needs_none, emit_mutex },
    [OP_CV_WAIT] = { check_sync, needs_cv_wait, emit_cv_wait },
    [OP_CV_SIGNAL] = { check_sync, needs_none, emit_cv_signal },
    [OP_CV_BROADCAST] = { check_sync, needs_none, emit_cv_signal },
    [OP_SPAWN] = { check_spawn, needs_none, emit_spawn },
    [OP_ALLOC] = { check_ok, needs_alloc, emit_alloc },
    [OP_GC] = { check_ok, needs_gc, emit_gc },
};

static int emit_prog(struct rgen *g, const struct scn_prog *prog)
{
    for (int i = 0; i < prog->nops;) {
        const struct scn_op *op = &prog->ops[i];
        if ((int)op->kind < 0 || op->kind >= OP_KIND_COUNT || !op_kinds[op->kind].emit) return GV_EUNSUP;
        i += op_kinds[op->kind].emit(g, prog, i);
    }
    return GV_OK;
}

/* The bodies of a block op (loop, measure, branch, synchronize). */
static int op_bodies(const struct scn_op *op, const struct scn_prog *b[2])
{
    b[0] = b[1] = NULL;
    switch (op->kind) {
    case OP_LOOP: b[0] = op->u.loop.body; break;
    case OP_MEASURE: b[0] = op->u.measure.body; break;
    case OP_SYNCHRONIZE: b[0] = op->u.mutex.body; break;
    case OP_BRANCH:
        b[0] = op->u.branch.then_body;
        b[1] = op->u.branch.else_body;
        break;
    default: break;
    }
    return (b[0] != NULL) + (b[1] != NULL);
}

/* ---- walking programs ------------------------------------------------------- */

static int check_prog(struct rgen_place *p, const struct scn_prog *prog, char *err, size_t errlen)
{
    for (int i = 0; i < prog->nops; i++) {
        const struct scn_op *op = &prog->ops[i];
        if ((int)op->kind < 0 || op->kind >= OP_KIND_COUNT || !op_kinds[op->kind].check)
            return refuse(err, errlen, op, "op kind %d has no Ruby counterpart yet", (int)op->kind);
        int rc = op_kinds[op->kind].check(p, op, err, errlen);
        if (rc != GV_OK) return rc;
        const struct scn_prog *b[2];
        op_bodies(op, b);
        for (int k = 0; k < 2; k++) {
            if (!b[k]) continue;
            rc = check_prog(p, b[k], err, errlen);
            if (rc != GV_OK) return rc;
        }
    }
    return GV_OK;
}

static unsigned dist_needs_of(const struct scn_op *op);

static unsigned prog_needs(const struct scn_prog *prog)
{
    unsigned n = 0;
    for (int i = 0; i < prog->nops; i++) {
        const struct scn_op *op = &prog->ops[i];
        n |= op_kinds[op->kind].needs(op) | dist_needs_of(op);
        const struct scn_prog *b[2];
        op_bodies(op, b);
        for (int k = 0; k < 2; k++)
            if (b[k]) n |= prog_needs(b[k]);
    }
    return n;
}

/* Calls fn for every op of prog (blocks' bodies included). */
static void walk(const struct scn_prog *prog, void (*fn)(const struct scn_op *, void *), void *arg)
{
    for (int i = 0; i < prog->nops; i++) {
        fn(&prog->ops[i], arg);
        const struct scn_prog *b[2];
        op_bodies(&prog->ops[i], b);
        for (int k = 0; k < 2; k++)
            if (b[k]) walk(b[k], fn, arg);
    }
}

/* The distribution an op draws its duration from, or NULL. */
static const struct scn_dist *op_dist(const struct scn_op *op)
{
    switch (op->kind) {
    case OP_COMPUTE: return op->u.compute.has_insns ? NULL : &op->u.compute.dur;
    case OP_SYSCALL: return &op->u.syscall.dur;
    case OP_SLEEP: return &op->u.sleep.dur;
    case OP_GC: return &op->u.gc.dur;
    default: return NULL;
    }
}

/* a lognormal draw calls gv_normal(rng): the thread needs its rng */
static unsigned dist_needs_of(const struct scn_op *op)
{
    const struct scn_dist *d = op_dist(op);
    return d && d->kind != DIST_CONST ? NEED_RNG : 0;
}

struct locals {
    bool *used;   /* queues, then mutexes, then condition variables */
    int nq, nm;
};

static void mark_queue(const struct scn_op *op, void *arg)
{
    struct locals *l = arg;
    if (op->kind == OP_QUEUE_PUSH || op->kind == OP_QUEUE_POP) l->used[op->u.queue.queue] = true;
    if (op->kind == OP_MUTEX_LOCK || op->kind == OP_MUTEX_UNLOCK || op->kind == OP_SYNCHRONIZE)
        l->used[l->nq + op->u.mutex.mutex] = true;
    if (op->kind == OP_CV_WAIT) {
        l->used[l->nq + op->u.cv.mutex] = true;
        if (op->u.cv.while_empty) l->used[op->u.cv.while_empty - 1] = true;
    }
    if (op->kind == OP_CV_WAIT || op->kind == OP_CV_SIGNAL || op->kind == OP_CV_BROADCAST)
        l->used[l->nq + l->nm + op->u.cv.cv] = true;
}

static void mark_stamp(const struct scn_op *op, void *arg)
{
    struct rgen *g = arg;
    if ((op->kind == OP_LOOP && op->u.loop.from_pop) || (op->kind == OP_MEASURE && op->u.measure.from_pop))
        g->stamp = true;
}

static void mark_emp(const struct scn_op *op, void *arg)
{
    struct rgen *g = arg;
    const struct scn_dist *d = op_dist(op);
    if (!d || d->kind != DIST_EMPIRICAL) return;
    if (g->nemp == g->capemp) {
        int cap = g->capemp ? 2 * g->capemp : 8;
        const struct scn_dist **v = realloc(g->emp, (size_t)cap * sizeof *v);
        if (!v) {
            g->oom = true;
            return;
        }
        g->emp = v;
        g->capemp = cap;
    }
    g->emp[g->nemp++] = d;
}

struct iseqs {
    int *v;
    int n, cap;
    bool oom;
};

static void mark_iseq(const struct scn_op *op, void *arg)
{
    struct iseqs *s = arg;
    if (op->kind != OP_ENV_ESCAPE) return;
    for (int i = 0; i < s->n; i++)
        if (s->v[i] == op->u.env_escape.iseq) return;
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 8;
        int *v = realloc(s->v, (size_t)cap * sizeof *v);
        if (!v) {
            s->oom = true;
            return;
        }
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = op->u.env_escape.iseq;
}

/* The owners of the queues, then (at owner + nqueues) of the mutexes and
 * condition variables: the Ractor template that uses each, -1 if none. */
static int with_places(const struct scenario *scn, int *owner, char *err, size_t errlen)
{
    struct rgen_place p = { .scn = scn, .queue_owner = owner, .sync_owner = owner + scn->nqueues };
    for (int q = 0; q < scn->nqueues + scn->nmutexes + scn->ncondvars; q++) owner[q] = -1;
    for (int r = 0; r < scn->nractors; r++)
        for (int t = 0; t < scn->ractors[r].nthreads; t++) {
            p.ractor = r;
            p.thread = t;
            int rc = check_prog(&p, &scn->ractors[r].threads[t].prog, err, errlen);
            if (rc != GV_OK) return rc;
        }
    /* a generator is a thread of the main Ractor: its queue must be one */
    for (int i = 0; i < scn->ngenerators; i++) {
        int q = scn->generators[i].queue;
        if (owner[q] > 0)
            return gv_fail(err, errlen, GV_EUNSUP,
                           "/generators/%d: queue \"%s\" is used by threads of ractors[%d]: a generator is a thread "
                           "of the main Ractor, and a Thread::Queue cannot be shared between Ractors", i,
                           scn->queues[q].name, owner[q]);
        owner[q] = 0;
    }
    return GV_OK;
}

static int *owners_new(const struct scenario *scn)
{
    return calloc((size_t)(scn->nqueues + scn->nmutexes + scn->ncondvars) + 1, sizeof(int));
}

int rgen_check(const struct scenario *scn, char *err, size_t errlen)
{
    int *owner = owners_new(scn);
    if (!owner) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    int rc = with_places(scn, owner, err, errlen);
    free(owner);
    return rc;
}

/* ---- the program ------------------------------------------------------------ */

/* Index of the first thread instance of thread template t in the first copy
 * of Ractor template r, and the threads per copy of r (scenario order:
 * Ractor copies, then thread templates, then copies). */
static void thread_base(const struct scenario *scn, int r, int t, long long *base, long long *per)
{
    long long b = 0;
    for (int i = 0; i < r; i++) {
        long long n = 0;
        for (int j = 0; j < scn->ractors[i].nthreads; j++) n += scn->ractors[i].threads[j].count;
        b += n * scn->ractors[i].count;
    }
    long long n = 0;
    for (int j = 0; j < scn->ractors[r].nthreads; j++) {
        if (j == t) b += n;
        n += scn->ractors[r].threads[j].count;
    }
    *base = b;
    *per = n;
}

static int ractor_base(const struct scenario *scn, int r)
{
    int b = 0;
    for (int i = 0; i < r; i++) b += scn->ractors[i].count;
    return b;
}

static void name_expr(struct rgen *g, int r, int t, const char *rk, const char *tj);

static void thread_method(struct rgen *g, int r, int t)
{
    const struct scn_ractor *rt = &g->scn->ractors[r];
    const struct scn_thread *th = &rt->threads[t];
    out(g, "# ractors[%d].threads[%d] ", r, t);
    rstr(g, th->name);
    out(g, ": %d instance%s in each of %d cop%s of ractors[%d]\n", th->count, th->count == 1 ? "" : "s", rt->count,
        rt->count == 1 ? "y" : "ies", r);
    line(g, "def gv_t%d_%d(inst, seed, st, gate, res)", r, t);
    g->indent++;
    line(g, "ops = sys = ins = to = 0");
    if (g->scn->nmeasures) line(g, "lat = Array.new(%d) { [] }", g->scn->nmeasures);
    else line(g, "lat = []");
    line(g, "c = 0.0");
    unsigned need = prog_needs(&th->prog);
    if (need & NEED_RNG) line(g, "rng = Random.new(seed)");
    if (need & NEED_DEVNULL) line(g, "dn = File.open(GV_NULL, \"w\")");
    if (need & NEED_FD) line(g, "fd = nil");
    if (need & NEED_PIPE) line(g, "nv, _nvw = IO.pipe");
    if (need & NEED_KEEP) line(g, "keep = []");
    const struct scenario *scn = g->scn;
    struct locals l = { calloc((size_t)(scn->nqueues + scn->nmutexes + scn->ncondvars) + 1, sizeof(bool)),
                        scn->nqueues, scn->nmutexes };
    if (!l.used) {
        g->oom = true;
        return;
    }
    walk(&th->prog, mark_queue, &l);
    for (int q = 0; q < scn->nqueues + scn->nmutexes + scn->ncondvars; q++) {
        if (!l.used[q]) continue;
        pad(g);
        if (q < scn->nqueues) out(g, "q%d = res[%d] # queue ", q, q);
        else if (q < scn->nqueues + scn->nmutexes) out(g, "m%d = res[%d] # mutex ", q - scn->nqueues, q);
        else out(g, "cv%d = res[%d] # condition variable ", q - scn->nqueues - scn->nmutexes, q);
        rstr(g, q < scn->nqueues ? scn->queues[q].name
                : q < scn->nqueues + scn->nmutexes ? scn->mutexes[q - scn->nqueues].name
                : scn->condvars[q - scn->nqueues - scn->nmutexes].name);
        lit(g, "\n");
    }
    free(l.used);
    line(g, "gate.pop");
    if (th->start > 0) {  /* "start": it begins then */
        int64_t ns = (th->start + SIM_NS / 2) / SIM_NS;
        line(g, "w = st[2] + %" PRId64 " - gv_now", ns);
        line(g, "sleep(w / 1e9) if w > 0");
    }
    g->ninst = rt->count * th->count;
    g->depth = 0;
    g->nmeasured = 0;
    bool wrap = g->stop || (need & NEED_RAISE);
    if (wrap) {
        line(g, "begin");
        g->indent++;
    }
    emit_prog(g, &th->prog);
    if (wrap) {
        g->indent--;
        if (g->stop) {
            line(g, "rescue GvStop");
            line(g, "rescue ClosedQueueError");
            line(g, "  raise unless st[0]");
        }
        if (need & NEED_RAISE) line(g, "rescue GvRaise # on_timeout raise: an exception not rescued ends the thread");
        line(g, "end");
    }
    line(g, "[ops, sys, ins, to, lat]");
    g->indent--;
    line(g, "end");
    lit(g, "\n");
}

/* A generator: a thread of the main Ractor that sleeps until each arrival
 * and pushes it into its queue (the item is the arrival time). */
static void generator_method(struct rgen *g, int i)
{
    const struct scn_generator *gen = &g->scn->generators[i];
    out(g, "# generators[%d] ", i);
    rstr(g, gen->name);
    out(g, ": %s arrivals into queue %d\n", scn_process_name(gen->process), gen->queue);
    line(g, "def gv_g%d(seed, st, gate, res)", i);
    g->indent++;
    line(g, "rng = Random.new(seed)");
    line(g, "q = res[%d]", gen->queue);
    line(g, "n = 0");
    line(g, "gate.pop");
    line(g, "t = st[2] + %" PRId64, (int64_t)((gen->start + SIM_NS / 2) / SIM_NS));
    line(g, "begin");
    g->indent++;
    if (gen->count) line(g, "while n < %" PRIu64, gen->count);
    else line(g, "while true");
    g->indent++;
    if (gen->process == PROCESS_POISSON)
        line(g, "t += (-%.3f * Math.log(1.0 - rng.rand)).round", ns_of(gen->interval));
    else
        line(g, "t += %" PRId64, (int64_t)((gen->interval + SIM_NS / 2) / SIM_NS));
    line(g, "w = t - gv_now");
    if (g->stop) line(g, "gv_sleep(w / 1e9, st) if w > 0");
    else line(g, "sleep(w / 1e9) if w > 0");
    line(g, "q.push(t)");
    line(g, "n += 1");
    g->indent--;
    line(g, "end");
    g->indent--;
    if (g->stop) {  /* as a thread's: gv_sleep stops at the deadline, a push into a closed queue after it */
        line(g, "rescue GvStop");
        line(g, "rescue ClosedQueueError");
        line(g, "  raise unless st[0]");
    }
    line(g, "end");
    line(g, "[0, 0, 0, 0, Array.new(%d) { [] }]", g->scn->nmeasures);
    g->indent--;
    line(g, "end");
    lit(g, "\n");
}

/* Thread.new of a spawned template's next instance (main Ractor). */
static void spawn_method(struct rgen *g, int t)
{
    const struct scn_thread *th = &g->scn->ractors[0].threads[t];
    long long base, per;
    thread_base(g->scn, 0, t, &base, &per);
    line(g, "def gv_spawn_0_%d(st, res)", t);
    g->indent++;
    line(g, "j = $gv_tmpl[%d].size", t);
    pad(g);
    lit(g, "raise \"spawn: every instance of thread template \" + ");
    rstr(g, th->name);
    out(g, " + \" is already spawned\" if j >= %d\n", th->count);
    line(g, "th = Thread.new do");
    g->indent++;
    pad(g);
    lit(g, "Thread.current.name = ");
    name_expr(g, 0, t, "0", "j");
    lit(g, "\n");
    line(g, "gv_fin(0, gv_t0_%d(j, GV_SEED * 1_000_003 + %lld + j, st, GvGate.new {}, res))", t, base);
    g->indent--;
    line(g, "end");
    line(g, "$gv_tmpl[%d] << th", t);
    line(g, "$gv_threads << th");
    g->indent--;
    line(g, "end");
    lit(g, "\n");
}

/* A Ruby string expression for the name of an instance: base, or base#j
 * when replicated; prefixed with the Ractor's when the run has several. */
static void name_expr(struct rgen *g, int r, int t, const char *rk, const char *tj)
{
    const struct scn_ractor *rt = &g->scn->ractors[r];
    const struct scn_thread *th = &rt->threads[t];
    lit(g, "\"");
    if (g->scn->total_ractors > 1) {
        rstr_part(g, rt->name);
        if (rt->count > 1) out(g, "##{%s}", rk);
        lit(g, "/");
    }
    rstr_part(g, th->name);
    if (th->count > 1 && !strcmp(tj, "0")) lit(g, "#0");
    else if (th->count > 1) out(g, "##{%s}", tj);
    lit(g, "\"");
}

/* Thread.new for every instance of the templates of Ractor template r (in
 * the Ractor copy `k`, a Ruby expression), except the Ractor's own thread
 * (template 0, instance 0); pushed onto `list`. */
static void start_threads(struct rgen *g, int r, const char *k, const char *list, const char *ri)
{
    const struct scn_ractor *rt = &g->scn->ractors[r];
    for (int t = 0; t < rt->nthreads; t++) {
        const struct scn_thread *th = &rt->threads[t];
        if ((t == 0 && th->count == 1) || th->spawned) continue;
        long long base, per;
        thread_base(g->scn, r, t, &base, &per);
        pad(g);
        out(g, "# ractors[%d].threads[%d] ", r, t);
        rstr(g, th->name);
        lit(g, "\n");
        line(g, "(%d...%d).each do |gv_j|", t == 0 ? 1 : 0, th->count);
        g->indent++;
        line(g, "%s << Thread.new(gv_j) do |j|", list);
        g->indent++;
        pad(g);
        lit(g, "Thread.current.name = ");
        name_expr(g, r, t, k, "j");
        lit(g, "\n");
        line(g, "gv_fin(%s, gv_t%d_%d(%s * %d + j, GV_SEED * 1_000_003 + %lld + %s * %lld + j, st, gate, res))", ri,
             r, t, k, th->count, base, k, per);
        g->indent--;
        line(g, "end");
        if (r == 0) line(g, "$gv_tmpl[%d] << %s.last", t, list);
        g->indent--;
        line(g, "end");
    }
}

/* The queues Ractor template r owns, created in res (nil for the others),
 * with their initial items. */
static void make_queues(struct rgen *g, int r, const int *owner)
{
    const struct scenario *scn = g->scn;
    pad(g);
    lit(g, "res = [");
    for (int q = 0; q < scn->nqueues + scn->nmutexes + scn->ncondvars; q++) {
        bool mine = owner[q] == r || (owner[q] < 0 && r == 0);
        const char *what = q < scn->nqueues ? "Thread::Queue.new"
                         : q < scn->nqueues + scn->nmutexes ? "Thread::Mutex.new" : "Thread::ConditionVariable.new";
        out(g, "%s%s", q ? ", " : "", mine ? what : "nil");
    }
    lit(g, "]\n");
    for (int q = 0; q < g->scn->nqueues; q++) {
        bool mine = owner[q] == r || (owner[q] < 0 && r == 0);
        if (mine && g->scn->queues[q].initial > 0)
            line(g, "%" PRId64 ".times { res[%d] << %d }", g->scn->queues[q].initial, q, g->stamp ? 0 : 1);
    }
}

static void ractor_method(struct rgen *g, int r, const int *owner)
{
    const struct scn_ractor *rt = &g->scn->ractors[r];
    long long base, per;
    thread_base(g->scn, r, 0, &base, &per);
    out(g, "# ractors[%d] ", r);
    rstr(g, rt->name);
    out(g, ": %d cop%s; copy k is Ractor instance %d + k\n", rt->count, rt->count == 1 ? "y" : "ies",
        ractor_base(g->scn, r));
    line(g, "def gv_r%d(k)", r);
    g->indent++;
    line(g, "ri = %d + k", ractor_base(g->scn, r));
    line(g, "st = [false, 0, 0]");
    line(g, "tstop = [0]");
    line(g, "gate = Thread::Queue.new");
    make_queues(g, r, owner);
    line(g, "ths = []");
    if (g->stop) line(g, "stopper = Thread.new { gate.pop; gv_stopper(st, tstop, res) }");
    start_threads(g, r, "k", "ths", "ri");
    line(g, "go = GvGate.new do");
    g->indent++;
    line(g, "Ractor.main.send([:ready, ri])");
    line(g, "st[2] = Ractor.receive[1]");
    if (g->stop) line(g, "st[1] = st[2] + GV_STOP_NS");
    line(g, "gate.close");
    g->indent--;
    line(g, "end");
    pad(g);
    lit(g, "Thread.current.name = ");
    name_expr(g, r, 0, "k", "0");
    lit(g, "\n");
    line(g, "out = [gv_fin(ri, gv_t%d_0(k * %d, GV_SEED * 1_000_003 + %lld + k * %lld, st, go, res))]", r,
         rt->threads[0].count, base, per);
    line(g, "ths.each { |t| out << t.value }");
    if (g->stop) line(g, "gv_end_stopper(stopper, st, tstop)");
    line(g, "Ractor.main.send([:done, ri, out, tstop[0]])");
    g->indent--;
    line(g, "rescue Exception => e # any failure: the main Ractor must hear of it");
    line(g, "  Ractor.main.send([:error, ri, e.full_message(highlight: false)])");
    line(g, "end");
    lit(g, "\n");
}

static void main_part(struct rgen *g, const int *owner)
{
    const struct scenario *scn = g->scn;
    line(g, "# ---- the main Ractor: its threads, the other Ractors, the start gate, the report");
    line(g, "$gv_threads = []");
    line(g, "$gv_ractors = []");
    line(g, "$gv_out = []");
    line(g, "$gv_tstops = []");
    line(g, "$gv_tmpl = Hash.new { |h, t| h[t] = [] }  # the main Ractor's threads by template");
    line(g, "st = [false, 0, 0]");
    line(g, "tstop = [0]");
    line(g, "gate = Thread::Queue.new");
    make_queues(g, 0, owner);
    if (g->stop) line(g, "gv_stopper_th = Thread.new { gate.pop; gv_stopper(st, tstop, res) }");
    start_threads(g, 0, "0", "$gv_threads", "0");
    for (int i = 0; i < scn->ngenerators; i++) {
        pad(g);
        lit(g, "$gv_threads << Thread.new do\n");
        pad(g);
        lit(g, "  Thread.current.name = ");
        rstr(g, scn->generators[i].name);
        lit(g, "\n");
        line(g, "  gv_fin(0, gv_g%d(GV_SEED * 1_000_003 + %d, st, gate, res))", i, 1000000 + i);
        line(g, "end");
    }
    for (int r = 1; r < scn->nractors; r++) {
        line(g, "%d.times do |k|", scn->ractors[r].count);
        pad(g);
        lit(g, "  $gv_ractors << Ractor.new(k, name: ");
        if (scn->ractors[r].count > 1) {
            lit(g, "\"");
            rstr_part(g, scn->ractors[r].name);
            lit(g, "##{k}\"");
        } else {
            rstr(g, scn->ractors[r].name);
        }
        out(g, ") { |rk| gv_r%d(rk) }\n", r);
        line(g, "end");
    }
    line(g, "go = GvGate.new { gv_start(gate, st, %s) }", g->stop ? "GV_STOP_NS" : "0");
    pad(g);
    lit(g, "Thread.current.name = ");
    name_expr(g, 0, 0, "0", "0");
    lit(g, "\n");
    line(g, "main = gv_fin(0, gv_t0_0(0, GV_SEED * 1_000_003, st, go, res))");
    line(g, "gv_finish(main, st, tstop, %s)", g->stop ? "gv_stopper_th" : "nil");
}

int rgen_generate(const struct scenario *scn, const struct rgen_opts *o, struct rgen_program *p,
                  char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    int *owner = owners_new(scn);
    if (!owner) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    int rc = with_places(scn, owner, err, errlen);
    if (rc != GV_OK) {
        free(owner);
        return rc;
    }
    struct rgen g = { .scn = scn, .stop = scn->stop_time > 0 };
    out(&g, "%s", rgen_prelude);
    lit(&g, "# ---- scenario ");
    rstr(&g, scn->name);
    lit(&g, " from ");
    rstr(&g, scn->file ? scn->file : "-");
    lit(&g, ", generated by gvlsim for `gvlsim exec --backend ruby`\n");
    line(&g, "# Run: ruby THIS_FILE RESULT.json -- it writes its measurements to RESULT.json.");
    line(&g, "# A line ending in \"# /pointer (line N)\" runs that op of the scenario.");
    line(&g, "GV_MAX_SPREAD = %.4g", o && o->max_spread > 0 ? o->max_spread : RGEN_MAX_SPREAD);
    pad(&g);
    lit(&g, "GV_STAT = ");
    rstr(&g, o && o->stat_path ? o->stat_path : "/");
    lit(&g, "\n");
    line(&g, "GV_SEED = %" PRIu64, scn->seed);
    line(&g, "GV_RACTORS = %d", scn->total_ractors);
    if (g.stop) line(&g, "GV_STOP_NS = %" PRId64, (int64_t)((scn->stop_time + SIM_NS / 2) / SIM_NS));
    line(&g, "GV_WARMUP_NS = %" PRId64, (int64_t)((scn->warmup + SIM_NS / 2) / SIM_NS));
    line(&g, "GV_MEASURES = %d", scn->nmeasures);
    for (int r = 0; r < scn->nractors; r++)
        for (int t = 0; t < scn->ractors[r].nthreads; t++) {
            walk(&scn->ractors[r].threads[t].prog, mark_emp, &g);
            walk(&scn->ractors[r].threads[t].prog, mark_stamp, &g);
        }
    for (int i = 0; i < g.nemp; i++) {  /* empirical distributions: values (ns), cumulative weights */
        const struct scn_dist *d = g.emp[i];
        pad(&g);
        out(&g, "GV_EMP%d = [[", i);
        for (int k = 0; k < d->n; k++) out(&g, "%s%.3f", k ? ", " : "", ns_of(d->values[k]));
        lit(&g, "], [");
        for (int k = 0; k < d->n; k++) out(&g, "%s%.17g", k ? ", " : "", d->cum[k]);
        lit(&g, "]].freeze\n");
    }
    lit(&g, "\n");

    struct iseqs is = { 0 };
    for (int r = 0; r < scn->nractors; r++)
        for (int t = 0; t < scn->ractors[r].nthreads; t++) walk(&scn->ractors[r].threads[t].prog, mark_iseq, &is);
    for (int i = 0; i < is.n; i++) {
        line(&g, "# env_escape of iseq %d: each call materialises this method's environment", is.v[i]);
        line(&g, "def gv_escape_%d", is.v[i]);
        line(&g, "  x = %d", is.v[i]);
        line(&g, "  -> { x }");
        line(&g, "end");
        lit(&g, "\n");
    }
    g.oom |= is.oom;
    free(is.v);

    for (int r = 0; r < scn->nractors; r++)
        for (int t = 0; t < scn->ractors[r].nthreads; t++) thread_method(&g, r, t);
    for (int i = 0; i < scn->ngenerators; i++) generator_method(&g, i);
    for (int t = 0; t < scn->ractors[0].nthreads; t++)
        if (scn->ractors[0].threads[t].spawned) spawn_method(&g, t);
    for (int r = 1; r < scn->nractors; r++) ractor_method(&g, r, owner);
    main_part(&g, owner);
    free(owner);
    free(g.emp);
    size_t len = g.out.n;
    char *text = sbuf_take(&g.out);
    if (g.oom || !text) {
        free(text);
        free(g.lines);
        return gv_fail(err, errlen, GV_ENOMEM, "out of memory generating the Ruby program");
    }
    p->text = text;
    p->len = len;
    p->lines = g.lines;
    p->nlines = g.nlines;
    return GV_OK;
}

void rgen_program_free(struct rgen_program *p)
{
    free(p->text);
    free(p->lines);
    memset(p, 0, sizeof *p);
}

const struct scn_op *rgen_op_at(const struct rgen_program *p, int ln)
{
    int lo = 0, hi = p->nlines;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (p->lines[mid].line < ln) lo = mid + 1;
        else hi = mid;
    }
    return lo < p->nlines && p->lines[lo].line == ln ? p->lines[lo].op : NULL;
}
