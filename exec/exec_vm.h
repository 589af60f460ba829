/* exec_vm.h - the executor's VM: Ractors, threads, their GVLs, queues, the
 * VM lock and barrier state, as real pthread objects.
 *
 * Names follow CRuby (vm_core.h, thread_pthread.h) as the simulator's
 * models/vm.h does: a Ractor's core.sched ~ struct rb_thread_sched (the
 * per-Ractor GVL, core/sched.h) guarded by its exec_sched's lock,
 * exec_thread ~ rb_thread_t with its dedicated native thread.  The parts
 * both backends share are core/'s structs, embedded as `core`.
 *
 * Locks, in the order they may be nested (never the other way round):
 *   queue->lock  ->  vm->life_lock
 *   queue->lock, vm->rsync_lock  ->  sched->lock (a timed waiter's wake)
 *   vm->rsync_lock  ->  vm->life_lock
 *   sched->lock  ->  vm->sched_lock (ractor.sched.lock)
 *   (the timer thread lets go of vm->sched_lock before it takes a sched->lock)
 *   vm->sched_lock -> vm->vmlock.lock (only the barrier initiator, step 5)
 * A thread never holds a sched lock while taking the VM lock, nor the VM
 * lock while taking the global sched lock (vm_sync.c joins unlock first).
 */
#ifndef EXEC_EXEC_VM_H
#define EXEC_EXEC_VM_H

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "../core/core.h"
#include "../core/heap.h"
#include "../core/queue.h"
#include "../core/sync.h"
#include "../input/scenario.h"
#include "../common/metrics.h"
#include "../common/rng.h"
#include "exec.h"
#include "exec_clock.h"
#include "exec_syscall.h"
#include "exec_tlog.h"

struct exec_vm;
struct exec_thread;
struct exec_ractor;

/* Counts kept by whoever executes scheduler code: a Ruby thread, the timer
 * thread, a threshold helper.  Each actor writes only its own. */
struct exec_actor_counts {
    uint64_t wakeups;        /* condvar signals to a thread that was waiting on it */
};

/* The real side of a Ractor's scheduler: its lock, and the policies'
 * helpers.  The scheduler's state (`running`, the ready queue, ...) is the
 * Ractor's core.sched (core/sched.h), read and written under `lock`. */
struct exec_sched {
    pthread_mutex_t lock;                  /* sched->lock_ */

    /* delayed / threshold: when the region that kept the GVL (core.sched.deferred) began */
    int64_t blocked_since_ns;

    /* threshold: the helper thread that hands the GVL on after the threshold */
    pthread_t helper;
    bool helper_started;
    bool helper_stop;                      /* under lock */
    bool helper_idle;                      /* waiting without a timeout: enq must signal it */
    pthread_cond_t helper_cond;
    struct exec_actor_counts helper_counts;
    struct rusage helper_ru;

    /* barging (2.6-3.2 rb_global_vm_lock_t; its state is core.sched.barging) */
    struct timespec timer_abs;             /* the designated timer's deadline */
    pthread_cond_t switch_cond, switch_wait_cond;

    /* check: threads executing with this GVL right now (must stay <= 1) */
    atomic_int holders;
};

struct exec_ractor {
    struct core_ractor core;               /* id, name, threads, scheduler (core/core.h) */
    struct exec_vm *vm;
    struct exec_sched sched;
    /* free slots of its newobj cache's page (exec_gc.c): its threads take
     * from it at safe points, a GC start empties it while they are stopped
     * (relaxed atomics: the barrier orders them; a Ractor in a blocking
     * region is not stopped by it but does not allocate either) */
    _Atomic uint64_t newobj_cache;
    _Atomic uint64_t bodies_pending;  /* malloc'd bodies allocated, not yet in the heap's count (exec_gc.c) */
};

/* Per-thread counters; written by the thread itself only, summed after join. */
struct exec_thread_counts {
    uint64_t syscalls, wasted_wakes, barriers, barrier_joins;
    uint64_t vmlock_acquires, vmlock_waits, insns;
    uint64_t timeouts, spawned;
};

struct exec_thread {
    struct core_thread core;               /* id, name, Ractor, random stream, program cursor */
    struct exec_vm *vm;
    pthread_t pt;
    bool created;

    /* GVL (under ractor->sched.lock) */
    pthread_cond_t cond;                   /* nt->cond.readyq */
    bool cond_waiting;                     /* sleeping on cond now */
    bool signalled;                        /* barging: a release signalled it */
    bool park_pending;                     /* made ready before it parked */
    bool park_woken;                       /* barging: woken from a park */
    bool park_ppolling;                    /* barging: parked in ppoll on park_efd now */
    bool park_efd_open;                    /* park_efd is an eventfd (opened at its first ppoll park) */
    int park_efd;                          /* barging: its eventfd (signal_self_pipe / ub_main) */
    int64_t ready_at_ns;                   /* when a waker made it ready */
    atomic_uint interrupts;                /* CORE_INT_* (core/core.h) */

    /* running_threads (under vm->sched_lock) */
    bool in_running_threads;
    /* parked on a queue or in join: core.wait_next, parked_queue, joining
     * (under queue->lock / vm->life_lock) */

    double compute_carry;                  /* fraction of an iteration owed */

    /* a timed wait (exec_sync.c), under the sched lock: native_cond_sleep */
    bool timed_waiting;                    /* set before it is on a wait list */
    bool wait_woken;                       /* a waker's ubf ended it */
    /* start: "spawned" instances wait for a spawn op (under life_lock) */
    bool spawn_go;
    /* the alloc op in progress (exec_gc.c) */
    uint64_t alloc_left;

    /* accounting (the thread itself) */
    enum thread_state ts;
    int64_t ts_since_ns;
    int64_t ts_ns[TS_COUNT];
    struct exec_tlog_cursor tlog;          /* its state changes, for --trace (vm->tlog) */
    struct exec_thread_counts c;
    struct exec_actor_counts ac;
    struct rusage ru_start, ru_end;
    struct exec_syscall_ctx sys;           /* its files for syscall ops */

    /* published for the watchdog / deadlock report (read by the controller) */
    atomic_int pub_state;                  /* enum thread_state, TS_COUNT = not started / dead */
    _Atomic(const struct scn_op *) pub_op;
};

/* Thread::Queue: core/queue.h's decisions under a mutex. */
struct exec_queue {
    struct core_queue core;
    pthread_mutex_t lock;
};

/* The garbage collector's heap (core/heap.h) and its counts. */
struct exec_gc {
    pthread_mutex_t lock;                  /* the heap's bookkeeping only (not last_start: core_gc_gap) */
    struct core_heap heap;
    _Atomic long long clock_ns;            /* the process's CPU over the GC's clock windows */
};

/* The VM lock (vm->ractor.sync): a mutex recursive per Ractor. */
struct exec_vmlock {
    pthread_mutex_t lock;
    _Atomic(struct exec_ractor *) owner;   /* read unlocked for the recursion check, as vm_locked() */
    unsigned rec;
};

/* One cache line for the shared instruction counter (bug #20489). */
struct exec_shared_counter {
    _Alignas(64) uint64_t value;
    char pad[64 - sizeof(uint64_t)];
};

/* One cache line of rb_objspace's allocation counters (exec_gc.c). */
struct exec_objspace_line {
    _Alignas(64) _Atomic uint64_t value;
    char pad[64 - sizeof(uint64_t)];
};

struct core_policy;

struct exec_vm {
    const struct scenario *scn;
    const struct core_policy *policy;      /* the GVL policy (core/policy.h) */
    const char *stat_path;
    char stat_real[PATH_MAX];                  /* the scenario file's absolute path (stat_path) */
    struct exec_calibration calib;

    struct exec_ractor *ractors;
    int nractors, nractors_built;          /* built: sync objects initialised (exec_run.c) */
    struct exec_thread *threads;
    int nthreads, nthreads_built;
    struct exec_queue *queues;
    int nqueues;
    /* Thread::Mutex and ConditionVariable (core/sync.h) under rsync_lock:
     * CRuby protects them with the GVL, but here timed waiters and the
     * controller touch them without it */
    pthread_mutex_t rsync_lock;
    struct core_mutex *mutexes;
    int nmutexes;
    struct core_condvar *condvars;
    int ncondvars;
    struct exec_gc gc;
    int nmeasures;                         /* named measures: each thread's core.cur.samples */
    bool multi_ractor;                     /* rb_multi_ractor_p() */

    /* vm->ractor.sched (global): running_threads, timeslice set, barrier */
    pthread_mutex_t sched_lock;
    int running_cnt;
    int timeslice_cnt;
    struct core_thread *sigwait;           /* barging: the sleeper on the signal self-pipe */
    bool idle_efd_open;
    int idle_efd;                          /* barging: ppoll's second fd, never written */
    bool barrier_waiting;
    int barrier_waiting_cnt;
    unsigned barrier_serial;
    struct exec_ractor *barrier_ractor;
    unsigned barrier_lock_rec;
    pthread_cond_t barrier_complete_cond, barrier_release_cond;

    /* the timer thread (3.3 policies) */
    pthread_t timer;
    bool timer_started;
    bool timer_sleeping_forever;           /* under sched_lock */
    bool timer_stop;                       /* under sched_lock */
    pthread_cond_t timer_cond;             /* waited on with sched_lock */
    uint64_t timer_ticks;
    uint64_t timer_wakes;                  /* signalled in its wait without a timeout */
    uint64_t timer_timed_waits;            /* found the timeslice set non-empty: a timed wait */
    struct exec_actor_counts timer_counts;
    struct rusage timer_ru;

    struct exec_vmlock vmlock;
    int niseqs;
    atomic_uchar *iseq_recorded;           /* lockless: jit_ep_escape_recorded, read without lock */
    unsigned char *iseq_seen;              /* lock_barrier: the set YJIT keeps, under the VM lock */

    struct exec_shared_counter *shared_counter;
    struct exec_objspace_line *objspace_line;  /* [0]: malloc_params, flags, total_allocated_objects;
                                                  [1]: rgengc.oldmalloc_increase */

    /* life cycle (under life_lock) */
    pthread_mutex_t life_lock;
    pthread_cond_t life_cond;              /* controller and start gate */
    bool gate_open;
    int alive;                             /* started or to start at a given time, not ended */
    _Atomic int living;                    /* started, not ended: the threads a GC start marks */
    int started;
    int parked_cnt;                        /* parked on a queue, mutex, condvar or join, not yet made ready */
    struct core_thread *joiners;           /* in join (via wait_next) */
    bool failed;                           /* an op failed (a ThreadError): fail_msg */
    char fail_msg[512];
    bool all_done;
    bool deadlock;
    int64_t t_start_ns, t_end_ns;

    atomic_bool aborting;                  /* watchdog / deadlock: every wait bails out */
    atomic_bool stopping;                  /* stop.time reached */
    atomic_ullong gvl_violations;          /* a thread acquired a GVL another thread held */
    /* CRuby 3.1's two process-wide words its designated GVL timer does a
     * locked read-modify-write on (exec_gvl_barging.c do_gvl_timer_locked):
     * timer_posix.state_ (RTIMER_DISARM) and sigchld_hit */
    atomic_uint timer_state, sigchld_hit;
    struct exec_actor_counts controller_counts;
    struct exec_tlog tlog;                 /* --trace: the threads' state changes (mem NULL: none) */
};

/* The executor's thread / Ractor that embeds a core one. */
static inline struct exec_thread *exec_thread_of(const struct core_thread *c)
{
    return c ? core_container_of(c, struct exec_thread, core) : NULL;
}
static inline struct exec_ractor *exec_ractor_of(const struct exec_thread *th)
{
    return core_container_of(th->core.ractor, struct exec_ractor, core);
}
static inline struct exec_ractor *exec_ractor_of_sched(const struct core_sched *s)
{
    return core_container_of(s, struct exec_ractor, core.sched);
}

/* ---- a thread's state --------------------------------------------------- */

/* The thread records its own state change at time t (monotonic ns; an
 * earlier t, e.g. a waker's timestamp, ends the previous state there). */
static inline void exec_state_set_at(struct exec_thread *th, enum thread_state to, int64_t t_ns)
{
    if (th->ts < TS_COUNT && t_ns > th->ts_since_ns) th->ts_ns[th->ts] += t_ns - th->ts_since_ns;
    if (t_ns > th->ts_since_ns || th->ts == TS_COUNT) th->ts_since_ns = t_ns;
    th->ts = to;
    atomic_store_explicit(&th->pub_state, (int)to, memory_order_relaxed);
    /* --trace: the change at the time the accounting took (never before
     * the thread's previous one), and the CPU the thread is on as it makes
     * it (glibc reads it from the thread's rseq area: a load) */
    if (th->vm->tlog.mem)
        exec_tlog_add(&th->vm->tlog, &th->tlog, (uint32_t)(th - th->vm->threads), (int)to, th->ts_since_ns,
                      sched_getcpu());
}

/* ... now. */
static inline void exec_state_set(struct exec_thread *th, enum thread_state to)
{
    exec_state_set_at(th, to, exec_now_ns());
}

/* The run's clock in scenario picoseconds (0 at the start gate). */
static inline sim_time exec_run_ps(const struct exec_vm *vm)
{
    return (sim_time)(exec_now_ns() - vm->t_start_ns) * 1000;
}

#endif
