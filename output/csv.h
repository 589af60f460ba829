/* csv.h - one CSV row per run, the same columns for every backend.
 * The columns are listed, with meaning and unit, in README.md. */
#ifndef OUTPUT_CSV_H
#define OUTPUT_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "../common/afile.h"
#include "../common/metrics.h"

void csv_write_header(FILE *f);
/* One field, quoted (RFC 4180) if it holds a comma, quote or newline. */
void csv_put_field(FILE *f, const char *s);
/* reproducible: leave the one non-deterministic column (host_s) empty. */
void csv_write_row(FILE *f, const struct run_metrics *m, bool reproducible);
/* The whole output of a run: [header +] one row, written atomically to
 * `path` ("-" = stdout).  GV_OK or GV_EIO / GV_ENOMEM with a message. */
int csv_write_file(const char *path, const struct run_metrics *m, bool header,
                   bool reproducible, char *err, size_t errlen);
/* The same, prepared but not committed (common/afile.h), for a run that
 * commits several outputs together: on GV_OK the caller commits or aborts
 * `out`; on failure nothing is left. */
int csv_prepare_file(struct afile *out, const char *path, const struct run_metrics *m, bool header,
                     bool reproducible, char *err, size_t errlen);
/* Seconds with 9 decimals from picoseconds, rounded to the nanosecond. */
void csv_format_seconds(char *buf, size_t len, sim_time t);

#endif
