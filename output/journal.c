/* journal.c - the append-only run journal of a sweep (journal.h). */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "../common/err.h"

#define JNL_MAGIC "gvlsim-journal 1"
#define JNL_SYNC_EVERY 1.0  /* seconds between fdatasyncs */

struct journal {
    int fd;
    char *path;
    double last_sync;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static unsigned long crc_of(const char *data, size_t len)
{
    return crc32(crc32(0L, Z_NULL, 0), (const Bytef *)data, (uInt)len);
}

static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

/* "PREFIX LEN CRC\n" DATA "\n" in one buffer, written with one write(2). */
static int put_record(struct journal *j, const char *prefix, const char *data, size_t len)
{
    char head[128];
    int n = snprintf(head, sizeof head, "%s %zu %08lx\n", prefix, len, crc_of(data, len));
    char *buf = malloc((size_t)n + len + 1);
    if (!buf) return GV_ENOMEM;
    memcpy(buf, head, (size_t)n);
    memcpy(buf + n, data, len);
    buf[(size_t)n + len] = '\n';
    int rc = write_all(j->fd, buf, (size_t)n + len + 1) == 0 ? GV_OK : GV_EIO;
    free(buf);
    return rc;
}

/* Read "LEN CRC\n" fields already split off, then DATA and its "\n".
 * Returns the data (malloc'd) or NULL if torn or damaged. */
static char *get_data(FILE *f, size_t len, unsigned long crc)
{
    if (len > ((size_t)1 << 30)) return NULL;
    char *data = malloc(len + 1);
    if (!data) return NULL;
    if (fread(data, 1, len, f) != len || fgetc(f) != '\n' || crc_of(data, len) != crc) {
        free(data);
        return NULL;
    }
    data[len] = '\0';
    return data;
}

/* Read the journal: its description must be `desc`; every intact record
 * goes to `record`; *good is the offset just past the last intact one. */
static int read_back(const char *path, const char *desc, jnl_record_fn record, void *ctx, off_t *good,
                     char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) return gv_fail(err, errlen, GV_EIO, "%s: cannot read the journal: %s", path, strerror(errno));
    char line[160];
    size_t len;
    unsigned long crc;
    int rc = GV_OK;
    char *d = NULL;
    if (!fgets(line, sizeof line, f) || sscanf(line, JNL_MAGIC " %zu %lx", &len, &crc) != 2 ||
        !(d = get_data(f, len, crc))) {
        fclose(f);
        return gv_fail(err, errlen, GV_EIO, "%s: not a gvlsim sweep journal (remove it to start over)", path);
    }
    if (strcmp(d, desc) != 0) {
        free(d);
        fclose(f);
        return gv_fail(err, errlen, GV_EUSAGE,
                       "%s: this journal belongs to a different sweep (its scenario or options differ); "
                       "remove it to start over", path);
    }
    free(d);
    *good = ftello(f);
    for (;;) {
        char kind;
        uint64_t index;
        int code;
        if (!fgets(line, sizeof line, f)) break;
        if (sscanf(line, "%c %" SCNu64 " %d %zu %lx", &kind, &index, &code, &len, &crc) != 5 ||
            (kind != 'R' && kind != 'T'))
            break;
        if (!(d = get_data(f, len, crc))) break;  /* torn: the process died writing it */
        rc = record(ctx, kind, index, code, d, len);
        free(d);
        if (rc != GV_OK) {
            gv_fail(err, errlen, rc, "%s: a record does not fit this sweep (remove the journal to start over)",
                    path);
            break;
        }
        *good = ftello(f);
    }
    fclose(f);
    return rc;
}

int jnl_open(struct journal **out, const char *path, const char *desc, bool resume,
             jnl_record_fn record, void *ctx, char *err, size_t errlen)
{
    *out = NULL;
    struct journal *j = calloc(1, sizeof *j);
    if (!j || !(j->path = strdup(path))) {
        free(j);
        return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    }
    int rc = GV_OK;
    j->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
    if (j->fd >= 0) {  /* a new journal: the description first, on disk */
        rc = put_record(j, JNL_MAGIC, desc, strlen(desc));
        if (rc == GV_OK && fdatasync(j->fd) != 0) rc = GV_EIO;
        if (rc != GV_OK) {
            gv_fail(err, errlen, rc, "%s: cannot write the journal: %s", path, strerror(errno));
            close(j->fd);
            unlink(path);
        }
    } else if (errno != EEXIST) {
        rc = gv_fail(err, errlen, GV_EIO, "%s: cannot create the journal: %s", path, strerror(errno));
    } else if (!resume) {
        rc = gv_fail(err, errlen, GV_EUSAGE,
                     "%s: the journal of an interrupted sweep is here: add --resume to continue it, or "
                     "remove it to start over", path);
    } else {
        off_t good = 0;
        rc = read_back(path, desc, record, ctx, &good, err, errlen);
        if (rc == GV_OK) {
            j->fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
            if (j->fd < 0 || ftruncate(j->fd, good) != 0)  /* drop a torn last record */
                rc = gv_fail(err, errlen, GV_EIO, "%s: cannot append to the journal: %s", path, strerror(errno));
            if (rc != GV_OK && j->fd >= 0) close(j->fd);
        }
    }
    if (rc != GV_OK) {
        free(j->path);
        free(j);
        return rc;
    }
    j->last_sync = now_s();
    *out = j;
    return GV_OK;
}

int jnl_append(struct journal *j, char kind, uint64_t index, int code, const char *data, size_t len,
               char *err, size_t errlen)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%c %" PRIu64 " %d", kind, index, code);
    int rc = put_record(j, prefix, data, len);
    if (rc == GV_OK && now_s() - j->last_sync >= JNL_SYNC_EVERY) {
        if (fdatasync(j->fd) != 0) rc = GV_EIO;
        j->last_sync = now_s();
    }
    if (rc != GV_OK) return gv_fail(err, errlen, rc, "%s: cannot write the journal: %s", j->path, strerror(errno));
    return GV_OK;
}

int jnl_close(struct journal *j, bool remove, char *err, size_t errlen)
{
    if (!j) return GV_OK;
    int rc = GV_OK;
    if (!remove && fdatasync(j->fd) != 0)
        rc = gv_fail(err, errlen, GV_EIO, "%s: cannot write the journal: %s", j->path, strerror(errno));
    if (close(j->fd) != 0 && rc == GV_OK)
        rc = gv_fail(err, errlen, GV_EIO, "%s: cannot write the journal: %s", j->path, strerror(errno));
    if (remove) unlink(j->path);
    free(j->path);
    free(j);
    return rc;
}
