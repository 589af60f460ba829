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

/* ---- the entries, at the same points as the simulator's (models/gvl.h) --
 * Each runs on the thread it names, except exec_gvl_ready (the waker:
 * another Ruby thread or the controller) and exec_gvl_prefill (the
 * controller, holding the sched lock).  Entries that (re)acquire the GVL
 * return once the calling thread holds it.  The policy's decisions are
 * core/policy.h's; barging is the 2.x GVL of exec_gvl_barging.c. */

/* Before the start gate: queue th on its GVL in scenario order. */
void exec_gvl_prefill(struct exec_thread *th);
/* The thread's first acquisition. */
void exec_gvl_start(struct exec_thread *th);
/* BLOCKING_REGION entry; yield_immediately for native sleeps
 * (THREAD_BLOCKING_BEGIN), false for system calls. */
void exec_gvl_blocking_enter(struct exec_thread *th, bool yield_immediately);
/* BLOCKING_REGION exit: wants the GVL back. */
void exec_gvl_blocking_exit(struct exec_thread *th);
/* Give up the GVL until exec_gvl_ready is called on th (Queue#pop on
 * empty, join), then hold it again. */
void exec_gvl_park(struct exec_thread *th);
void exec_gvl_ready(struct exec_actor_counts *by, struct exec_thread *th);
/* The quantum is used up. */
void exec_gvl_yield(struct exec_thread *th);
/* The thread ends and releases the GVL. */
void exec_gvl_dead(struct exec_thread *th);

#endif
