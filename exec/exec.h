/* exec.h - the real executor: run a scenario on real POSIX threads.
 *
 * One pthread per simulated Ruby thread, a real GVL per Ractor built like
 * CRuby's thread_pthread.c (or the 2.6-3.2 GVL for policy "barging"), a
 * real timer thread, real system calls, a real VM lock and barrier.  The
 * run fills the same struct run_metrics as the simulator (backend and
 * engine "pthread"), so both sit side by side in one CSV.
 *
 * Timing results vary from run to run; everything else a run reports
 * (ops executed, syscalls, barriers, the GVL-exclusion check) does not.
 */
#ifndef EXEC_EXEC_H
#define EXEC_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../input/scenario.h"
#include "../common/metrics.h"
#include "exec_tlog.h"

/* The busy-loop calibration (exec_work.c). */
struct exec_calibration {
    double ps_per_iter;      /* median of the samples: picoseconds per loop iteration */
    double min_ps, max_ps;   /* extremes of the samples */
    double spread;           /* interquartile range / median of the samples */
    int samples;
    int attempts;            /* calibrations run until one was stable */
};

struct exec_opts {
    double timeout_s;        /* watchdog: a run still going after this is stopped (GV_ERUN) */
    const char *stat_path;   /* file stat(2)ed by call "stat"; NULL: the scenario file, else "/" */
    /* reuse this calibration instead of measuring (tests running many
     * small scenarios in one process); NULL: calibrate */
    const struct exec_calibration *calibration;
    double max_spread;       /* the calibration's largest accepted spread; <= 0: 0.10 */
    /* record the threads' state changes, at most about this many (whole
     * blocks, exec_tlog.h; 0: none) into exec_report.trace */
    uint64_t trace_max_events;
};

/* A run's recorded state changes (exec_opts.trace_max_events). */
struct exec_trace {
    struct exec_tlog_entry *states;  /* in time order */
    size_t nstates;
    int64_t start_ns, end_ns;        /* the run's start (the gate) and end, on the same clock */
    int64_t cut_ns;                  /* the record ends here (INT64_MAX: complete) */
    uint64_t dropped;                /* state changes after the cut, not in states */
    int nthreads, nractors;
    char **thread_names;             /* "main", "worker#3", by thread index (scenario order) */
    char **ractor_names;
};

/* What a run measured beyond the CSV columns (printed in the summary). */
struct exec_report {
    struct run_metrics m;          /* m.ractor_ops points into ractor_ops_buf */
    uint64_t *ractor_ops_buf;
    struct exec_calibration calib;
    uint64_t barrier_joins;        /* threads that stopped at another Ractor's barrier */
    uint64_t gvl_violations;       /* times two threads held one GVL (must be 0) */
    uint64_t insns;                /* interpreter instructions executed */
    uint64_t shared_counter;       /* final value of the shared counter (lost updates show) */
    uint64_t proc_vol_switches;    /* getrusage(RUSAGE_SELF) over the run: whole process */
    uint64_t proc_invol_switches;
    double proc_user_s, proc_sys_s;
    bool stopped_at_time;          /* ended by stop.time */
    struct exec_trace trace;       /* with trace_max_events > 0 and a run that ended */
};

/* Run `scn` for real.  Returns GV_OK with `rep` filled, or GV_EINVAL /
 * GV_EUNSUP (the scenario asks for something the executor cannot do, e.g.
 * more cores than the host has), GV_ERUN (deadlock, watchdog, unstable
 * calibration; a report of who waits on what is in err), GV_ENOMEM, GV_EIO.
 * Free `rep` with exec_report_free in every case. */
int exec_run(const struct scenario *scn, const struct exec_opts *opts, struct exec_report *rep,
             char *err, size_t errlen);
void exec_report_free(struct exec_report *rep);

/* Lines on the executor's own measurements (calibration, process-wide
 * switches, barrier joins, the GVL check), after summary_write's. */
void exec_summary_write(FILE *f, const struct exec_report *rep);

#endif
