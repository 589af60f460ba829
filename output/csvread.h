/* csvread.h - read a CSV file (ours, or any RFC 4180 one) into memory.
 *
 * The first line is the header.  Fields may be double-quoted ("" inside
 * quotes is one quote, quoted fields may hold commas and newlines).  Every
 * row must have as many fields as the header. */
#ifndef OUTPUT_CSVREAD_H
#define OUTPUT_CSVREAD_H

#include <stddef.h>

struct csv_table {
    int ncols;
    char **header;      /* ncols names */
    size_t nrows;
    char **cells;       /* nrows * ncols fields, row-major */
};

/* Returns GV_OK, GV_EIO (unreadable), GV_EINVAL (malformed: message with
 * the line number) or GV_ENOMEM. */
int csvr_read(const char *path, struct csv_table *t, char *err, size_t errlen);
/* Parse a NUL-terminated text (for tests); `name` is used in messages. */
int csvr_parse(const char *text, const char *name, struct csv_table *t, char *err, size_t errlen);
void csvr_free(struct csv_table *t);

/* Index of column `name`, or -1. */
int csvr_col(const struct csv_table *t, const char *name);
static inline const char *csvr_cell(const struct csv_table *t, size_t row, int col)
{
    return t->cells[row * (size_t)t->ncols + (size_t)col];
}

#endif
