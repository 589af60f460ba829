/* cli.h - the command table (tmux style): one file per command, each
 * defining a `struct cli_command`, all listed in cli/cli.c.
 *
 * Adding a command:
 *   1. cli/cmd_NAME.c defines `const struct cli_command cli_cmd_NAME` with
 *      its option table (cli/args.h; shared options are macros in
 *      cli/options.h), its texts and an exec function that reads the
 *      parsed struct args;
 *   2. one `extern` line below and one line in cli_commands[] (cli/cli.c).
 * `-h`/`--help`, `gvlsim help NAME`, the man page (`gvlsim help --man`) and
 * the bash completion then follow from the table; tests/unit/test_args.c
 * checks that every command has help for each option and an exit-status
 * section, and that its usage line names only options it has. */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include <stdio.h>

#include "args.h"

#define GVLSIM_VERSION "0.1.0"

struct cli_command {
    const char *name;
    const char *usage;        /* one line: what follows "gvlsim NAME" */
    const char *summary;      /* one line: what it does */
    const char *description;  /* paragraphs before the options, or NULL */
    struct args_spec args;    /* options and operands */
    const char *details;      /* paragraphs after the options (formats, ...), or NULL */
    const char *exit_status;  /* "0 ok, 2 usage, ..." (after "exit status: ") */
    /* Runs the command; returns a process exit code (enum gv_exit). */
    int (*exec)(const struct args *a);
};

extern const struct cli_command cli_cmd_run;
extern const struct cli_command cli_cmd_check;
extern const struct cli_command cli_cmd_import;
extern const struct cli_command cli_cmd_exec;
extern const struct cli_command cli_cmd_sweep;
extern const struct cli_command cli_cmd_plot;
extern const struct cli_command cli_cmd_compare;
extern const struct cli_command cli_cmd_merge;
extern const struct cli_command cli_cmd_validate;
extern const struct cli_command cli_cmd_fit;
extern const struct cli_command cli_cmd_calibrate;
extern const struct cli_command cli_cmd_help;

/* Every command, in the order `gvlsim help` lists them; NULL-terminated. */
extern const struct cli_command *const cli_commands[];
const struct cli_command *cli_find_command(const char *name);

/* Parse argv (argv[0] = the command's name) with the command's table and
 * run it: -h/--help prints the help, a usage error is reported (exit 2). */
int cli_dispatch(const struct cli_command *cmd, int argc, char **argv);

/* The help of a command (as -h prints it) or of gvlsim itself (cmd NULL). */
void cli_print_help(FILE *f, const struct cli_command *cmd);

/* Print "gvlsim NAME: <msg>" and a usage hint for `cmd` to stderr; returns GV_EXIT_USAGE. */
int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Report an unknown command name (with a suggestion) as a usage error of
 * `from` (NULL: of gvlsim itself); returns GV_EXIT_USAGE. */
int cli_unknown_command(const struct cli_command *from, const char *name);

/* "gvlsim NAME ARGS..." as given (arguments with spaces or quotes single-
 * quoted), for the record a command writes of how it was run; NULL if out
 * of memory. */
char *cli_command_line(const struct args *a);

/* Monotonic host seconds, for the host_s column and progress lines. */
double cli_host_now(void);

/* The CPUs this process may run on (its affinity mask: taskset, a Slurm
 * allocation), at most 256: the default number of workers. */
int cli_cpus(void);

#endif
