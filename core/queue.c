/* queue.c - Thread::Queue and its waiters (queue.h). */
#include "queue.h"

void core_waitq_push(struct core_waitq *q, struct core_thread *th)
{
    th->wait_next = NULL;
    if (q->tail) q->tail->wait_next = th;
    else q->head = th;
    q->tail = th;
}

struct core_thread *core_waitq_pop(struct core_waitq *q)
{
    struct core_thread *th = q->head;
    if (!th) return NULL;
    q->head = th->wait_next;
    if (!q->head) q->tail = NULL;
    th->wait_next = NULL;
    return th;
}

struct core_thread *core_waitq_take_all(struct core_waitq *q)
{
    struct core_thread *list = q->head;
    q->head = q->tail = NULL;
    return list;
}

void core_queue_init(struct core_queue *q, const char *name, int64_t initial)
{
    q->name = name;
    q->items = initial;
    q->waiters.head = q->waiters.tail = NULL;
}

struct core_thread *core_queue_push(struct core_queue *q)
{
    q->items++;
    struct core_thread *w = core_waitq_pop(&q->waiters);
    if (w) w->parked_queue = -1;
    return w;
}

bool core_queue_take(struct core_queue *q)
{
    if (q->items <= 0) return false;
    q->items--;
    return true;
}

void core_queue_wait(struct core_queue *q, struct core_thread *th, int idx)
{
    th->parked_queue = idx;
    core_waitq_push(&q->waiters, th);
}
