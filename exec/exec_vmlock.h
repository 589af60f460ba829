/* exec_vmlock.h - the real VM lock (vm_sync.c, recursive per Ractor), the
 * stop-the-world barrier (thread_pthread.c rb_ractor_sched_barrier_*) and
 * the env_escape op that uses them under runtime.invariant_check. */
#ifndef EXEC_EXEC_VMLOCK_H
#define EXEC_EXEC_VMLOCK_H

#include "exec_vm.h"

int exec_vmlock_init(struct exec_vm *vm);
void exec_vmlock_destroy(struct exec_vm *vm);

/* vm_lock_enter in a multi-Ractor process (the caller checks): returns
 * the lock level, for exec_vmlock_leave; joins a barrier in progress. */
unsigned exec_vmlock_enter(struct exec_thread *th);
void exec_vmlock_leave(struct exec_thread *th, unsigned lev);
/* rb_vm_barrier -> rb_ractor_sched_barrier_start, the VM lock held:
 * returns once the running thread of every other Ractor has joined. */
void exec_vm_barrier(struct exec_thread *th);

/* vm_make_env_each -> rb_yjit_invalidate_ep_is_bp: the escape of iseq `iseq`
 * under runtime.invariant_check (none / lock_barrier / lockless). */
void exec_env_escape(struct exec_thread *th, int iseq);

/* At a safe point with VM_BARRIER_INTERRUPT: the empty RB_VM_LOCKING()
 * block of rb_threadptr_execute_interrupts, which joins the barrier. */
void exec_barrier_safepoint(struct exec_thread *th);

#endif
