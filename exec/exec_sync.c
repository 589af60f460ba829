/* exec_sync.c - Mutex, ConditionVariable, join of a template and timed
 * waits on real threads (exec_sync.h). */
#include "exec_sync.h"

#include <stdarg.h>
#include <stdio.h>

#include "exec_gvl.h"
#include "exec_queue.h"
#include "exec_wait.h"

void exec_fail(struct exec_vm *vm, const char *fmt, ...)
{
    pthread_mutex_lock(&vm->life_lock);
    if (!vm->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(vm->fail_msg, sizeof vm->fail_msg, fmt, ap);
        va_end(ap);
        vm->failed = true;
        pthread_cond_broadcast(&vm->life_cond);
    }
    pthread_mutex_unlock(&vm->life_lock);
}

static void park_count(struct exec_vm *vm, int delta)
{
    pthread_mutex_lock(&vm->life_lock);
    exec_park_count_locked(vm, delta);
    pthread_mutex_unlock(&vm->life_lock);
}

/* ---- timed waits ---------------------------------------------------------- */

bool exec_wake_timed_locked(struct exec_actor_counts *by, struct exec_thread *w)
{
    if (!w->timed_waiting) return false;
    struct exec_sched *xs = &exec_ractor_of(w)->sched;
    pthread_mutex_lock(&xs->lock);
    if (!w->wait_woken) {
        w->wait_woken = true;
        w->ready_at_ns = exec_now_ns();  /* ready from now, as an untimed waiter would be */
        if (w->cond_waiting) by->wakeups++;  /* ubf_pthread_cond_signal */
        pthread_cond_signal(&w->cond);
    }
    pthread_mutex_unlock(&xs->lock);
    return true;
}

void exec_timed_wait(struct exec_thread *th, int64_t deadline_ns)
{
    exec_state_set(th, TS_PARKED);
    exec_gvl_blocking_enter(th, true);  /* THREAD_BLOCKING_BEGIN */
    struct exec_sched *xs = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&xs->lock);
    while (!th->wait_woken && exec_now_ns() < deadline_ns) {
        th->cond_waiting = true;
        exec_cond_timedwait(th, &th->cond, &xs->lock, deadline_ns);
        th->cond_waiting = false;
    }
    int64_t ready = th->wait_woken ? th->ready_at_ns : exec_now_ns();
    pthread_mutex_unlock(&xs->lock);
    exec_state_set_at(th, TS_WANTS_GVL, ready);
    exec_gvl_blocking_exit(th);  /* THREAD_BLOCKING_END */
    exec_state_set(th, TS_RUNNING);
}

void exec_timed_done(struct exec_thread *th)
{
    struct exec_sched *xs = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&xs->lock);
    th->timed_waiting = th->wait_woken = false;
    pthread_mutex_unlock(&xs->lock);
}

/* Park until made ready, then hold the GVL again; false if told to end. */
static bool park(struct exec_thread *th)
{
    exec_gvl_park(th);
    exec_state_set_at(th, TS_WANTS_GVL, th->ready_at_ns);
    exec_state_set(th, TS_RUNNING);
    return !(atomic_load_explicit(&th->interrupts, memory_order_relaxed) & CORE_INT_TERMINATE);
}

/* ---- Mutex ---------------------------------------------------------------- */

bool exec_mutex_lock(struct exec_thread *th, int m)
{
    struct exec_vm *vm = th->vm;
    struct core_mutex *mu = &vm->mutexes[m];
    for (;;) {
        pthread_mutex_lock(&vm->rsync_lock);
        if (atomic_load(&vm->stopping)) {
            pthread_mutex_unlock(&vm->rsync_lock);
            return false;
        }
        enum core_lock r = core_mutex_lock(mu, &th->core, m);
        if (r == CORE_LOCK_WAIT) {
            exec_state_set(th, TS_PARKED);
            park_count(vm, +1);
        }
        pthread_mutex_unlock(&vm->rsync_lock);
        if (r == CORE_LOCK_TAKEN) return true;
        if (r == CORE_LOCK_RECURSIVE) {
            const struct scn_op *op = atomic_load(&th->pub_op);
            exec_fail(vm, "thread %s: mutex_lock of mutex \"%s\" at %s (line %d): deadlock; recursive locking "
                      "(ThreadError: the thread already holds it)", th->core.name, mu->name,
                      op ? op->path : "?", op ? op->line : 0);
            return false;
        }
        if (!park(th)) return false;
    }
}

/* core_mutex_unlock with rsync_lock held: the woken waiter, to make ready */
static struct exec_thread *unlock_locked(struct exec_thread *th, int m, enum core_unlock *u)
{
    struct core_thread *w;
    *u = core_mutex_unlock(&th->vm->mutexes[m], &th->core, &w);
    if (w) park_count(th->vm, -1);
    return exec_thread_of(w);
}

bool exec_mutex_unlock(struct exec_thread *th, int m)
{
    struct exec_vm *vm = th->vm;
    enum core_unlock u;
    pthread_mutex_lock(&vm->rsync_lock);
    struct exec_thread *w = unlock_locked(th, m, &u);
    pthread_mutex_unlock(&vm->rsync_lock);
    if (u != CORE_UNLOCK_OK) {
        const struct scn_op *op = atomic_load(&th->pub_op);
        exec_fail(vm, "thread %s: unlock of mutex \"%s\" at %s (line %d): %s (ThreadError)", th->core.name,
                  vm->mutexes[m].name, op ? op->path : "?", op ? op->line : 0, core_unlock_error(u));
        return false;
    }
    if (w) exec_gvl_ready(&th->ac, w);
    return true;
}

/* ---- ConditionVariable ---------------------------------------------------- */

static bool queue_empty(struct exec_vm *vm, int q)
{
    struct exec_queue *eq = &vm->queues[q];
    pthread_mutex_lock(&eq->lock);
    bool empty = eq->core.items <= 0;
    pthread_mutex_unlock(&eq->lock);
    return empty;
}

bool exec_cv_wait(struct exec_thread *th, const struct scn_op *op)
{
    struct exec_vm *vm = th->vm;
    struct core_condvar *cv = &vm->condvars[op->u.cv.cv];
    int m = op->u.cv.mutex;
    bool timed = op->u.cv.has_timeout, timed_out = false;
    int64_t deadline = exec_now_ns() + exec_ps_to_ns(op->u.cv.timeout);
    for (;;) {
        /* `cv.wait(m, t) while q.empty?`: the predicate first, t a deadline */
        if (op->u.cv.while_empty) {
            if (!queue_empty(vm, op->u.cv.while_empty - 1)) return true;
            if (timed && exec_now_ns() >= deadline) {
                timed_out = true;
                break;
            }
        }
        pthread_mutex_lock(&vm->rsync_lock);
        if (atomic_load(&vm->stopping)) {
            pthread_mutex_unlock(&vm->rsync_lock);
            return false;
        }
        if (vm->mutexes[m].owner != &th->core) {
            pthread_mutex_unlock(&vm->rsync_lock);
            exec_fail(vm, "thread %s: cv_wait at %s (line %d) without holding mutex \"%s\" (ThreadError: "
                      "Mutex#sleep unlocks it)", th->core.name, op->path, op->line, vm->mutexes[m].name);
            return false;
        }
        th->timed_waiting = timed;
        core_cv_wait(cv, &th->core, op->u.cv.cv);
        exec_state_set(th, TS_PARKED);
        if (!timed) park_count(vm, +1);
        enum core_unlock u;
        struct exec_thread *w = unlock_locked(th, m, &u);  /* Mutex#sleep: unlock */
        pthread_mutex_unlock(&vm->rsync_lock);
        if (w) exec_gvl_ready(&th->ac, w);
        if (timed) {
            exec_timed_wait(th, op->u.cv.while_empty ? deadline
                                                     : exec_now_ns() + exec_ps_to_ns(op->u.cv.timeout));
            pthread_mutex_lock(&vm->rsync_lock);
            bool to = core_cv_timed_out(cv, &th->core);  /* still on the list: the timeout came first */
            if (!op->u.cv.while_empty) timed_out = to;
            exec_timed_done(th);
            pthread_mutex_unlock(&vm->rsync_lock);
        } else if (!park(th)) {
            return false;
        }
        if (atomic_load_explicit(&th->interrupts, memory_order_relaxed) & CORE_INT_TERMINATE) return false;
        if (!exec_mutex_lock(th, m)) return false;  /* mutex_lock_uninterruptible */
        if (!op->u.cv.while_empty) break;
    }
    if (timed_out) th->c.timeouts++;
    /* raise: the thread ends as an exception would end it (its mutexes are unlocked) */
    return !(timed_out && op->u.cv.raise);
}

void exec_cv_signal(struct exec_thread *th, const struct scn_op *op)
{
    struct exec_vm *vm = th->vm;
    struct core_condvar *cv = &vm->condvars[op->u.cv.cv];
    pthread_mutex_lock(&vm->rsync_lock);
    struct core_thread *list = op->kind == OP_CV_SIGNAL ? core_cv_signal(cv) : core_cv_broadcast(cv);
    struct core_thread *ready = NULL, **tail = &ready;
    for (struct core_thread *w = list, *next; w; w = next) {
        next = op->kind == OP_CV_SIGNAL ? NULL : w->wait_next;
        w->wait_next = NULL;
        if (exec_wake_timed_locked(&th->ac, exec_thread_of(w))) continue;
        park_count(vm, -1);
        *tail = w;
        tail = &w->wait_next;
    }
    pthread_mutex_unlock(&vm->rsync_lock);
    for (struct core_thread *w = ready, *next; w; w = next) {
        next = w->wait_next;
        w->wait_next = NULL;
        exec_gvl_ready(&th->ac, exec_thread_of(w));
    }
}

/* ---- join of a template, the end of a thread ------------------------------ */

bool exec_join_tmpl(struct exec_thread *th, int tmpl)
{
    struct exec_vm *vm = th->vm;
    for (;;) {
        pthread_mutex_lock(&vm->life_lock);
        struct exec_thread *target = NULL;
        for (int i = 0; i < vm->nthreads && !target; i++) {
            struct exec_thread *t = &vm->threads[i];
            if (t->core.tmpl == tmpl && !t->core.finished && (t->core.started || t->core.start_at >= 0))
                target = t;
        }
        if (!target || target == th) {
            pthread_mutex_unlock(&vm->life_lock);
            return true;
        }
        if (atomic_load(&vm->stopping)) {
            pthread_mutex_unlock(&vm->life_lock);
            return false;
        }
        core_join_wait(&target->core, &th->core);
        exec_state_set(th, TS_PARKED);
        exec_park_count_locked(vm, +1);
        pthread_mutex_unlock(&vm->life_lock);
        if (!park(th)) return false;
    }
}

void exec_sync_thread_end(struct exec_thread *th)
{
    struct exec_vm *vm = th->vm;
    if (vm->nmutexes == 0) return;
    struct exec_thread *wake[64];
    int n = 0;
    pthread_mutex_lock(&vm->rsync_lock);
    for (int m = 0; m < vm->nmutexes; m++) {  /* rb_threadptr_unlock_all_locking_mutexes */
        if (vm->mutexes[m].owner != &th->core) continue;
        enum core_unlock u;
        struct exec_thread *w = unlock_locked(th, m, &u);
        if (!w) continue;
        if (n == 64) {  /* more woken than fit here: make it ready under the lock */
            exec_gvl_ready(&th->ac, w);
            continue;
        }
        wake[n++] = w;
    }
    pthread_mutex_unlock(&vm->rsync_lock);
    for (int i = 0; i < n; i++) exec_gvl_ready(&th->ac, wake[i]);
}

void exec_sync_wake_all(struct exec_vm *vm)
{
    struct exec_actor_counts *by = &vm->controller_counts;
    pthread_mutex_lock(&vm->rsync_lock);
    for (int m = 0; m < vm->nmutexes; m++) {
        struct core_thread *list = core_waitq_take_all(&vm->mutexes[m].waiters);
        for (struct core_thread *w = list, *next; w; w = next) {
            next = w->wait_next;
            w->wait_next = NULL;
            w->parked_mutex = -1;
            park_count(vm, -1);
            exec_gvl_ready(by, exec_thread_of(w));
        }
    }
    for (int c = 0; c < vm->ncondvars; c++) {
        struct core_thread *list = core_cv_broadcast(&vm->condvars[c]);
        for (struct core_thread *w = list, *next; w; w = next) {
            next = w->wait_next;
            w->wait_next = NULL;
            if (exec_wake_timed_locked(by, exec_thread_of(w))) continue;
            park_count(vm, -1);
            exec_gvl_ready(by, exec_thread_of(w));
        }
    }
    pthread_mutex_unlock(&vm->rsync_lock);
}
