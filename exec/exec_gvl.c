/* exec_gvl.c - CRuby 3.3+ per-Ractor thread scheduler on real pthreads
 * (thread_pthread.c), re-implemented from the functions named below.
 *
 * `running` owns the GVL.  A thread that wants it while someone else runs
 * appends itself to the FIFO ready queue and sleeps on its own condvar,
 * paired with the Ractor's sched lock (thread_sched_wait_running_turn).
 * Handing over (thread_sched_wakeup_next_thread) sets `running` to the
 * queue head *before* it is awake and signals its condvar: the successor
 * owns the GVL while still waking (the HANDOFF window of bug #21685).
 *
 * Every switch updates vm running_threads and the timeslice set under the
 * global vm->sched_lock (thread_sched_setup_running_threads), as CRuby
 * does; the barrier protocol (exec_vmlock.c) relies on that set.
 */
#include "exec_gvl.h"

#include "exec_policy.h"
#include "exec_timer.h"

int exec_sched_init(struct exec_sched *s, struct exec_ractor *r)
{
    s->ractor = r;
    if (pthread_mutex_init(&s->lock, NULL)) return -1;
    if (exec_cond_init(&s->helper_cond)) return -1;
    if (exec_cond_init(&s->switch_cond)) return -1;
    if (exec_cond_init(&s->switch_wait_cond)) return -1;
    atomic_init(&s->runnable_hot_th, NULL);
    atomic_init(&s->runnable_hot_th_waiting, 0);
    atomic_init(&s->holders, 0);
    s->timer_timedout = true;
    return 0;
}

void exec_sched_destroy(struct exec_sched *s)
{
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->helper_cond);
    pthread_cond_destroy(&s->switch_cond);
    pthread_cond_destroy(&s->switch_wait_cond);
}

/* thread_sched_setup_running_threads: under the global sched lock, update
 * running_threads (add_th / del_th) and the timeslice set (add_ts_th; a
 * deleted running thread also leaves it).  The caller holds s->lock. */
static void setup_running_threads(struct exec_sched *s, struct exec_thread *add_th,
                                  struct exec_thread *del_th, struct exec_thread *add_ts_th,
                                  struct exec_actor_counts *by)
{
    struct exec_vm *vm = s->ractor->vm;
    struct exec_thread *del_ts_th = NULL;
    if (del_th && s->is_running_timeslice) {
        del_ts_th = del_th;
        s->is_running_timeslice = false;
    }
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
        if (vm->barrier_waiting) atomic_fetch_or(&add_th->interrupts, EXEC_INT_VM_BARRIER);
        add_th->in_running_threads = true;
        vm->running_cnt++;
        s->is_running = true;
    }
    if (add_ts_th) {
        bool was_empty = vm->timeslice_cnt == 0;
        add_ts_th->in_timeslice = true;
        vm->timeslice_cnt++;
        s->is_running_timeslice = true;
        if (was_empty) exec_timer_wakeup_locked(vm, by);
    }
    if (del_ts_th) {
        del_ts_th->in_timeslice = false;
        vm->timeslice_cnt--;
    }
    pthread_mutex_unlock(&vm->sched_lock);
}

void exec_gvl_running_threads_update_locked(struct exec_sched *s, struct exec_thread *add_th,
                                            struct exec_thread *del_th, struct exec_actor_counts *by)
{
    setup_running_threads(s, add_th, del_th, NULL, by);
}

void exec_gvl_add_running_thread_locked(struct exec_sched *s, struct exec_thread *th)
{
    setup_running_threads(s, th, NULL, s->rq_head ? th : NULL, &th->ac);
}

static void del_running_thread_locked(struct exec_sched *s, struct exec_thread *th,
                                      struct exec_actor_counts *by)
{
    setup_running_threads(s, NULL, th, NULL, by);
}

void exec_rq_append_locked(struct exec_sched *s, struct exec_thread *th)
{
    th->rq_next = NULL;
    if (s->rq_tail) s->rq_tail->rq_next = th;
    else s->rq_head = th;
    s->rq_tail = th;
    th->in_readyq = true;
    s->readyq_cnt++;
}

void exec_rq_remove_locked(struct exec_sched *s, struct exec_thread *th)
{
    struct exec_thread **pp = &s->rq_head, *prev = NULL;
    while (*pp && *pp != th) {
        prev = *pp;
        pp = &(*pp)->rq_next;
    }
    if (!*pp) return;
    *pp = th->rq_next;
    if (s->rq_tail == th) s->rq_tail = prev;
    th->rq_next = NULL;
    th->in_readyq = false;
    s->readyq_cnt--;
}

void exec_gvl_enq_locked(struct exec_sched *s, struct exec_thread *th, struct exec_actor_counts *by)
{
    bool was_empty = s->rq_head == NULL;
    /* the running thread joins the timeslice set when it gets its first waiter */
    if (was_empty && s->is_running && !s->is_running_timeslice && s->running)
        setup_running_threads(s, NULL, NULL, s->running, by);
    exec_rq_append_locked(s, th);
    /* threshold: the helper sleeps without a timeout while nobody waits */
    if (was_empty) exec_policy_waiters_appeared_locked(s, by);
}

static void enq_head_locked(struct exec_sched *s, struct exec_thread *th)
{
    th->rq_next = s->rq_head;
    s->rq_head = th;
    if (!s->rq_tail) s->rq_tail = th;
    th->in_readyq = true;
    s->readyq_cnt++;
}

struct exec_thread *exec_gvl_deq_locked(struct exec_sched *s)
{
    struct exec_thread *th = s->rq_head;
    if (!th) return NULL;
    s->rq_head = th->rq_next;
    if (!s->rq_head) s->rq_tail = NULL;
    th->rq_next = NULL;
    th->in_readyq = false;
    s->readyq_cnt--;
    return th;
}

void exec_gvl_signal_locked(struct exec_thread *th, struct exec_actor_counts *by)
{
    if (th->cond_waiting) by->wakeups++;
    th->signalled = true;
    pthread_cond_signal(&th->cond);
}

void exec_gvl_to_ready_common_locked(struct exec_sched *s, struct exec_thread *th, bool wakeup,
                                     struct exec_actor_counts *by)
{
    if (s->running == NULL) {
        s->running = th;
        if (wakeup) exec_gvl_signal_locked(th, by);
    } else {
        exec_gvl_enq_locked(s, th, by);
    }
}

void exec_gvl_released(struct exec_thread *th)
{
    atomic_fetch_sub(&exec_ractor_of(th)->sched.holders, 1);
}

void exec_gvl_acquired_locked(struct exec_sched *s, struct exec_thread *th)
{
    if (atomic_fetch_add(&s->holders, 1) != 0) atomic_fetch_add(&th->vm->gvl_violations, 1);
    /* rb_ractor_thread_switch: a thread switching in starts a new quantum */
    if (exec_ractor_of(th)->last_ran != th) {
        th->running_time_ns = 0;
        exec_ractor_of(th)->last_ran = th;
    }
}

void exec_gvl_wait_running_turn_locked(struct exec_sched *s, struct exec_thread *th)
{
    if (th != s->running) {
        if (th == atomic_load_explicit(&s->runnable_hot_th, memory_order_relaxed)) {
            /* PR 15840: the hot thread is back before its successor took
             * over.  Put the successor back at the head of the queue and
             * take the GVL without sleeping; the successor will wake, find
             * running != self and sleep again. */
            struct exec_thread *succ = s->running;
            if (succ) enq_head_locked(s, succ);
            if (th->in_readyq) exec_rq_remove_locked(s, th);
            s->running = th;
        }
        while (s->running != th) {
            th->cond_waiting = true;
            th->signalled = false;
            exec_cond_wait(th, &th->cond, &s->lock);
            th->cond_waiting = false;
            if (atomic_load_explicit(&s->runnable_hot_th, memory_order_relaxed) != NULL &&
                atomic_load_explicit(&s->runnable_hot_th_waiting, memory_order_relaxed)) {
                /* give a spinning hot thread the chance to take the lock */
                pthread_mutex_unlock(&s->lock);
                pthread_mutex_lock(&s->lock);
            }
            /* woken (or spuriously awake) and the GVL is not ours: sleep again */
            if (s->running != th) th->c.wasted_wakes++;
        }
        exec_gvl_add_running_thread_locked(s, th);
    }
    /* control transfer complete: the previous owner can no longer steal */
    atomic_store_explicit(&s->runnable_hot_th, NULL, memory_order_relaxed);
    atomic_store_explicit(&s->runnable_hot_th_waiting, 0, memory_order_relaxed);
    exec_gvl_acquired_locked(s, th);
}

void exec_gvl_wakeup_next_locked(struct exec_sched *s, struct exec_thread *cur,
                                 struct exec_actor_counts *by)
{
    struct exec_thread *next = exec_gvl_deq_locked(s);
    s->running = next;
    if (next) {
        by->gvl_handoffs++;
        exec_gvl_signal_locked(next, by);
    }
    if (cur != next) del_running_thread_locked(s, cur, by);
}

bool exec_gvl_handoff_blocked_locked(struct exec_sched *s, struct exec_actor_counts *by)
{
    if (!s->owner_blocked || !s->rq_head || !s->running) return false;
    s->owner_blocked = false;
    exec_gvl_wakeup_next_locked(s, s->running, by);
    return true;
}

/* ---- the 3.3 entries ----------------------------------------------------- */

void exec_gvl33_prefill(struct exec_sched *s, struct exec_thread *th)
{
    /* the threads start in scenario order: the first owns the GVL, the
     * others queue behind it, as if each had called thread_sched_to_running */
    exec_gvl_to_ready_common_locked(s, th, false, &th->vm->controller_counts);
}

void exec_gvl33_start(struct exec_thread *th)
{
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&s->lock);
    if (s->running == th) exec_gvl_add_running_thread_locked(s, th);
    exec_gvl_wait_running_turn_locked(s, th);
    pthread_mutex_unlock(&s->lock);
}

void exec_gvl33_to_waiting(struct exec_thread *th, bool set_hot)
{
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    exec_gvl_released(th);
    pthread_mutex_lock(&s->lock);
    if (set_hot) {
        atomic_store_explicit(&s->runnable_hot_th, th, memory_order_relaxed);
        atomic_store_explicit(&s->runnable_hot_th_waiting, 0, memory_order_relaxed);
    }
    exec_gvl_wakeup_next_locked(s, th, &th->ac);
    pthread_mutex_unlock(&s->lock);
}

void exec_gvl33_to_running(struct exec_thread *th)
{
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    /* the lock-free "I am back" hint of PR 15840 */
    if (atomic_load_explicit(&s->runnable_hot_th, memory_order_relaxed) == th)
        atomic_store_explicit(&s->runnable_hot_th_waiting, 1, memory_order_relaxed);
    pthread_mutex_lock(&s->lock);
    exec_gvl_to_ready_common_locked(s, th, false, &th->ac);
    if (s->running == th) exec_gvl_add_running_thread_locked(s, th);
    exec_gvl_wait_running_turn_locked(s, th);
    pthread_mutex_unlock(&s->lock);
}

void exec_gvl33_park(struct exec_thread *th)
{
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&s->lock);
    if (th->park_pending) {
        /* made ready before it could sleep (ubf_set saw the interrupt) */
        th->park_pending = false;
        th->ready_at_ns = exec_now_ns();
        pthread_mutex_unlock(&s->lock);
        return;
    }
    exec_gvl_released(th);
    exec_gvl_wakeup_next_locked(s, th, &th->ac);
    exec_gvl_wait_running_turn_locked(s, th);
    pthread_mutex_unlock(&s->lock);
}

void exec_gvl33_ready(struct exec_actor_counts *by, struct exec_thread *th)
{
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&s->lock);
    th->ready_at_ns = exec_now_ns();
    if (s->running == th) th->park_pending = true;  /* not sleeping yet */
    else exec_gvl_to_ready_common_locked(s, th, true, by);
    pthread_mutex_unlock(&s->lock);
}

void exec_gvl33_yield(struct exec_thread *th)
{
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&s->lock);
    if (s->rq_head) {
        exec_gvl_released(th);
        exec_gvl_wakeup_next_locked(s, th, &th->ac);
        exec_gvl_to_ready_common_locked(s, th, false, &th->ac);
        if (s->running == th) exec_gvl_add_running_thread_locked(s, th);
        exec_gvl_wait_running_turn_locked(s, th);
    }
    pthread_mutex_unlock(&s->lock);
}

void exec_gvl33_dead(struct exec_thread *th)
{
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    exec_gvl_released(th);
    pthread_mutex_lock(&s->lock);
    exec_gvl_wakeup_next_locked(s, th, &th->ac);
    pthread_mutex_unlock(&s->lock);
}
