/* cmd_compare.c - `gvlsim compare BASE NEW`: the rows of two result files
 * joined on their configuration, every metric that moved reported, exit 1
 * on a regression (like diff).  The comparison is output/compare.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/afile.h"
#include "../common/err.h"
#include "../output/compare.h"
#include "../output/rowsread.h"
#include "cli.h"
#include "options.h"

static int compare_exec(const struct args *a);

static const struct args_opt compare_opts[] = {
    { .name = "key", .kind = ARGS_STRING, .metavar = "COLS",
      .help = "join rows on these columns (comma-separated) instead of the\n"
              "default configuration columns" },
    { .name = "ignore", .kind = ARGS_STRING, .metavar = "COLS",
      .help = "leave these columns out of the comparison (comma-separated;\n"
              "host_s and point always are)" },
    { .name = "tolerance", .kind = ARGS_KV, .flags = ARGS_REPEAT, .metavar = "METRIC=TOL",
      .help = "accept a change of METRIC (a column, or * for all) up to TOL:\n"
              "relative with %, e.g. wall_s=5%, else absolute in the column's\n"
              "unit, e.g. vol_switches=10" },
    { .name = "measured-tolerance", .kind = ARGS_STRING, .metavar = "PCT",
      .help = "least relative tolerance of measured rows (pthread, ruby;\n"
              "default 5%); the replicates' spread widens it" },
    { .name = "report", .kind = ARGS_ENUM, .values = cmp_report_names,
      .help = "the report: a table (text, the default), markdown (a CI job\n"
              "summary or pull-request comment), or JSON for tools" },
    { .name = "all", .kind = ARGS_FLAG,
      .help = "also list the changes within their tolerance" },
    { .name = "update", .kind = ARGS_FLAG,
      .help = "rewrite BASE with NEW's rows (on purpose: the baseline's diff\n"
              "shows in review), after reporting what changed; exit 0" },
    CLI_OPT_QUIET_H("no report, only the exit status"),
    CLI_OPT_END,
};

const struct cli_command cli_cmd_compare = {
    .name = "compare",
    .usage = "BASE NEW [--tolerance METRIC=TOL]... [--key COLS] [--report text|markdown|json] [options]",
    .summary = "compare result rows with a baseline, configuration by configuration (exit 1 if one moved)",
    .description =
        "BASE and NEW are rows written by run, exec, sweep or merge, in CSV, JSON or JSON\n"
        "Lines (by suffix, else by content).  Rows are joined on their configuration: a\n"
        "sweep's --param columns and rep, then scenario, backend, policy,\n"
        "invariant_check, insn_counter, cores, ractors, threads and seed.  Every other\n"
        "column is a metric (named measures included), except host_s and point.",
    .args = { compare_opts, "CSV", 2, 2 },
    .details =
        "Simulated rows are deterministic: any change is reported, unless --tolerance\n"
        "allows it.  Measured rows (backend pthread, ruby) that differ only in rep and\n"
        "seed are replicates: their medians are compared, within the larger of\n"
        "--measured-tolerance (5%) and the replicates' relative spread\n"
        "((max - min) / median, on either side).  The same numbers written differently\n"
        "(1.5 and 1.50) are equal; a text column (engine) or an empty cell that changed\n"
        "is a change beyond any tolerance.\n"
        "\n"
        "Refused, never passed silently: different column sets, a configuration on one\n"
        "side only, a simulated configuration twice in one file, a file without rows\n"
        "(exit 3).  --update reports these instead, and rewrites BASE.",
    .exit_status =
        "0 no metric moved beyond its tolerance (or --update wrote BASE),\n"
        "1 a regression: some metric moved beyond its tolerance, 2 usage (an unknown\n"
        "column in --key, --ignore or --tolerance), 3 invalid input (a malformed file,\n"
        "different columns, a configuration on one side only or twice), 5 a file\n"
        "cannot be read (or BASE written), 6 out of memory.",
    .exec = compare_exec,
};

/* Split "a,b,c" into a NULL-terminated array (malloc'ed, one block). */
static char **split_cols(const char *s, int *n)
{
    size_t len = strlen(s), count = 1;
    for (const char *p = s; *p; p++) count += *p == ',';
    char **v = malloc((count + 1) * sizeof *v + len + 1);
    if (!v) return NULL;
    char *text = (char *)(v + count + 1);
    memcpy(text, s, len + 1);
    *n = 0;
    for (char *tok = text;;) {
        char *comma = strchr(tok, ',');
        if (comma) *comma = 0;
        if (*tok) v[(*n)++] = tok;
        if (!comma) break;
        tok = comma + 1;
    }
    v[*n] = NULL;
    return v;
}

/* --update: NEW's bytes replace BASE, atomically. */
static int update_base(const char *base, const char *new_path, char *err, size_t errlen)
{
    char *text = NULL;
    int rc = csvr_read_text(new_path, &text, err, errlen);
    if (rc != GV_OK) return rc;
    if (rowsr_format(base, NULL) != rowsr_format(new_path, text) &&
        rowsr_format(base, NULL) != ROWS_CSV) {
        free(text);
        return gv_fail(err, errlen, GV_EINVAL, "--update: %s and %s hold different encodings", base,
                       new_path);
    }
    struct afile af;
    rc = afile_open(&af, base, err, errlen);
    if (rc == GV_OK) {
        fputs(text, af.f);
        rc = afile_commit(&af, err, errlen);
    }
    free(text);
    return rc;
}

static int compare_exec(const struct args *a)
{
    const char *base_path = a->operands[0], *new_path = a->operands[1];
    bool update = args_has(a, "update"), quiet = args_has(a, "quiet");
    char err[4096];
    struct cmp_opts o = { .measured_floor = -1, .lenient = update };
    char **key = NULL, **ignore = NULL;
    struct cmp_tolerance *tol = NULL;
    char **names = NULL;      /* each --tolerance's METRIC */
    struct cmp_result res;
    memset(&res, 0, sizeof res);
    struct csv_table tb, tn;
    memset(&tb, 0, sizeof tb);
    memset(&tn, 0, sizeof tn);
    int code = GV_EXIT_OK, rc;

    if (args_has(a, "key") && !(key = split_cols(args_str(a, "key", ""), &o.nkey))) goto oom;
    if (key && o.nkey == 0) {
        code = cli_usage_error(&cli_cmd_compare, "--key: no column named");
        goto out;
    }
    o.key = (const char *const *)key;
    if (args_has(a, "ignore") && !(ignore = split_cols(args_str(a, "ignore", ""), &o.nignore))) goto oom;
    o.ignore = (const char *const *)ignore;
    o.ntol = args_count(a, "tolerance");
    tol = calloc((size_t)(o.ntol ? o.ntol : 1), sizeof *tol);
    if (!tol) goto oom;
    const char *const *tv = args_strs(a, "tolerance");
    for (int i = 0; i < o.ntol; i++) {
        const char *eq = strchr(tv[i], '=');
        if (cmp_parse_tolerance(eq + 1, &tol[i]) != 0) {
            code = cli_usage_error(&cli_cmd_compare,
                                   "--tolerance %s: TOL is a percentage (5%%) or a non-negative "
                                   "number (an absolute difference)", tv[i]);
            goto out;
        }
    }
    o.tol = tol;
    if (args_has(a, "measured-tolerance")) {
        struct cmp_tolerance mt;
        if (cmp_parse_tolerance(args_str(a, "measured-tolerance", ""), &mt) != 0 || !mt.relative) {
            code = cli_usage_error(&cli_cmd_compare, "--measured-tolerance %s: a percentage, e.g. 10%%",
                                   args_str(a, "measured-tolerance", ""));
            goto out;
        }
        o.measured_floor = mt.value;
    }
    names = calloc((size_t)(o.ntol ? o.ntol : 1), sizeof *names);
    if (!names) goto oom;
    for (int i = 0; i < o.ntol; i++) {
        if (!(names[i] = strndup(tv[i], (size_t)(strchr(tv[i], '=') - tv[i])))) goto oom;
        tol[i].metric = names[i];
    }
    enum cmp_report fmt = (enum cmp_report)args_num(a, "report", CMP_TEXT);

    rc = rowsr_read(new_path, &tn, NULL, err, sizeof err);
    if (rc != GV_OK) {  /* NEW must be sound, --update or not */
        fprintf(stderr, "gvlsim compare: %s\n", err);
        code = gv_exit_code(rc);
        goto out;
    }
    rc = rowsr_read(base_path, &tb, NULL, err, sizeof err);
    if (rc == GV_OK) rc = cmp_run(&tb, base_path, &tn, new_path, &o, &res, err, sizeof err);
    if (rc != GV_OK && update && rc != GV_ENOMEM && rc != GV_EUSAGE) {
        /* a missing, broken or incomparable baseline is rewritten */
        if (!quiet) printf("gvlsim compare: not compared: %s\n", err);
    } else if (rc != GV_OK) {
        fprintf(stderr, "gvlsim compare: %s\n", err);
        code = rc == GV_EUSAGE ? GV_EXIT_USAGE : gv_exit_code(rc);
        goto out;
    } else {
        if (!quiet) cmp_write_report(stdout, fmt, &res, &tb, args_has(a, "all"));
        code = res.nbeyond ? GV_EXIT_REGRESSION : GV_EXIT_OK;
    }
    if (update) {
        rc = update_base(base_path, new_path, err, sizeof err);
        if (rc != GV_OK) {
            fprintf(stderr, "gvlsim compare: %s\n", err);
            code = gv_exit_code(rc);
        } else {
            if (!quiet) printf("gvlsim compare: %s rewritten from %s\n", base_path, new_path);
            code = GV_EXIT_OK;
        }
    }
    if (fflush(stdout) != 0 && code == GV_EXIT_OK) code = GV_EXIT_IO;
    goto out;
oom:
    fprintf(stderr, "gvlsim compare: out of memory\n");
    code = GV_EXIT_NOMEM;
out:
    cmp_result_free(&res);
    if (names)
        for (int i = 0; i < o.ntol; i++) free(names[i]);
    free(names);
    csvr_free(&tb);
    csvr_free(&tn);
    free(key);
    free(ignore);
    free(tol);
    return code;
}
