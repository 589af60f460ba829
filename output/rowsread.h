/* rowsread.h - read result rows back, in any of the encodings gvlsim
 * writes (output/rows.h): CSV, one JSON array of objects, or JSON Lines.
 *
 * `compare`, `merge` and `plot` read their inputs through rowsr_read, so a
 * file written with --format json is read like its CSV twin.  The encoding
 * is the file name's suffix (.csv, .json, .jsonl, .ndjson), else the first
 * byte that is not white space ('[' JSON, '{' JSON Lines, else CSV).
 *
 * JSON rows are flat objects: keys are the columns (the first object's
 * keys, in its order; every other object must have the same keys, in any
 * order), values are strings, numbers (kept exactly as written), null,
 * true/false (read as text) or arrays of numbers (a list cell, joined with
 * ';' as in the CSV).  The parser is strict RFC 8259: a malformed file is
 * an error with its line and column, never a partial table. */
#ifndef OUTPUT_ROWSREAD_H
#define OUTPUT_ROWSREAD_H

#include <stddef.h>

#include "csvread.h"
#include "rows.h"

/* The encoding of a file by its name, then by its first non-blank byte. */
enum rows_format rowsr_format(const char *path, const char *text);

/* Read `path` into t (free it with csvr_free).  GV_OK, GV_EIO (unreadable),
 * GV_EINVAL (malformed, with file:line[:col]) or GV_ENOMEM.  *fmt (may be
 * NULL) receives the encoding that was read. */
int rowsr_read(const char *path, struct csv_table *t, enum rows_format *fmt, char *err,
               size_t errlen);
/* The same from a text in memory (for tests); `name` is used in messages. */
int rowsr_parse(const char *text, const char *name, enum rows_format fmt, struct csv_table *t,
                char *err, size_t errlen);

/* The kind of cell (r, c): what the JSON said, or for CSV, what the
 * column holds (output/csv.h knows gvlsim's columns; other cells are
 * numbers if they read as one, null if empty, else text). */
enum row_cell_kind rowsr_kind(const struct csv_table *t, size_t r, int c);

#endif
