/* sched.h - the per-Ractor thread scheduler of CRuby 3.3+
 * (thread_pthread.c): `running`, the FIFO ready queue, and the decisions
 * of the hand-off protocol between them.  Each function is named after the
 * CRuby function whose decision it makes.
 *
 * A decision changes core_sched and asks the backend, through the hooks
 * below, for what takes time or a lock: waking a thread's native thread,
 * entering or leaving vm running_threads, waking the timer thread.  The
 * simulator's hooks charge costs and schedule events, the executor's
 * signal condition variables; the executor calls every function with the
 * Ractor's sched lock held.  `by` is the backend's actor (the thread, the
 * timer thread or a helper) on whose behalf the hook runs.
 */
#ifndef CORE_SCHED_H
#define CORE_SCHED_H

#include "core.h"

struct core_hooks {
    /* thread_sched_wakeup_running_thread: th was made `running`; wake its
     * native thread if it sleeps.  `from` is the thread handing the GVL
     * over in thread_sched_wakeup_next_thread, NULL otherwise. */
    void (*signal)(struct core_sched *s, struct core_thread *th, struct core_thread *from, void *by);
    /* thread_sched_add_running_thread: th, `running`, enters vm
     * running_threads (and the timeslice set if it has waiters). */
    void (*add_running)(struct core_sched *s, struct core_thread *th);
    /* thread_sched_del_running_thread, done by `by` on th's behalf. */
    void (*del_running)(struct core_sched *s, struct core_thread *th, void *by);
    /* The running thread got its first waiter: it joins the timer
     * thread's timeslice set (thread_sched_setup_running_threads). */
    void (*timeslice_add)(struct core_sched *s, void *by);
    /* Optional: the ready queue's length changed (observers). */
    void (*readyq_changed)(struct core_sched *s);
    /* Optional: the ready queue stopped being empty (after the enqueue). */
    void (*waiters_appeared)(struct core_sched *s, void *by);
};

/* A Ractor's scheduler, with room in its ready queue for its nthreads
 * threads.  GV_OK or GV_ENOMEM; core_sched_free releases it. */
int core_sched_init(struct core_sched *s, const struct core_policy *policy,
                    const struct core_hooks *hooks, int nthreads);
void core_sched_free(struct core_sched *s);

/* The ready queue as a plain FIFO (no timeslice bookkeeping): the 2.x
 * GVL's wait queue uses these too. */
void core_rq_append(struct core_sched *s, struct core_thread *th);
void core_rq_push_head(struct core_sched *s, struct core_thread *th);
struct core_thread *core_rq_pop(struct core_sched *s);
void core_rq_remove(struct core_sched *s, struct core_thread *th);

/* thread_sched_enq: queue th; the running thread joins the timeslice set
 * when it gets its first waiter. */
void core_sched_enq(struct core_sched *s, struct core_thread *th, void *by);

/* thread_sched_to_ready_common: th becomes ready; if nobody runs it is
 * made `running` at once (and signalled if `wakeup`).  true if it was. */
bool core_sched_to_ready(struct core_sched *s, struct core_thread *th, bool wakeup, void *by);

/* thread_sched_wakeup_next_thread: `cur` (the running thread) hands the
 * GVL to the head of the ready queue, or to nobody, and leaves
 * running_threads.  Returns the new `running`. */
struct core_thread *core_sched_wakeup_next(struct core_sched *s, struct core_thread *cur, void *by);

/* thread_sched_to_running_common up to its wait: th becomes ready and, if
 * it took the GVL at once, enters running_threads.  true if th is
 * `running`; otherwise it must wait for its turn. */
bool core_sched_to_running(struct core_sched *s, struct core_thread *th, void *by);

/* thread_sched_to_waiting_common under PR 15840: th, entering a
 * BLOCKING_REGION, becomes sched->runnable_hot_th. */
void core_sched_mark_hot(struct core_sched *s, struct core_thread *th);

/* thread_sched_to_running: the lock-free "I am back" hint of PR 15840,
 * stored before the sched lock is taken. */
void core_sched_hot_back(struct core_sched *s, struct core_thread *th);

/* thread_sched_wait_running_turn, for th != running: PR 15840's steal.
 * If th is the hot thread and `can_steal` (it and the successor run on
 * dedicated native threads), the successor goes back to the head of the
 * queue and th is made `running` without sleeping; the successor will wake
 * for nothing.  A hot thread that cannot steal loses the hint.  true if
 * th is `running` now; otherwise it must sleep until it is. */
bool core_sched_steal(struct core_sched *s, struct core_thread *th, bool can_steal);

/* sched->runnable_hot_th (read without the lock, as CRuby does). */
static inline struct core_thread *core_sched_hot(struct core_sched *s)
{
    return atomic_load_explicit(&s->runnable_hot_th, memory_order_relaxed);
}

/* A woken successor holding the sched lock sees a hot thread spinning on
 * it ("give the hot thread a chance to preempt"): drop and re-take it. */
bool core_sched_hot_spinning(struct core_sched *s);

/* The turn is th's (rb_ractor_thread_switch): the previous owner can no
 * longer steal, and a thread switching in starts a new quantum. */
void core_sched_acquired(struct core_sched *s, struct core_thread *th);

/* ubf_waiting: a parked th is made ready by `by`.  false if th is still
 * `running` (it has not gone to sleep yet; it must not). */
bool core_sched_ready(struct core_sched *s, struct core_thread *th, void *by);

/* thread_sched_yield: false if nobody waits (th keeps the GVL); else th
 * handed it on and is queued behind: it must wait for its turn. */
bool core_sched_yield(struct core_sched *s, struct core_thread *th, void *by);

#endif
