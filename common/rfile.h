/* rfile.h - read a whole input file (a scenario, a profile, a trace).
 *
 * open/read, not stdio: no hidden buffers, and errno stays meaningful.  A
 * FIFO is opened without blocking (a blocking open would wait forever for a
 * writer that may never come); reads then block again, so a pipe that has
 * a writer (/dev/stdin, <(...), a FIFO being written) is read to its end,
 * while one with no writer reads as end-of-file at once and is refused. */
#ifndef GV_RFILE_H
#define GV_RFILE_H

#include <stddef.h>

#include "diag.h"

/* The file, NUL-terminated, in *out (the caller frees it), *len bytes.
 * Errors go to diags as "path: message" naming `what` ("scenario",
 * "trace"): GV_EIO, GV_EINVAL (more than `limit` bytes) or GV_ENOMEM. */
int rfile_read(const char *path, const char *what, size_t limit, char **out, size_t *len,
               struct diag_list *diags);

#endif
