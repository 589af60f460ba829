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

#include "../common/curve.h"
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

/* The most speed levels a machine gives (machine.speed_levels). */
#define SCN_SPEED_LEVELS 8

/* A short list of durations in a struct (machine.hidden_steal_len). */
struct scn_durs {
    int n;
    sim_time v[GV_CURVE_MAX];
};

struct scn_machine {
    char *name;             /* "name": profile name, e.g. "report_m4" */
    char *file;             /* the profile's file as found (NULL: no profile named); what
                             * validate --sensitivity reads its calibration from */
    char *source;           /* "source": where the values come from (free text) */
    int cores;              /* "cores" */

    /* OS scheduler and wake-up costs (sim/machine.c) */
    sim_time context_switch;   /* "context_switch": a core switching directly between two threads */
    sim_time futex_wake;       /* "futex_wake": CPU time of the waker in FUTEX_WAKE */
    sim_time futex_wake_none;  /* "futex_wake_none": a FUTEX_WAKE that finds nobody asleep; 0: not modelled */
    struct scn_durs futex_wait_window; /* "futex_wait_window": a FUTEX_WAIT's way in, equally likely values
                                * (n 0: futex_wake_none) */
    struct scn_durs futex_wake_race;   /* "futex_wake_race": a FUTEX_WAKE that meets a wait on its way in,
                                * equally likely values (n 0: futex_wake_none) */
    struct scn_durs cond_wait_section; /* "cond_wait_section": a condvar waiter's section on its mutex, from
                                * its lock to the unlock in the wait, equally likely values (n 0: an instant) */
    sim_time wake_ipi;         /* "wake_ipi": extra waker CPU time when the wakee goes to another core */
    struct gv_curve wake_ipi_extra; /* "wake_ipi_extra": + this when that core is idle, by how long
                                * it has been idle (sim/machine.h) */
    struct scn_durs wake_waking; /* "wake_waking": the waker's CPU time instead when that core is
                                * still waking up for another wake, equally likely values (n 0: none) */
    sim_time wake_prehalt_window; /* "wake_prehalt_window": a wake onto a core idle for less than this
                                * (its vCPU not yet halted) may be a pre-halt one (0: none) */
    double wake_prehalt_share; /* "wake_prehalt_share": the share of such wakes that are */
    sim_time wake_prehalt_return; /* "wake_prehalt_return": a pre-halt wake's wakee runs this long
                                * after its core went idle (at once if that is past) */
    sim_time futex_wake_chain; /* "futex_wake_chain": the waker's CPU time in FUTEX_WAKE in a hand-off
                                * chain on its core (MACH_WAKE_CHAIN); 0: futex_wake */
    sim_time ppoll_wake_extra; /* "ppoll_wake_extra": the waker's extra CPU time when it wakes a ppoll
                                * sleeper by a write to its eventfd instead of a futex wake */
    sim_time ppoll_return;     /* "ppoll_return": the woken ppoll sleeper's extra CPU time (ppoll's
                                * return, the eventfd read) before it wants the GVL */
    sim_time wake_idle_core;   /* "wake_idle_core": wake -> running on an idle core (IPI + idle exit) */
    sim_time wake_idle_cpu;    /* "wake_idle_cpu": of a wake onto an idle core, the CPU time the guest
                                * charges its thread (its FUTEX_WAIT's way in and out); 0: none */
    sim_time wake_busy_core;   /* "wake_busy_core": IPI/enqueue delay onto a busy remote core */
    double wake_jitter;        /* "wake_jitter": wake latencies drawn in [L(1-j), L(1+j)] */
    struct gv_curve wake_idle_extra; /* "wake_idle_extra": extra wake -> running on an idle core, by
                                * how long the core has been idle (sim/machine.h) */
    double wake_pack;          /* "wake_pack": share of wakes kept on the waker's core (sim/machine.h) */
    sim_time wake_pack_sleep;  /* "wake_pack_sleep": ... of those that slept less than this (0: any) */
    double wake_pack_util;     /* "wake_pack_util": ... while waker's and wakee's utilizations sum below it (0: any) */
    double corun_slowdown;     /* "corun_slowdown": work's slowdown with every core busy (sim/machine.h) */
    double hidden_steal_rate;  /* "hidden_steal_rate": gaps per second a busy core loses unseen (sim/machine.h) */
    struct scn_durs hidden_steal_len; /* "hidden_steal_len": their lengths, equally likely (n 0: none given) */
    /* "speed_levels", "speed_dwell": a core's speed levels (sim/machine.h):
     * level i's factor on the time work takes and its mean dwell (n < 2:
     * none) */
    double speed_levels[SCN_SPEED_LEVELS];
    struct scn_durs speed_dwell;
    double speed_wake_share;   /* "speed_wake_share": the share of a level's slowdown a thread's
                                * owed costs (its futex wakes) see (sim/machine.h) */
    sim_time os_timeslice;     /* "os_timeslice": slice before an involuntary switch when a core is shared */
    enum scn_os_scheduler os_scheduler; /* "os_scheduler" */
    sim_time os_tick;          /* "os_tick": the kernel's timer tick (1/HZ) */
    double work_scale;         /* "work_scale": multiplier on scenario compute/syscall durations */
    sim_time timer_tick_cost;  /* "timer_tick_cost": CPU time of one timer-thread wake-up */
    sim_time timer_slack;      /* "timer_slack": how much later a timed futex wait ends than its deadline
                                * because of the thread's timer slack (Linux: 50 us) */
    sim_time timer_wake;       /* "timer_wake": a timed wait's expiry -> its thread running again on a busy
                                * CPU; SCN_DUR_UNSET (absent): all of timer_tick_cost comes first */
    sim_time timer_stall;      /* "timer_stall": how long a busy CPU stops when a timer armed on it expires
                                * (a virtual CPU: the host delivering the interrupt), charged to the task
                                * running there; SCN_DUR_UNSET (absent): none (not modelled) */

    /* locks, barrier (models/vm_lock.c, models/barrier.c) */
    sim_time mutex_uncontended; /* "mutex_uncontended": lock+unlock with no waiter */
    sim_time lock_line;         /* "lock_line": an atomic on a native mutex's or condvar's line another core
                                 * touched last (its transfer); 0: not modelled */
    sim_time sched_lock_cs;     /* "sched_lock_cs": global ractor.sched.lock section on every switch */
    sim_time remote_rmw;        /* "remote_rmw": atomic OR into another core's cache line */
    sim_time safepoint_gap;     /* "safepoint_gap": interrupt flag set -> next safe point */
    sim_time escape_check_cs;   /* "escape_check_cs": YJIT bookkeeping inside the VM lock */
    sim_time lockless_check;    /* "lockless_check": PR 18176 flag load */
    enum scn_mutex_impl mutex_impl; /* "mutex_impl": glibc or darwin pthread mutexes */

    /* interpreter and the shared counter (models/counter.c, models/mn_pool.c) */
    sim_time insn_time;         /* "insn_time": one interpreter instruction, uncontended */
    sim_time line_transfer;     /* "line_transfer": cache-line move between cores */
    sim_time free_remote;       /* "free_remote": extra CPU time of a free() of a chunk another thread
                                 * allocated, while that thread allocates on another core */
    sim_time cache_probe;       /* "cache_probe": the cache-regime probe of the profile's calibrate (0: not
                                 * recorded); no model reads it, `validate` compares its runs' probe with it */
    int line_store_batch;       /* "line_store_batch": counter stores coalesced per line ownership */
    sim_time tls_insn_overhead; /* "tls_insn_overhead": extra cost per insn of a thread-local counter */
    sim_time coroutine_switch;  /* "coroutine_switch": M:N switch between threads of one Ractor */

    /* threads and the garbage collector (models/thread.c, core/heap.h) */
    sim_time thread_create;     /* "thread_create": Thread.new, paid by the creating thread */
    sim_time alloc_object;      /* "alloc_object": an alloc op's CPU per object (Object.new) */
    sim_time env_escape_work;   /* "env_escape_work": an env_escape op's own CPU (the method
                                 * call, the environment and the Proc made) */
    sim_time compute_after_idle; /* "compute_after_idle": what a compute op costs more as its
                                  * thread's first work after it arrived on an idle core
                                  * (models/thread.c) */
    sim_time gc_mark_base;      /* "gc_mark_base": a minor GC's fixed marking cost (roots) */
    sim_time gc_mark_per_object;/* "gc_mark_per_object": marking one live object */
    sim_time gc_mark_per_page;  /* "gc_mark_per_page": a marking's visit of one heap page */
    sim_time gc_mark_per_thread;/* "gc_mark_per_thread": marking one living thread's stacks */
    struct gv_curve gc_cold;    /* "gc_cold": a GC start's extra, by the time since the GC start
                                 * before (what it reads was evicted in between) */
    sim_time gc_sweep_per_slot; /* "gc_sweep_per_slot": sweeping one slot (lazy sweep) */
    sim_time gc_free_body;      /* "gc_free_body": the sweep's free of a dead object's malloc'd body */

    /* "syscalls": {"stat": ..., ...}: the CPU time of each real system call
     * a syscall op names, on this machine (what `gvlsim calibrate` measured);
     * SCN_DUR_UNSET where the profile gives none (always for nanosleep: a
     * wait, not a cost).  A syscall op with "dur": "machine" takes it. */
    sim_time syscall_cost[CALL_COUNT];
    /* "method_work": {"stat": ..., "open_devnull": ...}: the CPU the Ruby
     * method the Ruby backend runs for such a call uses beyond its system
     * calls (File.mtime, File.write), on this machine; SCN_DUR_UNSET where
     * the profile gives none.  A syscall op with "method_work": "machine"
     * takes it.  "method_work_after" the same after the call (a syscall
     * op's "method_work_after": "machine"). */
    sim_time method_work_cost[CALL_COUNT], method_work_after_cost[CALL_COUNT];
    /* "method_after_idle": {"stat": ..., "open_devnull": ...}: what that Ruby
     * method costs more as its thread's first after it arrived on an idle
     * core (models/thread.c); 0 where the profile gives none.  A syscall op
     * with "method_work": "machine" (a Ruby method) takes it. */
    sim_time method_after_idle_cost[CALL_COUNT];
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

enum scn_alloc_counters {
    ALLOC_COUNTERS_LOCAL,   /* 4.0+: per-Ractor counts, thread-local malloc increase */
    ALLOC_COUNTERS_SHARED,  /* 3.0-3.4: every allocation writes rb_objspace's counters */
    ALLOC_COUNTERS_COUNT
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
    enum scn_alloc_counters alloc_counters;    /* "alloc_counters" */
    int max_cpu;                               /* "max_cpu" (RUBY_MAX_CPU, 8) */
    enum scn_snt_cap snt_cap;                  /* "snt_cap" */
    bool mn_main;                              /* "mn_main" (RUBY_MN_THREADS=1) */
    int gc_heap_init_slots;                    /* "gc_heap_init_slots" (RUBY_GC_HEAP_INIT_SLOTS) */
    double gc_heap_growth_factor;              /* "gc_heap_growth_factor" (RUBY_GC_HEAP_GROWTH_FACTOR) */
    int gc_boot_objects;                       /* "gc_boot_objects": live after the interpreter's boot */
    bool yjit;                                 /* "yjit": YJIT on (decides invariant_check with "ruby") */
    sim_time event_hook;                       /* "event_hook" (0): a thread-event hook's CPU at READY */
    sim_time event_hook_flush;                 /* "event_hook_flush" (0): the more CPU of a READY hook
                                                * that writes the tracer's buffer out, ... */
    int event_hook_flush_every;                /* ... every "event_hook_flush_every"-th (0: none) */
    char *ruby;                                /* "ruby": the version preset as written ("3.1"), or NULL */
    unsigned asked;                            /* bit 1u << RT_x: the key was given, or set by "ruby" */
};

/* The runtime keys, for scn_runtime.asked (a real backend refuses a key that
 * was asked for and that it cannot honour; defaults are never refused). */
enum scn_rt_key {
    RT_GVL_POLICY, RT_QUANTUM, RT_TIMER_TICK, RT_THRESHOLD, RT_INVARIANT_CHECK, RT_INSN_COUNTER,
    RT_COUNTER_MODEL, RT_MAX_CPU, RT_SNT_CAP, RT_MN_MAIN, RT_YJIT, RT_ALLOC_COUNTERS, RT_EVENT_HOOK, RT_KEY_COUNT
};
extern const char *const scn_rt_key_names[RT_KEY_COUNT + 1];

/* ---- durations drawn per execution -------------------------------------- */

enum scn_dist_kind { DIST_CONST, DIST_UNIFORM, DIST_EXP, DIST_LOGNORMAL, DIST_EMPIRICAL, DIST_KIND_COUNT };

struct scn_dist {
    enum scn_dist_kind kind;
    sim_time a;        /* const: value; uniform: min; exp: mean; lognormal: median */
    sim_time b;        /* uniform: max */
    double sigma;      /* lognormal: the standard deviation of the log */
    /* empirical: n values, each drawn with probability weight / total;
     * cum[i] is the sum of the first i+1 weights (cum[n-1] the total) */
    sim_time *values;
    double *cum;
    int n;
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
    OP_JOIN,        /* wait until every other thread (or every instance of one template) has finished */
    OP_MEASURE,     /* a named measure around a body: each execution is one sample */
    OP_BRANCH,      /* run `then` with probability p, else `else` */
    OP_MUTEX_LOCK,  /* Thread::Mutex#lock */
    OP_MUTEX_UNLOCK,/* Thread::Mutex#unlock */
    OP_SYNCHRONIZE, /* Thread::Mutex#synchronize: lock, body, unlock */
    OP_CV_WAIT,     /* Thread::ConditionVariable#wait(mutex, timeout) */
    OP_CV_SIGNAL,   /* Thread::ConditionVariable#signal */
    OP_CV_BROADCAST,/* Thread::ConditionVariable#broadcast */
    OP_SPAWN,       /* Thread.new of one more instance of a "spawned" template */
    OP_ALLOC,       /* allocate objects; may run the garbage collector */
    OP_GC,          /* a garbage collection of a given length (GC.start, a pause a trace measured) */
    OP_KIND_COUNT,
    OP_ARRIVE       /* internal, not in JSON: a generator's next arrival (sleep until it, push) */
};

struct scn_prog;

/* Loops nest at most this deep: the one limit that the validator enforces,
 * that the JSON nesting limit (input/jsonpos.h) is derived from, and that a
 * running thread's frame stack is sized from (core/core.h). */
#define SCN_MAX_LOOP_DEPTH 32
/* A duration key with no default that was not given (machine.timer_wake). */
#define SCN_DUR_UNSET SIM_TIME_MAX

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
            bool dur_machine;           /* "dur": "machine": dur is machine.syscalls[call], this
                                         * machine's cost of the real call (not work_scale'd; the
                                         * executor makes the call once) */
            uint64_t allocates;         /* "allocates" (0): objects the Ruby method allocates after the call */
            sim_time method_work;       /* "method_work" (0): CPU the Ruby method uses holding the GVL before the call */
            bool method_work_machine;   /* "method_work": "machine": machine.method_work[call] (not
                                         * work_scale'd: it is this machine's) */
            sim_time method_work_after; /* "method_work_after" (0): the same after the call, the GVL
                                         * taken back, before the objects it allocates */
            bool method_work_after_machine; /* "method_work_after": "machine" */
        } syscall;
        struct {
            int queue;         /* "queue": index into scenario.queues */
            bool has_timeout;  /* queue_pop "timeout" given (Ruby 3.2+) */
            sim_time timeout;  /* "timeout": pop returns nil after it (0: at once) */
        } queue;
        struct {
            struct scn_dist dur;  /* "dur" */
        } sleep;
        struct {
            enum { LOOP_TIMES, LOOP_TIMES_TOTAL, LOOP_FOREVER } mode;
            uint64_t times;       /* "times" or "times_total" */
            bool measure;         /* "measure": true, each iteration counts as one op */
            int mid;              /* "measure": "NAME", 1 + index into scenario.measures; 0 none */
            bool from_pop;        /* "latency_from": "pop" */
            struct scn_prog *body;/* "body" */
        } loop;
        struct {
            int iseq;  /* "iseq" */
        } env_escape;
        struct {
            int tmpl;  /* "thread": 1 + index into scenario.tmpls; 0: every other thread */
        } join;
        struct {
            int mid;              /* "name": 1 + index into scenario.measures */
            bool from_pop;        /* "latency_from": "pop" */
            struct scn_prog *body;/* "body" */
        } measure;
        struct {
            double p;                  /* "p": probability of `then` */
            struct scn_prog *then_body;/* "then" */
            struct scn_prog *else_body;/* "else" (empty when absent) */
        } branch;
        struct {
            int mutex;                 /* "mutex": index into scenario.mutexes */
            struct scn_prog *body;     /* synchronize: "body" */
            struct scn_op *unlock;     /* synchronize: the mutex_unlock run after the body */
        } mutex;
        struct {
            int cv;                    /* "cv": index into scenario.condvars */
            int mutex;                 /* cv_wait: "mutex" */
            bool has_timeout;          /* cv_wait: "timeout" given */
            sim_time timeout;          /* cv_wait: "timeout" */
            int while_empty;           /* cv_wait: "while_empty", 1 + queue index; 0 none */
            bool raise;                /* cv_wait: "on_timeout": "raise" (the thread ends) */
        } cv;
        struct {
            int tmpl;  /* "thread": index into scenario.tmpls of a "spawned" template */
        } spawn;
        struct {
            uint64_t objects;  /* "objects" */
            double survive;    /* "survive": fraction still live at the next GC */
        } alloc;
        struct {
            struct scn_dist dur;  /* "dur": the collection's length */
        } gc;
        struct {
            int gen;   /* index into scenario.generators */
        } arrive;
    } u;
};

struct scn_prog {
    struct scn_op *ops;
    int nops;
};

struct scn_thread {
    char *name;            /* "name" */
    int count;             /* "count": replicas of this thread (the pool size if spawned) */
    struct scn_prog prog;  /* "program" */
    sim_time start;        /* "start": when its instances start (0: at once) */
    bool spawned;          /* "spawned": instances start only when a spawn op starts them */
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

/* "mutexes", "condvars", "measures": named objects with no other keys. */
struct scn_named {
    char *name;     /* "name" */
};

enum scn_process { PROCESS_POISSON, PROCESS_CONSTANT, PROCESS_COUNT };

/* An open-loop arrival process: a Ruby thread of the main Ractor that
 * sleeps until each arrival and pushes one item into `queue` stamped with
 * the arrival time (core/gen.h). */
struct scn_generator {
    char *name;              /* "name" (default "gen<i>") */
    int queue;               /* "queue": index into scenario.queues */
    enum scn_process process;/* "process" */
    sim_time interval;       /* "interval", or 1 s / "rate": the mean time between arrivals */
    sim_time start;          /* "start": arrivals begin after it */
    uint64_t count;          /* "count": arrivals; 0 = until the run stops */
    struct scn_prog prog;    /* built: a loop of OP_ARRIVE */
};

/* A thread template, flattened: where it is and what it is. */
struct scn_tmpl {
    int ractor;                    /* index into scenario.ractors */
    const struct scn_thread *thread;
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
    sim_time warmup;            /* "warmup": samples and ops completed before it are not counted */
    struct scn_named *mutexes;  /* "mutexes" */
    int nmutexes;
    struct scn_named *condvars; /* "condvars" */
    int ncondvars;
    struct scn_named *measures; /* "measures": named latency measures, in column order */
    int nmeasures;
    struct scn_generator *generators; /* "generators" */
    int ngenerators;

    /* derived by the loader */
    int total_threads;   /* sum over ractors (x count) of threads (x count) */
    int total_ractors;   /* sum of ractor counts */
    struct scn_tmpl *tmpls;  /* every thread template, in scenario order */
    int ntmpls;
};

/* Each enum's names as written in JSON, in enum order, NULL-terminated
 * (the schema's enum values and the *_name functions share them). */
extern const char *const scn_policy_names[GVL_POLICY_COUNT + 1];
extern const char *const scn_invariant_names[INVARIANT_COUNT + 1];
extern const char *const scn_counter_names[COUNTER_COUNT + 1];
extern const char *const scn_alloc_counters_names[ALLOC_COUNTERS_COUNT + 1];
extern const char *const scn_counter_model_names[COUNTER_MODEL_COUNT + 1];
extern const char *const scn_snt_cap_names[SNT_CAP_COUNT + 1];
extern const char *const scn_mutex_impl_names[MUTEX_IMPL_COUNT + 1];
extern const char *const scn_os_scheduler_names[OS_SCHED_COUNT + 1];
extern const char *const scn_op_names[OP_KIND_COUNT + 1];
extern const char *const scn_call_names[CALL_COUNT + 1];
extern const char *const scn_dist_names[DIST_KIND_COUNT + 1];
extern const char *const scn_process_names[PROCESS_COUNT + 1];

const char *scn_policy_name(enum scn_gvl_policy p);
const char *scn_invariant_name(enum scn_invariant_check c);
const char *scn_counter_name(enum scn_insn_counter c);
const char *scn_alloc_counters_name(enum scn_alloc_counters c);
const char *scn_counter_model_name(enum scn_counter_model m);
const char *scn_snt_cap_name(enum scn_snt_cap c);
const char *scn_mutex_impl_name(enum scn_mutex_impl m);
const char *scn_os_scheduler_name(enum scn_os_scheduler s);
const char *scn_op_name(enum scn_op_kind k);
const char *scn_call_name(enum scn_syscall_call c);

const char *scn_dist_name(enum scn_dist_kind k);
const char *scn_process_name(enum scn_process p);

/* Machine keys a simulation of the scenario can read, over every thread
 * template (validate --sensitivity leaves out a move of keys it cannot):
 * - syscall[c], method_work[c], method_work_after[c]: whether an op takes
 *   machine.syscalls.CALL ("dur": "machine"), machine.method_work.CALL
 *   ("method_work": "machine") or machine.method_work_after.CALL; the
 *   builder copies them into the ops, so a cost no op takes is never read;
 * - gc: whether an op allocates or collects (alloc, env_escape, gc, a
 *   syscall that "allocates"): without one the heap never runs a GC step,
 *   and no gc_* key nor alloc_object (env_escape_work) is read.
 * Marks are added to r's (zero it first; calls over several scenarios
 * give their union). */
struct scn_reads {
    bool syscall[CALL_COUNT], method_work[CALL_COUNT], method_work_after[CALL_COUNT];
    bool gc;
};
void scn_machine_reads(const struct scenario *s, struct scn_reads *r);

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
