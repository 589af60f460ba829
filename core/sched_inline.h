/* sched_inline.h - the scheduler's hot decisions (sched.h, policy.h) as
 * inline functions taking the hooks table as an argument.
 *
 * Every GVL hand-off of a simulation passes through these, several times
 * per simulated event.  A backend that passes its own `static const`
 * hooks table here gets the decisions compiled into its code with its
 * hooks called directly (and inlined where the compiler sees fit), instead
 * of through two calls and a function pointer each (the simulator,
 * models/gvl.c).  sched.c and policy.c export the same decisions as plain
 * functions over s->hooks (the executor, tests): one body each, here.
 */
#ifndef CORE_SCHED_INLINE_H
#define CORE_SCHED_INLINE_H

#include "policy.h"
#include "sched.h"

static inline void core_readyq_changed_h(struct core_sched *s, const struct core_hooks *h)
{
    if (h->readyq_changed) h->readyq_changed(s);
}

static inline void core_rq_append_h(struct core_sched *s, struct core_thread *th,
                                    const struct core_hooks *h)
{
    int k = s->rq_first + s->readyq_cnt;
    s->rq[k >= s->rq_cap ? k - s->rq_cap : k] = th;
    th->in_readyq = true;
    s->readyq_cnt++;
    core_readyq_changed_h(s, h);
}

static inline struct core_thread *core_rq_pop_h(struct core_sched *s, const struct core_hooks *h)
{
    if (s->readyq_cnt == 0) return NULL;
    int first = s->rq_first;
    struct core_thread *th = s->rq[first];
    s->rq_first = first + 1 == s->rq_cap ? 0 : first + 1;
    th->in_readyq = false;
    s->readyq_cnt--;
    core_readyq_changed_h(s, h);
    return th;
}

/* thread_sched_enq */
static inline void core_sched_enq_h(struct core_sched *s, struct core_thread *th, void *by,
                                    const struct core_hooks *h)
{
    bool first = s->readyq_cnt == 0;
    if (first && s->is_running && !s->is_running_timeslice && s->running) h->timeslice_add(s, by);
    core_rq_append_h(s, th, h);
    if (first && h->waiters_appeared) h->waiters_appeared(s, by);
}

/* thread_sched_to_ready_common */
static inline bool core_sched_to_ready_h(struct core_sched *s, struct core_thread *th, bool wakeup,
                                         void *by, const struct core_hooks *h)
{
    if (s->running == NULL) {
        s->running = th;
        if (wakeup) h->signal(s, th, NULL, by);
        return true;
    }
    core_sched_enq_h(s, th, by, h);
    return false;
}

/* thread_sched_wakeup_next_thread */
static inline struct core_thread *core_sched_wakeup_next_h(struct core_sched *s, struct core_thread *cur,
                                                           void *by, const struct core_hooks *h)
{
    struct core_thread *next = core_rq_pop_h(s, h);
    s->running = next;
    if (next) {
        s->handoffs++;
        h->signal(s, next, cur, by);
    }
    if (cur != next) h->del_running(s, cur, by);
    return next;
}

/* thread_sched_to_running_common up to its wait */
static inline bool core_sched_to_running_h(struct core_sched *s, struct core_thread *th, void *by,
                                           const struct core_hooks *h)
{
    core_sched_to_ready_h(s, th, false, by, h);
    if (s->running != th) return false;
    h->add_running(s, th);
    return true;
}

/* ubf_waiting */
static inline bool core_sched_ready_h(struct core_sched *s, struct core_thread *th, void *by,
                                      const struct core_hooks *h)
{
    if (s->running == th) return false;
    core_sched_to_ready_h(s, th, true, by, h);
    return true;
}

/* thread_sched_wait_running_turn, for th != running: only the hot thread
 * of PR 15840 can steal (core_sched_steal); anyone else must wait. */
static inline bool core_sched_steal_h(struct core_sched *s, struct core_thread *th, bool can_steal)
{
    if (th != atomic_load_explicit(&s->runnable_hot_th, memory_order_relaxed)) return th == s->running;
    return core_sched_steal(s, th, can_steal);
}

/* thread_sched_to_running: PR 15840's "I am back" hint */
static inline void core_sched_hot_back_h(struct core_sched *s, struct core_thread *th)
{
    if (atomic_load_explicit(&s->runnable_hot_th, memory_order_relaxed) == th)
        atomic_store_explicit(&s->runnable_hot_th_waiting, true, memory_order_relaxed);
}

/* rb_ractor_thread_switch */
static inline void core_sched_acquired_h(struct core_sched *s, struct core_thread *th)
{
    /* control transfer complete: the previous owner can no longer steal */
    atomic_store_explicit(&s->runnable_hot_th, NULL, memory_order_relaxed);
    atomic_store_explicit(&s->runnable_hot_th_waiting, false, memory_order_relaxed);
    if (s->last_ran != th) {
        th->running_time = 0;
        s->last_ran = th;
    }
}

/* thread_sched_to_waiting_common at a blocking region's entry */
static inline enum core_enter core_blocking_enter_h(struct core_sched *s, struct core_thread *th,
                                                    bool yield_immediately, void *by,
                                                    const struct core_hooks *h)
{
    const struct core_policy *p = s->policy;
    if (p->barging) return CORE_ENTER_RELEASE;
    if (p->defer != CORE_DEFER_NONE) {
        /* keep `running`, mark the region; wake nobody */
        s->deferred = th;
        return CORE_ENTER_KEPT;
    }
    if (p->marks_hot && !yield_immediately) core_sched_mark_hot(s, th);
    core_sched_wakeup_next_h(s, th, by, h);
    return CORE_ENTER_HANDED_ON;
}

/* thread_sched_to_running_common at a blocking region's end */
static inline enum core_exit core_blocking_exit_h(struct core_sched *s, struct core_thread *th)
{
    const struct core_policy *p = s->policy;
    if (p->barging) return CORE_EXIT_ACQUIRE;
    if (p->defer != CORE_DEFER_NONE && s->running == th) {
        /* a short region: never handed on; clear the mark and go on */
        s->deferred = NULL;
        return CORE_EXIT_KEPT;
    }
    return CORE_EXIT_QUEUE;
}

#endif
