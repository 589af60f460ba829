/* gvl.c - CRuby 3.3+ per-Ractor thread scheduler (thread_pthread.c).
 *
 * `running` owns the GVL; other ready threads wait in a FIFO `readyq`,
 * each sleeping on its own native thread's condition variable.  Handing the
 * GVL over (thread_sched_wakeup_next_thread) sets `running` to the queue
 * head and signals its condvar: a futex wake of a sleeping native thread,
 * which then needs a CPU before it can run (the HANDOFF window).  A thread
 * that wants the GVL back while someone else is `running` appends itself to
 * the queue and sleeps in thread_sched_wait_running_turn: one voluntary
 * context switch per wait that really sleeps.
 *
 * The hot-thread steal of PR 15840 lives in wait_running_turn, as in
 * CRuby master; it only acts when a policy set sched->runnable_hot_th
 * (gvl_hot_steal.c), so eager runs the pre-15840 code path.
 */
#include "gvl.h"

#include "barrier.h"
#include "gvl_policy.h"
#include "mn_pool.h"
#include "thread.h"
#include "timer.h"

static struct rb_sched *sched_of(struct rb_thread *th) { return &th->ractor->sched; }

struct gvl_actor gvl_self(struct rb_thread *th)
{
    return (struct gvl_actor){ th->nt, &th->pending_cost };
}

static void notify_readyq(struct rb_sched *s)
{
    struct vm *vm = s->ractor->vm;
    if (vm->obs.readyq)
        vm->obs.readyq(vm->obs.ctx, s->ractor->id, s->readyq_cnt, sim_now(vm->eng));
}

void gvl_enq(struct rb_sched *s, struct rb_thread *th, struct gvl_actor by)
{
    /* the running thread joins the timeslice set when it gets its first waiter */
    if (s->is_running && !s->rq_head && !s->is_running_timeslice)
        timer_timeslice_add(s, by);
    th->rq_next = NULL;
    if (s->rq_tail) s->rq_tail->rq_next = th;
    else s->rq_head = th;
    s->rq_tail = th;
    th->in_readyq = true;
    s->readyq_cnt++;
    notify_readyq(s);
}

void gvl_enq_head(struct rb_sched *s, struct rb_thread *th)
{
    th->rq_next = s->rq_head;
    s->rq_head = th;
    if (!s->rq_tail) s->rq_tail = th;
    th->in_readyq = true;
    s->readyq_cnt++;
    notify_readyq(s);
}

struct rb_thread *gvl_deq(struct rb_sched *s)
{
    struct rb_thread *th = s->rq_head;
    if (!th) return NULL;
    s->rq_head = th->rq_next;
    if (!s->rq_head) s->rq_tail = NULL;
    th->rq_next = NULL;
    th->in_readyq = false;
    s->readyq_cnt--;
    notify_readyq(s);
    return th;
}

void gvl_readyq_remove(struct rb_sched *s, struct rb_thread *th)
{
    struct rb_thread **pp = &s->rq_head, *prev = NULL;
    while (*pp && *pp != th) { prev = *pp; pp = &(*pp)->rq_next; }
    if (!*pp) return;
    *pp = th->rq_next;
    if (s->rq_tail == th) s->rq_tail = prev;
    th->rq_next = NULL;
    th->in_readyq = false;
    s->readyq_cnt--;
    notify_readyq(s);
}

void gvl_set_running(struct rb_sched *s, struct rb_thread *th)
{
    s->running = th;
}

void gvl_add_running_thread(struct rb_thread *th)
{
    struct rb_sched *s = sched_of(th);
    /* thread_sched_setup_running_threads needs vm->ractor.sched.lock; while
     * a VM barrier holds it the add waits, in `gvl_acquired` (models/barrier.c) */
    if (barrier_defer_add_running(th)) return;
    th->pending_cost += th->vm->scn->machine.sched_lock_cs;
    s->is_running = true;
    barrier_added_running(th);
    if (s->rq_head && !s->is_running_timeslice) timer_timeslice_add(s, gvl_self(th));
}

void gvl_del_running_thread(struct rb_thread *th)
{
    gvl_del_running_thread_by(th, gvl_self(th));
}

void gvl_del_running_thread_by(struct rb_thread *th, struct gvl_actor by)
{
    struct rb_sched *s = sched_of(th);
    *by.cost += th->vm->scn->machine.sched_lock_cs;
    s->is_running = false;
    barrier_deleted_running(th);
    if (s->is_running_timeslice) timer_timeslice_del(s);
}

int gvl_signal(struct rb_thread *next, struct gvl_actor by)
{
    if (!next) return 0;
    if (mn_thread_p(next)) return mn_signal(next, by);  /* M:N: queue its Ractor (mn_pool.c) */
    int woke = mach_wake(&next->vm->mach, next->nt, by.nt);
    if (!woke) return 0;
    next->vm->wakeups++;
    *by.cost += vm_wake_cost(next->vm, woke);
    return 1;
}

void gvl_wakeup_next(struct rb_thread *th)
{
    gvl_wakeup_next_by(th, gvl_self(th));
}

void gvl_wakeup_next_by(struct rb_thread *th, struct gvl_actor by)
{
    struct rb_sched *s = sched_of(th);
    struct rb_thread *next = gvl_deq(s);
    gvl_set_running(s, next);
    if (next) {
        th->vm->gvl_handoffs++;
        if (!mn_will_switch(th, next))  /* M:N: th switches to next on its NT */
            gvl_signal(next, by);
    }
    if (th != next) gvl_del_running_thread_by(th, by);
}

void gvl_to_ready(struct rb_thread *th, bool wakeup, struct gvl_actor by)
{
    struct rb_sched *s = sched_of(th);
    if (s->running == NULL) {
        gvl_set_running(s, th);
        if (wakeup) gvl_signal(th, by);
    } else {
        gvl_enq(s, th, by);
    }
}

/* The turn is ours: rb_ractor_thread_switch and the RESUMED hook. */
void gvl_acquired(struct rb_thread *th, th_cont k)
{
    struct rb_sched *s = sched_of(th);
    /* the add to running_threads waits for a VM barrier's sched lock */
    if (th->sync.add_deferred) {
        barrier_switch_in(th, k, gvl_acquired);
        return;
    }
    /* control transfer complete: the previous owner can no longer steal */
    s->runnable_hot_th = NULL;
    s->runnable_hot_th_waiting = false;
    if (th->ractor->last_ran != th) {
        th->running_time = 0;
        th->ractor->last_ran = th;
    }
    vm_set_state(th, TS_RUNNING);
    k(th);
}

static void turn_wake(struct mach_task *t, void *ctx);

/* cond_wait(nt->cond.readyq, sched->lock_): the predicate is checked under
 * the lock and the wait starts atomically with it.  Here the CPU a thread
 * still owes (futex wakes, lock sections) is paid first and the predicate
 * checked after, so a signal sent meanwhile is not lost. */
static void turn_sleep_now(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    if (sched_of(th)->running == th) {
        gvl_add_running_thread(th);
        gvl_acquired(th, th->gvl_k);
        return;
    }
    th_block(th, turn_wake);
}

static void turn_sleep(struct rb_thread *th)
{
    if (mn_thread_p(th)) {  /* M:N: give the NT away instead (mn_pool.c) */
        mn_thread_wait(th);
        return;
    }
    if (th->pending_cost > 0) th_burst(th, 0, turn_sleep_now);
    else turn_sleep_now(th->nt, th);
}

/* M:N: a thread that gave its NT away has one again (mn_pool.c). */
void gvl_turn_resume(struct rb_thread *th)
{
    if (sched_of(th)->running == th) {
        gvl_add_running_thread(th);
        gvl_acquired(th, th->gvl_k);
        return;
    }
    turn_sleep(th);
}

/* Is it our turn? (after the wake, holding sched->lock_) */
static void turn_check(struct rb_thread *th)
{
    struct rb_sched *s = sched_of(th);
    if (s->running == th) {
        gvl_add_running_thread(th);
        gvl_acquired(th, th->gvl_k);
        return;
    }
    /* Woken for nothing (the GVL was taken back meanwhile): sleep again. */
    th->wasted_wakes++;
    th->vm->wasted_wakes++;
    turn_sleep(th);
}

/* ---- PR 15840: the successor yields sched->lock_ to a spinning hot thread.
 * The model's scheduler sections are instants, so a race between the hot
 * thread coming back (thread_sched_to_running) and its successor waking
 * (cond_wait returning) is decided by which event comes first.  The one
 * window the real code resolves at lock granularity is modelled as time:
 * cond_wait returns holding lock_, and while a hot thread is out in its
 * blocking region the successor holds it for mutex_uncontended before it
 * looks at `running`.  A hot thread back inside that window finds lock_
 * taken and spins (gvl_hot_steal.c); the successor then sees
 * runnable_hot_th_waiting, drops and re-takes the lock, the hot thread
 * steals in between, and the successor finds running != self: a wasted
 * wake.  Only armed under hot_steal (runnable_hot_th is NULL otherwise). */

static void turn_relocked(struct mach_task *t, void *ctx)
{
    (void)t;
    turn_check(ctx);
}

static void turn_locked(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct rb_sched *s = sched_of(th);
    s->lock_holder = NULL;
    if (s->runnable_hot_th != NULL && s->runnable_hot_th_waiting) {
        /* "Give the hot thread a chance to preempt, if it's actively
         * spinning": thread_sched_unlock + thread_sched_lock */
        th_burst(th, th->vm->scn->machine.mutex_uncontended, turn_relocked);
        return;
    }
    turn_check(th);
}

/* Back from cond_wait(nt->cond.readyq). */
static void turn_wake(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct rb_sched *s = sched_of(th);
    if (s->runnable_hot_th != NULL && s->runnable_hot_th != th && s->lock_holder == NULL) {
        sim_time hold = th->vm->scn->machine.mutex_uncontended;
        s->lock_holder = th;
        s->lock_free_at = sim_now(th->vm->eng) + hold + th->pending_cost;
        th_burst(th, hold, turn_locked);
        return;
    }
    turn_check(th);
}

void gvl_wait_running_turn(struct rb_thread *th, th_cont k)
{
    struct rb_sched *s = sched_of(th);
    if (th != s->running) {
        if (th == s->runnable_hot_th && th->nt == &th->own_nt &&
            (s->running == NULL || s->running->nt == &s->running->own_nt)) {
            /* PR 15840: the hot thread is back before its successor really
             * runs.  Put the successor back at the head of the queue and
             * take the GVL without sleeping; the successor will wake, find
             * running != self and sleep again (a wasted wake). */
            struct rb_thread *succ = s->running;
            if (succ) gvl_enq_head(s, succ);
            if (th->in_readyq) gvl_readyq_remove(s, th);
            gvl_set_running(s, th);
        } else if (th == s->runnable_hot_th) {
            s->runnable_hot_th = NULL;
            s->runnable_hot_th_waiting = false;
        }
        if (th != s->running) {
            th->gvl_k = k;
            turn_sleep(th);
            return;
        }
        gvl_add_running_thread(th);
    }
    gvl_acquired(th, k);
}

void gvl_to_running(struct rb_thread *th, th_cont k)
{
    struct rb_sched *s = sched_of(th);
    /* thread_sched_to_running: the lock-free "I am back" hint of PR 15840 */
    if (s->runnable_hot_th == th) s->runnable_hot_th_waiting = true;
    gvl_to_ready(th, false, gvl_self(th));
    if (s->running == th) gvl_add_running_thread(th);
    gvl_wait_running_turn(th, k);
}

/* ---- the 3.3 policy entries --------------------------------------------- */

void gvl33_blocking_enter(struct rb_thread *th, bool yield_immediately)
{
    (void)yield_immediately;  /* eager: always hand over now */
    gvl_wakeup_next(th);
}

void gvl33_blocking_exit(struct rb_thread *th, th_cont k)
{
    gvl_to_running(th, k);
}

void gvl33_park(struct rb_thread *th, th_cont k)
{
    /* thread_sched_to_waiting_until_wakeup */
    gvl_wakeup_next(th);
    gvl_wait_running_turn(th, k);
}

void gvl33_ready(struct rb_thread *waker, struct rb_thread *th)
{
    /* ubf_waiting */
    struct rb_sched *s = sched_of(th);
    if (s->running == th) return;  /* not sleeping yet */
    struct gvl_actor by = waker ? gvl_self(waker)
                                : (struct gvl_actor){ &th->vm->timer.nt, &th->vm->timer.pending_cost };
    gvl_to_ready(th, true, by);
}

void gvl33_yield(struct rb_thread *th, th_cont k)
{
    /* thread_sched_yield */
    struct rb_sched *s = sched_of(th);
    if (!s->rq_head) { k(th); return; }
    vm_set_state(th, TS_WANTS_GVL);
    gvl_wakeup_next(th);
    gvl_to_ready(th, false, gvl_self(th));
    gvl_wait_running_turn(th, k);
}

void gvl33_start(struct rb_thread *th, th_cont k)
{
    gvl_to_running(th, k);
}

void gvl33_dead(struct rb_thread *th)
{
    gvl_wakeup_next(th);
}
