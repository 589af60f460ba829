/* test_compare.c - reading rows back (CSV, JSON, JSON Lines), comparing
 * them (output/compare.c) and the shares of a sweep (cli/sweep.c). */
#include <math.h>

#include "../../cli/sweep.h"
#include "../../common/err.h"
#include "../../output/compare.h"
#include "../../output/rowsread.h"
#include "test.h"

static char err[4096];

static void parse(const char *text, enum rows_format fmt, struct csv_table *t)
{
    int rc = rowsr_parse(text, "t", fmt, t, err, sizeof err);
    if (rc != GV_OK) fprintf(stderr, "unexpected: %s\n", err);
    ASSERT_EQ(rc, GV_OK);
}

static void parse_fails(const char *text, enum rows_format fmt, const char *msg)
{
    struct csv_table t;
    ASSERT_EQ(rowsr_parse(text, "t", fmt, &t, err, sizeof err), GV_EINVAL);
    ASSERT_CONTAINS(err, msg);
}

static void test_format_detection(void)
{
    ASSERT_EQ(rowsr_format("a.csv", "[{"), ROWS_CSV);     /* the name wins */
    ASSERT_EQ(rowsr_format("a.json", ""), ROWS_JSON);
    ASSERT_EQ(rowsr_format("a.jsonl", ""), ROWS_JSONL);
    ASSERT_EQ(rowsr_format("a.ndjson", ""), ROWS_JSONL);
    ASSERT_EQ(rowsr_format("a.txt", " \n[{}]"), ROWS_JSON);
    ASSERT_EQ(rowsr_format("-", "{\"a\":1}\n"), ROWS_JSONL);
    ASSERT_EQ(rowsr_format(NULL, "a,b\n"), ROWS_CSV);
}

static void test_json_rows(void)
{
    struct csv_table t;
    /* the shape the row writer makes: numbers kept as written, null empty,
     * lists joined with ';', strings decoded */
    parse("[\n{\"scenario\":\"a\\\"b\\u00e9\\ud83d\\ude00\",\"wall_s\":1.500000000,\"host_s\":null,"
          "\"ractor_ops_per_s\":[1.5,2e3]},\n"
          "{\"wall_s\":2,\"scenario\":\"x\",\"host_s\":0.5,\"ractor_ops_per_s\":[]}\n]\n",
          ROWS_JSON, &t);
    ASSERT_EQ(t.ncols, 4);
    ASSERT_EQ(t.nrows, 2);
    ASSERT_STREQ(t.header[1], "wall_s");
    ASSERT_STREQ(csvr_cell(&t, 0, 0), "a\"b\xc3\xa9\xf0\x9f\x98\x80");
    ASSERT_STREQ(csvr_cell(&t, 0, 1), "1.500000000");
    ASSERT_STREQ(csvr_cell(&t, 0, 2), "");
    ASSERT_EQ(rowsr_kind(&t, 0, 2), ROW_NULL);
    ASSERT_STREQ(csvr_cell(&t, 0, 3), "1.5;2e3");
    ASSERT_EQ(rowsr_kind(&t, 0, 3), ROW_LIST);
    ASSERT_STREQ(csvr_cell(&t, 1, 0), "x");     /* keys in another order */
    ASSERT_STREQ(csvr_cell(&t, 1, 1), "2");
    ASSERT_EQ(rowsr_kind(&t, 1, 1), ROW_NUM);
    ASSERT_EQ(t.lines[0], 2);
    ASSERT_EQ(t.lines[1], 3);
    csvr_free(&t);

    parse("{\"a\":1,\"b\":\"x\"}\n{\"a\":2,\"b\":null}\n", ROWS_JSONL, &t);
    ASSERT_EQ(t.nrows, 2);
    ASSERT_STREQ(csvr_cell(&t, 1, 0), "2");
    ASSERT_EQ(t.lines[1], 2);
    csvr_free(&t);

    /* malformed: every error is positioned */
    parse_fails("[{\"a\":1},{\"a\":01}]", ROWS_JSON, "t:1:15: not a JSON value");
    parse_fails("[{\"a\":1},\n{\"b\":2}]", ROWS_JSON, "t:2:2: key \"b\" is not a column");
    parse_fails("[{\"a\":1,\"b\":2},{\"a\":2}]", ROWS_JSON, "key \"b\" missing");
    parse_fails("[{\"a\":1,\"a\":2}]", ROWS_JSON, "key \"a\" twice");
    parse_fails("[{\"a\":{\"b\":1}}]", ROWS_JSON, "a nested object");
    parse_fails("[{\"a\":[\"x\"]}]", ROWS_JSON, "numbers only");
    parse_fails("[{\"a\":1}", ROWS_JSON, "expected ',' or ']'");
    parse_fails("[{\"a\":1}] x", ROWS_JSON, "text after the array");
    parse_fails("[{\"a\":\"x\ty\"}]", ROWS_JSON, "raw control character");
    parse_fails("[{\"a\":\"\\u0000\"}]", ROWS_JSON, "\\u0000");
    parse_fails("[{\"a\":\"\\ud800\"}]", ROWS_JSON, "unpaired surrogate");
    parse_fails("[{\"a\":\"\\q\"}]", ROWS_JSON, "invalid escape");
    parse_fails("[{\"a\":nul}]", ROWS_JSON, "not a JSON value");
    parse_fails("[]", ROWS_JSON, "no rows");
    parse_fails("[{}]", ROWS_JSON, "an empty object");
    parse_fails("{\"a\":1} {\"a\":2}\n", ROWS_JSONL, "one object per line");
    parse_fails("{\"a\":1}\n\n{\"a\":2}\n", ROWS_JSONL, "t:2:1: expected '{'");
    /* CSV keeps its own messages, now with each row's line */
    parse_fails("a,b\n1,2\n3\n", ROWS_CSV, "t:3: 1 fields, the header has 2");
    parse("a,b\n\"x\ny\",2\n3,4\n", ROWS_CSV, &t);
    ASSERT_EQ(t.lines[0], 2);
    ASSERT_EQ(t.lines[1], 4);
    ASSERT(t.kinds == NULL);
    csvr_free(&t);
}

static void test_csv_kinds(void)
{
    struct csv_table t;
    parse("point,dur,scenario,wall_s,host_s,ractor_ops_per_s\n0,10us,7,1.5,,\n", ROWS_CSV, &t);
    ASSERT_EQ(rowsr_kind(&t, 0, 0), ROW_NUM);
    ASSERT_EQ(rowsr_kind(&t, 0, 1), ROW_TEXT);   /* a --param value that is not a number */
    ASSERT_EQ(rowsr_kind(&t, 0, 2), ROW_TEXT);   /* scenario is text, even "7" */
    ASSERT_EQ(rowsr_kind(&t, 0, 3), ROW_NUM);
    ASSERT_EQ(rowsr_kind(&t, 0, 4), ROW_NULL);   /* --reproducible's empty host_s */
    ASSERT_EQ(rowsr_kind(&t, 0, 5), ROW_LIST);   /* an empty list stays a list */
    csvr_free(&t);
}

/* ---- compare ------------------------------------------------------------- */

static const char *HEAD = "point,rep,machine.cores,scenario,backend,engine,policy,cores,seed,wall_s,ops,host_s\n";

static int compare(const char *base, const char *new_, const struct cmp_opts *o, struct cmp_result *r)
{
    struct csv_table tb, tn;
    parse(base, ROWS_CSV, &tb);
    parse(new_, ROWS_CSV, &tn);
    int rc = cmp_run(&tb, "base.csv", &tn, "new.csv", o, r, err, sizeof err);
    csvr_free(&tb);
    csvr_free(&tn);
    return rc;
}

static char *cat(const char *a, const char *b)
{
    static char buf[8][4096];
    static int k;
    char *s = buf[k++ % 8];
    snprintf(s, 4096, "%s%s", a, b);
    return s;
}

static void test_compare_sim(void)
{
    struct cmp_opts o = { .measured_floor = -1 };
    struct cmp_result r;
    const char *rows = "0,0,1,s,sim,native,eager,1,1,1.000000000,100,0.2\n"
                       "1,0,2,s,sim,native,eager,2,1,2.000000000,100,0.3\n";
    /* identical, apart from host_s and the row order */
    ASSERT_EQ(compare(cat(HEAD, rows),
                      cat(HEAD, "1,0,2,s,sim,native,eager,2,1,2.0,100,9\n"
                                "0,0,1,s,sim,native,eager,1,1,1.000000000,100,9\n"),
                      &o, &r), GV_OK);
    ASSERT_EQ(r.ngroups, 2);
    ASSERT_EQ(r.nchanges, 0);                 /* 2.0 and 2.000000000 are one number */
    ASSERT_EQ(r.nmetrics, 3);                 /* engine, wall_s, ops */
    cmp_result_free(&r);

    /* any change of a simulated metric is a regression */
    ASSERT_EQ(compare(cat(HEAD, rows),
                      cat(HEAD, "0,0,1,s,sim,native,eager,1,1,1.000000001,100,\n"
                                "1,0,2,s,sim,native,eager,2,1,2.000000000,101,\n"),
                      &o, &r), GV_OK);
    ASSERT_EQ(r.nchanges, 2);
    ASSERT_EQ(r.nbeyond, 2);
    ASSERT_STREQ(r.changes[0].base, "1.000000000");
    ASSERT_STREQ(r.changes[0].new, "1.000000001");
    ASSERT(fabs(r.changes[0].rel - 1e-9) < 1e-15);
    ASSERT(r.changes[0].tol < 0);             /* exact */
    cmp_result_free(&r);

    /* a tolerance accepts it; an absolute one too */
    struct cmp_tolerance tol[2] = { { "*", 0.01, true }, { "ops", 0.5, false } };
    o.tol = tol;
    o.ntol = 2;
    ASSERT_EQ(compare(cat(HEAD, rows),
                      cat(HEAD, "0,0,1,s,sim,native,eager,1,1,1.005,100,\n"
                                "1,0,2,s,sim,native,eager,2,1,2.000000000,101,\n"),
                      &o, &r), GV_OK);
    ASSERT_EQ(r.nchanges, 2);
    ASSERT_EQ(r.nbeyond, 1);                  /* ops: 1 > 0.5 absolute */
    ASSERT_EQ(r.changes[0].beyond, 0);
    ASSERT_EQ(r.changes[1].beyond, 1);
    cmp_result_free(&r);
    o.tol = NULL;
    o.ntol = 0;

    /* a text column that changed: beyond any tolerance */
    ASSERT_EQ(compare(cat(HEAD, rows),
                      cat(HEAD, "0,0,1,s,sim,simgrid,eager,1,1,1.000000000,100,\n"
                                "1,0,2,s,sim,native,eager,2,1,2.000000000,100,\n"),
                      &o, &r), GV_OK);
    ASSERT_EQ(r.nbeyond, 1);
    ASSERT_STREQ(r.changes[0].new, "simgrid");
    cmp_result_free(&r);
    /* ... unless ignored */
    const char *ign[] = { "engine" };
    o.ignore = ign;
    o.nignore = 1;
    ASSERT_EQ(compare(cat(HEAD, rows),
                      cat(HEAD, "0,0,1,s,sim,simgrid,eager,1,1,1.000000000,100,\n"
                                "1,0,2,s,sim,native,eager,2,1,2.000000000,100,\n"),
                      &o, &r), GV_OK);
    ASSERT_EQ(r.nchanges, 0);
    cmp_result_free(&r);
    o.ignore = NULL;
    o.nignore = 0;
    /* the key columns shown: those that vary, once (cores repeats machine.cores) */
    ASSERT_EQ(compare(cat(HEAD, rows), cat(HEAD, rows), &o, &r), GV_OK);
    ASSERT_EQ(r.nkey_shown, 1);
    ASSERT_STREQ(r.key_cols[r.key_shown[0]], "machine.cores");
    cmp_result_free(&r);
}

static void test_compare_errors(void)
{
    struct cmp_opts o = { .measured_floor = -1 };
    struct cmp_result r;
    const char *rows = "0,0,1,s,sim,native,eager,1,1,1.0,100,\n";
    /* different columns */
    ASSERT_EQ(compare(cat(HEAD, rows), "point,rep,machine.cores,scenario,wall_s\n0,0,1,s,1\n", &o, &r),
              GV_EINVAL);
    ASSERT_CONTAINS(err, "different columns (only in base.csv: backend, engine, policy, cores, seed, "
                         "ops, host_s; only in new.csv: none)");
    /* a configuration on one side only */
    ASSERT_EQ(compare(cat(HEAD, rows), cat(HEAD, "1,0,2,s,sim,native,eager,2,1,1.0,100,\n"), &o, &r),
              GV_EINVAL);
    ASSERT_CONTAINS(err, "2 configurations on one side only");
    ASSERT_CONTAINS(err, "only in base.csv (line 2): rep=0 machine.cores=1 scenario=s");
    /* a simulated configuration twice */
    ASSERT_EQ(compare(cat(HEAD, "0,0,1,s,sim,native,eager,1,1,1.0,100,\n0,0,1,s,sim,native,eager,1,1,1.0,100,\n"),
                      cat(HEAD, rows), &o, &r), GV_EINVAL);
    ASSERT_CONTAINS(err, "base.csv:2 and line 3: the same configuration twice");
    /* no rows */
    ASSERT_EQ(compare(HEAD, cat(HEAD, rows), &o, &r), GV_EINVAL);
    ASSERT_CONTAINS(err, "base.csv has no rows");
    /* unknown columns in options: usage errors */
    const char *key[] = { "nope" };
    o.key = key;
    o.nkey = 1;
    ASSERT_EQ(compare(cat(HEAD, rows), cat(HEAD, rows), &o, &r), GV_EUSAGE);
    ASSERT_CONTAINS(err, "--key nope: no such column; the columns are: point rep");
    o.key = NULL;
    o.nkey = 0;
    struct cmp_tolerance tol = { "cores", 0.1, true };
    o.tol = &tol;
    o.ntol = 1;
    ASSERT_EQ(compare(cat(HEAD, rows), cat(HEAD, rows), &o, &r), GV_EUSAGE);
    ASSERT_CONTAINS(err, "--tolerance cores: a key or ignored column");
    o.tol = NULL;
    o.ntol = 0;
    /* no scenario column: no default key */
    ASSERT_EQ(compare("a,b\n1,2\n", "a,b\n1,2\n", &o, &r), GV_EUSAGE);
    ASSERT_CONTAINS(err, "no default key");
    /* lenient (--update): a side-only configuration is a note */
    o.lenient = true;
    ASSERT_EQ(compare(cat(HEAD, rows), cat(HEAD, "1,0,2,s,sim,native,eager,2,1,1.0,100,\n"), &o, &r), GV_OK);
    ASSERT_CONTAINS(r.note, "2 configurations on one side only");
    cmp_result_free(&r);
}

static void test_compare_measured(void)
{
    struct cmp_opts o = { .measured_floor = -1 };
    struct cmp_result r;
    /* three replicates a side: rep and seed differ, the rest is one configuration */
    const char *base = "0,0,1,s,pthread,pthread,eager,1,1,1.00,100,\n"
                       "0,1,1,s,pthread,pthread,eager,1,7,1.10,100,\n"
                       "0,2,1,s,pthread,pthread,eager,1,9,0.90,100,\n";
    /* median 1.08 vs 1.00: 8% moved, within the base's 20% spread */
    ASSERT_EQ(compare(cat(HEAD, base),
                      cat(HEAD, "0,0,1,s,pthread,pthread,eager,1,1,1.08,100,\n"
                                "0,1,1,s,pthread,pthread,eager,1,7,1.07,100,\n"
                                "0,2,1,s,pthread,pthread,eager,1,9,1.09,100,\n"),
                      &o, &r), GV_OK);
    ASSERT_EQ(r.ngroups, 1);
    ASSERT_EQ(r.groups[0].nbase, 3);
    ASSERT(r.groups[0].measured);
    ASSERT_STREQ(r.groups[0].key[0], "*");   /* rep: every replicate */
    ASSERT_EQ(r.nchanges, 1);
    ASSERT_EQ(r.nbeyond, 0);
    ASSERT(r.changes[0].from_spread);
    ASSERT(fabs(r.changes[0].tol - 0.2) < 1e-9);
    ASSERT_STREQ(r.changes[0].base, "1");
    ASSERT_STREQ(r.changes[0].new, "1.08");
    cmp_result_free(&r);
    /* 50% moved: beyond the spread */
    ASSERT_EQ(compare(cat(HEAD, base),
                      cat(HEAD, "0,0,1,s,pthread,pthread,eager,1,1,1.5,100,\n"
                                "0,1,1,s,pthread,pthread,eager,1,7,1.5,100,\n"),
                      &o, &r), GV_OK);
    ASSERT_EQ(r.nbeyond, 1);
    ASSERT_EQ(r.groups[0].nnew, 2);
    cmp_result_free(&r);
    /* one replicate a side: the 5% floor, and --measured-tolerance moves it */
    const char *one = "0,0,1,s,ruby,ruby 3.1.2,barging,1,1,1.00,100,\n";
    ASSERT_EQ(compare(cat(HEAD, one), cat(HEAD, "0,0,1,s,ruby,ruby 3.1.2,barging,1,1,1.04,100,\n"), &o, &r),
              GV_OK);
    ASSERT_EQ(r.nbeyond, 0);
    cmp_result_free(&r);
    ASSERT_EQ(compare(cat(HEAD, one), cat(HEAD, "0,0,1,s,ruby,ruby 3.1.2,barging,1,1,1.06,100,\n"), &o, &r),
              GV_OK);
    ASSERT_EQ(r.nbeyond, 1);
    cmp_result_free(&r);
    o.measured_floor = 0.1;
    ASSERT_EQ(compare(cat(HEAD, one), cat(HEAD, "0,0,1,s,ruby,ruby 3.1.2,barging,1,1,1.06,100,\n"), &o, &r),
              GV_OK);
    ASSERT_EQ(r.nbeyond, 0);
    cmp_result_free(&r);
}

static void test_compare_lists_and_measures(void)
{
    struct cmp_opts o = { .measured_floor = -1 };
    struct cmp_result r;
    /* a named measure after the fixed columns is a metric like any other;
     * a list compares element by element */
    const char *head = "scenario,backend,cores,seed,wall_s,ractor_ops_per_s,req_p99_s\n";
    ASSERT_EQ(compare(cat(head, "s,sim,1,1,1.0,1.0;2.0,0.005\n"), cat(head, "s,sim,1,1,1.0,1.0;2.5,0.006\n"),
                      &o, &r), GV_OK);
    ASSERT_EQ(r.nchanges, 2);
    ASSERT(fabs(r.changes[0].rel - 0.25) < 1e-12);
    cmp_result_free(&r);
    /* lists of different lengths, or an empty cell that filled: changes */
    ASSERT_EQ(compare(cat(head, "s,sim,1,1,1.0,1.0;2.0,\n"), cat(head, "s,sim,1,1,1.0,1.0,0.006\n"), &o, &r),
              GV_OK);
    ASSERT_EQ(r.nbeyond, 2);
    ASSERT(isnan(r.changes[0].rel));
    cmp_result_free(&r);
}

static void test_tolerance_syntax(void)
{
    struct cmp_tolerance t;
    ASSERT_EQ(cmp_parse_tolerance("5%", &t), 0);
    ASSERT(t.relative && fabs(t.value - 0.05) < 1e-12);
    ASSERT_EQ(cmp_parse_tolerance("0.002", &t), 0);
    ASSERT(!t.relative && fabs(t.value - 0.002) < 1e-12);
    ASSERT_EQ(cmp_parse_tolerance("-1%", &t), -1);
    ASSERT_EQ(cmp_parse_tolerance("5%%", &t), -1);
    ASSERT_EQ(cmp_parse_tolerance("x", &t), -1);
    ASSERT_EQ(cmp_parse_tolerance("", &t), -1);
}

static void test_shards(void)
{
    struct sweep_shard sh;
    ASSERT_EQ(sweep_shard_parse("2/8", &sh, err, sizeof err), 0);
    ASSERT_EQ(sh.k, 2);
    ASSERT_EQ(sh.n, 8);
    ASSERT_EQ(sweep_shard_parse("0/8", &sh, err, sizeof err), -1);
    ASSERT_EQ(sweep_shard_parse("9/8", &sh, err, sizeof err), -1);
    ASSERT_EQ(sweep_shard_parse("1/0", &sh, err, sizeof err), -1);
    ASSERT_EQ(sweep_shard_parse("-1/2", &sh, err, sizeof err), -1);
    ASSERT_EQ(sweep_shard_parse("1/2x", &sh, err, sizeof err), -1);
    ASSERT_EQ(sweep_shard_parse("1", &sh, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "is not K/N");
    /* every run in exactly one share, in run order within it */
    for (uint64_t n = 1; n <= 7; n++) {
        for (uint64_t runs = 0; runs <= 20; runs++) {
            int seen[20] = { 0 };
            uint64_t total = 0;
            for (uint64_t k = 1; k <= n; k++) {
                struct sweep_shard s = { k, n };
                uint64_t m = sweep_shard_runs(&s, runs);
                total += m;
                for (uint64_t j = 0; j < m; j++) {
                    uint64_t r = sweep_shard_run(&s, j);
                    ASSERT(r < runs);
                    ASSERT(j == 0 || r > sweep_shard_run(&s, j - 1));
                    seen[r]++;
                }
            }
            ASSERT_EQ(total, runs);
            for (uint64_t r = 0; r < runs; r++) ASSERT_EQ(seen[r], 1);
        }
    }
}

static void test_interleave(void)
{
    /* 3 points x 2 seeds: runs 0..5 = (p0 r0) (p0 r1) (p1 r0) (p1 r1) (p2 r0) (p2 r1) */
    struct sweep_shard all = { 1, 1 };
    uint64_t order[6];
    sweep_interleave(&all, 6, 2, order);
    const uint64_t want[6] = { 0, 2, 4, 1, 3, 5 };   /* every rep 0, then every rep 1 */
    for (int i = 0; i < 6; i++) ASSERT_EQ(order[i], want[i]);
    /* share 2 of 4 holds runs 1 (p0 r1) and 5 (p2 r1): both rep 1, in point order */
    struct sweep_shard sh = { 2, 4 };
    ASSERT_EQ(sweep_shard_runs(&sh, 6), 2);
    sweep_interleave(&sh, 2, 2, order);
    ASSERT_EQ(order[0], 0);
    ASSERT_EQ(order[1], 1);
    /* 5 points x 2 seeds, share 2 of 5 holds runs 1 (p0 r1) and 6 (p3 r0):
     * the rep-0 run first although it comes later in run order */
    struct sweep_shard s5 = { 2, 5 };
    ASSERT_EQ(sweep_shard_runs(&s5, 10), 2);
    sweep_interleave(&s5, 2, 2, order);
    ASSERT_EQ(order[0], 1);
    ASSERT_EQ(order[1], 0);
}

int main(void)
{
    RUN(test_format_detection);
    RUN(test_json_rows);
    RUN(test_csv_kinds);
    RUN(test_compare_sim);
    RUN(test_compare_errors);
    RUN(test_compare_measured);
    RUN(test_compare_lists_and_measures);
    RUN(test_tolerance_syntax);
    RUN(test_shards);
    RUN(test_interleave);
    TEST_DONE();
}
