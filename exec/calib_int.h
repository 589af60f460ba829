/* calib_int.h - what the calibration benchmarks share (not a public API):
 * the run context, pinned threads, futexes, spinning. */
#ifndef EXEC_CALIB_INT_H
#define EXEC_CALIB_INT_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "calib.h"

struct calib_ctx {
    const struct calib_opts *o;
    struct calib_result *r;
    int cpu0, cpu1;        /* cpu1 = -1: one CPU only */
    double scale;          /* budget multiplier: 1 (full) or 0.25 (--quick) */
    double cpu_clock_ns;   /* what two reads of the CPU-time clock add to an interval (calib_cpu_clock_cost) */
    int min_rounds;        /* before the spread test applies */
    char *err;
    size_t errlen;
};

/* The setting of a probe that `gvlsim validate` runs between real runs
 * (calib_line_probe, calib_wake_probe): the caller's affinity saved, a
 * context on the first two CPUs of it, the caller pinned to the first. */
struct calib_probe_env {
    cpu_set_t saved;
    struct calib_opts o;
    struct calib_ctx c;
};
/* GV_OK; GV_EUNSUP when the mask has one CPU ("the WHAT probe needs two
 * CPUs"), GV_ERUN / GV_ENOMEM, with a message in err. */
int calib_probe_begin(struct calib_probe_env *e, const char *what, char *err, size_t errlen);
/* The caller's affinity back, the context freed. */
void calib_probe_end(struct calib_probe_env *e);

/* The file calibrate's stat(2) benchmarks take when none is given: the
 * mtime scenario beside the executable (calib.c). */
void calib_default_stat_path(char *buf, size_t size);

/* Budget of a benchmark that takes full_s seconds in a full run. */
double calib_budget(const struct calib_ctx *c, double full_s);

/* Start a thread pinned to `cpu`; GV_ERUN with a message on failure. */
int calib_thread_start(struct calib_ctx *c, pthread_t *t, int cpu, void *(*fn)(void *), void *arg);
/* Name the calling thread after the benchmark it runs ("cal:" + what, cut
 * to the kernel's 15 characters); the threads it starts inherit the name,
 * so that a scheduler trace (perf sched:*) tells the benchmarks apart. */
void calib_name(const char *what);
/* The calling thread's voluntary and involuntary context switches so far
 * (getrusage RUSAGE_THREAD). */
void calib_thread_switches(long *vol, long *invol);
/* Pin the calling thread. */
int calib_pin_self(struct calib_ctx *c, int cpu);
/* Let the calling thread (and what it starts or spawns) run on c's first
 * two CPUs; calib_pin_self(c, c->cpu0) pins it back. */
int calib_pin_self_pair(struct calib_ctx *c);

/* Mark st skipped with a reason. */
void calib_skip(struct calib_stat *st, const char *why);

/* The thread CPU-time clock's own share of an interval it times (the
 * median of CALIB_CLOCK_READS empty intervals), in rounds into
 * CALIB_CPU_CLOCK when `record`, else one round for a probe; and an
 * interval c0..c1 on that clock less it (at least 0): what a single
 * event's CPU time is (a wake; a loop of many amortises the reads). */
#define CALIB_CLOCK_READS 201
double calib_cpu_clock_cost(struct calib_ctx *c, bool record);
long long calib_cpu_interval(const struct calib_ctx *c, long long c0, long long c1);

/* Busy-wait for ns (monotonic clock). */
void calib_spin_ns(long long ns);
/* Sleep ns (< 1 s) in nanosleep. */
void calib_nap_ns(long long ns);
/* Let the calling thread run on CPU a alone, or on a and b (b >= 0). */
void calib_allow(int a, int b);
/* CPU time of the calling thread, ns. */
long long calib_thread_cpu_ns(void);

/* n windows of `rounds` wakes of a sleeper on the other CPU, idle 10 us
 * before each (calib_wake.c), each wake followed by a stat(2) of the
 * stat file on the waker's CPU, as the releaser of a File.mtime loop's GVL
 * makes them, the waker on the first CPU and on the second in blocks of
 * windows: per window the median of the waker's CPU time in FUTEX_WAKE
 * (wake_ns) and of the stat (stat_ns).  Leaves the thread pinned to the
 * first CPU.  GV_OK, or GV_ERUN with a message (no thread). */
int calib_wake_stat_windows(struct calib_ctx *c, int n, int rounds, double *wake_ns, double *stat_ns);

/* FUTEX_WAIT while *w == val (returns at once otherwise); FUTEX_WAKE of up
 * to n waiters (returns how many were woken). */
void calib_futex_wait(atomic_int *w, int val);
int calib_futex_wake(atomic_int *w, int n);

/* xorshift64: random gaps between samples, so nothing phase-locks. */
unsigned long long calib_rand(unsigned long long *s);
/* A round's order: each of `kinds` per_kind times, shuffled (order has
 * kinds x per_kind places), so that a busy moment of the host falls on
 * every kind alike. */
void calib_rounds_order(int *order, int kinds, int per_kind, unsigned long long *rnd);

/* The groups of benchmarks. */
void calib_bench_cpu(struct calib_ctx *c);    /* calib_cpu.c */
/* the cache keys' measurements between the two probes (part of calib_bench_cpu) */
void calib_bench_cache(struct calib_ctx *c);
/* --only cache: mutex_uncontended (sched_lock_cs's other half), then calib_bench_cache */
void calib_bench_cache_only(struct calib_ctx *c);
void calib_bench_wake(struct calib_ctx *c);   /* calib_wake.c */
void calib_bench_pack(struct calib_ctx *c);   /* calib_pack.c */
void calib_bench_pack_util(struct calib_ctx *c); /* calib_pack_util.c (after calib_bench_pack) */
void calib_bench_race(struct calib_ctx *c);   /* calib_race.c */
void calib_bench_cond_section(struct calib_ctx *c);   /* calib_race.c */
void calib_bench_timer(struct calib_ctx *c);  /* calib_timer.c */
void calib_bench_ruby(struct calib_ctx *c);   /* calib_ruby.c */
void calib_bench_steal(struct calib_ctx *c);  /* calib_steal.c */
void calib_bench_speed(struct calib_ctx *c);  /* calib_speed.c */

/* ns per stat(2) of c->o->stat_path (stat_call) or per open + write +
 * close of /dev/null as File.write makes them: the median of n (<= 32)
 * samples of about sample_ns each, CPU-time clock (calib_cpu.c). */
double calib_syscall_sample_ns(struct calib_ctx *c, bool stat_call, int n, long long sample_ns);

/* Rounds of one sample each, round(c, ctx, &v), until their values agree
 * or the budget (full_s in a full run) is spent; r->m[id] gets the stats.
 * A round returning an error (message in c->err) ends it: the
 * measurement is skipped with that message.  Returns GV_OK or the error. */
int calib_rounds(struct calib_ctx *c, enum calib_id id, double full_s,
                 int (*round)(struct calib_ctx *c, void *ctx, double *v), void *ctx);

/* Report one finished measurement (progress callback). */
void calib_done(struct calib_ctx *c, enum calib_id id);
/* Mark each of ids skipped with a reason and report it. */
void calib_skip_ids(struct calib_ctx *c, const enum calib_id *ids, int n, const char *why);

/* Several kinds of one measurement, sampled interleaved in rounds (their
 * order from calib_rounds_order): each kind keeps every sample and its
 * round's, and a loop of its rounds' medians; the rounds go on while the
 * kind `decides` (the one whose medians settle last) asks for more. */
#define CALIB_KINDS_MAX 8
struct calib_kinds {
    int n, decides;
    const enum calib_id *ids;  /* the kinds' measurements, n of them */
    struct calib_series all[CALIB_KINDS_MAX], round[CALIB_KINDS_MAX];
    struct calib_series rel[CALIB_KINDS_MAX];  /* each sample over its round's median */
    struct calib_loop l[CALIB_KINDS_MAX];
};
/* Budget full_s in a full run, min_rounds before the spread test. */
void calib_kinds_start(struct calib_kinds *k, struct calib_ctx *c, const enum calib_id *ids, int n,
                       int decides, double full_s, int min_rounds);
/* One sample of kind i. */
void calib_kinds_add(struct calib_kinds *k, int i, double v);
/* The round is over: each kind's loop takes its median; whether another
 * round is due. */
bool calib_kinds_round_end(struct calib_kinds *k);
/* Every kind's stats into c->r, then reported; frees k's series. */
void calib_kinds_end(struct calib_kinds *k, struct calib_ctx *c);
/* The rounds are over: calib_kinds_end if the last one's rc is GV_OK;
 * else every kind is skipped with c->err (what earlier rounds gave is
 * dropped, as calib_rounds does; c->err is cleared then), reported, and
 * k's series freed. */
void calib_kinds_finish(struct calib_kinds *k, struct calib_ctx *c, int rc);

#endif
