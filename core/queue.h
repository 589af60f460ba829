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
/* Take th off the list (a timed wait that timed out); false if it was not on it. */
bool core_waitq_remove(struct core_waitq *q, struct core_thread *th);
/* Empty the list; returns its former head (the rest follow through wait_next). */
struct core_thread *core_waitq_take_all(struct core_waitq *q);

/* Every item carries the time it arrived (its push, or a generator's
 * arrival time), so that a measure can count a request's latency from it;
 * the items present at start arrived at time 0. */
struct core_queue {
    const char *name;
    int64_t items;               /* initial_left + len */
    int64_t initial_left;        /* items present at start not yet taken */
    sim_time *ts;                /* the pushed items' times: a ring of cap */
    size_t head, len, cap;
    struct core_waitq waiters;
};

void core_queue_init(struct core_queue *q, const char *name, int64_t initial);
void core_queue_destroy(struct core_queue *q);

/* Thread::Queue#push of an item that arrived at `t`: *waiter is the
 * thread to make ready (off the wait list, no longer parked on the queue),
 * or NULL.  false if out of memory (nothing was pushed). */
bool core_queue_push(struct core_queue *q, sim_time t, struct core_thread **waiter);

/* Thread::Queue#pop: true if an item was taken; *t is when it arrived. */
bool core_queue_take(struct core_queue *q, sim_time *t);
/* ... else th, whose program's queue index is `idx`, waits on it. */
void core_queue_wait(struct core_queue *q, struct core_thread *th, int idx);

#endif
