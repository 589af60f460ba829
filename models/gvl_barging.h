/* gvl_barging.h - the 2.6-3.2 GVL (policy "barging") in simulated time:
 * the native lock, the waits and wake-ups behind core/policy.h's
 * core_barging_* rules. */
#ifndef MODELS_GVL_BARGING_H
#define MODELS_GVL_BARGING_H

#include "vm.h"

int gvl32_init(struct rb_ractor *r, char *err, unsigned errlen);
void gvl32_free(struct rb_ractor *r);

/* gvl_release: under gvl->lock, clear the owner and signal the first
 * waiter; k runs once gvl->lock is released again. */
void gvl32_release(struct rb_thread *th, th_cont k);
/* gvl_acquire: take the GVL, or queue and wait; k runs once th holds it
 * (and gvl->lock is released). */
void gvl32_acquire(struct rb_thread *th, th_cont k);
/* The release's signal to the head waiter (the scheduler hook): its
 * cond.gvlq, by `by`. */
void gvl32_signal(struct rb_thread *next, struct gvl_actor by);
/* native_sleep of a Queue pop or join: release (and, on the ppoll paths,
 * sched_yield when nobody waits for the GVL), sleep until made ready,
 * acquire. */
void gvl32_park(struct rb_thread *th, th_cont k);
/* its unblock function: a parked th is made ready by `by` (the thread
 * `waker`, or NULL when no Ruby thread wakes it) */
void gvl32_ready(struct rb_thread *waker, struct gvl_actor by, struct rb_thread *th);
/* The end of the section in which th, having woken a parked thread,
 * still holds that thread's interrupt_lock (gvl32_ready; th->intr_hold):
 * called once th has paid the CPU it owed (models/gvl.c gvl_section_end). */
void gvl32_section_end(struct rb_thread *th);
/* thread_sched_yield */
void gvl32_yield(struct rb_thread *th, th_cont k);
/* gvl->lock's sections and sleeps, and the sleeps on the threads'
 * interrupt_lock, into m */
void gvl32_collect(const struct rb_ractor *r, struct run_metrics *m);

#endif
