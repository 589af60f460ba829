/* test_validate.c - the comparison table of `gvlsim validate`
 * (output/validate.c) on hand-made runs: medians, the cores ratio paired
 * run by run, per-op figures, errors, what a backend does not measure, a
 * failed run, fixed-time scenarios; the text, Markdown, JSON and CSV
 * renderings of a known table. */
#include <math.h>
#include <string.h>

#include "../../common/err.h"
#include "../../output/validate.h"
#include "test.h"

static struct val_figures fig(double wall, double ops, double vol, double handoffs, bool has_handoffs)
{
    return (struct val_figures){ .ok = true, .wall_s = wall, .ops = ops, .vol_switches = vol,
                                 .gvl_handoffs = handoffs, .has_vol = true, .has_handoffs = has_handoffs };
}

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-12 * (fabs(a) + fabs(b) + 1);
}

static const struct val_row *find(const struct val_row *rows, size_t n, int point, enum val_metric m, int b)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].point == point && rows[i].metric == m && rows[i].backend == b) return &rows[i];
    return NULL;
}

/* Two points (1 and 2 cores), two real backends (the second measures no
 * hand-offs), three runs each. */
static struct val_figures sim2[2];
static struct val_figures real2[2 * 2 * 3];
static const int base2[2] = { 0, 0 };

static void setup(void)
{
    sim2[0] = fig(1.0, 100, 10, 20, true);
    sim2[1] = fig(3.0, 100, 50, 40, true);
    /* point 0, backend 0 */
    real2[0] = fig(2.0, 100, 20, 10, true);
    real2[1] = fig(1.0, 100, 40, 30, true);
    real2[2] = fig(4.0, 100, 30, 20, true);
    /* point 0, backend 1: no hand-offs, one failed run */
    real2[3] = fig(1.0, 100, 5, 0, false);
    real2[4] = (struct val_figures){ 0 };
    real2[5] = fig(3.0, 100, 7, 0, false);
    /* point 1, backend 0 */
    real2[6] = fig(4.0, 100, 100, 50, true);
    real2[7] = fig(3.0, 100, 60, 50, true);
    real2[8] = fig(4.0, 100, 80, 50, true);
    /* point 1, backend 1 */
    real2[9] = fig(2.0, 100, 6, 0, false);
    real2[10] = fig(9.0, 100, 8, 0, false);
    real2[11] = fig(6.0, 100, 10, 0, false);
}

static void test_table(void)
{
    setup();
    struct val_input in = { .npoints = 2, .nreal = 2, .nreps = 3, .sim = sim2, .real = real2, .base = base2 };
    struct val_row *rows;
    size_t n;
    ASSERT_EQ(val_table(&in, &rows, &n), GV_OK);
    /* point 0: wall, vol/op, handoffs/op; point 1: those and the ratio; x 2 backends */
    ASSERT_EQ(n, (3 + 4) * 2);
    /* order: point, metric, backend */
    ASSERT_EQ(rows[0].point, 0);
    ASSERT_EQ(rows[0].metric, VAL_WALL);
    ASSERT_EQ(rows[0].backend, 0);
    ASSERT_EQ(rows[1].backend, 1);
    ASSERT_EQ(rows[n - 1].point, 1);
    ASSERT_EQ(rows[n - 1].metric, VAL_HANDOFFS_PER_OP);

    const struct val_row *r = find(rows, n, 0, VAL_WALL, 0);
    ASSERT(r && r->has_sim && near(r->sim, 1.0));
    ASSERT_EQ(r->n, 3);
    ASSERT(near(r->min, 1.0) && near(r->median, 2.0) && near(r->max, 4.0));
    ASSERT(r->has_err && near(r->err, -0.5));
    /* a failed run is left out: median of two */
    r = find(rows, n, 0, VAL_WALL, 1);
    ASSERT_EQ(r->n, 2);
    ASSERT(near(r->median, 2.0) && near(r->min, 1.0) && near(r->max, 3.0));
    /* per op */
    r = find(rows, n, 0, VAL_VOL_PER_OP, 0);
    ASSERT(near(r->sim, 0.1) && near(r->median, 0.3));
    ASSERT(near(r->err, 0.1 / 0.3 - 1));
    r = find(rows, n, 0, VAL_HANDOFFS_PER_OP, 1);
    ASSERT(r && r->has_sim && r->n == 0 && !r->has_err);
    /* no ratio row at the base point */
    ASSERT(find(rows, n, 0, VAL_CORES_RATIO, 0) == NULL);
    /* the ratio, paired run by run: 4/2, 3/1, 4/4 -> 1, 2, 3 */
    r = find(rows, n, 1, VAL_CORES_RATIO, 0);
    ASSERT(r && near(r->sim, 3.0));
    ASSERT_EQ(r->n, 3);
    ASSERT(near(r->min, 1.0) && near(r->median, 2.0) && near(r->max, 3.0));
    ASSERT(near(r->err, 0.5));
    /* backend 1: 2/1, (failed base run), 6/3 -> 2, 2 */
    r = find(rows, n, 1, VAL_CORES_RATIO, 1);
    ASSERT_EQ(r->n, 2);
    ASSERT(near(r->median, 2.0));
    free(rows);
}

static void test_fixed_time_and_no_ops(void)
{
    /* stop.time: ops_per_s instead of wall_s; ratio of time per op */
    struct val_figures sim[2] = { fig(1.0, 1000, 0, 0, true), fig(1.0, 2000, 0, 0, true) };
    struct val_figures real[2] = { fig(1.0, 500, 0, 0, true), fig(1.0, 800, 0, 0, true) };
    int base[2] = { 0, 0 };
    struct val_input in = { .npoints = 2, .nreal = 1, .nreps = 1, .fixed_time = true, .sim = sim, .real = real,
                            .base = base };
    struct val_row *rows;
    size_t n;
    ASSERT_EQ(val_table(&in, &rows, &n), GV_OK);
    ASSERT(find(rows, n, 0, VAL_WALL, 0) == NULL);
    const struct val_row *r = find(rows, n, 0, VAL_OPS_PER_S, 0);
    ASSERT(r && near(r->sim, 1000) && near(r->median, 500) && near(r->err, 1.0));
    r = find(rows, n, 1, VAL_CORES_RATIO, 0);
    ASSERT(r && near(r->sim, 0.5) && near(r->median, 500.0 / 800));
    /* 0 switches simulated and measured: exact */
    r = find(rows, n, 1, VAL_VOL_PER_OP, 0);
    ASSERT(r && r->has_err && r->err == 0);
    free(rows);

    /* no ops (tarai): wall, and the ratio of walls; no per-op rows */
    struct val_figures sim0[2] = { fig(2.0, 0, 3, 0, true), fig(1.0, 0, 3, 0, true) };
    struct val_figures real0[2] = { fig(2.0, 0, 3, 0, true), fig(1.6, 0, 3, 0, true) };
    struct val_input in0 = { .npoints = 2, .nreal = 1, .nreps = 1, .sim = sim0, .real = real0, .base = base };
    ASSERT_EQ(val_table(&in0, &rows, &n), GV_OK);
    ASSERT_EQ(n, 3);
    ASSERT(find(rows, n, 0, VAL_VOL_PER_OP, 0) == NULL);
    r = find(rows, n, 1, VAL_CORES_RATIO, 0);
    ASSERT(r && near(r->sim, 0.5) && near(r->median, 0.8) && near(r->err, 0.5 / 0.8 - 1));
    free(rows);

    /* no base (-1): no ratio; a failed simulation: no simulated value, no error */
    int nobase[2] = { -1, -1 };
    sim0[1].ok = false;
    in0.base = nobase;
    ASSERT_EQ(val_table(&in0, &rows, &n), GV_OK);
    ASSERT_EQ(n, 2);
    r = find(rows, n, 1, VAL_WALL, 0);
    ASSERT(r && !r->has_sim && !r->has_err && r->n == 1);
    free(rows);
}

/* cpus_busy: CPU time over wall time, run by run; a row only where some
 * run gives its CPU time, and a backend that does not is left empty. */
static void test_cpus_busy(void)
{
    struct val_figures sim[2] = { fig(1.0, 100, 0, 0, true), fig(2.0, 100, 0, 0, true) };
    sim[0].has_cpu = sim[1].has_cpu = true;
    sim[0].cpu_s = 1.0;
    sim[1].cpu_s = 3.0;  /* 1.5 CPUs */
    struct val_figures real[2 * 2 * 3];
    for (int i = 0; i < 12; i++) real[i] = fig(2.0, 100, 0, 0, true);
    /* point 1, backend 0: 2.0, 2.2 and 3.0 CPU-s over 2 s: 1.0, 1.1, 1.5 CPUs */
    double cpu[3] = { 2.0, 2.2, 3.0 };
    for (int k = 0; k < 3; k++) {
        real[6 + k].has_cpu = true;
        real[6 + k].cpu_s = cpu[k];
    }
    int base[2] = { 0, 0 };
    struct val_input in = { .npoints = 2, .nreal = 2, .nreps = 3, .sim = sim, .real = real, .base = base };
    struct val_row *rows;
    size_t n;
    ASSERT_EQ(val_table(&in, &rows, &n), GV_OK);
    const struct val_row *r = find(rows, n, 1, VAL_CPUS_BUSY, 0);
    ASSERT(r && near(r->sim, 1.5) && r->n == 3);
    ASSERT(near(r->min, 1.0) && near(r->median, 1.1) && near(r->max, 1.5));
    ASSERT(r->has_err && near(r->err, 1.5 / 1.1 - 1));
    r = find(rows, n, 1, VAL_CPUS_BUSY, 1);
    ASSERT(r && r->has_sim && r->n == 0 && !r->has_err);
    ASSERT_EQ(rows[n - 1].metric, VAL_CPUS_BUSY);  /* the last metric of a point (no GC time here) */
    ASSERT(strcmp(val_metric_name(VAL_CPUS_BUSY), "cpus_busy") == 0);
    free(rows);
    /* nothing gives a CPU time: no row */
    sim[0].has_cpu = sim[1].has_cpu = false;
    for (int k = 0; k < 3; k++) real[6 + k].has_cpu = false;
    ASSERT_EQ(val_table(&in, &rows, &n), GV_OK);
    ASSERT(find(rows, n, 1, VAL_CPUS_BUSY, 0) == NULL);
    free(rows);
}

/* gc_ms_per_gc: the GC's time over its collections, run by run; no row
 * where no run collected, a run without a collection (or without the
 * time) gives no figure, and the row is the last of its point. */
static void test_gc_per_gc(void)
{
    struct val_figures sim[2] = { fig(1.0, 100, 0, 0, true), fig(2.0, 100, 0, 0, true) };
    sim[1].has_gc = true;
    sim[1].gc_clock_s = 0.75;
    sim[1].gc_count = 1500;  /* 0.5 ms a collection */
    struct val_figures real[2 * 2 * 3];
    for (int i = 0; i < 12; i++) real[i] = fig(2.0, 100, 0, 0, true);
    /* point 1, backend 1: 1.2 s / 600, 1.4 s / 700, 0 s / 0: 2 ms, 2 ms, none */
    double gc_s[3] = { 1.2, 1.4, 0 }, gcn[3] = { 600, 700, 0 };
    for (int k = 0; k < 3; k++) {
        real[9 + k].has_gc = true;
        real[9 + k].gc_clock_s = gc_s[k];
        real[9 + k].gc_count = gcn[k];
    }
    int base[2] = { 0, 0 };
    struct val_input in = { .npoints = 2, .nreal = 2, .nreps = 3, .sim = sim, .real = real, .base = base };
    struct val_row *rows;
    size_t n;
    ASSERT_EQ(val_table(&in, &rows, &n), GV_OK);
    const struct val_row *r = find(rows, n, 1, VAL_GC_PER_GC, 1);
    ASSERT(r && near(r->sim, 0.5) && r->n == 2 && near(r->median, 2.0));
    ASSERT(r->has_err && near(r->err, 0.5 / 2.0 - 1));
    r = find(rows, n, 1, VAL_GC_PER_GC, 0);
    ASSERT(r && r->has_sim && r->n == 0 && !r->has_err);
    ASSERT_EQ(rows[n - 1].metric, VAL_GC_PER_GC);
    ASSERT(find(rows, n, 0, VAL_GC_PER_GC, 0) == NULL);  /* point 0: no collection anywhere */
    ASSERT(strcmp(val_metric_name(VAL_GC_PER_GC), "gc_ms_per_gc") == 0);
    free(rows);
}

static void test_parse(void)
{
    struct val_figures f;
    ASSERT_EQ(val_figures_parse("1.500000000", "200", "30", "", NULL, NULL, NULL, &f), 0);
    ASSERT(f.ok && near(f.wall_s, 1.5) && near(f.ops, 200) && f.has_vol && near(f.vol_switches, 30));
    ASSERT(!f.has_handoffs && !f.has_cpu && !f.has_gc);
    ASSERT_EQ(val_figures_parse("1.5", "200", "30", "4", "2.25", "0.5", "250", &f), 0);
    ASSERT(f.has_handoffs && f.has_cpu && near(f.cpu_s, 2.25));
    ASSERT(f.has_gc && near(f.gc_clock_s, 0.5) && near(f.gc_count, 250));
    ASSERT_EQ(val_figures_parse("1.5", "200", "30", "4", "", "", "250", &f), 0);
    ASSERT(!f.has_cpu && !f.has_gc);  /* Ruby's rows before gc_s: the count alone */
    ASSERT_EQ(val_figures_parse("", "200", "30", "4", NULL, NULL, NULL, &f), -1);
    ASSERT_EQ(val_figures_parse("1", "x", "30", "4", NULL, NULL, NULL, &f), -1);
    ASSERT(!f.ok);
}

/* The renderings of the two-point table. */
static char *render(enum cmp_report kind, const struct val_report *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT(f != NULL);
    val_write_report(f, kind, r);
    fclose(f);
    return buf;
}

static void test_report(void)
{
    setup();
    struct val_input in = { .npoints = 2, .nreal = 2, .nreps = 3, .sim = sim2, .real = real2, .base = base2 };
    struct val_row *rows;
    size_t n;
    ASSERT_EQ(val_table(&in, &rows, &n), GV_OK);
    static const char *const keys[] = { "machine.cores" };
    static const char *const values[] = { "1", "2" };
    static const char *const backends[] = { "pthread", "ruby" };
    static const char *const engines[] = { "pthread", "ruby 3.1.2" };
    struct val_report rep = { .scenario = "demo", .host = "Test CPU, 2 CPUs, Linux 6.1", .note = "load 0.1",
                              .nreps = 3, .nkeys = 1, .keys = keys, .values = values, .nreal = 2,
                              .backends = backends, .engines = engines, .rows = rows, .nrows = n };
    char *t = render(CMP_TEXT, &rep);
    ASSERT_CONTAINS(t, "demo: simulated against measured, 3 runs per backend and configuration");
    ASSERT_CONTAINS(t, "host: Test CPU, 2 CPUs, Linux 6.1\nload 0.1\n\n");
    ASSERT_CONTAINS(t, "configuration    metric               simulated  pthread: min / median / max  error  "
                       "ruby 3.1.2: min / median / max  error\n");
    ASSERT_CONTAINS(t, "machine.cores=1  wall_s                       1                    1 / 2 / 4   -50%"
                       "                       1 / 2 / 3   -50%\n");
    /* a metric the backend does not measure: "-", no error; blanks at the end left out */
    ASSERT_CONTAINS(t, "                 gvl_handoffs_per_op        0.2              0.1 / 0.2 / 0.3    +0%"
                       "                               -\n");
    ASSERT_CONTAINS(t, "machine.cores=2  wall_s                       3");
    ASSERT_CONTAINS(t, "                 cores_ratio                  3                    1 / 2 / 3   +50%"
                       "                       2 / 2 / 2   +50%\n");
    free(t);

    t = render(CMP_MARKDOWN, &rep);
    ASSERT_CONTAINS(t, "**demo**: simulated against measured (3 runs per backend and configuration; ");
    ASSERT_CONTAINS(t, "| configuration | metric | simulated | pthread: min / median / max | error | "
                       "ruby 3.1.2: min / median / max | error |\n|---|---|---:|---:|---:|---:|---:|\n");
    ASSERT_CONTAINS(t, "| machine.cores=1 | wall_s | 1 | 1 / 2 / 4 | -50% | 1 / 2 / 3 | -50% |\n");
    ASSERT_CONTAINS(t, "| machine.cores=1 | gvl_handoffs_per_op | 0.2 | 0.1 / 0.2 / 0.3 | +0% | - |  |\n");
    free(t);

    t = render(CMP_JSON, &rep);
    ASSERT_CONTAINS(t, "{\"scenario\":\"demo\",\"host\":\"Test CPU, 2 CPUs, Linux 6.1\",\"note\":\"load 0.1\","
                       "\"runs_per_backend\":3,\"backends\":[{\"backend\":\"pthread\",\"engine\":\"pthread\"},"
                       "{\"backend\":\"ruby\",\"engine\":\"ruby 3.1.2\"}],\"rows\":[\n");
    ASSERT_CONTAINS(t, "{\"point\":1,\"machine.cores\":2,\"metric\":\"cores_ratio\",\"backend\":\"ruby\","
                       "\"engine\":\"ruby 3.1.2\",\"simulated\":3,\"measured_min\":2,\"measured_median\":2,"
                       "\"measured_max\":2,\"runs\":2,\"rel_error\":0.5}");
    ASSERT_CONTAINS(t, "\"metric\":\"gvl_handoffs_per_op\",\"backend\":\"ruby\",\"engine\":\"ruby 3.1.2\","
                       "\"simulated\":0.2,\"measured_min\":null,\"measured_median\":null,\"measured_max\":null,"
                       "\"runs\":0,\"rel_error\":null}");
    free(t);

    /* CSV rows */
    struct row cols, cells;
    row_init(&cols);
    row_init(&cells);
    val_columns(&rep, &cols);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct rows_writer w;
    rows_begin(&w, f, ROWS_CSV, &cols, true);
    for (size_t i = 0; i < n; i++) {
        row_clear(&cells);
        val_row_cells(&rep, &rows[i], &cells);
        rows_put(&w, &cells);
    }
    rows_end(&w);
    fclose(f);
    ASSERT_CONTAINS(buf, "point,machine.cores,metric,backend,engine,simulated,measured_min,measured_median,"
                         "measured_max,runs,rel_error\n0,1,wall_s,pthread,pthread,1,1,2,4,3,-0.5\n");
    ASSERT_CONTAINS(buf, "0,1,gvl_handoffs_per_op,ruby,ruby 3.1.2,0.2,,,,0,\n");
    free(buf);
    row_free(&cols);
    row_free(&cells);
    free(rows);
}

/* --seeds: the simulated side over three seeds at each of two points (1 and
 * 2 cores), one real backend with one run.  The simulated value is the
 * median over the seeds with their min and max; the cores ratio is the
 * median of the per-seed ratios (seed k over the base's seed k), not the
 * ratio of the medians; the error is median against median. */
static void test_seeds(void)
{
    static struct val_figures sim[2 * 3];
    static struct val_figures real[2];
    static const int base[2] = { 0, 0 };
    /* point 0 (1 core), seeds 0..2; point 1 (2 cores), seeds 0..2 */
    sim[0] = fig(1.0, 100, 10, 20, true);
    sim[1] = fig(2.0, 100, 30, 20, true);
    sim[2] = fig(4.0, 100, 20, 20, true);
    sim[3] = fig(3.0, 100, 50, 40, true);   /* ratios: 3, 1.5, 2 */
    sim[4] = fig(3.0, 100, 70, 40, true);
    sim[5] = fig(8.0, 100, 60, 40, true);
    real[0] = fig(2.0, 100, 20, 10, true);
    real[1] = fig(5.0, 100, 60, 30, true);
    struct val_input in = { .npoints = 2, .nreal = 1, .nreps = 1, .nseeds = 3, .sim = sim, .real = real,
                            .base = base };
    struct val_row *rows;
    size_t n;
    ASSERT_EQ(val_table(&in, &rows, &n), GV_OK);
    ASSERT_EQ(n, 3 + 4);
    const struct val_row *r = find(rows, n, 0, VAL_WALL, 0);
    ASSERT(r && r->has_sim && r->sim_n == 3);
    ASSERT(near(r->sim, 2.0) && near(r->sim_min, 1.0) && near(r->sim_max, 4.0));
    ASSERT(r->has_err && near(r->err, 0.0));
    r = find(rows, n, 0, VAL_VOL_PER_OP, 0);
    ASSERT(r && near(r->sim, 0.2) && near(r->sim_min, 0.1) && near(r->sim_max, 0.3));
    r = find(rows, n, 1, VAL_WALL, 0);
    ASSERT(r && near(r->sim, 3.0) && near(r->sim_min, 3.0) && near(r->sim_max, 8.0));
    /* per seed: 3/1, 3/2, 8/4 -> median 2 (the ratio of the medians would be 1.5) */
    r = find(rows, n, 1, VAL_CORES_RATIO, 0);
    ASSERT(r && r->has_sim && r->sim_n == 3);
    ASSERT(near(r->sim, 2.0) && near(r->sim_min, 1.5) && near(r->sim_max, 3.0));
    ASSERT(r->has_err && near(r->err, 2.0 / 2.5 - 1));
    /* a seed whose run failed is left out: two values, their mean is the median */
    sim[4] = (struct val_figures){ 0 };
    free(rows);
    ASSERT_EQ(val_table(&in, &rows, &n), GV_OK);
    r = find(rows, n, 1, VAL_CORES_RATIO, 0);
    ASSERT(r && r->sim_n == 2 && near(r->sim, 2.5) && near(r->sim_min, 2.0) && near(r->sim_max, 3.0));

    /* the renderings: min / median / max, the seeds said, three more columns */
    sim[4] = fig(3.0, 100, 70, 40, true);
    free(rows);
    ASSERT_EQ(val_table(&in, &rows, &n), GV_OK);
    static const char *const keys[] = { "machine.cores" };
    static const char *const values[] = { "1", "2" };
    static const char *const backends[] = { "pthread" };
    static const char *const engines[] = { "pthread" };
    struct val_report rep = { .scenario = "demo", .host = "Test CPU", .nreps = 1, .nseeds = 3, .nkeys = 1,
                              .keys = keys, .values = values, .nreal = 1, .backends = backends,
                              .engines = engines, .rows = rows, .nrows = n };
    char *t = render(CMP_TEXT, &rep);
    ASSERT_CONTAINS(t, "demo: simulated against measured, the simulator under 3 seeds, 1 run per backend and "
                       "configuration (error = simulated median / measured median - 1)\n");
    ASSERT_CONTAINS(t, "configuration    metric               simulated: min / median / max  pthread  error\n");
    ASSERT_CONTAINS(t, "                 cores_ratio                            1.5 / 2 / 3      2.5   -20%\n");
    free(t);
    t = render(CMP_MARKDOWN, &rep);
    ASSERT_CONTAINS(t, "(the simulator under 3 seeds, 1 run per backend and configuration; ");
    ASSERT_CONTAINS(t, "| machine.cores=2 | cores_ratio | 1.5 / 2 / 3 | 2.5 | -20% |\n");
    free(t);
    t = render(CMP_JSON, &rep);
    ASSERT_CONTAINS(t, "\"runs_per_backend\":1,\"seeds\":3,\"backends\":[");
    ASSERT_CONTAINS(t, "\"simulated\":2,\"measured_min\":2.5,\"measured_median\":2.5,\"measured_max\":2.5,\"runs\":1,"
                       "\"rel_error\":-0.2,\"simulated_min\":1.5,\"simulated_max\":3,\"simulated_runs\":3}");
    free(t);
    struct row cols, cells;
    row_init(&cols);
    row_init(&cells);
    val_columns(&rep, &cols);
    row_clear(&cells);
    val_row_cells(&rep, find(rows, n, 0, VAL_WALL, 0), &cells);
    char *line = rows_encode_str(ROWS_CSV, &cols, &cells);
    ASSERT(line != NULL);
    ASSERT_STREQ(line, "0,1,wall_s,pthread,pthread,2,2,2,2,1,0,1,4,3");
    free(line);
    row_free(&cols);
    row_free(&cells);
    free(rows);

    /* one seed: sim[point], the columns of before --seeds (nseeds 1 and 0 alike) */
    in.nseeds = 1;
    ASSERT_EQ(val_table(&in, &rows, &n), GV_OK);
    r = find(rows, n, 1, VAL_CORES_RATIO, 0);   /* sim[1] over sim[0] */
    ASSERT(r && r->sim_n == 1 && near(r->sim, 2.0) && near(r->sim_min, 2.0) && near(r->sim_max, 2.0));
    rep.nseeds = 1;
    rep.rows = rows;
    rep.nrows = n;
    row_init(&cols);
    val_columns(&rep, &cols);
    ASSERT_EQ(cols.n, 11);
    row_free(&cols);
    free(rows);
}

int main(void)
{
    RUN(test_table);
    RUN(test_fixed_time_and_no_ops);
    RUN(test_cpus_busy);
    RUN(test_gc_per_gc);
    RUN(test_parse);
    RUN(test_report);
    RUN(test_seeds);
    TEST_DONE();
}
