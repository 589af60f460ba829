/* mn_pool.h - M:N threads: Ruby threads of non-main Ractors run as
 * coroutines on a pool of shared native threads (SNTs), CRuby 3.3+
 * (thread_pthread_mn.c, thread_pthread.c; introduced in be1bbd5b7d).
 *
 * An M:N thread has no native thread of its own: th->nt is the SNT it runs
 * on, or NULL.  A Ractor whose `running` thread has no NT waits in the
 * global run queue (grq) for an SNT; there is no preemption between
 * Ractors.  gvl.c and thread.c call the hooks below where CRuby's code
 * branches on th_has_dedicated_nt().  mn_pool.c explains the model and
 * what it leaves out.
 */
#ifndef MODELS_MN_POOL_H
#define MODELS_MN_POOL_H

#include <stdbool.h>

#include "../core/policy.h"
#include "vm.h"

/* Does th run M:N?  Threads of non-main Ractors always; with runtime.mn_main
 * (RUBY_MN_THREADS=1) the main Ractor's threads too, except the main thread,
 * which keeps the process's own native thread (Init_native_thread).  Never
 * under the 2.x GVL (`barging`, CRuby before 3.3): M:N came with the 3.3
 * scheduler (be1bbd5b7d), and before it every Ruby thread of every Ractor
 * had a native thread of its own. */
static inline bool mn_thread_rule(const struct rb_thread *th)
{
    if (th->vm->policy->barging) return false;
    return th->core.ractor->id != 0 || (th->vm->scn->runtime.mn_main && th->core.id != 0);
}

/* ... as decided once, by vm_init (asked on every GVL hand-off). */
static inline bool mn_thread_p(const struct rb_thread *th)
{
    return th->mn;
}

int mn_init(struct vm *vm, char *err, unsigned errlen);
void mn_free(struct vm *vm);
/* A thread that will run: counted in its Ractor's threads (and, if it
 * has a dedicated native thread, in the native threads used).  mn_init
 * counts the threads that start by themselves; a spawn op counts its own. */
void mn_thread_created(struct rb_thread *th);

/* native_thread_create_shared: th becomes ready (its Ractor queued if th is
 * its first thread), an SNT is created if the pool is short; k runs once
 * an SNT has switched to th and th holds its Ractor's GVL. */
void mn_thread_start(struct rb_thread *th, th_cont k);

/* thread_sched_wakeup_running_thread for an M:N `next` that was made
 * `running`: if it has no NT, queue its Ractor in the grq and signal an
 * idle SNT (paid by `by`).  Returns 1 if a sleeping SNT was woken. */
int mn_signal(struct rb_thread *next, struct gvl_actor by);

/* thread_sched_wakeup_next_thread's will_switch: th (M:N, on an unpinned
 * SNT) is about to switch directly to `next` on the same NT, so `next`'s
 * Ractor must not be queued. */
bool mn_snt_will_switch(const struct rb_thread *th, const struct rb_thread *next);
static inline bool mn_will_switch(const struct rb_thread *th, const struct rb_thread *next)
{
    return mn_thread_p(th) && mn_snt_will_switch(th, next);
}

/* thread_sched_wait_running_turn of an M:N thread: th gives its NT away,
 * to the next thread of its Ractor (thread_sched_switch) or back to the
 * nt_start loop; it continues through gvl_turn_resume when an SNT picks it
 * up again. */
void mn_thread_wait(struct rb_thread *th);

/* The end of co_start: th is dead; its NT switches to the next thread of
 * the Ractor or goes back to the nt_start loop. */
void mn_thread_exit(struct rb_thread *th);

/* native_thread_dedicated_inc / _dec around a blocking region: the SNT is
 * pinned to th (snt_cnt--, dnt_cnt++) until the region ends. */
void mn_snt_pin(struct rb_thread *th);
void mn_snt_unpin(struct rb_thread *th);
static inline void mn_blocking_begin(struct rb_thread *th)
{
    if (mn_thread_p(th)) mn_snt_pin(th);
}
static inline void mn_blocking_end(struct rb_thread *th)
{
    if (mn_thread_p(th)) mn_snt_unpin(th);
}

/* The timer thread's timeout branch (timer_thread_polling): lazy grq deq,
 * then native_thread_check_and_create_shared. */
void mn_timer_tick(struct vm *vm);

/* Ractors waiting in the grq (the timer keeps ticking while > 0; inline:
 * asked at every sleep of the timer, M:N or not). */
int mn_pool_grq_cnt(const struct mn_pool *p);
static inline int mn_grq_cnt(const struct vm *vm)
{
    return vm->mn ? mn_pool_grq_cnt(vm->mn) : 0;
}

/* Fill native_threads and add the SNTs' context switches. */
void mn_collect(struct vm *vm, struct run_metrics *m);

#endif
