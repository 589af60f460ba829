/* csv.h - one CSV row per run, the same columns for every backend.
 * The columns are listed, with meaning and unit, in README.md. */
#ifndef OUTPUT_CSV_H
#define OUTPUT_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "metrics.h"

void csv_write_header(FILE *f);
/* reproducible: leave the one non-deterministic column (host_s) empty. */
void csv_write_row(FILE *f, const struct run_metrics *m, bool reproducible);
/* Seconds with 9 decimals from picoseconds, rounded to the nanosecond. */
void csv_format_seconds(char *buf, size_t len, sim_time t);

#endif
