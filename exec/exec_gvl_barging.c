/* exec_gvl_barging.c - the GVL of CRuby 2.6-3.2 on real threads, from
 * thread_pthread.c of that era: thread_sched_to_running_common (acquire),
 * thread_sched_to_waiting_common (release), do_gvl_timer,
 * designate_timer_thread and thread_sched_yield (gvl_yield).
 *
 * Release only clears the owner (`running`) and signals the first waiter;
 * it hands nothing over.  Acquire re-checks the owner in its wait loop, so
 * whoever takes the sched lock first while the GVL is free wins: a thread
 * back from a short syscall usually re-takes the GVL before the signalled
 * waiter even runs, and that waiter wakes for nothing (a wasted wake).
 * There is no timer thread for time slices: the first waiter to find no
 * designated timer becomes it and waits with a 100 ms (runtime.quantum)
 * deadline; whenever that wait returns and the GVL is owned it sets the
 * owner's TIMER interrupt, which under 3.2 credits a whole quantum, so the
 * owner yields at its next safe point.
 *
 * The per-Ractor structure (exec_sched) is shared with the 3.3 code; the
 * ready queue is the GVL wait queue.  In multi-Ractor runs the threads also
 * enter and leave vm running_threads, so that the barrier (exec_vmlock.c)
 * works the same under every policy (3.2's own barrier counted blocking
 * threads instead: an approximation, documented in docs/exec-results.md).
 */
#include <errno.h>
#include <sched.h>

#include "exec_gvl.h"
#include "exec_policy.h"
#include "exec_wait.h"

/* designate_timer_thread: wake the last waiter so that it becomes the timer. */
static void designate_timer_thread_locked(struct exec_ractor *r, struct exec_actor_counts *by)
{
    struct exec_thread *last = exec_thread_of(r->core.sched.rq_tail);
    if (!last) return;
    if (last->cond_waiting) by->wakeups++;
    pthread_cond_signal(&last->cond);  /* not `signalled`: this wake is not for the GVL */
}

/* do_gvl_timer: the designated waiter's timed wait. */
static void do_gvl_timer_locked(struct exec_ractor *r, struct exec_thread *th)
{
    struct exec_sched *xs = &r->sched;
    struct exec_vm *vm = th->vm;
    xs->timer_th = th;
    if (xs->timer_timedout) {
        int64_t deadline = exec_now_ns() + exec_ps_to_ns(vm->scn->runtime.quantum);
        xs->timer_abs = exec_abstime(deadline);
    }
    int64_t deadline_ns = (int64_t)xs->timer_abs.tv_sec * 1000000000 + xs->timer_abs.tv_nsec;
    th->cond_waiting = true;
    int rc = exec_cond_timedwait(th, &th->cond, &xs->lock, deadline_ns);
    th->cond_waiting = false;
    xs->timer_timedout = rc == ETIMEDOUT;
    /* time slice: the owner yields at its next safe point */
    if (r->core.sched.running) {
        atomic_fetch_or(&exec_thread_of(r->core.sched.running)->interrupts, EXEC_INT_TIMER);
        xs->barging_timer_fires++;
    }
    xs->timer_th = NULL;
}

/* thread_sched_to_running_common (3.2) */
static void acquire_locked(struct exec_ractor *r, struct exec_thread *th, bool queued)
{
    struct core_sched *s = &r->core.sched;
    struct exec_sched *xs = &r->sched;
    if (s->running) {
        if (!queued) core_rq_append(s, &th->core);
        do {
            th->signalled = false;
            if (!xs->timer_th) {
                do_gvl_timer_locked(r, th);
            } else {
                th->cond_waiting = true;
                exec_cond_wait(th, &th->cond, &xs->lock);
                th->cond_waiting = false;
            }
            /* signalled by a release, but someone barged in first */
            if (s->running && th->signalled) th->c.wasted_wakes++;
        } while (s->running);
        core_rq_remove(s, &th->core);
        if (xs->need_yield) {
            xs->need_yield = false;
            pthread_cond_signal(&xs->switch_cond);
        }
        s->handoffs++;
    } else {
        /* a thread queued by the start-up prefill finds the GVL free */
        if (th->core.in_readyq) core_rq_remove(s, &th->core);
        xs->timer_timedout = true;  /* reset the timer if uncontended */
    }
    s->running = &th->core;
    if (th->vm->multi_ractor) exec_gvl_running_threads_update_locked(r, th, NULL, &th->ac);
    exec_gvl_acquired_locked(th);
    if (!xs->timer_th) designate_timer_thread_locked(r, &th->ac);
}

/* thread_sched_to_waiting_common (3.2): returns the signalled waiter. */
static struct exec_thread *release_locked(struct exec_ractor *r, struct exec_thread *th)
{
    struct core_sched *s = &r->core.sched;
    exec_gvl_released(th);
    s->running = NULL;
    if (th->vm->multi_ractor) exec_gvl_running_threads_update_locked(r, NULL, th, &th->ac);
    struct exec_thread *next = exec_thread_of(s->rq_head);
    if (next) exec_gvl_signal_locked(next, &th->ac);
    return next;
}

static void barging_start(struct exec_thread *th)
{
    struct exec_ractor *r = exec_ractor_of(th);
    struct exec_sched *xs = &r->sched;
    pthread_mutex_lock(&xs->lock);
    if (r->core.sched.running == &th->core) {
        if (th->vm->multi_ractor) exec_gvl_running_threads_update_locked(r, th, NULL, &th->ac);
        exec_gvl_acquired_locked(th);
        if (!xs->timer_th) designate_timer_thread_locked(r, &th->ac);
    } else {
        acquire_locked(r, th, th->core.in_readyq);
    }
    pthread_mutex_unlock(&xs->lock);
}

static void barging_release(struct exec_thread *th, bool yield_immediately)
{
    (void)yield_immediately;
    struct exec_ractor *r = exec_ractor_of(th);
    struct exec_sched *xs = &r->sched;
    pthread_mutex_lock(&xs->lock);
    release_locked(r, th);
    pthread_mutex_unlock(&xs->lock);
}

static void barging_acquire(struct exec_thread *th)
{
    struct exec_ractor *r = exec_ractor_of(th);
    struct exec_sched *xs = &r->sched;
    pthread_mutex_lock(&xs->lock);
    acquire_locked(r, th, false);
    pthread_mutex_unlock(&xs->lock);
}

static void barging_dead(struct exec_thread *th)
{
    barging_release(th, false);
}

/* native_sleep of 3.2: release, sleep on the thread's condvar until
 * woken (the unblock function), then acquire like any other waiter. */
static void barging_park(struct exec_thread *th)
{
    struct exec_ractor *r = exec_ractor_of(th);
    struct exec_sched *xs = &r->sched;
    pthread_mutex_lock(&xs->lock);
    if (th->park_woken) {  /* woken before it slept */
        th->park_woken = false;
        th->ready_at_ns = exec_now_ns();
        pthread_mutex_unlock(&xs->lock);
        return;
    }
    release_locked(r, th);
    while (!th->park_woken) {
        th->cond_waiting = true;
        exec_cond_wait(th, &th->cond, &xs->lock);
        th->cond_waiting = false;
    }
    th->park_woken = false;
    acquire_locked(r, th, false);
    pthread_mutex_unlock(&xs->lock);
}

static void barging_ready(struct exec_actor_counts *by, struct exec_thread *th)
{
    struct exec_ractor *r = exec_ractor_of(th);
    struct exec_sched *xs = &r->sched;
    pthread_mutex_lock(&xs->lock);
    th->park_woken = true;
    th->ready_at_ns = exec_now_ns();
    if (th->cond_waiting) by->wakeups++;
    pthread_cond_signal(&th->cond);
    pthread_mutex_unlock(&xs->lock);
}

/* thread_sched_yield (3.2): release, wait until a waiter really took the
 * GVL (need_yield / switch_cond), then queue up again. */
static void barging_yield(struct exec_thread *th)
{
    struct exec_ractor *r = exec_ractor_of(th);
    struct exec_sched *xs = &r->sched;
    pthread_mutex_lock(&xs->lock);
    struct exec_thread *next = release_locked(r, th);
    if (xs->wait_yield) {
        while (xs->wait_yield) exec_cond_wait(th, &xs->switch_wait_cond, &xs->lock);
    } else if (next) {
        xs->need_yield = true;
        xs->wait_yield = true;
        while (xs->need_yield) exec_cond_wait(th, &xs->switch_cond, &xs->lock);
        xs->wait_yield = false;
        pthread_cond_broadcast(&xs->switch_wait_cond);
    } else {
        pthread_mutex_unlock(&xs->lock);
        sched_yield();
        pthread_mutex_lock(&xs->lock);
        pthread_cond_broadcast(&xs->switch_wait_cond);
    }
    acquire_locked(r, th, false);
    pthread_mutex_unlock(&xs->lock);
}

const struct exec_policy exec_policy_barging = {
    .name = "barging",
    .id = GVL_POLICY_BARGING,
    .prefill = exec_gvl33_prefill,
    .start = barging_start,
    .blocking_enter = barging_release,
    .blocking_exit = barging_acquire,
    .park = barging_park,
    .ready = barging_ready,
    .yield = barging_yield,
    .dead = barging_dead,
    .credit_full_quantum = true,
};
