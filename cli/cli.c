/* cli.c - helpers shared by the commands (kept out of main.c so that unit
 * tests, which link every cli/ object but main.o, can call them). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/err.h"
#include "cli.h"

int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "gvlsim %s: ", cmd ? cmd->name : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nusage: gvlsim %s %s\n", cmd ? cmd->name : "COMMAND", cmd ? cmd->usage : "");
    return GV_EXIT_USAGE;
}

double cli_host_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *cli_command_line(int argc, char **argv)
{
    size_t n = strlen("gvlsim") + 1;
    for (int i = 0; i < argc; i++) n += strlen(argv[i]) + 3;
    char *s = malloc(n);
    if (!s) return NULL;
    strcpy(s, "gvlsim");
    for (int i = 0; i < argc; i++) {
        bool q = strpbrk(argv[i], " \t'\"") != NULL;
        strcat(s, q ? " '" : " ");
        strcat(s, argv[i]);
        if (q) strcat(s, "'");
    }
    return s;
}
