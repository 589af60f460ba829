/* cmd_check.c - `gvlsim check`: validate scenario files without running them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/diag.h"
#include "../common/err.h"
#include "../input/load.h"
#include "cli.h"

static int check_exec(int argc, char **argv);

const struct cli_command cli_cmd_check = {
    .name = "check",
    .usage = "SCENARIO... [--set KEY.PATH=VALUE]... [--machines DIR]",
    .summary = "validate scenario files without running them",
    .help =
        "options:\n"
        "  --set KEY.PATH=VALUE  override a value before validation, e.g.\n"
        "                        --set runtime.gvl_policy=hot_steal --set machine.cores=4\n"
        "                        (repeatable; applied in order to every file)\n"
        "  --machines DIR        look for machine profiles (NAME.json) in DIR first\n"
        "                        (repeatable: searched in the order given)\n"
        "  -h, --help            this help\n"
        "\n"
        "Every problem is printed to stderr, one per line, as\n"
        "  FILE:LINE:COL: /json/pointer: message\n"
        "and each valid file as\n"
        "  FILE: ok (R ractors, T threads, machine NAME, C cores, policy P)\n"
        "to stdout.  The scenario format is documented in scenarios/README.md.\n"
        "\n"
        "exit status: 0 every file valid, 3 some file invalid, 5 some file (or its\n"
        "machine profile) could not be read, 6 out of memory, 2 usage error;\n"
        "when several apply, the highest wins.\n",
    .exec = check_exec,
};

static int worse_exit(int a, int b) { return a > b ? a : b; }

static int check_one(const char *file, const struct load_opts *opts)
{
    struct diag_list d;
    struct scenario s;
    diag_init(&d);
    int rc = scn_load(file, opts, &s, &d);
    for (size_t i = 0; i < d.n; i++) fprintf(stderr, "%s\n", d.msgs[i]);
    if (rc == GV_OK) {
        printf("%s: ok (%d ractors, %d threads, machine %s, %d cores, policy %s)\n", file,
               s.total_ractors, s.total_threads, s.machine.name, s.machine.cores,
               scn_policy_name(s.runtime.gvl_policy));
        scenario_free(&s);
    } else if (d.n == 0) {
        fprintf(stderr, "%s: %s\n", file, gv_strerror(rc));
    }
    diag_free(&d);
    return gv_exit_code(rc);
}

static int check_exec(int argc, char **argv)
{
    const char **sets = calloc((size_t)argc, sizeof *sets);
    const char **files = calloc((size_t)argc, sizeof *files);
    const char **dirs = calloc((size_t)argc, sizeof *dirs);
    struct load_opts opts = { .machines_dirs = dirs };
    int nfiles = 0, code = GV_EXIT_OK, done_opts = 0;
    if (!sets || !files || !dirs) {
        fprintf(stderr, "gvlsim check: out of memory\n");
        code = GV_EXIT_NOMEM;
        goto out;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (done_opts || a[0] != '-' || !a[1]) {
            files[nfiles++] = a;
        } else if (!strcmp(a, "--")) {
            done_opts = 1;
        } else if (!strcmp(a, "--set") || !strcmp(a, "--machines")) {
            if (i + 1 >= argc) {
                code = cli_usage_error(&cli_cmd_check, "%s needs a value", a);
                goto out;
            }
            if (a[2] == 's') sets[opts.nsets++] = argv[++i];
            else dirs[opts.nmachines_dirs++] = argv[++i];
        } else if (!strncmp(a, "--set=", 6)) {
            sets[opts.nsets++] = a + 6;
        } else if (!strncmp(a, "--machines=", 11)) {
            dirs[opts.nmachines_dirs++] = a + 11;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("usage: gvlsim check %s\n%s\n\n%s", cli_cmd_check.usage, cli_cmd_check.summary,
                   cli_cmd_check.help);
            goto out;
        } else {
            code = cli_usage_error(&cli_cmd_check, "unknown option \"%s\"", a);
            goto out;
        }
    }
    if (nfiles == 0) {
        code = cli_usage_error(&cli_cmd_check, "no scenario file given");
        goto out;
    }
    opts.sets = sets;
    for (int i = 0; i < nfiles; i++) code = worse_exit(code, check_one(files[i], &opts));
out:
    free(sets);
    free(files);
    free(dirs);
    return code;
}
