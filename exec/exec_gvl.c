/* exec_gvl.c - CRuby 3.3+ per-Ractor thread scheduler on real pthreads
 * (thread_pthread.c).  The decisions are core/sched.c's; here each
 * Ractor's sched lock guards them, a thread waits for its turn on its own
 * condvar (thread_sched_wait_running_turn), and every switch updates vm
 * running_threads and the timeslice set under the global vm->sched_lock
 * (thread_sched_setup_running_threads), as CRuby does; the barrier
 * protocol (exec_vmlock.c) relies on that set.
 */
#include "exec_gvl.h"

#include "../core/policy.h"
#include "exec_gvl_barging.h"
#include "exec_threshold.h"
#include "exec_timer.h"
#include "exec_wait.h"

static struct core_sched *sched_of(const struct exec_thread *th) { return core_sched_of(&th->core); }

int exec_sched_init(struct exec_ractor *r)
{
    struct exec_sched *xs = &r->sched;
    core_sched_init(&r->core.sched, r->vm->policy, &exec_gvl_hooks);
    if (pthread_mutex_init(&xs->lock, NULL)) return -1;
    if (exec_cond_init(&xs->helper_cond)) return -1;
    if (exec_cond_init(&xs->switch_cond)) return -1;
    if (exec_cond_init(&xs->switch_wait_cond)) return -1;
    atomic_init(&xs->holders, 0);
    return 0;
}

void exec_sched_destroy(struct exec_ractor *r)
{
    pthread_mutex_destroy(&r->sched.lock);
    pthread_cond_destroy(&r->sched.helper_cond);
    pthread_cond_destroy(&r->sched.switch_cond);
    pthread_cond_destroy(&r->sched.switch_wait_cond);
}

/* thread_sched_setup_running_threads: under the global sched lock, update
 * running_threads (add_th / del_th) and the timeslice set (add_ts: the
 * Ractor's running thread joins it; a deleted running thread also leaves
 * it).  The caller holds the Ractor's sched lock. */
static void setup_running_threads(struct exec_ractor *r, struct exec_thread *add_th,
                                  struct exec_thread *del_th, bool add_ts, struct exec_actor_counts *by)
{
    struct core_sched *s = &r->core.sched;
    struct exec_vm *vm = r->vm;
    bool del_ts = del_th && s->is_running_timeslice;
    if (del_ts) s->is_running_timeslice = false;
    pthread_mutex_lock(&vm->sched_lock);
    if (del_th) {
        del_th->in_running_threads = false;
        vm->running_cnt--;
        /* ractor_sched_barrier_join_signal_locked */
        if (vm->barrier_waiting && vm->running_cnt - vm->barrier_waiting_cnt == 1)
            pthread_cond_signal(&vm->barrier_complete_cond);
        s->is_running = false;
    }
    if (add_th) {
        /* a thread switching in during a barrier must join it */
        if (vm->barrier_waiting) atomic_fetch_or(&add_th->interrupts, CORE_INT_VM_BARRIER);
        add_th->in_running_threads = true;
        vm->running_cnt++;
        s->is_running = true;
    }
    if (add_ts) {
        bool was_empty = vm->timeslice_cnt == 0;
        vm->timeslice_cnt++;
        s->is_running_timeslice = true;
        if (was_empty) exec_timer_wakeup_locked(vm, by);
    }
    if (del_ts) vm->timeslice_cnt--;
    pthread_mutex_unlock(&vm->sched_lock);
}

void exec_gvl_running_threads_update_locked(struct exec_ractor *r, struct exec_thread *add_th,
                                            struct exec_thread *del_th, struct exec_actor_counts *by)
{
    setup_running_threads(r, add_th, del_th, false, by);
}

void exec_gvl_add_running_thread_locked(struct exec_thread *th)
{
    setup_running_threads(exec_ractor_of(th), th, NULL, sched_of(th)->rq_head != NULL, &th->ac);
}

void exec_gvl_signal_locked(struct exec_thread *th, struct exec_actor_counts *by)
{
    if (th->cond_waiting) by->wakeups++;
    th->signalled = true;
    pthread_cond_signal(&th->cond);
}

/* ---- the hooks of core/sched.c -------------------------------------------- */

static void hook_signal(struct core_sched *s, struct core_thread *th, struct core_thread *from, void *by)
{
    (void)s;
    (void)from;
    exec_gvl_signal_locked(exec_thread_of(th), by);
}

static void hook_add_running(struct core_sched *s, struct core_thread *th)
{
    (void)s;
    exec_gvl_add_running_thread_locked(exec_thread_of(th));
}

static void hook_del_running(struct core_sched *s, struct core_thread *th, void *by)
{
    setup_running_threads(exec_ractor_of_sched(s), NULL, exec_thread_of(th), false, by);
}

static void hook_timeslice_add(struct core_sched *s, void *by)
{
    setup_running_threads(exec_ractor_of_sched(s), NULL, NULL, true, by);
}

static void hook_waiters_appeared(struct core_sched *s, void *by)
{
    exec_threshold_waiters_locked(exec_ractor_of_sched(s), by);  /* the helper, if it idles */
}

const struct core_hooks exec_gvl_hooks = {
    .signal = hook_signal,
    .add_running = hook_add_running,
    .del_running = hook_del_running,
    .timeslice_add = hook_timeslice_add,
    .waiters_appeared = hook_waiters_appeared,
};

/* ---- holding the GVL ------------------------------------------------------- */

void exec_gvl_released(struct exec_thread *th)
{
    atomic_fetch_sub(&exec_ractor_of(th)->sched.holders, 1);
}

void exec_gvl_acquired_locked(struct exec_thread *th)
{
    if (atomic_fetch_add(&exec_ractor_of(th)->sched.holders, 1) != 0)
        atomic_fetch_add(&th->vm->gvl_violations, 1);
    core_sched_acquired(sched_of(th), &th->core);
}

void exec_gvl_wait_running_turn_locked(struct exec_thread *th)
{
    struct core_sched *s = sched_of(th);
    struct exec_sched *xs = &exec_ractor_of(th)->sched;
    if (s->running != &th->core) {
        if (!core_sched_steal(s, &th->core, true)) {
            do {
                th->cond_waiting = true;
                th->signalled = false;
                exec_cond_wait(th, &th->cond, &xs->lock);
                th->cond_waiting = false;
                if (core_sched_hot_spinning(s)) {
                    /* give a spinning hot thread the chance to take the lock */
                    pthread_mutex_unlock(&xs->lock);
                    pthread_mutex_lock(&xs->lock);
                }
                /* woken (or spuriously awake) and the GVL is not ours: sleep again */
                if (s->running != &th->core) th->c.wasted_wakes++;
            } while (s->running != &th->core);
        }
        exec_gvl_add_running_thread_locked(th);
    }
    exec_gvl_acquired_locked(th);
}

/* ---- the entries ------------------------------------------------------------ */

void exec_gvl_prefill(struct exec_thread *th)
{
    /* the threads start in scenario order: the first owns the GVL, the
     * others queue behind it, as if each had called thread_sched_to_running */
    core_sched_to_ready(sched_of(th), &th->core, false, &th->vm->controller_counts);
}

void exec_gvl_start(struct exec_thread *th)
{
    if (th->vm->policy->barging) {
        exec_gvl32_start(th);
        return;
    }
    struct exec_sched *xs = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&xs->lock);
    if (sched_of(th)->running == &th->core) exec_gvl_add_running_thread_locked(th);
    exec_gvl_wait_running_turn_locked(th);
    pthread_mutex_unlock(&xs->lock);
}

void exec_gvl_blocking_enter(struct exec_thread *th, bool yield_immediately)
{
    struct exec_ractor *r = exec_ractor_of(th);
    exec_gvl_released(th);
    pthread_mutex_lock(&r->sched.lock);
    switch (core_blocking_enter(&r->core.sched, &th->core, yield_immediately, &th->ac)) {
    case CORE_ENTER_HANDED_ON: break;
    case CORE_ENTER_KEPT: r->sched.blocked_since_ns = exec_now_ns(); break;  /* for the helper */
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
        exec_gvl_acquired_locked(th);
        break;
    case CORE_EXIT_QUEUE:
        core_sched_to_running(s, &th->core, &th->ac);
        exec_gvl_wait_running_turn_locked(th);
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
    exec_gvl_released(th);
    core_sched_wakeup_next(sched_of(th), &th->core, &th->ac);
    exec_gvl_wait_running_turn_locked(th);
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
    if (!core_sched_ready(sched_of(th), &th->core, by)) th->park_pending = true;  /* not sleeping yet */
    pthread_mutex_unlock(&xs->lock);
}

void exec_gvl_yield(struct exec_thread *th)
{
    if (th->vm->policy->barging) {
        exec_gvl32_yield(th);
        return;
    }
    /* thread_sched_yield */
    struct core_sched *s = sched_of(th);
    struct exec_sched *xs = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&xs->lock);
    if (s->rq_head) {
        exec_gvl_released(th);
        core_sched_yield(s, &th->core, &th->ac);
        exec_gvl_wait_running_turn_locked(th);
    }
    pthread_mutex_unlock(&xs->lock);
}

void exec_gvl_dead(struct exec_thread *th)
{
    struct exec_ractor *r = exec_ractor_of(th);
    exec_gvl_released(th);
    pthread_mutex_lock(&r->sched.lock);
    if (th->vm->policy->barging) exec_gvl32_release_locked(r, th);
    else core_sched_wakeup_next(&r->core.sched, &th->core, &th->ac);
    pthread_mutex_unlock(&r->sched.lock);
}
