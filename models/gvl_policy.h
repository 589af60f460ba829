/* gvl_policy.h - a GVL policy is a small table of functions called at
 * well-named points of a thread's life.  Adding a policy touches one file
 * (models/gvl_<name>.c) and one line of the registry (gvl_policy.c).
 *
 * Every hook is called by the thread that holds or wants the GVL, while its
 * native thread is on a core (except `ready`, called by the waker, and
 * `tick`, called by the timer thread).  Hooks taking a continuation call it
 * once `th` holds the GVL and runs on a core: synchronously if no wait was
 * needed, else later from an event.
 */
#ifndef MODELS_GVL_POLICY_H
#define MODELS_GVL_POLICY_H

#include <stdbool.h>

#include "vm.h"

struct gvl_policy {
    const char *name;
    enum scn_gvl_policy id;
    /* BLOCKING_REGION begins: th holds the GVL and will run a syscall
     * without it.  yield_immediately is THREAD_BLOCKING_BEGIN's flag
     * (native sleeps), false for BLOCKING_REGION. */
    void (*blocking_enter)(struct rb_thread *th, bool yield_immediately);
    /* BLOCKING_REGION ends: th wants the GVL back. */
    void (*blocking_exit)(struct rb_thread *th, th_cont k);
    /* th gives up the GVL to sleep until `ready` is called on it (Queue#pop
     * on empty, join); k runs once it holds the GVL again. */
    void (*park)(struct rb_thread *th, th_cont k);
    /* ubf: a parked th is made ready by `waker` (NULL: timer/kernel). */
    void (*ready)(struct rb_thread *waker, struct rb_thread *th);
    /* the quantum expired: let the next ready thread run. */
    void (*yield)(struct rb_thread *th, th_cont k);
    /* a new thread asks for the GVL for the first time. */
    void (*start)(struct rb_thread *th, th_cont k);
    /* th ends and releases the GVL. */
    void (*dead)(struct rb_thread *th);
    /* a timer tick found this sched in the timeslice set (may be NULL). */
    void (*tick)(struct core_sched *s);
    /* does this policy use the timer thread's timeslice set? (barging has
     * no timer thread: its first waiter times the quantum) */
    bool uses_timer_thread;
    /* a TIMER interrupt credits a whole quantum rather than one tick
     * (CRuby <= 3.2: running_time_us += TIME_QUANTUM_USEC, so every timer
     * interrupt ends the slice) */
    bool tick_credits_quantum;

    /* Optional per-Ractor state in s->policy_data (a helper thread, the
     * 2.6-3.2 GVL's fields): set up before any thread starts (GV_OK or an
     * error code with a message), freed with the VM (also after a failed
     * init, so it must accept a NULL policy_data). */
    int (*init)(struct rb_ractor *r, char *err, unsigned errlen);
    void (*fini)(struct rb_ractor *r);
    /* Optional: add the policy's own native threads to the run's metrics
     * (their context switches, native_threads). */
    void (*collect)(const struct rb_ractor *r, struct run_metrics *m);
};

const struct gvl_policy *gvl_policy_get(enum scn_gvl_policy id);

extern const struct gvl_policy gvl_eager;
extern const struct gvl_policy gvl_hot_steal;
extern const struct gvl_policy gvl_delayed;
extern const struct gvl_policy gvl_threshold;
extern const struct gvl_policy gvl_barging;

#endif
