/* main.c - gvlsim entry point: dispatch to one command of the table. */
#include <stdio.h>
#include <string.h>

#include "../common/afile.h"
#include "../common/err.h"
#include "cli.h"

int main(int argc, char **argv)
{
    afile_catch_signals();  /* an interrupted run leaves no temporary output file */
    if (argc < 2) {
        cli_print_help(stderr, NULL);
        return GV_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--version") || !strcmp(name, "-V") || !strcmp(name, "version")) {
        printf("gvlsim %s\n", GVLSIM_VERSION);
        return GV_EXIT_OK;
    }
    if (!strcmp(name, "--help") || !strcmp(name, "-h")) name = "help";
    const struct cli_command *c = cli_find_command(name);
    if (!c) return cli_unknown_command(NULL, name);
    return cli_dispatch(c, argc - 1, argv + 1);
}
