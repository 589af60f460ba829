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

int core_expand(const struct scenario *scn, struct core_ractor *(*ractor_at)(void *ctx, int i),
                struct core_thread *(*thread_at)(void *ctx, int i), void *ctx)
{
    int nractors = 0;
    for (int sr = 0; sr < scn->nractors; sr++) nractors += scn->ractors[sr].count;
    bool multi = nractors > 1;
    int ri = 0, ti = 0;
    for (int sr = 0; sr < scn->nractors; sr++) {
        const struct scn_ractor *srac = &scn->ractors[sr];
        for (int rc = 0; rc < srac->count; rc++, ri++) {
            struct core_ractor *r = ractor_at(ctx, ri);
            r->id = ri;
            r->name = core_instance_name(srac->name ? srac->name : "r", rc, srac->count);
            if (!r->name) return GV_ENOMEM;
            for (int st = 0; st < srac->nthreads; st++) {
                const struct scn_thread *sth = &srac->threads[st];
                for (int tc = 0; tc < sth->count; tc++, ti++) {
                    struct core_thread *th = thread_at(ctx, ti);
                    th->id = ti;
                    th->ractor = r;
                    th->name = core_thread_name(r->name, sth->name ? sth->name : "t", tc, sth->count, multi);
                    if (!th->name) return GV_ENOMEM;
                    th->instance = rc * sth->count + tc;
                    th->ninstances = srac->count * sth->count;
                    rng_seed(&th->rng, scn->seed, (uint64_t)ti);
                    if (core_cursor_init(&th->cur, &sth->prog) != GV_OK) return GV_ENOMEM;
                    th->parked_queue = -1;
                    r->nthreads++;
                }
            }
        }
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
