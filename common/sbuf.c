/* sbuf.c - a string being built (see sbuf.h). */
#include "sbuf.h"

#include <stdlib.h>
#include <string.h>

void sbuf_putn(struct sbuf *b, const char *s, size_t n)
{
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (b->n + n + 1 > cap) cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->oom = true;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

char *sbuf_take(struct sbuf *b)
{
    if (!b->s && !b->oom) sbuf_putn(b, "", 0);
    if (b->oom) {
        free(b->s);
        b->s = NULL;
        return NULL;
    }
    return b->s;
}
