/* csv.h - the columns of a result row: one row per run, the same columns
 * for every backend, in CSV, JSON or JSON Lines (output/rows.h).  The
 * columns are listed, with meaning and unit, in README.md. */
#ifndef OUTPUT_CSV_H
#define OUTPUT_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "../common/afile.h"
#include "../common/metrics.h"
#include "rows.h"

/* The fixed column names (a row of text cells), the same for every run. */
void csv_columns(struct row *cols);
/* The seven columns of a named measure, appended after the fixed ones in
 * declaration order: NAME_count, NAME_per_s, NAME_mean_s, NAME_p50_s,
 * NAME_p90_s, NAME_p99_s, NAME_max_s. */
void csv_measure_columns(struct row *cols, const char *name);
/* Every column of m's row: the fixed ones, then its measures'. */
void csv_columns_of(struct row *cols, const struct run_metrics *m);
/* The kind of a column of the fixed schema (ROW_TEXT, ROW_NUM, ROW_LIST)
 * or of a named measure (NAME_count ... NAME_max_s: ROW_NUM), or -1 for
 * any other column (a sweep's --param columns, ...). */
int csv_column_kind(const char *name);
/* A run's cells.  reproducible: leave the one non-deterministic column
 * (host_s) empty (null in JSON). */
void csv_row(struct row *r, const struct run_metrics *m, bool reproducible);

/* The CSV header line / one CSV row of a run, each with its newline. */
void csv_write_header(FILE *f, const struct run_metrics *m);
void csv_write_row(FILE *f, const struct run_metrics *m, bool reproducible);
/* One field, quoted (RFC 4180) if it holds a comma, quote or newline. */
void csv_put_field(FILE *f, const char *s);
/* The whole output of a run in `fmt`: [header (CSV only) +] one row,
 * written atomically to `path` ("-" = stdout).  GV_OK or GV_EIO /
 * GV_ENOMEM with a message. */
int csv_write_result(const char *path, enum rows_format fmt, const struct run_metrics *m,
                     bool header, bool reproducible, char *err, size_t errlen);
/* The same, prepared but not committed (common/afile.h), for a run that
 * commits several outputs together: on GV_OK the caller commits or aborts
 * `out`; on failure nothing is left. */
int csv_prepare_result(struct afile *out, const char *path, enum rows_format fmt,
                       const struct run_metrics *m, bool header, bool reproducible, char *err,
                       size_t errlen);
/* The same in CSV. */
int csv_write_file(const char *path, const struct run_metrics *m, bool header,
                   bool reproducible, char *err, size_t errlen);
/* Seconds with 9 decimals from picoseconds, rounded to the nanosecond. */
void csv_format_seconds(char *buf, size_t len, sim_sum t);

#endif
