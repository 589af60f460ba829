/* cmd_exec.c - `gvlsim exec`: run a scenario for real and write one result
 * row (the columns of `gvlsim run`): on pthreads (backend "pthread",
 * exec/exec_run.c) or as a Ruby program on a real Ruby (backend "ruby",
 * exec/ruby_run.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../exec/exec.h"
#include "../exec/ruby_run.h"
#include "../input/scenario.h"
#include "../common/afile.h"
#include "../output/csv.h"
#include "../output/summary.h"
#include "../output/trace.h"
#include "../sim/machine.h"
#include "cli.h"
#include "options.h"

static int exec_cmd(const struct args *a);

static const char *const backend_names[] = { "pthread", "ruby", NULL };

static const struct args_opt exec_opts[] = {
    { .name = "backend", .kind = ARGS_ENUM, .values = backend_names,
      .help = "pthread (default): the pthread executor; ruby: the scenario as\n"
              "a Ruby program on a real Ruby" },
    CLI_OPT_SET_H("override a scenario value, e.g. --set machine.cores=1;\n"
                  "applied in order (give --set machine=PROFILE before the\n"
                  "machine.* keys: after them it is an error)"),
    CLI_OPT_SEED_H("random seed for drawn durations (overrides the scenario's)"),
    CLI_OPT_ROWS_OUTPUT,
    CLI_OPT_FORMAT,
    CLI_OPT_TIMEOUT,
    CLI_OPT_MAX_SPREAD,
    CLI_OPT_RUBY,
    CLI_OPT_RUBY_OPT,
    { .name = "print-program", .kind = ARGS_FLAG,
      .help = "--backend ruby: print the Ruby program and exit (no run)" },
    CLI_OPT_NO_HEADER,
    CLI_OPT_REPRODUCIBLE_H("leave the host_s column empty"),
    CLI_OPT_MACHINES,
    { .name = "trace", .kind = ARGS_PATH,
      .help = "--backend pthread: also write the threads' states over the\n"
              "run (Chrome trace-event JSON, as `gvlsim run --trace`;\n"
              "gzip-compressed if FILE ends in .gz), atomically; written\n"
              "for a failed run too, up to the failure" },
    { .name = "trace-max-events", .kind = ARGS_INT, .min = 1, .max = 1000000000,
      .help = "cap on recorded state changes (default 2000000, 16 bytes\n"
              "each, allocated before the run): the trace is cut at the\n"
              "time the cap is reached, which is reported" },
    CLI_OPT_QUIET,
    CLI_OPT_END,
};

const struct cli_command cli_cmd_exec = {
    .name = "exec",
    .usage = "SCENARIO [--backend pthread|ruby] [--set KEY=VALUE]... [-o OUT.csv] [--timeout SECS] [options]",
    .summary = "run a scenario for real (pthreads, or a real Ruby) and write one result row",
    .description =
        "--backend pthread (default): one pthread per Ruby thread, a real GVL per Ractor\n"
        "(runtime.gvl_policy), a real timer thread, real system calls, a real VM lock and\n"
        "barrier.  --backend ruby: the scenario as a Ruby program (--print-program shows\n"
        "it) on a real CRuby, which measures itself; the row's policy, invariant_check and\n"
        "insn_counter say what that Ruby does, and a runtime setting it cannot honour is\n"
        "refused (exit 7).  Either way the run is pinned to machine.cores CPUs, and what\n"
        "the backend cannot measure is an empty cell.  Timings vary from run to run:\n"
        "repeat runs and compare distributions.  The rest of the machine profile is the\n"
        "simulator's business.",
    .args = { exec_opts, "SCENARIO", 1, 1 },
    .details = "--trace draws what each thread did when (running, wants_gvl, blocking, parked,\n"
               "...) from the executor's own record of its state changes, the simulator's\n"
               "thread tracks for a real run (no cores, timer thread or ready queues);\n"
               "docs/output.md.  --engine, --max-time and --force are simulator options\n"
               "(`gvlsim run`).",
    .exit_status = "0 ok, 2 usage, 3 invalid scenario or more cores than the host has,\n"
                   "4 run failed (deadlock, watchdog, unstable calibration, the Ruby program\n"
                   "failed), 5 I/O error, 6 no memory, 7 not supported (no ruby, or a setting\n"
                   "or op this Ruby cannot honour).",
    .exec = exec_cmd,
};

/* The row of a run that succeeded, and the summary unless --quiet (the
 * backend's own lines are the caller's). */
static int write_result(const struct run_options *o, struct run_metrics *m, double t0, char *err,
                        size_t errlen)
{
    m->host_seconds = cli_host_now() - t0;
    int rc = csv_write_result(o->output, o->format, m, !o->no_header, o->reproducible, err, errlen);
    if (rc == GV_OK && !o->quiet) summary_write(stderr, m);
    return rc;
}

/* The run's recorded state changes through the simulator's trace writer,
 * written out to its temporary name (*out: to commit or abort), its
 * stats in *st (cut by the record's cap or the writer's).
 * GV_OK, GV_EIO or GV_ENOMEM (message in err). */
static int trace_prepare_exec(const struct run_options *o, const struct scenario *scn, const struct exec_trace *x,
                              struct trace **out, struct trace_stats *st, char *err, size_t errlen)
{
    *out = NULL;
    struct run_layout lay = { .scenario = scn->name, .policy = scn_policy_name(scn->runtime.gvl_policy),
                              .seed = scn->seed, .ncores = scn->machine.cores, .nthreads = x->nthreads,
                              .thread_names = (const char *const *)x->thread_names, .nractors = x->nractors,
                              .ractor_names = (const char *const *)x->ractor_names, .backend = "pthread" };
    enum thread_state *cur = calloc((size_t)x->nthreads + 1, sizeof *cur);
    if (!cur) return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", o->trace);
    struct trace *t;
    int rc = trace_open(&t, o->trace, (uint64_t)o->trace_max_events, &lay, err, errlen);
    if (rc != GV_OK) {
        free(cur);
        return rc;
    }
    struct run_observer obs;
    struct mach_observer mobs;
    trace_observe(t, &obs, &mobs, NULL);
    for (int i = 0; i < x->nthreads; i++) cur[i] = TS_COUNT;
    /* the run's clock: ps from the start gate (a thread queued on its GVL
     * before the gate starts at 0) */
#define EXEC_PS(ns) ((ns) > x->start_ns ? (sim_time)((ns) - x->start_ns) * SIM_NS : 0)
    for (size_t k = 0; k < x->nstates; k++) {
        const struct exec_tlog_entry *e = &x->states[k];
        if (e->t_ns > x->end_ns) break;  /* a failed run's threads leaving after it ended */
        if ((int)e->thread >= x->nthreads || cur[e->thread] == (enum thread_state)e->to) continue;
        obs.thread_state(obs.ctx, (int)e->thread, cur[e->thread], (enum thread_state)e->to, EXEC_PS(e->t_ns));
        trace_thread_cpu(t, (int)e->thread, e->cpu == EXEC_TLOG_NO_CPU ? -1 : (int)e->cpu);
        cur[e->thread] = (enum thread_state)e->to;
    }
    free(cur);
    /* the record cut by its cap ends there, as a capped trace does */
    if (x->cut_ns < x->end_ns) trace_cut(t, EXEC_PS(x->cut_ns), x->dropped);
    trace_end(t, EXEC_PS(x->end_ns));
#undef EXEC_PS
    rc = trace_prepare(t, st, err, errlen);
    if (rc != GV_OK) {
        trace_abort(t);
        return rc;
    }
    *out = t;
    return GV_OK;
}

static int exec_pthread(const struct run_options *o, double max_spread, const struct scenario *scn,
                        double t0, char *err, size_t errlen)
{
    struct exec_opts eo = { .timeout_s = o->timeout, .stat_path = NULL, .max_spread = max_spread,
                            .trace_max_events = o->trace ? (uint64_t)o->trace_max_events : 0 };
    if (o->trace) {
        /* a trace that cannot be created fails before the run, not after
         * it (it is written once the run has ended) */
        struct afile probe;
        int prc = afile_open(&probe, o->trace, err, errlen);
        if (prc != GV_OK) return prc;
        afile_abort(&probe);
    }
    struct exec_report rep;
    int rc = exec_run(scn, &eo, &rep, err, errlen);
    /* the trace is prepared before the row is written and put in place
     * after it: when either cannot be written, neither is (a failed run's
     * trace alone) */
    struct trace *t = NULL;
    struct trace_stats st;
    if (o->trace && rep.trace.thread_names && (rc == GV_OK || rc == GV_ERUN)) {
        char terr[GV_ERRLEN];
        int trc = trace_prepare_exec(o, scn, &rep.trace, &t, &st, terr, sizeof terr);
        if (trc != GV_OK) {
            fprintf(stderr, "gvlsim exec: trace: %s\n", terr);
            if (rc == GV_OK) {
                rc = trc;
                snprintf(err, errlen, "the trace was not written (see above), nor the row");
            }
        }
    }
    bool ran = rc == GV_OK;
    if (ran) rc = write_result(o, &rep.m, t0, err, errlen);
    if (t) {
        if (rc == GV_OK || (!ran && rc == GV_ERUN)) {
            int trc = run_options_trace_commit("exec", o, t, &st, !ran);
            if (rc == GV_OK) rc = trc;
            if (trc != GV_OK && ran) snprintf(err, errlen, "the row was written, the trace not (see above)");
        } else {
            trace_abort(t);
        }
    }
    if (rc == GV_OK && !o->quiet) exec_summary_write(stderr, &rep);
    exec_report_free(&rep);
    return rc;
}

static int exec_ruby(const struct args *a, const struct run_options *o, double max_spread,
                     const struct scenario *scn, double t0, char *err, size_t errlen)
{
    struct rrun_opts ro = { .ruby = args_str(a, "ruby", NULL), .ruby_opts = args_strs(a, "ruby-opt"),
                            .nruby_opts = args_count(a, "ruby-opt"), .timeout_s = o->timeout,
                            .max_spread = max_spread };
    if (args_has(a, "print-program")) {
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
    if (rc == GV_OK) rc = write_result(o, &rep.m, t0, err, errlen);
    if (rc == GV_OK && !o->quiet) rrun_summary_write(stderr, &rep);
    rrun_report_free(&rep);
    return rc;
}

static int exec_cmd(const struct args *a)
{
    struct run_options o;
    int rc = run_options_get(&cli_cmd_exec, a, &o);
    if (rc != GV_EXIT_OK) return rc;
    bool ruby = args_num(a, "backend", 0) == 1;
    if (!ruby && (args_has(a, "ruby") || args_has(a, "ruby-opt") || args_has(a, "print-program")))
        return cli_usage_error(&cli_cmd_exec, "--ruby, --ruby-opt and --print-program need --backend ruby");
    if (ruby && (args_has(a, "trace") || args_has(a, "trace-max-events")))
        return cli_usage_error(&cli_cmd_exec, "--trace and --trace-max-events are for --backend pthread (a Ruby "
                                              "records no state changes of its threads here)");
    if (args_has(a, "trace-max-events") && !args_has(a, "trace"))
        return cli_usage_error(&cli_cmd_exec, "--trace-max-events is for --trace");
    double max_spread = cli_max_spread(a);

    double t0 = cli_host_now();
    struct scenario scn;
    memset(&scn, 0, sizeof scn);
    rc = run_options_load(&o, &scn);
    if (rc != GV_EXIT_OK) return rc;

    char err[16384] = "";
    rc = ruby ? exec_ruby(a, &o, max_spread, &scn, t0, err, sizeof err)
              : exec_pthread(&o, max_spread, &scn, t0, err, sizeof err);
    if (rc != GV_OK) fprintf(stderr, "gvlsim exec: %s\n", err);
    scenario_free(&scn);
    return gv_exit_code(rc);
}
