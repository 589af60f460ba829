/* premerge_stubs.c - TEMPORARY weak stand-ins so the exec branch links
 * before the scenario loader (input/load.c, input/scenario.c, cli/cmd_check.c)
 * is merged into main.  Every definition is weak: once the real one is
 * linked in, it wins and these are ignored.  Delete this file at the merge.
 *
 * cli_usage_error lives in cli/main.c, which unit tests do not link; the
 * weak copy here lets test binaries that contain cli/ objects link too. */
#include <stdarg.h>
#include <stdio.h>

#include "../common/err.h"
#include "../input/load.h"
#include "cli.h"

#define WEAK __attribute__((weak))

static const char *name_of(const char *const *names, int n, int i)
{
    return i >= 0 && i < n ? names[i] : "?";
}

WEAK const char *scn_policy_name(enum scn_gvl_policy p)
{
    static const char *const n[] = { "eager", "hot_steal", "delayed", "threshold", "barging" };
    return name_of(n, GVL_POLICY_COUNT, (int)p);
}
WEAK const char *scn_invariant_name(enum scn_invariant_check c)
{
    static const char *const n[] = { "none", "lock_barrier", "lockless" };
    return name_of(n, INVARIANT_COUNT, (int)c);
}
WEAK const char *scn_counter_name(enum scn_insn_counter c)
{
    static const char *const n[] = { "none", "shared", "thread_local" };
    return name_of(n, COUNTER_COUNT, (int)c);
}
WEAK const char *scn_op_name(enum scn_op_kind k)
{
    static const char *const n[] = { "compute", "syscall", "queue_push", "queue_pop",
                                     "sleep", "loop", "env_escape", "join" };
    return name_of(n, OP_KIND_COUNT, (int)k);
}
WEAK const char *scn_call_name(enum scn_syscall_call c)
{
    static const char *const n[] = { "stat", "write_devnull", "getpid", "nanosleep" };
    return name_of(n, CALL_COUNT, (int)c);
}

WEAK int scn_load(const char *file, const struct load_opts *opts, struct scenario *out,
                  struct diag_list *diags)
{
    (void)opts;
    (void)out;
    diag_add(diags, "%s: the scenario loader is not part of this build yet", file);
    return GV_EUNSUP;
}

WEAK void scenario_free(struct scenario *s)
{
    (void)s;
}

WEAK int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "gvlsim %s: ", cmd ? cmd->name : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return GV_EXIT_USAGE;
}

static int check_unavailable(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "gvlsim check: not part of this build yet\n");
    return GV_EXIT_UNSUP;
}

WEAK const struct cli_command cli_cmd_check = {
    .name = "check",
    .usage = "SCENARIO...",
    .summary = "validate scenario files (not part of this build yet)",
    .help = "",
    .exec = check_unavailable,
};
