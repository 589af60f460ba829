/* cmd_check.c - `gvlsim check`: validate scenario files without running them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/diag.h"
#include "../common/err.h"
#include "../input/load.h"
#include "cli.h"
#include "options.h"

static int check_exec(const struct args *a);

static const struct args_opt check_opts[] = {
    /* A plain string, not KEY=VALUE: the loader reports a --set without '='
     * with its position ("--set[N]:1:1"), like every other --set problem. */
    { .name = "set", .kind = ARGS_STRING, .flags = ARGS_REPEAT | ARGS_KEYPATH,
      .metavar = "KEY.PATH=VALUE",
      .help = "override a value before validation, e.g.\n"
              "--set runtime.gvl_policy=hot_steal --set machine.cores=4\n"
              "(applied in order to every file)" },
    CLI_OPT_MACHINES,
    CLI_OPT_END,
};

const struct cli_command cli_cmd_check = {
    .name = "check",
    .usage = "SCENARIO... [--set KEY.PATH=VALUE]... [--machines DIR]",
    .summary = "validate scenario files without running them",
    .args = { check_opts, "SCENARIO", 1, -1 },
    .details =
        "Every problem is printed to stderr, one per line, as\n"
        "  FILE:LINE:COL: /json/pointer: message\n"
        "and each valid file as\n"
        "  FILE: ok (R ractors, T threads, machine NAME, C cores, policy P)\n"
        "to stdout.  The scenario format is documented in scenarios/README.md.",
    .exit_status =
        "0 every file valid, 3 some file invalid, 5 some file (or its\n"
        "machine profile) could not be read, 6 out of memory, 2 usage error;\n"
        "when several apply, the highest wins.",
    .exec = check_exec,
};

static int worse_exit(int a, int b) { return a > b ? a : b; }

static const char *plural(long n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static int check_one(const char *file, const struct load_opts *opts)
{
    struct diag_list d;
    struct scenario s;
    diag_init(&d);
    int rc = scn_load(file, opts, &s, &d);
    for (size_t i = 0; i < d.n; i++) fprintf(stderr, "%s\n", d.msgs[i]);
    if (rc == GV_OK) {
        printf("%s: ok (%d %s, %d %s, machine %s, %d %s, policy %s)\n", file, s.total_ractors,
               plural(s.total_ractors, "ractor", "ractors"), s.total_threads,
               plural(s.total_threads, "thread", "threads"), s.machine.name, s.machine.cores,
               plural(s.machine.cores, "core", "cores"), scn_policy_name(s.runtime.gvl_policy));
        scenario_free(&s);
    } else if (d.n == 0) {
        fprintf(stderr, "%s: %s\n", file, gv_strerror(rc));
    }
    diag_free(&d);
    return gv_exit_code(rc);
}

static int check_exec(const struct args *a)
{
    struct load_opts opts = {
        .sets = args_strs(a, "set"), .nsets = args_count(a, "set"),
        .machines_dirs = args_strs(a, "machines"), .nmachines_dirs = args_count(a, "machines"),
    };
    int code = GV_EXIT_OK;
    for (int i = 0; i < a->noperands; i++)
        code = worse_exit(code, check_one(a->operands[i], &opts));
    return code;
}
