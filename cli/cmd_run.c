/* cmd_run.c - `gvlsim run`: simulate one scenario, write one CSV row. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../input/scenario.h"
#include "../models/simulate.h"
#include "../models/vm.h"
#include "../output/csv.h"
#include "../output/summary.h"
#include "../output/trace.h"
#include "../sim/engines.h"
#include "cli.h"
#include "options.h"

static int run_exec(const struct args *a);

static const struct args_opt run_opts[] = {
    CLI_OPT_SET,
    CLI_OPT_SEED,
    CLI_OPT_ROWS_OUTPUT,
    CLI_OPT_FORMAT,
    CLI_OPT_NO_HEADER,
    CLI_OPT_REPRODUCIBLE_H("leave the host_s column empty, so that the same scenario\n"
                           "and seed give byte-identical output"),
    CLI_OPT_MAX_TIME_H("simulated-time limit (default 3600); reaching it fails the run"),
    CLI_OPT_FORCE_H("run even a scenario estimated to take very long (beyond\n"
                    "5e9 engine events, several minutes): refused otherwise, exit 3"),
    CLI_OPT_ENGINE,
    CLI_OPT_MACHINES,
    { .name = "trace", .kind = ARGS_PATH,
      .help = "also write a timeline (Chrome trace-event JSON for\n"
              "ui.perfetto.dev; gzip-compressed if FILE ends in .gz),\n"
              "atomically; written for a failed run too, up to the failure" },
    { .name = "trace-max-events", .kind = ARGS_INT, .min = 1, .max = 1000000000,
      .help = "cap on trace events (default 2000000): the trace is\n"
              "cut at the time the cap is reached, which is reported" },
    CLI_OPT_QUIET,
    CLI_OPT_END,
};

const struct cli_command cli_cmd_run = {
    .name = "run",
    .usage = "SCENARIO [--set KEY=VALUE]... [--seed N] [-o OUT.csv] [options]",
    .summary = "simulate a scenario and write one result row (CSV on stdout by default)",
    .args = { run_opts, "SCENARIO", 1, 1 },
    .details = "The row's columns are listed in README.md (\"CSV columns\"); a summary of\n"
               "the run goes to stderr.",
    .exit_status = "0 ok, 2 usage error, 3 invalid scenario, or a run estimated to take very\n"
                   "long (without --force), 4 the run failed (deadlock, simulated time\n"
                   "limit), 5 I/O error (scenario unreadable, an output not written: then\n"
                   "none is), 6 out of memory, 7 engine not in this build; 128+N when\n"
                   "killed by signal N (130 for SIGINT), temporary files removed.",
    .exec = run_exec,
};

/* --trace: the trace's observers on the VM; after the run, the trace is
 * written out (prepared) by the finish hook and committed by run_exec
 * together with the CSV: when any output of the run cannot be written,
 * none is committed. */
struct run_trace {
    const struct run_options *o;
    struct trace *tr;        /* prepared after the run, until committed */
    struct trace_stats st;
};

static int trace_setup(void *ctx, struct vm *vm, char *err, size_t errlen)
{
    struct run_trace *rt = ctx;
    struct run_layout lay;
    if (simulate_layout(vm, &lay) != GV_OK) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    int rc = trace_open(&rt->tr, rt->o->trace, (uint64_t)rt->o->trace_max_events, &lay, err, errlen);
    simulate_layout_free(&lay);
    if (rc == GV_OK) trace_observe(rt->tr, &vm->obs, &vm->mach.obs, &vm->timer.nt);
    return rc;
}

static int trace_finish(void *ctx, struct vm *vm, int run_rc, sim_time end, char *err, size_t errlen)
{
    (void)vm;
    (void)run_rc;
    struct run_trace *rt = ctx;
    char msg[GV_ERRLEN];
    trace_end(rt->tr, end);
    int rc = trace_prepare(rt->tr, &rt->st, msg, sizeof msg);
    if (rc != GV_OK) {
        trace_abort(rt->tr);
        rt->tr = NULL;
        fprintf(stderr, "gvlsim run: trace: %s\n", msg);
        snprintf(err, errlen, "the trace was not written (see above), nor any other output");
    }
    return rc;
}

static int run_exec(const struct args *a)
{
    struct run_options o;
    int rc = run_options_get(&cli_cmd_run, a, &o);
    if (rc != GV_EXIT_OK) return rc;

    struct scenario scn;
    rc = run_options_load(&o, &scn);
    if (rc != GV_EXIT_OK) return rc;

    char err[4096] = "";
    struct run_metrics m;
    struct run_trace rt = { .o = &o };
    /* GVLSIM_EVENT_LOG=FILE: every fired event, to compare engines (docs/engines.md) */
    const char *evlog = getenv("GVLSIM_EVENT_LOG");
    struct simulate_opts so = { .engine = o.engine, .max_time = o.max_time, .force = o.force,
                                .event_log = evlog && *evlog ? evlog : NULL };
    if (o.trace) {
        so.ctx = &rt;
        so.setup = trace_setup;
        so.finish = trace_finish;
    }
    double t0 = cli_host_now();
    rc = simulate_run(&scn, &so, &m, err, sizeof err);
    double t1 = cli_host_now();
    /* Every output is prepared before any is committed: when one cannot be
     * written, none is. */
    struct afile csv;
    bool ran = rc == GV_OK;
    if (ran) {
        m.host_seconds = t1 - t0;
        rc = csv_prepare_result(&csv, o.output, o.format, &m, !o.no_header, o.reproducible, err,
                                sizeof err);
        if (rc == GV_OK) rc = afile_commit(&csv, err, sizeof err);
    }
    if (rt.tr) {
        /* with the CSV; or alone, up to the failure, for a run that failed by itself */
        if (ran ? rc == GV_OK : rc == GV_ERUN) {
            int trc = run_options_trace_commit("run", rt.o, rt.tr, &rt.st, !ran);
            rt.tr = NULL;
            if (rc == GV_OK) rc = trc;
        } else {
            trace_abort(rt.tr);
            rt.tr = NULL;
            size_t n = strlen(err);
            snprintf(err + n, sizeof err - n, " (so the trace was not written either)");
        }
    }
    if (ran && rc == GV_OK && !o.quiet) summary_write(stderr, &m);
    if (ran) run_metrics_free(&m);
    if (rc != GV_OK) fprintf(stderr, "gvlsim run: %s\n", err);
    scenario_free(&scn);
    return gv_exit_code(rc);
}
