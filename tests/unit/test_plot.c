/* test_plot.c - plot data (series, averaging, sorting, durations, ratios,
 * reference points, breakdown bars, errors), ticks, and the gnuplot
 * script's fixed parts (output/gnuplot.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../output/gnuplot.h"
#include "../../output/rowsread.h"
#include "test.h"

static char err[1024];

static const char *SWEEP_CSV =
    "point,rep,policy,cores,wall_s,host_s\n"
    "0,0,hot,8,4.0,\n"
    "0,1,hot,8,6.0,\n"
    "1,0,hot,1,1.0,\n"
    "1,1,hot,1,1.0,\n"
    "2,0,eager,8,9.5,\n"
    "2,1,eager,8,10.5,\n"
    "3,0,eager,2,8,\n";

static char *script(const struct gp_spec *s, const struct gp_data *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gp_write_script(f, s, d);
    fclose(f);
    return buf;
}

static void table(const char *text, struct csv_table *t)
{
    ASSERT_EQ(rowsr_parse(text, "t.csv", ROWS_CSV, t, err, sizeof err), GV_OK);
}

static void test_plot_data(void)
{
    struct csv_table t;
    table(SWEEP_CSV, &t);
    struct gp_spec s = { .csv_path = "s.csv", .xcol = "cores", .ycol = "wall_s", .series_col = "policy",
                         .out = "s.png" };
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
    ASSERT_EQ(d.xunit, GP_NUMBER);
    ASSERT_EQ(d.yunit, GP_SECONDS);   /* wall_s */

    char *buf = script(&s, &d);
    ASSERT_CONTAINS(buf, "out = (ARGC >= 1) ? ARG1 : 's.png'\n");
    ASSERT_CONTAINS(buf, "    set terminal pngcairo size 1280,720 noenhanced font 'DejaVu Sans,11'\n");
    ASSERT_CONTAINS(buf, "    set terminal svg size 1280,720 dynamic noenhanced font 'DejaVu Sans,11'\n");
    ASSERT_CONTAINS(buf, "set output out\nset datafile separator comma\n");
    ASSERT_CONTAINS(buf, "$s0 << EOD\n# x,mean,min,max,n\n1,1,1,1,2\n8,5,4,6,2\nEOD\n");
    ASSERT_CONTAINS(buf, "$s1 << EOD\n# x,mean,min,max,n\n2,8,8,8,1\n8,10,9.5,10.5,2\nEOD\n");
    /* the first series widest, each with its own dash and point type */
    ASSERT_CONTAINS(buf, "with yerrorlines lw 5.50 dt 1 pt 7 ps 2.60 lc rgb '#E69F00' title 'policy=hot'");
    ASSERT_CONTAINS(buf, "with yerrorlines lw 2.00 dt (10,5) pt 5 ps 1.20 lc rgb '#0072B2' title 'policy=eager'");
    ASSERT_CONTAINS(buf, "set xtics ('1' 1, '2' 2, '8' 8)\n");   /* a tick on each x, in order */
    ASSERT_CONTAINS(buf, "set xlabel 'cores'\nset xrange [0.44:8.56]\n");
    ASSERT_CONTAINS(buf, "set ylabel 'wall time'\nset yrange [0:11.34]\n");   /* from 0, 8% above the top bar */
    ASSERT_CONTAINS(buf, "set ytics ('0 s' 0, '2 s' 2, '4 s' 4, '6 s' 6, '8 s' 8, '10 s' 10)\n");
    size_t len = strlen(buf);
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

    /* quotes in titles are doubled for gnuplot; log axes */
    table("x,y\n1,2\n10,3\n", &t);
    struct gp_spec q = { .csv_path = "q.csv", .xcol = "x", .ycol = "y", .out = "it's.svg",
                         .title = "Bob's plot", .logx = true, .logy = true };
    ASSERT_EQ(gp_build(&t, &q, &d, err, sizeof err), GV_OK);
    buf = script(&q, &d);
    ASSERT_CONTAINS(buf, "'it''s.svg'");
    ASSERT_CONTAINS(buf, "set title 'Bob''s plot'");
    ASSERT_CONTAINS(buf, "set logscale x\n");
    ASSERT_CONTAINS(buf, "set logscale y\n");
    ASSERT_CONTAINS(buf, "with linespoints lw 2.50");
    free(buf);
    gp_data_free(&d);
    csvr_free(&t);

    /* Column names are data: a newline in one cannot start a gnuplot
     * command line of its own (found by fuzzing the comment line). */
    table("x,\"y\nsystem('touch pwned')\",\"s\nsystem('x')\"\n1,2,a\n", &t);
    struct gp_spec n = { .csv_path = "n.csv", .xcol = "x", .ycol = t.header[1], .series_col = t.header[2],
                         .out = "n.png" };
    ASSERT_EQ(gp_build(&t, &n, &d, err, sizeof err), GV_OK);
    buf = script(&n, &d);
    ASSERT(!strstr(buf, "\nsystem("));
    ASSERT_CONTAINS(buf, "# Points: y system('touch pwned') (mean over rows with the same x)");
    free(buf);
    gp_data_free(&d);
    csvr_free(&t);
}

/* Durations: cells with units, or the plain nanoseconds of a scenario duration. */
static void test_durations(void)
{
    struct csv_table t;
    table("dur,wall_s\n10us,1\n1ms,2\n500ns,3\n", &t);
    struct gp_spec s = { .csv_path = "d.csv", .xcol = "dur", .ycol = "wall_s", .out = "d.png", .logx = true };
    struct gp_data d;
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_OK);
    ASSERT_EQ(d.xunit, GP_SECONDS);
    ASSERT(fabs(d.series[0].pts[0].x - 5e-7) < 1e-18);
    ASSERT(fabs(d.series[0].pts[2].x - 1e-3) < 1e-15);
    char *buf = script(&s, &d);
    ASSERT_CONTAINS(buf, "set xtics ('500 ns' 5e-07, '10 µs' 1e-05, '1 ms' 0.001)\n");
    free(buf);
    gp_data_free(&d);
    csvr_free(&t);
    /* plain numbers of a duration key: nanoseconds */
    table("ractors.0.threads.1.program.0.body.1.dur,wall_s\n1000,1\n2000000,2\n", &t);
    s.xcol = "ractors.0.threads.1.program.0.body.1.dur";
    s.x_ns = true;
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_OK);
    ASSERT(fabs(d.series[0].pts[1].x - 2e-3) < 1e-15);
    gp_data_free(&d);
    csvr_free(&t);
    /* not a duration either */
    table("dur,wall_s\n10 parsecs,1\n", &t);
    s.xcol = "dur";
    s.x_ns = false;
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_EUSAGE);
    ASSERT_CONTAINS(err, "column dur is not numeric on data row 1 (\"10 parsecs\")");
    csvr_free(&t);
}

static void test_ticks(void)
{
    double v[64];
    char l[64][32];
    /* a log axis over 4 decades: the decades */
    int n = gp_ticks(1.5e-7, 0.03, true, GP_SECONDS, v, l, 64);
    ASSERT_EQ(n, 5);
    ASSERT_STREQ(l[0], "1 µs");
    ASSERT_STREQ(l[4], "10 ms");
    /* a log axis over one decade and a half: 1-2-3-5 (1-2-5 would be 4 ticks) */
    n = gp_ticks(1.7, 42, true, GP_SECONDS, v, l, 64);
    ASSERT_EQ(n, 6);
    ASSERT_STREQ(l[0], "2 s");
    ASSERT_STREQ(l[1], "3 s");
    ASSERT_STREQ(l[5], "30 s");
    /* two decades and a half: 1-2-5 */
    n = gp_ticks(1.7, 420, true, GP_NUMBER, v, l, 64);
    ASSERT_EQ(n, 7);
    ASSERT_STREQ(l[6], "200");
    /* too narrow for 1-2-3-5: linear steps */
    n = gp_ticks(7.1, 11.3, true, GP_NUMBER, v, l, 64);
    ASSERT(n >= 3);
    ASSERT_STREQ(l[0], "8");
    /* SI prefixes for numbers */
    n = gp_ticks(0, 2.5e7, false, GP_NUMBER, v, l, 64);
    ASSERT_STREQ(l[0], "0");
    ASSERT_STREQ(l[1], "5M");
    n = gp_ticks(0, 0.0036, false, GP_SECONDS, v, l, 64);
    ASSERT_STREQ(l[1], "1 ms");
    ASSERT_EQ(gp_ticks(1, 1, false, GP_NUMBER, v, l, 64), 0);   /* an empty range */
}

static void test_ratio(void)
{
    struct csv_table t;
    table(SWEEP_CSV, &t);
    struct gp_spec s = { .csv_path = "s.csv", .xcol = "cores", .ycol = "wall_s", .series_col = "policy",
                         .out = "s.png", .ratio_col = "cores", .ratio_value = "8" };
    struct gp_data d;
    /* along x: each series by its own point at cores=8 */
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_OK);
    ASSERT(d.series[0].pts[0].mean == 0.2 && d.series[0].pts[1].mean == 1.0);
    ASSERT(d.series[0].pts[1].min == 0.8 && d.series[0].pts[1].max == 1.2);
    ASSERT(d.series[1].pts[0].mean == 0.8);
    char *buf = script(&s, &d);
    ASSERT_CONTAINS(buf, "set ylabel 'wall time, relative to cores=8'\n");
    ASSERT_CONTAINS(buf, "set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead");
    free(buf);
    gp_data_free(&d);
    /* across series: every point by eager's at the same x; hot has a point
     * at 1 core, eager has none: refused, never left out silently */
    s.ratio_col = "policy";
    s.ratio_value = "eager";
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_EUSAGE);
    ASSERT_CONTAINS(err, "--ratio-to policy=eager: no policy=eager point at cores=1");
    struct csv_table t2;
    table("policy,cores,wall_s\nhot,1,1\nhot,8,5\neager,1,2\neager,8,10\n", &t2);
    ASSERT_EQ(gp_build(&t2, &s, &d, err, sizeof err), GV_OK);
    ASSERT(d.series[0].pts[0].mean == 0.5 && d.series[0].pts[1].mean == 0.5);
    ASSERT(d.series[1].pts[0].mean == 1.0 && d.series[1].pts[1].mean == 1.0);
    gp_data_free(&d);
    csvr_free(&t2);
    s.ratio_col = "cores";
    s.ratio_value = "2";
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_EUSAGE);
    ASSERT_CONTAINS(err, "series \"hot\" has no point at cores=2");
    s.ratio_col = "rep";
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_EUSAGE);
    ASSERT_CONTAINS(err, "the column must be the --x column (cores) or the --series column (policy)");
    csvr_free(&t);
}

static void test_refs(void)
{
    struct csv_table t, ref;
    table(SWEEP_CSV, &t);
    table("cores,wall_s,policy,label,source\n"
          "1,1.5,eager,\"report, eager\",\"someone, https://example.org/1\"\n"
          "8,12,eager,\"report, eager\",\"someone, https://example.org/1\"\n"
          "8,3,x,other,\"another, https://example.org/2\"\n", &ref);
    struct gp_spec s = { .csv_path = "s.csv", .xcol = "cores", .ycol = "wall_s", .series_col = "policy",
                         .out = "s.png", .ref = &ref, .ref_path = "ref.csv" };
    struct gp_data d;
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_OK);
    ASSERT_EQ(d.nrefs, 2);
    ASSERT_STREQ(d.refs[0].name, "report, eager");
    ASSERT_EQ(d.refs[0].color, 1);         /* eager's colour */
    ASSERT_EQ(d.refs[1].color, -1);        /* no series "x": black */
    ASSERT_EQ(d.nsources, 2);
    char *buf = script(&s, &d);
    ASSERT_CONTAINS(buf, "$r0 << EOD\n# x,measured\n1,1.5\n8,12\nEOD\n");
    ASSERT_CONTAINS(buf, "title 'measured: report, eager'");
    ASSERT_CONTAINS(buf, "set label 2 'measured: another, https://example.org/2' at graph 0.5, graph 1");
    ASSERT_CONTAINS(buf, "set yrange [0:12.96]\n");   /* the range holds the references too */
    free(buf);
    gp_data_free(&d);
    /* normalised along x, the references too */
    s.ratio_col = "cores";
    s.ratio_value = "8";
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_OK);
    ASSERT(d.refs[0].pts[0].mean == 0.125 && d.refs[1].pts[0].mean == 1);
    gp_data_free(&d);
    s.ratio_value = "2";   /* hot has no point at 2 cores */
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_EUSAGE);
    ASSERT_CONTAINS(err, "series \"hot\" has no point at cores=2");
    csvr_free(&ref);
    /* a reference file without the plot's columns */
    table("cores,ops\n1,2\n", &ref);
    s.ratio_col = NULL;
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_EUSAGE);
    ASSERT_STREQ(err, "ref.csv: --y wall_s: no such column; the columns are: cores ops");
    csvr_free(&ref);
    csvr_free(&t);
}

static void test_breakdown(void)
{
    struct csv_table t;
    table("policy,cores,running_s,wants_gvl_s,parked_s,wall_s\n"
          "eager,2,1,3,0,2\n"
          "eager,1,2,2,0,1\n"
          "hot,1,3,1,0,1\n"
          "hot,1,1,1,0,1\n", &t);
    struct gp_spec s = { .csv_path = "b.csv", .xcol = "cores", .series_col = "policy", .out = "b.png",
                         .breakdown = true };
    struct gp_data d;
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_OK);
    ASSERT_EQ(d.nbars, 3);
    ASSERT_STREQ(d.bars[0].label, "eager\n1 core");   /* series in order, x ascending */
    ASSERT_STREQ(d.bars[1].label, "eager\n2 cores");
    ASSERT(d.bars[2].state[TS_RUNNING] == 2 && d.bars[2].state[TS_WANTS_GVL] == 1);  /* means */
    char *buf = script(&s, &d);
    ASSERT_CONTAINS(buf, "array name[2] = ['running', 'wants_gvl']\n");   /* parked: never */
    ASSERT_CONTAINS(buf, "$bars << EOD\n# bar,running %,wants_gvl %\n0,50,50\n1,25,75\n2,66.6667,33.3333\nEOD\n");
    ASSERT_CONTAINS(buf, "set xtics nomirror (\"eager\\n1 core\\nwall 1 s\" 0, ");
    ASSERT_CONTAINS(buf, "plot for [i=2:3] $bars using i title name[i-1] lc rgb color[i-1]\n");
    free(buf);
    gp_data_free(&d);
    csvr_free(&t);
    table("cores,policy,x\n1,a,2\n", &t);
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_EUSAGE);
    ASSERT_CONTAINS(err, "--breakdown needs the state-time columns");
    csvr_free(&t);
}

/* 15 bars (3 series x 5 x values), the series named `names`: the script's
 * image size and tick options. */
static char *bars15(const char *const names[3])
{
    char *csv = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&csv, &len);
    fputs("policy,runtime.quantum_us,running_s,wants_gvl_s,wall_s\n", f);
    for (int i = 0; i < 3; i++)
        for (int q = 1; q <= 5; q++) fprintf(f, "%s,%d,1,1,%d\n", names[i], q * 100, i + q);
    fclose(f);
    struct csv_table t;
    table(csv, &t);
    struct gp_spec s = { .csv_path = "b.csv", .xcol = "runtime.quantum_us", .series_col = "policy",
                         .out = "b.svg", .breakdown = true };
    struct gp_data d;
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_OK);
    ASSERT_EQ(d.nbars, 15);
    char *buf = script(&s, &d);
    gp_data_free(&d);
    csvr_free(&t);
    free(csv);
    return buf;
}

/* Long tick labels do not run into each other: the image widens to give
 * each bar its widest line ("quantum_us=100", 14 characters at 9 pixels,
 * + 12: 138 pixels a bar, 15 x 138 + 280), and past 2400 pixels the labels
 * turn upright and the image grows downwards instead. */
static void test_breakdown_labels(void)
{
    static const char *const short_names[3] = { "eager", "hot_steal", "barging" };
    char *buf = bars15(short_names);
    ASSERT_CONTAINS(buf, "set terminal svg size 2350,720 ");
    ASSERT_CONTAINS(buf, "set bmargin 6\n");
    ASSERT_CONTAINS(buf, "set xtics nomirror (\"eager\\nquantum_us=100\\nwall 1 s\" 0, ");
    free(buf);
    /* 38 characters: 15 x 354 + 280 pixels would be too wide */
    static const char *const long_names[3] = { "a_policy_with_a_very_long_name_number1", "b", "c" };
    buf = bars15(long_names);
    ASSERT_CONTAINS(buf, "set terminal svg size 1630,990 ");  /* 15 x 90 + 280; 720 + (21 - 6) x 18 */
    ASSERT_CONTAINS(buf, "set bmargin 21\n");                  /* ceil(38 x 9 / 18) + 2 */
    ASSERT_CONTAINS(buf, "set xtics nomirror rotate by 90 right (\"a_policy_with_a_very_long_name_number1\\n");
    free(buf);
    /* 45 bars of short labels are wide (45 x 90 + 280) but stay flat: upright ones need as much */
    struct csv_table t;
    table("policy,cores,running_s,wall_s\n"
          "a,1,1,1\na,2,1,1\na,3,1,1\na,4,1,1\na,5,1,1\na,6,1,1\na,7,1,1\na,8,1,1\na,9,1,1\n"
          "b,1,1,1\nb,2,1,1\nb,3,1,1\nb,4,1,1\nb,5,1,1\nb,6,1,1\nb,7,1,1\nb,8,1,1\nb,9,1,1\n"
          "c,1,1,1\nc,2,1,1\nc,3,1,1\nc,4,1,1\nc,5,1,1\nc,6,1,1\nc,7,1,1\nc,8,1,1\nc,9,1,1\n"
          "d,1,1,1\nd,2,1,1\nd,3,1,1\nd,4,1,1\nd,5,1,1\nd,6,1,1\nd,7,1,1\nd,8,1,1\nd,9,1,1\n"
          "e,1,1,1\ne,2,1,1\ne,3,1,1\ne,4,1,1\ne,5,1,1\ne,6,1,1\ne,7,1,1\ne,8,1,1\ne,9,1,1\n", &t);
    struct gp_spec s = { .csv_path = "b.csv", .xcol = "cores", .series_col = "policy", .out = "b.png",
                         .breakdown = true };
    struct gp_data d;
    ASSERT_EQ(gp_build(&t, &s, &d, err, sizeof err), GV_OK);
    ASSERT_EQ(d.nbars, 45);
    buf = script(&s, &d);
    ASSERT_CONTAINS(buf, "size 4330,720 ");
    ASSERT_CONTAINS(buf, "set xtics nomirror (\"a\\n1 core\" 0, ");
    free(buf);
    gp_data_free(&d);
    csvr_free(&t);
}

int main(void)
{
    RUN(test_plot_data);
    RUN(test_durations);
    RUN(test_ticks);
    RUN(test_ratio);
    RUN(test_refs);
    RUN(test_breakdown);
    RUN(test_breakdown_labels);
    TEST_DONE();
}
