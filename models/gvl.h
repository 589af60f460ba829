/* gvl.h - the simulator's side of the per-Ractor scheduler of CRuby 3.3+
 * (thread_pthread.c).  The decisions (who is `running`, the ready queue,
 * the PR 15840 steal) are core/sched.h's; this file gives them their
 * costs and continuations: a futex wake paid by its actor, the wait for a
 * CPU after a wake, the sleep of a thread whose turn has not come.
 */
#ifndef MODELS_GVL_H
#define MODELS_GVL_H

#include <stdbool.h>

#include "../core/sched.h"
#include "vm.h"

/* The actor for code a Ruby thread runs itself. */
struct gvl_actor gvl_self(struct rb_thread *th);

/* thread_sched_add_running_thread: vm running_threads and the timeslice
 * set, under the global sched lock (charged to `th`). */
void gvl_add_running_thread(struct rb_thread *th);

/* thread_sched_wakeup_running_thread: signal next's native thread.  The
 * actor pays futex_wake if the target really slept.  Returns 1 if a
 * sleeping thread was woken. */
int gvl_signal(struct rb_thread *next, struct gvl_actor by);

/* thread_sched_to_ready_common: th becomes ready; if nobody runs it takes
 * the GVL at once (and is signalled if `wakeup`). */
void gvl_to_ready(struct rb_thread *th, bool wakeup, struct gvl_actor by);

/* The turn is ours (rb_ractor_thread_switch, the RESUMED hook): reset
 * running_time if another thread ran meanwhile, clear the PR 15840 hint,
 * state running, then k. */
void gvl_acquired(struct rb_thread *th, th_cont k);

/* An M:N thread is back on a native thread (mn_pool.c): if it is
 * `running`, it takes the GVL and continues with th->gvl_k. */
void gvl_turn_resume(struct rb_thread *th);

/* ---- the entries, at well-named points of a thread's life ----------------
 * Each is called by the thread that holds or wants the GVL while its native
 * thread is on a core (gvl_ready: by the waker).  Entries taking a
 * continuation call it once th holds the GVL and runs on a core:
 * synchronously if no wait was needed, else later from an event.  The
 * policy's decisions are core/policy.h's; barging is the 2.x GVL of
 * gvl_barging.c. */

/* BLOCKING_REGION begins: th holds the GVL and will run a syscall without
 * it; k runs once the GVL is released (at once, except for the 2.x GVL's
 * gvl->lock section).  yield_immediately is THREAD_BLOCKING_BEGIN's flag
 * (native sleeps). */
void gvl_blocking_enter(struct rb_thread *th, bool yield_immediately, th_cont k);
/* BLOCKING_REGION ends: th wants the GVL back. */
void gvl_blocking_exit(struct rb_thread *th, th_cont k);
/* th gives up the GVL to sleep until gvl_ready is called on it (Queue#pop
 * on empty, join); k runs once it holds the GVL again. */
void gvl_park(struct rb_thread *th, th_cont k);
/* ubf: a parked th is made ready by `waker` (NULL: the timer / kernel). */
void gvl_ready(struct rb_thread *waker, struct rb_thread *th);
/* The quantum expired: let the next ready thread run. */
void gvl_yield(struct rb_thread *th, th_cont k);
/* A new thread asks for the GVL for the first time. */
void gvl_start(struct rb_thread *th, th_cont k);
/* th ends and releases the GVL; k runs once it has. */
void gvl_dead(struct rb_thread *th, th_cont k);

/* delayed, threshold: the timer thread or the helper has just handed the
 * GVL on for a thread still in its blocking region
 * (core_sched_handoff_deferred), under the Ractor's sched->lock_, and
 * holds that lock until the section's CPU (the successor's futex wake, the
 * global lock section) is paid: then gvl_handoff_unlock, which wakes the
 * threads that slept on the lock meanwhile (a futex wake each, paid by
 * `by`). */
void gvl_handoff_lock(struct rb_ractor *r);
/* (nothing if the lock is not a hand-off's: a thread's own hold; inline:
 * the timer asks after every wake-up, and it mostly is not).  Returns
 * whether the unlock woke a thread that slept on the lock. */
static inline bool gvl_handoff_unlock(struct rb_ractor *r, struct gvl_actor by)
{
    return vm_unlock_paid(r->vm, &r->sched_lock, r, by.nt, by.cost);
}
/* th, holding its Ractor's sched lock through its own signal
 * (th->holds_sched_lock), has paid that section: it lets go (th_burst). */
void gvl_section_end(struct rb_thread *th);

/* A Ractor's scheduler and its policy's own state (the threshold helper,
 * the 2.x GVL): set up before any thread starts (GV_OK or an error code
 * with a message), freed with the VM (also after a failed init). */
int gvl_init(struct rb_ractor *r, char *err, unsigned errlen);
void gvl_free(struct rb_ractor *r);
/* Hand-offs, and the policy's own native threads (their switches). */
void gvl_collect(const struct rb_ractor *r, struct run_metrics *m);

#endif
