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

static int plot_exec(int argc, char **argv);

const struct cli_command cli_cmd_plot = {
    .name = "plot",
    .usage = "CSV --x COL --y COL [--series COL] [--logx] [--logy] [-o OUT.png] [options]",
    .summary = "plot two CSV columns (from run or sweep) with gnuplot: OUT.png + OUT.gp",
    .help =
        "options:\n"
        "  --x COL, --y COL  the columns to plot (numeric), e.g. --x cores --y wall_s\n"
        "  --series COL      one line per value of COL (e.g. policy, or a swept KEY)\n"
        "  --series-title T  legend label instead of COL (\"T=value\")\n"
        "  --logx, --logy    logarithmic axes\n"
        "  -o, --output FILE the PNG (default: the CSV's name with .png); the gnuplot\n"
        "                    script goes beside it, with .gp instead of .png\n"
        "  --title T, --xlabel T, --ylabel T   texts (default: from the columns)\n"
        "  --script-only     write the .gp script, do not run gnuplot\n"
        "\n"
        "Rows with the same x in a series (e.g. the --seeds replicates of a sweep)\n"
        "are averaged, with min..max error bars.  Rows whose x or y is empty are\n"
        "skipped.  The script holds the aggregated points, so\n"
        "  gnuplot -d OUT.gp                re-renders OUT.png\n"
        "  gnuplot -d -c OUT.gp OTHER.png   renders elsewhere\n"
        "without the CSV or gvlsim.\n"
        "\n"
        "exit status: 0 ok, 2 usage (unknown or non-numeric column; the message\n"
        "lists the columns), 3 malformed CSV, 5 unreadable CSV, unwritable output\n"
        "or gnuplot failed, 6 out of memory, 7 gnuplot not installed (the .gp is\n"
        "written; install gnuplot-nox, or `make deps`).\n",
    .exec = plot_exec,
};

struct plot_opts {
    struct gp_spec spec;
    const char *csv;
    const char *png;
    bool script_only;
};

static int parse(int argc, char **argv, struct plot_opts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        if (!strcmp(a, "--x")) slot = &o->spec.xcol;
        else if (!strcmp(a, "--y")) slot = &o->spec.ycol;
        else if (!strcmp(a, "--series")) slot = &o->spec.series_col;
        else if (!strcmp(a, "--series-title")) slot = &o->spec.series_title;
        else if (!strcmp(a, "--title")) slot = &o->spec.title;
        else if (!strcmp(a, "--xlabel")) slot = &o->spec.xlabel;
        else if (!strcmp(a, "--ylabel")) slot = &o->spec.ylabel;
        else if (!strcmp(a, "-o") || !strcmp(a, "--output")) slot = &o->png;
        if (slot) {
            if (i + 1 >= argc) return cli_usage_error(&cli_cmd_plot, "option %s needs a value", a);
            *slot = argv[++i];
        } else if (!strcmp(a, "--logx")) {
            o->spec.logx = true;
        } else if (!strcmp(a, "--logy")) {
            o->spec.logy = true;
        } else if (!strcmp(a, "--script-only")) {
            o->script_only = true;
        } else if (a[0] == '-' && a[1] != 0) {
            return cli_usage_error(&cli_cmd_plot, "unknown option \"%s\"", a);
        } else if (!o->csv) {
            o->csv = a;
        } else {
            return cli_usage_error(&cli_cmd_plot, "only one CSV per plot (got \"%s\" and \"%s\")", o->csv, a);
        }
    }
    if (!o->csv) return cli_usage_error(&cli_cmd_plot, "missing CSV");
    if (!o->spec.xcol || !o->spec.ycol) return cli_usage_error(&cli_cmd_plot, "--x and --y are required");
    return GV_EXIT_OK;
}

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

static int plot_exec(int argc, char **argv)
{
    struct plot_opts o;
    int code = parse(argc, argv, &o);
    if (code != GV_EXIT_OK) return code;
    char err[2048];
    char *png = o.png ? strdup(o.png) : swap_ext(o.csv, ".csv", ".png");
    char *gp = png ? swap_ext(png, ".png", ".gp") : NULL;
    char *cmd = cli_command_line(argc, argv);
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
