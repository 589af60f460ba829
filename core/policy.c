/* policy.c - the GVL policies (policy.h), one table line each, and their
 * decisions.
 *
 * eager      CRuby 3.3 to 4.0.x before the backport of PR 15840 (#17751).
 *            At blocking-region entry (thread_sched_to_waiting_common) the
 *            head of the ready queue is made `running` and signalled at
 *            once, however short the coming syscall is.  At exit
 *            (thread_sched_to_running_common) the thread finds `running` is
 *            someone else, queues up behind them and sleeps: one voluntary
 *            context switch per syscall while anyone else is ready, and on a
 *            multi-core machine a cross-core wake-up per hand-off (bug
 *            #21685).
 * hot_steal  "Give the hot thread scheduler priority": PR 15840
 *            (J. Lacouture; commits ddb8d353ac and 5796bc37d5, merged
 *            2026-03, backported to 4.0 as #17751), CRuby master.  Entry is
 *            still eager, but a thread entering BLOCKING_REGION
 *            (yield_immediately false; not THREAD_BLOCKING_BEGIN's native
 *            sleeps) is recorded as sched->runnable_hot_th.  Back from its
 *            call it stores runnable_hot_th_waiting without the lock
 *            (thread_sched_to_running), and in thread_sched_wait_running_turn,
 *            if it is still the hot thread - its successor has not finished
 *            taking over, which clears the hint - it steals: the successor
 *            goes back to the head of the queue and wakes for nothing
 *            (core_sched_steal).
 * delayed    "Delay GVL handoff on blocking operation": PR 15529 (ko1,
 *            2025-12-12, closed without merge).  Entry wakes nobody and keeps
 *            `running`, setting a `waiting` flag (sched->deferred); a short
 *            operation ends with `running` unchanged and goes on without a
 *            switch.  The timer thread, checking running threads with
 *            waiters every 10 ms, finds the thread still in its operation
 *            and switches `running` to the next ready thread; the thread
 *            then queues up as usual when its operation ends.
 * threshold  Deferred suspend with a helper thread: PR 15294 (J. Lacouture,
 *            on 3.4.7; superseded by PR 15840), known from the bug thread:
 *            "defers suspending the thread until the syscall has been
 *            running for some short interval. I chose 100usec", with a
 *            helper thread per Ractor.  As delayed, but the helper hands the
 *            GVL on once the region has run for runtime.threshold.
 * barging    The GVL of CRuby 2.6 to 3.2 (thread_pthread.c of v3_2_0):
 *            release clears the owner and signals the first waiter, handing
 *            nothing over; whoever finds the owner NULL first takes it, so a
 *            thread back from a short syscall usually re-takes the GVL
 *            before the signalled waiter runs.  No timer thread: the first
 *            waiter becomes the designated timer (do_gvl_timer), and every
 *            return of its timed wait sets TIMER on the owner, which credits
 *            a whole quantum (running_time_us += TIME_QUANTUM_USEC).
 *
 * Native sleeps (THREAD_BLOCKING_BEGIN) are deferred like system calls
 * under delayed and threshold: both PRs predate the yield_immediately flag
 * (PR 15840, 2026-01), and in the code they patched THREAD_BLOCKING_BEGIN
 * and BLOCKING_REGION reached the same thread_sched_to_waiting_common.  No
 * policy touches the Queue park/wake path (thread_sched_to_waiting_until_wakeup
 * calls thread_sched_wakeup_next_thread directly).  docs/policies.md has
 * the reasoning and every table.
 */
#include "policy.h"

#include "sched.h"
#include "sched_inline.h"

static const struct core_policy policies[GVL_POLICY_COUNT] = {
    [GVL_POLICY_EAGER] = { .name = "eager", .id = GVL_POLICY_EAGER, .uses_timer_thread = true },
    [GVL_POLICY_HOT_STEAL] = { .name = "hot_steal", .id = GVL_POLICY_HOT_STEAL, .marks_hot = true,
                               .uses_timer_thread = true },
    [GVL_POLICY_DELAYED] = { .name = "delayed", .id = GVL_POLICY_DELAYED, .defer = CORE_DEFER_TIMER,
                             .uses_timer_thread = true },
    [GVL_POLICY_THRESHOLD] = { .name = "threshold", .id = GVL_POLICY_THRESHOLD,
                               .defer = CORE_DEFER_HELPER, .uses_timer_thread = true },
    [GVL_POLICY_BARGING] = { .name = "barging", .id = GVL_POLICY_BARGING, .barging = true,
                             .tick_credits_quantum = true },
};

const struct core_policy *core_policy_get(enum scn_gvl_policy id)
{
    if ((unsigned)id >= GVL_POLICY_COUNT) return NULL;
    return &policies[id];
}

/* ---- blocking regions --------------------------------------------------------- */

enum core_enter core_blocking_enter(struct core_sched *s, struct core_thread *th, bool yield_immediately,
                                    void *by)
{
    return core_blocking_enter_h(s, th, yield_immediately, by, s->hooks);
}

enum core_exit core_blocking_exit(struct core_sched *s, struct core_thread *th)
{
    return core_blocking_exit_h(s, th);
}

bool core_sched_handoff_deferred(struct core_sched *s, void *by)
{
    struct core_thread *th = s->deferred;
    if (!th || s->readyq_cnt == 0 || s->running != th) return false;
    s->deferred = NULL;
    core_sched_wakeup_next(s, th, by);
    return true;
}

enum core_helper_step core_helper_next(const struct core_sched *s, sim_time age, sim_time threshold,
                                       sim_time *sleep)
{
    *sleep = 0;
    if (s->readyq_cnt == 0) return CORE_HELPER_IDLE;
    if (s->deferred) {
        if (age >= threshold) return CORE_HELPER_HANDOFF;
        *sleep = threshold - age;
        return CORE_HELPER_SLEEP;
    }
    *sleep = threshold > CORE_HELPER_MIN_POLL ? threshold : CORE_HELPER_MIN_POLL;
    return CORE_HELPER_SLEEP;
}

bool core_sched_tick(struct core_sched *s, void *by)
{
    if (!s->is_running_timeslice || !s->running) return false;
    if (s->policy->defer == CORE_DEFER_TIMER) {
        core_sched_handoff_deferred(s, by);
        if (!s->is_running_timeslice || !s->running) return false;
    }
    return true;
}

bool core_thread_tick(struct core_thread *th, const struct scn_runtime *rt)
{
    sim_time credit = th->ractor->sched.policy->tick_credits_quantum ? rt->quantum : rt->timer_tick;
    /* only running_time >= quantum matters: saturate rather than overflow
     * when a thread keeps the GVL through very many ticks */
    th->running_time = th->running_time > SIM_TIME_MAX - credit ? SIM_TIME_MAX : th->running_time + credit;
    return th->running_time >= rt->quantum;
}

bool core_tick_yields(const struct core_sched *s, int living)
{
    return s->policy->barging ? living > 1 : s->readyq_cnt > 0;
}

/* ---- barging -------------------------------------------------------------------- */

struct core_thread *core_barging_release(struct core_sched *s, void *by)
{
    struct core_thread *next = core_rq_first(s);
    s->running = NULL;
    if (next) s->hooks->signal(s, next, NULL, by);
    return next;
}

bool core_barging_uncontended(struct core_sched *s, struct core_thread *th)
{
    if (s->running) return false;
    /* a thread queued at start-up (the executor's prefill) finds it free */
    if (th->in_readyq) core_rq_remove(s, th);
    s->barging.timer_timedout = true;  /* reset the timer if uncontended */
    return true;
}

bool core_barging_got_it(struct core_sched *s, struct core_thread *th)
{
    core_rq_remove(s, th);
    s->handoffs++;  /* the GVL passed to a thread that waited for it */
    if (!s->barging.need_yield) return false;
    s->barging.need_yield = false;
    return true;
}

struct core_thread *core_barging_take(struct core_sched *s, struct core_thread *th)
{
    s->running = th;
    return !s->barging.timer ? core_rq_last(s) : NULL;
}

bool core_barging_timer_begin(struct core_sched *s, struct core_thread *th)
{
    s->barging.timer = th;
    return s->barging.timer_timedout;
}

struct core_thread *core_barging_timer_end(struct core_sched *s, bool timed_out)
{
    s->barging.timer_timedout = timed_out;
    s->barging.timer = NULL;
    if (s->running) s->barging.timer_fires++;
    return s->running;
}

enum core_yield core_barging_yield(struct core_sched *s, void *by)
{
    struct core_thread *next = core_barging_release(s, by);
    if (s->barging.wait_yield) return CORE_YIELD_WAIT_SWITCH;
    if (!next) return CORE_YIELD_NATIVE;
    s->barging.need_yield = true;
    s->barging.wait_yield = true;
    return CORE_YIELD_WAIT_TAKEN;
}

bool core_barging_sleep_ppoll(struct core_thread **sigwait, struct core_thread *th, bool is_main)
{
    if (*sigwait == NULL) {
        *sigwait = th;
        return true;
    }
    return *sigwait == th || is_main;
}

bool core_barging_sleep_yields(const struct core_thread *next, int living)
{
    return next == NULL && living > 1;
}

void core_barging_sleep_end(struct core_thread **sigwait, struct core_thread *th)
{
    if (*sigwait == th) *sigwait = NULL;
}
