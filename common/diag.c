/* diag.c - growable list of diagnostic lines. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void diag_init(struct diag_list *d) { memset(d, 0, sizeof *d); }

void diag_free(struct diag_list *d)
{
    for (size_t i = 0; i < d->n; i++) free(d->msgs[i]);
    free(d->msgs);
    memset(d, 0, sizeof *d);
}

static void diag_push(struct diag_list *d, char *msg)
{
    if (!msg) { d->oom = 1; return; }
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 8;
        char **m = realloc(d->msgs, cap * sizeof *m);
        if (!m) { free(msg); d->oom = 1; return; }
        d->msgs = m;
        d->cap = cap;
    }
    d->msgs[d->n++] = msg;
}

static char *vfmt(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int len = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (len < 0) return NULL;
    char *s = malloc((size_t)len + 1);
    if (s) vsnprintf(s, (size_t)len + 1, fmt, ap);
    return s;
}

void diag_add(struct diag_list *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_push(d, vfmt(fmt, ap));
    va_end(ap);
}

void diag_at(struct diag_list *d, const char *file, int line, int col,
             const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = vfmt(fmt, ap);
    va_end(ap);
    if (!msg) { d->oom = 1; return; }
    char pos[64] = "";
    if (line > 0 && col > 0) snprintf(pos, sizeof pos, "%d:%d:", line, col);
    else if (line > 0) snprintf(pos, sizeof pos, "%d:", line);
    diag_add(d, "%s:%s %s%s%s", file ? file : "<input>", pos,
             path && *path ? path : "", path && *path ? ": " : "", msg);
    free(msg);
}
