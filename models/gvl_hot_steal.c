/* gvl_hot_steal.c - "Give the hot thread scheduler priority": PR 15840
 * (J. Lacouture; commits ddb8d353ac and 5796bc37d5 "use a hint...", merged
 * 2026-03, backported to 4.0 as #17751).  CRuby master's behaviour.
 *
 * Blocking-region entry is still eager (thread_sched_to_waiting_common
 * dequeues the head of the ready queue, makes it `running` and signals it),
 * but a thread entering BLOCKING_REGION (yield_immediately == false; not
 * THREAD_BLOCKING_BEGIN's native sleeps, not rb_thread_call_with_gvl) is
 * recorded as sched->runnable_hot_th.  Back from its syscall it stores
 * runnable_hot_th_waiting = 1 without the lock (thread_sched_to_running),
 * takes sched->lock_, and in thread_sched_wait_running_turn, if it is still
 * the hot thread - its successor has not yet finished taking over, which
 * clears the hint - it steals: the successor goes back to the head of the
 * ready queue and the hot thread runs on with no sleep.  The successor,
 * already signalled, wakes on its core for nothing and sleeps again: a
 * wasted wake and two context switches off the hot thread's critical path.
 *
 * The steal itself and the successor's wasted wake live in gvl.c
 * (gvl_wait_running_turn, turn_wake), as they do in thread_pthread.c; this
 * file arms the hint and models the hot thread's lock-free store and its
 * spin on sched->lock_ when a waking successor holds it (see turn_wake).
 */
#include "gvl.h"
#include "gvl_policy.h"
#include "thread.h"

/* thread_sched_to_waiting_common */
static void hot_blocking_enter(struct rb_thread *th, bool yield_immediately)
{
    if (!yield_immediately) core_sched_mark_hot(core_sched_of(&th->core), &th->core);
    gvl_wakeup_next(th);
}

static void hot_locked(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    gvl_to_running(th, th->gvl_k);
}

/* thread_sched_to_running */
static void hot_blocking_exit(struct rb_thread *th, th_cont k)
{
    struct rb_ractor *r = rb_ractor_of(th);
    /* the hint, stored before taking the lock */
    core_sched_hot_back(&r->core.sched, &th->core);
    if (r->lock_holder != NULL && r->lock_holder != th) {
        /* a waking successor holds sched->lock_: spin until it lets go */
        sim_time now = sim_now(th->vm->eng);
        sim_time spin = r->lock_free_at > now ? r->lock_free_at - now : 0;
        th->gvl_k = k;
        th_burst(th, spin, hot_locked);
        return;
    }
    gvl_to_running(th, k);
}

const struct gvl_policy gvl_hot_steal = {
    .name = "hot_steal",
    .id = GVL_POLICY_HOT_STEAL,
    .blocking_enter = hot_blocking_enter,
    .blocking_exit = hot_blocking_exit,
    /* thread_sched_to_waiting_until_wakeup and ubf_waiting are untouched by
     * PR 15840: the Queue park/wake path is the 3.3 one */
    .park = gvl33_park,
    .ready = gvl33_ready,
    .yield = gvl33_yield,
    .start = gvl33_start,
    .dead = gvl33_dead,
    .tick = NULL,
    .uses_timer_thread = true,
};
