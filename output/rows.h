/* rows.h - result rows in CSV, JSON or JSON Lines: one encoder for every
 * command that writes rows (run, exec, sweep, ...).
 *
 * A row is a list of typed cells built in column order; the columns are a
 * row of strings (the CSV header, the JSON keys).  The three encodings hold
 * the same data:
 *   csv    RFC 4180: a header line (unless left out), one line per row; a
 *          null cell is an empty field; a list is ';'-separated
 *   json   one array of objects, one object per row, keys = the columns
 *   jsonl  JSON Lines: one object per line, nothing else (for jq, ...)
 * In JSON a number cell is a JSON number, a null cell (unmeasured, or left
 * empty by --reproducible) is null, a list is an array of numbers, and text
 * is a string (bytes that are not UTF-8 become U+FFFD).
 */
#ifndef OUTPUT_ROWS_H
#define OUTPUT_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum rows_format { ROWS_CSV, ROWS_JSON, ROWS_JSONL };

/* "csv", "json", "jsonl", NULL: the names --format accepts, in enum order. */
extern const char *const rows_format_names[];

/* The encoding of an output: `given` (a --format value, or NULL) and the
 * output's suffix (.csv, .json, .jsonl or .ndjson; "-" and other names have
 * none) must agree; with neither, CSV.  Returns 0, or -1 with a message
 * when they disagree ("-o x.json is JSON, but --format csv was given"). */
int rows_format_choose(const char *given, const char *path, enum rows_format *out, char *err,
                       size_t errlen);

enum row_cell_kind {
    ROW_NULL,  /* no value */
    ROW_TEXT,  /* a string */
    ROW_NUM,   /* a number, as printed (must be a JSON number, else null in JSON) */
    ROW_LIST   /* numbers separated by ';' (an array in JSON) */
};

struct row_cell {
    enum row_cell_kind kind;
    size_t off;  /* text at row.text + off, NUL-terminated */
};

struct row {
    struct row_cell *cells;
    size_t n, cap;
    char *text;
    size_t len, tcap;
    bool oom;    /* some cell could not be stored: the row is unusable */
};

void row_init(struct row *r);
void row_free(struct row *r);
void row_clear(struct row *r);         /* no cells, memory kept */
/* Start a cell of the given kind; row_printf appends to its text. */
void row_cell(struct row *r, enum row_cell_kind kind);
void row_printf(struct row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void row_text(struct row *r, const char *s);  /* NULL: a null cell */
void row_null(struct row *r);
/* A number if s is a JSON number ("12", "-0.5", "1e3"), else text: for
 * values given on the command line (sweep's --param columns). */
void row_guess(struct row *r, const char *s);
const char *row_get(const struct row *r, size_t i);   /* the cell's text */

/* Is s[0..len) a number by RFC 8259's grammar? */
bool rows_json_number(const char *s, size_t len);

/* One row encoded alone, without separators or a newline (CSV: one line;
 * JSON and JSON Lines: one object), appended to f.  `cols` names the JSON
 * keys (unused for CSV). */
void rows_encode(FILE *f, enum rows_format fmt, const struct row *cols, const struct row *r);
/* The same into a malloc'ed string (e.g. in a worker thread), or NULL. */
char *rows_encode_str(enum rows_format fmt, const struct row *cols, const struct row *r);

/* A sequence of rows on one stream: the CSV header, JSON's brackets and
 * the separators between rows. */
struct rows_writer {
    FILE *f;
    enum rows_format fmt;
    const struct row *cols;
    uint64_t nrows;
};

/* header: CSV only, whether to write the header line. */
void rows_begin(struct rows_writer *w, FILE *f, enum rows_format fmt, const struct row *cols,
                bool header);
void rows_put(struct rows_writer *w, const struct row *r);
/* A row already encoded by rows_encode_str. */
void rows_put_encoded(struct rows_writer *w, const char *encoded);
void rows_end(struct rows_writer *w);

#endif
