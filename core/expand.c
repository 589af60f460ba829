/* expand.c - templates to instances (expand.h). */
#include "expand.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "cursor.h"

char *core_instance_name(const char *base, int idx, int count)
{
    size_t len = strlen(base) + 16;
    char *s = malloc(len);
    if (!s) return NULL;
    if (count > 1) snprintf(s, len, "%s#%d", base, idx);
    else snprintf(s, len, "%s", base);
    return s;
}

char *core_thread_name(const char *ractor_name, const char *base, int idx, int count,
                       bool multi_ractor)
{
    char *tn = core_instance_name(base, idx, count);
    if (!tn || !multi_ractor) return tn;
    size_t len = strlen(ractor_name) + strlen(tn) + 2;
    char *s = malloc(len);
    if (s) snprintf(s, len, "%s/%s", ractor_name, tn);
    free(tn);
    return s;
}

int core_thread_count(const struct scenario *scn)
{
    return scn->total_threads + scn->ngenerators;
}

/* What every instance starts with; GV_OK or GV_ENOMEM (its frames). */
static int thread_init(struct core_thread *th, int id, struct core_ractor *r, const struct scn_prog *prog,
                       sim_time warmup)
{
    th->id = id;
    th->ractor = r;
    th->parked_queue = th->parked_mutex = th->parked_cv = -1;
    th->gen = -1;
    r->nthreads++;
    return core_cursor_init(&th->cur, prog, warmup);
}

int core_expand(const struct scenario *scn, struct core_ractor *(*ractor_at)(void *ctx, int i),
                struct core_thread *(*thread_at)(void *ctx, int i), void *ctx)
{
    int nractors = 0;
    for (int sr = 0; sr < scn->nractors; sr++) nractors += scn->ractors[sr].count;
    bool multi = nractors > 1;
    int ri = 0, ti = 0, tmpl0 = 0;
    uint64_t stream = 0;  /* the next self-starting instance's */
    for (int sr = 0; sr < scn->nractors; sr++) {
        const struct scn_ractor *srac = &scn->ractors[sr];
        for (int rc = 0; rc < srac->count; rc++, ri++) {
            struct core_ractor *r = ractor_at(ctx, ri);
            r->id = ri;
            r->name = core_instance_name(srac->name ? srac->name : "r", rc, srac->count);
            if (!r->name) return GV_ENOMEM;
            for (int st = 0; st < srac->nthreads; st++) {
                const struct scn_thread *sth = &srac->threads[st];
                int tmpl = tmpl0 + st;
                for (int tc = 0; tc < sth->count; tc++, ti++) {
                    struct core_thread *th = thread_at(ctx, ti);
                    if (thread_init(th, ti, r, &sth->prog, scn->warmup) != GV_OK) return GV_ENOMEM;
                    th->name = core_thread_name(r->name, sth->name ? sth->name : "t", tc, sth->count, multi);
                    if (!th->name) return GV_ENOMEM;
                    th->instance = rc * sth->count + tc;
                    th->ninstances = srac->count * sth->count;
                    th->tmpl = tmpl;
                    th->start_at = sth->spawned ? -1 : sth->start;
                    rng_seed(&th->rng, scn->seed,
                             sth->spawned ? CORE_STREAM_SPAWNED | (uint64_t)tmpl << 24 | (uint64_t)th->instance
                                          : stream++);
                }
            }
        }
        tmpl0 += srac->nthreads;
    }
    for (int g = 0; g < scn->ngenerators; g++, ti++) {
        const struct scn_generator *gen = &scn->generators[g];
        struct core_thread *th = thread_at(ctx, ti);
        if (thread_init(th, ti, ractor_at(ctx, 0), &gen->prog, scn->warmup) != GV_OK) return GV_ENOMEM;
        th->name = core_thread_name(th->ractor->name, gen->name, 0, 1, multi);
        if (!th->name) return GV_ENOMEM;
        th->ninstances = 1;
        th->tmpl = -1;
        th->gen = g;
        th->arrival = gen->start;
        rng_seed(&th->rng, scn->seed, CORE_STREAM_GENERATOR | (uint64_t)g);
    }
    return GV_OK;
}

void core_ractor_free(struct core_ractor *r)
{
    free(r->name);
    r->name = NULL;
}

void core_thread_free(struct core_thread *th)
{
    free(th->name);
    th->name = NULL;
    core_cursor_free(&th->cur);
}
