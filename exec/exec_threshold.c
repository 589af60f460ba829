/* exec_threshold.c - the threshold policy's helper (PR 15294, known only
 * from its description in the bug #21685 thread: "keep the GVL during the
 * syscall; a helper thread performs the hand-off only if the call is still
 * running after ~100 us").
 *
 * One helper per Ractor waits on its own condvar paired with the Ractor's
 * sched lock:
 * - nobody waits for the GVL: it sleeps without a timeout (helper_idle);
 *   the enqueue that makes the ready queue non-empty signals it (one
 *   futex wake, counted as a wakeup of the enqueuing thread);
 * - someone waits and the owner is blocked since t0: it sleeps until
 *   t0 + threshold and, if that same blocking episode is still running,
 *   hands the GVL to the head of the queue;
 * - someone waits and the owner runs Ruby code: it re-checks every
 *   threshold (at least every 20 us), so that a new blocking episode is
 *   noticed without a wake-up per system call.
 * The decision is core_helper_next (core/policy.h), which the simulator's
 * helper (models/gvl_helper.c) makes too.
 * So the hand-off happens threshold after the call began, and the helper's
 * own cost is one wake per threshold while the GVL is contended.
 */
#include "exec_threshold.h"

#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "../core/policy.h"

static void *helper_main(void *arg)
{
    struct exec_ractor *r = arg;
    struct exec_sched *s = &r->sched;
    struct exec_vm *vm = r->vm;
    struct rusage ru0, ru1;
    getrusage(RUSAGE_THREAD, &ru0);
    sim_time threshold = vm->scn->runtime.threshold;
    pthread_mutex_lock(&s->lock);
    while (!s->helper_stop) {
        int64_t now = exec_now_ns();
        sim_time sleep, age = r->core.sched.deferred ? (sim_time)(now - s->blocked_since_ns) * SIM_NS : 0;
        switch (core_helper_next(&r->core.sched, age, threshold, &sleep)) {
        case CORE_HELPER_IDLE:
            s->helper_idle = true;
            pthread_cond_wait(&s->helper_cond, &s->lock);
            s->helper_idle = false;
            break;
        case CORE_HELPER_HANDOFF:
            core_sched_handoff_deferred(&r->core.sched, &s->helper_counts);
            break;
        case CORE_HELPER_SLEEP: {
            struct timespec ts = exec_abstime(now + exec_ps_to_ns(sleep));
            pthread_cond_timedwait(&s->helper_cond, &s->lock, &ts);
            break;
        }
        }
    }
    pthread_mutex_unlock(&s->lock);
    getrusage(RUSAGE_THREAD, &ru1);
    s->helper_ru.ru_nvcsw = ru1.ru_nvcsw - ru0.ru_nvcsw;
    s->helper_ru.ru_nivcsw = ru1.ru_nivcsw - ru0.ru_nivcsw;
    return NULL;
}

int exec_threshold_start(struct exec_vm *vm, char *err, size_t errlen)
{
    for (int r = 0; r < vm->nractors; r++) {
        struct exec_sched *s = &vm->ractors[r].sched;
        int rc = pthread_create(&s->helper, NULL, helper_main, &vm->ractors[r]);
        if (rc) return gv_fail(err, errlen, GV_ERUN, "cannot start the threshold helper of Ractor %s: %s",
                               vm->ractors[r].core.name, strerror(rc));
        s->helper_started = true;
    }
    return GV_OK;
}

void exec_threshold_stop(struct exec_vm *vm)
{
    for (int r = 0; r < vm->nractors; r++) {
        struct exec_sched *s = &vm->ractors[r].sched;
        if (!s->helper_started) continue;
        pthread_mutex_lock(&s->lock);
        s->helper_stop = true;
        pthread_cond_signal(&s->helper_cond);
        pthread_mutex_unlock(&s->lock);
        pthread_join(s->helper, NULL);
        s->helper_started = false;
    }
}

void exec_threshold_waiters_locked(struct exec_ractor *r, struct exec_actor_counts *by)
{
    if (r->core.sched.policy->defer != CORE_DEFER_HELPER || !r->sched.helper_idle) return;
    by->wakeups++;
    r->sched.helper_idle = false;
    pthread_cond_signal(&r->sched.helper_cond);
}
