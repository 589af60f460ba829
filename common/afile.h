/* afile.h - all-or-nothing output files.
 *
 * Output goes to a temporary file beside the target ("PATH.tmp.XXXXXX")
 * and is renamed over PATH only by afile_commit, so a failed or interrupted
 * run never leaves a half-written file.  PATH "-" means stdout; an existing
 * device or FIFO (e.g. /dev/null) is written in place, never replaced. */
#ifndef GV_AFILE_H
#define GV_AFILE_H

#include <stdio.h>

struct afile {
    FILE *f;
    char *path;  /* target, NULL for stdout */
    char *tmp;   /* temporary name, NULL for stdout */
    int direct;  /* an existing device or pipe, written in place */
};

/* Returns GV_OK or GV_EIO / GV_ENOMEM with a message naming the file. */
int afile_open(struct afile *a, const char *path, char *err, size_t errlen);
/* Flush, close and rename into place. */
int afile_commit(struct afile *a, char *err, size_t errlen);
/* Close and remove the temporary file (no-op after commit). */
void afile_abort(struct afile *a);

#endif
