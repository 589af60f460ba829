/* calib.h - microbenchmarks of this machine on real threads, behind
 * `gvlsim calibrate`.
 *
 * Each measurement runs in rounds until the medians of its rounds agree
 * (interquartile range / median of the round medians <= max_spread, after
 * at least a few rounds) or its time budget is spent; it then records the
 * median and quartiles of all its samples, and is flagged unstable if the
 * rounds never agreed.  Threads are pinned (the first two CPUs of the
 * process's affinity mask); cross-core measurements are skipped with a note
 * when only one CPU is available.  docs/calibrate.md says what each one
 * measures and how calib_map.c turns them into machine-profile keys.
 */
#ifndef EXEC_CALIB_H
#define EXEC_CALIB_H

#include <stdbool.h>
#include <stddef.h>

enum calib_id {
    CALIB_BUSY_LOOP,           /* ns per iteration of the executor's busy loop (exec_spin) */
    CALIB_BUSY_LOOP_PAIR,      /* the same while both CPUs run it (CPU-time clock, per CPU) */
    CALIB_MUTEX_UNCONTENDED,   /* ns per lock + unlock, one thread */
    CALIB_MUTEX_CONTENDED,     /* ns per lock + unlock, two threads on two CPUs, one mutex */
    CALIB_SYSCALL_GETPID,      /* ns per getpid(2): the bare system-call round trip */
    CALIB_SYSCALL_STAT,        /* ns per stat(2) of a cached file (File.mtime) */
    CALIB_SYSCALL_WRITE,       /* ns per write(2) of one byte to /dev/null */
    CALIB_FILE_WRITE,          /* ns per open + write + close of /dev/null (File.write) */
    CALIB_SYSCALL_OPEN,        /* ns per open(2) of /dev/null as File.write opens it, timed apart from... */
    CALIB_SYSCALL_CLOSE,       /* ... the close(2) of those fds, in batches */
    CALIB_CPU_CLOCK,           /* ns an interval timed on the thread CPU-time clock gains from its two
                                * reads (nothing between): taken off the single wakes' CPU times */
    CALIB_FUTEX_WAKE,          /* CPU ns of the waker in FUTEX_WAKE, sleeper on the waker's CPU */
    CALIB_FUTEX_WAKE_REMOTE,   /* the same, sleeper on another (idle) CPU: with the IPI */
    CALIB_FUTEX_WAKE_NONE,     /* ns per FUTEX_WAKE of a word nobody waits on (glibc's signal of a waiter not asleep yet) */
    CALIB_WAKE_IDLE,           /* ns from FUTEX_WAKE to the sleeper running on an idle CPU */
    CALIB_WAKE_IDLE_CPU,       /* CPU ns of the sleeper in its FUTEX_WAIT, woken on its CPU idle 10 us */
    CALIB_STAT_AFTER_WAKE,     /* ns per stat(2) of the same file right after such a wake (the waker's next call) */
    CALIB_WAKE_BUSY,           /* ns from FUTEX_WAKE to the sleeper running on a busy CPU, when it ran at once */
    CALIB_WAKE_BUSY_PREEMPT,   /* fraction of those wakes that preempted the busy CPU at once */
    CALIB_WAKE_PACK_SHORT,     /* fraction of wakes kept on the waker's busy CPU, wakee last ran there, other CPU idle,
                                * after a short sleep (calib_pack.c) */
    CALIB_WAKE_PACK_LONG,      /* the same after a long sleep */
    CALIB_WAKE_PACK_SLEEP,     /* ns: the sleep length from which most such wakes go to the idle CPU (bisected) */
    CALIB_WAKE_PACK_OTHER,     /* fraction of wakes onto the waker's busy CPU, wakee last ran on the other, idle CPU */
    CALIB_WAKE_PACK_UTIL,      /* the waker CPU's recent busy share from which such wakes are no longer kept there
                                * (calib_pack_util.c) */
    CALIB_HANDOFF_SAME,        /* ns per hand-off of a futex ping-pong on one CPU */
    CALIB_HANDOFF_SAME_INVOL,  /* fraction of that ping-pong's switches that were involuntary */
    CALIB_HANDOFF_CROSS,       /* ns per hand-off of the ping-pong across two CPUs */
    CALIB_HANDOFF_PPOLL,       /* ns per hand-off of an eventfd + ppoll ping-pong on one CPU (CRuby's ppoll sleep) */
    CALIB_HANDOFF_PPOLL_EXTRA, /* ns per hand-off it takes beyond a futex ping-pong round run beside it */
    CALIB_EVENTFD_WAKE_EXTRA,  /* the waker's CPU ns in its write(eventfd) there - in FUTEX_WAKE in the futex one */
    CALIB_YIELD_SWITCH,        /* ns per sched_yield switch between two threads on one CPU */
    CALIB_WAKE_PREEMPT,        /* fraction of hand-offs on one CPU where the woken thread preempts its waker */
    CALIB_FUTEX_WAIT_WINDOW,   /* ns: a FUTEX_WAIT's way in, during which a store from another CPU makes it
                                * return at once (calib_race.c) */
    CALIB_FUTEX_WAKE_RACE,     /* ns: a FUTEX_WAKE that met such a wait on its way in (it returned at once) */
    CALIB_COND_SECTION,        /* ns: a condvar waiter's section, from its lock of the mutex to the unlock inside
                                * pthread_cond_wait: a lock from another CPU this soon after finds it held
                                * (calib_race.c) */
    CALIB_LINE_PROBE,          /* the cache-regime probe (calib_line_probe) before the cache measurements */
    CALIB_LINE_TRANSFER,       /* ns per atomic increment of a line the other CPU wrote last */
    CALIB_LINE_FETCH,          /* ns of one locked add on a line the other CPU stored to, beyond one on a line held */
    CALIB_INCR_LOCAL,          /* ns per iteration: busy-loop step + a thread-local increment */
    CALIB_INCR_SHARED,         /* ns per iteration per CPU: the step + a plain increment of one line from two CPUs */
    CALIB_TICK_PERIOD,         /* ns between the kernel's timer ticks on a busy CPU */
    CALIB_TIMESLICE,           /* ns a CPU-bound thread runs before the other one sharing its CPU */
    CALIB_TIMER_WAKE_CPU,      /* CPU ns per wake-up of a thread in a 1 ms epoll_wait loop */
    CALIB_FREE_OWN,            /* CPU ns per malloc + write + free of a 48-byte chunk, two CPUs, each its own */
    CALIB_FREE_REMOTE,         /* the same, each thread freeing the chunks the other allocated */
    CALIB_LINE_PROBE_END,      /* the probe again, after the cache measurements */
    CALIB_WAKE_AFTER_IDLE_10US,  /* ns from FUTEX_WAKE to running on a CPU idle 10 us (the waker spins) */
    CALIB_WAKE_AFTER_IDLE_30US,  /* ... idle 30 us */
    CALIB_WAKE_AFTER_IDLE_100US, /* ... 100 us */
    CALIB_WAKE_AFTER_IDLE_300US, /* ... 300 us */
    CALIB_WAKE_AFTER_IDLE_1MS,   /* ... 1 ms */
    CALIB_WAKE_AFTER_IDLE_3MS,   /* ... 3 ms */
    CALIB_WAKE_AFTER_IDLE_10MS,  /* ... 10 ms */
    CALIB_WAKE_AFTER_IDLE_30MS,  /* ... 30 ms */
    CALIB_WAKE_IPI_AFTER_IDLE_10US,  /* the waker's CPU ns in that FUTEX_WAKE, the CPU idle 10 us */
    CALIB_WAKE_IPI_AFTER_IDLE_30US,  /* ... idle 30 us */
    CALIB_WAKE_IPI_AFTER_IDLE_100US, /* ... 100 us */
    CALIB_WAKE_IPI_AFTER_IDLE_300US, /* ... 300 us */
    CALIB_WAKE_IPI_AFTER_IDLE_1MS,   /* ... 1 ms */
    CALIB_WAKE_IPI_AFTER_IDLE_3MS,   /* ... 3 ms */
    CALIB_WAKE_IPI_AFTER_IDLE_10MS,  /* ... 10 ms */
    CALIB_WAKE_IPI_AFTER_IDLE_30MS,  /* ... 30 ms */
    CALIB_WAKE_WAKING,         /* the waker's CPU ns in a FUTEX_WAKE onto a CPU whose wake-up for another
                                * sleeper is under way (calib_wake.c) */
    CALIB_WAKE_PREHALT_WINDOW, /* ns from a sleeper's FUTEX_WAIT call within which most wakes onto its
                                * idle CPU cost no IPI: its vCPU not yet halted (calib_wake.c) */
    CALIB_WAKE_PREHALT_SHARE,  /* of the wakes within it, the share that did */
    CALIB_WAKE_PREHALT_RETURN, /* ns from the sleeper's call to its return, for those wakes */
    CALIB_TIMER_LATE_100US,    /* ns from a 100 us timed futex wait's deadline to its return, busy CPU */
    CALIB_TIMER_LATE_300US,    /* ... a 300 us wait */
    CALIB_TIMER_LATE_1MS,      /* ... a 1 ms wait */
    CALIB_TIMER_LATE_1NS_100US, /* the same 100 us wait with the thread's timer slack set to 1 ns */
    CALIB_TIMER_LATE_1NS_300US, /* ... 300 us */
    CALIB_TIMER_LATE_1NS_1MS,   /* ... 1 ms */
    CALIB_TIMER_STALL,         /* ns the busy thread beside those 1 ns-slack waits loses at their expiry,
                                * beyond the waiting thread's own CPU time */
    CALIB_STEAL_RATE,          /* gaps per second a pinned clock-reading thread sees (calib_steal.c) */
    CALIB_STEAL_LEN,           /* ns: those gaps' lengths */
    CALIB_STEAL_SHARE,         /* fraction of its time they took */
    CALIB_SPEED_WINDOW,        /* ns: a fixed window of stat(2) calls, each CPU alone (calib_speed.c) */
    CALIB_SPEED_WAKE,          /* ns: a FUTEX_WAKE's cost to its waker, the sleeper on the idle CPU, in
                                * windows of such wakes each followed by a stat(2) (calib_speed.c) */
    CALIB_RUBY_INSN,           /* ns per VM instruction of the Ruby backend's counted loop */
    CALIB_RUBY_FILE_MTIME_EXTRA, /* CPU ns per File.mtime in that Ruby (GC off) beyond a stat(2) of its file */
    CALIB_RUBY_FILE_WRITE_EXTRA, /* the same of File.write to /dev/null beyond its open + write + close */
    /* where those methods' CPU falls between their calls (exec/calltime.h), in its order: */
    CALIB_RUBY_LOOP_GAP,       /* ns from a getppid's return to the next, a loop of Process.ppid */
    CALIB_RUBY_MTIME_BEFORE,   /* ns from that marker's return to File.mtime's stat, the loop between */
    CALIB_RUBY_MTIME_AFTER,    /* ns from the stat's return to the next marker */
    CALIB_RUBY_WRITE_BEFORE,   /* ns from the marker's return to File.write's open, the loop between */
    CALIB_RUBY_WRITE_OPEN_WRITE,  /* ns from the open's return to the write */
    CALIB_RUBY_WRITE_WRITE_CLOSE, /* ns from the write's return to the close */
    CALIB_RUBY_WRITE_AFTER,    /* ns from the close's return to the next marker */
    CALIB_RUBY_SWEEP_BODY,     /* ns more the sweep spends on a dead env or Proc (its malloc'd body) than on
                                * a dead plain object, in that Ruby */
    CALIB_RUBY_SWEEP_SLOT,     /* ns the sweep spends on a dead plain object, in that Ruby */
    CALIB_RUBY_MARK_BASE,      /* ns of a minor GC's marking with no young survivor, in that Ruby, less its pages' and
                                * its thread's parts */
    CALIB_RUBY_MARK_PAGE,      /* ns that marking spends per page of the heap */
    CALIB_RUBY_MARK_THREAD,    /* ns that marking spends per living thread */
    CALIB_RUBY_MARK_OBJECT,    /* ns more per young survivor that marking makes */
    CALIB_RUBY_ALLOC,          /* ns of an Object.new in `N.times { Object.new }` (the alloc op's loop), GC off */
    CALIB_RUBY_ESCAPE,         /* ns of a call of the Ruby backend's escape method (`x = 1; -> { x }`), GC off */
    CALIB_RUBY_GC_GAP_1MS,     /* ns of a minor GC of the boot heap (swept at once) 1 ms after the one before */
    CALIB_RUBY_GC_GAP_3MS,     /* ... 3 ms after */
    CALIB_RUBY_GC_GAP_10MS,    /* ... 10 ms after */
    CALIB_RUBY_GC_GAP_30MS,    /* ... 30 ms after */
    /* a call right after a Thread::Queue hand-off from a thread on the other
     * CPU, less the same with both threads on one CPU (exec/calib_ruby.c): */
    CALIB_RUBY_CROSS_COMPUTE,  /* ns of a minimal Ruby step, [1, 1] */
    CALIB_RUBY_CROSS_MTIME,    /* ns of a File.mtime */
    CALIB_RUBY_CROSS_WRITE,    /* ns of a File.write of /dev/null */
    CALIB_COUNT
};

/* The waits of CALIB_TIMER_LATE_*, in order, ns. */
#define CALIB_TIMER_SIZES 3
extern const long long calib_timer_ns[CALIB_TIMER_SIZES];

/* The gaps of CALIB_RUBY_GC_GAP_*, in order, ns. */
#define CALIB_GC_GAPS 4
extern const long long calib_gc_gap_ns[CALIB_GC_GAPS];

/* The idle times of CALIB_WAKE_AFTER_IDLE_*, in order, ns. */
#define CALIB_IDLE_LEVELS 8
extern const long long calib_idle_ns[CALIB_IDLE_LEVELS];

struct calib_desc {
    const char *name;   /* JSON name, e.g. "wake_idle_ns" */
    const char *unit;   /* "ns" or "fraction" */
    const char *what;   /* one line for the summary */
};
const struct calib_desc *calib_describe(enum calib_id id);

struct calib_stat {
    bool measured;      /* false: skipped (note says why) */
    bool unstable;      /* the round medians never agreed within max_spread */
    double median, q1, q3;
    int samples;        /* samples behind median and quartiles */
    int rounds;         /* rounds run */
    double round_spread;/* IQR / median of the round medians at the end */
    double within_spread;/* IQR / median of the samples each over its own round's median: the
                          * spread within a round, without the drift between rounds (0: not
                          * taken; calib_series_add_relative) */
    char note[200];
};

/* Groups of measurements a run can be limited to (calib_opts.only). */
enum calib_group {
    CALIB_ALL,           /* every measurement */
    CALIB_ONLY_CACHE,    /* the cache keys' measurements (mutex_uncontended, line_transfer, line_fetch,
                          * incr_shared, free_own, free_remote) between the two probes */
    CALIB_ONLY_RUBY,     /* the measurements of one Ruby (calib_opts.ruby): its VM instruction and its
                          * methods' CPU beyond their system calls (insn_time, method_work) */
    CALIB_ONLY_SPEED,    /* the speed levels' windows (speed_levels, speed_dwell: calib_speed.c) */
};

/* The name of group g as `calibrate --only` takes it ("cache", "ruby", "speed");
 * NULL for CALIB_ALL or a value out of range. */
const char *calib_group_name(enum calib_group g);
/* Is the measurement id one of group g's? */
bool calib_in_group(enum calib_group g, enum calib_id id);

struct calib_opts {
    bool quick;          /* about 4x shorter budgets (whole run within 15 s) */
    enum calib_group only; /* CALIB_ALL, or the group to run (the others are skipped with a note) */
    double max_spread;   /* default 0.10 */
    const char *stat_path;  /* file for the stat(2) and File.mtime benchmarks; NULL: what the
                             * backends stat (calib.c default_stat_path) */
    const char *ruby;       /* the Ruby of CALIB_RUBY_INSN: a path or a name on PATH; NULL: "ruby" */
    bool no_ruby;           /* skip CALIB_RUBY_INSN */
    /* called after each measurement (progress lines); may be NULL */
    void (*progress)(void *ctx, enum calib_id id, const struct calib_stat *st);
    void *progress_ctx;
};

/* The hidden steal's summary (calib_steal.c): what the machine keys
 * hidden_steal_rate and hidden_steal_len are. */
#define CALIB_STEAL_LENS 16
struct calib_steal {
    bool measured;
    double rate;                      /* gaps per second of the time kept */
    double share;                     /* the gaps' total / the time kept */
    double len_ns[CALIB_STEAL_LENS];  /* nlen equally likely lengths (quantiles), ns */
    int nlen;
    int gaps;                         /* gaps seen */
    double observed_ns;               /* time kept */
    int chunks, dropped, cpus;        /* chunks run, dropped (switched out); CPUs used */
};

/* A CPU's speed levels (calib_speed.c): what the machine keys
 * speed_levels and speed_dwell are. */
struct calib_speed {
    bool measured;
    int windows;          /* windows timed, every CPU */
    double window_ns;     /* their median length */
    double p10, p90;      /* their 10th and 90th percentiles */
    int nlev;             /* 1: one speed (no keys); 2: fast [0] and slow [1] */
    double factor[2];     /* a level's windows' median over every window's median */
    double call_ns[2];    /* a stat(2) call's time at each level (its windows' median over their calls; 0: not known) */
    double call_all_ns;   /* the same over every window (their median; 0: not known) */
    double dwell_ns[2];   /* the mean length of a level's runs of windows */
    double share[2];      /* the share of the windows at each level */
    double slow_cpu[2];   /* the share of CPU 0's and CPU 1's windows at the slow level (-1: none there) */
    /* speed_wake_share (calib_speed_wake_summarise): with two levels, the
     * windows of wakes, each followed by a stat(2), split by their stat */
    bool wake_measured;   /* the wake windows showed two levels */
    int wake_windows, wake_slow; /* windows, of them slow */
    double wake_ratio;    /* the slow windows' median wake cost over the others' */
    double stat_ratio;    /* the same of their stat(2) */
    double wake_share;    /* (wake_ratio - 1) / (stat_ratio - 1), within 0..2 */
};

/* A FUTEX_WAIT's way in and a FUTEX_WAKE that meets it there
 * (calib_race.c): what the machine keys futex_wait_window and
 * futex_wake_race are, CALIB_RACE_LENS equally likely values each (the
 * quantiles at the middles of as many equal shares). */
#define CALIB_RACE_LENS 8
struct calib_race {
    bool measured;
    int n;                                /* values in each list (CALIB_RACE_LENS) */
    double window_ns[CALIB_RACE_LENS];    /* the way in */
    double wake_ns[CALIB_RACE_LENS];      /* the wake that met a wait on it */
    /* the condvar waiter's section (CALIB_COND_SECTION: the machine key
     * cond_wait_section), as many equally likely values */
    bool section_measured;
    double section_ns[CALIB_RACE_LENS];
};

/* A wake onto a CPU already waking up (CALIB_WAKE_WAKING): the machine
 * key wake_waking, CALIB_WAKING_LENS equally likely costs (the quantiles
 * at the middles of as many equal shares). */
#define CALIB_WAKING_LENS 8
struct calib_waking {
    bool measured;
    int n;                                /* values (CALIB_WAKING_LENS) */
    double cost_ns[CALIB_WAKING_LENS];
};
/* The quantiles of n costs (ns, any order; n > 0) into out: GV_EINVAL if
 * n <= 0, GV_ENOMEM, or GV_OK. */
int calib_waking_summarise(const double *ns, int n, struct calib_waking *out);
/* One pass of CALIB_WAKE_PREHALT_* (calib_wake.c): from the share of wakes
 * without the IPI at each delay ((i + 1) us after the sleeper's call, i <
 * ndelays) and the returns (ns, call to return) of those wakes with their
 * delays' indices, *window (ns: where the share falls below one half for
 * good, interpolated after the last delay at which it is one half or more;
 * 0 if at none, ndelays us if at the last), *in_share (the mean share of
 * the delays below it) and *ret (the median return of the wakes at delays
 * below it; -1: none). */
void calib_prehalt_pass(const double *share, int ndelays, const double *returns, const int *delay_of, int nret,
                        double *window, double *in_share, double *ret);

struct calib_result {
    struct calib_stat m[CALIB_COUNT];
    struct calib_steal steal;
    struct calib_race race;
    struct calib_waking waking;
    struct calib_speed speed;
    int cpus[2];         /* the CPUs used (cpus[1] = -1 with one CPU) */
    int ncpus_allowed;   /* CPUs in the affinity mask */
    double seconds;      /* host time the run took */
    char stat_path[512]; /* the file of the stat(2) and File.mtime benchmarks */
};

/* Run every benchmark.  GV_OK, or GV_ERUN / GV_ENOMEM with a message (a
 * thread that cannot be created or pinned). */
int calib_run(const struct calib_opts *o, struct calib_result *r, char *err, size_t errlen);

/* ---- the cache-regime probe (calib_cpu.c) ------------------------------ */

/* What a locked add costs on a cache line the other CPU stored to last:
 * one thread stores to 16 lines a page apart and passes the turn, the
 * other (the caller's thread) then times locked adds on them, one after
 * another, each address depending on the value the add before it
 * returned (whole fetches, not overlapped ones), then the same adds again
 * on the lines it now holds.  The guest of an AMD EPYC host showed two
 * regimes minutes apart (docs/validate.md, "The cache regime"): about
 * 50-60 ns an add (a single timed one) when its two vCPUs share a cache, 160-180 ns when they do
 * not; what a cache key (line_transfer, remote_rmw, free_remote) measures
 * follows it, and so does a real run. */
#define CALIB_PROBE_FACTOR 1.5  /* two probes further apart than this (ratio): another regime */
struct calib_probe {
    bool measured;
    double add_ns;       /* median over the rounds: ns per add on a line the other CPU stored to */
    double own_ns;       /* the same adds again, the lines held by this CPU */
    double q1, q3;       /* quartiles of the rounds' add_ns */
    int rounds;
    int cpus[2];         /* the CPUs used */
};

/* The probe on the first two CPUs of the caller's affinity mask (the
 * caller's thread pinned to the first for its length, its affinity
 * restored after), `rounds` rounds (1..1000) of 200 fetches of 16 lines
 * each, a few milliseconds in all.  GV_OK; GV_EINVAL (rounds out of
 * range); GV_EUNSUP with a message when the mask has one CPU;
 * GV_ERUN / GV_ENOMEM with a message. */
int calib_line_probe(int rounds, struct calib_probe *out, char *err, size_t errlen);

/* The wake probe: calibrate's measurement of wake_idle_core, shortened to a
 * few milliseconds so that `gvlsim validate` can take it before each real
 * run.  A guest's wake of an idle vCPU drifts by 10-20% from one minute to
 * the next (AMD EPYC guest, 2026-12-03: 10.5-12.6 us in three probes 40 s
 * apart), and some configurations' figures follow it (docs/validate.md,
 * "The wake drift").  The sleeper on the second CPU of the caller's
 * affinity mask, the caller on the first spinning 10 us before each wake,
 * as wake_after_idle_10us_ns (exec/calib_wake.c). */
#define CALIB_WAKE_DRIFT 0.15   /* a probe further than this (relative) from the profile's: drifted */
struct calib_wake_probe {
    bool measured;
    double lat_ns;       /* median: the waker's FUTEX_WAKE -> the sleeper runs (wake_idle_core) */
    double cost_ns;      /* median: the waker's CPU time in FUTEX_WAKE (wake_ipi + futex_wake) */
    int wakes;           /* recorded (after the lead-in) */
    int cpus[2];
};

/* `wakes` (1..1000) recorded wakes after a lead-in.  GV_OK; GV_EINVAL
 * (wakes out of range); GV_EUNSUP with a message when the mask has one CPU;
 * GV_ERUN / GV_ENOMEM with a message. */
int calib_wake_probe(int wakes, struct calib_wake_probe *out, char *err, size_t errlen);

/* The speed probe: calibrate's speed windows (speed_levels, speed_dwell),
 * shortened so that `gvlsim validate` can take them before each
 * configuration's real runs: a guest's slow level comes and goes on a
 * minute scale (the AMD EPYC guest, 2026-12-04: in 16-84% of the windows
 * of ten `calibrate --only speed` runs a few seconds apart), and the
 * model's 2-thread loops follow it (docs/validate.md, "The speed
 * drift").  `windows` (10..10000) windows of about 1 ms on each
 * of the first two CPUs of the caller's affinity mask in turn, the other
 * idle; out->share[1] is the share of them at the slow level (0 when the
 * probe saw one level), out->call_all_ns a stat(2)'s time over them all.
 * GV_OK; GV_EINVAL (windows out of range); GV_EUNSUP with a message when
 * the mask has one CPU; GV_ERUN / GV_ENOMEM with a message. */
#define CALIB_SPEED_PROBE_WINDOWS 150   /* a CPU: about 0.15 s */
#define CALIB_SPEED_DRIFT 0.20          /* a slow share further than this (absolute) from the profile's: drifted */
#define CALIB_STAT_DRIFT 0.20           /* a stat(2) further than this (relative) from the profile's: drifted */
int calib_speed_probe(int windows, struct calib_speed *out, char *err, size_t errlen);

/* Do two probes (ns) differ by more than CALIB_PROBE_FACTOR either way?
 * false when either is not a positive number. */
bool calib_probe_moved(double a_ns, double b_ns);

/* ---- statistics (calib_stats.c), exposed for the unit tests ------------ */

/* The kernel tick's period from the times (ns) at which a CPU-bound thread
 * was switched out by another one on its CPU (calib_cpu.c); 0 if they are
 * not periodic. */
double calib_tick_estimate(const long long *at, int n);

/* Does one batch of the free benchmark (calib_cpu.c bench_free) count: this
 * thread on its CPU for cpu_ns of the wall_ns its malloc and free loops
 * took, the other thread doing other_chunks of its mallocs and frees
 * meanwhile, a batch being `batch` chunks of each? */
bool calib_free_both_at_work(long long cpu_ns, long long wall_ns, long other_chunks, int batch);

/* A busy loop alone on its CPU is never slower per iteration than the same
 * loop while the other CPU runs one too: a `solo` measurement
 * (busy_loop_ns) more than CALIB_SOLO_SLOWER_LIMIT times `pair`'s
 * (busy_loop_pair_ns) was taken while the CPU ran slow - a guest's vCPU
 * throttled or taken by its host counts on the thread's CPU clock (33.7 ns
 * an iteration against 1.18, stable over 45 samples, at the start of a full
 * calibration on the AMD EPYC guest, 2026-12-05) - and corun_slowdown and
 * tls_insn_overhead derived from it would be wrong.  True when either is
 * not measured. */
#define CALIB_SOLO_SLOWER_LIMIT 1.25
bool calib_busy_loop_plausible(const struct calib_stat *solo, const struct calib_stat *pair);

/* The hidden steal's summary from the gaps seen (ns, any order) in
 * observed_ns of kept time: the rate, the share of time, and
 * min(n, CALIB_STEAL_LENS) equally likely lengths - the gaps' quantiles at
 * (i + 1/2) / CALIB_STEAL_LENS, or with that many gaps or fewer the gaps.  GV_EINVAL if observed_ns <= 0, GV_ENOMEM, or GV_OK. */
int calib_steal_summarise(const double *gaps_ns, int n, double observed_ns, struct calib_steal *out);

/* The speed levels of n windows' lengths (ns, in time order, cpu[i] the
 * CPU of window i; calib_speed.c).  GV_EINVAL if n < 10, GV_ENOMEM, or
 * GV_OK. */
int calib_speed_summarise(const double *win_ns, const int *cpu, int n, struct calib_speed *out);
/* A stat(2) call's time at each of s's levels, its windows being
 * SPEED_SUBS sub-windows of `calls` calls each (s->call_ns). */
void calib_speed_set_calls(struct calib_speed *s, double calls_per_window);
/* The speed levels' factors with the fast level (s->factor[0]) as 1, the
 * slow one in proportion: the profile's costs are the undisturbed
 * machine's.  One level: f = {1, 1}. */
void calib_speed_anchor(const struct calib_speed *s, double f[2]);
/* Whether s's two levels are the two CPUs' speeds (90% or more of one
 * CPU's windows slow, 10% or less of the other's), not levels in time. */
bool calib_speed_per_cpu(const struct calib_speed *s);
/* speed_wake_share of n windows (n >= 10), each a median wake cost to its
 * waker (wake_ns[i]) and of the stat(2) calls made right after those
 * wakes (stat_ns[i]): a window is slow when its stat is above the
 * geometric middle of the stats' 10th and 90th percentiles, and the share
 * is how much of the stat's slowdown between the two kinds of window the
 * wake saw.  Sets out's wake_* fields; wake_measured stays false when the
 * stats' 90th percentile is less than 1.1 times their 10th (one level in
 * these windows) or the two kinds' median stats differ by less than 1.1x.
 * GV_EINVAL if n < 10, GV_ENOMEM. */
int calib_speed_wake_summarise(const double *wake_ns, const double *stat_ns, int n, struct calib_speed *out);

/* The FUTEX_WAIT window's quantiles at (k + 1/2) / nq, k < nq, into out
 * (calib_race.c): at_once[i] of trials[i] waits returned at once when the
 * store came i x step_ns after the call; the shares are made
 * non-increasing in the delay, and a quantile q is where they cross 1 - q,
 * linearly between two delays.  GV_EINVAL (ndelays < 2, nq < 1, step <=
 * 0), GV_ERUN when the grid does not hold the median (its first share not
 * above 1/2, or its last not below), GV_ENOMEM, or GV_OK. */
int calib_window_quantiles(const int *at_once, const int *trials, int ndelays, double step_ns, int nq,
                           double *out);
/* The condvar waiter's section's quantiles the same way (calib_race.c):
 * held[i] of trials[i] locks from the other CPU found the mutex held when
 * they came i x step_ns after the waiter's; the shares, made
 * non-increasing, are taken over their peak (a lock that came first found
 * the mutex free whatever the section: the peak is the chance the waiter
 * was first).  GV_ERUN when no lock found it held or the last share is
 * not below half the peak; else as calib_window_quantiles. */
int calib_section_quantiles(const int *held, const int *trials, int ndelays, double step_ns, int nq, double *out);

/* Quantile q (0..1) of n sorted values, linearly interpolated. */
double calib_quantile(const double *sorted, int n, double q);
/* Median and quartiles of n values (sorts a copy); GV_ENOMEM or GV_OK. */
int calib_summarise(const double *v, int n, double *median, double *q1, double *q3);

/* A growable list of samples. */
struct calib_series {
    double *v;
    int n, cap;
    bool oom;
};
void calib_series_add(struct calib_series *s, double x);
void calib_series_free(struct calib_series *s);
/* Fill st's median/quartiles/samples from s (measured = n > 0). */
void calib_series_stat(const struct calib_series *s, struct calib_stat *st);
/* Add each of round's samples over `median`, the round's median, to `to`
 * (nothing when it is not positive): pooled over rounds, their spread is the
 * one within a round, which a drift of the round medians does not widen. */
void calib_series_add_relative(struct calib_series *to, const struct calib_series *round, double median);
/* st->within_spread from the relative samples `rel` (IQR / median; 0 with
 * fewer than 8 of them). */
void calib_stat_within(struct calib_stat *st, const struct calib_series *rel);
/* Give st the rounds, round spread and stability of `of`: a measurement
 * taken in the same rounds as that one, which decided when they ended. */
void calib_stat_rounds_of(struct calib_stat *st, const struct calib_stat *of);

/* Rounds until stable: start with a budget, then after each round pass the
 * round's median to calib_loop_more, which says whether to run another. */
struct calib_loop {
    double t_end;        /* host seconds (monotonic) */
    int min_rounds, max_rounds;
    double max_spread;
    struct calib_series medians;
    double spread;
    bool stable;
};
void calib_loop_start(struct calib_loop *l, double budget_s, int min_rounds, int max_rounds,
                      double max_spread);
bool calib_loop_more(struct calib_loop *l, double round_median);
/* Record rounds, spread and stability in st; frees the loop. */
void calib_loop_end(struct calib_loop *l, struct calib_stat *st);

/* Monotonic host time. */
long long calib_now_ns(void);

#endif
