/* cmd_run.c - `gvlsim run`: simulate one scenario, write one CSV row. */
#include <errno.h>
#include <inttypes.h>
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
    .exit_status = "0 ok, 2 usage error, 3 invalid scenario, 4 the run failed (deadlock,\n"
                   "simulated time limit), 5 I/O error (scenario unreadable, output not\n"
                   "written), 6 out of memory, 7 engine not in this build.",
    .exec = run_exec,
};

/* End the trace at `end`, put it in place and say so if it was capped or
 * if it records a failed run.  Returns GV_OK or the commit error. */
static int finish_trace(struct trace *tr, sim_time end, const char *path, bool run_failed)
{
    char err[GV_ERRLEN];
    struct trace_stats st;
    trace_end(tr, end);
    int rc = trace_commit(tr, &st, err, sizeof err);
    if (rc != GV_OK) {
        fprintf(stderr, "gvlsim run: trace: %s\n", err);
        return rc;
    }
    if (st.truncated) {
        char at[48];
        csv_format_seconds(at, sizeof at, st.cut_at);
        fprintf(stderr,
                "gvlsim run: trace %s capped at %" PRIu64 " events (--trace-max-events): it stops "
                "at t=%s s; %" PRIu64 " later events were dropped\n",
                path, st.max_events, at, st.dropped);
    }
    if (run_failed) fprintf(stderr, "gvlsim run: trace %s written up to the failure\n", path);
    return GV_OK;
}

/* --trace: the trace's observers on the VM, the file committed after the run. */
struct run_trace {
    const struct run_options *o;
    struct trace *tr;
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
    struct run_trace *rt = ctx;
    int rc = finish_trace(rt->tr, end, rt->o->trace, run_rc != GV_OK);
    rt->tr = NULL;
    if (rc != GV_OK) snprintf(err, errlen, "the trace was not written (see above)");
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
    struct run_trace rt = { &o, NULL };
    /* GVLSIM_EVENT_LOG=FILE: every fired event, to compare engines (docs/engines.md) */
    const char *evlog = getenv("GVLSIM_EVENT_LOG");
    struct simulate_opts so = { .engine = o.engine, .max_time = o.max_time,
                                .event_log = evlog && *evlog ? evlog : NULL };
    if (o.trace) {
        so.ctx = &rt;
        so.setup = trace_setup;
        so.finish = trace_finish;
    }
    double t0 = cli_host_now();
    rc = simulate_run(&scn, &so, &m, err, sizeof err);
    double t1 = cli_host_now();
    if (rc == GV_OK) {
        m.host_seconds = t1 - t0;
        rc = csv_write_result(o.output, o.format, &m, !o.no_header, o.reproducible, err, sizeof err);
        if (rc == GV_OK && !o.quiet) summary_write(stderr, &m);
        run_metrics_free(&m);
    }
    if (rc != GV_OK) fprintf(stderr, "gvlsim run: %s\n", err);
    scenario_free(&scn);
    return gv_exit_code(rc);
}
