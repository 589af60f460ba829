/* exec_policy.c - the 3.3-based GVL policies on real threads.
 *
 * eager      CRuby 3.3-4.0.x: at blocking-region entry the head of the
 *            ready queue is made `running` and signalled at once
 *            (thread_sched_to_waiting without the hot-thread hint).
 * hot_steal  PR 15840 (merged): the same eager signal, but the releasing
 *            thread is recorded as sched->runnable_hot_th; back from the
 *            call before its successor finished thread_sched_wait_running_turn,
 *            it steals the GVL back (exec_gvl.c) and the successor wakes
 *            for nothing.
 * delayed    PR 15529 (closed): entry wakes nobody and keeps `running`;
 *            it only marks the owner blocked.  The real timer thread
 *            (exec_timer.c), ticking every 10 ms while the owner has
 *            waiters, hands the GVL on if the owner is still blocked.
 * threshold  PR 15294 (described in the bug thread only): as delayed, but
 *            a helper thread per Ractor (exec_threshold.c) hands the GVL on
 *            once the call has run for runtime.threshold.
 * Sleeps (THREAD_BLOCKING_BEGIN, yield_immediately) hand off eagerly under
 * eager and hot_steal and are deferred like system calls under delayed and
 * threshold; no policy touches the Queue park/wake path.
 * barging (2.6-3.2) has its own GVL: exec_gvl_barging.c.
 */
#include "exec_policy.h"

#include "exec_gvl.h"

static void eager_blocking_enter(struct exec_thread *th, bool yield_immediately)
{
    (void)yield_immediately;
    exec_gvl33_to_waiting(th, false);
}

static void hot_steal_blocking_enter(struct exec_thread *th, bool yield_immediately)
{
    /* thread_sched_to_waiting_common: the hint only for BLOCKING_REGION */
    exec_gvl33_to_waiting(th, !yield_immediately);
}

/* delayed / threshold: keep the GVL, mark the owner blocked.  Native
 * sleeps too (yield_immediately is ignored): both PRs predate that flag
 * (PR 15840), and in the code they patched THREAD_BLOCKING_BEGIN and
 * BLOCKING_REGION reached the same thread_sched_to_waiting_common; the
 * simulator makes the same choice (docs/policies.md, "delayed"). */
static void deferred_blocking_enter(struct exec_thread *th, bool yield_immediately)
{
    (void)yield_immediately;
    struct exec_sched *xs = &exec_ractor_of(th)->sched;
    exec_gvl_released(th);
    pthread_mutex_lock(&xs->lock);
    xs->owner_blocked = true;
    xs->blocked_since_ns = exec_now_ns();
    pthread_mutex_unlock(&xs->lock);
}

static void deferred_blocking_exit(struct exec_thread *th)
{
    struct exec_sched *xs = &exec_ractor_of(th)->sched;
    struct core_sched *s = core_sched_of(&th->core);
    pthread_mutex_lock(&xs->lock);
    if (s->running == &th->core) {
        /* nobody took the GVL over: continue without a switch */
        xs->owner_blocked = false;
        exec_gvl_acquired_locked(th);
        pthread_mutex_unlock(&xs->lock);
        return;
    }
    /* handed on while blocked: queue up */
    core_sched_to_running(s, &th->core, &th->ac);
    exec_gvl_wait_running_turn_locked(th);
    pthread_mutex_unlock(&xs->lock);
}

static const struct exec_policy policy_eager = {
    .name = "eager",
    .id = GVL_POLICY_EAGER,
    .prefill = exec_gvl33_prefill,
    .start = exec_gvl33_start,
    .blocking_enter = eager_blocking_enter,
    .blocking_exit = exec_gvl33_to_running,
    .park = exec_gvl33_park,
    .ready = exec_gvl33_ready,
    .yield = exec_gvl33_yield,
    .dead = exec_gvl33_dead,
    .uses_timer_thread = true,
};

static const struct exec_policy policy_hot_steal = {
    .name = "hot_steal",
    .id = GVL_POLICY_HOT_STEAL,
    .prefill = exec_gvl33_prefill,
    .start = exec_gvl33_start,
    .blocking_enter = hot_steal_blocking_enter,
    .blocking_exit = exec_gvl33_to_running,
    .park = exec_gvl33_park,
    .ready = exec_gvl33_ready,
    .yield = exec_gvl33_yield,
    .dead = exec_gvl33_dead,
    .uses_timer_thread = true,
};

static const struct exec_policy policy_delayed = {
    .name = "delayed",
    .id = GVL_POLICY_DELAYED,
    .prefill = exec_gvl33_prefill,
    .start = exec_gvl33_start,
    .blocking_enter = deferred_blocking_enter,
    .blocking_exit = deferred_blocking_exit,
    .park = exec_gvl33_park,
    .ready = exec_gvl33_ready,
    .yield = exec_gvl33_yield,
    .dead = exec_gvl33_dead,
    .uses_timer_thread = true,
};

static const struct exec_policy policy_threshold = {
    .name = "threshold",
    .id = GVL_POLICY_THRESHOLD,
    .prefill = exec_gvl33_prefill,
    .start = exec_gvl33_start,
    .blocking_enter = deferred_blocking_enter,
    .blocking_exit = deferred_blocking_exit,
    .park = exec_gvl33_park,
    .ready = exec_gvl33_ready,
    .yield = exec_gvl33_yield,
    .dead = exec_gvl33_dead,
    .uses_timer_thread = true,
    .uses_helper = true,
};

const struct exec_policy *exec_policy_get(enum scn_gvl_policy id)
{
    switch (id) {
    case GVL_POLICY_EAGER: return &policy_eager;
    case GVL_POLICY_HOT_STEAL: return &policy_hot_steal;
    case GVL_POLICY_DELAYED: return &policy_delayed;
    case GVL_POLICY_THRESHOLD: return &policy_threshold;
    case GVL_POLICY_BARGING: return &exec_policy_barging;
    case GVL_POLICY_COUNT: break;
    }
    return NULL;
}

void exec_policy_waiters_appeared_locked(struct exec_ractor *r, struct exec_actor_counts *by)
{
    if (!r->vm->policy->uses_helper || !r->sched.helper_idle) return;
    by->wakeups++;
    r->sched.helper_idle = false;
    pthread_cond_signal(&r->sched.helper_cond);
}
