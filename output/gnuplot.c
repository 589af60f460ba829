/* gnuplot.c - aggregate result columns and drive gnuplot (see gnuplot.h). */
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
#include "../input/units.h"
#include "csv.h"

extern char **environ;

/* ---- columns and cells ---------------------------------------------------- */

static int col_or_fail(const struct csv_table *t, const char *file, const char *opt,
                       const char *name, int *out, char *err, size_t errlen)
{
    *out = csvr_col(t, name);
    if (*out >= 0) return GV_OK;
    char list[GV_ERRLEN];  /* the CSV's names: escaped by gv_fail, like any text from a file */
    size_t off = 0;
    list[0] = '\0';
    for (int i = 0; i < t->ncols && off < sizeof list; i++)
        off += (size_t)snprintf(list + off, sizeof list - off, " %s", t->header[i]);
    return gv_fail(err, errlen, GV_EUSAGE, "%s%s%s %s: no such column; the columns are:%s", file ? file : "",
                   file ? ": " : "", opt, name, list);
}

/* A cell as a number: 0 empty, 1 a number, 2 a duration (in seconds: a
 * value with a unit, or a plain number of nanoseconds when `ns`), -1 not
 * a number. */
static int cell_value(const char *s, bool ns, double *v)
{
    if (!*s) return 0;
    char *end;
    *v = strtod(s, &end);
    if (end != s && *end == 0 && isfinite(*v)) {
        if (!ns) return 1;
        *v *= 1e-9;
        return 2;
    }
    sim_time ps;
    char why[128];
    if (units_parse(s, &ps, why, sizeof why) == UNITS_OK) {
        *v = (double)ps / (double)SIM_S;
        return 2;
    }
    return -1;
}

/* A result column measured in seconds (wall_s, running_s, ...). */
static bool seconds_column(const char *col)
{
    size_t n = strlen(col);
    return csv_column_kind(col) == ROW_NUM && n > 2 && strcmp(col + n - 2, "_s") == 0 &&
           !(n > 6 && strcmp(col + n - 6, "_per_s") == 0);
}

static const struct {
    const char *col, *label;
} column_labels[] = {
    { "wall_s", "wall time" },
    { "cpu_s", "CPU time, all cores" },
    { "host_s", "host time spent simulating" },
    { "ops", "ops (iterations of measured loops)" },
    { "ops_per_s", "ops per second" },
    { "vol_switches", "voluntary context switches" },
    { "invol_switches", "involuntary context switches" },
    { "main_vol_switches", "voluntary context switches of the main thread" },
    { "gvl_handoffs", "GVL hand-offs" },
    { "wakeups", "futex wake-ups" },
    { "wasted_wakes", "wasted wake-ups (the GVL was taken again)" },
    { "timer_ticks", "timer-thread ticks" },
    { "syscalls", "system calls" },
    { "barriers", "VM barriers" },
    { "vmlock_acquires", "VM lock acquisitions" },
    { "vmlock_waits", "VM lock waits" },
    { "line_transfers", "cache-line transfers" },
    { "native_threads", "native threads" },
    { "engine_events", "engine events" },
    { "cores", "cores" },
    { "machine.cores", "cores" },
    { "ractors", "Ractors" },
    { "threads", "threads" },
};

/* The short name of a column: "wall_s" itself, "cores" for machine.cores,
 * "threads" for ractors.0.threads.1.count, "dur" for ...body.1.dur. */
static void short_name(const char *col, char *buf, size_t len)
{
    const char *last = strrchr(col, '.');
    if (!last) {
        snprintf(buf, len, "%s", col);
        return;
    }
    if (strcmp(last + 1, "count") == 0) {  /* the container counted: ractors.1 -> "ractors" */
        const char *p = last;
        while (p > col && (p[-1] >= '0' && p[-1] <= '9')) p--;
        if (p > col && p[-1] == '.') p--;
        const char *q = p;
        while (q > col && q[-1] != '.') q--;
        snprintf(buf, len, "%.*s", (int)(p - q), q);
        if (strcmp(buf, "ractors") == 0) snprintf(buf, len, "Ractors");
        return;
    }
    snprintf(buf, len, "%s", last + 1);
}

/* An axis label from a column: "wall time", "time in wants_gvl, summed
 * over threads", "threads (ractors.0.threads.1.count)", or the column. */
static void column_label(const char *col, char *buf, size_t len)
{
    for (size_t i = 0; i < sizeof column_labels / sizeof *column_labels; i++)
        if (strcmp(col, column_labels[i].col) == 0) {
            snprintf(buf, len, "%s", column_labels[i].label);
            return;
        }
    for (int s = 0; s < TS_COUNT; s++) {
        const char *st = thread_state_name((enum thread_state)s);
        size_t n = strlen(st);
        if (strncmp(col, st, n) == 0 && strcmp(col + n, "_s") == 0) {
            snprintf(buf, len, "time in %s, summed over threads", st);
            return;
        }
    }
    const char *last = strrchr(col, '.');
    if (last && strcmp(last + 1, "count") == 0) {
        char sn[64];
        short_name(col, sn, sizeof sn);
        snprintf(buf, len, "%s (%s)", sn, col);
        return;
    }
    snprintf(buf, len, "%s", col);
}

/* ---- ticks ----------------------------------------------------------------- */

/* "%.3g" without an exponent for 1e-3 <= |v| < 1e3, trailing zeros gone. */
static void plain(char *buf, size_t len, double v)
{
    snprintf(buf, len, "%.3g", v);
    if (strchr(buf, 'e')) {  /* 3 significant digits would need an exponent */
        snprintf(buf, len, "%.6f", v);
        char *dot = strchr(buf, '.');
        if (dot) {
            char *e = buf + strlen(buf);
            while (e > dot + 1 && e[-1] == '0') *--e = 0;
            if (e[-1] == '.') e[-1] = 0;
        }
    }
}

static void tick_label(char *buf, size_t len, double v, enum gp_unit unit)
{
    static const struct { double scale; const char *prefix; } si_s[] = {
        { 1, " s" }, { 1e-3, " ms" }, { 1e-6, " µs" }, { 1e-9, " ns" }, { 1e-12, " ps" },
    };
    static const struct { double scale; const char *prefix; } si_n[] = {
        { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
    };
    char num[32];
    double a = fabs(v);
    if (v == 0) {
        snprintf(buf, len, unit == GP_SECONDS ? "0 s" : "0");
        return;
    }
    if (unit == GP_SECONDS) {
        size_t i = 0;
        while (i + 1 < sizeof si_s / sizeof *si_s && a < si_s[i].scale * 0.9999999) i++;
        plain(num, sizeof num, v / si_s[i].scale);
        snprintf(buf, len, "%s%s", num, si_s[i].prefix);
        return;
    }
    for (size_t i = 0; i < sizeof si_n / sizeof *si_n; i++)
        if (a >= si_n[i].scale * 0.9999999) {
            plain(num, sizeof num, v / si_n[i].scale);
            snprintf(buf, len, "%s%s", num, si_n[i].prefix);
            return;
        }
    plain(buf, len, v);
}

int gp_ticks(double lo, double hi, bool log, enum gp_unit unit, double *vals, char (*labels)[32],
             int max)
{
    int n = 0;
    if (!(hi > lo) || !isfinite(lo) || !isfinite(hi)) return 0;
    if (log && lo > 0) {
        /* decades; with 2 and 5 (then 2, 3, 5) between them when there are few */
        static const double sets[3][4] = { { 1, 0, 0, 0 }, { 1, 2, 5, 0 }, { 1, 2, 3, 5 } };
        for (int s = 0; s < 3; s++) {
            int k = 0;
            for (int e = (int)floor(log10(lo)) - 1; e <= (int)ceil(log10(hi)) && k < 64; e++)
                for (int m = 0; m < 4 && sets[s][m] > 0; m++) {
                    double v = sets[s][m] * pow(10, e);
                    if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) k++;
                }
            if (k >= 4 + s || s == 2) {  /* 4 decades, 5 ticks of 1-2-5, else 1-2-3-5 */
                for (int e = (int)floor(log10(lo)) - 1; e <= (int)ceil(log10(hi)); e++)
                    for (int m = 0; m < 4 && sets[s][m] > 0; m++) {
                        double v = sets[s][m] * pow(10, e);
                        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9) && n < max) vals[n++] = v;
                    }
                break;
            }
        }
        /* too many decades: every other one */
        while (n > 12) {
            int k = 0;
            for (int i = 0; i < n; i += 2) vals[k++] = vals[i];
            n = k;
        }
    }
    if (n < 3) {  /* a linear axis, or a log axis spanning too little for 1-2-3-5 */
        n = 0;
        double raw = (hi - lo) / 6, mag = pow(10, floor(log10(raw))), step = mag;
        static const double nice[] = { 1, 2, 2.5, 5, 10 };
        for (size_t i = 0; i < sizeof nice / sizeof *nice; i++)
            if (nice[i] * mag >= raw) {
                step = nice[i] * mag;
                break;
            }
        for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9 && n < max; v += step)
            vals[n++] = fabs(v) < step * 1e-9 ? 0 : v;
    }
    for (int i = 0; i < n; i++) tick_label(labels[i], sizeof labels[i], vals[i], unit);
    return n;
}

/* ---- aggregation ------------------------------------------------------------ */

static struct gp_series *series_of(struct gp_series **arr, size_t *n, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*arr)[i].name, name) == 0) return &(*arr)[i];
    struct gp_series *ns = realloc(*arr, (*n + 1) * sizeof *ns);
    if (!ns) return NULL;
    *arr = ns;
    struct gp_series *s = &ns[*n];
    memset(s, 0, sizeof *s);
    s->color = -1;
    s->name = strdup(name);
    if (!s->name) return NULL;
    (*n)++;
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

static void free_series(struct gp_series *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(s[i].name);
        free(s[i].pts);
    }
    free(s);
}

void gp_data_free(struct gp_data *d)
{
    free_series(d->series, d->nseries);
    free_series(d->refs, d->nrefs);
    for (size_t i = 0; i < d->nsources; i++) free(d->sources[i]);
    free(d->sources);
    for (size_t i = 0; i < d->nbars; i++) free(d->bars[i].label);
    free(d->bars);
    memset(d, 0, sizeof *d);
}

/* Read the (x, y) points of a table into series, grouped by `group_col`
 * (-1: one series called `single`).  `unit` of x/y become GP_SECONDS when
 * a cell is a duration. */
static int collect(const struct csv_table *t, const char *file, int cx, int cy, int cg,
                   const char *single, bool x_ns, struct gp_series **out, size_t *nout,
                   size_t *skipped, bool *x_dur, bool *y_dur, char *err, size_t errlen)
{
    for (size_t r = 0; r < t->nrows; r++) {
        double x = 0, y = 0;
        int kx = cell_value(csvr_cell(t, r, cx), x_ns, &x), ky = cell_value(csvr_cell(t, r, cy), false, &y);
        if (kx < 0 || ky < 0) {
            int bad = kx < 0 ? cx : cy;
            return gv_fail(err, errlen, GV_EUSAGE,
                           "%s: column %s is not numeric on data row %zu (\"%s\"); plot numeric "
                           "columns (or durations such as 10us), and use a text column as --series",
                           file, t->header[bad], r + 1, csvr_cell(t, r, bad));
        }
        if (!kx || !ky) {
            if (skipped) (*skipped)++;
            continue;
        }
        if (kx == 2) *x_dur = true;
        if (ky == 2) *y_dur = true;
        struct gp_series *se = series_of(out, nout, cg >= 0 ? csvr_cell(t, r, cg) : single);
        if (!se || add_point(se, x, y) != 0) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < *nout; i++)
        qsort((*out)[i].pts, (*out)[i].npts, sizeof(struct gp_point), by_x);
    return GV_OK;
}

static const struct gp_point *point_at(const struct gp_series *s, double x)
{
    for (size_t i = 0; i < s->npts; i++)
        if (fabs(s->pts[i].x - x) <= 1e-9 * fabs(x)) return &s->pts[i];
    return NULL;
}

static void divide(struct gp_point *p, double by)
{
    p->mean /= by;
    p->min /= by;
    p->max /= by;
}

/* --ratio-to COL=VALUE on one set of series. */
static int ratio(const struct gp_spec *s, struct gp_series *ser, size_t n, bool on_x, double xv,
                 const char *what, char *err, size_t errlen)
{
    /* the divisors first: a point may be its own reference */
    for (size_t i = 0; i < n; i++) {
        double *by = calloc(ser[i].npts ? ser[i].npts : 1, sizeof *by);
        if (!by) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
        const struct gp_series *rs = NULL;
        if (!on_x)
            for (size_t k = 0; k < n && !rs; k++)
                if (strcmp(ser[k].name, s->ratio_value) == 0) rs = &ser[k];
        for (size_t k = 0; k < ser[i].npts; k++) {
            const struct gp_point *ref = on_x ? point_at(&ser[i], xv) : rs ? point_at(rs, ser[i].pts[k].x) : NULL;
            if (!ref || ref->mean == 0) {
                free(by);
                if (on_x)
                    return gv_fail(err, errlen, GV_EUSAGE, "--ratio-to %s=%s: %s \"%s\" has no%s point at %s=%s",
                                   s->ratio_col, s->ratio_value, what, ser[i].name, ref ? " non-zero" : "",
                                   s->ratio_col, s->ratio_value);
                return gv_fail(err, errlen, GV_EUSAGE, "--ratio-to %s=%s: no%s %s=%s point at %s=%.12g",
                               s->ratio_col, s->ratio_value, ref ? " non-zero" : "", s->ratio_col,
                               s->ratio_value, s->xcol, ser[i].pts[k].x);
            }
            by[k] = ref->mean;
        }
        /* reference series are divided last, see below */
        if (!on_x && rs == &ser[i]) {
            free(by);
            continue;
        }
        for (size_t k = 0; k < ser[i].npts; k++) divide(&ser[i].pts[k], by[k]);
        free(by);
    }
    if (!on_x)
        for (size_t i = 0; i < n; i++)
            if (strcmp(ser[i].name, s->ratio_value) == 0)
                for (size_t k = 0; k < ser[i].npts; k++) divide(&ser[i].pts[k], ser[i].pts[k].mean);
    return GV_OK;
}

static int add_source(struct gp_data *d, const char *src)
{
    if (!*src) return GV_OK;
    for (size_t i = 0; i < d->nsources; i++)
        if (strcmp(d->sources[i], src) == 0) return GV_OK;
    char **ns = realloc(d->sources, (d->nsources + 1) * sizeof *ns);
    if (!ns) return GV_ENOMEM;
    d->sources = ns;
    if (!(ns[d->nsources] = strdup(src))) return GV_ENOMEM;
    d->nsources++;
    return GV_OK;
}

/* The reference rows: grouped by their label column, coloured like the
 * series they measure. */
static int build_refs(const struct gp_spec *s, struct gp_data *d, bool *x_dur, bool *y_dur,
                      char *err, size_t errlen)
{
    const struct csv_table *t = s->ref;
    int cx, cy, rc;
    if ((rc = col_or_fail(t, s->ref_path, "--x", s->xcol, &cx, err, errlen)) != GV_OK ||
        (rc = col_or_fail(t, s->ref_path, "--y", s->ycol, &cy, err, errlen)) != GV_OK)
        return rc;
    int cl = csvr_col(t, "label"), cs = csvr_col(t, "source");
    int cser = s->series_col ? csvr_col(t, s->series_col) : -1;
    rc = collect(t, s->ref_path, cx, cy, cl, "measured", s->x_ns, &d->refs, &d->nrefs, NULL, x_dur,
                 y_dur, err, errlen);
    if (rc != GV_OK) return rc;
    for (size_t r = 0; r < t->nrows; r++) {
        if (cs >= 0 && add_source(d, csvr_cell(t, r, cs)) != GV_OK)
            return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
        if (cser < 0) continue;
        const char *group = cl >= 0 ? csvr_cell(t, r, cl) : "measured";
        for (size_t g = 0; g < d->nrefs; g++) {
            if (strcmp(d->refs[g].name, group) != 0 || d->refs[g].color >= 0) continue;
            for (size_t k = 0; k < d->nseries; k++)
                if (strcmp(d->series[k].name, csvr_cell(t, r, cser)) == 0) d->refs[g].color = (int)k;
        }
    }
    return GV_OK;
}

/* --breakdown: one bar per (series, x), the rows' mean state times. */
static int build_bars(const struct csv_table *t, const struct gp_spec *s, int cx, int cg,
                      struct gp_data *d, char *err, size_t errlen)
{
    int cst[TS_COUNT], any = 0;
    for (int k = 0; k < TS_COUNT; k++) {
        char name[64];
        snprintf(name, sizeof name, "%s_s", thread_state_name((enum thread_state)k));
        cst[k] = csvr_col(t, name);
        any |= cst[k] >= 0;
    }
    if (!any)
        return gv_fail(err, errlen, GV_EUSAGE, "%s: --breakdown needs the state-time columns "
                                               "(running_s, wants_gvl_s, ...) of gvlsim's rows",
                       s->csv_path);
    int cw = csvr_col(t, "wall_s");
    /* configurations: series in order of appearance, x ascending within */
    struct gp_series *order = NULL;
    size_t norder = 0, skipped = 0;
    bool xd = false, yd = false;
    int rc = collect(t, s->csv_path, cx, cx, cg, "", s->x_ns, &order, &norder, &skipped, &xd, &yd, err,
                     errlen);
    if (rc != GV_OK) {
        free_series(order, norder);
        return rc;
    }
    size_t nbars = 0;
    for (size_t i = 0; i < norder; i++) nbars += order[i].npts;
    d->bars = calloc(nbars ? nbars : 1, sizeof *d->bars);
    if (!d->bars) {
        free_series(order, norder);
        return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    }
    char xs[64];
    short_name(s->xcol, xs, sizeof xs);
    for (size_t i = 0; i < norder; i++) {
        for (size_t k = 0; k < order[i].npts; k++) {
            struct gp_bar *b = &d->bars[d->nbars++];
            double x = order[i].pts[k].x;
            int n = 0;
            for (size_t r = 0; r < t->nrows; r++) {
                double v;
                if (cell_value(csvr_cell(t, r, cx), s->x_ns, &v) <= 0 || fabs(v - x) > 1e-9 * fabs(x)) continue;
                if (cg >= 0 && strcmp(csvr_cell(t, r, cg), order[i].name) != 0) continue;
                n++;
                for (int q = 0; q < TS_COUNT; q++)
                    if (cst[q] >= 0 && cell_value(csvr_cell(t, r, cst[q]), false, &v) > 0) b->state[q] += v;
                if (cw >= 0 && cell_value(csvr_cell(t, r, cw), false, &v) > 0) b->wall += v;
            }
            for (int q = 0; q < TS_COUNT; q++) b->state[q] /= n;
            b->wall /= n;
            char xv[32], lab[256];
            tick_label(xv, sizeof xv, x, xd ? GP_SECONDS : GP_NUMBER);
            if (!strcmp(xs, "cores")) snprintf(lab, sizeof lab, "%s core%s", xv, x == 1 ? "" : "s");
            else snprintf(lab, sizeof lab, "%s=%s", xs, xv);
            char full[512];
            snprintf(full, sizeof full, "%s%s%s", cg >= 0 ? order[i].name : "", cg >= 0 ? "\n" : "", lab);
            if (!(b->label = strdup(full))) {
                free_series(order, norder);
                return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
            }
        }
    }
    free_series(order, norder);
    return GV_OK;
}

int gp_build(const struct csv_table *t, const struct gp_spec *s, struct gp_data *d, char *err,
             size_t errlen)
{
    memset(d, 0, sizeof *d);
    int cx, cy = -1, cs = -1, rc;
    if ((rc = col_or_fail(t, NULL, "--x", s->xcol, &cx, err, errlen)) != GV_OK) return rc;
    if (s->series_col && (rc = col_or_fail(t, NULL, "--series", s->series_col, &cs, err, errlen)) != GV_OK)
        return rc;
    if (s->breakdown) {
        rc = build_bars(t, s, cx, cs, d, err, errlen);
        if (rc != GV_OK) gp_data_free(d);
        return rc;
    }
    if ((rc = col_or_fail(t, NULL, "--y", s->ycol, &cy, err, errlen)) != GV_OK) return rc;
    bool x_dur = s->x_ns, y_dur = seconds_column(s->ycol);
    rc = collect(t, s->csv_path, cx, cy, cs, s->ycol, s->x_ns, &d->series, &d->nseries, &d->skipped,
                 &x_dur, &y_dur, err, errlen);
    if (rc == GV_OK && d->nseries == 0)
        rc = gv_fail(err, errlen, GV_EUSAGE, "%s: no row has both %s and %s", s->csv_path, s->xcol,
                     s->ycol);
    if (rc == GV_OK && s->ref) rc = build_refs(s, d, &x_dur, &y_dur, err, errlen);
    if (rc == GV_OK && s->ratio_col) {
        bool on_x = strcmp(s->ratio_col, s->xcol) == 0;
        double xv = 0;
        if (!on_x && (!s->series_col || strcmp(s->ratio_col, s->series_col) != 0))
            rc = gv_fail(err, errlen, GV_EUSAGE, "--ratio-to %s: the column must be the --x column (%s) "
                                                 "or the --series column%s%s%s",
                         s->ratio_col, s->xcol, s->series_col ? " (" : "", s->series_col ? s->series_col : "",
                         s->series_col ? ")" : "");
        else if (on_x && cell_value(s->ratio_value, s->x_ns, &xv) <= 0)
            rc = gv_fail(err, errlen, GV_EUSAGE, "--ratio-to %s=%s: not a value of the x axis",
                         s->ratio_col, s->ratio_value);
        else if (!on_x && s->ref)
            rc = gv_fail(err, errlen, GV_EUSAGE, "--ratio-to on the series column: reference points "
                                                 "(--ref) can only be normalised along x");
        if (rc == GV_OK) rc = ratio(s, d->series, d->nseries, on_x, xv, s->series_col ? "series" : "the line",
                                    err, errlen);
        if (rc == GV_OK && d->nrefs) rc = ratio(s, d->refs, d->nrefs, true, xv, "reference", err, errlen);
        y_dur = false;
    }
    if (rc != GV_OK) {
        gp_data_free(d);
        return rc;
    }
    d->xunit = x_dur ? GP_SECONDS : GP_NUMBER;
    d->yunit = y_dur ? GP_SECONDS : GP_NUMBER;
    return GV_OK;
}

/* ---- the script ------------------------------------------------------------- */

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

/* A gnuplot double-quoted string, where \n is a line break. */
static void put_dq(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if (*s == '\n') fputs("\\n", f);
        else if (*s != '\r') fputc(*s, f);
    }
    fputc('"', f);
}

/* A comment line: no newline may escape it. */
static void put_comment(FILE *f, const char *prefix, const char *s)
{
    fprintf(f, "# %s", prefix);
    for (; *s; s++) fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    fputc('\n', f);
}

/* Okabe and Ito's colour-blind-safe palette, then darker tones. */
static const char *const colors[] = {
    "#E69F00", "#0072B2", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#999999",
    "#7F4F00", "#004466",
};
#define NCOLORS (sizeof colors / sizeof *colors)
/* filled: circle, square, triangle up, triangle down, diamond, pentagon */
static const int points[] = { 7, 5, 9, 11, 13, 15 };
/* open shapes for measured references */
static const int open_points[] = { 6, 4, 8, 10, 12, 14 };
static const char *const dashes[] = { "1", "(10,5)", "(3,4)", "(12,4,3,4)", "(6,3,2,3,2,3)", "(2,2)" };
#define NSTYLES 6

static void axis(FILE *f, char name, const char *label, bool log, enum gp_unit unit, double lo,
                 double hi, const double *fixed, int nfixed)
{
    fprintf(f, "set %clabel ", name);
    put_q(f, label);
    fputc('\n', f);
    if (log) fprintf(f, "set logscale %c\n", name);
    fprintf(f, "set %crange [%.12g:%.12g]\n", name, lo, hi);
    double vals[64];
    char labels[64][32];
    int n;
    if (fixed && nfixed) {  /* a tick on each value (cores 1, 2, 8) */
        n = nfixed;
        for (int i = 0; i < n; i++) {
            vals[i] = fixed[i];
            tick_label(labels[i], sizeof labels[i], vals[i], unit);
        }
    } else {
        n = gp_ticks(lo, hi, log, unit, vals, labels, 64);
    }
    fprintf(f, "set %ctics (", name);
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s", i ? ", " : "");
        put_q(f, labels[i]);
        fprintf(f, " %.12g", vals[i]);
    }
    fputs(")\n", f);
}

/* The range of an axis around [lo, hi]: on a log axis a factor beyond each
 * end (never whole empty decades), on a linear one from 0 for positive
 * data, else a few percent beyond each end. */
static void fit(double lo, double hi, bool log, bool from_zero, double *a, double *b)
{
    if (log) {
        if (!(lo > 0)) lo = hi > 0 ? hi / 10 : 1;
        if (!(hi > lo)) {
            *a = lo / 2;
            *b = lo * 2;
            return;
        }
        double f = pow(hi / lo, 0.05);
        if (f < 1.15) f = 1.15;
        *a = lo / f;
        *b = hi * f;
        return;
    }
    if (from_zero && lo >= 0) {
        *a = 0;
        *b = hi > 0 ? hi * 1.08 : 1;
        return;
    }
    double pad = hi > lo ? (hi - lo) * 0.08 : (lo != 0 ? fabs(lo) * 0.5 : 1);
    *a = lo - pad;
    *b = hi + pad;
}

static void extents(const struct gp_series *s, size_t n, bool logx, bool logy, double *xl, double *xh,
                    double *yl, double *yh)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < s[i].npts; k++) {
            const struct gp_point *p = &s[i].pts[k];
            if (!logx || p->x > 0) {
                if (p->x < *xl) *xl = p->x;
                if (p->x > *xh) *xh = p->x;
            }
            if (!logy || p->min > 0)
                if (p->min < *yl) *yl = p->min;
            if (p->max > *yh) *yh = p->max;
        }
}

static void header(FILE *f, const struct gp_spec *s, const char *what, int width, int height)
{
    fputs("# gnuplot script written by `gvlsim plot` (docs/output.md).\n", f);
    put_comment(f, "data: ", s->csv_path);
    if (s->ref_path) put_comment(f, "measured reference points: ", s->ref_path);
    if (s->command) put_comment(f, "made by: ", s->command);
    fputs("# Re-render: gnuplot -d THIS.gp   (or: gnuplot -d -c THIS.gp OTHER.png|OTHER.svg)\n", f);
    put_comment(f, "", what);  /* it names columns: data, so no newline of theirs escapes the comment */
    fputs("out = (ARGC >= 1) ? ARG1 : ", f);
    put_q(f, s->out);
    fputs("\nfmt = (ARGC >= 2) ? ARG2 : ((strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png')\n"
          "if (fmt eq 'svg') {\n", f);
    fprintf(f, "    set terminal svg size %d,%d dynamic noenhanced font 'DejaVu Sans,11'\n"
               "} else {\n"
               "    set terminal pngcairo size %d,%d noenhanced font 'DejaVu Sans,11'\n"
               "}\n", width, height, width, height);
    fputs("set encoding utf8\n"
          "set output out\n"
          "set datafile separator comma\n", f);
}

/* The references' sources, one line each between the title (moved up)
 * and the plot. */
static void sources(FILE *f, const struct gp_data *d)
{
    if (!d->nsources) return;
    fprintf(f, "set tmargin %zu\nset title offset 0, %zu\n", 3 + d->nsources, d->nsources);
    for (size_t i = 0; i < d->nsources; i++) {
        char line[1024];
        snprintf(line, sizeof line, "measured: %s", d->sources[i]);
        fprintf(f, "set label %zu ", i + 1);
        put_q(f, line);
        fprintf(f, " at graph 0.5, graph 1 center offset 0, character %.1f font ',9'\n",
                (double)(d->nsources - i) - 0.2);
    }
}

/* The size of the bar chart and how its tick labels go.  Horizontal labels
 * need a slot of at least their widest line per bar: the image widens
 * (from 1280 pixels) until it holds them, up to BAR_MAX_WIDTH; beyond, the
 * labels turn upright (rotated 90 degrees, so that neighbours never touch
 * whatever their length) if that makes the image narrower, and it grows
 * downwards instead, so that the bars keep their height.  Widths are estimated at BAR_CHAR_PX per
 * character: pngcairo draws DejaVu Sans 11 pt at 96 dpi, 14.7 pixels to
 * the em, about 8.8 pixels a character on these labels ("quantum=100 ms"
 * measured 123 pixels; the SVG terminal draws it smaller). */
#define BAR_CHAR_PX 9
#define BAR_LINE_PX 18        /* a line of 11 pt text at 96 dpi */
#define BAR_MIN_SLOT 90       /* pixels a bar at the least */
#define BAR_EXTRA_PX 280      /* the y axis, its label and the key beside the bars */
#define BAR_MAX_WIDTH 2400

struct bar_layout {
    int width, height, bmargin;  /* bmargin: in lines */
    bool rotate;
};

/* Bar b's tick label: its configuration, and its wall time if `walls`. */
static void bar_tick(const struct gp_data *d, size_t b, bool walls, char *buf, size_t len)
{
    char wall[32];
    tick_label(wall, sizeof wall, d->bars[b].wall, GP_SECONDS);
    snprintf(buf, len, "%s%s%s", d->bars[b].label, walls ? "\nwall " : "", walls ? wall : "");
}

static struct bar_layout bar_layout(const struct gp_data *d, bool walls)
{
    /* the widest line of the labels in characters (UTF-8: "µs" is two
     * bytes, one character), and the most lines of one */
    int widest = 0, lines = 1;
    for (size_t b = 0; b < d->nbars; b++) {
        char lab[600];
        bar_tick(d, b, walls, lab, sizeof lab);
        int w = 0, l = 1;
        for (const unsigned char *p = (const unsigned char *)lab; *p; p++) {
            if (*p == '\n') {
                l++;
                w = 0;
            } else if ((*p & 0xC0) != 0x80 && ++w > widest) {
                widest = w;
            }
        }
        if (l > lines) lines = l;
    }
    size_t nbars = d->nbars;
    struct bar_layout lay = { .height = 720, .bmargin = lines + 3 > 6 ? lines + 3 : 6 };
    int flat = widest * BAR_CHAR_PX + 12, upright = lines * BAR_LINE_PX + 12;  /* pixels a bar */
    if (flat < BAR_MIN_SLOT) flat = BAR_MIN_SLOT;
    if (upright < BAR_MIN_SLOT) upright = BAR_MIN_SLOT;
    long width = (long)nbars * flat + BAR_EXTRA_PX;
    if (width > BAR_MAX_WIDTH && upright < flat) {  /* many short labels stay flat: nothing to gain */
        lay.rotate = true;
        width = (long)nbars * upright + BAR_EXTRA_PX;
        int label_lines = (widest * BAR_CHAR_PX + BAR_LINE_PX - 1) / BAR_LINE_PX;  /* upright text, in lines */
        lay.bmargin = label_lines + 2;
        lay.height += (lay.bmargin - 6 > 0 ? lay.bmargin - 6 : 0) * BAR_LINE_PX;
    }
    lay.width = width < 1280 ? 1280 : width > 100000 ? 100000 : (int)width;
    return lay;
}

static void write_breakdown(FILE *f, const struct gp_spec *s, const struct gp_data *d)
{
    bool used[TS_COUNT] = { false };
    int nused = 0;
    for (int q = 0; q < TS_COUNT; q++) {
        for (size_t b = 0; b < d->nbars; b++) used[q] |= d->bars[b].state[q] > 0;
        nused += used[q];
    }
    /* each bar's wall time under its label, unless they are all the same */
    bool walls = false;
    for (size_t b = 1; b < d->nbars; b++) walls |= d->bars[b].wall != d->bars[0].wall;
    struct bar_layout lay = bar_layout(d, walls);
    header(f, s, "Bars: the share of thread time in each state (the rows' mean state times), one bar per configuration.",
           lay.width, lay.height);
    char title[512];
    if (s->title) snprintf(title, sizeof title, "%s", s->title);
    else snprintf(title, sizeof title, "where the threads' time goes, by state (%s)", s->csv_path);
    if (d->nbars > 1 && !walls && d->bars[0].wall > 0) {  /* fixed-length runs: say it once */
        char wall[32];
        size_t n = strlen(title);
        tick_label(wall, sizeof wall, d->bars[0].wall, GP_SECONDS);
        snprintf(title + n, sizeof title - n, " (every run %s)", wall);
    }
    fputs("set title ", f);
    put_q(f, title);
    fputs("\nset ylabel 'share of thread time (%)'\nset yrange [0:100]\nset ytics 10\nset grid ytics\n"
          "set key outside right top reverse Left width 3\nset style data histograms\n"
          "set style histogram rowstacked\nset style fill solid 0.9 border rgb '#333333'\n"
          "set boxwidth 0.75\n", f);
    fprintf(f, "set bmargin %d\nset xrange [-0.6:%.1f]\n", lay.bmargin, (double)d->nbars - 0.4);
    fprintf(f, "set xtics nomirror %s(", lay.rotate ? "rotate by 90 right " : "");
    for (size_t b = 0; b < d->nbars; b++) {
        char lab[600];
        bar_tick(d, b, walls, lab, sizeof lab);
        fprintf(f, "%s", b ? ", " : "");
        put_dq(f, lab);
        fprintf(f, " %zu", b);
    }
    fputs(")\n", f);

    static const char *const state_colors[] = {
        "#009E73", "#D55E00", "#56B4E9", "#BBBBBB", "#F0E442", "#CC79A7", "#E69F00", "#0072B2", "#7F4F00",
        "#882255",
    };
    _Static_assert(sizeof state_colors / sizeof state_colors[0] == TS_COUNT, "a colour per thread state");
    fprintf(f, "array name[%d] = [", nused ? nused : 1);
    int k = 0;
    for (int q = 0; q < TS_COUNT; q++)
        if (used[q]) {
            fprintf(f, "%s", k++ ? ", " : "");
            put_q(f, thread_state_name((enum thread_state)q));
        }
    if (!nused) fputs("'none'", f);
    fprintf(f, "]\narray color[%d] = [", nused ? nused : 1);
    k = 0;
    for (int q = 0; q < TS_COUNT; q++)
        if (used[q]) fprintf(f, "%s'%s'", k++ ? ", " : "", state_colors[q]);
    if (!nused) fputs("'#000000'", f);
    fputs("]\n$bars << EOD\n# bar", f);
    for (int q = 0; q < TS_COUNT; q++)
        if (used[q]) fprintf(f, ",%s %%", thread_state_name((enum thread_state)q));
    fputc('\n', f);
    for (size_t b = 0; b < d->nbars; b++) {
        double sum = 0;
        for (int q = 0; q < TS_COUNT; q++) sum += d->bars[b].state[q];
        fprintf(f, "%zu", b);
        for (int q = 0; q < TS_COUNT; q++)
            if (used[q]) fprintf(f, ",%.6g", sum > 0 ? 100 * d->bars[b].state[q] / sum : 0);
        fputc('\n', f);
    }
    fprintf(f, "EOD\nplot for [i=2:%d] $bars using i title name[i-1] lc rgb color[i-1]\nunset output\n",
            nused + 1);
}

void gp_write_script(FILE *f, const struct gp_spec *s, const struct gp_data *d)
{
    if (s->breakdown) {
        write_breakdown(f, s, d);
        return;
    }
    char title[512], xlabel[512], ylabel[512];
    if (s->title) snprintf(title, sizeof title, "%s", s->title);
    else if (s->series_col)
        snprintf(title, sizeof title, "%s vs %s, by %s", s->ycol, s->xcol,
                 s->series_title ? s->series_title : s->series_col);
    else snprintf(title, sizeof title, "%s vs %s", s->ycol, s->xcol);
    if (s->xlabel) snprintf(xlabel, sizeof xlabel, "%s", s->xlabel);
    else column_label(s->xcol, xlabel, sizeof xlabel);
    if (s->ylabel) snprintf(ylabel, sizeof ylabel, "%s", s->ylabel);
    else column_label(s->ycol, ylabel, sizeof ylabel);
    if (s->ratio_col) {
        size_t n = strlen(ylabel);
        bool on_series = s->series_col && !strcmp(s->ratio_col, s->series_col) && s->series_title;
        snprintf(ylabel + n, sizeof ylabel - n, ", relative to %s=%s",
                 on_series ? s->series_title : s->ratio_col, s->ratio_value);
    }

    bool errorbars = false;
    double xs[13];
    int nxs = 0;
    for (size_t i = 0; i < d->nseries; i++)
        for (size_t k = 0; k < d->series[i].npts; k++) {
            const struct gp_point *p = &d->series[i].pts[k];
            if (p->n > 1) errorbars = true;
            int seen = 0;
            for (int j = 0; j < nxs; j++) seen |= xs[j] == p->x;
            if (!seen && nxs < 13) xs[nxs++] = p->x;
        }
    double xl = INFINITY, xh = -INFINITY, yl = INFINITY, yh = -INFINITY;
    extents(d->series, d->nseries, s->logx, s->logy, &xl, &xh, &yl, &yh);
    extents(d->refs, d->nrefs, s->logx, s->logy, &xl, &xh, &yl, &yh);
    double x0, x1, y0, y1;
    fit(xl, xh, s->logx, false, &x0, &x1);
    fit(yl, yh, s->logy, true, &y0, &y1);

    char what[256];
    snprintf(what, sizeof what, "Points: %s (mean over rows with the same x%s), one line per %s%s.",
             s->ycol, errorbars ? "; bars: min..max" : "", s->series_col ? s->series_col : "column",
             d->nrefs ? "; open symbols: measured reference points" : "");
    header(f, s, what, 1280, 720);
    for (size_t i = 0; i < d->nsources; i++) put_comment(f, "source: ", d->sources[i]);
    fputs("set title ", f);
    put_q(f, title);
    fputc('\n', f);
    /* few x values (cores, threads): a tick on each, in order */
    for (int i = 1; i < nxs; i++)
        for (int j = i; j > 0 && xs[j - 1] > xs[j]; j--) {
            double t = xs[j];
            xs[j] = xs[j - 1];
            xs[j - 1] = t;
        }
    axis(f, 'x', xlabel, s->logx, d->xunit, x0, x1, xs, nxs <= 12 ? nxs : 0);
    axis(f, 'y', ylabel, s->logy, s->ratio_col ? GP_NUMBER : d->yunit, y0, y1, NULL, 0);
    fputs("set grid xtics ytics lc rgb '#dddddd'\nset key outside below center horizontal height 1.5\n", f);
    if (s->ratio_col) fputs("set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 3 lc rgb '#666666'\n", f);
    sources(f, d);
    for (size_t i = 0; i < d->nseries; i++) {
        fprintf(f, "$s%zu << EOD\n# x,mean,min,max,n\n", i);
        for (size_t k = 0; k < d->series[i].npts; k++) {
            const struct gp_point *p = &d->series[i].pts[k];
            fprintf(f, "%.12g,%.12g,%.12g,%.12g,%d\n", p->x, p->mean, p->min, p->max, p->n);
        }
        fputs("EOD\n", f);
    }
    for (size_t i = 0; i < d->nrefs; i++) {
        fprintf(f, "$r%zu << EOD\n# x,measured\n", i);
        for (size_t k = 0; k < d->refs[i].npts; k++)
            fprintf(f, "%.12g,%.12g\n", d->refs[i].pts[k].x, d->refs[i].pts[k].mean);
        fputs("EOD\n", f);
    }
    /* each series its own colour, dash and point type; the first drawn
     * widest, so that a later series on top of it leaves it visible */
    fputs("plot ", f);
    size_t n = d->nseries;
    for (size_t i = 0; i < n; i++) {
        char t[512];
        if (s->series_col)
            snprintf(t, sizeof t, "%s=%s", s->series_title ? s->series_title : s->series_col,
                     d->series[i].name);
        else snprintf(t, sizeof t, "%s", ylabel);
        double lw = n > 1 ? 2 + 3.5 * (double)(n - 1 - i) / (double)(n - 1) : 2.5;
        double ps = n > 1 ? 1.2 + 1.4 * (double)(n - 1 - i) / (double)(n - 1) : 1.5;
        fprintf(f, "%s$s%zu using 1:2%s with %s lw %.2f dt %s pt %d ps %.2f lc rgb '%s' title ",
                i ? ", \\\n     " : "", i, errorbars ? ":3:4" : "", errorbars ? "yerrorlines" : "linespoints",
                lw, dashes[i % NSTYLES], points[i % NSTYLES], ps, colors[i % NCOLORS]);
        put_q(f, t);
    }
    for (size_t i = 0; i < d->nrefs; i++) {
        char t[512];
        snprintf(t, sizeof t, "measured: %s", d->refs[i].name);
        const char *c = d->refs[i].color >= 0 ? colors[(size_t)d->refs[i].color % NCOLORS] : "#000000";
        /* a black ring under the coloured one: visible on a point of its own colour */
        fprintf(f, ", \\\n     $r%zu using 1:2 with points pt %d ps 3 lw 5 lc rgb '#000000' notitle", i,
                open_points[i % NSTYLES]);
        fprintf(f, ", \\\n     $r%zu using 1:2 with points pt %d ps 3 lw 2 lc rgb '%s' title ", i,
                open_points[i % NSTYLES], c);
        put_q(f, t);
    }
    fputs("\nunset output\n", f);
}

/* ---- running gnuplot -------------------------------------------------------- */

static bool is_svg(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcmp(path + n - 4, ".svg") == 0;
}

/* Run gnuplot on `script` into `tmp`, then rename it over `out` (unless
 * written in place); the temporary file is removed on failure. */
static int render_into(const char *script, const char *out, const char *tmp, bool in_place, char *err,
                       size_t errlen)
{
    char *argv[] = { "gnuplot", "-d", "-c", (char *)script, (char *)tmp, is_svg(out) ? "svg" : "png", NULL };
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
    if (!in_place && rename(tmp, out) != 0) {
        int e = errno;
        unlink(tmp);
        return gv_fail(err, errlen, GV_EIO, "%s: cannot rename into place: %s", out, strerror(e));
    }
    return GV_OK;
}

int gp_render(const char *script, const char *out, char *err, size_t errlen)
{
    size_t n = strlen(out) + 16;
    char *tmp = malloc(n);
    if (!tmp) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    struct stat pst;
    int slot = -1;
    bool in_place = stat(out, &pst) == 0 && !S_ISREG(pst.st_mode);  /* /dev/null: never rename over it */
    if (in_place) {
        snprintf(tmp, n, "%s", out);
    } else {
        snprintf(tmp, n, "%s.tmp.XXXXXX", out);
        int fd = afile_mkstemp(tmp, &slot);  /* removed if gvlsim is interrupted */
        if (fd < 0) {
            int e = errno;
            free(tmp);
            return gv_fail(err, errlen, GV_EIO, "%s: cannot create output file: %s", out, strerror(e));
        }
        fchmod(fd, 0644);  /* mkstemp made it 0600; gnuplot keeps the mode */
        close(fd);
    }
    int rc = render_into(script, out, tmp, in_place, err, errlen);
    afile_untrack(slot);
    free(tmp);
    return rc;
}
