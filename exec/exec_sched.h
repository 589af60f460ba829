/* exec_sched.h - the per-Ractor scheduler of CRuby 3.3+ on real pthreads
 * (thread_pthread.c): the decisions are core/sched.h's; this module gives
 * them a mutex (the Ractor's sched lock), one condition variable per
 * thread to sleep on until it is `running`, and vm running_threads under
 * the global vm->sched_lock.  Functions ending in _locked expect the
 * Ractor's sched lock held.
 */
#ifndef EXEC_EXEC_SCHED_H
#define EXEC_EXEC_SCHED_H

#include <stdbool.h>

#include "../core/sched.h"
#include "exec_vm.h"

/* The Ractor's scheduler (core.sched, driven through this module's hooks;
 * their `by` is a struct exec_actor_counts) and its lock and condvars. */
int exec_sched_init(struct exec_ractor *r);
void exec_sched_destroy(struct exec_ractor *r);

/* thread_sched_wait_running_turn: sleep on th->cond until running == th,
 * with the PR 15840 steal when th is sched->runnable_hot_th. */
void exec_sched_wait_turn_locked(struct exec_thread *th);

/* thread_sched_add_running_thread: `running` joins vm running_threads (and
 * the timeslice set if it has waiters). */
void exec_sched_add_running_locked(struct exec_thread *th);

/* thread_sched_setup_running_threads without the timeslice part (barging
 * in multi-Ractor runs). */
void exec_sched_running_update_locked(struct exec_ractor *r, struct exec_thread *add_th,
                                      struct exec_thread *del_th, struct exec_actor_counts *by);

/* The calling thread stops / starts executing with the GVL: the
 * two-holders check and the running_time reset (rb_ractor_thread_switch). */
void exec_sched_released(struct exec_thread *th);
void exec_sched_acquired_locked(struct exec_thread *th);

#endif
