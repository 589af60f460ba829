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

#include <stdlib.h>

#include "../common/err.h"
#include "sched_inline.h"

int core_sched_init(struct core_sched *s, const struct core_policy *policy,
                    const struct core_hooks *hooks, int nthreads)
{
    s->running = s->deferred = s->last_ran = NULL;
    s->rq_cap = nthreads > 0 ? nthreads : 1;
    s->rq_first = s->readyq_cnt = 0;
    s->rq = calloc((size_t)s->rq_cap, sizeof *s->rq);
    s->is_running = s->is_running_timeslice = false;
    atomic_init(&s->runnable_hot_th, NULL);
    atomic_init(&s->runnable_hot_th_waiting, false);
    s->handoffs = 0;
    s->barging = (struct core_barging){ NULL, true, false, false, 0 };
    s->policy = policy;
    s->hooks = hooks;
    return s->rq ? GV_OK : GV_ENOMEM;
}

void core_sched_free(struct core_sched *s)
{
    free(s->rq);
    s->rq = NULL;
    s->rq_cap = 0;
}

void core_rq_append(struct core_sched *s, struct core_thread *th)
{
    core_rq_append_h(s, th, s->hooks);
}

void core_rq_push_head(struct core_sched *s, struct core_thread *th)
{
    s->rq_first = s->rq_first ? s->rq_first - 1 : s->rq_cap - 1;
    s->rq[s->rq_first] = th;
    th->in_readyq = true;
    s->readyq_cnt++;
    core_readyq_changed_h(s, s->hooks);
}

struct core_thread *core_rq_pop(struct core_sched *s)
{
    return core_rq_pop_h(s, s->hooks);
}

void core_rq_remove(struct core_sched *s, struct core_thread *th)
{
    int i = 0;
    while (i < s->readyq_cnt && core_rq_at(s, i) != th) i++;
    if (i == s->readyq_cnt) return;
    /* the ones behind it move up */
    for (; i + 1 < s->readyq_cnt; i++) {
        int k = s->rq_first + i;
        if (k >= s->rq_cap) k -= s->rq_cap;
        s->rq[k] = core_rq_at(s, i + 1);
    }
    th->in_readyq = false;
    s->readyq_cnt--;
    core_readyq_changed_h(s, s->hooks);
}

void core_sched_enq(struct core_sched *s, struct core_thread *th, void *by)
{
    core_sched_enq_h(s, th, by, s->hooks);
}

bool core_sched_to_ready(struct core_sched *s, struct core_thread *th, bool wakeup, void *by)
{
    return core_sched_to_ready_h(s, th, wakeup, by, s->hooks);
}

struct core_thread *core_sched_wakeup_next(struct core_sched *s, struct core_thread *cur, void *by)
{
    return core_sched_wakeup_next_h(s, cur, by, s->hooks);
}

bool core_sched_to_running(struct core_sched *s, struct core_thread *th, void *by)
{
    return core_sched_to_running_h(s, th, by, s->hooks);
}

void core_sched_mark_hot(struct core_sched *s, struct core_thread *th)
{
    atomic_store_explicit(&s->runnable_hot_th, th, memory_order_relaxed);
    atomic_store_explicit(&s->runnable_hot_th_waiting, false, memory_order_relaxed);
}

void core_sched_hot_back(struct core_sched *s, struct core_thread *th)
{
    core_sched_hot_back_h(s, th);
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
    core_sched_acquired_h(s, th);
}

bool core_sched_ready(struct core_sched *s, struct core_thread *th, void *by)
{
    return core_sched_ready_h(s, th, by, s->hooks);
}

bool core_sched_yield(struct core_sched *s, struct core_thread *th, void *by)
{
    if (s->readyq_cnt == 0) return false;
    core_sched_wakeup_next(s, th, by);
    core_sched_to_ready(s, th, false, by);
    return true;
}
