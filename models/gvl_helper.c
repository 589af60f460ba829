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
 *   that expires costs timer_tick_cost, the calibrated CPU of a timeout's
 *   wake-up (the hrtimer's arming and expiry; docs/validate.md).
 *   Otherwise it sleeps until the current region is `threshold` old, or,
 *   with no region running, `threshold` at a time (the "sleep time"), and
 *   the timed wait ends HELPER_TIMER_SLACK after that (below); when
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
 * prctl(2)); neither CRuby nor the executor does.  Measured on the host
 * of docs/data/validate: 100 us cond_timedwaits on one CPU last 170 us
 * (median), 121 us once the slack is set to 1 ns (docs/validate.md).
 * The ~20 us left is the expiry's own cost, timer_tick_cost. */
#define HELPER_TIMER_SLACK (50 * SIM_US)

struct thr_helper {
    struct core_sched *s;
    struct vm *vm;
    struct mach_task nt;
    char name[48];
    bool started;
    bool idle;                  /* waiting until a region wakes it */
    bool timed;                 /* in a timed wait (ended by its timeout) */
    sim_time since;             /* when the deferred region (sched->deferred) began */
    sim_time pending_cost;      /* futex wakes and lock sections it issued */
};

static void helper_run(struct mach_task *t, void *ctx);

static void helper_timeout(void *obj, uint64_t arg)
{
    (void)arg;
    struct thr_helper *h = obj;
    mach_wake(&h->vm->mach, &h->nt, NULL);
}

static sim_time region_age(const struct thr_helper *h)
{
    return h->s->deferred ? sim_now(h->vm->eng) - h->since : 0;
}

static void helper_sleep(struct mach_task *t, void *ctx)
{
    struct thr_helper *h = ctx;
    sim_time sleep;
    h->idle = core_helper_next(h->s, region_age(h), h->vm->scn->runtime.threshold, &sleep) == CORE_HELPER_IDLE;
    h->timed = !h->idle;
    if (h->timed) sim_after(h->vm->eng, sleep + HELPER_TIMER_SLACK, helper_timeout, h, 0);
    mach_block(&h->vm->mach, t, helper_run, h);
}

/* Its hand-off's sections are paid: the sched lock is let go (the wake of
 * a thread that slept on it is a futex wake more), then its wait. */
static void helper_unlock(struct mach_task *t, void *ctx)
{
    struct thr_helper *h = ctx;
    struct rb_ractor *r = rb_ractor_of_sched(h->s);
    struct gvl_actor helper = { &h->nt, &h->pending_cost, NULL };
    gvl_handoff_unlock(r, helper);
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
    /* a timeout, or a signal (or the start): the sched lock taken back */
    sim_time c = h->timed ? m->timer_tick_cost : m->mutex_uncontended;
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
