/* gvl_barging.c - the GVL of CRuby 2.6 to 3.2 (thread_pthread.c of v3_2_0:
 * thread_sched_to_waiting_common, thread_sched_to_running_common,
 * do_gvl_timer, designate_timer_thread, thread_sched_yield; thread.c:
 * rb_threadptr_execute_interrupts, rb_thread_schedule_limits).
 *
 * - Release (every blocking region, THREAD_BLOCKING_BEGIN of native sleeps
 *   and Queue waits, thread death) sets `running` to NULL and signals the
 *   head of the ready queue; it hands nothing over.
 * - Acquire: with `running` NULL, take it at once ("reset timer if
 *   uncontended": timer_err = ETIMEDOUT).  Otherwise queue at the tail and
 *   loop until `running` is NULL: the first waiter with no timer becomes the
 *   designated timer (do_gvl_timer: a timed wait on its own condvar until a
 *   deadline TIME_QUANTUM after the last expiry); the others cond_wait.
 *   Whoever finds `running` NULL first takes it, so a thread back from a
 *   short syscall usually re-takes the GVL before the signalled waiter is
 *   even on a CPU; that waiter wakes, finds it owned and sleeps again.
 * - Every return of the timer from its timed wait - the timeout, but also
 *   a release's signal when it is the queue head - sets TIMER_INTERRUPT on
 *   the owner, and one TIMER interrupt credits a whole TIME_QUANTUM
 *   (running_time_us += TIME_QUANTUM_USEC): the owner yields at its next
 *   safe point.
 * - Yield: release, then if a waiter exists set need_yield and sleep on
 *   switch_cond until a waiter has taken the GVL (it signals), then acquire
 *   again.  A second yield while one is pending waits on switch_wait_cond.
 * - A new owner with no timer signals the tail of the ready queue so that
 *   it becomes the timer.
 * - A Queue pop that parks releases the GVL, sleeps on its own condvar
 *   (cond.intr) until the pusher signals it, then acquires as above.
 * There is no timeslice timer thread and no global running_threads list.
 * What a VM barrier waits for is kept all the same: 3.1's rb_vm_barrier
 * waits for every Ractor that is not blocking (rb_ractor_blocking_threads_inc
 * in blocking_region_begin, _dec after gvl_acquire in blocking_region_end),
 * i.e. for the Ractors whose GVL is held - what the running-threads count
 * of models/barrier.c counts.  So the owner enters that count when it takes
 * the GVL and leaves it when it releases; no cost is charged (3.1 takes the
 * Ractor's own lock there, which the model does not time), so runs without
 * a barrier are unchanged.
 */
#include <stdlib.h>

#include "../common/err.h"
#include "barrier.h"
#include "gvl.h"
#include "gvl_policy.h"
#include "thread.h"

struct barging {
    struct rb_thread *timer;           /* sched->timer: the designated timer */
    struct rb_thread *designated;      /* signalled by designate_timer_thread */
    bool timer_err_timedout;           /* sched->timer_err == ETIMEDOUT */
    sim_time abs;                      /* the timed wait's deadline */
    sim_event_id timeout_ev;
    bool timed_out;                    /* the timer's wait ended by timeout */
    bool need_yield, wait_yield;
    struct rb_thread *yielder;         /* sleeping on switch_cond */
    struct rb_thread *switch_waiters;  /* on switch_wait_cond (via rq_next: not in the readyq) */
};

static struct rb_sched *sched_of(struct rb_thread *th) { return &th->ractor->sched; }
static struct barging *bg(struct rb_thread *th) { return th->ractor->sched.policy_data; }

/* Pay the CPU th owes before looking at the predicate of a condvar wait:
 * check-then-sleep is atomic under the lock in CRuby, so a signal sent
 * while the cost is being paid must not be lost. */
static void settle(struct rb_thread *th, mach_cont k)
{
    if (th->pending_cost > 0) th_burst(th, 0, k);
    else k(th->nt, th);
}

static void count_wasted(struct rb_thread *th)
{
    th->wasted_wakes++;
    th->vm->wasted_wakes++;
}

/* The GVL's owner counts for a VM barrier (see the top).  While a barrier
 * holds the sched lock the add waits, in gvl_acquired (models/barrier.c). */
static void running_add(struct rb_thread *th)
{
    struct rb_sched *s = sched_of(th);
    if (s->is_running || barrier_defer_add_running(th)) return;
    s->is_running = true;
    barrier_added_running(th);
}

static void running_del(struct rb_thread *th)
{
    struct rb_sched *s = sched_of(th);
    if (!s->is_running) return;
    s->is_running = false;
    barrier_deleted_running(th);
}

/* thread_sched_to_waiting_common */
static void release(struct rb_thread *th)
{
    struct rb_sched *s = sched_of(th);
    s->running = NULL;
    running_del(th);
    if (s->rq_head) gvl_signal(s->rq_head, gvl_self(th));
}

/* the end of thread_sched_to_running_common: ready -> running */
static void take(struct rb_thread *th, th_cont k)
{
    struct rb_sched *s = sched_of(th);
    struct barging *b = s->policy_data;
    struct rb_thread *prev = th->ractor->last_ran;
    s->running = th;
    running_add(th);
    if (prev && prev != th) th->vm->gvl_handoffs++;
    if (!b->timer && s->rq_tail) {
        /* designate_timer_thread: the tail will be in the queue longest */
        b->designated = s->rq_tail;
        gvl_signal(s->rq_tail, gvl_self(th));
    }
    gvl_acquired(th, k);
}

static void wait_turn(struct rb_thread *th);

/* the wait loop saw `running` NULL */
static void got_it(struct rb_thread *th)
{
    struct rb_sched *s = sched_of(th);
    struct barging *b = s->policy_data;
    gvl_readyq_remove(s, th);
    if (b->need_yield) {
        b->need_yield = false;
        gvl_signal(b->yielder, gvl_self(th));  /* switch_cond */
    }
    take(th, th->gvl_k);
}

/* rb_native_cond_wait returned */
static void woken(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct barging *b = bg(th);
    if (sched_of(th)->running) {
        if (b->designated == th) b->designated = NULL;  /* woken to become the timer */
        else count_wasted(th);
        wait_turn(th);
        return;
    }
    if (b->designated == th) b->designated = NULL;
    got_it(th);
}

static void timer_timeout(void *obj, uint64_t arg)
{
    (void)arg;
    struct rb_thread *th = obj;
    struct barging *b = bg(th);
    b->timeout_ev = 0;
    b->timed_out = true;
    mach_wake(&th->vm->mach, th->nt, NULL);
}

/* do_gvl_timer, after native_cond_timedwait returned */
static void timer_woken(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct rb_sched *s = sched_of(th);
    struct barging *b = s->policy_data;
    bool timed_out = b->timed_out;
    if (b->timeout_ev) {  /* signalled before the deadline */
        sim_cancel(th->vm->eng, b->timeout_ev);
        b->timeout_ev = 0;
    }
    b->timer_err_timedout = timed_out;
    if (s->running) {
        if (!timed_out) count_wasted(th);
        th_interrupt(s->running, INT_TIMER);  /* "Timeslice" */
    }
    b->timer = NULL;
    if (s->running) wait_turn(th);
    else got_it(th);
}

/* one turn of the do-while loop of thread_sched_to_running_common */
static void wait_now(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct rb_sched *s = sched_of(th);
    struct barging *b = s->policy_data;
    if (!s->running) {
        got_it(th);
        return;
    }
    if (!b->timer) {
        /* do_gvl_timer: become the designated timer */
        b->timer = th;
        if (b->timer_err_timedout) b->abs = sim_now(th->vm->eng) + th->vm->scn->runtime.quantum;
        b->timed_out = false;
        b->timeout_ev = sim_at(th->vm->eng, b->abs, timer_timeout, th, 0);
        th_block(th, timer_woken);
        return;
    }
    th_block(th, woken);
}

static void wait_turn(struct rb_thread *th)
{
    settle(th, wait_now);
}

/* thread_sched_to_running_common */
static void acquire(struct rb_thread *th, th_cont k)
{
    struct rb_sched *s = sched_of(th);
    struct barging *b = s->policy_data;
    if (s->running) {
        gvl_enq(s, th, gvl_self(th));
        th->gvl_k = k;
        wait_turn(th);
        return;
    }
    b->timer_err_timedout = true;  /* reset timer if uncontended */
    take(th, k);
}

/* ---- the policy entries ------------------------------------------------- */

static void barging_blocking_enter(struct rb_thread *th, bool yield_immediately)
{
    (void)yield_immediately;
    release(th);
}

static void barging_blocking_exit(struct rb_thread *th, th_cont k)
{
    acquire(th, k);
}

static void park_woken(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    acquire(th, th->gvl_k);  /* THREAD_BLOCKING_END */
}

/* native_cond_sleep: sleep on cond.intr unless already interrupted */
static void park_sleep(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    if (th->parked_queue >= 0 || th->joining) {
        th_block(th, park_woken);
        return;
    }
    acquire(th, th->gvl_k);
}

static void barging_park(struct rb_thread *th, th_cont k)
{
    release(th);  /* THREAD_BLOCKING_BEGIN */
    th->gvl_k = k;
    settle(th, park_sleep);
}

/* ubf_pthread_cond_signal */
static void barging_ready(struct rb_thread *waker, struct rb_thread *th)
{
    if (th->nt->state != MT_BLOCKED) return;  /* not asleep yet: park_sleep sees the wake */
    struct gvl_actor by = waker ? gvl_self(waker)
                                : (struct gvl_actor){ &th->vm->timer.nt, &th->vm->timer.pending_cost };
    gvl_signal(th, by);
}

static void switch_wait_broadcast(struct rb_thread *th)
{
    for (struct rb_thread *w = bg(th)->switch_waiters; w; w = w->rq_next)
        if (w->nt->state == MT_BLOCKED) gvl_signal(w, gvl_self(th));
}

static void switch_waiters_remove(struct rb_thread *th)
{
    struct rb_thread **pp = &bg(th)->switch_waiters;
    while (*pp && *pp != th) pp = &(*pp)->rq_next;
    if (*pp) *pp = th->rq_next;
    th->rq_next = NULL;
}

static void yield_wait_now(struct mach_task *t, void *ctx);

static void yield_woken(struct mach_task *t, void *ctx)
{
    (void)t;
    settle(ctx, yield_wait_now);
}

/* while (sched->need_yield) cond_wait(switch_cond) */
static void yield_wait_now(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct barging *b = bg(th);
    if (b->need_yield) {
        th_block(th, yield_woken);
        return;
    }
    b->wait_yield = false;
    b->yielder = NULL;
    switch_wait_broadcast(th);
    acquire(th, th->gvl_k);
}

static void switch_wait_now(struct mach_task *t, void *ctx);

static void switch_wait_woken(struct mach_task *t, void *ctx)
{
    (void)t;
    settle(ctx, switch_wait_now);
}

/* while (sched->wait_yield) cond_wait(switch_wait_cond) */
static void switch_wait_now(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    if (bg(th)->wait_yield) {
        th_block(th, switch_wait_woken);
        return;
    }
    switch_waiters_remove(th);
    acquire(th, th->gvl_k);
}

/* thread_sched_yield */
static void barging_yield(struct rb_thread *th, th_cont k)
{
    struct rb_sched *s = sched_of(th);
    struct barging *b = s->policy_data;
    struct rb_thread *next = s->rq_head;
    vm_set_state(th, TS_WANTS_GVL);
    release(th);
    th->gvl_k = k;
    if (b->wait_yield) {  /* another thread is processing a GVL yield */
        th->rq_next = b->switch_waiters;
        b->switch_waiters = th;
        settle(th, switch_wait_now);
    } else if (next) {  /* wait until another thread takes the GVL */
        b->need_yield = true;
        b->wait_yield = true;
        b->yielder = th;
        settle(th, yield_wait_now);
    } else {  /* native_thread_yield(), then take it back */
        switch_wait_broadcast(th);
        acquire(th, k);
    }
}

static void barging_start(struct rb_thread *th, th_cont k)
{
    acquire(th, k);
}

static void barging_dead(struct rb_thread *th)
{
    release(th);
}

static int barging_init(struct rb_sched *s, char *err, unsigned errlen)
{
    struct barging *b = calloc(1, sizeof *b);
    if (!b)
        return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory for the GVL",
                       s->ractor->vm->scn->file);
    b->timer_err_timedout = true;
    s->policy_data = b;
    return GV_OK;
}

static void barging_fini(struct rb_sched *s)
{
    free(s->policy_data);
    s->policy_data = NULL;
}

const struct gvl_policy gvl_barging = {
    .name = "barging",
    .id = GVL_POLICY_BARGING,
    .blocking_enter = barging_blocking_enter,
    .blocking_exit = barging_blocking_exit,
    .park = barging_park,
    .ready = barging_ready,
    .yield = barging_yield,
    .start = barging_start,
    .dead = barging_dead,
    .tick = NULL,
    .uses_timer_thread = false,
    .tick_credits_quantum = true,
    .init = barging_init,
    .fini = barging_fini,
};
