/* vm.h - the simulated Ruby VM: Ractors, threads, their GVLs, queues and
 * the timer thread, built from a scenario and run on an engine + machine.
 *
 * Names follow CRuby (vm_core.h, thread_pthread.h) so that a model file
 * reads like the code it models: rb_thread ~ rb_thread_t, a Ractor's
 * core.sched ~ struct rb_thread_sched (the per-Ractor "GVL").  The parts
 * both backends share (identity, program cursor, scheduler) are core/'s
 * structs, embedded as `core`.
 */
#ifndef MODELS_VM_H
#define MODELS_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/core.h"
#include "../core/heap.h"
#include "../core/queue.h"
#include "../core/sync.h"
#include "../input/scenario.h"
#include "../common/metrics.h"
#include "../common/observer.h"
#include "../sim/engine.h"
#include "../sim/machine.h"
#include "../common/rng.h"
#include "nlock.h"

struct vm;
struct rb_thread;
struct rb_ractor;
struct core_policy;
struct mn_pool;
struct counter;
struct vm_sync;
struct vml_mutex;

/* A pthread condition variable (models/vm_lock.h has its operations). */
struct vml_cond {
    const char *name;
    struct rb_thread *head, *tail;            /* asleep in pthread_cond_wait, FIFO */
    int nwaiters;
    int line_core;                            /* the core that touched its line last, + 1 (0: none) */
};

/* A model continuation: what a thread does next, once it can. */
typedef void (*th_cont)(struct rb_thread *th);

/* Who executes a piece of scheduler code, and so pays its CPU: a Ruby
 * thread (`th`), the timer thread or a helper (`th` NULL).  `cost`
 * accumulates CPU time that the actor burns with its next burst (futex
 * wakes, lock sections). */
struct gvl_actor {
    const struct mach_task *nt;
    sim_time *cost;
    struct rb_thread *th;
};

/* A Ractor: its scheduler (the GVL, core/sched.h) is in core.sched. */
struct rb_ractor {
    struct core_ractor core;     /* id, name, threads, scheduler (core/core.h) */
    struct vm *vm;
    /* hot_steal: a successor back from cond_wait holds sched->lock_ until
     * lock_free_at while a hot thread is out (gvl.c turn_wake) */
    struct rb_thread *lock_holder;
    sim_time lock_free_at;
    /* sched->lock_ where a section holds it through a wake it made
     * (models/nlock.h): a thread's own hand-off (the holder is the
     * thread), or one the timer thread or the helper made for a thread
     * still in its blocking region (gvl_handoff_lock; the holder is the
     * Ractor); a thread that needs the lock meanwhile sleeps on it, FIFO */
    struct nlock sched_lock;
    int sched_line;              /* its word's line: the core that touched it last + 1 (0: none; gvl.c) */
    void *policy_data;           /* per-policy state (threshold, barging) */
    int prefetch_ahead;          /* GVL hand-offs prefetch this far down its ready queue (gvl.c) */
    bool prefetch_nt;            /* ... and the native threads of its 1:1 threads (some are) */
    int started, dead;           /* its threads started, ended (living = started - dead: a
                                    spawned or later-starting thread does not exist before) */
    uint64_t newobj_cache;       /* free slots of its newobj cache's page (models/gc.c) */
};

struct rb_thread {
    struct core_thread core;     /* id, name, Ractor, random stream, program cursor (core/core.h) */
    /* The fields every op and every GVL hand-off touch come first, next to
     * the core part, so that a thread's hot state spans few cache lines:
     * with many threads the hand-offs visit them in turn and each line is a
     * miss (docs/bench.md).  The frame stack lives outside (core_cursor). */
    struct vm *vm;
    struct mach_task *nt;        /* the native thread it runs on now */
    const struct scn_op *op;     /* op in progress (for reports) */
    sim_time compute_left;       /* rest of a compute cut by an interrupt */
    /* CPU charged to the next burst (futex wakes, lock sections) */
    sim_time pending_cost;
    th_cont gvl_k;               /* continuation once the GVL is ours */
    /* a kernel sleep requested while pending_cost is still being paid */
    mach_cont block_k;
    sim_time block_timeout;      /* < 0: until woken */
    sim_time region_dur;         /* the blocking region (or sleep) being entered lasts this long */
    /* accounting: since when it is in state ts (its times and syscalls
     * are summed into vm->state_time and vm->syscalls as they pass: the
     * CSV has only the sums) */
    sim_time ts_since;
    /* ops run without time passing (hang guard: never above
     * TH_ZERO_TIME_LIMIT + 1, models/thread.c) */
    uint32_t zero_time_ops;
    enum thread_state ts : 8;    /* (a byte: below) */
    uint8_t interrupts;          /* CORE_INT_* bits pending (core/core.h: the largest 0x20) */
    bool in_compute;             /* in a compute burst (cuttable at safe points) */
    bool dead;
    bool blocking;               /* inside a blocking region */
    /* thread_sched_add_running_thread waits for the sched lock (barrier.h;
     * the one part of the VM-lock protocol read at every GVL hand-off) */
    bool add_deferred;
    /* asleep in a native mutex or condvar wait (models/vm_lock.c): only
     * that mutex's or condvar's wakes end it (read by every kernel wake) */
    bool vml_asleep;
    /* it holds its Ractor's sched->lock_ (or the global sched lock)
     * through a wake it made onto its own core, or (barging) the
     * interrupt_lock of a thread it woke from a native sleep: it lets go
     * once pending_cost is paid (th_burst; models/gvl.c gvl_section_end) */
    bool holds_sched_lock;
    bool redo_op;                /* re-run th->op (a pop retried after a wake) */
    /* registered on its condvar in thread_sched_wait_running_turn but not
     * asleep yet (paying its way there, models/gvl.c turn_sleep); and
     * signalled meanwhile (its cond_wait returns at once, re-taking
     * sched->lock_) */
    bool turn_presleep;
    bool turn_signalled;
    /* Single bits, in one byte (with ts a byte, 8 bytes less a thread:
     * the struct's size is a multiple of 8): the flags that few ops
     * touch, each set only to a constant (an or or an and, one
     * instruction like a byte's store) or once (mn).  (The hot flags
     * above as bits measured 0.2% more instructions per event.) */
    bool sys_alloc : 1;          /* a syscall op's call is done, its objects not yet allocated */
    bool mn : 1;                 /* runs M:N (mn_thread_p; set once by vm_init) */
    /* it wrote the timer thread's eventfd: it pays pending_cost (the
     * write) before its next op (models/timer.c) */
    bool wrote_timer : 1;
    /* in native_cond_sleep with a timeout (models/sync.c; its other state
     * is in the cold part): read by every wake of a sync op's waiter */
    bool timed_waiting : 1;
    /* its cond_wait in thread_sched_wait_running_turn returned holding
     * sched->lock_ re-taken by glibc with the word at 2, not after a sleep
     * on it: its next unlock owes a FUTEX_WAKE (models/gvl.c turn_check) */
    bool turn_relocked : 1;
    /* barging: it holds the interrupt_lock of a thread it woke from a
     * native sleep, until pending_cost is paid (holds_sched_lock is set
     * too; the thread is rb_cold's intr_held; models/gvl_barging.c) */
    bool intr_hold : 1;

    /* th_burst's burst after the sched lock section it pays first (not in
     * the cold part: in a run of many threads one in a dozen does that) */
    sim_time section_d;
    mach_cont section_k;
};

/* A thread's cold part: what only some ops and policies use (the sync
 * ops' waits, the GC, barging's native sleep, a sleep on the sched lock).
 * It lives in its own array, vm->cold, indexed like vm->threads: memory
 * of its own pages (common/bigmem.h), so that a run whose threads never
 * use it never touches it, and the threads' hot parts lie closer (with
 * 100k threads every page first touched costs a fault and every line a
 * miss: docs/bench.md).  Their part in the VM lock and barrier protocol is
 * vm->sync->threads[core.id] (models/vm_lock.h). */
struct rb_thread_cold {
    uint64_t wasted_wakes;       /* woken for a GVL taken back meanwhile (read by tests) */
    th_cont park_k;              /* barging: once a native sleep has the GVL again */
    th_cont release_k;           /* barging: once a release's gvl->lock section is over */
    bool park_yield;             /* barging: the native sleep's THREAD_BLOCKING_YIELD yields */
    bool park_ppoll;             /* barging: the native sleep is ppoll on an eventfd */
    /* barging: the id of the thread whose th->interrupt_lock it holds
     * through the wake it made there (gvl32_ready; while intr_hold) */
    int intr_held;
    struct vml_cond gvlq;        /* barging: its native thread's cond.gvlq */
    th_cont sleep_k;             /* after a Kernel#sleep (a sleep op, a generator's wait) */
    /* asleep on its Ractor's sched->lock_, held by a hand-off (gvl.c):
     * the entry to run again, and its continuation, once woken */
    struct nlock_waiter lock_wait;
    void (*lock_retry)(struct rb_thread *th, th_cont k);
    th_cont lock_k;
    bool enter_yield;            /* ... gvl_blocking_enter's yield_immediately */
    /* a timed wait (models/sync.c) */
    bool wait_woken;             /* a timed wait (rb_thread's timed_waiting) ended by a wake-up or its timeout */
    sim_event_id wait_timeout_ev;
    sim_time wait_deadline;      /* Queue#pop(timeout:): when the timeout passes */
    /* the alloc op in progress (models/gc.c) */
    const unsigned char *os_lines;  /* the rb_objspace lines its accesses touch (vm's os_*_lines) */
    int os_count, os_next;          /* ... how many, the next to make */
    bool alloc_paid;             /* its alloc op's own CPU is spent (gc.c gc_alloc) */
    uint64_t alloc_left;
    double alloc_survive;
    sim_time gc_cost;
    bool gc_barrier;             /* the step heap_prepare runs takes the barrier */
};

/* The timer thread (thread_pthread.c timer_thread_func). */
struct rb_timer {
    struct mach_task nt;
    int timeslice_cnt;           /* scheds in the timeslice set */
    sim_time leave_until;        /* a deleted thread is in the set until then (timer.h) */
    bool sleeping_forever;       /* timeslice_wait_inf: an enqueue must wake it */
    bool tick_due;               /* woken by its 10 ms timeout, not by a write */
    sim_event_id timeout_ev;
    sim_time pending_cost;
    uint64_t ticks;
    uint64_t wakes;              /* eventfd wake-ups (from the infinite wait) */
    uint64_t timed_waits;        /* checks that found the set non-empty */
    /* vm->ractor.sched.lock as its wake-up meets it: a thread whose
     * eventfd write woke it onto its own core holds it until the write is
     * paid (timer.c); the timer sleeps on it meanwhile */
    struct nlock sched_lock;
    struct nlock_waiter lock_wait;
};

struct vm {
    const struct scenario *scn;
    struct sim_engine *eng;
    struct machine mach;
    const struct core_policy *policy;  /* the GVL policy (core/policy.h) */
    /* the Ractors' sched->lock_ sections of a thread going for the GVL
     * are timed (several cores, a 3.2+ policy, machine.cond_wait_section
     * measured: models/gvl.c, "the waiter's own section"); set once by
     * vm_init, read at every GVL entry */
    bool sections_timed;

    struct rb_ractor *ractors;
    int nractors;
    struct rb_thread *threads;
    struct rb_thread_cold *cold; /* their cold parts, indexed alike (rb_cold) */
    /* their dedicated native threads (1:1), indexed alike (rb_own_nt),
     * after them in their mapping: an M:N thread has none, and its entry
     * is never touched */
    struct mach_task *nts;
    int nthreads;
    struct core_queue *queues;   /* Thread::Queue (core/queue.h) */
    int nqueues;
    struct core_mutex *mutexes;  /* Thread::Mutex (core/sync.h) */
    int nmutexes;
    struct core_condvar *condvars;
    int ncondvars;
    struct core_heap heap;       /* the objects and the GC (core/heap.h) */
    /* rb_objspace's shared cache lines (models/gc.c objspace_access): the
     * core that accessed each last (-1: none yet), and the moves so far */
    int objspace_owner[CORE_OBJSPACE_LINES];
    /* the lines of an object's and of an env_escape's accesses, each once
     * (core_objspace_lines: the model makes a sequence's accesses at one
     * instant, so only a line's first access can move it) */
    unsigned char os_object_lines[CORE_OBJSPACE_LINES], os_escape_lines[CORE_OBJSPACE_LINES];
    int os_object_nlines, os_escape_nlines;
    sim_time objspace_ready[CORE_OBJSPACE_LINES];  /* when the owner has it */
    uint64_t objspace_transfers;
    uint64_t lock_line_moves;  /* native locks' and condvars' lines moved (machine.lock_line, vm_lock.c) */
    /* the process's CPU over the GC's clock windows (models/gc.c gc_clock_*) */
    sim_sum gc_clock_from, gc_clock_cpu;
    /* malloc'd bodies each core allocated since the last GC start, and as
     * that start found them (what its sweep frees; models/gc.c
     * sweep_remote_frees, over the heap's sweep_total) */
    uint64_t *bodies_now;
    uint64_t *bodies_garbage;
    int nmeasures;               /* named measures: each thread's core.cur.samples */
    struct rb_timer timer;
    struct mn_pool *mn;          /* M:N shared native threads (mn_pool.c) */
    struct counter *counter;     /* the instruction counter (counter.c) */

    int alive;                   /* threads started (or to start at a given time), not dead */
    int started;                 /* threads started */
    uint64_t spawned;            /* by spawn ops */
    uint64_t timeouts;           /* timed waits that timed out */
    uint64_t ready_hooks;        /* READY thread-event hooks run (vm_ready_hook) */
    struct core_thread *sigwait; /* barging: the thread sleeping on the signal self-pipe */
    struct core_thread *joiners; /* threads waiting in OP_JOIN (via wait_next) */
    bool finished;               /* every thread ended */
    bool stopped;                /* stop.time reached */
    sim_time end_time;

    /* counters for the CSV (GVL hand-offs: core_sched.handoffs) */
    sim_sum state_time[TS_COUNT];  /* the threads' times in each state, summed */
    uint64_t syscalls;
    uint64_t wakeups;
    uint64_t wasted_wakes;

    /* VM lock and barrier (models/vm_lock.c, models/barrier.c) */
    struct vm_sync *sync;        /* vm->ractor.sync + the barrier part of vm->ractor.sched */
    int running_cnt;             /* vm->ractor.sched.running_cnt: scheds with is_running */
    uint64_t barriers;           /* barriers completed */
    uint64_t vmlock_acquires;    /* outermost VM lock enters in multi-Ractor mode */
    uint64_t vmlock_waits;       /* of which slept on the VM mutex */

    struct run_observer obs;     /* traces (common/observer.h) */
    int status;                  /* GV_OK or the first error */
    char error[1024];
};

/* th's cold part (struct rb_thread_cold). */
static inline struct rb_thread_cold *rb_cold(const struct rb_thread *th)
{
    return &th->vm->cold[th->core.id];
}

/* th's dedicated native thread: th->nt, always, for a 1:1 thread (one
 * with th->mn false); an M:N thread runs on a shared one (mn_pool.c). */
static inline struct mach_task *rb_own_nt(const struct rb_thread *th)
{
    return &th->vm->nts[th->core.id];
}

/* The simulator's thread / Ractor that embeds a core one. */
static inline struct rb_thread *rb_thread_of(const struct core_thread *c)
{
    return c ? core_container_of(c, struct rb_thread, core) : NULL;
}
static inline struct rb_ractor *rb_ractor_of(const struct rb_thread *th)
{
    return core_container_of(th->core.ractor, struct rb_ractor, core);
}
/* rb_ractor_living_thread_num: r's threads started and not ended */
static inline int rb_ractor_living(const struct rb_ractor *r)
{
    return r->started - r->dead;
}

static inline struct rb_ractor *rb_ractor_of_sched(const struct core_sched *s)
{
    return core_container_of(s, struct rb_ractor, core.sched);
}
/* The machine profile th's costs come from. */
static inline const struct scn_machine *rb_machine_of(const struct rb_thread *th)
{
    return &th->vm->scn->machine;
}

/* Build the VM for a scenario on an engine.  Returns GV_OK or an error code
 * with a message in err. */
int vm_init(struct vm *vm, const struct scenario *scn, struct sim_engine *eng,
            char *err, unsigned errlen);
/* Run to completion (or stop.time / max_time).  GV_ERUN with a report of
 * who waits on what if the scenario deadlocks or hits max_time. */
int vm_run(struct vm *vm, sim_time max_time, char *err, unsigned errlen);
/* Fill the metrics of a finished run (out->ractor_ops is allocated: free
 * it with run_metrics_free).  GV_OK or GV_ENOMEM. */
int vm_collect(struct vm *vm, struct run_metrics *out);
void vm_free(struct vm *vm);

/* Record that th's state changes at time t (summed into the CSV columns;
 * t is the end time when the books are closed, which may lie after the
 * last event).  Inline, as the next two: several times per event. */
static inline void vm_set_state_at(struct rb_thread *th, enum thread_state to, sim_time now)
{
    struct vm *vm = th->vm;
    enum thread_state from = th->ts;
    if (from < TS_COUNT) vm->state_time[from] += now - th->ts_since;
    th->ts = to;
    th->ts_since = now;
    if (vm->obs.thread_state && from != to) vm->obs.thread_state(vm->obs.ctx, th->core.id, from, to, now);
}

/* ... now. */
static inline void vm_set_state(struct rb_thread *th, enum thread_state to)
{
    vm_set_state_at(th, to, sim_now(th->vm->eng));
}

/* A native task of the VM that is no Ruby thread (the timer thread, the
 * threshold helper) pays the CPU it owes (*owed: the futex wakes and lock
 * sections it issued), then k(t, ctx): a burst, or k at once if it owes
 * nothing.  (A Ruby thread pays through th_burst.) */
static inline void vm_pay(struct vm *vm, struct mach_task *t, sim_time *owed, mach_cont k, void *ctx)
{
    sim_time c = *owed;
    *owed = 0;
    if (c > 0) mach_burst(&vm->mach, t, c, k, ctx);
    else k(t, ctx);
}

/* How late a timed futex / condvar wait ends after its deadline: glibc's
 * pthread_cond_timedwait sleeps in FUTEX_WAIT_BITSET, whose hrtimer Linux
 * arms over [deadline, deadline + current->timer_slack_ns] and fires at
 * the range's end when nothing else expires there (kernel/futex/waitwake.c
 * futex_wait -> futex_setup_timer); machine.timer_slack, measured by
 * `gvlsim calibrate`, Linux's 50 us by default.  CRuby's native_cond_sleep,
 * its 3.1 GVL timer's native_cond_timedwait and the threshold helper wait
 * so, and so does the executor for each of them. */
static inline sim_time vm_timed_wait_slack(const struct vm *vm)
{
    return vm->scn->machine.timer_slack;
}

/* getpid(2) on this machine (syscalls.getpid, measured by gvlsim
 * calibrate; 0 when the profile lacks it).  Ruby 3.1's ubf_timer_disarm
 * (thread_pthread.c of v3_1_2) compares timer_posix.owner with getpid()
 * every time it runs - each time a GVL waiter becomes the designated timer
 * (do_gvl_timer) and at the top of every native_sleep (rb_sigwait_fd_get) -
 * and glibc >= 2.25 does not cache the pid: a real system call, which costs
 * 0.18 us on one host and 0.96 us on another (docs/validate.md). */
static inline sim_time vm_getpid_cost(const struct vm *vm)
{
    sim_time c = vm->scn->machine.syscall_cost[CALL_GETPID];
    return c == SCN_DUR_UNSET ? 0 : c;
}

/* A FUTEX_WAIT's way in: the system call's entry and the futex hash bucket
 * before the kernel has compared the word and queued the thread, during
 * which the thread is registered but not asleep, and a signal or an
 * unlock from another CPU makes its wait return at once.  The profile's
 * futex_wait_window when it has one (gvlsim calibrate measures it: a
 * store that many ns after the call still stops the sleep), one of its
 * equally likely values drawn from th's stream per wait; without it the
 * path a FUTEX_WAKE that finds nobody takes (futex_wake_none; 0 when the
 * profile lacks that too).  Charged on several cores only: on one core
 * nothing can run to signal a thread on its way in, and that CPU is
 * inside the one-CPU hand-off calibrate measures (futex_wake_chain).  The
 * GVL's turn waits (gvl.c turn_sleep) and the native locks' and
 * condvars' waits (vm_lock.c sync_sleep) pay it (vm_futex_wait_entry,
 * below). */
/* One of d's (n > 0) equally likely values, drawn from th's stream (out
 * of line: the two callers below are inlined into every wait). */
sim_time vm_futex_draw(struct rb_thread *th, const struct scn_durs *d);

/* The way in, measured only (0 without futex_wait_window): a native
 * lock's wait (gvl.c, sched->lock_) whose unlock in that window finds
 * nobody to wake.  A profile without the window measured (written before
 * calibrate measured it, or by hand) keeps the lock's waiter asleep as
 * before the way in was modelled there: a way in of futex_wake_none would
 * be as long as the wake it races (futex_wake_race's own fallback), and
 * the waiter could never lose. */
static inline sim_time vm_futex_wait_window(struct rb_thread *th)
{
    const struct scn_machine *m = &th->vm->scn->machine;
    if (m->cores <= 1 || m->futex_wait_window.n == 0) return 0;
    return vm_futex_draw(th, &m->futex_wait_window);
}

/* The way in above: the measured window, else futex_wake_none. */
static inline sim_time vm_futex_wait_entry(struct rb_thread *th)
{
    const struct scn_machine *m = &th->vm->scn->machine;
    if (m->cores > 1 && m->futex_wait_window.n == 0) return m->futex_wake_none;
    return vm_futex_wait_window(th);
}

/* What the waker pays for a FUTEX_WAKE that meets `waiter` on its way in
 * (registered, not asleep: the wake finds nobody): the profile's
 * futex_wake_race, drawn from the waiter's stream, when it has one - such
 * a wake goes through the hash bucket the waiter holds or has just left,
 * and measured 280-400 ns at the median where one alone took 240 ns
 * (docs/validate.md, "The race on the GVL's native lock"); else
 * futex_wake_none.  The waiter's wait then returns at once, and what it
 * does next (re-lock the mutex) races the rest of its waker's section. */
static inline sim_time vm_futex_wake_race(struct rb_thread *waiter)
{
    const struct scn_machine *m = &waiter->vm->scn->machine;
    return m->futex_wake_race.n > 0 ? vm_futex_draw(waiter, &m->futex_wake_race) : m->futex_wake_none;
}

/* The sleeper's share of a one-core futex hand-off (futex_wake_chain,
 * calibrate's handoff_same_cpu_ns less context_switch, holds one
 * FUTEX_WAKE and one FUTEX_WAIT): what is left after the waker's system
 * call, which costs what a FUTEX_WAKE of nobody costs (futex_wake_none:
 * the same entry, hash bucket and exit; the wake itself only queues the
 * sleeper).  The machine charges it to the sleeper as it is switched
 * back in (mach_params.wake_return); 0 (the waker pays the whole
 * hand-off, as before) when the profile lacks either key. */
static inline sim_time vm_chain_wait(const struct scn_machine *m)
{
    if (m->futex_wake_chain <= 0 || m->futex_wake_none <= 0 || m->futex_wake_none >= m->futex_wake_chain) return 0;
    return m->futex_wake_chain - m->futex_wake_none;
}

/* Whether the profile charges work after an idle core (models/thread.c,
 * compute_after_idle): the machine then marks such arrivals. */
static inline bool vm_after_idle_charged(const struct scn_machine *m)
{
    if (m->compute_after_idle > 0) return true;
    for (int c = 0; c < CALL_COUNT; c++)
        if (m->method_after_idle_cost[c] > 0) return true;
    return false;
}

/* The waker's CPU cost of a futex wake that mach_wake answered with `woke`
 * (called right after it): futex_wake, plus wake_ipi when another core had
 * to be interrupted, and wake_ipi_extra when that core had idled long
 * (mach_wake_ipi_extra); futex_wake_chain (if the profile has it) in a
 * hand-off chain on the waker's core; the drawn wake_waking (if the
 * profile has it) onto a core still waking up for another wake, and
 * futex_wake alone onto an idle core whose vCPU had not halted yet
 * (wake_prehalt_*): both mach_wake_waking_cost. */
static inline sim_time vm_wake_cost(const struct vm *vm, int woke)
{
    const struct scn_machine *m = &vm->scn->machine;
    if (woke == MACH_WAKE_CHAIN && m->futex_wake_chain > 0) return m->futex_wake_chain - vm_chain_wait(m);
    if (woke != MACH_WAKE_REMOTE) return m->futex_wake;
    sim_time waking = mach_wake_waking_cost(&vm->mach);
    return waking >= 0 ? waking : m->futex_wake + m->wake_ipi + mach_wake_ipi_extra(&vm->mach);
}
/* The waker's CPU for the wake an nlock's unlock or pass made (`woke`,
 * not MACH_WAKE_NONE): one that met its waiter on the way into its
 * FUTEX_WAIT (NLOCK_WAKE_RACE; only gvl.c's sched->lock_ registers its
 * waiters so, and they are Ruby threads) found nobody, on its way through
 * the bucket the waiter is in (vm_futex_wake_race), else vm_wake_cost. */
static inline sim_time vm_nlock_wake_cost(const struct vm *vm, const struct nlock *l, int woke)
{
    if (woke == NLOCK_WAKE_RACE) return vm_futex_wake_race(l->raced);
    return vm_wake_cost(vm, woke);
}

/* A thread that holds a native lock l through a futex wake it made
 * (`woke`) keeps it until that wake's CPU is paid, when the wakee landed
 * on its own core: such a wakee can only run before the section ends by
 * preempting its waker, and then sleeps on l (models/gvl.c, "sched->lock_
 * held through a thread's own signal"; models/timer.c, the global sched
 * lock through the eventfd write).  Not if l is held already, nor for an
 * M:N thread (mn_thread_p).  th_burst lets go (gvl_section_end). */
static inline void vm_hold_through_wake(struct nlock *l, struct gvl_actor by, int woke)
{
    if (!by.th || woke == MACH_WAKE_REMOTE || *by.cost <= 0 || l->holder || by.th->mn) return;
    nlock_hold(l, by.th);
    by.th->holds_sched_lock = true;
}

/* Whether the unlock after a pthread_cond_wait owes a FUTEX_WAKE: glibc's
 * wait takes the mutex back with the futex word at 2 (lll_cond_lock), after
 * a signal or a timeout alike, so that its next unlock makes the system
 * call whether anyone sleeps on the lock or not (models/gvl.c, "the unlock
 * after a cond_wait"); charged as futex_wake_none when the profile has it. */
static inline bool vm_cond_relock_owed(const struct scn_machine *m)
{
    return m->mutex_impl == MUTEX_GLIBC && m->futex_wake_none > 0;
}

/* `who` unlocks l (nlock_unlock: nothing if it does not hold it); the
 * FUTEX_WAKE of the first sleeper, if one was woken, is added to *cost,
 * the CPU its waker `by` owes.  Returns whether it woke one. */
static inline bool vm_unlock_paid(struct vm *vm, struct nlock *l, const void *who,
                                  const struct mach_task *by, sim_time *cost)
{
    int woke;
    if (!nlock_unlock(l, who, &vm->mach, by, &woke) || !woke) return false;
    *cost += vm_nlock_wake_cost(vm, l, woke);
    return true;
}

/* The CPU of the next READY thread-event hook: runtime.event_hook (0: no
 * hook), and in every event_hook_flush_every-th hook of the process also
 * event_hook_flush, the write of the tracer's output buffer that this
 * hook's output overflowed (scenarios/README.md, "The tracer's hook"). */
static inline sim_time vm_ready_hook(struct vm *vm)
{
    const struct scn_runtime *rt = &vm->scn->runtime;
    if (rt->event_hook <= 0) return 0;
    vm->ready_hooks++;
    bool flush = rt->event_hook_flush_every > 0 && vm->ready_hooks % (uint64_t)rt->event_hook_flush_every == 0;
    return rt->event_hook + (flush ? rt->event_hook_flush : 0);
}
/* A point event on th's track of a trace ("barrier_start", "mutex_wait", ...). */
void vm_instant(struct rb_thread *th, const char *name);
/* Stop the run with an error (a model found an impossible situation). */
void vm_fail(struct vm *vm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
