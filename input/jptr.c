/* jptr.c - JSON pointer building. */
#include "jptr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void jptr_init(struct jptr *p) { memset(p, 0, sizeof *p); }

void jptr_free(struct jptr *p)
{
    free(p->buf);
    memset(p, 0, sizeof *p);
}

static int reserve(struct jptr *p, size_t extra)
{
    if (p->len + extra + 1 <= p->cap) return 1;
    size_t cap = p->cap ? p->cap : 64;
    while (cap < p->len + extra + 1) cap *= 2;
    char *b = realloc(p->buf, cap);
    if (!b) { p->oom = 1; return 0; }
    p->buf = b;
    p->cap = cap;
    return 1;
}

size_t jptr_push_key(struct jptr *p, const char *key)
{
    size_t mark = p->len, n = 1;
    for (const char *k = key; *k; k++) n += (*k == '~' || *k == '/') ? 2 : 1;
    if (!reserve(p, n)) return mark;
    p->buf[p->len++] = '/';
    for (const char *k = key; *k; k++) {
        if (*k == '~') { p->buf[p->len++] = '~'; p->buf[p->len++] = '0'; }
        else if (*k == '/') { p->buf[p->len++] = '~'; p->buf[p->len++] = '1'; }
        else p->buf[p->len++] = *k;
    }
    p->buf[p->len] = '\0';
    return mark;
}

size_t jptr_push_index(struct jptr *p, size_t index)
{
    char tmp[32];
    size_t mark = p->len;
    int n = snprintf(tmp, sizeof tmp, "/%zu", index);
    if (!reserve(p, (size_t)n)) return mark;
    memcpy(p->buf + p->len, tmp, (size_t)n + 1);
    p->len += (size_t)n;
    return mark;
}

void jptr_pop(struct jptr *p, size_t mark)
{
    if (mark <= p->len && p->buf) {
        p->len = mark;
        p->buf[mark] = '\0';
    }
}

const char *jptr_str(const struct jptr *p) { return p->buf ? p->buf : ""; }
