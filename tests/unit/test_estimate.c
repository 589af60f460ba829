/* test_estimate.c - the up-front estimate of a run's engine events, against
 * the events every golden run counts (tests/golden/NAME.csv, column
 * engine_events), and against the seed scenarios run here: within a factor
 * of ESTIMATE_TOLERANCE either way, give or take ESTIMATE_SLACK events
 * (for runs of a few hundred events, which no guard is about).  Also: the
 * refusal by simulate_run (exit 3's status) and --force.  Run from the
 * repository root. */
#include <math.h>
#include <stdlib.h>

#include "../../common/err.h"
#include "../../input/load.h"
#include "../../models/estimate.h"
#include "../../models/simulate.h"
#include "../../output/csvread.h"
#include "test.h"

#define ESTIMATE_TOLERANCE 3.0
#define ESTIMATE_SLACK 1000.0

static double worst_ratio = 1;

static void load_args(const char *scn, char *args, struct scenario *s)
{
    const char *sets[32];
    int nsets = 0;
    const char *mdir = NULL;
    long long seed = -1;
    for (char *save = NULL, *tok = strtok_r(args, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
        char *val = strtok_r(NULL, " \t\n", &save);
        ASSERT(val);
        if (!strcmp(tok, "--set")) sets[nsets++] = val;
        else if (!strcmp(tok, "--machines")) mdir = val;
        else if (!strcmp(tok, "--seed")) seed = atoll(val);
        else ASSERT(0);
    }
    struct load_opts o = { .sets = sets, .nsets = nsets, .machines_dirs = &mdir, .nmachines_dirs = mdir != NULL };
    struct diag_list d;
    diag_init(&d);
    ASSERT_EQ(scn_load(scn, &o, s, &d), GV_OK);
    diag_free(&d);
    if (seed >= 0) s->seed = (uint64_t)seed;
}

/* over_only: the run's threads gave up waiting (timeouts): it ends early,
 * which the estimate cannot know; only an underestimate is checked. */
static void compare_run(const char *what, double est, double actual, bool over_only)
{
    double ratio = (est + ESTIMATE_SLACK) / (actual + ESTIMATE_SLACK);
    fprintf(stderr, "    %-28s estimate %12.0f  actual %12.0f  ratio %.2f%s\n", what, est, actual, ratio,
            over_only ? " (timeouts: not above)" : "");
    ASSERT(ratio >= 1 / ESTIMATE_TOLERANCE && (over_only || ratio <= ESTIMATE_TOLERANCE));
    if (over_only) return;
    double off = ratio > 1 ? ratio : 1 / ratio;
    if (off > worst_ratio) worst_ratio = off;
}

static void compare(const char *what, double est, double actual)
{
    compare_run(what, est, actual, false);
}

/* Every golden case: its estimate within the tolerance of its engine_events. */
static void test_golden_runs(void)
{
    FILE *f = fopen("tests/golden/cases.txt", "r");
    ASSERT(f);
    char line[2048];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char *name = strtok(line, "|"), *scn = strtok(NULL, "|"), *args = strtok(NULL, "\n");
        if (!name || !scn || name[0] == '#') continue;
        while (*name == ' ') name++;
        name[strcspn(name, " ")] = '\0';
        while (*scn == ' ') scn++;
        scn[strcspn(scn, " ")] = '\0';
        struct scenario s;
        load_args(scn, args ? args : (char[]){ "" }, &s);
        char path[256], err[256];
        snprintf(path, sizeof path, "tests/golden/%s.csv", name);
        struct csv_table t;
        ASSERT_EQ(csvr_read(path, &t, err, sizeof err), GV_OK);
        int col = csvr_col(&t, "engine_events"), tcol = csvr_col(&t, "timeouts");
        ASSERT(col >= 0 && tcol >= 0 && t.nrows == 1);
        compare_run(name, estimate_events(&s, 3600 * SIM_S), atof(csvr_cell(&t, 0, col)),
                    atof(csvr_cell(&t, 0, tcol)) > 0);
        csvr_free(&t);
        scenario_free(&s);
        n++;
    }
    fclose(f);
    ASSERT(n >= 20);
}

/* The seed scenarios as shipped (run here, briefly where they are long). */
static void test_seed_scenarios(void)
{
    static const struct { const char *scn; const char *args; } runs[] = {
        { "scenarios/examples/token_pingpong.json", "" },
        { "scenarios/examples/mn_pingpong.json", "" },
        { "scenarios/calc.json", "--set stop.time=2ms" },
        { "scenarios/proc_heavy.json", "--set stop.time=1ms --set ractors.1.count=8" },
        { "scenarios/io_plus_cpu.json", "--set stop.time=200ms" },
        { "scenarios/mtime_loop.json", "--set ractors.0.threads.1.program.0.times_total=100000" },
        { "scenarios/puma_like.json", "" },
        { "scenarios/puma_like.json", "--set runtime.gvl_policy=delayed --set runtime.quantum=10ms" },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char args[256];
        snprintf(args, sizeof args, "%s", runs[i].args);
        struct scenario s;
        load_args(runs[i].scn, args, &s);
        struct simulate_opts o = { .max_time = 3600 * SIM_S };
        struct run_metrics m;
        char err[GV_ERRLEN];
        ASSERT_EQ(simulate_run(&s, &o, &m, err, sizeof err), GV_OK);
        compare(runs[i].scn, estimate_events(&s, o.max_time), (double)m.engine_events);
        run_metrics_free(&m);
        scenario_free(&s);
    }
    fprintf(stderr, "    worst factor %.2f (tolerance %.1f)\n", worst_ratio, ESTIMATE_TOLERANCE);
}

/* A loop of 10^12 iterations is refused before it starts (GV_EINVAL: exit
 * 3), with the estimate and a rough host time; forced, it starts. */
static void test_refused_up_front(void)
{
    char args[] = "--set ractors.0.threads.0.program.0.times=1000000000000 "
                  "--set ractors.0.threads.1.program.0.times=1000000000000";
    struct scenario s;
    load_args("scenarios/examples/token_pingpong.json", args, &s);
    double est = estimate_events(&s, 3600 * SIM_S);
    ASSERT(est > ESTIMATE_MAX_EVENTS);
    struct simulate_opts o = { .max_time = 3600 * SIM_S };
    struct run_metrics m;
    char err[GV_ERRLEN];
    ASSERT_EQ(simulate_run(&s, &o, &m, err, sizeof err), GV_EINVAL);
    ASSERT_CONTAINS(err, "engine events");
    ASSERT_CONTAINS(err, "of host time");
    ASSERT_CONTAINS(err, "--force");
    /* forced: it runs (cut short here by a small --max-time) */
    o.force = true;
    o.max_time = 1 * SIM_MS;
    ASSERT_EQ(simulate_run(&s, &o, &m, err, sizeof err), GV_ERUN);
    ASSERT_CONTAINS(err, "simulated time limit");
    /* a --max-time short enough brings the estimate down: no refusal */
    o.force = false;
    ASSERT(estimate_events(&s, o.max_time) < ESTIMATE_MAX_EVENTS);
    ASSERT_EQ(simulate_run(&s, &o, &m, err, sizeof err), GV_ERUN);
    scenario_free(&s);
}

int main(void)
{
    unsetenv("GVLSIM_MACHINES");
    RUN(test_golden_runs);
    RUN(test_seed_scenarios);
    RUN(test_refused_up_front);
    TEST_DONE();
}
