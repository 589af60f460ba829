/* queue.c - Thread::Queue and its waiters (queue.h). */
#include "queue.h"

#include <stdlib.h>

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

bool core_waitq_remove(struct core_waitq *q, struct core_thread *th)
{
    struct core_thread *prev = NULL;
    for (struct core_thread *w = q->head; w; prev = w, w = w->wait_next) {
        if (w != th) continue;
        if (prev) prev->wait_next = w->wait_next;
        else q->head = w->wait_next;
        if (q->tail == w) q->tail = prev;
        w->wait_next = NULL;
        return true;
    }
    return false;
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
    q->items = q->initial_left = initial;
    q->ts = NULL;
    q->head = q->len = q->cap = 0;
    q->waiters.head = q->waiters.tail = NULL;
}

void core_queue_destroy(struct core_queue *q)
{
    free(q->ts);
    q->ts = NULL;
    q->head = q->len = q->cap = 0;
}

/* Double the ring, keeping the items in order.  Its capacity is a power
 * of two (64, doubled), so an index wraps with a mask, not a division. */
static bool grow(struct core_queue *q)
{
    size_t cap = q->cap ? 2 * q->cap : 64;
    sim_time *ts = malloc(cap * sizeof *ts);
    if (!ts) return false;
    for (size_t i = 0; i < q->len; i++) ts[i] = q->ts[(q->head + i) & (q->cap - 1)];
    free(q->ts);
    q->ts = ts;
    q->head = 0;
    q->cap = cap;
    return true;
}

bool core_queue_push(struct core_queue *q, sim_time t, struct core_thread **waiter)
{
    *waiter = NULL;
    if (q->len == q->cap && !grow(q)) return false;
    q->ts[(q->head + q->len) & (q->cap - 1)] = t;
    q->len++;
    q->items++;
    struct core_thread *w = core_waitq_pop(&q->waiters);
    if (w) w->parked_queue = -1;
    *waiter = w;
    return true;
}

bool core_queue_take(struct core_queue *q, sim_time *t)
{
    if (q->items <= 0) return false;
    q->items--;
    if (q->initial_left > 0) {  /* FIFO: the items present at start come first */
        q->initial_left--;
        *t = 0;
        return true;
    }
    *t = q->ts[q->head];
    q->head = (q->head + 1) & (q->cap - 1);
    q->len--;
    return true;
}

void core_queue_wait(struct core_queue *q, struct core_thread *th, int idx)
{
    th->parked_queue = idx;
    core_waitq_push(&q->waiters, th);
}
