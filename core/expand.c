/* expand.c - templates to instances (expand.h). */
#include "expand.h"

#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "cursor.h"

/* "prefix/" + base + "#idx" (each part optional) in one allocation.
 * Hand-formatted: a run of 100k threads names them all at start-up, and
 * snprintf made that a quarter of such a run's instructions. */
static char *make_name(const char *prefix, const char *base, int idx, bool numbered)
{
    size_t plen = prefix ? strlen(prefix) + 1 : 0, blen = strlen(base);
    char digits[12];
    size_t nd = 0;
    if (numbered) {
        unsigned v = (unsigned)idx;
        do digits[nd++] = (char)('0' + v % 10); while ((v /= 10) != 0);
    }
    char *s = malloc(plen + blen + (numbered ? nd + 1 : 0) + 1), *p = s;
    if (!s) return NULL;
    if (prefix) {
        memcpy(p, prefix, plen - 1);
        p += plen - 1;
        *p++ = '/';
    }
    memcpy(p, base, blen);
    p += blen;
    if (numbered) {
        *p++ = '#';
        while (nd > 0) *p++ = digits[--nd];
    }
    *p = '\0';
    return s;
}

char *core_instance_name(const char *base, int idx, int count)
{
    return make_name(NULL, base, idx, count > 1);
}

char *core_thread_name(const char *ractor_name, const char *base, int idx, int count,
                       bool multi_ractor)
{
    return make_name(multi_ractor ? ractor_name : NULL, base, idx, count > 1);
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
