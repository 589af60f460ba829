/* timer.c - the timer thread (thread_pthread.c timer_thread_func,
 * timer_thread_polling, timer_thread_set_timeout,
 * timer_thread_check_timeslice).
 *
 * timer_thread_set_timeout: a 10 ms poll timeout while the timeslice set
 * (running threads that have waiters) is non-empty, else an infinite wait;
 * thread_sched_setup_running_threads wakes it through the eventfd when the
 * set stops being empty (timer_thread_wakeup_locked only writes when the
 * timer is in its infinite wait).  On each timeout it ORs TIMER_INTERRUPT
 * into every thread of the set; those threads credit one tick to their
 * running_time at their next safe point (thread.c).
 *
 * What a wake-up costs depends on what woke it.  A timeout (epoll_wait's
 * hrtimer expiring) costs timer_tick_cost, the calibrated CPU per wake-up
 * of a 1 ms epoll_wait loop, most of it spent before epoll_wait returns;
 * then the tick, then set_timeout's check.  An eventfd write wakes it like
 * any sleeping thread (the arrival's wake latency), and the loop back to
 * epoll_wait is user-space bookkeeping: timer_thread_polling consumes the
 * eventfd, timer_thread_func's loop takes timer_th.waiting_lock
 * (timer_thread_check_timeout) and set_timeout the global sched lock, so
 * the check follows the arrival closely.  (Charging the timeout's
 * timer_tick_cost there too put the check 24 us after the arrival on the
 * calibrated guest, where the set a GVL hand-off fills stays non-empty
 * for about 10 us: the timer never saw it non-empty, never took the 10 ms
 * timed wait, and was woken on every hand-off.)
 *
 * A thread leaves the set in thread_sched_setup_running_threads, called by
 * thread_sched_del_running_thread after thread_sched_wakeup_next_thread
 * has signalled its successor: the futex wake is over by then.  Waking a
 * sleeper on another CPU costs the waker futex_wake + wake_ipi (21 us on
 * the development guest, where an idle vCPU is woken through the
 * hypervisor), so a holder that hands the GVL across cores stays in the
 * set that long after its decision (timer_timeslice_del's `at`).  The
 * timer, woken 25-45 us after a write, then finds a thread in the set
 * often enough to stay in its 10 ms timed wait, as the pthread executor's
 * does (the 200k-message ping-pong on 2 vCPUs: ~1,700 ticks in 17 s).
 * (Deleting at the decision, the timer always checked after the writer
 * had left: woken at every GVL acquisition, never ticking.)  Where a
 * remote wake is cheap (report_m4) the holder leaves within a microsecond
 * and the timer is still woken about once per round trip of its own.
 */
#include "timer.h"

#include "../core/policy.h"
#include "gvl.h"
#include "mn_pool.h"
#include "thread.h"

static void timer_run(struct mach_task *t, void *ctx);

static void timer_timeout(void *obj, uint64_t arg)
{
    (void)arg;
    struct vm *vm = obj;
    vm->timer.timeout_ev = 0;
    vm->timer.tick_due = true;
    mach_wake(&vm->mach, &vm->timer.nt, NULL);
}

static void timer_sleep(struct mach_task *t, void *ctx)
{
    struct vm *vm = ctx;
    struct rb_timer *tm = &vm->timer;
    if (nlock_taken(&tm->sched_lock, t)) {
        /* set_timeout's ractor_sched_lock: the thread whose write woke
         * us still holds it (see timer_timeslice_add); then again (the
         * only sleeper on it, its own unlock wakes nobody) */
        nlock_sleep(&tm->sched_lock, &vm->mach, &tm->lock_wait, t, NULL, timer_sleep, vm);
        return;
    }
    /* timer_thread_set_timeout */
    if (!timer_timeslice_empty(tm, sim_now(vm->eng)) || mn_grq_cnt(vm) > 0) {  /* M:N: also while Ractors wait for an SNT */
        tm->sleeping_forever = false;
        tm->timed_waits++;
        /* epoll_wait's timeout ends late by the slack (ep_poll's
         * select_estimate_accuracy: the larger of 0.1% of the timeout
         * and the thread's timer_slack_ns, fs/select.c); the executor's
         * condvar wait by timer_slack (models/gvl_helper.c) */
        sim_time tick = vm->scn->runtime.timer_tick, slack = vm->scn->machine.timer_slack;
        if (tick / 1000 > slack) slack = tick / 1000;
        tm->timeout_ev = sim_after(vm->eng, tick + slack, timer_timeout, vm, 0);
    } else {
        tm->sleeping_forever = true;
    }
    mach_block(&vm->mach, t, timer_run, vm);
}

/* The tick's sections are paid: the sched locks its hand-offs held are
 * let go (waking a thread that slept on one is a futex wake more), then
 * timer_thread_set_timeout looks at the set. */
static void timer_unlock(struct mach_task *t, void *ctx)
{
    struct vm *vm = ctx;
    struct rb_timer *tm = &vm->timer;
    struct gvl_actor timer = { &tm->nt, &tm->pending_cost, NULL };
    for (int i = 0; i < vm->nractors; i++) gvl_handoff_unlock(&vm->ractors[i], timer);
    vm_pay(vm, t, &tm->pending_cost, timer_sleep, vm);
}

static void timer_work_done(struct mach_task *t, void *ctx)
{
    struct vm *vm = ctx;
    struct rb_timer *tm = &vm->timer;
    if (tm->tick_due) {
        /* timer_thread_check_timeslice */
        tm->tick_due = false;
        tm->ticks++;
        struct gvl_actor timer = { &tm->nt, &tm->pending_cost, NULL };
        for (int i = 0; i < vm->nractors; i++) {
            struct core_sched *s = &vm->ractors[i].core.sched;
            uint64_t handoffs = s->handoffs;
            /* the delayed policy's hand-off first (core/policy.c), made
             * under the Ractor's sched lock, held until its wake is paid */
            if (core_sched_tick(s, &timer)) th_interrupt(rb_thread_of(s->running), CORE_INT_TIMER);
            if (s->handoffs != handoffs) gvl_handoff_lock(&vm->ractors[i]);
        }
        mn_timer_tick(vm);  /* M:N: lazy grq deq, SNT top-up */
    }
    vm_pay(vm, t, &tm->pending_cost, timer_unlock, vm);  /* futex wakes issued by policy ticks */
}

static void timer_run(struct mach_task *t, void *ctx)
{
    struct vm *vm = ctx;
    const struct scn_machine *m = &vm->scn->machine;
    if (vm->timer.tick_due) {
        /* epoll_wait timed out (timer_thread_polling's case 0) */
        mach_burst(&vm->mach, t, m->timer_tick_cost, timer_work_done, vm);
        return;
    }
    /* the eventfd (or the start): timer_thread_check_timeout's
     * waiting_lock, then timer_thread_set_timeout's sched lock */
    sim_time c = m->mutex_uncontended + m->sched_lock_cs;
    if (c > 0) mach_burst(&vm->mach, t, c, timer_work_done, vm);
    else timer_work_done(t, vm);
}

void timer_init(struct vm *vm)
{
    struct rb_timer *tm = &vm->timer;
    mach_task_init(&vm->mach, &tm->nt, "timer");
    /* a thread that slept long preempts a busy core when woken (CFS) */
    tm->nt.wakeup_preempt = true;
}

void timer_start(struct vm *vm)
{
    mach_start(&vm->mach, &vm->timer.nt, timer_run, vm);
}

/* timer_thread_wakeup_locked: an eventfd write (timer.h, timer_timeslice_add) */
void timer_wakeup_write(struct vm *vm, struct gvl_actor by)
{
    struct rb_timer *tm = &vm->timer;
    tm->sleeping_forever = false;
    int woke = mach_wake(&vm->mach, &tm->nt, by.nt);
    if (woke) {
        tm->wakes++;
        *by.cost += vm_wake_cost(vm, woke);
        /* The write is a system call the waker returns from (and may
         * be preempted at, by the timer it woke) inside
         * thread_sched_setup_running_threads, before it goes on to
         * its next decision (a blocking region's del_running): it
         * pays it before its next op (models/thread.c th_step) */
        if (by.th) by.th->wrote_timer = true;
        /* The write is made holding vm->ractor.sched.lock
         * (timer_thread_wakeup_locked asserts it; its caller
         * thread_sched_setup_running_threads holds it from
         * ractor_sched_lock to ractor_sched_unlock).  Woken onto the
         * writer's own core, the timer preempts it (wakeup_preempt)
         * inside that section, and its timer_thread_set_timeout finds
         * the lock taken: it sleeps on it (FUTEX_WAIT), and the
         * writer's unlock, once the write is paid, wakes it again (a
         * FUTEX_WAKE more; models/gvl.c gvl_section_end).  Woken on
         * another core it comes long after the write is over. */
        vm_hold_through_wake(&tm->sched_lock, by, woke);
    }
}

