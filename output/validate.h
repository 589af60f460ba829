/* validate.h - simulated beside measured: the comparison table of
 * `gvlsim validate`.
 *
 * A grid of points (configurations) is run by the simulator under S seeds
 * (once by default: the simulator is deterministic, but a seed is one draw
 * of its random elements) and N times by each real backend.  Of each run a
 * few figures are kept (struct val_figures); for every point, metric and
 * real backend the table gives the simulated value (the median over the
 * seeds, with their minimum and maximum), the measured minimum, median and
 * maximum over the runs, and the simulation's relative error against the
 * measured median (simulated median / measured median - 1): a median set
 * beside a median.
 *
 * The metrics:
 *   wall_s            the run's wall time (scenarios without stop.time)
 *   ops_per_s         measured iterations per second (scenarios with
 *                     stop.time, whose wall time is fixed)
 *   cores_ratio       time per op (wall / ops; wall alone when the run
 *                     counts no ops) at this point over the same at its
 *                     base point: the same configuration on the fewest
 *                     cores of the grid (the 2-core/1-core ratio).
 *                     Measured run by run: the k-th run at the point over
 *                     the k-th run at the base, taken close in time when
 *                     the runs are interleaved; simulated seed by seed:
 *                     seed k at the point over seed k at the base
 *   vol_switches_per_op   voluntary context switches per op
 *   gvl_handoffs_per_op   GVL hand-offs per op (not measurable by a Ruby
 *                     program: no measured value for the ruby backend)
 *   cpus_busy         CPU time over wall time: how many CPUs the run kept
 *                     busy on average.  Not a target: it tells whether a
 *                     miss comes from where the threads ran (a guest that
 *                     packs two threads on one vCPU runs a 2-core
 *                     configuration near 1.0, docs/validate.md)
 *   gc_ms_per_gc      the GC's time per collection as Ruby's GC.stat(:time)
 *                     reads it, ms (gc_clock_s * 1000 / gc_count: the
 *                     process's CPU clock over the GC's clock windows, its
 *                     barrier's included) - simulated, the executor's, and
 *                     Ruby's own (3.1+).  Not a target
 * A per-op metric of a scenario that counts no ops is left out.
 */
#ifndef OUTPUT_VALIDATE_H
#define OUTPUT_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../common/metrics.h"
#include "compare.h"
#include "rows.h"

enum val_metric {
    VAL_WALL,
    VAL_OPS_PER_S,
    VAL_CORES_RATIO,
    VAL_VOL_PER_OP,
    VAL_HANDOFFS_PER_OP,
    VAL_CPUS_BUSY,
    VAL_GC_PER_GC,
    VAL_NMETRICS
};

/* "wall_s", "ops_per_s", ... (the CSV's metric column) */
const char *val_metric_name(enum val_metric m);

/* What the table needs of one run. */
struct val_figures {
    bool ok;                   /* the run succeeded (else nothing below is set) */
    double wall_s;
    double ops;
    double vol_switches;
    double gvl_handoffs;
    double cpu_s;              /* CPU time of the run (all its threads) */
    double gc_clock_s, gc_count; /* the GC's clock (what GC.stat(:time) sums) and its collections */
    bool has_vol, has_handoffs, has_cpu, has_gc; /* measured by the backend */
};

void val_figures_of(const struct run_metrics *m, struct val_figures *f);
/* The same from the cells of a result row (wall_s, ops, vol_switches,
 * gvl_handoffs, cpu_s, gc_clock_s, gc_count as written by output/csv.c; an
 * empty cell, or a NULL one, is unmeasured).  Returns 0, or -1 if wall_s or
 * ops is not a number. */
int val_figures_parse(const char *wall_s, const char *ops, const char *vol, const char *handoffs,
                      const char *cpu_s, const char *gc_clock_s, const char *gc_count, struct val_figures *f);

/* The runs of a validation. */
struct val_input {
    int npoints;               /* configurations */
    int nreal;                 /* real backends */
    int nreps;                 /* runs of each real backend at each point */
    int nseeds;                /* simulator runs at each point, one per seed (0 or 1: one) */
    bool fixed_time;           /* the scenario stops at stop.time: ops_per_s, not wall_s */
    const struct val_figures *sim;    /* [point * nseeds + seed] */
    const struct val_figures *real;   /* [(point * nreal + backend) * nreps + rep] */
    const int *base;           /* [point]: its base point for cores_ratio (itself for a
                                  base point, which gets no ratio row), or -1: none */
};

/* One line of the table. */
struct val_row {
    int point;
    int backend;               /* index of the real backend */
    enum val_metric metric;
    bool has_sim;
    double sim;                /* the median over the seeds */
    int sim_n;                 /* simulated values (seeds whose run gave one) */
    double sim_min, sim_max;   /* over the seeds */
    int n;                     /* measured values (0: none) */
    double min, median, max;
    bool has_err;
    double err;                /* sim / median - 1 (the two medians) */
};

/* The table, point by point, metric by metric, backend by backend
 * (malloc'ed; free(*rows)).  GV_OK or GV_ENOMEM. */
int val_table(const struct val_input *in, struct val_row **rows, size_t *nrows);


/* With --sensitivity (cli/sensitivity.h): a simulated figure's range when
 * each of the profile's measurements moves, one at a time, to its q1 and
 * to its q3, and what moves it most. */
struct val_range {
    bool has;
    double lo, hi;             /* over the profile itself and every variant */
    const char *by;            /* the keys the measurement of the widest span moves
                                  ("syscalls.stat"); NULL when no variant moves the figure */
    const char *measurement;   /* that measurement ("syscall_stat_ns") */
};

/* How the table is labelled. */
struct val_report {
    const char *scenario;      /* the scenario's name */
    const char *host;          /* "Intel Xeon, 2 CPUs, Linux 6.18.44" */
    const char *note;          /* a line under the host (load averages), or NULL */
    int nreps;
    int nseeds;                /* simulator seeds per configuration (0 or 1: one) */
    int nkeys;                 /* the --param keys */
    const char *const *keys;
    const char *const *values; /* [point * nkeys + key]: each as given */
    int nreal;
    const char *const *backends;  /* "pthread", "ruby" */
    const char *const *engines;   /* what ran: "pthread", "ruby 3.1.2" ("" if no run succeeded) */
    const struct val_row *rows;
    size_t nrows;
    const struct val_range *ranges;  /* [point * VAL_NMETRICS + metric], or NULL: no --sensitivity */
    int range_seeds;           /* seeds behind each variant's figure */
    int range_variants;        /* variants simulated */
    const char *range_note;    /* what was not varied, or NULL */
};

/* The report on f in one of compare's forms (output/compare.h: text,
 * markdown, json): a table, or a JSON object with the labels and the rows
 * of val_row_cells. */
void val_write_report(FILE *f, enum cmp_report kind, const struct val_report *r);

/* The table as result rows (CSV, JSON, JSON Lines): the columns
 *   point, KEY..., metric, backend, engine, simulated, measured_min,
 *   measured_median, measured_max, runs, rel_error
 * and, with more than one seed, simulated_min, simulated_max and
 * simulated_runs (the seeds that gave a value); with ranges (--sensitivity)
 * also range_min, range_max, sensitive_to and sensitive_measurement; an
 * empty cell where there is no value.  With one seed and no ranges the
 * columns are those of before --seeds. */
void val_columns(const struct val_report *r, struct row *cols);
void val_row_cells(const struct val_report *r, const struct val_row *vr, struct row *cells);

#endif
