/* gvl_barging.c - the GVL of CRuby 2.6 to 3.2 (thread_pthread.c of v3_2_0:
 * thread_sched_to_waiting_common, thread_sched_to_running_common,
 * do_gvl_timer, designate_timer_thread, thread_sched_yield; thread.c:
 * rb_threadptr_execute_interrupts, rb_thread_schedule_limits) in simulated
 * time.  Its rules are core/policy.h's core_barging_*; this file gives
 * them their waits:
 *
 * - Release (every blocking region, THREAD_BLOCKING_BEGIN of native sleeps
 *   and Queue waits, thread death) sets `running` to NULL and signals the
 *   head of the ready queue; it hands nothing over.
 * - Acquire: with `running` NULL, take it at once.  Otherwise queue at the
 *   tail and loop until `running` is NULL: the first waiter with no timer
 *   becomes the designated timer (a timed wait on its own condvar until a
 *   deadline TIME_QUANTUM after the last expiry); the others cond_wait.
 *   Whoever finds `running` NULL first takes it, so a thread back from a
 *   short syscall usually re-takes the GVL before the signalled waiter is
 *   even on a CPU; that waiter wakes, finds it owned and sleeps again.
 * - Every return of the timer from its timed wait - the timeout, but also
 *   a release's signal when it is the queue head - sets TIMER_INTERRUPT on
 *   the owner, which credits a whole TIME_QUANTUM: the owner yields at its
 *   next safe point.
 * - Yield: release, then if a waiter exists set need_yield and sleep on
 *   switch_cond until a waiter has taken the GVL (it signals), then acquire
 *   again.  A second yield while one is pending waits on switch_wait_cond.
 * - A new owner with no timer signals the tail of the ready queue so that
 *   it becomes the timer.
 * - A Queue pop that parks, or a join, is a native_sleep: release the GVL,
 *   sleep until the pusher's (or the dying thread's) unblock function wakes
 *   it, then acquire as above.  The first sleeper of the process takes the
 *   signal self-pipe and sleeps in ppoll on it, the main thread in ppoll
 *   anyway, any other thread on its own condvar (cond.intr).  The ppoll
 *   paths release with THREAD_BLOCKING_YIELD: if the release signalled
 *   nobody and the Ractor has another living thread, sched_yield() first
 *   (mach_yield: on one core the other thread runs, pushes and interrupts
 *   the sleeper, which then need not sleep at all), and sleep only if
 *   nothing woke the thread meanwhile.  The same yield is gvl_yield's when
 *   nobody waits (native_thread_yield).
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
#include "gvl_barging.h"

#include <stdlib.h>

#include "../common/err.h"
#include "../core/policy.h"
#include "barrier.h"
#include "gvl.h"
#include "thread.h"

/* The simulator's side of a Ractor's 2.x GVL (rb_ractor.policy_data). */
struct gvl32 {
    struct rb_thread *designated;      /* signalled by designate_timer_thread */
    sim_time abs;                      /* the timer's timed wait's deadline */
    sim_event_id timeout_ev;
    bool timed_out;                    /* the timer's wait ended by timeout */
    struct rb_thread *yielder;         /* sleeping on switch_cond */
    struct core_thread *switch_waiters;/* on switch_wait_cond (via rq_next: not in the readyq) */
};

static struct core_sched *gvl32_sched(struct rb_thread *th) { return core_sched_of(&th->core); }
static struct gvl32 *bg(struct rb_thread *th) { return rb_ractor_of(th)->policy_data; }

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
    struct core_sched *s = gvl32_sched(th);
    if (s->is_running || barrier_defer_add_running(th)) return;
    s->is_running = true;
    barrier_added_running(th);
}

static void running_del(struct rb_thread *th)
{
    struct core_sched *s = gvl32_sched(th);
    if (!s->is_running) return;
    s->is_running = false;
    barrier_deleted_running(th);
}

struct core_thread *gvl32_release(struct rb_thread *th)
{
    struct gvl_actor self = gvl_self(th);
    running_del(th);  /* as the owner is cleared, before the waiter's signal */
    return core_barging_release(gvl32_sched(th), &self);
}

/* the end of thread_sched_to_running_common: ready -> running */
static void take(struct rb_thread *th, th_cont k)
{
    struct core_sched *s = gvl32_sched(th);
    struct core_thread *prev = s->last_ran;
    struct rb_thread *timer = rb_thread_of(core_barging_take(s, &th->core));
    running_add(th);
    if (prev && prev != &th->core) s->handoffs++;
    if (timer) {
        /* designate_timer_thread: the tail will be in the queue longest */
        bg(th)->designated = timer;
        gvl_signal(timer, gvl_self(th));
    }
    gvl_acquired(th, k);
}

static void wait_turn(struct rb_thread *th);

/* the wait loop saw `running` NULL */
static void got_it(struct rb_thread *th)
{
    if (core_barging_got_it(gvl32_sched(th), &th->core))
        gvl_signal(bg(th)->yielder, gvl_self(th));  /* switch_cond */
    take(th, th->gvl_k);
}

/* rb_native_cond_wait returned */
static void woken(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct gvl32 *b = bg(th);
    if (gvl32_sched(th)->running) {
        if (b->designated == th) b->designated = NULL;  /* woken to become the timer */
        else count_wasted(th);
        wait_turn(th);
        return;
    }
    if (b->designated == th) b->designated = NULL;
    got_it(th);
}

static void gvl32_timeout(void *obj, uint64_t arg)
{
    (void)arg;
    struct rb_thread *th = obj;
    struct gvl32 *b = bg(th);
    b->timeout_ev = 0;
    b->timed_out = true;
    mach_wake(&th->vm->mach, th->nt, NULL);
}

/* do_gvl_timer, after native_cond_timedwait returned */
static void timer_woken(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct gvl32 *b = bg(th);
    bool timed_out = b->timed_out;
    if (b->timeout_ev) {  /* signalled before the deadline */
        sim_cancel(th->vm->eng, b->timeout_ev);
        b->timeout_ev = 0;
    }
    struct rb_thread *owner = rb_thread_of(core_barging_timer_end(gvl32_sched(th), timed_out));
    if (owner) {
        if (!timed_out) count_wasted(th);
        th_interrupt(owner, CORE_INT_TIMER);  /* "Timeslice" */
        wait_turn(th);
    } else {
        got_it(th);
    }
}

/* one turn of the do-while loop of thread_sched_to_running_common */
static void wait_now(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct core_sched *s = gvl32_sched(th);
    struct gvl32 *b = bg(th);
    if (!s->running) {
        got_it(th);
        return;
    }
    if (!s->barging.timer) {
        /* do_gvl_timer: become the designated timer */
        if (core_barging_timer_begin(s, &th->core))
            b->abs = sim_now(th->vm->eng) + th->vm->scn->runtime.quantum;
        b->timed_out = false;
        b->timeout_ev = sim_at(th->vm->eng, b->abs, gvl32_timeout, th, 0);
        th_block(th, timer_woken);
        return;
    }
    th_block(th, woken);
}

static void wait_turn(struct rb_thread *th)
{
    settle(th, wait_now);
}

void gvl32_acquire(struct rb_thread *th, th_cont k)
{
    struct core_sched *s = gvl32_sched(th);
    if (!core_barging_uncontended(s, &th->core)) {
        core_rq_append(s, &th->core);
        th->gvl_k = k;
        wait_turn(th);
        return;
    }
    take(th, k);
}

/* THREAD_BLOCKING_END done: the GVL is ours again; rb_sigwait_fd_put */
static void park_done(struct rb_thread *th)
{
    core_barging_sleep_end(&th->vm->sigwait, &th->core);
    th->park_k(th);
}

static void park_woken(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    gvl32_acquire(th, park_done);  /* THREAD_BLOCKING_END */
}

/* sleep (cond_wait, or ppoll) unless already interrupted */
static void park_sleep(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    if (core_waiting(&th->core)) {
        th_block(th, park_woken);
        return;
    }
    gvl32_acquire(th, park_done);
}

/* THREAD_BLOCKING_YIELD: native_thread_yield() before the sleep */
static void park_yield(struct mach_task *t, void *ctx)
{
    mach_yield(&((struct rb_thread *)ctx)->vm->mach, t, park_sleep, ctx);
}

/* rb_ractor_living_thread_num */
static int living_threads(struct rb_thread *th)
{
    struct rb_ractor *r = rb_ractor_of(th);
    return r->started - r->dead;
}

void gvl32_park(struct rb_thread *th, th_cont k)
{
    struct vm *vm = th->vm;
    bool ppoll = core_barging_sleep_ppoll(&vm->sigwait, &th->core, th == &vm->threads[0]);
    struct core_thread *next = gvl32_release(th);  /* THREAD_BLOCKING_BEGIN */
    th->park_k = k;
    if (ppoll && core_barging_sleep_yields(next, living_threads(th))) settle(th, park_yield);
    else settle(th, park_sleep);
}

/* ubf_pthread_cond_signal */
void gvl32_ready(struct gvl_actor by, struct rb_thread *th)
{
    if (th->nt->state != MT_BLOCKED) return;  /* not asleep yet: park_sleep sees the wake */
    gvl_signal(th, by);
}

static void switch_wait_broadcast(struct rb_thread *th)
{
    for (struct core_thread *w = bg(th)->switch_waiters; w; w = w->rq_next)
        if (rb_thread_of(w)->nt->state == MT_BLOCKED) gvl_signal(rb_thread_of(w), gvl_self(th));
}

static void switch_waiters_remove(struct rb_thread *th)
{
    struct core_thread **pp = &bg(th)->switch_waiters;
    while (*pp && *pp != &th->core) pp = &(*pp)->rq_next;
    if (*pp) *pp = th->core.rq_next;
    th->core.rq_next = NULL;
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
    struct core_sched *s = gvl32_sched(th);
    if (s->barging.need_yield) {
        th_block(th, yield_woken);
        return;
    }
    s->barging.wait_yield = false;
    bg(th)->yielder = NULL;
    switch_wait_broadcast(th);
    gvl32_acquire(th, th->gvl_k);
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
    if (gvl32_sched(th)->barging.wait_yield) {
        th_block(th, switch_wait_woken);
        return;
    }
    switch_waiters_remove(th);
    gvl32_acquire(th, th->gvl_k);
}

static void yield_native_back(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    switch_wait_broadcast(th);
    gvl32_acquire(th, th->gvl_k);
}

static void yield_native(struct mach_task *t, void *ctx)
{
    mach_yield(&((struct rb_thread *)ctx)->vm->mach, t, yield_native_back, ctx);
}

void gvl32_yield(struct rb_thread *th, th_cont k)
{
    struct gvl32 *b = bg(th);
    struct gvl_actor self = gvl_self(th);
    vm_set_state(th, TS_WANTS_GVL);
    th->gvl_k = k;
    running_del(th);
    switch (core_barging_yield(gvl32_sched(th), &self)) {
    case CORE_YIELD_WAIT_SWITCH:  /* another thread is processing a GVL yield */
        th->core.rq_next = b->switch_waiters;
        b->switch_waiters = &th->core;
        settle(th, switch_wait_now);
        return;
    case CORE_YIELD_WAIT_TAKEN:  /* wait until another thread takes the GVL */
        b->yielder = th;
        settle(th, yield_wait_now);
        return;
    case CORE_YIELD_NATIVE:  /* native_thread_yield(), then take it back */
        settle(th, yield_native);
        return;
    }
}

int gvl32_init(struct rb_ractor *r, char *err, unsigned errlen)
{
    struct gvl32 *b = calloc(1, sizeof *b);
    if (!b)
        return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory for the GVL", r->vm->scn->file);
    r->policy_data = b;
    return GV_OK;
}

void gvl32_free(struct rb_ractor *r)
{
    free(r->policy_data);
    r->policy_data = NULL;
}
