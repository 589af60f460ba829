/* test_sweep.c - the sweep grid (value splitting, order, seeds) and the CSV
 * reader (plots: test_plot.c; shards: test_compare.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/sweep.h"
#include "../../common/diag.h"
#include "../../common/err.h"
#include "../../input/load.h"
#include "../../input/scenario.h"
#include "../../output/csvread.h"
#include "test.h"

static void test_split_values(void)
{
    struct sweep_grid g;
    char err[256];
    sweep_grid_init(&g);
    ASSERT_EQ(sweep_grid_add(&g, "runtime.gvl_policy=eager,hot_steal", err, sizeof err), 0);
    ASSERT_EQ(sweep_grid_add(&g, "a.b=[1,2],{\"x\":1,\"y\":\"p,q\"},\"s,t\",3", err, sizeof err), 0);
    ASSERT_EQ(g.nparams, 2);
    ASSERT_EQ(g.params[1].nvalues, 4);
    ASSERT_STREQ(g.params[1].values[0], "[1,2]");
    ASSERT_STREQ(g.params[1].values[1], "{\"x\":1,\"y\":\"p,q\"}");
    ASSERT_STREQ(g.params[1].values[2], "\"s,t\"");
    ASSERT_STREQ(g.params[1].values[3], "3");
    ASSERT_EQ(g.npoints, 8);
    /* values are kept exactly as given (the --set parser interprets them) */
    ASSERT_EQ(sweep_grid_add(&g, "ractors.0.threads.1.program.0.body.1.dur=50us, 1ms", err, sizeof err), 0);
    ASSERT_STREQ(g.params[2].values[1], " 1ms");
    sweep_grid_free(&g);
}

static void test_bad_params(void)
{
    struct sweep_grid g;
    char err[256];
    sweep_grid_init(&g);
    ASSERT_EQ(sweep_grid_add(&g, "machine.cores", err, sizeof err), -1);
    ASSERT_CONTAINS(err, "KEY=V1,V2");
    ASSERT_EQ(sweep_grid_add(&g, "=1,2", err, sizeof err), -1);
    ASSERT_EQ(sweep_grid_add(&g, "k=1,,2", err, sizeof err), -1);
    ASSERT_CONTAINS(err, "empty value");
    ASSERT_EQ(sweep_grid_add(&g, "k=", err, sizeof err), -1);
    ASSERT_EQ(sweep_grid_add(&g, "k=1,", err, sizeof err), -1);
    ASSERT_EQ(sweep_grid_add(&g, "k=[1,2", err, sizeof err), -1);
    ASSERT_CONTAINS(err, "unbalanced");
    ASSERT_EQ(sweep_grid_add(&g, "k=\"a,b", err, sizeof err), -1);
    ASSERT_EQ(sweep_grid_add(&g, "k=1]", err, sizeof err), -1);
    ASSERT_EQ(sweep_grid_add(&g, "k=1,2", err, sizeof err), 0);
    ASSERT_EQ(sweep_grid_add(&g, "k=3", err, sizeof err), -1);
    ASSERT_CONTAINS(err, "given twice");
    /* a grid too large to run */
    ASSERT_EQ(sweep_grid_add(&g, "a=1,2,3,4,5,6,7,8,9,10", err, sizeof err), 0);
    ASSERT_EQ(sweep_grid_add(&g, "b=1,2,3,4,5,6,7,8,9,10", err, sizeof err), 0);
    ASSERT_EQ(sweep_grid_add(&g, "c=1,2,3,4,5,6,7,8,9,10", err, sizeof err), 0);
    ASSERT_EQ(sweep_grid_add(&g, "d=1,2,3,4,5,6,7,8,9,10", err, sizeof err), 0);
    ASSERT_EQ(sweep_grid_add(&g, "e=1,2,3,4,5,6,7,8,9,10", err, sizeof err), 0);
    ASSERT_EQ(sweep_grid_add(&g, "f=1,2,3,4,5,6,7,8,9,10", err, sizeof err), 0);  /* 2e6 runs */
    ASSERT_EQ(sweep_grid_add(&g, "g=1,2,3,4,5,6,7,8,9,10", err, sizeof err), -1);
    ASSERT_CONTAINS(err, "more than");
    sweep_grid_free(&g);
}

static void test_order_first_param_slowest(void)
{
    struct sweep_grid g;
    char err[256];
    sweep_grid_init(&g);
    ASSERT_EQ(sweep_grid_add(&g, "p=a,b", err, sizeof err), 0);
    ASSERT_EQ(sweep_grid_add(&g, "q=1,2,3", err, sizeof err), 0);
    g.nseeds = 2;
    ASSERT_EQ(sweep_runs(&g), 12);
    const char *want[6] = { "p=a q=1", "p=a q=2", "p=a q=3", "p=b q=1", "p=b q=2", "p=b q=3" };
    for (uint64_t pt = 0; pt < 6; pt++) {
        char *a = sweep_set_string(&g, pt, 0), *b = sweep_set_string(&g, pt, 1);
        char got[64];
        snprintf(got, sizeof got, "%s %s", a, b);
        ASSERT_STREQ(got, want[pt]);
        free(a);
        free(b);
    }
    sweep_grid_free(&g);
    /* no --param: one point */
    sweep_grid_init(&g);
    ASSERT_EQ(sweep_runs(&g), 1);
}

static void test_seeds(void)
{
    ASSERT_EQ(sweep_seed(1, 0), 1);
    ASSERT_EQ(sweep_seed(12345, 0), 12345);
    uint64_t s1 = sweep_seed(1, 1), s2 = sweep_seed(1, 2), t1 = sweep_seed(2, 1);
    ASSERT(s1 != 1 && s1 != s2 && s1 != t1);
    ASSERT_EQ(sweep_seed(1, 1), s1);  /* a function of (base, rep) only */
    for (int r = 0; r < 1000; r++) ASSERT(sweep_seed(UINT64_C(1) << 53, r) <= (UINT64_C(1) << 53));
}

static void test_csv_reader(void)
{
    struct csv_table t;
    char err[256];
    ASSERT_EQ(csvr_parse("a,b,c\n1,\"x,y\",3\n4,\"he said \"\"hi\"\"\",\r\n\"multi\nline\",,6", "t.csv",
                         &t, err, sizeof err), GV_OK);
    ASSERT_EQ(t.ncols, 3);
    ASSERT_EQ(t.nrows, 3);
    ASSERT_STREQ(csvr_cell(&t, 0, 1), "x,y");
    ASSERT_STREQ(csvr_cell(&t, 1, 1), "he said \"hi\"");
    ASSERT_STREQ(csvr_cell(&t, 1, 2), "");
    ASSERT_STREQ(csvr_cell(&t, 2, 0), "multi\nline");
    ASSERT_EQ(csvr_col(&t, "c"), 2);
    ASSERT_EQ(csvr_col(&t, "d"), -1);
    csvr_free(&t);
    ASSERT_EQ(csvr_parse("a,b\n1,2,3\n", "t.csv", &t, err, sizeof err), GV_EINVAL);
    ASSERT_STREQ(err, "t.csv:2: 3 fields, the header has 2");
    ASSERT_EQ(csvr_parse("a,b\n\"1,2\n", "t.csv", &t, err, sizeof err), GV_EINVAL);
    ASSERT_CONTAINS(err, "malformed quoted field");
    ASSERT_EQ(csvr_parse("", "t.csv", &t, err, sizeof err), GV_EINVAL);
    ASSERT_EQ(csvr_read("/nonexistent.csv", &t, err, sizeof err), GV_EIO);
    ASSERT_EQ(csvr_parse("a,b\n", "t.csv", &t, err, sizeof err), GV_OK);
    ASSERT_EQ(t.nrows, 0);
    csvr_free(&t);
    /* A text ending just after a comma (found by fuzzing: the header had no
     * columns and a row could vanish): the last field is empty. */
    ASSERT_EQ(csvr_parse("a,", "t.csv", &t, err, sizeof err), GV_OK);
    ASSERT_EQ(t.ncols, 2);
    ASSERT_EQ(t.nrows, 0);
    ASSERT_STREQ(t.header[1], "");
    csvr_free(&t);
    ASSERT_EQ(csvr_parse("a,b\n1,", "t.csv", &t, err, sizeof err), GV_OK);
    ASSERT_EQ(t.nrows, 1);
    ASSERT_STREQ(csvr_cell(&t, 0, 0), "1");
    ASSERT_STREQ(csvr_cell(&t, 0, 1), "");
    csvr_free(&t);
    ASSERT_EQ(csvr_parse("a,b\n1,2,", "t.csv", &t, err, sizeof err), GV_EINVAL);
    ASSERT_STREQ(err, "t.csv:2: 3 fields, the header has 2");
}

/* A point's scenario: the common --set values, then the point's (which
 * win), from the text read once or from the file; a bad value names the
 * point's --set. */
static void test_load_point(void)
{
    struct sweep_grid g;
    char err[256];
    sweep_grid_init(&g);
    ASSERT_EQ(sweep_grid_add(&g, "machine.cores=1,4", err, sizeof err), 0);
    ASSERT_EQ(sweep_grid_add(&g, "runtime.quantum=1ms,2ms,3ms", err, sizeof err), 0);
    const char *file = "scenarios/examples/token_pingpong.json";
    char *text = NULL;
    size_t len = 0;
    struct diag_list d;
    diag_init(&d);
    ASSERT_EQ(scn_read_file(file, &text, &len, &d), GV_OK);
    const char *sets[] = { "machine.cores=8", "runtime.quantum=50ms", "seed=7" };
    struct load_opts base = { .sets = sets, .nsets = 3 };
    struct scenario scn;
    ASSERT_EQ(sweep_load_point(&g, 5, file, text, len, &base, &scn, &d), GV_OK);  /* cores 4, 3ms */
    ASSERT_EQ(scn.machine.cores, 4);
    ASSERT_EQ(scn.runtime.quantum, 3 * SIM_MS);
    ASSERT_EQ(scn.seed, 7);
    scenario_free(&scn);
    ASSERT_EQ(sweep_load_point(&g, 1, file, NULL, 0, &base, &scn, &d), GV_OK);    /* from the file: cores 1, 2ms */
    ASSERT_EQ(scn.machine.cores, 1);
    ASSERT_EQ(scn.runtime.quantum, 2 * SIM_MS);
    scenario_free(&scn);
    ASSERT_EQ(d.n, 0);
    sweep_grid_free(&g);
    sweep_grid_init(&g);
    ASSERT_EQ(sweep_grid_add(&g, "machine.cores=2,-1", err, sizeof err), 0);
    ASSERT_EQ(sweep_load_point(&g, 1, file, text, len, &base, &scn, &d), GV_EINVAL);
    ASSERT(d.n > 0);
    ASSERT_CONTAINS(d.msgs[0], "--set[4]");  /* the point's own value, after the three common ones */
    diag_free(&d);
    sweep_grid_free(&g);
    free(text);
}

int main(void)
{
    RUN(test_split_values);
    RUN(test_bad_params);
    RUN(test_order_first_param_slowest);
    RUN(test_seeds);
    RUN(test_csv_reader);
    RUN(test_load_point);
    TEST_DONE();
}
