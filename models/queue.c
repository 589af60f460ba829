/* queue.c - Thread::Queue (thread_sync.c) in simulated time: the queue's
 * decisions are core/queue.h's; a woken waiter gets PENDING_INTERRUPT and
 * is made ready through its unblock function (ubf_waiting). */
#include "queue.h"

#include "gvl.h"

void queue_push(struct rb_thread *th, struct core_queue *q)
{
    struct rb_thread *w = rb_thread_of(core_queue_push(q));
    if (!w) return;
    w->interrupts |= CORE_INT_PENDING;
    vm_set_state(w, TS_WANTS_GVL);
    gvl_ready(th, w);
}

bool queue_try_pop(struct rb_thread *th, struct core_queue *q)
{
    if (core_queue_take(q)) return true;
    core_queue_wait(q, &th->core, (int)(q - th->vm->queues));
    return false;
}
