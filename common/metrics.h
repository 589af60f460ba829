/* metrics.h - what one run measured, whichever backend produced it.
 *
 * The simulator (models/simulate.c) and the real executor (exec/) both fill a
 * struct run_metrics; output/csv.c turns it into one CSV row with the same
 * columns for both, so simulated and measured runs sit side by side.  Every
 * column is documented in README.md ("CSV columns").
 */
#ifndef COMMON_METRICS_H
#define COMMON_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "time.h"

/* Per-thread states whose times are summed over threads into the CSV.
 * Names follow the gvl-tracing gem where it has one (running, wants_gvl). */
enum thread_state {
    TS_RUNNING,       /* holds the GVL and executes (Ruby code or a non-releasing syscall) */
    TS_WANTS_GVL,     /* ready or handed the GVL but not yet on a CPU */
    TS_BLOCKING,      /* inside a GVL-releasing blocking region (syscall, I/O) */
    TS_PARKED,        /* parked on a Queue, a Mutex, a ConditionVariable or a join */
    TS_SLEEPING,      /* Kernel#sleep */
    TS_BARRIER_INIT,  /* initiating a VM barrier: waiting for the others to join */
    TS_BARRIER_JOIN,  /* stopped at a VM barrier started by another Ractor */
    TS_VMLOCK_WAIT,   /* waiting for the VM lock */
    TS_WANTS_SNT,     /* M:N: Ractor ready, waiting for a shared native thread */
    TS_GC,            /* running the garbage collector (holding the GVL) */
    TS_COUNT
};

const char *thread_state_name(enum thread_state s);

#define METRICS_MAX_RACTOR_COLS 4096

/* One named measure's latency distribution (core/measure.h): exact. */
struct run_measure {
    const char *name;
    uint64_t count;          /* samples completed after the warm-up */
    sim_time mean, p50, p90, p99, max;
};

/* The measured quantities, one per CSV column (ops_per_s follows ops and
 * wall_s).  A backend that cannot observe one marks it unmeasured, and the
 * CSV leaves its cell empty: an empty cell is "not measured", 0 is zero. */
enum metric_id {
    MET_WALL,
    MET_CPU,
    MET_STATE_TIME,   /* + enum thread_state: one bit per state column */
    MET_VOL_SWITCHES = MET_STATE_TIME + TS_COUNT,
    MET_INVOL_SWITCHES,
    MET_MAIN_VOL_SWITCHES,
    MET_GVL_HANDOFFS,
    MET_WAKEUPS,
    MET_WASTED_WAKES,
    MET_TIMER_TICKS,
    MET_SYSCALLS,
    MET_OPS,
    MET_RACTOR_OPS,
    MET_BARRIERS,
    MET_VMLOCK_ACQUIRES,
    MET_VMLOCK_WAITS,
    MET_LINE_TRANSFERS,
    MET_NATIVE_THREADS,
    MET_GC_COUNT,
    MET_GC_CLOCK,
    MET_MUTEX_WAITS,
    MET_TIMEOUTS,
    MET_MEASURES,     /* the named measures' columns */
    MET_ENGINE_EVENTS,
    MET_COUNT
};
_Static_assert(MET_COUNT <= 64, "run_metrics.unmeasured is a 64-bit mask");

/* One thread's share of the fair class's counts (sim/fair.h struct
 * fair_counts and struct fair_lead): the summary's lines by thread. */
#define RUN_FAIR_THREADS 8
/* A waker's vruntime lead this near 0 (us) is counted (scripts/bpf's
 * sched_wakes.awk counts the same) */
#define RUN_FAIR_LEAD_NEAR_US 20
struct run_fair_thread {
    char name[32];
    uint64_t woken, woken_preempts;                  /* woken onto a running task, of which preempting it */
    uint64_t woken_delayed, woken_delayed_preempts;  /* ... of those, as a delayed sleeper */
    uint64_t sleeps_delayed, sleeps_lag_pos, sleeps_lag_zero, sleeps_lag_neg;
    /* EEVDF: its wakes that found the waker eligible; those with the
     * waker's vruntime lead near 0, and the lead's steps between two such
     * wakes in a row (their count, their sum in ps) */
    uint64_t waker_eligible, lead_near, lead_steps;
    int64_t lead_moved;
};

struct run_metrics {
    const char *scenario;
    const char *backend;      /* "sim", "pthread" or "ruby" */
    const char *engine;       /* "native", "simgrid", "pthread", or the Ruby that ran ("ruby 3.1.2") */
    const char *policy;       /* runtime.gvl_policy */
    const char *invariant_check;
    const char *insn_counter;
    int cores;
    int ractors;
    int threads;
    uint64_t seed;
    double work_scale;       /* machine.work_scale applied to the scenario's durations */

    sim_time wall;                   /* simulated or measured wall time */
    sim_sum cpu;                     /* busy core time, switches included, summed over cores */
    sim_sum state_time[TS_COUNT];    /* summed over threads */

    uint64_t vol_switches;       /* voluntary context switches, all threads */
    uint64_t invol_switches;     /* involuntary (preemptions), all threads */
    uint64_t main_vol_switches;  /* voluntary switches of the main thread alone
                                    (what /proc/self/status reports) */
    uint64_t gvl_handoffs;       /* GVL passed from one thread to another */
    uint64_t wakeups;            /* futex wakes of a sleeping native thread */
    uint64_t wasted_wakes;       /* woken for the GVL, found it taken, slept again */
    uint64_t timer_ticks;        /* timer-thread ticks delivered */
    uint64_t syscalls;           /* syscall ops completed */
    uint64_t ops;                /* iterations of loops marked "measure" */
    uint64_t barriers;           /* VM barriers completed */
    uint64_t vmlock_acquires;    /* VM lock acquisitions (outermost) */
    uint64_t vmlock_waits;       /* of which had to wait */
    uint64_t line_transfers;     /* cache-line transfers: the shared counter's, the objspace's, the locks' (lock_line) */
    uint64_t native_threads;     /* native threads ever used (DNT + SNT + helpers) */
    uint64_t gc_count;           /* garbage collections (minor and major) */
    sim_sum gc_clock;            /* the process's CPU clock over the GC's clock windows: what Ruby's
                                    GC.stat(:time) sums (gc.c gc_enter_clock .. gc_exit_clock) */
    uint64_t mutex_waits;        /* Mutex#lock calls that had to sleep */
    uint64_t timeouts;           /* ops with a timeout (cv_wait, queue_pop) that timed out */

    /* not in the CSV: the summary's lines on the GC and spawned threads */
    uint64_t gc_major, gc_sweeps;
    uint64_t spawned;            /* threads started by spawn ops */
    /* ... and on the 2.x GVL's native locks (barging: gvl->lock, and each
     * thread's interrupt_lock around the wake of a native sleep) */
    uint64_t gvl_lock_sections;  /* sections of gvl->lock (acquisitions) */
    uint64_t gvl_lock_waits;     /* tries that found it taken (each goes into FUTEX_WAIT) */
    uint64_t gvl_lock_slept;     /* of those, the waits that slept (each woken by an unlock) */
    uint64_t intr_lock_waits;    /* sleeps on an interrupt_lock its waker still held */
    /* ... and on the 3.3+ timer thread (thread_pthread.c timer_thread_func) */
    uint64_t timer_wakes;        /* woken from its wait without a timeout (the eventfd write
                                    of timer_thread_wakeup_locked) */
    uint64_t timer_timed_waits;  /* timer_thread_set_timeout found the timeslice set non-empty:
                                    a 10 ms timed wait begins (its timeouts are timer_ticks) */
    /* ... and on the 3.3+ sched locks held through a hand-off's wake (models/gvl.c) */
    uint64_t sched_lock_waits;   /* threads' sleeps on a Ractor's sched->lock_ */
    uint64_t timer_lock_waits;   /* the timer's sleeps on vm->ractor.sched.lock */
    /* ... and on the OS model's fair class (sim/fair.h struct fair_counts) */
    uint64_t fair_wake_checks;   /* wakes onto a core running a task: wakeup_preempt asked */
    uint64_t fair_wake_preempts; /* ... of which preempted it */
    uint64_t fair_delayed_checks, fair_delayed_preempts;  /* ... of those, wakes of a delayed sleeper */
    uint64_t fair_sleeps_delayed, fair_sleeps_lag_pos, fair_sleeps_lag_zero, fair_sleeps_lag_neg;
    uint64_t fair_wakes_unscanned; /* wakes left on a busy core, the cache too busy to scan (SIS_UTIL) */
    /* ... the same thread by thread (the first RUN_FAIR_THREADS threads that
     * the class woke or put to sleep; NULL if none) */
    struct run_fair_thread *fair_threads;  /* (owned) */
    int nfair_threads;

    sim_time warmup;             /* rates (ops_per_s, NAME_per_s) count from it */
    struct run_measure *measures;/* the named measures, in declaration order (owned) */
    int nmeasures;

    /* ops per Ractor instance (for per-Ractor throughput); NULL if unused */
    uint64_t *ractor_ops;
    int nractor_ops;

    uint64_t engine_events;  /* events fired by the simulation engine */
    double host_seconds;     /* host CPU/wall seconds spent; the one non-deterministic column */

    uint64_t unmeasured;     /* bit 1 << MET_x: this backend cannot observe it (0: all measured) */
};

static inline void metrics_set_unmeasured(struct run_metrics *m, enum metric_id id)
{
    m->unmeasured |= UINT64_C(1) << id;
}

static inline bool metrics_measured(const struct run_metrics *m, enum metric_id id)
{
    return !(m->unmeasured & (UINT64_C(1) << id));
}

/* Free what a simulated run's metrics own (ractor_ops, measures) and empty them. */
void run_metrics_free(struct run_metrics *m);

#endif
