/* exec_gvl.h - the per-Ractor GVL of CRuby 3.3+ on real pthreads
 * (thread_pthread.c): the decisions are core/sched.h's; this file gives
 * them a mutex (the Ractor's sched lock), one condition variable per
 * thread to sleep on until it is `running`, and vm running_threads under
 * the global vm->sched_lock.  Functions ending in _locked expect the
 * Ractor's sched lock held.
 */
#ifndef EXEC_EXEC_GVL_H
#define EXEC_EXEC_GVL_H

#include <stdbool.h>

#include "../core/sched.h"
#include "exec_vm.h"

/* The executor's hooks for core/sched.c; `by` is a struct exec_actor_counts. */
extern const struct core_hooks exec_gvl_hooks;

int exec_sched_init(struct exec_ractor *r);
void exec_sched_destroy(struct exec_ractor *r);

/* thread_sched_wakeup_running_thread: signal th's condvar (counted as a
 * wakeup in `by` if th was waiting on it). */
void exec_gvl_signal_locked(struct exec_thread *th, struct exec_actor_counts *by);

/* thread_sched_wait_running_turn: sleep on th->cond until running == th,
 * with the PR 15840 steal when th is sched->runnable_hot_th. */
void exec_gvl_wait_running_turn_locked(struct exec_thread *th);

/* thread_sched_add_running_thread: `running` joins vm running_threads (and
 * the timeslice set if it has waiters). */
void exec_gvl_add_running_thread_locked(struct exec_thread *th);

/* thread_sched_setup_running_threads without the timeslice part (barging
 * in multi-Ractor runs). */
void exec_gvl_running_threads_update_locked(struct exec_ractor *r, struct exec_thread *add_th,
                                            struct exec_thread *del_th, struct exec_actor_counts *by);

/* The calling thread stops / starts executing with the GVL: the
 * two-holders check and the running_time reset (rb_ractor_thread_switch). */
void exec_gvl_released(struct exec_thread *th);
void exec_gvl_acquired_locked(struct exec_thread *th);

/* delayed / threshold: if the running thread is still blocked and others
 * wait, hand the GVL on for it (called by the timer or the helper). */
bool exec_gvl_handoff_blocked_locked(struct exec_ractor *r, struct exec_actor_counts *by);

/* ---- the 3.3 entries of a policy table ---------------------------------- */

void exec_gvl33_start(struct exec_thread *th);
/* before the start gate: queue th on its GVL in scenario order */
void exec_gvl33_prefill(struct exec_thread *th);
/* thread_sched_to_waiting (BLOCKING_REGION entry): eager hand-off; with
 * set_hot the releasing thread becomes runnable_hot_th (PR 15840). */
void exec_gvl33_to_waiting(struct exec_thread *th, bool set_hot);
/* thread_sched_to_running (BLOCKING_REGION exit) */
void exec_gvl33_to_running(struct exec_thread *th);
/* thread_sched_to_waiting_until_wakeup (Queue#pop on empty, join) */
void exec_gvl33_park(struct exec_thread *th);
/* ubf_waiting: a parked th is made ready by `by` */
void exec_gvl33_ready(struct exec_actor_counts *by, struct exec_thread *th);
/* thread_sched_yield (quantum expired) */
void exec_gvl33_yield(struct exec_thread *th);
/* thread_sched_to_dead */
void exec_gvl33_dead(struct exec_thread *th);

#endif
