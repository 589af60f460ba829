/* exec_queue.h - Thread::Queue and Thread#join on real threads, with the
 * parked-thread accounting that detects a deadlock. */
#ifndef EXEC_EXEC_QUEUE_H
#define EXEC_EXEC_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "exec_vm.h"

int exec_queue_init(struct exec_queue *q, const char *name, int64_t initial);
void exec_queue_destroy(struct exec_queue *q);

/* Thread::Queue#push of an item that arrived at `arrived` (the run's
 * clock): append; if a thread waits, take it off the wait list and make it
 * ready (the unblock function of queue_sleep).  false if out of memory
 * (the run fails). */
bool exec_queue_push(struct exec_thread *th, struct exec_queue *q, sim_time arrived);

/* What a pop or join attempt found. */
enum exec_wait_result {
    EXEC_WAIT_DONE,      /* popped an item / every other thread has ended */
    EXEC_WAIT_PARK,      /* registered as a waiter: park now, then retry */
    EXEC_WAIT_STOPPING   /* stop.time reached: end the thread */
};

enum exec_wait_result exec_queue_try_pop(struct exec_thread *th, struct exec_queue *q);
/* Thread::Queue#pop(timeout:): waits (timed) until it takes an item or
 * the timeout passes (DONE either way), or STOPPING. */
enum exec_wait_result exec_queue_pop_timed(struct exec_thread *th, struct exec_queue *q, sim_time timeout);
/* The join op: wait until every other thread has ended. */
enum exec_wait_result exec_join_try(struct exec_thread *th);

/* The thread's program ended: count it out, wake joiners, notice the end
 * of the run or a deadlock.  Called before it releases its GVL. */
void exec_thread_exited(struct exec_thread *th);

/* Parked-thread accounting for deadlock detection; the caller holds life_lock. */
void exec_park_count_locked(struct exec_vm *vm, int delta);

/* stop.time: make every parked thread ready (the controller). */
void exec_wake_all_parked(struct exec_vm *vm);

#endif
