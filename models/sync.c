/* sync.c - Queue, Mutex, ConditionVariable and join in simulated time
 * (sync.h).  Decisions: core/queue.c, core/sync.c; waits: models/gvl.c. */
#include "sync.h"

#include "../core/cursor.h"
#include "../core/sync.h"
#include "gvl.h"
#include "mn_pool.h"
#include "thread.h"

static struct core_mutex *mutex_of(struct rb_thread *th, int m) { return &th->vm->mutexes[m]; }


/* ---- waits ----------------------------------------------------------------- */

/* native_sleep(th, NULL): park until a waker's ubf makes th ready, then
 * re-run the op holding the GVL. */
static void park(struct rb_thread *th)
{
    vm_set_state(th, TS_PARKED);
    gvl_park(th, th_retry);
}

static void timed_woke(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    sim_cancel(th->vm->eng, rb_cold(th)->wait_timeout_ev);
    rb_cold(th)->wait_timeout_ev = 0;
    th->timed_waiting = false;
    rb_cold(th)->wait_woken = false;
    th->blocking = false;
    vm_set_state(th, TS_WANTS_GVL);
    mn_blocking_end(th);  /* M:N: unpin the SNT */
    gvl_blocking_exit(th, th_retry);  /* THREAD_BLOCKING_END */
}

static void timed_timeout(void *obj, uint64_t arg)
{
    (void)arg;
    struct rb_thread *th = obj;
    rb_cold(th)->wait_timeout_ev = 0;
    rb_cold(th)->wait_woken = true;
    /* the kernel's timer (a thread still waiting for gvl->lock to release
     * the GVL sees wait_woken in timed_sleep_now) */
    if (!th->vml_asleep) mach_wake(&th->vm->mach, th->nt, NULL);
}

/* the cond_timedwait, once th has paid its way there: a wake that came
 * meanwhile ends it at once (the predicate is checked under the lock) */
static void timed_sleep_now(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    if (rb_cold(th)->wait_woken) {
        timed_woke(th->nt, th);
        return;
    }
    mach_block(&th->vm->mach, th->nt, timed_woke, th);
}

/* native_cond_sleep with a timeout: release the GVL as a native sleep
 * does, sleep on the thread's own condvar until a waker's
 * ubf_pthread_cond_signal or the timeout, take the GVL back, re-run the op. */
static void timed_released(struct rb_thread *th)
{
    th_settle(th, timed_sleep_now);
}

static void timed_wait(struct rb_thread *th, sim_time timeout)
{
    th->timed_waiting = true;
    rb_cold(th)->wait_woken = false;
    th->blocking = true;
    vm_set_state(th, TS_PARKED);
    mn_blocking_begin(th);  /* M:N: pin the SNT */
    rb_cold(th)->wait_timeout_ev = sim_after(th->vm->eng, timeout + vm_timed_wait_slack(th->vm), timed_timeout, th, 0);
    gvl_blocking_enter(th, true, timed_released);  /* THREAD_BLOCKING_BEGIN */
}

/* A woken thread wants the GVL from its wake where the waker queues it
 * for the GVL (3.3+: ubf_waiting calls thread_sched_to_ready_common,
 * which fires READY, in the waker); with the barging GVL (up to 3.2) the
 * woken thread queues itself once it runs again (native_sleep's
 * THREAD_BLOCKING_END: thread_sched_to_running fires READY, then
 * gvl_acquire_common takes its place in the waitq), so until then it is
 * still parked (models/gvl_barging.c and timed_woke set it ready). */
static void woken_ready(struct rb_thread *w)
{
    if (!w->vm->policy->barging) vm_set_state(w, TS_WANTS_GVL);
}

/* sync_wake of a thread in a timed wait: ubf_pthread_cond_signal, the
 * native thread wakes at once.  (Out of line: its cold part stays out of
 * the common wake.) */
static __attribute__((noinline)) void timed_wake(struct rb_thread *waker, struct rb_thread *w)
{
    if (rb_cold(w)->wait_woken) return;
    rb_cold(w)->wait_woken = true;
    woken_ready(w);  /* as an untimed waiter would be */
    int woke = w->vml_asleep ? 0 : mach_wake(&w->vm->mach, w->nt, waker ? waker->nt : NULL);
    if (woke) {
        w->vm->wakeups++;
        if (waker) waker->pending_cost += vm_wake_cost(w->vm, woke);
    }
}

void sync_wake(struct rb_thread *waker, struct rb_thread *w)
{
    if (w->timed_waiting) {
        timed_wake(waker, w);
        return;
    }
    w->interrupts |= CORE_INT_PENDING;
    woken_ready(w);
    gvl_ready(waker, w);
}

/* A timed wait's deadline: the time left, or <= 0 once it has passed. */
static sim_time time_left(const struct rb_thread *th)
{
    return rb_cold(th)->wait_deadline - sim_now(th->vm->eng);
}

/* ---- Queue ------------------------------------------------------------------- */

bool sync_queue_push(struct rb_thread *th, int q, sim_time arrived)
{
    struct core_thread *w;
    if (!core_queue_push(&th->vm->queues[q], arrived, &w)) {
        vm_fail(th->vm, "out of memory for the items of queue \"%s\"", th->vm->queues[q].name);
        return false;
    }
    if (w) sync_wake(th, rb_thread_of(w));
    return true;
}

/* queue_do_pop: take an item, else wait (with the rest of the timeout) */
bool sync_queue_pop(struct rb_thread *th, const struct scn_op *op)
{
    struct vm *vm = th->vm;
    struct core_queue *q = &vm->queues[op->u.queue.queue];
    bool timed = op->u.queue.has_timeout;
    if (th->core.op_phase == 1) {  /* woken: by a push, or the timeout */
        th->core.op_phase = 0;
        if (timed && core_waitq_remove(&q->waiters, &th->core)) th->core.parked_queue = -1;
    } else if (timed) {
        rb_cold(th)->wait_deadline = sim_now(vm->eng) + op->u.queue.timeout;
    }
    sim_time t;
    if (core_queue_take(q, &t)) {
        core_cursor_popped(&th->core, t);
        return true;
    }
    if (timed && time_left(th) <= 0) {  /* nil: the timeout passed (timeout: 0 at once) */
        vm->timeouts++;
        vm_instant(th, "pop_timeout");
        return true;
    }
    core_queue_wait(q, &th->core, op->u.queue.queue);
    th->core.op_phase = 1;
    if (timed) timed_wait(th, time_left(th));
    else park(th);
    return false;
}

/* ---- Mutex ------------------------------------------------------------------- */

bool sync_mutex_lock(struct rb_thread *th, int m)
{
    switch (core_mutex_lock(mutex_of(th, m), &th->core, m)) {
    case CORE_LOCK_TAKEN: return true;
    case CORE_LOCK_WAIT:
        vm_instant(th, "mutex_wait");
        park(th);
        return false;
    case CORE_LOCK_RECURSIVE: break;
    }
    vm_fail(th->vm, "thread %s: mutex_lock of mutex \"%s\" at %s (line %d): deadlock; recursive locking "
            "(ThreadError: the thread already holds it)", th->core.name, mutex_of(th, m)->name,
            th->op->path, th->op->line);
    return false;
}

bool sync_mutex_unlock(struct rb_thread *th, int m)
{
    struct core_thread *w;
    enum core_unlock u = core_mutex_unlock(mutex_of(th, m), &th->core, &w);
    if (u != CORE_UNLOCK_OK) {
        vm_fail(th->vm, "thread %s: unlock of mutex \"%s\" at %s (line %d): %s (ThreadError)", th->core.name,
                mutex_of(th, m)->name, th->op->path, th->op->line, core_unlock_error(u));
        return false;
    }
    if (w) sync_wake(th, rb_thread_of(w));  /* rb_threadptr_interrupt of the head waiter */
    return true;
}

/* ---- ConditionVariable ------------------------------------------------------- */

/* ConditionVariable#wait(m, timeout), alone or in `cv.wait(m, t) while
 * q.empty?` (while_empty: the timeout is then a deadline over the loop, as
 * pools compute it).  op_phase: 0 the op starts, 1 woken, 2 re-locking
 * the mutex (mutex_lock_uninterruptible), 3 checking the queue. */
bool sync_cv_wait(struct rb_thread *th, const struct scn_op *op)
{
    struct vm *vm = th->vm;
    struct core_condvar *cv = &vm->condvars[op->u.cv.cv];
    int m = op->u.cv.mutex;
    bool timed = op->u.cv.has_timeout;
    sim_time now = sim_now(vm->eng);
    for (;;) {
        switch (th->core.op_phase) {
        case 0:
            rb_cold(th)->wait_deadline = now + op->u.cv.timeout;
            th->core.timed_out = false;
            th->core.op_phase = 3;
            continue;
        case 3: {
            if (op->u.cv.while_empty) {
                if (vm->queues[op->u.cv.while_empty - 1].items > 0) break;       /* done */
                if (timed && time_left(th) <= 0) {                                /* gave up */
                    th->core.timed_out = true;
                    break;
                }
            }
            if (mutex_of(th, m)->owner != &th->core) {
                vm_fail(vm, "thread %s: cv_wait at %s (line %d) without holding mutex \"%s\" "
                        "(ThreadError: Mutex#sleep unlocks it)", th->core.name, op->path, op->line,
                        mutex_of(th, m)->name);
                return false;
            }
            core_cv_wait(cv, &th->core, op->u.cv.cv);
            vm_instant(th, "cv_wait");
            if (!sync_mutex_unlock(th, m)) return false;  /* Mutex#sleep */
            th->core.op_phase = 1;
            if (timed) timed_wait(th, op->u.cv.while_empty ? time_left(th) : op->u.cv.timeout);
            else park(th);
            return false;
        }
        case 1: {
            /* still on the list: its timeout came first */
            bool to = timed && core_cv_timed_out(cv, &th->core);
            if (!op->u.cv.while_empty) th->core.timed_out = to;
            th->core.op_phase = 2;
            continue;
        }
        default:
            if (!sync_mutex_lock(th, m)) return false;  /* parked: phase 2 again */
            if (op->u.cv.while_empty) {
                th->core.op_phase = 3;
                continue;
            }
            break;  /* one wait: done, signalled or not */
        }
        th->core.op_phase = 0;
        if (th->core.timed_out) {
            vm->timeouts++;
            vm_instant(th, "cv_timeout");
            if (op->u.cv.raise) core_cursor_abort(&th->core);  /* the thread ends */
        }
        return true;
    }
}

void sync_cv_signal(struct rb_thread *th, const struct scn_op *op)
{
    struct core_condvar *cv = &th->vm->condvars[op->u.cv.cv];
    vm_instant(th, op->kind == OP_CV_SIGNAL ? "cv_signal" : "cv_broadcast");
    if (op->kind == OP_CV_SIGNAL) {
        struct core_thread *w = core_cv_signal(cv);
        if (w) sync_wake(th, rb_thread_of(w));
        return;
    }
    for (struct core_thread *w = core_cv_broadcast(cv), *next; w; w = next) {
        next = w->wait_next;
        w->wait_next = NULL;
        sync_wake(th, rb_thread_of(w));
    }
}

/* ---- join ---------------------------------------------------------------------- */

/* The first instance of template `tmpl` that has not ended and will run
 * (a spawned slot never started does not count), or NULL. */
static struct rb_thread *join_target(struct vm *vm, int tmpl)
{
    for (int i = 0; i < vm->nthreads; i++) {
        struct rb_thread *t = &vm->threads[i];
        if (t->core.tmpl != tmpl || t->core.finished) continue;
        if (t->core.started || t->core.start_at >= 0) return t;
    }
    return NULL;
}

bool sync_join(struct rb_thread *th, const struct scn_op *op)
{
    struct vm *vm = th->vm;
    if (op->u.join.tmpl) {
        struct rb_thread *target = join_target(vm, op->u.join.tmpl - 1);
        if (!target || target == th) return true;
        core_join_wait(&target->core, &th->core);
        park(th);
        return false;
    }
    /* every other thread: a joiner waits until it is the only thread left */
    if (vm->alive == 1) return true;
    th->core.joining = true;
    th->core.wait_next = vm->joiners;
    vm->joiners = &th->core;
    vm_set_state(th, TS_PARKED);
    gvl_park(th, th_retry);
    return false;
}

void sync_thread_end(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    /* rb_threadptr_join_list_wakeup: newest joiner first */
    for (struct core_thread *j = core_join_wakeup(&th->core), *next; j; j = next) {
        next = j->wait_next;
        j->wait_next = NULL;
        sync_wake(th, rb_thread_of(j));
    }
    if (vm->alive == 1) {
        for (struct core_thread *c = vm->joiners; c; c = c->wait_next) {
            struct rb_thread *j = rb_thread_of(c);
            if (j->dead || !c->joining) continue;
            c->joining = false;
            woken_ready(j);
            gvl_ready(th, j);
        }
    }
    /* rb_threadptr_unlock_all_locking_mutexes */
    for (int m = 0; m < vm->nmutexes; m++) {
        struct core_thread *w;
        if (vm->mutexes[m].owner != &th->core) continue;
        core_mutex_unlock(&vm->mutexes[m], &th->core, &w);
        if (w) sync_wake(th, rb_thread_of(w));
    }
}
