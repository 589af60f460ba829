/* cli.h - the command table (tmux style): one file per command, each
 * defining a `struct cli_command`, all listed in cli/main.c. */
#ifndef CLI_CLI_H
#define CLI_CLI_H

struct cli_command {
    const char *name;
    const char *usage;    /* one line: arguments after the command name */
    const char *summary;  /* one line: what it does */
    const char *help;     /* full option list, printed by `gvlsim help NAME` */
    /* argv[0] is the command name; returns a process exit code (enum gv_exit). */
    int (*exec)(int argc, char **argv);
};

extern const struct cli_command cli_cmd_run;
extern const struct cli_command cli_cmd_check;
extern const struct cli_command cli_cmd_exec;
extern const struct cli_command cli_cmd_sweep;
extern const struct cli_command cli_cmd_plot;
extern const struct cli_command cli_cmd_calibrate;

/* Print "gvlsim: <msg>" and a usage hint for `cmd` to stderr; returns GV_EXIT_USAGE. */
int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "gvlsim ARGS..." (arguments with spaces or quotes single-quoted), for
 * the record a command writes of how it was run; NULL if out of memory. */
char *cli_command_line(int argc, char **argv);

/* Monotonic host seconds, for the host_s column and progress lines. */
double cli_host_now(void);

#endif
