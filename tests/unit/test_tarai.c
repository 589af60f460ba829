/* test_tarai.c - bug #20489 reproduced from scenarios/tarai_ractors.json
 * on the x86_20489 profile, with tolerances, and each hit checked for the
 * right reason (CPU time, state times, line transfers, pool size):
 * - 8 Ractors, RUBY_MAX_CPU=12: shared counter ~10x thread_local/none
 *   (24.87 s wall / 195.55 s CPU vs 2.53 / 19.86 and 2.46 / 19.34);
 * - thread_local within 5% of none; one Ractor alone ~2.5 s under all;
 * - the line model's predictions at k = 2 and 4 (~2.5x, ~5x), and one core
 *   (no contention at all);
 * - the default max_cpu 8 with the 3.3/3.4 cap: ~2x the wall of `exact`
 *   (bug #20489's thread: 4.70 s with the default vs 2.46 s with
 *   RUBY_MAX_CPU=12, two builds), one Ractor waiting in wants_snt;
 * - full size stays a few thousand events. */
#include <math.h>

#include "sim_fixture.h"
#include "test.h"

#define SCN "scenarios/tarai_ractors.json"

struct res {
    struct run_metrics m;
    double wall, cpu;            /* seconds */
    double wants_snt_max;        /* the longest any worker waited for an SNT, s */
};

static void inspect_wants_snt(struct vm *vm, void *ctx)
{
    struct res *r = ctx;
    for (int i = 0; i < vm->nthreads; i++) {
        double w = (double)fx_state_time(vm, i, TS_WANTS_SNT) / (double)SIM_S;
        if (w > r->wants_snt_max) r->wants_snt_max = w;
    }
}

/* Run the scenario with up to 6 --set overrides (NULL-terminated). */
static struct res run(const char *const *sets)
{
    int n = 0;
    while (sets[n]) n++;
    struct scenario scn;
    ASSERT_EQ(fx_load(SCN, sets, n, NULL, &scn), GV_OK);
    struct res r;
    memset(&r, 0, sizeof r);
    struct fx_hooks h = { NULL, inspect_wants_snt, &r };
    struct fx_result fx;
    fx_run(&scn, &h, &fx);
    if (fx.rc != GV_OK) fprintf(stderr, "%s\n", fx.err);
    ASSERT_EQ(fx.rc, GV_OK);
    scenario_free(&scn);
    r.m = fx.m;
    r.wall = (double)r.m.wall / (double)SIM_S;
    r.cpu = (double)r.m.cpu / (double)SIM_S;
    return r;
}

static int near(double got, double want, double tol)
{
    return fabs(got - want) <= tol * want;
}

static void test_8_ractors_max_cpu_12(void)
{
    const char *sh[] = { NULL };
    const char *tl[] = { "runtime.insn_counter=thread_local", NULL };
    const char *no[] = { "runtime.insn_counter=none", NULL };
    struct res s = run(sh), t = run(tl), n = run(no);
    fprintf(stderr, "    shared %.3f s / %.2f s cpu, thread_local %.3f / %.2f, none %.3f / %.2f\n",
            s.wall, s.cpu, t.wall, t.cpu, n.wall, n.cpu);
    /* the measurements of the fix's commit message, within 5% */
    ASSERT(near(s.wall, 24.87, 0.05));
    ASSERT(near(s.cpu, 195.55, 0.05));
    /* (the thread-local build measured 2.6% faster than 3.2.0, on which
     * `none` is calibrated: any non-negative TLS cost is at least that far
     * off, so 6% here) */
    ASSERT(near(t.wall, 2.46, 0.06));
    ASSERT(near(t.cpu, 19.34, 0.06));
    ASSERT(near(n.wall, 2.53, 0.05));
    ASSERT(near(n.cpu, 19.86, 0.05));
    /* ~10x, in wall and in CPU */
    ASSERT(s.wall / n.wall > 9.0 && s.wall / n.wall < 11.0);
    ASSERT(s.cpu / n.cpu > 9.0 && s.cpu / n.cpu < 11.0);
    /* thread_local within 5% of none (and not free) */
    ASSERT(t.wall > n.wall && t.wall < 1.05 * n.wall);
    /* the right reason: eight cores busy stalling on the line the whole
     * time (CPU = 8 x wall), the threads running (not waiting for a GVL or
     * an SNT), the line moving back to back: wall / line_transfer */
    ASSERT(s.cpu / s.wall > 7.95 && s.cpu / s.wall < 8.01);
    ASSERT((double)s.m.state_time[TS_RUNNING] / (double)SIM_S > 7.9 * s.wall);
    ASSERT(s.wants_snt_max < 0.001);
    double xfer_expect = s.wall / 90e-9;
    ASSERT(near((double)s.m.line_transfers, xfer_expect, 0.01));
    ASSERT_EQ(t.m.line_transfers, 0);
    ASSERT_EQ(s.m.native_threads, 10);   /* main, 8 SNTs, timer */
    /* fluid: full size is a handful of events, not a billion */
    ASSERT(s.m.engine_events < 50000);
}

/* One Ractor alone: ~2.5 s under every counter (no contention). */
static void test_one_ractor(void)
{
    const char *cfg[][3] = {
        { "ractors.1.count=1", NULL, NULL },
        { "ractors.1.count=1", "runtime.insn_counter=none", NULL },
        { "ractors.1.count=1", "runtime.insn_counter=thread_local", NULL },
        { "ractors.1.count=1", "runtime.counter_model=penalty", NULL },
    };
    double w0 = 0;
    for (int i = 0; i < 4; i++) {
        struct res r = run(cfg[i]);
        ASSERT(near(r.wall, 2.5, 0.05));
        ASSERT_EQ(r.m.line_transfers, 0);
        if (i == 0) w0 = r.wall;
        if (i == 1) ASSERT(r.wall == w0);  /* shared alone = none */
    }
}

/* Predictions: k = 2 and 4 Ractors on 8 cores (line model ~2.5x, ~5x;
 * the penalty model with the same line_transfer is far steeper); on one
 * core the counter costs nothing (the line never moves). */
static void test_predictions(void)
{
    const char *s2[] = { "ractors.1.count=2", NULL }, *n2[] = { "ractors.1.count=2", "runtime.insn_counter=none", NULL };
    const char *s4[] = { "ractors.1.count=4", NULL }, *n4[] = { "ractors.1.count=4", "runtime.insn_counter=none", NULL };
    const char *p2[] = { "ractors.1.count=2", "runtime.counter_model=penalty", NULL };
    struct res a2 = run(s2), b2 = run(n2), a4 = run(s4), b4 = run(n4), q2 = run(p2);
    double k2 = a2.wall / b2.wall, k4 = a4.wall / b4.wall, pk2 = q2.wall / b2.wall;
    fprintf(stderr, "    line: k=2 %.2fx, k=4 %.2fx; penalty: k=2 %.2fx\n", k2, k4, pk2);
    ASSERT(k2 > 2.3 && k2 < 2.7);
    ASSERT(k4 > 4.6 && k4 < 5.3);
    ASSERT(pk2 > 15.0);
    /* aggregate throughput is the line's, whatever k: wall grows as R */
    ASSERT(near(a4.wall / a2.wall, 2.0, 0.01));

    const char *s1c[] = { "machine.cores=1", NULL }, *n1c[] = { "machine.cores=1", "runtime.insn_counter=none", NULL };
    struct res c1 = run(s1c), d1 = run(n1c);
    ASSERT(c1.wall == d1.wall);
    ASSERT_EQ(c1.m.line_transfers, 0);
    ASSERT(near(c1.wall, 8 * 2.48, 0.02));  /* 8 tarai one after another (OS slices) */
}

/* Default RUBY_MAX_CPU (8) with the 3.3/3.4 cap: 7 SNTs for 8 Ractors, so
 * one Ractor waits in the grq until another ends: ~2x the wall of `exact`
 * (bug #20489's thread, thread-local builds: 4.70 s with the default vs
 * 2.46 s with RUBY_MAX_CPU=12). */
static void test_minus_one(void)
{
    const char *m1[] = { "runtime.insn_counter=thread_local", "runtime.max_cpu=8", NULL };
    const char *ex[] = { "runtime.insn_counter=thread_local", "runtime.max_cpu=8", "runtime.snt_cap=exact", NULL };
    struct res a = run(m1), b = run(ex);
    fprintf(stderr, "    thread_local, max_cpu 8: minus_one %.3f s, exact %.3f s (%.2fx)\n", a.wall,
            b.wall, a.wall / b.wall);
    ASSERT(a.wall / b.wall > 1.8 && a.wall / b.wall < 2.1);
    ASSERT(near(a.wall, 4.70, 0.10));
    /* the right reason: one Ractor in wants_snt for about half the run,
     * the CPU time unchanged, one SNT fewer */
    ASSERT(a.wants_snt_max > 0.45 * a.wall && a.wants_snt_max < 0.55 * a.wall);
    ASSERT(b.wants_snt_max < 0.001);
    ASSERT(near(a.cpu, b.cpu, 0.01));
    ASSERT_EQ(a.m.native_threads, 9);
    ASSERT_EQ(b.m.native_threads, 10);

    /* with the shared counter the cap does not double the time: the seven
     * run faster with one fewer contender, the eighth alone after them */
    const char *sm1[] = { "runtime.max_cpu=8", NULL };
    const char *sex[] = { "runtime.max_cpu=8", "runtime.snt_cap=exact", NULL };
    struct res c = run(sm1), d = run(sex);
    ASSERT(c.wall / d.wall > 0.9 && c.wall / d.wall < 1.05);
    ASSERT(near(c.wants_snt_max, c.wall - 2.48, 0.02));
}

int main(void)
{
    RUN(test_8_ractors_max_cpu_12);
    RUN(test_one_ractor);
    RUN(test_predictions);
    RUN(test_minus_one);
    TEST_DONE();
}
