/* cursor.h - stepping through a thread's program: loops (times,
 * times_total, forever), "measure" iterations, and the durations of ops
 * drawn from the thread's own random stream.  Both backends run the ops;
 * the cursor says which op comes next. */
#ifndef CORE_CURSOR_H
#define CORE_CURSOR_H

#include "core.h"

/* Start at the first op of `prog`. */
void core_cursor_init(struct core_cursor *c, const struct scn_prog *prog);

enum core_next {
    CORE_NEXT_OP,         /* *op is the next op */
    CORE_NEXT_ITERATION,  /* a loop body starts its next iteration (a backward
                           * branch, where CRuby checks interrupts); call again */
    CORE_NEXT_END         /* the program is over */
};
enum core_next core_cursor_next(struct core_thread *th, const struct scn_op **op);

/* Enter a loop op: its body runs next, scn_loop_times(op) times for this
 * instance (nothing for 0 iterations).  false if the frame stack is full:
 * deeper than the loader lets a scenario nest. */
bool core_cursor_enter(struct core_thread *th, const struct scn_op *op);

/* A duration drawn from th's own random stream. */
sim_time core_draw(struct core_thread *th, const struct scn_dist *d);

/* The duration of a compute ("dur"), syscall or sleep op, drawn from th's
 * stream.  CPU work (compute, a syscall that is not an io_wait) is
 * multiplied by work_scale, machine.work_scale: durations are measured on
 * the scenario's reference machine. */
sim_time core_op_dur(struct core_thread *th, const struct scn_op *op, double work_scale);

#endif
