/* exec_sync.h - Thread::Mutex, ConditionVariable, join of a template and
 * the timed waits (Queue#pop(timeout:), ConditionVariable#wait(m, t)) on
 * real threads: the decisions of core/sync.h under vm->rsync_lock, the
 * waits of the simulator's models/sync.c (see there): an untimed wait parks
 * through the GVL (exec_gvl_park / exec_gvl_ready), a timed one sleeps on
 * the thread's own condvar with the GVL released (native_cond_sleep) and a
 * waker's ubf signals that condvar.  A failing op (ThreadError) stops the
 * run: exec_fail. */
#ifndef EXEC_EXEC_SYNC_H
#define EXEC_EXEC_SYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "exec_vm.h"

/* Stop the run with an error: the controller reports it (exit 4). */
void exec_fail(struct exec_vm *vm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The ubf of w, taken off a wait list by `by`, with that list's lock held:
 * a timed waiter is woken here (true); an untimed one must be made ready
 * with exec_gvl_ready (false), after the lock if the caller likes, and its
 * parked count dropped (exec_park_count_locked). */
bool exec_wake_timed_locked(struct exec_actor_counts *by, struct exec_thread *w);

/* A timed wait: th is on a wait list with timed_waiting set; release the
 * GVL, sleep until woken or `deadline_ns`, take the GVL back.  Then, with
 * the list's lock held again, exec_timed_done. */
void exec_timed_wait(struct exec_thread *th, int64_t deadline_ns);
void exec_timed_done(struct exec_thread *th);

/* Mutex#lock: false if the thread must end (stop.time, or a failure). */
bool exec_mutex_lock(struct exec_thread *th, int m);
/* Mutex#unlock: false on a ThreadError (the run fails). */
bool exec_mutex_unlock(struct exec_thread *th, int m);
bool exec_cv_wait(struct exec_thread *th, const struct scn_op *op);
void exec_cv_signal(struct exec_thread *th, const struct scn_op *op);
/* join of every instance of thread template `tmpl`, one after another. */
bool exec_join_tmpl(struct exec_thread *th, int tmpl);
/* th ends: unlock the mutexes it holds (after its joiners were woken). */
void exec_sync_thread_end(struct exec_thread *th);
/* stop.time: every mutex and condvar waiter is made ready. */
void exec_sync_wake_all(struct exec_vm *vm);

#endif
