/* exec_timer.h - the real timer thread of the 3.3 policies
 * (thread_pthread.c timer_thread_func / timer_thread_set_timeout /
 * timer_thread_check_timeslice). */
#ifndef EXEC_EXEC_TIMER_H
#define EXEC_EXEC_TIMER_H

#include <stddef.h>

#include "exec_vm.h"

/* Start / stop (and join) the timer thread. */
int exec_timer_start(struct exec_vm *vm, char *err, size_t errlen);
void exec_timer_stop(struct exec_vm *vm);

/* timer_thread_wakeup_locked: the timeslice set stopped being empty; wake
 * the timer if it waits without a timeout.  vm->sched_lock held. */
void exec_timer_wakeup_locked(struct exec_vm *vm, struct exec_actor_counts *by);

#endif
