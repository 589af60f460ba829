/* sync.h - Thread::Queue, Thread::Mutex, Thread::ConditionVariable and
 * Thread#join (thread_sync.c, thread.c) in simulated time.  Their
 * decisions are core/queue.h's and core/sync.h's; here a wait is a sleep
 * and a wake-up the waiter's unblock function:
 *
 * - an untimed wait (Queue#pop, Mutex#lock, ConditionVariable#wait without
 *   a timeout, join) sleeps as native_sleep(th, NULL) does: the GVL's park
 *   (models/gvl.c gvl_park: 3.3+ thread_sched_to_waiting_until_wakeup; 3.1
 *   a release and a sleep on the thread's own condvar), and the waker makes
 *   it ready (gvl_ready: 3.3+ ubf_waiting puts it in the ready queue, no OS
 *   wake until the GVL is handed to it; 3.1 ubf_pthread_cond_signal wakes
 *   its native thread at once, to contend for the GVL);
 * - a timed wait (Queue#pop(timeout:), ConditionVariable#wait(m, t)) sleeps
 *   as native_sleep(th, &rel) does on a dedicated native thread, in every
 *   version: native_cond_sleep, i.e. THREAD_BLOCKING_BEGIN (the GVL goes as
 *   for a `sleep` op), a timed wait on its own condvar that the waker's
 *   ubf_pthread_cond_signal ends at once (a futex wake), then
 *   THREAD_BLOCKING_END (the GVL back).  On 3.3+ that is two OS wake-ups
 *   per wake where an untimed wait has one.
 * Every op returns true if it completed (the thread goes on), false if the
 * thread waits (it re-runs the op once woken and holding the GVL).
 */
#ifndef MODELS_SYNC_H
#define MODELS_SYNC_H

#include <stdbool.h>

#include "vm.h"

/* The unblock function of a waiting thread w, run by `waker` (NULL: the
 * kernel or the controller). */
void sync_wake(struct rb_thread *waker, struct rb_thread *w);

bool sync_queue_push(struct rb_thread *th, int q, sim_time arrived);
bool sync_queue_pop(struct rb_thread *th, const struct scn_op *op);
bool sync_mutex_lock(struct rb_thread *th, int m);
bool sync_mutex_unlock(struct rb_thread *th, int m);
bool sync_cv_wait(struct rb_thread *th, const struct scn_op *op);
void sync_cv_signal(struct rb_thread *th, const struct scn_op *op);
/* join of every other thread (the op without "thread") or of every
 * instance of one template, one after another. */
bool sync_join(struct rb_thread *th, const struct scn_op *op);
/* th ends (thread_start_func_2): wake its joiners (and a join of every
 * other thread), then unlock the mutexes it holds. */
void sync_thread_end(struct rb_thread *th);

#endif
