/* heap.c - the heap's slots and the GC's triggers (heap.h). */
#include "heap.h"

#include <math.h>

void core_heap_init(struct core_heap *h, uint64_t init_slots, double growth, int ractors)
{
    *h = (struct core_heap){ 0 };
    h->slots = h->free = init_slots;
    h->growth = growth;
    h->ractors = ractors < 1 ? 1 : ractors;
}

/* heap_extend_pages: the pages to add so that the free slots reach the
 * goal ratio (GC_HEAP_FREE_SLOTS_GOAL_RATIO 0.40), by a factor of at most
 * the growth factor and at least 1.1, one page at the least */
static uint64_t extend_slots(const struct core_heap *h, uint64_t sweep)
{
    uint64_t used = (h->slots + CORE_HEAP_PAGE_SLOTS - 1) / CORE_HEAP_PAGE_SLOTS;
    double f = (double)(h->slots - sweep) / ((1.0 - 0.40) * (double)h->slots);
    if (f > h->growth) f = h->growth;
    if (f < 1.0) f = 1.1;
    uint64_t next = (uint64_t)(f * (double)used);
    uint64_t pages = next > used ? next - used : 1;
    return pages * CORE_HEAP_PAGE_SLOTS;
}

/* gc_marks_finish (gc.c of v3_1_2): after marking, every slot but the old
 * objects' is garbage to sweep.  Too few - under GC_HEAP_FREE_SLOTS_MIN_RATIO
 * (20%) of the slots, or under GC_HEAP_FREE_SLOTS (4096) times the number
 * of Ractors up to 8 (`r_mul`, the floor the multi-Ractor GC added) - and
 * the heap grows after a full marking (heap_extend_pages; the new pages
 * are free at once); after a minor one the next GC is made major
 * (GPR_FLAG_MAJOR_BY_NOFREE), unless the last major was fewer than
 * RVALUE_OLD_AGE (3) GCs ago, when it grows at once.  A heap of nothing
 * but old objects grows in any case (CRuby would allocate a page or fail). */
static void after_mark(struct core_heap *h, bool full)
{
    uint64_t sweep = h->slots - h->old;
    h->unswept = sweep;
    h->sweep_total = sweep;
    h->bodies_garbage = h->bodies;
    h->bodies = h->bodies_freed = 0;
    h->free = 0;
    uint64_t r_mul = (uint64_t)(h->ractors > 8 ? 8 : h->ractors);
    double min_free = 0.20 * (double)h->slots;
    if (min_free < (double)(4096 * r_mul)) min_free = (double)(4096 * r_mul);
    if ((double)sweep < min_free && !full) {
        if (h->minor + h->major - h->last_major < 3) full = true;
        else h->need_major = true;
    }
    if (((double)sweep < min_free && full) || sweep == 0) {
        uint64_t n = extend_slots(h, sweep);
        h->slots += n;
        h->free += n;
    }
}

struct core_gc_step core_heap_alloc(struct core_heap *h, uint64_t *left, double survive)
{
    struct core_gc_step st = { .kind = CORE_GC_NONE };
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
        if (h->bodies_garbage > 0) {  /* the bodies in the slots swept so far, less those freed */
            uint64_t done = (uint64_t)((unsigned __int128)h->bodies_garbage * (h->sweep_total - h->unswept) /
                                       h->sweep_total);
            st.bodies = done - h->bodies_freed;
            h->bodies_freed = done;
        }
        return st;
    }
    /* gc_start: a minor GC marks the young survivors (promoted old); a
     * major one every live object */
    uint64_t young = (uint64_t)llround(h->young_live);
    h->young_live = 0;
    if (young > h->slots - h->old) young = h->slots - h->old;  /* survivors fill at most the heap */
    h->old += young;
    bool full = h->need_major;
    /* the pages it visits: a minor GC's rgengc_rememberset_mark walks every
     * page's struct (its flags, and the bitmaps of a page that has
     * remembered objects), a major one's rgengc_mark_and_rememberset_clear
     * clears every page's bitmaps (gc.c gc_marks_start of v3_1_2) */
    st.pages = (h->slots + CORE_HEAP_PAGE_SLOTS - 1) / CORE_HEAP_PAGE_SLOTS;
    if (full) {
        st.kind = CORE_GC_MAJOR;
        st.marked = h->old;
        h->major++;
        h->last_major = h->minor + h->major;
        h->need_major = false;
        h->old_limit = 2 * h->old;  /* GC_HEAP_OLDOBJECT_LIMIT_FACTOR */
    } else {
        st.kind = CORE_GC_MINOR;
        st.marked = young;
        h->minor++;
        if (h->old > h->old_limit) h->need_major = true;
    }
    after_mark(h, full);
    return st;
}

sim_time core_gc_step_cost(const struct scn_machine *m, const struct core_gc_step *st)
{
    if (st->kind == CORE_GC_SWEEP)
        return (sim_time)st->swept * m->gc_sweep_per_slot + (sim_time)st->bodies * m->gc_free_body;
    /* gc_cold: what the collection reads was evicted since the GC before,
     * the longer ago the more (calibrate's ruby_gc_gap_*_ns); charged at
     * the start for the whole collection, whatever the heap's size (a
     * 300-page heap's collection cooled about as much as a 53-page one's) */
    return m->gc_mark_base + gv_curve_at(&m->gc_cold, st->gap) + (sim_time)st->pages * m->gc_mark_per_page +
           (sim_time)st->threads * m->gc_mark_per_thread + (sim_time)st->marked * m->gc_mark_per_object;
}

void core_heap_boot(struct core_heap *h, uint64_t objects)
{
    if (objects == 0) return;
    int ractors = h->ractors;
    h->ractors = 1;
    uint64_t left = objects;
    while (left > 0) core_heap_alloc(h, &left, 1.0);
    h->ractors = ractors;
    h->old += (uint64_t)llround(h->young_live);  /* the survivors of boot's last GCs */
    if (h->old > h->slots) h->old = h->slots;
    h->young_live = 0;
    h->minor = h->major = h->sweeps = h->last_major = 0;
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
    return (struct core_gc_step){ .kind = CORE_GC_NONE };
}

bool core_gc_step_barrier(const struct core_gc_step *s, bool pre33)
{
    if (s->kind == CORE_GC_SWEEP) return !pre33;
    return s->kind != CORE_GC_NONE;
}

/* ---- the accesses to rb_objspace's shared lines -------------------------
 *
 * gc.c of v3_1_2 (struct rb_objspace: malloc_params.limit and .increase,
 * the flags bit-field, hook_events and total_allocated_objects share the
 * struct's first line; rgengc.oldmalloc_increase, at offset 0x238 in
 * Debian's build, another).  The macros: malloc_increase and malloc_limit
 * (objspace->malloc_params), during_gc, ruby_gc_stressful, dont_gc_val()
 * and is_incremental_marking() (objspace->flags), gc_event_hook_available_p
 * (flags.has_hook). */

#define H CORE_OBJSPACE_HEAD
#define O CORE_OBJSPACE_OLDMALLOC

/* newobj_of0: `during_gc || ruby_gc_stressful ||
 * gc_event_hook_available_p(objspace)` before ractor_cached_free_region;
 * newobj_init: `objspace->total_allocated_objects++` (a plain increment) */
#define NEWOBJ                                                        \
    { H, false, "gc.c newobj_of0: during_gc, ruby_gc_stressful, has_hook" }, \
    { H, true, "gc.c newobj_init: total_allocated_objects++" }

/* objspace_xmalloc0 / objspace_xcalloc: TRY_WITH_GC's
 * objspace_malloc_gc_stress (`ruby_gc_stressful`), malloc or calloc, then
 * objspace_malloc_fixup -> objspace_malloc_increase_body: the two
 * ATOMIC_SIZE_ADDs, then `malloc_increase > malloc_limit` */
#define XMALLOC                                                               \
    { H, false, "gc.c objspace_malloc_gc_stress: ruby_gc_stressful" },        \
    { H, true, "gc.c objspace_malloc_increase_body: ATOMIC_SIZE_ADD(malloc_increase)" }, \
    { O, true, "gc.c objspace_malloc_increase_body: ATOMIC_SIZE_ADD(oldmalloc_increase)" }, \
    { H, false, "gc.c objspace_malloc_increase_body: malloc_increase > malloc_limit" }

/* rb_gc_writebarrier: `is_incremental_marking(objspace)` first */
#define WB { H, false, "gc.c rb_gc_writebarrier: is_incremental_marking" }

static const struct core_objspace_access object_accesses[] = { NEWOBJ };

/* vm.c vm_make_env_each: ALLOC_N of the body (ruby_xmalloc2 ->
 * objspace_xmalloc0), then vm_env_new -> rb_imemo_new -> newobj_of.
 * vm.c vm_proc_create_from_captured: rb_proc_alloc -> TypedData_Make_Struct
 * -> rb_data_typed_object_zalloc: rb_data_typed_object_wrap (newobj_of)
 * first, then xcalloc of the rb_proc_t; then two RB_OBJ_WRITEs (code.val,
 * self) and rb_vm_block_ep_update's RB_OBJ_WRITTEN (the env), each a
 * rb_gc_writebarrier as none of the values is a special constant. */
static const struct core_objspace_access escape_accesses[] = {
    XMALLOC, NEWOBJ,          /* the environment */
    NEWOBJ, XMALLOC, WB, WB, WB  /* the Proc */
};

#undef H
#undef O

const struct core_objspace_access *core_objspace_object(int *n)
{
    *n = (int)(sizeof object_accesses / sizeof object_accesses[0]);
    return object_accesses;
}

const struct core_objspace_access *core_objspace_escape(int *n)
{
    *n = (int)(sizeof escape_accesses / sizeof escape_accesses[0]);
    return escape_accesses;
}

int core_objspace_lines(const struct core_objspace_access *a, int n, unsigned char lines[CORE_OBJSPACE_LINES])
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < k && lines[j] != a[i].line) j++;
        if (j == k) lines[k++] = a[i].line;
    }
    return k;
}
