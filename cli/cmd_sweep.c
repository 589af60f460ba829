/* cmd_sweep.c - `gvlsim sweep`: run a scenario over a grid of --set values
 * and seeds, in parallel, one result row per run in grid order.
 *
 * Runs go to worker threads (-j): a run shares nothing with another (the
 * loader and the simulator have no globals; the loader's parser builds
 * cJSON trees but never calls cJSON_Parse, which records its errors in a
 * process-global variable).  The scenario file is read once, so that a
 * pipe serves every run.  The main thread writes the rows in run order as
 * soon as every earlier run is done, so the output is byte-identical
 * whatever -j is (with --reproducible, which leaves host_s empty). */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "../common/afile.h"
#include "../common/diag.h"
#include "../common/err.h"
#include "../input/load.h"
#include "../models/simulate.h"
#include "../output/csv.h"
#include "../output/journal.h"
#include "../sim/engines.h"
#include "backend.h"
#include "cli.h"
#include "options.h"
#include "spawn.h"
#include "sweep.h"
#include "sweep_jobs.h"

static int sweep_exec(const struct args *a);

static int shard_check(const char *v, char *err, size_t errlen)
{
    struct sweep_shard sh;
    return sweep_shard_parse(v, &sh, err, errlen);
}

static const struct args_opt sweep_opts[] = {
    CLI_OPT_PARAM_H("sweep a --set path over these values (JSON or bare\n"
                    "strings, as --set takes them; commas inside [..], {..}\n"
                    "or \"..\" do not split); the runs are the cartesian\n"
                    "product, the first --param varying slowest"),
    { .name = "seeds", .kind = ARGS_INT, .min = 1, .max = 100000,
      .help = "N replicates per point (default 1): replicate 0 uses the\n"
              "scenario's seed (or --seed), replicate k a seed derived\n"
              "from it by SplitMix64, the same for every point" },
    { .name = "jobs", .short_name = 'j', .kind = ARGS_INT, .min = 1, .max = 1024,
      .help = "worker threads (default: the CPUs this process may use);\n"
              "the output does not depend on it" },
    CLI_OPT_ROWS_OUTPUT,
    CLI_OPT_FORMAT,
    CLI_OPT_SET_H("override a value in every run (applied before --param)"),
    CLI_OPT_SEED_H("base seed (overrides the scenario's \"seed\")"),
    CLI_OPT_REPRODUCIBLE_H("leave host_s empty: byte-identical output for any -j"),
    CLI_OPT_NO_HEADER,
    CLI_OPT_MAX_TIME_H("simulated-time limit per run (default 3600)"),
    CLI_OPT_FORCE_H("run even points estimated to take very long (beyond 5e9\n"
                    "engine events each): refused otherwise, as failed runs (3)"),
    { .name = "resume", .kind = ARGS_FLAG,
      .help = "continue an interrupted sweep from the journal of its\n"
              "output (OUT.journal, below): only the runs missing from\n"
              "it are run, and the output is the one an uninterrupted\n"
              "sweep writes" },
    CLI_OPT_ENGINE,
    CLI_OPT_MACHINES,
    CLI_OPT_QUIET_H("no progress and no summary on stderr (failures are\n"
                    "still reported)"),
    { .name = "backend", .kind = ARGS_ENUM, .names = backend_name,
      .help = "run the points on the simulator (the default) or for real:\n"
              "real backends run one point at a time (they need the\n"
              "cores), the replicates interleaved (rep 0 of every point,\n"
              "then rep 1, ...) so that a drifting host spreads evenly" },
    CLI_OPT_TIMEOUT,
    CLI_OPT_MAX_SPREAD,
    CLI_OPT_RUBY,
    CLI_OPT_RUBY_OPT,
    { .name = "shard", .kind = ARGS_STRING, .metavar = "K/N", .check = shard_check,
      .help = "run only the K-th of N shares of the runs (run r belongs to\n"
              "share r mod N + 1), writing the rows the whole sweep writes\n"
              "for them; `gvlsim merge` joins the shares" },
    { .name = "emit-jobs", .kind = ARGS_ENUM, .values = sweep_job_kinds,
      .help = "run nothing: print the sweep as --shards jobs, one\n"
              "self-contained command line per shard for GNU parallel\n"
              "(`| parallel`, `parallel --sshlogin ...`), or a Slurm job\n"
              "array script (`> sweep.sbatch; sbatch sweep.sbatch`);\n"
              "needs -o, which names the shards' files" },
    { .name = "shards", .kind = ARGS_INT, .min = 1, .max = 100000,
      .help = "--emit-jobs: the number of shards (default 8)" },
    { .name = "gvlsim", .kind = ARGS_PATH, .metavar = "PATH",
      .help = "--emit-jobs: the gvlsim the jobs run (default: this one,\n"
              "by its absolute path)" },
    CLI_OPT_END,
};

const struct cli_command cli_cmd_sweep = {
    .name = "sweep",
    .usage = "SCENARIO --param KEY=V1,V2,... [--param ...] [--seeds N] [-j N] [-o OUT.csv] [options]",
    .summary = "run a scenario over a grid of parameter values and seeds, one row per run",
    .args = { sweep_opts, "SCENARIO", 1, 1 },
    .details =
        "Rows: the columns of `gvlsim run`, preceded by\n"
        "  point   index of the parameter combination (0-based, grid order)\n"
        "  rep     replicate (0..N-1 of --seeds); the seed is in the seed column\n"
        "  KEY...  one column per --param, named by its KEY, holding the value\n"
        "          exactly as given (in JSON: a number if it is one, else a string)\n"
        "and followed by the scenario's named measures' columns: every point must\n"
        "have the same measures (a point whose --param changes them fails).\n"
        "Rows come in run order: point by point, replicates innermost.\n"
        "\n"
        "Beyond one machine: `--emit-jobs parallel --shards N -o OUT.csv` prints N\n"
        "commands, each running `--shard K/N` into OUT.K-of-N.csv, for GNU parallel\n"
        "(`parallel --sshlogin` spreads them over machines); `--emit-jobs slurm` prints\n"
        "a job-array script.  `gvlsim merge` joins the shards' files into the rows of\n"
        "the whole sweep (byte for byte, with --reproducible).  Every job has --resume:\n"
        "a job run again after it was killed continues its shard from its journal.\n"
        "\n"
        "Journal: with -o FILE, every run is recorded in FILE.journal as it completes\n"
        "(synced to disk at least once a second), so a sweep that is killed or\n"
        "interrupted loses no finished run: run the same command with --resume.  The\n"
        "journal is removed once the output is in place.  Without --resume, a journal\n"
        "left by an interrupted sweep stops the sweep (exit 2) rather than be lost.\n"
        "Each shard has its own output, so its own journal.\n"
        "\n"
        "Progress goes to stderr: a live line on a terminal, else one line per\n"
        "tenth of the runs.  A failing run (invalid value, deadlock, time limit) is\n"
        "reported as it happens and left out of the output; the others still run and\n"
        "the output is still written.\n"
        "\n"
        "With --engine simgrid each run is a `gvlsim run` process of its own (SimGrid's\n"
        "clock belongs to the process); the rows are the same as in one process.",
    .exit_status =
        "0 every run succeeded; otherwise the highest exit code of the\n"
        "failed runs (3 invalid value, 4 run failed, 6 out of memory, 7 not supported\n"
        "by this build, 3 also a run estimated to take very long without --force);\n"
        "2 usage error (also: a journal left without --resume, or another sweep's),\n"
        "3/5 the scenario itself is invalid/unreadable, 5 the output cannot be\n"
        "written; 128+N when killed by signal N (the journal stays).",
    .exec = sweep_exec,
};

/* ---- options -------------------------------------------------------------- */

struct sweep_opts {
    struct run_options run;   /* scenario, --set, --seed, -o, --format, ... */
    const struct backend *backend;
    struct backend_opts bo;   /* what the backend's runs need */
    struct sweep_shard shard; /* 1/1 without --shard */
    int emit;                 /* --emit-jobs: index into sweep_job_kinds, or -1 */
    int jobs;
    bool resume;              /* --resume */
    char *text;               /* the scenario file, read once (it may be a pipe) */
    size_t textlen;
    struct sweep_grid grid;
    struct row cols;          /* the output's columns */
    char **measures;          /* the scenario's named measures: every row's */
    int nmeasures;
};

static int parse_opts(const struct args *a, struct sweep_opts *o)
{
    memset(o, 0, sizeof *o);
    sweep_grid_init(&o->grid);
    row_init(&o->cols);
    int rc = run_options_get(&cli_cmd_sweep, a, &o->run);
    if (rc != GV_EXIT_OK) return rc;
    o->backend = backend_find(args_str(a, "backend", "sim"));
    o->bo = (struct backend_opts){ .engine = o->run.engine, .max_time = o->run.max_time,
                                   .timeout_s = o->run.timeout, .max_spread = cli_max_spread(a),
                                   .ruby = args_str(a, "ruby", NULL), .ruby_opts = args_strs(a, "ruby-opt"),
                                   .nruby_opts = args_count(a, "ruby-opt"), .force = o->run.force };
    o->resume = args_has(a, "resume");
    if (strcmp(o->backend->name, "ruby") != 0 && (args_has(a, "ruby") || args_has(a, "ruby-opt")))
        return cli_usage_error(&cli_cmd_sweep, "--ruby and --ruby-opt need --backend ruby");
    o->emit = (int)args_num(a, "emit-jobs", -1);
    o->shard = (struct sweep_shard){ 1, 1 };
    if (args_has(a, "shard")) {
        char msg[256];
        sweep_shard_parse(args_str(a, "shard", ""), &o->shard, msg, sizeof msg);  /* checked */
    }
    if (o->backend->measured) {
        /* a measurement needs the cores: one run at a time */
        if (args_num(a, "jobs", 1) > 1)
            return cli_usage_error(&cli_cmd_sweep, "--backend %s runs one point at a time: -j %d "
                                   "cannot be honoured", o->backend->name, (int)args_num(a, "jobs", 1));
        if (args_has(a, "engine") || args_has(a, "max-time"))
            return cli_usage_error(&cli_cmd_sweep, "--%s is a simulator option; --backend %s runs "
                                   "for real", args_has(a, "engine") ? "engine" : "max-time",
                                   o->backend->name);
        o->jobs = 1;
    } else {
        if (args_has(a, "timeout") || args_has(a, "max-spread"))
            return cli_usage_error(&cli_cmd_sweep, "--%s is an option of real backends "
                                   "(--backend pthread|ruby); the simulator's limit is --max-time",
                                   args_has(a, "timeout") ? "timeout" : "max-spread");
        o->jobs = (int)args_num(a, "jobs", cli_cpus());
    }
    if (o->emit >= 0) {
        if (args_has(a, "shard"))
            return cli_usage_error(&cli_cmd_sweep, "--emit-jobs prints one --shard per job: give "
                                   "--shards N, not --shard");
        if (!args_has(a, "output") || strcmp(o->run.output, "-") == 0)
            return cli_usage_error(&cli_cmd_sweep, "--emit-jobs needs -o FILE: the shards' files are "
                                   "named after it (FILE.K-of-N.csv)");
    } else if (args_has(a, "shards") || args_has(a, "gvlsim")) {
        return cli_usage_error(&cli_cmd_sweep, "--%s goes with --emit-jobs",
                               args_has(a, "shards") ? "shards" : "gvlsim");
    }
    const char *const *params = args_strs(a, "param");
    for (int i = 0; i < args_count(a, "param"); i++) {
        char msg[512];
        if (sweep_grid_add(&o->grid, params[i], msg, sizeof msg) != 0)
            return cli_usage_error(&cli_cmd_sweep, "%s", msg);
    }
    char msg[512];
    int erc = sim_engine_check(o->run.engine, msg, sizeof msg);
    if (erc != GV_OK) {
        fprintf(stderr, "gvlsim sweep: %s\n", msg);
        return gv_exit_code(erc);
    }
    o->grid.nseeds = (int)args_num(a, "seeds", 1);
    if (sweep_runs(&o->grid) > 10000000u)
        return cli_usage_error(&cli_cmd_sweep, "the sweep would make more than 10^7 runs");
    row_text(&o->cols, "point");
    row_text(&o->cols, "rep");
    for (int i = 0; i < o->grid.nparams; i++) row_text(&o->cols, o->grid.params[i].key);
    csv_columns(&o->cols);
    if (o->cols.oom) {
        fprintf(stderr, "gvlsim sweep: out of memory\n");
        return GV_EXIT_NOMEM;
    }
    return GV_EXIT_OK;
}

static void opts_free(struct sweep_opts *o)
{
    free(o->text);
    sweep_grid_free(&o->grid);
    row_free(&o->cols);
    for (int i = 0; i < o->nmeasures; i++) free(o->measures[i]);
    free(o->measures);
}

/* The measures' columns, from the scenario loaded with the common --set
 * values.  false if out of memory. */
static bool add_measures(struct sweep_opts *o, const struct scenario *scn)
{
    if (scn->nmeasures == 0) return true;
    o->measures = calloc((size_t)scn->nmeasures, sizeof *o->measures);
    if (!o->measures) return false;
    for (int i = 0; i < scn->nmeasures; i++) {
        if (!(o->measures[i] = strdup(scn->measures[i].name))) return false;
        o->nmeasures++;
        csv_measure_columns(&o->cols, scn->measures[i].name);
    }
    return !o->cols.oom;
}

/* A run's measures are the header's (a --param may rename or add one). */
static bool same_measures(const struct sweep_opts *o, const struct run_metrics *m)
{
    if (m->nmeasures != o->nmeasures) return false;
    for (int i = 0; i < m->nmeasures; i++)
        if (strcmp(m->measures[i].name, o->measures[i]) != 0) return false;
    return true;
}

/* ---- one run -------------------------------------------------------------- */

struct run_result {
    char *row;     /* the encoded row, or NULL if the run failed */
    char *msg;     /* why it failed */
    int code;      /* exit code of the failure, 0 if ok */
    bool done;
    bool journaled;  /* read back from the journal (or written to it) */
};

struct sweep {
    const struct sweep_opts *o;
    uint64_t nruns;            /* runs of this shard ("slots", in run order) */
    uint64_t *order;           /* slots in the order they are run; NULL: in run order */
    struct run_result *res;    /* per slot */
    pthread_mutex_t mu;        /* next, completed, ncompleted, res[].done */
    pthread_cond_t cv;
    uint64_t next;
    uint64_t *completed;       /* slots in completion order */
    uint64_t ncompleted;
};

/* The cells a sweep puts before a run's own: point, rep, the --param values. */
static void row_prefix(struct row *cells, const struct sweep_grid *g, uint64_t point, int rep)
{
    row_cell(cells, ROW_NUM);
    row_printf(cells, "%" PRIu64, point);
    row_cell(cells, ROW_NUM);
    row_printf(cells, "%d", rep);
    for (int i = 0; i < g->nparams; i++) row_guess(cells, g->params[i].values[sweep_value_index(g, point, i)]);
}

/* Run one point as `gvlsim run` in a process of its own, with the same
 * --set values in the same order as sweep_load_point (the common ones, then
 * the point's) and the seed the point gets here.  Its row comes back
 * encoded (CSV, or a JSON object for json and jsonl) and is joined to the
 * sweep's own cells encoded alike. */
static void run_spawned(const struct sweep_opts *o, uint64_t seed, uint64_t point, int rep,
                        struct run_result *out)
{
    const struct run_options *ro = &o->run;
    const struct sweep_grid *g = &o->grid;
    char seedbuf[32], maxbuf[48], err[GV_ERRLEN];
    snprintf(seedbuf, sizeof seedbuf, "%" PRIu64, seed);
    snprintf(maxbuf, sizeof maxbuf, "%" PRId64 "ps", (int64_t)ro->max_time);
    const char **argv = calloc((size_t)(2 * (ro->nsets + g->nparams) + 2 * ro->nmachines + 24), sizeof *argv);
    char **mine = calloc((size_t)g->nparams + 1, sizeof *mine);  /* the point's KEY=VALUE */
    bool oom = !argv || !mine;
    for (int i = 0; i < g->nparams && !oom; i++) oom = !(mine[i] = sweep_set_string(g, point, i));
    struct row cells;
    row_init(&cells);
    row_prefix(&cells, g, point, rep);
    char *prefix = cells.oom ? NULL : rows_encode_str(ro->format, &o->cols, &cells);
    row_free(&cells);
    if (oom || !prefix) {
        free(argv);
        if (mine)
            for (int i = 0; i < g->nparams; i++) free(mine[i]);
        free(mine);
        free(prefix);
        out->code = GV_EXIT_NOMEM;
        out->msg = strdup("out of memory");
        return;
    }
    int n = 0;
    argv[n++] = "gvlsim";
    argv[n++] = "run";
    argv[n++] = ro->scenario;
    for (int i = 0; i < ro->nsets + g->nparams; i++) {
        argv[n++] = "--set";
        argv[n++] = i < ro->nsets ? ro->sets[i] : mine[i - ro->nsets];
    }
    for (int i = 0; i < ro->nmachines; i++) {
        argv[n++] = "--machines";
        argv[n++] = ro->machines[i];
    }
    argv[n++] = "--seed";
    argv[n++] = seedbuf;
    argv[n++] = "--engine";
    argv[n++] = ro->engine;
    argv[n++] = "--max-time";
    argv[n++] = maxbuf;
    if (ro->reproducible) argv[n++] = "--reproducible";
    if (ro->force) argv[n++] = "--force";
    argv[n++] = "--format";
    argv[n++] = ro->format == ROWS_CSV ? "csv" : "jsonl";
    if (ro->format == ROWS_CSV) argv[n++] = "--no-header";
    argv[n++] = "-q";
    argv[n++] = "-o";
    argv[n++] = "-";
    argv[n] = NULL;
    struct spawn_result sr;
    int rc = spawn_self((char *const *)argv, &sr, err, sizeof err);
    free(argv);
    for (int i = 0; i < g->nparams; i++) free(mine[i]);
    free(mine);
    size_t len = rc == GV_OK ? strcspn(sr.out, "\n") : 0;
    bool json = ro->format != ROWS_CSV;
    if (rc != GV_OK) {
        out->code = gv_exit_code(rc);
        out->msg = strdup(err);
    } else if (sr.exit_code != GV_EXIT_OK || len < 2 || (json && (sr.out[0] != '{' || sr.out[len - 1] != '}'))) {
        const char *m = sr.errtext;
        if (!strncmp(m, "gvlsim run: ", 12)) m += 12;
        size_t mlen = strlen(m);
        while (mlen > 0 && m[mlen - 1] == '\n') mlen--;
        out->code = sr.exit_code != GV_EXIT_OK ? sr.exit_code : GV_EXIT_RUN;
        if (sr.signal)
            rc = asprintf(&out->msg, "gvlsim run was killed by signal %d%s%.*s", sr.signal, mlen ? ": " : "",
                          (int)mlen, m);
        else if (mlen)
            rc = asprintf(&out->msg, "%.*s", (int)mlen, m);
        else
            rc = asprintf(&out->msg, "gvlsim run gave no result (exit %d)", sr.exit_code);
        if (rc < 0) out->msg = NULL;
    } else {
        /* CSV: "PREFIX,ROW"; JSON: "{PREFIX...,...ROW}" */
        size_t plen = strlen(prefix) - (json ? 1 : 0);
        const char *tail = json ? sr.out + 1 : sr.out;
        size_t tlen = json ? len - 1 : len;
        if (asprintf(&out->row, "%.*s,%.*s", (int)plen, prefix, (int)tlen, tail) < 0) {
            out->row = NULL;
            out->code = GV_EXIT_NOMEM;
            out->msg = strdup("out of memory");
        }
    }
    free(prefix);
    spawn_result_free(&sr);
}

static void run_one(struct sweep *sw, uint64_t r, struct run_result *out)
{
    const struct sweep_opts *o = sw->o;
    const struct sweep_grid *g = &o->grid;
    uint64_t point = r / (uint64_t)g->nseeds;
    int rep = (int)(r % (uint64_t)g->nseeds);
    char err[4096] = "";
    struct scenario scn;
    struct load_opts base = { .sets = o->run.sets, .nsets = o->run.nsets, .machines_dirs = o->run.machines,
                              .nmachines_dirs = o->run.nmachines };
    struct diag_list d;
    diag_init(&d);
    int rc = sweep_load_point(g, point, o->run.scenario, o->text, o->textlen, &base, &scn, &d);
    if (rc != GV_OK) {
        size_t off = 0;
        for (size_t i = 0; i < d.n && off + 8 < sizeof err; i++)
            off += (size_t)snprintf(err + off, sizeof err - off, "%s%s", i ? "\n" : "", d.msgs[i]);
        diag_free(&d);
        out->code = gv_exit_code(rc);
        out->msg = strdup(err[0] ? err : gv_strerror(rc));
        return;
    }
    diag_free(&d);
    scn.seed = sweep_seed(o->run.has_seed ? o->run.seed : scn.seed, rep);
    if (!o->backend->measured && sim_engine_one_per_process(o->run.engine)) {
        run_spawned(o, scn.seed, point, rep, out);
        scenario_free(&scn);
        return;
    }

    struct backend_result res;
    double t0 = cli_host_now();
    rc = o->backend->run(&scn, &o->bo, &res, err, sizeof err);
    double t1 = cli_host_now();
    if (rc == GV_OK && !same_measures(o, &res.m)) {
        rc = gv_fail(err, sizeof err, GV_EINVAL,
                     "this point's named measures differ from the scenario's: the sweep's columns "
                     "cannot hold them (give every point the same \"measures\")");
        backend_result_free(&res);
    }
    if (rc == GV_OK) {
        res.m.host_seconds = t1 - t0;
        struct row cells;
        row_init(&cells);
        row_prefix(&cells, g, point, rep);
        csv_row(&cells, &res.m, o->run.reproducible);
        out->row = cells.oom ? NULL : rows_encode_str(o->run.format, &o->cols, &cells);
        if (!out->row) rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
        row_free(&cells);
        backend_result_free(&res);
    }
    scenario_free(&scn);
    if (rc != GV_OK) {
        out->code = gv_exit_code(rc);
        out->msg = strdup(err[0] ? err : gv_strerror(rc));
    }
}

static void *worker(void *arg)
{
    struct sweep *sw = arg;
    for (;;) {
        pthread_mutex_lock(&sw->mu);
        while (sw->next < sw->nruns && sw->res[sw->order ? sw->order[sw->next] : sw->next].done)
            sw->next++;  /* resumed from the journal */
        uint64_t e = sw->next < sw->nruns ? sw->next++ : UINT64_MAX;
        pthread_mutex_unlock(&sw->mu);
        if (e == UINT64_MAX) return NULL;
        uint64_t r = sw->order ? sw->order[e] : e;   /* the slot */
        struct run_result res = { 0 };
        run_one(sw, sweep_shard_run(&sw->o->shard, r), &res);
        pthread_mutex_lock(&sw->mu);
        sw->res[r] = res;
        sw->res[r].done = true;
        sw->completed[sw->ncompleted++] = r;
        pthread_cond_signal(&sw->cv);
        pthread_mutex_unlock(&sw->mu);
    }
}

/* ---- reporting ------------------------------------------------------------ */

struct progress {
    bool tty, quiet, line_open;
    uint64_t total, step, failed;
    double start, last;
};

static void progress_line(struct progress *p, uint64_t done, bool final)
{
    if (p->quiet) return;
    double now = cli_host_now();
    if (p->tty) {
        if (!final && now - p->last < 0.1) return;
        fprintf(stderr, "\r\033[Ksweep: %" PRIu64 "/%" PRIu64 " runs (%.0f%%), %" PRIu64 " failed, %.1f s%s",
                done, p->total, 100.0 * (double)done / (double)p->total, p->failed, now - p->start,
                final ? "\n" : "");
        p->line_open = !final;
    } else {
        if (!final && done % p->step != 0) return;
        if (final && done % p->step == 0) return;  /* already printed */
        fprintf(stderr, "sweep: %" PRIu64 "/%" PRIu64 " runs (%.0f%%), %" PRIu64 " failed, %.1f s\n", done,
                p->total, 100.0 * (double)done / (double)p->total, p->failed, now - p->start);
    }
    p->last = now;
}

static void report_failure(struct progress *p, const struct sweep_opts *o, uint64_t r,
                           const struct run_result *res)
{
    const struct sweep_grid *g = &o->grid;
    uint64_t point = r / (uint64_t)g->nseeds;
    if (p->line_open) {
        fputs("\r\033[K", stderr);
        p->line_open = false;
    }
    fprintf(stderr, "gvlsim sweep: run %" PRIu64 " (point %" PRIu64 ", rep %d", r, point,
            (int)(r % (uint64_t)g->nseeds));
    for (int i = 0; i < g->nparams; i++) {
        /* the values come from the command line: escaped like every message */
        char key[256], val[256];
        diag_escape_to(key, sizeof key, g->params[i].key);
        diag_escape_to(val, sizeof val, g->params[i].values[sweep_value_index(g, point, i)]);
        fprintf(stderr, "%s%s=%s", i ? " " : ": ", key, val);
    }
    fprintf(stderr, ") failed:\n");
    const char *m = res->msg ? res->msg : "unknown error";
    while (*m) {
        size_t n = strcspn(m, "\n");
        fprintf(stderr, "  %.*s\n", (int)n, m);
        m += n;
        if (*m) m++;
    }
}

/* ---- the journal ---------------------------------------------------------- */

/* The sweep as its journal describes it: everything that decides its rows
 * (not -j, -q or --resume), and the scenario's bytes as a CRC. */
static char *describe(const struct sweep_opts *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    unsigned long crc = crc32(crc32(0L, Z_NULL, 0), (const Bytef *)o->text, (uInt)o->textlen);
    fprintf(f, "scenario %s (crc %08lx)\n", o->run.scenario, crc);
    for (int i = 0; i < o->run.nsets; i++) fprintf(f, "set %s\n", o->run.sets[i]);
    for (int i = 0; i < o->grid.nparams; i++) {
        fprintf(f, "param %s", o->grid.params[i].key);
        for (int v = 0; v < o->grid.params[i].nvalues; v++)
            fprintf(f, "%s%s", v ? "," : "=", o->grid.params[i].values[v]);
        fputc('\n', f);
    }
    fprintf(f, "seeds %d\n", o->grid.nseeds);
    if (o->run.has_seed) fprintf(f, "seed %" PRIu64 "\n", o->run.seed);
    for (int i = 0; i < o->run.nmachines; i++) fprintf(f, "machines %s\n", o->run.machines[i]);
    fprintf(f, "max-time %" PRId64 " ps\nengine %s\nformat %s\n%s%s%s", o->run.max_time, o->run.engine,
            rows_format_names[o->run.format], o->run.reproducible ? "reproducible\n" : "",
            o->run.no_header ? "no-header\n" : "", o->run.force ? "force\n" : "");
    fprintf(f, "shard %" PRIu64 "/%" PRIu64 "\nbackend %s\n", o->shard.k, o->shard.n, o->backend->name);
    if (o->backend->measured)
        fprintf(f, "timeout %.9g s\nmax-spread %.9g\nruby %s\n", o->bo.timeout_s, o->bo.max_spread,
                o->bo.ruby ? o->bo.ruby : "-");
    for (int i = 0; i < o->bo.nruby_opts; i++) fprintf(f, "ruby-opt %s\n", o->bo.ruby_opts[i]);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

struct resume_ctx {
    struct sweep *sw;
    const char *output;
    uint64_t resumed;
};

/* A record read back from the journal. */
static int resume_record(void *ctx, char kind, uint64_t r, int code, const char *data, size_t len)
{
    struct resume_ctx *c = ctx;
    (void)len;
    if (kind == 'T') {  /* the killed sweep's temporary output, if it is still there */
        size_t n = strlen(c->output);
        if (!strncmp(data, c->output, n) && !strncmp(data + n, ".tmp.", 5)) unlink(data);
        return GV_OK;
    }
    if (r >= c->sw->nruns || c->sw->res[r].done) return GV_EIO;
    struct run_result *res = &c->sw->res[r];
    if (code == GV_EXIT_OK) res->row = strdup(data);
    else res->msg = strdup(data);
    if (!res->row && !res->msg) return GV_ENOMEM;
    res->code = code;
    res->done = res->journaled = true;
    c->sw->completed[c->sw->ncompleted++] = r;
    c->resumed++;
    return GV_OK;
}

/* The journal of `output` ("OUT.journal") in *path, or NULL when there is
 * none: stdout, or a device or pipe written in place.  GV_OK or GV_ENOMEM. */
static int journal_path(const char *output, char **path)
{
    struct stat st;
    *path = NULL;
    if (!strcmp(output, "-") || (stat(output, &st) == 0 && !S_ISREG(st.st_mode))) return GV_OK;
    size_t n = strlen(output) + sizeof ".journal";
    if (!(*path = malloc(n))) return GV_ENOMEM;
    snprintf(*path, n, "%s.journal", output);
    return GV_OK;
}

/* ---- the command ---------------------------------------------------------- */

static int sweep_exec(const struct args *a)
{
    struct sweep_opts o;
    int code = parse_opts(a, &o);
    if (code != GV_EXIT_OK) {
        opts_free(&o);
        return code;
    }
    /* the scenario, read once, with the common --set values must be valid
     * before any run */
    {
        struct scenario scn;
        struct diag_list d;
        diag_init(&d);
        struct load_opts lo = { .sets = o.run.sets, .nsets = o.run.nsets, .machines_dirs = o.run.machines,
                                .nmachines_dirs = o.run.nmachines };
        int rc = scn_read_file(o.run.scenario, &o.text, &o.textlen, &d);
        if (rc == GV_OK) rc = scn_load_text(o.run.scenario, o.text, o.textlen, &lo, &scn, &d);
        for (size_t i = 0; i < d.n; i++) fprintf(stderr, "%s\n", d.msgs[i]);
        diag_free(&d);
        if (rc != GV_OK) {
            opts_free(&o);
            return gv_exit_code(rc);
        }
        bool ok = add_measures(&o, &scn);
        scenario_free(&scn);
        if (!ok) {
            fprintf(stderr, "gvlsim sweep: out of memory\n");
            opts_free(&o);
            return GV_EXIT_NOMEM;
        }
    }
    if (o.emit >= 0) {
        code = sweep_emit_jobs(a, o.emit, (uint64_t)args_num(a, "shards", 8), o.grid.npoints,
                               o.grid.nseeds);
        opts_free(&o);
        return code;
    }

    char err[GV_ERRLEN];
    struct sweep sw;
    memset(&sw, 0, sizeof sw);
    sw.o = &o;
    sw.nruns = sweep_shard_runs(&o.shard, sweep_runs(&o.grid));
    size_t nalloc = sw.nruns ? (size_t)sw.nruns : 1;
    sw.res = calloc(nalloc, sizeof *sw.res);
    sw.completed = calloc(nalloc, sizeof *sw.completed);
    if (o.backend->measured) {  /* A B A B: see sweep_interleave */
        sw.order = malloc(nalloc * sizeof *sw.order);
        if (sw.order) sweep_interleave(&o.shard, sw.nruns, o.grid.nseeds, sw.order);
    }
    int nworkers = o.jobs < (int)(sw.nruns < 1024 ? sw.nruns : 1024) ? o.jobs : (int)sw.nruns;
    pthread_t *tids = calloc(nworkers ? (size_t)nworkers : 1, sizeof *tids);
    char *jpath = NULL, *desc = NULL;
    int jrc = journal_path(o.run.output, &jpath);
    if (jpath) desc = describe(&o);
    if (!sw.res || !sw.completed || !tids || (o.backend->measured && !sw.order) || jrc != GV_OK ||
        (jpath && !desc)) {
        free(sw.res);
        free(sw.completed);
        free(sw.order);
        free(tids);
        free(jpath);
        free(desc);
        opts_free(&o);
        fprintf(stderr, "gvlsim sweep: out of memory for %" PRIu64 " runs\n", sw.nruns);
        return GV_EXIT_NOMEM;
    }
    int rc = GV_OK;
    struct journal *jnl = NULL;
    struct resume_ctx rctx = { &sw, o.run.output, 0 };
    if (o.resume && !jpath)
        rc = gv_fail(err, sizeof err, GV_EUSAGE, "--resume needs the journal of -o FILE (not stdout, "
                     "a device or a pipe)");
    else if (jpath)
        rc = jnl_open(&jnl, jpath, desc, o.resume, resume_record, &rctx, err, sizeof err);
    free(desc);
    struct afile out;
    bool out_open = false;
    if (rc == GV_OK) out_open = (rc = afile_open(&out, o.run.output, err, sizeof err)) == GV_OK;
    /* a killed sweep cannot remove its temporary output: a resumed one will */
    if (rc == GV_OK && jnl && out.tmp) rc = jnl_append(jnl, 'T', 0, 0, out.tmp, strlen(out.tmp), err, sizeof err);
    if (rc != GV_OK) {
        fprintf(stderr, "gvlsim sweep: %s\n", err);
        if (out_open) afile_abort(&out);
        if (jnl) jnl_close(jnl, rctx.resumed == 0, err, sizeof err);  /* an empty one goes */
        for (uint64_t r = 0; r < sw.nruns; r++) {
            free(sw.res[r].row);
            free(sw.res[r].msg);
        }
        free(sw.res);
        free(sw.completed);
        free(sw.order);
        free(tids);
        free(jpath);
        opts_free(&o);
        return gv_exit_code(rc);
    }
    if (rctx.resumed && !o.run.quiet)
        fprintf(stderr, "sweep: resuming: %" PRIu64 " of %" PRIu64 " runs are done (%s)\n", rctx.resumed,
                sw.nruns, jpath);
    struct rows_writer rw;
    rows_begin(&rw, out.f, o.run.format, &o.cols, !o.run.no_header);
    pthread_mutex_init(&sw.mu, NULL);
    pthread_cond_init(&sw.cv, NULL);

    struct progress pr = { .tty = isatty(STDERR_FILENO) == 1, .quiet = o.run.quiet, .total = sw.nruns };
    pr.step = sw.nruns >= 10 ? sw.nruns / 10 : 1;
    pr.start = pr.last = cli_host_now();
    int started = 0;
    if (sw.ncompleted < sw.nruns)
        for (; started < nworkers; started++)
            if (pthread_create(&tids[started], NULL, worker, &sw) != 0) break;
    if (started == 0) {  /* no thread at all: run here */
        worker(&sw);
    }

    int worst = GV_EXIT_OK;
    bool jnl_failed = false;
    uint64_t written = 0, reported = 0;
    pthread_mutex_lock(&sw.mu);
    for (;;) {
        while (reported < sw.ncompleted) {
            uint64_t r = sw.completed[reported++];
            struct run_result *res = &sw.res[r];
            if (jnl && !res->journaled && !jnl_failed) {  /* durable before anything else */
                const char *d = res->row ? res->row : res->msg ? res->msg : "";
                if (jnl_append(jnl, 'R', r, res->code, d, strlen(d), err, sizeof err) != GV_OK) {
                    fprintf(stderr, "gvlsim sweep: %s (the sweep goes on without it)\n", err);
                    jnl_failed = true;
                }
                res->journaled = true;
            }
            if (res->code != GV_EXIT_OK) {
                pr.failed++;
                if (res->code > worst) worst = res->code;
                report_failure(&pr, &o, sweep_shard_run(&o.shard, r), res);
            }
            progress_line(&pr, reported, false);
        }
        while (written < sw.nruns && sw.res[written].done) {
            struct run_result *res = &sw.res[written];
            if (res->row) rows_put_encoded(&rw, res->row);
            free(res->row);
            free(res->msg);
            res->row = res->msg = NULL;
            written++;
        }
        if (written == sw.nruns) break;
        fflush(out.f);  /* rows so far are visible (in the temporary file) */
        pthread_cond_wait(&sw.cv, &sw.mu);
    }
    pthread_mutex_unlock(&sw.mu);
    for (int i = 0; i < started; i++) pthread_join(tids[i], NULL);
    progress_line(&pr, sw.nruns, true);

    rows_end(&rw);
    rc = afile_commit(&out, err, sizeof err);
    if (rc != GV_OK) {
        fprintf(stderr, "gvlsim sweep: %s\n", err);
        worst = GV_EXIT_IO;
    }
    /* the output is in place: the journal has served (kept if it is not) */
    if (jnl && jnl_close(jnl, rc == GV_OK, err, sizeof err) != GV_OK) fprintf(stderr, "gvlsim sweep: %s\n", err);
    free(jpath);
    if (!o.run.quiet) {
        char shard[96] = "";
        if (o.shard.n > 1)
            snprintf(shard, sizeof shard, "shard %" PRIu64 "/%" PRIu64 ", %" PRIu64 " of ", o.shard.k,
                     o.shard.n, sw.nruns);
        fprintf(stderr, "sweep: %s%" PRIu64 " run%s (%" PRIu64 " point%s x %d seed%s), %" PRIu64
                        " failed, %d worker%s, %.1f s\n",
                shard, o.shard.n > 1 ? sweep_runs(&o.grid) : sw.nruns,
                sweep_runs(&o.grid) == 1 ? "" : "s", o.grid.npoints, o.grid.npoints == 1 ? "" : "s",
                o.grid.nseeds, o.grid.nseeds == 1 ? "" : "s", pr.failed, started ? started : 1,
                started == 1 ? "" : "s", cli_host_now() - pr.start);
    }
    pthread_mutex_destroy(&sw.mu);
    pthread_cond_destroy(&sw.cv);
    free(sw.res);
    free(sw.completed);
    free(sw.order);
    free(tids);
    opts_free(&o);
    return worst;
}
