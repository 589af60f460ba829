/* counter.h - rb_vm_insns_count, the per-instruction counter of CRuby
 * 3.3-3.4 (bug #20489), and what it does to `compute` ops given in
 * interpreter instructions (`insns`).
 *
 * runtime.insn_counter:
 *   none          no counter (release builds after 8cafa5b8ce): insn_time each
 *   thread_local  #12549: insn_time + tls_insn_overhead each
 *   shared        d814722fb8 (3.3.0 - 3.4.x): every instruction of every core
 *                 does a plain `rb_vm_insns_count++` on ONE global; the cache
 *                 line holding it must be owned to be written, so cores that
 *                 execute at the same time contend for it.
 * The shared case runs as a rated burst (sim/machine.h) whose rate depends
 * on k, the number of cores executing counted instructions right now; the
 * rates are re-planned only when k changes (a fluid model), so a compute of
 * a billion instructions stays a handful of events.  runtime.counter_model
 * picks the contention model; counter.c explains both.
 */
#ifndef MODELS_COUNTER_H
#define MODELS_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

#include "vm.h"

int counter_init(struct vm *vm, char *err, unsigned errlen);
void counter_free(struct vm *vm);

/* Uncontended time of `insns` instructions of th: insns x insn_time (plus
 * tls_insn_overhead each for a thread-local counter).  Sets *overflow if
 * that is beyond SIM_TIME_MAX (about 106 days). */
sim_time counter_work(const struct rb_thread *th, uint64_t insns, bool *overflow);

/* Does th's current op run as a rated burst (an insns compute with the
 * shared counter)?  (Asked at every compute.) */
static inline bool counter_rated(const struct rb_thread *th)
{
    return th->op && th->op->kind == OP_COMPUTE && th->op->u.compute.has_insns &&
           th->vm->scn->runtime.insn_counter == COUNTER_SHARED;
}

/* Run `work` (ps of uncontended execution) of th's insns compute as a
 * rated burst, after paying th's pending scheduler cost; k as th_burst's,
 * seeing t->burst_left = the uncontended ps not done if cut. */
void counter_compute(struct rb_thread *th, sim_time work, mach_cont k);

/* Fill line_transfers (closing the books at vm->end_time). */
void counter_collect(struct vm *vm, struct run_metrics *m);

/* The models as pure functions (unit-tested): with k cores executing,
 * each uncontended picosecond of interpretation takes num/den ps
 * (reduced), and the line moves `counter_transfers_per_ps` times per ps. */
void counter_cost_ratio(enum scn_counter_model model, sim_time insn_time, sim_time line_transfer,
                        int store_batch, int k, uint64_t *num, uint64_t *den);
double counter_transfers_per_ps(enum scn_counter_model model, sim_time insn_time,
                                sim_time line_transfer, int store_batch, int k);

#endif
