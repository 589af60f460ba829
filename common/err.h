/* err.h - error codes and message buffers shared by every gvlsim module.
 *
 * Convention (redis anet / libuv style): a function that can fail returns an
 * int, GV_OK (0) on success or a negative GV_E* code, and writes a one-line
 * human message into a caller-supplied buffer.  Nothing below main() exits.
 * The process exit codes (documented in README.md) are derived from these
 * codes by gv_exit_code().
 */
#ifndef GV_ERR_H
#define GV_ERR_H

#include <stddef.h>

enum gv_status {
    GV_OK = 0,
    GV_EUSAGE = -1,    /* bad command line */
    GV_EINVAL = -2,    /* invalid scenario (syntax or schema) */
    GV_ERUN = -3,      /* the run failed: deadlock, time limit, watchdog */
    GV_EIO = -4,       /* file could not be read or written */
    GV_ENOMEM = -5,    /* out of memory / scenario too large */
    GV_EUNSUP = -6     /* feature not available in this build or backend */
};

/* Process exit codes, one per status (see README "Exit codes"). */
enum gv_exit {
    GV_EXIT_OK = 0,
    GV_EXIT_REGRESSION = 1, /* `compare`: a metric moved beyond its tolerance */
    GV_EXIT_USAGE = 2,
    GV_EXIT_INVALID = 3,
    GV_EXIT_RUN = 4,
    GV_EXIT_IO = 5,
    GV_EXIT_NOMEM = 6,
    GV_EXIT_UNSUP = 7
};

#define GV_ERRLEN 1024

int gv_exit_code(int status);
const char *gv_strerror(int status);

/* printf into an error buffer (truncating at GV_ERRLEN too), with control
 * characters escaped as diagnostics escape them (common/diag.h): a message
 * is one line of printable text whatever it quotes; returns `code` so
 * callers can write `return gv_fail(err, errlen, GV_EIO, "...", ...);`. */
int gv_fail(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
