/* exec_sched.c - the real side of a Ractor's scheduler (exec_sched.h):
 * CRuby 3.3+'s thread_pthread.c on pthreads.  The decisions are
 * core/sched.c's; here each Ractor's sched lock guards them, a thread
 * waits for its turn on its own condvar (thread_sched_wait_running_turn),
 * and every switch updates vm running_threads and the timeslice set under
 * the global vm->sched_lock (thread_sched_setup_running_threads), as CRuby
 * does; the barrier protocol (exec_vmlock.c) relies on that set.
 */
#include "exec_sched.h"

#include "../common/err.h"
#include "exec_threshold.h"
#include "exec_timer.h"
#include "exec_wait.h"

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

void exec_sched_running_update_locked(struct exec_ractor *r, struct exec_thread *add_th,
                                      struct exec_thread *del_th, struct exec_actor_counts *by)
{
    setup_running_threads(r, add_th, del_th, false, by);
}

void exec_sched_add_running_locked(struct exec_thread *th)
{
    setup_running_threads(exec_ractor_of(th), th, NULL, core_sched_of(&th->core)->readyq_cnt > 0, &th->ac);
}

/* thread_sched_wakeup_running_thread: signal th's condvar (counted as a
 * wakeup in `by` if th was waiting on it). */
static void exec_sched_signal_locked(struct exec_thread *th, struct exec_actor_counts *by)
{
    if (th->cond_waiting) by->wakeups++;
    th->signalled = true;
    pthread_cond_signal(&th->cond);
}

/* ---- the hooks of core/sched.c -------------------------------------------- */

static void exec_sched_hook_signal(struct core_sched *s, struct core_thread *th, struct core_thread *from, void *by)
{
    (void)s;
    (void)from;
    exec_sched_signal_locked(exec_thread_of(th), by);
}

static void exec_sched_hook_add_running(struct core_sched *s, struct core_thread *th)
{
    (void)s;
    exec_sched_add_running_locked(exec_thread_of(th));
}

static void exec_sched_hook_del_running(struct core_sched *s, struct core_thread *th, void *by)
{
    setup_running_threads(exec_ractor_of_sched(s), NULL, exec_thread_of(th), false, by);
}

static void exec_sched_hook_timeslice_add(struct core_sched *s, void *by)
{
    setup_running_threads(exec_ractor_of_sched(s), NULL, NULL, true, by);
}

static void exec_sched_hook_waiters_appeared(struct core_sched *s, void *by)
{
    exec_threshold_waiters_locked(exec_ractor_of_sched(s), by);  /* the helper, if it idles */
}

static const struct core_hooks exec_sched_hooks = {
    .signal = exec_sched_hook_signal,
    .add_running = exec_sched_hook_add_running,
    .del_running = exec_sched_hook_del_running,
    .timeslice_add = exec_sched_hook_timeslice_add,
    .waiters_appeared = exec_sched_hook_waiters_appeared,
};

int exec_sched_init(struct exec_ractor *r)
{
    struct exec_sched *xs = &r->sched;
    if (core_sched_init(&r->core.sched, r->vm->policy, &exec_sched_hooks, r->core.nthreads) != GV_OK) return -1;
    if (pthread_mutex_init(&xs->lock, NULL) || exec_cond_init(&xs->helper_cond) ||
        exec_cond_init(&xs->switch_cond) || exec_cond_init(&xs->switch_wait_cond)) {
        core_sched_free(&r->core.sched);
        return -1;
    }
    atomic_init(&xs->holders, 0);
    return 0;
}

void exec_sched_destroy(struct exec_ractor *r)
{
    core_sched_free(&r->core.sched);
    pthread_mutex_destroy(&r->sched.lock);
    pthread_cond_destroy(&r->sched.helper_cond);
    pthread_cond_destroy(&r->sched.switch_cond);
    pthread_cond_destroy(&r->sched.switch_wait_cond);
}

/* ---- holding the GVL ------------------------------------------------------- */

void exec_sched_released(struct exec_thread *th)
{
    atomic_fetch_sub(&exec_ractor_of(th)->sched.holders, 1);
}

void exec_sched_acquired_locked(struct exec_thread *th)
{
    if (atomic_fetch_add(&exec_ractor_of(th)->sched.holders, 1) != 0)
        atomic_fetch_add(&th->vm->gvl_violations, 1);
    core_sched_acquired(core_sched_of(&th->core), &th->core);
}

void exec_sched_wait_turn_locked(struct exec_thread *th)
{
    struct core_sched *s = core_sched_of(&th->core);
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
        exec_sched_add_running_locked(th);
    }
    exec_sched_acquired_locked(th);
}
