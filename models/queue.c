/* queue.c - Thread::Queue (thread_sync.c).
 *
 * push: append, then wakeup_one(): the first waiter is taken off the wait
 * list and interrupted; its unblock function (ubf_waiting) makes it ready.
 * pop: while the queue is empty, queue_sleep() parks the thread; it
 * re-checks after every wake, so a stolen item means parking again.
 */
#include "queue.h"

#include "gvl_policy.h"

void queue_push(struct rb_thread *th, struct rb_queue *q)
{
    q->items++;
    struct rb_thread *w = q->wait_head;
    if (!w) return;
    q->wait_head = w->wait_next;
    if (!q->wait_head) q->wait_tail = NULL;
    w->wait_next = NULL;
    w->parked_queue = -1;
    w->interrupts |= CORE_INT_PENDING;
    vm_set_state(w, TS_WANTS_GVL);
    th->vm->policy->ready(th, w);
}

bool queue_try_pop(struct rb_thread *th, struct rb_queue *q)
{
    if (q->items > 0) {
        q->items--;
        return true;
    }
    th->parked_queue = (int)(q - th->vm->queues);
    th->wait_next = NULL;
    if (q->wait_tail) q->wait_tail->wait_next = th;
    else q->wait_head = th;
    q->wait_tail = th;
    return false;
}
