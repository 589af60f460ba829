/* test_exec.c - the real executor on small scenarios built in C.
 *
 * Only facts that do not depend on timing are asserted: every op executed
 * exactly once, the GVL never held by two threads, barriers and joins
 * counted, switches recorded, the CSV row well-formed, the affinity error,
 * deadlock and watchdog reports.  Timings belong in `make bench`.
 * The busy loop is calibrated once and reused by every run. */
#include <sched.h>
#include <string.h>

#include "../../common/err.h"
#include "../../core/heap.h"
#include "../../exec/exec.h"
#include "../../input/load.h"
#include "../../exec/exec_work.h"
#include "../../output/csv.h"
#include "test.h"

static struct exec_calibration calib;

/* ---- scenario building ---------------------------------------------------- */

static struct scn_op op_compute_us(int us)
{
    struct scn_op o;
    memset(&o, 0, sizeof o);
    o.kind = OP_COMPUTE;
    o.path = "/compute";
    o.u.compute.dur.a = (sim_time)us * SIM_US;
    return o;
}

static struct scn_op op_insns(uint64_t n)
{
    struct scn_op o;
    memset(&o, 0, sizeof o);
    o.kind = OP_COMPUTE;
    o.path = "/insns";
    o.u.compute.has_insns = true;
    o.u.compute.insns = n;
    return o;
}

static struct scn_op op_syscall(enum scn_syscall_call call, int us, bool releases)
{
    struct scn_op o;
    memset(&o, 0, sizeof o);
    o.kind = OP_SYSCALL;
    o.path = "/syscall";
    o.u.syscall.call = call;
    o.u.syscall.dur.a = (sim_time)us * SIM_US;
    o.u.syscall.releases_gvl = releases;
    return o;
}

static struct scn_op op_queue(enum scn_op_kind k, int q)
{
    struct scn_op o;
    memset(&o, 0, sizeof o);
    o.kind = k;
    o.path = k == OP_QUEUE_POP ? "/ractors/0/threads/0/program/0" : "/push";
    o.line = 7;
    o.u.queue.queue = q;
    return o;
}

static struct scn_op op_simple(enum scn_op_kind k)
{
    struct scn_op o;
    memset(&o, 0, sizeof o);
    o.kind = k;
    o.path = "/op";
    return o;
}

static struct scn_op op_escape(int iseq)
{
    struct scn_op o = op_simple(OP_ENV_ESCAPE);
    o.u.env_escape.iseq = iseq;
    return o;
}

static struct scn_op op_loop(uint64_t times, struct scn_prog *body, bool measure)
{
    struct scn_op o;
    memset(&o, 0, sizeof o);
    o.kind = OP_LOOP;
    o.path = "/loop";
    o.u.loop.mode = times ? LOOP_TIMES : LOOP_FOREVER;
    o.u.loop.times = times;
    o.u.loop.measure = measure;
    o.u.loop.body = body;
    return o;
}

static struct scn_op op_loop_total(uint64_t total, struct scn_prog *body)
{
    struct scn_op o = op_loop(total, body, true);
    o.u.loop.mode = LOOP_TIMES_TOTAL;
    return o;
}

static struct scenario make_scenario(int cores, struct scn_ractor *ractors, int nractors)
{
    struct scenario s;
    memset(&s, 0, sizeof s);
    s.file = "test.json";
    s.name = "test";
    s.seed = 1;
    s.machine.name = "test";
    s.machine.cores = cores;
    s.runtime.gvl_policy = GVL_POLICY_EAGER;
    s.runtime.quantum = 100 * SIM_MS;
    s.runtime.timer_tick = 10 * SIM_MS;
    s.runtime.threshold = 100 * SIM_US;
    s.runtime.gc_heap_init_slots = 10000;  /* the loader's defaults (an env_escape allocates) */
    s.runtime.gc_heap_growth_factor = 1.8;
    s.ractors = ractors;
    s.nractors = nractors;
    for (int i = 0; i < nractors; i++) {
        s.total_ractors += ractors[i].count;
        for (int j = 0; j < ractors[i].nthreads; j++)
            s.total_threads += ractors[i].count * ractors[i].threads[j].count;
    }
    return s;
}

static int host_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    return CPU_COUNT(&set);
}

struct result {
    int rc;
    char err[8192];
    struct exec_report rep;
};

static void run(const struct scenario *s, double timeout, struct result *r)
{
    memset(r, 0, sizeof *r);
    struct exec_opts o = { .timeout_s = timeout, .stat_path = "/", .calibration = &calib };
    r->rc = exec_run(s, &o, &r->rep, r->err, sizeof r->err);
    if (r->rc != GV_OK && timeout >= 30) fprintf(stderr, "unexpected failure: %s\n", r->err);
}

static void done(struct result *r)
{
    exec_report_free(&r->rep);
}

/* ---- tests ------------------------------------------------------------------ */

static void test_calibration(void)
{
    char err[512];
    struct exec_calibration c;
    /* an impossible limit: refused, loudly, with the numbers */
    ASSERT_EQ(exec_calibrate(&c, -1.0, err, sizeof err), GV_ERUN);
    ASSERT_CONTAINS(err, "busy-loop calibration is unstable");
    ASSERT_CONTAINS(err, "--max-spread PCT accepts more");
    ASSERT_CONTAINS(err, "ps/iteration");
    ASSERT_EQ(c.attempts, 5);
    /* any spread accepted (valgrind and loaded CI hosts are noisy): the
     * tests below only need some calibration */
    ASSERT_EQ(exec_calibrate(&c, 1e9, err, sizeof err), GV_OK);
    ASSERT(c.ps_per_iter > 0);
    ASSERT(c.min_ps <= c.ps_per_iter && c.ps_per_iter <= c.max_ps);
    ASSERT(c.samples >= 10);
    ASSERT_EQ(c.attempts, 1);
    calib = c;
}

/* Two threads share syscalls and computes under every policy: every op
 * runs exactly once, the GVL is never held twice, the books balance. */
static void test_every_op_once_every_policy(void)
{
    static struct scn_op body[3];
    body[0] = op_compute_us(2);
    body[1] = op_syscall(CALL_STAT, 1, true);
    body[2] = op_syscall(CALL_GETPID, 1, false);
    static struct scn_prog bp = { body, 3 };
    struct scn_op wops[] = { op_loop_total(3001, &bp) };
    struct scn_op mops[] = { op_simple(OP_JOIN) };
    struct scn_thread th[] = { { "main", 1, { mops, 1 }, 0, false }, { "worker", 3, { wops, 1 }, 0, false } };
    struct scn_ractor r = { "main", 1, th, 2 };
    for (int p = 0; p < GVL_POLICY_COUNT; p++) {
        for (int cores = 1; cores <= (host_cpus() >= 2 ? 2 : 1); cores++) {
            struct scenario s = make_scenario(cores, &r, 1);
            s.runtime.gvl_policy = (enum scn_gvl_policy)p;
            struct result res;
            run(&s, 60, &res);
            ASSERT_EQ(res.rc, GV_OK);
            ASSERT_EQ(res.rep.m.ops, 3001);
            ASSERT_EQ(res.rep.m.syscalls, 2 * 3001);
            ASSERT_EQ(res.rep.gvl_violations, 0);
            ASSERT_EQ(res.rep.m.threads, 4);
            ASSERT_STREQ(res.rep.m.backend, "pthread");
            ASSERT_STREQ(res.rep.m.engine, "pthread");
            ASSERT_STREQ(res.rep.m.policy, scn_policy_name((enum scn_gvl_policy)p));
            ASSERT(res.rep.m.wall > 0);
            /* the joiner parked: its time, and some thread switched
             * voluntarily (not necessarily the joiner: its futex wait
             * returns at once when the last worker ended in between) */
            ASSERT(res.rep.m.vol_switches >= 1);
            ASSERT(res.rep.m.state_time[TS_PARKED] > 0);
            ASSERT(res.rep.m.state_time[TS_RUNNING] > 0);
            ASSERT_EQ(res.rep.m.native_threads,
                      4 + (p != GVL_POLICY_BARGING) + (p == GVL_POLICY_THRESHOLD));
            done(&res);
        }
    }
}

/* A queue ping-pong of n messages: main pops and computes 1 us, the
 * worker pushes and writes /dev/null (the GVL released around it). */
struct pingpong {
    struct scn_op pbody[2], cbody[2], pops[1], pushes[1];
    struct scn_prog pp, cp;
    struct scn_thread th[2];
    struct scn_ractor r;
    struct scn_queue q;
};

static void pingpong_init(struct pingpong *g, int n)
{
    g->pbody[0] = op_queue(OP_QUEUE_PUSH, 0);
    g->pbody[1] = op_syscall(CALL_WRITE_DEVNULL, 0, true);
    g->cbody[0] = op_queue(OP_QUEUE_POP, 0);
    g->cbody[1] = op_compute_us(1);
    g->pp = (struct scn_prog){ g->pbody, 2 };
    g->cp = (struct scn_prog){ g->cbody, 2 };
    g->pops[0] = op_loop(n, &g->cp, true);
    g->pushes[0] = op_loop(n, &g->pp, false);
    g->th[0] = (struct scn_thread){ "main", 1, { g->pops, 1 }, 0, false };
    g->th[1] = (struct scn_thread){ "worker", 1, { g->pushes, 1 }, 0, false };
    g->r = (struct scn_ractor){ "main", 1, g->th, 2 };
    g->q = (struct scn_queue){ "q", 0 };
}

/* Queue ping-pong: every message popped once, the popper parks. */
static void test_queue_pingpong(void)
{
    static struct pingpong g;
    pingpong_init(&g, 2000);
    for (int p = 0; p < GVL_POLICY_COUNT; p++) {
        struct scenario s = make_scenario(1, &g.r, 1);
        s.queues = &g.q;
        s.nqueues = 1;
        s.runtime.gvl_policy = (enum scn_gvl_policy)p;
        struct result res;
        run(&s, 60, &res);
        ASSERT_EQ(res.rc, GV_OK);
        ASSERT_EQ(res.rep.m.ops, 2000);
        ASSERT_EQ(res.rep.m.syscalls, 2000);
        ASSERT_EQ(res.rep.gvl_violations, 0);
        ASSERT(res.rep.m.vol_switches > 0);
        ASSERT(res.rep.m.wakeups > 0);
        done(&res);
    }
}

/* --trace's record (exec_opts.trace_max_events): the ping-pong under
 * every policy, its state changes in time order, each thread's intervals
 * summing to exactly the state times of the row; a small pool cut, its
 * record ending at the cut. */
static void test_state_record(void)
{
    static struct pingpong g;
    pingpong_init(&g, 500);
    for (int p = 0; p <= GVL_POLICY_COUNT; p++) {
        bool small = p == GVL_POLICY_COUNT;  /* last: eager again, a pool of 64 */
        struct scenario s = make_scenario(host_cpus() >= 2 ? 2 : 1, &g.r, 1);
        s.queues = &g.q;
        s.nqueues = 1;
        s.runtime.gvl_policy = small ? GVL_POLICY_EAGER : (enum scn_gvl_policy)p;
        struct result res;
        memset(&res, 0, sizeof res);
        struct exec_opts o = { .timeout_s = 60, .stat_path = "/", .calibration = &calib,
                               .trace_max_events = small ? 64 : 100000 };
        res.rc = exec_run(&s, &o, &res.rep, res.err, sizeof res.err);
        ASSERT_EQ(res.rc, GV_OK);
        const struct exec_trace *x = &res.rep.trace;
        ASSERT_EQ(x->nthreads, 2);
        ASSERT_STREQ(x->thread_names[0], "main");
        ASSERT_STREQ(x->thread_names[1], "worker");
        ASSERT(x->nstates > 0);
        if (small) {
            ASSERT(x->cut_ns < x->end_ns && x->dropped > 0);
            ASSERT(x->nstates <= 64);
        } else {
            ASSERT_EQ(x->cut_ns, INT64_MAX);
            ASSERT_EQ(x->dropped, 0);
        }
        int64_t sum[TS_COUNT] = { 0 }, since[2] = { 0, 0 };
        int cur[2] = { TS_COUNT, TS_COUNT };
        for (size_t k = 0; k < x->nstates; k++) {
            const struct exec_tlog_entry *e = &x->states[k];
            ASSERT(e->thread < 2);
            ASSERT(k == 0 || e->t_ns >= x->states[k - 1].t_ns);
            ASSERT(e->t_ns <= x->cut_ns);
            if (cur[e->thread] < TS_COUNT) sum[cur[e->thread]] += e->t_ns - since[e->thread];
            cur[e->thread] = e->to;
            since[e->thread] = e->t_ns;
        }
        if (!small) {
            ASSERT_EQ(cur[0], TS_COUNT);  /* both ended */
            ASSERT_EQ(cur[1], TS_COUNT);
            for (int st = 0; st < TS_COUNT; st++) ASSERT_EQ(sum[st] * 1000, res.rep.m.state_time[st]);
        }
        done(&res);
    }
}

/* A queue with items at the start and several poppers: each item once. */
static void test_queue_initial_items(void)
{
    static struct scn_op cbody[1];
    cbody[0] = op_queue(OP_QUEUE_POP, 0);
    static struct scn_prog cp = { cbody, 1 };
    struct scn_op pops[] = { op_loop_total(300, &cp) };
    struct scn_thread th[] = { { "popper", 3, { pops, 1 }, 0, false } };
    struct scn_ractor r = { "main", 1, th, 1 };
    struct scn_queue q = { "q", 300 };
    struct scenario s = make_scenario(1, &r, 1);
    s.queues = &q;
    s.nqueues = 1;
    struct result res;
    run(&s, 60, &res);
    ASSERT_EQ(res.rc, GV_OK);
    ASSERT_EQ(res.rep.m.ops, 300);
    done(&res);
}

/* Two CPU-bound threads: the timer ticks while one waits, the GVL moves. */
static void test_quantum_ticks(void)
{
    struct scn_op ops[] = { op_compute_us(30000) };
    struct scn_thread th[] = { { "cpu", 2, { ops, 1 }, 0, false } };
    struct scn_ractor r = { "main", 1, th, 1 };
    for (int p = 0; p < GVL_POLICY_COUNT; p++) {
        struct scenario s = make_scenario(1, &r, 1);
        s.runtime.gvl_policy = (enum scn_gvl_policy)p;
        s.runtime.quantum = 5 * SIM_MS;
        s.runtime.timer_tick = 1 * SIM_MS;
        struct result res;
        run(&s, 60, &res);
        ASSERT_EQ(res.rc, GV_OK);
        ASSERT(res.rep.m.timer_ticks >= 1);
        ASSERT(res.rep.m.gvl_handoffs >= 1);
        ASSERT_EQ(res.rep.gvl_violations, 0);
        ASSERT(res.rep.m.state_time[TS_WANTS_GVL] > 0);
        done(&res);
    }
}

/* The timer thread's counts (thread_pthread.c timer_thread_func): A holds
 * the GVL for 60 ms; B, started at 20 ms, queues behind it, which puts A
 * in the timeslice set: one eventfd wake-up (a condvar signal here) of a
 * timer asleep without a timeout, then 10 ms timed waits and ticks until
 * A is done.  Skipped under valgrind (scripts/valgrind.sh), which runs one
 * thread at a time: B may not queue before A's 60 ms are over. */
static void test_timer_counts(void)
{
    if (getenv("GVLSIM_UNDER_VALGRIND")) return;
    struct scn_op a_ops[] = { op_compute_us(60000) };
    struct scn_op b_ops[] = { op_compute_us(1000) };
    struct scn_thread th[] = { { "a", 1, { a_ops, 1 }, 0, false },
                               { "b", 1, { b_ops, 1 }, 20 * SIM_MS, false } };
    struct scn_ractor r = { "main", 1, th, 2 };
    struct scenario s = make_scenario(host_cpus() >= 2 ? 2 : 1, &r, 1);
    s.runtime.quantum = 1 * SIM_S;  /* no switch on time, even on a loaded host */
    /* On a loaded host the timer thread may not be asleep yet when B
     * queues (no wake-up to count): up to three attempts, each with at
     * most one wake-up, one of them with exactly one. */
    bool woken = false;
    for (int attempt = 0; attempt < 3 && !woken; attempt++) {
        struct result res;
        run(&s, 60, &res);
        ASSERT_EQ(res.rc, GV_OK);
        ASSERT_EQ(res.rep.m.gvl_handoffs, 1);
        ASSERT(res.rep.m.timer_wakes <= 1);
        ASSERT(res.rep.m.timer_timed_waits >= 1);
        ASSERT(res.rep.m.timer_ticks >= 2 && res.rep.m.timer_ticks <= res.rep.m.timer_timed_waits + 1);
        woken = res.rep.m.timer_wakes == 1;
        done(&res);
    }
    ASSERT(woken);
}

/* Sleeps and io_wait calls release the GVL under every policy. */
static void test_sleep_and_io_wait(void)
{
    static struct scn_op body[2];
    body[0] = op_simple(OP_SLEEP);
    body[0].u.sleep.dur.a = 200 * SIM_US;
    body[1] = op_syscall(CALL_NANOSLEEP, 100, true);
    body[1].u.syscall.io_wait = true;
    static struct scn_prog bp = { body, 2 };
    struct scn_op ops[] = { op_loop(20, &bp, true) };
    struct scn_thread th[] = { { "io", 2, { ops, 1 }, 0, false } };
    struct scn_ractor r = { "main", 1, th, 1 };
    for (int p = 0; p < GVL_POLICY_COUNT; p++) {
        struct scenario s = make_scenario(1, &r, 1);
        s.runtime.gvl_policy = (enum scn_gvl_policy)p;
        struct result res;
        run(&s, 60, &res);
        ASSERT_EQ(res.rc, GV_OK);
        ASSERT_EQ(res.rep.m.ops, 40);
        ASSERT_EQ(res.rep.m.syscalls, 40);
        ASSERT(res.rep.m.state_time[TS_SLEEPING] > 0);
        ASSERT(res.rep.m.state_time[TS_BLOCKING] > 0);
        ASSERT_EQ(res.rep.gvl_violations, 0);
        done(&res);
    }
}

/* A syscall's method_work is spun holding the GVL before the call, its
 * method_work_after after it, the GVL taken back: 50 calls with 200 us of
 * either run about 10 ms in state running (at least 3/4 of it: a busy host
 * only makes it longer), where the calls alone take 2.5 ms. */
static void syscall_work(bool after)
{
    struct scn_op ops[1];
    ops[0] = op_syscall(CALL_NANOSLEEP, 50, true);
    ops[0].u.syscall.io_wait = true;
    if (after) ops[0].u.syscall.method_work_after = 200 * SIM_US;
    else ops[0].u.syscall.method_work = 200 * SIM_US;
    static struct scn_prog bp;
    bp = (struct scn_prog){ ops, 1 };
    struct scn_op loop[] = { op_loop(50, &bp, false) };
    struct scn_thread th[] = { { "t", 1, { loop, 1 }, 0, false } };
    struct scn_ractor r = { "main", 1, th, 1 };
    struct scenario s = make_scenario(1, &r, 1);
    s.runtime.gvl_policy = GVL_POLICY_BARGING;
    struct result res;
    run(&s, 60, &res);
    ASSERT_EQ(res.rc, GV_OK);
    ASSERT_EQ(res.rep.m.syscalls, 50);
    ASSERT(res.rep.m.state_time[TS_RUNNING] > 0);
    /* The durations not under valgrind (scripts/valgrind.sh): there the
     * busy loop runs instrumented and its calibration (test_calibration)
     * need not hold for later spins; one CI run saw under 7.5 ms. */
    if (!getenv("GVLSIM_UNDER_VALGRIND")) {
        ASSERT(res.rep.m.state_time[TS_RUNNING] >= 50 * 200 * SIM_US * 3 / 4);
        ASSERT(res.rep.m.wall >= 50 * 250 * SIM_US * 3 / 4);
    }
    done(&res);
}

static void test_syscall_method_work(void)
{
    syscall_work(false);
}

static void test_syscall_method_work_after(void)
{
    syscall_work(true);
}

/* Two Ractors escaping environments: with lock_barrier every escape is a
 * barrier the other Ractor joins; with lockless only the first escape of
 * each iseq (per racing Ractor); with none, nothing. */
/* A Ractor that holds its GVL computing (a running thread) must join every
 * barrier another Ractor starts, whatever the timing: the escaping Ractor
 * first waits (queue pop) until the computing one has started.  Skipped
 * under valgrind (scripts/valgrind.sh), which runs one thread at a time
 * and can leave the escaping Ractor unscheduled until the stop time. */
static void test_barrier_joins_exact(void)
{
    if (getenv("GVLSIM_UNDER_VALGRIND")) return;
    static struct scn_op hold_body[1], hold_ops[2], esc_body[2], esc_ops[2];
    hold_body[0] = op_compute_us(2);
    static struct scn_prog hold_bp = { hold_body, 1 }, esc_bp = { esc_body, 2 };
    hold_ops[0] = op_queue(OP_QUEUE_PUSH, 0);
    hold_ops[1] = op_loop(0, &hold_bp, false);
    hold_ops[1].u.loop.mode = LOOP_FOREVER;
    esc_body[0] = op_escape(1);
    esc_body[1] = op_compute_us(1);
    esc_ops[0] = op_queue(OP_QUEUE_POP, 0);
    esc_ops[1] = op_loop(20, &esc_bp, true);
    struct scn_thread hold_th[] = { { "t", 1, { hold_ops, 2 }, 0, false } };
    struct scn_thread esc_th[] = { { "t", 1, { esc_ops, 2 }, 0, false } };
    struct scn_ractor r[] = { { "hold", 1, hold_th, 1 }, { "esc", 1, esc_th, 1 } };
    struct scn_queue q = { "started", 0 };
    struct scenario s = make_scenario(host_cpus() >= 2 ? 2 : 1, r, 2);
    s.queues = &q;
    s.nqueues = 1;
    s.stop_time = 1 * SIM_S;  /* the escapes take about a millisecond */
    s.runtime.invariant_check = INVARIANT_LOCK_BARRIER;
    struct result res;
    run(&s, 60, &res);
    ASSERT_EQ(res.rc, GV_OK);
    ASSERT_EQ(res.rep.m.ractor_ops[1], 20);
    ASSERT_EQ(res.rep.m.barriers, 20);
    ASSERT_EQ(res.rep.barrier_joins, 20);
    ASSERT_EQ(res.rep.gvl_violations, 0);
    done(&res);
}

static void test_barrier_counts(void)
{
    static struct scn_op body[2];
    body[0] = op_escape(3);
    body[1] = op_compute_us(5);
    static struct scn_prog bp = { body, 2 };
    struct scn_op ops[] = { op_loop(1500, &bp, true) };
    struct scn_thread th[] = { { "w", 1, { ops, 1 }, 0, false } };
    struct scn_ractor r = { "r", 2, th, 1 };
    for (int cores = 1; cores <= (host_cpus() >= 2 ? 2 : 1); cores++) {
        for (int inv = 0; inv < INVARIANT_COUNT; inv++) {
            for (int p = 0; p < GVL_POLICY_COUNT; p++) {
                struct scenario s = make_scenario(cores, &r, 1);
                s.runtime.invariant_check = (enum scn_invariant_check)inv;
                s.runtime.gvl_policy = (enum scn_gvl_policy)p;
                struct result res;
                run(&s, 60, &res);
                ASSERT_EQ(res.rc, GV_OK);
                ASSERT_EQ(res.rep.m.ops, 3000);
                ASSERT_EQ(res.rep.m.nractor_ops, 2);
                ASSERT_EQ(res.rep.m.ractor_ops[0], 1500);
                ASSERT_EQ(res.rep.m.ractor_ops[1], 1500);
                ASSERT_EQ(res.rep.gvl_violations, 0);
                if (inv == INVARIANT_LOCK_BARRIER) {
                    /* how many the other Ractor joins depends on whether it
                     * was running then (timing): test_barrier_joins_exact */
                    ASSERT_EQ(res.rep.m.barriers, 3000);
                    ASSERT(res.rep.barrier_joins <= 3000);
                    ASSERT(res.rep.m.vmlock_acquires >= 3000);
                    ASSERT(res.rep.m.state_time[TS_BARRIER_INIT] > 0);
                } else if (inv == INVARIANT_LOCKLESS) {
                    ASSERT(res.rep.m.barriers >= 1 && res.rep.m.barriers <= 2);
                } else {
                    ASSERT_EQ(res.rep.m.barriers, 0);
                    ASSERT_EQ(res.rep.barrier_joins, 0);
                    /* only the heap pages of each Ractor's 3000 objects */
                    ASSERT(res.rep.m.vmlock_acquires >= 2 * (3000 / CORE_HEAP_PAGE_SLOTS));
                    ASSERT(res.rep.m.vmlock_acquires <= 2 * (3000 / CORE_HEAP_PAGE_SLOTS + 1));
                }
                done(&res);
            }
        }
    }
}

/* With one Ractor the VM lock and the barrier are no-ops. */
static void test_single_ractor_no_barrier(void)
{
    static struct scn_op body[1];
    body[0] = op_escape(0);
    static struct scn_prog bp = { body, 1 };
    struct scn_op ops[] = { op_loop(100, &bp, true) };
    struct scn_thread th[] = { { "w", 2, { ops, 1 }, 0, false } };
    struct scn_ractor r = { "main", 1, th, 1 };
    struct scenario s = make_scenario(1, &r, 1);
    s.runtime.invariant_check = INVARIANT_LOCK_BARRIER;
    struct result res;
    run(&s, 60, &res);
    ASSERT_EQ(res.rc, GV_OK);
    ASSERT_EQ(res.rep.m.ops, 200);
    ASSERT_EQ(res.rep.m.barriers, 0);
    ASSERT_EQ(res.rep.m.vmlock_acquires, 0);
    done(&res);
}

/* The instruction counter: every instruction counted in the thread-local
 * variant's totals, none in the shared counter; the shared counter sees
 * at most every increment (plain increments may lose some). */
static void test_insn_counter(void)
{
    struct scn_op ops[] = { op_insns(2000000) };
    struct scn_thread th[] = { { "t", 1, { ops, 1 }, 0, false } };
    struct scn_ractor r = { "r", 2, th, 1 };
    for (int k = 0; k < COUNTER_COUNT; k++) {
        struct scenario s = make_scenario(host_cpus() >= 2 ? 2 : 1, &r, 1);
        s.runtime.insn_counter = (enum scn_insn_counter)k;
        struct result res;
        run(&s, 60, &res);
        ASSERT_EQ(res.rc, GV_OK);
        ASSERT_EQ(res.rep.insns, 4000000);
        ASSERT_STREQ(res.rep.m.insn_counter, scn_counter_name((enum scn_insn_counter)k));
        if (k == COUNTER_SHARED) {
            ASSERT(res.rep.shared_counter > 0);
            ASSERT(res.rep.shared_counter <= 4000000);
        } else {
            ASSERT_EQ(res.rep.shared_counter, 0);
        }
        done(&res);
    }
}

/* A pop nobody will satisfy: reported as a deadlock, quickly. */
static void test_deadlock_report(void)
{
    struct scn_op ops[] = { op_queue(OP_QUEUE_POP, 0) };
    struct scn_thread th[] = { { "main", 1, { ops, 1 }, 0, false } };
    struct scn_ractor r = { "main", 1, th, 1 };
    struct scn_queue q = { "jobs", 0 };
    for (int p = 0; p < GVL_POLICY_COUNT; p++) {
        struct scenario s = make_scenario(1, &r, 1);
        s.queues = &q;
        s.nqueues = 1;
        s.runtime.gvl_policy = (enum scn_gvl_policy)p;
        struct result res;
        run(&s, 20, &res);
        ASSERT_EQ(res.rc, GV_ERUN);
        ASSERT_CONTAINS(res.err, "deadlock");
        ASSERT_CONTAINS(res.err, "thread main: parked in queue_pop on queue \"jobs\" at "
                                 "/ractors/0/threads/0/program/0 (line 7)");
        done(&res);
    }
}

/* A pop nobody satisfies beside a thread that computes for days: not a
 * detectable deadlock; the watchdog stops it and says who waits on what. */
static void test_watchdog(void)
{
    static struct scn_op body[1];
    body[0] = op_compute_us(100);
    static struct scn_prog bp = { body, 1 };
    struct scn_op spin[] = { op_loop(UINT64_C(1000000000000), &bp, false) };
    struct scn_op pop[] = { op_queue(OP_QUEUE_POP, 0) };
    struct scn_thread th[] = { { "main", 1, { pop, 1 }, 0, false }, { "spinner", 1, { spin, 1 }, 0, false } };
    struct scn_ractor r = { "main", 1, th, 2 };
    struct scn_queue q = { "jobs", 0 };
    for (int p = 0; p < GVL_POLICY_COUNT; p++) {
        struct scenario s = make_scenario(1, &r, 1);
        s.queues = &q;
        s.nqueues = 1;
        s.runtime.gvl_policy = (enum scn_gvl_policy)p;
        struct result res;
        run(&s, 0.3, &res);
        ASSERT_EQ(res.rc, GV_ERUN);
        ASSERT_CONTAINS(res.err, "watchdog");
        ASSERT_CONTAINS(res.err, "thread main: parked in queue_pop on queue \"jobs\"");
        ASSERT_CONTAINS(res.err, "thread spinner: ");
        ASSERT(!strstr(res.err, "left running"));
        done(&res);
    }
}

/* A long Kernel#sleep is a timed condvar wait: the watchdog interrupts it
 * and the run's threads all come back (nothing left running). */
static void test_watchdog_interrupts_sleep(void)
{
    struct scn_op ops[] = { op_simple(OP_SLEEP) };
    ops[0].u.sleep.dur.a = 60 * SIM_S;
    struct scn_thread th[] = { { "sleeper", 2, { ops, 1 }, 0, false } };
    struct scn_ractor r = { "main", 1, th, 1 };
    for (int p = 0; p < GVL_POLICY_COUNT; p++) {
        struct scenario s = make_scenario(1, &r, 1);
        s.runtime.gvl_policy = (enum scn_gvl_policy)p;
        struct result res;
        run(&s, 0.2, &res);
        ASSERT_EQ(res.rc, GV_ERUN);
        ASSERT_CONTAINS(res.err, "watchdog");
        ASSERT_CONTAINS(res.err, "thread sleeper#0: sleeping at /op");
        ASSERT(!strstr(res.err, "left running"));
        done(&res);
    }
}

/* stop.time ends a forever loop and wakes a parked thread. */
static void test_stop_time(void)
{
    static struct scn_op body[2];
    body[0] = op_compute_us(50);
    body[1] = op_syscall(CALL_GETPID, 0, true);
    static struct scn_prog bp = { body, 2 };
    struct scn_op spin[] = { op_loop(0, &bp, true) };
    struct scn_op pop[] = { op_queue(OP_QUEUE_POP, 0) };
    struct scn_thread th[] = { { "main", 1, { pop, 1 }, 0, false }, { "w", 2, { spin, 1 }, 0, false } };
    struct scn_ractor r = { "main", 1, th, 2 };
    struct scn_queue q = { "q", 0 };
    for (int p = 0; p < GVL_POLICY_COUNT; p++) {
        struct scenario s = make_scenario(1, &r, 1);
        s.queues = &q;
        s.nqueues = 1;
        s.stop_time = 50 * SIM_MS;
        s.runtime.gvl_policy = (enum scn_gvl_policy)p;
        struct result res;
        run(&s, 60, &res);
        ASSERT_EQ(res.rc, GV_OK);
        ASSERT(res.rep.stopped_at_time);
        ASSERT(res.rep.m.ops > 0);
        ASSERT_EQ(res.rep.gvl_violations, 0);
        done(&res);
    }
}

/* More cores than the host has: a clear error naming both numbers. */
static void test_affinity_error(void)
{
    struct scn_op ops[] = { op_compute_us(1) };
    struct scn_thread th[] = { { "main", 1, { ops, 1 }, 0, false } };
    struct scn_ractor r = { "main", 1, th, 1 };
    int n = host_cpus();
    struct scenario s = make_scenario(n + 1, &r, 1);
    struct result res;
    run(&s, 10, &res);
    ASSERT_EQ(res.rc, GV_EINVAL);
    char want[128];
    snprintf(want, sizeof want, "machine.cores = %d, but this host lets gvlsim exec use only %d CPU",
             n + 1, n);
    ASSERT_CONTAINS(res.err, want);
    done(&res);
    /* and the calling thread's mask is left alone */
    ASSERT_EQ(host_cpus(), n);
}

/* Bad input never crashes: no threads, a queue index out of range. */
static void test_bad_input(void)
{
    struct scn_ractor r0 = { "main", 1, NULL, 0 };
    struct scenario s = make_scenario(1, &r0, 1);
    struct result res;
    run(&s, 10, &res);
    ASSERT_EQ(res.rc, GV_EINVAL);
    done(&res);

    struct scn_op ops[] = { op_queue(OP_QUEUE_PUSH, 5) };
    struct scn_thread th[] = { { "main", 1, { ops, 1 }, 0, false } };
    struct scn_ractor r = { "main", 1, th, 1 };
    s = make_scenario(1, &r, 1);
    run(&s, 10, &res);
    ASSERT_EQ(res.rc, GV_EINVAL);
    ASSERT_CONTAINS(res.err, "queue index 5 out of range");
    done(&res);
}

/* The CSV row of a real run has as many fields as the header. */
static void test_csv_row(void)
{
    struct scn_op ops[] = { op_compute_us(10) };
    struct scn_thread th[] = { { "main", 1, { ops, 1 }, 0, false } };
    struct scn_ractor r = { "main", 1, th, 1 };
    struct scenario s = make_scenario(1, &r, 1);
    struct result res;
    run(&s, 60, &res);
    ASSERT_EQ(res.rc, GV_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT(f != NULL);
    csv_write_header(f, &res.rep.m);
    csv_write_row(f, &res.rep.m, false);
    fclose(f);
    char *nl = strchr(buf, '\n');
    ASSERT(nl != NULL);
    int hdr = 1, row = 1;
    for (char *p = buf; p < nl; p++) hdr += *p == ',';
    for (char *p = nl + 1; *p && *p != '\n'; p++) row += *p == ',';
    ASSERT_EQ(hdr, row);
    ASSERT_CONTAINS(nl + 1, "test,pthread,pthread,eager,none,none,1,1,1,1,");
    /* line_transfers, native_threads (the thread and the timer thread),
     * gc_count, gc_clock_s (no GC: no window), mutex_waits, timeouts,
     * engine_events, host_s: what real hardware cannot show is an empty
     * cell, not 0 */
    ASSERT_CONTAINS(nl + 1, ",,2,0,0.000000000,0,0,,");
    free(buf);
    done(&res);
}

/* ---- the scenario language's ops (tests/data/lang) ---------------------------- */

/* A scenario file with --set values (NULL-terminated), run on real threads;
 * the metrics point into the scenario: lang_done frees both. */
struct lang_run {
    struct scenario s;
    struct result r;
};

static void lang_run(const char *file, const char *const *sets, struct lang_run *lr)
{
    int nsets = 0;
    while (sets && sets[nsets]) nsets++;
    struct load_opts lo = { .sets = sets, .nsets = nsets };
    struct diag_list d;
    diag_init(&d);
    int rc = scn_load(file, &lo, &lr->s, &d);
    for (size_t i = 0; i < d.n; i++) fprintf(stderr, "%s\n", d.msgs[i]);
    diag_free(&d);
    ASSERT_EQ(rc, GV_OK);
    run(&lr->s, 29, &lr->r);  /* quiet: some of these runs fail on purpose */
}

static void lang_done(struct lang_run *lr)
{
    done(&lr->r);
    scenario_free(&lr->s);
}

#define LANG_RUN(file, lr, ...) lang_run("tests/data/lang/" file, (const char *const[]){ __VA_ARGS__, NULL }, lr)

static const struct run_measure *lang_measure(const struct lang_run *lr, const char *name)
{
    for (int i = 0; i < lr->r.rep.m.nmeasures; i++)
        if (!strcmp(lr->r.rep.m.measures[i].name, name)) return &lr->r.rep.m.measures[i];
    ASSERT(!"no such measure");
    return NULL;
}

/* Mutex sections and a ConditionVariable hand-off under every policy:
 * every section and every item exactly once, the GVL never held twice. */
static void test_mutex_and_condvar(void)
{
    const char *const pol[] = { "runtime.gvl_policy=eager", "runtime.gvl_policy=hot_steal",
                                "runtime.gvl_policy=delayed", "runtime.gvl_policy=threshold",
                                "runtime.gvl_policy=barging" };
    for (int p = 0; p < 5; p++) {
        struct lang_run lr;
        LANG_RUN("mutex_counter.json", &lr, pol[p]);
        ASSERT_EQ(lr.r.rc, GV_OK);
        ASSERT_EQ(lr.r.rep.m.ops, 4 * 500);
        ASSERT_EQ(lr.r.rep.m.threads, 5);
        ASSERT_EQ(lr.r.rep.gvl_violations, 0);
        lang_done(&lr);
        LANG_RUN("cv_handoff.json", &lr, pol[p]);
        ASSERT_EQ(lr.r.rc, GV_OK);
        ASSERT_EQ(lr.r.rep.m.ops, 300);
        ASSERT_EQ(lr.r.rep.gvl_violations, 0);
        lang_done(&lr);
    }
}

/* Queue#pop(timeout:): items delivered with the timeout armed; every pop
 * times out when nobody pushes (timeout 0: at once). */
static void test_timed_pop(void)
{
    struct lang_run lr;
    LANG_RUN("timed_pop.json", &lr, "ractors.0.threads.1.program.0.body.0.timeout=1s");
    ASSERT_EQ(lr.r.rc, GV_OK);
    ASSERT_EQ(lr.r.rep.m.ops, 100);
    ASSERT_EQ(lr.r.rep.m.timeouts, 0);
    lang_done(&lr);
    LANG_RUN("timed_pop.json", &lr, "ractors.0.threads.0.program.0.times=0",
             "ractors.0.threads.1.program.0.body.0.timeout=50us");
    ASSERT_EQ(lr.r.rc, GV_OK);
    ASSERT_EQ(lr.r.rep.m.ops, 100);
    ASSERT_EQ(lr.r.rep.m.timeouts, 100);
    lang_done(&lr);
    LANG_RUN("timed_pop.json", &lr, "ractors.0.threads.0.program.0.times=0",
             "ractors.0.threads.1.program.0.body.0.timeout=0");
    ASSERT_EQ(lr.r.rep.m.timeouts, 100);
    lang_done(&lr);
}

/* barging: the popper, the process's first native sleeper, holds the
 * signal self-pipe and sleeps in ppoll on an eventfd, woken by the
 * pusher's write to it (exec_gvl32_park, exec_gvl32_ready): every item
 * delivered, the GVL never held twice, its wakes counted. */
static void test_barging_ppoll_park(void)
{
    struct lang_run lr;
    LANG_RUN("timed_pop.json", &lr, "runtime.gvl_policy=barging");
    ASSERT_EQ(lr.r.rc, GV_OK);
    ASSERT_EQ(lr.r.rep.m.ops, 100);
    ASSERT_EQ(lr.r.rep.gvl_violations, 0);
    ASSERT(lr.r.rep.m.wakeups > 0);
    lang_done(&lr);
}

/* A generator delivers its count; spawn starts slots; a template joined
 * instance by instance; the GC decides as the simulator's heap does. */
static void test_generator_spawn_gc(void)
{
    struct lang_run lr;
    LANG_RUN("generator.json", &lr, "warmup=0s");
    ASSERT_EQ(lr.r.rc, GV_OK);
    const struct run_measure *m = lang_measure(&lr, "served");
    ASSERT_EQ(m->count, 200);
    ASSERT(m->p50 >= 300 * SIM_US && m->p50 <= m->p99 && m->p99 <= m->max);
    ASSERT_EQ(lr.r.rep.m.threads, 4);
    lang_done(&lr);
    LANG_RUN("spawn_pool.json", &lr, "seed=1");
    ASSERT_EQ(lr.r.rc, GV_OK);
    ASSERT_EQ(lr.r.rep.m.threads, 5);
    ASSERT_EQ(lr.r.rep.m.spawned, 3);
    ASSERT_EQ(lang_measure(&lr, "job")->count, 30);
    lang_done(&lr);
    LANG_RUN("spawn_pool.json", &lr, "ractors.0.threads.1.count=2");
    ASSERT_EQ(lr.r.rc, GV_ERUN);
    ASSERT_CONTAINS(lr.r.err, "every instance of thread template \"worker\" is already spawned");
    lang_done(&lr);
    struct core_heap h;
    core_heap_init(&h, 10000, 1.8, 1);
    for (int i = 0; i < 2000; i++) {
        uint64_t left = 100;
        while (core_heap_alloc(&h, &left, 0.1).kind != CORE_GC_NONE) continue;
    }
    LANG_RUN("gc.json", &lr, "machine.cores=1");
    ASSERT_EQ(lr.r.rc, GV_OK);
    ASSERT_EQ(lr.r.rep.m.gc_count, h.minor + h.major);
    ASSERT_EQ(lr.r.rep.m.gc_sweeps, h.sweeps);
    ASSERT(lr.r.rep.m.state_time[TS_GC] > 0);
    ASSERT(lr.r.rep.m.gc_clock > 0);  /* the process's clock over the GC's windows */
    lang_done(&lr);
    /* a GC start marks its one living thread's stacks: with every other GC
     * cost 0, about gc_mark_per_thread per collection (the busy loop's
     * calibration within 20%; under valgrind, where the loop's calibration
     * and its runs are timed under memcheck, only some) */
    LANG_RUN("gc.json", &lr, "machine.cores=1", "machine.gc_mark_base=0ns", "machine.gc_mark_per_object=0ns",
             "machine.gc_sweep_per_slot=0ns", "machine.gc_mark_per_thread=300us");
    ASSERT_EQ(lr.r.rc, GV_OK);
    ASSERT(lr.r.rep.m.gc_count >= 5);
    double floor = getenv("GVLSIM_UNDER_VALGRIND") ? 0.05 : 0.8;
    ASSERT((double)lr.r.rep.m.state_time[TS_GC] >= floor * (double)lr.r.rep.m.gc_count * 300 * (double)SIM_US);
    lang_done(&lr);
    /* gc_cold, on the executor's own clock: a flat 250 us from a 1 ns
     * gap on, so every start pays it */
    LANG_RUN("gc.json", &lr, "machine.cores=1", "machine.gc_mark_base=0ns", "machine.gc_mark_per_object=0ns",
             "machine.gc_sweep_per_slot=0ns", "machine.gc_cold=[[\"1ns\", \"250us\"]]");
    ASSERT_EQ(lr.r.rc, GV_OK);
    ASSERT(lr.r.rep.m.gc_count >= 5);
    ASSERT((double)lr.r.rep.m.state_time[TS_GC] >= floor * (double)lr.r.rep.m.gc_count * 250 * (double)SIM_US);
    lang_done(&lr);
    if (host_cpus() >= 2) {  /* two Ractors: a barrier per GC start (barging) */
        LANG_RUN("gc_ractors.json", &lr, "machine.cores=2", "runtime.gvl_policy=barging");
        ASSERT_EQ(lr.r.rc, GV_OK);
        ASSERT_EQ(lr.r.rep.m.barriers, lr.r.rep.m.gc_count);
        /* and each Ractor's pages under the VM lock (newobj_slowpath) */
        ASSERT(lr.r.rep.m.vmlock_acquires >= 2 * 2000 * 100 / CORE_HEAP_PAGE_SLOTS);
        lang_done(&lr);
    }
    /* the gc op: one collection of its length, in state gc (the busy loop's
     * calibration makes it about 1 ms, not exactly) */
    LANG_RUN("gc_op.json", &lr, "machine.cores=2");
    ASSERT_EQ(lr.r.rc, GV_OK);
    ASSERT_EQ(lr.r.rep.m.gc_count, 1);
    ASSERT(lr.r.rep.m.state_time[TS_GC] > 0);
    lang_done(&lr);
    if (host_cpus() >= 2) {  /* with a second Ractor: one barrier */
        LANG_RUN("gc_op_ractors.json", &lr, "machine.cores=2");
        ASSERT_EQ(lr.r.rc, GV_OK);
        ASSERT_EQ(lr.r.rep.m.gc_count, 1);
        ASSERT_EQ(lr.r.rep.m.barriers, 1);
        lang_done(&lr);
    }
}

/* Deadlocks on a Mutex and a ConditionVariable, reported thread by
 * thread; a ThreadError stops the run. */
static void test_sync_deadlocks(void)
{
    struct lang_run lr;
    LANG_RUN("deadlock_mutex.json", &lr, "machine.cores=1");
    ASSERT_EQ(lr.r.rc, GV_ERUN);
    ASSERT_CONTAINS(lr.r.err, "deadlock after");
    ASSERT_CONTAINS(lr.r.err, "thread main: waiting to lock mutex \"b\" (held by other)");
    ASSERT_CONTAINS(lr.r.err, "thread other: waiting to lock mutex \"a\" (held by main)");
    lang_done(&lr);
    LANG_RUN("deadlock_cv.json", &lr, "machine.cores=1");
    ASSERT_EQ(lr.r.rc, GV_ERUN);
    ASSERT_CONTAINS(lr.r.err, "thread main: in join, waiting for thread waiter to finish");
    ASSERT_CONTAINS(lr.r.err, "thread waiter: waiting on condition variable \"ready\" (nobody left to signal it)");
    lang_done(&lr);
    LANG_RUN("deadlock_mutex.json", &lr, "machine.cores=1", "ractors.0.threads.0.program.2.mutex=a");
    ASSERT_EQ(lr.r.rc, GV_ERUN);
    ASSERT_CONTAINS(lr.r.err, "mutex_lock of mutex \"a\" at /ractors/0/threads/0/program/2 (line 10): deadlock; "
                              "recursive locking");
    lang_done(&lr);
}

int main(void)
{
    RUN(test_calibration);
    RUN(test_every_op_once_every_policy);
    RUN(test_queue_pingpong);
    RUN(test_state_record);
    RUN(test_queue_initial_items);
    RUN(test_quantum_ticks);
    RUN(test_timer_counts);
    RUN(test_sleep_and_io_wait);
    RUN(test_barrier_counts);
    RUN(test_barrier_joins_exact);
    RUN(test_single_ractor_no_barrier);
    RUN(test_insn_counter);
    RUN(test_deadlock_report);
    RUN(test_watchdog);
    RUN(test_watchdog_interrupts_sleep);
    RUN(test_stop_time);
    RUN(test_affinity_error);
    RUN(test_bad_input);
    RUN(test_csv_row);
    RUN(test_mutex_and_condvar);
    RUN(test_timed_pop);
    RUN(test_barging_ppoll_park);
    RUN(test_generator_spawn_gc);
    RUN(test_sync_deadlocks);
    RUN(test_syscall_method_work);
    RUN(test_syscall_method_work_after);
    TEST_DONE();
}
