/* exec_timer.c - the timer thread on a real pthread.
 *
 * timer_thread_set_timeout: while the timeslice set (running threads that
 * have waiters) is non-empty the thread wakes every runtime.timer_tick
 * (10 ms); otherwise it waits without a timeout until
 * thread_sched_setup_running_threads wakes it (timer_thread_wakeup_locked,
 * which only writes to the eventfd when the timer is in its infinite
 * wait; here a condvar signal on vm->timer_cond, paired with the global
 * vm->sched_lock the set lives under).  On each tick
 * (timer_thread_check_timeslice) it ORs TIMER_INTERRUPT into every thread
 * of the set; each credits one tick at its next safe point.  Under the
 * delayed policy (PR 15529) the tick first hands the GVL on for an owner
 * still blocked in a system call (core_sched_tick).
 */
#include "exec_timer.h"

#include <errno.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "../core/policy.h"

void exec_timer_wakeup_locked(struct exec_vm *vm, struct exec_actor_counts *by)
{
    if (!vm->timer_started || !vm->timer_sleeping_forever) return;
    vm->timer_sleeping_forever = false;
    vm->timer_wakes++;
    by->wakeups++;
    pthread_cond_signal(&vm->timer_cond);
}

/* One tick (timer_thread_check_timeslice); vm->sched_lock held on entry
 * and on return.  Each Ractor's decision (core_sched_tick: the delayed
 * policy's hand-off, then TIMER for `running`) is taken under its sched
 * lock, which comes before the global one. */
static void timer_tick_locked(struct exec_vm *vm)
{
    vm->timer_ticks++;
    pthread_mutex_unlock(&vm->sched_lock);
    for (int i = 0; i < vm->nractors; i++) {
        struct exec_ractor *r = &vm->ractors[i];
        pthread_mutex_lock(&r->sched.lock);
        if (core_sched_tick(&r->core.sched, &vm->timer_counts))
            atomic_fetch_or(&exec_thread_of(r->core.sched.running)->interrupts, CORE_INT_TIMER);
        pthread_mutex_unlock(&r->sched.lock);
    }
    pthread_mutex_lock(&vm->sched_lock);
}

static void *timer_main(void *arg)
{
    struct exec_vm *vm = arg;
    /* a name of its own, so that `perf sched` and `perf script` tell the
     * timer from the Ruby threads it wakes beside (docs/validate.md) */
    prctl(PR_SET_NAME, "gvlsim-timer");
    struct rusage ru0, ru1;
    getrusage(RUSAGE_THREAD, &ru0);
    int64_t tick_ns = exec_ps_to_ns(vm->scn->runtime.timer_tick);
    int64_t deadline = 0;
    bool armed = false;
    pthread_mutex_lock(&vm->sched_lock);
    while (!vm->timer_stop) {
        if (vm->timeslice_cnt > 0) {
            if (!armed) {
                /* timer_thread_set_timeout: a 10 ms timeout */
                vm->timer_timed_waits++;
                deadline = exec_now_ns() + tick_ns;
                armed = true;
            }
            struct timespec ts = exec_abstime(deadline);
            pthread_cond_timedwait(&vm->timer_cond, &vm->sched_lock, &ts);
            if (!vm->timer_stop && exec_now_ns() >= deadline) {
                armed = false;
                timer_tick_locked(vm);
            }
        } else {
            armed = false;
            vm->timer_sleeping_forever = true;
            pthread_cond_wait(&vm->timer_cond, &vm->sched_lock);
            vm->timer_sleeping_forever = false;
        }
    }
    pthread_mutex_unlock(&vm->sched_lock);
    getrusage(RUSAGE_THREAD, &ru1);
    vm->timer_ru.ru_nvcsw = ru1.ru_nvcsw - ru0.ru_nvcsw;
    vm->timer_ru.ru_nivcsw = ru1.ru_nivcsw - ru0.ru_nivcsw;
    return NULL;
}

int exec_timer_start(struct exec_vm *vm, char *err, size_t errlen)
{
    int rc = pthread_create(&vm->timer, NULL, timer_main, vm);
    if (rc) return gv_fail(err, errlen, GV_ERUN, "cannot start the timer thread: %s", strerror(rc));
    vm->timer_started = true;
    return GV_OK;
}

void exec_timer_stop(struct exec_vm *vm)
{
    if (!vm->timer_started) return;
    pthread_mutex_lock(&vm->sched_lock);
    vm->timer_stop = true;
    pthread_cond_signal(&vm->timer_cond);
    pthread_mutex_unlock(&vm->sched_lock);
    pthread_join(vm->timer, NULL);
    vm->timer_started = false;
}
