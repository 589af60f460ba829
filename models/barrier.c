/* barrier.c - the stop-the-world VM barrier of CRuby master and 4.0.x
 * (below; 3.1 and 3.2 have their own, further down, under the `barging`
 * GVL that stands for them) (vm_sync.c rb_vm_barrier; thread_pthread.c
 * rb_ractor_sched_barrier_start,
 * rb_ractor_sched_barrier_join, rb_ractor_sched_barrier_end,
 * ractor_sched_barrier_join_signal_locked, and the barrier checks of
 * thread_sched_setup_running_threads), since ko1's nested-barrier rework
 * (PR 13507; identical in v4.0.5).
 *
 * Initiator (holds the VM lock):
 *   1. lock the global sched lock; barrier_waiting = true, remember the
 *      lock level;
 *   2. release the VM mutex, so that joiners can take it;
 *   3. OR VM_BARRIER_INTERRUPT into every running thread of the other
 *      Ractors (one remote cache-line RMW each);
 *   4. cond_wait(barrier_complete_cond) until running_cnt - waiting_cnt == 1;
 *   5. serial++, broadcast barrier_release_cond, re-lock the VM mutex.  The
 *      sched lock stays held through the caller's critical section, until
 *      vm_lock_leave -> rb_ractor_sched_barrier_end unlocks it.
 * Joiner (took the VM mutex while barrier_waiting, e.g. from the interrupt
 * handler's empty RB_VM_LOCKING() at its next safe point): unlock the VM
 * mutex, lock the sched lock, waiting_cnt++, signal completion if last,
 * cond_wait(barrier_release_cond) until the serial changes (pthread re-locks
 * the sched lock first, so no joiner leaves before barrier_end), unlock it,
 * re-lock the VM mutex: two serialising mutexes on the way in and two on
 * the way out.
 * Only threads in running_threads (holding their Ractor's GVL) count: a
 * thread in a blocking region, ready or parked is not waited for.  A thread
 * that switches in during the barrier goes through
 * thread_sched_setup_running_threads, which needs the sched lock: before
 * completion it gets the interrupt and must join too; after completion it
 * waits until barrier_end.  So while a barrier is active no thread of any
 * Ractor switches in.
 */
#include "barrier.h"

#include "../core/policy.h"
#include "gvl.h"
#include "thread.h"
#include "vm_lock.h"

static void counter(struct vm *vm, const char *name, int64_t v)
{
    if (vm->obs.counter) vm->obs.counter(vm->obs.ctx, name, v, sim_now(vm->eng));
}

/* RUBY_VM_SET_VM_BARRIER_INTERRUPT.  The flagged thread is at a random
 * point of its Ruby code: its next safe point is uniform in
 * (0, safepoint_gap], drawn from its own stream (all flagged threads
 * stopping at the same instant would be an artifact). */
static void flag_barrier(struct rb_thread *t)
{
    sim_time gap = rb_machine_of(t)->safepoint_gap;
    th_interrupt_at(t, CORE_INT_VM_BARRIER, gap > 0 ? rng_uniform(&t->core.rng, 1, gap) : 0);
}

/* ractor_sched_barrier_completed_p */
static bool completed_p(const struct vm *vm)
{
    return vm->running_cnt - vm->sync->barrier_waiting_cnt == 1;
}

static void join_wait(struct rb_thread *th);

/* 3.1 and 3.2, under the `barging` GVL that stands for them (below) */
static bool pre33(const struct vm *vm)
{
    return vm->policy->barging;
}

/* Both versions' initiator: barrier_waiting set, its level remembered */
static void begin(struct rb_thread *th)
{
    struct vm_sync *sy = th->vm->sync;
    sy->barrier_waiting = true;
    sy->barrier_ractor = th->core.ractor;
    sy->barrier_lock_rec = sy->lock_rec;
    sy->barrier_initiator = th;
    vm_instant(th, "barrier_start");
}

/* ... interrupts every running thread of the other Ractors ... */
static void flag_others(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    for (int i = 0; i < vm->nractors; i++) {
        const struct core_sched *s = &vm->ractors[i].core.sched;
        if (&vm->ractors[i].core == th->core.ractor || !s->is_running || !s->running) continue;
        flag_barrier(rb_thread_of(s->running));
        th->pending_cost += rb_machine_of(th)->remote_rmw;
    }
}

/* ... and, once no other Ractor runs, releases the joiners */
static void release(struct rb_thread *th)
{
    struct vm_sync *sy = th->vm->sync;
    sy->barrier_serial++;
    sy->barrier_waiting_cnt = 0;
    counter(th->vm, "barrier_joined", 0);
    vml_cond_broadcast(th, &sy->barrier_release_cond);
}

/* A joiner counts itself and signals completion if it is the last
 * (ractor_sched_barrier_join_signal_locked; 3.1: vm_barrier_finish_p) */
static void join_count(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    struct vm_sync *sy = vm->sync;
    sy->barrier_waiting_cnt++;
    counter(vm, "barrier_joined", sy->barrier_waiting_cnt);
    th_sync_of(th)->join_serial = sy->barrier_serial;
    th_sync_of(th)->joined = true;
    if (completed_p(vm)) vml_cond_signal(th, &sy->barrier_complete_cond);
}

/* ---- the initiator ---------------------------------------------------------- */

static void start_vm_relocked(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    struct vm_sync *sy = vm->sync;
    sy->lock_rec = sy->barrier_lock_rec;
    sy->lock_owner = th->core.ractor;
    vm->barriers++;
    vm_set_state(th, th_sync_of(th)->barrier_state);
    th_sync_of(th)->barrier_k(th);
}

static void start_wait(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    struct vm_sync *sy = vm->sync;
    bool v31 = pre33(vm);
    if (!completed_p(vm)) {
        vml_cond_wait(th, &sy->barrier_complete_cond, v31 ? &sy->lock : &sy->sched_lock, TS_BARRIER_INIT,
                      start_wait);
        return;
    }
    if (v31) {  /* the barrier is over before the caller's work, the VM mutex held */
        sy->barrier_waiting = false;
        release(th);
        start_vm_relocked(th);
        return;
    }
    /* no other Ractor runs: release them (they stay on the sched lock) */
    release(th);
    vml_mutex_lock(th, &sy->lock, TS_BARRIER_INIT, start_vm_relocked);
}

static void start_wait_mc(struct mach_task *t, void *ctx)
{
    (void)t;
    start_wait(ctx);
}

static void start_sched_locked(struct rb_thread *th)
{
    struct vm_sync *sy = th->vm->sync;
    begin(th);
    /* release the VM lock */
    sy->lock_rec = 0;
    sy->lock_owner = NULL;
    vml_mutex_unlock(th, &sy->lock);
    /* interrupt all running threads of the other Ractors */
    flag_others(th);
    /* the flags are written with the sched lock held */
    th_burst(th, 0, start_wait_mc);
}

/* ---- CRuby 3.1 and 3.2 ------------------------------------------------------------
 * vm_sync.c of v3_1_2 (the same in v3_2_0): rb_vm_barrier and the barrier
 * loop of vm_lock_enter use the VM mutex alone, with a condition variable
 * for the initiator (vm->ractor.sync.barrier_cond) and one per Ractor
 * (r->barrier_wait_cond) for the joiners: no sched lock.  The initiator,
 * holding the VM lock, sets barrier_waiting, counts itself blocking, sets
 * the interrupt of the other Ractors' running threads, and waits on
 * barrier_cond (which unlocks the VM mutex) until every Ractor blocks
 * (vm_barrier_finish_p); then it clears barrier_waiting, bumps barrier_cnt
 * and signals every Ractor's barrier_wait_cond - the barrier is over before
 * the GC's work, which the initiator does holding the VM mutex, so the
 * joiners, woken, wait for that mutex.  A joiner (vm_lock_enter, the VM
 * mutex taken while barrier_waiting) counts itself blocking, signals
 * barrier_cond if it is the last, and waits on its barrier_wait_cond while
 * barrier_cnt is unchanged.  One waiting thread per Ractor (its GVL
 * holder), so signalling each Ractor's condition variable is a broadcast
 * to the joiners: one condition variable stands for them.  Traced with
 * Ruby 3.1.2 on one CPU (docs/validate.md): the joiner's pthread_cond_wait
 * unlocks the VM mutex, which wakes the initiator, which preempts it
 * before it sleeps, and ends the barrier meanwhile (416 of 507 wakes of a
 * barrier_wait_cond found no sleeper). */
static void v31_start_wait_mc(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct vm_sync *sy = th->vm->sync;
    /* rb_vm_cond_wait: the VM lock's owner and level are cleared while
     * the mutex is released */
    sy->lock_rec = 0;
    sy->lock_owner = NULL;
    start_wait(th);
}

static void v31_barrier(struct rb_thread *th)
{
    begin(th);
    flag_others(th);
    th_burst(th, 0, v31_start_wait_mc);
}

static void v31_join(struct rb_thread *th)
{
    join_count(th);
    join_wait(th);
}

void barrier_vm_barrier(struct rb_thread *th, th_cont k)
{
    struct vm_sync *sy = th->vm->sync;
    /* !rb_multi_ractor_p(), or vm_barrier_acquired_p: nothing to do */
    if (!sy->multi || sy->barrier_ractor == th->core.ractor) {
        k(th);
        return;
    }
    th_sync_of(th)->barrier_k = k;
    th_sync_of(th)->barrier_state = th->ts;
    vm_set_state(th, TS_BARRIER_INIT);
    if (pre33(th->vm)) v31_barrier(th);
    else vml_mutex_lock(th, &sy->sched_lock, TS_BARRIER_INIT, start_sched_locked);
}

void barrier_end(struct rb_thread *th)
{
    struct vm_sync *sy = th->vm->sync;
    sy->barrier_waiting = false;
    sy->barrier_ractor = NULL;
    sy->barrier_lock_rec = 0;
    sy->barrier_initiator = NULL;
    vm_instant(th, "barrier_end");
    if (!pre33(th->vm)) vml_mutex_unlock(th, &sy->sched_lock);
}

/* ---- joiners ------------------------------------------------------------------ */

bool barrier_need_join(const struct rb_thread *th)
{
    const struct vm_sync *sy = th->vm->sync;
    return sy->barrier_waiting && core_sched_of(&th->core)->running != NULL;
}

static void join_done(struct rb_thread *th)
{
    th_sync_of(th)->join_k(th);
}

/* ractor_sched_barrier_join_wait_locked; 3.1: the wait on the Ractor's
 * barrier_wait_cond with the VM mutex, which it holds again after */
static void join_wait(struct rb_thread *th)
{
    struct vm_sync *sy = th->vm->sync;
    bool v31 = pre33(th->vm);
    if (sy->barrier_serial == th_sync_of(th)->join_serial) {
        vml_cond_wait(th, &sy->barrier_release_cond, v31 ? &sy->lock : &sy->sched_lock, TS_BARRIER_JOIN,
                      join_wait);
        return;
    }
    th_sync_of(th)->joined = false;
    if (v31) {
        join_done(th);
        return;
    }
    vml_mutex_unlock(th, &sy->sched_lock);
    vml_mutex_lock(th, &sy->lock, TS_VMLOCK_WAIT, join_done);
}

static void join_sched_locked(struct rb_thread *th)
{
    join_count(th);
    join_wait(th);
}

void barrier_join(struct rb_thread *th, th_cont k)
{
    struct vm_sync *sy = th->vm->sync;
    th_sync_of(th)->join_k = k;
    vm_set_state(th, TS_BARRIER_JOIN);
    if (pre33(th->vm)) {
        v31_join(th);
        return;
    }
    vml_mutex_unlock(th, &sy->lock);
    vml_mutex_lock(th, &sy->sched_lock, TS_BARRIER_JOIN, join_sched_locked);
}

/* ---- the interrupt ------------------------------------------------------------ */

static void intr_done(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    th_sync_of(th)->intr_k(th);
}

static void intr_locked(struct rb_thread *th)
{
    vm_lock_leave(th);
    /* pay the lock and unlock before the Ruby code goes on */
    th_burst(th, 0, intr_done);
}

void barrier_interrupt(struct rb_thread *th, th_cont k)
{
    th_sync_of(th)->intr_k = k;
    vm_lock_enter(th, intr_locked);
}

/* ---- thread_sched_setup_running_threads ---------------------------------------- */

/* A barrier waits while th enters running_threads: it must join as well
 * (RUBY_VM_SET_VM_BARRIER_INTERRUPT(add_th->ec)). */
void barrier_added_while_waiting(struct rb_thread *th)
{
    flag_barrier(th);
}

/* ... or leaves it: one fewer to wait for
 * (ractor_sched_barrier_join_signal_locked). */
void barrier_deleted_while_waiting(struct rb_thread *th)
{
    if (completed_p(th->vm)) vml_cond_signal(th, &th->vm->sync->barrier_complete_cond);
}

static void switch_in_locked(struct rb_thread *th)
{
    struct vm_sync *sy = th->vm->sync;
    th->add_deferred = false;
    gvl_add_running_thread(th);
    vml_mutex_unlock(th, &sy->sched_lock);
    th_sync_of(th)->switch_resume(th, th_sync_of(th)->switch_k);
}

void barrier_switch_in(struct rb_thread *th, th_cont k,
                       void (*resume)(struct rb_thread *th, th_cont k))
{
    th_sync_of(th)->switch_k = k;
    th_sync_of(th)->switch_resume = resume;
    vml_mutex_lock(th, &th->vm->sync->sched_lock, TS_BARRIER_JOIN, switch_in_locked);
}
