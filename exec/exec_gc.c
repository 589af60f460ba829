/* exec_gc.c - the alloc and gc ops on real threads: the heap's decisions
 * (core/heap.h) under vm->gc.lock, the GC's work a busy loop of the
 * profile's cost run holding the GVL, with no safe point inside; in a
 * multi-Ractor process each Ractor allocates from its newobj cache and
 * takes a page under the VM lock, sweeping or collecting inside it, with a
 * barrier at every GC start (and on 3.3+ every lazy-sweep step), as
 * models/gc.c does.  The gc op is a GC start of a given length. */
#include "exec_gc.h"

#include <stdatomic.h>
#include <time.h>

#include "../core/policy.h"
#include "exec_vmlock.h"
#include "exec_work.h"

/* gc_enter_clock / gc_exit_clock (Ruby 3.1+, GC.measure_total_time on by
 * default): the process's CPU clock, read as a step starts (before its
 * barrier) and as it ends - what GC.stat(:time) sums (the run's
 * gc_clock_s), and the kernel's update_curr, where a thread past its slice
 * is switched out (models/gc.c) */
static long long gc_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* What a step costs: a GC start marks every living thread's stacks too
 * (core/heap.h core_gc_step_cost; models/gc.c living_threads). */
static sim_time step_cost(struct exec_vm *vm, struct core_gc_step *st)
{
    if (st->kind != CORE_GC_SWEEP) {
        st->threads = (uint64_t)atomic_load_explicit(&vm->living, memory_order_relaxed);
        core_gc_gap(&vm->gc.heap, st, exec_run_ps(vm));
    }
    return core_gc_step_cost(&vm->scn->machine, st);
}

/* The GC's work: d picoseconds of the calibrated loop, uninterrupted; its
 * clock window opened at `from` (gc_clock). */
static void gc_work(struct exec_thread *th, sim_time d, long long from)
{
    uint64_t iters = (uint64_t)((double)d / th->vm->calib.ps_per_iter);
    exec_state_set(th, TS_GC);
    uint64_t x = exec_spin(iters, (uint64_t)th->core.id + 1);
    exec_consume(x);
    atomic_fetch_add_explicit(&th->vm->gc.clock_ns, gc_clock() - from, memory_order_relaxed);
    exec_state_set(th, TS_RUNNING);
}

/* gc_sweep_start: every Ractor's cache is emptied (the others are
 * stopped by the barrier, so their caches are not in use) */
static void caches_clear(struct exec_vm *vm)
{
    for (int i = 0; i < vm->nractors; i++)
        atomic_store_explicit(&vm->ractors[i].newobj_cache, 0, memory_order_relaxed);
}

/* newobj_slowpath, VM lock held: take a page, sweeping or collecting
 * first (heap_prepare; gc_enter nests in the lock) */
static void refill(struct exec_thread *th)
{
    struct exec_vm *vm = th->vm;
    struct exec_gc *gc = &vm->gc;
    for (;;) {
        uint64_t got;
        pthread_mutex_lock(&gc->lock);
        /* every Ractor's bodies so far, before a GC start can come */
        for (int i = 0; i < vm->nractors; i++)
            core_heap_bodies(&gc->heap, atomic_exchange_explicit(&vm->ractors[i].bodies_pending, 0, memory_order_relaxed));
        struct core_gc_step st = core_heap_take_page(&gc->heap, &got);
        pthread_mutex_unlock(&gc->lock);
        if (st.kind == CORE_GC_NONE) {
            atomic_fetch_add_explicit(&exec_ractor_of(th)->newobj_cache, got, memory_order_relaxed);
            return;
        }
        unsigned lev = exec_vmlock_enter(th);  /* gc_enter: the lock, the clock, the barrier */
        long long from = gc_clock();
        if (core_gc_step_barrier(&st, vm->policy->barging)) exec_vm_barrier(th);
        if (st.kind != CORE_GC_SWEEP) caches_clear(vm);
        gc_work(th, step_cost(vm, &st), from);
        exec_vmlock_leave(th, lev);
    }
}

/* A multi-Ractor allocation: the Ractor's cache without a lock
 * (ractor_cached_free_region), a page under the VM lock when it is empty */
static void alloc_cached(struct exec_thread *th, uint64_t left, double survive)
{
    struct exec_gc *gc = &th->vm->gc;
    struct exec_ractor *r = exec_ractor_of(th);
    for (;;) {
        uint64_t c = atomic_load_explicit(&r->newobj_cache, memory_order_relaxed);
        uint64_t n = c < left ? c : left;
        atomic_store_explicit(&r->newobj_cache, c - n, memory_order_relaxed);
        left -= n;
        if (n > 0 && survive > 0) {
            pthread_mutex_lock(&gc->lock);
            core_heap_allocated(&gc->heap, n, survive);
            pthread_mutex_unlock(&gc->lock);
        }
        if (left == 0) return;
        unsigned lev = exec_vmlock_enter(th);
        refill(th);
        exec_vmlock_leave(th, lev);
    }
}

/* The accesses to rb_objspace's shared lines (models/gc.c objspace_access),
 * made for real in the order core/heap.c lists them, on two lines that the
 * Ractors' cores contend for: loads, and the increments as atomic adds. */
static void objspace_access(struct exec_objspace_line *line, uint64_t objects, bool malloced)
{
    int n;
    const struct core_objspace_access *a = malloced ? core_objspace_escape(&n) : core_objspace_object(&n);
    uint64_t seen = 0;
    for (uint64_t k = 0; k < (malloced ? 1 : objects); k++) {
        for (int i = 0; i < n; i++) {
            _Atomic uint64_t *v = &line[a[i].line].value;
            if (a[i].write) atomic_fetch_add_explicit(v, 1, memory_order_relaxed);
            else seen += atomic_load_explicit(v, memory_order_relaxed);
        }
    }
    exec_consume(seen);
}

void exec_alloc_objects(struct exec_thread *th, uint64_t objects, double survive, bool malloced)
{
    struct exec_vm *vm = th->vm;
    struct exec_gc *gc = &vm->gc;
    uint64_t left = objects;
    if (vm->multi_ractor) {
        if (vm->scn->runtime.alloc_counters == ALLOC_COUNTERS_SHARED)
            objspace_access(vm->objspace_line, objects, malloced);
        /* their bodies, for the sweep's frees: counted into the heap at the
         * next page taken (refill), without a shared lock per allocation */
        if (malloced) atomic_fetch_add_explicit(&exec_ractor_of(th)->bodies_pending, objects, memory_order_relaxed);
        alloc_cached(th, left, survive);
        return;
    }
    bool counted = !malloced;
    for (;;) {
        pthread_mutex_lock(&gc->lock);
        if (!counted) {  /* their bodies, for the sweep's frees (core/heap.h) */
            core_heap_bodies(&gc->heap, objects);
            counted = true;
        }
        if (gc->heap.free >= left) {  /* the freelist: no VM lock */
            core_heap_alloc(&gc->heap, &left, survive);
            pthread_mutex_unlock(&gc->lock);
            return;
        }
        pthread_mutex_unlock(&gc->lock);
        /* one Ractor: gc_enter's VM lock and barrier are no-ops */
        pthread_mutex_lock(&gc->lock);
        struct core_gc_step st = core_heap_alloc(&gc->heap, &left, survive);
        pthread_mutex_unlock(&gc->lock);
        if (st.kind == CORE_GC_NONE) return;
        gc_work(th, step_cost(vm, &st), gc_clock());
    }
}

void exec_alloc(struct exec_thread *th, const struct scn_op *op)
{
    exec_alloc_objects(th, op->u.alloc.objects, op->u.alloc.survive, false);
}

sim_time exec_alloc_work(const struct exec_thread *th, const struct scn_op *op)
{
    return (sim_time)op->u.alloc.objects * th->vm->scn->machine.alloc_object;
}

void exec_gc_op(struct exec_thread *th, sim_time d)
{
    struct exec_vm *vm = th->vm;
    pthread_mutex_lock(&vm->gc.lock);
    core_heap_count_gc(&vm->gc.heap);
    pthread_mutex_unlock(&vm->gc.lock);
    unsigned lev = vm->multi_ractor ? exec_vmlock_enter(th) : 0;  /* gc_enter */
    long long from = gc_clock();
    if (vm->multi_ractor) exec_vm_barrier(th);
    caches_clear(vm);
    gc_work(th, d, from);
    if (vm->multi_ractor) exec_vmlock_leave(th, lev);
}
