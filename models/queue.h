/* queue.h - Thread::Queue (thread_sync.c): push wakes one waiter through its
 * unblock function; pop on an empty queue parks the thread. */
#ifndef MODELS_QUEUE_H
#define MODELS_QUEUE_H

#include <stdbool.h>

#include "vm.h"

/* Queue#push by `th`: wake the first waiter, if any (it becomes ready). */
void queue_push(struct rb_thread *th, struct core_queue *q);
/* Queue#pop: true if an item was taken; false if th must park (it has
 * been added to the queue's waiters). */
bool queue_try_pop(struct rb_thread *th, struct core_queue *q);

#endif
