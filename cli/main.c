/* main.c - gvlsim entry point: dispatch to one command of the table. */
#include <stdio.h>
#include <string.h>

#include "../common/afile.h"
#include "../common/err.h"
#include "cli.h"

#define GVLSIM_VERSION "0.1.0"

static const struct cli_command *const commands[] = {
    &cli_cmd_run,
    &cli_cmd_exec,
    &cli_cmd_check,
    &cli_cmd_sweep,  /* output tooling: sweep and plot */
    &cli_cmd_plot,
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i]->name, name) == 0) return commands[i];
    return NULL;
}

static void print_usage(FILE *f)
{
    fprintf(f, "usage: gvlsim COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-7s %s\n          %s\n", commands[i]->name, commands[i]->usage,
                commands[i]->summary);
    fprintf(f, "\n`gvlsim help COMMAND` lists a command's options.\n"
               "exit codes: 0 ok, 1 regression found (compare), 2 usage, 3 invalid scenario,\n"
               "            4 run failed (deadlock, time limit, watchdog), 5 I/O error,\n"
               "            6 out of memory, 7 not supported by this build\n");
}

int main(int argc, char **argv)
{
    afile_catch_signals();  /* an interrupted run leaves no temporary output file */
    if (argc < 2) {
        print_usage(stderr);
        return GV_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--version") || !strcmp(name, "version")) {
        printf("gvlsim %s\n", GVLSIM_VERSION);
        return GV_EXIT_OK;
    }
    if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
        print_usage(stdout);
        return GV_EXIT_OK;
    }
    if (!strcmp(name, "help")) {
        if (argc < 3) { print_usage(stdout); return GV_EXIT_OK; }
        const struct cli_command *c = find_command(argv[2]);
        if (!c) { fprintf(stderr, "gvlsim: unknown command \"%s\"\n", argv[2]); return GV_EXIT_USAGE; }
        printf("usage: gvlsim %s %s\n%s\n\n%s", c->name, c->usage, c->summary, c->help);
        return GV_EXIT_OK;
    }
    const struct cli_command *c = find_command(name);
    if (!c) {
        fprintf(stderr, "gvlsim: unknown command \"%s\"\n", name);
        print_usage(stderr);
        return GV_EXIT_USAGE;
    }
    return c->exec(argc - 1, argv + 1);
}
