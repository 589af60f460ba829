/* gc.c - the alloc and gc ops and the garbage collector (gc.c of CRuby) in
 * simulated time.  When and how much the GC works is core/heap.c's; here
 * the allocating thread does it, holding its GVL throughout (no interrupt
 * is checked inside: the work is one burst), in state `gc`:
 *
 * - a GC start marks for gc_mark_base + gc_mark_per_object per object
 *   marked; a lazy-sweep step costs gc_sweep_per_slot per slot;
 * - the other threads of its Ractor cannot run Ruby code meanwhile (they
 *   wait for the GVL); threads in blocking regions go on until they want
 *   the GVL back;
 * - in a multi-Ractor process every step takes the VM lock (gc_enter:
 *   RB_VM_LOCK_ENTER_LEV), and a GC start - and on 3.3+ every lazy-sweep
 *   step, gc_enter's "continue" event - a stop-the-world barrier
 *   (rb_vm_barrier), which stops the running thread of every other Ractor
 *   at its next safe point (models/barrier.c).  runtime.gvl_policy
 *   `barging` stands for CRuby <= 3.2 here too.
 * Allocating while the heap still has free slots takes no lock (the
 * Ractor's newobj cache).  The gc op is a GC start whose length is given
 * instead of computed from the heap (GC.start, or a pause that gvlsim
 * import read in a trace): the same lock, barrier and state.
 */
#include "gc.h"

#include "../core/cursor.h"
#include "../core/heap.h"
#include "../core/policy.h"
#include "barrier.h"
#include "thread.h"
#include "vm_lock.h"

static sim_time step_cost(const struct scn_machine *m, const struct core_gc_step *st)
{
    if (st->kind == CORE_GC_SWEEP) return (sim_time)st->swept * m->gc_sweep_per_slot;
    return m->gc_mark_base + (sim_time)st->marked * m->gc_mark_per_object;
}

static void gc_done(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    vm_set_state(th, TS_RUNNING);
    vm_lock_leave(th);  /* ends the barrier; a no-op with one Ractor */
    th_retry(th);
}

static void gc_work(struct rb_thread *th)
{
    vm_set_state(th, TS_GC);
    th_burst(th, th->gc_cost, gc_done);
}

/* gc_enter: the VM lock is held; decide now (another Ractor's thread may
 * have collected while this one waited for the lock) */
static void gc_locked(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    struct core_gc_step st = core_heap_alloc(&vm->heap, &th->alloc_left, th->alloc_survive);
    if (st.kind == CORE_GC_NONE) {
        th->core.op_phase = 0;
        vm_lock_leave(th);
        th_step(th);
        return;
    }
    th->gc_cost = step_cost(rb_machine_of(th), &st);
    vm_instant(th, st.kind == CORE_GC_SWEEP ? "gc_sweep_step" : "gc_start");
    if (core_gc_step_barrier(&st, vm->policy->barging)) barrier_vm_barrier(th, gc_work);
    else gc_work(th);
}

/* gc_enter of the gc op: the VM lock is held */
static void gc_op_locked(struct rb_thread *th)
{
    core_heap_count_gc(&th->vm->heap);
    vm_instant(th, "gc_start");
    barrier_vm_barrier(th, gc_work);   /* a GC start: with one Ractor, no barrier */
}

bool gc_op(struct rb_thread *th, const struct scn_op *op)
{
    if (th->core.op_phase == 1) {   /* re-run after the work (gc_done) */
        th->core.op_phase = 0;
        return true;
    }
    sim_time d = core_op_dur(&th->core, op, rb_machine_of(th)->work_scale);
    if (!th_dur_in_range(th, op, d)) return false;
    th->gc_cost = d;
    th->core.op_phase = 1;
    vm_lock_enter(th, gc_op_locked);
    return false;
}

bool gc_alloc(struct rb_thread *th, const struct scn_op *op)
{
    struct core_heap *h = &th->vm->heap;
    if (th->core.op_phase == 0) {
        th->alloc_left = op->u.alloc.objects;
        th->alloc_survive = op->u.alloc.survive;
        th->core.op_phase = 1;
    }
    if (h->free >= th->alloc_left) {  /* the freelist: no lock */
        core_heap_alloc(h, &th->alloc_left, th->alloc_survive);
        th->core.op_phase = 0;
        return true;
    }
    vm_lock_enter(th, gc_locked);
    return false;
}
