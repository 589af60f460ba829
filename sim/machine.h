/* machine.h - CPU cores and the OS scheduler (ours, whichever engine runs).
 *
 * A mach_task is one native (OS) thread.  A task is on a core (RUNNING), in
 * a core's run queue (READY), arriving on a core (ARRIVING: a context switch
 * or an idle core waking up), sleeping in the kernel (BLOCKED), or DEAD.
 *
 * Models drive a task with three calls, exactly one of which must end every
 * continuation the machine hands them:
 *   mach_burst(t, d, k, ctx)  use the CPU for d, then call k(t, ctx)
 *   mach_block(t, k, ctx)     sleep (a voluntary switch) until mach_wake(t),
 *                             then call k(t, ctx) once back on a core
 *   mach_exit(t)              the thread ends
 * and may call, instead of one of them, mach_yield(t, k, ctx) (sched_yield:
 * another runnable task of its core may run first), which ends in k.
 *
 * What the OS does on its own (this is what makes 1 core differ from 2):
 * - wake placement, after Linux select_idle_sibling: the wakee's previous
 *   core if idle, else the lowest idle core (it runs after wake_idle_core:
 *   IPI + idle-state exit); if no core is idle it joins the least loaded run
 *   queue (its previous core on ties), after wake_busy_core if that core is
 *   remote, and runs when the core is released (context_switch).  A
 *   packing machine (wake_pack p > 0) keeps, in a share p of the wakes, a
 *   wakee whose previous core is its running waker's on that core's run
 *   queue even with another core idle (the fair class decides whether it
 *   preempts the waker; otherwise it runs when the waker blocks or at the
 *   slice's end) - if it slept less than wake_pack_sleep (when > 0): a
 *   thread that slept longer goes to the idle core as on mainline - and,
 *   under a fair class, while the waker's and the wakee's utilizations
 *   (their running averages, as Linux's PELT keeps them) sum below
 *   wake_pack_util (when > 0): the guest's kernel packs only onto a CPU
 *   with room left for both.  Wake
 *   latencies vary (the idle state reached, IPI delivery): each is drawn
 *   uniformly within +-wake_jitter of its mean.  Without that spread, equal
 *   latencies phase-lock periodic threads (the timer thread would always
 *   wake exactly in the gap between two GVL owners).  The longer an idle
 *   core has been idle, the longer it takes to wake (a deeper C-state; in
 *   a guest, a vCPU past the host's halt polling that the host's scheduler
 *   must run again): wake_idle_extra adds y(idle time), a curve of
 *   measured points (common/curve.h), to the drawn wake_idle_core, not
 *   itself jittered;
 *   a running waker's wake onto a remote core idle for less than
 *   wake_prehalt_window (its vCPU not yet halted; in a share
 *   wake_prehalt_share of such wakes) runs the wakee wake_prehalt_return
 *   after the core went idle instead, and its waker sends no IPI
 *   (it pays wake_prehalt_cost: mach_wake_waking_cost);
 * - a core whose task blocks or exits switches to its run-queue head, or
 *   pulls the head of the longest other run queue (idle balance), or idles;
 * - a core with waiting tasks preempts its task after os_timeslice: an
 *   involuntary switch, the burst paused and resumed later;
 * - os_scheduler "fifo": run queues are FIFO, and only tasks marked
 *   wakeup_preempt (the timer thread) preempt a busy core when woken (a
 *   thread that slept long);
 * - os_scheduler "cfs", "eevdf", "eevdf_delay_dequeue": Linux's fair class
 *   (sim/fair.h) decides who runs next on a core, when a time slice ends
 *   (noticed at the ticks, every os_tick) and whether a woken task
 *   preempts the running one - from the tasks' virtual runtimes and lags,
 *   for every task alike.  A task that sleeps while "delayed" on a core
 *   (6.12+) is woken on that same core.
 * The waker's own cost (futex_wake) is charged by the model that wakes.
 *
 * Co-running cores (corun_slowdown s > 1): work on a core takes longer while
 * other cores are busy too - shared execution resources of SMT siblings, a
 * lower turbo frequency, shared caches - by the factor
 *     f(b) = 1 + (s - 1) (b - 1) / (N - 1)
 * with b of the N cores busy (running a task): s when all are.  Every
 * burst is fluid: its remaining work is re-timed whenever b changes.  A
 * profile measures s with two busy loops (gvlsim calibrate); between 1 and
 * N cores the linear form is an assumption.
 *
 * Speed levels (speed_n >= 2): a core moves between levels of speed on its
 * own - a guest's vCPU whose host shares the physical core with work the
 * guest cannot see runs its loads and stores slower for tens of
 * milliseconds at a time (exec/calib_speed.c).  While core c is at level
 * i, work on it takes speed_f[i] times as long; a level lasts an
 * exponential time of mean speed_dwell[i], then another level, drawn
 * evenly, follows (a stream of its own); a burst under way is re-timed
 * with its work kept, as under co-running.  An idle core's levels are
 * drawn when it is busy again, so an idle machine has no events.
 *
 * Hidden steal (hidden_steal_rate r > 0): a virtual CPU loses its physical
 * CPU now and then without the guest knowing - the host runs something
 * else, and a guest without steal accounting (no steal time in /proc/stat)
 * charges the gap to whichever task was running: wall time passes, the
 * task's burst makes no progress, and the fair class counts the gap in its
 * virtual runtime (update_curr reads a clock that went on; the kernel takes
 * the gap out of clock_task only with paravirt steal time,
 * kernel/sched/core.c update_rq_clock_task).  Gaps come as one Poisson
 * process of r per second of wall time for the whole machine while any
 * core runs a task, each of a length drawn from hidden_steal_len (equally
 * likely values), and a gap stops every core that runs a task at once,
 * and delays a task's arrival on a core (a switch, an idle core's
 * wake-up) as much: on the AMD EPYC guest 93-97% of one vCPU's gaps
 * overlapped one of the other's while both ran (the host stops the guest,
 * not a vCPU).  An idle core loses nothing, and timers, the remote wake's
 * enqueue and the models' own events are not delayed (an approximation).  While its gap lasts, a core does not reschedule (the
 * vCPU cannot run its interrupts): a slice end or a wake-up's preemption
 * waits for the gap's end.  The draws come from a stream of their own
 * (the same seed, the same gaps; a machine without them draws nothing
 * else differently).  `gvlsim calibrate` measures r and the lengths with
 * a clock-reading loop on each CPU (hidden_steal_*; docs/calibrate.md).
 * Co-running and rated bursts re-planned during a gap count its rest as
 * work (an approximation: gaps are tens of microseconds).
 *
 * Rated bursts (mach_burst_rated) serve fluid models (models/counter.c): a
 * burst of `work` units whose cost per unit the model may change while it
 * runs; the machine re-plans its end, rounding once in mach_work_time.
 */
#ifndef SIM_MACHINE_H
#define SIM_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "../common/curve.h"
#include "../common/rng.h"
#include "fair.h"

struct machine;
struct mach_task;
struct mach_rate_hook;
struct mach_rated;
struct mach_rated_pool;

typedef void (*mach_cont)(struct mach_task *t, void *ctx);

enum mach_task_state {
    MT_NEW,
    MT_RUNNING,
    MT_READY,
    MT_ARRIVING,
    MT_BLOCKED,
    MT_DEAD
};

struct mach_task {
    /* Hot first: what every wake, arrival, burst and block reads or writes
     * fits two cache lines (128 bytes); with many threads each task is
     * cold by its turn and every further line is a miss (docs/bench.md). */
    enum mach_task_state state : 8;
    uint8_t after_idle;      /* the kinds of work (its owner's bits) it has not done since it
                              * last arrived on an idle core: all set at such an arrival
                              * (mach_params.mark_after_idle), cleared by its owner */
    int core;       /* core it runs/queues/arrives on, or -1 */
    int last_core;  /* core it last ran on (placement), -1 if never */
    bool wakeup_preempt;     /* fifo: preempts a busy core when woken */
    bool in_burst;           /* in a CPU burst (below) */
    bool rated;              /* ... a rated one (mach_burst_rated, below) */
    bool interrupt_pending;  /* cut the burst as soon as it runs again */

    /* the current CPU burst */
    sim_time burst_left;     /* work still to do when paused (uncontended time) */
    sim_time burst_end;      /* natural end while running */
    sim_time burst_cut;      /* earlier end requested by mach_interrupt, or 0 */
    sim_event_id burst_ev;
    mach_cont burst_k;
    void *burst_ctx;

    /* continuation after a block or start */
    mach_cont resume_k;
    void *resume_ctx;

    struct mach_task *rq_next;
    sim_time slice_used;     /* time slice used before a sleeper preempted it (read at every arrival) */

    /* statistics */
    uint64_t vcsw;       /* voluntary switches (blocked while on a core) */
    uint64_t ivcsw;      /* involuntary switches (preempted) */
    /* when it last went to sleep (written by every block; read by wake
     * placement), the last of the hot part */
    sim_time blocked_at;

    /* colder (no id: 4 bytes and their padding, 8 a task) */
    const char *name;
    sim_time interrupt_delay;
    sim_time wake_return;    /* the return of its FUTEX_WAIT, paid in its next switch-in
                              * (set by a MACH_WAKE_CHAIN wake: mach_params.wake_return) */

    double burst_f;          /* co-running cores: the factor the burst's end was planned with */
    /* its rated burst's state (mach_burst_rated), from the machine's pool
     * at its first one: most tasks never run one */
    struct mach_rated *rt;

    /* the fair class's entity (cfs, eevdf; NULL under fifo), from the
     * machine's pool: 64 bytes that most runs do not need, out of every
     * task (100k threads: 6 MB) */
    struct fair_se *se;
};

enum mach_core_state { CORE_IDLE, CORE_SWITCHING, CORE_WAKING, CORE_BUSY };  /* 0..3: state_time */

/* Observer for traces: called on every change of what a core does. */
struct mach_observer {
    void *ctx;
    void (*core_change)(void *ctx, int core, enum mach_core_state st,
                        const struct mach_task *t, sim_time now);
    /* hidden steal: a gap of `len` from `at` on a core running t (may be NULL) */
    void (*steal)(void *ctx, int core, const struct mach_task *t, sim_time at, sim_time len);
};

struct mach_core {
    int id;
    enum mach_core_state state;
    struct mach_task *cur;       /* RUNNING task, or the ARRIVING one */
    struct mach_task *rq_head, *rq_tail;
    int nrq;
    sim_time slice_start;
    sim_time idle_at;        /* when it last went idle (MACH_WAKE_CHAIN, wake_idle_extra) */
    sim_time stall_until;    /* hidden steal: the end of the gap it is in (no rescheduling before) */
    sim_event_id arrive_ev;  /* ... its task's arrival (switch, wake-up), which a gap delays */
    sim_time arrive_at;
    sim_event_id slice_ev;
    sim_event_id resched_ev; /* fair: a re-pick asked for (need_resched) */
    sim_event_id nohz_ev;    /* its next tick's kick of an idle core (ev_nohz_kick) */
    int nohz_failed;         /* kicks in a row that left a cache-hot task (nr_balance_failed) */
    struct fair_rq frq;      /* fair: what V needs */
    sim_time state_since;
    sim_time clock_synced;   /* when its task last read a CPU clock (its runtime brought up to date) */
    union {  /* time spent in each state, indexed by enum mach_core_state */
        sim_time state_time[4];
        struct { sim_time idle_time, switch_time, waking_time, busy_time; };
    };
    sim_time wake_cpu_time;  /* of waking_time, what the wakees were charged (wake_idle_cpu) */
    double speed_f;          /* its speed level's factor (1: none) */
    int speed_level;
    sim_time speed_until;    /* when the level ends */
    sim_event_id speed_ev;   /* ... its end, while the core is busy */
};

#define MACH_STEAL_LENS GV_CURVE_MAX
#define MACH_WAKING_COSTS GV_CURVE_MAX  /* the most values of wake_waking (the schema's bound) */
/* A task's utilization halves over this (sim/fair.h, fair_se.util):
 * Linux's load tracking decays a task's running average by y per 1024 us
 * period with y^32 = 1/2 (kernel/sched/pelt.c, "PELT": about 32 ms). */
#define MACH_UTIL_HALF (32 * SIM_MS)
#define MACH_SPEED_LEVELS 8  /* the most speed levels a machine has (more are ignored) */

struct mach_params {
    int cores;
    sim_time context_switch;
    sim_time wake_idle_core;
    sim_time wake_idle_cpu; /* of such a wake, CPU time of the wakee (counted busy, not idle) */
    sim_time wake_busy_core;
    double wake_jitter;     /* wake latencies uniform in [L(1-j), L(1+j)] */
    const struct gv_curve *wake_idle_extra; /* + this on an idle core, by how long it was idle
                                             * (NULL or no point: none; mach_init copies it) */
    const struct gv_curve *wake_ipi_extra;  /* the waker's extra cost of waking an idle remote
                                             * core, by how long it was idle (the same) */
    const sim_time *wake_waking; /* the waker's cost of a wake onto a remote core whose wake-up
                                  * for another task is under way (CORE_WAKING): one of these,
                                  * equally likely (mach_init copies them) */
    int wake_waking_n;           /* ... how many (0: none; at most MACH_WAKING_COSTS) */
    sim_time wake_prehalt_window; /* a running waker's wake onto a remote core idle for less than
                                   * this finds its vCPU not yet halted (0: never) ... */
    double wake_prehalt_share;    /* ... in this share of such wakes (1: all) ... */
    sim_time wake_prehalt_return; /* ... and the wakee runs this long after the core went idle
                                   * (at once if that is past) ... */
    sim_time wake_prehalt_cost;   /* ... and the waker pays this, no IPI (mach_wake_waking_cost) */
    sim_time os_timeslice;  /* fifo: the slice; eevdf: the base slice; cfs: min granularity */
    enum mach_sched sched;  /* fifo, cfs, eevdf, eevdf with DELAY_DEQUEUE */
    sim_time os_tick;       /* the kernel's tick (fair classes notice slice ends there) */
    double corun_slowdown;  /* work's slowdown with every core busy (<= 1: none) */
    double wake_pack;       /* share of wakes kept on the waker's core (below) */
    sim_time wake_pack_sleep; /* ... of those whose sleep was shorter (0: any sleep) */
    double wake_pack_util;  /* ... while waker's and wakee's utilizations sum below it (0: any; below) */
    double steal_rate;      /* hidden steal: gaps per second while a core is busy (0: none) */
    const sim_time *steal_len; /* ... their lengths, equally likely (mach_init copies them) */
    int steal_nlen;         /* ... how many (at most MACH_STEAL_LENS) */
    bool expiry_stalls;     /* the models stop a core at a timer's expiry (mach_stall_core) */
    sim_time wake_return;   /* the sleeper's own share of a one-core futex hand-off: its
                             * FUTEX_WAIT, charged to it as it is switched back in after a
                             * MACH_WAKE_CHAIN wake (0: the waker pays the whole hand-off) */
    bool mark_after_idle;   /* set mach_task.after_idle on every arrival on an idle core */
    uint64_t seed;          /* for the wake-latency and gap draws */
    /* a core's speed levels: work takes speed_f[i] times as long while the
     * core is at level i, which lasts an exponential time of mean
     * speed_dwell[i] (speed_n < 2: none) */
    const double *speed_f;
    const sim_time *speed_dwell;
    int speed_n;
    /* the share of a level's slowdown that the costs a thread owes for its
     * system calls into other threads (mach_owed_work: a futex wake, a
     * lock's section) see: 1 + share x (speed_f[i] - 1) */
    double speed_wake_share;
};

struct machine {
    struct sim_engine *eng;
    struct mach_params p;
    struct mach_core *cores;
    int ncores;
    /* indexes over the cores, so that no decision scans them all
     * (machine.c, "core indexes"): */
    int nrq_total;       /* tasks in all run queues together */
    uint64_t *idle;      /* bit i set: core i is CORE_IDLE */
    uint64_t *rq_min;    /* tournament tree over the cores' nrq (machine.c) */
    int rq_leaves;       /* leaves of that tree: ncores rounded up to a power of 2 */
    struct mach_observer obs;
    uint64_t migrations; /* idle-balance pulls */
    int nbusy;           /* cores running a task (CORE_BUSY) */
    bool corun;          /* corun_slowdown applies (> 1, several cores) */
    double corun_f;      /* its factor f(nbusy), kept by core_busy_hooks (machine.c) */
    bool speed_on;       /* speed levels */
    bool scaled;         /* corun || speed_on: a burst's time is its work times a factor */
    struct rng speed_rng;
    double speed_f[MACH_SPEED_LEVELS];
    sim_time speed_dwell[MACH_SPEED_LEVELS];
    int speed_n;
    struct rng rng;      /* wake-latency jitter */
    sim_time idle_spread, busy_spread;  /* of wake_idle_core, wake_busy_core */
    uint64_t pack_below;  /* a draw below it packs (0 < wake_pack < 1) */
    struct mach_rated_pool *rated;  /* rated-burst states handed out (machine.c) */
    struct mach_se_pool *se_pool;   /* fair entities handed out (mach_task_init) */
    struct fair_se se_spare;        /* ... the one of a task none was left for */
    bool oom;            /* one could not be allocated: the run stopped */
    char error[256];     /* first protocol violation by a model, if any */
    struct gv_curve idle_extra;  /* wake_idle_extra's copy (cold: read by idle-core wakes only) */
    struct gv_curve ipi_extra;   /* wake_ipi_extra's copy (the same) */
    sim_time last_ipi_extra;     /* what it gave the latest wake (mach_wake_ipi_extra) */
    sim_time waking_cost[MACH_WAKING_COSTS]; /* wake_waking's copy */
    int nwaking;                 /* ... how many */
    sim_time last_waking_cost;   /* what the latest wake drew from it, or a pre-halt wake's cost, or -1
                                  * (mach_wake_waking_cost) */
    uint64_t prehalt_below;      /* a draw below it is a pre-halt wake (0 < wake_prehalt_share < 1) */
    /* hidden steal (cold: a few thousand gaps per simulated second) */
    bool steal_on;               /* steal_rate > 0 with lengths */
    bool stalls_on;              /* gaps of either kind: steal_on or p.expiry_stalls */
    bool busy_hooks;             /* corun, steal_on or speed_on: a core's busy change does more */
    bool util_on;                /* p.wake_pack_util > 0 under a fair class: tasks keep their utilization */
    /* the last-level cache's utilization, which decides whether a wake
     * looks for an idle core at all (SIS_UTIL, eevdf classes: machine.c,
     * llc_idle_scan) */
    bool sis_util;
    sim_sum busy_area;           /* the integral of nbusy over time, ... */
    sim_time busy_area_at;       /* ... up to here */
    double llc_util;             /* the cores' mean utilization (0..1), as of llc_util_at */
    sim_time llc_util_at;
    sim_sum llc_area_at;         /* busy_area (brought up to llc_util_at) then */
    uint64_t wakes_unscanned;    /* wakes whose previous core was busy and that stayed on a busy
                                  * core although one was idle: the cache too busy to scan */
    sim_event_id steal_ev;       /* the next gap, drawn while a core is busy */
    sim_time steal_mean_gap;     /* mean time between gaps, ps */
    sim_time steal_len[MACH_STEAL_LENS];
    struct rng steal_rng;        /* their own stream */
    uint64_t steals;             /* gaps that fell on a running task */
    sim_time stolen;             /* ... their total length */
    struct fair_counts fair;     /* what the fair class decided (sim/fair.h) */
};

/* Is a fair class in use (not FIFO)?  (Inline: the FIFO machine asks on
 * every switch and pays no call for the fair classes' hooks.) */
static inline bool fair_on(const struct machine *m)
{
    return m->p.sched != MACH_SCHED_FIFO;
}

int mach_init(struct machine *m, struct sim_engine *eng,
              const struct mach_params *p, char *err, unsigned errlen);
void mach_free(struct machine *m);

void mach_task_init(struct machine *m, struct mach_task *t, const char *name);

/* A new thread becomes runnable (pthread_create); k runs once on a core. */
void mach_start(struct machine *m, struct mach_task *t, mach_cont k, void *ctx);

/* Use the CPU for d (>= 0).  The task must be RUNNING and not in a burst. */
static inline void mach_burst(struct machine *m, struct mach_task *t, sim_time d,
                              mach_cont k, void *ctx);

/* Cut the task's current burst at its next safe point, `delay` from now (or
 * from when it next runs, if preempted).  Its continuation then sees
 * t->burst_left > 0: the work not done.  Returns 1 if a burst will be cut. */
int mach_interrupt(struct machine *m, struct mach_task *t, sim_time delay);

/* Sleep in the kernel: a voluntary context switch. */
void mach_block(struct machine *m, struct mach_task *t, mach_cont k, void *ctx);

/* Wake a BLOCKED task (futex wake); `waker` may be NULL (kernel timer).
 * Returns MACH_WAKE_NONE (0) if it was not sleeping (the wake is then a
 * no-op, as FUTEX_WAKE with no waiter), else MACH_WAKE_LOCAL if it is
 * placed on the waker's own core (or there is no waker), or
 * MACH_WAKE_REMOTE if another core must be interrupted: the waker sends an
 * IPI, which the model charges it (wake_ipi) beside futex_wake.
 * MACH_WAKE_CHAIN is a local wake of a task that last ran on the waker's
 * core, which has not been idle since it went to sleep: a hand-off chain
 * on one core, whose wakes cost the waker less than a wake after a pause
 * (futex_wake_chain against futex_wake: docs/calibrate.md). */
enum { MACH_WAKE_NONE = 0, MACH_WAKE_LOCAL = 1, MACH_WAKE_REMOTE = 2, MACH_WAKE_CHAIN = 3 };
int mach_wake(struct machine *m, struct mach_task *t, const struct mach_task *waker);
/* The same for the expiry of a timer the task armed (its timed wait): the
 * hrtimer fires on the core it was armed on, so if that core (the task's
 * last) is idle it wakes without wake_idle_core / wake_idle_extra - the
 * caller charges the measured expiry-to-running time (machine.timer_wake)
 * itself.  Any other placement is mach_wake's with no waker. */
int mach_wake_timer(struct machine *m, struct mach_task *t);
/* What the latest mach_wake's IPI cost its waker beyond wake_ipi: when it
 * woke an idle core other than the waker's, wake_ipi_extra at how long
 * that core had been idle, else 0.  A guest's idle vCPU is polled by the
 * host for a while (KVM halt polling, Documentation/virt/kvm/
 * halt-polling.rst), and an IPI then only needs noticing; after that the
 * host has descheduled the vCPU's thread and the waker's IPI must wake
 * it, which the waker waits for (`gvlsim calibrate`, wake_ipi_after_idle_*:
 * on the EPYC guest 7-9 us within 50 us of idle, 39-41 us from 100 us).
 * The caller adds it to the wake's cost (models/vm.h vm_wake_cost) before
 * its next mach_wake. */
static inline sim_time mach_wake_ipi_extra(const struct machine *m);
/* Core `core` stops for g from now, as a hidden-steal gap stops every
 * core (above), but this core alone: the expiry of a timer armed there,
 * which a virtual CPU takes g to be given (machine.timer_stall).  A running
 * burst ends g later (its task is charged the time, as the guest kernel
 * charges whoever was current), a task arriving arrives g later, and the
 * core does not reschedule before the end.  A core already inside a gap
 * stops for g after it.  Returns how long from now the core is stopped:
 * 0 when it is idle (an idle vCPU loses no work) or the machine was not
 * set up with expiry_stalls. */
sim_time mach_stall_core(struct machine *m, int core, sim_time g);
/* A wake latency the caller charges itself (machine.timer_wake), drawn
 * like the machine's own: uniformly within +-wake_jitter of `mean`. */
sim_time mach_wake_draw(struct machine *m, sim_time mean);

void mach_exit(struct machine *m, struct mach_task *t);
/* t (RUNNING, not in a burst) reads a CPU-time clock of its process
 * (clock_gettime CLOCK_PROCESS_CPUTIME_ID): the kernel brings the running
 * task's runtime up to date (kernel/sched/cputime.c thread_group_cputime ->
 * core.c task_sched_runtime -> update_curr), so a fair class notices there,
 * not only at the next tick, that t's slice is over (update_deadline) and
 * t gives its core to the task the class picks as the call returns.
 * Returns what the read gives: the process's CPU time (mach_cpu_time) up
 * to now with t's own runtime exact, and every other running thread's as
 * it was at the last update of its runtime - a switch, a tick, its own
 * read of a CPU clock (thread_group_cputime: "This thread group might have
 * other running tasks on different CPUs, but updating their runtime can
 * affect syscall performance, so we skip account those pending times and
 * rely only on values updated on tick or other scheduler action").  So a
 * window between two reads counts another CPU's thread from that update
 * before the window on, when the thread switches within it, and nothing of
 * it when it neither switches nor ticks there (scripts/process_clock.c
 * shows it on a guest). */
sim_sum mach_cpu_clock_read(struct machine *m, struct mach_task *t);
/* sched_yield(2): t (RUNNING, not in a burst) lets another runnable task of
 * its core run first - FIFO: the run-queue head; fair: fair_yield - an
 * involuntary switch (the kernel counts a yield that switches in nivcsw),
 * t queued again; k(t, ctx) runs once t is back on a core.  With nothing
 * else runnable on its core, k runs at once. */
void mach_yield(struct machine *m, struct mach_task *t, mach_cont k, void *ctx);

/* ---- rated bursts (fluid models) ----------------------------------------
 * A rated burst does `work` units at rate_num/rate_den ps per unit.  The
 * hook is told each time the burst starts or stops executing on a core
 * (start, preemption, resume, end, cut), so a model can track who executes
 * and change rates with mach_burst_set_rate; the machine then re-plans the
 * end from the work still left.  The continuation sees t->burst_left = the
 * units not done (> 0 if cut).  Work done in part of a segment is counted
 * in proportion to the time elapsed (floor), in integers. */
struct mach_rate_hook {
    void (*on_cpu)(void *ctx, struct mach_task *t, bool running);
    void *ctx;
};

void mach_burst_rated(struct machine *m, struct mach_task *t, sim_time work, uint64_t rate_num,
                      uint64_t rate_den, const struct mach_rate_hook *hook, mach_cont k, void *ctx);
/* Change the rate of t's rated burst (a no-op for other bursts or an
 * unchanged rate).  If t is on a core, its end is re-planned now. */
void mach_burst_set_rate(struct machine *m, struct mach_task *t, uint64_t rate_num,
                         uint64_t rate_den);
/* The one place a rate decides a time: `work` units at num/den ps each,
 * rounded to the nearest picosecond (halves up), saturating at
 * SIM_TIME_MAX.  Exact integer arithmetic (128-bit), no floating point. */
sim_time mach_work_time(sim_time work, uint64_t num, uint64_t den);

/* Close the books at `end` (the run's end time, which may lie after the
 * last event): per-core state times up to date. */
void mach_finish(struct machine *m, sim_time end);

/* Summed over cores: time busy running tasks plus switching. */
sim_sum mach_cpu_time(const struct machine *m);

/* ---- mach_burst's common case, inline ----------------------------------
 * A burst starts at every op that takes time (more than half the events
 * of a ping-pong end one), so its common case - a running task, no
 * co-running factor - is compiled into the caller, as the engine's
 * insertion is (engine.h); mach_burst_general (machine.c) is the rest,
 * and the protocol's checks. */
void mach_burst_general(struct machine *m, struct mach_task *t, sim_time d,
                        mach_cont k, void *ctx);
/* The end of a burst (or its cut): the machine's event (machine.c). */
void mach_ev_burst_end(void *obj, uint64_t arg);

/* A burst's factor on core `core`: the co-running cores' and the core's
 * speed level's (1 unless m->scaled). */
static inline double mach_burst_factor(const struct machine *m, int core)
{
    double f = m->corun_f;
    if (m->speed_on && core >= 0) f *= m->cores[core].speed_f;
    return f;
}

/* Work w a thread owes for a system call into other threads (a futex
 * wake, a lock's section: models/thread.c), as the work to put in its
 * next burst on core `core`, whose time the core's whole factor scales: at
 * speed level f it takes w x (1 + speed_wake_share x (f - 1)), not w x f.
 * On the AMD EPYC guest of 2026-12-05 the windows whose stat(2) ran
 * 1.21-1.26x slower saw a FUTEX_WAKE of a sleeper on the idle vCPU cost its
 * waker 1.13-1.15x more (scripts/wake_scope.c; docs/validate.md, "What the
 * levels slow").  Exact while the level holds over the burst: levels
 * dwell for milliseconds, such bursts last microseconds. */
static inline sim_time mach_owed_work(const struct machine *m, int core, sim_time w)
{
    if (!m->speed_on || core < 0 || w <= 0 || m->p.speed_wake_share == 1.0) return w;
    double f = m->cores[core].speed_f;
    if (f == 1.0) return w;
    return sim_round((double)w * (1.0 + m->p.speed_wake_share * (f - 1.0)) / f);
}

/* The time the owed work w (mach_owed_work) takes on core `core` at its
 * factor now: what a model that dates the end of that payment must add to
 * the clock, the burst that pays it being scaled (mach_burst).  Under
 * co-running or a speed level other than 1 a cost is no duration: dated
 * unscaled, the timer's own check after its tick found the set it had just
 * left non-empty whenever its core ran faster than 1 (a speed level x0.99999
 * turned the delayed policy's one-core ping-pong to another regime;
 * docs/validate.md, "The fast level is the profile's machine"). */
static inline sim_time mach_owed_time(const struct machine *m, int core, sim_time w)
{
    sim_time work = mach_owed_work(m, core, w);
    if (!m->scaled || core < 0 || work <= 0) return work;
    double f = mach_burst_factor(m, core);
    return f == 1.0 ? work : sim_round((double)work * f);
}

static inline void mach_burst(struct machine *m, struct mach_task *t, sim_time d,
                              mach_cont k, void *ctx)
{
    if (__builtin_expect(t->state != MT_RUNNING || t->in_burst, 0)) {
        mach_burst_general(m, t, d, k, ctx);
        return;
    }
    if (m->scaled) {
        /* co-running cores or speed levels: a factor of 1 (no co-runner's
         * slowdown, the core at its fast level) is the common case and
         * times the burst as an unscaled one (machine.c corun_time) */
        if (t->core < 0) __builtin_unreachable();  /* (running: on a core) */
        double f = mach_burst_factor(m, t->core);
        if (f != 1.0) {
            mach_burst_general(m, t, d, k, ctx);
            return;
        }
        t->burst_f = f;
    }
    sim_time now = sim_now(m->eng);
    t->in_burst = true;
    t->burst_k = k;
    t->burst_ctx = ctx;
    /* its end, never before now, the end of time rather than an overflow
     * (mach_end_of, machine.c; now >= 0, so only d > 0 can overflow) */
    sim_time end;
    if (d <= 0) end = now;
    else if (__builtin_add_overflow(now, d, &end)) end = SIM_TIME_MAX;
    t->burst_end = end;
    t->interrupt_pending = false;
    t->burst_cut = 0;
    t->burst_ev = sim_at_checked(m->eng, end, mach_ev_burst_end, t, (uint64_t)(uintptr_t)m);
}

/* (Inline: asked after every wake, vm_wake_cost.) */
static inline sim_time mach_wake_ipi_extra(const struct machine *m)
{
    return m->last_ipi_extra;
}
/* The latest wake's cost to its waker when the machine decided it: a wake
 * onto a remote core whose wake-up for another task was under way (drawn
 * from wake_waking), or onto an idle one whose vCPU had not halted yet
 * (wake_prehalt_cost); else -1. */
static inline sim_time mach_wake_waking_cost(const struct machine *m)
{
    return m->last_waking_cost;
}

/* The first of the kernel's ticks (multiples of os_tick, on every core) at
 * or after t; with no tick (os_tick <= 0), t itself. */
static inline sim_time mach_tick_ceil(const struct mach_params *p, sim_time t)
{
    sim_time T = p->os_tick > 0 ? p->os_tick : 1;
    sim_time k = t / T;
    if (k * T < t) k++;
    return k * T;
}

#endif
