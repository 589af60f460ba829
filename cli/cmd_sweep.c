/* cmd_sweep.c - `gvlsim sweep`: run a scenario over a grid of --set values
 * and seeds, in parallel, one CSV row per run in grid order.
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
#include "../models/vm.h"
#include "../output/csv.h"
#include "../sim/engines.h"
#include "cli.h"
#include "spawn.h"
#include "sweep.h"

static int sweep_exec(int argc, char **argv);

const struct cli_command cli_cmd_sweep = {
    .name = "sweep",
    .usage = "SCENARIO --param KEY=V1,V2,... [--param ...] [--seeds N] [-j N] [-o OUT.csv] [options]",
    .summary = "run a scenario over a grid of parameter values and seeds, one CSV row per run",
    .help =
        "options:\n"
        "  --param KEY=V1,V2,...  sweep a --set path over these values (JSON or bare\n"
        "                    strings, as --set takes them; commas inside [..], {..}\n"
        "                    or \"..\" do not split).  Repeatable: the runs are the\n"
        "                    cartesian product, the first --param varying slowest\n"
        "  --seeds N         N replicates per point (default 1): replicate 0 uses the\n"
        "                    scenario's seed (or --seed), replicate k a seed derived\n"
        "                    from it by SplitMix64, the same for every point\n"
        "  -j, --jobs N      worker threads (default: the number of online CPUs);\n"
        "                    the output does not depend on it\n"
        "  -o, --output FILE write the CSV to FILE (atomically; default: stdout)\n"
        "  --set KEY=VALUE   override a value in every run (applied before --param)\n"
        "  --seed N          base seed (overrides the scenario's \"seed\")\n"
        "  --reproducible    leave host_s empty: byte-identical output for any -j\n"
        "  --no-header       leave out the CSV header line\n"
        "  --max-time SECS   simulated-time limit per run (default 3600)\n"
        "  --engine NAME     event engine: native (default) or simgrid, which runs each\n"
        "                    point as its own `gvlsim run` process (SimGrid's clock\n"
        "                    belongs to the process); the rows are the same\n"
        "  --machines DIR    also look for machine profiles in DIR\n"
        "  -q, --quiet       no progress and no summary on stderr (failures are\n"
        "                    still reported)\n"
        "\n"
        "CSV: the columns of `gvlsim run`, preceded by\n"
        "  point   index of the parameter combination (0-based, grid order)\n"
        "  rep     replicate (0..N-1 of --seeds); the seed is in the seed column\n"
        "  KEY...  one column per --param, named by its KEY, holding the value\n"
        "          exactly as given\n"
        "Rows come in run order: point by point, replicates innermost.\n"
        "\n"
        "Progress goes to stderr: a live line on a terminal, else one line per\n"
        "tenth of the runs.  A failing run (invalid value, deadlock, time limit) is\n"
        "reported as it happens and left out of the CSV; the others still run and\n"
        "the CSV is still written.\n"
        "\n"
        "exit status: 0 every run succeeded; otherwise the highest exit code of the\n"
        "failed runs (3 invalid value, 4 run failed, 6 out of memory, 7 not supported\n"
        "by this build); 2 usage error, 3/5 the scenario itself is invalid/unreadable,\n"
        "5 the output cannot be written.\n",
    .exec = sweep_exec,
};

/* ---- options -------------------------------------------------------------- */

struct sweep_opts {
    const char *scenario;
    const char **sets;
    int nsets;
    const char *output;
    const char *machines;
    const char *engine;
    const char *max_time_arg;  /* --max-time as given, for child processes */
    bool has_seed;
    uint64_t seed;
    int jobs;
    sim_time max_time;
    bool reproducible, no_header, quiet;
    struct sweep_grid grid;
};

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

/* value of an option given as "--opt=V" or "--opt V" */
static const char *opt_value(const char *a, const char *name, int argc, char **argv, int *i,
                             int *rc)
{
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0) return NULL;
    if (a[n] == '=' && name[1] == '-') return a + n + 1;
    if (a[n] != 0) return NULL;
    if (*i + 1 >= argc) {
        *rc = cli_usage_error(&cli_cmd_sweep, "option %s needs a value", name);
        return NULL;
    }
    return argv[++*i];
}

static int parse_opts(int argc, char **argv, struct sweep_opts *o)
{
    memset(o, 0, sizeof *o);
    sweep_grid_init(&o->grid);
    o->output = "-";
    o->engine = "native";
    o->max_time = 3600 * SIM_S;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = ncpu > 0 ? (int)(ncpu > 256 ? 256 : ncpu) : 1;
    o->sets = calloc((size_t)argc, sizeof *o->sets);
    if (!o->sets) return GV_EXIT_NOMEM;
    long seeds = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int rc = GV_EXIT_OK;
        char msg[512];
        long n;
        if ((v = opt_value(a, "--param", argc, argv, &i, &rc))) {
            if (sweep_grid_add(&o->grid, v, msg, sizeof msg) != 0)
                return cli_usage_error(&cli_cmd_sweep, "%s", msg);
        } else if ((v = opt_value(a, "--set", argc, argv, &i, &rc))) {
            if (!strchr(v, '=')) return cli_usage_error(&cli_cmd_sweep, "--set needs KEY=VALUE, got \"%s\"", v);
            o->sets[o->nsets++] = v;
        } else if ((v = opt_value(a, "--seeds", argc, argv, &i, &rc))) {
            if (parse_int(v, 1, 100000, &seeds))
                return cli_usage_error(&cli_cmd_sweep, "--seeds needs an integer 1..100000, got \"%s\"", v);
        } else if ((v = opt_value(a, "-j", argc, argv, &i, &rc)) ||
                   (v = opt_value(a, "--jobs", argc, argv, &i, &rc))) {
            if (parse_int(v, 1, 1024, &n))
                return cli_usage_error(&cli_cmd_sweep, "-j needs an integer 1..1024, got \"%s\"", v);
            o->jobs = (int)n;
        } else if ((v = opt_value(a, "-o", argc, argv, &i, &rc)) ||
                   (v = opt_value(a, "--output", argc, argv, &i, &rc))) {
            o->output = v;
        } else if ((v = opt_value(a, "--seed", argc, argv, &i, &rc))) {
            char *end;
            unsigned long long s = strtoull(v, &end, 10);
            if (!*v || *v == '-' || *end || s > (UINT64_C(1) << 53))
                return cli_usage_error(&cli_cmd_sweep, "--seed needs an integer 0..2^53, got \"%s\"", v);
            o->seed = s;
            o->has_seed = true;
        } else if ((v = opt_value(a, "--max-time", argc, argv, &i, &rc))) {
            char *end;
            double s = strtod(v, &end);
            if (!*v || *end || !(s > 0) || s > 9.0e6)
                return cli_usage_error(&cli_cmd_sweep, "--max-time needs seconds > 0 (at most 9e6), got \"%s\"", v);
            o->max_time = (sim_time)(s * (double)SIM_S + 0.5);
            o->max_time_arg = v;
        } else if ((v = opt_value(a, "--engine", argc, argv, &i, &rc))) {
            int erc = sim_engine_check(v, msg, sizeof msg);
            if (erc == GV_EUSAGE) return cli_usage_error(&cli_cmd_sweep, "%s", msg);
            if (erc != GV_OK) {
                fprintf(stderr, "gvlsim sweep: %s\n", msg);
                return gv_exit_code(erc);
            }
            o->engine = v;
        } else if ((v = opt_value(a, "--machines", argc, argv, &i, &rc))) {
            o->machines = v;
        } else if (rc != GV_EXIT_OK) {
            return rc;
        } else if (!strcmp(a, "--reproducible")) {
            o->reproducible = true;
        } else if (!strcmp(a, "--no-header")) {
            o->no_header = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (a[0] == '-' && a[1] != 0) {
            return cli_usage_error(&cli_cmd_sweep, "unknown option \"%s\"", a);
        } else if (!o->scenario) {
            o->scenario = a;
        } else {
            return cli_usage_error(&cli_cmd_sweep, "only one scenario per sweep (got \"%s\" and \"%s\")",
                                   o->scenario, a);
        }
        if (rc != GV_EXIT_OK) return rc;
    }
    if (!o->scenario) return cli_usage_error(&cli_cmd_sweep, "missing SCENARIO");
    o->grid.nseeds = (int)seeds;
    if (sweep_runs(&o->grid) > 10000000u)
        return cli_usage_error(&cli_cmd_sweep, "the sweep would make more than 10^7 runs");
    return GV_EXIT_OK;
}

static void opts_free(struct sweep_opts *o)
{
    free(o->sets);
    sweep_grid_free(&o->grid);
}

/* ---- one run -------------------------------------------------------------- */

struct run_result {
    char *row;     /* the CSV line, or NULL if the run failed */
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

/* "point,rep,VALUE,...," : the columns a sweep puts before a run's row */
static void row_prefix(FILE *f, const struct sweep_grid *g, uint64_t point, int rep)
{
    fprintf(f, "%" PRIu64 ",%d,", point, rep);
    for (int i = 0; i < g->nparams; i++) {
        csv_put_field(f, g->params[i].values[sweep_value_index(g, point, i)]);
        fputc(',', f);
    }
}

/* Run one point as `gvlsim run --engine E` in a process of its own, with
 * the same --set values in the same order and the seed the point would
 * get here; its CSV row, after the sweep's columns, is the row. */
static void run_spawned(const struct sweep_opts *o, const char **sets, int nsets, uint64_t seed,
                        uint64_t point, int rep, struct run_result *out)
{
    char seedbuf[32], err[GV_ERRLEN];
    snprintf(seedbuf, sizeof seedbuf, "%" PRIu64, seed);
    const char **argv = calloc((size_t)(2 * nsets + 20), sizeof *argv);
    if (!argv) {
        out->code = GV_EXIT_NOMEM;
        out->msg = strdup("out of memory");
        return;
    }
    int n = 0;
    argv[n++] = "gvlsim";
    argv[n++] = "run";
    argv[n++] = o->scenario;
    for (int i = 0; i < nsets; i++) {
        argv[n++] = "--set";
        argv[n++] = sets[i];
    }
    argv[n++] = "--seed";
    argv[n++] = seedbuf;
    argv[n++] = "--engine";
    argv[n++] = o->engine;
    if (o->max_time_arg) {
        argv[n++] = "--max-time";
        argv[n++] = o->max_time_arg;
    }
    if (o->machines) {
        argv[n++] = "--machines";
        argv[n++] = o->machines;
    }
    if (o->reproducible) argv[n++] = "--reproducible";
    argv[n++] = "--no-header";
    argv[n++] = "-q";
    argv[n++] = "-o";
    argv[n++] = "-";
    argv[n] = NULL;
    struct spawn_result sr;
    int rc = spawn_self((char *const *)argv, &sr, err, sizeof err);
    free(argv);
    if (rc != GV_OK) {
        out->code = gv_exit_code(rc);
        out->msg = strdup(err);
    } else if (sr.exit_code != GV_EXIT_OK || !strchr(sr.out, '\n')) {
        const char *m = sr.errtext;
        if (!strncmp(m, "gvlsim run: ", 12)) m += 12;
        size_t len = strlen(m);
        while (len > 0 && m[len - 1] == '\n') len--;
        out->code = sr.exit_code != GV_EXIT_OK ? sr.exit_code : GV_EXIT_RUN;
        if (sr.signal)
            rc = asprintf(&out->msg, "gvlsim run was killed by signal %d%s%.*s", sr.signal, len ? ": " : "",
                          (int)len, m);
        else
            rc = asprintf(&out->msg, "%.*s", (int)len, len ? m : "gvlsim run wrote no CSV row");
        if (rc < 0) out->msg = NULL;
    } else {
        size_t len = 0;
        FILE *f = open_memstream(&out->row, &len);
        if (f) {
            row_prefix(f, &o->grid, point, rep);
            fputs(sr.out, f);
        }
        if (!f || fclose(f) != 0 || !out->row) {
            free(out->row);
            out->row = NULL;
            out->code = GV_EXIT_NOMEM;
            out->msg = strdup("out of memory");
        }
    }
    spawn_result_free(&sr);
}

static void run_one(struct sweep *sw, uint64_t r, struct run_result *out)
{
    const struct sweep_opts *o = sw->o;
    const struct sweep_grid *g = &o->grid;
    uint64_t point = r / (uint64_t)g->nseeds;
    int rep = (int)(r % (uint64_t)g->nseeds);
    int nsets = o->nsets + g->nparams;
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
    memcpy(sets, o->sets, (size_t)o->nsets * sizeof *sets);
    for (int i = 0; i < g->nparams; i++) {
        mine[i] = sweep_set_string(g, point, i);
        if (!mine[i]) {
            rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
            goto done;
        }
        sets[o->nsets + i] = mine[i];
    }
    struct load_opts lo = { sets, nsets, o->machines };
    struct diag_list d;
    diag_init(&d);
    pthread_mutex_lock(&sw->load_mu);
    rc = scn_load(o->scenario, &lo, &scn, &d);
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
    scn.seed = sweep_seed(o->has_seed ? o->seed : scn.seed, rep);
    if (sim_engine_one_per_process(o->engine)) {
        run_spawned(o, sets, nsets, scn.seed, point, rep, out);
        goto done;
    }

    struct sim_engine *eng;
    rc = sim_engine_new(o->engine, &eng, err, sizeof err);
    if (rc != GV_OK) goto done;
    struct vm vm;
    rc = vm_init(&vm, &scn, eng, err, sizeof err);
    if (rc == GV_OK) {
        double t0 = cli_host_now();
        rc = vm_run(&vm, o->max_time, err, sizeof err);
        double t1 = cli_host_now();
        if (rc == GV_OK) {
            struct run_metrics m;
            memset(&m, 0, sizeof m);
            vm_collect(&vm, &m);
            m.host_seconds = t1 - t0;
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            if (!f) {
                rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
            } else {
                row_prefix(f, g, point, rep);
                csv_write_row(f, &m, o->reproducible);
                if (fclose(f) != 0 || !buf) rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
                else out->row = buf;
                if (rc != GV_OK) free(buf);
            }
        }
        vm_free(&vm);
    }
    sim_destroy(eng);
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

static int sweep_exec(int argc, char **argv)
{
    struct sweep_opts o;
    int code = parse_opts(argc, argv, &o);
    if (code != GV_EXIT_OK) {
        opts_free(&o);
        return code;
    }
    /* the scenario with the common --set values must be valid before any run */
    {
        struct load_opts lo = { o.sets, o.nsets, o.machines };
        struct scenario scn;
        struct diag_list d;
        diag_init(&d);
        int rc = scn_load(o.scenario, &lo, &scn, &d);
        for (size_t i = 0; i < d.n; i++) fprintf(stderr, "%s\n", d.msgs[i]);
        diag_free(&d);
        if (rc != GV_OK) {
            opts_free(&o);
            return gv_exit_code(rc);
        }
        scenario_free(&scn);
    }

    char err[GV_ERRLEN];
    struct afile out;
    int rc = afile_open(&out, o.output, err, sizeof err);
    if (rc != GV_OK) {
        fprintf(stderr, "gvlsim sweep: %s\n", err);
        opts_free(&o);
        return gv_exit_code(rc);
    }
    if (!o.no_header) {
        fputs("point,rep,", out.f);
        for (int i = 0; i < o.grid.nparams; i++) {
            csv_put_field(out.f, o.grid.params[i].key);
            fputc(',', out.f);
        }
        csv_write_header(out.f);
    }

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

    struct progress pr = { .tty = isatty(STDERR_FILENO) == 1, .quiet = o.quiet, .total = sw.nruns };
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
            if (res->row) fputs(res->row, out.f);
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

    rc = afile_commit(&out, err, sizeof err);
    if (rc != GV_OK) {
        fprintf(stderr, "gvlsim sweep: %s\n", err);
        worst = GV_EXIT_IO;
    }
    if (!o.quiet)
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
