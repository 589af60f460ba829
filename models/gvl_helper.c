/* gvl_helper.c - the helper thread of the threshold policy (PR 15294,
 * core/policy.c) in simulated time.  What is known of it comes from
 * jpl-coconut's posts in the thread of bug #21685
 * (https://bugs.ruby-lang.org/issues/21685): "The fix simply defers
 * suspending the thread until the syscall has been running for some short
 * interval. I chose 100usec", a helper thread per Ractor ("a single-thread
 * per process rather than one per ractor involves some complexity"), and,
 * from the post introducing PR 15840, that it needed "the additional
 * thread and the magic number (sleep time)".
 *
 * Assumptions (docs/policies.md), the same in the executor
 * (exec/exec_threshold.c): the helper's decisions are core_helper_next.
 * - Entry to a blocking region keeps the GVL (core_blocking_enter: the
 *   thread stays `running`, sched->deferred) and records when the region
 *   began.
 * - The helper is a native thread of its own (sim/machine.h task), created
 *   at the first deferred region.  It waits on a condition variable paired
 *   with the Ractor's sched lock.  With nobody ready it waits until the
 *   enqueue that makes the ready queue non-empty signals it (a futex wake,
 *   paid by that thread); so woken, it costs itself the lock section
 *   pthread_cond_wait ends with (glibc's __pthread_cond_wait_common takes
 *   the mutex back before it returns), as the timer thread's eventfd
 *   wake-up costs it its lock sections (models/timer.c).  A timed wait
 *   that expires ends timer_slack after its deadline (below); the
 *   helper's code runs timer_wake after that (the expiry's interrupt, the
 *   wake, the switch, the futex's return) and, once it has decided and
 *   armed its next wait, spends the rest of timer_tick_cost (the
 *   calibrated CPU of a timeout's wake-up) entering it: the executor's
 *   helper, traced with sched_switch / hrtimer events, runs its check 2 us
 *   after it is switched in and leaves the CPU 9 us after arming
 *   (docs/validate.md).  Without a measured timer_wake all of
 *   timer_tick_cost comes before the check.  With a thread ready it
 *   sleeps until the current region is `threshold` old, or, with no
 *   region running, `threshold` at a time (the "sleep time"); when
 *   a region it finds is `threshold` old and a thread is ready it performs
 *   the hand-off the thread skipped (core_sched_handoff_deferred on its
 *   behalf, paying the futex wake and the global lock section).  Like the
 *   timer thread it sleeps most of the time, so a wake-up preempts a busy
 *   core (CFS wake-up preemption).
 */
#include "gvl_helper.h"

#include <stdio.h>
#include <stdlib.h>

#include "../common/err.h"
#include "../core/policy.h"
#include "gvl.h"
#include "thread.h"

/* A timed wait ends late by the waiter's timer slack.  glibc's
 * pthread_cond_timedwait sleeps in FUTEX_WAIT_BITSET with the deadline;
 * Linux arms that sleep's hrtimer with the range [deadline, deadline +
 * current->timer_slack_ns] (kernel/futex/waitwake.c futex_wait ->
 * futex_setup_timer; hrtimer_set_expires_range_ns), and a lone timer
 * fires at the range's end.  A thread's slack is 50 us unless it calls
 * prctl(PR_SET_TIMERSLACK) (init/init_task.c, .timer_slack_ns = 50000;
 * prctl(2)); neither CRuby nor the executor does.  machine.timer_slack,
 * measured by `gvlsim calibrate` (timed futex waits with the default
 * slack against the same with 1 ns; docs/calibrate.md). */

struct thr_helper {
    struct core_sched *s;
    struct vm *vm;
    struct mach_task nt;
    char name[48];
    bool started;
    bool idle;                  /* waiting until a region wakes it */
    bool timed;                 /* in a timed wait (ended by its timeout) */
    bool settling;              /* entering its next wait after a timeout (helper_settle) */
    bool signalled;             /* signalled meanwhile: that wait returns at once */
    bool stalled;               /* its expiry stopped its busy core first (timer_stall) */
    bool relocked;              /* its wait took the lock back (helper_unlock) */
    sim_time since;             /* when the deferred region (sched->deferred) began */
    sim_time pending_cost;      /* futex wakes and lock sections it issued */
    sim_time deadline;          /* its timed wait's end: the deadline + timer_slack */
    sim_time settle;            /* the CPU of that entry still to pay */
};

static void helper_run(struct mach_task *t, void *ctx);

static void helper_stall_over(void *obj, uint64_t arg)
{
    (void)arg;
    struct thr_helper *h = obj;
    mach_wake_timer(&h->vm->mach, &h->nt);
}

static void helper_timeout(void *obj, uint64_t arg)
{
    (void)arg;
    struct thr_helper *h = obj;
    const struct scn_machine *m = &h->vm->scn->machine;
    /* with a measured timer_wake, that is the expiry's whole latency, on
     * an idle core too (docs/validate.md) */
    if (m->timer_wake == SCN_DUR_UNSET) {
        mach_wake(&h->vm->mach, &h->nt, NULL);
        return;
    }
    /* A virtual CPU running a task when its timer expires stops first,
     * timer_stall, the task charged (the EPYC guest's trace: no guest
     * event from the helper's hard deadline until the local timer
     * interrupt 41 us later, the worker's open(2) entered 0.6 us after
     * the deadline returning 54 us after it; docs/validate.md); the
     * helper is woken at its end. */
    if (m->timer_stall != SCN_DUR_UNSET && m->timer_stall > 0) {
        sim_time s = mach_stall_core(&h->vm->mach, h->nt.last_core, mach_wake_draw(&h->vm->mach, m->timer_stall));
        if (s > 0) {
            h->stalled = true;
            sim_after(h->vm->eng, s, helper_stall_over, h, 0);
            return;
        }
    }
    mach_wake_timer(&h->vm->mach, &h->nt);
}

static sim_time region_age(const struct thr_helper *h)
{
    return h->s->deferred ? sim_now(h->vm->eng) - h->since : 0;
}

/* The wait itself: its timer armed for what is left of the slack-extended
 * deadline; a signal that came while it was entering it (its futex word
 * changed) makes it return at once. */
static void helper_wait(struct mach_task *t, void *ctx)
{
    struct thr_helper *h = ctx;
    h->settling = false;
    h->relocked = true;  /* however it ends, pthread_cond_wait re-locks */
    if (h->signalled) {
        h->signalled = false;
        helper_run(t, h);
        return;
    }
    if (h->timed) {
        sim_time now = sim_now(h->vm->eng);
        sim_after(h->vm->eng, h->deadline > now ? h->deadline - now : 0, helper_timeout, h, 0);
    }
    mach_block(&h->vm->mach, t, helper_run, h);
}

static void helper_sleep(struct mach_task *t, void *ctx)
{
    struct thr_helper *h = ctx;
    sim_time sleep, settle = h->settle;
    h->idle = core_helper_next(h->s, region_age(h), h->vm->scn->runtime.threshold, &sleep) == CORE_HELPER_IDLE;
    h->timed = !h->idle;
    h->deadline = sim_now(h->vm->eng) + sleep + vm_timed_wait_slack(h->vm);
    h->settle = 0;
    if (settle > 0) {
        h->settling = true;
        mach_burst(&h->vm->mach, t, settle, helper_wait, h);
    } else {
        helper_wait(t, h);
    }
}

/* Its hand-off's sections are paid: the sched lock is let go (the wake of
 * a thread that slept on it is a futex wake more), then its wait.  The
 * helper holds the lock from one wait to the next, and the next wait lets
 * it go: pthread_cond_wait's unlock of a mutex its last wait took back
 * with the word at 2 (glibc's __pthread_mutex_cond_lock, after a signal
 * and after ETIMEDOUT alike: strace of a timed-out wait in a process of two
 * threads shows the FUTEX_WAKE; models/gvl.c, "the unlock after a
 * cond_wait") makes a FUTEX_WAKE, of a thread that slept on the lock or
 * of nobody (futex_wake_none). */
static void helper_unlock(struct mach_task *t, void *ctx)
{
    struct thr_helper *h = ctx;
    struct rb_ractor *r = rb_ractor_of_sched(h->s);
    struct gvl_actor helper = { &h->nt, &h->pending_cost, NULL };
    const struct scn_machine *m = &h->vm->scn->machine;
    bool woke = gvl_handoff_unlock(r, helper);
    if (h->relocked && !woke && vm_cond_relock_owed(m)) h->pending_cost += m->futex_wake_none;
    h->relocked = false;
    vm_pay(h->vm, t, &h->pending_cost, helper_sleep, h);
}

static void helper_check(struct mach_task *t, void *ctx)
{
    struct thr_helper *h = ctx;
    sim_time sleep;
    if (core_helper_next(h->s, region_age(h), h->vm->scn->runtime.threshold, &sleep) == CORE_HELPER_HANDOFF) {
        /* the call is still running after `threshold`: suspend it now,
         * under the sched lock, held until the wake is paid (gvl.h) */
        struct gvl_actor helper = { &h->nt, &h->pending_cost, NULL };
        if (core_sched_handoff_deferred(h->s, &helper)) gvl_handoff_lock(rb_ractor_of_sched(h->s));
    }
    vm_pay(h->vm, t, &h->pending_cost, helper_unlock, h);
}

static void helper_run(struct mach_task *t, void *ctx)
{
    struct thr_helper *h = ctx;
    const struct scn_machine *m = &h->vm->scn->machine;
    /* a timeout: timer_wake until its code runs, the rest of
     * timer_tick_cost after its check (helper_sleep); a signal (or the
     * start): the sched lock taken back */
    sim_time c = m->mutex_uncontended;
    if (h->timed && m->timer_wake == SCN_DUR_UNSET) {
        c = m->timer_tick_cost;
    } else if (h->timed && h->stalled) {
        /* the stall was the latency's most: the rest (the interrupt, the
         * wake, the futex's return) is the helper's own CPU, part of
         * timer_tick_cost, the rest of which it pays after its check */
        c = m->timer_wake > m->timer_stall ? m->timer_wake - m->timer_stall : 0;
        h->settle = m->timer_tick_cost > c ? m->timer_tick_cost - c : 0;
    } else if (h->timed) {
        /* drawn like every wake latency (wake_jitter): an exact one
         * phase-locks the helper's polls with a thread's loop of calls,
         * so that they keep finding it between two calls */
        c = mach_wake_draw(&h->vm->mach, m->timer_wake);
        h->settle = m->timer_tick_cost > m->timer_wake ? m->timer_tick_cost - m->timer_wake : 0;
    }
    h->stalled = false;
    h->timed = false;
    if (c > 0) mach_burst(&h->vm->mach, t, c, helper_check, h);
    else helper_check(t, h);
}

void helper_region_began(struct rb_thread *th)
{
    struct thr_helper *h = rb_ractor_of(th)->policy_data;
    struct vm *vm = th->vm;
    h->since = sim_now(vm->eng);
    if (!h->started) {
        h->started = true;
        mach_start(&vm->mach, &h->nt, helper_run, h);
    }
}

void helper_waiters_appeared(struct rb_ractor *r, struct gvl_actor by)
{
    struct thr_helper *h = r->policy_data;
    if (!h || !h->started || !h->idle) return;
    h->idle = false;
    struct vm *vm = r->vm;
    if (h->settling) {  /* not asleep yet: the FUTEX_WAKE finds nobody, its wait returns at once */
        h->signalled = true;
        *by.cost += vm->scn->machine.futex_wake;
        return;
    }
    int woke = mach_wake(&vm->mach, &h->nt, by.nt);
    if (woke) {
        vm->wakeups++;
        *by.cost += vm_wake_cost(vm, woke);
    }
}

int helper_init(struct rb_ractor *r, char *err, unsigned errlen)
{
    struct vm *vm = r->vm;
    struct thr_helper *h = calloc(1, sizeof *h);
    if (!h)
        return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory for the threshold helper",
                       vm->scn->file);
    h->s = &r->core.sched;
    h->vm = vm;
    snprintf(h->name, sizeof h->name, "gvl-helper/%s", r->core.name);
    mach_task_init(&vm->mach, &h->nt, h->name);
    h->nt.wakeup_preempt = true;
    r->policy_data = h;
    return GV_OK;
}

void helper_free(struct rb_ractor *r)
{
    free(r->policy_data);
    r->policy_data = NULL;
}

void helper_collect(const struct rb_ractor *r, struct run_metrics *m)
{
    const struct thr_helper *h = r->policy_data;
    if (!h || !h->started) return;
    m->vol_switches += h->nt.vcsw;
    m->invol_switches += h->nt.ivcsw;
    m->native_threads++;
}
