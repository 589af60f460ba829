/* policy.h - the GVL policies around blocking regions, each described
 * once: as data (the table in policy.c) and the decisions below, which
 * both backends call at the same points of a thread's life.  A policy
 * added later is a line of the table (and, if it needs a new kind of
 * decision, a case here); both backends run it.
 *
 * The 3.3+ policies share the scheduler of core/sched.h and differ only in
 * what a blocking region does with the GVL and who hands a kept GVL on.
 * barging is the 2.6-3.2 GVL, a different lock: its rules are the
 * core_barging_* decisions.
 */
#ifndef CORE_POLICY_H
#define CORE_POLICY_H

#include "core.h"

/* Who hands a GVL kept across a blocking region on to a waiter. */
enum core_defer {
    CORE_DEFER_NONE,    /* nobody: the region hands it on at entry (eager, hot_steal) */
    CORE_DEFER_TIMER,   /* the timer thread's tick, if the region still runs (delayed, PR 15529) */
    CORE_DEFER_HELPER   /* a per-Ractor helper, `threshold` after the region began (PR 15294) */
};

struct core_policy {
    const char *name;
    enum scn_gvl_policy id;
    bool barging;               /* the 2.6-3.2 GVL: release clears the owner, first to lock wins */
    bool marks_hot;             /* PR 15840: a BLOCKING_REGION records sched->runnable_hot_th */
    enum core_defer defer;
    bool uses_timer_thread;     /* the 3.3 timer thread times the quantum (barging: the first waiter) */
    bool tick_credits_quantum;  /* a TIMER interrupt credits a whole quantum (<= 3.2), not one tick */
};

const struct core_policy *core_policy_get(enum scn_gvl_policy id);

/* ---- blocking regions (3.3+ and barging) ---------------------------------- */

enum core_enter {
    CORE_ENTER_HANDED_ON,  /* the GVL went to the head of the queue (or to nobody) */
    CORE_ENTER_KEPT,       /* th keeps the GVL through the region (sched->deferred) */
    CORE_ENTER_RELEASE     /* barging: the caller releases it (core_barging_release) */
};

/* BLOCKING_REGION (yield_immediately false) or THREAD_BLOCKING_BEGIN of a
 * native sleep (true) entered by th, the running thread
 * (thread_sched_to_waiting_common). */
enum core_enter core_blocking_enter(struct core_sched *s, struct core_thread *th, bool yield_immediately,
                                    void *by);

enum core_exit {
    CORE_EXIT_KEPT,        /* nobody took the GVL over: go on without a switch */
    CORE_EXIT_QUEUE,       /* thread_sched_to_running: ready, then wait for the turn */
    CORE_EXIT_ACQUIRE      /* barging: acquire the 2.x GVL */
};

/* The region ends (thread_sched_to_running_common).  A hot thread's hint
 * (core_sched_hot_back) is the caller's, before it takes the sched lock. */
enum core_exit core_blocking_exit(struct core_sched *s, struct core_thread *th);

/* A deferred region's GVL goes to the head of the queue on th's behalf,
 * done by `by` (the delayed policy's tick, the threshold helper), if the
 * region still runs and someone waits.  true if it was handed on. */
bool core_sched_handoff_deferred(struct core_sched *s, void *by);

/* The threshold policy's helper thread (PR 15294), as both backends run
 * it.  What it does when it looks at the sched, `age` after the deferred
 * region (s->deferred, if any) began:
 * - nobody ready: CORE_HELPER_IDLE, it waits without a timeout until the
 *   enqueue that makes the ready queue non-empty wakes it (the
 *   waiters_appeared hook);
 * - a deferred region `threshold` old or older: CORE_HELPER_HANDOFF
 *   (core_sched_handoff_deferred), then it looks again;
 * - a younger deferred region: CORE_HELPER_SLEEP until it is `threshold` old;
 * - none (the owner runs Ruby code): CORE_HELPER_SLEEP for `threshold`, at
 *   least CORE_HELPER_MIN_POLL, and it looks again, so that a region is
 *   noticed without a wake-up per system call: "the additional thread and
 *   the magic number (sleep time)" of its author's description.
 * *sleep gets the sleep's length. */
enum core_helper_step { CORE_HELPER_IDLE, CORE_HELPER_HANDOFF, CORE_HELPER_SLEEP };
#define CORE_HELPER_MIN_POLL (20 * SIM_US)
enum core_helper_step core_helper_next(const struct core_sched *s, sim_time age, sim_time threshold,
                                       sim_time *sleep);

/* timer_thread_check_timeslice for one Ractor: the policy's hand-off at
 * the tick first (a thread that lost the GVL gets no TIMER), then true if
 * `running` is in the timeslice set and gets a TIMER interrupt. */
bool core_sched_tick(struct core_sched *s, void *by);

/* th executes a TIMER interrupt: one tick's credit to running_time (a
 * whole quantum under <= 3.2).  true once the quantum is used up
 * (rb_thread_schedule_limits then yields: core_tick_yields). */
bool core_thread_tick(struct core_thread *th, const struct scn_runtime *rt);

/* rb_thread_schedule_limits: whether a thread whose quantum is used up
 * yields.  CRuby yields unless the thread is its Ractor's only living one
 * (rb_thread_alone); under 3.3+ a yield with nobody ready changes nothing
 * (thread_sched_yield), so only the barging GVL's differs: its gvl_yield
 * releases the GVL, sched_yield()s and takes it again when nobody waits. */
bool core_tick_yields(const struct core_sched *s, int living);

/* ---- barging: the 2.6-3.2 GVL (thread_pthread.c of v3_2_0) ------------------ */

/* thread_sched_to_waiting_common: clear the owner and signal the first
 * waiter (the signal hook); returns it. */
struct core_thread *core_barging_release(struct core_sched *s, void *by);

/* thread_sched_to_running_common with nobody `running`: th takes the GVL
 * at once ("reset timer if uncontended").  false if someone owns it: th
 * queues (core_rq_append) and waits until the owner is NULL. */
bool core_barging_uncontended(struct core_sched *s, struct core_thread *th);

/* th's wait loop found the owner NULL: it leaves the queue, and the GVL
 * has passed to a thread that waited for it (s->handoffs, as a hand-off
 * to a waiting successor under the other policies; a take that did not
 * wait is not one, even by another thread than the last to run).  true if
 * a yielder waits for this (need_yield): signal it (switch_cond). */
bool core_barging_got_it(struct core_sched *s, struct core_thread *th);

/* th becomes the owner.  Returns the waiter to designate as the timer
 * (designate_timer_thread: the tail, in the queue longest), or NULL. */
struct core_thread *core_barging_take(struct core_sched *s, struct core_thread *th);

/* do_gvl_timer: th, a waiter, becomes the designated timer.  true if the
 * last wait timed out: arm a new deadline, a quantum from now. */
bool core_barging_timer_begin(struct core_sched *s, struct core_thread *th);
/* Its timed wait returned (timed out or signalled): returns the owner to
 * interrupt with TIMER ("Timeslice"), or NULL; counts such interrupts in
 * s->barging.timer_fires. */
struct core_thread *core_barging_timer_end(struct core_sched *s, bool timed_out);

enum core_yield {
    CORE_YIELD_WAIT_SWITCH,  /* another yield is in progress: wait until it ends (switch_wait_cond) */
    CORE_YIELD_WAIT_TAKEN,   /* wait until a waiter took the GVL (need_yield, switch_cond) */
    CORE_YIELD_NATIVE        /* nobody waits: native_thread_yield, then acquire again */
};
/* thread_sched_yield: release the GVL (signalling the first waiter) and
 * say how to wait before acquiring it again. */
enum core_yield core_barging_yield(struct core_sched *s, void *by);

/* native_sleep (2.6-3.2; Queue#pop on an empty queue, join): the first
 * sleeper of the process takes the signal self-pipe (rb_sigwait_fd_get,
 * `*sigwait` is the process's holder) and sleeps in ppoll on it; without
 * it the main thread still sleeps in ppoll (native_ppoll_sleep); any other
 * thread sleeps on its condvar (native_cond_sleep).  Returns true for the
 * two ppoll paths: they release the GVL with THREAD_BLOCKING_YIELD
 * (GVL_UNLOCK_BEGIN_YIELD in 3.1), which calls sched_yield() when the
 * release signalled no waiter and the Ractor has another living thread -
 * "Single CPU setups benefit from explicit sched_yield() before ppoll()"
 * ([Bug #15398]) - and sleep only if nothing woke them meanwhile.  Their
 * unblock function writes to the pipe (ubf_sigwait, ubf_ppoll_sleep). */
bool core_barging_sleep_ppoll(struct core_thread **sigwait, struct core_thread *th, bool is_main);
/* THREAD_BLOCKING_YIELD's test: yield after a release that signalled
 * `next` (NULL: nobody waited), `living` threads in the Ractor. */
bool core_barging_sleep_yields(const struct core_thread *next, int living);
/* The sleep ended (rb_sigwait_fd_put): the pipe is free again if th held it. */
void core_barging_sleep_end(struct core_thread **sigwait, struct core_thread *th);

#endif
