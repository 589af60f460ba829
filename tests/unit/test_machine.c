/* test_machine.c - the OS model: wake placement and its latencies, run
 * queues, time slices, burst cuts, wakeup preemption, idle balance.
 * Each test drives tasks with a small script and checks exact times. */
#include "../../common/err.h"
#include "../../sim/engine_heap.h"
#include "../../sim/machine.h"
#include "test.h"

enum act { A_BURST, A_BLOCK, A_WAKE, A_MARK, A_EXIT };
struct step { enum act a; sim_time d; int target; };

struct tt {
    struct mach_task t;
    struct machine *m;
    const struct step *s;
    int pc;
    sim_time marks[8];
    int nmarks;
    sim_time left[8];  /* burst_left seen at each continuation */
    int nleft;
    struct tt *all;
};

static void go(struct mach_task *t, void *ctx)
{
    struct tt *x = ctx;
    if (x->nleft < 8) x->left[x->nleft++] = t->burst_left;
    for (;;) {
        const struct step *st = &x->s[x->pc++];
        switch (st->a) {
        case A_BURST: mach_burst(x->m, t, st->d, go, x); return;
        case A_BLOCK: mach_block(x->m, t, go, x); return;
        case A_WAKE: mach_wake(x->m, &x->all[st->target].t, t); continue;
        case A_MARK: x->marks[x->nmarks++] = sim_now(x->m->eng); continue;
        case A_EXIT: mach_exit(x->m, t); return;
        }
    }
}

static const struct mach_params P = {
    .cores = 2, .context_switch = 2, .wake_idle_core = 10, .wake_busy_core = 3,
    .os_timeslice = 1000,
};

struct world {
    struct sim_engine *e;
    struct machine m;
    struct tt t[4];
};

static void setup(struct world *w, int cores, const struct step *const *scripts, int n)
{
    struct mach_params p = P;
    p.cores = cores;
    char err[128];
    w->e = sim_heap_create();
    ASSERT(w->e);
    ASSERT_EQ(mach_init(&w->m, w->e, &p, err, sizeof err), GV_OK);
    for (int i = 0; i < n; i++) {
        mach_task_init(&w->m, &w->t[i].t, "t");
        w->t[i].m = &w->m;
        w->t[i].s = scripts[i];
        w->t[i].pc = 0;
        w->t[i].nmarks = 0;
        w->t[i].nleft = 0;
        w->t[i].all = w->t;
    }
}

static void run(struct world *w)
{
    char err[128];
    ASSERT_EQ(sim_run(w->e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    ASSERT_STREQ(w->m.error, "");
    mach_finish(&w->m);
}

static void teardown(struct world *w)
{
    mach_free(&w->m);
    sim_destroy(w->e);
}

/* Start placement: idle cores first (wake_idle_core), then the least
 * loaded run queue; a queued task runs after a context switch. */
static void test_start_placement(void)
{
    static const struct step a[] = { { A_MARK, 0, 0 }, { A_BURST, 5, 0 }, { A_EXIT, 0, 0 } };
    static const struct step c[] = { { A_MARK, 0, 0 }, { A_BURST, 1, 0 }, { A_EXIT, 0, 0 } };
    const struct step *const s[] = { a, a, c };
    struct world w;
    setup(&w, 2, s, 3);
    for (int i = 0; i < 3; i++) mach_start(&w.m, &w.t[i].t, go, &w.t[i]);
    run(&w);
    ASSERT_EQ(w.t[0].marks[0], 10);  /* idle core 0 */
    ASSERT_EQ(w.t[1].marks[0], 10);  /* idle core 1 */
    ASSERT_EQ(w.t[2].marks[0], 17);  /* queued on core 0: 10 + 5 + switch 2 */
    ASSERT_EQ(w.t[2].t.last_core, 0);
    ASSERT_EQ(w.m.cores[0].waking_time, 10);
    ASSERT_EQ(w.m.cores[0].switch_time, 2);
    ASSERT_EQ(w.m.cores[0].busy_time, 6);
    ASSERT_EQ(mach_cpu_time(&w.m), 2 + 6 + 5);
    teardown(&w);
}

/* One core: the wakee waits for the waker to block, then a context switch. */
static void test_same_core_wake(void)
{
    static const struct step a[] = { { A_BURST, 20, 0 }, { A_WAKE, 0, 1 }, { A_BURST, 7, 0 },
                                      { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct step b[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_BURST, 4, 0 },
                                      { A_WAKE, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct step *const s[] = { a, b };
    struct world w;
    setup(&w, 1, s, 2);
    mach_start(&w.m, &w.t[1].t, go, &w.t[1]);  /* B: idle core, arrives 10, blocks */
    mach_start(&w.m, &w.t[0].t, go, &w.t[0]);  /* A: queued, switched in at 12 */
    run(&w);
    /* A 12..32, wakes B onto its own core, 32..39, blocks: switch, B at 41 */
    ASSERT_EQ(w.t[1].marks[0], 41);
    /* B 41..45 wakes A, exits: switch, A at 47 */
    ASSERT_EQ(w.t[0].marks[0], 47);
    ASSERT_EQ(w.t[0].t.vcsw, 1);
    ASSERT_EQ(w.t[1].t.vcsw, 1);
    ASSERT_EQ(w.t[0].t.ivcsw, 0);
    ASSERT_EQ(w.t[1].t.wakes, 1);
    teardown(&w);
}

/* No idle core: a wakee lands on a busy remote core after wake_busy_core
 * and waits for the time slice to end: an involuntary switch. */
static void test_remote_busy_wake_and_slice(void)
{
    static const struct step z[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_BURST, 1, 0 },
                                      { A_EXIT, 0, 0 } };
    static const struct step x[] = { { A_BURST, 100, 0 }, { A_WAKE, 0, 0 }, { A_BURST, 5000, 0 },
                                      { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct step y[] = { { A_BURST, 6000, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct step *const s[] = { z, x, y };
    struct world w;
    setup(&w, 2, s, 3);
    for (int i = 0; i < 3; i++) mach_start(&w.m, &w.t[i].t, go, &w.t[i]);
    run(&w);
    /* Z core 0 at 10, blocks; Y (queued on core 0) at 12; X core 1 at 10.
     * X wakes Z at 110: Z's previous core 0 is busy, so after the IPI (113)
     * it queues there; Y's slice (from 12) ends at 1012: Z runs at 1014. */
    ASSERT_EQ(w.t[0].marks[0], 1014);
    ASSERT_EQ(w.t[2].t.ivcsw, 1);
    /* Y ran 1000 of 6000, resumes at 1017 after Z (1014..1015) and a switch */
    ASSERT_EQ(w.t[2].marks[0], 6017);
    ASSERT_EQ(w.t[1].marks[0], 5110);
    ASSERT_EQ(w.t[1].t.ivcsw, 0);
    teardown(&w);
}

struct cut { struct machine *m; struct mach_task *t; sim_time delay; };

static void cut_now(void *obj, uint64_t arg)
{
    (void)arg;
    struct cut *c = obj;
    ASSERT_EQ(mach_interrupt(c->m, c->t, c->delay), 1);
}

/* A burst is cut at its next safe point; the continuation sees the rest. */
static void test_interrupt_cuts_burst(void)
{
    static const struct step a[] = { { A_BURST, 100, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct step *const s[] = { a };
    struct world w;
    setup(&w, 1, s, 1);
    mach_start(&w.m, &w.t[0].t, go, &w.t[0]);
    struct cut c = { &w.m, &w.t[0].t, 5 };
    sim_at(w.e, 40, cut_now, &c, 0);
    run(&w);
    ASSERT_EQ(w.t[0].marks[0], 45);
    ASSERT_EQ(w.t[0].left[1], 65);  /* 10 + 100 - 45 */
    teardown(&w);
}

/* A cut asked for while the task is preempted applies when it runs again. */
static void test_interrupt_while_preempted(void)
{
    static const struct step a[] = { { A_BURST, 3000, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct step *const s[] = { a, a };
    struct world w;
    setup(&w, 1, s, 2);
    mach_start(&w.m, &w.t[0].t, go, &w.t[0]);
    mach_start(&w.m, &w.t[1].t, go, &w.t[1]);
    struct cut c = { &w.m, &w.t[0].t, 5 };
    sim_at(w.e, 1500, cut_now, &c, 0);  /* A is queued then (B runs 1012..2012) */
    run(&w);
    ASSERT_EQ(w.t[0].marks[0], 2019);   /* back at 2014, cut 5 later */
    ASSERT_EQ(w.t[0].left[1], 1995);
    ASSERT_EQ(w.t[0].t.ivcsw, 1);
    ASSERT_EQ(w.t[1].t.ivcsw, 1);
    teardown(&w);
}

static void wake_task(void *obj, uint64_t arg)
{
    (void)arg;
    struct tt *x = obj;
    ASSERT_EQ(mach_wake(x->m, &x->t, NULL), 1);
}

/* A wakeup_preempt task (the timer thread) takes a busy core at once. */
static void test_wakeup_preempt(void)
{
    static const struct step a[] = { { A_BURST, 1000, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct step t[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_BURST, 1, 0 },
                                      { A_BLOCK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct step *const s[] = { a, t };
    struct world w;
    setup(&w, 1, s, 2);
    w.t[1].t.wakeup_preempt = true;
    mach_start(&w.m, &w.t[1].t, go, &w.t[1]);  /* 10, blocks */
    mach_start(&w.m, &w.t[0].t, go, &w.t[0]);  /* 12 */
    sim_at(w.e, 100, wake_task, &w.t[1], 0);
    run(&w);
    ASSERT_EQ(w.t[1].marks[0], 102);
    ASSERT_EQ(w.t[0].marks[0], 1017);  /* 1000 of work + 2 switches + 1 */
    ASSERT_EQ(w.t[0].t.ivcsw, 1);
    teardown(&w);
}

/* A core that runs out of work pulls a task queued on another core. */
static void test_idle_balance(void)
{
    static const struct step x[] = { { A_BURST, 5, 0 }, { A_EXIT, 0, 0 } };
    static const struct step y[] = { { A_BURST, 1000, 0 }, { A_EXIT, 0, 0 } };
    static const struct step q[] = { { A_MARK, 0, 0 }, { A_BURST, 1, 0 }, { A_EXIT, 0, 0 } };
    const struct step *const s[] = { x, y, q, q };
    struct world w;
    setup(&w, 2, s, 4);
    for (int i = 0; i < 4; i++) mach_start(&w.m, &w.t[i].t, go, &w.t[i]);
    run(&w);
    ASSERT_EQ(w.t[2].marks[0], 17);  /* queued on core 0 behind X */
    ASSERT_EQ(w.t[3].marks[0], 20);  /* queued on core 1, pulled by core 0 at 18 */
    ASSERT_EQ(w.t[3].t.last_core, 0);
    ASSERT_EQ(w.m.migrations, 1);
    teardown(&w);
}

/* A continuation that forgets to burst, block or exit is reported. */
static void forgetful(struct mach_task *t, void *ctx)
{
    (void)t;
    (void)ctx;
}

static void test_protocol_violation_reported(void)
{
    struct world w;
    const struct step *const s[] = { NULL };
    setup(&w, 1, s, 1);
    mach_start(&w.m, &w.t[0].t, forgetful, NULL);
    char err[128];
    ASSERT_EQ(sim_run(w.e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    ASSERT_CONTAINS(w.m.error, "continuation ended without");
    teardown(&w);
}

int main(void)
{
    RUN(test_start_placement);
    RUN(test_same_core_wake);
    RUN(test_remote_busy_wake_and_slice);
    RUN(test_interrupt_cuts_burst);
    RUN(test_interrupt_while_preempted);
    RUN(test_wakeup_preempt);
    RUN(test_idle_balance);
    RUN(test_protocol_violation_reported);
    TEST_DONE();
}
