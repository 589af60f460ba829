/* exec_gc.h - the alloc op and the garbage collector on real threads. */
#ifndef EXEC_EXEC_GC_H
#define EXEC_EXEC_GC_H

#include "exec_vm.h"

/* Allocate the op's objects, doing the GC work core/heap.h decides (the
 * simulator's models/gc.c describes how). */
void exec_alloc(struct exec_thread *th, const struct scn_op *op);
/* The alloc op's own CPU before it (machine.alloc_object per object),
 * which the caller runs holding the GVL. */
sim_time exec_alloc_work(const struct exec_thread *th, const struct scn_op *op);

/* The same for `objects` objects, each live at the next GC with
 * probability `survive`, their bodies malloc'd if `malloced`. */
void exec_alloc_objects(struct exec_thread *th, uint64_t objects, double survive, bool malloced);

/* The gc op: a collection of d picoseconds, as a GC start (models/gc.c). */
void exec_gc_op(struct exec_thread *th, sim_time d);

#endif
