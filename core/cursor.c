/* cursor.c - the program cursor (cursor.h; its per-op steps are inline there). */
#include "cursor.h"

#include <stdlib.h>

#include "../common/err.h"

int core_prog_depth(const struct scn_prog *prog)
{
    int deepest = 0;
    for (int i = 0; i < prog->nops; i++) {
        const struct scn_op *op = &prog->ops[i];
        if (op->kind != OP_LOOP || !op->u.loop.body || op->u.loop.body->nops == 0) continue;
        int d = core_prog_depth(op->u.loop.body);
        if (d > deepest) deepest = d;
    }
    return 1 + deepest;
}

/* The frames live outside the thread struct and are sized to the program
 * (typically 2 or 3 of them, against CORE_MAX_FRAMES = 33): the
 * simulator's threads stay small and their hot fields close together. */
int core_cursor_init(struct core_cursor *c, const struct scn_prog *prog)
{
    int n = core_prog_depth(prog);
    if (n > CORE_MAX_FRAMES) n = CORE_MAX_FRAMES;
    c->stack = calloc((size_t)n, sizeof *c->stack);
    if (!c->stack) return GV_ENOMEM;
    c->nframes = n;
    c->stack[0].prog = prog;
    c->stack[0].pc = 0;
    c->sp = 1;
    return GV_OK;
}

void core_cursor_free(struct core_cursor *c)
{
    free(c->stack);
    c->stack = NULL;
    c->nframes = c->sp = 0;
}

bool core_cursor_enter(struct core_thread *th, const struct scn_op *op)
{
    struct core_cursor *c = &th->cur;
    bool forever = op->u.loop.mode == LOOP_FOREVER;
    uint64_t n = forever ? 1 : scn_loop_times(op, th->instance, th->ninstances);
    if (n == 0 || !op->u.loop.body || op->u.loop.body->nops == 0) return true;
    if (c->sp >= c->nframes) return false;
    struct core_frame *f = &c->stack[c->sp++];
    f->prog = op->u.loop.body;
    f->pc = 0;
    f->left = n - 1;
    f->forever = forever;
    f->measure = op->u.loop.measure;
    return true;
}
