/* rfile.c - read a whole input file (rfile.h). */
#include "rfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"

int rfile_read(const char *path, const char *what, size_t limit, char **out, size_t *len,
               struct diag_list *diags)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        diag_at(diags, path, 0, 0, NULL, "cannot read %s: %s", what, strerror(errno));
        return GV_EIO;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
        int e = errno;
        close(fd);
        diag_at(diags, path, 0, 0, NULL, "cannot read %s: %s", what, strerror(e));
        return GV_EIO;
    }
    struct stat st;
    int have_st = fstat(fd, &st) == 0;
    int regular = have_st && S_ISREG(st.st_mode);
    int fifo = have_st && S_ISFIFO(st.st_mode);
    if (regular && (uint64_t)st.st_size > limit) {
        close(fd);
        diag_at(diags, path, 0, 0, NULL, "%s is too large (%lld bytes; the limit is %zu MiB)", what,
                (long long)st.st_size, limit >> 20);
        return GV_EINVAL;
    }
    size_t cap = regular && st.st_size > 0 ? (size_t)st.st_size + 2 : 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf) { close(fd); return GV_ENOMEM; }
    for (;;) {
        if (n + 1 >= cap) {  /* pipes and files that grow: read in chunks */
            if (cap > limit) {
                free(buf);
                close(fd);
                diag_at(diags, path, 0, 0, NULL, "%s is too large (the limit is %zu MiB)", what, limit >> 20);
                return GV_EINVAL;
            }
            char *b = realloc(buf, cap * 2);
            if (!b) { free(buf); close(fd); return GV_ENOMEM; }
            buf = b;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n - 1);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            close(fd);
            diag_at(diags, path, 0, 0, NULL, "cannot read %s: %s", what, strerror(e));
            return GV_EIO;
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    close(fd);
    if (n == 0 && fifo) {
        free(buf);
        diag_at(diags, path, 0, 0, NULL, "cannot read %s: a pipe or FIFO with no data and no writer",
                what);
        return GV_EIO;
    }
    if (n > limit) {
        free(buf);
        diag_at(diags, path, 0, 0, NULL, "%s is too large (%zu bytes; the limit is %zu MiB)", what, n, limit >> 20);
        return GV_EINVAL;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return GV_OK;
}

