/* gc.h - the alloc op and the garbage collector in simulated time. */
#ifndef MODELS_GC_H
#define MODELS_GC_H

#include <stdbool.h>
#include <stdint.h>

#include "vm.h"

/* Allocate the op's objects: true if done without waiting; false if the
 * thread collects or sweeps first (it re-runs the op afterwards). */
bool gc_alloc(struct rb_thread *th, const struct scn_op *op);

/* The same for `objects` objects, each live at the next GC with
 * probability `survive`, their bodies malloc'd if `malloced` (an op that
 * allocates as part of its work; it must not use th->core.op_phase
 * before this returns true). */
bool gc_alloc_objects(struct rb_thread *th, uint64_t objects, double survive, bool malloced);

/* The same for an env_escape op's two objects (an environment and a Proc,
 * with malloc'd bodies), after the op's own CPU (machine.env_escape_work). */
bool gc_escape(struct rb_thread *th);

/* The gc op: a collection of the op's length.  true once it is done (the
 * thread re-runs the op after the work), false while it works. */
bool gc_op(struct rb_thread *th, const struct scn_op *op);

#endif
