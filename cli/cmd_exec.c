/* cmd_exec.c - `gvlsim exec`: run a scenario for real and write one CSV row
 * (the columns of `gvlsim run`): on pthreads (backend "pthread", exec/
 * exec_run.c) or as a Ruby program on a real Ruby (backend "ruby",
 * exec/ruby_run.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../exec/exec.h"
#include "../exec/ruby_run.h"
#include "../input/scenario.h"
#include "../output/csv.h"
#include "../output/summary.h"
#include "cli.h"
#include "options.h"

static int exec_cmd(int argc, char **argv);

const struct cli_command cli_cmd_exec = {
    .name = "exec",
    .usage = "SCENARIO [--backend pthread|ruby] [--set KEY=VALUE]... [-o OUT.csv] [--timeout SECS] [options]",
    .summary = "run a scenario for real (pthreads, or a real Ruby) and write one CSV row",
    .help =
        "--backend pthread (default): one pthread per Ruby thread, a real GVL per Ractor\n"
        "(runtime.gvl_policy), a real timer thread, real system calls, a real VM lock and\n"
        "barrier.  --backend ruby: the scenario as a Ruby program (--print-program shows\n"
        "it) run on a real CRuby, which measures itself; the CSV's policy, invariant_check\n"
        "and insn_counter say what that Ruby does, and a runtime setting it cannot honour\n"
        "is refused (exit 7).  Either way the run is pinned to machine.cores CPUs, and\n"
        "what the backend cannot measure is an empty CSV cell.  Timings vary from run to\n"
        "run: repeat runs and compare distributions.\n"
        "\n"
        "options:\n"
        "  --backend NAME    pthread (default) or ruby\n"
        "  --set KEY=VALUE   override a scenario value, e.g. --set machine.cores=1\n"
        "  --seed N          random seed for drawn durations (overrides the scenario's)\n"
        "  -o, --output FILE write the CSV to FILE (atomically; default: stdout)\n"
        "  --timeout SECS    watchdog: stop a run still going after SECS (default 600);\n"
        "                    it is reported with what each thread waits on, exit 4, and\n"
        "                    no output file is written\n"
        "  --max-spread PCT  largest accepted spread of the busy-loop calibration\n"
        "                    (interquartile range / median, default 10); a run that\n"
        "                    cannot calibrate within it fails with exit 4\n"
        "  --ruby PATH       ruby backend: the ruby to run (default: ruby on PATH)\n"
        "  --ruby-opt OPT    ruby backend: an option for ruby, e.g. --ruby-opt=--yjit\n"
        "                    (repeatable; --ruby-opt --yjit works too)\n"
        "  --print-program   ruby backend: print the Ruby program and exit (no run)\n"
        "  --no-header       leave out the CSV header line\n"
        "  --reproducible    leave the host_s column empty\n"
        "  --machines DIR    also look for machine profiles in DIR\n"
        "  -q, --quiet       no summary on stderr\n"
        "(--engine, --trace and --max-time are simulator options and are refused here.)\n"
        "\n"
        "exit status: 0 ok, 2 usage, 3 invalid scenario or more cores than the host has,\n"
        "4 run failed (deadlock, watchdog, unstable calibration, the Ruby program failed),\n"
        "5 I/O error, 6 no memory, 7 not supported (no ruby, or a setting or op this\n"
        "Ruby cannot honour).\n",
    .exec = exec_cmd,
};

static int exec_pthread(const struct run_options *o, const struct scenario *scn, double t0, char *err,
                        size_t errlen)
{
    struct exec_opts eo = { .timeout_s = o->timeout, .stat_path = NULL, .max_spread = o->max_spread };
    struct exec_report rep;
    int rc = exec_run(scn, &eo, &rep, err, errlen);
    if (rc == GV_OK) {
        rep.m.host_seconds = cli_host_now() - t0;
        rc = csv_write_file(o->output, &rep.m, !o->no_header, o->reproducible, err, errlen);
        if (rc == GV_OK && !o->quiet) {
            summary_write(stderr, &rep.m);
            exec_summary_write(stderr, &rep);
        }
    }
    exec_report_free(&rep);
    return rc;
}

static int exec_ruby(const struct run_options *o, const struct scenario *scn, double t0, char *err,
                     size_t errlen)
{
    struct rrun_opts ro = { .ruby = o->ruby, .ruby_opts = o->ruby_opts, .nruby_opts = o->nruby_opts,
                            .timeout_s = o->timeout, .max_spread = o->max_spread };
    if (o->print_program) {
        struct rgen_program p;
        int rc = rgen_check(scn, err, errlen);
        if (rc == GV_OK) rc = rrun_program(scn, &ro, &p, err, errlen);
        if (rc != GV_OK) return rc;
        fwrite(p.text, 1, p.len, stdout);
        rgen_program_free(&p);
        return fflush(stdout) == 0 ? GV_OK : gv_fail(err, errlen, GV_EIO, "stdout: write failed");
    }
    struct rrun_report rep;
    int rc = rrun_run(scn, &ro, &rep, err, errlen);
    if (rc == GV_OK) {
        rep.m.host_seconds = cli_host_now() - t0;
        rc = csv_write_file(o->output, &rep.m, !o->no_header, o->reproducible, err, errlen);
        if (rc == GV_OK && !o->quiet) {
            summary_write(stderr, &rep.m);
            rrun_summary_write(stderr, &rep);
        }
    }
    rrun_report_free(&rep);
    return rc;
}

static int exec_cmd(int argc, char **argv)
{
    struct run_options o;
    int rc = run_options_parse(&cli_cmd_exec, argc, argv, &o);
    if (rc != GV_EXIT_OK) return rc;
    bool ruby = !strcmp(o.backend, "ruby");
    const char *bad = NULL;
    if (strcmp(o.engine, "native") != 0 && strcmp(o.engine, "pthread") != 0) bad = "--engine is a simulator option";
    else if (o.trace) bad = "--trace is not available for real runs";
    else if (!ruby && (o.ruby || o.nruby_opts || o.print_program))
        bad = "--ruby, --ruby-opt and --print-program need --backend ruby";
    if (bad) {
        run_options_free(&o);
        return cli_usage_error(&cli_cmd_exec, "%s", bad);
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
    rc = ruby ? exec_ruby(&o, &scn, t0, err, sizeof err) : exec_pthread(&o, &scn, t0, err, sizeof err);
    if (rc != GV_OK) fprintf(stderr, "gvlsim exec: %s\n", err);
    scenario_free(&scn);
    run_options_free(&o);
    return gv_exit_code(rc);
}
