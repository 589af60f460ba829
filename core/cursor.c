/* cursor.c - the program cursor (cursor.h; its per-op steps are inline there). */
#include "cursor.h"

#include <stdlib.h>
#include <string.h>

#include "../common/err.h"

/* The frames a body needs when its block is entered: none for a body
 * that pushes no frame. */
static int body_depth(const struct scn_prog *body, bool always)
{
    if (!body || (body->nops == 0 && !always)) return 0;
    return core_prog_depth(body);
}

int core_prog_depth(const struct scn_prog *prog)
{
    int deepest = 0;
    for (int i = 0; i < prog->nops; i++) {
        const struct scn_op *op = &prog->ops[i];
        int d = 0;
        switch (op->kind) {
        case OP_LOOP: d = body_depth(op->u.loop.body, false); break;
        case OP_MEASURE: d = body_depth(op->u.measure.body, false); break;
        case OP_SYNCHRONIZE: d = body_depth(op->u.mutex.body, true); break;  /* its unlock needs a frame */
        case OP_BRANCH: {
            int t = body_depth(op->u.branch.then_body, false), e = body_depth(op->u.branch.else_body, false);
            d = t > e ? t : e;
            break;
        }
        default: break;
        }
        if (d > deepest) deepest = d;
    }
    return 1 + deepest;
}

/* f runs prog from its first op.  (No arithmetic on the NULL ops of an
 * empty body.) */
static void frame_start(struct core_frame *f, const struct scn_prog *prog)
{
    f->next = prog->ops;
    f->end = prog->nops > 0 ? prog->ops + prog->nops : prog->ops;
}

/* The frames live outside the thread struct and are sized to the program
 * (typically 2 or 3 of them, against CORE_MAX_FRAMES = 33): the
 * simulator's threads stay small and their hot fields close together. */
void core_cursor_place(struct core_cursor *c, const struct scn_prog *prog, sim_time warmup,
                       struct core_frame *frames, int nframes)
{
    memset(frames, 0, (size_t)nframes * sizeof *frames);
    c->stack = frames;
    c->nframes = (int8_t)nframes;
    frame_start(&c->stack[0], prog);
    c->stack[0].warmup = warmup;
    c->sp = 1;
}

int core_cursor_init(struct core_cursor *c, const struct scn_prog *prog, sim_time warmup)
{
    int n = core_prog_depth(prog);
    if (n > CORE_MAX_FRAMES) n = CORE_MAX_FRAMES;
    struct core_frame *f = malloc((size_t)n * sizeof *f);
    if (!f) return GV_ENOMEM;
    core_cursor_place(c, prog, warmup, f, n);
    return GV_OK;
}

void core_cursor_free(struct core_cursor *c)
{
    free(c->stack);
    c->stack = NULL;
    c->nframes = c->sp = 0;
}

static struct core_frame *push(struct core_cursor *c, const struct scn_prog *body)
{
    if (c->sp >= c->nframes) return NULL;
    struct core_frame *f = &c->stack[c->sp++];
    memset(f, 0, sizeof *f);
    frame_start(f, body);
    return f;
}

bool core_cursor_enter(struct core_thread *th, const struct scn_op *op, sim_time now)
{
    struct core_cursor *c = &th->cur;
    struct core_frame *f;
    switch (op->kind) {
    case OP_LOOP: {
        bool forever = op->u.loop.mode == LOOP_FOREVER;
        uint64_t n = forever ? 1 : scn_loop_times(op, th->instance, th->ninstances);
        if (n == 0 || !op->u.loop.body || op->u.loop.body->nops == 0) return true;
        if (!(f = push(c, op->u.loop.body))) return false;
        f->left = n - 1;
        f->forever = forever;
        f->measure = op->u.loop.measure;
        f->from_pop = op->u.loop.from_pop;
        f->timed = core_block_timed(c, op);
        f->start = now;
        return true;
    }
    case OP_MEASURE:
        if (!(f = push(c, op->u.measure.body))) return false;
        f->from_pop = op->u.measure.from_pop;
        f->timed = true;
        f->start = now;
        return true;
    case OP_BRANCH: {
        /* always one draw, whichever body is empty: the stream does not
         * depend on the bodies */
        const struct scn_prog *body =
            core_draw_unit(th) < op->u.branch.p ? op->u.branch.then_body : op->u.branch.else_body;
        if (!body || body->nops == 0) return true;
        return push(c, body) != NULL;
    }
    case OP_SYNCHRONIZE:
        if (!(f = push(c, op->u.mutex.body))) return false;
        f->sync = true;
        return true;
    default:
        return true;
    }
}

/* The named measure of a block's op: 1 + its index, 0 none. */
static int block_mid(const struct scn_op *op)
{
    if (op->kind == OP_LOOP) return op->u.loop.mid;
    if (op->kind == OP_MEASURE) return op->u.measure.mid;
    return 0;
}

static bool record(struct core_samples *s, sim_time v)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        sim_time *nv = realloc(s->v, cap * sizeof *nv);
        if (!nv) {
            s->oom = true;
            return false;
        }
        s->v = nv;
        s->cap = cap;
    }
    s->v[s->n++] = v;
    return true;
}

bool core_cursor_sample(struct core_thread *th, sim_time now)
{
    struct core_cursor *c = &th->cur;
    struct core_frame *f = &c->stack[c->sp - 1];
    bool ok = true;
    if (now >= core_cursor_warmup(c)) {
        int mid = block_mid(core_cursor_op(c, c->sp - 1));
        if (mid && c->samples) ok = record(&c->samples[mid - 1], now - f->start);
        if (f->measure) c->ops++;
    }
    f->start = now;
    return ok;
}

void core_cursor_popped(struct core_thread *th, sim_time t)
{
    struct core_cursor *c = &th->cur;
    for (int i = c->sp - 1; i >= 1; i--) {
        struct core_frame *f = &c->stack[i];
        if (f->from_pop && !f->popped && block_mid(core_cursor_op(c, i))) {
            f->start = t;
            f->popped = true;
            return;
        }
    }
}

/* A standard normal deviate (Box-Muller, one of the pair): two draws. */
static double std_normal(struct core_thread *th)
{
    double u1 = ((double)(rng_next(&th->rng) >> 11) + 1.0) * 0x1.0p-53;  /* (0, 1] */
    double u2 = core_draw_unit(th);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

sim_time core_draw_slow(struct core_thread *th, const struct scn_dist *d)
{
    if (d->kind == DIST_LOGNORMAL) {
        double x = (double)d->a * exp(d->sigma * std_normal(th));
        if (!(x < 9.0e18)) return (sim_time)9.0e18;
        return sim_round(x);
    }
    /* empirical: the first value whose cumulative weight exceeds u * total */
    double u = core_draw_unit(th) * d->cum[d->n - 1];
    int lo = 0, hi = d->n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (d->cum[mid] > u) hi = mid;
        else lo = mid + 1;
    }
    return d->values[lo];
}
