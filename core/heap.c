/* heap.c - the heap's slots and the GC's triggers (heap.h). */
#include "heap.h"

#include <math.h>

void core_heap_init(struct core_heap *h, uint64_t init_slots, double growth)
{
    *h = (struct core_heap){ 0 };
    h->slots = h->free = init_slots;
    h->growth = growth;
}

/* gc_marks_finish and heap growth: after marking, every slot but the old
 * objects' is garbage; grow when too few would be free. */
static void after_mark(struct core_heap *h)
{
    h->unswept = h->slots - h->old;
    h->free = 0;
    if ((double)h->unswept < 0.20 * (double)h->slots || h->unswept == 0) {
        double add = (double)h->slots * (h->growth - 1.0);
        uint64_t n = add > (double)CORE_HEAP_PAGE_SLOTS ? (uint64_t)add : CORE_HEAP_PAGE_SLOTS;
        h->slots += n;
        h->free += n;
    }
}

struct core_gc_step core_heap_alloc(struct core_heap *h, uint64_t *left, double survive)
{
    struct core_gc_step st = { CORE_GC_NONE, 0, 0 };
    uint64_t take = *left < h->free ? *left : h->free;
    h->free -= take;
    *left -= take;
    h->young_live += (double)take * survive;
    if (*left == 0) return st;
    if (h->unswept > 0) {  /* gc_sweep_step */
        uint64_t n = h->unswept < CORE_SWEEP_STEP ? h->unswept : CORE_SWEEP_STEP;
        h->unswept -= n;
        h->free += n;
        h->sweeps++;
        st.kind = CORE_GC_SWEEP;
        st.swept = n;
        return st;
    }
    /* gc_start: a minor GC marks the young survivors (promoted old); a
     * major one every live object */
    uint64_t young = (uint64_t)llround(h->young_live);
    h->young_live = 0;
    if (young > h->slots - h->old) young = h->slots - h->old;  /* survivors fill at most the heap */
    h->old += young;
    if (h->need_major) {
        st.kind = CORE_GC_MAJOR;
        st.marked = h->old;
        h->major++;
        h->need_major = false;
        h->old_limit = 2 * h->old;  /* GC_HEAP_OLDOBJECT_LIMIT_FACTOR */
    } else {
        st.kind = CORE_GC_MINOR;
        st.marked = young;
        h->minor++;
        if (h->old > h->old_limit) h->need_major = true;
    }
    after_mark(h);
    return st;
}

struct core_gc_step core_heap_take_page(struct core_heap *h, uint64_t *got)
{
    *got = 0;
    if (h->free == 0) {
        uint64_t one = 1;  /* what a page-less allocation needs first */
        return core_heap_alloc(h, &one, 0.0);
    }
    uint64_t page = CORE_HEAP_PAGE_SLOTS;
    if (h->slots > 0 && h->old < h->slots)
        page = (uint64_t)llround((double)CORE_HEAP_PAGE_SLOTS * (double)(h->slots - h->old) / (double)h->slots);
    if (page == 0) page = 1;
    if (page > h->free) page = h->free;
    h->free -= page;
    *got = page;
    return (struct core_gc_step){ CORE_GC_NONE, 0, 0 };
}

bool core_gc_step_barrier(const struct core_gc_step *s, bool pre33)
{
    if (s->kind == CORE_GC_SWEEP) return !pre33;
    return s->kind != CORE_GC_NONE;
}
