/* scenario.h - a whole experiment as plain structs.
 *
 * The loader (input/load.c) reads a scenario JSON file, applies --set
 * overrides, merges the named machine profile, validates everything and
 * fills these structs.  Nothing downstream of the loader touches JSON: the
 * simulator (sim/ + models/) and the real executor (exec/) read only this.
 *
 * All durations are sim_time picoseconds (see sim/engine.h).  The JSON
 * format is documented key by key in scenarios/README.md; the comments here
 * name the JSON key each field comes from.
 */
#ifndef INPUT_SCENARIO_H
#define INPUT_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/time.h"

/* ---- machine profile (JSON "machine", or scenarios/machines/NAME.json) --- */

/* The C library's pthread mutex, for the VM lock and the sched lock
 * (models/vm_lock.c): both barge (no hand-off), they differ in when an
 * unlock wakes a sleeper. */
/* The OS scheduler's run-queue and wakeup-preemption rules (sim/machine.c,
 * sim/fair.c). */
enum scn_os_scheduler {
    OS_SCHED_FIFO,          /* FIFO run queues; only long sleepers (wakeup_preempt) preempt */
    OS_SCHED_CFS,           /* Linux before 6.6: vruntime, wakeup_gran */
    OS_SCHED_EEVDF,         /* Linux 6.6-6.11: lag, virtual deadlines, RUN_TO_PARITY */
    OS_SCHED_EEVDF_DELAY,   /* Linux 6.12+: the same with DELAY_DEQUEUE / DELAY_ZERO */
    OS_SCHED_COUNT
};

enum scn_mutex_impl {
    MUTEX_GLIBC,   /* 3-state futex word: only an unlock of a lock taken contended wakes one */
    MUTEX_DARWIN,  /* psynch firstfit: an unlock wakes one whenever the kernel has a waiter */
    MUTEX_IMPL_COUNT
};

struct scn_machine {
    char *name;             /* "name": profile name, e.g. "report_m4" */
    char *source;           /* "source": where the values come from (free text) */
    int cores;              /* "cores" */

    /* OS scheduler and wake-up costs (sim/machine.c) */
    sim_time context_switch;   /* "context_switch": a core switching directly between two threads */
    sim_time futex_wake;       /* "futex_wake": CPU time of the waker in FUTEX_WAKE */
    sim_time wake_ipi;         /* "wake_ipi": extra waker CPU time when the wakee goes to another core */
    sim_time wake_idle_core;   /* "wake_idle_core": wake -> running on an idle core (IPI + idle exit) */
    sim_time wake_busy_core;   /* "wake_busy_core": IPI/enqueue delay onto a busy remote core */
    double wake_jitter;        /* "wake_jitter": wake latencies drawn in [L(1-j), L(1+j)] */
    double corun_slowdown;     /* "corun_slowdown": work's slowdown with every core busy (sim/machine.h) */
    sim_time os_timeslice;     /* "os_timeslice": slice before an involuntary switch when a core is shared */
    enum scn_os_scheduler os_scheduler; /* "os_scheduler" */
    sim_time os_tick;          /* "os_tick": the kernel's timer tick (1/HZ) */
    double work_scale;         /* "work_scale": multiplier on scenario compute/syscall durations */
    sim_time timer_tick_cost;  /* "timer_tick_cost": CPU time of one timer-thread wake-up */

    /* locks, barrier (models/vm_lock.c, models/barrier.c) */
    sim_time mutex_uncontended; /* "mutex_uncontended": lock+unlock with no waiter */
    sim_time sched_lock_cs;     /* "sched_lock_cs": global ractor.sched.lock section on every switch */
    sim_time remote_rmw;        /* "remote_rmw": atomic OR into another core's cache line */
    sim_time safepoint_gap;     /* "safepoint_gap": interrupt flag set -> next safe point */
    sim_time escape_check_cs;   /* "escape_check_cs": YJIT bookkeeping inside the VM lock */
    sim_time lockless_check;    /* "lockless_check": PR 18176 flag load */
    enum scn_mutex_impl mutex_impl; /* "mutex_impl": glibc or darwin pthread mutexes */

    /* interpreter and the shared counter (models/counter.c, models/mn_pool.c) */
    sim_time insn_time;         /* "insn_time": one interpreter instruction, uncontended */
    sim_time line_transfer;     /* "line_transfer": cache-line move between cores */
    int line_store_batch;       /* "line_store_batch": counter stores coalesced per line ownership */
    sim_time tls_insn_overhead; /* "tls_insn_overhead": extra cost per insn of a thread-local counter */
    sim_time coroutine_switch;  /* "coroutine_switch": M:N switch between threads of one Ractor */
};

/* ---- runtime (JSON "runtime") ------------------------------------------- */

enum scn_gvl_policy {
    GVL_POLICY_EAGER,      /* CRuby 3.3-4.0.5: hand off at blocking-region entry */
    GVL_POLICY_HOT_STEAL,  /* PR 15840 (4.0.6 and later): releaser steals back if successor not yet running */
    GVL_POLICY_DELAYED,    /* PR 15529: hand off only from a timer tick */
    GVL_POLICY_THRESHOLD,  /* PR 15294: helper hands off after `threshold` */
    GVL_POLICY_BARGING,    /* CRuby 2.6-3.2: release clears owner, first to lock wins */
    GVL_POLICY_COUNT
};

enum scn_invariant_check {
    INVARIANT_NONE,          /* YJIT off: no bookkeeping on env escape */
    INVARIANT_LOCK_BARRIER,  /* YJIT before PR 18176: VM lock + barrier on every escape */
    INVARIANT_LOCKLESS,      /* PR 18176: lock-free flag check, lock only on first escape per iseq */
    INVARIANT_COUNT
};

enum scn_insn_counter {
    COUNTER_NONE,          /* release builds after 8cafa5b8ce */
    COUNTER_SHARED,        /* 3.3-3.4: one global non-atomic counter */
    COUNTER_THREAD_LOCAL,  /* #12549 */
    COUNTER_COUNT
};

enum scn_counter_model {
    COUNTER_MODEL_LINE,     /* one cache line as a server moving between cores (fluid) */
    COUNTER_MODEL_PENALTY,  /* per-insn penalty t_insn + (k-1)/k * line_transfer */
    COUNTER_MODEL_COUNT
};

enum scn_snt_cap {
    SNT_CAP_EXACT,      /* after #14280: min(ractors, max_cpu) shared native threads */
    SNT_CAP_MINUS_ONE,  /* 3.3/3.4: effectively max_cpu - 1 */
    SNT_CAP_COUNT
};

struct scn_runtime {
    enum scn_gvl_policy gvl_policy;            /* "gvl_policy" */
    sim_time quantum;                          /* "quantum" (100ms) */
    sim_time timer_tick;                       /* "timer_tick" (10ms) */
    sim_time threshold;                        /* "threshold" (100us), threshold policy */
    enum scn_invariant_check invariant_check;  /* "invariant_check" */
    enum scn_insn_counter insn_counter;        /* "insn_counter" */
    enum scn_counter_model counter_model;      /* "counter_model" */
    int max_cpu;                               /* "max_cpu" (RUBY_MAX_CPU, 8) */
    enum scn_snt_cap snt_cap;                  /* "snt_cap" */
    bool mn_main;                              /* "mn_main" (RUBY_MN_THREADS=1) */
    bool yjit;                                 /* "yjit": YJIT on (decides invariant_check with "ruby") */
    char *ruby;                                /* "ruby": the version preset as written ("3.1"), or NULL */
    unsigned asked;                            /* bit 1u << RT_x: the key was given, or set by "ruby" */
};

/* The runtime keys, for scn_runtime.asked (a real backend refuses a key that
 * was asked for and that it cannot honour; defaults are never refused). */
enum scn_rt_key {
    RT_GVL_POLICY, RT_QUANTUM, RT_TIMER_TICK, RT_THRESHOLD, RT_INVARIANT_CHECK, RT_INSN_COUNTER,
    RT_COUNTER_MODEL, RT_MAX_CPU, RT_SNT_CAP, RT_MN_MAIN, RT_YJIT, RT_KEY_COUNT
};
extern const char *const scn_rt_key_names[RT_KEY_COUNT + 1];

/* ---- durations drawn per execution -------------------------------------- */

enum scn_dist_kind { DIST_CONST, DIST_UNIFORM, DIST_EXP };

struct scn_dist {
    enum scn_dist_kind kind;
    sim_time a;  /* const: value; uniform: min; exp: mean */
    sim_time b;  /* uniform: max */
};

/* ---- programs ----------------------------------------------------------- */

enum scn_op_kind {
    OP_COMPUTE,     /* Ruby work holding the GVL */
    OP_SYSCALL,     /* a system call, optionally in a GVL-releasing blocking region */
    OP_QUEUE_PUSH,  /* Thread::Queue#push */
    OP_QUEUE_POP,   /* Thread::Queue#pop (parks on empty) */
    OP_SLEEP,       /* Kernel#sleep */
    OP_LOOP,        /* repeat a body */
    OP_ENV_ESCAPE,  /* a Proc/lambda materialising its environment (vm_make_env_each) */
    OP_JOIN,        /* wait until every other thread has finished */
    OP_KIND_COUNT
};

/* The real call the executor makes for a syscall op ("call"). */
enum scn_syscall_call {
    CALL_STAT,          /* stat(2) of a file: File.mtime */
    CALL_WRITE_DEVNULL, /* write(2) of one byte to /dev/null: File.write('/dev/null', '0') */
    CALL_GETPID,        /* getppid(2): the cheapest real syscall */
    CALL_NANOSLEEP,     /* nanosleep(2) for the op's duration: an I/O wait off the CPU */
    CALL_OPEN_DEVNULL,  /* open(2) of /dev/null for writing (the thread keeps the fd) */
    CALL_CLOSE,         /* close(2) of the fd the thread's last open_devnull opened */
    CALL_COUNT
};

struct scn_prog;

/* Loops nest at most this deep: the one limit that the validator enforces,
 * that the JSON nesting limit (input/jsonpos.h) is derived from, and that a
 * running thread's frame stack is sized from (core/core.h). */
#define SCN_MAX_LOOP_DEPTH 32

struct scn_op {
    enum scn_op_kind kind;
    char *path;   /* JSON pointer of the op, e.g. "/ractors/0/threads/1/program/2" */
    int line;     /* line of the op in its file (for run-time reports) */
    union {
        struct {
            bool has_insns;       /* "insns" given instead of "dur" */
            struct scn_dist dur;  /* "dur" */
            uint64_t insns;       /* "insns": interpreter instructions */
        } compute;
        struct {
            struct scn_dist dur;        /* "dur" */
            enum scn_syscall_call call; /* "call" */
            bool releases_gvl;          /* "releases_gvl" (default true) */
            bool io_wait;               /* "io_wait": sleeps off the CPU for dur */
        } syscall;
        struct {
            int queue;  /* "queue": index into scenario.queues */
        } queue;
        struct {
            struct scn_dist dur;  /* "dur" */
        } sleep;
        struct {
            enum { LOOP_TIMES, LOOP_TIMES_TOTAL, LOOP_FOREVER } mode;
            uint64_t times;       /* "times" or "times_total" */
            bool measure;         /* "measure": each iteration counts as one op */
            struct scn_prog *body;/* "body" */
        } loop;
        struct {
            int iseq;  /* "iseq" */
        } env_escape;
    } u;
};

struct scn_prog {
    struct scn_op *ops;
    int nops;
};

struct scn_thread {
    char *name;            /* "name" */
    int count;             /* "count": replicas of this thread */
    struct scn_prog prog;  /* "program" */
};

struct scn_ractor {
    char *name;                 /* "name" */
    int count;                  /* "count": replicas of this Ractor (not for ractors[0]) */
    struct scn_thread *threads; /* "threads" */
    int nthreads;
};

struct scn_queue {
    char *name;     /* "name" */
    int64_t initial;/* "initial": items present at start */
};

struct scenario {
    char *file;         /* path it was loaded from */
    char *name;         /* "name" (default: file base name) */
    char *description;  /* "description" */
    uint64_t seed;      /* "seed", overridden by --seed */
    struct scn_machine machine;
    struct scn_runtime runtime;
    struct scn_queue *queues;   /* "queues" */
    int nqueues;
    struct scn_ractor *ractors; /* "ractors"; ractors[0] is the main Ractor */
    int nractors;
    sim_time stop_time;         /* "stop": {"time": ...}; 0 = run to completion */

    /* derived by the loader */
    int total_threads;   /* sum over ractors (x count) of threads (x count) */
    int total_ractors;   /* sum of ractor counts */
};

/* Each enum's names as written in JSON, in enum order, NULL-terminated
 * (the schema's enum values and the *_name functions share them). */
extern const char *const scn_policy_names[GVL_POLICY_COUNT + 1];
extern const char *const scn_invariant_names[INVARIANT_COUNT + 1];
extern const char *const scn_counter_names[COUNTER_COUNT + 1];
extern const char *const scn_counter_model_names[COUNTER_MODEL_COUNT + 1];
extern const char *const scn_snt_cap_names[SNT_CAP_COUNT + 1];
extern const char *const scn_mutex_impl_names[MUTEX_IMPL_COUNT + 1];
extern const char *const scn_os_scheduler_names[OS_SCHED_COUNT + 1];
extern const char *const scn_op_names[OP_KIND_COUNT + 1];
extern const char *const scn_call_names[CALL_COUNT + 1];
extern const char *const scn_dist_names[4];   /* const, uniform, exp */

const char *scn_policy_name(enum scn_gvl_policy p);
const char *scn_invariant_name(enum scn_invariant_check c);
const char *scn_counter_name(enum scn_insn_counter c);
const char *scn_counter_model_name(enum scn_counter_model m);
const char *scn_snt_cap_name(enum scn_snt_cap c);
const char *scn_mutex_impl_name(enum scn_mutex_impl m);
const char *scn_os_scheduler_name(enum scn_os_scheduler s);
const char *scn_op_name(enum scn_op_kind k);
const char *scn_call_name(enum scn_syscall_call c);

const char *scn_dist_name(enum scn_dist_kind k);

/* Iterations of a loop op for thread instance `instance` (0-based) of
 * `ninstances` = ractor count x thread count of its template: "times" for
 * LOOP_TIMES, the instance's share of "times_total" for LOOP_TIMES_TOTAL
 * (N/k, plus one if instance < N%k), UINT64_MAX for LOOP_FOREVER. */
uint64_t scn_loop_times(const struct scn_op *op, int instance, int ninstances);

/* The columns of a run's metrics that the scenario decides (its name,
 * policy, invariant check, instruction counter, cores, seed), whichever
 * backend runs it. */
struct run_metrics;
void scn_metrics_describe(const struct scenario *s, struct run_metrics *m);

void scenario_free(struct scenario *s);

#endif
