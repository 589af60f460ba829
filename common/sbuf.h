/* sbuf.h - a string being built: appended to, NUL-terminated at every
 * step, doubled as it grows.  An allocation failure sets oom and makes
 * every later append a no-op, so that a builder checks once at the end. */
#ifndef COMMON_SBUF_H
#define COMMON_SBUF_H

#include <stdbool.h>
#include <stddef.h>

struct sbuf {
    char *s;        /* NULL until something is appended */
    size_t n, cap;  /* length (without the NUL), allocated bytes */
    bool oom;
};

/* Append n bytes of s (they may hold NULs). */
void sbuf_putn(struct sbuf *b, const char *s, size_t n);
/* The text, malloc'ed ("" if nothing was appended), for the caller to
 * free; NULL after an allocation failure (the text is freed). */
char *sbuf_take(struct sbuf *b);

#endif
