/* options.c - the options `run`, `exec` and `sweep` share (options.h). */
#include "options.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../input/load.h"
#include "../output/csv.h"
#include "../output/trace.h"

/* Is `name` in the command's table?  (run_options_get reads every option
 * of the three commands; each has only some.) */
static bool has_opt(const struct args *a, const char *name)
{
    return args_find(a->spec, name) != NULL;
}

static const char *opt_str(const struct args *a, const char *name, const char *def)
{
    return has_opt(a, name) ? args_str(a, name, def) : def;
}

static int64_t opt_num(const struct args *a, const char *name, int64_t def)
{
    return has_opt(a, name) ? args_num(a, name, def) : def;
}

static bool opt_flag(const struct args *a, const char *name)
{
    return has_opt(a, name) && args_has(a, name);
}

int run_options_get(const struct cli_command *cmd, const struct args *a, struct run_options *o)
{
    memset(o, 0, sizeof *o);
    o->scenario = a->noperands ? a->operands[0] : NULL;
    if (has_opt(a, "set")) {
        o->sets = args_strs(a, "set");
        o->nsets = args_count(a, "set");
    }
    if (has_opt(a, "machines")) {
        o->machines = args_strs(a, "machines");
        o->nmachines = args_count(a, "machines");
    }
    o->has_seed = opt_flag(a, "seed");
    o->seed = (uint64_t)opt_num(a, "seed", 0);
    o->output = opt_str(a, "output", "-");
    o->engine = opt_str(a, "engine", SIM_ENGINE_DEFAULT);
    o->trace = opt_str(a, "trace", NULL);
    o->trace_max_events = (long)opt_num(a, "trace-max-events", 2000000);
    o->no_header = opt_flag(a, "no-header");
    o->reproducible = opt_flag(a, "reproducible");
    o->quiet = opt_flag(a, "quiet");
    o->force = opt_flag(a, "force");
    o->max_time = opt_num(a, "max-time", 3600 * SIM_S);
    o->timeout = (double)opt_num(a, "timeout", 600 * SIM_S) / (double)SIM_S;

    char err[512];
    const char *path = strcmp(o->output, "-") == 0 ? NULL : o->output;
    if (rows_format_choose(opt_str(a, "format", NULL), path, &o->format, err, sizeof err) != 0)
        return cli_usage_error(cmd, "%s", err);
    if (o->no_header && o->format != ROWS_CSV)
        return cli_usage_error(cmd, "--no-header applies to CSV only (the output is %s)",
                               rows_format_names[o->format]);
    return GV_EXIT_OK;
}

int run_options_load(const struct run_options *o, struct scenario *scn)
{
    struct diag_list diags;
    diag_init(&diags);
    struct load_opts lo = { .sets = o->sets, .nsets = o->nsets, .machines_dirs = o->machines,
                            .nmachines_dirs = o->nmachines };
    int rc = scn_load(o->scenario, &lo, scn, &diags);
    for (size_t i = 0; i < diags.n; i++) fprintf(stderr, "%s\n", diags.msgs[i]);
    diag_free(&diags);
    if (rc != GV_OK) return gv_exit_code(rc);
    if (o->has_seed) scn->seed = o->seed;
    return GV_EXIT_OK;
}

int cli_check_spread(const char *v, char *err, size_t errlen)
{
    errno = 0;
    char *end;
    double x = strtod(v, &end);
    if (errno || end == v || *end || !(x > 0) || !isfinite(x) || x > 100000) {
        snprintf(err, errlen, "needs a percentage > 0, got \"%s\"", v);
        return -1;
    }
    return 0;
}

double cli_max_spread(const struct args *a)
{
    return args_has(a, "max-spread") ? strtod(args_str(a, "max-spread", "10"), NULL) / 100.0 : 0;
}

int run_options_trace_commit(const char *cmd, const struct run_options *o, struct trace *t,
                             const struct trace_stats *st, bool run_failed)
{
    char err[GV_ERRLEN];
    if (trace_commit(t, NULL, err, sizeof err) != GV_OK) {
        fprintf(stderr, "gvlsim %s: trace: %s\n", cmd, err);
        return GV_EIO;
    }
    if (st->truncated) {
        char at[48];
        csv_format_seconds(at, sizeof at, st->cut_at);
        fprintf(stderr,
                "gvlsim %s: trace %s capped at %" PRIu64 " events (--trace-max-events): it stops "
                "at t=%s s; %" PRIu64 " later events were dropped\n",
                cmd, o->trace, st->max_events, at, st->dropped);
    }
    if (run_failed) fprintf(stderr, "gvlsim %s: trace %s written up to the failure\n", cmd, o->trace);
    return GV_OK;
}
