/* gnuplot.h - plots of CSV columns through gnuplot, in batch.
 *
 * From a CSV (a run, a sweep, several concatenated), gp_build takes column
 * X against column Y, one line per value of a SERIES column (in order of
 * first appearance), rows with equal X within a series averaged (the
 * min..max range drawn as error bars when there are several, e.g. seeds).
 * gp_write_script writes a self-contained gnuplot script: the aggregated
 * points as inline data blocks, a pngcairo terminal with an explicit font
 * (DejaVu Sans), `set datafile separator comma`, and `unset output` at the
 * end, so it can be re-rendered without re-running anything:
 *     gnuplot -d PLOT.gp              (writes the PNG named inside)
 *     gnuplot -d -c PLOT.gp OTHER.png
 * gp_render runs `gnuplot -d -c SCRIPT TMP` and renames TMP over the PNG.
 *
 * Why the data is inlined rather than read from the CSV by gnuplot: a
 * series filtered from the CSV in a `using` expression turns every other
 * row into an undefined point, which breaks the line and splits
 * `smooth unique` at each one (gnuplot 5.4), so lines would not connect. */
#ifndef OUTPUT_GNUPLOT_H
#define OUTPUT_GNUPLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "csvread.h"

struct gp_spec {
    const char *csv_path;       /* for the script's comment */
    const char *xcol, *ycol;
    const char *series_col;     /* NULL: a single line */
    const char *series_title;   /* legend prefix, default series_col */
    const char *title, *xlabel, *ylabel;  /* NULL: derived from the columns */
    bool logx, logy;
    const char *png;            /* the PNG the script writes by default */
    const char *command;        /* the command line that made it (comment) */
};

struct gp_point {
    double x, mean, min, max;
    int n;
};

struct gp_series {
    char *name;
    struct gp_point *pts;
    size_t npts, cap;
};

struct gp_data {
    struct gp_series *series;
    size_t nseries;
    size_t skipped;             /* rows with an empty X or Y */
};

/* Returns GV_OK or GV_EUSAGE (unknown column: the message lists them;
 * a non-numeric cell: the message names its line) or GV_ENOMEM. */
int gp_build(const struct csv_table *t, const struct gp_spec *s, struct gp_data *d, char *err,
             size_t errlen);
void gp_data_free(struct gp_data *d);

void gp_write_script(FILE *f, const struct gp_spec *s, const struct gp_data *d);

/* Render `script` to `png` (atomically).  GV_OK; GV_EUNSUP if gnuplot is
 * not installed (the message says how to get it); GV_EIO if it failed. */
int gp_render(const char *script, const char *png, char *err, size_t errlen);

#endif
