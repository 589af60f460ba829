/* estimate.c - engine events of a run, from the scenario alone (estimate.h).
 *
 * The events each op schedules, read off the models (rough means over
 * policies and contention, fitted to the golden runs' engine_events):
 * - compute: the burst's end: 1;  syscall holding the GVL: 1;
 * - syscall releasing it (BLOCKING_REGION): the call, and about every
 *   other time a hand-off of the GVL (a futex wake, a wake-up): 2;
 * - sleep: the timeout, the wake-up, the GVL: 3;
 * - queue_push: now and then the wake of a parked popper: 0.5;  queue_pop:
 *   now and then a park and a wake-up: 1;
 * - env_escape: nothing (none), a flag load (lockless: 0.5), or the VM
 *   lock and a barrier that interrupts and waits for every other Ractor
 *   (lock_barrier): 2 + 3 per other Ractor instance (its interrupt, its
 *   wake-up, its join);
 * - join: 1; a thread's start and end: 4; a timer tick: 2;
 * - mutex_lock, mutex_unlock, cv_signal, cv_broadcast: now and then a
 *   park or a wake: 0.5; cv_wait: now and then the release, the park,
 *   the wake-up, the relock: 2, and its timeout's event: 1; spawn: 1;
 * - alloc: a lazy-sweep step (GC_INCREMENTAL_SWEEP_SLOT_COUNT slots) or a
 *   GC now and then, with the VM lock and a barrier in a multi-Ractor
 *   process: (1 + barrier) per 1500 objects; an env_escape allocates its
 *   two objects too, and with several Ractors allocating on several cores
 *   an op's accesses fetch the objspace's lines, together (one remote_rmw,
 *   models/gc.c);
 * - a generator's arrival: a sleep and a push: 3.5;
 * - measure, branch (each body by its probability), synchronize: their
 *   bodies, and synchronize's lock and unlock (0.5 each).
 * A thread that gives up (a wait's on_timeout raise) ends early: the
 * estimate, which cannot know, counts its whole program.
 *
 * The time an iteration of a `forever` loop takes decides how many there
 * are before stop.time, and contention stretches it far beyond the sum of
 * the op durations in three ways the estimate follows:
 * - one GVL per Ractor: the GVL-holding time of its threads adds up;
 * - the cores: CPU time adds up over cores;
 * - `lock_barrier`: every escape stops the world, one barrier at a time;
 * so all counts are scaled down until no resource is used beyond the
 * horizon; and a thread that releases the GVL next to a thread that never
 * does gets it back only when the hog's quantum ends (eager, hot_steal,
 * barging; the next tick under delayed; `threshold` after it). */
#include "estimate.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "../core/heap.h"

#define THREAD_EVENTS 4.0
#define TICK_EVENTS 2.0

struct est {
    double events;   /* for one execution */
    double time;     /* simulated picoseconds it takes */
    double gvl;      /* of which holding the GVL */
    double cpu;      /* of which on a CPU */
    double escapes;  /* env_escape ops (lock_barrier: one barrier each) */
    bool releases;   /* some op releases the GVL (or parks) */
};

struct ectx {
    const struct scenario *scn;
    double ninst;          /* instances of the thread template (times_total) */
    double escape_events;  /* an env_escape under this invariant_check */
    double regain;         /* extra wait to get the GVL back after a blocking region */
    double barrier_events; /* a VM-wide barrier in a multi-Ractor process, 0 in one Ractor */
    double escape_line;    /* an env_escape's objspace line moves, in ps */
};

static double dist_mean(const struct scn_dist *d)
{
    switch (d->kind) {
    case DIST_UNIFORM: return ((double)d->a + (double)d->b) / 2;
    case DIST_LOGNORMAL: return (double)d->a * exp(d->sigma * d->sigma / 2);  /* a is the median */
    case DIST_EMPIRICAL: {
        double sum = 0, prev = 0;
        for (int i = 0; i < d->n; i++) {
            sum += (double)d->values[i] * (d->cum[i] - prev);
            prev = d->cum[i];
        }
        return prev > 0 ? sum / prev : 0;
    }
    case DIST_EXP:
    case DIST_CONST:
    case DIST_KIND_COUNT: break;
    }
    return (double)d->a;
}

static void add(struct est *r, const struct est *e, double k)
{
    r->events += k * e->events;
    r->time += k * e->time;
    r->gvl += k * e->gvl;
    r->cpu += k * e->cpu;
    r->escapes += k * e->escapes;
    r->releases |= e->releases;
}

static struct est op_cost(const struct ectx *c, const struct scn_op *op)
{
    const struct scn_machine *m = &c->scn->machine;
    struct est e = { 0 };
    double d;
    switch (op->kind) {
    case OP_COMPUTE:
        e.events = 1;
        d = op->u.compute.has_insns ? (double)op->u.compute.insns * (double)m->insn_time
                                    : dist_mean(&op->u.compute.dur) * m->work_scale;
        e.time = e.gvl = e.cpu = d;
        break;
    case OP_SYSCALL:
        d = dist_mean(&op->u.syscall.dur) *
            (op->u.syscall.io_wait || op->u.syscall.dur_machine ? 1.0 : m->work_scale);
        e.time = d;
        if (!op->u.syscall.io_wait) e.cpu = d;
        if (op->u.syscall.releases_gvl) {
            e.events = 2;
            e.releases = true;
            e.time += c->regain;
        } else {
            e.events = 1;
            e.gvl = d;
        }
        /* its method's work before and after the call, holding the GVL */
        double w = (double)op->u.syscall.method_work * (op->u.syscall.method_work_machine ? 1.0 : m->work_scale) +
                   (double)op->u.syscall.method_work_after *
                       (op->u.syscall.method_work_after_machine ? 1.0 : m->work_scale);
        e.time += w;
        e.gvl += w;
        e.cpu += w;
        if (op->u.syscall.allocates) {  /* as an alloc op of that many objects */
            double n = (double)op->u.syscall.allocates, a = n * (double)m->gc_sweep_per_slot;
            e.events += n / 1500 * (1 + c->barrier_events);
            e.time += a;
            e.gvl += a;
            e.cpu += a;
        }
        break;
    case OP_SLEEP:
        e.events = 3;
        e.time = dist_mean(&op->u.sleep.dur) + c->regain;
        e.releases = true;
        break;
    case OP_QUEUE_PUSH: e.events = 0.5; break;
    case OP_QUEUE_POP:
        e.events = 1;
        e.releases = true;
        break;
    case OP_ENV_ESCAPE:
        e.events = c->escape_events + (double)CORE_ESCAPE_OBJECTS / 1500 * (1 + c->barrier_events);
        e.escapes = 1;
        e.time = e.gvl = e.cpu =
            (double)CORE_ESCAPE_OBJECTS * (double)(m->gc_sweep_per_slot + m->gc_free_body) + c->escape_line;
        break;
    case OP_JOIN: e.events = 1; break;
    case OP_MUTEX_LOCK:
    case OP_MUTEX_UNLOCK:
    case OP_CV_SIGNAL:
    case OP_CV_BROADCAST: e.events = 0.5; break;
    case OP_CV_WAIT:
        e.events = op->u.cv.has_timeout ? 3 : 2;
        e.releases = true;
        break;
    case OP_SPAWN:
        e.events = 1;
        e.time = e.gvl = e.cpu = (double)m->thread_create;
        break;
    case OP_GC:   /* the VM lock and a barrier with several Ractors: as a GC start */
        e.events = 1 + c->barrier_events;
        e.time = e.gvl = e.cpu = dist_mean(&op->u.gc.dur) * m->work_scale;
        break;
    case OP_ALLOC: {
        double n = (double)op->u.alloc.objects;
        e.events = n / 1500 * (1 + c->barrier_events);
        e.time = e.gvl = e.cpu =
            n * ((double)m->gc_sweep_per_slot + op->u.alloc.survive * (double)m->gc_mark_per_object);
        break;
    }
    case OP_ARRIVE:
        e.events = 3.5;
        e.time = (double)c->scn->generators[op->u.arrive.gen].interval;
        e.releases = true;
        break;
    case OP_LOOP:
    case OP_MEASURE:
    case OP_BRANCH:
    case OP_SYNCHRONIZE:
    case OP_KIND_COUNT: break;
    }
    if (e.time < (double)ESTIMATE_OP_FLOOR) e.time = (double)ESTIMATE_OP_FLOOR;
    return e;
}

/* One execution of `prog` within `left` picoseconds. */
static struct est walk(const struct ectx *c, const struct scn_prog *prog, double left)
{
    struct est r = { 0 };
    for (int i = 0; prog && i < prog->nops && r.time < left; i++) {
        const struct scn_op *op = &prog->ops[i];
        if (op->kind == OP_MEASURE || op->kind == OP_SYNCHRONIZE) {
            struct est b = walk(c, op->kind == OP_MEASURE ? op->u.measure.body : op->u.mutex.body, left - r.time);
            add(&r, &b, 1);
            if (op->kind == OP_SYNCHRONIZE) r.events += 1;  /* the lock and the unlock */
            continue;
        }
        if (op->kind == OP_BRANCH) {
            double p = op->u.branch.p;
            struct est a = walk(c, op->u.branch.then_body, left - r.time);
            struct est b = walk(c, op->u.branch.else_body, left - r.time);
            add(&r, &a, p);
            add(&r, &b, 1 - p);
            continue;
        }
        if (op->kind != OP_LOOP) {
            struct est e = op_cost(c, op);
            add(&r, &e, 1);
            continue;
        }
        double n;
        switch (op->u.loop.mode) {
        case LOOP_FOREVER: n = INFINITY; break;
        case LOOP_TIMES_TOTAL: n = (double)op->u.loop.times / c->ninst; break;
        case LOOP_TIMES:
        default: n = (double)op->u.loop.times; break;
        }
        if (n <= 0) continue;
        struct est b = walk(c, op->u.loop.body, left - r.time);  /* one iteration */
        double k = fmin(n, (left - r.time) / b.time);            /* b.time >= the op floor */
        add(&r, &b, k < 1 ? 1 : k);
    }
    return r;
}

/* Does a thread hold the GVL for good: a forever loop that never lets go? */
static bool hogs_gvl(const struct scn_prog *p)
{
    for (int i = 0; i < p->nops; i++) {
        const struct scn_op *op = &p->ops[i];
        if (op->kind != OP_LOOP || op->u.loop.mode != LOOP_FOREVER) continue;
        for (int j = 0; j < op->u.loop.body->nops; j++) {
            enum scn_op_kind k = op->u.loop.body->ops[j].kind;
            if (k == OP_LOOP) return false;  /* nested: not worth following */
            if (k == OP_SYSCALL || k == OP_SLEEP || k == OP_QUEUE_POP || k == OP_JOIN || k == OP_ENV_ESCAPE)
                return false;
        }
        return true;
    }
    return false;
}

/* The wait for the GVL after a blocking region, next to a hog. */
static double regain_wait(const struct scenario *scn)
{
    switch (scn->runtime.gvl_policy) {
    case GVL_POLICY_DELAYED: return (double)scn->runtime.timer_tick;
    case GVL_POLICY_THRESHOLD: return (double)scn->runtime.threshold;
    default: return (double)scn->runtime.quantum;
    }
}

/* One barrier of lock_barrier: the initiator wakes and waits for the
 * running thread of every other Ractor (models/barrier.c), serialised by
 * the VM lock. */
static double barrier_time(const struct scenario *scn)
{
    const struct scn_machine *m = &scn->machine;
    if (scn->total_ractors <= 1) return (double)m->escape_check_cs;
    return (double)(m->escape_check_cs + m->wake_idle_core) +
           (double)(scn->total_ractors - 1) *
               (double)(m->futex_wake + m->context_switch + m->remote_rmw + m->safepoint_gap);
}

double estimate_events(const struct scenario *scn, sim_time max_time)
{
    double horizon = (double)(scn->stop_time > 0 && scn->stop_time < max_time ? scn->stop_time : max_time);
    struct ectx c = { scn, 1, 0, 0, scn->total_ractors > 1 ? 2 + 3.0 * (scn->total_ractors - 1) : 0, 0 };
    bool barriers = scn->runtime.invariant_check == INVARIANT_LOCK_BARRIER;
    switch (scn->runtime.invariant_check) {
    case INVARIANT_LOCKLESS: c.escape_events = 0.5; break;
    case INVARIANT_LOCK_BARRIER: c.escape_events = 2 + 3.0 * (scn->total_ractors - 1); break;
    default: break;
    }
    if (scn->total_ractors > 2 && scn->machine.cores > 1)
        c.escape_line = (double)scn->machine.remote_rmw;
    double events = 0, fixed = 0, longest = 0, cpu = 0, escapes = 0, scale = 1;
    int waiting_ractors = 0;  /* Ractor instances whose threads take turns: the timer ticks */
    for (int r = 0; r < scn->nractors; r++) {
        const struct scn_ractor *ra = &scn->ractors[r];
        int per = 0;
        bool hog = false;
        for (int t = 0; t < ra->nthreads; t++) {
            per += ra->threads[t].count;
            hog |= hogs_gvl(&ra->threads[t].prog);
        }
        if (per > 1) waiting_ractors += ra->count;
        double gvl = 0;  /* of one instance of this Ractor */
        for (int t = 0; t < ra->nthreads; t++) {
            const struct scn_thread *th = &ra->threads[t];
            c.ninst = (double)ra->count * th->count;
            c.regain = hog && per > 1 && !hogs_gvl(&th->prog) ? regain_wait(scn) : 0;
            struct est e = walk(&c, &th->prog, horizon);
            events += c.ninst * e.events;
            fixed += c.ninst * THREAD_EVENTS;
            gvl += th->count * e.gvl;
            cpu += c.ninst * e.cpu;
            escapes += c.ninst * e.escapes;
            if (e.time > longest) longest = e.time;
        }
        if (gvl > horizon) scale = fmin(scale, horizon / gvl);
    }
    /* the generators: threads of the main Ractor, each a loop of arrivals */
    for (int g = 0; g < scn->ngenerators; g++) {
        c.ninst = 1;
        c.regain = 0;
        struct est e = walk(&c, &scn->generators[g].prog, horizon);
        events += e.events;
        fixed += THREAD_EVENTS;
    }
    if (cpu > horizon * scn->machine.cores) scale = fmin(scale, horizon * scn->machine.cores / cpu);
    double bt = barriers ? escapes * barrier_time(scn) : 0;
    if (bt > horizon) scale = fmin(scale, horizon / bt);
    double run = fmin(longest, horizon);
    return events * scale + fixed + TICK_EVENTS * waiting_ractors * run / (double)scn->runtime.timer_tick;
}
