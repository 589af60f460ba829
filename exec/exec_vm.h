/* exec_vm.h - the executor's VM: Ractors, threads, their GVLs, queues, the
 * VM lock and barrier state, as real pthread objects.
 *
 * Names follow CRuby (vm_core.h, thread_pthread.h) as the simulator's
 * models/vm.h does: exec_sched ~ struct rb_thread_sched (the per-Ractor
 * GVL), exec_thread ~ rb_thread_t with its dedicated native thread.
 *
 * Locks, in the order they may be nested (never the other way round):
 *   queue->lock  ->  vm->life_lock
 *   sched->lock  ->  vm->sched_lock (ractor.sched.lock)  ->  vm->timer_lock
 *   vm->sched_lock -> vm->vmlock.lock (only the barrier initiator, step 5)
 * A thread never holds a sched lock while taking the VM lock, nor the VM
 * lock while taking the global sched lock (vm_sync.c joins unlock first).
 */
#ifndef EXEC_EXEC_VM_H
#define EXEC_EXEC_VM_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

#include "../input/scenario.h"
#include "../common/metrics.h"
#include "../common/rng.h"
#include "exec.h"
#include "exec_syscall.h"

struct exec_vm;
struct exec_thread;
struct exec_ractor;

/* ec->interrupt_flag bits (vm_core.h) plus the executor's stop request. */
enum {
    EXEC_INT_TIMER = 0x01,       /* TIMER_INTERRUPT_MASK: a timer tick (or the 3.2 timer waiter) */
    EXEC_INT_TERMINATE = 0x10,   /* TERMINATE_INTERRUPT_MASK: stop.time reached, end at the next safe point */
    EXEC_INT_VM_BARRIER = 0x20   /* VM_BARRIER_INTERRUPT_MASK: join the barrier at the next safe point */
};

/* Counts kept by whoever executes scheduler code: a Ruby thread, the timer
 * thread, a threshold helper.  Each actor writes only its own. */
struct exec_actor_counts {
    uint64_t wakeups;        /* condvar signals to a thread that was waiting on it */
    uint64_t gvl_handoffs;   /* GVL passed to another thread */
};

/* Per-Ractor thread scheduler: the GVL (struct rb_thread_sched). */
struct exec_sched {
    struct exec_ractor *ractor;
    pthread_mutex_t lock;                  /* sched->lock_ */
    struct exec_thread *running;           /* owner of the GVL, or NULL */
    struct exec_thread *rq_head, *rq_tail; /* FIFO readyq (3.2: the GVL waitq) */
    int readyq_cnt;
    bool is_running;                       /* running is in vm running_threads */
    bool is_running_timeslice;             /* ... and in the timeslice set */

    /* hot_steal (PR 15840): read without the lock as in CRuby, hence atomics */
    _Atomic(struct exec_thread *) runnable_hot_th;
    atomic_int runnable_hot_th_waiting;

    /* delayed / threshold: `running` is inside a blocking region and kept the GVL */
    bool owner_blocked;
    int64_t blocked_since_ns;

    /* threshold: the helper thread that hands the GVL on after the threshold */
    pthread_t helper;
    bool helper_started;
    bool helper_stop;                      /* under lock */
    bool helper_idle;                      /* waiting without a timeout: enq must signal it */
    pthread_cond_t helper_cond;
    struct exec_actor_counts helper_counts;
    struct rusage helper_ru;

    /* barging (2.6-3.2 rb_global_vm_lock_t): designated timer waiter, gvl_yield */
    struct exec_thread *timer_th;
    bool timer_timedout;                   /* timer_err == ETIMEDOUT: arm a new 100 ms deadline */
    struct timespec timer_abs;
    bool need_yield, wait_yield;
    pthread_cond_t switch_cond, switch_wait_cond;
    uint64_t barging_timer_fires;          /* TIMER interrupts set by the designated waiter */

    /* check: threads executing with this GVL right now (must stay <= 1) */
    atomic_int holders;
};

struct exec_ractor {
    struct exec_vm *vm;
    int id;
    char *name;
    struct exec_sched sched;
    struct exec_thread *last_ran;          /* resets running_time on switch-in */
    int nthreads;
};

struct exec_frame {
    const struct scn_prog *prog;
    int pc;
    uint64_t left;                         /* iterations left after the current one */
    bool forever;
    bool measure;
};

#define EXEC_MAX_DEPTH 34

/* Per-thread counters; written by the thread itself only, summed after join. */
struct exec_thread_counts {
    uint64_t syscalls, ops, wasted_wakes, barriers, barrier_joins;
    uint64_t vmlock_acquires, vmlock_waits, insns;
};

struct exec_thread {
    int id;
    char *name;
    struct exec_vm *vm;
    struct exec_ractor *ractor;
    int instance, ninstances;              /* among instances of its template (times_total) */
    struct rng rng;
    pthread_t pt;
    bool created;

    /* GVL (under ractor->sched.lock) */
    pthread_cond_t cond;                   /* nt->cond.readyq */
    bool cond_waiting;                     /* sleeping on cond now */
    bool signalled;                        /* barging: a release signalled it */
    struct exec_thread *rq_next;
    bool in_readyq;
    bool park_pending;                     /* made ready before it parked */
    bool park_woken;                       /* barging: woken from a park */
    int64_t ready_at_ns;                   /* when a waker made it ready */
    int64_t running_time_ns;               /* th->running_time_us, credited per tick */
    atomic_uint interrupts;                /* EXEC_INT_* */

    /* running_threads / timeslice set (under vm->sched_lock) */
    bool in_running_threads;
    bool in_timeslice;

    /* parked on a queue or in join (under queue->lock / vm->life_lock) */
    struct exec_thread *wait_next;
    int parked_queue;                      /* -1 if not */
    bool joining;

    /* program counter */
    struct exec_frame stack[EXEC_MAX_DEPTH];
    int sp;
    double compute_carry;                  /* fraction of an iteration owed */

    /* accounting (the thread itself) */
    enum thread_state ts;
    int64_t ts_since_ns;
    int64_t ts_ns[TS_COUNT];
    struct exec_thread_counts c;
    struct exec_actor_counts ac;
    struct rusage ru_start, ru_end;
    struct exec_syscall_ctx sys;           /* its files for syscall ops */

    /* published for the watchdog / deadlock report (read by the controller) */
    atomic_int pub_state;                  /* enum thread_state, TS_COUNT = not started / dead */
    _Atomic(const struct scn_op *) pub_op;
};

struct exec_queue {
    const char *name;
    pthread_mutex_t lock;
    int64_t items;
    struct exec_thread *wait_head, *wait_tail;
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

struct exec_policy;

struct exec_vm {
    const struct scenario *scn;
    const struct exec_policy *policy;
    const char *stat_path;
    struct exec_calibration calib;

    struct exec_ractor *ractors;
    int nractors;
    struct exec_thread *threads;
    int nthreads;
    struct exec_queue *queues;
    int nqueues;
    bool multi_ractor;                     /* rb_multi_ractor_p() */

    /* vm->ractor.sched (global): running_threads, timeslice set, barrier */
    pthread_mutex_t sched_lock;
    int running_cnt;
    int timeslice_cnt;
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
    struct exec_actor_counts timer_counts;
    struct rusage timer_ru;

    struct exec_vmlock vmlock;
    int niseqs;
    atomic_uchar *iseq_recorded;           /* lockless: jit_ep_escape_recorded, read without lock */
    unsigned char *iseq_seen;              /* lock_barrier: the set YJIT keeps, under the VM lock */

    struct exec_shared_counter *shared_counter;

    /* life cycle (under life_lock) */
    pthread_mutex_t life_lock;
    pthread_cond_t life_cond;              /* controller and start gate */
    bool gate_open;
    int alive;
    int parked_cnt;                        /* parked on a queue or join, not yet made ready */
    struct exec_thread *joiners;
    bool all_done;
    bool deadlock;
    int64_t t_start_ns, t_end_ns;

    atomic_bool aborting;                  /* watchdog / deadlock: every wait bails out */
    atomic_bool stopping;                  /* stop.time reached */
    atomic_ullong gvl_violations;          /* a thread acquired a GVL another thread held */
    struct exec_actor_counts controller_counts;
};

/* ---- time ---------------------------------------------------------------- */

static inline int64_t exec_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline struct timespec exec_abstime(int64_t ns)
{
    struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };
    return ts;
}

/* Scenario picoseconds -> nanoseconds (rounded). */
static inline int64_t exec_ps_to_ns(sim_time ps)
{
    return (ps + 500) / 1000;
}

/* ---- helpers shared by the exec files (exec_run.c) ----------------------- */

/* Initialise a condvar on CLOCK_MONOTONIC (all timed waits use it). */
int exec_cond_init(pthread_cond_t *c);

/* The thread records its own state change, now or at an earlier time t. */
void exec_state_set(struct exec_thread *th, enum thread_state to);
void exec_state_set_at(struct exec_thread *th, enum thread_state to, int64_t t_ns);

/* Wait on a condvar; if the run is being aborted, release `mu` and end
 * the calling thread (pthread_exit): an aborted run's threads leave every
 * wait this way, so the controller can join them and free everything. */
void exec_cond_wait(struct exec_thread *th, pthread_cond_t *c, pthread_mutex_t *mu);
/* Same with a deadline; returns the pthread_cond_timedwait result. */
int exec_cond_timedwait(struct exec_thread *th, pthread_cond_t *c, pthread_mutex_t *mu,
                        int64_t deadline_ns);
/* Leave the thread if the run is being aborted (mu released first, may be NULL). */
void exec_check_abort(struct exec_thread *th, pthread_mutex_t *mu);

/* Parked-thread accounting for deadlock detection; the caller holds life_lock. */
void exec_park_count_locked(struct exec_vm *vm, int delta);

#endif
