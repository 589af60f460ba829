/* exec_policy.h - a real GVL policy is a small table of functions called at
 * the same points as the simulator's (models/gvl_policy.h): blocking-region
 * entry and exit, park, ready, yield, start, death.
 *
 * Every hook runs on the thread it names, except `ready`, run by the waker
 * (another Ruby thread or the controller).  Hooks that (re)acquire the GVL
 * return once the calling thread holds it.
 */
#ifndef EXEC_EXEC_POLICY_H
#define EXEC_EXEC_POLICY_H

#include <stdbool.h>

#include "exec_vm.h"

struct exec_policy {
    const char *name;
    enum scn_gvl_policy id;
    /* before the start gate: queue th on its GVL in scenario order */
    void (*prefill)(struct exec_thread *th);
    /* the thread's first acquisition */
    void (*start)(struct exec_thread *th);
    /* BLOCKING_REGION entry; yield_immediately for native sleeps
     * (THREAD_BLOCKING_BEGIN), false for system calls */
    void (*blocking_enter)(struct exec_thread *th, bool yield_immediately);
    /* BLOCKING_REGION exit: wants the GVL back */
    void (*blocking_exit)(struct exec_thread *th);
    /* give up the GVL until `ready` is called on th, then hold it again */
    void (*park)(struct exec_thread *th);
    void (*ready)(struct exec_actor_counts *by, struct exec_thread *th);
    /* the quantum is used up */
    void (*yield)(struct exec_thread *th);
    /* the thread ends and releases the GVL */
    void (*dead)(struct exec_thread *th);
    /* quantum credited per TIMER interrupt (3.3: one tick; 3.2: a quantum) */
    bool credit_full_quantum;
    bool uses_timer_thread;   /* the 3.3 timer thread drives the quantum */
    bool uses_helper;         /* threshold: one helper thread per Ractor */
};

const struct exec_policy *exec_policy_get(enum scn_gvl_policy id);

/* A GVL's ready queue stopped being empty (sched->lock held): the
 * threshold helper, if it idles, must start watching. */
void exec_policy_waiters_appeared_locked(struct exec_ractor *r, struct exec_actor_counts *by);

extern const struct exec_policy exec_policy_barging;

#endif
