/* exec_tlog.c - the executor's record of state changes (exec_tlog.h). */
#include "exec_tlog.h"

#include <stdlib.h>
#include <string.h>

#include "../common/err.h"

int exec_tlog_init(struct exec_tlog *l, uint64_t max_entries, int nthreads)
{
    memset(l, 0, sizeof *l);
    atomic_init(&l->next, 0);
    atomic_init(&l->full_at_ns, INT64_MAX);
    uint64_t block = max_entries / (4 * (uint64_t)(nthreads > 0 ? nthreads : 1));
    if (block > EXEC_TLOG_BLOCK) block = EXEC_TLOG_BLOCK;
    if (block < EXEC_TLOG_BLOCK_MIN) block = EXEC_TLOG_BLOCK_MIN;
    uint64_t nblocks = (max_entries + block - 1) / block, nown = nthreads > 0 ? (uint64_t)nthreads : 0;
    if (nblocks < nown) nblocks = nown;  /* every thread's first block its own */
    if (nblocks == 0) nblocks = 1;
    if (nblocks > UINT32_MAX || nblocks > SIZE_MAX / (block * sizeof *l->mem)) return GV_ENOMEM;
    /* not calloc, whose pages may stay untouched (mmap) until the run
     * writes them: touched now, with the zeroes `used` needs */
    size_t bytes = (size_t)(nblocks * block) * sizeof *l->mem;
    l->mem = malloc(bytes);
    if (!l->mem) return GV_ENOMEM;
    memset(l->mem, 0, bytes);
    l->nblocks = (uint32_t)nblocks;
    l->block = (uint32_t)block;
    l->nown = (uint32_t)nown;
    atomic_store_explicit(&l->next, (unsigned)nown, memory_order_relaxed);
    return GV_OK;
}

void exec_tlog_free(struct exec_tlog *l)
{
    free(l->mem);
    l->mem = NULL;
    l->nblocks = 0;
}

bool exec_tlog_grab(struct exec_tlog *l, struct exec_tlog_cursor *c, uint32_t thread, int64_t t_ns)
{
    /* called with the block used up or, at its first change, none yet */
    unsigned b = !c->at && thread < l->nown ? thread : atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);
    if (b >= l->nblocks) {
        /* the pool is empty: the record ends at the earliest such change */
        long long seen = atomic_load_explicit(&l->full_at_ns, memory_order_relaxed);
        while (t_ns < seen && !atomic_compare_exchange_weak_explicit(&l->full_at_ns, &seen, t_ns,
                                                                      memory_order_relaxed, memory_order_relaxed)) {
        }
        c->at = c->end = NULL;
        c->full = true;  /* no more atomic adds from this thread */
        return false;
    }
    c->at = l->mem + (size_t)b * l->block;
    c->end = c->at + l->block;
    return true;
}

/* An entry and its place in the pool: a thread's blocks are handed out in
 * its order and its entries fill each in turn, so among one thread's
 * entries of one time the place keeps their order (qsort is not stable). */
struct keyed {
    struct exec_tlog_entry e;
    size_t pos;
};

/* Time order; ties by thread, then by place. */
static int keyed_cmp(const void *pa, const void *pb)
{
    const struct keyed *a = pa, *b = pb;
    if (a->e.t_ns != b->e.t_ns) return a->e.t_ns < b->e.t_ns ? -1 : 1;
    if (a->e.thread != b->e.thread) return a->e.thread < b->e.thread ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

int exec_tlog_sorted(const struct exec_tlog *l, struct exec_tlog_entry **out, size_t *n, int64_t *cut_ns,
                     uint64_t *beyond)
{
    *out = NULL;
    *n = 0;
    *cut_ns = atomic_load(&((struct exec_tlog *)l)->full_at_ns);
    *beyond = 0;
    size_t total = (size_t)l->nblocks * l->block, used = 0;
    for (size_t i = 0; i < total; i++) {
        if (!l->mem[i].used) continue;
        if (l->mem[i].t_ns <= *cut_ns) used++;
        else (*beyond)++;
    }
    struct keyed *tmp = malloc((used ? used : 1) * sizeof *tmp);
    struct exec_tlog_entry *e = malloc((used ? used : 1) * sizeof *e);
    if (!tmp || !e) {
        free(tmp);
        free(e);
        return GV_ENOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < total; i++)
        if (l->mem[i].used && l->mem[i].t_ns <= *cut_ns) tmp[k++] = (struct keyed){ l->mem[i], i };
    qsort(tmp, used, sizeof *tmp, keyed_cmp);
    for (size_t i = 0; i < used; i++) e[i] = tmp[i].e;
    free(tmp);
    *out = e;
    *n = used;
    return GV_OK;
}
