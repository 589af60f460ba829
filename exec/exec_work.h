/* exec_work.h - CPU work on real threads: the calibrated busy loop behind
 * `compute` durations, and the interpreter-instruction loop behind
 * `compute` insns with its instruction counter (bug #20489). */
#ifndef EXEC_EXEC_WORK_H
#define EXEC_EXEC_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "exec.h"
#include "exec_vm.h"

/* Run `iters` iterations of the busy loop; returns the loop's value (consume
 * it, e.g. with an empty asm taking it as input, so the call is kept). */
uint64_t exec_spin(uint64_t iters, uint64_t x);

/* Keep a loop's final value alive without storing it anywhere (an empty
 * asm taking it as input), so that the compiler keeps the loop. */
static inline void exec_consume(uint64_t x)
{
    __asm__ volatile("" : : "r"(x));
}

/* Measure picoseconds per iteration on the calling thread (CPU time):
 * 15 samples of ~4 ms after a warm-up; accepted when the interquartile
 * range / median <= max_spread, retried up to 5 times.  GV_ERUN with the numbers if it
 * never settles. */
int exec_calibrate(struct exec_calibration *c, double max_spread, char *err, size_t errlen);

/* `n` interpreter instructions, each one step of work plus an increment of
 * the instruction counter chosen by runtime.insn_counter:
 *   COUNTER_SHARED        one global cache-line-aligned uint64_t, plain
 *                         non-atomic increment (as rb_vm_insns_count++);
 *   COUNTER_THREAD_LOCAL  a _Thread_local uint64_t (the #12549 fix);
 *   COUNTER_NONE          no counter.  Returns the work value. */
uint64_t exec_insns(enum scn_insn_counter kind, struct exec_shared_counter *shared, uint64_t n,
                    uint64_t x);

/* The calling thread's thread-local instruction count. */
uint64_t exec_insns_tls_count(void);

#endif
