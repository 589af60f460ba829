/* vm_lock.c - the VM lock of CRuby (vm_sync.c: vm_lock_enter,
 * vm_lock_leave, rb_vm_lock_enter_body) on a model of the native mutex and
 * condition variable it is made of.
 *
 * The mutex.  vm->ractor.sync.lock and vm->ractor.sched.lock are plain
 * pthread mutexes (rb_native_mutex_lock).  Both C libraries that matter
 * here lock the same way: a free mutex is taken with one atomic; a
 * contended lock sleeps in the kernel at once (glibc PTHREAD_MUTEX_NORMAL
 * does not spin; macOS's default psynch mutex does not either), and an
 * unlock with sleepers wakes one of them, which must then compete for the
 * mutex again.  Ownership is NOT handed to the woken thread: glibc's
 * lll_unlock only stores 0 and FUTEX_WAKEs one waiter, and macOS's default
 * policy has been PTHREAD_MUTEX_POLICY_FIRSTFIT_NP ("new contending
 * acquirers may obtain ownership of the mutex ahead of existing waiters",
 * pthread_mutexattr(3); _PTHREAD_MTX_OPT_POLICY_DEFAULT in Apple's
 * libpthread types_internal.h).  So we model barging: whoever calls lock
 * while the mutex is free gets it, and a woken waiter that finds it taken
 * sleeps again at the tail of the queue.  A hand-off lock (macOS FAIRSHARE)
 * would serialise the same protocol even harder; nothing in our sources
 * says CRuby or the report's machine uses one.
 *
 * When an unlock wakes someone differs (machine.mutex_impl):
 * - glibc: the futex word is 0 (free), 1 (locked) or 2 (locked, maybe
 *   waiters).  A free lock is taken with CAS 0->1; a thread that finds it
 *   taken exchanges in 2 and sleeps, and after a wake exchanges 2 again;
 *   pthread_cond_wait re-locks with 2 as well (lll_cond_lock).  Unlock
 *   stores 0 and FUTEX_WAKEs one waiter only if the word was 2.  So a lock
 *   taken by a barger on the fast path wakes nobody when released, even
 *   with sleepers queued: they are woken one after another, each by the
 *   unlock of the previous one (a serial wake chain).
 * - darwin: libpthread's firstfit unlock
 *   (_pthread_mutex_firstfit_unlock_updatebits) counts kernel waiters in
 *   the lock/unlock sequence words and calls __psynch_mutexdrop whenever
 *   one is queued: every unlock with sleepers wakes one.
 *
 * The condition variable.  A waiter queues, unlocks the mutex and sleeps;
 * signal wakes the oldest waiter, broadcast wakes all; each woken waiter
 * re-locks the mutex before pthread_cond_wait returns (so a broadcast
 * under a held mutex makes the woken threads sleep again on the mutex:
 * neither glibc >= 2.25 nor Darwin's psynch requeues them).
 *
 * The VM lock (vm_lock_enter): a no-op unless rb_multi_ractor_p();
 * recursive per Ractor through lock_owner / lock_rec; after taking the
 * mutex, a thread whose Ractor has a running thread loops in
 * rb_ractor_sched_barrier_join while a barrier is waiting (models/
 * barrier.c): anyone taking the VM lock during a barrier becomes a joiner.
 * vm_lock_leave ends the barrier started at its lock level and unlocks at
 * lock_rec == 0.
 *
 * Costs: a lock that succeeds costs mutex_uncontended (the lock/unlock
 * pair, charged once, paid with the mutex held, together with whatever
 * else the thread owes); waking a sleeper costs the waker futex_wake; the
 * sleeper pays the machine's wake latency to get back on a core.
 *
 * The lines (machine.lock_line).  mutex_uncontended is one thread locking
 * and unlocking one mutex in a loop: its word stays in that core's cache.
 * A lock taken in turn by threads on two cores is not: each atomic on its
 * word (glibc's CAS 0->1, the exchange to 2 of a contended try or of
 * pthread_cond_wait's re-lock, the unlock's exchange) that finds the line
 * in the other core's cache waits for it to move.  A condvar's sequence
 * words are a line of their own, touched by an atomic at each wait's entry
 * (__wseq, before the mutex is released), each signal or broadcast that
 * finds a waiter (__g_signals), and each waiter's way back (consuming the
 * signal, __g_refs and __wrefs, before the re-lock) - nptl
 * pthread_cond_wait.c __pthread_cond_wait_common, __condvar_confirm_wakeup;
 * pthread_cond_signal.c.  So each such step costs lock_line when the core
 * that touched the line last is another one (line_move): a fetch of a line
 * the other core wrote and has moved on from, what gvlsim calibrate
 * measures as line_fetch_ns (remote_rmw; a lock in a hand-off, measured
 * apart, took 141-149 ns more than a local one where line_fetch_ns was 139
 * ns - not line_transfer_ns, 240 ns, whose other core keeps contending for
 * the line).  Whoever takes the step pays it where it stands: a locker or
 * a signaller inside its section, a waiter before its mutex is released, a
 * woken waiter before it re-locks.  Not charged: a contended try's failed
 * CAS and the unlock that follows it (the line goes to the waiter and
 * back).  They lengthen the waiter's way into its FUTEX_WAIT and delay the
 * holder's unlock by the same transfer, so the race between the two -
 * whether the unlock meets the waiter on its way in - comes out as without
 * them; what they add is CPU, two transfers per collision.  A profile
 * without the key (0) models none.  Measured in the executor's 3.1 mtime
 * loop (docs/validate.md, "The locks' lines"): the designated timer's
 * section, from its lock to its wait, took 1.3-1.6 us against the model's
 * 1.0 us without the lines (clock reads included).
 */
#include "vm_lock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "barrier.h"
#include "thread.h"

static void notify_counter(struct vm *vm, const char *name, int64_t value)
{
    if (name && vm->obs.counter) vm->obs.counter(vm->obs.ctx, name, value, sim_now(vm->eng));
}

/* An atomic by nt on a line whose last core is *line_core (+ 1): what
 * it costs (lock_line if that core is another one, counted in
 * line_transfers), and nt's core is now the line's.  A kernel step (nt
 * NULL) or a profile without lock_line moves nothing. */
static sim_time line_move(struct vm *vm, const struct mach_task *nt, int *line_core)
{
    sim_time cost = vm->scn->machine.lock_line;
    if (cost <= 0 || !nt || nt->core < 0) return 0;
    int c = nt->core + 1;
    if (*line_core == c) return 0;
    int was = *line_core;
    *line_core = c;
    if (!was) return 0;  /* first touch: the line comes from memory, as on one core */
    vm->lock_line_moves++;
    return cost;
}

sim_time vml_line_rmw(struct rb_thread *th, int *line_core)
{
    return line_move(th->vm, th->nt, line_core);
}

/* ---- sleeping and waking ------------------------------------------------- */

/* A thread registers in a wait list, then pays what it owes on the CPU,
 * then sleeps.  A wake that arrives in between must not be lost: the
 * kernel's FUTEX_WAIT (or psynch wait) re-checks the word and returns at
 * once.  `pre_sleep` marks that window, `wake_pending` records the wake.
 *
 * The window holds the FUTEX_WAIT's own way in.  pthread_cond_wait
 * registers its waiter under the mutex, unlocks it and only then calls
 * FUTEX_WAIT on the group's signal word (__pthread_cond_wait_common, nptl
 * pthread_cond_wait.c); __lll_lock_wait swaps 2 into the mutex word and
 * then calls FUTEX_WAIT(word, 2) (nptl lowlevellock.c).  Until the kernel
 * has compared the word and queued the thread - the system call's entry
 * and the hash bucket (vm_futex_wait_entry: machine.futex_wait_window,
 * measured by gvlsim calibrate, else futex_wake_none) - a signal or an
 * unlock that changes the word makes the wait return at once (EAGAIN; the
 * condvar may see the signal before it makes the call at all), and the
 * FUTEX_WAKE that came with it found nobody: its waker pays
 * vm_futex_wake_race, a wake through the bucket the waiter is in.  A
 * signalled waiter then re-locks the mutex its signaller may still hold
 * (paying that wake inside its section): if the rest of its way in plus
 * its way into the mutex's FUTEX_WAIT is shorter than the signaller's
 * wake, it sleeps on the mutex - the race behind the 3.1 GVL's sleeps on
 * gvl->lock (docs/validate.md, "The race on the GVL's native lock").
 * Both real backends show the window on two CPUs: in the 3.1 (`barging`)
 * mtime loop a quarter of the executor's FUTEX_WAITs and 61% of Ruby
 * 3.1.2's return at once, and
 * FUTEX_WAKEs of nobody outnumber the wakes of a sleeper (docs/validate.md,
 * "The 3.1 GVL's waits"); without the window the model's waits almost
 * never did.  On one core nothing can run to signal a thread on its way
 * into the kernel (the one-CPU hand-off calibrate measures holds the
 * sleeper's wait), so the window is charged on several cores only; a
 * profile without futex_wake_none models none (0). */

static void sleep_woken(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    th->vml_asleep = false;
    th_sync_of(th)->wake_pending = false;
    th_sync_of(th)->wake_k(th);
}

static void sleep_block(struct mach_task *t, void *ctx)
{
    struct rb_thread *th = ctx;
    th_sync_of(th)->pre_sleep = false;
    if (th_sync_of(th)->wake_pending) {
        th_sync_of(th)->wake_pending = false;
        th_sync_of(th)->wake_k(th);
        return;
    }
    th->zero_time_ops = 0;
    if (th_sync_of(th)->in_mutex_queue) th_sync_of(th)->mutex->slept++;
    th->vml_asleep = true;
    mach_block(&th->vm->mach, t, sleep_woken, th);
}

static void sync_sleep(struct rb_thread *th, th_cont on_wake)
{
    th_sync_of(th)->wake_k = on_wake;
    if (!th_sync_of(th)->pre_sleep) {  /* (a condvar waiter registered earlier: vml_cond_wait) */
        th_sync_of(th)->pre_sleep = true;
        th_sync_of(th)->wake_pending = false;
    }
    th->pending_cost += vm_futex_wait_entry(th);  /* FUTEX_WAIT's way in (above) */
    th_settle(th, sleep_block);
}

/* A wake by `by` (its native thread and the CPU it owes; nt NULL: the
 * kernel, which pays nothing). */
static void sync_wake_as(struct rb_thread *target, struct gvl_actor by)
{
    struct vm *vm = target->vm;
    int woke = mach_wake(&vm->mach, target->nt, by.nt);
    if (woke) {
        vm->wakeups++;
    } else if (th_sync_of(target)->pre_sleep) {
        th_sync_of(target)->wake_pending = true;
        /* registered, not asleep yet: the FUTEX_WAKE finds nobody, on
         * its way through the bucket the waiter is in (vm_futex_wake_race,
         * when the profile measured futex_wake_none) */
        if (by.cost) *by.cost += vm->scn->machine.futex_wake_none > 0 ? vm_futex_wake_race(target)
                                                                      : vm_wake_cost(vm, woke);
        return;
    } else {
        return;  /* already awake and on its way to re-check: nothing to do */
    }
    if (by.cost) *by.cost += vm_wake_cost(vm, woke);
}

static struct gvl_actor actor_of(struct rb_thread *th)
{
    return th ? (struct gvl_actor){ th->nt, &th->pending_cost, th } : (struct gvl_actor){ NULL, NULL, NULL };
}

static void sync_wake(struct rb_thread *target, struct rb_thread *by)
{
    sync_wake_as(target, actor_of(by));
}

/* ---- the mutex ------------------------------------------------------------ */

static void mutex_enqueue(struct vml_mutex *m, struct rb_thread *th)
{
    nlock_enqueue(&m->nl, &th_sync_of(th)->mutex_wait, th->nt, th);
    th_sync_of(th)->in_mutex_queue = true;
    m->nwaiters++;
    notify_counter(th->vm, m->counter, m->nwaiters);
}

static struct rb_thread *mutex_dequeue(struct vm *vm, struct vml_mutex *m)
{
    struct nlock_waiter *w = nlock_dequeue(&m->nl);
    if (!w) return NULL;
    struct rb_thread *th = w->who;
    th_sync_of(th)->in_mutex_queue = false;
    m->nwaiters--;
    notify_counter(vm, m->counter, m->nwaiters);
    return th;
}

static void mutex_acquired(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    th_sync_of(th)->lock_k(th);
}

static void mutex_try(struct rb_thread *th)
{
    struct vml_mutex *m = th_sync_of(th)->mutex;
    /* glibc: after a wake, and when pthread_cond_wait re-locks, the word is
     * exchanged to 2 ("maybe waiters"); only the first plain try is a CAS 0->1 */
    bool mark_contended = th_sync_of(th)->slept || th_sync_of(th)->relock;
    if (m->nl.holder == NULL) {
        nlock_hold(&m->nl, th);
        th->pending_cost += line_move(th->vm, th->nt, &m->line_core);  /* the CAS or exchange */
        m->contended = mark_contended;
        th_sync_of(th)->mutex = NULL;
        th_sync_of(th)->relock = false;
        th->pending_cost += rb_machine_of(th)->mutex_uncontended;
        m->acquires++;
        if (th_sync_of(th)->slept) vm_set_state(th, th_sync_of(th)->resume_state);
        /* the atomic and the section it guards take time with the mutex
         * held: whoever comes meanwhile finds it taken */
        if (th->pending_cost > 0) th_burst(th, 0, mutex_acquired);
        else th_sync_of(th)->lock_k(th);
        return;
    }
    /* contended: sleep until an unlock wakes us, then compete again */
    m->contended = true;
    if (!th_sync_of(th)->slept) {
        th_sync_of(th)->slept = true;
        th_sync_of(th)->resume_state = th->ts;
        vm_set_state(th, th_sync_of(th)->wait_state);
    }
    mutex_enqueue(m, th);
    m->sleeps++;
    sync_sleep(th, mutex_try);
}

static void mutex_try_mc(struct mach_task *t, void *ctx)
{
    (void)t;
    mutex_try(ctx);
}

/* What th owes when it comes to the lock is CPU it spent before (the
 * FUTEX_WAKE of an unlock it just made, 3.1's getpid before a GVL
 * release), so it is paid first and the lock tried after it.  Paid after
 * a try that found the lock taken, it would lengthen th's way into its
 * FUTEX_WAIT (above) by that much, and an unlock meanwhile would find th
 * not yet asleep: on two CPUs a sleep on the 3.1 GVL's native lock that
 * Ruby makes turned into none (docs/validate.md, "Owed CPU before the
 * lock"). */
void vml_mutex_lock(struct rb_thread *th, struct vml_mutex *m, enum thread_state wait_state,
                    th_cont k)
{
    th_sync_of(th)->mutex = m;
    th_sync_of(th)->lock_k = k;
    th_sync_of(th)->wait_state = wait_state;
    th_sync_of(th)->slept = false;
    th_settle(th, mutex_try_mc);
}

bool vml_mutex_trylock(struct rb_thread *th, struct vml_mutex *m)
{
    if (m->nl.holder != NULL) return false;
    th->pending_cost += line_move(th->vm, th->nt, &m->line_core);  /* the CAS */
    nlock_hold(&m->nl, th);
    m->contended = false;
    m->acquires++;
    th->pending_cost += rb_machine_of(th)->mutex_uncontended;
    return true;
}

void vml_mutex_unlock(struct rb_thread *th, struct vml_mutex *m)
{
    if (vml_holder(m) != th) {
        vm_fail(th->vm, "thread %s unlocks %s held by %s", th->core.name, m->name,
                vml_holder(m) ? vml_holder(m)->core.name : "nobody");
        return;
    }
    nlock_hold(&m->nl, NULL);  /* (its sleepers it wakes below, as the C library does) */
    bool was_contended = m->contended;
    m->contended = false;
    if (rb_machine_of(th)->mutex_impl == MUTEX_GLIBC) {
        /* lll_unlock: FUTEX_WAKE only if the word was 2 (the syscall is
         * paid even when nobody sleeps any more) */
        if (!was_contended) return;
        struct rb_thread *w = mutex_dequeue(th->vm, m);
        if (w) sync_wake(w, th);
        else th->pending_cost += rb_machine_of(th)->futex_wake_none > 0 ? rb_machine_of(th)->futex_wake_none
                                                                         : rb_machine_of(th)->futex_wake;
        return;
    }
    /* darwin: __psynch_mutexdrop whenever a kernel waiter is counted */
    struct rb_thread *w = mutex_dequeue(th->vm, m);
    if (w) sync_wake(w, th);
}

/* ---- the condition variable ----------------------------------------------- */

/* pthread_cond_wait returns with the mutex locked again */
static void cond_relock(struct rb_thread *th)
{
    struct vml_mutex *m = th_sync_of(th)->mutex;
    vml_mutex_lock(th, m, th_sync_of(th)->wait_state, th_sync_of(th)->cond_k);
}

static void cond_woken(struct rb_thread *th)
{
    if (th_sync_of(th)->timeout_ev) {  /* signalled before the deadline */
        sim_cancel(th->vm->eng, th_sync_of(th)->timeout_ev);
        th_sync_of(th)->timeout_ev = 0;
    }
    /* the way back: the signal consumed and the waiter's references
     * dropped on the condvar's line, paid before the re-lock is tried
     * (vml_mutex_lock) */
    th->pending_cost += line_move(th->vm, th->nt, &th_sync_of(th)->woken_from->line_core);
    cond_relock(th);
}

static void cond_sleep(struct rb_thread *th)
{
    struct vml_mutex *m = th_sync_of(th)->mutex;
    vml_mutex_unlock(th, m);
    th_sync_of(th)->mutex = m;  /* to re-lock on wake-up */
    sync_sleep(th, cond_woken);
}

static void cond_sleep_mc(struct mach_task *t, void *ctx)
{
    (void)t;
    cond_sleep(ctx);
}

void vml_cond_wait(struct rb_thread *th, struct vml_cond *c, struct vml_mutex *m,
                   enum thread_state wait_state, th_cont k)
{
    th_sync_of(th)->cond = c;
    th_sync_of(th)->woken_from = c;
    th_sync_of(th)->cond_k = k;
    th_sync_of(th)->mutex = m;
    th_sync_of(th)->wait_state = wait_state;
    if (th->ts != wait_state) vm_set_state(th, wait_state);
    th_sync_of(th)->wait_next = NULL;
    if (c->tail) th_sync_of(c->tail)->wait_next = th;
    else c->head = th;
    c->tail = th;
    c->nwaiters++;
    th->pending_cost += line_move(th->vm, th->nt, &c->line_core);  /* __wseq */
    /* registered: a signal (or the deadline) from now on is not lost,
     * even before the mutex is released */
    th_sync_of(th)->pre_sleep = true;
    th_sync_of(th)->wake_pending = false;
    /* what the thread owes (a signal it sent, say) is paid before the
     * mutex is released: the C library does it inside the section */
    if (th->pending_cost > 0) th_burst(th, 0, cond_sleep_mc);
    else cond_sleep(th);
}

static struct rb_thread *cond_dequeue(struct vml_cond *c)
{
    struct rb_thread *th = c->head;
    if (!th) return NULL;
    c->head = th_sync_of(th)->wait_next;
    if (!c->head) c->tail = NULL;
    th_sync_of(th)->wait_next = NULL;
    th_sync_of(th)->cond = NULL;
    c->nwaiters--;
    return th;
}

/* A signal or broadcast that finds a waiter moves the condvar's line to
 * its signaller (one that finds none only reads __wrefs) */
static void cond_signal_line(struct vm *vm, struct gvl_actor by, struct vml_cond *c)
{
    sim_time x = line_move(vm, by.nt, &c->line_core);
    if (by.cost) *by.cost += x;
}

void vml_cond_signal_as(struct gvl_actor by, struct vml_cond *c)
{
    struct rb_thread *w = cond_dequeue(c);
    if (!w) return;
    cond_signal_line(w->vm, by, c);
    sync_wake_as(w, by);
}

void vml_cond_signal(struct rb_thread *by, struct vml_cond *c)
{
    vml_cond_signal_as(actor_of(by), c);
}

/* the deadline of a timed wait: if th still waits on its condvar, it
 * leaves it (ETIMEDOUT) and the kernel wakes it */
static void cond_timeout(void *obj, uint64_t arg)
{
    (void)arg;
    struct rb_thread *th = obj;
    struct vml_cond *c = th_sync_of(th)->cond;
    th_sync_of(th)->timeout_ev = 0;
    if (!c) return;
    struct rb_thread **pp = &c->head, *prev = NULL;
    while (*pp && *pp != th) {
        prev = *pp;
        pp = &th_sync_of(*pp)->wait_next;
    }
    if (!*pp) return;
    *pp = th_sync_of(th)->wait_next;
    if (c->tail == th) c->tail = prev;
    th_sync_of(th)->wait_next = NULL;
    th_sync_of(th)->cond = NULL;
    c->nwaiters--;
    th_sync_of(th)->timed_out = true;
    sync_wake(th, NULL);
}

void vml_cond_timedwait(struct rb_thread *th, struct vml_cond *c, struct vml_mutex *m,
                        enum thread_state wait_state, sim_time abs, th_cont k)
{
    sim_time now = sim_now(th->vm->eng);
    th_sync_of(th)->timed_out = false;
    th_sync_of(th)->timeout_ev = sim_at(th->vm->eng, (abs > now ? abs : now) + vm_timed_wait_slack(th->vm),
                                        cond_timeout, th, 0);  /* ends late by the slack (vm.h) */
    vml_cond_wait(th, c, m, wait_state, k);
}

void vml_cond_broadcast(struct rb_thread *by, struct vml_cond *c)
{
    struct rb_thread *w = cond_dequeue(c);
    if (!w) return;
    cond_signal_line(w->vm, actor_of(by), c);
    do sync_wake(w, by);
    while ((w = cond_dequeue(c)));
}

/* ---- the VM lock ------------------------------------------------------------ */

static void enter_locked(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    struct vm_sync *sy = vm->sync;
    if (th_sync_of(th)->slept && !th_sync_of(th)->enter_waited) {
        th_sync_of(th)->enter_waited = true;
        vm->vmlock_waits++;
    }
    /* vm_need_barrier: do { rb_ractor_sched_barrier_join } while (barrier_waiting) */
    if (barrier_need_join(th)) {
        barrier_join(th, enter_locked);
        return;
    }
    sy->lock_owner = th->core.ractor;
    sy->lock_rec = 1;
    if (th->ts != th_sync_of(th)->enter_state) vm_set_state(th, th_sync_of(th)->enter_state);
    th_sync_of(th)->enter_k(th);
}

void vm_lock_enter(struct rb_thread *th, th_cont k)
{
    struct vm_sync *sy = th->vm->sync;
    if (!vm_sync_threads(th->vm)) return;
    if (!sy->multi) {  /* rb_multi_ractor_p(): single-Ractor mode, no lock */
        k(th);
        return;
    }
    if (sy->lock_owner == th->core.ractor) {  /* vm_locked(): recursive */
        sy->lock_rec++;
        k(th);
        return;
    }
    th->vm->vmlock_acquires++;
    th_sync_of(th)->enter_k = k;
    th_sync_of(th)->enter_state = th->ts;
    th_sync_of(th)->enter_waited = false;
    vml_mutex_lock(th, &sy->lock, TS_VMLOCK_WAIT, enter_locked);
}

void vm_lock_leave(struct rb_thread *th)
{
    struct vm_sync *sy = th->vm->sync;
    if (!sy->multi) return;
    if (sy->lock_owner != th->core.ractor || sy->lock_rec == 0) {
        vm_fail(th->vm, "thread %s leaves the VM lock it does not hold", th->core.name);
        return;
    }
    if (sy->barrier_ractor == th->core.ractor && sy->barrier_lock_rec == sy->lock_rec)
        barrier_end(th);
    if (--sy->lock_rec == 0) {
        sy->lock_owner = NULL;
        vml_mutex_unlock(th, &sy->lock);
    }
}

/* ---- set-up --------------------------------------------------------------- */

static int max_iseq(const struct scn_prog *p)
{
    int m = -1;
    for (int i = 0; i < p->nops; i++) {
        const struct scn_op *op = &p->ops[i];
        int v = -1;
        if (op->kind == OP_ENV_ESCAPE) v = op->u.env_escape.iseq;
        else if (op->kind == OP_LOOP) v = max_iseq(op->u.loop.body);
        if (v > m) m = v;
    }
    return m;
}

int vm_sync_init(struct vm *vm, char *err, unsigned errlen)
{
    const struct scenario *scn = vm->scn;
    struct vm_sync *sy = calloc(1, sizeof *sy);
    if (!sy) return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", scn->file);
    vm->sync = sy;
    sy->multi = vm->nractors > 1;
    sy->lock.name = "the VM lock";
    sy->lock.counter = "vm_lock_waiters";
    sy->sched_lock.name = "the scheduler lock (vm->ractor.sched.lock)";
    sy->sched_lock.counter = "sched_lock_waiters";
    sy->barrier_complete_cond.name = "barrier_complete_cond";
    sy->barrier_release_cond.name = "barrier_release_cond";
    if (scn->runtime.invariant_check == INVARIANT_LOCKLESS) {
        int m = -1;
        for (int r = 0; r < scn->nractors; r++)
            for (int t = 0; t < scn->ractors[r].nthreads; t++) {
                int v = max_iseq(&scn->ractors[r].threads[t].prog);
                if (v > m) m = v;
            }
        sy->niseqs = m + 1;
        if (sy->niseqs > 0) {
            sy->ep_escape_recorded = calloc((size_t)sy->niseqs, 1);
            if (!sy->ep_escape_recorded)
                return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", scn->file);
        }
    }
    return GV_OK;
}

bool vm_sync_threads(struct vm *vm)
{
    struct vm_sync *sy = vm->sync;
    if (sy->threads) return true;
    sy->threads = calloc((size_t)(vm->nthreads ? vm->nthreads : 1), sizeof *sy->threads);
    if (sy->threads) return true;
    vm_fail(vm, "out of memory for the VM lock state of %d threads", vm->nthreads);
    return false;
}

void vm_sync_free(struct vm *vm)
{
    if (!vm->sync) return;
    free(vm->sync->threads);
    free(vm->sync->ep_escape_recorded);
    free(vm->sync);
    vm->sync = NULL;
}

/* ---- reports ---------------------------------------------------------------- */

static void describe_holder(const struct vm_sync *sy, const struct vml_mutex *m, char *buf,
                            size_t len)
{
    const struct rb_thread *h = vml_holder(m);
    if (!h) snprintf(buf, len, "free, its waiter woken");
    else if (h == sy->barrier_initiator && m == &sy->sched_lock)
        snprintf(buf, len, "held by thread %s, which runs a VM barrier", h->core.name);
    else snprintf(buf, len, "held by thread %s", h->core.name);
}

bool vm_lock_describe_wait(const struct rb_thread *th, char *buf, unsigned len)
{
    const struct vm_sync *sy = th->vm->sync;
    if (!sy || !sy->threads) return false;  /* nobody ever took the VM lock */
    const char *where = th->op ? th->op->path : "(start)";
    int line = th->op ? th->op->line : 0;
    char holder[256];
    const struct vml_mutex *m = th_sync_of(th)->mutex;
    if (th_sync_of(th)->cond) {
        if (th_sync_of(th)->cond == &sy->barrier_complete_cond) {
            char names[512] = "";
            size_t off = 0;
            int n = 0;
            for (int i = 0; i < th->vm->nractors; i++) {
                const struct core_sched *s = &th->vm->ractors[i].core.sched;
                if (&th->vm->ractors[i].core == th->core.ractor || !s->is_running || !s->running) continue;
                if (th_sync_of(rb_thread_of(s->running))->joined) continue;
                n++;
                if (off + 2 < sizeof names)
                    off += (size_t)snprintf(names + off, sizeof names - off, "%s%s", off ? ", " : "",
                                            s->running->name);
            }
            snprintf(buf, len, "initiating a VM barrier, waiting for %d running thread%s to join (%s) "
                     "at %s (line %d)", n, n == 1 ? "" : "s", n ? names : "none left", where, line);
        } else if (th_sync_of(th)->cond == &sy->barrier_release_cond) {
            snprintf(buf, len, "stopped at a VM barrier started by thread %s, waiting for its end "
                     "at %s (line %d)", sy->barrier_initiator ? sy->barrier_initiator->core.name : "?",
                     where, line);
        } else {
            snprintf(buf, len, "waiting on %s at %s (line %d)", th_sync_of(th)->cond->name, where, line);
        }
        return true;
    }
    if (m && th_sync_of(th)->in_mutex_queue) {
        describe_holder(sy, m, holder, sizeof holder);
        const char *why = th->add_deferred ? "switching in, " :
                          th->ts == TS_BARRIER_JOIN ? "joining a VM barrier, " :
                          th->ts == TS_BARRIER_INIT ? "starting a VM barrier, " : "";
        snprintf(buf, len, "%swaiting for %s (%s) at %s (line %d)", why, m->name, holder, where, line);
        return true;
    }
    return false;
}

const char *vm_lock_held_note(const struct rb_thread *th)
{
    const struct vm_sync *sy = th->vm->sync;
    if (sy && vml_holder(&sy->lock) == th) return " while holding the VM lock";
    if (sy && vml_holder(&sy->sched_lock) == th) return " while holding the scheduler lock";
    return "";
}
