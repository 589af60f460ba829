/* gnuplot.c - aggregate CSV columns and drive gnuplot (see gnuplot.h). */
#include "gnuplot.h"

#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/afile.h"
#include "../common/err.h"

extern char **environ;

/* ---- aggregation ---------------------------------------------------------- */

static int col_or_fail(const struct csv_table *t, const char *opt, const char *name, int *out,
                       char *err, size_t errlen)
{
    *out = csvr_col(t, name);
    if (*out >= 0) return GV_OK;
    char list[GV_ERRLEN];  /* the CSV's names: escaped by gv_fail, like any text from a file */
    size_t off = 0;
    list[0] = '\0';
    for (int i = 0; i < t->ncols && off < sizeof list; i++)
        off += (size_t)snprintf(list + off, sizeof list - off, " %s", t->header[i]);
    return gv_fail(err, errlen, GV_EUSAGE, "%s %s: no such column; the columns are:%s", opt, name, list);
}

static int number(const char *s, double *v)
{
    char *end;
    if (!*s) return 0;
    *v = strtod(s, &end);
    return *end == 0 && isfinite(*v) ? 1 : -1;
}

static struct gp_series *series_of(struct gp_data *d, const char *name)
{
    for (size_t i = 0; i < d->nseries; i++)
        if (strcmp(d->series[i].name, name) == 0) return &d->series[i];
    struct gp_series *ns = realloc(d->series, (d->nseries + 1) * sizeof *ns);
    if (!ns) return NULL;
    d->series = ns;
    struct gp_series *s = &d->series[d->nseries];
    memset(s, 0, sizeof *s);
    s->name = strdup(name);
    if (!s->name) return NULL;
    d->nseries++;
    return s;
}

static int add_point(struct gp_series *s, double x, double y)
{
    for (size_t i = 0; i < s->npts; i++) {
        struct gp_point *p = &s->pts[i];
        if (p->x != x) continue;
        p->mean += (y - p->mean) / (p->n + 1);  /* running mean */
        if (y < p->min) p->min = y;
        if (y > p->max) p->max = y;
        p->n++;
        return 0;
    }
    if (s->npts == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        struct gp_point *np = realloc(s->pts, cap * sizeof *np);
        if (!np) return -1;
        s->pts = np;
        s->cap = cap;
    }
    s->pts[s->npts++] = (struct gp_point){ x, y, y, y, 1 };
    return 0;
}

static int by_x(const void *a, const void *b)
{
    double x = ((const struct gp_point *)a)->x, y = ((const struct gp_point *)b)->x;
    return (x > y) - (x < y);
}

int gp_build(const struct csv_table *t, const struct gp_spec *s, struct gp_data *d, char *err,
             size_t errlen)
{
    memset(d, 0, sizeof *d);
    int cx, cy, cs = -1, rc;
    if ((rc = col_or_fail(t, "--x", s->xcol, &cx, err, errlen)) != GV_OK) return rc;
    if ((rc = col_or_fail(t, "--y", s->ycol, &cy, err, errlen)) != GV_OK) return rc;
    if (s->series_col && (rc = col_or_fail(t, "--series", s->series_col, &cs, err, errlen)) != GV_OK)
        return rc;
    for (size_t r = 0; r < t->nrows; r++) {
        double x = 0, y = 0;
        int okx = number(csvr_cell(t, r, cx), &x), oky = number(csvr_cell(t, r, cy), &y);
        if (okx < 0 || oky < 0) {
            const char *bad = okx < 0 ? s->xcol : s->ycol;
            gp_data_free(d);
            return gv_fail(err, errlen, GV_EUSAGE,
                           "%s: column %s is not numeric on data row %zu (\"%s\"); plot numeric "
                           "columns, and use a text column as --series",
                           s->csv_path, bad, r + 1, csvr_cell(t, r, okx < 0 ? cx : cy));
        }
        if (!okx || !oky) {
            d->skipped++;
            continue;
        }
        struct gp_series *se = series_of(d, cs >= 0 ? csvr_cell(t, r, cs) : s->ycol);
        if (!se || add_point(se, x, y) != 0) {
            gp_data_free(d);
            return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
        }
    }
    if (d->nseries == 0)
        return gv_fail(err, errlen, GV_EUSAGE, "%s: no row has both %s and %s", s->csv_path, s->xcol,
                       s->ycol);
    for (size_t i = 0; i < d->nseries; i++)
        qsort(d->series[i].pts, d->series[i].npts, sizeof(struct gp_point), by_x);
    return GV_OK;
}

void gp_data_free(struct gp_data *d)
{
    for (size_t i = 0; i < d->nseries; i++) {
        free(d->series[i].name);
        free(d->series[i].pts);
    }
    free(d->series);
    memset(d, 0, sizeof *d);
}

/* ---- the script ----------------------------------------------------------- */

/* A gnuplot single-quoted string: a quote is doubled, nothing else escapes. */
static void put_q(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputc('\'', f);
        if (*s == '\n' || *s == '\r') fputc(' ', f);
        else fputc(*s, f);
    }
    fputc('\'', f);
}

/* A comment line: no newline may escape it. */
static void put_comment(FILE *f, const char *prefix, const char *s)
{
    fprintf(f, "# %s", prefix);
    for (; *s; s++) fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    fputc('\n', f);
}

void gp_write_script(FILE *f, const struct gp_spec *s, const struct gp_data *d)
{
    char title[512];
    if (s->title) snprintf(title, sizeof title, "%s", s->title);
    else if (s->series_col)
        snprintf(title, sizeof title, "%s vs %s, by %s", s->ycol, s->xcol,
                 s->series_title ? s->series_title : s->series_col);
    else snprintf(title, sizeof title, "%s vs %s", s->ycol, s->xcol);

    bool errorbars = false;
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY;
    double xs[13];
    int nxs = 0;
    for (size_t i = 0; i < d->nseries; i++) {
        for (size_t k = 0; k < d->series[i].npts; k++) {
            const struct gp_point *p = &d->series[i].pts[k];
            if (p->n > 1) errorbars = true;
            if (p->x < xmin) xmin = p->x;
            if (p->x > xmax) xmax = p->x;
            if (p->min < ymin) ymin = p->min;
            int seen = 0;
            for (int j = 0; j < nxs; j++) seen |= xs[j] == p->x;
            if (!seen && nxs < 13) xs[nxs++] = p->x;
        }
    }

    fputs("# gnuplot script written by `gvlsim plot` (docs/output.md).\n", f);
    put_comment(f, "data: ", s->csv_path);
    if (s->command) put_comment(f, "made by: ", s->command);
    fputs("# Re-render: gnuplot -d THIS.gp   (or: gnuplot -d -c THIS.gp OTHER.png)\n", f);
    char points[1024];  /* column names are data: a comment, so that no newline in one escapes it */
    snprintf(points, sizeof points, "Points: %s (mean over rows with the same x%s), one line per %s.",
             s->ycol, errorbars ? "; bars: min..max" : "", s->series_col ? s->series_col : "column");
    put_comment(f, "", points);
    fputs("out = (ARGC >= 1) ? ARG1 : ", f);
    put_q(f, s->png);
    fputs("\nset terminal pngcairo size 1280,720 noenhanced font 'DejaVu Sans,11'\n"
          "set output out\n"
          "set datafile separator comma\n", f);
    fputs("set title ", f);
    put_q(f, title);
    fputs("\nset xlabel ", f);
    put_q(f, s->xlabel ? s->xlabel : s->xcol);
    fputs("\nset ylabel ", f);
    put_q(f, s->ylabel ? s->ylabel : s->ycol);
    fputs("\nset grid\nset key outside right top\n", f);
    fputs("set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n", f);
    if (s->logx) fprintf(f, "set logscale x %d\n", xmin > 0 && xmax / xmin < 100 ? 2 : 10);
    if (s->logy) fputs("set logscale y\n", f);
    else if (ymin >= 0) fputs("set yrange [0:*]\n", f);
    if (nxs <= 12) {  /* few x values (cores, threads): a tick on each */
        fputs("set xtics (", f);
        for (int j = 0; j < nxs; j++) fprintf(f, "%s%.12g", j ? ", " : "", xs[j]);
        fputs(")\n", f);
    }
    for (size_t i = 0; i < d->nseries; i++) {
        fprintf(f, "$s%zu << EOD\n# x,mean,min,max,n\n", i);
        for (size_t k = 0; k < d->series[i].npts; k++) {
            const struct gp_point *p = &d->series[i].pts[k];
            fprintf(f, "%.12g,%.12g,%.12g,%.12g,%d\n", p->x, p->mean, p->min, p->max, p->n);
        }
        fputs("EOD\n", f);
    }
    fputs("plot ", f);
    for (size_t i = 0; i < d->nseries; i++) {
        char t[512];
        if (s->series_col)
            snprintf(t, sizeof t, "%s=%s", s->series_title ? s->series_title : s->series_col,
                     d->series[i].name);
        else snprintf(t, sizeof t, "%s", s->ycol);
        fprintf(f, "%s$s%zu using 1:2%s with %s lw 2 pt 7 title ", i ? ", \\\n     " : "", i,
                errorbars ? ":3:4" : "", errorbars ? "yerrorlines" : "linespoints");
        put_q(f, t);
    }
    fputs("\nunset output\n", f);
}

/* ---- running gnuplot ------------------------------------------------------ */

/* Run gnuplot on `script` into `tmp`, then rename it over `png` (unless
 * written in place); the temporary file is removed on failure. */
static int render_into(const char *script, const char *png, const char *tmp, bool in_place, char *err,
                       size_t errlen)
{
    char *argv[] = { "gnuplot", "-d", "-c", (char *)script, (char *)tmp, NULL };
    pid_t pid;
    int rc = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
    if (rc != 0) {
        if (!in_place) unlink(tmp);
        if (rc == ENOENT)
            return gv_fail(err, errlen, GV_EUNSUP,
                           "gnuplot is not installed (plots are optional): the script %s is written; "
                           "install gnuplot-nox and fonts-dejavu-core (`make deps` as root), then run "
                           "`gnuplot -d %s`",
                           script, script);
        return gv_fail(err, errlen, GV_EIO, "cannot run gnuplot: %s", strerror(rc));
    }
    int st;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            st = -1;
            break;
        }
    }
    struct stat sb;
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || stat(tmp, &sb) != 0 ||
        (!in_place && sb.st_size == 0)) {
        if (!in_place) unlink(tmp);
        if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 127)
            return gv_fail(err, errlen, GV_EUNSUP, "gnuplot could not be started (exit 127)");
        return gv_fail(err, errlen, GV_EIO, "gnuplot failed on %s (see its messages above)", script);
    }
    if (!in_place && rename(tmp, png) != 0) {
        int e = errno;
        unlink(tmp);
        return gv_fail(err, errlen, GV_EIO, "%s: cannot rename into place: %s", png, strerror(e));
    }
    return GV_OK;
}

int gp_render(const char *script, const char *png, char *err, size_t errlen)
{
    size_t n = strlen(png) + 16;
    char *tmp = malloc(n);
    if (!tmp) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    struct stat pst;
    int slot = -1;
    bool in_place = stat(png, &pst) == 0 && !S_ISREG(pst.st_mode);  /* /dev/null: never rename over it */
    if (in_place) {
        snprintf(tmp, n, "%s", png);
    } else {
        snprintf(tmp, n, "%s.tmp.XXXXXX", png);
        int fd = afile_mkstemp(tmp, &slot);  /* removed if gvlsim is interrupted */
        if (fd < 0) {
            int e = errno;
            free(tmp);
            return gv_fail(err, errlen, GV_EIO, "%s: cannot create output file: %s", png, strerror(e));
        }
        fchmod(fd, 0644);  /* mkstemp made it 0600; gnuplot keeps the mode */
        close(fd);
    }
    int rc = render_into(script, png, tmp, in_place, err, errlen);
    afile_untrack(slot);
    free(tmp);
    return rc;
}

