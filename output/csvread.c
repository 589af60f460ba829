/* csvread.c - a small RFC 4180 reader (see csvread.h). */
#include "csvread.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"

#define CSVR_MAX_BYTES ((size_t)1 << 30)

struct fields {
    char **v;
    size_t n, cap;
};

static int push(struct fields *f, char *s)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        char **nv = realloc(f->v, cap * sizeof *nv);
        if (!nv) return -1;
        f->v = nv;
        f->cap = cap;
    }
    f->v[f->n++] = s;
    return 0;
}

/* Parse one field at *pp; returns it (malloc'ed) and leaves *pp on the
 * separator (',', '\n' or NUL).  NULL with *bad set on a quoting error. */
static char *field(const char **pp, int *line, int *bad)
{
    const char *p = *pp;
    size_t cap = 32, n = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    int quoted = *p == '"';
    if (quoted) p++;
    for (;;) {
        char c = *p;
        if (quoted) {
            if (c == 0) { *bad = 1; free(out); return NULL; }
            if (c == '"') {
                if (p[1] == '"') p++;
                else { p++; quoted = 0; if (*p && *p != ',' && *p != '\n' && *p != '\r') { *bad = 1; free(out); return NULL; } continue; }
            } else if (c == '\n') {
                (*line)++;
            }
        } else if (c == ',' || c == '\n' || c == 0 || (c == '\r' && (p[1] == '\n' || p[1] == 0))) {
            break;
        }
        if (n + 2 > cap) {
            cap *= 2;
            char *no = realloc(out, cap);
            if (!no) { free(out); return NULL; }
            out = no;
        }
        out[n++] = *p++;
    }
    out[n] = 0;
    if (*p == '\r') p++;
    *pp = p;
    return out;
}

int csvr_parse(const char *text, const char *name, struct csv_table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    struct fields all = { 0 };
    const char *p = text;
    int line = 1, ncols = 0, col = 0, bad = 0, row_line = 1;
    size_t rows = 0, lcap = 0;
    int *lines = NULL;
    if (!*p) return gv_fail(err, errlen, GV_EINVAL, "%s: empty file (no header line)", name);
    while (*p) {
        int at_line = line;
        char *f = field(&p, &line, &bad);
        if (!f) {
            for (size_t i = 0; i < all.n; i++) free(all.v[i]);
            free(all.v);
            free(lines);
            if (bad) return gv_fail(err, errlen, GV_EINVAL, "%s:%d: malformed quoted field", name, at_line);
            return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", name);
        }
        if (push(&all, f) != 0) {
            free(f);
            for (size_t i = 0; i < all.n; i++) free(all.v[i]);
            free(all.v);
            free(lines);
            return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", name);
        }
        col++;
        if (*p == ',') {
            p++;
            if (*p) continue;
            /* the text ends just after a comma: the record's last field is
             * empty, and the record ends here like any other */
            char *e = strdup("");
            if (!e || push(&all, e) != 0) {
                free(e);
                for (size_t i = 0; i < all.n; i++) free(all.v[i]);
                free(all.v);
                return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", name);
            }
            col++;
        }
        /* end of a record */
        if (rows == 0) ncols = col;
        else if (col != ncols) {
            for (size_t i = 0; i < all.n; i++) free(all.v[i]);
            free(all.v);
            free(lines);
            return gv_fail(err, errlen, GV_EINVAL, "%s:%d: %d fields, the header has %d", name,
                           row_line, col, ncols);
        }
        if (rows > 0) {
            if (rows - 1 == lcap) {
                lcap = lcap ? 2 * lcap : 64;
                int *nl = realloc(lines, lcap * sizeof *nl);
                if (!nl) {
                    for (size_t i = 0; i < all.n; i++) free(all.v[i]);
                    free(all.v);
                    free(lines);
                    return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", name);
                }
                lines = nl;
            }
            lines[rows - 1] = row_line;
        }
        rows++;
        col = 0;
        if (*p == '\n') {
            p++;
            line++;
        }
        row_line = line;
    }
    t->ncols = ncols;
    t->lines = lines;
    t->header = all.v;
    t->cells = all.v + ncols;
    t->nrows = rows - 1;
    return GV_OK;
}

int csvr_read_text(const char *path, char **out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) return gv_fail(err, errlen, GV_EIO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", path);
        }
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        if (cap > CSVR_MAX_BYTES) {
            free(buf);
            fclose(f);
            return gv_fail(err, errlen, GV_EIO, "%s: larger than %zu bytes", path, CSVR_MAX_BYTES);
        }
        char *nb = realloc(buf, cap *= 2);
        if (!nb) free(buf);
        buf = nb;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return gv_fail(err, errlen, GV_EIO, "%s: read error (a directory?)", path);
    }
    buf[n] = 0;
    size_t nul = strlen(buf);
    if (nul != n) {  /* the rest would be silently ignored */
        free(buf);
        return gv_fail(err, errlen, GV_EINVAL, "%s: a NUL byte at offset %zu: not a text file", path,
                       nul);
    }
    *out = buf;
    return GV_OK;
}

int csvr_read(const char *path, struct csv_table *t, char *err, size_t errlen)
{
    char *text = NULL;
    memset(t, 0, sizeof *t);
    int rc = csvr_read_text(path, &text, err, errlen);
    if (rc != GV_OK) return rc;
    rc = csvr_parse(text, path, t, err, errlen);
    free(text);
    return rc;
}

void csvr_free(struct csv_table *t)
{
    if (t->header) {
        size_t n = (size_t)t->ncols * (t->nrows + 1);
        for (size_t i = 0; i < n; i++) free(t->header[i]);
        free(t->header);
    }
    free(t->lines);
    free(t->kinds);
    memset(t, 0, sizeof *t);
}

int csvr_col(const struct csv_table *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++)
        if (strcmp(t->header[i], name) == 0) return i;
    return -1;
}
