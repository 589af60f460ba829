/* spawn.h - run this gvlsim executable as a child process and capture its
 * output: how a sweep runs an engine that allows one simulation per
 * process.  posix_spawn, not fork: the sweep calls it from worker threads. */
#ifndef CLI_SPAWN_H
#define CLI_SPAWN_H

#include <stddef.h>

struct spawn_result {
    char *out;       /* everything the child wrote to stdout (malloc'ed) */
    char *errtext;   /* everything it wrote to stderr (malloc'ed) */
    int exit_code;   /* its exit status; GV_EXIT_RUN if a signal killed it */
    int signal;      /* the signal that killed it, or 0 */
};

/* Run /proc/self/exe with `argv` (argv[0] included, NULL-terminated), stdin
 * from /dev/null, and wait for it.  Returns GV_OK (whatever the child's
 * exit status) or GV_ENOMEM / GV_EIO if it could not be run; free the
 * result with spawn_result_free in both cases. */
int spawn_self(char *const argv[], struct spawn_result *res, char *err, size_t errlen);
void spawn_result_free(struct spawn_result *res);

#endif
