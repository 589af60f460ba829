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

#include "exec_gvl.h"

int exec_queue_init(struct exec_queue *q, const char *name, int64_t initial)
{
    core_queue_init(&q->core, name, initial);
    return pthread_mutex_init(&q->lock, NULL) ? -1 : 0;
}

void exec_queue_destroy(struct exec_queue *q)
{
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

void exec_queue_push(struct exec_thread *th, struct exec_queue *q)
{
    struct exec_vm *vm = th->vm;
    pthread_mutex_lock(&q->lock);
    struct exec_thread *w = exec_thread_of(core_queue_push(&q->core));
    if (w) {
        pthread_mutex_lock(&vm->life_lock);
        exec_park_count_locked(vm, -1);
        pthread_mutex_unlock(&vm->life_lock);
    }
    pthread_mutex_unlock(&q->lock);
    if (w) exec_gvl_ready(&th->ac, w);
}

enum exec_wait_result exec_queue_try_pop(struct exec_thread *th, struct exec_queue *q)
{
    struct exec_vm *vm = th->vm;
    enum exec_wait_result r = EXEC_WAIT_DONE;
    pthread_mutex_lock(&q->lock);
    if (core_queue_take(&q->core)) {
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
    if (vm->alive == 1 && vm->joiners) wake = take_joiners_locked(vm);
    if (vm->alive == 0) {
        vm->all_done = true;
        vm->t_end_ns = exec_now_ns();
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
        struct core_thread *list = core_waitq_take_all(&q->core.waiters);
        for (struct core_thread *w = list; w; w = w->wait_next) {
            w->parked_queue = -1;
            pthread_mutex_lock(&vm->life_lock);
            exec_park_count_locked(vm, -1);
            pthread_mutex_unlock(&vm->life_lock);
        }
        pthread_mutex_unlock(&q->lock);
        ready_list(list, by);
    }
    pthread_mutex_lock(&vm->life_lock);
    struct core_thread *joiners = take_joiners_locked(vm);
    pthread_mutex_unlock(&vm->life_lock);
    ready_list(joiners, by);
}
