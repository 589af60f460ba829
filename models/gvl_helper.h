/* gvl_helper.h - the threshold policy's helper thread, one per Ractor
 * (PR 15294): it hands the GVL on for a thread whose blocking region has
 * run for runtime.threshold. */
#ifndef MODELS_GVL_HELPER_H
#define MODELS_GVL_HELPER_H

#include "vm.h"

int helper_init(struct rb_ractor *r, char *err, unsigned errlen);
void helper_free(struct rb_ractor *r);
/* th, running, entered a region that kept the GVL: the helper times it
 * (started at the first region). */
void helper_region_began(struct rb_thread *th);
/* r's ready queue stopped being empty, by `by`'s enqueue: the helper, if it
 * waits without a timeout, is woken (core_helper_next). */
void helper_waiters_appeared(struct rb_ractor *r, struct gvl_actor by);
/* Its context switches and native thread, if it ever ran. */
void helper_collect(const struct rb_ractor *r, struct run_metrics *m);

#endif
