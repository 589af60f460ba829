/* test_machine_sleepers.c - the OS model with tasks that sleep most of
 * the time and preempt a busy core when woken (wakeup_preempt: the timer
 * thread, the threshold policy's helper):
 * - a task they preempt keeps the time slice it had used, so a stream of
 *   short sleeper wake-ups does not starve the tasks queued behind it;
 * - a preempted task goes back behind sleepers already waiting;
 * - a task a sleeper wakes goes to the sleeper's core (its load is about
 *   nil), not behind a long burst on its previous core.
 * Times in the engine's unit; exact. */
#include "mach_script.h"

/* Scripts, the machine and the world: tests/unit/mach_script.h. */

/* a kernel timer waking the task `sleeper` every `period` until `until` */
struct ticker {
    struct ms_world *w;
    int sleeper;
    sim_time period, until;
};

static void tick(void *obj, uint64_t arg)
{
    (void)arg;
    struct ticker *k = obj;
    mach_wake(&k->w->m, &k->w->t[k->sleeper].t, NULL);
    if (sim_now(k->w->e) + k->period < k->until) sim_after(k->w->e, k->period, tick, k, 0);
}

static void start(void *obj, uint64_t arg)
{
    ms_start(obj, (int)arg);
}

/* One core.  A sleeper S runs first (10..20) and sleeps; A then computes
 * 10000 from 22, with B queued behind it; a kernel timer wakes S every 300
 * and S preempts A for 10 each time.  A's slice (1000) must still end
 * after about 1000 of A's own time (~1080), letting B in - not 1000 after
 * the last of S's runs. */
static void test_slice_survives_sleeper_preemption(void)
{
    static const struct ms_step a[] = { { A_BURST, 10000, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step b[] = { { A_MARK, 0, 0 }, { A_BURST, 10, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step s[] = { { A_BURST, 10, 0 }, { A_BLOCK, 0, 0 }, { A_BURST, 10, 0 },
                                        { A_BLOCK, 0, 0 }, { A_BURST, 10, 0 }, { A_BLOCK, 0, 0 },
                                        { A_BURST, 10, 0 }, { A_BLOCK, 0, 0 }, { A_BURST, 10, 0 },
                                        { A_BLOCK, 0, 0 }, { A_BURST, 10, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *scripts[] = { a, b, s };
    struct ms_world w;
    ms_setup(&w, 1, scripts, 3);
    w.t[2].t.wakeup_preempt = true;
    ms_start(&w, 2);  /* S: runs 10..20, sleeps */
    ms_start(&w, 0);  /* A: queued, runs from 22 */
    ms_start(&w, 1);  /* B: queued behind A */
    struct ticker k = { &w, 2, 300, 1600 };
    sim_at(w.e, 300, tick, &k, 0);
    ms_run(&w);
    ms_teardown(&w);
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
    static const struct ms_step b[] = { { A_BURST, 5, 0 }, { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 },
                                        { A_EXIT, 0, 0 } };
    static const struct ms_step s[] = { { A_BURST, 100, 0 }, { A_WAKE, 0, 0 }, { A_BLOCK, 0, 0 },
                                        { A_EXIT, 0, 0 } };
    static const struct ms_step a[] = { { A_BURST, 5000, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *scripts[] = { b, s, a };
    struct ms_world w;
    ms_setup(&w, 2, scripts, 3);
    w.t[1].t.wakeup_preempt = true;
    ms_start(&w, 0);  /* B: core 0, 10..15, sleeps */
    ms_start(&w, 1);  /* S: core 1, 10..110 */
    sim_at(w.e, 20, start, &w, 2);  /* A: core 0 (idle), 30.. */
    ms_run(&w);
    ms_teardown(&w);
    ASSERT_EQ(w.t[0].t.core, -1);
    ASSERT_EQ(w.t[0].nmarks, 1);
    ASSERT_EQ(w.t[0].marks[0], 112);  /* S wakes B at 110 and blocks; switch 2 */
    ASSERT_EQ(w.t[0].t.last_core, 1);
}

static void wake_task(void *obj, uint64_t arg)
{
    struct ms_world *w = obj;
    mach_wake(&w->m, &w->t[arg].t, NULL);
}

/* One core.  The sleeper T is woken (20) while the core is still bringing
 * A in (an idle-core wake-up until 25): it waits at the head of the run
 * queue.  A second sleeper H wakes at 50 and preempts A.  When H sleeps
 * again (62), T runs next (64), before A: A had been pushed back behind
 * the sleeper already waiting, not in front of it. */
static void test_preempted_task_after_waiting_sleepers(void)
{
    static const struct ms_step t[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step h[] = { { A_BLOCK, 0, 0 }, { A_BURST, 10, 0 }, { A_BLOCK, 0, 0 },
                                        { A_EXIT, 0, 0 } };
    static const struct ms_step a[] = { { A_BURST, 3000, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *scripts[] = { t, h, a };
    struct ms_world w;
    ms_setup(&w, 1, scripts, 3);
    w.t[0].t.wakeup_preempt = true;
    w.t[1].t.wakeup_preempt = true;
    ms_start(&w, 0);  /* T: 10, sleeps */
    ms_start(&w, 1);  /* H: 12, sleeps */
    sim_at(w.e, 15, start, &w, 2);  /* A: idle core, arrives at 25 */
    sim_at(w.e, 20, wake_task, &w, 0);
    sim_at(w.e, 50, wake_task, &w, 1);
    ms_run(&w);
    ms_teardown(&w);
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
