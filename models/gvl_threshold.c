/* gvl_threshold.c - deferred suspend with a helper thread: PR 15294
 * (J. Lacouture, branch deferred_thread_wait, on 3.4.7; superseded by PR
 * 15840).  What is known of it comes from jpl-coconut's posts in the thread
 * of bug #21685 (https://bugs.ruby-lang.org/issues/21685): "The fix simply
 * defers suspending the thread until the syscall has been running for some
 * short interval. I chose 100usec", a helper thread per Ractor ("a
 * single-thread per process rather than one per ractor involves some
 * complexity"), and, from the post introducing PR 15840, that it needed
 * "the additional thread and the magic number (sleep time)".
 *
 * Assumptions (docs/policies.md):
 * - Entry to a blocking region (BLOCKING_REGION and, as for PR 15529, the
 *   THREAD_BLOCKING_BEGIN of native sleeps: both reached the patched
 *   thread_sched_to_waiting in 3.4) keeps the GVL: the thread stays
 *   `running`, records when the region began, and wakes the helper only if
 *   the helper is idle (a futex wake, paid by the thread).
 * - The helper is a native thread of its own (sim/machine.h task), created
 *   at the first deferred region.  Awake, it spends timer_tick_cost of CPU
 *   (the same work as a timer-thread wake-up: look at the sched, go back to
 *   sleep).  It sleeps until the current region is `threshold` old (a
 *   timed wait: the "sleep time"); if that same region is still running and
 *   a thread is ready, it performs the hand-off the thread skipped
 *   (thread_sched_wakeup_next_thread on its behalf, paying the futex wake
 *   and the global lock section); if a newer region is running it sleeps
 *   until that one is `threshold` old; with no region running it waits to
 *   be woken.  Like the timer thread it sleeps most of the time, so a
 *   wake-up preempts a busy core (CFS wake-up preemption).
 * - Exit from a region the helper did not hand over: clear the mark and
 *   continue, no context switch; otherwise queue up as under eager.
 * - The Queue park/wake path is untouched.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../common/err.h"
#include "gvl.h"
#include "gvl_policy.h"
#include "thread.h"

struct thr_helper {
    struct rb_sched *s;
    struct vm *vm;
    struct mach_task nt;
    char name[48];
    bool started;
    bool idle;                  /* waiting until a region wakes it */
    struct rb_thread *deferred; /* the running thread in a deferred region */
    sim_time since;             /* when that region began */
    sim_time pending_cost;      /* futex wakes and lock sections it issued */
};

static void helper_run(struct mach_task *t, void *ctx);

static void helper_timeout(void *obj, uint64_t arg)
{
    (void)arg;
    struct thr_helper *h = obj;
    mach_wake(&h->vm->mach, &h->nt, NULL);
}

static void helper_sleep(struct mach_task *t, void *ctx)
{
    struct thr_helper *h = ctx;
    sim_time threshold = h->vm->scn->runtime.threshold;
    if (h->deferred) {
        sim_time now = sim_now(h->vm->eng);
        sim_time due = h->since + threshold;
        if (due <= now) due = now + threshold;  /* expired with nobody ready: look again later */
        sim_at(h->vm->eng, due, helper_timeout, h, 0);
        h->idle = false;
    } else {
        h->idle = true;
    }
    mach_block(&h->vm->mach, t, helper_run, h);
}

static void helper_check(struct mach_task *t, void *ctx)
{
    struct thr_helper *h = ctx;
    struct rb_sched *s = h->s;
    sim_time now = sim_now(h->vm->eng);
    struct rb_thread *th = h->deferred;
    if (th && now - h->since >= h->vm->scn->runtime.threshold && s->running == th && s->rq_head) {
        /* the call is still running after `threshold`: suspend it now */
        h->deferred = NULL;
        gvl_wakeup_next_by(th, (struct gvl_actor){ &h->nt, &h->pending_cost });
    }
    if (h->pending_cost > 0) {
        sim_time c = h->pending_cost;
        h->pending_cost = 0;
        mach_burst(&h->vm->mach, t, c, helper_sleep, h);
        return;
    }
    helper_sleep(t, h);
}

static void helper_run(struct mach_task *t, void *ctx)
{
    struct thr_helper *h = ctx;
    mach_burst(&h->vm->mach, t, h->vm->scn->machine.timer_tick_cost, helper_check, h);
}

static void threshold_blocking_enter(struct rb_thread *th, bool yield_immediately)
{
    (void)yield_immediately;
    struct thr_helper *h = th->ractor->sched.policy_data;
    struct vm *vm = th->vm;
    h->deferred = th;
    h->since = sim_now(vm->eng);
    if (!h->started) {
        h->started = true;
        mach_start(&vm->mach, &h->nt, helper_run, h);
    } else if (h->idle) {
        h->idle = false;
        int woke = mach_wake(&vm->mach, &h->nt, th->nt);
        if (woke) {
            vm->wakeups++;
            th->pending_cost += vm_wake_cost(vm, woke);
        }
    }
}

static void threshold_blocking_exit(struct rb_thread *th, th_cont k)
{
    struct thr_helper *h = th->ractor->sched.policy_data;
    if (h->deferred == th && th->ractor->sched.running == th) {
        /* short call: never suspended */
        h->deferred = NULL;
        gvl_acquired(th, k);
        return;
    }
    gvl_to_running(th, k);
}

static int threshold_init(struct rb_sched *s, char *err, unsigned errlen)
{
    struct vm *vm = s->ractor->vm;
    struct thr_helper *h = calloc(1, sizeof *h);
    if (!h)
        return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory for the threshold helper",
                       vm->scn->file);
    h->s = s;
    h->vm = vm;
    snprintf(h->name, sizeof h->name, "gvl-helper/%s", s->ractor->name);
    mach_task_init(&vm->mach, &h->nt, h->name);
    h->nt.wakeup_preempt = true;
    s->policy_data = h;
    return GV_OK;
}

static void threshold_fini(struct rb_sched *s)
{
    free(s->policy_data);
    s->policy_data = NULL;
}

static void threshold_collect(const struct rb_sched *s, struct run_metrics *m)
{
    const struct thr_helper *h = s->policy_data;
    if (!h || !h->started) return;
    m->vol_switches += h->nt.vcsw;
    m->invol_switches += h->nt.ivcsw;
    m->native_threads++;
}

const struct gvl_policy gvl_threshold = {
    .name = "threshold",
    .id = GVL_POLICY_THRESHOLD,
    .blocking_enter = threshold_blocking_enter,
    .blocking_exit = threshold_blocking_exit,
    .park = gvl33_park,
    .ready = gvl33_ready,
    .yield = gvl33_yield,
    .start = gvl33_start,
    .dead = gvl33_dead,
    .tick = NULL,
    .uses_timer_thread = true,
    .init = threshold_init,
    .fini = threshold_fini,
    .collect = threshold_collect,
};
