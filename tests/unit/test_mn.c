/* test_mn.c - the M:N scheduler: the size of the SNT pool (exact and
 * minus_one caps, mn_main), the global run queue with no preemption
 * between Ractors, timeslicing within a Ractor by coroutine switches,
 * blocking regions pinning an SNT and the timer's top-up, the queue
 * park/wake path without kernel wakes, and deadlock reports. */
#include "sim_fixture.h"
#include "test.h"

/* Ops, the test machine and fx_run: tests/unit/sim_fixture.h. */
static struct scn_op join_op[1];
static struct scn_thread main_join;

/* A scenario: the main Ractor (its thread joins, or `main_threads`), then
 * `nw` worker Ractors each made of `wthreads` (nwt templates), on the test
 * machine with a 300 ns coroutine switch. */
static struct scenario make(int cores, struct scn_thread *main_threads, int nmt, int nw,
                            struct scn_thread *wthreads, int nwt)
{
    static struct scn_ractor r[2];
    join_op[0] = fx_join();
    main_join = (struct scn_thread){ "main", 1, { join_op, 1 }, 0, false };
    r[0] = (struct scn_ractor){ "main", 1, main_threads ? main_threads : &main_join,
                                main_threads ? nmt : 1 };
    r[1] = (struct scn_ractor){ "w", nw, wthreads, nwt };
    struct scenario s = fx_scenario(cores, GVL_POLICY_EAGER, r, nw > 0 ? 2 : 1);
    s.machine.coroutine_switch = 300 * SIM_NS;
    return s;
}

/* Per-thread observables (first 16 threads). */
struct mn_obs {
    sim_time end[16];        /* when each thread ended */
    sim_time wants_snt[16];
};

static void mn_inspect(struct vm *vm, void *ctx)
{
    struct mn_obs *o = ctx;
    for (int i = 0; i < vm->nthreads && i < 16; i++) {
        o->end[i] = vm->threads[i].ts_since;
        o->wants_snt[i] = fx_state_time(vm, i, TS_WANTS_SNT);
    }
}

/* Simulate `s`; `o` (may be NULL) receives the per-thread observables. */
static struct fx_result simulate(struct scenario *s, struct mn_obs *o)
{
    struct fx_result r;
    struct fx_hooks h = { NULL, mn_inspect, o };
    if (o) memset(o, 0, sizeof *o);
    fx_run(s, o ? &h : NULL, &r);
    return r;
}

/* ---- tests -------------------------------------------------------------- */

/* native_thread_check_and_create_shared: one SNT per Ractor up to
 * max_cpu (exact) or max_cpu - 1 (3.3/3.4); native_threads = the main
 * thread's DNT + SNTs + the timer. */
static void test_pool_size(void)
{
    static struct scn_op w[1];
    w[0] = fx_compute(1 * SIM_MS);
    struct scn_thread wt = { "t", 1, { w, 1 }, 0, false };
    struct { int nw, max_cpu; enum scn_snt_cap cap; bool mn_main; int snt; } cases[] = {
        { 1, 8, SNT_CAP_EXACT, false, 1 },
        { 8, 8, SNT_CAP_EXACT, false, 8 },
        { 8, 8, SNT_CAP_MINUS_ONE, false, 7 },
        { 8, 12, SNT_CAP_MINUS_ONE, false, 8 },
        { 12, 8, SNT_CAP_EXACT, false, 8 },
        { 3, 1, SNT_CAP_EXACT, false, 1 },
        { 8, 8, SNT_CAP_MINUS_ONE, true, 8 },   /* no discount: the main Ractor is M:N too */
        { 8, 12, SNT_CAP_EXACT, true, 8 },      /* the main thread keeps its DNT */
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct scenario s = make(16, NULL, 0, cases[i].nw, &wt, 1);
        s.runtime.max_cpu = cases[i].max_cpu;
        s.runtime.snt_cap = cases[i].cap;
        s.runtime.mn_main = cases[i].mn_main;
        struct fx_result r = simulate(&s, NULL);
        ASSERT_EQ(r.rc, GV_OK);
        ASSERT_EQ(r.m.native_threads, 1 + cases[i].snt + 1);
    }
    /* max_cpu = 1 with minus_one: no SNT at all, the workers never run
     * while the timer ticks on (the RUBY_MAX_CPU=1 hang of Bug #20146) */
    struct scenario s = make(4, NULL, 0, 2, &wt, 1);
    s.runtime.max_cpu = 1;
    s.runtime.snt_cap = SNT_CAP_MINUS_ONE;
    s.stop_time = 1 * SIM_S;
    struct mn_obs o;
    struct fx_result r = simulate(&s, &o);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.native_threads, 2);
    ASSERT_EQ(o.wants_snt[1], 1 * SIM_S);
    ASSERT_EQ(o.wants_snt[2], 1 * SIM_S);
    ASSERT(r.m.timer_ticks >= 99 && r.m.timer_ticks <= 100);
}

/* Three CPU-bound Ractors, two SNTs, four cores: the third waits in the
 * grq although two cores are idle (no preemption between Ractors), and
 * runs on the first SNT to become free. */
static void test_grq_no_preemption(void)
{
    static struct scn_op w[1];
    w[0] = fx_compute(10 * SIM_MS);
    struct scn_thread wt = { "t", 1, { w, 1 }, 0, false };
    struct scenario s = make(4, NULL, 0, 3, &wt, 1);
    s.runtime.max_cpu = 2;
    struct mn_obs o;
    struct fx_result r = simulate(&s, &o);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.native_threads, 4);
    /* threads 1, 2 run at once; 3 after them */
    ASSERT(o.end[1] > 10 * SIM_MS && o.end[1] < 10 * SIM_MS + 50 * SIM_US);
    ASSERT(o.end[2] > 10 * SIM_MS && o.end[2] < 10 * SIM_MS + 50 * SIM_US);
    ASSERT(o.end[3] > 20 * SIM_MS && o.end[3] < 20 * SIM_MS + 50 * SIM_US);
    ASSERT(o.wants_snt[3] > 10 * SIM_MS - 10 * SIM_US && o.wants_snt[3] < 10 * SIM_MS + 50 * SIM_US);
    ASSERT(o.wants_snt[1] < 50 * SIM_US);
    /* the free SNT took the queued Ractor without sleeping: no wake-up
     * but the joiner's */
    ASSERT_EQ(r.m.wakeups, 1);
}

/* Two CPU-bound threads in one Ractor share its SNT by 100 ms quanta:
 * each switch is a coroutine switch on the same NT (no futex wake, no
 * kernel switch), unlike the 1:1 main Ractor. */
static void test_timeslice_by_coroutine(void)
{
    static struct scn_op w[1];
    w[0] = fx_compute(300 * SIM_MS);
    struct scn_thread wt = { "t", 2, { w, 1 }, 0, false };
    struct scenario s = make(4, NULL, 0, 1, &wt, 1);
    struct fx_result r = simulate(&s, NULL);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT(r.m.wall > 600 * SIM_MS && r.m.wall < 601 * SIM_MS);
    ASSERT(r.m.gvl_handoffs >= 5 && r.m.gvl_handoffs <= 6);
    ASSERT_EQ(r.m.wakeups, 1);            /* the joiner only */
    ASSERT_EQ(r.m.native_threads, 3);     /* main, one SNT, timer */
    /* voluntary switches: the timer's sleeps and the main thread's join,
     * none for the hand-offs */
    ASSERT(r.m.vol_switches <= r.m.timer_ticks + 4);

    /* the same two threads in the main Ractor: kernel wakes per hand-off */
    struct scenario d = make(4, &wt, 1, 0, NULL, 0);
    struct fx_result rd = simulate(&d, NULL);
    ASSERT_EQ(rd.rc, GV_OK);
    ASSERT(rd.m.wakeups >= rd.m.gvl_handoffs);
}

/* A blocking region pins the SNT; the Ractor's other thread needs another
 * SNT, which the next timer timeout creates (the top-up); the pinned one
 * comes back to the pool after the call. */
static void test_blocking_pins_snt(void)
{
    static struct scn_op io[2], cpu[1];
    io[0] = fx_syscall(100 * SIM_MS, true);
    io[1] = fx_compute(1 * SIM_MS);
    cpu[0] = fx_compute(50 * SIM_MS);
    struct scn_thread wt[2] = { { "io", 1, { io, 2 }, 0, false }, { "cpu", 1, { cpu, 1 }, 0, false } };
    struct scenario s = make(4, NULL, 0, 1, wt, 2);
    struct mn_obs o;
    struct fx_result r = simulate(&s, &o);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.native_threads, 4);        /* main, 2 SNTs, timer */
    /* cpu waited for the timer's first tick (10 ms) */
    ASSERT(o.wants_snt[2] > 9 * SIM_MS && o.wants_snt[2] < 11 * SIM_MS);
    ASSERT(o.end[2] > 60 * SIM_MS && o.end[2] < 61 * SIM_MS);
    ASSERT(r.m.wall > 101 * SIM_MS && r.m.wall < 102 * SIM_MS);
    ASSERT(r.m.timer_ticks >= 1);
}

/* Queue ping-pong between two threads of one M:N Ractor: every hand-off
 * is a direct coroutine switch (no futex wake, no cross-core wake-up). */
static void test_queue_pingpong_on_snt(void)
{
    static struct scn_op ab[2], bb[3], a[1], b[1];
    ab[0] = fx_queue(OP_QUEUE_PUSH, 0);
    ab[1] = fx_queue(OP_QUEUE_POP, 1);
    bb[0] = fx_queue(OP_QUEUE_POP, 0);
    bb[1] = fx_compute(1 * SIM_US);
    bb[2] = fx_queue(OP_QUEUE_PUSH, 1);
    static struct scn_prog ap = { ab, 2 }, bp = { bb, 3 };
    a[0] = fx_loop(1000, &ap, true);
    b[0] = fx_loop(1000, &bp, false);
    struct scn_thread wt[2] = { { "a", 1, { a, 1 }, 0, false }, { "b", 1, { b, 1 }, 0, false } };
    struct scn_queue q[2] = { { "ping", 0 }, { "pong", 0 } };
    struct scenario s = make(4, NULL, 0, 1, wt, 2);
    s.queues = q;
    s.nqueues = 2;
    struct fx_result r = simulate(&s, NULL);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.ops, 1000);
    ASSERT(r.m.wakeups <= 2);
    ASSERT(r.m.gvl_handoffs >= 1999);
    /* per round trip: 1 us of work + two coroutine switches (0.6 us) */
    double per = (double)r.m.wall / 1000.0 / (double)SIM_US;
    ASSERT(per > 1.5 && per < 1.8);

    /* the same with RUBY_MN_THREADS=1 in the main Ractor */
    struct scn_thread mt[3] = { { "main", 1, { join_op, 1 }, 0, false }, wt[0], wt[1] };
    struct scenario m = make(4, mt, 3, 0, NULL, 0);
    m.ractors[0].threads = mt;
    m.queues = q;
    m.nqueues = 2;
    m.runtime.mn_main = true;
    struct fx_result rm = simulate(&m, NULL);
    ASSERT_EQ(rm.rc, GV_OK);
    ASSERT_EQ(rm.m.ops, 1000);
    ASSERT(rm.m.wakeups <= 3);
    ASSERT_EQ(rm.m.native_threads, 3);  /* main DNT, one SNT, timer */
    ASSERT_EQ(rm.thread_vcsw, 2);       /* the main thread: start, join */
}

/* A Ractor whose thread waits forever: reported with its state. */
static void test_deadlock_in_ractor(void)
{
    static struct scn_op w[1];
    w[0] = fx_at(fx_queue(OP_QUEUE_POP, 0), "/ractors/1/threads/0/program/0", 9);
    struct scn_thread wt = { "t", 1, { w, 1 }, 0, false };
    struct scn_queue q = { "never", 0 };
    struct scenario s = make(2, NULL, 0, 2, &wt, 1);
    s.queues = &q;
    s.nqueues = 1;
    struct fx_result r = simulate(&s, NULL);
    ASSERT_EQ(r.rc, GV_ERUN);
    ASSERT_CONTAINS(r.err, "deadlock");
    ASSERT_CONTAINS(r.err, "thread w#1/t: parked in queue_pop on queue \"never\"");
}

int main(void)
{
    RUN(test_pool_size);
    RUN(test_grq_no_preemption);
    RUN(test_timeslice_by_coroutine);
    RUN(test_blocking_pins_snt);
    RUN(test_queue_pingpong_on_snt);
    RUN(test_deadlock_in_ractor);
    TEST_DONE();
}
