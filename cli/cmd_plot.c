/* cmd_plot.c - `gvlsim plot`: one column against another from a CSV, as a
 * gnuplot script (always) and a PNG (when gnuplot is installed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/afile.h"
#include "../common/err.h"
#include "../output/csvread.h"
#include "../output/gnuplot.h"
#include "cli.h"
#include "options.h"

static int plot_exec(const struct args *a);

static const struct args_opt plot_opts[] = {
    { .name = "x", .kind = ARGS_STRING, .flags = ARGS_REQUIRED, .metavar = "COL",
      .help = "the column on the x axis (numeric), e.g. --x cores" },
    { .name = "y", .kind = ARGS_STRING, .flags = ARGS_REQUIRED, .metavar = "COL",
      .help = "the column on the y axis (numeric), e.g. --y wall_s" },
    { .name = "series", .kind = ARGS_STRING, .metavar = "COL",
      .help = "one line per value of COL (e.g. policy, or a swept KEY)" },
    { .name = "series-title", .kind = ARGS_STRING, .metavar = "T",
      .help = "legend label instead of COL (\"T=value\")" },
    { .name = "logx", .kind = ARGS_FLAG, .help = "logarithmic x axis" },
    { .name = "logy", .kind = ARGS_FLAG, .help = "logarithmic y axis" },
    CLI_OPT_OUTPUT_H("FILE", "the PNG (default: the CSV's name with .png); the gnuplot\n"
                             "script goes beside it, with .gp instead of .png"),
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
    .usage = "CSV --x COL --y COL [--series COL] [--logx] [--logy] [-o OUT.png] [options]",
    .summary = "plot two CSV columns (from run or sweep) with gnuplot: OUT.png + OUT.gp",
    .args = { plot_opts, "CSV", 1, 1 },
    .details =
        "Rows with the same x in a series (e.g. the --seeds replicates of a sweep)\n"
        "are averaged, with min..max error bars.  Rows whose x or y is empty are\n"
        "skipped.  The script holds the aggregated points, so\n"
        "  gnuplot -d OUT.gp                re-renders OUT.png\n"
        "  gnuplot -d -c OUT.gp OTHER.png   renders elsewhere\n"
        "without the CSV or gvlsim.",
    .exit_status =
        "0 ok, 2 usage (unknown or non-numeric column; the message\n"
        "lists the columns), 3 malformed CSV, 5 unreadable CSV, unwritable output\n"
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

/* "dir/name.csv" -> "dir/name<ext>"; "x.png" -> "x<ext>" */
static char *swap_ext(const char *path, const char *old, const char *ext)
{
    size_t n = strlen(path), lo = strlen(old);
    if (n > lo && !strcmp(path + n - lo, old)) n -= lo;
    char *s = malloc(n + strlen(ext) + 1);
    if (!s) return NULL;
    memcpy(s, path, n);
    strcpy(s + n, ext);
    return s;
}

static int plot_exec(const struct args *a)
{
    struct plot_opts o = {
        .spec = {
            .xcol = args_str(a, "x", NULL), .ycol = args_str(a, "y", NULL),
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
    char err[2048];
    char *png = o.png ? strdup(o.png) : swap_ext(o.csv, ".csv", ".png");
    char *gp = png ? swap_ext(png, ".png", ".gp") : NULL;
    char *cmd = cli_command_line(a);
    struct csv_table t;
    struct gp_data d;
    memset(&t, 0, sizeof t);
    memset(&d, 0, sizeof d);
    int rc;
    if (!png || !gp || !cmd) {
        rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
        goto out;
    }
    o.spec.csv_path = o.csv;
    o.spec.png = png;
    o.spec.command = cmd;
    rc = csvr_read(o.csv, &t, err, sizeof err);
    if (rc != GV_OK) goto out;
    rc = gp_build(&t, &o.spec, &d, err, sizeof err);
    if (rc != GV_OK) goto out;
    if (d.skipped)
        fprintf(stderr, "gvlsim plot: %zu row%s without %s or %s skipped\n", d.skipped,
                d.skipped == 1 ? "" : "s", o.spec.xcol, o.spec.ycol);
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
    free(png);
    free(gp);
    free(cmd);
    return gv_exit_code(rc);
}
