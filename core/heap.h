/* heap.h - the object heap and when the garbage collector runs (gc.c),
 * for the alloc op.  One heap per VM, as CRuby's objspace (Ractors only
 * have their own allocation caches).
 *
 * Slots are taken from the free slots; when none is left, the allocating
 * thread first sweeps more (lazy sweep: gc_sweep_step, CORE_SWEEP_STEP
 * slots at a time) and, with nothing left to sweep, starts a GC
 * (heap_prepare -> gc_start): a minor GC marks the young objects that
 * survive (an alloc op's `survive` fraction of its objects), which become
 * old; a major one marks every live object.  A minor GC after which the
 * old objects exceed old_limit makes the next GC major
 * (GC_HEAP_OLDOBJECT_LIMIT_FACTOR = 2 times the old objects after the last
 * major).  After marking, every slot but the old objects' is garbage to
 * sweep; when too few would be free (20% of the slots, or 4096 per
 * Ractor), the heap grows toward 40% free, by at most the growth factor
 * (RUBY_GC_HEAP_GROWTH_FACTOR, 1.8), after a major GC (heap.c after_mark:
 * gc_marks_finish of v3_1_2), and the new slots are free at once.
 * What a step costs, and whether it takes the VM lock and a barrier, is
 * the backend's (models/gc.c, exec/exec_gc.c).
 */
#ifndef CORE_HEAP_H
#define CORE_HEAP_H

#include <stdbool.h>
#include <stdint.h>

#include "../input/scenario.h"

/* Slots one lazy-sweep step frees before it returns (gc.c
 * GC_INCREMENTAL_SWEEP_SLOT_COUNT). */
#define CORE_SWEEP_STEP 2048
/* The fewest slots the heap grows by (one heap page on a 64-bit build). */
#define CORE_HEAP_PAGE_SLOTS 409
/* Objects an env_escape op allocates: the environment (vm.c
 * vm_make_env_each -> vm_env_new, an imemo) and the Proc (proc.c
 * rb_proc_alloc); nothing keeps them (a discarded lambda). */
#define CORE_ESCAPE_OBJECTS 2
/* rb_objspace's cache lines an allocation touches (models/gc.c
 * objspace_access): the line that starts the struct (malloc_params, the
 * flags, total_allocated_objects), which every object's newobj_of0 and
 * newobj_init access, and the one holding rgengc.oldmalloc_increase,
 * which a malloc'd body's objspace_malloc_increase adds to as well. */
enum { CORE_OBJSPACE_HEAD, CORE_OBJSPACE_OLDMALLOC, CORE_OBJSPACE_LINES };

/* One access an allocation makes to one of those lines, in program order
 * (heap.c cites the gc.c site of each).  A load counts as much as a store:
 * on this repository's guest a load of a line another CPU wrote last costs
 * the transfer and the locked add after it nothing more
 * (scripts/line_load_then_add.c, docs/validate.md). */
struct core_objspace_access {
    unsigned char line;   /* CORE_OBJSPACE_HEAD or CORE_OBJSPACE_OLDMALLOC */
    bool write;           /* a store or a locked read-modify-write */
    const char *site;     /* the gc.c/vm.c code, for traces and docs */
};

/* The accesses of an object without a malloc'd body (the alloc op's
 * objects), and of an env_escape (the environment, then the Proc), in
 * the order Ruby 3.1 makes them; n set to the count. */
const struct core_objspace_access *core_objspace_object(int *n);
const struct core_objspace_access *core_objspace_escape(int *n);
/* The lines of such a sequence, each once, in the order of its first
 * access, into lines; returns how many.  What a model that makes the
 * sequence's accesses at one instant needs: the core that makes the first
 * access to a line holds it for the rest (models/gc.c objspace_access). */
int core_objspace_lines(const struct core_objspace_access *a, int n, unsigned char lines[CORE_OBJSPACE_LINES]);

struct core_heap {
    uint64_t slots;        /* heap_available_slots */
    uint64_t free;         /* slots allocatable now */
    uint64_t unswept;      /* garbage slots a lazy sweep has still to visit */
    uint64_t old;          /* live (old) objects */
    double young_live;     /* survivors among the objects allocated since the last GC */
    uint64_t old_limit;    /* the next minor GC that ends above it makes the next GC major */
    bool need_major;
    double growth;         /* RUBY_GC_HEAP_GROWTH_FACTOR */
    int ractors;           /* the process's Ractors (gc_marks_finish's r_mul) */
    uint64_t minor, major, sweeps;
    uint64_t last_major;   /* GCs counted at the last major one */
    /* malloc'd bodies (an environment's, a Proc's: an env_escape's objects,
     * none of which survives): allocated since the last GC start, those
     * that start left to the sweep, how many of them the sweep has freed,
     * and the slots it had to visit then */
    uint64_t bodies, bodies_garbage, bodies_freed, sweep_total;
    /* the last GC start, on the backend's clock (core_gc_gap; written by
     * the thread starting a GC, which the GVL or the VM lock serialises) */
    sim_time last_start;
};

enum core_gc_kind { CORE_GC_NONE, CORE_GC_MINOR, CORE_GC_MAJOR, CORE_GC_SWEEP };

struct core_gc_step {
    enum core_gc_kind kind;
    uint64_t marked;       /* minor, major: objects marked */
    uint64_t swept;        /* sweep: slots swept */
    uint64_t bodies;       /* sweep: malloc'd bodies freed (obj_free) */
    uint64_t pages;        /* minor, major: the heap's pages (each visited: rgengc_rememberset_mark) */
    uint64_t threads;      /* minor, major: the living threads whose stacks it marks (the backend's count) */
    sim_time gap;          /* minor, major: since the GC start before (the backend's clock; the first: since the
                            * run's start) */
};

void core_heap_init(struct core_heap *h, uint64_t init_slots, double growth, int ractors);

/* n objects with a malloc'd body allocated (counted before they are
 * allocated: a GC start their allocation triggers sweeps them).  The
 * sweep frees a dead object's body (gc.c obj_free: an environment's
 * xfree(env->env), a Proc's RUBY_TYPED_DEFAULT_FREE, each through
 * objspace_xfree); each sweep step frees the share of the bodies the last
 * GC start left that its slots are of the slots to sweep. */
static inline void core_heap_bodies(struct core_heap *h, uint64_t n) { h->bodies += n; }

/* What a step costs on machine m: a GC start gc_mark_base,
 * gc_mark_per_page per page of the heap, gc_mark_per_thread per living
 * thread (st->threads, which the backend sets: the roots hold every
 * thread's VM stack and, conservatively, its machine stack - gc.c
 * rb_vm_mark -> rb_thread_mark -> rb_execution_context_mark) and
 * gc_mark_per_object per object marked, plus gc_cold at st->gap (a
 * collection after a longer gap reads colder memory); a
 * lazy-sweep step
 * gc_sweep_per_slot per slot and gc_free_body per body it frees (both
 * backends; models/gc.c adds the remote frees). */
sim_time core_gc_step_cost(const struct scn_machine *m, const struct core_gc_step *st);

/* A GC start at `now` on the backend's clock: st->gap is the time since
 * the heap's GC start before (since the run's start for the first). */
static inline void core_gc_gap(struct core_heap *h, struct core_gc_step *st, sim_time now)
{
    st->gap = now - h->last_start;
    h->last_start = now;
}

/* The interpreter's own objects, live before the program's first line
 * (the boot heap: the core classes, rubygems and what it loads): `objects`
 * of them allocated into the fresh heap by the same rules as a program's
 * allocations (heap_prepare, gc_marks_finish; the main Ractor alone, so
 * the floor of free slots is one GC_HEAP_FREE_SLOTS), every one live and,
 * once boot is over, old (boot's GCs promoted them: after `ruby -e ''`
 * Debian's Ruby 3.1.2 has 16,700 old objects of 20,035 live, after 9
 * GCs).  They then fill slots of every page for the whole run, so a minor
 * GC frees only the rest: the heap the program sees is larger and a GC
 * comes every (slots - boot objects) allocations.  The GCs boot ran are
 * not counted (GC.count is taken after boot).  0: none. */
void core_heap_boot(struct core_heap *h, uint64_t objects);

/* Allocate up to *left objects, each live at the next GC with
 * probability `survive`: takes what the free slots allow, then returns the
 * GC work to do before the rest can be allocated (applied to the heap
 * already; the caller does it in time, then calls again), or CORE_GC_NONE
 * once *left is 0. */
struct core_gc_step core_heap_alloc(struct core_heap *h, uint64_t *left, double survive);

/* A Ractor's newobj cache takes a page (gc.c newobj_slowpath ->
 * ractor_cache_slots -> heap_next_freepage): the free slots of one heap
 * page, CORE_HEAP_PAGE_SLOTS less its share of the old objects (spread
 * evenly over the pages), at most what is free.  Sets *got and returns
 * CORE_GC_NONE; with no free slot, *got is 0 and the step returned is the
 * work to do first (heap_prepare: a lazy-sweep step or a GC start, applied
 * to the heap already), after which the caller takes again. */
struct core_gc_step core_heap_take_page(struct core_heap *h, uint64_t *got);

/* n objects allocated from a Ractor's cache, each live at the next GC
 * with probability `survive` (the cache's slots left the free count when
 * it took its page). */
static inline void core_heap_allocated(struct core_heap *h, uint64_t n, double survive)
{
    h->young_live += (double)n * survive;
}

/* A collection whose length is given (the gc op: GC.start, or a pause a
 * trace measured): counted with the minor GCs; no slot changes, since what
 * it marked and swept is not known. */
static inline void core_heap_count_gc(struct core_heap *h) { h->minor++; }

/* Does a step take the VM barrier in a multi-Ractor process?  gc_enter:
 * every GC start; lazy-sweep steps only from 3.3 (d7c1ca48bf: the
 * "continue" event takes it too), not in 3.1/3.2 (`pre33`). */
bool core_gc_step_barrier(const struct core_gc_step *s, bool pre33);

#endif
