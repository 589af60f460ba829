/* ruby_run.h - the Ruby backend: run a scenario as a Ruby program on a real
 * CRuby and read what it measured (`gvlsim exec --backend ruby`).
 *
 * Steps: pin to machine.cores CPUs (children inherit the mask); ask the Ruby
 * its version and whether YJIT is on (rrun_probe); refuse any runtime
 * setting the scenario asks for that this Ruby cannot honour, by the
 * version table (input/ruby_version.c); generate the program (ruby_gen.c);
 * run it under a watchdog with its stderr kept; read its JSON report into a
 * struct run_metrics (backend "ruby", engine "ruby 3.1.2"), leaving what a
 * Ruby program cannot see from inside unmeasured.
 */
#ifndef EXEC_RUBY_RUN_H
#define EXEC_RUBY_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../input/ruby_version.h"
#include "../input/scenario.h"
#include "../common/metrics.h"
#include "ruby_gen.h"

struct rrun_opts {
    const char *ruby;                /* the executable: a path, or a name on PATH; NULL: "ruby" */
    const char *const *ruby_opts;    /* arguments for ruby before the program, e.g. "--yjit" */
    int nruby_opts;
    double timeout_s;                /* watchdog; <= 0: 600 s */
    const char *stat_path;           /* File.mtime's file; NULL: the scenario file, else "/" */
    double max_spread;               /* the calibration's largest accepted uncertainty of its mean; <= 0: 0.10 */
};

/* What the Ruby says about itself (run with the same options). */
struct rrun_ruby {
    char version[32];                /* RUBY_VERSION */
    char description[256];           /* RUBY_DESCRIPTION */
    struct rver_facts facts;         /* the version table's row for it */
    bool has_yjit;                   /* built with YJIT */
    bool has_jit;                    /* built with YJIT or RJIT (the 3.3/3.4 instruction counter) */
    bool yjit;                       /* YJIT on with these options */
};

struct rrun_report {
    struct run_metrics m;            /* m.engine -> engine, m.ractor_ops -> ractor_ops_buf */
    uint64_t *ractor_ops_buf;
    char engine[64];                 /* "ruby 3.1.2", "+YJIT" when it was on */
    struct rrun_ruby ruby;
    /* the program's busy-loop calibration */
    double ns_per_iter, ns_min, ns_max, spread, iqr;
    double noloop_ns, one_ns, knee_ns; /* a compute with no loop, 1 and 64 iterations */
    int attempts;
    int insns_per_iter, insns_fixed; /* the instruction loop's shape */
    uint64_t insns;                  /* instructions of `insns` computes */
    int threads;                     /* threads that ran (spawned ones only once spawned; generators) */
    uint64_t gc_count;
    double gc_time_s;                /* GC.stat(:time) over the run; < 0: not reported */
    bool stopped_at_time;
    char *ruby_stderr;               /* what the program wrote on stderr (warnings), or NULL */
};

/* Run `ruby [opts] -e PROBE`: GV_OK, or GV_EUNSUP (no such ruby, not
 * CRuby, older than the table, a failing option) with a message. */
int rrun_probe(const struct rrun_opts *o, bool add_yjit, struct rrun_ruby *out, char *err, size_t errlen);

/* Every runtime setting `scn` asks for (scn->runtime.asked) that `rb`
 * cannot honour: GV_OK, or GV_EUNSUP naming the first and what would. */
int rrun_check_settings(const struct scenario *scn, const struct rrun_ruby *rb, char *err, size_t errlen);

/* The program that rrun_run runs for `scn` (for --print-program). */
int rrun_program(const struct scenario *scn, const struct rrun_opts *o, struct rgen_program *p, char *err,
                 size_t errlen);

/* Run `scn` on Ruby.  GV_OK with `rep` filled; GV_EINVAL (more cores than
 * the host has), GV_EUNSUP (no ruby, a setting or op it cannot honour),
 * GV_ERUN (the program failed, deadlocked, or the watchdog stopped it: the
 * message holds its stderr with the ops its lines run), GV_EIO, GV_ENOMEM.
 * Free `rep` with rrun_report_free in every case. */
int rrun_run(const struct scenario *scn, const struct rrun_opts *o, struct rrun_report *rep, char *err,
             size_t errlen);
void rrun_report_free(struct rrun_report *rep);

/* ns per VM instruction of the counted loop `compute` insns runs, n
 * samples (1..1000) of about 4 ms each on the thread's CPU clock, from one
 * run of the Ruby (for `gvlsim calibrate`'s insn_time).  GV_OK, GV_EUNSUP
 * (no such ruby), GV_ERUN (it failed or answered nonsense), GV_EIO, GV_ENOMEM. */
int rrun_insn_ns(const struct rrun_opts *o, double *samples, int n, char *err, size_t errlen);

/* ns per call of the Ruby method the Ruby backend runs for a syscall op of
 * `call` (CALL_STAT: File.mtime(o->stat_path, default "/"); CALL_OPEN_DEVNULL:
 * File.write of /dev/null, the method of an open/write/close triple), beyond
 * the loop around it and with the GC off (its steps are the model's
 * `allocates`): n samples (1..1000) of about 4 ms each on the thread's CPU
 * clock, from one run of the Ruby (for `gvlsim calibrate`'s method_work).
 * Errors as rrun_insn_ns; GV_EINVAL for another call. */
int rrun_method_ns(const struct rrun_opts *o, enum scn_syscall_call call, double *samples, int n, char *err,
                   size_t errlen);

/* Where the CPU of the Ruby methods of rrun_method_ns falls between their
 * system calls: one run of the Ruby with the call-timing preload library
 * (calltime.h), its loops 12,000 iterations each, the GC off; n samples
 * (1..1000) of each gap of calltime.h in samples[gap * n + i] (ns), each
 * the median of a chunk of the gap's cycles (for `gvlsim calibrate`'s
 * method_work and method_work_after).  Errors as rrun_insn_ns, and GV_ERUN
 * when the records are missing or the loops' calls were not the expected
 * ones (a Ruby whose methods call the C library otherwise). */
int rrun_method_gaps(const struct rrun_opts *o, double *samples, int n, char *err, size_t errlen);

/* What the GC costs in the Ruby, each figure in ns (for `gvlsim calibrate`'s
 * gc_free_body, gc_sweep_per_slot, gc_mark_base, gc_mark_per_page,
 * gc_mark_per_thread, gc_mark_per_object, alloc_object and env_escape_work). */
struct rrun_gc_costs {
    double sweep_body;   /* the sweep of a dead env or Proc beyond a dead plain object's (its malloc'd body) */
    double sweep_slot;   /* the sweep of a dead plain object */
    double mark_base;    /* a minor GC's marking with no young survivor, less its pages' and its thread's parts */
    double mark_page;    /* that marking's part per page of the heap (409 slots: core/heap.h) */
    double mark_thread;  /* ... per living thread (its stacks) */
    double mark_object;  /* its marking of one young survivor */
    double alloc_object; /* an Object.new's own CPU in `N.times { Object.new }`, the GC off */
    double escape;       /* a call of the escape method (`x = 1; -> { x }`) less its loop's, the GC off */
};

/* n samples (1..1000; about 0.1 s each) from two runs of the Ruby: one in
 * a heap made large (400,000 slots) enough that no GC runs while a sample
 * fills it, one in its boot heap, alone and then with 64 threads more;
 * sample i pairs the i-th of each (a minor GC's marking in the two heaps
 * and with the threads gives mark_page, mark_thread and mark_base).  A
 * figure may be negative (noise on a small difference).  Errors as
 * rrun_insn_ns. */
int rrun_gc_costs_ns(const struct rrun_opts *o, struct rrun_gc_costs *samples, int n, char *err, size_t errlen);

/* n samples (1..1000) of a minor GC of the boot heap, swept at once,
 * ngaps_ns[i] after the GC before (1..8 gaps; objects allocated spread over
 * the gap), each the collection's thread CPU in ns: samples[k * ngaps + i].  One run of the Ruby; a sample takes the sum of
 * the gaps.  Errors as rrun_insn_ns. */
int rrun_gc_gap_ns(const struct rrun_opts *o, const long long *gaps_ns, int ngaps, double *samples, int n, char *err,
                   size_t errlen);

/* The kinds of work rrun_handoff_work_ns times, in its order. */
enum rrun_work { RRUN_WORK_COMPUTE, RRUN_WORK_MTIME, RRUN_WORK_WRITE, RRUN_WORKS };

/* n samples (1..1000) of each kind of work (a minimal Ruby step, [1, 1];
 * File.mtime(o->stat_path); File.write of /dev/null), each the median ns of
 * one call of it made right after the thread took a token through a
 * Thread::Queue from a thread that had just made the same call:
 * samples[k * RRUN_WORKS + w].  One run of the Ruby, on the CPUs the
 * calling thread may use (its children inherit them: one CPU, or two).
 * Errors as rrun_insn_ns. */
int rrun_handoff_work_ns(const struct rrun_opts *o, double *samples, int n, char *err, size_t errlen);

/* Lines on what only this backend reports (the Ruby, its calibration, GC,
 * instructions), after summary_write's. */
void rrun_summary_write(FILE *f, const struct rrun_report *rep);

#endif
