/* cmd_plot.c - `gvlsim plot`: one column against another from result rows,
 * as a gnuplot script (always) and a PNG or SVG (when gnuplot is
 * installed); or a stacked breakdown of the state times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/afile.h"
#include "../common/err.h"
#include "../input/schema.h"
#include "../output/gnuplot.h"
#include "../output/rowsread.h"
#include "cli.h"
#include "options.h"

static int plot_exec(const struct args *a);

static const struct args_opt plot_opts[] = {
    { .name = "x", .kind = ARGS_STRING, .flags = ARGS_REQUIRED, .metavar = "COL",
      .help = "the column on the x axis (numbers, or durations such as\n"
              "10us), e.g. --x cores" },
    { .name = "y", .kind = ARGS_STRING, .metavar = "COL",
      .help = "the column on the y axis, e.g. --y wall_s (required, except\n"
              "with --breakdown)" },
    { .name = "series", .kind = ARGS_STRING, .metavar = "COL",
      .help = "one line per value of COL (e.g. policy, or a swept KEY)" },
    { .name = "series-title", .kind = ARGS_STRING, .metavar = "T",
      .help = "legend label instead of COL (\"T=value\")" },
    { .name = "logx", .kind = ARGS_FLAG, .help = "logarithmic x axis" },
    { .name = "logy", .kind = ARGS_FLAG, .help = "logarithmic y axis" },
    { .name = "ref", .kind = ARGS_PATH, .metavar = "FILE",
      .help = "measured reference points drawn beside the lines: rows with\n"
              "the --x and --y columns, a label (the legend) and a source\n"
              "(cited under the plot); the --series column, if present,\n"
              "gives them that series' colour" },
    { .name = "ratio-to", .kind = ARGS_KV, .metavar = "COL=VALUE",
      .help = "normalise: divide each point by the point of its series\n"
              "where COL (the --x column) is VALUE (--ratio-to cores=1), or\n"
              "by the point at its x of the series VALUE of the --series\n"
              "column (--ratio-to runtime.gvl_policy=eager)" },
    { .name = "breakdown", .kind = ARGS_FLAG,
      .help = "a stacked bar per configuration (--x value, per --series):\n"
              "the share of thread time in each state (running_s, ...)" },
    CLI_OPT_OUTPUT_H("FILE", "the image: FILE.svg writes SVG, any other name PNG\n"
                             "(default: the CSV's name with .png); the gnuplot\n"
                             "script goes beside it, with .gp instead"),
    { .name = "title", .kind = ARGS_STRING, .metavar = "T",
      .help = "the plot's title (default: from the columns)" },
    { .name = "xlabel", .kind = ARGS_STRING, .metavar = "T",
      .help = "the x axis' label (default: the column)" },
    { .name = "ylabel", .kind = ARGS_STRING, .metavar = "T",
      .help = "the y axis' label (default: the column)" },
    { .name = "script-only", .kind = ARGS_FLAG,
      .help = "write the .gp script, do not run gnuplot" },
    CLI_OPT_END,
};

const struct cli_command cli_cmd_plot = {
    .name = "plot",
    .usage = "CSV --x COL --y COL [--series COL] [--logx] [--logy] [--ref FILE] [-o OUT.png|OUT.svg] [options]",
    .summary = "plot two columns of result rows with gnuplot: OUT.png (or .svg) + OUT.gp",
    .args = { plot_opts, "CSV", 1, 1 },
    .details =
        "CSV is rows of run, exec, sweep or merge (CSV, JSON or JSON Lines).  Rows with\n"
        "the same x in a series (e.g. the --seeds replicates of a sweep) are averaged,\n"
        "with min..max error bars.  Rows whose x or y is empty are skipped.  Durations\n"
        "are plotted in seconds: cells with a unit (10us), the plain nanoseconds of a\n"
        "scenario duration swept with --param, and the *_s columns.  The script holds\n"
        "the aggregated points, so\n"
        "  gnuplot -d OUT.gp                re-renders OUT.png\n"
        "  gnuplot -d -c OUT.gp OTHER.svg   renders elsewhere (the suffix: PNG or SVG)\n"
        "without the CSV or gvlsim.",
    .exit_status =
        "0 ok, 2 usage (unknown or non-numeric column, the message\n"
        "listing the columns; --ratio-to without its reference point), 3 malformed\n"
        "rows, 5 unreadable rows, unwritable output\n"
        "or gnuplot failed, 6 out of memory, 7 gnuplot not installed (the .gp is\n"
        "written; install gnuplot-nox, or `make deps`).",
    .exec = plot_exec,
};

struct plot_opts {
    struct gp_spec spec;
    const char *csv;
    const char *png;
    bool script_only;
};

/* "dir/name.csv" -> "dir/name<ext>"; "x.png" -> "x<ext>" (the first of
 * the `old` suffixes that the name has is replaced) */
static char *swap_ext(const char *path, const char *const *old, const char *ext)
{
    size_t n = strlen(path);
    for (; *old; old++) {
        size_t lo = strlen(*old);
        if (n > lo && !strcmp(path + n - lo, *old)) {
            n -= lo;
            break;
        }
    }
    char *s = malloc(n + strlen(ext) + 1);
    if (!s) return NULL;
    memcpy(s, path, n);
    strcpy(s + n, ext);
    return s;
}

static int plot_exec(const struct args *a)
{
    static const char *const row_suffixes[] = { ".csv", ".jsonl", ".ndjson", ".json", NULL };
    static const char *const image_suffixes[] = { ".png", ".svg", NULL };
    const char *ratio = args_str(a, "ratio-to", NULL);
    struct plot_opts o = {
        .spec = {
            .xcol = args_str(a, "x", NULL), .ycol = args_str(a, "y", NULL),
            .ref_path = args_str(a, "ref", NULL), .breakdown = args_has(a, "breakdown"),
            .series_col = args_str(a, "series", NULL),
            .series_title = args_str(a, "series-title", NULL),
            .title = args_str(a, "title", NULL), .xlabel = args_str(a, "xlabel", NULL),
            .ylabel = args_str(a, "ylabel", NULL),
            .logx = args_has(a, "logx"), .logy = args_has(a, "logy"),
        },
        .csv = a->operands[0],
        .png = args_str(a, "output", NULL),
        .script_only = args_has(a, "script-only"),
    };
    if (!o.spec.ycol && !o.spec.breakdown)
        return cli_usage_error(&cli_cmd_plot, "option --y is required (except with --breakdown)");
    if (o.spec.breakdown && (o.spec.ycol || ratio || o.spec.ref_path || o.spec.logx || o.spec.logy))
        return cli_usage_error(&cli_cmd_plot, "--breakdown plots the state times: --y, --ratio-to, "
                                              "--ref, --logx and --logy do not apply");
    char err[2048];
    char *png = o.png ? strdup(o.png) : swap_ext(o.csv, row_suffixes, ".png");
    char *gp = png ? swap_ext(png, image_suffixes, ".gp") : NULL;
    char *cmd = cli_command_line(a);
    char *ratio_col = ratio ? strndup(ratio, strcspn(ratio, "=")) : NULL;
    struct csv_table t, ref;
    struct gp_data d;
    memset(&t, 0, sizeof t);
    memset(&ref, 0, sizeof ref);
    memset(&d, 0, sizeof d);
    int rc;
    if (!png || !gp || !cmd || (ratio && !ratio_col)) {
        rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
        goto out;
    }
    o.spec.csv_path = o.csv;
    o.spec.out = png;
    o.spec.command = cmd;
    o.spec.ratio_col = ratio_col;
    o.spec.ratio_value = ratio ? ratio + strlen(ratio_col) + 1 : NULL;
    /* a scenario duration swept as plain numbers is in nanoseconds */
    const struct sch_key *xk = sch_path_key(o.spec.xcol);
    o.spec.x_ns = xk && (xk->kind == SCH_DUR || xk->kind == SCH_DIST);
    rc = rowsr_read(o.csv, &t, NULL, err, sizeof err);
    if (rc != GV_OK) goto out;
    if (o.spec.ref_path) {
        rc = rowsr_read(o.spec.ref_path, &ref, NULL, err, sizeof err);
        if (rc != GV_OK) goto out;
        o.spec.ref = &ref;
    }
    rc = gp_build(&t, &o.spec, &d, err, sizeof err);
    if (rc != GV_OK) goto out;
    if (d.skipped)
        fprintf(stderr, "gvlsim plot: %zu row%s without %s or %s skipped\n", d.skipped,
                d.skipped == 1 ? "" : "s", o.spec.xcol, o.spec.ycol ? o.spec.ycol : "state times");
    struct afile af;
    rc = afile_open(&af, gp, err, sizeof err);
    if (rc != GV_OK) goto out;
    gp_write_script(af.f, &o.spec, &d);
    rc = afile_commit(&af, err, sizeof err);
    if (rc != GV_OK || o.script_only) goto out;
    rc = gp_render(gp, png, err, sizeof err);
    if (rc == GV_OK) fprintf(stderr, "gvlsim plot: wrote %s (script %s)\n", png, gp);
out:
    if (rc != GV_OK) fprintf(stderr, "gvlsim plot: %s\n", err);
    gp_data_free(&d);
    csvr_free(&t);
    csvr_free(&ref);
    free(ratio_col);
    free(png);
    free(gp);
    free(cmd);
    return gv_exit_code(rc);
}
