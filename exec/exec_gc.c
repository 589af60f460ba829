/* exec_gc.c - the alloc and gc ops on real threads: the heap's decisions
 * (core/heap.h) under vm->gc.lock, the GC's work a busy loop of the
 * profile's cost run holding the GVL, with no safe point inside; in a
 * multi-Ractor process under the VM lock, with a barrier at every GC start
 * (and on 3.3+ every lazy-sweep step), as models/gc.c does.  The gc op is
 * a GC start of a given length. */
#include "exec_gc.h"

#include "../core/policy.h"
#include "exec_vmlock.h"
#include "exec_work.h"

static sim_time step_cost(const struct scn_machine *m, const struct core_gc_step *st)
{
    if (st->kind == CORE_GC_SWEEP) return (sim_time)st->swept * m->gc_sweep_per_slot;
    return m->gc_mark_base + (sim_time)st->marked * m->gc_mark_per_object;
}

/* The GC's work: d picoseconds of the calibrated loop, uninterrupted. */
static void gc_work(struct exec_thread *th, sim_time d)
{
    uint64_t iters = (uint64_t)((double)d / th->vm->calib.ps_per_iter);
    exec_state_set(th, TS_GC);
    uint64_t x = exec_spin(iters, (uint64_t)th->core.id + 1);
    exec_consume(x);
    exec_state_set(th, TS_RUNNING);
}

void exec_alloc(struct exec_thread *th, const struct scn_op *op)
{
    struct exec_vm *vm = th->vm;
    struct exec_gc *gc = &vm->gc;
    uint64_t left = op->u.alloc.objects;
    double survive = op->u.alloc.survive;
    for (;;) {
        pthread_mutex_lock(&gc->lock);
        if (gc->heap.free >= left) {  /* the freelist: no VM lock */
            core_heap_alloc(&gc->heap, &left, survive);
            pthread_mutex_unlock(&gc->lock);
            return;
        }
        pthread_mutex_unlock(&gc->lock);
        unsigned lev = vm->multi_ractor ? exec_vmlock_enter(th) : 0;  /* gc_enter */
        pthread_mutex_lock(&gc->lock);
        struct core_gc_step st = core_heap_alloc(&gc->heap, &left, survive);
        pthread_mutex_unlock(&gc->lock);
        if (st.kind != CORE_GC_NONE) {
            if (vm->multi_ractor && core_gc_step_barrier(&st, vm->policy->barging)) exec_vm_barrier(th);
            gc_work(th, step_cost(&vm->scn->machine, &st));
        }
        if (vm->multi_ractor) exec_vmlock_leave(th, lev);
        if (st.kind == CORE_GC_NONE) return;
    }
}

void exec_gc_op(struct exec_thread *th, sim_time d)
{
    struct exec_vm *vm = th->vm;
    pthread_mutex_lock(&vm->gc.lock);
    core_heap_count_gc(&vm->gc.heap);
    pthread_mutex_unlock(&vm->gc.lock);
    unsigned lev = vm->multi_ractor ? exec_vmlock_enter(th) : 0;  /* gc_enter */
    if (vm->multi_ractor) exec_vm_barrier(th);
    gc_work(th, d);
    if (vm->multi_ractor) exec_vmlock_leave(th, lev);
}
