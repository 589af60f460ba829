/* csvread.h - read a CSV file (ours, or any RFC 4180 one) into memory.
 *
 * The first line is the header.  Fields may be double-quoted ("" inside
 * quotes is one quote, quoted fields may hold commas and newlines).  Every
 * row must have as many fields as the header.  The same table holds rows
 * read from JSON or JSON Lines (output/rowsread.h). */
#ifndef OUTPUT_CSVREAD_H
#define OUTPUT_CSVREAD_H

#include <stddef.h>

struct csv_table {
    int ncols;
    char **header;      /* ncols names */
    size_t nrows;
    char **cells;       /* nrows * ncols fields, row-major */
    int *lines;         /* the line each row starts on (1-based), nrows of them */
    unsigned char *kinds; /* each cell's enum row_cell_kind when the file says it
                             (JSON: null, number, text, list), else NULL (CSV) */
};

/* Returns GV_OK, GV_EIO (unreadable), GV_EINVAL (malformed: message with
 * the line number) or GV_ENOMEM. */
int csvr_read(const char *path, struct csv_table *t, char *err, size_t errlen);
/* Parse a NUL-terminated text (for tests); `name` is used in messages. */
int csvr_parse(const char *text, const char *name, struct csv_table *t, char *err, size_t errlen);
void csvr_free(struct csv_table *t);

/* The whole file (at most 1 GiB) as a NUL-terminated string, malloc'ed.
 * GV_OK, GV_EIO (with the reason) or GV_ENOMEM. */
int csvr_read_text(const char *path, char **out, char *err, size_t errlen);

/* Index of column `name`, or -1. */
int csvr_col(const struct csv_table *t, const char *name);
static inline const char *csvr_cell(const struct csv_table *t, size_t row, int col)
{
    return t->cells[row * (size_t)t->ncols + (size_t)col];
}

#endif
