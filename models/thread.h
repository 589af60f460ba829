/* thread.h - a simulated Ruby thread running its scenario program.
 *
 * th_step is the interpreter loop: called whenever the thread holds the GVL
 * and its native thread is on a core, it handles pending interrupts, then
 * runs ops until one takes time (a CPU burst, a sleep in the kernel, a wait
 * for the GVL), and returns.  The ops that need the GVL protocol call the
 * entries of models/gvl.h.
 */
#ifndef MODELS_THREAD_H
#define MODELS_THREAD_H

#include "vm.h"

/* thread creation: the native thread starts and asks for the GVL. */
void th_start(struct rb_thread *th);

/* Continue the program (the thread holds the GVL and is on a core). */
void th_step(struct rb_thread *th);
/* ... re-running the op in progress (a wait ended: a pop, a lock retried). */
void th_retry(struct rb_thread *th);
/* An op's drawn duration d is within the time range; if not, the run fails
 * with a message (false). */
bool th_dur_in_range(struct rb_thread *th, const struct scn_op *op, sim_time d);

/* Use the CPU for d plus any pending scheduler cost, then k. */
void th_burst(struct rb_thread *th, sim_time d, mach_cont k);
/* Pay the CPU th owes (a wake it sent, a system call's), then k - at once
 * when it owes none. */
static inline void th_settle(struct rb_thread *th, mach_cont k)
{
    if (th->pending_cost > 0) th_burst(th, 0, k);
    else k(th->nt, th);
}
/* Pay pending cost, then sleep in the kernel (a voluntary context switch)
 * until woken; k runs back on a core. */
void th_block(struct rb_thread *th, mach_cont k);
/* Same, but the kernel wakes the thread itself after `timeout`. */
void th_block_timeout(struct rb_thread *th, sim_time timeout, mach_cont k);

/* Set interrupt bits (RUBY_VM_SET_*_INTERRUPT); a compute burst in
 * progress is cut at its next safe point. */
void th_interrupt(struct rb_thread *th, unsigned bits);
/* Same, with the time to the next safe point given (models/barrier.c). */
void th_interrupt_at(struct rb_thread *th, unsigned bits, sim_time safepoint_in);

/* Human description of what th waits for (deadlock reports). */
void th_describe_wait(const struct rb_thread *th, char *buf, unsigned len);

#endif
