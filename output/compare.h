/* compare.h - compare two sets of result rows (a baseline and a new run),
 * configuration by configuration, and report every metric that moved.
 *
 * Rows are joined on their configuration: the key columns (by default a
 * sweep's --param columns and rep, then scenario, backend, policy,
 * invariant_check, insn_counter, cores, ractors, threads and seed).  Every
 * other column is a metric (named measures a scenario adds included),
 * except the ignored ones (host_s and point by default).
 *
 * Simulated rows are deterministic: any change of a metric is reported,
 * unless a tolerance says otherwise.  Measured rows (backend pthread, ruby,
 * or the older name real) vary from run to run: rows that differ only in
 * rep and seed are replicates of one configuration, their medians are
 * compared, and the default tolerance is relative: the larger of a floor
 * (5%) and the replicates' spread ((max - min) / median, on either side).
 *
 * A column set that differs between the two sides, a configuration on one
 * side only, or a configuration twice on one side (simulated rows) is an
 * error (GV_EINVAL), never a silent pass. */
#ifndef OUTPUT_COMPARE_H
#define OUTPUT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "csvread.h"

struct cmp_tolerance {
    const char *metric;  /* a metric column, or "*" for every metric */
    double value;        /* relative (0.05 = 5%) or absolute, in the column's unit */
    bool relative;
};

struct cmp_opts {
    const char *const *key;      /* key columns; NULL: the default key */
    int nkey;
    const char *const *ignore;   /* columns left out besides host_s and point */
    int nignore;
    const struct cmp_tolerance *tol;  /* later entries win over earlier ones */
    int ntol;
    double measured_floor;       /* least relative tolerance of measured rows; <0: 0.05 */
    bool lenient;                /* --update: a side-only configuration or another column
                                    set is reported, not an error */
};

/* One metric of one configuration that moved. */
struct cmp_change {
    size_t group;         /* index into cmp_result.groups */
    int col;              /* column (in the base table) */
    char *base, *new;     /* the values (medians of measured replicates) as text */
    double rel;           /* (new - base) / |base|; NAN when not numeric or base is 0 */
    double tol;           /* the tolerance applied (relative, or absolute if !tol_rel); <0: exact */
    bool tol_rel;
    bool from_spread;     /* the tolerance is the replicates' spread (measured rows) */
    bool beyond;          /* beyond its tolerance: a regression */
};

/* A configuration: its key values and its rows on each side. */
struct cmp_group {
    char **key;           /* nkey values */
    size_t base_row, new_row;   /* a row of each side (the first), for line numbers */
    int nbase, nnew;      /* rows (replicates) on each side */
    bool measured;
};

struct cmp_result {
    const char *base_name, *new_name;
    char **key_cols;      /* the key columns' names */
    int nkey;
    int *key_shown;       /* key columns whose value varies between configurations */
    int nkey_shown;
    struct cmp_group *groups;
    size_t ngroups;
    int nmetrics;         /* metric columns compared */
    struct cmp_change *changes;
    size_t nchanges;
    size_t nbeyond;       /* changes beyond their tolerance */
    /* --update (lenient): what made the sides incomparable, else empty */
    char note[1024];
};

/* Compare `base` with `new_`.  GV_OK (r filled; free with cmp_result_free),
 * GV_EUSAGE (an unknown --key, --ignore or --tolerance column; the message
 * lists the columns), GV_EINVAL (different columns, a configuration on one
 * side only or twice, no rows), GV_ENOMEM.  Messages name the file and the
 * line.  Base column names are used for the report. */
int cmp_run(const struct csv_table *base, const char *base_name, const struct csv_table *new_,
            const char *new_name, const struct cmp_opts *o, struct cmp_result *r, char *err,
            size_t errlen);
void cmp_result_free(struct cmp_result *r);

enum cmp_report { CMP_TEXT, CMP_MARKDOWN, CMP_JSON };
extern const char *const cmp_report_names[];   /* "text", "markdown", "json", NULL */

/* The report: every change beyond its tolerance (with `all`, also those
 * within it), then a summary line.  `metric_names` are the base table's
 * column names. */
void cmp_write_report(FILE *f, enum cmp_report fmt, const struct cmp_result *r,
                      const struct csv_table *base, bool all);

/* Parse "5%" (relative) or "0.002" (absolute) into t.  0 or -1. */
int cmp_parse_tolerance(const char *s, struct cmp_tolerance *t);

#endif
