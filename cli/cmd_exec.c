/* cmd_exec.c - `gvlsim exec`: run a scenario on real threads, write one
 * CSV row (same columns as `gvlsim run`, backend "real"). */
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

static int exec_cmd(int argc, char **argv);

const struct cli_command cli_cmd_exec = {
    .name = "exec",
    .usage = "SCENARIO [--set KEY=VALUE]... [--seed N] [-o OUT.csv] [--timeout SECS] [options]",
    .summary = "run a scenario on real threads and write one CSV row (backend \"real\")",
    .help =
        "One pthread per Ruby thread, a real GVL per Ractor (runtime.gvl_policy), a real\n"
        "timer thread, real system calls, a real VM lock and barrier; the run is pinned to\n"
        "machine.cores CPUs.  Timings vary from run to run: repeat runs and compare\n"
        "distributions.  The rest of the machine profile is the simulator's business.\n"
        "\n"
        "options:\n"
        "  --set KEY=VALUE   override a scenario value, e.g. --set machine.cores=1\n"
        "  --seed N          random seed for drawn durations (overrides the scenario's)\n"
        "  -o, --output FILE write the CSV to FILE (atomically; default: stdout)\n"
        "  --timeout SECS    watchdog: stop a run still going after SECS (default 600);\n"
        "                    it is reported with what each thread waits on, exit 4, and\n"
        "                    no output file is written\n"
        "  --no-header       leave out the CSV header line\n"
        "  --reproducible    leave the host_s column empty\n"
        "  --machines DIR    also look for machine profiles in DIR\n"
        "  -q, --quiet       no summary on stderr\n"
        "(--engine, --trace, --max-time and --force are simulator options and are refused here.)\n"
        "\n"
        "exit status: 0 ok, 2 usage, 3 invalid scenario or more cores than the host has,\n"
        "4 run failed (deadlock, watchdog, unstable calibration), 5 I/O error, 6 no memory.\n",
    .exec = exec_cmd,
};

static int exec_cmd(int argc, char **argv)
{
    struct run_options o;
    int rc = run_options_parse(&cli_cmd_exec, argc, argv, &o);
    if (rc != GV_EXIT_OK) return rc;
    if (strcmp(o.engine, "native") != 0 && strcmp(o.engine, "pthread") != 0) {
        run_options_free(&o);
        return cli_usage_error(&cli_cmd_exec, "--engine is a simulator option (exec always uses pthreads)");
    }
    if (o.trace) {
        run_options_free(&o);
        return cli_usage_error(&cli_cmd_exec, "--trace is not available for real runs");
    }
    if (o.force) {
        run_options_free(&o);
        return cli_usage_error(&cli_cmd_exec, "--force is a simulator option (a real run is bounded by --timeout)");
    }

    double t0 = cli_host_now();
    struct scenario scn;
    memset(&scn, 0, sizeof scn);
    rc = run_options_load(&o, &scn);
    if (rc != GV_EXIT_OK) {
        run_options_free(&o);
        return rc;
    }

    char err[16384] = "";
    struct exec_opts eo = { .timeout_s = o.timeout, .stat_path = NULL };
    struct exec_report rep;
    rc = exec_run(&scn, &eo, &rep, err, sizeof err);
    if (rc == GV_OK) {
        rep.m.host_seconds = cli_host_now() - t0;
        rc = csv_write_file(o.output, &rep.m, !o.no_header, o.reproducible, err, sizeof err);
        if (rc == GV_OK && !o.quiet) {
            summary_write(stderr, &rep.m);
            exec_summary_write(stderr, &rep);
        }
    }
    if (rc != GV_OK) fprintf(stderr, "gvlsim exec: %s\n", err);
    exec_report_free(&rep);
    scenario_free(&scn);
    run_options_free(&o);
    return gv_exit_code(rc);
}
