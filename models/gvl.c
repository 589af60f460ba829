/* gvl.c - CRuby 3.3+ per-Ractor thread scheduler (thread_pthread.c) in
 * simulated time, and the GVL's entries for every policy.
 *
 * The decisions are core/sched.c's and core/policy.c's: `running` owns the
 * GVL, other ready threads wait in a FIFO ready queue.  Here they cost and
 * wait: each waiter sleeps on its own native thread's condition variable;
 * handing the GVL over (thread_sched_wakeup_next_thread) signals it, a
 * futex wake of a sleeping native thread, which then needs a CPU before it
 * can run (the HANDOFF window).  A thread that wants the GVL back while
 * someone else is `running` sleeps in thread_sched_wait_running_turn: one
 * voluntary context switch per wait that really sleeps.
 *
 * The hot-thread steal of PR 15840 is decided in core_sched_steal, as in
 * CRuby master's wait_running_turn; it only acts when the policy marked
 * sched->runnable_hot_th (hot_steal), so eager runs the pre-15840 path.
 */
#include "gvl.h"

#include <stddef.h>

#include "../common/err.h"
#include "../core/policy.h"
#include "../core/sched_inline.h"
#include "barrier.h"
#include "gvl_barging.h"
#include "gvl_helper.h"
#include "mn_pool.h"
#include "thread.h"
#include "timer.h"
#include "vm_lock.h"

static struct core_sched *gvl_sched(const struct rb_thread *th) { return core_sched_of(&th->core); }

/* Is it th's turn? */
static bool is_running(const struct rb_thread *th) { return gvl_sched(th)->running == &th->core; }

static void gvl_del_running_thread_by(struct rb_thread *th, struct gvl_actor by);

struct gvl_actor gvl_self(struct rb_thread *th)
{
    return (struct gvl_actor){ th->nt, &th->pending_cost, th };
}

/* ---- the hooks of core/sched.c -------------------------------------------- */

/* How many hand-offs ahead the ready queue's threads are fetched: their
 * hot lines at prefetch_ahead, their current frame (whose pointer those
 * lines bring in) at half that distance.  PREFETCH_AHEAD turns of its own
 * queue with one Ractor; with many, each queue turns once in about as many
 * hand-offs of the machine as there are Ractors, so its threads would be
 * fetched that many times earlier: the distance shrinks to keep about
 * PREFETCH_IN_FLIGHT threads fetched ahead over all the queues, and at
 * least PREFETCH_MIN turns.  Measured with 64 Ractors of 1,563 threads
 * (make bench's 100k-thread M:N figure, 12 interleaved pairs of runs on
 * the 2-vCPU Xeon guest): 2, 4 or 6 turns took 9-10% less CPU than 12, 8
 * turns 7%, 24 turns 12% more; one Ractor of 100k threads ran slower at 4
 * or 6 turns than at 12. */
#define PREFETCH_AHEAD 12
#define PREFETCH_IN_FLIGHT 256
#define PREFETCH_MIN 2

/* With thousands of threads taking the GVL in FIFO order, each is cold by
 * its turn: fetch the memory of those a few hand-offs down the ready queue
 * (its core part, interpreter and GVL fields; its native thread's hot
 * part, in vm->nts: vm.h), so that their misses overlap the hand-offs in between
 * instead of stalling their own (100k threads: 40% less CPU time;
 * docs/bench.md).  Queues shorter than that stay in the cache anyway.  No
 * effect on results.  Always inline: a function made only of prefetches
 * counts as free of side effects for GCC's interprocedural analysis, which
 * then deletes its calls. */
static inline __attribute__((always_inline)) void prefetch_ready(const struct core_sched *s)
{
    int ahead = rb_ractor_of_sched(s)->prefetch_ahead;
    if (s->readyq_cnt <= ahead) return;
    const struct core_thread *f = core_rq_at(s, ahead / 2);
    __builtin_prefetch(f->cur.stack + f->cur.sp - 1, 1);
    const struct rb_thread *th = rb_thread_of(core_rq_at(s, ahead));
    const char *p = (const char *)th;
    for (size_t off = 0; off < sizeof *th; off += 64) __builtin_prefetch(p + off, 1);
    /* its native thread's hot part (128 bytes, wherever they fall in
     * lines), if it is 1:1 (an M:N thread's entry is never touched) */
    const struct rb_ractor *r = rb_ractor_of_sched(s);
    if (!r->prefetch_nt) return;
    const char *n = (const char *)&r->vm->nts[th - r->vm->threads];  /* (not from th's id: not here yet) */
    __builtin_prefetch(n, 1);
    __builtin_prefetch(n + 64, 1);
    __builtin_prefetch(n + 127, 1);
}

static void gvl_hook_signal(struct core_sched *s, struct core_thread *th, struct core_thread *from, void *by)
{
    struct rb_thread *next = rb_thread_of(th);
    if (s->policy->barging && !mn_thread_p(next)) {
        /* the 2.x GVL's release: pthread_cond_signal of its waiter's
         * cond.gvlq (under gvl->lock); a no-op if the waiter is not on it
         * (woken already, taking gvl->lock back) */
        gvl32_signal(next, *(struct gvl_actor *)by);
        return;
    }
    if (from && mn_will_switch(rb_thread_of(from), next)) return;  /* M:N: `from` switches to next on its NT */
    gvl_signal(next, *(struct gvl_actor *)by);
}

static void gvl_hook_add_running(struct core_sched *s, struct core_thread *th)
{
    (void)s;
    gvl_add_running_thread(rb_thread_of(th));
}

static void gvl_hook_del_running(struct core_sched *s, struct core_thread *th, void *by)
{
    (void)s;
    gvl_del_running_thread_by(rb_thread_of(th), *(struct gvl_actor *)by);
}

static void gvl_hook_timeslice_add(struct core_sched *s, void *by)
{
    timer_timeslice_add(s, *(struct gvl_actor *)by);
}

static void gvl_hook_readyq_changed(struct core_sched *s)
{
    struct rb_ractor *r = rb_ractor_of_sched(s);
    struct vm *vm = r->vm;
    if (vm->obs.readyq) vm->obs.readyq(vm->obs.ctx, r->core.id, s->readyq_cnt, sim_now(vm->eng));
}

static void gvl_hook_waiters_appeared(struct core_sched *s, void *by)
{
    if (s->policy->defer == CORE_DEFER_HELPER)
        helper_waiters_appeared(rb_ractor_of_sched(s), *(struct gvl_actor *)by);
}

static const struct core_hooks gvl_hooks = {
    .signal = gvl_hook_signal,
    .add_running = gvl_hook_add_running,
    .del_running = gvl_hook_del_running,
    .timeslice_add = gvl_hook_timeslice_add,
    .readyq_changed = gvl_hook_readyq_changed,
    .waiters_appeared = gvl_hook_waiters_appeared,
};

/* ---- running_threads, signals -------------------------------------------------- */

void gvl_add_running_thread(struct rb_thread *th)
{
    struct core_sched *s = gvl_sched(th);
    /* thread_sched_setup_running_threads needs vm->ractor.sched.lock; while
     * a VM barrier holds it the add waits, in `gvl_acquired` (models/barrier.c) */
    if (barrier_defer_add_running(th)) return;
    th->pending_cost += th->vm->scn->machine.sched_lock_cs;
    s->is_running = true;
    barrier_added_running(th);
    if (s->readyq_cnt > 0 && !s->is_running_timeslice) timer_timeslice_add(s, gvl_self(th));
}

/* thread_sched_del_running_thread, its global-lock section paid by `by`
 * (th itself, or the timer or a helper taking th off the GVL).  `by` still
 * owes the CPU of what it did before (*by.cost), above all the futex wake
 * of thread_sched_wakeup_next_thread's signal, which CRuby makes before it
 * deletes th; th leaves the timeslice set once that is paid (timer.h). */
static void gvl_del_running_thread_by(struct rb_thread *th, struct gvl_actor by)
{
    struct core_sched *s = gvl_sched(th);
    *by.cost += th->vm->scn->machine.sched_lock_cs;
    s->is_running = false;
    barrier_deleted_running(th);
    if (s->is_running_timeslice)
        timer_timeslice_del(s, sim_now(th->vm->eng) +
                                   mach_owed_time(&th->vm->mach, by.nt ? by.nt->core : -1, *by.cost));
}

/* ---- a signal of a waiter not asleep yet -------------------------------------
 * A thread that must wait for its turn registers on its condvar and pays
 * its way into FUTEX_WAIT (turn_sleep: what it owes, then the sleep); a
 * hand-off in that window finds it not asleep.  glibc's
 * pthread_cond_signal makes its FUTEX_WAKE whenever a waiter is
 * registered, asleep or not ("TODO Only set it if there are indeed futex
 * waiters", nptl pthread_cond_signal.c), so the signaller still pays a
 * system call that wakes nobody (vm_futex_wake_race: through the hash
 * bucket of the waiter on its way in), and pays it holding
 * sched->lock_ (thread_sched_wakeup_running_thread asserts it is held, and
 * signals cond.readyq inside; thread_pthread.c of v3_3_11 and master).
 * The waiter's FUTEX_WAIT then returns at once (the word moved), and
 * rb_native_cond_wait must re-take sched->lock_ before
 * thread_sched_wait_running_turn sees its turn (__pthread_mutex_cond_lock
 * at the end of __pthread_cond_wait_common): while the signaller is still
 * in that section, it sleeps on the mutex (__lll_lock_wait: FUTEX_WAIT,
 * no spinning) until the unlock's FUTEX_WAKE - a voluntary switch on the
 * Ractor's sched lock rather than on the condvar, as perf shows of the
 * executor's 2-CPU mtime loop (docs/validate.md).  Modelled only when the
 * profile measured futex_wake_none (gvlsim calibrate); 0: the signal of a
 * waiter not asleep is free and its wait ends without the lock. */
static void signal_presleep(struct rb_thread *next, struct gvl_actor by)
{
    if (next->vm->scn->machine.futex_wake_none <= 0 || next->vm->policy->barging) return;
    next->turn_signalled = true;
    *by.cost += vm_futex_wake_race(next);
    /* the section lasts until the signaller has paid it (th_burst ->
     * gvl_section_end), unless a section holds the lock already or the
     * signaller is no Ruby thread (the timer's own sections: models/timer.c) */
    struct nlock *l = &rb_ractor_of(next)->sched_lock;
    if (!by.th || l->holder || by.th->mn) return;
    nlock_hold(l, by.th);
    by.th->holds_sched_lock = true;
}

int gvl_signal(struct rb_thread *next, struct gvl_actor by)
{
    if (!next) return 0;
    prefetch_ready(gvl_sched(next));  /* (every GVL hand-off passes here) */
    if (mn_thread_p(next)) return mn_signal(next, by);  /* M:N: queue its Ractor (mn_pool.c) */
    int woke = mach_wake(&next->vm->mach, next->nt, by.nt);
    if (!woke) {
        if (next->turn_presleep) signal_presleep(next, by);  /* (above) */
        return 0;
    }
    next->vm->wakeups++;
    *by.cost += vm_wake_cost(next->vm, woke);
    /* a thread woken onto its waker's own core can only run before the
     * waker's section is over by preempting it ("held through a thread's
     * own signal", below; the 2.x GVL's locks are gvl_barging.c's) */
    if (!next->vm->policy->barging) vm_hold_through_wake(&rb_ractor_of(next)->sched_lock, by, woke);
    return 1;
}

/* ---- sched->lock_ held through a third party's hand-off ---------------------
 * The model's sched->lock_ sections are instants but those that make a
 * wake: a thread's own hand-off (below), and this one.  Under delayed
 * the timer thread's tick (under threshold the helper) hands the GVL on for
 * a thread still in its blocking region, under that Ractor's sched lock,
 * and issues the successor's futex wake inside it
 * (thread_sched_wakeup_next_thread -> thread_sched_wakeup_running_thread,
 * which asserts the lock is held; the executor's timer_tick_locked and
 * helper_main do the same).  The wake costs the waker microseconds
 * (futex_wake, and wake_ipi across cores): time enough for the thread it
 * took the GVL from to come back from its short call and ask for the lock
 * (thread_sched_to_running -> thread_sched_lock), and for the woken
 * successor to need it to return from pthread_cond_wait.  glibc's default
 * mutex does not spin (lll_lock: FUTEX_WAIT after one failed CAS, nptl
 * lowlevellock.c __lll_lock_wait), so each sleeps on it, a voluntary
 * switch, until the unlock wakes one (FUTEX_WAKE of 1; that one wakes the
 * next when it unlocks).  Meanwhile neither has refilled the timeslice
 * set, which the timer looks at again right after its unlock. */

/* The unlock by `who`: FUTEX_WAKE of the first sleeper on the lock, if
 * any, paid by `by`. */
static void sched_lock_unlock(struct rb_ractor *r, const void *who, struct gvl_actor by)
{
    vm_unlock_paid(r->vm, &r->sched_lock, who, by.nt, by.cost);
}

/* A sleeper woken by the unlock takes the lock with the word at 2
 * (__lll_lock_wait swaps 2 in until it finds the lock free, nptl
 * lowlevellock.c), and its own unlock (lll_unlock: exchange with 0, and a
 * FUTEX_WAKE of 1 if the old value was above 1) makes a FUTEX_WAKE
 * whether anyone sleeps on the lock or not: the next sleeper if there is
 * one, else a system call that wakes nobody (futex_wake_none; the
 * executor's traces show one per sleep on the lock: scripts/futex_class.sh,
 * "wake, nobody").  Its section, an instant here, is over at once. */
static void sched_lock_woken(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct rb_ractor *r = rb_ractor_of(th);
    if (r->sched_lock.holder == NULL) {
        int woke = nlock_pass(&r->sched_lock, &r->vm->mach, th->nt);
        th->pending_cost += woke ? vm_nlock_wake_cost(r->vm, &r->sched_lock, woke) : th->vm->scn->machine.futex_wake_none;
    }
    rb_cold(th)->lock_retry(th, rb_cold(th)->lock_k);
}

/* The end of its FUTEX_WAIT's way in (below): an unlock (or a pass) that
 * came meanwhile took it off the lock's queue and its wait returns at
 * once - __lll_lock_wait swaps 2 in again, as after a sleep - else it
 * sleeps, in its place in the queue, until an unlock wakes it. */
static void sched_lock_way_in(struct mach_task *t, void *ctx)
{
    struct rb_thread *th = ctx;
    struct rb_ractor *r = rb_ractor_of(th);
    if (!rb_cold(th)->lock_wait.queued) {
        sched_lock_woken(t, th);
        return;
    }
    /* only the unlock wakes it (vml_asleep) */
    nlock_sleep(&r->sched_lock, &th->vm->mach, &rb_cold(th)->lock_wait, t, &th->vml_asleep, sched_lock_woken, th);
}

/* __lll_lock_wait: FUTEX_WAIT on the lock word.  On several cores the
 * waiter is registered (the word at 2) before its FUTEX_WAIT has gone in
 * (vm_futex_wait_window, the way in calibrate measures): an unlock in that
 * window finds the word at 2 and makes a FUTEX_WAKE that finds nobody,
 * and the wait returns at once, with no sleep (the executor's traced
 * two-CPU runs: most of the FUTEX_WAITs on its GVL's mutexes return at
 * once; docs/validate.md, "The lock's way in").  On one core the holder
 * cannot run meanwhile, and a profile without the window measured keeps
 * the sleep (vm_futex_wait_window). */
static void sched_lock_sleep(struct mach_task *t, void *ctx)
{
    struct rb_thread *th = ctx;
    struct rb_ractor *r = rb_ractor_of(th);
    if (!nlock_taken(&r->sched_lock, th)) {  /* let go while th paid its way here */
        rb_cold(th)->lock_retry(th, rb_cold(th)->lock_k);
        return;
    }
    nlock_enqueue(&r->sched_lock, &rb_cold(th)->lock_wait, t, th);
    sim_time in = vm_futex_wait_window(th);
    if (in > 0) {
        th->pending_cost += in;
        th_burst(th, 0, sched_lock_way_in);
        return;
    }
    sched_lock_way_in(t, th);  /* (no way in: asleep at once) */
}

/* thread_sched_lock while a hand-off holds the lock: sleep on it, then run
 * `retry` (the entry that wanted it) again.  False if the lock is free. */
static bool sched_lock_taken(struct rb_thread *th, void (*retry)(struct rb_thread *, th_cont), th_cont k)
{
    struct rb_ractor *r = rb_ractor_of(th);
    if (!nlock_taken(&r->sched_lock, th) || mn_thread_p(th)) return false;
    rb_cold(th)->lock_retry = retry;
    rb_cold(th)->lock_k = k;
    th_settle(th, sched_lock_sleep);
    return true;
}

void gvl_handoff_lock(struct rb_ractor *r)
{
    /* (a thread's section that still held it ends without an unlock) */
    nlock_hold(&r->sched_lock, r);
}

/* ---- sched->lock_ held through a thread's own signal ------------------------
 * Every GVL hand-off a thread makes signals its successor's condvar under
 * the Ractor's sched lock (thread_sched_wakeup_running_thread asserts it is
 * held; its caller thread_sched_wakeup_next_thread runs inside
 * thread_sched_lock .. thread_sched_unlock), and glibc's
 * pthread_cond_signal makes the FUTEX_WAKE itself.  On one CPU (and on a
 * packed guest, where the successor is woken onto the waker's CPU) the
 * kernel often runs the woken thread at once, preempting its waker inside
 * that section (os_scheduler; calibrate's wake_preempt).  Its
 * pthread_cond_wait must re-take the mutex before it returns
 * (__pthread_cond_wait_common ends with __pthread_mutex_cond_lock, nptl
 * pthread_cond_wait.c); the mutex is held, so it sleeps on it
 * (__lll_lock_wait: FUTEX_WAIT), the waker runs again, unlocks with the
 * word at 2 (FUTEX_WAKE: futex_wake more) and the sleeper, woken, may
 * preempt it once more: one voluntary switch of the woken thread and one
 * involuntary of its waker per such hand-off.  So a thread whose signal
 * woke a thread onto its own core holds the lock until the CPU it owes
 * (that wake) is paid (vm.h vm_hold_through_wake); a woken successor
 * that gets there first sleeps on it (sched_lock_taken, as behind the
 * timer's hand-offs above).  A wake
 * across cores needs no such rule: the woken thread arrives after
 * wake_idle_core or wake_busy_core, well after its waker paid its wake. */
void gvl_section_end(struct rb_thread *th)
{
    th->holds_sched_lock = false;
    if (th->intr_hold) gvl32_section_end(th);  /* (barging) a woken thread's interrupt_lock */
    sched_lock_unlock(rb_ractor_of(th), th, gvl_self(th));  /* (nothing if a tick took it over) */
    timer_section_end(th);  /* the global sched lock, if its write held it */
}

/* ---- the waiter's own section of sched->lock_ -------------------------------
 * thread_sched_to_running takes sched->lock_ and holds it through
 * thread_sched_to_ready_common (the READY hook, the ready queue) and
 * either through thread_sched_add_running_thread and the RESUMED hook,
 * when the GVL is free, or into rb_native_cond_wait, whose unlock comes
 * once the wait has registered the thread (__pthread_cond_wait_common,
 * nptl pthread_cond_wait.c; thread_pthread.c of v3_3_0,
 * thread_sched_to_running_common, thread_sched_wait_running_turn).  On
 * several cores the GVL's holder may let go meanwhile: it needs the lock
 * for that (thread_sched_to_waiting, thread_sched_yield, the others
 * below), finds it held and sleeps on it (sched_lock_taken), and the
 * waiter's unlock owes the FUTEX_WAKE (gvl_section_end) before its own
 * FUTEX_WAIT's way in - by when the holder's signal comes too late to
 * meet it there: the waiter sleeps for its turn, where a hand-off a
 * little later is made to a waiter on its way in (signal_presleep).  A
 * probe of the AMD EPYC guest (2026-12-07) had the waiter sleep after
 * 63-93% of the signals whose lock came 20-80 ns after its own (18% at
 * 120 ns), 1-3% when 140-480 ns after (docs/validate.md, "The waiter's
 * own section of the sched lock").  The section is the profile's cond_wait_section
 * (gvlsim calibrate measures it: how soon after the waiter's lock another
 * CPU's lock still finds the mutex held), drawn per section; without it
 * the section is an instant, as the others. */
/* An atomic of th on sched->lock_'s word (its CAS): lock_line when the
 * line moves (vml_line_rmw), as the 3.1 GVL's locks' (models/vm_lock.c);
 * where sections are timed only, and a waiter's inside its measured
 * section. */
static sim_time sched_line_rmw(struct rb_thread *th)
{
    return vml_line_rmw(th, &rb_ractor_of(th)->sched_line);
}

/* The lock of a thread about to let the GVL go (thread_sched_to_waiting,
 * thread_sched_yield, ...), where sections are timed: asleep on it while
 * a waiter's section holds it (true: `retry` runs once it is woken), else
 * its CAS's line paid. */
static bool release_locked(struct rb_thread *th, void (*retry)(struct rb_thread *, th_cont), th_cont k)
{
    if (!th->vm->sections_timed) return false;
    if (sched_lock_taken(th, retry, k)) return true;
    if (!th->mn) th->pending_cost += sched_line_rmw(th);
    return false;
}

/* th takes sched->lock_ for the section (gvl_to_running): held until the
 * CPU th owes then is paid (th_burst -> gvl_section_end), or until its
 * cond_wait's unlock (turn_sleep) */
static void to_running_section(struct rb_thread *th)
{
    struct nlock *l = &rb_ractor_of(th)->sched_lock;
    if (!th->vm->sections_timed || th->mn || l->holder) return;
    nlock_hold(l, th);
    th->holds_sched_lock = true;
    th->pending_cost += vm_futex_draw(th, &th->vm->scn->machine.cond_wait_section);
}

/* thread_sched_wakeup_next_thread by th itself */
static void gvl_wakeup_next(struct rb_thread *th)
{
    struct gvl_actor self = gvl_self(th);
    core_sched_wakeup_next_h(gvl_sched(th), &th->core, &self, &gvl_hooks);
}

void gvl_to_ready(struct rb_thread *th, bool wakeup, struct gvl_actor by)
{
    core_sched_to_ready_h(gvl_sched(th), &th->core, wakeup, &by, &gvl_hooks);
}

/* The turn is ours: rb_ractor_thread_switch and the RESUMED hook. */
void gvl_acquired(struct rb_thread *th, th_cont k)
{
    /* the add to running_threads waits for a VM barrier's sched lock */
    if (th->add_deferred) {
        barrier_switch_in(th, k, gvl_acquired);
        return;
    }
    core_sched_acquired_h(gvl_sched(th), &th->core);
    vm_set_state(th, TS_RUNNING);
    k(th);
}

/* ---- the unlock after a cond_wait -------------------------------------------
 * glibc's pthread_cond_wait takes the mutex back with the word at 2
 * (__pthread_cond_wait_common ends with __pthread_mutex_cond_lock, whose
 * LLL_MUTEX_LOCK is lll_cond_lock: a CAS 0 -> 2, nptl
 * pthread_mutex_cond_lock.c), since it cannot know whether other threads
 * wait on the mutex; so the next unlock (lll_unlock: FUTEX_WAKE when the
 * old word was above 1) makes a system call, whether anyone sleeps on the
 * lock or not.  On the AMD EPYC guest of 2026-12-07 strace shows
 * `futex(mutex, FUTEX_WAKE_PRIVATE, 1) = 0` after every woken wait, and a
 * one-CPU hand-off through condvars costs about a microsecond more than
 * one through raw futexes (scripts/cond_relock.c, docs/validate.md,
 * "The unlock after a condvar wait").  In thread_sched_wait_running_turn
 * the lock is sched->lock_, let go by thread_sched_unlock once the turn is
 * the thread's (thread_sched_to_running), or by the next cond_wait's own
 * unlock when it was woken for nothing.  A thread that slept on the lock
 * after its wait already pays that unlock's FUTEX_WAKE (sched_lock_woken:
 * the same word at 2). */
static bool cond_relock_owed(const struct rb_thread *th)
{
    return vm_cond_relock_owed(&th->vm->scn->machine) && !th->mn;  /* (M:N: no native cond_wait) */
}

static void turn_unlock_owed(struct rb_thread *th)
{
    if (!th->turn_relocked) return;
    th->turn_relocked = false;
    th->pending_cost += th->vm->scn->machine.futex_wake_none;
}

static void turn_wake(struct mach_task *t, void *ctx);

static void turn_sleep(struct rb_thread *th);

/* cond_wait returned at once holding sched->lock_ again (signal_presleep),
 * after sleeping on it if it had to */
static void turn_relock(struct rb_thread *th, th_cont k)
{
    (void)k;
    if (is_running(th)) {
        gvl_add_running_thread(th);
        gvl_acquired(th, th->gvl_k);
        return;
    }
    turn_sleep(th);
}

/* cond_wait(nt->cond.readyq, sched->lock_): the predicate is checked under
 * the lock and the wait starts atomically with it.  Here the CPU a thread
 * still owes (futex wakes, lock sections, its FUTEX_WAIT's entry) is paid
 * first and the predicate checked after, so a signal sent meanwhile is not
 * lost: that signal finds it registered but not asleep (signal_presleep). */
static void turn_sleep_now(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    th->turn_presleep = false;
    if (th->turn_signalled) {  /* signalled on its way here: re-take sched->lock_ */
        th->turn_signalled = false;
        if (sched_lock_taken(th, turn_relock, NULL)) return;
        /* re-taken at 2 (turn_unlock_owed); owed where the turn is its
         * own - else it waits again at once, an unlock this model leaves
         * out (owed CPU before th_block would hide the signal) */
        if (is_running(th) && cond_relock_owed(th)) th->pending_cost += th->vm->scn->machine.futex_wake_none;
    }
    if (is_running(th)) {
        gvl_add_running_thread(th);
        gvl_acquired(th, th->gvl_k);
        return;
    }
    th_block(th, turn_wake);
}

static void turn_sleep(struct rb_thread *th)
{
    if (mn_thread_p(th)) {  /* M:N: give the NT away instead (mn_pool.c) */
        mn_thread_wait(th);
        return;
    }
    /* its FUTEX_WAIT's way in (vm_futex_wait_entry), in which it is
     * registered on its condvar but not asleep; not on one core (perf of
     * the executor's one-CPU ping-pong: none of its futex waits returned at
     * once), where the wait is part of the chain hand-off, charged to this
     * thread when a chain wake brings it back (vm_chain_wait,
     * mach_params.wake_return) */
    if (th->holds_sched_lock && th->vm->sections_timed) {
        /* its section first, then the unlock (and the FUTEX_WAKE it owes
         * a thread asleep on the lock), then the way in */
        th->turn_presleep = true;
        th_burst(th, vm_futex_wait_entry(th), turn_sleep_now);
        return;
    }
    th->pending_cost += vm_futex_wait_entry(th);
    if (th->pending_cost > 0) {
        th->turn_presleep = true;  /* registered, not asleep: signal_presleep */
        th_burst(th, 0, turn_sleep_now);
    } else {
        turn_sleep_now(th->nt, th);
    }
}

/* M:N: a thread that gave its NT away has one again (mn_pool.c). */
void gvl_turn_resume(struct rb_thread *th)
{
    if (is_running(th)) {
        gvl_add_running_thread(th);
        gvl_acquired(th, th->gvl_k);
        return;
    }
    turn_sleep(th);
}

/* Is it our turn? (after the wake, holding sched->lock_) */
static void turn_check(struct rb_thread *th)
{
    turn_unlock_owed(th);
    if (is_running(th)) {
        gvl_add_running_thread(th);
        gvl_acquired(th, th->gvl_k);
        return;
    }
    /* Woken for nothing (the GVL was taken back meanwhile): sleep again. */
    rb_cold(th)->wasted_wakes++;
    th->vm->wasted_wakes++;
    turn_sleep(th);
}

/* ---- PR 15840: the successor yields sched->lock_ to a spinning hot thread.
 * The model's scheduler sections are instants, so a race between the hot
 * thread coming back (thread_sched_to_running) and its successor waking
 * (cond_wait returning) is decided by which event comes first.  The one
 * window the real code resolves at lock granularity is modelled as time:
 * cond_wait returns holding lock_, and while a hot thread is out in its
 * blocking region the successor holds it for mutex_uncontended before it
 * looks at `running`.  A hot thread back inside that window finds lock_
 * taken and spins (gvl_blocking_exit); the successor then sees
 * runnable_hot_th_waiting, drops and re-takes the lock, the hot thread
 * steals in between, and the successor finds running != self: a wasted
 * wake.  Only armed under hot_steal (runnable_hot_th is NULL otherwise). */

static void turn_relocked(struct mach_task *t, void *ctx)
{
    (void)t;
    turn_check(ctx);
}

static void turn_locked(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    rb_ractor_of(th)->lock_holder = NULL;
    if (core_sched_hot_spinning(gvl_sched(th))) {
        /* "Give the hot thread a chance to preempt, if it's actively
         * spinning": thread_sched_unlock + thread_sched_lock */
        th_burst(th, th->vm->scn->machine.mutex_uncontended, turn_relocked);
        return;
    }
    turn_check(th);
}

static void turn_wake_retry(struct rb_thread *th, th_cont k)
{
    (void)k;
    turn_wake(NULL, th);
}

/* Back from cond_wait(nt->cond.readyq), which re-takes sched->lock_ (t:
 * the wake; NULL: again, after a sleep on the lock, whose unlock was
 * paid then). */
static void turn_wake(struct mach_task *t, void *ctx)
{
    struct rb_thread *th = ctx;
    if (sched_lock_taken(th, turn_wake_retry, NULL)) return;
    th->turn_relocked = t != NULL && cond_relock_owed(th);
    struct rb_ractor *r = rb_ractor_of(th);
    struct core_thread *hot = core_sched_hot(gvl_sched(th));
    if (hot != NULL && hot != &th->core && r->lock_holder == NULL) {
        sim_time hold = th->vm->scn->machine.mutex_uncontended;
        r->lock_holder = th;
        r->lock_free_at = sim_now(th->vm->eng) + hold + th->pending_cost;
        th_burst(th, hold, turn_locked);
        return;
    }
    turn_check(th);
}

/* thread_sched_wait_running_turn: sleep until running == th, then k. */
static void gvl_wait_running_turn(struct rb_thread *th, th_cont k)
{
    struct core_sched *s = gvl_sched(th);
    if (!is_running(th)) {
        /* PR 15840's steal needs both on dedicated native threads (M:N
         * threads switch on their shared one instead) */
        const struct rb_thread *run = rb_thread_of(s->running);
        bool can_steal = !th->mn && (!run || !run->mn);
        if (!core_sched_steal_h(s, &th->core, can_steal)) {
            th->gvl_k = k;
            turn_sleep(th);
            return;
        }
        gvl_add_running_thread(th);
    }
    gvl_acquired(th, k);
}

/* thread_sched_to_ready_common after its READY hook: take the free GVL or
 * queue, then wait for the turn */
static void to_running_ready(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct gvl_actor self = gvl_self(th);
    core_sched_to_running_h(gvl_sched(th), &th->core, &self, &gvl_hooks);
    gvl_wait_running_turn(th, th->gvl_k);
}

/* thread_sched_to_running_common: ready, then wait for the turn.  3.3
 * fires READY in thread_sched_to_ready_common, under sched->lock_ and
 * before it looks at `running` (thread_pthread.c of v3_3_0): a
 * thread-event hook (runtime.event_hook) runs before the decision.  (The
 * model's sched->lock_ sections are instants - nobody waits for it but behind
 * a wake, sched_lock_taken - unless the profile measured cond_wait_section:
 * then this one is timed, "the waiter's own section" above.) */
static void to_running_locked(struct rb_thread *th, th_cont k);

static void to_running_paid(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    to_running_locked(th, th->gvl_k);
}

static void gvl_to_running(struct rb_thread *th, th_cont k)
{
    core_sched_hot_back_h(gvl_sched(th), &th->core);
    th->gvl_k = k;
    /* a timed section's lock comes after the CPU th owes from before (its
     * blocking region's end); its CAS brings the lock's line to th's core,
     * the transfer inside cond_wait_section (measured from the call) */
    if (th->vm->sections_timed && !th->mn) {
        (void)sched_line_rmw(th);
        if (th->pending_cost > 0) {
            th_burst(th, 0, to_running_paid);
            return;
        }
    }
    to_running_locked(th, k);
}

static void to_running_locked(struct rb_thread *th, th_cont k)
{
    (void)k;
    if (th->vm->sections_timed && sched_lock_taken(th, to_running_locked, NULL)) return;
    to_running_section(th);
    sim_time hook = vm_ready_hook(th->vm);
    if (hook > 0 && th->holds_sched_lock && th->vm->sections_timed) {
        th->pending_cost += hook;  /* (inside the section, which is paid as one) */
    } else if (hook > 0) {
        th_burst(th, hook, to_running_ready);
        return;
    }
    to_running_ready(th->nt, th);
}

/* ---- the entries ------------------------------------------------------------ */

static void blocking_enter_retry(struct rb_thread *th, th_cont k)
{
    gvl_blocking_enter(th, rb_cold(th)->enter_yield, k);
}

void gvl_blocking_enter(struct rb_thread *th, bool yield_immediately, th_cont k)
{
    /* thread_sched_to_waiting's lock */
    if (th->vm->sections_timed) rb_cold(th)->enter_yield = yield_immediately;
    if (release_locked(th, blocking_enter_retry, k)) return;
    struct gvl_actor self = gvl_self(th);
    switch (core_blocking_enter_h(gvl_sched(th), &th->core, yield_immediately, &self, &gvl_hooks)) {
    case CORE_ENTER_HANDED_ON: break;
    case CORE_ENTER_KEPT:
        if (th->vm->policy->defer == CORE_DEFER_HELPER) helper_region_began(th);
        break;
    case CORE_ENTER_RELEASE: gvl32_release(th, k); return;  /* a section of gvl->lock */
    }
    k(th);
}

static void hot_locked(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    gvl_to_running(th, th->gvl_k);
}

void gvl_blocking_exit(struct rb_thread *th, th_cont k)
{
    if (sched_lock_taken(th, gvl_blocking_exit, k)) return;
    struct rb_ractor *r = rb_ractor_of(th);
    switch (core_blocking_exit_h(&r->core.sched, &th->core)) {
    case CORE_EXIT_KEPT: gvl_acquired(th, k); return;
    case CORE_EXIT_ACQUIRE: gvl32_acquire(th, k); return;
    case CORE_EXIT_QUEUE: break;
    }
    /* thread_sched_to_running: PR 15840's hint, stored before the lock */
    core_sched_hot_back_h(&r->core.sched, &th->core);
    if (r->lock_holder != NULL && r->lock_holder != th) {
        /* a waking successor holds sched->lock_ (turn_wake): spin until it lets go */
        sim_time now = sim_now(th->vm->eng);
        sim_time spin = r->lock_free_at > now ? r->lock_free_at - now : 0;
        th->gvl_k = k;
        th_burst(th, spin, hot_locked);
        return;
    }
    gvl_to_running(th, k);
}

void gvl_park(struct rb_thread *th, th_cont k)
{
    if (th->vm->policy->barging) {
        gvl32_park(th, k);
        return;
    }
    /* thread_sched_to_waiting_until_wakeup */
    if (release_locked(th, gvl_park, k)) return;
    gvl_wakeup_next(th);
    gvl_wait_running_turn(th, k);
}

void gvl_ready(struct rb_thread *waker, struct rb_thread *th)
{
    /* ubf_waiting (a thread still `running` is not sleeping yet) */
    struct gvl_actor by = waker ? gvl_self(waker)
                                : (struct gvl_actor){ &th->vm->timer.nt, &th->vm->timer.pending_cost, NULL };
    if (th->vm->policy->barging) {
        gvl32_ready(waker, by, th);
        return;
    }
    /* 3.3: the waker fires the woken thread's READY (thread_sched_to_ready_common
     * called by ubf_waiting): it pays the hook */
    *by.cost += vm_ready_hook(th->vm);
    core_sched_ready_h(gvl_sched(th), &th->core, &by, &gvl_hooks);
}

void gvl_yield(struct rb_thread *th, th_cont k)
{
    if (th->vm->policy->barging) {
        gvl32_yield(th, k);
        return;
    }
    /* thread_sched_yield */
    if (release_locked(th, gvl_yield, k)) return;
    struct core_sched *s = gvl_sched(th);
    if (s->readyq_cnt == 0) { k(th); return; }
    vm_set_state(th, TS_WANTS_GVL);
    /* thread_sched_yield's READY (thread_sched_to_ready_common): the hook,
     * paid before the yielder sleeps */
    th->pending_cost += vm_ready_hook(th->vm);
    struct gvl_actor self = gvl_self(th);
    core_sched_yield(s, &th->core, &self);
    gvl_wait_running_turn(th, k);
}

void gvl_start(struct rb_thread *th, th_cont k)
{
    if (th->vm->policy->barging) gvl32_acquire(th, k);
    else gvl_to_running(th, k);
}

void gvl_dead(struct rb_thread *th, th_cont k)
{
    if (th->vm->policy->barging) {
        gvl32_release(th, k);
        return;
    }
    if (release_locked(th, gvl_dead, k)) return;
    gvl_wakeup_next(th);
    k(th);
}

int gvl_init(struct rb_ractor *r, char *err, unsigned errlen)
{
    const struct core_policy *p = r->vm->policy;
    int ahead = PREFETCH_IN_FLIGHT / r->vm->nractors;
    r->prefetch_ahead = ahead > PREFETCH_AHEAD ? PREFETCH_AHEAD : ahead < PREFETCH_MIN ? PREFETCH_MIN : ahead;
    if (core_sched_init(&r->core.sched, p, &gvl_hooks, r->core.nthreads) != GV_OK)
        return gv_fail(err, errlen, GV_ENOMEM, "out of memory for the ready queue of Ractor %s", r->core.name);
    if (p->barging) return gvl32_init(r, err, errlen);
    if (p->defer == CORE_DEFER_HELPER) return helper_init(r, err, errlen);
    return GV_OK;
}

void gvl_free(struct rb_ractor *r)
{
    const struct core_policy *p = r->vm->policy;
    if (p && p->barging) gvl32_free(r);
    else if (p && p->defer == CORE_DEFER_HELPER) helper_free(r);
    core_sched_free(&r->core.sched);
}

void gvl_collect(const struct rb_ractor *r, struct run_metrics *m)
{
    m->gvl_handoffs += r->core.sched.handoffs;
    m->sched_lock_waits += r->sched_lock.sleeps;
    if (r->vm->policy->barging) gvl32_collect(r, m);
    if (r->vm->policy->defer == CORE_DEFER_HELPER) helper_collect(r, m);
}
