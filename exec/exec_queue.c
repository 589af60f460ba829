/* exec_queue.c - Thread::Queue (thread_sync.c) and join on real threads.
 *
 * A queue is a mutex around core/queue.h's item count and FIFO of parked
 * poppers.  pop on an empty queue registers the thread as a waiter and
 * parks it through the GVL (queue_sleep -> native_sleep ->
 * thread_sched_to_waiting_until_wakeup: the GVL goes to the next ready
 * thread); push takes the first waiter off the list and makes it ready
 * (wakeup_one -> ubf_waiting).  A woken popper re-checks and parks again
 * if another thread took the item first, as Thread::Queue#pop does.
 *
 * Deadlock detection: vm->parked_cnt counts threads parked on a queue or
 * in join and not yet made ready, updated under the same lock as the wait
 * list; when it equals the number of living threads and the scenario has
 * no stop.time, nothing can ever wake them and the controller is told.
 */
#include "exec_queue.h"

#include "../core/cursor.h"
#include "exec_gvl.h"
#include "exec_sync.h"

int exec_queue_init(struct exec_queue *q, const char *name, int64_t initial)
{
    core_queue_init(&q->core, name, initial);
    return pthread_mutex_init(&q->lock, NULL) ? -1 : 0;
}

void exec_queue_destroy(struct exec_queue *q)
{
    core_queue_destroy(&q->core);
    pthread_mutex_destroy(&q->lock);
}

void exec_park_count_locked(struct exec_vm *vm, int delta)
{
    vm->parked_cnt += delta;
    if (delta > 0 && vm->alive > 0 && vm->parked_cnt >= vm->alive && vm->scn->stop_time == 0 &&
        !vm->deadlock) {
        vm->deadlock = true;
        pthread_cond_broadcast(&vm->life_cond);
    }
}

bool exec_queue_push(struct exec_thread *th, struct exec_queue *q, sim_time arrived)
{
    struct exec_vm *vm = th->vm;
    pthread_mutex_lock(&q->lock);
    struct core_thread *cw;
    if (!core_queue_push(&q->core, arrived, &cw)) {
        pthread_mutex_unlock(&q->lock);
        exec_fail(vm, "out of memory for the items of queue \"%s\"", q->core.name);
        return false;
    }
    struct exec_thread *w = exec_thread_of(cw);
    if (w && exec_wake_timed_locked(&th->ac, w)) {
        w = NULL;  /* a pop(timeout:) waiter: woken, not parked */
    } else if (w) {
        pthread_mutex_lock(&vm->life_lock);
        exec_park_count_locked(vm, -1);
        pthread_mutex_unlock(&vm->life_lock);
    }
    pthread_mutex_unlock(&q->lock);
    if (w) exec_gvl_ready(&th->ac, w);
    return true;
}

/* Take an item (latency of a measure from its arrival); q->lock held. */
static bool take_locked(struct exec_thread *th, struct exec_queue *q)
{
    sim_time t;
    if (!core_queue_take(&q->core, &t)) return false;
    core_cursor_popped(&th->core, t);
    return true;
}

enum exec_wait_result exec_queue_try_pop(struct exec_thread *th, struct exec_queue *q)
{
    struct exec_vm *vm = th->vm;
    enum exec_wait_result r = EXEC_WAIT_DONE;
    pthread_mutex_lock(&q->lock);
    if (take_locked(th, q)) {
        r = EXEC_WAIT_DONE;
    } else if (atomic_load(&vm->stopping)) {
        r = EXEC_WAIT_STOPPING;
    } else {
        core_queue_wait(&q->core, &th->core, (int)(q - vm->queues));
        exec_state_set(th, TS_PARKED);  /* before it counts as parked (reports) */
        pthread_mutex_lock(&vm->life_lock);
        exec_park_count_locked(vm, +1);
        pthread_mutex_unlock(&vm->life_lock);
        r = EXEC_WAIT_PARK;
    }
    pthread_mutex_unlock(&q->lock);
    return r;
}

enum exec_wait_result exec_queue_pop_timed(struct exec_thread *th, struct exec_queue *q, sim_time timeout)
{
    struct exec_vm *vm = th->vm;
    int64_t deadline = exec_now_ns() + exec_ps_to_ns(timeout);
    for (;;) {
        pthread_mutex_lock(&q->lock);
        if (take_locked(th, q)) {
            pthread_mutex_unlock(&q->lock);
            return EXEC_WAIT_DONE;
        }
        if (atomic_load(&vm->stopping)) {
            pthread_mutex_unlock(&q->lock);
            return EXEC_WAIT_STOPPING;
        }
        if (exec_now_ns() >= deadline) {  /* nil (timeout: 0 at once) */
            th->c.timeouts++;
            pthread_mutex_unlock(&q->lock);
            return EXEC_WAIT_DONE;
        }
        th->timed_waiting = true;
        core_queue_wait(&q->core, &th->core, (int)(q - vm->queues));
        pthread_mutex_unlock(&q->lock);
        exec_timed_wait(th, deadline);
        pthread_mutex_lock(&q->lock);
        if (core_waitq_remove(&q->core.waiters, &th->core)) th->core.parked_queue = -1;
        exec_timed_done(th);
        pthread_mutex_unlock(&q->lock);
        if (atomic_load_explicit(&th->interrupts, memory_order_relaxed) & CORE_INT_TERMINATE)
            return EXEC_WAIT_STOPPING;
    }
}

enum exec_wait_result exec_join_try(struct exec_thread *th)
{
    struct exec_vm *vm = th->vm;
    enum exec_wait_result r = EXEC_WAIT_DONE;
    pthread_mutex_lock(&vm->life_lock);
    if (vm->alive == 1) {
        r = EXEC_WAIT_DONE;
    } else if (atomic_load(&vm->stopping)) {
        r = EXEC_WAIT_STOPPING;
    } else {
        th->core.joining = true;
        exec_state_set(th, TS_PARKED);
        th->core.wait_next = vm->joiners;
        vm->joiners = &th->core;
        exec_park_count_locked(vm, +1);
        r = EXEC_WAIT_PARK;
    }
    pthread_mutex_unlock(&vm->life_lock);
    return r;
}

/* Take the joiners off the list (life_lock held); returns the list. */
static struct core_thread *take_joiners_locked(struct exec_vm *vm)
{
    struct core_thread *list = vm->joiners;
    vm->joiners = NULL;
    for (struct core_thread *j = list; j; j = j->wait_next) {
        j->joining = false;
        exec_park_count_locked(vm, -1);
    }
    return list;
}

/* The joiners of one thread (rb_threadptr_join_list_wakeup: newest
 * first), appended to *list (life_lock held). */
static void take_thread_joiners_locked(struct exec_vm *vm, struct exec_thread *th, struct core_thread **list)
{
    struct core_thread *j = core_join_wakeup(&th->core);
    if (!j) return;
    struct core_thread *last = j;
    for (struct core_thread *k = j; k; k = k->wait_next) {
        exec_park_count_locked(vm, -1);
        last = k;
    }
    last->wait_next = *list;
    *list = j;
}

/* Make every thread of a list (linked through wait_next) ready. */
static void ready_list(struct core_thread *list, struct exec_actor_counts *by)
{
    while (list) {
        struct core_thread *next = list->wait_next;
        list->wait_next = NULL;
        exec_gvl_ready(by, exec_thread_of(list));
        list = next;
    }
}

void exec_thread_exited(struct exec_thread *th)
{
    struct exec_vm *vm = th->vm;
    struct core_thread *wake = NULL;
    pthread_mutex_lock(&vm->life_lock);
    vm->alive--;
    atomic_fetch_sub_explicit(&vm->living, 1, memory_order_relaxed);
    th->core.finished = true;
    if (vm->alive == 1 && vm->joiners) wake = take_joiners_locked(vm);
    take_thread_joiners_locked(vm, th, &wake);
    if (vm->alive == 0) {
        vm->all_done = true;
        if (!atomic_load(&vm->stopping)) vm->t_end_ns = exec_now_ns();  /* else stop.time's */
        pthread_cond_broadcast(&vm->life_cond);
    } else if (vm->parked_cnt >= vm->alive && vm->scn->stop_time == 0 && !vm->deadlock) {
        vm->deadlock = true;
        pthread_cond_broadcast(&vm->life_cond);
    }
    pthread_mutex_unlock(&vm->life_lock);
    ready_list(wake, &th->ac);
}

void exec_wake_all_parked(struct exec_vm *vm)
{
    struct exec_actor_counts *by = &vm->controller_counts;
    for (int qi = 0; qi < vm->nqueues; qi++) {
        struct exec_queue *q = &vm->queues[qi];
        pthread_mutex_lock(&q->lock);
        struct core_thread *list = core_waitq_take_all(&q->core.waiters), *parked = NULL;
        for (struct core_thread *w = list, *next; w; w = next) {
            next = w->wait_next;
            w->wait_next = NULL;
            w->parked_queue = -1;
            if (exec_wake_timed_locked(by, exec_thread_of(w))) continue;
            pthread_mutex_lock(&vm->life_lock);
            exec_park_count_locked(vm, -1);
            pthread_mutex_unlock(&vm->life_lock);
            w->wait_next = parked;
            parked = w;
        }
        pthread_mutex_unlock(&q->lock);
        ready_list(parked, by);
    }
    exec_sync_wake_all(vm);
    /* sleepers see TERMINATE at once (they check it under the lock) */
    for (int i = 0; i < vm->nthreads; i++) {
        struct exec_thread *th = &vm->threads[i];
        if (atomic_load_explicit(&th->pub_state, memory_order_relaxed) != TS_SLEEPING) continue;
        struct exec_sched *xs = &exec_ractor_of(th)->sched;
        pthread_mutex_lock(&xs->lock);
        pthread_cond_signal(&th->cond);
        pthread_mutex_unlock(&xs->lock);
    }
    pthread_mutex_lock(&vm->life_lock);
    struct core_thread *joiners = take_joiners_locked(vm);
    for (int i = 0; i < vm->nthreads; i++) take_thread_joiners_locked(vm, &vm->threads[i], &joiners);
    pthread_mutex_unlock(&vm->life_lock);
    ready_list(joiners, by);
}
