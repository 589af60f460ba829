/* test_sweep.c - the sweep grid (value splitting, order, seeds), the CSV
 * reader, and the plot data (series, averaging, sorting, errors) and the
 * gnuplot script's fixed parts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/sweep.h"
#include "../../common/err.h"
#include "../../output/csvread.h"
#include "../../output/gnuplot.h"
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

static const char *SWEEP_CSV =
    "point,rep,policy,cores,wall_s,host_s\n"
    "0,0,hot,8,4.0,\n"
    "0,1,hot,8,6.0,\n"
    "1,0,hot,1,1.0,\n"
    "1,1,hot,1,1.0,\n"
    "2,0,eager,8,9.5,\n"
    "2,1,eager,8,10.5,\n"
    "3,0,eager,2,8,\n";

static void test_plot_data(void)
{
    struct csv_table t;
    char err[512];
    ASSERT_EQ(csvr_parse(SWEEP_CSV, "s.csv", &t, err, sizeof err), GV_OK);
    struct gp_spec s = { .csv_path = "s.csv", .xcol = "cores", .ycol = "wall_s", .series_col = "policy",
                         .png = "s.png" };
    struct gp_data d;
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_OK);
    ASSERT_EQ(d.nseries, 2);
    ASSERT_STREQ(d.series[0].name, "hot");  /* order of first appearance */
    ASSERT_STREQ(d.series[1].name, "eager");
    ASSERT_EQ(d.series[0].npts, 2);
    ASSERT(d.series[0].pts[0].x == 1 && d.series[0].pts[1].x == 8);  /* sorted by x */
    ASSERT(d.series[0].pts[1].mean == 5.0 && d.series[0].pts[1].min == 4.0 && d.series[0].pts[1].max == 6.0);
    ASSERT_EQ(d.series[0].pts[1].n, 2);
    ASSERT(d.series[1].pts[1].mean == 10.0);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gp_write_script(f, &s, &d);
    fclose(f);
    ASSERT_CONTAINS(buf, "set terminal pngcairo size 1280,720 noenhanced font 'DejaVu Sans,11'\n");
    ASSERT_CONTAINS(buf, "out = (ARGC >= 1) ? ARG1 : 's.png'\nset terminal");
    ASSERT_CONTAINS(buf, "set output out\nset datafile separator comma\n");
    ASSERT_CONTAINS(buf, "$s0 << EOD\n# x,mean,min,max,n\n1,1,1,1,2\n8,5,4,6,2\nEOD\n");
    ASSERT_CONTAINS(buf, "$s1 << EOD\n# x,mean,min,max,n\n2,8,8,8,1\n8,10,9.5,10.5,2\nEOD\n");
    ASSERT_CONTAINS(buf, "with yerrorlines lw 2 pt 7 title 'policy=hot'");
    ASSERT_CONTAINS(buf, "set xtics (1, 8, 2)\n");
    ASSERT(len > 14 && strcmp(buf + len - 14, "\nunset output\n") == 0);  /* the last line */
    free(buf);
    gp_data_free(&d);

    /* errors: unknown column (lists them), text as x, empty cells skipped */
    s.xcol = "corez";
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_EUSAGE);
    ASSERT_STREQ(err, "--x corez: no such column; the columns are: point rep policy cores wall_s host_s");
    s.xcol = "policy";
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_EUSAGE);
    ASSERT_CONTAINS(err, "column policy is not numeric on data row 1 (\"hot\")");
    s.xcol = "cores";
    s.ycol = "host_s";
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_EUSAGE);
    ASSERT_CONTAINS(err, "no row has both cores and host_s");
    csvr_free(&t);

    /* quotes in titles are doubled for gnuplot */
    ASSERT_EQ(csvr_parse("x,y\n1,2\n", "q.csv", &t, err, sizeof err), GV_OK);
    struct gp_spec q = { .csv_path = "q.csv", .xcol = "x", .ycol = "y", .png = "it's.png",
                         .title = "Bob's plot", .logx = true, .logy = true };
    ASSERT_EQ(gp_build(&t, &q, &d, err, sizeof err), GV_OK);
    f = open_memstream(&buf, &len);
    gp_write_script(f, &q, &d);
    fclose(f);
    ASSERT_CONTAINS(buf, "'it''s.png'");
    ASSERT_CONTAINS(buf, "set title 'Bob''s plot'");
    ASSERT_CONTAINS(buf, "set logscale x 2\nset logscale y\n");
    ASSERT_CONTAINS(buf, "with linespoints");
    free(buf);
    gp_data_free(&d);
    csvr_free(&t);

    /* Column names are data: a newline in one cannot start a gnuplot
     * command line of its own (found by fuzzing the comment line). */
    ASSERT_EQ(csvr_parse("x,\"y\nsystem('touch pwned')\",\"s\nsystem('x')\"\n1,2,a\n", "n.csv", &t, err,
                         sizeof err), GV_OK);
    struct gp_spec n = { .csv_path = "n.csv", .xcol = "x", .ycol = t.header[1], .series_col = t.header[2],
                         .png = "n.png" };
    ASSERT_EQ(gp_build(&t, &n, &d, err, sizeof err), GV_OK);
    f = open_memstream(&buf, &len);
    gp_write_script(f, &n, &d);
    fclose(f);
    ASSERT(!strstr(buf, "\nsystem("));
    ASSERT_CONTAINS(buf, "# Points: y system('touch pwned') (mean over rows with the same x)");
    free(buf);
    gp_data_free(&d);
    csvr_free(&t);
}

int main(void)
{
    RUN(test_split_values);
    RUN(test_bad_params);
    RUN(test_order_first_param_slowest);
    RUN(test_seeds);
    RUN(test_csv_reader);
    RUN(test_plot_data);
    TEST_DONE();
}
