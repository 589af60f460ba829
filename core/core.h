/* core.h - the parts of a Ruby VM that both backends share: a thread's
 * identity, its program cursor and its place in its Ractor's scheduler,
 * and the per-Ractor scheduler (the GVL's state) itself.
 *
 * core/ knows neither time nor locks.  The simulator (models/) and the
 * real executor (exec/) embed these structures in their own thread and
 * Ractor structs (rb_thread and exec_thread hold a `struct core_thread
 * core`, rb_ractor and exec_ractor a `struct core_ractor core`) and call
 * core's decisions; what happens in time (a burst, a wake-up, a
 * cond_wait) stays with them.
 */
#ifndef CORE_CORE_H
#define CORE_CORE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/rng.h"
#include "../input/scenario.h"

/* The backend struct that embeds `ptr` as its member `member`. */
#define core_container_of(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* ec->interrupt_flag bits (vm_core.h) that the backends use. */
enum {
    CORE_INT_TIMER = 0x01,       /* TIMER_INTERRUPT_MASK: a timer tick (or the 3.2 timer waiter) */
    CORE_INT_PENDING = 0x02,     /* PENDING_INTERRUPT_MASK: woken by a Queue push etc. */
    CORE_INT_TERMINATE = 0x10,   /* TERMINATE_INTERRUPT_MASK: end at the next safe point */
    CORE_INT_VM_BARRIER = 0x20   /* VM_BARRIER_INTERRUPT_MASK: join the barrier at the next safe point */
};

/* A thread's frame stack holds its program and one frame per block it is
 * inside (a loop, a measure, a branch, a synchronize); the loader limits
 * nesting to SCN_MAX_LOOP_DEPTH. */
#define CORE_MAX_FRAMES (SCN_MAX_LOOP_DEPTH + 1)

struct core_frame {
    /* the next op to hand out and the end of its ops (pointers rather
     * than an index: the next op is one load and one compare) */
    const struct scn_op *next, *end;
    uint64_t left;               /* iterations left after the current one */
    union {
        sim_time start;          /* when the current iteration began (or its item arrived) */
        /* frame 0, the program's own, is never timed and never repeats:
         * it holds the cursor's warm-up (core_cursor_warmup), 8 bytes
         * less in every thread */
        sim_time warmup;
    };
    /* (40 bytes, and a thread of a loop has two: what the block's op says
     * once for all threads - its named measure, a synchronize's unlock,
     * a loop body's first op, read once per iteration - is read from the
     * op, the one before the next of the frame below: core_cursor_op) */
    bool forever;
    bool measure;                /* "measure": true: each iteration is one op */
    bool timed;                  /* each iteration (or the block) ends with a sample */
    bool sampled;                /* ... which was taken for the current one */
    bool from_pop, popped;       /* "latency_from": "pop", and the item's time is known */
    bool sync;                   /* a synchronize's body: its unlock runs after it */
    bool end_done;               /* ... the unlock was handed out */
};

/* The latencies of one named measure recorded by one thread (exact: every
 * sample is kept, core/measure.h). */
struct core_samples {
    sim_time *v;
    size_t n, cap;
    bool oom;                    /* a sample could not be stored */
};

/* Where a thread is in its program (core/cursor.h). */
struct core_cursor {
    struct core_frame *stack;    /* nframes frames (core_cursor_init, core_cursor_place) */
    uint64_t ops;                /* iterations of "measure": true loops completed (after warmup) */
    struct core_samples *samples;/* one per named measure (the backend's array), or NULL */
    /* nframes: the program's depth, at most CORE_MAX_FRAMES (33): a byte
     * each, and the warm-up in frame 0, so that the cursor is 32 bytes */
    int8_t sp, nframes;
};

struct core_thread;
struct core_hooks;
struct core_policy;

/* The 2.6-3.2 GVL's own fields (rb_global_vm_lock_t), used by the barging
 * policy only (core/policy.h, core_barging_*). */
struct core_barging {
    struct core_thread *timer;   /* the designated timer waiter (do_gvl_timer) */
    bool timer_timedout;         /* timer_err == ETIMEDOUT: arm a new deadline */
    bool need_yield, wait_yield; /* gvl_yield in progress */
    /* TIMER interrupts the timer set (core_barging_timer_end): the CSV's
     * timer_ticks under this policy, on every backend */
    uint64_t timer_fires;
};

/* Per-Ractor thread scheduler (struct rb_thread_sched of thread_pthread.h),
 * core/sched.h.  In the executor every field is read and written under the
 * Ractor's sched lock, except the two hints of PR 15840, which CRuby reads
 * and writes without it (hence atomics). */
struct core_sched {
    struct core_thread *running;          /* owner of the GVL, or NULL */
    /* the FIFO ready queue (3.2: the GVL's wait queue): readyq_cnt threads
     * in a ring from rq[rq_first], with room for every thread of the
     * Ractor (each is in it at most once).  A ring rather than a list
     * through the threads: who runs next, and after, is known without
     * touching them (the simulator fetches their memory ahead, gvl.c). */
    struct core_thread **rq;
    int rq_cap, rq_first;
    int readyq_cnt;
    bool is_running;                      /* `running` is in vm running_threads */
    bool is_running_timeslice;            /* ... and in the timer's timeslice set */
    /* hot_steal (PR 15840): sched->runnable_hot_th / runnable_hot_th_waiting */
    _Atomic(struct core_thread *) runnable_hot_th;
    atomic_bool runnable_hot_th_waiting;
    /* delayed / threshold: the running thread inside a blocking region that
     * kept the GVL (PR 15529's `waiting` flag), or NULL */
    struct core_thread *deferred;
    struct core_thread *last_ran;         /* ractor->threads.running_ec: resets running_time */
    uint64_t handoffs;                    /* times the GVL passed from one thread to another */
    struct core_barging barging;
    const struct core_policy *policy;     /* the GVL policy (core/policy.h) */
    const struct core_hooks *hooks;       /* what the backend does for a decision (core/sched.h) */
};

/* A Ractor instance. */
struct core_ractor {
    int id;
    char *name;                  /* "main", "r", "r#3" */
    int nthreads;
    void *block;                 /* its and its threads' names and frames (core_expand) */
    struct core_sched sched;
};

/* A Ruby thread instance. */
struct core_thread {
    /* (fields in an order without padding holes: with 100k threads every
     * byte of a thread is 100 KB) */
    int id;                      /* index among all thread instances: its random stream */
    int instance, ninstances;    /* among instances of its template (times_total) */
    /* its template: what it is (when it starts: start_at, below) */
    int tmpl;                    /* index among all thread templates, -1 for a generator */
    int gen;                     /* generator index, -1 for a template's instance */
    bool started, finished;
    bool in_readyq;              /* scheduler: in its Ractor's ready queue */
    bool joining;                /* parked in join (wait_next, below) */
    char *name;                  /* "main", "worker", "worker#3", "r#2/worker" */
    struct core_ractor *ractor;

    /* scheduler */
    struct core_thread *link;    /* a backend's own list (the 2.x GVL's switch waiters) */
    sim_time running_time;       /* th->running_time_us, credited per TIMER interrupt */

    /* parked on a queue or in join */
    struct core_thread *wait_next;
    int parked_queue;            /* queue index, -1 if not parked on a queue */
    /* ... or on a Mutex, a ConditionVariable, one thread's end (core/sync.h) */
    int parked_mutex;            /* mutex index, -1 if not waiting for one */
    int parked_cv;               /* condvar index, -1 if not waiting on one */
    int8_t op_phase;             /* where a multi-step op (cv_wait, arrive, join) is: 0..3 */
    bool timed_out;              /* the last timed wait ended by its timeout */
    struct core_thread *join_target; /* the thread a "join" of a template waits for */
    struct core_thread *joiners; /* joining this thread, newest first (thread_join: LIFO) */

    sim_time start_at;           /* when it starts (templates' "start"); < 0: when spawned */
    sim_time arrival;            /* generator: the next arrival (op_phase 1) or the last one */

    struct rng rng;
    struct core_cursor cur;      /* its frames sized to the program's depth */
};

/* Is th still on a wait list (a queue, a mutex, a condition variable, a
 * join)?  A waker takes it off before making it ready. */
static inline bool core_waiting(const struct core_thread *th)
{
    return th->parked_queue >= 0 || th->parked_mutex >= 0 || th->parked_cv >= 0 || th->joining;
}

static inline struct core_sched *core_sched_of(const struct core_thread *th)
{
    return &th->ractor->sched;
}

/* The ready queue's i-th thread from its head (0 <= i < readyq_cnt). */
static inline struct core_thread *core_rq_at(const struct core_sched *s, int i)
{
    int k = s->rq_first + i;
    return s->rq[k >= s->rq_cap ? k - s->rq_cap : k];
}

/* Its head and its tail, or NULL. */
static inline struct core_thread *core_rq_first(const struct core_sched *s)
{
    return s->readyq_cnt ? s->rq[s->rq_first] : NULL;
}

static inline struct core_thread *core_rq_last(const struct core_sched *s)
{
    return s->readyq_cnt ? core_rq_at(s, s->readyq_cnt - 1) : NULL;
}

#endif
