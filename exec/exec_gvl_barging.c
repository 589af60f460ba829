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

/* designate_timer_thread: wake the last waiter so that it becomes the timer. */
static void designate_timer_thread_locked(struct exec_sched *s, struct exec_actor_counts *by)
{
    struct exec_thread *last = s->rq_tail;
    if (!last) return;
    if (last->cond_waiting) by->wakeups++;
    pthread_cond_signal(&last->cond);  /* not `signalled`: this wake is not for the GVL */
}

/* do_gvl_timer: the designated waiter's timed wait. */
static void do_gvl_timer_locked(struct exec_sched *s, struct exec_thread *th)
{
    struct exec_vm *vm = th->vm;
    s->timer_th = th;
    if (s->timer_timedout) {
        int64_t deadline = exec_now_ns() + exec_ps_to_ns(vm->scn->runtime.quantum);
        s->timer_abs = exec_abstime(deadline);
    }
    int64_t deadline_ns = (int64_t)s->timer_abs.tv_sec * 1000000000 + s->timer_abs.tv_nsec;
    th->cond_waiting = true;
    int rc = exec_cond_timedwait(th, &th->cond, &s->lock, deadline_ns);
    th->cond_waiting = false;
    s->timer_timedout = rc == ETIMEDOUT;
    /* time slice: the owner yields at its next safe point */
    if (s->running) {
        atomic_fetch_or(&s->running->interrupts, EXEC_INT_TIMER);
        s->barging_timer_fires++;
    }
    s->timer_th = NULL;
}

/* thread_sched_to_running_common (3.2) */
static void acquire_locked(struct exec_sched *s, struct exec_thread *th, bool queued)
{
    if (s->running) {
        if (!queued) exec_rq_append_locked(s, th);
        do {
            th->signalled = false;
            if (!s->timer_th) {
                do_gvl_timer_locked(s, th);
            } else {
                th->cond_waiting = true;
                exec_cond_wait(th, &th->cond, &s->lock);
                th->cond_waiting = false;
            }
            /* signalled by a release, but someone barged in first */
            if (s->running && th->signalled) th->c.wasted_wakes++;
        } while (s->running);
        exec_rq_remove_locked(s, th);
        if (s->need_yield) {
            s->need_yield = false;
            pthread_cond_signal(&s->switch_cond);
        }
        th->ac.gvl_handoffs++;
    } else {
        /* a thread queued by the start-up prefill finds the GVL free */
        if (th->in_readyq) exec_rq_remove_locked(s, th);
        s->timer_timedout = true;  /* reset the timer if uncontended */
    }
    s->running = th;
    if (th->vm->multi_ractor) exec_gvl_running_threads_update_locked(s, th, NULL, &th->ac);
    exec_gvl_acquired_locked(s, th);
    if (!s->timer_th) designate_timer_thread_locked(s, &th->ac);
}

/* thread_sched_to_waiting_common (3.2): returns the signalled waiter. */
static struct exec_thread *release_locked(struct exec_sched *s, struct exec_thread *th)
{
    exec_gvl_released(th);
    s->running = NULL;
    if (th->vm->multi_ractor) exec_gvl_running_threads_update_locked(s, NULL, th, &th->ac);
    struct exec_thread *next = s->rq_head;
    if (next) exec_gvl_signal_locked(next, &th->ac);
    return next;
}

static void barging_prefill(struct exec_sched *s, struct exec_thread *th)
{
    if (!s->running) s->running = th;
    else exec_rq_append_locked(s, th);
}

static void barging_start(struct exec_thread *th)
{
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&s->lock);
    if (s->running == th) {
        if (th->vm->multi_ractor) exec_gvl_running_threads_update_locked(s, th, NULL, &th->ac);
        exec_gvl_acquired_locked(s, th);
        if (!s->timer_th) designate_timer_thread_locked(s, &th->ac);
    } else {
        acquire_locked(s, th, th->in_readyq);
    }
    pthread_mutex_unlock(&s->lock);
}

static void barging_release(struct exec_thread *th, bool yield_immediately)
{
    (void)yield_immediately;
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&s->lock);
    release_locked(s, th);
    pthread_mutex_unlock(&s->lock);
}

static void barging_acquire(struct exec_thread *th)
{
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&s->lock);
    acquire_locked(s, th, false);
    pthread_mutex_unlock(&s->lock);
}

static void barging_dead(struct exec_thread *th)
{
    barging_release(th, false);
}

/* native_sleep of 3.2: release, sleep on the thread's condvar until
 * woken (the unblock function), then acquire like any other waiter. */
static void barging_park(struct exec_thread *th)
{
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&s->lock);
    if (th->park_woken) {  /* woken before it slept */
        th->park_woken = false;
        th->ready_at_ns = exec_now_ns();
        pthread_mutex_unlock(&s->lock);
        return;
    }
    release_locked(s, th);
    while (!th->park_woken) {
        th->cond_waiting = true;
        exec_cond_wait(th, &th->cond, &s->lock);
        th->cond_waiting = false;
    }
    th->park_woken = false;
    acquire_locked(s, th, false);
    pthread_mutex_unlock(&s->lock);
}

static void barging_ready(struct exec_actor_counts *by, struct exec_thread *th)
{
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&s->lock);
    th->park_woken = true;
    th->ready_at_ns = exec_now_ns();
    if (th->cond_waiting) by->wakeups++;
    pthread_cond_signal(&th->cond);
    pthread_mutex_unlock(&s->lock);
}

/* thread_sched_yield (3.2): release, wait until a waiter really took the
 * GVL (need_yield / switch_cond), then queue up again. */
static void barging_yield(struct exec_thread *th)
{
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&s->lock);
    struct exec_thread *next = release_locked(s, th);
    if (s->wait_yield) {
        while (s->wait_yield) exec_cond_wait(th, &s->switch_wait_cond, &s->lock);
    } else if (next) {
        s->need_yield = true;
        s->wait_yield = true;
        while (s->need_yield) exec_cond_wait(th, &s->switch_cond, &s->lock);
        s->wait_yield = false;
        pthread_cond_broadcast(&s->switch_wait_cond);
    } else {
        pthread_mutex_unlock(&s->lock);
        sched_yield();
        pthread_mutex_lock(&s->lock);
        pthread_cond_broadcast(&s->switch_wait_cond);
    }
    acquire_locked(s, th, false);
    pthread_mutex_unlock(&s->lock);
}

const struct exec_policy exec_policy_barging = {
    .name = "barging",
    .id = GVL_POLICY_BARGING,
    .prefill = barging_prefill,
    .start = barging_start,
    .blocking_enter = barging_release,
    .blocking_exit = barging_acquire,
    .park = barging_park,
    .ready = barging_ready,
    .yield = barging_yield,
    .dead = barging_dead,
    .credit_full_quantum = true,
};
