/* options.c - shared option parsing for `run` and `exec`. */
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../input/load.h"

static int want_arg(const struct cli_command *cmd, int argc, char **argv, int *i, const char **val)
{
    const char *a = argv[*i];
    const char *eq = strchr(a, '=');
    if (a[0] == '-' && a[1] == '-' && eq) {  /* --opt=value */
        *val = eq + 1;
        return GV_EXIT_OK;
    }
    if (*i + 1 >= argc) return cli_usage_error(cmd, "option %s needs a value", a);
    *val = argv[++*i];
    return GV_EXIT_OK;
}

static int opt_is(const char *a, const char *name)
{
    size_t n = strlen(name);
    return strncmp(a, name, n) == 0 && (a[n] == 0 || (a[n] == '=' && name[1] == '-'));
}

static int parse_u64(const char *s, uint64_t *out)
{
    if (!*s || *s == '-') return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

static int parse_pos_double(const char *s, double *out)
{
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || *end || !(v > 0) || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int run_options_parse(const struct cli_command *cmd, int argc, char **argv, struct run_options *o)
{
    memset(o, 0, sizeof *o);
    o->output = "-";
    o->engine = "native";
    o->max_time = 3600 * SIM_S;
    o->trace_max_events = 2000000;
    o->timeout = 600;
    o->sets = calloc((size_t)argc, sizeof *o->sets);
    if (!o->sets) return GV_EXIT_NOMEM;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int rc = GV_EXIT_OK;
        if (opt_is(a, "--set")) {
            if ((rc = want_arg(cmd, argc, argv, &i, &v))) goto bad;
            if (!strchr(v, '=')) { rc = cli_usage_error(cmd, "--set needs KEY=VALUE, got \"%s\"", v); goto bad; }
            o->sets[o->nsets++] = (char *)v;
        } else if (opt_is(a, "--seed")) {
            if ((rc = want_arg(cmd, argc, argv, &i, &v))) goto bad;
            if (parse_u64(v, &o->seed) || o->seed > (UINT64_C(1) << 53)) {
                rc = cli_usage_error(cmd, "--seed needs an integer 0..2^53, got \"%s\"", v);
                goto bad;
            }
            o->has_seed = true;
        } else if (opt_is(a, "-o") || opt_is(a, "--output")) {
            if ((rc = want_arg(cmd, argc, argv, &i, &v))) goto bad;
            o->output = v;
        } else if (opt_is(a, "--engine")) {
            if ((rc = want_arg(cmd, argc, argv, &i, &v))) goto bad;
            o->engine = v;
        } else if (opt_is(a, "--machines")) {
            if ((rc = want_arg(cmd, argc, argv, &i, &v))) goto bad;
            o->machines_dir = v;
        } else if (opt_is(a, "--trace")) {
            if ((rc = want_arg(cmd, argc, argv, &i, &v))) goto bad;
            o->trace = v;
        } else if (opt_is(a, "--trace-max-events")) {
            if ((rc = want_arg(cmd, argc, argv, &i, &v))) goto bad;
            uint64_t n;
            if (parse_u64(v, &n) || n < 1 || n > 1000000000) {
                rc = cli_usage_error(cmd, "--trace-max-events needs an integer 1..1e9, got \"%s\"", v);
                goto bad;
            }
            o->trace_max_events = (long)n;
        } else if (opt_is(a, "--max-time")) {
            if ((rc = want_arg(cmd, argc, argv, &i, &v))) goto bad;
            double s;
            if (parse_pos_double(v, &s) || s > 9.0e6) {
                rc = cli_usage_error(cmd, "--max-time needs seconds > 0 (at most 9e6), got \"%s\"", v);
                goto bad;
            }
            o->max_time = (sim_time)llround(s * (double)SIM_S);
        } else if (opt_is(a, "--timeout")) {
            if ((rc = want_arg(cmd, argc, argv, &i, &v))) goto bad;
            if (parse_pos_double(v, &o->timeout)) {
                rc = cli_usage_error(cmd, "--timeout needs seconds > 0, got \"%s\"", v);
                goto bad;
            }
        } else if (!strcmp(a, "--no-header")) {
            o->no_header = true;
        } else if (!strcmp(a, "--reproducible")) {
            o->reproducible = true;
        } else if (!strcmp(a, "--force")) {
            o->force = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (a[0] == '-' && a[1] != 0) {
            rc = cli_usage_error(cmd, "unknown option \"%s\"", a);
            goto bad;
        } else if (!o->scenario) {
            o->scenario = a;
        } else {
            rc = cli_usage_error(cmd, "only one scenario per run (got \"%s\" and \"%s\")", o->scenario, a);
            goto bad;
        }
        continue;
    bad:
        run_options_free(o);
        return rc;
    }
    if (!o->scenario) {
        run_options_free(o);
        return cli_usage_error(cmd, "missing SCENARIO");
    }
    return GV_EXIT_OK;
}

void run_options_free(struct run_options *o)
{
    free(o->sets);
    o->sets = NULL;
}

int run_options_load(const struct run_options *o, struct scenario *scn)
{
    struct diag_list diags;
    diag_init(&diags);
    struct load_opts lo = { .sets = (const char *const *)o->sets, .nsets = o->nsets,
                            .machines_dir = o->machines_dir };
    int rc = scn_load(o->scenario, &lo, scn, &diags);
    for (size_t i = 0; i < diags.n; i++) fprintf(stderr, "%s\n", diags.msgs[i]);
    diag_free(&diags);
    if (rc != GV_OK) return gv_exit_code(rc);
    if (o->has_seed) scn->seed = o->seed;
    return GV_EXIT_OK;
}
