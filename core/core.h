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

/* A thread's frame stack holds its program and one frame per loop it is
 * inside; the loader limits nesting to SCN_MAX_LOOP_DEPTH. */
#define CORE_MAX_FRAMES (SCN_MAX_LOOP_DEPTH + 1)

struct core_frame {
    const struct scn_prog *prog;
    int pc;
    uint64_t left;               /* iterations left after the current one */
    bool forever;
    bool measure;
};

/* Where a thread is in its program (core/cursor.h). */
struct core_cursor {
    struct core_frame *stack;    /* nframes frames, malloc'ed (core_cursor_init) */
    int sp, nframes;             /* nframes: the program's depth, at most CORE_MAX_FRAMES */
    uint64_t ops;                /* iterations of "measure" loops completed */
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
};

/* Per-Ractor thread scheduler (struct rb_thread_sched of thread_pthread.h),
 * core/sched.h.  In the executor every field is read and written under the
 * Ractor's sched lock, except the two hints of PR 15840, which CRuby reads
 * and writes without it (hence atomics). */
struct core_sched {
    struct core_thread *running;          /* owner of the GVL, or NULL */
    struct core_thread *rq_head, *rq_tail;/* the FIFO ready queue (3.2: the GVL's wait queue) */
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
    struct core_sched sched;
};

/* A Ruby thread instance. */
struct core_thread {
    int id;                      /* index among all thread instances: its random stream */
    char *name;                  /* "main", "worker", "worker#3", "r#2/worker" */
    struct core_ractor *ractor;
    int instance, ninstances;    /* among instances of its template (times_total) */

    /* scheduler */
    struct core_thread *rq_next; /* in the ready queue (or a backend's own list) */
    bool in_readyq;
    sim_time running_time;       /* th->running_time_us, credited per TIMER interrupt */

    /* parked on a queue or in join */
    struct core_thread *wait_next;
    int parked_queue;            /* queue index, -1 if not parked on a queue */
    bool joining;

    struct rng rng;
    struct core_cursor cur;      /* its frames sized to the program's depth */
};

static inline struct core_sched *core_sched_of(const struct core_thread *th)
{
    return &th->ractor->sched;
}

#endif
