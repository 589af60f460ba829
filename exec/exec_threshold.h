/* exec_threshold.h - the helper threads of the threshold policy (PR 15294):
 * one per Ractor, handing the GVL on for an owner whose system call has
 * run for runtime.threshold. */
#ifndef EXEC_EXEC_THRESHOLD_H
#define EXEC_EXEC_THRESHOLD_H

#include <stddef.h>

#include "exec_vm.h"

int exec_threshold_start(struct exec_vm *vm, char *err, size_t errlen);
void exec_threshold_stop(struct exec_vm *vm);

/* A GVL's ready queue stopped being empty (its sched lock held): the
 * helper, if it idles, must start watching (one futex wake, counted in by). */
void exec_threshold_waiters_locked(struct exec_ractor *r, struct exec_actor_counts *by);

#endif
