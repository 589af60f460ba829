/* gnuplot.h - plots of result rows through gnuplot, in batch.
 *
 * From rows (a run, a sweep, several concatenated), gp_build takes column
 * X against column Y, one line per value of a SERIES column (in order of
 * first appearance), rows with equal X within a series averaged (the
 * min..max range drawn as error bars when there are several, e.g. seeds).
 * gp_write_script writes a self-contained gnuplot script: the aggregated
 * points as inline data blocks, a pngcairo (or, for a name ending in .svg,
 * svg) terminal with an explicit font (DejaVu Sans), and `unset output` at
 * the end, so it can be re-rendered without re-running anything:
 *     gnuplot -d PLOT.gp              (writes the image named inside)
 *     gnuplot -d -c PLOT.gp OTHER.png (the suffix chooses PNG or SVG)
 * gp_render runs `gnuplot -d -c SCRIPT TMP FORMAT` and renames TMP over the
 * image.
 *
 * What makes the plots readable:
 *   - axis labels with units, from the column (wall_s: "wall time"; a
 *     --param key as given); durations are plotted in seconds, whether the
 *     cells say "10us" or hold the plain nanoseconds of a scenario
 *     duration, and a seconds axis is ticked "10 µs", "1 ms", "2 s";
 *   - ticks chosen here (1-2-5 steps, decades on log axes), ranges fitted
 *     to the data and the error bars, never padded to empty decades;
 *   - each series its own colour, dash pattern and point type, and lines
 *     drawn thinner the later they come, so that series that coincide
 *     stay visible (the first one shows around the next);
 *   - measured reference points (--ref) beside the simulated lines, each
 *     group in the legend by its label, the sources cited under the plot;
 *   - normalised plots (--ratio-to COL=VALUE): every point divided by the
 *     point of its series (or of its x) where COL is VALUE;
 *   - a stacked per-state time breakdown, one bar per configuration
 *     (--breakdown): the share of thread time in each state.
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

#include "../common/metrics.h"
#include "csvread.h"

struct gp_spec {
    const char *csv_path;       /* for messages and the script's comment */
    const char *xcol, *ycol;    /* ycol unused with breakdown */
    const char *series_col;     /* NULL: a single line */
    const char *series_title;   /* legend prefix, default series_col */
    const char *title, *xlabel, *ylabel;  /* NULL: derived from the columns */
    bool logx, logy;
    bool x_ns;                  /* plain numbers in xcol are nanoseconds (a
                                   scenario duration): plotted in seconds */
    const char *ratio_col;      /* --ratio-to COL=VALUE, or NULL */
    const char *ratio_value;
    const struct csv_table *ref;/* measured reference rows (--ref), or NULL */
    const char *ref_path;
    bool breakdown;             /* a stacked bar of state times per configuration */
    const char *out;            /* the image the script writes by default (.png or .svg) */
    const char *command;        /* the command line that made it (comment) */
};

enum gp_unit { GP_NUMBER, GP_SECONDS };

struct gp_point {
    double x, mean, min, max;
    int n;
};

struct gp_series {
    char *name;
    struct gp_point *pts;
    size_t npts, cap;
    int color;                  /* reference groups: the colour of the series they
                                   measure (same value of the series column), or -1 */
};

/* One bar of a breakdown: a configuration's mean state times. */
struct gp_bar {
    char *label;
    double state[TS_COUNT];     /* seconds summed over threads */
    double wall;                /* wall_s, 0 if the rows have none */
};

struct gp_data {
    struct gp_series *series;
    size_t nseries;
    size_t skipped;             /* rows with an empty X or Y */
    enum gp_unit xunit, yunit;
    struct gp_series *refs;     /* reference groups, by label */
    size_t nrefs;
    char **sources;             /* the references' distinct sources */
    size_t nsources;
    struct gp_bar *bars;
    size_t nbars;
};

/* Returns GV_OK or GV_EUSAGE (unknown column: the message lists them; a
 * cell that is neither a number nor a duration: the message names its
 * row; --ratio-to without its reference point; a --ref file without the
 * plot's columns) or GV_ENOMEM. */
int gp_build(const struct csv_table *t, const struct gp_spec *s, struct gp_data *d, char *err,
             size_t errlen);
void gp_data_free(struct gp_data *d);

void gp_write_script(FILE *f, const struct gp_spec *s, const struct gp_data *d);

/* Render `script` to `out` (atomically), as SVG if its name ends in .svg,
 * else PNG.  GV_OK; GV_EUNSUP if gnuplot is not installed (the message says
 * how to get it); GV_EIO if it failed. */
int gp_render(const char *script, const char *out, char *err, size_t errlen);

/* Ticks of an axis over [lo, hi]: at most `max` values and their labels
 * ("10 µs" on a seconds axis, "20M" on a number axis), 1-2-5 steps (on a
 * log axis: decades, with 2 and 5 when there are few).  Returns the count. */
int gp_ticks(double lo, double hi, bool log, enum gp_unit unit, double *vals, char (*labels)[32],
             int max);

#endif
