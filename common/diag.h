/* diag.h - a list of diagnostics, so that a validator can report every
 * problem at once ("file:line:col: /json/path: message"), in order. */
#ifndef GV_DIAG_H
#define GV_DIAG_H

#include <stddef.h>

struct diag_list {
    char **msgs;
    size_t n, cap;
    int oom;   /* set if a message could not be stored */
};

void diag_init(struct diag_list *d);
void diag_free(struct diag_list *d);
/* Append a formatted message (a copy). */
void diag_add(struct diag_list *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Append "file:line:col: path: message". line/col 0 are left out. */
void diag_at(struct diag_list *d, const char *file, int line, int col,
             const char *path, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#endif
