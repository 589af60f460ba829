/* exec_gvl_barging.h - the 2.6-3.2 GVL (policy "barging") on real
 * threads: the waits behind core/policy.h's core_barging_* rules.
 * Functions ending in _locked expect the Ractor's sched lock held. */
#ifndef EXEC_EXEC_GVL_BARGING_H
#define EXEC_EXEC_GVL_BARGING_H

#include <stdbool.h>

#include "exec_vm.h"

/* thread_sched_to_running_common: take the GVL or queue (unless `queued`
 * already) and wait until it is free. */
void exec_gvl32_acquire_locked(struct exec_ractor *r, struct exec_thread *th, bool queued);
/* thread_sched_to_waiting_common, after exec_gvl_released: clear the owner,
 * signal the first waiter. */
struct core_thread *exec_gvl32_release_locked(struct exec_ractor *r, struct exec_thread *th);

/* The thread's first acquisition (after the prefill). */
void exec_gvl32_start(struct exec_thread *th);
/* native_sleep of a Queue pop or join, and its unblock function. */
void exec_gvl32_park(struct exec_thread *th);
void exec_gvl32_ready(struct exec_actor_counts *by, struct exec_thread *th);
/* Wake th, parked in ppoll, by a write to its eventfd (under its Ractor's
 * sched.lock, th->park_ppolling set). */
void exec_gvl32_ppoll_wake(struct exec_thread *th);
/* gvl_yield */
void exec_gvl32_yield(struct exec_thread *th);
/* rb_ractor_living_thread_num: r's threads started and not finished */
int exec_gvl32_living(const struct exec_ractor *r);

#endif
