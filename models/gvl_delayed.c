/* gvl_delayed.c - "Delay GVL handoff on blocking operation": PR 15529 (ko1,
 * 2025-12-12, closed without merge), from its description:
 *
 *   Short blocking operation: (1) thread_sched_to_waiting_common() does not
 *   schedule another ready thread but sets a `waiting` flag; (2) when the
 *   operation finishes, thread_sched_to_running_common() runs without a
 *   context switch, sched->running unchanged: clear the flag, keep going.
 *   Long blocking operation: (2) the timer thread, checking the running
 *   threads for their timeslice every 10 ms, finds the thread in its
 *   blocking operation and (3) switches `running` to another ready thread;
 *   (4) when the operation finishes, `running` is someone else (or NULL)
 *   and the thread queues up as usual.
 *
 * The blocked thread stays `running` and in running_threads, so once
 * another thread queues behind it, it is in the timeslice set and the
 * timer ticks (timer.c); the waiting flag is th->blocking.
 *
 * Native sleeps (THREAD_BLOCKING_BEGIN) are delayed too: the PR predates the
 * yield_immediately flag (added by PR 15840, 2026-01), and in the code it
 * patched THREAD_BLOCKING_BEGIN and BLOCKING_REGION both called
 * thread_sched_to_waiting -> thread_sched_to_waiting_common, the function
 * it changed.  So a `sleep` keeps the GVL until it ends or a tick hands it
 * on.  The Queue park path (thread_sched_to_waiting_until_wakeup) calls
 * thread_sched_wakeup_next_thread directly and is unchanged.
 */
#include "gvl.h"
#include "gvl_policy.h"

static void delayed_blocking_enter(struct rb_thread *th, bool yield_immediately)
{
    /* set the waiting flag (th->blocking, set by the caller); wake nobody */
    (void)th;
    (void)yield_immediately;
}

static void delayed_blocking_exit(struct rb_thread *th, th_cont k)
{
    if (core_sched_of(&th->core)->running == &th->core) {
        /* short operation: clear the flag and keep going */
        gvl_acquired(th, k);
        return;
    }
    /* the timer handed the GVL on meanwhile */
    gvl_to_running(th, k);
}

/* the timer thread's check of a running thread with waiters */
static void delayed_tick(struct core_sched *s)
{
    struct rb_thread *run = rb_thread_of(s->running);
    if (!run || !run->blocking || !s->rq_head) return;
    struct vm *vm = run->vm;
    struct gvl_actor timer = { &vm->timer.nt, &vm->timer.pending_cost };
    gvl_wakeup_next_by(run, timer);
}

const struct gvl_policy gvl_delayed = {
    .name = "delayed",
    .id = GVL_POLICY_DELAYED,
    .blocking_enter = delayed_blocking_enter,
    .blocking_exit = delayed_blocking_exit,
    .park = gvl33_park,
    .ready = gvl33_ready,
    .yield = gvl33_yield,
    .start = gvl33_start,
    .dead = gvl33_dead,
    .tick = delayed_tick,
    .uses_timer_thread = true,
};
