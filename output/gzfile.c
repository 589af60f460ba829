/* gzfile.c - buffered output through zlib's deflate onto an afile. */
#include "gzfile.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../common/afile.h"
#include "../common/err.h"

#define GZF_BUF (256 * 1024)

struct gzfile {
    struct afile af;
    char *display;      /* the path, for messages */
    bool gzip;
    z_stream z;
    bool z_live;
    unsigned char *in;  /* bytes not yet handed to deflate / fwrite */
    size_t nin;
    unsigned char *out; /* deflate's output buffer */
    size_t bytes_in;
    int err_errno;      /* first write error (errno), or 0 */
    char zerr[128];     /* first zlib error, or "" */
    bool prepared;      /* gzf_prepare ran; its result: */
    int prepare_rc;
};

bool gzf_path_wants_gzip(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

static void put_raw(struct gzfile *g, const unsigned char *p, size_t n)
{
    if (g->err_errno || n == 0) return;
    if (fwrite(p, 1, n, g->af.f) != n) g->err_errno = errno ? errno : EIO;
}

/* Feed the pending input to deflate with `flush`, writing all output. */
static void deflate_pending(struct gzfile *g, int flush)
{
    if (g->zerr[0] || g->err_errno) return;
    g->z.next_in = g->in;
    g->z.avail_in = (uInt)g->nin;
    for (;;) {
        g->z.next_out = g->out;
        g->z.avail_out = GZF_BUF;
        int rc = deflate(&g->z, flush);
        if (rc == Z_STREAM_ERROR) {
            snprintf(g->zerr, sizeof g->zerr, "zlib deflate failed (%s)", g->z.msg ? g->z.msg : "stream error");
            return;
        }
        put_raw(g, g->out, GZF_BUF - g->z.avail_out);
        if (g->err_errno) return;
        if (flush == Z_FINISH ? rc == Z_STREAM_END : g->z.avail_out != 0) break;
    }
    g->nin = 0;
}

static void flush_in(struct gzfile *g, int zflush)
{
    if (g->gzip) deflate_pending(g, zflush);
    else put_raw(g, g->in, g->nin);
    /* after an error the rest is discarded: gzf_commit reports it */
    g->nin = 0;
}

int gzf_open(struct gzfile **out, const char *path, bool gzip, char *err, size_t errlen)
{
    *out = NULL;
    struct gzfile *g = calloc(1, sizeof *g);
    if (!g) return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", path);
    g->gzip = gzip;
    g->display = strdup(path);
    g->in = malloc(GZF_BUF);
    g->out = gzip ? malloc(GZF_BUF) : NULL;
    if (!g->display || !g->in || (gzip && !g->out)) {
        free(g->display);
        free(g->in);
        free(g->out);
        free(g);
        return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", path);
    }
    if (gzip) {
        /* windowBits 15 + 16: a gzip wrapper with a zero time stamp and no
         * file name, so the same trace always compresses to the same bytes */
        if (deflateInit2(&g->z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            free(g->display);
            free(g->in);
            free(g->out);
            free(g);
            return gv_fail(err, errlen, GV_ENOMEM, "%s: cannot start zlib compression", path);
        }
        g->z_live = true;
    }
    int rc = afile_open(&g->af, path, err, errlen);
    if (rc != GV_OK) {
        if (g->z_live) deflateEnd(&g->z);
        free(g->display);
        free(g->in);
        free(g->out);
        free(g);
        return rc;
    }
    *out = g;
    return GV_OK;
}

void gzf_write(struct gzfile *g, const char *buf, size_t len)
{
    g->bytes_in += len;
    while (len > 0) {
        size_t room = GZF_BUF - g->nin;
        size_t n = len < room ? len : room;
        memcpy(g->in + g->nin, buf, n);
        g->nin += n;
        buf += n;
        len -= n;
        if (g->nin == GZF_BUF) flush_in(g, Z_NO_FLUSH);
    }
}

void gzf_puts(struct gzfile *g, const char *s)
{
    gzf_write(g, s, strlen(s));
}

size_t gzf_bytes_in(const struct gzfile *g)
{
    return g->bytes_in;
}

static void gzf_free(struct gzfile *g)
{
    if (g->z_live) deflateEnd(&g->z);
    free(g->display);
    free(g->in);
    free(g->out);
    free(g);
}

int gzf_prepare(struct gzfile *g, char *err, size_t errlen)
{
    if (g->prepared) return g->prepare_rc;
    g->prepared = true;
    flush_in(g, Z_FINISH);
    int rc = GV_OK;
    if (g->zerr[0]) {
        rc = gv_fail(err, errlen, GV_EIO, "%s: %s", g->display, g->zerr);
    } else if (g->err_errno) {
        rc = gv_fail(err, errlen, GV_EIO, "%s: write error: %s", g->display, strerror(g->err_errno));
    }
    if (rc != GV_OK) afile_abort(&g->af);
    else rc = afile_prepare(&g->af, err, errlen);
    g->prepare_rc = rc;
    return rc;
}

int gzf_commit(struct gzfile *g, char *err, size_t errlen)
{
    int rc = gzf_prepare(g, err, errlen);
    if (rc == GV_OK) rc = afile_commit(&g->af, err, errlen);
    gzf_free(g);
    return rc;
}

void gzf_abort(struct gzfile *g)
{
    if (!g) return;
    afile_abort(&g->af);
    gzf_free(g);
}
