/* gvl.h - the per-Ractor thread scheduler of CRuby 3.3+ (thread_pthread.c):
 * `running`, the FIFO ready queue, and the hand-off protocol between them.
 *
 * The eager, hot_steal, delayed and threshold policies are built on these
 * functions; each is named after the CRuby function it models.  (barging,
 * the 2.6-3.2 GVL, has its own acquire/release in gvl_barging.c and only
 * shares the queue helpers and gvl_acquired.)
 */
#ifndef MODELS_GVL_H
#define MODELS_GVL_H

#include <stdbool.h>

#include "vm.h"

/* The actor for code a Ruby thread runs itself. */
struct gvl_actor gvl_self(struct rb_thread *th);

/* thread_sched_enq / _deq: the FIFO ready queue.  `by` pays for waking the
 * timer thread when the queue stops being empty. */
void gvl_enq(struct rb_sched *s, struct rb_thread *th, struct gvl_actor by);
void gvl_enq_head(struct rb_sched *s, struct rb_thread *th);
struct rb_thread *gvl_deq(struct rb_sched *s);
void gvl_readyq_remove(struct rb_sched *s, struct rb_thread *th);

/* thread_sched_set_running */
void gvl_set_running(struct rb_sched *s, struct rb_thread *th);

/* thread_sched_add_running_thread / _del_: vm running_threads and the
 * timeslice set, under the global sched lock (charged to `th`). */
void gvl_add_running_thread(struct rb_thread *th);
void gvl_del_running_thread(struct rb_thread *th);
/* ... with the global-lock section paid by another actor (a helper, the
 * timer thread) that takes th off the GVL on its behalf. */
void gvl_del_running_thread_by(struct rb_thread *th, struct gvl_actor by);

/* thread_sched_wakeup_running_thread: signal next's native thread.  The
 * actor pays futex_wake if the target really slept.  Returns 1 if a
 * sleeping thread was woken. */
int gvl_signal(struct rb_thread *next, struct gvl_actor by);

/* thread_sched_wakeup_next_thread: th hands the GVL to the head of the
 * ready queue (or to nobody) and leaves running_threads. */
void gvl_wakeup_next(struct rb_thread *th);
/* ... done by another actor on th's behalf (the delayed policy's timer
 * tick, the threshold policy's helper), which pays the futex wake. */
void gvl_wakeup_next_by(struct rb_thread *th, struct gvl_actor by);

/* thread_sched_to_ready_common: th becomes ready; if nobody runs it takes
 * the GVL at once (and is signalled if `wakeup`). */
void gvl_to_ready(struct rb_thread *th, bool wakeup, struct gvl_actor by);

/* The turn is ours (rb_ractor_thread_switch, the RESUMED hook): reset
 * running_time if another thread ran meanwhile, clear the PR 15840 hint,
 * state running, then k. */
void gvl_acquired(struct rb_thread *th, th_cont k);

/* thread_sched_wait_running_turn: sleep until running == th, then k. */
void gvl_wait_running_turn(struct rb_thread *th, th_cont k);

/* An M:N thread is back on a native thread (mn_pool.c): if it is
 * `running`, it takes the GVL and continues with th->gvl_k. */
void gvl_turn_resume(struct rb_thread *th);

/* thread_sched_to_running_common: ready, then wait for the turn. */
void gvl_to_running(struct rb_thread *th, th_cont k);

/* The 3.3 entries of a policy table (used as-is by eager). */
void gvl33_blocking_enter(struct rb_thread *th, bool yield_immediately);
void gvl33_blocking_exit(struct rb_thread *th, th_cont k);
void gvl33_park(struct rb_thread *th, th_cont k);
void gvl33_ready(struct rb_thread *waker, struct rb_thread *th);
void gvl33_yield(struct rb_thread *th, th_cont k);
void gvl33_start(struct rb_thread *th, th_cont k);
void gvl33_dead(struct rb_thread *th);

#endif
