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

int diag_unsafe_cp(unsigned long cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

size_t diag_utf8_decode(const char *str, unsigned long *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    unsigned char c = s[0];
    size_t n;
    unsigned long v;
    if (c < 0x80) { *cp = c; return 1; }
    if (c >= 0xC2 && c <= 0xDF) { n = 2; v = c & 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { n = 3; v = c & 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 4; v = c & 0x07; }
    else return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;  /* also stops at the NUL */
        v = v << 6 | (s[i] & 0x3F);
    }
    static const unsigned long least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (v < least[n] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return n;
}

size_t diag_escape_to(char *dst, size_t size, const char *s)
{
    size_t n = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned long cp;
        size_t k = diag_utf8_decode((const char *)p, &cp);
        char esc[8];
        const char *out = esc;
        size_t len;
        if (k && !diag_unsafe_cp(cp)) {
            out = (const char *)p;
            len = k;
        } else if (k == 1 && (cp == '\n' || cp == '\r' || cp == '\t')) {
            esc[0] = '\\';
            esc[1] = cp == '\n' ? 'n' : cp == '\r' ? 'r' : 't';
            len = 2;
        } else if (k <= 1) {
            len = (size_t)snprintf(esc, sizeof esc, "\\x%02x", *p);
            k = 1;
        } else {
            len = (size_t)snprintf(esc, sizeof esc, "\\u%04lx", cp);
        }
        if (n + len < size) memcpy(dst + n, out, len);
        else if (n < size) size = n + 1;  /* stop writing: no cut escape or character */
        n += len;
        p += k;
    }
    if (size) dst[n < size ? n : size - 1] = '\0';
    return n;
}

char *diag_escape(const char *s)
{
    size_t n = diag_escape_to(NULL, 0, s);
    char *out = malloc(n + 1);
    if (out) diag_escape_to(out, n + 1, s);
    return out;
}

static void diag_push(struct diag_list *d, char *raw)
{
    if (!raw) { d->oom = 1; return; }
    char *msg = diag_escape(raw);
    free(raw);
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

int diag_capped(struct diag_list *d, int *count, int max, const char *file)
{
    if (*count > max) return 0;
    if ((*count)++ < max) return 1;
    diag_add(d, "%s: too many errors; stopping after %d", file, max);
    return 0;
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
