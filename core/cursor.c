/* cursor.c - the program cursor (cursor.h; its per-op steps are inline there). */
#include "cursor.h"

void core_cursor_init(struct core_cursor *c, const struct scn_prog *prog)
{
    c->stack[0].prog = prog;
    c->stack[0].pc = 0;
    c->sp = 1;
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
