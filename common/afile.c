/* afile.c - temporary file + rename, and whole-file reads. */
#include "afile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"

int afile_open(struct afile *a, const char *path, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    if (strcmp(path, "-") == 0) {
        a->f = stdout;
        return GV_OK;
    }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        /* a device or FIFO: write in place, never rename over it */
        a->f = fopen(path, "w");
        if (!a->f) return gv_fail(err, errlen, GV_EIO, "%s: %s", path, strerror(errno));
        a->in_place = 1;
        return GV_OK;
    }
    size_t n = strlen(path);
    a->path = malloc(n + 1);
    a->tmp = malloc(n + 16);
    if (!a->path || !a->tmp) {
        free(a->path);
        free(a->tmp);
        memset(a, 0, sizeof *a);
        return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", path);
    }
    memcpy(a->path, path, n + 1);
    snprintf(a->tmp, n + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        int e = errno;
        free(a->path);
        free(a->tmp);
        memset(a, 0, sizeof *a);
        return gv_fail(err, errlen, GV_EIO, "%s: cannot create output file: %s", path, strerror(e));
    }
    fchmod(fd, 0644);
    a->f = fdopen(fd, "w");
    if (!a->f) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
        free(a->path);
        free(a->tmp);
        memset(a, 0, sizeof *a);
        return gv_fail(err, errlen, GV_EIO, "%s: %s", path, strerror(e));
    }
    return GV_OK;
}

int afile_commit(struct afile *a, char *err, size_t errlen)
{
    if (!a->f) return GV_OK;
    if (a->in_place) {
        int bad = ferror(a->f);
        if (fclose(a->f) != 0) bad = 1;
        a->f = NULL;
        return bad ? gv_fail(err, errlen, GV_EIO, "write error") : GV_OK;
    }
    if (!a->path) {  /* stdout */
        int bad = fflush(a->f) != 0 || ferror(a->f);
        a->f = NULL;
        return bad ? gv_fail(err, errlen, GV_EIO, "<stdout>: write error") : GV_OK;
    }
    int bad = ferror(a->f);
    if (fclose(a->f) != 0) bad = 1;
    a->f = NULL;
    int rc = GV_OK;
    if (bad) {
        rc = gv_fail(err, errlen, GV_EIO, "%s: write error: %s", a->path, strerror(errno));
        unlink(a->tmp);
    } else if (rename(a->tmp, a->path) != 0) {
        rc = gv_fail(err, errlen, GV_EIO, "%s: cannot rename into place: %s", a->path, strerror(errno));
        unlink(a->tmp);
    }
    free(a->path);
    free(a->tmp);
    a->path = a->tmp = NULL;
    return rc;
}

void afile_abort(struct afile *a)
{
    if (a->f && a->in_place) fclose(a->f);
    if (a->f && a->path) {
        fclose(a->f);
        unlink(a->tmp);
    }
    free(a->path);
    free(a->tmp);
    memset(a, 0, sizeof *a);
}
