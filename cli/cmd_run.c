/* cmd_run.c - `gvlsim run`: simulate one scenario, write one CSV row. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../input/scenario.h"
#include "../models/vm.h"
#include "../output/csv.h"
#include "../output/summary.h"
#include "../output/trace.h"
#include "../sim/engines.h"
#include "../sim/evlog.h"
#include "cli.h"
#include "options.h"

static int run_exec(int argc, char **argv);

const struct cli_command cli_cmd_run = {
    .name = "run",
    .usage = "SCENARIO [--set KEY=VALUE]... [--seed N] [-o OUT.csv] [options]",
    .summary = "simulate a scenario and write one CSV row (stdout by default)",
    .help =
        "options:\n"
        "  --set KEY=VALUE   override a scenario value, e.g. --set machine.cores=2\n"
        "                    --set ractors.0.threads.1.count=8 (repeatable)\n"
        "  --seed N          random seed (overrides the scenario's \"seed\")\n"
        "  -o, --output FILE write the CSV to FILE (atomically; default: stdout)\n"
        "  --no-header       leave out the CSV header line\n"
        "  --reproducible    leave the host_s column empty, so that the same scenario\n"
        "                    and seed give byte-identical output\n"
        "  --max-time SECS   simulated-time limit (default 3600); reaching it fails the run\n"
        "  --engine NAME     event engine: native (default) or simgrid (the reference\n"
        "                    engine, in builds with libsimgrid-dev; docs/engines.md)\n"
        "  --machines DIR    also look for machine profiles in DIR\n"
        "  --trace FILE      also write a timeline (Chrome trace-event JSON for\n"
        "                    ui.perfetto.dev; gzip-compressed if FILE ends in .gz),\n"
        "                    atomically; written for a failed run too, up to the failure\n"
        "  --trace-max-events N  cap on trace events (default 2000000): the trace is\n"
        "                    cut at the time the cap is reached, which is reported\n"
        "  -q, --quiet       no summary on stderr\n",
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

static int run_exec(int argc, char **argv)
{
    struct run_options o;
    int rc = run_options_parse(&cli_cmd_run, argc, argv, &o);
    if (rc != GV_EXIT_OK) return rc;
    char err[4096] = "";
    rc = sim_engine_check(o.engine, err, sizeof err);
    if (rc != GV_OK) {
        run_options_free(&o);
        if (rc == GV_EUSAGE) return cli_usage_error(&cli_cmd_run, "%s", err);
        fprintf(stderr, "gvlsim run: %s\n", err);
        return gv_exit_code(rc);
    }

    struct scenario scn;
    rc = run_options_load(&o, &scn);
    if (rc != GV_EXIT_OK) {
        run_options_free(&o);
        return rc;
    }

    struct sim_engine *eng = NULL;
    struct vm vm;
    struct run_metrics m;
    memset(&m, 0, sizeof m);
    rc = sim_engine_new(o.engine, &eng, err, sizeof err);
    if (rc != GV_OK) goto done;
    /* GVLSIM_EVENT_LOG=FILE: every fired event, for comparing engines */
    const char *evlog = getenv("GVLSIM_EVENT_LOG");
    if (evlog && *evlog) {
        struct sim_engine *logged;
        rc = sim_evlog_wrap(eng, evlog, &logged, err, sizeof err);
        if (rc != GV_OK) goto done;
        eng = logged;
    }
    rc = vm_init(&vm, &scn, eng, err, sizeof err);
    if (rc != GV_OK) goto done;
    /* --trace: observers on the vm, the file committed after the run */
    struct trace *tr = NULL;
    if (o.trace) {
        rc = trace_open(&tr, o.trace, (uint64_t)o.trace_max_events, &vm, err, sizeof err);
        if (rc != GV_OK) {
            vm_free(&vm);
            goto done;
        }
    }
    double t0 = cli_host_now();
    rc = vm_run(&vm, o.max_time, err, sizeof err);
    double t1 = cli_host_now();
    int trace_rc = GV_OK;
    if (tr) trace_rc = finish_trace(tr, rc == GV_OK ? vm.end_time : sim_now(eng), o.trace, rc != GV_OK);
    if (rc == GV_OK) {
        vm_collect(&vm, &m);
        m.host_seconds = t1 - t0;
        rc = csv_write_file(o.output, &m, !o.no_header, o.reproducible, err, sizeof err);
        if (rc == GV_OK && !o.quiet) summary_write(stderr, &m);
        if (rc == GV_OK && trace_rc != GV_OK) {
            rc = trace_rc;
            snprintf(err, sizeof err, "the trace was not written (see above)");
        }
    }
    vm_free(&vm);
done:
    sim_destroy(eng);
    if (rc != GV_OK) fprintf(stderr, "gvlsim run: %s\n", err);
    scenario_free(&scn);
    run_options_free(&o);
    return gv_exit_code(rc);
}
