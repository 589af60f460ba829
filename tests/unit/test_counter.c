/* test_counter.c - the fluid counter model: the one rounding of a rate
 * into a time (mach_work_time), the line and penalty models as formulas,
 * rated bursts in the machine (rate changes, preemption, cuts, ends
 * far ahead and re-planned), and the counter end to end with hand-computed times. */
#include <math.h>
#include <string.h>

#include "../../models/counter.h"
#include "../../sim/engine_heap.h"
#include "../../sim/machine.h"
#include "sim_fixture.h"
#include "test.h"

/* ---- mach_work_time: the one rounding --------------------------------- */

static void test_work_time_rounding(void)
{
    ASSERT_EQ(mach_work_time(1000, 1, 1), 1000);            /* identity */
    ASSERT_EQ(mach_work_time(1000, 3, 2), 1500);            /* exact */
    ASSERT_EQ(mach_work_time(1, 1, 2), 1);                  /* 0.5 rounds up */
    ASSERT_EQ(mach_work_time(3, 1, 2), 2);                  /* 1.5 rounds up */
    ASSERT_EQ(mach_work_time(1, 1, 3), 0);                  /* 0.333 down */
    ASSERT_EQ(mach_work_time(2, 1, 3), 1);                  /* 0.667 up */
    ASSERT_EQ(mach_work_time(10, 2, 3), 7);                 /* 6.667 up */
    ASSERT_EQ(mach_work_time(0, 5, 1), 0);
    ASSERT_EQ(mach_work_time(-5, 5, 1), 0);
    ASSERT_EQ(mach_work_time(5, 1, 0), SIM_TIME_MAX);       /* no rate: never */
    ASSERT_EQ(mach_work_time(SIM_TIME_MAX, 2, 1), SIM_TIME_MAX);  /* saturates */
    /* beyond 64 bits in the middle, exact at the end: 2^62 x 3 / 3 */
    ASSERT_EQ(mach_work_time(INT64_C(1) << 62, 3, 3), INT64_C(1) << 62);
    /* the tarai case: 1057137368 insns x 2348 ps at 8 x 90 ns / (31 x 2.348 ns) */
    sim_time w = INT64_C(1057137368) * 2348;
    ASSERT_EQ(mach_work_time(w, 8 * 90000, 31 * 2348), (INT64_C(1057137368) * 720000 + 15) / 31);
    /* monotonic in work */
    for (sim_time x = 0; x < 200; x++)
        ASSERT(mach_work_time(x + 1, 7, 3) >= mach_work_time(x, 7, 3));
}

/* ---- the two models as formulas ------------------------------------------ */

static void test_cost_ratio_line(void)
{
    uint64_t n, d;
    counter_cost_ratio(COUNTER_MODEL_LINE, 2348, 90000, 31, 0, &n, &d);
    ASSERT(n == 1 && d == 1);
    counter_cost_ratio(COUNTER_MODEL_LINE, 2348, 90000, 31, 1, &n, &d);  /* the line stays put */
    ASSERT(n == 1 && d == 1);
    counter_cost_ratio(COUNTER_MODEL_LINE, 2348, 90000, 31, 8, &n, &d);
    /* 8 x 90000 / (31 x 2348), reduced */
    ASSERT_EQ((long long)(n * 31 * 2348), (long long)(d * 8 * 90000));
    ASSERT(fabs((double)n / (double)d - 9.8917) < 0.001);
    /* linear in k above saturation: 1.2367 k */
    counter_cost_ratio(COUNTER_MODEL_LINE, 2348, 90000, 31, 2, &n, &d);
    ASSERT(fabs((double)n / (double)d - 2.4729) < 0.001);
    counter_cost_ratio(COUNTER_MODEL_LINE, 2348, 90000, 31, 4, &n, &d);
    ASSERT(fabs((double)n / (double)d - 4.9459) < 0.001);
    /* a line that keeps up (B/(kT) >= 1/t) costs nothing */
    counter_cost_ratio(COUNTER_MODEL_LINE, 10000, 1000, 10, 4, &n, &d);
    ASSERT(n == 1 && d == 1);
    counter_cost_ratio(COUNTER_MODEL_LINE, 2348, 0, 31, 8, &n, &d);
    ASSERT(n == 1 && d == 1);
}

static void test_cost_ratio_penalty(void)
{
    uint64_t n, d;
    counter_cost_ratio(COUNTER_MODEL_PENALTY, 2348, 90000, 31, 1, &n, &d);
    ASSERT(n == 1 && d == 1);
    /* (t + 7/8 T) / t */
    counter_cost_ratio(COUNTER_MODEL_PENALTY, 2348, 90000, 31, 8, &n, &d);
    ASSERT(fabs((double)n / (double)d - (2348.0 + 0.875 * 90000.0) / 2348.0) < 1e-9);
    counter_cost_ratio(COUNTER_MODEL_PENALTY, 1000, 2000, 1, 2, &n, &d);  /* (1 + 1) / 1 */
    ASSERT(n == 2 && d == 1);
}

static void test_transfer_rates(void)
{
    /* line, saturated: the line moves back to back, 1/T whatever k */
    for (int k = 2; k <= 16; k *= 2)
        ASSERT(fabs(counter_transfers_per_ps(COUNTER_MODEL_LINE, 2348, 90000, 31, k) * 90000.0 - 1.0) < 1e-9);
    ASSERT(counter_transfers_per_ps(COUNTER_MODEL_LINE, 2348, 90000, 31, 1) == 0.0);
    /* line, not saturated: k cores at full speed, one transfer per B insns */
    ASSERT(fabs(counter_transfers_per_ps(COUNTER_MODEL_LINE, 10000, 1000, 10, 4) - 4.0 / 10000.0 / 10.0) < 1e-15);
    /* penalty: (k-1)/k of every core's insns miss */
    double per_core = 1.0 / (1000.0 + 2000.0 / 2.0);
    ASSERT(fabs(counter_transfers_per_ps(COUNTER_MODEL_PENALTY, 1000, 2000, 1, 2) - per_core) < 1e-15);
}

/* ---- rated bursts in the machine -------------------------------------------- */

struct rt {
    struct mach_task t;
    struct machine *m;
    sim_time work;
    uint64_t num, den;
    sim_time done_at;
    sim_time left;
    sim_time change_at;      /* set a new rate at this time (0: never) */
    uint64_t cnum, cden;
    int on, off;             /* hook calls */
    sim_time since, cpu;     /* ... and the time on a core between them */
    int slot;                /* its entry of hooks[] (0 unless set) */
};

static void rt_done(struct mach_task *t, void *ctx)
{
    struct rt *x = ctx;
    x->done_at = sim_now(x->m->eng);
    x->left = t->burst_left;
    mach_exit(x->m, t);
}

static void rt_hook(void *ctx, struct mach_task *t, bool running)
{
    (void)t;
    struct rt *x = ctx;
    sim_time now = sim_now(x->m->eng);
    if (running) {
        x->on++;
        x->since = now;
    } else {
        x->off++;
        x->cpu += now - x->since;
    }
}

static struct mach_rate_hook hooks[2];

static void rt_go(struct mach_task *t, void *ctx)
{
    struct rt *x = ctx;
    int i = x->slot;
    hooks[i].on_cpu = rt_hook;
    hooks[i].ctx = x;
    mach_burst_rated(x->m, t, x->work, x->num, x->den, &hooks[i], rt_done, x);
}

static void rt_change(void *obj, uint64_t arg)
{
    (void)arg;
    struct rt *x = obj;
    mach_burst_set_rate(x->m, &x->t, x->cnum, x->cden);
}

static void rt_cut(void *obj, uint64_t arg)
{
    struct rt *x = obj;
    mach_interrupt(x->m, &x->t, (sim_time)arg);
}

static struct mach_params params(int cores)
{
    struct mach_params p;
    memset(&p, 0, sizeof p);
    p.cores = cores;
    p.context_switch = 2 * SIM_US;
    p.wake_idle_core = 10 * SIM_US;
    p.wake_busy_core = 3 * SIM_US;
    p.os_timeslice = 3 * SIM_MS;
    p.seed = 1;
    return p;
}

/* A machine on its own engine. */
struct rig {
    struct sim_engine *e;
    struct machine m;
};

static void rig_init(struct rig *g, int cores)
{
    g->e = sim_heap_create();
    struct mach_params p = params(cores);
    ASSERT_EQ(mach_init(&g->m, g->e, &p, NULL, 0), GV_OK);
}

static void rig_free(struct rig *g)
{
    mach_free(&g->m);
    sim_destroy(g->e);
}

/* A task that will burst `work` at rate num/den (started by rt_go). */
static void rt_init(struct rt *x, struct machine *m, const char *name, sim_time work, uint64_t num,
                    uint64_t den)
{
    memset(x, 0, sizeof *x);
    x->m = m;
    x->work = work;
    x->num = num;
    x->den = den;
    mach_task_init(m, &x->t, name);
}

/* Start on an idle core (10 us), 1000 us of work at 1x, then at 500 us of
 * it the rate doubles: 500 more units take 1000 us.  End: 10+500+1000. */
static void test_rated_rate_change(void)
{
    struct rig g;
    rig_init(&g, 1);
    struct rt x;
    rt_init(&x, &g.m, "r", 1000 * SIM_US, 1, 1);
    mach_start(&g.m, &x.t, rt_go, &x);
    x.cnum = 2;
    x.cden = 1;
    sim_at(g.e, 510 * SIM_US, rt_change, &x, 0);
    ASSERT_EQ(sim_run(g.e, SIM_TIME_MAX, NULL, 0), GV_OK);
    ASSERT_EQ(x.done_at, 1510 * SIM_US);
    ASSERT_EQ(x.left, 0);
    ASSERT_EQ(x.on, 1);
    ASSERT_EQ(x.off, 1);
    ASSERT_EQ(x.cpu, 1500 * SIM_US);
    rig_free(&g);
}

/* A burst 30 s long at 3/2: one end event, armed 45 s ahead (no relay). */
static void test_rated_far_end(void)
{
    struct rig g;
    rig_init(&g, 1);
    struct rt x;
    rt_init(&x, &g.m, "r", 30 * SIM_S, 3, 2);
    mach_start(&g.m, &x.t, rt_go, &x);
    ASSERT_EQ(sim_run(g.e, SIM_TIME_MAX, NULL, 0), GV_OK);
    ASSERT_EQ(x.done_at, 45 * SIM_S + 10 * SIM_US);
    ASSERT(g.e->fired <= 3);   /* the arrival, the end (no relays) */
    ASSERT_EQ(x.on, 1);
    rig_free(&g);
}

static void rt_set_num(void *obj, uint64_t num)
{
    struct rt *x = obj;
    mach_burst_set_rate(x->m, &x->t, num, 1);
}

/* The engine's queue length at a time, read by an event. */
struct heap_probe {
    struct sim_engine *e;
    uint32_t queued;
};

static void heap_probe(void *obj, uint64_t arg)
{
    (void)arg;
    struct heap_probe *p = obj;
    p->queued = ((struct sim_heap *)p->e)->n;
}

/* A contended run re-plans a far end at every rate change: 2,000 changes,
 * every 1 ms, alternating 2 ps and 1 ps a unit, of a 30 s burst (from
 * 10 us: 1,000 pairs do 1.5 s of work in 2 s, then 28.5 s at 1 ps).  Each
 * change cancels an end ~30 s ahead; the engine drops the dead ones
 * (engine_heap.c, compact), so few stay queued, and the end is exact. */
static void test_rated_replanned_far_end(void)
{
    struct rig g;
    rig_init(&g, 1);
    struct rt x;
    rt_init(&x, &g.m, "r", 30 * SIM_S, 1, 1);
    mach_start(&g.m, &x.t, rt_go, &x);
    for (int k = 1; k <= 2000; k++)
        sim_at(g.e, 10 * SIM_US + k * SIM_MS, rt_set_num, &x, (uint64_t)(k % 2 ? 2 : 1));
    struct heap_probe probe = { g.e, 0 };
    sim_at(g.e, 10 * SIM_US + 1999 * SIM_MS + SIM_MS / 2, heap_probe, &probe, 0);
    ASSERT_EQ(sim_run(g.e, SIM_TIME_MAX, NULL, 0), GV_OK);
    ASSERT_EQ(x.done_at, 10 * SIM_US + 2 * SIM_S + 28 * SIM_S + SIM_S / 2);
    ASSERT_EQ(x.left, 0);
    ASSERT_EQ(x.on, 1);
    ASSERT(probe.queued < 100);   /* 2 live + dead ones not yet dropped */
    rig_free(&g);
}

/* Two rated bursts on one core share it by OS time slices: the work is
 * banked at every preemption and each burst does exactly its work. */
static void test_rated_preemption(void)
{
    struct rig g;
    rig_init(&g, 1);
    struct rt x[2];
    for (int i = 0; i < 2; i++) {
        rt_init(&x[i], &g.m, i ? "b" : "a", 10 * SIM_MS, 2, 1);
        x[i].slot = i;
    }
    for (int i = 0; i < 2; i++) mach_start(&g.m, &x[i].t, rt_go, &x[i]);
    ASSERT_EQ(sim_run(g.e, SIM_TIME_MAX, NULL, 0), GV_OK);
    /* 20 ms of CPU each at 2x, slices of 3 ms, switches of 2 us */
    ASSERT_EQ(x[0].cpu, 20 * SIM_MS);
    ASSERT_EQ(x[1].cpu, 20 * SIM_MS);
    ASSERT(x[0].t.ivcsw >= 5);
    ASSERT_EQ(x[0].on, (int)x[0].t.ivcsw + 1);  /* told at every stop and resume */
    ASSERT_EQ(x[0].off, (int)x[0].t.ivcsw + 1);
    sim_time last = x[0].done_at > x[1].done_at ? x[0].done_at : x[1].done_at;
    ASSERT(last > 40 * SIM_MS && last < 40 * SIM_MS + 40 * SIM_US);
    rig_free(&g);
}

/* A cut at a safe point: the continuation sees the units not done; a cut
 * requested beyond the current end still holds after a slowdown. */
static void test_rated_cut(void)
{
    struct rig g;
    rig_init(&g, 1);
    struct rt x;
    rt_init(&x, &g.m, "r", 100 * SIM_US, 2, 1);  /* 200 us of time */
    mach_start(&g.m, &x.t, rt_go, &x);
    sim_at(g.e, 60 * SIM_US, rt_cut, &x, 10 * SIM_US);  /* cut at 70: 30 us of work done */
    ASSERT_EQ(sim_run(g.e, SIM_TIME_MAX, NULL, 0), GV_OK);
    ASSERT_EQ(x.done_at, 70 * SIM_US);
    ASSERT_EQ(x.left, 70 * SIM_US);
    rig_free(&g);

    /* cut asked for at 300 (after the planned end at 210); the rate
     * quadruples at 110 (50 units done): 50 left would end at 110+400 */
    rig_init(&g, 1);
    rt_init(&x, &g.m, "r", 100 * SIM_US, 2, 1);
    x.cnum = 8;
    x.cden = 1;
    mach_start(&g.m, &x.t, rt_go, &x);
    sim_at(g.e, 100 * SIM_US, rt_cut, &x, 200 * SIM_US);
    sim_at(g.e, 110 * SIM_US, rt_change, &x, 0);
    ASSERT_EQ(sim_run(g.e, SIM_TIME_MAX, NULL, 0), GV_OK);
    ASSERT_EQ(x.done_at, 300 * SIM_US);
    /* 50 units done by 110, then 190 us at 8x = 23.75 units: 26.25 left (floor of done) */
    ASSERT_EQ(x.left, 26250 * SIM_NS);
    rig_free(&g);
}

/* ---- the counter end to end ------------------------------------------------- */

/* When each worker's thread ended (its last state change). */
static void inspect_ends(struct vm *vm, void *ctx)
{
    sim_time *end = ctx;
    for (int i = 1; i < vm->nthreads && i <= 8; i++) end[i - 1] = vm->threads[i].ts_since;
}

/* The main Ractor's thread ends at once; `nw` worker Ractors run insns[i].
 * The test machine (sim_fixture.h) with the counter's costs: 2 ns per insn,
 * an 80 ns line transfer every 20 stores, 0.1 ns of TLS per insn; 10 us
 * idle-core wakes, free futex wakes and timer ticks.  `end` (may be NULL)
 * receives when each worker's thread ended. */
static struct fx_result run_workers(int cores, int nw, const uint64_t *insns,
                                    enum scn_insn_counter kind, enum scn_counter_model model,
                                    sim_time end[8])
{
    static struct scn_op main_ops[1], wops[8][1];
    static struct scn_thread mt, wt[8];
    static struct scn_ractor r[9];
    memset(r, 0, sizeof r);
    main_ops[0] = fx_insns(0);
    mt = (struct scn_thread){ "main", 1, { main_ops, 1 }, 0, false };
    r[0] = (struct scn_ractor){ "main", 1, &mt, 1 };
    for (int i = 0; i < nw; i++) {
        wops[i][0] = fx_insns(insns[i]);
        wt[i] = (struct scn_thread){ "t", 1, { wops[i], 1 }, 0, false };
        r[i + 1] = (struct scn_ractor){ "w", 1, &wt[i], 1 };
    }
    struct scenario s = fx_scenario(cores, GVL_POLICY_EAGER, r, nw + 1);
    s.machine.futex_wake = 0;
    s.machine.wake_idle_core = 10 * SIM_US;
    s.machine.timer_tick_cost = 0;
    s.machine.insn_time = 2 * SIM_NS;
    s.machine.line_transfer = 80 * SIM_NS;
    s.machine.line_store_batch = 20;  /* k T / (B t) = 2k: 4x at k = 2 */
    s.machine.tls_insn_overhead = 100;  /* 0.1 ns */
    s.runtime.insn_counter = kind;
    s.runtime.counter_model = model;

    struct fx_result o;
    struct fx_hooks h = { NULL, inspect_ends, end };
    if (end) memset(end, 0, 8 * sizeof *end);
    fx_run(&s, end ? &h : NULL, &o);
    return o;
}

/* Every variant with one Ractor: no contention, 1M insns x 2 ns (+0.1). */
static void test_counter_alone(void)
{
    uint64_t n[] = { 1000000 };
    struct fx_result a = run_workers(4, 1, n, COUNTER_NONE, COUNTER_MODEL_LINE, NULL);
    struct fx_result b = run_workers(4, 1, n, COUNTER_SHARED, COUNTER_MODEL_LINE, NULL);
    struct fx_result c = run_workers(4, 1, n, COUNTER_SHARED, COUNTER_MODEL_PENALTY, NULL);
    struct fx_result d = run_workers(4, 1, n, COUNTER_THREAD_LOCAL, COUNTER_MODEL_LINE, NULL);
    ASSERT_EQ(a.rc, GV_OK);
    ASSERT_EQ(b.rc, GV_OK);
    ASSERT_EQ(c.rc, GV_OK);
    ASSERT_EQ(d.rc, GV_OK);
    ASSERT_EQ(b.m.state_time[TS_RUNNING], a.m.state_time[TS_RUNNING]);
    ASSERT_EQ(c.m.state_time[TS_RUNNING], a.m.state_time[TS_RUNNING]);
    /* the running time is the compute (2 ms) + the switch-in's lock section */
    ASSERT(a.m.state_time[TS_RUNNING] >= 2 * SIM_MS && a.m.state_time[TS_RUNNING] < 2 * SIM_MS + SIM_US);
    ASSERT_EQ(d.m.state_time[TS_RUNNING] - a.m.state_time[TS_RUNNING], 100 * SIM_US);  /* 1M x 0.1 ns */
    ASSERT_EQ(b.m.line_transfers, 0);
}

/* Two Ractors on two cores, 1M and 3M insns.  Together (k = 2) each runs
 * 4x slower; when the short one ends the long one runs alone at 1x:
 *   short: 1M x 2 ns x 4 = 8 ms; long: 1M by then, 2M x 2 ns = 4 ms more.
 * Transfers: 1/T while both run. */
static void test_counter_shared_two(void)
{
    uint64_t n[] = { 1000000, 3000000 };
    sim_time end[8];
    struct fx_result o = run_workers(2, 2, n, COUNTER_SHARED, COUNTER_MODEL_LINE, end);
    ASSERT_EQ(o.rc, GV_OK);
    sim_time d_short = end[0], d_long = end[1];
    /* both start within a few us of each other */
    ASSERT(d_short > 8 * SIM_MS && d_short < 8 * SIM_MS + 50 * SIM_US);
    ASSERT(d_long > 12 * SIM_MS && d_long < 12 * SIM_MS + 50 * SIM_US);
    double xfer = (double)o.m.line_transfers, expect = 8.0 * SIM_MS / (80.0 * SIM_NS);
    ASSERT(fabs(xfer - expect) / expect < 0.01);
    /* the right reason: both cores busy the whole contended time */
    ASSERT(o.m.cpu > 20 * SIM_MS - 50 * SIM_US && o.m.cpu < 20 * SIM_MS + 50 * SIM_US);

    /* one core: no contention at all (the line never moves) */
    struct fx_result one = run_workers(1, 2, n, COUNTER_SHARED, COUNTER_MODEL_LINE, NULL);
    struct fx_result none = run_workers(1, 2, n, COUNTER_NONE, COUNTER_MODEL_LINE, NULL);
    ASSERT_EQ(one.rc, GV_OK);
    ASSERT_EQ(one.m.line_transfers, 0);
    ASSERT_EQ(one.m.wall, none.m.wall);

    /* penalty: (2 + 1/2 x 80) / 2 = 21x while both run: the short one
     * ends at 21 ms, the long one has done 1M by then */
    sim_time pen_end[8];
    struct fx_result pen = run_workers(2, 2, n, COUNTER_SHARED, COUNTER_MODEL_PENALTY, pen_end);
    ASSERT_EQ(pen.rc, GV_OK);
    /* (the one that starts first runs alone at 1x for a few us: +-50 us) */
    ASSERT(pen_end[0] > 42 * SIM_MS - 50 * SIM_US && pen_end[0] < 42 * SIM_MS + 50 * SIM_US);
    ASSERT(pen_end[1] > 46 * SIM_MS - 50 * SIM_US && pen_end[1] < 46 * SIM_MS + 50 * SIM_US);
}

/* Same scenario, same result, byte for byte in every counted column. */
static void test_counter_deterministic(void)
{
    uint64_t n[] = { 1000000, 2500000, 700000, 4000000, 1200000 };
    struct fx_result a = run_workers(3, 5, n, COUNTER_SHARED, COUNTER_MODEL_LINE, NULL);
    struct fx_result b = run_workers(3, 5, n, COUNTER_SHARED, COUNTER_MODEL_LINE, NULL);
    ASSERT_EQ(a.rc, GV_OK);
    ASSERT_EQ(a.m.wall, b.m.wall);
    ASSERT_EQ(a.m.cpu, b.m.cpu);
    ASSERT_EQ(a.m.line_transfers, b.m.line_transfers);
    ASSERT_EQ(a.m.engine_events, b.m.engine_events);
    ASSERT(a.m.invol_switches > 0);  /* 5 SNTs on 3 cores: OS time slices */
}

int main(void)
{
    RUN(test_work_time_rounding);
    RUN(test_cost_ratio_line);
    RUN(test_cost_ratio_penalty);
    RUN(test_transfer_rates);
    RUN(test_rated_rate_change);
    RUN(test_rated_far_end);
    RUN(test_rated_replanned_far_end);
    RUN(test_rated_preemption);
    RUN(test_rated_cut);
    RUN(test_counter_alone);
    RUN(test_counter_shared_two);
    RUN(test_counter_deterministic);
    TEST_DONE();
}
