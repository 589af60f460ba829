/* diag.h - a list of diagnostics, so that a validator can report every
 * problem at once ("file:line:col: /json/path: message"), in order.
 *
 * Messages quote the input (keys, profile names, --set keys), and the
 * input may hold anything: each stored message has its control characters
 * escaped ("\n", "\x1b", "\u009b"), as well as the code points that
 * reorder or break a terminal line (bidi overrides, U+2028/U+2029) and bytes
 * that are not UTF-8 ("\xff"), so that a message stays one line and
 * cannot colour or rewrite the terminal it is printed on. */
#ifndef GV_DIAG_H
#define GV_DIAG_H

#include <stddef.h>

struct diag_list {
    char **msgs;
    size_t n, cap;
    int oom;   /* set if a message could not be stored */
};

/* The code point of the UTF-8 sequence at s (NUL-terminated) and its
 * length, or 0 if s does not start a valid, shortest-form sequence. */
size_t diag_utf8_decode(const char *s, unsigned long *cp);
/* 1 if code point cp is escaped in messages (see above). */
int diag_unsafe_cp(unsigned long cp);
/* A malloc'd copy of s, escaped as above; NULL if out of memory. */
char *diag_escape(const char *s);
/* s escaped into dst (size bytes, NUL-terminated, cut before an escape or a
 * character that does not fit); returns the length of the whole escaped
 * text, like snprintf. */
size_t diag_escape_to(char *dst, size_t size, const char *s);

void diag_init(struct diag_list *d);
void diag_free(struct diag_list *d);
/* Append a formatted message (a copy). */
void diag_add(struct diag_list *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Append "file:line:col: path: message". line/col 0 are left out. */
void diag_at(struct diag_list *d, const char *file, int line, int col,
             const char *path, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* A validator's error cap: 1 if one more error may be reported (and
 * counts it in *count); at the max-th, appends "FILE: too many errors;
 * stopping after MAX" once and returns 0, as it does for every later one. */
int diag_capped(struct diag_list *d, int *count, int max, const char *file);

#endif
