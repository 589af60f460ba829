/* cmd_sweep.c - `gvlsim sweep`: run a scenario over a grid of --set values
 * and seeds, in parallel, one result row per run in grid order.
 *
 * Runs go to worker threads (-j): a run shares nothing with another (the
 * simulator has no globals), except scenario loading, which is serialised
 * because cJSON records parse errors in a process-global variable
 * (cJSON.c global_error).  The main thread writes the rows in run order as
 * soon as every earlier run is done, so the output is byte-identical
 * whatever -j is (with --reproducible, which leaves host_s empty). */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/afile.h"
#include "../common/err.h"
#include "../input/load.h"
#include "../models/simulate.h"
#include "../output/csv.h"
#include "../sim/engines.h"
#include "cli.h"
#include "spawn.h"
#include "options.h"
#include "sweep.h"

static int sweep_exec(const struct args *a);

static const struct args_opt sweep_opts[] = {
    { .name = "param", .kind = ARGS_KV, .flags = ARGS_REPEAT | ARGS_KEYPATH,
      .metavar = "KEY=V1,V2,...",
      .help = "sweep a --set path over these values (JSON or bare\n"
              "strings, as --set takes them; commas inside [..], {..}\n"
              "or \"..\" do not split); the runs are the cartesian\n"
              "product, the first --param varying slowest" },
    { .name = "seeds", .kind = ARGS_INT, .min = 1, .max = 100000,
      .help = "N replicates per point (default 1): replicate 0 uses the\n"
              "scenario's seed (or --seed), replicate k a seed derived\n"
              "from it by SplitMix64, the same for every point" },
    { .name = "jobs", .short_name = 'j', .kind = ARGS_INT, .min = 1, .max = 1024,
      .help = "worker threads (default: the number of online CPUs);\n"
              "the output does not depend on it" },
    CLI_OPT_ROWS_OUTPUT,
    CLI_OPT_FORMAT,
    CLI_OPT_SET_H("override a value in every run (applied before --param)"),
    CLI_OPT_SEED_H("base seed (overrides the scenario's \"seed\")"),
    CLI_OPT_REPRODUCIBLE_H("leave host_s empty: byte-identical output for any -j"),
    CLI_OPT_NO_HEADER,
    CLI_OPT_MAX_TIME_H("simulated-time limit per run (default 3600)"),
    CLI_OPT_ENGINE,
    CLI_OPT_MACHINES,
    CLI_OPT_QUIET_H("no progress and no summary on stderr (failures are\n"
                    "still reported)"),
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
        "Rows come in run order: point by point, replicates innermost.\n"
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
        "by this build); 2 usage error, 3/5 the scenario itself is invalid/unreadable,\n"
        "5 the output cannot be written.",
    .exec = sweep_exec,
};

/* ---- options -------------------------------------------------------------- */

struct sweep_opts {
    struct run_options run;   /* scenario, --set, --seed, -o, --format, ... */
    int jobs;
    struct sweep_grid grid;
    struct row cols;          /* the output's columns */
};

static int parse_opts(const struct args *a, struct sweep_opts *o)
{
    memset(o, 0, sizeof *o);
    sweep_grid_init(&o->grid);
    row_init(&o->cols);
    int rc = run_options_get(&cli_cmd_sweep, a, &o->run);
    if (rc != GV_EXIT_OK) return rc;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = (int)args_num(a, "jobs", ncpu > 0 ? (ncpu > 256 ? 256 : ncpu) : 1);
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
    sweep_grid_free(&o->grid);
    row_free(&o->cols);
}

/* ---- one run -------------------------------------------------------------- */

struct run_result {
    char *row;     /* the encoded row, or NULL if the run failed */
    char *msg;     /* why it failed */
    int code;      /* exit code of the failure, 0 if ok */
    bool done;
};

struct sweep {
    const struct sweep_opts *o;
    uint64_t nruns;
    struct run_result *res;
    pthread_mutex_t mu;        /* next, completed, ncompleted, res[].done */
    pthread_cond_t cv;
    uint64_t next;
    uint64_t *completed;       /* run indexes in completion order */
    uint64_t ncompleted;
    pthread_mutex_t load_mu;   /* scn_load: cJSON's global error pointer */
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
 * --set values in the same order and the seed the point gets here.  Its
 * row comes back encoded (CSV, or a JSON object for json and jsonl) and
 * is joined to the sweep's own cells encoded alike. */
static void run_spawned(const struct sweep_opts *o, const char **sets, int nsets, uint64_t seed,
                        uint64_t point, int rep, struct run_result *out)
{
    const struct run_options *ro = &o->run;
    char seedbuf[32], maxbuf[48], err[GV_ERRLEN];
    snprintf(seedbuf, sizeof seedbuf, "%" PRIu64, seed);
    snprintf(maxbuf, sizeof maxbuf, "%" PRId64 "ps", (int64_t)ro->max_time);
    const char **argv = calloc((size_t)(2 * nsets + 2 * ro->nmachines + 24), sizeof *argv);
    struct row cells;
    row_init(&cells);
    row_prefix(&cells, &o->grid, point, rep);
    char *prefix = cells.oom ? NULL : rows_encode_str(ro->format, &o->cols, &cells);
    row_free(&cells);
    if (!argv || !prefix) {
        free(argv);
        free(prefix);
        out->code = GV_EXIT_NOMEM;
        out->msg = strdup("out of memory");
        return;
    }
    int n = 0;
    argv[n++] = "gvlsim";
    argv[n++] = "run";
    argv[n++] = ro->scenario;
    for (int i = 0; i < nsets; i++) {
        argv[n++] = "--set";
        argv[n++] = sets[i];
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
    int nsets = o->run.nsets + g->nparams;
    const char **sets = calloc((size_t)(nsets ? nsets : 1), sizeof *sets);
    char **mine = calloc((size_t)(g->nparams ? g->nparams : 1), sizeof *mine);
    char err[4096] = "";
    struct scenario scn;
    bool loaded = false;
    int rc = GV_OK;
    if (!sets || !mine) {
        rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
        goto done;
    }
    memcpy(sets, o->run.sets, (size_t)o->run.nsets * sizeof *sets);
    for (int i = 0; i < g->nparams; i++) {
        mine[i] = sweep_set_string(g, point, i);
        if (!mine[i]) {
            rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
            goto done;
        }
        sets[o->run.nsets + i] = mine[i];
    }
    struct load_opts lo = { .sets = sets, .nsets = nsets, .machines_dirs = o->run.machines,
                            .nmachines_dirs = o->run.nmachines };
    struct diag_list d;
    diag_init(&d);
    pthread_mutex_lock(&sw->load_mu);
    rc = scn_load(o->run.scenario, &lo, &scn, &d);
    pthread_mutex_unlock(&sw->load_mu);
    if (rc != GV_OK) {
        size_t off = 0;
        for (size_t i = 0; i < d.n && off + 8 < sizeof err; i++)
            off += (size_t)snprintf(err + off, sizeof err - off, "%s%s", i ? "\n" : "", d.msgs[i]);
        if (d.n == 0) snprintf(err, sizeof err, "%s", gv_strerror(rc));
        diag_free(&d);
        goto done;
    }
    diag_free(&d);
    loaded = true;
    scn.seed = sweep_seed(o->run.has_seed ? o->run.seed : scn.seed, rep);
    if (sim_engine_one_per_process(o->run.engine)) {
        run_spawned(o, sets, nsets, scn.seed, point, rep, out);
        goto done;
    }

    struct simulate_opts so = { .engine = o->run.engine, .max_time = o->run.max_time };
    struct run_metrics m;
    double t0 = cli_host_now();
    rc = simulate_run(&scn, &so, &m, err, sizeof err);
    double t1 = cli_host_now();
    if (rc == GV_OK) {
        m.host_seconds = t1 - t0;
        struct row cells;
        row_init(&cells);
        row_prefix(&cells, g, point, rep);
        csv_row(&cells, &m, o->run.reproducible);
        out->row = cells.oom ? NULL : rows_encode_str(o->run.format, &o->cols, &cells);
        if (!out->row) rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
        row_free(&cells);
        run_metrics_free(&m);
    }
done:
    if (loaded) scenario_free(&scn);
    if (mine)
        for (int i = 0; i < g->nparams; i++) free(mine[i]);
    free(mine);
    free(sets);
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
        uint64_t r = sw->next < sw->nruns ? sw->next++ : UINT64_MAX;
        pthread_mutex_unlock(&sw->mu);
        if (r == UINT64_MAX) return NULL;
        struct run_result res = { 0 };
        run_one(sw, r, &res);
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
    for (int i = 0; i < g->nparams; i++)
        fprintf(stderr, "%s%s=%s", i ? " " : ": ", g->params[i].key,
                g->params[i].values[sweep_value_index(g, point, i)]);
    fprintf(stderr, ") failed:\n");
    const char *m = res->msg ? res->msg : "unknown error";
    while (*m) {
        size_t n = strcspn(m, "\n");
        fprintf(stderr, "  %.*s\n", (int)n, m);
        m += n;
        if (*m) m++;
    }
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
    /* the scenario with the common --set values must be valid before any run */
    {
        struct scenario scn;
        int rc = run_options_load(&o.run, &scn);
        if (rc != GV_EXIT_OK) {
            opts_free(&o);
            return rc;
        }
        scenario_free(&scn);
    }

    char err[GV_ERRLEN];
    struct afile out;
    int rc = afile_open(&out, o.run.output, err, sizeof err);
    if (rc != GV_OK) {
        fprintf(stderr, "gvlsim sweep: %s\n", err);
        opts_free(&o);
        return gv_exit_code(rc);
    }
    struct rows_writer rw;
    rows_begin(&rw, out.f, o.run.format, &o.cols, !o.run.no_header);

    struct sweep sw;
    memset(&sw, 0, sizeof sw);
    sw.o = &o;
    sw.nruns = sweep_runs(&o.grid);
    sw.res = calloc((size_t)sw.nruns, sizeof *sw.res);
    sw.completed = calloc((size_t)sw.nruns, sizeof *sw.completed);
    int nworkers = o.jobs < (int)(sw.nruns < 1024 ? sw.nruns : 1024) ? o.jobs : (int)sw.nruns;
    pthread_t *tids = calloc((size_t)nworkers, sizeof *tids);
    if (!sw.res || !sw.completed || !tids) {
        free(sw.res);
        free(sw.completed);
        free(tids);
        afile_abort(&out);
        opts_free(&o);
        fprintf(stderr, "gvlsim sweep: out of memory for %" PRIu64 " runs\n", sw.nruns);
        return GV_EXIT_NOMEM;
    }
    pthread_mutex_init(&sw.mu, NULL);
    pthread_mutex_init(&sw.load_mu, NULL);
    pthread_cond_init(&sw.cv, NULL);

    struct progress pr = { .tty = isatty(STDERR_FILENO) == 1, .quiet = o.run.quiet, .total = sw.nruns };
    pr.step = sw.nruns >= 10 ? sw.nruns / 10 : 1;
    pr.start = pr.last = cli_host_now();
    int started = 0;
    for (; started < nworkers; started++)
        if (pthread_create(&tids[started], NULL, worker, &sw) != 0) break;
    if (started == 0) {  /* no thread at all: run here */
        worker(&sw);
    }

    int worst = GV_EXIT_OK;
    uint64_t written = 0, reported = 0;
    pthread_mutex_lock(&sw.mu);
    for (;;) {
        while (reported < sw.ncompleted) {
            uint64_t r = sw.completed[reported++];
            if (sw.res[r].code != GV_EXIT_OK) {
                pr.failed++;
                if (sw.res[r].code > worst) worst = sw.res[r].code;
                report_failure(&pr, &o, r, &sw.res[r]);
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
    if (!o.run.quiet)
        fprintf(stderr, "sweep: %" PRIu64 " run%s (%" PRIu64 " point%s x %d seed%s), %" PRIu64
                        " failed, %d worker%s, %.1f s\n",
                sw.nruns, sw.nruns == 1 ? "" : "s", o.grid.npoints, o.grid.npoints == 1 ? "" : "s",
                o.grid.nseeds, o.grid.nseeds == 1 ? "" : "s", pr.failed, started ? started : 1,
                started == 1 ? "" : "s", cli_host_now() - pr.start);
    pthread_mutex_destroy(&sw.mu);
    pthread_mutex_destroy(&sw.load_mu);
    pthread_cond_destroy(&sw.cv);
    free(sw.res);
    free(sw.completed);
    free(tids);
    opts_free(&o);
    return worst;
}
