/* cmd_fit.c - `gvlsim fit`: the Universal Scalability Law (output/usl.h)
 * fitted to throughput against concurrency from any CSV (run, sweep, exec,
 * or another tool's), one fit per series: a sweep read as two numbers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/afile.h"
#include "../common/err.h"
#include "../output/csv.h"
#include "../output/rowsread.h"
#include "../output/gnuplot.h"
#include "../output/usl.h"
#include "cli.h"
#include "options.h"

static int fit_exec(const struct args *a);

static const struct args_opt fit_opts[] = {
    { .name = "x", .kind = ARGS_STRING, .flags = ARGS_REQUIRED, .metavar = "COL",
      .help = "the concurrency column (>= 1), e.g. --x cores or --x ractors.1.count" },
    { .name = "y", .kind = ARGS_STRING, .flags = ARGS_REQUIRED, .metavar = "COL",
      .help = "the throughput column (> 0, higher is better), e.g. --y ops_per_s" },
    { .name = "series", .kind = ARGS_STRING, .metavar = "COL",
      .help = "one fit per value of COL (e.g. policy, or a swept KEY)" },
    CLI_OPT_OUTPUT_H("FILE", "also write the fits as CSV to FILE (atomically)"),
    CLI_OPT_END,
};

const struct cli_command cli_cmd_fit = {
    .name = "fit",
    .usage = "CSV --x COL --y COL [--series COL] [-o FITS.csv]",
    .summary = "fit the Universal Scalability Law to throughput against concurrency",
    .args = { fit_opts, "CSV", 1, 1 },
    .description =
        "X(N) = lambda N / (1 + alpha (N - 1) + beta N (N - 1)): lambda the throughput\n"
        "of one, alpha the contention (a serialised share, Amdahl's law), beta the\n"
        "coherency cost (pairs of workers exchanging data, what makes throughput\n"
        "fall again).  For each series: alpha, beta, lambda, the peak concurrency\n"
        "N* = sqrt((1 - alpha) / beta) with its throughput (none when beta is 0, or\n"
        "alpha >= 1: a fall from one on), and the fit's error: the root mean square\n"
        "of the relative residuals and R^2.",
    .details =
        "Rows with the same concurrency in a series (the --seeds replicates of a\n"
        "sweep) are averaged first; rows whose x or y is empty are skipped.  The fit\n"
        "minimises squared relative residuals, alpha and beta >= 0; a series needs\n"
        "at least 3 distinct concurrency values.  The law cannot fall from k workers\n"
        "to m faster than to (k - 1) / (m - 1) of X(k) (from 2 to 3: by half): a\n"
        "series that does is fitted anyway and warned about on stderr, with its\n"
        "steepest such fall (often a concurrency column that counts one too many,\n"
        "e.g. ractors with the main Ractor where ractors.1.count is the workers).",
    .exit_status =
        "0 ok, 2 usage (unknown or non-numeric column; the message lists the\n"
        "columns), 3 malformed CSV, or a series that cannot be fitted (fewer than\n"
        "3 concurrency values, a concurrency below 1, a throughput <= 0; the\n"
        "series is named), 5 unreadable CSV or unwritable FILE, 6 out of memory.",
    .exec = fit_exec,
};

static void fmt_peak(const struct usl_fit *f, char *n, size_t nl, char *x, size_t xl)
{
    if (f->peak_n > 0) {
        snprintf(n, nl, "%.4g", f->peak_n);
        snprintf(x, xl, "%.6g", f->peak_x);
    } else {
        snprintf(n, nl, "none");
        snprintf(x, xl, "none");
    }
}

static int fit_exec(const struct args *a)
{
    const char *csv = a->operands[0], *out = args_str(a, "output", NULL);
    struct gp_spec spec = { .xcol = args_str(a, "x", NULL), .ycol = args_str(a, "y", NULL),
                            .series_col = args_str(a, "series", NULL), .csv_path = csv };
    char err[2048];
    struct csv_table t;
    struct gp_data d;
    struct usl_fit *fits = NULL;
    double *n = NULL, *x = NULL;
    memset(&t, 0, sizeof t);
    memset(&d, 0, sizeof d);
    int rc = rowsr_read(csv, &t, NULL, err, sizeof err);
    if (rc == GV_OK) rc = gp_build(&t, &spec, &d, err, sizeof err);
    if (rc != GV_OK) goto out;
    fits = calloc(d.nseries, sizeof *fits);
    if (!fits) {
        rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < d.nseries; i++) {
        const struct gp_series *s = &d.series[i];
        free(n);
        free(x);
        n = malloc((s->npts + 1) * sizeof *n);
        x = malloc((s->npts + 1) * sizeof *x);
        if (!n || !x) {
            rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t k = 0; k < s->npts; k++) {
            n[k] = s->pts[k].x;
            x[k] = s->pts[k].mean;
        }
        char why[512];
        if (usl_fit(n, x, s->npts, &fits[i], why, sizeof why) != GV_OK) {
            if (spec.series_col)
                rc = gv_fail(err, sizeof err, GV_EINVAL, "%s: series %s=%s: %s", csv, spec.series_col, s->name,
                             why);
            else
                rc = gv_fail(err, sizeof err, GV_EINVAL, "%s: %s", csv, why);
            goto out;
        }
        size_t lo, hi;
        if (usl_fall_beyond(n, x, s->npts, &lo, &hi)) {
            char who[300] = "";
            if (spec.series_col) snprintf(who, sizeof who, "series %s=%s: ", spec.series_col, s->name);
            fprintf(stderr,
                    "gvlsim fit: warning: %s%s falls from %.6g at %s=%.6g to %.6g at %.6g (%.3g of it), "
                    "faster than the law can fall there (to %.3g at the most): the fit does not describe "
                    "these points (is %s the number of workers?)\n",
                    who, spec.ycol, x[lo], spec.xcol, n[lo], x[hi], n[hi], x[hi] / x[lo], usl_min_ratio(n[lo], n[hi]),
                    spec.xcol);
        }
    }
    if (d.skipped)
        fprintf(stderr, "gvlsim fit: %zu row%s without %s or %s skipped\n", d.skipped, d.skipped == 1 ? "" : "s",
                spec.xcol, spec.ycol);
    printf("%-16s %6s %12s %12s %12s %10s %12s %9s %8s\n", spec.series_col ? spec.series_col : "series",
           "points", "alpha", "beta", "lambda", "peak_N", "peak_X", "rms_err", "R^2");
    for (size_t i = 0; i < d.nseries; i++) {
        const struct usl_fit *f = &fits[i];
        char pn[32], px[32];
        fmt_peak(f, pn, sizeof pn, px, sizeof px);
        printf("%-16s %6zu %12.6g %12.6g %12.6g %10s %12s %8.2f%% %8.5f\n", d.series[i].name, f->npts, f->alpha,
               f->beta, f->lambda, pn, px, 100 * f->rms_rel, f->r2);
    }
    if (out) {
        struct afile af;
        rc = afile_open(&af, out, err, sizeof err);
        if (rc != GV_OK) goto out;
        fprintf(af.f, "series,points,alpha,beta,lambda,peak_n,peak_x,rms_rel_err,r2\n");
        for (size_t i = 0; i < d.nseries; i++) {
            const struct usl_fit *f = &fits[i];
            char pn[32], px[32];
            if (f->peak_n > 0) {
                snprintf(pn, sizeof pn, "%.6g", f->peak_n);
                snprintf(px, sizeof px, "%.6g", f->peak_x);
            } else {
                pn[0] = px[0] = '\0';
            }
            csv_put_field(af.f, d.series[i].name);
            fprintf(af.f, ",%zu,%.9g,%.9g,%.9g,%s,%s,%.6g,%.6g\n", f->npts, f->alpha, f->beta, f->lambda, pn, px,
                    f->rms_rel, f->r2);
        }
        rc = afile_commit(&af, err, sizeof err);
    }
out:
    if (rc != GV_OK) fprintf(stderr, "gvlsim fit: %s\n", err);
    free(n);
    free(x);
    free(fits);
    gp_data_free(&d);
    csvr_free(&t);
    return gv_exit_code(rc);
}
