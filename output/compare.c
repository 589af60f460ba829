/* compare.c - configuration-by-configuration comparison of result rows
 * (see compare.h). */
#include "compare.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/stats.h"

const char *const cmp_report_names[] = { "text", "markdown", "json", NULL };

/* The fixed columns that describe a configuration (README "CSV columns");
 * a sweep's --param columns and rep, which come before "scenario", join
 * them.  engine is compared, not joined on: a native run against a SimGrid
 * run of the same configuration is a comparison people make. */
static const char *const config_columns[] = {
    "scenario", "backend", "policy", "invariant_check", "insn_counter", "cores", "ractors",
    "threads", "seed",
};
static const char *const default_ignored[] = { "host_s", "point" };
/* Backends whose rows are measurements, not simulations. */
static const char *const measured_backends[] = { "pthread", "ruby", "real" };

#define REL_FLOOR 0.05

static bool in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0) return true;
    return false;
}
#define IN(s, arr) in_list((s), (arr), sizeof(arr) / sizeof *(arr))

/* "no such column X; the columns are: a b c" */
static int no_column(const struct csv_table *t, const char *opt, const char *name, char *err,
                     size_t errlen)
{
    size_t off = (size_t)snprintf(err, errlen, "%s %s: no such column; the columns are:", opt, name);
    for (int i = 0; i < t->ncols && off < errlen; i++)
        off += (size_t)snprintf(err + off, errlen - off, " %s", t->header[i]);
    return GV_EUSAGE;
}

/* ---- values ---------------------------------------------------------------- */

/* A cell as numbers: a scalar, or a ';'-separated list.  Returns the count
 * (0 for an empty cell), or -1 if some element is not a number. */
static int numbers(const char *s, double *out, int max)
{
    if (!*s) return 0;
    int n = 0;
    for (const char *p = s;;) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || !isfinite(v) || (*end && *end != ';') || n == max) return -1;
        out[n++] = v;
        if (!*end) return n;
        p = end + 1;
    }
}

#define MAXV 4096   /* elements of a list cell (ractor_ops_per_s: one per Ractor) */

/* The tolerance for a metric: its own entry (the last given), else "*". */
static const struct cmp_tolerance *tolerance_of(const struct cmp_opts *o, const char *metric)
{
    const struct cmp_tolerance *star = NULL;
    for (int i = o->ntol - 1; i >= 0; i--) {
        if (strcmp(o->tol[i].metric, metric) == 0) return &o->tol[i];
        if (!star && strcmp(o->tol[i].metric, "*") == 0) star = &o->tol[i];
    }
    return star;
}

int cmp_parse_tolerance(const char *s, struct cmp_tolerance *t)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || v < 0) return -1;
    if (*end == '%' && end[1] == 0) {
        t->value = v / 100;
        t->relative = true;
        return 0;
    }
    if (*end) return -1;
    t->value = v;
    t->relative = false;
    return 0;
}

/* ---- grouping -------------------------------------------------------------- */

struct keyed {
    char *k;       /* the key values joined with \x1f */
    size_t row;
    bool measured;
};

static int by_key(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(x->k, y->k);
    if (c) return c;
    return (x->row > y->row) - (x->row < y->row);
}

struct side {
    const struct csv_table *t;
    const char *name;
    int *col;              /* base column index -> this table's column */
    struct keyed *rows;    /* sorted by key */
};

/* Build the join key of every row of one side. */
static int key_rows(struct side *s, const int *key, int nkey, const char *const *key_names,
                    int backend_col)
{
    s->rows = calloc(s->t->nrows ? s->t->nrows : 1, sizeof *s->rows);
    if (!s->rows) return GV_ENOMEM;
    for (size_t r = 0; r < s->t->nrows; r++) {
        bool measured = backend_col >= 0 &&
                        IN(csvr_cell(s->t, r, s->col[backend_col]), measured_backends);
        size_t len = 1;
        for (int i = 0; i < nkey; i++) len += strlen(csvr_cell(s->t, r, s->col[key[i]])) + 1;
        char *k = malloc(len);
        if (!k) return GV_ENOMEM;
        k[0] = 0;
        for (int i = 0; i < nkey; i++) {
            /* replicates of a measurement share a configuration */
            bool rep = measured && (!strcmp(key_names[i], "rep") || !strcmp(key_names[i], "seed"));
            strcat(k, rep ? "*" : csvr_cell(s->t, r, s->col[key[i]]));
            strcat(k, "\x1f");
        }
        s->rows[r] = (struct keyed){ k, r, measured };
    }
    qsort(s->rows, s->t->nrows, sizeof *s->rows, by_key);
    return GV_OK;
}

/* "scenario=x cores=2" for messages. */
static void describe(char *buf, size_t len, const struct csv_table *t, size_t row, const int *key,
                     const int *col, int nkey)
{
    size_t off = 0;
    buf[0] = 0;
    for (int i = 0; i < nkey && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, "%s%s=%s", i ? " " : "", t->header[col[key[i]]],
                                csvr_cell(t, row, col[key[i]]));
}

/* A simulated configuration twice on one side is ambiguous. */
static int check_duplicates(const struct side *s, const int *key, int nkey, char *err, size_t errlen)
{
    for (size_t i = 1; i < s->t->nrows; i++) {
        const struct keyed *a = &s->rows[i - 1], *b = &s->rows[i];
        if (strcmp(a->k, b->k) != 0 || (a->measured && b->measured)) continue;
        char what[512];
        describe(what, sizeof what, s->t, a->row, key, s->col, nkey);
        return gv_fail(err, errlen, GV_EINVAL,
                       "%s:%d and line %d: the same configuration twice (%s); --key names the "
                       "columns that tell rows apart",
                       s->name, s->t->lines[a->row], s->t->lines[b->row], what);
    }
    return GV_OK;
}

/* ---- comparing one metric ---------------------------------------------------- */

struct vals {
    const char **s;   /* the replicates' cells */
    int n;
};

/* The replicates of one side as numbers: m[i * len + e] is element e of
 * replicate i.  Returns the common length, 0 if a cell is empty, -1 if a
 * cell is not numeric or the lengths differ, -2 out of memory. */
static int matrix(const struct vals *v, double **m)
{
    *m = NULL;
    double *one = malloc(MAXV * sizeof *one);
    if (!one) return -2;
    int len = numbers(v->s[0], one, MAXV);
    if (len <= 0) {
        free(one);
        return len;
    }
    double *mat = malloc((size_t)v->n * (size_t)len * sizeof *mat);
    if (!mat) {
        free(one);
        return -2;
    }
    for (int i = 0; i < v->n; i++) {
        if (numbers(v->s[i], one, MAXV) != len) {
            free(one);
            free(mat);
            return -1;
        }
        memcpy(mat + (size_t)i * (size_t)len, one, (size_t)len * sizeof *one);
    }
    free(one);
    *m = mat;
    return len;
}

/* Median and relative spread ((max - min) / |median|) of element e. */
static void stats(const double *mat, int n, int len, int e, double *col, double *med, double *spread)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        col[i] = mat[(size_t)i * (size_t)len + (size_t)e];
        if (col[i] < lo) lo = col[i];
        if (col[i] > hi) hi = col[i];
    }
    *med = stats_median(col, (size_t)n);
    *spread = hi == lo ? 0 : *med != 0 ? (hi - lo) / fabs(*med) : INFINITY;
}

/* The medians as text: the cell itself when there is one replicate
 * (exactly as written), else each median with 9 significant digits. */
static char *median_text(const struct vals *v, const double *med, int len)
{
    if (v->n == 1) return strdup(v->s[0]);
    size_t cap = (size_t)len * 24 + 2, off = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    out[0] = 0;
    for (int e = 0; e < len; e++)
        off += (size_t)snprintf(out + off, cap - off, "%s%.9g", e ? ";" : "", med[e]);
    return out;
}

struct outcome {
    bool moved, beyond, from_spread;
    double rel, tol;
    bool tol_rel;
    char *base, *new;
};

/* Compare one metric of one configuration.  Returns GV_OK or GV_ENOMEM. */
static int compare_cells(const struct vals *b, const struct vals *n, bool measured,
                         const struct cmp_tolerance *tol, double floor, struct outcome *out)
{
    memset(out, 0, sizeof *out);
    out->rel = NAN;
    out->tol = -1;
    /* identical text everywhere: no change */
    bool same = true;
    for (int i = 0; i < b->n && same; i++) same = strcmp(b->s[i], b->s[0]) == 0;
    for (int i = 0; i < n->n && same; i++) same = strcmp(n->s[i], b->s[0]) == 0;
    if (same) return GV_OK;

    double *bmat = NULL, *nmat = NULL, *work = NULL;
    int rc = GV_OK;
    int lb = matrix(b, &bmat), ln = lb >= 0 ? matrix(n, &nmat) : 0;
    if (lb == -2 || ln == -2) {
        rc = GV_ENOMEM;
        goto done;
    }
    if (lb <= 0 || ln != lb) {  /* text, an empty cell, or lists of different lengths */
        out->moved = out->beyond = true;
        out->base = strdup(b->s[0]);
        out->new = strdup(n->s[0]);
        if (!out->base || !out->new) rc = GV_ENOMEM;
        goto done;
    }
    int len = lb;
    work = malloc(((size_t)(b->n > n->n ? b->n : n->n) + 4 * (size_t)len) * sizeof *work);
    if (!work) {
        rc = GV_ENOMEM;
        goto done;
    }
    double *bm = work, *nm = bm + len, *bs = nm + len, *ns = bs + len, *col = ns + len;
    for (int e = 0; e < len; e++) {
        stats(bmat, b->n, len, e, col, &bm[e], &bs[e]);
        stats(nmat, n->n, len, e, col, &nm[e], &ns[e]);
    }
    double worst = 0;   /* how far the worst element is beyond its tolerance */
    for (int e = 0; e < len; e++) {
        double d = nm[e] - bm[e];
        if (d == 0) continue;
        double rel = bm[e] != 0 ? d / fabs(bm[e]) : (d > 0 ? INFINITY : -INFINITY);
        double t = -1;   /* exact */
        bool rel_tol = true, from_spread = false;
        if (tol) {
            t = tol->value;
            rel_tol = tol->relative;
        } else if (measured) {
            t = floor;
            if (bs[e] > t) t = bs[e], from_spread = true;
            if (ns[e] > t) t = ns[e], from_spread = true;
        }
        bool beyond = t < 0 || (rel_tol ? fabs(d) > t * fabs(bm[e]) : fabs(d) > t);
        double score = t <= 0 ? INFINITY : (rel_tol ? fabs(rel) : fabs(d)) / t;
        if (!out->moved || score > worst) {
            worst = score;
            out->rel = bm[e] != 0 ? rel : NAN;
            out->tol = t;
            out->tol_rel = rel_tol;
            out->from_spread = from_spread;
        }
        out->moved = true;
        out->beyond |= beyond;
    }
    if (!out->moved) goto done;   /* the same numbers written differently (1.50 / 1.5) */
    out->base = median_text(b, bm, len);
    out->new = median_text(n, nm, len);
    if (!out->base || !out->new) rc = GV_ENOMEM;
done:
    free(bmat);
    free(nmat);
    free(work);
    if (rc != GV_OK) {
        free(out->base);
        free(out->new);
        out->base = out->new = NULL;
    }
    return rc;
}

/* ---- the comparison ---------------------------------------------------------- */

/* Append one element of `size` bytes to `arr` (*n elements, capacity
 * *cap, doubled as needed).  Returns the array, perhaps moved, or NULL
 * (out of memory; `arr` is unchanged). */
static void *append(void *arr, size_t *n, size_t *cap, const void *elem, size_t size)
{
    if (*n == *cap) {
        size_t ncap = *cap ? 2 * *cap : 16;
        void *na = realloc(arr, ncap * size);
        if (!na) return NULL;
        arr = na;
        *cap = ncap;
    }
    memcpy((char *)arr + *n * size, elem, size);
    (*n)++;
    return arr;
}

static int add_change(struct cmp_result *r, size_t *cap, const struct cmp_change *c)
{
    struct cmp_change *a = append(r->changes, &r->nchanges, cap, c, sizeof *c);
    if (!a) return GV_ENOMEM;
    r->changes = a;
    if (c->beyond) r->nbeyond++;
    return GV_OK;
}

/* Columns of one side missing from the other: "a, b". */
static void missing_columns(char *buf, size_t len, const struct csv_table *a, const struct csv_table *b)
{
    size_t off = 0;
    buf[0] = 0;
    for (int i = 0; i < a->ncols && off < len; i++)
        if (csvr_col(b, a->header[i]) < 0)
            off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", a->header[i]);
}

int cmp_run(const struct csv_table *base, const char *base_name, const struct csv_table *new_,
            const char *new_name, const struct cmp_opts *o, struct cmp_result *r, char *err,
            size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->base_name = base_name;
    r->new_name = new_name;
    double floor = o->measured_floor >= 0 ? o->measured_floor : REL_FLOOR;
    int rc = GV_OK;
    int *key = NULL, *metric = NULL;
    char **key_names = NULL;
    struct side sb = { base, base_name, NULL, NULL }, sn = { new_, new_name, NULL, NULL };
    struct vals *bv = NULL, *nv = NULL;
    size_t gcap = 0, ccap = 0;

    /* the same columns on both sides */
    char only_b[512], only_n[512];
    missing_columns(only_b, sizeof only_b, base, new_);
    missing_columns(only_n, sizeof only_n, new_, base);
    if (only_b[0] || only_n[0]) {
        return gv_fail(err, errlen, GV_EINVAL,
                       "%s and %s have different columns (only in %s: %s; only in %s: %s): results "
                       "of different schemas cannot be compared (gvlsim compare --update rewrites a "
                       "baseline)",
                       base_name, new_name, base_name, only_b[0] ? only_b : "none", new_name,
                       only_n[0] ? only_n : "none");
    }
    if (base->nrows == 0 || new_->nrows == 0)
        return gv_fail(err, errlen, GV_EINVAL, "%s has no rows: nothing to compare",
                       base->nrows == 0 ? base_name : new_name);
    sb.col = malloc((size_t)base->ncols * sizeof *sb.col);
    sn.col = malloc((size_t)base->ncols * sizeof *sn.col);
    key = malloc((size_t)base->ncols * sizeof *key);
    metric = malloc((size_t)base->ncols * sizeof *metric);
    key_names = calloc((size_t)base->ncols, sizeof *key_names);
    if (!sb.col || !sn.col || !key || !metric || !key_names) {
        rc = GV_ENOMEM;
        goto out;
    }
    for (int c = 0; c < base->ncols; c++) {
        sb.col[c] = c;
        sn.col[c] = csvr_col(new_, base->header[c]);
    }

    /* key, ignored and metric columns */
    int nkey = 0, nmetric = 0;
    if (o->key) {
        for (int i = 0; i < o->nkey; i++) {
            int c = csvr_col(base, o->key[i]);
            if (c < 0) {
                rc = no_column(base, "--key", o->key[i], err, errlen);
                goto out;
            }
            key[nkey++] = c;
        }
    } else {
        int scen = csvr_col(base, "scenario");
        if (scen < 0) {
            rc = gv_fail(err, errlen, GV_EUSAGE,
                         "%s has no scenario column, so no default key: name the columns that "
                         "identify a row with --key",
                         base_name);
            goto out;
        }
        for (int c = 0; c < scen; c++)
            if (strcmp(base->header[c], "point") != 0) key[nkey++] = c;
        for (int c = scen; c < base->ncols; c++)
            if (IN(base->header[c], config_columns)) key[nkey++] = c;
    }
    for (int i = 0; i < o->nignore; i++)
        if (csvr_col(base, o->ignore[i]) < 0) {
            rc = no_column(base, "--ignore", o->ignore[i], err, errlen);
            goto out;
        }
    for (int c = 0; c < base->ncols; c++) {
        bool is_key = false;
        for (int i = 0; i < nkey; i++) is_key |= key[i] == c;
        if (is_key || IN(base->header[c], default_ignored) ||
            in_list(base->header[c], o->ignore, (size_t)o->nignore))
            continue;
        metric[nmetric++] = c;
    }
    for (int i = 0; i < o->ntol; i++) {
        const char *m = o->tol[i].metric;
        bool ok = strcmp(m, "*") == 0;
        for (int k = 0; k < nmetric && !ok; k++) ok = strcmp(base->header[metric[k]], m) == 0;
        if (!ok) {
            int c = csvr_col(base, m);
            if (c >= 0)
                rc = gv_fail(err, errlen, GV_EUSAGE, "--tolerance %s: a key or ignored column, not a metric", m);
            else rc = no_column(base, "--tolerance", m, err, errlen);
            goto out;
        }
    }
    r->nmetrics = nmetric;
    r->nkey = nkey;
    r->key_cols = calloc((size_t)(nkey ? nkey : 1), sizeof *r->key_cols);
    if (!r->key_cols) {
        rc = GV_ENOMEM;
        goto out;
    }
    for (int i = 0; i < nkey; i++) {
        key_names[i] = base->header[key[i]];
        if (!(r->key_cols[i] = strdup(key_names[i]))) {
            rc = GV_ENOMEM;
            goto out;
        }
    }

    int backend = csvr_col(base, "backend");
    if ((rc = key_rows(&sb, key, nkey, (const char *const *)key_names, backend)) != GV_OK ||
        (rc = key_rows(&sn, key, nkey, (const char *const *)key_names, backend)) != GV_OK)
        goto out;
    if ((rc = check_duplicates(&sb, key, nkey, err, errlen)) != GV_OK ||
        (rc = check_duplicates(&sn, key, nkey, err, errlen)) != GV_OK)
        goto out;

    /* walk both sorted sides together */
    bv = calloc(1, sizeof *bv);
    nv = calloc(1, sizeof *nv);
    if (bv) bv->s = calloc(base->nrows, sizeof *bv->s);
    if (nv) nv->s = calloc(new_->nrows, sizeof *nv->s);
    if (!bv || !nv || !bv->s || !nv->s) {
        rc = GV_ENOMEM;
        goto out;
    }
    size_t i = 0, j = 0;
    int one_side = 0;
    size_t off = 0;
    char lost[1024] = "";
    while (i < base->nrows || j < new_->nrows) {
        int c = i == base->nrows ? 1 : j == new_->nrows ? -1 : strcmp(sb.rows[i].k, sn.rows[j].k);
        if (c != 0) {  /* a configuration on one side only */
            const struct side *s = c < 0 ? &sb : &sn;
            size_t at = c < 0 ? i : j;
            const char *k = s->rows[at].k;
            if (one_side < 5) {
                char what[400];
                describe(what, sizeof what, s->t, s->rows[at].row, key, s->col, nkey);
                off += (size_t)snprintf(lost + off, off < sizeof lost ? sizeof lost - off : 0,
                                        "\n  only in %s (line %d): %s", s->name,
                                        s->t->lines[s->rows[at].row], what);
            }
            one_side++;
            size_t *pos = c < 0 ? &i : &j;
            while (*pos < s->t->nrows && strcmp(s->rows[*pos].k, k) == 0) (*pos)++;
            continue;
        }
        struct cmp_group g = { 0 };
        g.base_row = sb.rows[i].row;
        g.new_row = sn.rows[j].row;
        bv->n = nv->n = 0;
        const char *k = sb.rows[i].k;
        while (i < base->nrows && strcmp(sb.rows[i].k, k) == 0) {
            g.measured |= sb.rows[i].measured;
            bv->n++;
            g.nbase++;
            i++;
        }
        while (j < new_->nrows && strcmp(sn.rows[j].k, k) == 0) {
            g.measured |= sn.rows[j].measured;
            nv->n++;
            g.nnew++;
            j++;
        }
        g.key = calloc((size_t)(nkey ? nkey : 1), sizeof *g.key);
        if (!g.key) {
            rc = GV_ENOMEM;
            goto out;
        }
        for (int q = 0; q < nkey; q++) {
            bool rep = g.measured && (!strcmp(key_names[q], "rep") || !strcmp(key_names[q], "seed"));
            g.key[q] = strdup(rep ? "*" : csvr_cell(base, g.base_row, key[q]));
            if (!g.key[q]) rc = GV_ENOMEM;
        }
        if (rc == GV_OK) {
            struct cmp_group *a = append(r->groups, &r->ngroups, &gcap, &g, sizeof g);
            if (a) r->groups = a;
            else rc = GV_ENOMEM;
        }
        if (rc != GV_OK) {
            for (int q = 0; q < nkey; q++) free(g.key[q]);
            free(g.key);
            goto out;
        }
        size_t bi0 = i - (size_t)g.nbase, nj0 = j - (size_t)g.nnew;
        for (int m = 0; m < nmetric; m++) {
            int col = metric[m];
            for (int q = 0; q < bv->n; q++) bv->s[q] = csvr_cell(base, sb.rows[bi0 + (size_t)q].row, col);
            for (int q = 0; q < nv->n; q++) nv->s[q] = csvr_cell(new_, sn.rows[nj0 + (size_t)q].row, sn.col[col]);
            struct outcome oc;
            rc = compare_cells(bv, nv, g.measured, tolerance_of(o, base->header[col]), floor, &oc);
            if (rc != GV_OK) goto out;
            if (!oc.moved) continue;
            struct cmp_change ch = { .group = r->ngroups - 1, .col = col, .base = oc.base, .new = oc.new,
                                     .rel = oc.rel, .tol = oc.tol, .tol_rel = oc.tol_rel,
                                     .beyond = oc.beyond, .from_spread = oc.from_spread };
            if ((rc = add_change(r, &ccap, &ch)) != GV_OK) {
                free(oc.base);
                free(oc.new);
                goto out;
            }
        }
    }
    if (one_side) {
        if (!o->lenient) {
            rc = gv_fail(err, errlen, GV_EINVAL,
                         "%d configuration%s on one side only (a baseline of another suite? "
                         "gvlsim compare --update rewrites it):%s%s",
                         one_side, one_side == 1 ? "" : "s", lost, one_side > 5 ? "\n  ..." : "");
            goto out;
        }
        int n = snprintf(r->note, sizeof r->note, "%d configuration%s on one side only:", one_side,
                         one_side == 1 ? "" : "s");
        if (n > 0 && (size_t)n < sizeof r->note) {
            size_t room = sizeof r->note - (size_t)n - 1, len = strlen(lost);
            memcpy(r->note + n, lost, len < room ? len : room);
            r->note[(size_t)n + (len < room ? len : room)] = 0;
        }
    }

    /* the key columns worth showing: those that vary */
    r->key_shown = calloc((size_t)(nkey ? nkey : 1), sizeof *r->key_shown);
    if (!r->key_shown) {
        rc = GV_ENOMEM;
        goto out;
    }
    for (int q = 0; q < nkey; q++) {
        bool varies = false;
        for (size_t g = 1; g < r->ngroups && !varies; g++)
            varies = strcmp(r->groups[g].key[q], r->groups[0].key[q]) != 0;
        if (varies) r->key_shown[r->nkey_shown++] = q;
    }
    /* a column that repeats another one (cores beside a machine.cores
     * --param, policy beside runtime.gvl_policy) is not shown twice */
    for (int x = 0; x < r->nkey_shown; x++) {
        int dup = -1;
        for (int y = 0; y < x && dup < 0; y++) {
            bool same = true;
            for (size_t g = 0; g < r->ngroups && same; g++)
                same = strcmp(r->groups[g].key[r->key_shown[x]], r->groups[g].key[r->key_shown[y]]) == 0;
            if (same) dup = y;
        }
        if (dup >= 0) {
            memmove(&r->key_shown[x], &r->key_shown[x + 1], (size_t)(r->nkey_shown - x - 1) * sizeof(int));
            r->nkey_shown--;
            x--;
        }
    }
    if (r->nkey_shown == 0 && nkey > 0) r->key_shown[r->nkey_shown++] = 0;
out:
    if (sb.rows)
        for (size_t q = 0; q < base->nrows; q++) free(sb.rows[q].k);
    if (sn.rows)
        for (size_t q = 0; q < new_->nrows; q++) free(sn.rows[q].k);
    free(sb.rows);
    free(sn.rows);
    free(sb.col);
    free(sn.col);
    free(key);
    free(metric);
    free(key_names);
    if (bv) free(bv->s);
    if (nv) free(nv->s);
    free(bv);
    free(nv);
    if (rc == GV_ENOMEM) gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    if (rc != GV_OK) cmp_result_free(r);
    return rc;
}

void cmp_result_free(struct cmp_result *r)
{
    for (size_t g = 0; g < r->ngroups; g++) {
        for (int q = 0; q < r->nkey; q++) free(r->groups[g].key[q]);
        free(r->groups[g].key);
    }
    for (size_t c = 0; c < r->nchanges; c++) {
        free(r->changes[c].base);
        free(r->changes[c].new);
    }
    if (r->key_cols)
        for (int q = 0; q < r->nkey; q++) free(r->key_cols[q]);
    free(r->key_cols);
    free(r->key_shown);
    free(r->groups);
    free(r->changes);
    memset(r, 0, sizeof *r);
}

/* ---- the report -------------------------------------------------------------- */

static void change_text(char *buf, size_t len, const struct cmp_change *c)
{
    if (isnan(c->rel)) snprintf(buf, len, "%s", c->base && c->base[0] && c->new && c->new[0] &&
                                                    strtod(c->base, NULL) == 0 ? "from 0" : "");
    else if (fabs(100 * c->rel) >= 0.1 || isinf(c->rel)) snprintf(buf, len, "%+.2f%%", 100 * c->rel);
    else {  /* two significant digits, without an exponent: +0.0012%, not +0.00% */
        int d = (int)ceil(-log10(fabs(100 * c->rel))) + 1;
        snprintf(buf, len, "%+.*f%%", d > 12 ? 12 : d, 100 * c->rel);
    }
}

static void tolerance_text(char *buf, size_t len, const struct cmp_change *c)
{
    if (c->tol < 0) snprintf(buf, len, "exact");
    else if (!c->tol_rel) snprintf(buf, len, "±%g", c->tol);
    else snprintf(buf, len, "±%.3g%%%s", 100 * c->tol, c->from_spread ? " (spread)" : "");
}

static void config_text(char *buf, size_t len, const struct cmp_result *r, const struct cmp_group *g)
{
    size_t off = 0;
    buf[0] = 0;
    for (int i = 0; i < r->nkey_shown && off < len; i++) {
        int q = r->key_shown[i];
        off += (size_t)snprintf(buf + off, len - off, "%s%s=%s", i ? " " : "", r->key_cols[q], g->key[q]);
    }
    if (g->measured && off < len)
        snprintf(buf + off, len - off, " (%d vs %d runs)", g->nbase, g->nnew);
}

static size_t changed_groups(const struct cmp_result *r, bool beyond_only)
{
    size_t n = 0, last = SIZE_MAX;
    for (size_t i = 0; i < r->nchanges; i++) {
        if (beyond_only && !r->changes[i].beyond) continue;
        if (r->changes[i].group != last) n++;
        last = r->changes[i].group;
    }
    return n;
}

static void summary(char *buf, size_t len, const struct cmp_result *r)
{
    if (r->nbeyond)
        snprintf(buf, len, "regression: %zu metric%s beyond tolerance in %zu of %zu configurations",
                 r->nbeyond, r->nbeyond == 1 ? "" : "s", changed_groups(r, true), r->ngroups);
    else if (r->nchanges)
        snprintf(buf, len, "no regression: %zu metric%s moved within tolerance in %zu of %zu configurations",
                 r->nchanges, r->nchanges == 1 ? "" : "s", changed_groups(r, false), r->ngroups);
    else
        snprintf(buf, len, "no change: %zu configuration%s, %d metric%s each", r->ngroups,
                 r->ngroups == 1 ? "" : "s", r->nmetrics, r->nmetrics == 1 ? "" : "s");
}

/* Display width of a UTF-8 string (code points). */
static int width(const char *s)
{
    int w = 0;
    for (; *s; s++) w += ((unsigned char)*s & 0xc0) != 0x80;
    return w;
}

static void pad(FILE *f, const char *s, int w, bool right)
{
    int n = w - width(s);
    if (right) for (int i = 0; i < n; i++) fputc(' ', f);
    fputs(s, f);
    if (!right) for (int i = 0; i < n; i++) fputc(' ', f);
}

/* A markdown cell: '|' escaped, newlines as spaces. */
static void md_cell(FILE *f, const char *s)
{
    fputc(' ', f);
    for (; *s; s++) {
        if (*s == '|') fputs("\\|", f);
        else fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
    fputs(" |", f);
}

static void write_json(FILE *f, const struct cmp_result *r, const struct csv_table *base)
{
    cJSON *o = cJSON_CreateObject();
    char line[512];
    summary(line, sizeof line, r);
    cJSON_AddStringToObject(o, "base", r->base_name);
    cJSON_AddStringToObject(o, "new", r->new_name);
    cJSON_AddBoolToObject(o, "regression", r->nbeyond > 0);
    cJSON_AddStringToObject(o, "summary", line);
    cJSON_AddNumberToObject(o, "configurations", (double)r->ngroups);
    cJSON_AddNumberToObject(o, "metrics", r->nmetrics);
    cJSON_AddNumberToObject(o, "beyond_tolerance", (double)r->nbeyond);
    cJSON_AddNumberToObject(o, "within_tolerance", (double)(r->nchanges - r->nbeyond));
    cJSON *key = cJSON_AddArrayToObject(o, "key");
    for (int q = 0; q < r->nkey; q++) cJSON_AddItemToArray(key, cJSON_CreateString(r->key_cols[q]));
    if (r->note[0]) cJSON_AddStringToObject(o, "note", r->note);
    cJSON *arr = cJSON_AddArrayToObject(o, "changes");
    for (size_t i = 0; i < r->nchanges; i++) {
        const struct cmp_change *c = &r->changes[i];
        const struct cmp_group *g = &r->groups[c->group];
        cJSON *e = cJSON_CreateObject();
        cJSON *conf = cJSON_AddObjectToObject(e, "configuration");
        for (int q = 0; q < r->nkey; q++) cJSON_AddStringToObject(conf, r->key_cols[q], g->key[q]);
        cJSON_AddStringToObject(e, "metric", base->header[c->col]);
        cJSON_AddStringToObject(e, "base", c->base);
        cJSON_AddStringToObject(e, "new", c->new);
        if (isnan(c->rel) || isinf(c->rel)) cJSON_AddNullToObject(e, "change");
        else cJSON_AddNumberToObject(e, "change", c->rel);
        cJSON *t = cJSON_AddObjectToObject(e, "tolerance");
        cJSON_AddStringToObject(t, "kind", c->tol < 0 ? "exact" : !c->tol_rel ? "absolute"
                                           : c->from_spread ? "spread" : "relative");
        if (c->tol >= 0) cJSON_AddNumberToObject(t, "value", c->tol);
        cJSON_AddBoolToObject(e, "beyond", c->beyond);
        cJSON_AddBoolToObject(e, "measured", g->measured);
        cJSON *runs = cJSON_AddArrayToObject(e, "runs");
        cJSON_AddItemToArray(runs, cJSON_CreateNumber(g->nbase));
        cJSON_AddItemToArray(runs, cJSON_CreateNumber(g->nnew));
        cJSON_AddItemToArray(arr, e);
    }
    char *s = cJSON_Print(o);
    if (s) fprintf(f, "%s\n", s);
    else fputs("{\"error\": \"out of memory\"}\n", f);
    free(s);
    cJSON_Delete(o);
}

void cmp_write_report(FILE *f, enum cmp_report fmt, const struct cmp_result *r,
                      const struct csv_table *base, bool all)
{
    if (fmt == CMP_JSON) {
        write_json(f, r, base);
        return;
    }
    static const char *const head[6] = { "configuration", "metric", "base", "new", "change", "tolerance" };
    int w[6];
    for (int k = 0; k < 6; k++) w[k] = width(head[k]);
    size_t shown = 0;
    char cells[6][1024], last_config[1024] = "";
    /* two passes: widths, then the table */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && shown) {
            if (fmt == CMP_MARKDOWN) {
                fputc('|', f);
                for (int k = 0; k < 6; k++) md_cell(f, head[k]);
                fputs("\n|---|---|--:|--:|--:|---|\n", f);
            } else {
                fputs("  ", f);
                for (int k = 0; k < 5; k++) {
                    pad(f, head[k], w[k], k >= 2 && k <= 4);
                    fputs("  ", f);
                }
                fprintf(f, "%s\n", head[5]);
            }
        }
        for (size_t i = 0; i < r->nchanges; i++) {
            const struct cmp_change *c = &r->changes[i];
            if (!c->beyond && !all) continue;
            config_text(cells[0], sizeof cells[0], r, &r->groups[c->group]);
            snprintf(cells[1], sizeof cells[1], "%s", base->header[c->col]);
            snprintf(cells[2], sizeof cells[2], "%s", c->base[0] ? c->base : "(empty)");
            snprintf(cells[3], sizeof cells[3], "%s", c->new[0] ? c->new : "(empty)");
            change_text(cells[4], sizeof cells[4], c);
            tolerance_text(cells[5], sizeof cells[5], c);
            if (!c->beyond) strncat(cells[5], ", within", sizeof cells[5] - strlen(cells[5]) - 1);
            if (pass == 0) {
                shown++;
                for (int k = 0; k < 6; k++)
                    if (width(cells[k]) > w[k]) w[k] = width(cells[k]);
            } else if (fmt == CMP_MARKDOWN) {
                fputc('|', f);
                for (int k = 0; k < 6; k++) md_cell(f, cells[k]);
                fputc('\n', f);
            } else {
                if (strcmp(cells[0], last_config) == 0) cells[0][0] = 0;  /* said on the line above */
                else snprintf(last_config, sizeof last_config, "%s", cells[0]);
                fputs("  ", f);
                for (int k = 0; k < 5; k++) {
                    pad(f, cells[k], w[k], k >= 2 && k <= 4);
                    fputs("  ", f);
                }
                fprintf(f, "%s\n", cells[5]);
            }
        }
        if (pass == 0) {
            char line[512];
            summary(line, sizeof line, r);
            if (fmt == CMP_MARKDOWN) fprintf(f, "### gvlsim compare: %s\n\n`%s` → `%s`\n\n", line,
                                             r->base_name, r->new_name);
            else fprintf(f, "gvlsim compare %s %s: %s\n", r->base_name, r->new_name, line);
            if (shown && fmt == CMP_TEXT) fputc('\n', f);
        }
    }
    if (r->note[0]) fprintf(f, "%s%s\n", fmt == CMP_MARKDOWN ? "\n" : "", r->note);
}
