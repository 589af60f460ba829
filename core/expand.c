/* expand.c - templates to instances (expand.h). */
#include "expand.h"

#include <stdlib.h>
#include <string.h>

#include "../common/bigmem.h"
#include "../common/err.h"
#include "cursor.h"

/* A name: "prefix/" + base + "#idx", each part optional.  name_len gives
 * its length (without the NUL), name_put writes it at dst and returns the
 * byte after its NUL.  Hand-formatted: a run of 100k threads names them
 * all at start-up, and snprintf made that a quarter of such a run's
 * instructions. */
static size_t ndigits(int idx)
{
    size_t n = 1;
    for (unsigned v = (unsigned)idx; v >= 10; v /= 10) n++;
    return n;
}

static size_t name_len(const char *prefix, const char *base, int idx, bool numbered)
{
    return (prefix ? strlen(prefix) + 1 : 0) + strlen(base) + (numbered ? 1 + ndigits(idx) : 0);
}

static char *name_put(char *dst, const char *prefix, const char *base, int idx, bool numbered)
{
    if (prefix) {
        size_t n = strlen(prefix);
        memcpy(dst, prefix, n);
        dst += n;
        *dst++ = '/';
    }
    size_t n = strlen(base);
    memcpy(dst, base, n);
    dst += n;
    if (numbered) {
        *dst++ = '#';
        size_t nd = ndigits(idx);
        unsigned v = (unsigned)idx;
        for (size_t i = nd; i > 0; i--, v /= 10) dst[i - 1] = (char)('0' + v % 10);
        dst += nd;
    }
    *dst++ = '\0';
    return dst;
}

static char *name_new(const char *prefix, const char *base, int idx, bool numbered)
{
    char *s = malloc(name_len(prefix, base, idx, numbered) + 1);
    if (s) name_put(s, prefix, base, idx, numbered);
    return s;
}

char *core_instance_name(const char *base, int idx, int count)
{
    return name_new(NULL, base, idx, count > 1);
}

char *core_thread_name(const char *ractor_name, const char *base, int idx, int count,
                       bool multi_ractor)
{
    return name_new(multi_ractor ? ractor_name : NULL, base, idx, count > 1);
}

/* One Ractor instance (template srac, instance rc) and its threads, from
 * thread index ti on: one block holds the threads' frame stacks, then the
 * Ractor's name and the threads' names. */
static int expand_ractor(const struct scenario *scn, const struct scn_ractor *srac, int rc,
                         struct core_ractor *r, int ti, bool multi,
                         struct core_thread *(*thread_at)(void *ctx, int i), void *ctx)
{
    const char *rbase = srac->name ? srac->name : "r";
    bool rnum = srac->count > 1;
    size_t rlen = name_len(NULL, rbase, rc, rnum);
    size_t nframes = 0, names = rlen + 1;
    for (int st = 0; st < srac->nthreads; st++) {
        const struct scn_thread *sth = &srac->threads[st];
        int depth = core_prog_depth(&sth->prog);
        if (depth > CORE_MAX_FRAMES) depth = CORE_MAX_FRAMES;
        nframes += (size_t)depth * (size_t)sth->count;
        /* "rname/" + base + "#" + digits of the largest index, for each */
        size_t each = (multi ? rlen + 1 : 0) + strlen(sth->name ? sth->name : "t") +
                      (sth->count > 1 ? 1 + ndigits(sth->count - 1) : 0) + 1;
        names += each * (size_t)sth->count;
    }
    char *block = bigmem_calloc(1, nframes * sizeof(struct core_frame) + names);
    if (!block) return GV_ENOMEM;
    r->block = block;
    struct core_frame *frames = (struct core_frame *)(void *)block;
    char *np = block + nframes * sizeof(struct core_frame);
    r->name = np;
    np = name_put(np, NULL, rbase, rc, rnum);
    for (int st = 0; st < srac->nthreads; st++) {
        const struct scn_thread *sth = &srac->threads[st];
        int depth = core_prog_depth(&sth->prog);
        if (depth > CORE_MAX_FRAMES) depth = CORE_MAX_FRAMES;
        for (int tc = 0; tc < sth->count; tc++, ti++) {
            struct core_thread *th = thread_at(ctx, ti);
            th->id = ti;
            th->ractor = r;
            th->name = np;
            np = name_put(np, multi ? r->name : NULL, sth->name ? sth->name : "t", tc, sth->count > 1);
            th->instance = rc * sth->count + tc;
            th->ninstances = srac->count * sth->count;
            rng_seed(&th->rng, scn->seed, (uint64_t)ti);
            core_cursor_place(&th->cur, &sth->prog, frames, depth);
            frames += depth;
            th->parked_queue = -1;
            r->nthreads++;
        }
    }
    return GV_OK;
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
            int rc2 = expand_ractor(scn, srac, rc, r, ti, multi, thread_at, ctx);
            if (rc2 != GV_OK) return rc2;
            ti += r->nthreads;
        }
    }
    return GV_OK;
}

void core_ractor_free(struct core_ractor *r)
{
    free(r->block);
    r->block = NULL;
    r->name = NULL;
}
