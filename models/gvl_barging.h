/* gvl_barging.h - the 2.6-3.2 GVL (policy "barging") in simulated time:
 * the waits and wake-ups behind core/policy.h's core_barging_* rules. */
#ifndef MODELS_GVL_BARGING_H
#define MODELS_GVL_BARGING_H

#include "vm.h"

int gvl32_init(struct rb_ractor *r, char *err, unsigned errlen);
void gvl32_free(struct rb_ractor *r);

/* thread_sched_to_waiting_common: release, signal the first waiter
 * (returned, or NULL). */
struct core_thread *gvl32_release(struct rb_thread *th);
/* thread_sched_to_running_common: take the GVL, or queue and wait; k runs
 * once th holds it. */
void gvl32_acquire(struct rb_thread *th, th_cont k);
/* native_sleep of a Queue pop or join: release (and, on the ppoll paths,
 * sched_yield when nobody waits for the GVL), sleep until made ready,
 * acquire. */
void gvl32_park(struct rb_thread *th, th_cont k);
/* its unblock function: a parked th is made ready by `by` */
void gvl32_ready(struct gvl_actor by, struct rb_thread *th);
/* thread_sched_yield */
void gvl32_yield(struct rb_thread *th, th_cont k);

#endif
