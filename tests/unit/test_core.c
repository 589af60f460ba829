/* test_core.c - core/: the expansion of templates into instances, the
 * program cursor, the scheduler's decisions and the GVL policies, on
 * plain core structs (no engine, no threads). */
#include "test.h"

#include "../../common/err.h"
#include "../../core/cursor.h"
#include "../../core/expand.h"
#include "../../core/policy.h"
#include "../../core/sched.h"

/* ---- expansion ------------------------------------------------------------ */

struct layout {
    struct core_ractor ractors[8];
    struct core_thread threads[16];
};

static struct core_ractor *ractor_at(void *ctx, int i) { return &((struct layout *)ctx)->ractors[i]; }
static struct core_thread *thread_at(void *ctx, int i) { return &((struct layout *)ctx)->threads[i]; }

static void layout_free(struct layout *l)
{
    for (int i = 0; i < 8; i++) core_ractor_free(&l->ractors[i]);
}

static struct scn_op compute_op(sim_time d)
{
    struct scn_op op;
    memset(&op, 0, sizeof op);
    op.kind = OP_COMPUTE;
    op.u.compute.dur.kind = DIST_CONST;
    op.u.compute.dur.a = d;
    return op;
}

static struct scn_op loop_op(int mode, uint64_t times, bool measure, struct scn_prog *body)
{
    struct scn_op op;
    memset(&op, 0, sizeof op);
    op.kind = OP_LOOP;
    op.u.loop.mode = mode;
    op.u.loop.times = times;
    op.u.loop.measure = measure;
    op.u.loop.body = body;
    return op;
}

static void test_expand_names_and_instances(void)
{
    struct scn_op op = compute_op(SIM_US);
    struct scn_thread mt = { "main", 1, { &op, 1 }, 0, false };
    struct scn_thread wt[2] = { { "w", 3, { &op, 1 }, 0, false }, { NULL, 1, { &op, 1 }, 0, false } };
    struct scn_ractor rs[2] = { { "main", 1, &mt, 1 }, { NULL, 2, wt, 2 } };
    struct scenario s;
    memset(&s, 0, sizeof s);
    s.seed = 7;
    s.ractors = rs;
    s.nractors = 2;
    struct layout l;
    memset(&l, 0, sizeof l);
    ASSERT_EQ(core_expand(&s, ractor_at, thread_at, &l), GV_OK);
    ASSERT_STREQ(l.ractors[0].name, "main");
    ASSERT_STREQ(l.ractors[1].name, "r#0");   /* a template without a name is "r" */
    ASSERT_STREQ(l.ractors[2].name, "r#1");
    ASSERT_EQ(l.ractors[0].nthreads, 1);
    ASSERT_EQ(l.ractors[2].nthreads, 4);
    ASSERT_STREQ(l.threads[0].name, "main/main");  /* several Ractors: prefixed */
    ASSERT_STREQ(l.threads[1].name, "r#0/w#0");
    ASSERT_STREQ(l.threads[4].name, "r#0/t");
    ASSERT_STREQ(l.threads[7].name, "r#1/w#2");
    ASSERT_EQ(l.threads[8].id, 8);
    ASSERT(l.threads[8].ractor == &l.ractors[2]);
    /* times_total shares: w has 2 Ractors x 3 threads = 6 instances */
    ASSERT_EQ(l.threads[6].instance, 4);
    ASSERT_EQ(l.threads[6].ninstances, 6);
    ASSERT_EQ(l.threads[8].instance, 1);
    ASSERT_EQ(l.threads[8].ninstances, 2);
    /* each thread's stream is (seed, index) */
    struct rng r;
    rng_seed(&r, 7, 5);
    ASSERT_EQ(rng_next(&l.threads[5].rng), rng_next(&r));
    ASSERT(l.threads[5].cur.stack[0].next == wt[0].prog.ops);
    ASSERT_EQ(l.threads[5].cur.sp, 1);
    layout_free(&l);

    /* one Ractor: thread names alone */
    rs[0].threads = wt;
    rs[0].nthreads = 2;
    s.nractors = 1;
    memset(&l, 0, sizeof l);
    ASSERT_EQ(core_expand(&s, ractor_at, thread_at, &l), GV_OK);
    ASSERT_STREQ(l.threads[0].name, "w#0");
    ASSERT_STREQ(l.threads[3].name, "t");
    layout_free(&l);
}

/* ---- the cursor ------------------------------------------------------------- */

static void test_cursor_loops(void)
{
    struct scn_op body_ops[2] = { compute_op(1), compute_op(2) };
    struct scn_prog body = { body_ops, 2 };
    struct scn_op ops[3] = { compute_op(3), loop_op(LOOP_TIMES, 3, true, &body), compute_op(4) };
    struct scn_prog prog = { ops, 3 };
    struct core_thread th;
    memset(&th, 0, sizeof th);
    ASSERT_EQ(core_cursor_init(&th.cur, &prog, 0), GV_OK);
    const struct scn_op *op;
    ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_OP);
    ASSERT(op == &ops[0]);
    ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_OP);
    ASSERT(op == &ops[1]);
    ASSERT(core_cursor_enter(&th, op, 0));
    for (int it = 0; it < 3; it++) {
        if (it > 0) ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_ITERATION);
        ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_OP);
        ASSERT(op == &body_ops[0]);
        ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_OP);
        ASSERT(op == &body_ops[1]);
    }
    ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_OP);
    ASSERT(op == &ops[2]);
    ASSERT_EQ(th.cur.ops, 3);  /* measured iterations */
    ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_END);
    ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_END);
    ASSERT_EQ(th.cur.nframes, 2);  /* sized to the program: one loop deep */
    core_cursor_free(&th.cur);
}

static void test_cursor_times_total_and_forever(void)
{
    struct scn_op body_ops[1] = { compute_op(1) };
    struct scn_prog body = { body_ops, 1 };
    struct scn_op total = loop_op(LOOP_TIMES_TOTAL, 10, false, &body);
    struct scn_prog prog = { &total, 1 };
    const struct scn_op *op;
    for (int inst = 0; inst < 3; inst++) {  /* 10 = 4 + 3 + 3 */
        struct core_thread th;
        memset(&th, 0, sizeof th);
        th.instance = inst;
        th.ninstances = 3;
        ASSERT_EQ(core_cursor_init(&th.cur, &prog, 0), GV_OK);
        ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_OP);
        ASSERT(core_cursor_enter(&th, op, 0));
        int n = 0;
        enum core_next r;
        while ((r = core_cursor_next(&th, &op)) != CORE_NEXT_END) n += r == CORE_NEXT_OP;
        ASSERT_EQ(n, inst == 0 ? 4 : 3);
        ASSERT_EQ(th.cur.ops, 0);  /* not measured */
        core_cursor_free(&th.cur);
    }
    struct scn_op forever = loop_op(LOOP_FOREVER, 0, true, &body);
    prog.ops = &forever;
    struct core_thread th;
    memset(&th, 0, sizeof th);
    ASSERT_EQ(core_cursor_init(&th.cur, &prog, 0), GV_OK);
    ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_OP);
    ASSERT(core_cursor_enter(&th, op, 0));
    for (int i = 0; i < 1000; i++) {
        ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_OP);
        ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_ITERATION);
    }
    ASSERT_EQ(th.cur.ops, 1000);
    core_cursor_free(&th.cur);
    /* zero iterations: the body is skipped */
    struct scn_op none = loop_op(LOOP_TIMES, 0, true, &body);
    prog.ops = &none;
    ASSERT_EQ(core_cursor_init(&th.cur, &prog, 0), GV_OK);
    ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_OP);
    ASSERT(core_cursor_enter(&th, op, 0));
    ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_END);
    core_cursor_free(&th.cur);
}

static void test_cursor_depth_limit(void)
{
    /* SCN_MAX_LOOP_DEPTH nested loops fit the frame stack; one more does not */
    struct scn_op inner = compute_op(1);
    struct scn_prog progs[SCN_MAX_LOOP_DEPTH + 2];
    struct scn_op loops[SCN_MAX_LOOP_DEPTH + 1];
    progs[SCN_MAX_LOOP_DEPTH + 1] = (struct scn_prog){ &inner, 1 };
    for (int d = SCN_MAX_LOOP_DEPTH; d >= 0; d--) {
        loops[d] = loop_op(LOOP_TIMES, 1, false, &progs[d + 1]);
        progs[d] = (struct scn_prog){ &loops[d], 1 };
    }
    struct core_thread th;
    memset(&th, 0, sizeof th);
    ASSERT_EQ(core_cursor_init(&th.cur, &progs[0], 0), GV_OK);
    const struct scn_op *op;
    for (int d = 0; d < SCN_MAX_LOOP_DEPTH; d++) {
        ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_OP);
        ASSERT(core_cursor_enter(&th, op, 0));
    }
    ASSERT_EQ(th.cur.sp, CORE_MAX_FRAMES);
    ASSERT_EQ(core_cursor_next(&th, &op), CORE_NEXT_OP);
    ASSERT(op->kind == OP_LOOP);
    ASSERT(!core_cursor_enter(&th, op, 0));
    core_cursor_free(&th.cur);
}

static void test_op_durations(void)
{
    struct core_thread th;
    memset(&th, 0, sizeof th);
    rng_seed(&th.rng, 1, 0);
    struct scn_op c = compute_op(10 * SIM_US);
    ASSERT_EQ(core_op_dur(&th, &c, 1.5), 15 * SIM_US);   /* CPU work is scaled */
    struct scn_op sys;
    memset(&sys, 0, sizeof sys);
    sys.kind = OP_SYSCALL;
    sys.u.syscall.dur = (struct scn_dist){ .kind = DIST_CONST, .a = 2 * SIM_US };
    ASSERT_EQ(core_op_dur(&th, &sys, 1.5), 3 * SIM_US);
    sys.u.syscall.io_wait = true;                          /* a wait off the CPU is not */
    ASSERT_EQ(core_op_dur(&th, &sys, 1.5), 2 * SIM_US);
    sys.u.syscall.io_wait = false;
    sys.u.syscall.dur_machine = true;                      /* nor the machine's own cost */
    ASSERT_EQ(core_op_dur(&th, &sys, 1.5), 2 * SIM_US);
    sys.u.syscall.dur_machine = false;
    sys.u.syscall.method_work = 2 * SIM_US;                 /* a method's work: scaled as work */
    ASSERT_EQ(core_method_work(&sys, 1.5), 3 * SIM_US);
    sys.u.syscall.method_work_machine = true;              /* but not the machine's own */
    ASSERT_EQ(core_method_work(&sys, 1.5), 2 * SIM_US);
    struct scn_op sl;
    memset(&sl, 0, sizeof sl);
    sl.kind = OP_SLEEP;
    sl.u.sleep.dur = (struct scn_dist){ .kind = DIST_UNIFORM, .a = 5, .b = 9 };
    struct rng r;
    rng_seed(&r, 1, 0);
    ASSERT_EQ(core_op_dur(&th, &sl, 1.5), rng_uniform(&r, 5, 9));  /* drawn from its stream */
    /* scaled beyond the time range: SIM_TIME_MAX, which the backends report,
     * never a wrapped-around (negative or tiny) duration */
    struct scn_op big = compute_op(9300 * SIM_S);
    ASSERT_EQ(core_op_dur(&th, &big, 1000), SIM_TIME_MAX);
    sys.u.syscall.io_wait = false;
    sys.u.syscall.dur = (struct scn_dist){ .kind = DIST_CONST, .a = 86400 * SIM_S };
    ASSERT_EQ(core_op_dur(&th, &sys, 1000), SIM_TIME_MAX);
    ASSERT_EQ(core_op_dur(&th, &sys, 100), 8640000 * SIM_S);  /* in range: exact */
    ASSERT_EQ(core_scale_work(SIM_TIME_MAX / 2, 2.0), SIM_TIME_MAX);
}

/* ---- the scheduler ------------------------------------------------------------ */

/* A backend that records what the decisions asked of it. */
static char g_log[512];

static void logf_(const char *fmt, int a, int b)
{
    size_t n = strlen(g_log);
    snprintf(g_log + n, sizeof g_log - n, fmt, a, b);
}

static void h_signal(struct core_sched *s, struct core_thread *th, struct core_thread *from, void *by)
{
    (void)s;
    (void)by;
    logf_("signal %d from %d;", th->id, from ? from->id : -1);
}
static void h_add(struct core_sched *s, struct core_thread *th)
{
    s->is_running = true;
    logf_("add %d;", th->id, 0);
}
static void h_del(struct core_sched *s, struct core_thread *th, void *by)
{
    (void)by;
    s->is_running = false;
    s->is_running_timeslice = false;
    logf_("del %d;", th->id, 0);
}
static void h_timeslice(struct core_sched *s, void *by)
{
    (void)by;
    s->is_running_timeslice = true;
    logf_("timeslice %d;", s->running->id, 0);
}

static const struct core_hooks test_hooks = { h_signal, h_add, h_del, h_timeslice, NULL, NULL };

/* One Ractor with n threads under policy p, nobody running. */
/* The schedulers live on the tests' stacks; each setup frees the ready
 * queue of the one before (and main the last). */
static struct core_thread **g_rq;

static struct core_sched *sched_setup_p(struct core_ractor *r, struct core_thread *th, int n,
                                       enum scn_gvl_policy p)
{
    free(g_rq);  /* the ready queue of the previous setup */
    memset(r, 0, sizeof *r);
    ASSERT_EQ(core_sched_init(&r->sched, core_policy_get(p), &test_hooks, n), GV_OK);
    g_rq = r->sched.rq;
    memset(th, 0, sizeof *th * (size_t)n);
    for (int i = 0; i < n; i++) {
        th[i].id = i;
        th[i].ractor = r;
    }
    g_log[0] = 0;
    return &r->sched;
}

static struct core_sched *sched_setup(struct core_ractor *r, struct core_thread *th, int n)
{
    return sched_setup_p(r, th, n, GVL_POLICY_EAGER);
}

static void test_sched_handoff(void)
{
    struct core_ractor r;
    struct core_thread th[3];
    struct core_sched *s = sched_setup(&r, th, 3);
    /* nobody runs: the first to be ready takes the GVL at once */
    ASSERT(core_sched_to_running(s, &th[0], NULL));
    ASSERT(s->running == &th[0]);
    ASSERT_STREQ(g_log, "add 0;");
    /* the others queue; the first waiter puts the runner in the timeslice set */
    ASSERT(!core_sched_to_ready(s, &th[1], false, NULL));
    ASSERT(!core_sched_to_ready(s, &th[2], false, NULL));
    ASSERT_STREQ(g_log, "add 0;timeslice 0;");
    ASSERT_EQ(s->readyq_cnt, 2);
    /* blocking region under eager: the head becomes running before it wakes */
    g_log[0] = 0;
    ASSERT(core_sched_wakeup_next(s, &th[0], NULL) == &th[1]);
    ASSERT(s->running == &th[1]);
    ASSERT_STREQ(g_log, "signal 1 from 0;del 0;");
    ASSERT_EQ(s->handoffs, 1);
    /* back from the call: queue behind th[2] */
    ASSERT(!core_sched_to_running(s, &th[0], NULL));
    ASSERT(core_rq_first(s) == &th[2] && core_rq_last(s) == &th[0]);
    /* a thread switching in starts a new quantum */
    th[1].running_time = 5;
    core_sched_acquired(s, &th[1]);
    ASSERT_EQ(th[1].running_time, 0);
    th[1].running_time = 5;
    core_sched_acquired(s, &th[1]);
    ASSERT_EQ(th[1].running_time, 5);
    /* the quantum: yield to th[2], queue behind th[0] */
    ASSERT(core_sched_yield(s, &th[1], NULL));
    ASSERT(s->running == &th[2]);
    ASSERT(core_rq_first(s) == &th[0] && core_rq_last(s) == &th[1]);
    /* ubf: a thread still running is not asleep yet */
    ASSERT(!core_sched_ready(s, &th[2], NULL));
    /* the last one leaves: nobody runs */
    core_rq_remove(s, &th[0]);
    core_rq_remove(s, &th[1]);
    ASSERT(!core_sched_yield(s, &th[2], NULL));
    ASSERT(core_sched_wakeup_next(s, &th[2], NULL) == NULL);
    ASSERT(s->running == NULL);
    ASSERT_EQ(s->readyq_cnt, 0);
    ASSERT_EQ(s->handoffs, 2);
}

static void test_sched_hot_steal(void)
{
    struct core_ractor r;
    struct core_thread th[3];
    struct core_sched *s = sched_setup(&r, th, 3);
    s->running = &th[0];
    core_rq_append(s, &th[1]);
    core_rq_append(s, &th[2]);
    /* th[0] enters a BLOCKING_REGION: hot, and hands over eagerly */
    core_sched_mark_hot(s, &th[0]);
    core_sched_wakeup_next(s, &th[0], NULL);
    ASSERT(s->running == &th[1]);
    /* back before th[1] took over: the hint, then the steal */
    core_sched_hot_back(s, &th[0]);
    ASSERT(core_sched_hot_spinning(s));
    ASSERT(!core_sched_to_running(s, &th[0], NULL));
    ASSERT(core_sched_steal(s, &th[0], true));
    ASSERT(s->running == &th[0]);
    ASSERT(s->readyq_cnt == 2 && core_rq_at(s, 0) == &th[1] && core_rq_at(s, 1) == &th[2] && !th[0].in_readyq);
    core_sched_acquired(s, &th[0]);
    ASSERT(core_sched_hot(s) == NULL && !core_sched_hot_spinning(s));
    /* a hot thread that cannot steal (M:N) loses the hint and waits */
    core_sched_mark_hot(s, &th[0]);
    core_sched_wakeup_next(s, &th[0], NULL);
    ASSERT(!core_sched_to_running(s, &th[0], NULL));
    ASSERT(!core_sched_steal(s, &th[0], false));
    ASSERT(core_sched_hot(s) == NULL);
    ASSERT(s->running == &th[1]);
    /* only the hot thread steals */
    ASSERT(!core_sched_steal(s, &th[2], true));
}

/* ---- the policies ------------------------------------------------------------- */

/* th[0] runs (in running_threads, in the timeslice set), th[1] waits. */
static struct core_sched *contended(struct core_ractor *r, struct core_thread *th, enum scn_gvl_policy p)
{
    struct core_sched *s = sched_setup_p(r, th, 2, p);
    core_sched_to_running(s, &th[0], NULL);
    core_sched_to_ready(s, &th[1], false, NULL);
    g_log[0] = 0;
    return s;
}

static void test_policy_blocking_regions(void)
{
    struct core_ractor r;
    struct core_thread th[2];
    /* eager: entry hands over at once; exit queues */
    struct core_sched *s = contended(&r, th, GVL_POLICY_EAGER);
    ASSERT_EQ(core_blocking_enter(s, &th[0], false, NULL), CORE_ENTER_HANDED_ON);
    ASSERT(s->running == &th[1] && core_sched_hot(s) == NULL);
    ASSERT_EQ(core_blocking_exit(s, &th[0]), CORE_EXIT_QUEUE);
    /* hot_steal: BLOCKING_REGION marks the hot thread, a native sleep does not */
    s = contended(&r, th, GVL_POLICY_HOT_STEAL);
    ASSERT_EQ(core_blocking_enter(s, &th[0], true, NULL), CORE_ENTER_HANDED_ON);
    ASSERT(core_sched_hot(s) == NULL);
    s = contended(&r, th, GVL_POLICY_HOT_STEAL);
    ASSERT_EQ(core_blocking_enter(s, &th[0], false, NULL), CORE_ENTER_HANDED_ON);
    ASSERT(core_sched_hot(s) == &th[0] && s->running == &th[1]);
    ASSERT_EQ(core_blocking_exit(s, &th[0]), CORE_EXIT_QUEUE);
    /* delayed and threshold keep the GVL through the region (sleeps too) */
    for (int p = GVL_POLICY_DELAYED; p <= GVL_POLICY_THRESHOLD; p++) {
        s = contended(&r, th, (enum scn_gvl_policy)p);
        ASSERT_EQ(core_blocking_enter(s, &th[0], true, NULL), CORE_ENTER_KEPT);
        ASSERT(s->running == &th[0] && s->deferred == &th[0]);
        ASSERT_STREQ(g_log, "");  /* nobody woken */
        /* a short call: back with the GVL, no switch */
        ASSERT_EQ(core_blocking_exit(s, &th[0]), CORE_EXIT_KEPT);
        ASSERT(s->deferred == NULL);
        /* a long one: handed on by the timer (delayed) or the helper */
        core_blocking_enter(s, &th[0], false, NULL);
        ASSERT(core_sched_handoff_deferred(s, NULL));
        ASSERT(s->running == &th[1] && s->deferred == NULL);
        ASSERT_STREQ(g_log, "signal 1 from 0;del 0;");
        ASSERT(!core_sched_handoff_deferred(s, NULL));
        ASSERT_EQ(core_blocking_exit(s, &th[0]), CORE_EXIT_QUEUE);
    }
    /* nobody waits: a deferred region is never handed on */
    s = sched_setup_p(&r, th, 1, GVL_POLICY_THRESHOLD);
    core_sched_to_running(s, &th[0], NULL);
    core_blocking_enter(s, &th[0], false, NULL);
    ASSERT(!core_sched_handoff_deferred(s, NULL));
    /* the threshold helper's steps (core_helper_next), as both backends
     * take them: idle with nobody ready (even in a region) ... */
    sim_time sleep;
    ASSERT_EQ(core_helper_next(s, 500 * SIM_US, 100 * SIM_US, &sleep), CORE_HELPER_IDLE);
    /* ... a young region: until it is `threshold` old; an old one: hand on */
    s = contended(&r, th, GVL_POLICY_THRESHOLD);
    core_blocking_enter(s, &th[0], false, NULL);
    ASSERT_EQ(core_helper_next(s, 30 * SIM_US, 100 * SIM_US, &sleep), CORE_HELPER_SLEEP);
    ASSERT_EQ(sleep, 70 * SIM_US);
    ASSERT_EQ(core_helper_next(s, 100 * SIM_US, 100 * SIM_US, &sleep), CORE_HELPER_HANDOFF);
    /* ... the owner in Ruby code with a waiter: polls, a threshold at a
     * time and at least CORE_HELPER_MIN_POLL (no wake-up per region) */
    s = contended(&r, th, GVL_POLICY_THRESHOLD);
    ASSERT_EQ(core_helper_next(s, 0, 100 * SIM_US, &sleep), CORE_HELPER_SLEEP);
    ASSERT_EQ(sleep, 100 * SIM_US);
    ASSERT_EQ(core_helper_next(s, 0, 5 * SIM_US, &sleep), CORE_HELPER_SLEEP);
    ASSERT_EQ(sleep, CORE_HELPER_MIN_POLL);
    /* barging releases and acquires on its own */
    s = contended(&r, th, GVL_POLICY_BARGING);
    ASSERT_EQ(core_blocking_enter(s, &th[0], false, NULL), CORE_ENTER_RELEASE);
    ASSERT(s->running == &th[0]);
    ASSERT_EQ(core_blocking_exit(s, &th[0]), CORE_EXIT_ACQUIRE);
}

static void test_policy_ticks(void)
{
    struct core_ractor r;
    struct core_thread th[2];
    struct scn_runtime rt;
    memset(&rt, 0, sizeof rt);
    rt.quantum = 100;
    rt.timer_tick = 10;
    /* eager: the runner with a waiter gets TIMER; ten ticks use its quantum */
    struct core_sched *s = contended(&r, th, GVL_POLICY_EAGER);
    ASSERT(s->is_running_timeslice);
    ASSERT(core_sched_tick(s, NULL));
    for (int i = 1; i < 10; i++) ASSERT(!core_thread_tick(&th[0], &rt));
    ASSERT(core_thread_tick(&th[0], &rt));
    /* delayed: a runner still in its region loses the GVL at the tick, and
     * no TIMER goes to a thread that lost it */
    s = contended(&r, th, GVL_POLICY_DELAYED);
    core_blocking_enter(s, &th[0], false, NULL);
    ASSERT(!core_sched_tick(s, NULL));
    ASSERT(s->running == &th[1]);
    /* threshold: the tick leaves the hand-off to the helper */
    s = contended(&r, th, GVL_POLICY_THRESHOLD);
    core_blocking_enter(s, &th[0], false, NULL);
    ASSERT(core_sched_tick(s, NULL));
    ASSERT(s->running == &th[0]);
    /* barging (<= 3.2): one TIMER credits a whole quantum */
    s = sched_setup_p(&r, th, 1, GVL_POLICY_BARGING);
    ASSERT(core_thread_tick(&th[0], &rt));
    /* and the thread yields unless it is its Ractor's only living one
     * (rb_thread_alone), nobody waiting or not */
    ASSERT(s->readyq_cnt == 0);
    ASSERT(core_tick_yields(s, 2));
    ASSERT(!core_tick_yields(s, 1));
    /* 3.3+: a yield needs a ready thread (thread_sched_yield) */
    s = contended(&r, th, GVL_POLICY_EAGER);
    ASSERT(s->readyq_cnt > 0 && core_tick_yields(s, 2));
    s->readyq_cnt = 0;
    ASSERT(!core_tick_yields(s, 2));
}

static void test_barging_rules(void)
{
    struct core_ractor r;
    struct core_thread th[3];
    struct core_sched *s = sched_setup_p(&r, th, 3, GVL_POLICY_BARGING);
    /* uncontended: take it at once, reset the timer */
    s->barging.timer_timedout = false;
    ASSERT(core_barging_uncontended(s, &th[0]));
    ASSERT(s->barging.timer_timedout);
    ASSERT(core_barging_take(s, &th[0]) == NULL);  /* nobody to designate */
    /* contended: th[1], th[2] queue; the first waiter becomes the timer */
    ASSERT(!core_barging_uncontended(s, &th[1]));
    core_rq_append(s, &th[1]);
    core_rq_append(s, &th[2]);
    ASSERT(core_barging_timer_begin(s, &th[1]));  /* arm a deadline */
    ASSERT(s->barging.timer == &th[1]);
    /* its wait returns while th[0] owns the GVL: TIMER for th[0] */
    ASSERT(core_barging_timer_end(s, true) == &th[0]);
    ASSERT(s->barging.timer == NULL && s->barging.timer_timedout);
    ASSERT_EQ(s->barging.timer_fires, 1);  /* counted once, for either backend */
    /* release: the owner is cleared, the head signalled, nothing handed over */
    g_log[0] = 0;
    ASSERT(core_barging_release(s, NULL) == &th[1]);
    ASSERT(s->running == NULL);
    ASSERT_STREQ(g_log, "signal 1 from -1;");
    /* th[0] barges back in before th[1] runs */
    ASSERT(core_barging_uncontended(s, &th[0]));
    ASSERT(core_barging_take(s, &th[0]) == &th[2]);  /* the tail becomes the timer */
    /* a yield with waiters waits until one took the GVL */
    ASSERT_EQ(core_barging_yield(s, NULL), CORE_YIELD_WAIT_TAKEN);
    ASSERT(s->barging.need_yield && s->barging.wait_yield);
    ASSERT_EQ(core_barging_yield(s, NULL), CORE_YIELD_WAIT_SWITCH);  /* a second one waits for it */
    ASSERT(core_barging_got_it(s, &th[1]));  /* the taker signals the yielder */
    ASSERT(!s->barging.need_yield && !th[1].in_readyq);
    ASSERT(!core_barging_got_it(s, &th[2]));
    s->barging.wait_yield = false;
    ASSERT_EQ(core_barging_yield(s, NULL), CORE_YIELD_NATIVE);  /* nobody waits */
}

int main(void)
{
    RUN(test_expand_names_and_instances);
    RUN(test_cursor_loops);
    RUN(test_cursor_times_total_and_forever);
    RUN(test_cursor_depth_limit);
    RUN(test_op_durations);
    RUN(test_sched_handoff);
    RUN(test_sched_hot_steal);
    RUN(test_policy_blocking_regions);
    RUN(test_policy_ticks);
    RUN(test_barging_rules);
    free(g_rq);
    TEST_DONE();
}
