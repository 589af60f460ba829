/* barrier.h - the VM barrier of CRuby master / 4.0 (rb_vm_barrier,
 * thread_pthread.c rb_ractor_sched_barrier_start / _join / _end), and its
 * hooks into thread_sched_setup_running_threads; under the `barging` GVL
 * (3.1, 3.2) that of vm_sync.c v3_1_2: the VM mutex and its condition
 * variables alone, released before the caller's work.
 */
#ifndef MODELS_BARRIER_H
#define MODELS_BARRIER_H

#include <stdbool.h>

#include "vm.h"
#include "vm_lock.h"

/* rb_vm_barrier: th's Ractor holds the VM lock; k runs once every running
 * thread of the other Ractors is stopped (at once in single-Ractor mode or
 * if th's Ractor already runs the barrier). */
void barrier_vm_barrier(struct rb_thread *th, th_cont k);

/* vm_need_barrier: a barrier waits and th's Ractor has a running thread. */
bool barrier_need_join(const struct rb_thread *th);
/* rb_ractor_sched_barrier_join: th holds the VM mutex (not yet as owner);
 * k runs with the mutex held again once the barrier is over. */
void barrier_join(struct rb_thread *th, th_cont k);
/* rb_ractor_sched_barrier_end, from vm_lock_leave: release the sched lock. */
void barrier_end(struct rb_thread *th);

/* rb_threadptr_execute_interrupts, VM_BARRIER_INTERRUPT_MASK: an empty
 * RB_VM_LOCKING() block, then k. */
void barrier_interrupt(struct rb_thread *th, th_cont k);

/* thread_sched_setup_running_threads, called by gvl_add_running_thread /
 * gvl_del_running_thread (models/gvl.c) on every GVL hand-off, hence
 * inline.  While a barrier holds the global sched lock the add cannot
 * happen: barrier_defer_add_running marks it deferred, and
 * barrier_switch_in (from the GVL's `acquired`) sleeps on the lock, adds,
 * and then calls resume(th, k). */
static inline bool barrier_defer_add_running(struct rb_thread *th)
{
    const struct vm_sync *sy = th->vm->sync;
    if (!sy || !vml_holder(&sy->sched_lock) || vml_holder(&sy->sched_lock) == th) return false;
    th->add_deferred = true;
    return true;
}

void barrier_added_while_waiting(struct rb_thread *th);
void barrier_deleted_while_waiting(struct rb_thread *th);

static inline void barrier_added_running(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    vm->running_cnt++;
    if (vm->sync && vm->sync->barrier_waiting) barrier_added_while_waiting(th);
}

static inline void barrier_deleted_running(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    vm->running_cnt--;
    if (vm->sync && vm->sync->barrier_waiting) barrier_deleted_while_waiting(th);
}

void barrier_switch_in(struct rb_thread *th, th_cont k,
                       void (*resume)(struct rb_thread *th, th_cont k));

#endif
