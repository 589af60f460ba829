/* validate.c - the comparison table of `gvlsim validate` (validate.h). */
#include "validate.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/stats.h"

static const char *const metric_names[VAL_NMETRICS] = {
    [VAL_WALL] = "wall_s",
    [VAL_OPS_PER_S] = "ops_per_s",
    [VAL_CORES_RATIO] = "cores_ratio",
    [VAL_VOL_PER_OP] = "vol_switches_per_op",
    [VAL_HANDOFFS_PER_OP] = "gvl_handoffs_per_op",
    [VAL_CPUS_BUSY] = "cpus_busy",
    [VAL_GC_PER_GC] = "gc_ms_per_gc",
};

const char *val_metric_name(enum val_metric m)
{
    return m < VAL_NMETRICS ? metric_names[m] : "?";
}

void val_figures_of(const struct run_metrics *m, struct val_figures *f)
{
    memset(f, 0, sizeof *f);
    f->ok = true;
    f->wall_s = (double)m->wall / (double)SIM_S;
    f->ops = (double)m->ops;
    f->has_vol = metrics_measured(m, MET_VOL_SWITCHES);
    f->vol_switches = (double)m->vol_switches;
    f->has_handoffs = metrics_measured(m, MET_GVL_HANDOFFS);
    f->gvl_handoffs = (double)m->gvl_handoffs;
    f->has_cpu = metrics_measured(m, MET_CPU);
    f->cpu_s = (double)m->cpu / (double)SIM_S;
    f->has_gc = metrics_measured(m, MET_GC_CLOCK) && metrics_measured(m, MET_GC_COUNT);
    f->gc_clock_s = (double)m->gc_clock / (double)SIM_S;
    f->gc_count = (double)m->gc_count;
}

static bool parse_num(const char *s, double *v)
{
    if (!s || !*s) return false;
    char *end;
    *v = strtod(s, &end);
    return *end == 0 && isfinite(*v);
}

int val_figures_parse(const char *wall_s, const char *ops, const char *vol, const char *handoffs,
                      const char *cpu_s, const char *gc_clock_s, const char *gc_count, struct val_figures *f)
{
    memset(f, 0, sizeof *f);
    if (!parse_num(wall_s, &f->wall_s) || !parse_num(ops, &f->ops)) return -1;
    f->has_vol = parse_num(vol, &f->vol_switches);
    f->has_handoffs = parse_num(handoffs, &f->gvl_handoffs);
    f->has_cpu = parse_num(cpu_s, &f->cpu_s);
    f->has_gc = parse_num(gc_clock_s, &f->gc_clock_s) && parse_num(gc_count, &f->gc_count);
    f->ok = true;
    return 0;
}

/* Time per op: what the cores ratio compares (wall alone without ops). */
static double time_per_op(const struct val_figures *f)
{
    return f->ops > 0 ? f->wall_s / f->ops : f->wall_s;
}

/* The value of a metric other than the ratio for one run; false if the run
 * failed or the backend does not measure it. */
static bool value_of(enum val_metric m, const struct val_figures *f, double *v)
{
    if (!f->ok) return false;
    switch (m) {
    case VAL_WALL: *v = f->wall_s; return true;
    case VAL_OPS_PER_S:
        if (!(f->wall_s > 0)) return false;
        *v = f->ops / f->wall_s;
        return true;
    case VAL_VOL_PER_OP:
        if (!f->has_vol || !(f->ops > 0)) return false;
        *v = f->vol_switches / f->ops;
        return true;
    case VAL_HANDOFFS_PER_OP:
        if (!f->has_handoffs || !(f->ops > 0)) return false;
        *v = f->gvl_handoffs / f->ops;
        return true;
    case VAL_CPUS_BUSY:
        if (!f->has_cpu || !(f->wall_s > 0)) return false;
        *v = f->cpu_s / f->wall_s;
        return true;
    case VAL_GC_PER_GC:
        if (!f->has_gc || !(f->gc_count > 0)) return false;
        *v = f->gc_clock_s * 1000.0 / f->gc_count;
        return true;
    case VAL_CORES_RATIO:
    case VAL_NMETRICS: break;
    }
    return false;
}

static bool ratio_of(const struct val_figures *f, const struct val_figures *base, double *v)
{
    if (!f->ok || !base->ok) return false;
    double b = time_per_op(base);
    if (!(b > 0)) return false;
    *v = time_per_op(f) / b;
    return true;
}

static int nseeds_of(const struct val_input *in)
{
    return in->nseeds > 1 ? in->nseeds : 1;
}

static const struct val_figures *sim_at(const struct val_input *in, int p, int seed)
{
    return &in->sim[(size_t)p * (size_t)nseeds_of(in) + (size_t)seed];
}

/* Does the point's scenario count ops?  (the simulator says, else any run) */
static bool counts_ops(const struct val_input *in, int p)
{
    for (int k = 0; k < nseeds_of(in); k++)
        if (sim_at(in, p, k)->ok) return sim_at(in, p, k)->ops > 0;
    for (int i = 0; i < in->nreal * in->nreps; i++) {
        const struct val_figures *f = &in->real[(size_t)p * (size_t)(in->nreal * in->nreps) + (size_t)i];
        if (f->ok && f->ops > 0) return true;
    }
    return false;
}

/* Does any run at the point give the metric's figure?  (No cpus_busy row
 * of nothing: hand-made rows may leave cpu_s out; no gc_ms_per_gc row for
 * a run without a collection.) */
static bool any_has(const struct val_input *in, int p, enum val_metric m)
{
    double v;
    for (int k = 0; k < nseeds_of(in); k++)
        if (sim_at(in, p, k)->ok && value_of(m, sim_at(in, p, k), &v)) return true;
    for (int i = 0; i < in->nreal * in->nreps; i++) {
        const struct val_figures *f = &in->real[(size_t)p * (size_t)(in->nreal * in->nreps) + (size_t)i];
        if (f->ok && value_of(m, f, &v)) return true;
    }
    return false;
}

static bool metric_applies(const struct val_input *in, int p, enum val_metric m)
{
    switch (m) {
    case VAL_WALL: return !in->fixed_time;
    case VAL_OPS_PER_S: return in->fixed_time && counts_ops(in, p);
    case VAL_CORES_RATIO: return in->base[p] >= 0 && in->base[p] != p;
    case VAL_VOL_PER_OP:
    case VAL_HANDOFFS_PER_OP: return counts_ops(in, p);
    case VAL_CPUS_BUSY:
    case VAL_GC_PER_GC: return any_has(in, p, m);
    case VAL_NMETRICS: break;
    }
    return false;
}

static const struct val_figures *real_at(const struct val_input *in, int p, int b, int rep)
{
    return &in->real[((size_t)p * (size_t)in->nreal + (size_t)b) * (size_t)in->nreps + (size_t)rep];
}

/* The row's figures: the simulated ones over the seeds (the ratio seed by
 * seed: seed k at the point over seed k at the base, as the measured k-th
 * run over the base's k-th), the measured ones over the runs. */
static void fill_row(const struct val_input *in, int p, int b, enum val_metric m, double *buf, double *sbuf,
                     struct val_row *r)
{
    memset(r, 0, sizeof *r);
    r->point = p;
    r->backend = b;
    r->metric = m;
    if (m == VAL_CORES_RATIO) {
        for (int k = 0; k < nseeds_of(in); k++)
            if (ratio_of(sim_at(in, p, k), sim_at(in, in->base[p], k), &sbuf[r->sim_n])) r->sim_n++;
        for (int k = 0; k < in->nreps; k++)
            if (ratio_of(real_at(in, p, b, k), real_at(in, in->base[p], b, k), &buf[r->n])) r->n++;
    } else {
        for (int k = 0; k < nseeds_of(in); k++)
            if (value_of(m, sim_at(in, p, k), &sbuf[r->sim_n])) r->sim_n++;
        for (int k = 0; k < in->nreps; k++)
            if (value_of(m, real_at(in, p, b, k), &buf[r->n])) r->n++;
    }
    if (r->sim_n > 0) {
        r->has_sim = true;
        r->sim = stats_median(sbuf, (size_t)r->sim_n);  /* sorts sbuf */
        r->sim_min = sbuf[0];
        r->sim_max = sbuf[r->sim_n - 1];
    }
    if (r->n > 0) {
        r->median = stats_median(buf, (size_t)r->n);  /* sorts buf */
        r->min = buf[0];
        r->max = buf[r->n - 1];
    }
    if (r->has_sim && r->n > 0) {
        if (r->median != 0) {
            r->has_err = true;
            r->err = r->sim / r->median - 1;
        } else if (r->sim == 0) {
            r->has_err = true;  /* both zero: exact */
        }
    }
}

int val_table(const struct val_input *in, struct val_row **rows, size_t *nrows)
{
    *rows = NULL;
    *nrows = 0;
    size_t cap = (size_t)in->npoints * VAL_NMETRICS * (size_t)(in->nreal > 0 ? in->nreal : 1);
    struct val_row *out = malloc((cap ? cap : 1) * sizeof *out);
    double *buf = malloc((size_t)(in->nreps > 0 ? in->nreps : 1) * sizeof *buf);
    double *sbuf = malloc((size_t)nseeds_of(in) * sizeof *sbuf);
    if (!out || !buf || !sbuf) {
        free(out);
        free(buf);
        free(sbuf);
        return GV_ENOMEM;
    }
    size_t n = 0;
    for (int p = 0; p < in->npoints; p++)
        for (int m = 0; m < VAL_NMETRICS; m++) {
            if (!metric_applies(in, p, (enum val_metric)m)) continue;
            for (int b = 0; b < in->nreal; b++) fill_row(in, p, b, (enum val_metric)m, buf, sbuf, &out[n++]);
        }
    free(buf);
    free(sbuf);
    *rows = out;
    *nrows = n;
    return GV_OK;
}

/* ---- rows ------------------------------------------------------------------ */

void val_columns(const struct val_report *r, struct row *cols)
{
    row_text(cols, "point");
    for (int k = 0; k < r->nkeys; k++) row_text(cols, r->keys[k]);
    static const char *const rest[] = { "metric", "backend", "engine", "simulated", "measured_min",
                                        "measured_median", "measured_max", "runs", "rel_error" };
    for (size_t i = 0; i < sizeof rest / sizeof *rest; i++) row_text(cols, rest[i]);
    if (r->nseeds > 1) {
        row_text(cols, "simulated_min");
        row_text(cols, "simulated_max");
        row_text(cols, "simulated_runs");
    }
    if (r->ranges) {
        row_text(cols, "range_min");
        row_text(cols, "range_max");
        row_text(cols, "sensitive_to");
        row_text(cols, "sensitive_measurement");
    }
}

static const struct val_range *range_of(const struct val_report *r, const struct val_row *vr)
{
    return r->ranges ? &r->ranges[(size_t)vr->point * VAL_NMETRICS + (size_t)vr->metric] : NULL;
}

static void num_cell(struct row *cells, bool has, double v)
{
    if (!has || !isfinite(v)) {
        row_null(cells);
        return;
    }
    row_cell(cells, ROW_NUM);
    row_printf(cells, "%.9g", v);
}

void val_row_cells(const struct val_report *r, const struct val_row *vr, struct row *cells)
{
    row_cell(cells, ROW_NUM);
    row_printf(cells, "%d", vr->point);
    for (int k = 0; k < r->nkeys; k++) row_guess(cells, r->values[(size_t)vr->point * (size_t)r->nkeys + (size_t)k]);
    row_text(cells, val_metric_name(vr->metric));
    row_text(cells, r->backends[vr->backend]);
    row_text(cells, r->engines[vr->backend]);
    num_cell(cells, vr->has_sim, vr->sim);
    num_cell(cells, vr->n > 0, vr->min);
    num_cell(cells, vr->n > 0, vr->median);
    num_cell(cells, vr->n > 0, vr->max);
    row_cell(cells, ROW_NUM);
    row_printf(cells, "%d", vr->n);
    num_cell(cells, vr->has_err, vr->err);
    if (r->nseeds > 1) {
        num_cell(cells, vr->has_sim, vr->sim_min);
        num_cell(cells, vr->has_sim, vr->sim_max);
        row_cell(cells, ROW_NUM);
        row_printf(cells, "%d", vr->sim_n);
    }
    const struct val_range *g = range_of(r, vr);
    if (g) {
        num_cell(cells, g->has, g->lo);
        num_cell(cells, g->has, g->hi);
        if (g->has && g->by) row_text(cells, g->by);
        else row_null(cells);
        if (g->has && g->measurement) row_text(cells, g->measurement);
        else row_null(cells);
    }
}

/* ---- the report ------------------------------------------------------------ */

/* A table of strings, printed aligned (text) or as Markdown. */
struct grid {
    int ncols;
    size_t nrows, cap;
    char **cells;   /* [row * ncols + col], malloc'ed (NULL: empty) */
    bool oom;
};

static void grid_add(struct grid *g, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void grid_row(struct grid *g)
{
    if (g->oom) return;
    if (g->nrows == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        char **c = realloc(g->cells, cap * (size_t)g->ncols * sizeof *c);
        if (!c) {
            g->oom = true;
            return;
        }
        g->cells = c;
        g->cap = cap;
    }
    memset(&g->cells[g->nrows * (size_t)g->ncols], 0, (size_t)g->ncols * sizeof *g->cells);
    g->nrows++;
}

static void grid_add(struct grid *g, int col, const char *fmt, ...)
{
    if (g->oom || g->nrows == 0) return;
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0) {
        s = NULL;
        g->oom = true;
    }
    va_end(ap);
    char **slot = &g->cells[(g->nrows - 1) * (size_t)g->ncols + (size_t)col];
    free(*slot);
    *slot = s;
}

static void grid_free(struct grid *g)
{
    for (size_t i = 0; i < g->nrows * (size_t)g->ncols; i++) free(g->cells[i]);
    free(g->cells);
}

static const char *cell(const struct grid *g, size_t row, int col)
{
    const char *s = g->cells[row * (size_t)g->ncols + (size_t)col];
    return s ? s : "";
}

/* Display width of a UTF-8 string (code points). */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++) w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void grid_print_text(FILE *f, const struct grid *g)
{
    size_t *w = calloc((size_t)g->ncols, sizeof *w);
    if (!w) return;
    for (size_t r = 0; r < g->nrows; r++)
        for (int c = 0; c < g->ncols; c++) {
            size_t x = width(cell(g, r, c));
            if (x > w[c]) w[c] = x;
        }
    for (size_t r = 0; r < g->nrows; r++) {
        /* trailing blanks left out */
        int last = g->ncols - 1;
        while (last > 0 && !*cell(g, r, last)) last--;
        for (int c = 0; c <= last; c++) {
            const char *s = cell(g, r, c);
            /* text left-aligned in the first two columns, numbers right */
            size_t pad = w[c] - width(s);
            if (c < 2) fprintf(f, "%s%*s", s, c < last ? (int)pad : 0, "");
            else fprintf(f, "%*s%s", (int)pad, "", s);
            if (c < last) fputs("  ", f);
        }
        fputc('\n', f);
    }
    free(w);
}

static void grid_print_markdown(FILE *f, const struct grid *g)
{
    for (size_t r = 0; r < g->nrows; r++) {
        fputc('|', f);
        for (int c = 0; c < g->ncols; c++) {
            const char *s = cell(g, r, c);
            fputc(' ', f);
            for (; *s; s++) {
                if (*s == '|') fputc('\\', f);
                fputc(*s, f);
            }
            fputs(" |", f);
        }
        fputc('\n', f);
        if (r == 0) {
            fputc('|', f);
            for (int c = 0; c < g->ncols; c++) fputs(c < 2 ? "---|" : "---:|", f);
            fputc('\n', f);
        }
    }
}

static void config_label(const struct val_report *r, int point, char *buf, size_t len)
{
    size_t off = 0;
    buf[0] = 0;
    for (int k = 0; k < r->nkeys && off + 1 < len; k++) {
        int n = snprintf(buf + off, len - off, "%s%s=%s", k ? " " : "", r->keys[k],
                         r->values[(size_t)point * (size_t)r->nkeys + (size_t)k]);
        if (n < 0) break;
        off += (size_t)n;
    }
}

static void fmt_err(struct grid *g, int col, const struct val_row *vr)
{
    if (!vr->has_err) return;
    double pct = 100 * vr->err;
    if (fabs(pct) < 9999.5) grid_add(g, col, "%+.0f%%", pct);
    else grid_add(g, col, "%+.3gx", vr->err + 1);
}

static void fmt_simulated(struct grid *g, int col, const struct val_row *vr, bool seeds)
{
    if (!vr->has_sim) grid_add(g, col, "-");
    else if (!seeds) grid_add(g, col, "%.4g", vr->sim);
    else grid_add(g, col, "%.4g / %.4g / %.4g", vr->sim_min, vr->sim, vr->sim_max);
}

static void fmt_measured(struct grid *g, int col, const struct val_row *vr)
{
    if (vr->n == 0) {
        grid_add(g, col, "-");
        return;
    }
    if (vr->n == 1) grid_add(g, col, "%.4g", vr->median);
    else grid_add(g, col, "%.4g / %.4g / %.4g", vr->min, vr->median, vr->max);
}

/* The rows of the table: one line per point and metric, a pair of columns
 * (measured, error) per real backend. */
static void build_grid(const struct val_report *r, struct grid *g, bool markdown)
{
    int rc0 = 3 + 2 * r->nreal;   /* the range's columns, after the backends' */
    g->ncols = rc0 + (r->ranges ? 2 : 0);
    grid_row(g);
    grid_add(g, 0, "configuration");
    grid_add(g, 1, "metric");
    if (r->nseeds > 1) grid_add(g, 2, "simulated: min / median / max");
    else grid_add(g, 2, "simulated");
    for (int b = 0; b < r->nreal; b++) {
        const char *name = r->engines[b][0] ? r->engines[b] : r->backends[b];
        if (r->nreps > 1) grid_add(g, 3 + 2 * b, "%s: min / median / max", name);
        else grid_add(g, 3 + 2 * b, "%s", name);
        grid_add(g, 4 + 2 * b, "error");
    }
    if (r->ranges) {
        grid_add(g, rc0, "range over the IQRs");
        grid_add(g, rc0 + 1, "most sensitive to");
    }
    int last_point = -1;
    for (size_t i = 0; i < r->nrows;) {
        const struct val_row *first = &r->rows[i];
        grid_row(g);
        if (first->point != last_point || markdown) {
            char label[1024];
            config_label(r, first->point, label, sizeof label);
            grid_add(g, 0, "%s", label);
            last_point = first->point;
        }
        grid_add(g, 1, "%s", val_metric_name(first->metric));
        fmt_simulated(g, 2, first, r->nseeds > 1);
        const struct val_range *rg = range_of(r, first);
        if (rg && rg->has) {
            grid_add(g, rc0, "%.4g - %.4g", rg->lo, rg->hi);
            if (rg->by) grid_add(g, rc0 + 1, "%s (%s)", rg->by, rg->measurement);
        } else if (rg) {
            grid_add(g, rc0, "-");
        }
        for (; i < r->nrows && r->rows[i].point == first->point && r->rows[i].metric == first->metric; i++) {
            const struct val_row *vr = &r->rows[i];
            fmt_measured(g, 3 + 2 * vr->backend, vr);
            fmt_err(g, 4 + 2 * vr->backend, vr);
        }
    }
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void write_json(FILE *f, const struct val_report *r)
{
    fputs("{\"scenario\":", f);
    json_str(f, r->scenario);
    fputs(",\"host\":", f);
    json_str(f, r->host);
    if (r->note) {
        fputs(",\"note\":", f);
        json_str(f, r->note);
    }
    fprintf(f, ",\"runs_per_backend\":%d,", r->nreps);
    if (r->nseeds > 1) fprintf(f, "\"seeds\":%d,", r->nseeds);
    if (r->ranges) {
        fprintf(f, "\"sensitivity\":{\"seeds\":%d,\"variants\":%d,\"note\":", r->range_seeds, r->range_variants);
        json_str(f, r->range_note ? r->range_note : "");
        fputs("},", f);
    }
    fputs("\"backends\":[", f);
    for (int b = 0; b < r->nreal; b++) {
        fputs(b ? ",{\"backend\":" : "{\"backend\":", f);
        json_str(f, r->backends[b]);
        fputs(",\"engine\":", f);
        json_str(f, r->engines[b]);
        fputc('}', f);
    }
    fputs("],\"rows\":[", f);
    struct row cols, cells;
    row_init(&cols);
    row_init(&cells);
    val_columns(r, &cols);
    for (size_t i = 0; i < r->nrows; i++) {
        row_clear(&cells);
        val_row_cells(r, &r->rows[i], &cells);
        if (i) fputc(',', f);
        fputc('\n', f);
        rows_encode(f, ROWS_JSON, &cols, &cells);
    }
    row_free(&cols);
    row_free(&cells);
    fputs("\n]}\n", f);
}

void val_write_report(FILE *f, enum cmp_report kind, const struct val_report *r)
{
    if (kind == CMP_JSON) {
        write_json(f, r);
        return;
    }
    struct grid g = { 0 };
    build_grid(r, &g, kind == CMP_MARKDOWN);
    if (kind == CMP_MARKDOWN) {
        if (r->nseeds > 1)
            fprintf(f, "**%s**: simulated against measured (the simulator under %d seeds, %d run%s per backend "
                       "and configuration; error = simulated median / measured median - 1).  Host: %s.%s%s\n\n",
                    r->scenario, r->nseeds, r->nreps, r->nreps == 1 ? "" : "s", r->host, r->note ? "  " : "",
                    r->note ? r->note : "");
        else
            fprintf(f, "**%s**: simulated against measured (%d run%s per backend and configuration; "
                       "error = simulated / median - 1).  Host: %s.%s%s\n\n",
                    r->scenario, r->nreps, r->nreps == 1 ? "" : "s", r->host, r->note ? "  " : "",
                    r->note ? r->note : "");
        if (!g.oom) grid_print_markdown(f, &g);
    } else {
        if (r->nseeds > 1)
            fprintf(f, "%s: simulated against measured, the simulator under %d seeds, %d run%s per backend "
                       "and configuration (error = simulated median / measured median - 1)\nhost: %s\n",
                    r->scenario, r->nseeds, r->nreps, r->nreps == 1 ? "" : "s", r->host);
        else
            fprintf(f, "%s: simulated against measured, %d run%s per backend and configuration "
                       "(error = simulated / median - 1)\nhost: %s\n",
                    r->scenario, r->nreps, r->nreps == 1 ? "" : "s", r->host);
        if (r->note) fprintf(f, "%s\n", r->note);
        fputc('\n', f);
        if (!g.oom) grid_print_text(f, &g);
    }
    if (g.oom) fputs("(out of memory for the table)\n", f);
    if (r->ranges) {
        fprintf(f, "\nRange over the IQRs: the simulated figure with the profile's measurements moved one at a "
                   "time to their q1 and to their q3 and the keys derived again (%d variant%s, %d seed%s each; "
                   "with --seeds the profile's own figure under those seeds too); most sensitive to: the keys "
                   "of the measurement whose two moves span most.%s%s\n",
                r->range_variants, r->range_variants == 1 ? "" : "s",
                r->range_seeds, r->range_seeds == 1 ? "" : "s", r->range_note && *r->range_note ? "  " : "",
                r->range_note ? r->range_note : "");
    }
    grid_free(&g);
}
