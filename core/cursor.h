/* cursor.h - stepping through a thread's program: loops (times,
 * times_total, forever), "measure" iterations, and the durations of ops
 * drawn from the thread's own random stream.  Both backends run the ops;
 * the cursor says which op comes next.  The per-op steps are inline: they
 * run once per op on the simulator's hot path. */
#ifndef CORE_CURSOR_H
#define CORE_CURSOR_H

#include <math.h>

#include "core.h"

/* Start at the first op of `prog`, with a frame stack as deep as the
 * program's loops nest (at most CORE_MAX_FRAMES).  GV_OK or GV_ENOMEM;
 * core_cursor_free releases the frames. */
int core_cursor_init(struct core_cursor *c, const struct scn_prog *prog);
void core_cursor_free(struct core_cursor *c);

/* Frames a program needs: one, plus one per level of its deepest nest of
 * loops (a loop with an empty body never gets a frame). */
int core_prog_depth(const struct scn_prog *prog);

/* Enter a loop op: its body runs next, scn_loop_times(op) times for this
 * instance (nothing for 0 iterations).  false if the frame stack is full:
 * deeper than the loader lets a scenario nest. */
bool core_cursor_enter(struct core_thread *th, const struct scn_op *op);

enum core_next {
    CORE_NEXT_OP,         /* *op is the next op */
    CORE_NEXT_ITERATION,  /* a loop body starts its next iteration (a backward
                           * branch, where CRuby checks interrupts); call again */
    CORE_NEXT_END         /* the program is over */
};

static inline enum core_next core_cursor_next(struct core_thread *th, const struct scn_op **op)
{
    struct core_cursor *c = &th->cur;
    for (;;) {
        struct core_frame *f = &c->stack[c->sp - 1];
        if (f->pc < f->prog->nops) {
            *op = &f->prog->ops[f->pc++];
            return CORE_NEXT_OP;
        }
        if (c->sp == 1) return CORE_NEXT_END;
        /* one iteration of a loop body is complete */
        if (f->measure) c->ops++;
        if (f->forever || f->left > 0) {
            if (!f->forever) f->left--;
            f->pc = 0;
            return CORE_NEXT_ITERATION;
        }
        c->sp--;
    }
}

/* A duration drawn from th's own random stream. */
static inline sim_time core_draw(struct core_thread *th, const struct scn_dist *d)
{
    switch (d->kind) {
    case DIST_UNIFORM: return rng_uniform(&th->rng, d->a, d->b);
    case DIST_EXP: return rng_exp(&th->rng, d->a);
    case DIST_CONST: break;
    }
    return d->a;
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
    return (sim_time)llround(w);
}

/* The duration of a compute ("dur"), syscall or sleep op, drawn from th's
 * stream.  CPU work (compute, a syscall that is not an io_wait) is
 * multiplied by work_scale, machine.work_scale: durations are measured on
 * the scenario's reference machine.  SIM_TIME_MAX: beyond the time range. */
static inline sim_time core_op_dur(struct core_thread *th, const struct scn_op *op, double work_scale)
{
    switch (op->kind) {
    case OP_COMPUTE: return core_scale_work(core_draw(th, &op->u.compute.dur), work_scale);
    case OP_SYSCALL: {
        sim_time d = core_draw(th, &op->u.syscall.dur);
        return op->u.syscall.io_wait ? d : core_scale_work(d, work_scale);
    }
    case OP_SLEEP: return core_draw(th, &op->u.sleep.dur);
    default: return 0;
    }
}

#endif
