/* err.c - status codes to exit codes and messages. */
#include "err.h"

#include "diag.h"

#include <stdarg.h>
#include <stdio.h>

int gv_exit_code(int status)
{
    switch (status) {
    case GV_OK: return GV_EXIT_OK;
    case GV_EUSAGE: return GV_EXIT_USAGE;
    case GV_EINVAL: return GV_EXIT_INVALID;
    case GV_ERUN: return GV_EXIT_RUN;
    case GV_EIO: return GV_EXIT_IO;
    case GV_ENOMEM: return GV_EXIT_NOMEM;
    case GV_EUNSUP: return GV_EXIT_UNSUP;
    default: return GV_EXIT_RUN;
    }
}

const char *gv_strerror(int status)
{
    switch (status) {
    case GV_OK: return "ok";
    case GV_EUSAGE: return "usage error";
    case GV_EINVAL: return "invalid scenario";
    case GV_ERUN: return "run failed";
    case GV_EIO: return "I/O error";
    case GV_ENOMEM: return "out of memory";
    case GV_EUNSUP: return "not supported";
    default: return "unknown error";
    }
}

int gv_fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen) {
        char raw[GV_ERRLEN];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        diag_escape_to(err, errlen, raw);  /* what it quotes from the input stays one printable line */
    }
    return code;
}
