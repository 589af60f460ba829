/* exec_vmlock.c - the VM lock and the Ractor barrier on real threads.
 *
 * VM lock (vm_sync.c vm_lock_enter / vm_lock_leave): one mutex, recursive
 * per Ractor through owner + rec.  In single-Ractor mode (rb_multi_ractor_p
 * false) RB_VM_LOCK_ENTER and rb_vm_barrier do nothing.  A contended
 * acquire is found with pthread_mutex_trylock before the blocking lock, so
 * that waits can be counted (CRuby locks directly; the extra try costs one
 * atomic instruction).  Whoever takes the VM lock while a barrier is being
 * set up joins it (vm_need_barrier).
 *
 * Barrier, master version (rb_ractor_sched_barrier_start, _join, _end):
 * 1. the initiator, holding the VM lock, takes the global sched lock,
 *    sets barrier_waiting and remembers its lock level;
 * 2. releases the VM mutex so that joiners can enter it;
 * 3. ORs VM_BARRIER_INTERRUPT into every running thread of other Ractors;
 * 4. waits on barrier_complete_cond until running_cnt - waiting_cnt == 1;
 * 5. bumps barrier_serial, broadcasts barrier_release_cond and re-locks the
 *    VM mutex, keeping the global sched lock through its critical section
 *    until vm_lock_leave -> barrier_end; meanwhile no thread of any Ractor
 *    can switch in (thread_sched_setup_running_threads needs that lock).
 * A joiner, at its next safe point (between ops, between loop iterations,
 * between compute chunks), takes the VM mutex, sees barrier_waiting, and in
 * rb_ractor_sched_barrier_join unlocks it, counts itself under the global
 * lock, signals completion if last, waits for the serial to change, then
 * re-takes the global lock (blocked until barrier_end) and the VM mutex.
 *
 * barrier_waiting and barrier_ractor are written holding both the VM mutex
 * and the global lock, so reading them under either is race-free.
 */
#include "exec_vmlock.h"
#include "exec_wait.h"

#include <stdlib.h>

int exec_vmlock_init(struct exec_vm *vm)
{
    if (pthread_mutex_init(&vm->vmlock.lock, NULL)) return -1;
    atomic_init(&vm->vmlock.owner, NULL);
    vm->vmlock.rec = 0;
    return 0;
}

void exec_vmlock_destroy(struct exec_vm *vm)
{
    pthread_mutex_destroy(&vm->vmlock.lock);
}

/* rb_ractor_sched_barrier_join: VM mutex held on entry and on return. */
static void exec_barrier_join(struct exec_thread *th)
{
    struct exec_vm *vm = th->vm;
    pthread_mutex_unlock(&vm->vmlock.lock);
    pthread_mutex_lock(&vm->sched_lock);
    vm->barrier_waiting_cnt++;
    if (vm->running_cnt - vm->barrier_waiting_cnt == 1)
        pthread_cond_signal(&vm->barrier_complete_cond);
    unsigned serial = vm->barrier_serial;
    while (vm->barrier_serial == serial)
        exec_cond_wait(th, &vm->barrier_release_cond, &vm->sched_lock);
    pthread_mutex_unlock(&vm->sched_lock);
    pthread_mutex_lock(&vm->vmlock.lock);
    th->c.barrier_joins++;
}

unsigned exec_vmlock_enter(struct exec_thread *th)
{
    struct exec_vm *vm = th->vm;
    struct exec_vmlock *l = &vm->vmlock;
    if (atomic_load_explicit(&l->owner, memory_order_relaxed) == exec_ractor_of(th)) return ++l->rec;
    th->c.vmlock_acquires++;
    if (pthread_mutex_trylock(&l->lock) != 0) {
        th->c.vmlock_waits++;
        exec_state_set(th, TS_VMLOCK_WAIT);
        pthread_mutex_lock(&l->lock);
        exec_state_set(th, TS_RUNNING);
    }
    if (vm->barrier_waiting) {
        exec_state_set(th, TS_BARRIER_JOIN);
        do exec_barrier_join(th);
        while (vm->barrier_waiting);
        exec_state_set(th, TS_RUNNING);
    }
    atomic_store_explicit(&l->owner, exec_ractor_of(th), memory_order_relaxed);
    l->rec = 1;
    return 1;
}

/* rb_ractor_sched_barrier_end: the global sched lock is released here. */
static void exec_barrier_end(struct exec_vm *vm)
{
    vm->barrier_waiting = false;
    vm->barrier_ractor = NULL;
    vm->barrier_lock_rec = 0;
    pthread_mutex_unlock(&vm->sched_lock);
}

void exec_vmlock_leave(struct exec_thread *th, unsigned lev)
{
    struct exec_vm *vm = th->vm;
    struct exec_vmlock *l = &vm->vmlock;
    (void)lev;
    if (vm->barrier_ractor == exec_ractor_of(th) && vm->barrier_lock_rec == l->rec) exec_barrier_end(vm);
    if (--l->rec == 0) {
        atomic_store_explicit(&l->owner, NULL, memory_order_relaxed);
        pthread_mutex_unlock(&l->lock);
    }
}

void exec_vm_barrier(struct exec_thread *th)
{
    struct exec_vm *vm = th->vm;
    struct exec_vmlock *l = &vm->vmlock;
    struct exec_ractor *cr = exec_ractor_of(th);
    if (vm->barrier_ractor == cr) return;  /* already in barrier synchronisation */
    exec_state_set(th, TS_BARRIER_INIT);
    pthread_mutex_lock(&vm->sched_lock);
    vm->barrier_waiting = true;
    vm->barrier_ractor = cr;
    vm->barrier_lock_rec = l->rec;
    unsigned rec = l->rec;
    l->rec = 0;
    atomic_store_explicit(&l->owner, NULL, memory_order_relaxed);
    pthread_mutex_unlock(&l->lock);
    for (int i = 0; i < vm->nthreads; i++) {
        struct exec_thread *t = &vm->threads[i];
        if (t->in_running_threads && exec_ractor_of(t) != cr)
            atomic_fetch_or(&t->interrupts, CORE_INT_VM_BARRIER);
    }
    while (vm->running_cnt - vm->barrier_waiting_cnt != 1)
        exec_cond_wait(th, &vm->barrier_complete_cond, &vm->sched_lock);
    vm->barrier_serial++;
    vm->barrier_waiting_cnt = 0;
    pthread_cond_broadcast(&vm->barrier_release_cond);
    pthread_mutex_lock(&l->lock);
    l->rec = rec;
    atomic_store_explicit(&l->owner, cr, memory_order_relaxed);
    th->c.barriers++;
    exec_state_set(th, TS_RUNNING);
}

void exec_env_escape(struct exec_thread *th, int iseq)
{
    struct exec_vm *vm = th->vm;
    switch (vm->scn->runtime.invariant_check) {
    case INVARIANT_NONE:
    case INVARIANT_COUNT:
        return;  /* YJIT off: no bookkeeping */
    case INVARIANT_LOCKLESS:
        /* PR 18176: the per-iseq flag, checked without the lock */
        if (atomic_load_explicit(&vm->iseq_recorded[iseq], memory_order_relaxed)) return;
        break;
    case INVARIANT_LOCK_BARRIER:
        break;
    }
    if (!vm->multi_ractor) {
        /* single-Ractor mode: RB_VM_LOCK_ENTER and rb_vm_barrier are no-ops */
        vm->iseq_seen[iseq] = 1;
        atomic_store_explicit(&vm->iseq_recorded[iseq], 1, memory_order_relaxed);
        return;
    }
    /* rb_jit_vm_lock_then_barrier: rb_vm_lock_enter + rb_vm_barrier */
    unsigned lev = exec_vmlock_enter(th);
    exec_vm_barrier(th);
    /* the critical section: YJIT records the escape in its set */
    vm->iseq_seen[iseq] = 1;
    atomic_store_explicit(&vm->iseq_recorded[iseq], 1, memory_order_relaxed);
    exec_vmlock_leave(th, lev);
}

void exec_barrier_safepoint(struct exec_thread *th)
{
    if (!th->vm->multi_ractor) return;
    unsigned lev = exec_vmlock_enter(th);
    exec_vmlock_leave(th, lev);
}
