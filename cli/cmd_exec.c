/* cmd_exec.c - `gvlsim exec`: run a scenario on real threads, write one
 * result row (same columns as `gvlsim run`, backend "real"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../exec/exec.h"
#include "../input/scenario.h"
#include "../output/csv.h"
#include "../output/summary.h"
#include "cli.h"
#include "options.h"

static int exec_cmd(const struct args *a);

static const struct args_opt exec_opts[] = {
    CLI_OPT_SET_H("override a scenario value, e.g. --set machine.cores=1"),
    CLI_OPT_SEED_H("random seed for drawn durations (overrides the scenario's)"),
    CLI_OPT_ROWS_OUTPUT,
    CLI_OPT_FORMAT,
    { .name = "timeout", .kind = ARGS_SECONDS, .min = 1, .max = CLI_TIME_MAX,
      .help = "watchdog: stop a run still going after SECS (default 600);\n"
              "it is reported with what each thread waits on, exit 4, and\n"
              "no output file is written" },
    CLI_OPT_NO_HEADER,
    CLI_OPT_REPRODUCIBLE_H("leave the host_s column empty"),
    CLI_OPT_MACHINES,
    CLI_OPT_QUIET,
    CLI_OPT_END,
};

const struct cli_command cli_cmd_exec = {
    .name = "exec",
    .usage = "SCENARIO [--set KEY=VALUE]... [--seed N] [-o OUT.csv] [--timeout SECS] [options]",
    .summary = "run a scenario on real threads and write one result row (backend \"real\")",
    .description =
        "One pthread per Ruby thread, a real GVL per Ractor (runtime.gvl_policy), a real\n"
        "timer thread, real system calls, a real VM lock and barrier; the run is pinned to\n"
        "machine.cores CPUs.  Timings vary from run to run: repeat runs and compare\n"
        "distributions.  The rest of the machine profile is the simulator's business.",
    .args = { exec_opts, "SCENARIO", 1, 1 },
    .details = "--engine, --trace and --max-time are simulator options (`gvlsim run`).",
    .exit_status = "0 ok, 2 usage, 3 invalid scenario or more cores than the host has,\n"
                   "4 run failed (deadlock, watchdog, unstable calibration), 5 I/O error,\n"
                   "6 no memory.",
    .exec = exec_cmd,
};

static int exec_cmd(const struct args *a)
{
    struct run_options o;
    int rc = run_options_get(&cli_cmd_exec, a, &o);
    if (rc != GV_EXIT_OK) return rc;

    double t0 = cli_host_now();
    struct scenario scn;
    memset(&scn, 0, sizeof scn);
    rc = run_options_load(&o, &scn);
    if (rc != GV_EXIT_OK) return rc;

    char err[16384] = "";
    struct exec_opts eo = { .timeout_s = o.timeout, .stat_path = NULL };
    struct exec_report rep;
    rc = exec_run(&scn, &eo, &rep, err, sizeof err);
    if (rc == GV_OK) {
        rep.m.host_seconds = cli_host_now() - t0;
        rc = csv_write_result(o.output, o.format, &rep.m, !o.no_header, o.reproducible, err,
                              sizeof err);
        if (rc == GV_OK && !o.quiet) {
            summary_write(stderr, &rep.m);
            exec_summary_write(stderr, &rep);
        }
    }
    if (rc != GV_OK) fprintf(stderr, "gvlsim exec: %s\n", err);
    exec_report_free(&rep);
    scenario_free(&scn);
    return gv_exit_code(rc);
}
