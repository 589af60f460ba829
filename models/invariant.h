/* invariant.h - what an environment escape costs the JIT's invariant
 * bookkeeping (runtime.invariant_check): vm.c vm_make_env_each ->
 * rb_yjit_invalidate_ep_is_bp, before and after PR 18176.
 */
#ifndef MODELS_INVARIANT_H
#define MODELS_INVARIANT_H

#include <stdbool.h>

#include "vm.h"

/* The env_escape op `op` of th.  Returns true if the thread goes on at once
 * (the cost, if any, is charged to its next burst); false if it entered the
 * VM lock, in which case it continues with th_step once done. */
bool invariant_env_escape(struct rb_thread *th, const struct scn_op *op);

#endif
