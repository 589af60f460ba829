/* cursor.h - stepping through a thread's program: blocks (loops with
 * times, times_total or forever; measure blocks; branches; synchronize),
 * the samples of measured iterations, and the durations of ops drawn from
 * the thread's own random stream.  Both backends run the ops; the cursor
 * says which op comes next and when a measured block ended (the backend
 * gives the time: the cursor knows none).  The per-op steps are inline:
 * they run once per op on the simulator's hot path. */
#ifndef CORE_CURSOR_H
#define CORE_CURSOR_H

#include <math.h>

#include "core.h"

/* Start at the first op of `prog`, with a frame stack as deep as the
 * program's blocks nest (at most CORE_MAX_FRAMES); samples and ops
 * completed before `warmup` are not counted.  GV_OK or GV_ENOMEM;
 * core_cursor_free releases the frames. */
int core_cursor_init(struct core_cursor *c, const struct scn_prog *prog, sim_time warmup);
void core_cursor_free(struct core_cursor *c);
/* ... on the caller's nframes frames (at least core_prog_depth(prog), at
 * most CORE_MAX_FRAMES), which it keeps and frees. */
void core_cursor_place(struct core_cursor *c, const struct scn_prog *prog, sim_time warmup,
                       struct core_frame *frames, int nframes);

/* Frames a program needs: one, plus one per level of its deepest nest of
 * blocks (a loop, measure or branch body with no op never gets a frame; a
 * synchronize always does, for its unlock). */
int core_prog_depth(const struct scn_prog *prog);

/* Samples and ops completed before it are not counted (core_cursor_place). */
static inline sim_time core_cursor_warmup(const struct core_cursor *c)
{
    return c->stack[0].warmup;
}

/* Does entering `op` (a block) need the time, passed to core_cursor_enter?
 * Only measured blocks do (a backend with a costly clock asks first). */
static inline bool core_block_timed(const struct core_cursor *c, const struct scn_op *op)
{
    return (op->kind == OP_LOOP && (op->u.loop.mid || (op->u.loop.measure && core_cursor_warmup(c) > 0))) ||
           op->kind == OP_MEASURE;
}

/* Enter a block op, the one core_cursor_next handed out last, at time
 * `now` (0 if core_block_timed says it is not needed): a loop's body runs next, scn_loop_times(op) times for this
 * instance (nothing for 0 iterations); a measure's body once; a branch
 * draws from th's stream and runs `then` or `else`; a synchronize's body
 * (its mutex already locked by the caller), then its unlock.  false if the
 * frame stack is full: deeper than the loader lets a scenario nest. */
bool core_cursor_enter(struct core_thread *th, const struct scn_op *op, sim_time now);

/* The block op whose body frame i >= 1 runs: the op the frame below
 * handed out last. */
static inline const struct scn_op *core_cursor_op(const struct core_cursor *c, int i)
{
    return c->stack[i - 1].next - 1;
}

enum core_next {
    CORE_NEXT_OP,         /* *op is the next op */
    CORE_NEXT_ITERATION,  /* a loop body starts its next iteration (a backward
                           * branch, where CRuby checks interrupts); call again */
    CORE_NEXT_SAMPLE,     /* a measured iteration or block ended: call
                           * core_cursor_sample with the time, then again */
    CORE_NEXT_END         /* the program is over */
};

static inline enum core_next core_cursor_next(struct core_thread *th, const struct scn_op **op)
{
    struct core_cursor *c = &th->cur;
    for (;;) {
        struct core_frame *f = &c->stack[c->sp - 1];
        if (f->next < f->end) {
            *op = f->next++;
            return CORE_NEXT_OP;
        }
        if (c->sp == 1) return CORE_NEXT_END;
        if (f->sync && !f->end_done) {  /* synchronize: the unlock */
            f->end_done = true;
            *op = core_cursor_op(c, c->sp - 1)->u.mutex.unlock;
            return CORE_NEXT_OP;
        }
        if (f->timed && !f->sampled) {
            f->sampled = true;
            return CORE_NEXT_SAMPLE;
        }
        /* one iteration of a loop body is complete */
        if (f->measure && !f->timed) c->ops++;
        if (f->forever || f->left > 0) {
            if (!f->forever) f->left--;
            f->next = (f[-1].next - 1)->u.loop.body->ops;  /* its loop's (core_cursor_op; only a loop repeats) */
            f->sampled = f->popped = false;
            return CORE_NEXT_ITERATION;
        }
        c->sp--;
    }
}

/* The measured block on top ended at `now` (after CORE_NEXT_SAMPLE): its
 * latency (now - its start) is a sample of its measure and, for a
 * "measure": true loop, one op - unless it ended before the warm-up.  The
 * next iteration starts at `now`.  false if a sample could not be stored
 * (out of memory; the thread's samples say so too). */
bool core_cursor_sample(struct core_thread *th, sim_time now);

/* An exception not rescued: the program ends here (no block's end runs:
 * no sample, no synchronize's unlock - the thread's end unlocks). */
static inline void core_cursor_abort(struct core_thread *th)
{
    struct core_cursor *c = &th->cur;
    c->sp = 1;
    c->stack[0].next = c->stack[0].end;
}

/* th's queue_pop took an item that arrived at `t`: the innermost measured
 * block with "latency_from": "pop" that has not taken one yet starts at t. */
void core_cursor_popped(struct core_thread *th, sim_time t);

/* A uniform double in [0, 1) from th's stream (53 random bits). */
static inline double core_draw_unit(struct core_thread *th)
{
    return rng_unit(&th->rng);
}

/* A duration drawn from th's own random stream. */
sim_time core_draw_slow(struct core_thread *th, const struct scn_dist *d);

static inline sim_time core_draw(struct core_thread *th, const struct scn_dist *d)
{
    if (d->kind == DIST_CONST) return d->a;  /* most ops: decided first, in two instructions */
    switch (d->kind) {
    case DIST_UNIFORM: return rng_uniform(&th->rng, d->a, d->b);
    case DIST_EXP: return rng_exp(&th->rng, d->a);
    case DIST_LOGNORMAL:
    case DIST_EMPIRICAL: return core_draw_slow(th, d);
    case DIST_CONST:
    case DIST_KIND_COUNT: break;
    }
    return d->a;
}

/* A generator's next arrival time: the previous one (its start at first)
 * plus an interval drawn from th's stream - exponential for a Poisson
 * process, the mean itself for a constant one. */
static inline sim_time core_next_arrival(struct core_thread *th, const struct scn_generator *g)
{
    th->arrival += g->process == PROCESS_POISSON ? rng_exp(&th->rng, g->interval) : g->interval;
    return th->arrival;
}

/* CPU work measured on the scenario's reference machine, on this one;
 * SIM_TIME_MAX when it lasts beyond the simulator's time range (a day of
 * work at work_scale 1000 is 8.6e19 ps, beyond int64): the caller fails
 * the run, as for too many instructions. */
static inline sim_time core_scale_work(sim_time d, double work_scale)
{
    if (work_scale == 1.0) return d;
    double w = (double)d * work_scale;
    if (!(w < 0x1p63)) return SIM_TIME_MAX;  /* also NaN; the largest double below 2^63 fits */
    return sim_round(w);
}

/* The duration of a compute ("dur"), syscall, sleep or gc op, drawn from
 * th's stream.  CPU work (compute, gc, a syscall that is not an io_wait) is
 * multiplied by work_scale, machine.work_scale: durations are measured on
 * the scenario's reference machine (not a syscall's "dur": "machine", the
 * machine's own cost); SIM_TIME_MAX: beyond the time range.
 * One function per kind for a caller that knows it (small enough to
 * inline), and core_op_dur for any. */
static inline sim_time core_compute_dur(struct core_thread *th, const struct scn_op *op, double work_scale)
{
    return core_scale_work(core_draw(th, &op->u.compute.dur), work_scale);
}

static inline sim_time core_syscall_dur(struct core_thread *th, const struct scn_op *op, double work_scale)
{
    sim_time d = core_draw(th, &op->u.syscall.dur);
    /* an I/O wait is no work; "dur": "machine" is already this machine's cost */
    return op->u.syscall.io_wait || op->u.syscall.dur_machine ? d : core_scale_work(d, work_scale);
}

/* A syscall op's method_work on this machine: the scenario's is scaled
 * like any work; "method_work": "machine" is this machine's already. */
static inline sim_time core_method_work(const struct scn_op *op, double work_scale)
{
    return op->u.syscall.method_work_machine ? op->u.syscall.method_work
                                             : core_scale_work(op->u.syscall.method_work, work_scale);
}

/* The same for its "method_work_after", the method's work after the call. */
static inline sim_time core_method_work_after(const struct scn_op *op, double work_scale)
{
    return op->u.syscall.method_work_after_machine ? op->u.syscall.method_work_after
                                                   : core_scale_work(op->u.syscall.method_work_after, work_scale);
}

static inline sim_time core_sleep_dur(struct core_thread *th, const struct scn_op *op)
{
    return core_draw(th, &op->u.sleep.dur);
}

static inline sim_time core_op_dur(struct core_thread *th, const struct scn_op *op, double work_scale)
{
    switch (op->kind) {
    case OP_COMPUTE: return core_compute_dur(th, op, work_scale);
    case OP_SYSCALL: return core_syscall_dur(th, op, work_scale);
    case OP_SLEEP: return core_sleep_dur(th, op);
    case OP_GC: return core_scale_work(core_draw(th, &op->u.gc.dur), work_scale);
    default: return 0;
    }
}

#endif
