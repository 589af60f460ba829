/* afile.c - temporary file + rename.
 *
 * Only regular files are replaced that way.  An existing device, FIFO or
 * socket (`-o /dev/null`, `-o /dev/stdout`, a pipe) is written in place:
 * renaming a temporary file over /dev/null would replace the device node
 * with a regular file for every program on the machine.  A symbolic link
 * to a regular file is resolved, so the link survives and its target is
 * replaced atomically. */
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
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return gv_fail(err, errlen, GV_EIO, "%s: is a directory", path);
        a->f = fopen(path, "w");  /* a device or a pipe: write in place */
        if (!a->f) return gv_fail(err, errlen, GV_EIO, "%s: cannot open for writing: %s", path, strerror(errno));
        a->direct = 1;
        return GV_OK;
    }
    char *resolved = NULL;
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) resolved = realpath(path, NULL);
    if (resolved) path = resolved;
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
    free(resolved);
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        int e = errno;
        int rc = gv_fail(err, errlen, GV_EIO, "%s: cannot create output file: %s", a->path, strerror(e));
        free(a->path);
        free(a->tmp);
        memset(a, 0, sizeof *a);
        return rc;
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
    if (!a->path) {  /* stdout, or a device / pipe written in place */
        int bad = fflush(a->f) != 0 || ferror(a->f);
        if (a->direct && fclose(a->f) != 0) bad = 1;
        a->f = NULL;
        a->direct = 0;
        return bad ? gv_fail(err, errlen, GV_EIO, "output: write error") : GV_OK;
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
    if (a->f && a->path) {
        fclose(a->f);
        unlink(a->tmp);
    } else if (a->f && a->direct) {
        fclose(a->f);
    }
    free(a->path);
    free(a->tmp);
    memset(a, 0, sizeof *a);
}
