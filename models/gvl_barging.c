/* gvl_barging.c - the GVL of CRuby 2.6 to 3.2 (thread_pthread.c of v3_1_0:
 * gvl_acquire_common, gvl_release_common, do_gvl_timer,
 * designate_timer_thread, gvl_yield, GVL_UNLOCK_BEGIN_YIELD; v3_2_0 renamed
 * them thread_sched_*; thread.c: rb_threadptr_execute_interrupts,
 * rb_thread_schedule_limits) in simulated time.  Its rules are
 * core/policy.h's core_barging_*; this file gives them their locks and
 * waits.
 *
 * The GVL is a native mutex, gvl->lock, and condition variables: every
 * acquire and release is a section of gvl->lock (gvl_acquire, gvl_release:
 * lock, *_common, unlock), and every wait in it a pthread_cond_wait on
 * gvl->lock - a waiter's own cond.gvlq, switch_cond, switch_wait_cond.
 * They are the native mutex and condvars of models/vm_lock.c, with the C
 * library's semantics (machine.mutex_impl): a section costs
 * mutex_uncontended, a signal's futex wake (futex_wake, plus wake_ipi
 * when the waiter goes to another core) is paid inside it - glibc's
 * pthread_cond_signal makes the FUTEX_WAKE call itself, and CRuby calls
 * it holding gvl->lock (gvl_release_common, designate_timer_thread,
 * gvl_acquire_common's switch_cond) - and a condvar waiter must take
 * gvl->lock again before it can look at the owner.  So a thread that
 * wants gvl->lock while another holds it through such a signal sleeps on
 * it (FUTEX_WAIT) and is woken by the unlock (glibc: the word is 2 after a
 * contended lock, so that unlock is a FUTEX_WAKE) - one more voluntary
 * switch and two more futex calls than a lock-free model gives.  On one
 * CPU, where a woken thread may preempt its waker (os_scheduler), this is
 * the waiter signalled by a release: it runs while the releaser still
 * holds gvl->lock.  On several CPUs it is whoever comes back from a
 * blocking region during a release or an acquire's signal.
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
 *   next safe point.  The timer's sections hold gvl->lock through
 *   three locked read-modify-writes on lines another CPU wrote last (on
 *   several cores, machine.lock_line each when the line moves): before its
 *   wait ubf_timer_disarm's CAS of the process-wide timer_posix.state_,
 *   after it ruby_sigchld_handler's exchange of sigchld_hit and the OR of
 *   TIMER_INTERRUPT into the owner's interrupt_flag.  Each lengthens the
 *   section a releaser back from its system call may find holding the
 *   lock, and sleep on (docs/validate.md, "The timer's atomics").
 * - Yield: release, then if a waiter exists set need_yield and sleep on
 *   switch_cond until a waiter has taken the GVL (it signals), then acquire
 *   again.  A second yield while one is pending waits on switch_wait_cond.
 * - A new owner with no timer signals the tail of the ready queue so that
 *   it becomes the timer.
 * - A Queue pop that parks, or a join, is a native_sleep: release the GVL,
 *   sleep until the pusher's (or the dying thread's) unblock function wakes
 *   it, then acquire as above.  The first sleeper of the process takes the
 *   signal self-pipe and sleeps in ppoll on it, the main thread in ppoll
 *   anyway, any other thread on its own condvar (cond.intr).  A ppoll
 *   sleeper is woken by a write to its eventfd (ubf_ppoll_sleep,
 *   ubf_sigwait -> rb_thread_wakeup_timer_thread_fd), not by a futex
 *   wake: the waker pays ppoll_wake_extra on top of futex_wake, and the
 *   woken sleeper ppoll_return (ppoll's return, consume_communication_pipe's
 *   read) before it takes its interrupt_lock and wants the GVL (both
 *   measured by gvlsim calibrate, docs/calibrate.md).  The ppoll
 *   paths release with THREAD_BLOCKING_YIELD: if the release signalled
 *   nobody and the Ractor has another living thread, sched_yield() first
 *   (mach_yield: on one core the other thread runs, pushes and interrupts
 *   the sleeper, which then need not sleep at all), and sleep only if
 *   nothing woke the thread meanwhile.  The same yield is gvl_yield's when
 *   nobody waits (native_thread_yield).
 * - The wake of a native sleep is made holding the sleeper's
 *   th->interrupt_lock (thread.c rb_threadptr_interrupt_common: lock, set
 *   the interrupt, run the unblock function - ubf_ppoll_sleep's or
 *   ubf_sigwait's write to a pipe, ubf_pthread_cond_signal's futex wake -,
 *   unlock), and the woken thread's first step takes that lock
 *   (unblock_function_clear after ppoll; native_cond_sleep's cond_wait
 *   re-locks it).  On one CPU the woken thread preempts its waker inside
 *   that section, finds the lock taken and sleeps on it until the waker
 *   unlocks: one more voluntary switch and a futex wait and wake per wake,
 *   as gvl->lock's signals give above.  (perf on Ruby 3.1.2, queue_pingpong
 *   on one CPU: 96 ppoll sleeps of the main thread, 95 sleeps on its
 *   interrupt_lock.)  The waker holds it until it has paid what it owes
 *   there (the wake and the lock itself) on its own CPU, which a woken
 *   thread that preempts it delays until it runs again.
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
#include "vm_lock.h"

/* The simulator's side of a Ractor's 2.x GVL (rb_ractor.policy_data;
 * rb_global_vm_lock_t).  owner, waitq, timer, need_yield and wait_yield
 * are the Ractor's core.sched (core/policy.h). */
struct gvl32 {
    struct vml_mutex lock;             /* gvl->lock */
    /* each thread's th->interrupt_lock, by thread id (the first Ractor's
     * GVL keeps them for all threads; NULL in the others) */
    struct vml_mutex *intr;
    struct vml_cond switch_cond;       /* a yielder waits until a waiter took the GVL */
    struct vml_cond switch_wait_cond;  /* other yielders wait for that yield to end */
    struct rb_thread *designated;      /* signalled by designate_timer_thread */
    /* the lines of two process-wide words every designated timer does a
     * locked read-modify-write on under gvl->lock (the first Ractor's GVL
     * keeps them; vml_line_rmw): timer_posix.state_ (ubf_timer_disarm's
     * CAS) and sigchld_hit (ruby_sigchld_handler's exchange) */
    int timer_state_line, sigchld_line;
    /* do_gvl_timer's deadline (a function-static `abs` in CRuby, shared by
     * the Ractors' GVLs; one per Ractor here) */
    sim_time abs;
};

static struct core_sched *gvl32_sched(struct rb_thread *th) { return core_sched_of(&th->core); }
static struct gvl32 *bg(struct rb_thread *th) { return rb_ractor_of(th)->policy_data; }

/* the first Ractor's GVL, which keeps what is process-wide */
static struct gvl32 *bg0(const struct rb_thread *th) { return th->vm->ractors[0].policy_data; }

/* th->interrupt_lock */
static struct vml_mutex *intr_lock(const struct rb_thread *th)
{
    return &bg0(th)->intr[th->core.id];
}

static void count_wasted(struct rb_thread *th)
{
    rb_cold(th)->wasted_wakes++;
    th->vm->wasted_wakes++;
}

/* rb_native_mutex_lock(&gvl->lock): k runs holding it.  Waiting for it
 * leaves th in the state it is in (wanting the GVL, or entering a blocking
 * region). */
static void lock_gvl(struct rb_thread *th, th_cont k)
{
    vml_mutex_lock(th, &bg(th)->lock, th->ts, k);
}

static void unlocked(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    vml_mutex_unlock(th, &bg(th)->lock);
    rb_cold(th)->release_k(th);
}

/* rb_native_mutex_unlock(&gvl->lock) at the end of a section: what the
 * section owes (its signals) is paid with the lock held; then k. */
static void unlock_gvl(struct rb_thread *th, th_cont k)
{
    rb_cold(th)->release_k = k;
    th_settle(th, unlocked);
}

/* pthread_cond_wait(c, &gvl->lock): k runs woken, holding it again */
static void cond_wait_gvl(struct rb_thread *th, struct vml_cond *c, th_cont k)
{
    vml_cond_wait(th, c, &bg(th)->lock, th->ts, k);
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

/* gvl_release_common, holding gvl->lock: clear the owner and signal the
 * head of the waitq (gvl32_signal); returns it */
static struct core_thread *release_common(struct rb_thread *th)
{
    struct gvl_actor self = gvl_self(th);
    running_del(th);  /* as the owner is cleared, before the waiter's signal */
    return core_barging_release(gvl32_sched(th), &self);
}

void gvl32_signal(struct rb_thread *next, struct gvl_actor by)
{
    vml_cond_signal_as(by, &rb_cold(next)->gvlq);
}

/* ---- gvl_acquire ------------------------------------------------------------- */

static void acquired(struct rb_thread *th)
{
    gvl_acquired(th, th->gvl_k);
}

/* the end of gvl_acquire_common (owner = th; designate_timer_thread if
 * there is no timer), then gvl_acquire's unlock */
static void take(struct rb_thread *th)
{
    struct core_sched *s = gvl32_sched(th);
    struct rb_thread *timer = rb_thread_of(core_barging_take(s, &th->core));
    running_add(th);
    if (timer) {
        /* designate_timer_thread: the tail will be in the waitq longest */
        bg(th)->designated = timer;
        vml_cond_signal(th, &rb_cold(timer)->gvlq);
    }
    unlock_gvl(th, acquired);
}

static void wait_loop(struct rb_thread *th);

/* the wait loop saw the owner NULL: list_del_init, then signal a yielder
 * waiting for this (need_yield: switch_cond) */
static void got_it(struct rb_thread *th)
{
    if (core_barging_got_it(gvl32_sched(th), &th->core)) vml_cond_signal(th, &bg(th)->switch_cond);
    take(th);
}

/* rb_native_cond_wait(&nd->cond.gvlq, &gvl->lock) returned */
static void woken(struct rb_thread *th)
{
    struct gvl32 *b = bg(th);
    bool designated = b->designated == th;  /* woken to become the timer */
    if (designated) b->designated = NULL;
    if (gvl32_sched(th)->running) {
        if (!designated) count_wasted(th);
        wait_loop(th);
        return;
    }
    got_it(th);
}

/* do_gvl_timer, after native_cond_timedwait returned, holding gvl->lock
 * again: ruby_sigchld_handler's GET_SIGCHLD_HIT(), an ATOMIC_EXCHANGE of
 * the process-wide sigchld_hit (signal.c of v3_1_2; RUBY_SIGCHLD is
 * SIGCLD on Linux), whose line the last timer took to its CPU; then, the
 * GVL owned, RUBY_VM_SET_TIMER_INTERRUPT - an ATOMIC_OR on the owner's
 * ec->interrupt_flag, a line the owner reads at every safe point on its
 * own CPU.  Both are paid before the section's unlock (in the next wait,
 * or take's). */
static void timer_woken(struct rb_thread *th)
{
    bool timed_out = th_sync_of(th)->timed_out;
    struct rb_thread *owner = rb_thread_of(core_barging_timer_end(gvl32_sched(th), timed_out));
    th->pending_cost += vml_line_rmw(th, &bg0(th)->sigchld_line);
    if (owner && owner->nt && owner->nt->core >= 0) {
        int flag_line = owner->nt->core + 1;
        th->pending_cost += vml_line_rmw(th, &flag_line);
    }
    if (owner) {
        if (!timed_out) count_wasted(th);
        th_interrupt(owner, CORE_INT_TIMER);  /* "Timeslice" */
        wait_loop(th);
    } else {
        got_it(th);
    }
}

/* one turn of gvl_acquire_common's do { ... } while (gvl->owner) */
static void wait_loop(struct rb_thread *th)
{
    struct core_sched *s = gvl32_sched(th);
    struct gvl32 *b = bg(th);
    if (!s->barging.timer) {
        /* do_gvl_timer: become the designated timer; a new deadline only
         * after the last wait timed out */
        if (core_barging_timer_begin(s, &th->core))
            b->abs = sim_now(th->vm->eng) + th->vm->scn->runtime.quantum;
        /* ubf_timer_disarm, holding gvl->lock (paid before the wait
         * releases it): `timer_posix.owner != getpid()`, then
         * timer_state_cas(RTIMER_ARMED, RTIMER_DISARM) - a CAS of the
         * process-wide timer_posix.state_ (thread_pthread.c of v3_1_2),
         * which fails ("RTIMER_DISARM: return; likely") but takes the line
         * from the CPU of the timer before */
        th->pending_cost += vm_getpid_cost(th->vm);
        th->pending_cost += vml_line_rmw(th, &bg0(th)->timer_state_line);
        vml_cond_timedwait(th, &rb_cold(th)->gvlq, &b->lock, th->ts, b->abs, timer_woken);
        return;
    }
    cond_wait_gvl(th, &rb_cold(th)->gvlq, woken);
}

/* gvl_acquire_common after its READY hook, holding gvl->lock */
static void acquire_ready(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct core_sched *s = gvl32_sched(th);
    if (!core_barging_uncontended(s, &th->core)) {
        core_rq_append(s, &th->core);
        wait_loop(th);
        return;
    }
    take(th);
}

/* gvl_acquire_common (3.2: thread_sched_to_running_common), holding
 * gvl->lock.  3.2 fires the READY event first, inside the lock and before
 * it looks at the owner (RB_INTERNAL_THREAD_HOOK(READY) at the top of
 * thread_sched_to_running_common, thread_pthread.c of v3_2_0): a
 * thread-event hook (runtime.event_hook, a tracer's) runs holding
 * gvl->lock, so a releaser or another acquirer waits for it. */
static void acquire_common(struct rb_thread *th)
{
    sim_time hook = vm_ready_hook(th->vm);
    if (hook > 0) {
        th_burst(th, hook, acquire_ready);
        return;
    }
    acquire_ready(th->nt, th);
}

void gvl32_acquire(struct rb_thread *th, th_cont k)
{
    th->gvl_k = k;
    lock_gvl(th, acquire_common);
}

/* ---- gvl_release -------------------------------------------------------------- */

static void release_locked(struct rb_thread *th)
{
    release_common(th);
    unlock_gvl(th, rb_cold(th)->release_k);
}

void gvl32_release(struct rb_thread *th, th_cont k)
{
    rb_cold(th)->release_k = k;
    lock_gvl(th, release_locked);
}

/* ---- native_sleep: Queue#pop on an empty queue, join ----------------------------- */

/* THREAD_BLOCKING_END done: the GVL is ours again; rb_sigwait_fd_put */
static void park_done(struct rb_thread *th)
{
    core_barging_sleep_end(&th->vm->sigwait, &th->core);
    rb_cold(th)->park_k(th);
}

/* THREAD_BLOCKING_END: thread_sched_to_running, whose READY makes the
 * woken thread want the GVL only now that it runs (models/sync.c) */
static void park_acquire(struct rb_thread *th)
{
    vm_set_state(th, TS_WANTS_GVL);
    gvl32_acquire(th, park_done);
}

/* the interrupt_lock section after the sleep ends (th->unblock.func = 0),
 * then THREAD_BLOCKING_END */
static void intr_locked(struct rb_thread *th)
{
    vml_mutex_unlock(th, intr_lock(th));
    park_acquire(th);
}

static void park_intr_lock(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    vml_mutex_lock(th, intr_lock(th), th->ts, intr_locked);
}

/* A ppoll sleeper, woken by the write to its eventfd, pays ppoll's return
 * and consume_communication_pipe's read (one read of an eventfd) before
 * unblock_function_clear takes its interrupt_lock (thread_pthread.c
 * native_ppoll_sleep; rb_sigwait_sleep -> check_signals_nogvl) -
 * ppoll_return, measured by gvlsim calibrate against the futex path, which
 * needs no such step. */
static void park_woken(struct mach_task *t, void *ctx)
{
    struct rb_thread *th = ctx;
    if (rb_cold(th)->park_ppoll) th->pending_cost += rb_machine_of(th)->ppoll_return;
    park_intr_lock(t, th);  /* (the lock is tried once that is paid: vml_mutex_lock) */
}

/* sleep (cond_wait on cond.intr, or ppoll) unless already interrupted */
static void park_sleep(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    if (core_waiting(&th->core)) {
        th_block(th, park_woken);
        return;
    }
    park_acquire(th);
}

/* THREAD_BLOCKING_YIELD: native_thread_yield() before the sleep */
static void park_yield(struct mach_task *t, void *ctx)
{
    mach_yield(&((struct rb_thread *)ctx)->vm->mach, t, park_sleep, ctx);
}

static void park_released(struct rb_thread *th)
{
    th_settle(th, rb_cold(th)->park_yield ? park_yield : park_sleep);
}

/* GVL_UNLOCK_BEGIN_YIELD: release under gvl->lock; yield after the unlock
 * if the release signalled nobody */
static void park_locked(struct rb_thread *th)
{
    struct core_thread *next = release_common(th);
    rb_cold(th)->park_yield = rb_cold(th)->park_yield && core_barging_sleep_yields(next, rb_ractor_living(rb_ractor_of(th)));
    unlock_gvl(th, park_released);
}

void gvl32_park(struct rb_thread *th, th_cont k)
{
    struct vm *vm = th->vm;
    rb_cold(th)->park_k = k;
    /* rb_sigwait_fd_get: the ppoll paths release with THREAD_BLOCKING_YIELD */
    rb_cold(th)->park_ppoll = core_barging_sleep_ppoll(&vm->sigwait, &th->core, th == &vm->threads[0]);
    rb_cold(th)->park_yield = rb_cold(th)->park_ppoll;
    /* rb_sigwait_fd_get -> ubf_timer_disarm's getpid(), holding the GVL:
     * paid before gvl_release's lock is tried (vml_mutex_lock) */
    th->pending_cost += vm_getpid_cost(vm);
    lock_gvl(th, park_locked);
}

/* the end of the waker's interrupt_lock section (arg: the sleeper's id) */
static void intr_section_end(void *obj, uint64_t arg)
{
    struct rb_thread *waker = obj;
    vml_mutex_unlock(waker, intr_lock(&waker->vm->threads[arg]));
}

void gvl32_section_end(struct rb_thread *th)
{
    th->intr_hold = false;
    intr_section_end(th, (uint64_t)rb_cold(th)->intr_held);
}

/* rb_threadptr_interrupt_common: the unblock function (ubf_ppoll_sleep,
 * ubf_sigwait, ubf_pthread_cond_signal) wakes th under its
 * interrupt_lock, not under gvl->lock.  The unlock comes once the waker
 * has paid what it owes there (the lock and the wake) on its own CPU: a
 * woken thread that preempts it (one CPU, or a wake packed onto its core)
 * returns from its sleep, finds the lock still held and sleeps on it until
 * the waker runs again (perf of Debian's Ruby 3.1.2 and of the executor,
 * queue_pingpong on one CPU of the AMD EPYC guest, 2026-12-07: every sleep
 * of the main thread in ppoll followed by a sleep on a mutex; docs/
 * validate.md, "The interrupt_lock held through a preemption"). */
void gvl32_ready(struct rb_thread *waker, struct gvl_actor by, struct rb_thread *th)
{
    /* not asleep in the native sleep yet (paying its way there, or waiting
     * for gvl->lock to release the GVL): park_sleep sees the wake */
    if (th->nt->state != MT_BLOCKED || th->vml_asleep) return;
    /* (a wake by no Ruby thread, or with the lock held by someone else,
     * is not timed as a section) */
    bool section = waker && vml_mutex_trylock(waker, intr_lock(th));
    /* a ppoll sleeper is woken by write(2) to its eventfd (ubf_ppoll_sleep,
     * ubf_sigwait -> rb_thread_wakeup_timer_thread_fd), which costs the
     * waker ppoll_wake_extra beyond the futex wake it replaces */
    if (gvl_signal(th, by) && rb_cold(th)->park_ppoll && by.cost) *by.cost += rb_machine_of(th)->ppoll_wake_extra;
    if (!section) return;
    if (waker->pending_cost > 0 && !waker->holds_sched_lock) {
        /* held until th_burst has paid it (models/gvl.c gvl_section_end) */
        rb_cold(waker)->intr_held = th->core.id;
        waker->intr_hold = true;
        waker->holds_sched_lock = true;
        return;
    }
    sim_after(th->vm->eng, waker->pending_cost, intr_section_end, waker, (uint64_t)th->core.id);
}

/* ---- gvl_yield ----------------------------------------------------------------- */

/* while (gvl->wait_yield) cond_wait(switch_wait_cond); then acquire */
static void yield_switch_wait(struct rb_thread *th)
{
    if (gvl32_sched(th)->barging.wait_yield) {
        cond_wait_gvl(th, &bg(th)->switch_wait_cond, yield_switch_wait);
        return;
    }
    acquire_common(th);
}

/* while (gvl->need_yield) cond_wait(switch_cond); wait_yield = 0;
 * broadcast(switch_wait_cond); then acquire */
static void yield_wait_taken(struct rb_thread *th)
{
    struct core_sched *s = gvl32_sched(th);
    if (s->barging.need_yield) {
        cond_wait_gvl(th, &bg(th)->switch_cond, yield_wait_taken);
        return;
    }
    s->barging.wait_yield = false;
    vml_cond_broadcast(th, &bg(th)->switch_wait_cond);
    acquire_common(th);
}

static void yield_relocked(struct rb_thread *th)
{
    vml_cond_broadcast(th, &bg(th)->switch_wait_cond);
    acquire_common(th);
}

static void yield_native_back(struct mach_task *t, void *ctx)
{
    (void)t;
    lock_gvl(ctx, yield_relocked);
}

static void yield_native(struct mach_task *t, void *ctx)
{
    mach_yield(&((struct rb_thread *)ctx)->vm->mach, t, yield_native_back, ctx);
}

static void yield_unlocked(struct rb_thread *th)
{
    th_settle(th, yield_native);
}

static void yield_locked(struct rb_thread *th)
{
    struct gvl_actor self = gvl_self(th);
    running_del(th);
    switch (core_barging_yield(gvl32_sched(th), &self)) {
    case CORE_YIELD_WAIT_SWITCH:  /* another thread is processing a GVL yield */
        yield_switch_wait(th);
        return;
    case CORE_YIELD_WAIT_TAKEN:  /* wait until another thread takes the GVL */
        yield_wait_taken(th);
        return;
    case CORE_YIELD_NATIVE:  /* unlock, native_thread_yield(), lock, then acquire */
        unlock_gvl(th, yield_unlocked);
        return;
    }
}

void gvl32_yield(struct rb_thread *th, th_cont k)
{
    vm_set_state(th, TS_WANTS_GVL);
    th->gvl_k = k;
    lock_gvl(th, yield_locked);
}

int gvl32_init(struct rb_ractor *r, char *err, unsigned errlen)
{
    struct gvl32 *b = calloc(1, sizeof *b);
    if (!b)
        return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory for the GVL", r->vm->scn->file);
    b->lock.name = "the GVL's native lock (gvl->lock)";
    b->switch_cond.name = "the GVL's switch_cond";
    b->switch_wait_cond.name = "the GVL's switch_wait_cond";
    r->policy_data = b;
    if (r == &r->vm->ractors[0]) {  /* once for all threads */
        b->intr = calloc((size_t)r->vm->nthreads, sizeof *b->intr);
        if (!b->intr && r->vm->nthreads > 0)
            return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory for the GVL", r->vm->scn->file);
        for (int i = 0; i < r->vm->nthreads; i++) b->intr[i].name = "its th->interrupt_lock";
        /* every wait here is a native mutex's or condvar's (models/vm_lock.c):
         * each thread's part in them, which other policies allocate only
         * when the VM lock is first taken */
        if (!vm_sync_threads(r->vm))
            return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory for the GVL's waits", r->vm->scn->file);
        for (int i = 0; i < r->vm->nthreads; i++) r->vm->cold[i].gvlq.name = "its cond.gvlq";
    }
    return GV_OK;
}

void gvl32_collect(const struct rb_ractor *r, struct run_metrics *m)
{
    const struct gvl32 *b = r->policy_data;
    m->gvl_lock_sections += b->lock.acquires;
    m->gvl_lock_waits += b->lock.sleeps;
    m->gvl_lock_slept += b->lock.slept;
    m->timer_ticks += r->core.sched.barging.timer_fires;  /* (core_barging_timer_end) */
    if (b->intr)
        for (int i = 0; i < r->vm->nthreads; i++) m->intr_lock_waits += b->intr[i].sleeps;
}

void gvl32_free(struct rb_ractor *r)
{
    struct gvl32 *b = r->policy_data;
    if (b) free(b->intr);
    free(r->policy_data);
    r->policy_data = NULL;
}
