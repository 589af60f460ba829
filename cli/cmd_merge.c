/* cmd_merge.c - `gvlsim merge SHARD...`: the shards of a sweep (`sweep
 * --shard K/N`) joined into the rows, in the order, that the whole sweep
 * writes; a missing or duplicated run is refused. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/afile.h"
#include "../common/err.h"
#include "../output/rows.h"
#include "../output/rowsread.h"
#include "cli.h"
#include "options.h"

static int merge_exec(const struct args *a);

static const struct args_opt merge_opts[] = {
    CLI_OPT_ROWS_OUTPUT,
    CLI_OPT_FORMAT,
    CLI_OPT_NO_HEADER,
    { .name = "points", .kind = ARGS_INT, .min = 1, .max = 10000000,
      .help = "the sweep has N points: refuse a shard set without all of\n"
              "them (default: the highest point found + 1)" },
    { .name = "seeds", .kind = ARGS_INT, .min = 1, .max = 100000,
      .help = "the sweep has N replicates per point (its --seeds; default:\n"
              "the highest rep found + 1)" },
    CLI_OPT_QUIET_H("no summary on stderr"),
    CLI_OPT_END,
};

const struct cli_command cli_cmd_merge = {
    .name = "merge",
    .usage = "SHARD... [-o OUT.csv] [--points N] [--seeds N] [options]",
    .summary = "join the shards of a sweep (sweep --shard K/N) in point order",
    .description =
        "Each SHARD is the output of `gvlsim sweep ... --shard K/N` (CSV, JSON or JSON\n"
        "Lines); together they must hold every run of the sweep exactly once: each\n"
        "point 0..P-1 with each rep 0..R-1.  The rows are written in the order the\n"
        "whole sweep writes them (point by point, replicates innermost), with the same\n"
        "bytes: merging the shards of a --reproducible sweep gives the single-process\n"
        "output exactly.  `sweep --emit-jobs` prints the merge command with --points\n"
        "and --seeds, so that a shard missing at the end is noticed too.",
    .args = { merge_opts, "CSV", 1, -1 },
    .exit_status =
        "0 ok, 2 usage, 3 invalid input (a malformed file, shards with\n"
        "different columns, rows without point/rep, a missing or duplicated run),\n"
        "5 a shard cannot be read or the output written, 6 out of memory.",
    .exec = merge_exec,
};

struct entry {
    uint64_t point, rep;
    int file;
    size_t row;
};

static int by_run(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (x->point != y->point) return x->point < y->point ? -1 : 1;
    if (x->rep != y->rep) return x->rep < y->rep ? -1 : 1;
    return (x->file > y->file) - (x->file < y->file);
}

/* A non-negative decimal integer, strictly. */
static int parse_index(const char *s, uint64_t *out)
{
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 15) return -1;
    *out = strtoull(s, NULL, 10);
    return 0;
}

static int merge_exec(const struct args *a)
{
    struct run_options ro;
    int code = run_options_get(&cli_cmd_merge, a, &ro);
    if (code != GV_EXIT_OK) return code;
    int nfiles = a->noperands;
    const char *const *files = a->operands;
    char err[4096];
    struct csv_table *t = calloc((size_t)nfiles, sizeof *t);
    struct entry *e = NULL;
    struct row cols, cells;
    row_init(&cols);
    row_init(&cells);
    size_t n = 0;
    int rc = GV_OK;
    if (!t) {
        rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
        goto out;
    }
    for (int f = 0; f < nfiles && rc == GV_OK; f++) {
        rc = rowsr_read(files[f], &t[f], NULL, err, sizeof err);
        if (rc != GV_OK) break;
        if (t[f].ncols != t[0].ncols) rc = GV_EINVAL;
        for (int c = 0; c < t[0].ncols && rc == GV_OK; c++)
            if (strcmp(t[f].header[c], t[0].header[c]) != 0) rc = GV_EINVAL;
        if (rc != GV_OK)
            gv_fail(err, sizeof err, rc, "%s and %s have different columns: not shards of one sweep",
                    files[0], files[f]);
        n += t[f].nrows;
    }
    if (rc != GV_OK) goto out;
    int cp = csvr_col(&t[0], "point"), cr = csvr_col(&t[0], "rep");
    if (cp < 0 || cr < 0) {
        rc = gv_fail(err, sizeof err, GV_EINVAL,
                     "%s: no %s column: not the rows of a sweep (gvlsim sweep writes point and rep)",
                     files[0], cp < 0 ? "point" : "rep");
        goto out;
    }
    e = calloc(n ? n : 1, sizeof *e);
    if (!e) {
        rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
        goto out;
    }
    size_t k = 0;
    uint64_t maxp = 0, maxr = 0;
    for (int f = 0; f < nfiles; f++) {
        for (size_t r = 0; r < t[f].nrows; r++, k++) {
            e[k] = (struct entry){ 0, 0, f, r };
            const char *ps = csvr_cell(&t[f], r, cp), *rs = csvr_cell(&t[f], r, cr);
            if (parse_index(ps, &e[k].point) != 0 || parse_index(rs, &e[k].rep) != 0) {
                rc = gv_fail(err, sizeof err, GV_EINVAL, "%s:%d: point \"%s\", rep \"%s\": not run indexes",
                             files[f], t[f].lines[r], ps, rs);
                goto out;
            }
            if (e[k].point > maxp) maxp = e[k].point;
            if (e[k].rep > maxr) maxr = e[k].rep;
        }
    }
    if (n == 0) {
        rc = gv_fail(err, sizeof err, GV_EINVAL, "no rows in %s%s: nothing to merge", files[0],
                     nfiles > 1 ? " or the other shards" : "");
        goto out;
    }
    qsort(e, n, sizeof *e, by_run);
    uint64_t points = args_has(a, "points") ? (uint64_t)args_num(a, "points", 1) : maxp + 1;
    uint64_t seeds = args_has(a, "seeds") ? (uint64_t)args_num(a, "seeds", 1) : maxr + 1;
    if (maxp >= points || maxr >= seeds) {
        const struct entry *x = &e[n - 1];
        for (size_t i = 0; i < n; i++)
            if (e[i].point >= points || e[i].rep >= seeds) {
                x = &e[i];
                break;
            }
        rc = gv_fail(err, sizeof err, GV_EINVAL,
                     "%s:%d: point %" PRIu64 ", rep %" PRIu64 " is outside the sweep (%" PRIu64
                     " points x %" PRIu64 " seeds)",
                     files[x->file], t[x->file].lines[x->row], x->point, x->rep, points, seeds);
        goto out;
    }
    /* each run exactly once: walk the expected runs alongside the sorted rows */
    uint64_t missing = 0, first_mp = 0, first_mr = 0;
    size_t i = 0;
    for (uint64_t p = 0; p < points; p++) {
        for (uint64_t r = 0; r < seeds; r++) {
            if (i < n && e[i].point == p && e[i].rep == r) {
                if (i + 1 < n && e[i + 1].point == p && e[i + 1].rep == r) {
                    rc = gv_fail(err, sizeof err, GV_EINVAL,
                                 "point %" PRIu64 ", rep %" PRIu64 " twice: %s:%d and %s:%d "
                                 "(the same shard given twice, or shards of different splits?)",
                                 p, r, files[e[i].file], t[e[i].file].lines[e[i].row],
                                 files[e[i + 1].file], t[e[i + 1].file].lines[e[i + 1].row]);
                    goto out;
                }
                i++;
            } else {
                if (missing++ == 0) first_mp = p, first_mr = r;
            }
        }
    }
    if (missing) {
        rc = gv_fail(err, sizeof err, GV_EINVAL,
                     "%" PRIu64 " of %" PRIu64 " runs missing, the first point %" PRIu64
                     ", rep %" PRIu64 " (a shard not given, or a run that failed in its shard)",
                     missing, points * seeds, first_mp, first_mr);
        goto out;
    }

    for (int c = 0; c < t[0].ncols; c++) row_text(&cols, t[0].header[c]);
    struct afile out;
    rc = cols.oom ? gv_fail(err, sizeof err, GV_ENOMEM, "out of memory")
                  : afile_open(&out, ro.output, err, sizeof err);
    if (rc != GV_OK) goto out;
    struct rows_writer w;
    rows_begin(&w, out.f, ro.format, &cols, !ro.no_header);
    for (i = 0; i < n; i++) {
        const struct csv_table *tt = &t[e[i].file];
        row_clear(&cells);
        for (int c = 0; c < tt->ncols; c++) {
            enum row_cell_kind kind = rowsr_kind(tt, e[i].row, c);
            const char *v = csvr_cell(tt, e[i].row, c);
            if (kind == ROW_NULL) {
                row_null(&cells);
            } else {
                row_cell(&cells, kind);
                row_printf(&cells, "%s", v);
            }
        }
        if (cells.oom) {
            afile_abort(&out);
            rc = gv_fail(err, sizeof err, GV_ENOMEM, "out of memory");
            goto out;
        }
        rows_put(&w, &cells);
    }
    rows_end(&w);
    rc = afile_commit(&out, err, sizeof err);
    if (rc == GV_OK && !ro.quiet)
        fprintf(stderr, "merge: %zu rows (%" PRIu64 " points x %" PRIu64 " seeds) from %d file%s\n", n,
                points, seeds, nfiles, nfiles == 1 ? "" : "s");
out:
    if (rc != GV_OK) fprintf(stderr, "gvlsim merge: %s\n", err);
    if (t)
        for (int f = 0; f < nfiles; f++) csvr_free(&t[f]);
    free(t);
    free(e);
    row_free(&cols);
    row_free(&cells);
    return rc == GV_OK ? GV_EXIT_OK : gv_exit_code(rc);
}
