/* fair.h - Linux's fair scheduling class on the machine's cores: who runs
 * next on a core, and whether a woken task preempts the one running there.
 *
 * Two families, chosen by the machine profile's os_scheduler (the kernel's
 * version decides which one a real host runs):
 *
 * EEVDF (Linux 6.6+, kernel/sched/fair.c): every task has a virtual runtime
 * v (its CPU time, all weights equal) and a virtual deadline v + slice.  A
 * core's V is the average v of the tasks on its run queue, the running one
 * included; a task's lag is V - v, and lags sum to zero.  A task is
 * eligible when its lag >= 0 (V >= v).  pick_eevdf takes the eligible task
 * with the earliest deadline; RUN_TO_PARITY keeps the running task until
 * its deadline is renewed (it ran its slice: update_deadline, noticed at a
 * tick or any update_curr) unless it became ineligible.  A task's lag is
 * stored when it sleeps (clamped to +-max(2 slice, tick)) and restored
 * when it wakes onto a busy core (place_entity, PLACE_LAG: inflated by
 * (n+1)/n so that V keeps it); onto an idle core it is dropped.  A woken
 * task preempts the running one iff pick_eevdf now picks it
 * (check_preempt_wakeup_fair): with one task running, iff its lag is > 0.
 *   eevdf_delay_dequeue (6.12+, DELAY_DEQUEUE + DELAY_ZERO): a task that
 *   sleeps while ineligible stays on the run queue (it still counts in V)
 *   until it is picked, then leaves with its lag set to 0; woken before
 *   that, it is put back on the same core (ttwu_runnable), its positive
 *   lag set to 0 and re-placed at V - unless other tasks share that run
 *   queue and it may use another CPU: then it leaves the queue and is
 *   placed like any woken task, an idle core first (d68803506ffb, in
 *   6.12).  So the negative lag of a thread that
 *   ran more than its share is burnt off while it sleeps, instead of
 *   keeping it from preempting when it is woken: the reason why a woken
 *   thread preempts its waker about every time on 6.12+ and rarely on
 *   6.6-6.11 (see docs/calibrate.md).
 *
 * CFS (before 6.6): v as above, min_vruntime per core; a woken task keeps
 * its v (moved by the difference of the two cores' min_vruntime if it
 * changes core, migrate_task_rq_fair), is placed at no less than
 * min_vruntime - latency/2 (place_entity, GENTLE_FAIR_SLEEPERS) and
 * preempts iff curr.v - its v > wakeup_gran; the smallest v runs next; a
 * task runs at least its slice before a tick switches it out.  The
 * parameters follow the kernel's defaults from os_timeslice as the minimum
 * granularity: latency = 8 x, wakeup_gran = 4/3 x.
 *
 * Ticks happen at multiples of os_tick on every core.  The machine calls
 * these functions at its events (wake, block, exit, switch in/out, tick);
 * nothing here schedules events itself.
 */
#ifndef SIM_FAIR_H
#define SIM_FAIR_H

#include <stdbool.h>

#include "../common/metrics.h"
#include "engine.h"

enum mach_sched {
    MACH_SCHED_FIFO,         /* FIFO run queues, no fair class (machine.c alone) */
    MACH_SCHED_CFS,
    MACH_SCHED_EEVDF,
    MACH_SCHED_EEVDF_DELAY,
    MACH_SCHED_COUNT
};

struct mach_task;

/* What the fair class decided, counted over a run for the machine (the
 * summary's "fair class" line; the same counts scripts/bpf/sched_wakes.awk
 * reads from a kernel: wake-up preemptions in its section 1, sleeps in its
 * section 5) and for each task as the wakee and the sleeper (the summary's
 * lines by thread, the report's section 6). */
enum { FAIR_SLEEP_DELAYED, FAIR_SLEEP_LAG_POS, FAIR_SLEEP_LAG_ZERO, FAIR_SLEEP_LAG_NEG, FAIR_SLEEP_KINDS };
struct fair_counts {
    uint64_t wake_checks;    /* wakes onto a busy core: wakeup_preempt asked */
    uint64_t wake_preempts;  /* ... of which preempted the running task */
    uint64_t delayed_checks, delayed_preempts;  /* ... of those, wakes of a delayed sleeper */
    /* sleeps under EEVDF, by the lag the sleeper left with: kept on the
     * queue (DELAY_DEQUEUE: not eligible), positive, none, negative */
    uint64_t sleeps[FAIR_SLEEP_KINDS];
};

/* A task's own counts as the wakee, under EEVDF: the wakes that found the
 * running task eligible (V >= its v: only then can RUN_TO_PARITY or an
 * earlier deadline keep it on), and the running task's vruntime lead over
 * it at the wake (its v less the wakee's, placed): the wakes with the lead
 * within FAIR_LEAD_NEAR of 0, and between two such wakes in a row how it
 * moved (docs/bpf.md, "The waker's lead"). */
struct fair_lead {
    uint64_t waker_eligible;
    uint64_t near, steps;
    int64_t moved;           /* the steps summed (ps) */
    sim_time last;           /* the lead at its last wake onto a running task ... */
    bool last_near;          /* ... and whether that was within FAIR_LEAD_NEAR */
};

/* A lead within this of 0: where a two-thread hand-off chain on one CPU
 * sits, the thread it wakes placed just behind it (a run of the waker
 * alone leaves it hundreds of us ahead). */
#define FAIR_LEAD_NEAR ((sim_time)RUN_FAIR_LEAD_NEAR_US * SIM_US)

/* A task's scheduling entity. */
struct fair_se {
    sim_time v;              /* virtual runtime, in its core's frame */
    sim_time deadline;       /* EEVDF virtual deadline */
    sim_time vlag;           /* lag stored while off every run queue */
    sim_time exec_start;     /* when it started running (v is up to date then) */
    sim_time picked_at;      /* when a context switch to it began (set_next_entity), or -1 */
    bool on_rq;              /* counted in its core's V */
    bool delayed;            /* DELAY_DEQUEUE: asleep but still on the run queue */
    bool protect;            /* RUN_TO_PARITY: picked, deadline not renewed since */
    int rq_core;             /* core whose run queue has it (on_rq), else -1 */
    int left_core;           /* CFS: the core it left (its v is in that core's frame) */
    struct mach_task *dnext; /* the core's list of delayed tasks */
    /* its utilization, as of util_at (machine.c task_util: only with
     * wake_pack_util): the running average of the share of time it ran */
    double util;
    sim_time util_at;
    sim_time util_charged;   /* the CPU its wake's way out is charged (task_util_run) */
    struct fair_lead lead;   /* (only the summary reads it) */
    struct fair_counts counts;  /* its share of the machine's (last: only the summary reads it) */
};

/* A core's fair run queue (the tasks themselves are in the machine's run
 * queue list; this is what V needs). */
struct fair_rq {
    __int128 sum;            /* sum of v over the tasks on_rq, curr at its last update */
    int nr;                  /* tasks on_rq: queued, running/arriving, delayed */
    sim_time vbase;          /* V when the queue was last non-empty (CFS: min_vruntime) */
    struct mach_task *delayed;
    int ndelayed;
};

#endif

/* ---- what the machine calls (sim/fair.c) ---------------------------------- */

struct machine;
struct mach_core;

/* Is a fair class in use (not FIFO)?  fair_on(m) is an inline function of
 * machine.h (it reads the machine's parameters). */

/* t (not on any run queue) joins c's: a new thread (initial), or a woken
 * one (its stored lag applied if c has tasks). */
void fair_enqueue(struct machine *m, struct mach_core *c, struct mach_task *t, bool initial);
/* t, delayed on its core c, is woken (ttwu_runnable, Linux 6.12 with
 * d68803506ffb "sched/fair: Dequeue sched_delayed tasks when waking to a
 * busy CPU", Mike Galbraith, Nov 2024): if other tasks are on c's run queue
 * and t may run on another CPU, it leaves the queue (DEQUEUE_SLEEP |
 * DEQUEUE_DELAYED: its lag stored, no positive lag) and is placed like any
 * woken task (select_task_rq: an idle core first) - returns true; else
 * false, and the caller puts it back on c (fair_requeue_delayed). */
bool fair_wake_delayed_dequeue(struct machine *m, struct mach_core *c, struct mach_task *t);
/* t, delayed on its core c, is woken there (ttwu_runnable's requeue): its
 * lag is taken against c's running task as last updated (at most a tick
 * ago), not as of now; fair_wakeup_preempt then updates it. */
void fair_requeue_delayed(struct machine *m, struct mach_core *c, struct mach_task *t);
/* The running task t of c goes to sleep (its lag stored, or delayed). */
void fair_dequeue_sleep(struct machine *m, struct mach_core *c, struct mach_task *t);
/* t leaves c's run queue for good (exit) or for another core (migration:
 * its lag kept, to be applied by the next fair_enqueue). */
void fair_dequeue(struct machine *m, struct mach_core *c, struct mach_task *t, bool keep_lag);

/* t starts / stops running on c (its v is kept up to date).  A task
 * brought in by a context switch (fair_picked when the switch began) is
 * charged the switch: the kernel starts its run period when it picks it
 * (set_next_entity -> update_stats_curr_start), before context_switch. */
void fair_picked(struct machine *m, struct mach_task *t);
void fair_curr_start(struct machine *m, struct mach_core *c, struct mach_task *t);
void fair_curr_stop(struct machine *m, struct mach_core *c, struct mach_task *t);

/* t was just enqueued on c (requeued: `delayed`, fair_requeue_delayed):
 * must c's running task be re-picked (check_preempt_wakeup_fair: t would
 * be picked, or its deadline ran out)? */
bool fair_wakeup_preempt(struct machine *m, struct mach_core *c, struct mach_task *t, bool delayed);

/* Who runs next on c: a queued task (READY, in the machine's run queue
 * list), or c's running task itself when with_curr and it stays; NULL if
 * nothing is runnable.  Delayed tasks picked on the way leave the queue. */
struct mach_task *fair_pick(struct machine *m, struct mach_core *c, bool with_curr);

/* sched_yield(2) by c's running task t: who runs instead, or NULL if t
 * keeps the core.  EEVDF (yield_task_fair): an eligible t forfeits the rest
 * of its slice (v = deadline), its deadline moves a slice further, then the
 * usual pick; CFS: the skip buddy, i.e. the queued task with the smallest v
 * (the kernel also checks it is not too far behind). */
struct mach_task *fair_yield(struct machine *m, struct mach_core *c, struct mach_task *t);

/* When a tick should next reconsider c's running task (it has waiters),
 * and what that tick does: true if the running task must be re-picked
 * (then fair_pick with_curr says who runs). */
sim_time fair_resched_time(struct machine *m, struct mach_core *c);
bool fair_tick(struct machine *m, struct mach_core *c);
