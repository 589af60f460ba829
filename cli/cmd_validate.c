/* cmd_validate.c - `gvlsim validate`: a scenario on the simulator and on
 * the real backends over a grid of configurations, the simulation set
 * beside the measurements (output/validate.h).
 *
 * The simulator runs each point once per seed (--seeds N, default 1: it is
 * deterministic, and a seed is one draw of its random elements; seed k is
 * sweep's replicate k, cli/sweep.h).  The real backends run one run at a
 * time, interleaved: repetition 1 of every point
 * and backend, then repetition 2, ... so that a host whose speed drifts
 * spreads the drift over all configurations alike, and the k-th runs of
 * two points (the cores ratio pairs them) are taken close in time. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/afile.h"
#include "../common/err.h"
#include "../exec/calib.h"
#include "../exec/calib_host.h"
#include "../input/load.h"
#include "../output/compare.h"
#include "../output/csv.h"
#include "../output/rowsread.h"
#include "../output/validate.h"
#include "backend.h"
#include "cli.h"
#include "options.h"
#include "sensitivity.h"
#include "sweep.h"

static int validate_exec(const struct args *a);

/* at most this many backends in cli/backend.c's table (a bit mask of --backend) */
#define B_MAX 16

static const struct args_opt validate_opts[] = {
    { .name = "backend", .kind = ARGS_ENUM, .flags = ARGS_LIST, .names = backend_name,
      .metavar = "B,B,...",
      .help = "the backends, comma-separated (default sim,pthread,ruby):\n"
              "sim and at least one of pthread (the executor) and ruby\n"
              "(the scenario as a Ruby program on a real Ruby)" },
    CLI_OPT_PARAM_H("vary a --set path over these values, as `sweep` does\n"
                    "(default machine.cores=1,2; without a machine.cores\n"
                    "--param, machine.cores=1,2 is added as the last one)"),
    { .name = "reps", .kind = ARGS_INT, .min = 1, .max = 1000,
      .help = "runs of each real backend per configuration (default 3)" },
    { .name = "seeds", .kind = ARGS_INT, .min = 1, .max = 100000,
      .help = "simulate each configuration under N seeds (default 1),\n"
              "as `sweep --seeds N` does: the scenario's seed (or --seed),\n"
              "then seeds derived from it by SplitMix64; the table's\n"
              "simulated value is their median, with their min and max" },
    { .name = "sensitivity", .kind = ARGS_FLAG,
      .help = "also simulate the profile with each of its measurements at\n"
              "its q1 and at its q3 (keys derived again, as calibrate\n"
              "does): each figure's range and what moves it most; needs\n"
              "a profile with a calibration section" },
    { .name = "sensitivity-seeds", .kind = ARGS_INT, .min = 1, .max = 100000, .metavar = "N",
      .help = "seeds of each --sensitivity variant (default: --seeds;\n"
              "at most --seeds: the first N of them)" },
    CLI_OPT_SET_H("override a value everywhere, e.g. --set machine=host.json\n"
                  "(the profile `gvlsim calibrate` wrote for this host)"),
    CLI_OPT_OUTPUT_H("FILE", "write the table as rows to FILE (atomically; .csv, .json\n"
                             "or .jsonl by suffix, or --format)"),
    CLI_OPT_FORMAT,
    { .name = "rows", .kind = ARGS_PATH, .metavar = "FILE",
      .help = "also write every run's row to FILE (point, rep, KEY...,\n"
              "then the columns of `gvlsim run`, then line_probe_ns,\n"
              "wake_probe_ns, speed_slow_share, wake_cost_probe_ns and\n"
              "stat_probe_ns: the cache, wake and speed probes before a\n"
              "real run, the wake probe's cost to its waker and the speed\n"
              "probe's stat(2); format by suffix)" },
    { .name = "report", .kind = ARGS_ENUM, .values = cmp_report_names,
      .help = "the table on stdout: text (the default), markdown, or JSON\n"
              "with the rows of -o" },
    { .name = "measured", .kind = ARGS_PATH, .metavar = "ROWS",
      .help = "run nothing for real: take the real backends' runs from\n"
              "ROWS (CSV, JSON or JSON Lines), written by an earlier --rows\n"
              "with the same --param keys (a past measurement against\n"
              "today's simulator)" },
    CLI_OPT_SEED_H("random seed of every run (overrides the scenario's)"),
    CLI_OPT_MAX_TIME_H("the simulator's simulated-time limit (default 3600)"),
    CLI_OPT_ENGINE,
    CLI_OPT_TIMEOUT,
    CLI_OPT_MAX_SPREAD,
    CLI_OPT_RUBY,
    CLI_OPT_RUBY_OPT,
    CLI_OPT_MACHINES,
    CLI_OPT_QUIET_H("no progress on stderr (failures are still reported)"),
    CLI_OPT_END,
};

const struct cli_command cli_cmd_validate = {
    .name = "validate",
    .usage = "SCENARIO [--backend sim,pthread,ruby] [--set KEY=VALUE]... [--param KEY=V1,V2]... "
             "[--reps N] [-o OUT.csv] [--report text|markdown|json] [options]",
    .summary = "run a scenario simulated and for real over a grid, and compare",
    .description =
        "Every configuration of the grid (the cartesian product of the --param values,\n"
        "as in `sweep`) runs on the simulator once per seed (--seeds N, default 1) and\n"
        "--reps times on each real backend, one run at a time, interleaved (repetition\n"
        "1 of every configuration, then repetition 2, ...).  The table gives, per\n"
        "configuration and metric, the simulated value (with --seeds, the median over\n"
        "the seeds and their minimum / maximum), the measured minimum / median /\n"
        "maximum of each real backend and the relative error of the simulation\n"
        "(simulated / measured median - 1), for:\n"
        "  wall_s               wall time (ops_per_s for a scenario with stop.time)\n"
        "  cores_ratio          time per op against the same configuration on the\n"
        "                       fewest cores (the 2-core/1-core ratio); measured run\n"
        "                       by run (the k-th run over the base's k-th), simulated\n"
        "                       seed by seed\n"
        "  vol_switches_per_op  voluntary context switches per op\n"
        "  gvl_handoffs_per_op  GVL hand-offs per op (a Ruby program cannot see them)\n"
        "  cpus_busy            CPU time over wall time, the CPUs the run kept busy:\n"
        "                       not a target, it says where the threads ran (a guest\n"
        "                       that packs a 2-core run's threads on one CPU gives\n"
        "                       about 1.0)\n"
        "  gc_ms_per_gc         the GC's time per collection as Ruby's GC.stat(:time)\n"
        "                       reads it (gc_clock_s: the process's CPU clock over\n"
        "                       the GC's windows, barriers included), ms: not a target\n"
        "Real timings need a quiet host: the report gives the load average before and\n"
        "after the runs.  Simulate with this host's profile (`gvlsim calibrate -o\n"
        "host.json`, then --set machine=host.json).  Before each configuration's real\n"
        "runs `calibrate`'s cache probe (a locked add on a line the other CPU stored\n"
        "to; a few ms) runs: the report gives its range, and a warning says when it\n"
        "differs from the profile's cache_probe by more than 1.5x (the runs met\n"
        "another cache regime than the one the profile's cache keys were measured\n"
        "in; docs/validate.md, \"The cache regime\").  So does its wake probe\n"
        "(wake_idle_core's measurement, 20 wakes: a few ms): a warning says when the\n"
        "runs' wakes differ from the profile's wake_idle_core by more than 15% (a\n"
        "guest's wake drifts from minute to minute; docs/validate.md, \"The wake\n"
        "drift\"), and its speed probe (the speed levels' windows of stat calls,\n"
        "each CPU alone, about 0.3 s): a warning says when the share of windows at\n"
        "the slow level differs from the profile's (speed_dwell) by more than 0.2\n"
        "(docs/validate.md, \"The speed drift\").\n"
        "With --sensitivity the table also gives each simulated figure's range when\n"
        "the profile's measurements (its calibration section: median, q1, q3 of\n"
        "each) move one at a time to their q1 and to their q3, the keys derived from\n"
        "the moved measurement again as `calibrate` derives them, and which keys move\n"
        "the figure most: a prediction that flips within the measurements' spread\n"
        "says so.  Each move is one more simulation of every configuration under\n"
        "--sensitivity-seeds seeds (the first of the table's).",
    .args = { validate_opts, "SCENARIO", 1, 1 },
    .details =
        "Rows of -o: point, one column per --param KEY, metric, backend, engine (what\n"
        "ran: \"ruby 3.1.2\"), simulated, measured_min, measured_median, measured_max,\n"
        "runs, rel_error; with --seeds N > 1 also simulated_min, simulated_max and\n"
        "simulated_runs (the seeds that gave a value); an empty cell where there is no\n"
        "value.  A failed real run is reported and left out (runs counts those that\n"
        "succeeded).  --rows writes the simulator's run of seed k with rep k.\n"
        "With --sensitivity also range_min, range_max (the figure over the profile and\n"
        "every move, each under --sensitivity-seeds seeds: their median), sensitive_to\n"
        "(the keys moved by the measurement whose q1 and q3 span the figure most) and\n"
        "sensitive_measurement (that measurement); empty when no move changes it.  Not\n"
        "moved, and said under the table: a key whose value in the profile is not its\n"
        "calibration's derivation (edited by hand), a key the command line sets, a\n"
        "key measured from a run's samples rather than a median (hidden_steal_rate,\n"
        "the speed levels'); a list of one measurement's quantiles (futex_wait_window,\n"
        "futex_wake_race, wake_waking, hidden_steal_len) moves with it, every entry\n"
        "scaled as its median.  A profile without a calibration section (the shipped\n"
        "ones) is an error (exit 3): it records no spread to move across.",
    .exit_status =
        "0 every run succeeded, 2 usage, 3 invalid scenario or value (or more cores\n"
        "than the host has; with --sensitivity: no profile, or one without a valid\n"
        "calibration section), 4 some run failed (the table is still written), 5 I/O\n"
        "error, 6 out of memory, 7 not supported (no ruby, or a setting it cannot\n"
        "honour).",
    .exec = validate_exec,
};

/* ---- the validation -------------------------------------------------------- */

struct validation {
    struct run_options run;
    const struct args *a;
    const struct backend *sim;
    int nreal;
    const struct backend *real[B_MAX];/* the real backends, in table order */
    struct backend_opts bo;
    int nreps;
    int nseeds;                       /* simulator runs per point (--seeds) */
    struct sweep_grid grid;
    int npoints;
    int cores_param;                  /* index of machine.cores in the grid */
    struct scenario *scns;            /* [point] */
    bool *loaded;
    int *base;                        /* [point] */
    struct val_figures *sim_f, *real_f; /* as in struct val_input */
    char engines[B_MAX][64];
    /* --rows */
    struct afile rows_file;
    bool rows_open;
    struct rows_writer rw;
    struct row rows_cols;
    double load_before;               /* 1-minute load average before the runs (< 0: unknown) */
    double *probe;                    /* [point * nreps + rep]: the cache probe before those real runs,
                                       * ns (0: none: one CPU, or --measured rows without it) */
    char probe_note[256];             /* why there is none (the probe's message), or "" */
    double *wake;                     /* [point * nreps + rep]: the wake probe's latency before those
                                       * real runs, ns (0: none) */
    char wake_note[256];              /* why there is none, or "" */
    double *wake_cost;                /* [point * nreps + rep]: the same probe's cost to its waker (its
                                       * CPU time in FUTEX_WAKE, with the IPI), ns (0: none) */
    double *speed;                    /* [point * nreps + rep]: the speed probe's share of windows at the
                                       * slow level before those real runs (0..1; < 0: none) */
    char speed_note[256];             /* why there is none, or "" */
    double *stat;                     /* [point * nreps + rep]: the same probe's stat(2), ns (NaN: none) */
    /* --sensitivity */
    bool sensitivity;
    int sens_seeds;                   /* seeds of each variant (the first of the table's) */
    struct sens_plan plan;
    struct val_range *ranges;         /* [point * VAL_NMETRICS + metric] */
    char sens_note[1536];
    int worst;                        /* highest exit code of a failed run */
    int ndone, nruns;                 /* progress */
};

static int add_default_cores(struct validation *v)
{
    for (int i = 0; i < v->grid.nparams; i++)
        if (strcmp(v->grid.params[i].key, "machine.cores") == 0) {
            v->cores_param = i;
            return GV_EXIT_OK;
        }
    char msg[256];
    if (sweep_grid_add(&v->grid, "machine.cores=1,2", msg, sizeof msg) != 0) {
        fprintf(stderr, "gvlsim validate: %s\n", msg);
        return GV_EXIT_USAGE;
    }
    v->cores_param = v->grid.nparams - 1;
    return GV_EXIT_OK;
}

static int parse(const struct args *a, struct validation *v)
{
    v->a = a;
    int rc = run_options_get(&cli_cmd_validate, a, &v->run);
    if (rc != GV_EXIT_OK) return rc;
    unsigned mask = 0;
    if (args_has(a, "backend")) {
        mask = (unsigned)args_num(a, "backend", 0);
    } else {  /* every backend of the table */
        for (size_t i = 0; i < B_MAX && backend_name(i); i++) mask |= 1u << i;
    }
    for (size_t i = 0; i < B_MAX && backend_name(i); i++) {
        if (!(mask & (1u << i))) continue;
        const struct backend *b = backend_find(backend_name(i));
        if (!b->measured) v->sim = b;
        else v->real[v->nreal++] = b;
    }
    if (!v->sim || v->nreal == 0)
        return cli_usage_error(&cli_cmd_validate, "--backend needs sim and at least one real backend "
                                                  "(pthread, ruby): the table sets one beside the other");
    bool ruby = false;
    for (int i = 0; i < v->nreal; i++) ruby |= strcmp(v->real[i]->name, "ruby") == 0;
    if (!ruby && (args_has(a, "ruby") || args_has(a, "ruby-opt")))
        return cli_usage_error(&cli_cmd_validate, "--ruby and --ruby-opt need the ruby backend");
    v->bo = (struct backend_opts){ .engine = v->run.engine, .max_time = v->run.max_time,
                                   .timeout_s = v->run.timeout, .max_spread = cli_max_spread(a),
                                   .ruby = args_str(a, "ruby", NULL), .ruby_opts = args_strs(a, "ruby-opt"),
                                   .nruby_opts = args_count(a, "ruby-opt") };
    v->nreps = (int)args_num(a, "reps", 3);
    v->nseeds = (int)args_num(a, "seeds", 1);
    v->sensitivity = args_has(a, "sensitivity");
    v->sens_seeds = (int)args_num(a, "sensitivity-seeds", v->nseeds);
    if (args_has(a, "sensitivity-seeds") && !v->sensitivity)
        return cli_usage_error(&cli_cmd_validate, "--sensitivity-seeds is for --sensitivity");
    if (v->sens_seeds > v->nseeds)
        return cli_usage_error(&cli_cmd_validate, "--sensitivity-seeds %d: more than --seeds %d (a variant's seeds "
                               "are the first of the table's)", v->sens_seeds, v->nseeds);
    if (args_has(a, "measured")) {
        static const char *const real_only[] = { "reps", "timeout", "max-spread", "ruby", "ruby-opt" };
        for (size_t i = 0; i < sizeof real_only / sizeof *real_only; i++)
            if (args_has(a, real_only[i]))
                return cli_usage_error(&cli_cmd_validate, "--%s is for real runs; --measured runs none",
                                       real_only[i]);
    }
    const char *const *params = args_strs(a, "param");
    for (int i = 0; i < args_count(a, "param"); i++) {
        char msg[512];
        if (sweep_grid_add(&v->grid, params[i], msg, sizeof msg) != 0)
            return cli_usage_error(&cli_cmd_validate, "%s", msg);
    }
    rc = add_default_cores(v);
    if (rc != GV_EXIT_OK) return rc;
    if (v->grid.npoints > 10000)
        return cli_usage_error(&cli_cmd_validate, "the grid has %" PRIu64 " configurations (at most 10000)",
                               v->grid.npoints);
    if (v->grid.npoints * (uint64_t)v->nseeds > 1000000)
        return cli_usage_error(&cli_cmd_validate, "%" PRIu64 " configurations x %d seeds: more than 10^6 "
                               "simulations", v->grid.npoints, v->nseeds);
    v->npoints = (int)v->grid.npoints;
    return GV_EXIT_OK;
}

/* "KEY=VALUE KEY=VALUE" of a point, for messages. */
static void point_label(const struct validation *v, int p, char *buf, size_t len)
{
    size_t off = 0;
    buf[0] = 0;
    for (int i = 0; i < v->grid.nparams && off + 1 < len; i++) {
        const struct sweep_param *sp = &v->grid.params[i];
        int n = snprintf(buf + off, len - off, "%s%s=%s", i ? " " : "", sp->key,
                         sp->values[sweep_value_index(&v->grid, (uint64_t)p, i)]);
        if (n < 0) break;
        off += (size_t)n;
    }
}

/* Load every point's scenario (the common --set values, then the point's). */
static int load_points(struct validation *v)
{
    struct load_opts base = { .sets = v->run.sets, .nsets = v->run.nsets, .machines_dirs = v->run.machines,
                              .nmachines_dirs = v->run.nmachines };
    int code = GV_EXIT_OK;
    for (int p = 0; p < v->npoints && code == GV_EXIT_OK; p++) {
        struct diag_list d;
        diag_init(&d);
        int rc = sweep_load_point(&v->grid, (uint64_t)p, v->run.scenario, NULL, 0, &base, &v->scns[p], &d);
        if (rc == GV_ENOMEM && d.n == 0) {
            code = GV_EXIT_NOMEM;
        } else if (rc != GV_OK) {
            char label[512];
            point_label(v, p, label, sizeof label);
            fprintf(stderr, "gvlsim validate: configuration %d (%s):\n", p, label);
            for (size_t i = 0; i < d.n; i++) fprintf(stderr, "  %s\n", d.msgs[i]);
            code = gv_exit_code(rc);
        } else {
            v->loaded[p] = true;
            if (v->run.has_seed) v->scns[p].seed = v->run.seed;
        }
        diag_free(&d);
    }
    if (code == GV_EXIT_NOMEM) fprintf(stderr, "gvlsim validate: out of memory\n");
    return code;
}

/* The base of each point: the same values of every other --param, the
 * fewest cores (as loaded: a profile may set them). */
static void find_bases(struct validation *v)
{
    for (int p = 0; p < v->npoints; p++) {
        int best = -1;
        for (int q = 0; q < v->npoints; q++) {
            bool same = true;
            for (int i = 0; i < v->grid.nparams && same; i++)
                if (i != v->cores_param)
                    same = sweep_value_index(&v->grid, (uint64_t)p, i) == sweep_value_index(&v->grid, (uint64_t)q, i);
            if (!same) continue;
            if (best < 0 || v->scns[q].machine.cores < v->scns[best].machine.cores) best = q;
        }
        v->base[p] = best >= 0 && v->scns[best].machine.cores < v->scns[p].machine.cores ? best : p;
    }
}

/* ---- one run --------------------------------------------------------------- */

/* Run `b` on the point's scenario: its figures, its row's cells, what ran. */
static int run_one(const struct validation *v, const struct backend *b, const struct scenario *scn,
                   struct val_figures *f, struct row *cells, char *engine, size_t englen, char *err,
                   size_t errlen)
{
    struct backend_result r;
    double t0 = cli_host_now();
    int rc = b->run(scn, &v->bo, &r, err, errlen);
    if (rc == GV_OK) {
        r.m.host_seconds = cli_host_now() - t0;
        val_figures_of(&r.m, f);
        csv_row(cells, &r.m, false);
        snprintf(engine, englen, "%s", r.m.engine);
        backend_result_free(&r);
    }
    return rc;
}

/* The leading cells of a --rows row. */
static void row_head(const struct validation *v, int p, int rep, struct row *cells)
{
    row_cell(cells, ROW_NUM);
    row_printf(cells, "%d", p);
    row_cell(cells, ROW_NUM);
    row_printf(cells, "%d", rep);
    for (int i = 0; i < v->grid.nparams; i++)
        row_guess(cells, v->grid.params[i].values[sweep_value_index(&v->grid, (uint64_t)p, i)]);
}

static void put_row(struct validation *v, struct row *cells)
{
    if (v->rows_open && !cells->oom) rows_put(&v->rw, cells);
}

/* A failed run: reported; a failure that every run would repeat (invalid,
 * unsupported, no memory, I/O) stops the validation. */
static int failed(struct validation *v, const char *what, int p, int rep, int rc, const char *err)
{
    char label[512];
    point_label(v, p, label, sizeof label);
    fprintf(stderr, "gvlsim validate: %s, %s, run %d failed:\n", what, label, rep + 1);
    const char *m = err[0] ? err : gv_strerror(rc);
    while (*m) {
        size_t n = strcspn(m, "\n");
        fprintf(stderr, "  %.*s\n", (int)n, m);
        m += n;
        if (*m) m++;
    }
    int code = gv_exit_code(rc);
    if (code > v->worst) v->worst = code;
    return code == GV_EXIT_RUN ? GV_EXIT_OK : code;
}

/* seed: the simulator's seed, shown with --seeds; NULL for a real run */
static void progress(struct validation *v, const char *what, int p, const uint64_t *seed,
                     const struct val_figures *f)
{
    v->ndone++;
    if (v->run.quiet || !f->ok) return;
    char label[512];
    point_label(v, p, label, sizeof label);
    if (seed && v->nseeds > 1)
        fprintf(stderr, "validate: %d/%d %s %s seed %" PRIu64 ": wall %.6f s\n", v->ndone, v->nruns, what, label,
                *seed, f->wall_s);
    else
        fprintf(stderr, "validate: %d/%d %s %s: wall %.6f s\n", v->ndone, v->nruns, what, label, f->wall_s);
}

/* ---- the probes: cache regime, wake, speed ----------------------------------- */

#define PROBE_ROUNDS 9   /* a few ms */
#define WAKE_PROBE_WAKES 20   /* a few ms */

/* A probe kind's figures, [point * nreps + rep]: none taken yet (NaN). */
static double *probes_alloc(size_t n)
{
    double *s = malloc(n * sizeof *s);
    for (size_t i = 0; s && i < n; i++) s[i] = NAN;
    return s;
}

/* Every probe kind's figures for v's points and reps; false: out of memory
 * (what was allocated is freed with v). */
static bool probes_alloc_all(struct validation *v)
{
    size_t n = (size_t)v->npoints * (size_t)v->nreps;
    v->probe = probes_alloc(n);
    v->wake = probes_alloc(n);
    v->wake_cost = probes_alloc(n);
    v->speed = probes_alloc(n);
    v->stat = probes_alloc(n);
    return v->probe && v->wake && v->wake_cost && v->speed && v->stat;
}

/* A probe's outcome: its figure at vals[p * nreps + k], or why there is
 * none in note (then said once in the report, and not tried again). */
static int probe_done(struct validation *v, int rc, double x, double *vals, int p, int k, char *note,
                      size_t note_size, const char *what, const char *err)
{
    if (rc == GV_ENOMEM) {
        fprintf(stderr, "gvlsim validate: out of memory\n");
        return GV_EXIT_NOMEM;
    }
    if (rc != GV_OK) {
        snprintf(note, note_size, "no %s probe: %.200s", what, err);
        return GV_EXIT_OK;
    }
    vals[(size_t)p * (size_t)v->nreps + (size_t)k] = x;
    return GV_EXIT_OK;
}

/* Before the real runs of point p, rep k: the cache-regime probe of `gvlsim
 * calibrate` (exec/calib.h calib_line_probe) - a guest's vCPUs may share a
 * cache in one window and not in the next, and what a cross-CPU line or
 * free costs a run follows (docs/validate.md, "The cache regime") - the
 * wake probe (calib_wake_probe) - the wake of an idle vCPU drifts between
 * minutes ("The wake drift") - and the speed probe (calib_speed_probe) -
 * the share of time at a slow speed level drifts too ("The speed drift").
 * One CPU (or none a probe can pin): no probe, said once. */
static int probes_before(struct validation *v, int p, int k)
{
    char err[GV_ERRLEN];
    int code = GV_EXIT_OK;
    if (!v->probe_note[0]) {
        struct calib_probe pr;
        int rc = calib_line_probe(PROBE_ROUNDS, &pr, err, sizeof err);
        code = probe_done(v, rc, pr.add_ns, v->probe, p, k, v->probe_note, sizeof v->probe_note, "cache", err);
    }
    if (code == GV_EXIT_OK && !v->wake_note[0]) {
        struct calib_wake_probe wp;
        int rc = calib_wake_probe(WAKE_PROBE_WAKES, &wp, err, sizeof err);
        if (rc == GV_OK && !wp.measured) rc = gv_fail(err, sizeof err, GV_ERUN, "no wake recorded");
        code = probe_done(v, rc, wp.lat_ns, v->wake, p, k, v->wake_note, sizeof v->wake_note, "wake", err);
        if (code == GV_EXIT_OK && rc == GV_OK) v->wake_cost[(size_t)p * (size_t)v->nreps + (size_t)k] = wp.cost_ns;
    }
    if (code == GV_EXIT_OK && !v->speed_note[0]) {
        struct calib_speed sp;
        int rc = calib_speed_probe(CALIB_SPEED_PROBE_WINDOWS, &sp, err, sizeof err);
        /* the share of its windows at the slow level (0: it saw one level) */
        code = probe_done(v, rc, sp.nlev == 2 ? sp.share[1] : 0.0, v->speed, p, k, v->speed_note,
                          sizeof v->speed_note, "speed", err);
        if (code == GV_EXIT_OK && rc == GV_OK && sp.call_all_ns > 0)
            v->stat[(size_t)p * (size_t)v->nreps + (size_t)k] = sp.call_all_ns;
    }
    return code;
}

/* A probe's cell: its figure with `decimals` decimals, or null. */
static void probe_cell(double x, int decimals, struct row *cells)
{
    row_cell(cells, isnan(x) ? ROW_NULL : ROW_NUM);
    if (!isnan(x)) row_printf(cells, "%.*f", decimals, x);
}

/* The probes' columns of --rows, after a run's own: probe_cells' order. */
static const char *const probe_cols[] = { "line_probe_ns", "wake_probe_ns", "speed_slow_share",
                                          "wake_cost_probe_ns", "stat_probe_ns" };
#define NPROBE_COLS (int)(sizeof probe_cols / sizeof *probe_cols)

/* A real run's probes, in probe_cols' order */
static void probe_cells(const struct validation *v, int p, int k, struct row *cells)
{
    size_t i = (size_t)p * (size_t)v->nreps + (size_t)k;
    probe_cell(v->probe[i], 1, cells);
    probe_cell(v->wake[i], 1, cells);
    probe_cell(v->speed[i], 3, cells);
    probe_cell(v->wake_cost[i], 1, cells);
    probe_cell(v->stat[i], 1, cells);
}

/* A simulated run's: none */
static void no_probe_cells(struct row *cells)
{
    for (int i = 0; i < NPROBE_COLS; i++) row_cell(cells, ROW_NULL);
}

/* What the probes of one kind before the real runs found: their range, the
 * range of the profiles' own value (np of them had one), and how many moved
 * away from their profile's - the first of them (point, rep) with its
 * probe and its profile's value. */
struct probe_span {
    double lo, hi, plo, phi;
    int n, np, off, off_p, off_k;
    double off_x, off_prof;
};

/* vals[point * nreps + rep] (NaN: none); prof_of(machine): the profile's
 * value (NaN: none); moved(probe, profile) */
static struct probe_span probe_span(const struct validation *v, const double *vals,
                                    double (*prof_of)(const struct scn_machine *), bool (*moved)(double, double))
{
    struct probe_span sp = { .off_p = -1 };
    for (int p = 0; p < v->npoints; p++)
        for (int k = 0; k < v->nreps; k++) {
            double x = vals[(size_t)p * (size_t)v->nreps + (size_t)k];
            if (isnan(x)) continue;
            if (!sp.n || x < sp.lo) sp.lo = x;
            if (!sp.n || x > sp.hi) sp.hi = x;
            sp.n++;
            double prof = prof_of(&v->scns[p].machine);
            if (isnan(prof)) continue;
            if (!sp.np || prof < sp.plo) sp.plo = prof;
            if (!sp.np || prof > sp.phi) sp.phi = prof;
            sp.np++;
            if (moved(x, prof) && sp.off++ == 0) {
                sp.off_p = p;
                sp.off_k = k;
                sp.off_x = x;
                sp.off_prof = prof;
            }
        }
    return sp;
}

/* How the report's note gives one kind of probe: "INTRO before the runs:
 * LO-HI UNIT; the profile's NAME V UNIT" (the profiles' range when the
 * configurations' profiles differ; NONE, if any, when none has one), the
 * figures divided by `scale`. */
struct probe_text {
    const char *intro, *name, *unit, *none;
    double scale;
    int decimals;
};

/* The note's part for one kind of probe appended to buf ("; " after what
 * it holds), or why there was no probe (why: "" when there was one). */
static void probe_note(char *buf, size_t size, const struct probe_span *sp, const struct probe_text *tx,
                       const char *why)
{
    size_t used = strlen(buf);
    const char *sep = used ? "; " : "";
    int d = tx->decimals;
    if (used >= size) return;
    if (!sp->n) {
        if (why[0]) snprintf(buf + used, size - used, "%s%s", sep, why);
        return;
    }
    used += (size_t)snprintf(buf + used, size - used, "%s%s before the runs: %.*f-%.*f%s", sep, tx->intro, d,
                             sp->lo / tx->scale, d, sp->hi / tx->scale, tx->unit);
    if (used >= size) return;
    if (sp->np && sp->plo < sp->phi)
        snprintf(buf + used, size - used, "; the profiles' %s %.*f-%.*f%s", tx->name, d, sp->plo / tx->scale, d,
                 sp->phi / tx->scale, tx->unit);
    else if (sp->np)
        snprintf(buf + used, size - used, "; the profile's %s %.*f%s", tx->name, d, sp->phi / tx->scale, tx->unit);
    else if (tx->none)
        snprintf(buf + used, size - used, "; %s", tx->none);
}

/* The warning when probes of one kind moved from their profile's value:
 * how many, the first of them and its profile's value in the note's units
 * (tx), what `moved` says of them, and what follows (`tail`). */
static void probe_warning(const struct validation *v, const struct probe_span *sp, const struct probe_text *tx,
                          const char *kind, const char *moved, const char *tail)
{
    if (!sp->off) return;
    char label[512];
    point_label(v, sp->off_p, label, sizeof label);
    int d = tx->decimals;
    fprintf(stderr, "gvlsim validate: warning: the %s probe before %d of %d configurations' runs %s (first: %s, "
            "run %d: %.*f%s against %.*f%s): %s\n", kind, sp->off, sp->n, moved, label, sp->off_k + 1, d,
            sp->off_x / tx->scale, tx->unit, d, sp->off_prof / tx->scale, tx->unit, tail);
}

static double cache_probe_of(const struct scn_machine *m)
{
    return m->cache_probe > 0 ? (double)m->cache_probe / 1000.0 : NAN;
}
static double wake_idle_of(const struct scn_machine *m)
{
    return m->wake_idle_core > 0 ? (double)m->wake_idle_core / 1000.0 : NAN;
}
static bool wake_moved(double probe, double prof) { return fabs(probe - prof) > CALIB_WAKE_DRIFT * prof; }

/* The profile's share of time at its slowest speed level: that level's
 * mean dwell over the sum of the dwells (the next level is drawn evenly
 * among the others, so every level is entered as often); 0 without
 * levels. */
static double slow_share_of(const struct scn_machine *m)
{
    if (m->speed_dwell.n < 2) return 0;
    int slow = 0;
    double sum = 0;
    for (int i = 0; i < m->speed_dwell.n; i++) {
        sum += (double)m->speed_dwell.v[i];
        if (m->speed_levels[i] > m->speed_levels[slow]) slow = i;
    }
    return sum > 0 ? (double)m->speed_dwell.v[slow] / sum : 0;
}
static bool speed_moved(double probe, double prof) { return fabs(probe - prof) > CALIB_SPEED_DRIFT; }
static double stat_of(const struct scn_machine *m)
{
    sim_time c = m->syscall_cost[CALL_STAT];  /* (SCN_DUR_UNSET: the profile has none) */
    return c > 0 && c != SCN_DUR_UNSET ? (double)c / 1000.0 : NAN;
}
static bool stat_moved(double probe, double prof) { return fabs(probe - prof) > CALIB_STAT_DRIFT * prof; }

/* One kind of probe: its part of the note (probe_note: why, if there was
 * none) and its warning (probe_warning) against prof_of's value, where
 * moved_fn says a probe drifted. */
static void probe_kind(const struct validation *v, char *buf, size_t size, const double *vals,
                       double (*prof_of)(const struct scn_machine *), bool (*moved_fn)(double, double),
                       const struct probe_text *tx, const char *why, const char *kind, const char *moved,
                       const char *tail)
{
    struct probe_span sp = probe_span(v, vals, prof_of, moved_fn);
    probe_note(buf, size, &sp, tx, why);
    probe_warning(v, &sp, tx, kind, moved, tail);
}

/* The probes' ranges into buf (for the report's note), and a warning for
 * each kind when a probe is further from its profile's value than that
 * kind's drift: the cache probe from cache_probe (CALIB_PROBE_FACTOR), the
 * wake probe from wake_idle_core (CALIB_WAKE_DRIFT), the speed probe's
 * share from the profile's slow share (CALIB_SPEED_DRIFT), its stat(2)
 * from syscalls.stat (CALIB_STAT_DRIFT). */
static void probe_summary(const struct validation *v, char *buf, size_t size)
{
    static const struct probe_text cache = { "cache probe (a locked add on a line the other CPU stored to)",
                                             "cache_probe", " ns", "the profile records no cache_probe", 1, 0 };
    static const struct probe_text wake = { "wake probe (an idle CPU's wake, wake_idle_core's measurement)",
                                            "wake_idle_core", " us", NULL, 1000, 1 };
    static const struct probe_text speed = { "speed probe (the share of speed_levels' windows of stat calls at "
                                             "the slow level, each CPU alone)", "slow share", "%", NULL, 0.01, 0 };
    static const struct probe_text stat = { "its stat(2) (the median of those windows' calls)", "syscalls.stat",
                                            " us", NULL, 1000, 2 };
    char moved[128];
    buf[0] = '\0';
    snprintf(moved, sizeof moved, "differs from the profile's cache_probe by more than %.2gx", CALIB_PROBE_FACTOR);
    probe_kind(v, buf, size, v->probe, cache_probe_of, calib_probe_moved, &cache, v->probe_note, "cache", moved,
               "the runs met another cache regime than the profile: compare with a profile of that regime "
               "(gvlsim calibrate --only cache in it, docs/validate.md)");
    snprintf(moved, sizeof moved, "differs from the profile's wake_idle_core by more than %.0f%%",
             100 * CALIB_WAKE_DRIFT);
    probe_kind(v, buf, size, v->wake, wake_idle_of, wake_moved, &wake, v->wake_note, "wake", moved,
               "the runs met another wake than the profile's (a guest's drifts from minute to minute; or the "
               "profile is another machine's), and figures that follow the wake differ as well "
               "(docs/validate.md, \"The wake drift\")");
    snprintf(moved, sizeof moved,
             "found the slow level in a share of its windows more than %.0f points from the profile's",
             100 * CALIB_SPEED_DRIFT);
    probe_kind(v, buf, size, v->speed, slow_share_of, speed_moved, &speed, v->speed_note, "speed", moved,
               "the runs met the CPUs at other speeds than the profile's speed_dwell says (a guest's slow level "
               "comes and goes from minute to minute), and figures that follow it differ as well "
               "(docs/validate.md, \"The speed drift\")");
    if (v->speed_note[0]) return;  /* (no speed probe, no stat: said once above) */
    snprintf(moved, sizeof moved, "timed a stat(2) more than %.0f%% off the profile's syscalls.stat",
             100 * CALIB_STAT_DRIFT);
    probe_kind(v, buf, size, v->stat, stat_of, stat_moved, &stat, "", "speed", moved,
               "the runs met system calls of another cost than the profile's (a guest's drift from minute to "
               "minute), and every figure that follows the machine's costs differs as well (docs/validate.md, "
               "\"Which level the costs were measured at\")");
}

static int run_all(struct validation *v)
{
    char err[16384];
    struct row cells;
    row_init(&cells);
    int code = GV_EXIT_OK;
    char engine[64];
    /* the simulator: seed k of every point is sweep's replicate k (the
     * scenario's seed, or --seed, for k = 0), the same for every point, so
     * that a point and its base share their draws seed by seed */
    for (int p = 0; p < v->npoints && code == GV_EXIT_OK; p++)
        for (int k = 0; k < v->nseeds && code == GV_EXIT_OK; k++) {
            struct scenario scn = v->scns[p];   /* the point's, read-only, with its own seed */
            scn.seed = sweep_seed(v->scns[p].seed, k);
            struct val_figures *f = &v->sim_f[(size_t)p * (size_t)v->nseeds + (size_t)k];
            err[0] = 0;
            row_clear(&cells);
            row_head(v, p, k, &cells);
            int rc = run_one(v, v->sim, &scn, f, &cells, engine, sizeof engine, err, sizeof err);
            no_probe_cells(&cells);
            if (rc == GV_OK) put_row(v, &cells);
            else code = failed(v, v->sim->name, p, k, rc, err);
            progress(v, v->sim->name, p, &scn.seed, f);
        }
    for (int k = 0; k < v->nreps && code == GV_EXIT_OK && !args_has(v->a, "measured"); k++)
        for (int p = 0; p < v->npoints && code == GV_EXIT_OK; p++) {
            code = probes_before(v, p, k);
            for (int i = 0; i < v->nreal && code == GV_EXIT_OK; i++) {
                struct val_figures *f = &v->real_f[((size_t)p * (size_t)v->nreal + (size_t)i) * (size_t)v->nreps + (size_t)k];
                err[0] = 0;
                row_clear(&cells);
                row_head(v, p, k, &cells);
                int rc = run_one(v, v->real[i], &v->scns[p], f, &cells, engine, sizeof engine, err, sizeof err);
                probe_cells(v, p, k, &cells);
                if (rc == GV_OK) {
                    put_row(v, &cells);
                    if (!v->engines[i][0]) snprintf(v->engines[i], sizeof v->engines[i], "%s", engine);
                } else {
                    code = failed(v, v->real[i]->name, p, k, rc, err);
                }
                progress(v, v->real[i]->name, p, NULL, f);
            }
        }
    row_free(&cells);
    return code;
}

/* ---- --measured ----------------------------------------------------------- */

/* The point whose --param values the row's KEY cells hold, or -1. */
static int point_of_row(const struct validation *v, const struct csv_table *t, size_t r, const int *key_col)
{
    for (int p = 0; p < v->npoints; p++) {
        bool same = true;
        for (int i = 0; i < v->grid.nparams && same; i++)
            same = strcmp(csvr_cell(t, r, key_col[i]),
                          v->grid.params[i].values[sweep_value_index(&v->grid, (uint64_t)p, i)]) == 0;
        if (same) return p;
    }
    return -1;
}

/* A probe's column `name` of the measured rows into vals[point * nreps +
 * rep] (a real run's row; the simulator's has none); absent: nothing.  A
 * probe's figure is a positive number of ns, or with `share` a share
 * (0..1). */
static int probe_column(struct validation *v, const struct csv_table *t, const char *name, bool share,
                        double *vals, const int *key_col, int rep_col, const char *path, char *err, size_t errlen)
{
    int c = csvr_col(t, name);
    for (size_t r = 0; c >= 0 && r < t->nrows; r++) {
        const char *cell = csvr_cell(t, r, c);
        if (!cell[0]) continue;  /* the simulator's row */
        char *end;
        double ns = strtod(cell, &end);
        if (*end || end == cell || !(share ? ns >= 0 && ns <= 1 : ns > 0 && ns < 1e9))
            return gv_fail(err, errlen, GV_EINVAL, "%s: row %zu: %s \"%s\" is not %s", path, r + 2, name, cell,
                           share ? "a share (0..1)" : "a positive number of ns");
        int p = point_of_row(v, t, r, key_col);
        if (p >= 0) vals[(size_t)p * (size_t)v->nreps + (size_t)atoi(csvr_cell(t, r, rep_col))] = ns;
    }
    return GV_OK;
}

static int measured_rows(struct validation *v, const struct csv_table *t, const char *path, char *err,
                         size_t errlen)
{
    static const char *const need[] = { "rep", "backend", "engine", "wall_s", "ops", "vol_switches",
                                        "gvl_handoffs" };
    enum { C_REP, C_BACKEND, C_ENGINE, C_WALL, C_OPS, C_VOL, C_HANDOFFS, C_N };
    int col[C_N];
    int *key_col = calloc((size_t)v->grid.nparams + 1, sizeof *key_col);
    if (!key_col) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    int rc = GV_OK;
    for (int i = 0; i < C_N && rc == GV_OK; i++)
        if ((col[i] = csvr_col(t, need[i])) < 0)
            rc = gv_fail(err, errlen, GV_EINVAL, "%s: no column %s (rows of `gvlsim validate --rows`?)", path,
                         need[i]);
    for (int i = 0; i < v->grid.nparams && rc == GV_OK; i++)
        if ((key_col[i] = csvr_col(t, v->grid.params[i].key)) < 0)
            rc = gv_fail(err, errlen, GV_EINVAL, "%s: no column %s: its rows were measured over another grid",
                         path, v->grid.params[i].key);
    /* the repetitions: 1 + the largest rep of a row of this grid */
    int nreps = 0;
    for (size_t r = 0; r < t->nrows && rc == GV_OK; r++) {
        char *end;
        long rep = strtol(csvr_cell(t, r, col[C_REP]), &end, 10);
        if (*end || end == csvr_cell(t, r, col[C_REP]) || rep < 0 || rep >= 1000)
            rc = gv_fail(err, errlen, GV_EINVAL, "%s: row %zu: rep \"%s\" is not 0..999", path, r + 2,
                         csvr_cell(t, r, col[C_REP]));
        else if (rep + 1 > nreps) nreps = (int)rep + 1;
    }
    if (rc == GV_OK) {
        v->nreps = nreps > 0 ? nreps : 1;
        v->real_f = calloc((size_t)v->npoints * (size_t)v->nreal * (size_t)v->nreps, sizeof *v->real_f);
        if (!probes_alloc_all(v) || !v->real_f) rc = gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    }
    /* the probes before each configuration's runs, when the rows have them (optional: rows written
     * before one was recorded lack it) */
    if (rc == GV_OK) rc = probe_column(v, t, "line_probe_ns", false, v->probe, key_col, col[C_REP], path, err, errlen);
    if (rc == GV_OK) rc = probe_column(v, t, "wake_probe_ns", false, v->wake, key_col, col[C_REP], path, err, errlen);
    if (rc == GV_OK)
        rc = probe_column(v, t, "speed_slow_share", true, v->speed, key_col, col[C_REP], path, err, errlen);
    if (rc == GV_OK)
        rc = probe_column(v, t, "wake_cost_probe_ns", false, v->wake_cost, key_col, col[C_REP], path, err, errlen);
    if (rc == GV_OK) rc = probe_column(v, t, "stat_probe_ns", false, v->stat, key_col, col[C_REP], path, err, errlen);
    int cpu_col = csvr_col(t, "cpu_s");  /* optional: without it, no cpus_busy */
    /* the same for gc_ms_per_gc; rows written before the gc_clock_s column
     * (2026-12-03) held Ruby's GC.stat(:time) in gc_s, and nothing the
     * executor's GC clock read */
    int gc_col = csvr_col(t, "gc_clock_s"), gcn_col = csvr_col(t, "gc_count");
    int gc_old = gc_col < 0 ? csvr_col(t, "gc_s") : -1;
    int found[B_MAX] = { 0 };
    for (size_t r = 0; r < t->nrows && rc == GV_OK; r++) {
        int i = 0;
        while (i < v->nreal && strcmp(v->real[i]->name, csvr_cell(t, r, col[C_BACKEND])) != 0) i++;
        int p = i < v->nreal ? point_of_row(v, t, r, key_col) : -1;
        if (p < 0) continue;  /* the simulator's, or another configuration's */
        int k = atoi(csvr_cell(t, r, col[C_REP]));
        struct val_figures *f = &v->real_f[((size_t)p * (size_t)v->nreal + (size_t)i) * (size_t)v->nreps + (size_t)k];
        if (f->ok) {
            rc = gv_fail(err, errlen, GV_EINVAL, "%s: row %zu: a second %s run %d of configuration %d", path,
                         r + 2, v->real[i]->name, k, p);
        } else if (val_figures_parse(csvr_cell(t, r, col[C_WALL]), csvr_cell(t, r, col[C_OPS]),
                                     csvr_cell(t, r, col[C_VOL]), csvr_cell(t, r, col[C_HANDOFFS]),
                                     cpu_col >= 0 ? csvr_cell(t, r, cpu_col) : NULL,
                                     gc_col >= 0   ? csvr_cell(t, r, gc_col)
                                     : gc_old >= 0 && !strcmp(v->real[i]->name, "ruby") ? csvr_cell(t, r, gc_old)
                                                                                       : NULL,
                                     gcn_col >= 0 ? csvr_cell(t, r, gcn_col) : NULL, f) != 0) {
            rc = gv_fail(err, errlen, GV_EINVAL, "%s: row %zu: wall_s or ops is not a number", path, r + 2);
        } else {
            found[i]++;
            if (!v->engines[i][0])
                snprintf(v->engines[i], sizeof v->engines[i], "%s", csvr_cell(t, r, col[C_ENGINE]));
        }
    }
    for (int i = 0; i < v->nreal && rc == GV_OK; i++)
        if (!found[i])
            rc = gv_fail(err, errlen, GV_EINVAL, "%s: no %s run of any configuration of this grid", path,
                         v->real[i]->name);
    free(key_col);
    return rc;
}

static int load_measured(struct validation *v)
{
    const char *path = args_str(v->a, "measured", "-");
    struct csv_table t;
    char err[GV_ERRLEN];
    int rc = rowsr_read(path, &t, NULL, err, sizeof err);
    if (rc == GV_OK) {
        rc = measured_rows(v, &t, path, err, sizeof err);
        csvr_free(&t);
    }
    if (rc != GV_OK) fprintf(stderr, "gvlsim validate: %s\n", err);
    return gv_exit_code(rc);
}

/* ---- --sensitivity --------------------------------------------------------- */

/* The profile every configuration simulates with (one, or an error). */
static int sens_profile(const struct validation *v, const char **file)
{
    *file = v->scns[0].machine.file;
    for (int p = 0; p < v->npoints; p++) {
        const char *f = v->scns[p].machine.file;
        if (!f) {
            fprintf(stderr, "gvlsim validate: --sensitivity: configuration %d names no machine profile: it varies a "
                            "profile that `gvlsim calibrate` wrote (--set machine=host.json)\n", p);
            return GV_EXIT_INVALID;
        }
        if (strcmp(f, *file) != 0) {
            fprintf(stderr, "gvlsim validate: --sensitivity: configurations 0 and %d use different machine profiles "
                            "(%s, %s): it varies one\n", p, *file, f);
            return GV_EXIT_INVALID;
        }
    }
    return GV_EXIT_OK;
}

/* Keys the command line sets itself (--set machine.KEY=..., --param
 * machine.KEY=...): a variant must not override them. */
static int sens_drop_set_keys(struct validation *v)
{
    size_t n = strlen(v->sens_note);
    for (int i = 0; i < v->run.nsets + v->grid.nparams; i++) {
        const char *s = i < v->run.nsets ? v->run.sets[i] : v->grid.params[i - v->run.nsets].key;
        if (strncmp(s, "machine.", 8) != 0) continue;
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)strcspn(s + 8, "="), s + 8);
        int before = 0;
        for (int k = 0; k < v->plan.nvar; k++) before += v->plan.var[k].nsets;
        if (sens_plan_drop_key(&v->plan, key) != GV_OK) return GV_EXIT_NOMEM;
        int after = 0;
        for (int k = 0; k < v->plan.nvar; k++) after += v->plan.var[k].nsets;
        if (after < before && n < sizeof v->sens_note)
            n += (size_t)snprintf(v->sens_note + n, sizeof v->sens_note - n, "%snot varied (set on the command "
                                  "line): %s", n ? "; " : "", key);
    }
    return GV_EXIT_OK;
}

/* Simulate every point under the variant's keys, the first sens_seeds
 * seeds each, into f[point * sens_seeds + seed]. */
static int sens_simulate(struct validation *v, const struct sens_variant *var, struct val_figures *f)
{
    int nsets = v->run.nsets + var->nsets;
    const char **sets = calloc((size_t)nsets + 1, sizeof *sets);
    struct scenario *scn = calloc(1, sizeof *scn);
    if (!sets || !scn) {
        free(sets);
        free(scn);
        fprintf(stderr, "gvlsim validate: out of memory\n");
        return GV_EXIT_NOMEM;
    }
    for (int i = 0; i < v->run.nsets; i++) sets[i] = v->run.sets[i];
    for (int i = 0; i < var->nsets; i++) sets[v->run.nsets + i] = var->sets[i];
    struct load_opts base = { .sets = sets, .nsets = nsets, .machines_dirs = v->run.machines,
                              .nmachines_dirs = v->run.nmachines };
    char err[16384], engine[64];
    struct row cells;
    row_init(&cells);
    int code = GV_EXIT_OK;
    for (int p = 0; p < v->npoints && code == GV_EXIT_OK; p++) {
        struct diag_list d;
        diag_init(&d);
        int rc = sweep_load_point(&v->grid, (uint64_t)p, v->run.scenario, NULL, 0, &base, scn, &d);
        if (rc != GV_OK) {
            fprintf(stderr, "gvlsim validate: --sensitivity: %s at %s (%.6g): configuration %d:\n", var->measurement,
                    var->high ? "q3" : "q1", var->at, p);
            for (size_t i = 0; i < d.n; i++) fprintf(stderr, "  %s\n", d.msgs[i]);
            if (rc == GV_ENOMEM && d.n == 0) fprintf(stderr, "  out of memory\n");
            diag_free(&d);
            code = gv_exit_code(rc);
            break;
        }
        diag_free(&d);
        if (v->run.has_seed) scn->seed = v->run.seed;
        uint64_t seed0 = scn->seed;
        for (int k = 0; k < v->sens_seeds && code == GV_EXIT_OK; k++) {
            scn->seed = sweep_seed(seed0, k);
            err[0] = 0;
            row_clear(&cells);
            int r = run_one(v, v->sim, scn, &f[(size_t)p * (size_t)v->sens_seeds + (size_t)k], &cells, engine,
                            sizeof engine, err, sizeof err);
            if (r != GV_OK) code = failed(v, v->sim->name, p, k, r, err);
        }
        scenario_free(scn);
    }
    row_free(&cells);
    free(sets);
    free(scn);
    return code;
}

/* A table's simulated values by cell ([point * VAL_NMETRICS + metric];
 * has: a value). */
static int sens_values(const struct validation *v, const struct val_figures *sim, bool *has, double *val)
{
    struct val_input in = { .npoints = v->npoints, .nreal = v->nreal, .nreps = v->nreps, .nseeds = v->sens_seeds,
                            .fixed_time = v->scns[0].stop_time > 0, .sim = sim, .real = v->real_f,
                            .base = v->base };
    struct val_row *rows;
    size_t nrows;
    if (val_table(&in, &rows, &nrows) != GV_OK) return GV_ENOMEM;
    for (size_t i = 0; i < nrows; i++) {
        size_t at = (size_t)rows[i].point * VAL_NMETRICS + (size_t)rows[i].metric;
        has[at] = rows[i].has_sim;
        val[at] = rows[i].sim;
    }
    free(rows);
    return GV_OK;
}

/* Whether the simulation reads machine key KEY: every key but a per-call
 * cost no op of any configuration takes, and the GC's keys where no op
 * allocates (scn_machine_reads). */
static bool sens_key_read(const char *key, void *ctx)
{
    const struct scn_reads *r = ctx;
    if (!strncmp(key, "gc_", 3) || !strcmp(key, "alloc_object") || !strcmp(key, "env_escape_work")) return r->gc;
    const bool *table = !strncmp(key, "syscalls.", 9)            ? r->syscall
                        : !strncmp(key, "method_work.", 12)       ? r->method_work
                        : !strncmp(key, "method_work_after.", 18) ? r->method_work_after
                                                                  : NULL;
    if (!table) return true;
    const char *call = strchr(key, '.') + 1;
    for (int c = 0; c < CALL_COUNT; c++)
        if (!strcmp(call, scn_call_names[c])) return table[c];
    return true;
}

/* The variants of the configurations' profile, before any run (a profile
 * without a calibration section fails here, not after the real runs). */
static int plan_sensitivity(struct validation *v)
{
    const char *file;
    int code = sens_profile(v, &file);
    if (code != GV_EXIT_OK) return code;
    struct diag_list d;
    diag_init(&d);
    int rc = sens_plan_make(file, &v->plan, &d);
    for (size_t i = 0; i < d.n; i++) fprintf(stderr, "gvlsim validate: --sensitivity: %s\n", d.msgs[i]);
    if (rc == GV_ENOMEM && d.n == 0) fprintf(stderr, "gvlsim validate: out of memory\n");
    diag_free(&d);
    if (rc != GV_OK) return gv_exit_code(rc);
    snprintf(v->sens_note, sizeof v->sens_note, "%s", v->plan.notes);
    code = sens_drop_set_keys(v);
    if (code != GV_EXIT_OK) return code;
    /* a move of keys no op reads simulates what the profile does: not run */
    struct scn_reads reads = { 0 };
    for (int p = 0; p < v->npoints; p++) scn_machine_reads(&v->scns[p], &reads);
    char dropped[512] = "";
    if (sens_plan_drop_unread(&v->plan, sens_key_read, &reads, dropped, sizeof dropped) > 0) {
        size_t n = strlen(v->sens_note);
        if (n < sizeof v->sens_note)
            snprintf(v->sens_note + n, sizeof v->sens_note - n, "%snot varied (keys no operation reads): %s",
                     n ? "; " : "", dropped);
    }
    return GV_EXIT_OK;
}

/* Every variant simulated; each figure's range over the profile and the
 * variants, and the measurement whose two moves span it most (the first
 * in calib.h's order on a tie). */
static int run_sensitivity(struct validation *v)
{
    int code = GV_EXIT_OK;
    int nv = v->plan.nvar;
    size_t ncell = (size_t)v->npoints * VAL_NMETRICS, nfig = (size_t)v->npoints * (size_t)v->sens_seeds;
    v->ranges = calloc(ncell, sizeof *v->ranges);
    struct val_figures *fig = calloc(nfig, sizeof *fig);
    /* [variant + 1][cell]; row 0: the profile itself */
    bool *has = calloc(ncell * (size_t)(nv + 1), sizeof *has);
    double *val = calloc(ncell * (size_t)(nv + 1), sizeof *val);
    if (!v->ranges || !fig || !has || !val) {
        code = GV_EXIT_NOMEM;
        goto done;
    }
    /* the profile itself: the first sens_seeds seeds of the table's runs */
    for (int p = 0; p < v->npoints; p++)
        for (int k = 0; k < v->sens_seeds; k++)
            fig[(size_t)p * (size_t)v->sens_seeds + (size_t)k] = v->sim_f[(size_t)p * (size_t)v->nseeds + (size_t)k];
    if (sens_values(v, fig, has, val) != GV_OK) code = GV_EXIT_NOMEM;
    for (int i = 0; i < nv && code == GV_EXIT_OK; i++) {
        const struct sens_variant *var = &v->plan.var[i];
        if (!v->run.quiet)
            fprintf(stderr, "validate: sensitivity %d/%d: %s at %s (%.6g): %s\n", i + 1, nv, var->measurement,
                    var->high ? "q3" : "q1", var->at, var->keys);
        memset(fig, 0, nfig * sizeof *fig);
        code = sens_simulate(v, var, fig);
        if (code == GV_EXIT_OK && sens_values(v, fig, has + ncell * (size_t)(i + 1), val + ncell * (size_t)(i + 1)) != GV_OK)
            code = GV_EXIT_NOMEM;
    }
    for (size_t c = 0; c < ncell && code == GV_EXIT_OK; c++) {
        struct val_range *g = &v->ranges[c];
        if (!has[c]) continue;  /* no figure of the profile's own: no range */
        g->has = true;
        g->lo = g->hi = val[c];
        double best = 0;
        for (int i = 0; i < nv;) {
            /* one measurement: its variants i..j-1 (q1, q3) */
            int j = i;
            double mlo = val[c], mhi = val[c];
            while (j < nv && v->plan.var[j].measurement == v->plan.var[i].measurement) {
                size_t at = ncell * (size_t)(j + 1) + c;
                if (has[at]) {
                    if (val[at] < mlo) mlo = val[at];
                    if (val[at] > mhi) mhi = val[at];
                }
                j++;
            }
            if (mlo < g->lo) g->lo = mlo;
            if (mhi > g->hi) g->hi = mhi;
            if (mhi - mlo > best) {
                best = mhi - mlo;
                g->by = v->plan.var[i].keys;
                g->measurement = v->plan.var[i].measurement;
            }
            i = j;
        }
    }
done:
    free(fig);
    free(has);
    free(val);
    if (code == GV_EXIT_NOMEM) fprintf(stderr, "gvlsim validate: out of memory\n");
    return code;
}

/* ---- the report ------------------------------------------------------------ */

static int write_outputs(struct validation *v)
{
    struct val_input in = { .npoints = v->npoints, .nreal = v->nreal, .nreps = v->nreps, .nseeds = v->nseeds,
                            .fixed_time = v->scns[0].stop_time > 0, .sim = v->sim_f, .real = v->real_f,
                            .base = v->base };
    struct val_row *rows;
    size_t nrows;
    if (val_table(&in, &rows, &nrows) != GV_OK) {
        fprintf(stderr, "gvlsim validate: out of memory\n");
        return GV_EXIT_NOMEM;
    }
    const char **keys = calloc((size_t)v->grid.nparams + 1, sizeof *keys);
    const char **values = calloc((size_t)v->npoints * (size_t)v->grid.nparams + 1, sizeof *values);
    const char *backends[B_MAX], *engines[B_MAX];
    if (!keys || !values) {
        free(keys);
        free(values);
        free(rows);
        fprintf(stderr, "gvlsim validate: out of memory\n");
        return GV_EXIT_NOMEM;
    }
    for (int i = 0; i < v->grid.nparams; i++) keys[i] = v->grid.params[i].key;
    for (int p = 0; p < v->npoints; p++)
        for (int i = 0; i < v->grid.nparams; i++)
            values[(size_t)p * (size_t)v->grid.nparams + (size_t)i] =
                v->grid.params[i].values[sweep_value_index(&v->grid, (uint64_t)p, i)];
    for (int i = 0; i < v->nreal; i++) {
        backends[i] = v->real[i]->name;
        engines[i] = v->engines[i];
    }
    struct calib_host h;
    calib_host_read(&h);
    char host[512], note[1536];
    const char *profile = v->scns[0].machine.name ? v->scns[0].machine.name : "(inline)";
    bool measured = args_has(v->a, "measured");
    if (measured)
        snprintf(host, sizeof host, "the runs of %s; simulated with machine profile %s",
                 args_str(v->a, "measured", ""), profile);
    else
        snprintf(host, sizeof host, "%s, %d CPUs, Linux %s; simulated with machine profile %s", h.cpu_model,
                 h.cpus_online, h.kernel, profile);
    double load[1] = { -1 };
    bool has_load = !measured && getloadavg(load, 1) == 1 && v->load_before >= 0;
    char probe[1024];
    probe_summary(v, probe, sizeof probe);
    note[0] = '\0';
    if (has_load)
        snprintf(note, sizeof note, "1-minute load average: %.2f before the runs, %.2f after (%d CPUs)%s%s",
                 v->load_before, load[0], h.cpus_online, probe[0] ? "; " : "", probe);
    else if (probe[0])
        snprintf(note, sizeof note, "%s", probe);
    struct val_report rep = { .scenario = v->scns[0].name, .host = host, .note = note[0] ? note : NULL,
                              .nreps = v->nreps, .nseeds = v->nseeds, .nkeys = v->grid.nparams, .keys = keys,
                              .values = values,
                              .nreal = v->nreal, .backends = backends, .engines = engines, .rows = rows,
                              .nrows = nrows, .ranges = v->sensitivity ? v->ranges : NULL,
                              .range_seeds = v->sens_seeds, .range_variants = v->plan.nvar,
                              .range_note = v->sens_note[0] ? v->sens_note : NULL };
    int code = GV_EXIT_OK;
    char err[GV_ERRLEN];
    if (args_has(v->a, "output")) {
        struct afile out;
        int rc = afile_open(&out, v->run.output, err, sizeof err);
        if (rc == GV_OK) {
            struct row cols, cells;
            row_init(&cols);
            row_init(&cells);
            val_columns(&rep, &cols);
            struct rows_writer w;
            rows_begin(&w, out.f, v->run.format, &cols, !v->run.no_header);
            for (size_t i = 0; i < nrows; i++) {
                row_clear(&cells);
                val_row_cells(&rep, &rows[i], &cells);
                rows_put(&w, &cells);
            }
            rows_end(&w);
            bool oom = cols.oom || cells.oom;
            row_free(&cols);
            row_free(&cells);
            if (oom) {
                afile_abort(&out);
                rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
            } else {
                rc = afile_commit(&out, err, sizeof err);
            }
        }
        if (rc != GV_OK) {
            fprintf(stderr, "gvlsim validate: %s\n", err);
            code = gv_exit_code(rc);
        }
    }
    if (code == GV_EXIT_OK) {
        val_write_report(stdout, (enum cmp_report)args_num(v->a, "report", CMP_TEXT), &rep);
        if (fflush(stdout) != 0) {
            fprintf(stderr, "gvlsim validate: stdout: write failed\n");
            code = GV_EXIT_IO;
        }
    }
    free(keys);
    free(values);
    free(rows);
    return code;
}

/* ---- the command ----------------------------------------------------------- */

static int open_rows(struct validation *v)
{
    if (!args_has(v->a, "rows")) return GV_EXIT_OK;
    const char *path = args_str(v->a, "rows", "-");
    enum rows_format fmt;
    char err[GV_ERRLEN];
    if (rows_format_choose(NULL, strcmp(path, "-") == 0 ? NULL : path, &fmt, err, sizeof err) != 0)
        return cli_usage_error(&cli_cmd_validate, "--rows: %s", err);
    row_text(&v->rows_cols, "point");
    row_text(&v->rows_cols, "rep");
    for (int i = 0; i < v->grid.nparams; i++) row_text(&v->rows_cols, v->grid.params[i].key);
    csv_columns(&v->rows_cols);
    for (int i = 0; i < NPROBE_COLS; i++) row_text(&v->rows_cols, probe_cols[i]);
    if (v->rows_cols.oom) return GV_EXIT_NOMEM;
    int rc = afile_open(&v->rows_file, path, err, sizeof err);
    if (rc != GV_OK) {
        fprintf(stderr, "gvlsim validate: %s\n", err);
        return gv_exit_code(rc);
    }
    v->rows_open = true;
    rows_begin(&v->rw, v->rows_file.f, fmt, &v->rows_cols, true);
    return GV_EXIT_OK;
}

static int close_rows(struct validation *v, bool commit)
{
    if (!v->rows_open) return GV_EXIT_OK;
    v->rows_open = false;
    rows_end(&v->rw);
    if (!commit) {
        afile_abort(&v->rows_file);
        return GV_EXIT_OK;
    }
    char err[GV_ERRLEN];
    int rc = afile_commit(&v->rows_file, err, sizeof err);
    if (rc == GV_OK) return GV_EXIT_OK;
    fprintf(stderr, "gvlsim validate: %s\n", err);
    return gv_exit_code(rc);
}

static void validation_free(struct validation *v)
{
    if (v->scns)
        for (int p = 0; p < v->npoints; p++)
            if (v->loaded[p]) scenario_free(&v->scns[p]);
    free(v->scns);
    free(v->loaded);
    free(v->base);
    free(v->sim_f);
    free(v->real_f);
    free(v->probe);
    free(v->wake);
    free(v->wake_cost);
    free(v->speed);
    free(v->stat);
    free(v->ranges);
    sens_plan_free(&v->plan);
    sweep_grid_free(&v->grid);
    row_free(&v->rows_cols);
}

static int validate_exec(const struct args *a)
{
    struct validation v;
    memset(&v, 0, sizeof v);
    sweep_grid_init(&v.grid);
    row_init(&v.rows_cols);
    int code = parse(a, &v);
    if (code != GV_EXIT_OK) {
        validation_free(&v);
        return code;
    }
    bool measured = args_has(a, "measured");
    size_t nreal_runs = measured ? 0 : (size_t)v.npoints * (size_t)v.nreal * (size_t)v.nreps;
    v.scns = calloc((size_t)v.npoints, sizeof *v.scns);
    v.loaded = calloc((size_t)v.npoints, sizeof *v.loaded);
    v.base = calloc((size_t)v.npoints, sizeof *v.base);
    v.sim_f = calloc((size_t)v.npoints * (size_t)v.nseeds, sizeof *v.sim_f);
    bool real_ok = true;
    if (!measured) {
        v.real_f = calloc(nreal_runs, sizeof *v.real_f);
        real_ok = probes_alloc_all(&v) && v.real_f;
    }
    if (!v.scns || !v.loaded || !v.base || !v.sim_f || !real_ok) {
        fprintf(stderr, "gvlsim validate: out of memory\n");
        validation_free(&v);
        return GV_EXIT_NOMEM;
    }
    code = load_points(&v);
    if (code == GV_EXIT_OK && measured) code = load_measured(&v);
    if (code == GV_EXIT_OK && v.sensitivity) code = plan_sensitivity(&v);
    if (code == GV_EXIT_OK) {
        find_bases(&v);
        v.nruns = v.npoints * v.nseeds + (int)nreal_runs;
        code = open_rows(&v);
    }
    double load[1];
    v.load_before = getloadavg(load, 1) == 1 ? load[0] : -1;
    if (code == GV_EXIT_OK) code = run_all(&v);
    if (code == GV_EXIT_OK && v.sensitivity) code = run_sensitivity(&v);
    if (code == GV_EXIT_OK) code = close_rows(&v, true);
    else close_rows(&v, false);
    if (code == GV_EXIT_OK) code = write_outputs(&v);
    validation_free(&v);
    return code != GV_EXIT_OK ? code : v.worst;
}
