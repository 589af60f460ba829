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

int core_thread_count(const struct scenario *scn)
{
    return scn->total_threads + scn->ngenerators;
}

/* The frames a thread of `prog` gets. */
static int frames_of(const struct scn_prog *prog)
{
    int n = core_prog_depth(prog);
    return n > CORE_MAX_FRAMES ? CORE_MAX_FRAMES : n;
}

/* What every instance starts with, its frames at *frames (moved past). */
static void thread_init(struct core_thread *th, int id, struct core_ractor *r, const struct scn_prog *prog,
                        sim_time warmup, struct core_frame **frames)
{
    th->id = id;
    th->ractor = r;
    th->parked_queue = th->parked_mutex = th->parked_cv = -1;
    th->gen = -1;
    r->nthreads++;
    int n = frames_of(prog);
    core_cursor_place(&th->cur, prog, warmup, *frames, n);
    *frames += n;
}

/* Where the next frames and names of a Ractor's block go. */
struct block_pos {
    struct core_frame *frames;
    char *names;
};

/* Ractor instance rc of template srac: its frames and its names (its own,
 * its threads', and, the first Ractor, the generators' threads', which
 * run in it).  ractor_size counts them; ractor_place lays them out at
 * `at`, frames first, and names the Ractor. */
struct ractor_size {
    size_t nframes, names;
};

static size_t ractor_bytes(struct ractor_size z)
{
    size_t n = z.nframes * sizeof(struct core_frame) + z.names;
    return (n + 15) & ~(size_t)15;  /* the next Ractor's frames stay aligned */
}

static struct ractor_size ractor_size(const struct scenario *scn, const struct scn_ractor *srac, int rc, bool multi,
                                      bool with_generators)
{
    const char *rbase = srac->name ? srac->name : "r";
    size_t rlen = name_len(NULL, rbase, rc, srac->count > 1), prefix = multi ? rlen + 1 : 0;
    struct ractor_size z = { 0, rlen + 1 };
    for (int st = 0; st < srac->nthreads; st++) {
        const struct scn_thread *sth = &srac->threads[st];
        z.nframes += (size_t)frames_of(&sth->prog) * (size_t)sth->count;
        /* each: "rname/" + base + "#" + the digits of the largest index */
        z.names += (prefix + strlen(sth->name ? sth->name : "t") + (sth->count > 1 ? 1 + ndigits(sth->count - 1) : 0) + 1) *
                   (size_t)sth->count;
    }
    for (int g = 0; with_generators && g < scn->ngenerators; g++) {
        z.nframes += (size_t)frames_of(&scn->generators[g].prog);
        z.names += prefix + strlen(scn->generators[g].name) + 1;
    }
    return z;
}

static void ractor_place(const struct scn_ractor *srac, int rc, struct ractor_size z, char *at,
                         struct core_ractor *r, struct block_pos *pos)
{
    pos->frames = (struct core_frame *)(void *)at;
    r->name = at + z.nframes * sizeof(struct core_frame);
    pos->names = name_put(r->name, NULL, srac->name ? srac->name : "r", rc, srac->count > 1);
}

int core_expand(const struct scenario *scn, struct core_ractor *(*ractor_at)(void *ctx, int i),
                struct core_thread *(*thread_at)(void *ctx, int i), void *ctx)
{
    int nractors = 0;
    for (int sr = 0; sr < scn->nractors; sr++) nractors += scn->ractors[sr].count;
    bool multi = nractors > 1;
    int ri = 0, ti = 0, tmpl0 = 0;
    /* every Ractor's frames and names in one block, held by the first
     * Ractor (64 Ractors of 1,563 threads: 11 MB on huge pages, where 64
     * blocks of their own took 4 KiB pages) */
    size_t total = 0;
    for (int sr = 0; sr < scn->nractors; sr++)
        for (int rc = 0; rc < scn->ractors[sr].count; rc++, ri++)
            total += ractor_bytes(ractor_size(scn, &scn->ractors[sr], rc, multi, ri == 0));
    if (nractors == 0) return GV_OK;
    char *block = bigmem_calloc(1, total);
    if (!block) return GV_ENOMEM;
    ractor_at(ctx, 0)->block = block;
    ri = 0;
    uint64_t stream = 0;  /* the next self-starting instance's */
    struct block_pos gpos = { NULL, NULL };  /* the generators' room in the first Ractor's part */
    for (int sr = 0; sr < scn->nractors; sr++) {
        const struct scn_ractor *srac = &scn->ractors[sr];
        for (int rc = 0; rc < srac->count; rc++, ri++) {
            struct core_ractor *r = ractor_at(ctx, ri);
            r->id = ri;
            struct block_pos pos;
            struct ractor_size z = ractor_size(scn, srac, rc, multi, ri == 0);
            ractor_place(srac, rc, z, block, r, &pos);
            block += ractor_bytes(z);
            for (int st = 0; st < srac->nthreads; st++) {
                const struct scn_thread *sth = &srac->threads[st];
                int tmpl = tmpl0 + st;
                for (int tc = 0; tc < sth->count; tc++, ti++) {
                    struct core_thread *th = thread_at(ctx, ti);
                    thread_init(th, ti, r, &sth->prog, scn->warmup, &pos.frames);
                    th->name = pos.names;
                    pos.names = name_put(pos.names, multi ? r->name : NULL, sth->name ? sth->name : "t", tc,
                                         sth->count > 1);
                    th->instance = rc * sth->count + tc;
                    th->ninstances = srac->count * sth->count;
                    th->tmpl = tmpl;
                    th->start_at = sth->spawned ? -1 : sth->start;
                    rng_seed(&th->rng, scn->seed,
                             sth->spawned ? CORE_STREAM_SPAWNED | (uint64_t)tmpl << 24 | (uint64_t)th->instance
                                          : stream++);
                }
            }
            if (ri == 0) gpos = pos;
        }
        tmpl0 += srac->nthreads;
    }
    for (int g = 0; g < scn->ngenerators; g++, ti++) {
        const struct scn_generator *gen = &scn->generators[g];
        struct core_thread *th = thread_at(ctx, ti);
        struct core_ractor *r0 = ractor_at(ctx, 0);
        thread_init(th, ti, r0, &gen->prog, scn->warmup, &gpos.frames);
        th->name = gpos.names;
        gpos.names = name_put(gpos.names, multi ? r0->name : NULL, gen->name, 0, false);
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
    bigmem_free(r->block);
    r->block = NULL;
    r->name = NULL;
}
