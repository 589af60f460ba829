/* cli.c - what every command shares: the command table, parsing a
 * command's arguments, usage errors (kept out of main.c so that unit
 * tests, which link every cli/ object but main.o, can call them). */
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/diag.h"
#include "../common/err.h"
#include "../input/schema.h"
#include "cli.h"

const struct cli_command *const cli_commands[] = {
    &cli_cmd_run,
    &cli_cmd_exec,
    &cli_cmd_check,
    &cli_cmd_import,
    &cli_cmd_sweep,  /* output tooling: sweep and plot */
    &cli_cmd_plot,
    &cli_cmd_merge,
    &cli_cmd_compare,
    &cli_cmd_fit,
    &cli_cmd_calibrate,
    &cli_cmd_validate,
    &cli_cmd_help,
    NULL,
};

const struct cli_command *cli_find_command(const char *name)
{
    for (size_t i = 0; cli_commands[i]; i++)
        if (strcmp(cli_commands[i]->name, name) == 0) return cli_commands[i];
    return NULL;
}

int cli_unknown_command(const struct cli_command *from, const char *name)
{
    const char *names[64];
    size_t n = 0;
    for (; cli_commands[n] && n < 64; n++) names[n] = cli_commands[n]->name;
    const char *s = sch_suggest(name, names, n, sizeof *names);
    if (s) return cli_usage_error(from, "unknown command \"%s\" (did you mean \"%s\"?)", name, s);
    return cli_usage_error(from, "unknown command \"%s\"", name);
}

int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    char raw[2048], msg[2048];
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    diag_escape_to(msg, sizeof msg, raw);  /* an argument may hold anything */
    fprintf(stderr, "gvlsim%s%s: %s", cmd ? " " : "", cmd ? cmd->name : "", msg);
    if (cmd)
        fprintf(stderr, "\nusage: gvlsim %s %s\n(`gvlsim %s --help` lists the options)\n", cmd->name,
                cmd->usage, cmd->name);
    else
        fprintf(stderr, "\nusage: gvlsim COMMAND [ARGS...] (`gvlsim help` lists the commands)\n");
    return GV_EXIT_USAGE;
}

int cli_dispatch(const struct cli_command *cmd, int argc, char **argv)
{
    struct args a;
    char err[1024];
    int rc = args_parse(&cmd->args, argc, argv, &a, err, sizeof err);
    if (rc == GV_ENOMEM) {
        fprintf(stderr, "gvlsim %s: %s\n", cmd->name, err);
        return GV_EXIT_NOMEM;
    }
    if (rc != GV_OK) return cli_usage_error(cmd, "%s", err);
    int code;
    if (a.help) {
        cli_print_help(stdout, cmd);
        code = fflush(stdout) == 0 ? GV_EXIT_OK : GV_EXIT_IO;
    } else {
        code = cmd->exec(&a);
    }
    args_free(&a);
    return code;
}

double cli_host_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cli_cpus(void)
{
    cpu_set_t set;
    int n = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
    if (n <= 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        n = online > 0 ? (int)(online > 1024 ? 1024 : online) : 1;
    }
    return n > 256 ? 256 : n;
}

char *cli_command_line(const struct args *a)
{
    size_t n = strlen("gvlsim") + 1;
    for (int i = 0; i < a->argc; i++) n += strlen(a->argv[i]) + 3;
    char *s = malloc(n);
    if (!s) return NULL;
    strcpy(s, "gvlsim");
    for (int i = 0; i < a->argc; i++) {
        bool q = strpbrk(a->argv[i], " \t'\"") != NULL;
        strcat(s, q ? " '" : " ");
        strcat(s, a->argv[i]);
        if (q) strcat(s, "'");
    }
    return s;
}
