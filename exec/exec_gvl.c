/* exec_gvl.c - the GVL's entries on real threads, called at the same
 * points of a thread's life as the simulator's (models/gvl.c): the
 * policy's decisions (core/policy.h) under the Ractor's sched lock, the
 * 3.3+ scheduler of exec_sched.c, or the 2.x GVL of exec_gvl_barging.c.
 */
#include "exec_gvl.h"

#include "../core/policy.h"
#include "exec_gvl_barging.h"
#include "exec_sched.h"

void exec_gvl_prefill(struct exec_thread *th)
{
    /* the threads start in scenario order: the first owns the GVL, the
     * others queue behind it, as if each had called thread_sched_to_running */
    core_sched_to_ready(core_sched_of(&th->core), &th->core, false, &th->vm->controller_counts);
}

void exec_gvl_start(struct exec_thread *th)
{
    if (th->vm->policy->barging) {
        exec_gvl32_start(th);
        return;
    }
    struct exec_sched *xs = &exec_ractor_of(th)->sched;
    struct core_sched *s = core_sched_of(&th->core);
    pthread_mutex_lock(&xs->lock);
    if (s->running == &th->core) exec_sched_add_running_locked(th);  /* first in scenario order */
    else if (!th->core.in_readyq) core_sched_to_running(s, &th->core, &th->ac);  /* started later */
    exec_sched_wait_turn_locked(th);
    pthread_mutex_unlock(&xs->lock);
}

void exec_gvl_blocking_enter(struct exec_thread *th, bool yield_immediately)
{
    struct exec_ractor *r = exec_ractor_of(th);
    exec_sched_released(th);
    pthread_mutex_lock(&r->sched.lock);
    switch (core_blocking_enter(&r->core.sched, &th->core, yield_immediately, &th->ac)) {
    case CORE_ENTER_HANDED_ON: break;
    /* for the helper: since the thread's state change to blocking, which
     * every caller has just made (one clock read less per call) */
    case CORE_ENTER_KEPT: r->sched.blocked_since_ns = th->ts_since_ns; break;
    case CORE_ENTER_RELEASE: exec_gvl32_release_locked(r, th); break;
    }
    pthread_mutex_unlock(&r->sched.lock);
}

void exec_gvl_blocking_exit(struct exec_thread *th)
{
    struct exec_ractor *r = exec_ractor_of(th);
    struct core_sched *s = &r->core.sched;
    /* thread_sched_to_running: PR 15840's hint, stored before the lock */
    core_sched_hot_back(s, &th->core);
    pthread_mutex_lock(&r->sched.lock);
    switch (core_blocking_exit(s, &th->core)) {
    case CORE_EXIT_KEPT:  /* nobody took the GVL over: continue without a switch */
        exec_sched_acquired_locked(th);
        break;
    case CORE_EXIT_QUEUE:
        core_sched_to_running(s, &th->core, &th->ac);
        exec_sched_wait_turn_locked(th);
        break;
    case CORE_EXIT_ACQUIRE:
        exec_gvl32_acquire_locked(r, th, false);
        break;
    }
    pthread_mutex_unlock(&r->sched.lock);
}

void exec_gvl_park(struct exec_thread *th)
{
    if (th->vm->policy->barging) {
        exec_gvl32_park(th);
        return;
    }
    /* thread_sched_to_waiting_until_wakeup */
    struct exec_sched *xs = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&xs->lock);
    if (th->park_pending) {
        /* made ready before it could sleep (ubf_set saw the interrupt) */
        th->park_pending = false;
        th->ready_at_ns = exec_now_ns();
        pthread_mutex_unlock(&xs->lock);
        return;
    }
    exec_sched_released(th);
    core_sched_wakeup_next(core_sched_of(&th->core), &th->core, &th->ac);
    exec_sched_wait_turn_locked(th);
    pthread_mutex_unlock(&xs->lock);
}

void exec_gvl_ready(struct exec_actor_counts *by, struct exec_thread *th)
{
    if (th->vm->policy->barging) {
        exec_gvl32_ready(by, th);
        return;
    }
    /* ubf_waiting */
    struct exec_sched *xs = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&xs->lock);
    th->ready_at_ns = exec_now_ns();
    if (!core_sched_ready(core_sched_of(&th->core), &th->core, by)) th->park_pending = true;  /* not sleeping yet */
    pthread_mutex_unlock(&xs->lock);
}

bool exec_gvl_tick_yields(struct exec_thread *th)
{
    /* (3.3+: exec_gvl_yield looks at the ready queue under its lock) */
    if (!th->vm->policy->barging) return true;
    return core_tick_yields(core_sched_of(&th->core), exec_gvl32_living(exec_ractor_of(th)));
}

void exec_gvl_yield(struct exec_thread *th)
{
    if (th->vm->policy->barging) {
        exec_gvl32_yield(th);
        return;
    }
    /* thread_sched_yield */
    struct core_sched *s = core_sched_of(&th->core);
    struct exec_sched *xs = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&xs->lock);
    if (s->readyq_cnt > 0) {
        exec_sched_released(th);
        core_sched_yield(s, &th->core, &th->ac);
        exec_sched_wait_turn_locked(th);
    }
    pthread_mutex_unlock(&xs->lock);
}

void exec_gvl_dead(struct exec_thread *th)
{
    struct exec_ractor *r = exec_ractor_of(th);
    exec_sched_released(th);
    pthread_mutex_lock(&r->sched.lock);
    if (th->vm->policy->barging) exec_gvl32_release_locked(r, th);
    else core_sched_wakeup_next(&r->core.sched, &th->core, &th->ac);
    pthread_mutex_unlock(&r->sched.lock);
}
