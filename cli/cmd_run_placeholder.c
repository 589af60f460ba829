/* cmd_run_placeholder.c - TEMPORARY stand-in for `gvlsim run` so the loader
 * branch links on its own.  Delete at merge: cli/cmd_run.c replaces it. */
#include <stdio.h>

#include "../common/err.h"
#include "cli.h"

static int run_exec(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "gvlsim run: not built yet\n");
    return GV_EXIT_UNSUP;
}

const struct cli_command cli_cmd_run = {
    .name = "run",
    .usage = "SCENARIO [OPTIONS]",
    .summary = "simulate a scenario (not built yet on this branch)",
    .help = "not built yet\n",
    .exec = run_exec,
};
