/* exec_gvl.h - the GVL on real threads: its entries, at the same points
 * of a thread's life as the simulator's (models/gvl.h). */
#ifndef EXEC_EXEC_GVL_H
#define EXEC_EXEC_GVL_H

#include <stdbool.h>

#include "exec_vm.h"

/* ---- the entries, at the same points as the simulator's (models/gvl.h) --
 * Each runs on the thread it names, except exec_gvl_ready (the waker:
 * another Ruby thread or the controller) and exec_gvl_prefill (the
 * controller, holding the sched lock).  Entries that (re)acquire the GVL
 * return once the calling thread holds it.  The policy's decisions are
 * core/policy.h's; barging is the 2.x GVL of exec_gvl_barging.c. */

/* Before the start gate: queue th on its GVL in scenario order. */
void exec_gvl_prefill(struct exec_thread *th);
/* The thread's first acquisition. */
void exec_gvl_start(struct exec_thread *th);
/* BLOCKING_REGION entry; yield_immediately for native sleeps
 * (THREAD_BLOCKING_BEGIN), false for system calls. */
void exec_gvl_blocking_enter(struct exec_thread *th, bool yield_immediately);
/* BLOCKING_REGION exit: wants the GVL back. */
void exec_gvl_blocking_exit(struct exec_thread *th);
/* Give up the GVL until exec_gvl_ready is called on th (Queue#pop on
 * empty, join), then hold it again. */
void exec_gvl_park(struct exec_thread *th);
void exec_gvl_ready(struct exec_actor_counts *by, struct exec_thread *th);
/* The quantum is used up: does th yield (core_tick_yields)?  Then yield. */
bool exec_gvl_tick_yields(struct exec_thread *th);
void exec_gvl_yield(struct exec_thread *th);
/* The thread ends and releases the GVL. */
void exec_gvl_dead(struct exec_thread *th);

#endif
