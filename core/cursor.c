/* cursor.c - the program cursor (cursor.h). */
#include "cursor.h"

#include <math.h>

void core_cursor_init(struct core_cursor *c, const struct scn_prog *prog)
{
    c->stack[0].prog = prog;
    c->stack[0].pc = 0;
    c->sp = 1;
}

enum core_next core_cursor_next(struct core_thread *th, const struct scn_op **op)
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

bool core_cursor_enter(struct core_thread *th, const struct scn_op *op)
{
    struct core_cursor *c = &th->cur;
    bool forever = op->u.loop.mode == LOOP_FOREVER;
    uint64_t n = forever ? 1 : scn_loop_times(op, th->instance, th->ninstances);
    if (n == 0 || !op->u.loop.body || op->u.loop.body->nops == 0) return true;
    if (c->sp >= CORE_MAX_FRAMES) return false;
    struct core_frame *f = &c->stack[c->sp++];
    f->prog = op->u.loop.body;
    f->pc = 0;
    f->left = n - 1;
    f->forever = forever;
    f->measure = op->u.loop.measure;
    return true;
}

sim_time core_draw(struct core_thread *th, const struct scn_dist *d)
{
    switch (d->kind) {
    case DIST_UNIFORM: return rng_uniform(&th->rng, d->a, d->b);
    case DIST_EXP: return rng_exp(&th->rng, d->a);
    case DIST_CONST: break;
    }
    return d->a;
}

static sim_time scale_work(sim_time d, double work_scale)
{
    if (work_scale == 1.0) return d;
    return (sim_time)llround((double)d * work_scale);
}

sim_time core_op_dur(struct core_thread *th, const struct scn_op *op, double work_scale)
{
    switch (op->kind) {
    case OP_COMPUTE: return scale_work(core_draw(th, &op->u.compute.dur), work_scale);
    case OP_SYSCALL: {
        sim_time d = core_draw(th, &op->u.syscall.dur);
        return op->u.syscall.io_wait ? d : scale_work(d, work_scale);
    }
    case OP_SLEEP: return core_draw(th, &op->u.sleep.dur);
    default: return 0;
    }
}
