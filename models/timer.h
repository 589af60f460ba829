/* timer.h - the timer thread (thread_pthread.c timer_thread_func).
 *
 * It sleeps in epoll with an infinite timeout until some running thread
 * has waiters (the timeslice set is non-empty); then it ticks every
 * runtime.timer_tick (10 ms), setting TIMER_INTERRUPT on every thread of
 * the set, and calls the policy's tick hook.  It is a native thread of its
 * own: each tick is a wake-up that needs a core (timer_tick_cost). */
#ifndef MODELS_TIMER_H
#define MODELS_TIMER_H

#include "../core/policy.h"
#include "vm.h"

void timer_init(struct vm *vm);
void timer_start(struct vm *vm);
/* The running thread of `s` joins the timeslice set; the first join wakes
 * the timer from its infinite wait (paid by `by`: timer_wakeup_write).
 * (Inline, the write out of line: every GVL acquisition with waiters
 * joins.) */
/* Is the set empty (a deleted thread counts until its leave_until)? */
static inline bool timer_timeslice_empty(const struct rb_timer *tm, sim_time now)
{
    return tm->timeslice_cnt == 0 && now >= tm->leave_until;
}
void timer_wakeup_write(struct vm *vm, struct gvl_actor by);
static inline void timer_timeslice_add(struct core_sched *s, struct gvl_actor by)
{
    struct vm *vm = rb_ractor_of_sched(s)->vm;
    struct rb_timer *tm = &vm->timer;
    if (!vm->policy->uses_timer_thread) return;  /* barging: the first waiter times the quantum */
    s->is_running_timeslice = true;
    bool was_empty = timer_timeslice_empty(tm, sim_now(vm->eng));
    tm->timeslice_cnt++;
    if (was_empty && tm->sleeping_forever) timer_wakeup_write(vm, by);
}
/* th, whose eventfd write woke the timer onto th's own core, has paid the
 * write: it lets vm->ractor.sched.lock go, waking the timer if it slept
 * on it (models/gvl.c gvl_section_end). */
static inline void timer_section_end(struct rb_thread *th)
{
    /* glibc's unlock with the word at 2 (the timer asleep on it): FUTEX_WAKE
     * (inline: every section end asks, and mostly th does not hold it) */
    vm_unlock_paid(th->vm, &th->vm->timer.sched_lock, th, th->nt, &th->pending_cost);
}
/* ... and leaves it at `at` (>= now): when its deleter has paid the system
 * calls it made before the delete, which the model charges after the
 * decision.  Until then the set counts as non-empty, for the timer's check
 * and for a join's write. */
static inline void timer_timeslice_del(struct core_sched *s, sim_time at)
{
    struct rb_timer *tm = &rb_ractor_of_sched(s)->vm->timer;
    s->is_running_timeslice = false;
    tm->timeslice_cnt--;
    if (at > tm->leave_until) tm->leave_until = at;
}

#endif
