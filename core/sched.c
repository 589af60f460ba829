/* sched.c - the per-Ractor scheduler's decisions (sched.h).
 *
 * `running` owns the GVL; other ready threads wait in a FIFO ready queue.
 * Handing the GVL over (thread_sched_wakeup_next_thread) makes the queue
 * head `running` *before* it is awake and signals it: the successor owns
 * the GVL while still waking (the HANDOFF window of bug #21685).  A thread
 * that wants the GVL back while someone else is `running` queues up behind
 * them and sleeps until it is made `running` (thread_sched_wait_running_turn).
 */
#include "sched.h"

void core_sched_init(struct core_sched *s, const struct core_policy *policy,
                     const struct core_hooks *hooks)
{
    s->running = s->rq_head = s->rq_tail = s->deferred = s->last_ran = NULL;
    s->readyq_cnt = 0;
    s->is_running = s->is_running_timeslice = false;
    atomic_init(&s->runnable_hot_th, NULL);
    atomic_init(&s->runnable_hot_th_waiting, false);
    s->handoffs = 0;
    s->barging = (struct core_barging){ NULL, true, false, false };
    s->policy = policy;
    s->hooks = hooks;
}

static void readyq_changed(struct core_sched *s)
{
    if (s->hooks->readyq_changed) s->hooks->readyq_changed(s);
}

void core_rq_append(struct core_sched *s, struct core_thread *th)
{
    th->rq_next = NULL;
    if (s->rq_tail) s->rq_tail->rq_next = th;
    else s->rq_head = th;
    s->rq_tail = th;
    th->in_readyq = true;
    s->readyq_cnt++;
    readyq_changed(s);
}

void core_rq_push_head(struct core_sched *s, struct core_thread *th)
{
    th->rq_next = s->rq_head;
    s->rq_head = th;
    if (!s->rq_tail) s->rq_tail = th;
    th->in_readyq = true;
    s->readyq_cnt++;
    readyq_changed(s);
}

struct core_thread *core_rq_pop(struct core_sched *s)
{
    struct core_thread *th = s->rq_head;
    if (!th) return NULL;
    s->rq_head = th->rq_next;
    if (!s->rq_head) s->rq_tail = NULL;
    th->rq_next = NULL;
    th->in_readyq = false;
    s->readyq_cnt--;
    readyq_changed(s);
    return th;
}

void core_rq_remove(struct core_sched *s, struct core_thread *th)
{
    struct core_thread **pp = &s->rq_head, *prev = NULL;
    while (*pp && *pp != th) {
        prev = *pp;
        pp = &(*pp)->rq_next;
    }
    if (!*pp) return;
    *pp = th->rq_next;
    if (s->rq_tail == th) s->rq_tail = prev;
    th->rq_next = NULL;
    th->in_readyq = false;
    s->readyq_cnt--;
    readyq_changed(s);
}

void core_sched_enq(struct core_sched *s, struct core_thread *th, void *by)
{
    bool first = s->rq_head == NULL;
    if (first && s->is_running && !s->is_running_timeslice && s->running) s->hooks->timeslice_add(s, by);
    core_rq_append(s, th);
    if (first && s->hooks->waiters_appeared) s->hooks->waiters_appeared(s, by);
}

bool core_sched_to_ready(struct core_sched *s, struct core_thread *th, bool wakeup, void *by)
{
    if (s->running == NULL) {
        s->running = th;
        if (wakeup) s->hooks->signal(s, th, NULL, by);
        return true;
    }
    core_sched_enq(s, th, by);
    return false;
}

struct core_thread *core_sched_wakeup_next(struct core_sched *s, struct core_thread *cur, void *by)
{
    struct core_thread *next = core_rq_pop(s);
    s->running = next;
    if (next) {
        s->handoffs++;
        s->hooks->signal(s, next, cur, by);
    }
    if (cur != next) s->hooks->del_running(s, cur, by);
    return next;
}

bool core_sched_to_running(struct core_sched *s, struct core_thread *th, void *by)
{
    core_sched_to_ready(s, th, false, by);
    if (s->running != th) return false;
    s->hooks->add_running(s, th);
    return true;
}

void core_sched_mark_hot(struct core_sched *s, struct core_thread *th)
{
    atomic_store_explicit(&s->runnable_hot_th, th, memory_order_relaxed);
    atomic_store_explicit(&s->runnable_hot_th_waiting, false, memory_order_relaxed);
}

void core_sched_hot_back(struct core_sched *s, struct core_thread *th)
{
    if (atomic_load_explicit(&s->runnable_hot_th, memory_order_relaxed) == th)
        atomic_store_explicit(&s->runnable_hot_th_waiting, true, memory_order_relaxed);
}

bool core_sched_steal(struct core_sched *s, struct core_thread *th, bool can_steal)
{
    if (th == atomic_load_explicit(&s->runnable_hot_th, memory_order_relaxed)) {
        if (can_steal) {
            /* PR 15840: the hot thread is back before its successor took
             * over.  The successor goes back to the head of the queue and
             * the hot thread takes the GVL without sleeping; the successor
             * will wake, find running != self and sleep again. */
            struct core_thread *succ = s->running;
            if (succ) core_rq_push_head(s, succ);
            if (th->in_readyq) core_rq_remove(s, th);
            s->running = th;
        } else {
            atomic_store_explicit(&s->runnable_hot_th, NULL, memory_order_relaxed);
            atomic_store_explicit(&s->runnable_hot_th_waiting, false, memory_order_relaxed);
        }
    }
    return th == s->running;
}

bool core_sched_hot_spinning(struct core_sched *s)
{
    return atomic_load_explicit(&s->runnable_hot_th, memory_order_relaxed) != NULL &&
           atomic_load_explicit(&s->runnable_hot_th_waiting, memory_order_relaxed);
}

void core_sched_acquired(struct core_sched *s, struct core_thread *th)
{
    /* control transfer complete: the previous owner can no longer steal */
    atomic_store_explicit(&s->runnable_hot_th, NULL, memory_order_relaxed);
    atomic_store_explicit(&s->runnable_hot_th_waiting, false, memory_order_relaxed);
    if (s->last_ran != th) {
        th->running_time = 0;
        s->last_ran = th;
    }
}

bool core_sched_ready(struct core_sched *s, struct core_thread *th, void *by)
{
    if (s->running == th) return false;
    core_sched_to_ready(s, th, true, by);
    return true;
}

bool core_sched_yield(struct core_sched *s, struct core_thread *th, void *by)
{
    if (!s->rq_head) return false;
    core_sched_wakeup_next(s, th, by);
    core_sched_to_ready(s, th, false, by);
    return true;
}
