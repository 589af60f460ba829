/* test_machine_sleepers.c - the OS model with tasks that sleep most of
 * the time and preempt a busy core when woken (wakeup_preempt: the timer
 * thread, the threshold policy's helper):
 * - a task they preempt keeps the time slice it had used, so a stream of
 *   short sleeper wake-ups does not starve the tasks queued behind it;
 * - a preempted task goes back behind sleepers already waiting;
 * - a task a sleeper wakes goes to the sleeper's core (its load is about
 *   nil), not behind a long burst on its previous core.
 * Times in the engine's unit; exact. */
#include "../../common/err.h"
#include "../../sim/engine_heap.h"
#include "../../sim/machine.h"
#include "test.h"

enum act { A_BURST, A_BLOCK, A_WAKE, A_MARK, A_EXIT };
struct step { enum act a; sim_time d; int target; };

struct task {
    struct mach_task t;
    struct machine *m;
    const struct step *s;
    int pc;
    sim_time marks[4];
    int nmarks;
    struct task *all;
};

static void go(struct mach_task *t, void *ctx)
{
    struct task *x = ctx;
    for (;;) {
        const struct step *st = &x->s[x->pc++];
        switch (st->a) {
        case A_BURST: mach_burst(x->m, t, st->d, go, x); return;
        case A_BLOCK: mach_block(x->m, t, go, x); return;
        case A_WAKE: mach_wake(x->m, &x->all[st->target].t, t); continue;
        case A_MARK: if (x->nmarks < 4) x->marks[x->nmarks++] = sim_now(x->m->eng); continue;
        case A_EXIT: mach_exit(x->m, t); return;
        }
    }
}

struct world {
    struct sim_engine *e;
    struct machine m;
    struct task t[3];
    int sleeper;         /* index of the task woken periodically */
    sim_time period, until;
};

static void setup(struct world *w, int cores, const struct step *const *scripts, int n)
{
    struct mach_params p = { .cores = cores, .context_switch = 2, .wake_idle_core = 10,
                             .wake_busy_core = 3, .os_timeslice = 1000 };
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
        w->t[i].all = w->t;
    }
}

static void finish(struct world *w)
{
    char err[128];
    ASSERT_EQ(sim_run(w->e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    ASSERT_STREQ(w->m.error, "");
    mach_free(&w->m);
    sim_destroy(w->e);
}

/* a kernel timer waking the sleeper every `period` until `until` */
static void tick(void *obj, uint64_t arg)
{
    (void)arg;
    struct world *w = obj;
    mach_wake(&w->m, &w->t[w->sleeper].t, NULL);
    if (sim_now(w->e) + w->period < w->until) sim_after(w->e, w->period, tick, w, 0);
}

static void start(void *obj, uint64_t arg)
{
    struct world *w = obj;
    mach_start(&w->m, &w->t[arg].t, go, &w->t[arg]);
}

/* One core.  A sleeper S runs first (10..20) and sleeps; A then computes
 * 10000 from 22, with B queued behind it; a kernel timer wakes S every 300
 * and S preempts A for 10 each time.  A's slice (1000) must still end
 * after about 1000 of A's own time (~1080), letting B in - not 1000 after
 * the last of S's runs. */
static void test_slice_survives_sleeper_preemption(void)
{
    static const struct step a[] = { { A_BURST, 10000, 0 }, { A_EXIT, 0, 0 } };
    static const struct step b[] = { { A_MARK, 0, 0 }, { A_BURST, 10, 0 }, { A_EXIT, 0, 0 } };
    static const struct step s[] = { { A_BURST, 10, 0 }, { A_BLOCK, 0, 0 }, { A_BURST, 10, 0 },
                                     { A_BLOCK, 0, 0 }, { A_BURST, 10, 0 }, { A_BLOCK, 0, 0 },
                                     { A_BURST, 10, 0 }, { A_BLOCK, 0, 0 }, { A_BURST, 10, 0 },
                                     { A_BLOCK, 0, 0 }, { A_BURST, 10, 0 }, { A_EXIT, 0, 0 } };
    const struct step *scripts[] = { a, b, s };
    struct world w;
    setup(&w, 1, scripts, 3);
    w.t[2].t.wakeup_preempt = true;
    w.sleeper = 2;
    w.period = 300;
    w.until = 1600;
    mach_start(&w.m, &w.t[2].t, go, &w.t[2]);  /* S: runs 10..20, sleeps */
    mach_start(&w.m, &w.t[0].t, go, &w.t[0]);  /* A: queued, runs from 22 */
    mach_start(&w.m, &w.t[1].t, go, &w.t[1]);  /* B: queued behind A */
    sim_at(w.e, 300, tick, &w, 0);
    finish(&w);
    ASSERT_EQ(w.t[1].nmarks, 1);
    ASSERT(w.t[1].marks[0] > 1022 && w.t[1].marks[0] < 1100);
    ASSERT_EQ(w.t[0].t.ivcsw, 6);  /* five sleeper preemptions (300..1500) and one slice */
}

/* Two cores.  B runs first on core 0 and sleeps; A then computes a long
 * burst on core 0; the sleeper S, on core 1, wakes B and goes to sleep.
 * B runs on core 1 at once (a context switch after S blocks), not queued
 * on its previous core behind A's slice. */
static void test_wakee_goes_to_sleeping_waker_core(void)
{
    static const struct step b[] = { { A_BURST, 5, 0 }, { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 },
                                     { A_EXIT, 0, 0 } };
    static const struct step s[] = { { A_BURST, 100, 0 }, { A_WAKE, 0, 0 }, { A_BLOCK, 0, 0 },
                                     { A_EXIT, 0, 0 } };
    static const struct step a[] = { { A_BURST, 5000, 0 }, { A_EXIT, 0, 0 } };
    const struct step *scripts[] = { b, s, a };
    struct world w;
    setup(&w, 2, scripts, 3);
    w.t[1].t.wakeup_preempt = true;
    mach_start(&w.m, &w.t[0].t, go, &w.t[0]);  /* B: core 0, 10..15, sleeps */
    mach_start(&w.m, &w.t[1].t, go, &w.t[1]);  /* S: core 1, 10..110 */
    sim_at(w.e, 20, start, &w, 2);             /* A: core 0 (idle), 30.. */
    finish(&w);
    ASSERT_EQ(w.t[0].t.core, -1);
    ASSERT_EQ(w.t[0].nmarks, 1);
    ASSERT_EQ(w.t[0].marks[0], 112);  /* S wakes B at 110 and blocks; switch 2 */
    ASSERT_EQ(w.t[0].t.last_core, 1);
}

static void wake_task(void *obj, uint64_t arg)
{
    struct world *w = obj;
    mach_wake(&w->m, &w->t[arg].t, NULL);
}

/* One core.  The sleeper T is woken (20) while the core is still bringing
 * A in (an idle-core wake-up until 25): it waits at the head of the run
 * queue.  A second sleeper H wakes at 50 and preempts A.  When H sleeps
 * again (62), T runs next (64), before A: A had been pushed back behind
 * the sleeper already waiting, not in front of it. */
static void test_preempted_task_after_waiting_sleepers(void)
{
    static const struct step t[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct step h[] = { { A_BLOCK, 0, 0 }, { A_BURST, 10, 0 }, { A_BLOCK, 0, 0 },
                                     { A_EXIT, 0, 0 } };
    static const struct step a[] = { { A_BURST, 3000, 0 }, { A_EXIT, 0, 0 } };
    const struct step *scripts[] = { t, h, a };
    struct world w;
    setup(&w, 1, scripts, 3);
    w.t[0].t.wakeup_preempt = true;
    w.t[1].t.wakeup_preempt = true;
    mach_start(&w.m, &w.t[0].t, go, &w.t[0]);  /* T: 10, sleeps */
    mach_start(&w.m, &w.t[1].t, go, &w.t[1]);  /* H: 12, sleeps */
    sim_at(w.e, 15, start, &w, 2);             /* A: idle core, arrives at 25 */
    sim_at(w.e, 20, wake_task, &w, 0);
    sim_at(w.e, 50, wake_task, &w, 1);
    finish(&w);
    ASSERT_EQ(w.t[0].nmarks, 1);
    ASSERT_EQ(w.t[0].marks[0], 64);
}

int main(void)
{
    RUN(test_slice_survives_sleeper_preemption);
    RUN(test_wakee_goes_to_sleeping_waker_core);
    RUN(test_preempted_task_after_waiting_sleepers);
    TEST_DONE();
}
