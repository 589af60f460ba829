/* queue.h - Thread::Queue (thread_sync.c) and the FIFO of threads waiting
 * on it, which other waits (a Mutex, a ConditionVariable) can reuse.
 *
 * push appends an item and takes the first waiter off the wait list
 * (wakeup_one); the caller makes it ready (its unblock function).  pop
 * takes an item if there is one; otherwise the caller registers as a
 * waiter and parks, and re-checks after every wake, so a stolen item means
 * parking again (queue_sleep's loop).  The executor calls these under the
 * queue's mutex.
 */
#ifndef CORE_QUEUE_H
#define CORE_QUEUE_H

#include "core.h"

/* Threads waiting, linked through core_thread.wait_next. */
struct core_waitq {
    struct core_thread *head, *tail;
};

void core_waitq_push(struct core_waitq *q, struct core_thread *th);
struct core_thread *core_waitq_pop(struct core_waitq *q);
/* Empty the list; returns its former head (the rest follow through wait_next). */
struct core_thread *core_waitq_take_all(struct core_waitq *q);

struct core_queue {
    const char *name;
    int64_t items;
    struct core_waitq waiters;
};

void core_queue_init(struct core_queue *q, const char *name, int64_t initial);

/* Thread::Queue#push: returns the waiter to make ready (off the wait list,
 * no longer parked on the queue), or NULL. */
struct core_thread *core_queue_push(struct core_queue *q);

/* Thread::Queue#pop: true if an item was taken. */
bool core_queue_take(struct core_queue *q);
/* ... else th, whose program's queue index is `idx`, waits on it. */
void core_queue_wait(struct core_queue *q, struct core_thread *th, int idx);

#endif
