/* exec_gvl_barging.c - the GVL of CRuby 2.6-3.2 on real threads, from
 * thread_pthread.c of that era: thread_sched_to_running_common (acquire),
 * thread_sched_to_waiting_common (release), do_gvl_timer,
 * designate_timer_thread and thread_sched_yield (gvl_yield).
 *
 * Release only clears the owner (`running`) and signals the first waiter;
 * it hands nothing over.  Acquire re-checks the owner in its wait loop, so
 * whoever takes the sched lock first while the GVL is free wins: a thread
 * back from a short syscall usually re-takes the GVL before the signalled
 * waiter even runs, and that waiter wakes for nothing (a wasted wake).
 * There is no timer thread for time slices: the first waiter to find no
 * designated timer becomes it and waits with a 100 ms (runtime.quantum)
 * deadline; whenever that wait returns and the GVL is owned it sets the
 * owner's TIMER interrupt, which under 3.2 credits a whole quantum, so the
 * owner yields at its next safe point.
 *
 * The rules are core/policy.h's core_barging_*; the Ractor's core.sched is
 * shared with the 3.3 code (its ready queue is the GVL wait queue).  In multi-Ractor runs the threads also
 * enter and leave vm running_threads, so that the barrier (exec_vmlock.c)
 * works the same under every policy (3.2's own barrier counted blocking
 * threads instead: an approximation, documented in docs/exec-results.md).
 */
#include "exec_gvl_barging.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../core/policy.h"
#include "exec_efd.h"
#include "exec_sched.h"
#include "exec_wait.h"

/* timer_posix.state_'s values (thread_pthread.c of v3_1_2: RTIMER_DISARM
 * is 0, RTIMER_ARMED 2); nothing arms it here, as in a run without signals */
enum { EXEC_RTIMER_DISARM = 0, EXEC_RTIMER_ARMED = 2 };

/* designate_timer_thread: wake the last waiter so that it becomes the timer. */
static void designate_timer_thread_locked(struct exec_thread *last, struct exec_actor_counts *by)
{
    if (last->cond_waiting) by->wakeups++;
    pthread_cond_signal(&last->cond);  /* not `signalled`: this wake is not for the GVL */
}

/* do_gvl_timer: the designated waiter's timed wait. */
static void do_gvl_timer_locked(struct exec_ractor *r, struct exec_thread *th)
{
    struct core_sched *s = &r->core.sched;
    struct exec_sched *xs = &r->sched;
    if (core_barging_timer_begin(s, &th->core))
        xs->timer_abs = exec_abstime(exec_now_ns() + exec_ps_to_ns(th->vm->scn->runtime.quantum));
    /* ubf_timer_disarm: `timer_posix.owner != getpid()`, a real system
     * call (glibc caches no pid), made holding gvl->lock; then
     * timer_state_cas(RTIMER_ARMED, RTIMER_DISARM) on the process-wide
     * timer_posix.state_, which finds it disarmed (thread_pthread.c of
     * v3_1_2): a failed CAS that still takes the line */
    (void)syscall(SYS_getpid);
    unsigned armed = EXEC_RTIMER_ARMED;
    (void)atomic_compare_exchange_strong(&th->vm->timer_state, &armed, EXEC_RTIMER_DISARM);
    int64_t deadline_ns = (int64_t)xs->timer_abs.tv_sec * 1000000000 + xs->timer_abs.tv_nsec;
    th->cond_waiting = true;
    int rc = exec_cond_timedwait(th, &th->cond, &xs->lock, deadline_ns);
    th->cond_waiting = false;
    /* ruby_sigchld_handler: GET_SIGCHLD_HIT(), ATOMIC_EXCHANGE(sigchld_hit, 0)
     * (signal.c of v3_1_2), holding gvl->lock again */
    (void)atomic_exchange(&th->vm->sigchld_hit, 0);
    /* time slice: the owner yields at its next safe point */
    struct exec_thread *owner = exec_thread_of(core_barging_timer_end(s, rc == ETIMEDOUT));
    if (owner) atomic_fetch_or(&owner->interrupts, CORE_INT_TIMER);
}

/* thread_sched_to_running_common (3.2) */
void exec_gvl32_acquire_locked(struct exec_ractor *r, struct exec_thread *th, bool queued)
{
    struct core_sched *s = &r->core.sched;
    struct exec_sched *xs = &r->sched;
    if (!core_barging_uncontended(s, &th->core)) {
        if (!queued) core_rq_append(s, &th->core);
        do {
            th->signalled = false;
            if (!s->barging.timer) {
                do_gvl_timer_locked(r, th);
            } else {
                th->cond_waiting = true;
                exec_cond_wait(th, &th->cond, &xs->lock);
                th->cond_waiting = false;
            }
            /* signalled by a release, but someone barged in first */
            if (s->running && th->signalled) th->c.wasted_wakes++;
        } while (s->running);
        if (core_barging_got_it(s, &th->core)) pthread_cond_signal(&xs->switch_cond);
    }
    struct exec_thread *timer = exec_thread_of(core_barging_take(s, &th->core));
    if (th->vm->multi_ractor) exec_sched_running_update_locked(r, th, NULL, &th->ac);
    exec_sched_acquired_locked(th);
    if (timer) designate_timer_thread_locked(timer, &th->ac);
}

/* thread_sched_to_waiting_common (3.2), after exec_sched_released: the
 * waiter signalled, or NULL */
struct core_thread *exec_gvl32_release_locked(struct exec_ractor *r, struct exec_thread *th)
{
    if (th->vm->multi_ractor) exec_sched_running_update_locked(r, NULL, th, &th->ac);
    return core_barging_release(&r->core.sched, &th->ac);
}

void exec_gvl32_start(struct exec_thread *th)
{
    struct exec_ractor *r = exec_ractor_of(th);
    struct core_sched *s = &r->core.sched;
    pthread_mutex_lock(&r->sched.lock);
    if (s->running == &th->core) {  /* first in scenario order (the prefill) */
        struct exec_thread *timer = exec_thread_of(core_barging_take(s, &th->core));
        if (th->vm->multi_ractor) exec_sched_running_update_locked(r, th, NULL, &th->ac);
        exec_sched_acquired_locked(th);
        if (timer) designate_timer_thread_locked(timer, &th->ac);
    } else {
        exec_gvl32_acquire_locked(r, th, th->core.in_readyq);
    }
    pthread_mutex_unlock(&r->sched.lock);
}

/* rb_ractor_living_thread_num: started and not finished */
int exec_gvl32_living(const struct exec_ractor *r)
{
    const struct exec_vm *vm = r->vm;
    int n = 0;
    for (int i = 0; i < vm->nthreads; i++)
        n += exec_ractor_of(&vm->threads[i]) == r &&
             atomic_load_explicit(&vm->threads[i].pub_state, memory_order_relaxed) != TS_COUNT;
    return n;
}

/* An eventfd, opened once (false: none, the condvar is used instead). */
static bool efd_open(bool *open, int *fd)
{
    if (!*open) {
        *fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        *open = *fd >= 0;
    }
    return *open;
}

void exec_gvl32_ppoll_wake(struct exec_thread *th)
{
    exec_efd_write(th->park_efd);  /* rb_thread_wakeup_timer_thread_fd */
}

/* native_ppoll_sleep / rb_sigwait_sleep: ppoll on the signal self-pipe and
 * the thread's own eventfd (never timed here), then one read of its
 * eventfd (consume_communication_pipe: with USE_EVENTFD the first
 * successful read returns), until woken; xs->lock is dropped meanwhile. */
static void park_ppoll(struct exec_thread *th, pthread_mutex_t *lock)
{
    th->park_ppolling = true;
    while (!th->park_woken) {
        exec_check_abort(th, lock);
        pthread_mutex_unlock(lock);
        struct pollfd pfd[2] = { { th->vm->idle_efd, POLLIN, 0 }, { th->park_efd, POLLIN, 0 } };
        if (ppoll(pfd, 2, NULL, NULL) > 0 && (pfd[1].revents & POLLIN)) exec_efd_read(th->park_efd);
        pthread_mutex_lock(lock);
    }
    th->park_ppolling = false;
}

/* native_sleep of 2.6-3.2: release, sleep until woken (the unblock
 * function), then acquire like any other waiter.  The first sleeper of the
 * process (it takes the signal self-pipe) and the main thread sleep in
 * ppoll, releasing with THREAD_BLOCKING_YIELD: sched_yield() first when
 * the release signalled nobody and the Ractor has another living thread
 * (core_barging_sleep_ppoll).  They sleep in ppoll on an eventfd and are
 * woken by a write to it (park_ppoll, exec_gvl32_ready), the others on
 * their condvar (native_cond_sleep, ubf_pthread_cond_signal). */
void exec_gvl32_park(struct exec_thread *th)
{
    struct exec_ractor *r = exec_ractor_of(th);
    struct exec_sched *xs = &r->sched;
    struct exec_vm *vm = th->vm;
    /* rb_sigwait_fd_get -> ubf_timer_disarm's getpid(), holding the GVL */
    (void)syscall(SYS_getpid);
    pthread_mutex_lock(&xs->lock);
    if (th->park_woken) {  /* woken before it slept */
        th->park_woken = false;
        th->ready_at_ns = exec_now_ns();
        pthread_mutex_unlock(&xs->lock);
        return;
    }
    pthread_mutex_lock(&vm->sched_lock);
    bool ppoll = core_barging_sleep_ppoll(&vm->sigwait, &th->core, th == &vm->threads[0]);
    if (ppoll) efd_open(&vm->idle_efd_open, &vm->idle_efd);
    pthread_mutex_unlock(&vm->sched_lock);
    exec_sched_released(th);
    struct core_thread *next = exec_gvl32_release_locked(r, th);
    if (ppoll && core_barging_sleep_yields(next, exec_gvl32_living(r))) {
        pthread_mutex_unlock(&xs->lock);
        sched_yield();
        pthread_mutex_lock(&xs->lock);
    }
    if (ppoll && efd_open(&th->park_efd_open, &th->park_efd) && vm->idle_efd_open) park_ppoll(th, &xs->lock);
    while (!th->park_woken) {
        th->cond_waiting = true;
        exec_cond_wait(th, &th->cond, &xs->lock);
        th->cond_waiting = false;
    }
    th->park_woken = false;
    exec_gvl32_acquire_locked(r, th, false);
    pthread_mutex_lock(&vm->sched_lock);
    core_barging_sleep_end(&vm->sigwait, &th->core);
    pthread_mutex_unlock(&vm->sched_lock);
    pthread_mutex_unlock(&xs->lock);
}

void exec_gvl32_ready(struct exec_actor_counts *by, struct exec_thread *th)
{
    struct exec_sched *xs = &exec_ractor_of(th)->sched;
    pthread_mutex_lock(&xs->lock);
    th->park_woken = true;
    th->ready_at_ns = exec_now_ns();
    if (th->cond_waiting || th->park_ppolling) by->wakeups++;
    if (th->park_ppolling) {
        exec_gvl32_ppoll_wake(th);  /* ubf_ppoll_sleep, ubf_sigwait */
    } else {
        pthread_cond_signal(&th->cond);
    }
    pthread_mutex_unlock(&xs->lock);
}

/* thread_sched_yield (3.2): release, wait until a waiter really took the
 * GVL (need_yield / switch_cond), then queue up again. */
void exec_gvl32_yield(struct exec_thread *th)
{
    struct exec_ractor *r = exec_ractor_of(th);
    struct core_sched *s = &r->core.sched;
    struct exec_sched *xs = &r->sched;
    pthread_mutex_lock(&xs->lock);
    exec_sched_released(th);
    if (th->vm->multi_ractor) exec_sched_running_update_locked(r, NULL, th, &th->ac);
    switch (core_barging_yield(s, &th->ac)) {
    case CORE_YIELD_WAIT_SWITCH:
        while (s->barging.wait_yield) exec_cond_wait(th, &xs->switch_wait_cond, &xs->lock);
        break;
    case CORE_YIELD_WAIT_TAKEN:
        while (s->barging.need_yield) exec_cond_wait(th, &xs->switch_cond, &xs->lock);
        s->barging.wait_yield = false;
        pthread_cond_broadcast(&xs->switch_wait_cond);
        break;
    case CORE_YIELD_NATIVE:
        pthread_mutex_unlock(&xs->lock);
        sched_yield();
        pthread_mutex_lock(&xs->lock);
        pthread_cond_broadcast(&xs->switch_wait_cond);
        break;
    }
    exec_gvl32_acquire_locked(r, th, false);
    pthread_mutex_unlock(&xs->lock);
}
