/* test_machine.c - the OS model: wake placement and its latencies, run
 * queues, time slices, burst cuts, wakeup preemption, idle balance.
 * Each test drives tasks with a small script and checks exact times. */
#include "mach_script.h"

/* Scripts, the machine and the world: tests/unit/mach_script.h. */

/* Start placement: idle cores first (wake_idle_core), then the least
 * loaded run queue; a queued task runs after a context switch. */
static void test_start_placement(void)
{
    static const struct ms_step a[] = { { A_MARK, 0, 0 }, { A_BURST, 5, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step c[] = { { A_MARK, 0, 0 }, { A_BURST, 1, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { a, a, c };
    struct ms_world w;
    ms_setup(&w, 2, s, 3);
    for (int i = 0; i < 3; i++) ms_start(&w, i);
    ms_run(&w);
    ASSERT_EQ(w.t[0].marks[0], 10);  /* idle core 0 */
    ASSERT_EQ(w.t[1].marks[0], 10);  /* idle core 1 */
    ASSERT_EQ(w.t[2].marks[0], 17);  /* queued on core 0: 10 + 5 + switch 2 */
    ASSERT_EQ(w.t[2].t.last_core, 0);
    ASSERT_EQ(w.m.cores[0].waking_time, 10);
    ASSERT_EQ(w.m.cores[0].switch_time, 2);
    ASSERT_EQ(w.m.cores[0].busy_time, 6);
    ASSERT_EQ(mach_cpu_time(&w.m), 2 + 6 + 5);
    ms_teardown(&w);
}

/* The process's CPU clock as a reader gets it (mach_cpu_clock_read):
 * its own runtime exact, another core's running task's only up to its last
 * update - a tick (every 100 here), its own read, its switch.  A and B
 * arrive at 10 on cores 0 and 1.  A reads at 135 and 175; B runs to 160
 * and sleeps.  Without B's own read: the first read takes B up to the tick
 * at 100 (90), the second all of its 150 - a window of 40 of A's and 60 of
 * B's, who ran 25 in it.  With B reading at 120: up to 120 (110), then 150. */
static void test_process_clock(void)
{
    static const struct ms_step a[] = { { A_BURST, 125, 0 }, { A_PCLOCK, 0, 0 }, { A_BURST, 40, 0 },
                                         { A_PCLOCK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step b[] = { { A_BURST, 150, 0 }, { A_BLOCK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step b_reads[] = { { A_BURST, 110, 0 }, { A_PCLOCK, 0, 0 }, { A_BURST, 40, 0 },
                                               { A_BLOCK, 0, 0 }, { A_EXIT, 0, 0 } };
    for (int reads = 0; reads < 2; reads++) {
        const struct ms_step *const s[] = { a, reads ? b_reads : b };
        struct ms_world w;
        ms_setup(&w, 2, s, 2);
        ms_start(&w, 0);
        ms_start(&w, 1);
        ms_run(&w);
        ASSERT_EQ(w.t[0].t.last_core, 0);
        ASSERT_EQ(w.t[1].t.last_core, 1);
        ASSERT_EQ(w.t[0].nclocks, 2);
        ASSERT_EQ(w.t[0].clocks[0], 125 + (reads ? 110 : 90));
        ASSERT_EQ(w.t[0].clocks[1], 165 + 150);
        if (reads) ASSERT_EQ(w.t[1].clocks[0], 110 + 90);  /* its own exact, A's up to the tick at 100 */
        ms_teardown(&w);
    }
}

/* One core: the wakee waits for the waker to block, then a context switch. */
static const struct ms_step same_a[] = { { A_BURST, 20, 0 }, { A_WAKE, 0, 1 }, { A_BURST, 7, 0 },
                                         { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
static const struct ms_step same_b[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_BURST, 4, 0 },
                                         { A_WAKE, 0, 0 }, { A_EXIT, 0, 0 } };

static void test_same_core_wake(void)
{
    const struct ms_step *const s[] = { same_a, same_b };
    struct ms_world w;
    ms_setup(&w, 1, s, 2);
    ms_start(&w, 1);  /* B: idle core, arrives 10, blocks */
    ms_start(&w, 0);  /* A: queued, switched in at 12 */
    ms_run(&w);
    /* A 12..32, wakes B onto its own core, 32..39, blocks: switch, B at 41 */
    ASSERT_EQ(w.t[1].marks[0], 41);
    /* B 41..45 wakes A, exits: switch, A at 47 */
    ASSERT_EQ(w.t[0].marks[0], 47);
    ASSERT_EQ(w.t[0].t.vcsw, 1);
    ASSERT_EQ(w.t[1].t.vcsw, 1);
    ASSERT_EQ(w.t[0].t.ivcsw, 0);
    /* both wakes stay on the waker's core: no IPI; and the core has not
     * been idle since either wakee went to sleep: a hand-off chain */
    ASSERT_EQ(w.t[0].woke[0], MACH_WAKE_CHAIN);
    ASSERT_EQ(w.t[1].woke[0], MACH_WAKE_CHAIN);
    ms_teardown(&w);
}

/* mark_after_idle: a task that arrives on an idle core gets every
 * after_idle bit (its owner clears them), one switched in on a busy core
 * none; without the parameter none at all.  The same world as above: B
 * starts on the idle core, A after it on the same core, and every wake
 * after is a switch on that busy core. */
static void test_after_idle_mark(void)
{
    const struct ms_step *const s[] = { same_a, same_b };
    for (int mark = 0; mark < 2; mark++) {
        struct ms_world w;
        struct mach_params p = ms_params(1, MACH_SCHED_FIFO);
        p.mark_after_idle = mark;
        ms_setup_params(&w, &p, s, 2);
        ms_start(&w, 1);
        ms_start(&w, 0);
        ms_run(&w);
        ASSERT_EQ(w.t[1].marks[0], 41);  /* the marks change no time */
        ASSERT_EQ(w.t[1].t.after_idle, mark ? UINT8_MAX : 0);
        ASSERT_EQ(w.t[0].t.after_idle, 0);
        ms_teardown(&w);
    }
}

/* A local wake is a hand-off chain (futex_wake_chain) only if the core
 * has not been idle since the wakee went to sleep: A blocks at 10, B runs
 * 12..22 and blocks, the core idles (the run ends with A's slice event, at
 * 1010); woken from outside then (a timer), A runs 10 later, wakes B 20
 * after (the core idled since B slept: LOCAL, futex_wake), blocks 5 after;
 * B runs after a switch and wakes A 4 later (the core busy all along since
 * A slept: CHAIN). */
static const struct ms_step chain_a[] = { { A_BLOCK, 0, 0 }, { A_BURST, 20, 0 }, { A_WAKE, 0, 1 },
                                          { A_BURST, 5, 0 }, { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 },
                                          { A_EXIT, 0, 0 } };
static const struct ms_step chain_b[] = { { A_BURST, 10, 0 }, { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 },
                                          { A_BURST, 4, 0 }, { A_WAKE, 0, 0 }, { A_EXIT, 0, 0 } };

static void test_wake_chain(void)
{
    const struct ms_step *const s[] = { chain_a, chain_b };
    struct ms_world w;
    ms_setup(&w, 1, s, 2);
    ms_start(&w, 0);
    ms_start(&w, 1);
    ms_run(&w);
    ASSERT_EQ(w.m.cores[0].state, CORE_IDLE);
    ASSERT_EQ(w.m.cores[0].idle_at, 22);
    sim_time t0 = sim_now(w.e);
    ASSERT_EQ(mach_wake(&w.m, &w.t[0].t, NULL), MACH_WAKE_LOCAL);
    ms_run(&w);
    ASSERT_EQ(w.t[1].marks[0], t0 + 10 + 20 + 5 + 2);
    ASSERT_EQ(w.t[0].woke[0], MACH_WAKE_LOCAL);
    ASSERT_EQ(w.t[1].woke[0], MACH_WAKE_CHAIN);
    ASSERT_EQ(w.t[0].marks[0], t0 + 37 + 4 + 2);
    ms_teardown(&w);
}

/* The same chain with the sleeper's share of the hand-off (wake_return, the
 * return of its FUTEX_WAIT): a task woken MACH_WAKE_CHAIN pays it in its
 * switch back in, before its code runs; a LOCAL wake (from an idle core,
 * no waker) does not, and the next arrival of the same task pays nothing. */
static void test_wake_return(void)
{
    const struct ms_step *const s[] = { chain_a, chain_b };
    struct ms_world w;
    struct mach_params p = ms_params(1, MACH_SCHED_FIFO);
    p.wake_return = 7;
    ms_setup_params(&w, &p, s, 2);
    ms_start(&w, 0);
    ms_start(&w, 1);
    ms_run(&w);
    sim_time t0 = sim_now(w.e);
    ASSERT_EQ(mach_wake(&w.m, &w.t[0].t, NULL), MACH_WAKE_LOCAL);
    ms_run(&w);
    ASSERT_EQ(w.t[1].woke[0], MACH_WAKE_CHAIN);
    ASSERT_EQ(w.t[1].marks[0], t0 + 10 + 20 + 5 + 2);  /* b's own LOCAL wake: no return */
    ASSERT_EQ(w.t[0].marks[0], t0 + 37 + 4 + 2 + 7);   /* a: switch + its FUTEX_WAIT's return */
    ASSERT_EQ(w.t[0].t.wake_return, 0);
    ms_teardown(&w);
}

/* A wake onto another core (idle: X wakes Z; busy: done below) interrupts
 * it: MACH_WAKE_REMOTE, for which the waker pays wake_ipi; waking a task
 * that is not asleep is MACH_WAKE_NONE. */
static void test_wake_kinds(void)
{
    static const struct ms_step z[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step x[] = { { A_BURST, 100, 0 }, { A_WAKE, 0, 0 }, { A_WAKE, 0, 0 },
                                         { A_BURST, 50, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { z, x };
    struct ms_world w;
    ms_setup(&w, 2, s, 2);
    ms_start(&w, 0);  /* Z: core 0 at 10, blocks */
    ms_start(&w, 1);  /* X: core 1 at 10 */
    ms_run(&w);
    ASSERT_EQ(w.t[1].woke[0], MACH_WAKE_REMOTE);  /* Z's core 0 is idle: IPI */
    ASSERT_EQ(w.t[1].woke[1], MACH_WAKE_NONE);    /* Z is already on its way */
    ASSERT_EQ(w.t[0].marks[0], 120);              /* 110 + wake_idle_core 10 */
    ms_teardown(&w);
}

/* No idle core: a wakee lands on a busy remote core after wake_busy_core
 * and waits for the time slice to end: an involuntary switch. */
static void test_remote_busy_wake_and_slice(void)
{
    static const struct ms_step z[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_BURST, 1, 0 },
                                         { A_EXIT, 0, 0 } };
    static const struct ms_step x[] = { { A_BURST, 100, 0 }, { A_WAKE, 0, 0 }, { A_BURST, 5000, 0 },
                                         { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step y[] = { { A_BURST, 6000, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { z, x, y };
    struct ms_world w;
    ms_setup(&w, 2, s, 3);
    for (int i = 0; i < 3; i++) ms_start(&w, i);
    ms_run(&w);
    /* Z core 0 at 10, blocks; Y (queued on core 0) at 12; X core 1 at 10.
     * X wakes Z at 110: Z's previous core 0 is busy, so after the IPI (113)
     * it queues there; Y's slice (from 12) ends at 1012: Z runs at 1014. */
    ASSERT_EQ(w.t[0].marks[0], 1014);
    ASSERT_EQ(w.t[2].t.ivcsw, 1);
    /* Y ran 1000 of 6000, resumes at 1017 after Z (1014..1015) and a switch */
    ASSERT_EQ(w.t[2].marks[0], 6017);
    ASSERT_EQ(w.t[1].marks[0], 5110);
    ASSERT_EQ(w.t[1].t.ivcsw, 0);
    ASSERT_EQ(w.t[1].woke[0], MACH_WAKE_REMOTE);  /* onto busy core 0 */
    ms_teardown(&w);
}

/* Wake placement with an idle core, the wakee last run on its waker's core
 * (wake_pack): B starts on core 0 and blocks, A runs there after it, C
 * leaves core 1 idle; A wakes B at 112 and works 50 more.  Mainline
 * (wake_pack 0) sends B to idle core 1 (122, an IPI); packing (1) queues
 * it behind A on core 0: it runs when A exits (162 + a switch).  B slept
 * 102 (10..112): with wake_pack_sleep it is packed only below that. */
static sim_time pack_run_slept(double pack, sim_time pack_sleep, uint64_t seed, int *woke)
{
    static const struct ms_step b[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step c[] = { { A_EXIT, 0, 0 } };
    static const struct ms_step a[] = { { A_BURST, 100, 0 }, { A_WAKE, 0, 0 }, { A_BURST, 50, 0 },
                                         { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { b, c, a };
    struct mach_params p = ms_params(2, MACH_SCHED_FIFO);
    p.wake_pack = pack;
    p.wake_pack_sleep = pack_sleep;
    p.seed = seed;
    struct ms_world w;
    ms_setup_params(&w, &p, s, 3);
    for (int i = 0; i < 3; i++) ms_start(&w, i);
    ms_run(&w);
    ASSERT_EQ(w.t[2].t.last_core, 0);
    *woke = w.t[2].woke[0];
    sim_time at = w.t[0].marks[0];
    ms_teardown(&w);
    return at;
}

static sim_time pack_run(double pack, uint64_t seed, int *woke)
{
    return pack_run_slept(pack, 0, seed, woke);
}

static void test_wake_pack(void)
{
    int woke;
    ASSERT_EQ(pack_run(0, 1, &woke), 122);
    ASSERT_EQ(woke, MACH_WAKE_REMOTE);
    ASSERT_EQ(pack_run(1, 1, &woke), 164);
    ASSERT_EQ(woke, MACH_WAKE_CHAIN);  /* core 0 busy since B slept */
    /* a share: each such wake drawn from the machine's stream - both
     * outcomes over seeds, the same one for the same seed */
    int packed = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        sim_time at = pack_run(0.5, seed, &woke);
        ASSERT(at == 122 || at == 164);
        ASSERT_EQ(pack_run(0.5, seed, &woke), at);
        packed += at == 164;
    }
    ASSERT(packed >= 8 && packed <= 32);
}

/* wake_pack_util: B starts on core 0 and blocks; A runs there `busy`, then
 * wakes B (core 1 idle throughout).  A fair class keeps each task's
 * utilization (PELT: halving every 32 ms), and a packing machine keeps B
 * behind A only while A's and B's sum below wake_pack_util: after 20 ms of
 * running A's is 1 - 2^(-20/32) = 0.35 and B's about 0 (packed), after
 * 100 ms 0.89 (sent to the idle core).  Without the limit, or under fifo
 * (no load tracking), packed either way. */
static int pack_util_run(enum mach_sched sched, double limit, sim_time busy)
{
    static const struct ms_step b[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step c[] = { { A_EXIT, 0, 0 } };
    struct ms_step a[] = { { A_BURST, busy, 0 }, { A_WAKE, 0, 0 }, { A_BURST, 50, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { b, c, a };
    struct mach_params p = ms_params(2, sched);
    p.wake_pack = 1;
    p.wake_pack_util = limit;
    struct ms_world w;
    ms_setup_params(&w, &p, s, 3);
    for (int i = 0; i < 3; i++) ms_start(&w, i);
    ms_run(&w);
    ASSERT_EQ(w.t[2].t.last_core, 0);
    int woke = w.t[2].woke[0];
    ms_teardown(&w);
    return woke;
}

static void test_wake_pack_util(void)
{
    ASSERT_EQ(pack_util_run(MACH_SCHED_EEVDF, 0.72, 20 * SIM_MS), MACH_WAKE_CHAIN);
    ASSERT_EQ(pack_util_run(MACH_SCHED_EEVDF, 0.72, 100 * SIM_MS), MACH_WAKE_REMOTE);
    ASSERT_EQ(pack_util_run(MACH_SCHED_EEVDF, 0.95, 100 * SIM_MS), MACH_WAKE_CHAIN);
    ASSERT_EQ(pack_util_run(MACH_SCHED_EEVDF, 0, 100 * SIM_MS), MACH_WAKE_CHAIN);
    ASSERT_EQ(pack_util_run(MACH_SCHED_FIFO, 0.72, 100 * SIM_MS), MACH_WAKE_CHAIN);
}

/* The busy core's tick kicks the idle one (nohz idle balance): B, packed
 * behind A on core 0 when A wakes it at first + 12, while A works 1000
 * more and core 1 idles.  Ticks every 100: B slept less than 500 us, so it
 * is cache-hot, refused twice (cache_nice_tries 1) and pulled at the third
 * tick; it reaches core 1 one idle wake (10) later, long before A's end
 * would have let it run (at A's end, 1114, without the kick). */
static void nohz_run(sim_time first, sim_time expect)
{
    static const struct ms_step b[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step c[] = { { A_EXIT, 0, 0 } };
    struct ms_step a[] = { { A_BURST, first, 0 }, { A_WAKE, 0, 0 }, { A_BURST, 1000, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { b, c, a };
    struct mach_params p = ms_params(2, MACH_SCHED_FIFO);
    p.wake_pack = 1;
    struct ms_world w;
    ms_setup_params(&w, &p, s, 3);
    for (int i = 0; i < 3; i++) ms_start(&w, i);
    ms_run(&w);
    ASSERT_EQ(w.t[0].marks[0], expect);
    ASSERT_EQ(w.t[0].t.last_core, 1);
    ASSERT_EQ(w.m.migrations, 1);
    ASSERT_EQ(w.m.cores[0].nohz_failed, 0);
    ms_teardown(&w);
}

static void test_nohz_kick(void)
{
    nohz_run(100, 410);  /* woken at 112: refused at 200 and 300, pulled at 400 */
    nohz_run(150, 410);  /* woken at 162: the same ticks */
    nohz_run(250, 510);  /* woken at 262: refused at 300 and 400, pulled at 500 */
}

/* wake_pack_sleep: a wakee that slept less than it stays on its busy last
 * core; one that slept as long or longer goes to the idle core, as on
 * mainline, whatever the share (this guest: ~300 us, docs/validate.md). */
static void test_wake_pack_sleep(void)
{
    int woke;
    ASSERT_EQ(pack_run_slept(1, 103, 1, &woke), 164);  /* slept 102 < 103: packed */
    ASSERT_EQ(woke, MACH_WAKE_CHAIN);
    ASSERT_EQ(pack_run_slept(1, 102, 1, &woke), 122);  /* slept 102, not shorter: the idle core */
    ASSERT_EQ(woke, MACH_WAKE_REMOTE);
    ASSERT_EQ(pack_run_slept(1, 50, 1, &woke), 122);
    /* below the threshold the share still applies: never at 0 */
    ASSERT_EQ(pack_run_slept(0, 1000, 1, &woke), 122);
    /* a long sleep takes no draw: the same outcome for every seed */
    for (uint64_t seed = 1; seed <= 10; seed++) ASSERT_EQ(pack_run_slept(0.5, 50, seed, &woke), 122);
}

/* wake_idle_extra: B blocks on core 0 at 10 (the core idles from then),
 * A runs on core 1 from 10, works `idle`, then wakes B, which goes back
 * to idle core 0: wake_idle_core (10) plus the curve at the time core 0
 * has been idle.  The curve (100, 0), (10000, 100): linear in log idle
 * time, so 50 at 1000; 0 below 100; 100 from 10000 on. */
static void remote_wake_world(struct ms_world *w, const struct mach_params *p, sim_time idle)
{
    static const struct ms_step b[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    struct ms_step a[] = { { A_BURST, idle, 0 }, { A_WAKE, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { b, a };
    ms_setup_params(w, p, s, 2);
    ms_start(w, 0);
    ms_start(w, 1);
    ms_run(w);
    ASSERT_EQ(w->t[0].t.last_core, 0);
    ASSERT_EQ(w->t[1].woke[0], MACH_WAKE_REMOTE);
}

static sim_time idle_wake_run(sim_time idle, bool curve)
{
    struct mach_params p = ms_params(2, MACH_SCHED_FIFO);
    struct gv_curve points = { .n = 2, .x = { 100, 10000 }, .y = { 0, 100 } };
    if (curve) p.wake_idle_extra = &points;
    struct ms_world w;
    remote_wake_world(&w, &p, idle);
    sim_time waking = w.m.cores[0].waking_time;  /* its start-up (10) and the wake-up */
    sim_time at = w.t[0].marks[0];
    ASSERT_EQ(waking, 10 + (at - (10 + idle)));
    ms_teardown(&w);
    return at - (10 + idle);  /* the wake-up's latency */
}

/* wake_idle_cpu: the same wake (latency 10), with `cpu` of it the wakee's
 * CPU time: core 0's busy time grows by that much (at most the latency),
 * nothing else moves; B's start on idle core 0 (no waker) charges none. */
static void wake_cpu_run(sim_time cpu, sim_time *wake_cpu, sim_time *cpu_total, sim_time *at)
{
    struct mach_params p = ms_params(2, MACH_SCHED_FIFO);
    p.wake_idle_cpu = cpu;
    struct ms_world w;
    remote_wake_world(&w, &p, 500);
    ASSERT_EQ(w.m.cores[0].waking_time, 10 + 10);  /* the start-up and the wake: timing unchanged */
    ASSERT_EQ(w.m.cores[1].wake_cpu_time, 0);
    *wake_cpu = w.m.cores[0].wake_cpu_time;
    *cpu_total = mach_cpu_time(&w.m);
    *at = w.t[0].marks[0];
    ms_teardown(&w);
}

static void test_wake_idle_cpu(void)
{
    sim_time wc0, cpu0, at0, wc, cpu, at;
    wake_cpu_run(0, &wc0, &cpu0, &at0);
    ASSERT_EQ(wc0, 0);
    ASSERT_EQ(at0, 10 + 500 + 10);  /* B runs at its wake's latency after A's wake */
    wake_cpu_run(4, &wc, &cpu, &at);
    ASSERT_EQ(wc, 4);
    ASSERT_EQ(cpu, cpu0 + 4);
    ASSERT_EQ(at, at0);
    wake_cpu_run(25, &wc, &cpu, &at);  /* more than the latency: the latency */
    ASSERT_EQ(wc, 10);
    ASSERT_EQ(cpu, cpu0 + 10);
    ASSERT_EQ(at, at0);
}

/* wake_ipi_extra: the same wake, what its IPI costs the waker beyond
 * wake_ipi (mach_wake_ipi_extra) by core 0's idle time, from the curve
 * (100, 0), (10000, 100); 0 without a curve, for a local wake (below) and
 * for a wake that found its wakee awake. */
static sim_time ipi_wake_run(sim_time idle, bool curve)
{
    static const struct ms_step b[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    struct ms_step a[] = { { A_BURST, idle, 0 }, { A_WAKE, 0, 0 }, { A_WAKE, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { b, a };
    struct mach_params p = ms_params(2, MACH_SCHED_FIFO);
    struct gv_curve points = { .n = 2, .x = { 100, 10000 }, .y = { 0, 100 } };
    if (curve) p.wake_ipi_extra = &points;
    struct ms_world w;
    ms_setup_params(&w, &p, s, 2);
    ms_start(&w, 0);
    ms_start(&w, 1);
    ms_run(&w);
    ASSERT_EQ(w.t[1].woke[0], MACH_WAKE_REMOTE);
    ASSERT_EQ(w.t[0].marks[0] - (10 + idle), 10);  /* the latency is not the curve's business */
    ASSERT_EQ(w.t[1].woke[1], MACH_WAKE_NONE);
    ASSERT_EQ(w.t[1].ipi[1], 0);
    sim_time extra = w.t[1].ipi[0];
    ms_teardown(&w);
    return extra;
}

static void test_wake_ipi_extra(void)
{
    ASSERT_EQ(ipi_wake_run(1000, false), 0);
    ASSERT_EQ(ipi_wake_run(50, true), 0);
    ASSERT_EQ(ipi_wake_run(1000, true), 50);
    ASSERT_EQ(ipi_wake_run(50000, true), 100);
    /* a wake onto the waker's own core sends no IPI */
    static const struct ms_step b[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step a[] = { { A_BURST, 5000, 0 }, { A_WAKE, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { b, a };
    struct mach_params p = ms_params(1, MACH_SCHED_FIFO);
    struct gv_curve points = { .n = 2, .x = { 100, 10000 }, .y = { 0, 100 } };
    p.wake_ipi_extra = &points;
    struct ms_world w;
    ms_setup_params(&w, &p, s, 2);
    ms_start(&w, 0);
    ms_start(&w, 1);
    ms_run(&w);
    ASSERT(w.t[1].woke[0] == MACH_WAKE_LOCAL || w.t[1].woke[0] == MACH_WAKE_CHAIN);
    ASSERT_EQ(w.t[1].ipi[0], 0);
    ms_teardown(&w);
}

/* wake_waking: B and C sleep, last on core 0; A, on core 1, wakes B (core
 * 0 idle: it starts waking up, an ordinary remote wake) and at once C,
 * which goes to core 0 while it is still waking for B: that wake's cost
 * is one of wake_waking's values, drawn (each seen over the seeds); none
 * without the key. */
static void waking_run(bool on, uint64_t seed, int *woke, sim_time *first, sim_time *second)
{
    static const struct ms_step b[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step a[] = { { A_BURST, 500, 0 }, { A_WAKE, 0, 0 }, { A_WAKE, 0, 2 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { b, a, b };
    struct mach_params p = ms_params(2, MACH_SCHED_FIFO);
    static const sim_time costs[] = { 700, 900 };
    if (on) {
        p.wake_waking = costs;
        p.wake_waking_n = 2;
    }
    p.seed = seed;
    struct ms_world w;
    ms_setup_params(&w, &p, s, 3);
    for (int i = 0; i < 3; i++) ms_start(&w, i);
    ms_run(&w);
    ASSERT(w.t[0].t.last_core == 0 && w.t[2].t.last_core == 0);  /* both woken onto core 0 */
    ASSERT_EQ(w.t[1].nwoke, 2);
    ASSERT(w.t[1].woke[0] == MACH_WAKE_REMOTE);
    *woke = w.t[1].woke[1];
    *first = w.t[1].waking[0];
    *second = w.t[1].waking[1];
    ms_teardown(&w);
}

static void test_wake_waking(void)
{
    int woke, n700 = 0, n900 = 0;
    sim_time first, second;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        waking_run(true, seed, &woke, &first, &second);
        ASSERT_EQ(woke, MACH_WAKE_REMOTE);
        ASSERT_EQ(first, -1);                /* onto an idle core: not such a wake */
        ASSERT(second == 700 || second == 900);
        n700 += second == 700;
        n900 += second == 900;
    }
    ASSERT(n700 > 0 && n900 > 0);
    waking_run(false, 1, &woke, &first, &second);
    ASSERT(woke == MACH_WAKE_REMOTE && first == -1 && second == -1);
}

/* wake_prehalt_*: B blocks on core 0; A, running on core 1, wakes it
 * `after` later.  Within the window (40 of 100) the wake finds core 0's
 * vCPU not yet halted: its waker pays wake_prehalt_cost (7), no IPI
 * (mach_wake_waking_cost), and B is back at
 * wake_prehalt_return (160) after it blocked, not wake_idle_core (500)
 * after the wake; past the window (300), an ordinary idle wake.  With a
 * share of one half, some wakes within the window are of each kind over
 * the seeds; with the share 0 or no window, none is. */
static void prehalt_run(sim_time window, double share, sim_time after, uint64_t seed, bool *prehalt,
                        sim_time *back)
{
    static const struct ms_step b[] = { { A_MARK, 0, 0 }, { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step a[] = { { A_BURST, after, 0 }, { A_WAKE, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { b, a };
    struct mach_params p = ms_params(2, MACH_SCHED_FIFO);
    p.context_switch = 0;
    p.wake_idle_core = 500;
    p.wake_prehalt_window = window;
    p.wake_prehalt_share = share;
    p.wake_prehalt_return = 160;
    p.wake_prehalt_cost = 7;
    p.seed = seed;
    struct ms_world w;
    ms_setup_params(&w, &p, s, 2);
    ms_start(&w, 0);  /* both arrive on their idle cores together (500), */
    ms_start(&w, 1);  /* B blocks at once, A wakes it `after` later */
    ms_run(&w);
    ASSERT_EQ(w.t[1].nwoke, 1);
    ASSERT_EQ(w.t[1].woke[0], MACH_WAKE_REMOTE);
    ASSERT_EQ(w.t[0].nmarks, 2);
    ASSERT(w.t[1].waking[0] == 7 || w.t[1].waking[0] == -1);
    *prehalt = w.t[1].waking[0] == 7;
    *back = w.t[0].marks[1] - w.t[0].marks[0];
    ms_teardown(&w);
}

static void test_wake_prehalt(void)
{
    bool pre;
    sim_time back;
    prehalt_run(100, 1, 40, 1, &pre, &back);
    ASSERT(pre);
    ASSERT_EQ(back, 160);
    prehalt_run(100, 1, 300, 1, &pre, &back);
    ASSERT(!pre);
    ASSERT_EQ(back, 300 + 500);
    prehalt_run(0, 1, 40, 1, &pre, &back);
    ASSERT(!pre);
    ASSERT_EQ(back, 40 + 500);
    prehalt_run(100, 0, 40, 1, &pre, &back);
    ASSERT(!pre);
    int n = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        prehalt_run(100, 0.5, 40, seed, &pre, &back);
        ASSERT_EQ(back, pre ? 160 : 40 + 500);
        n += pre;
    }
    ASSERT(n > 0 && n < 20);
}

/* mach_stall_core: a timer's expiry stops one core (machine.timer_stall).
 * Task 0 runs a burst of 1,000 on core 0; at 100 the core stops for 50:
 * the burst ends at 1,050 (its task charged: the core counts it busy).
 * Core 1 is idle: nothing to stop (0).  A machine not set up with
 * expiry_stalls stops nothing. */
struct stall_call {
    struct machine *m;
    int core;
    sim_time g, got;
};

static void stall_at(void *obj, uint64_t arg)
{
    (void)arg;
    struct stall_call *c = obj;
    c->got = mach_stall_core(c->m, c->core, c->g);
}

static void stall_run(bool on, int core, sim_time *end, sim_time *got, sim_time *busy)
{
    static const struct ms_step a[] = { { A_BURST, 1000, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { a };
    struct mach_params p = ms_params(2, MACH_SCHED_EEVDF);
    p.expiry_stalls = on;
    struct ms_world w;
    ms_setup_params(&w, &p, s, 1);
    ms_start(&w, 0);
    struct stall_call c = { &w.m, core, 50, -1 };
    sim_at(w.e, 100, stall_at, &c, 0);
    ms_run(&w);
    *end = w.t[0].marks[0];
    *got = c.got;
    *busy = w.m.cores[0].busy_time;
    ms_teardown(&w);
}

static void test_stall_core(void)
{
    sim_time end0, got0, busy0, end, got, busy;
    stall_run(false, 0, &end0, &got0, &busy0);
    ASSERT_EQ(got0, 0);
    stall_run(true, 0, &end, &got, &busy);
    ASSERT_EQ(got, 50);
    ASSERT_EQ(end, end0 + 50);
    ASSERT_EQ(busy, busy0 + 50);
    stall_run(true, 1, &end, &got, &busy);  /* the idle core */
    ASSERT_EQ(got, 0);
    ASSERT_EQ(end, end0);
}

/* Hidden steal: one task's burst of 1,000,000 on one core, gaps every
 * 10,000 on average (rate 1e8/s), each 100 or 300 long.  The burst ends
 * late by exactly the gaps that fell in it, which the core counts as busy
 * (the guest charges them to the running task); the same seed gives the
 * same gaps, another seed others; no rate, no gap. */
struct steal_out {
    sim_time end, stolen, busy;
    uint64_t steals;
};

static struct steal_out steal_run(double rate, uint64_t seed, enum mach_sched sched)
{
    static const struct ms_step a[] = { { A_BURST, 1000000, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { a };
    struct mach_params p = ms_params(1, sched);
    static const sim_time lens[] = { 100, 300 };
    p.steal_rate = rate;
    p.steal_len = lens;
    p.steal_nlen = 2;
    p.seed = seed;
    struct ms_world w;
    ms_setup_params(&w, &p, s, 1);
    ms_start(&w, 0);
    ms_run(&w);
    struct steal_out o = { w.t[0].marks[0], w.m.stolen, w.m.cores[0].busy_time, w.m.steals };
    ms_teardown(&w);
    return o;
}

static void test_hidden_steal(void)
{
    struct steal_out none = steal_run(0, 1, MACH_SCHED_EEVDF);
    ASSERT_EQ(none.end, 10 + 1000000);  /* arrival on the idle core, then the burst */
    ASSERT_EQ(none.steals, 0);
    struct steal_out a = steal_run(1e8, 1, MACH_SCHED_EEVDF), b = steal_run(1e8, 1, MACH_SCHED_EEVDF);
    ASSERT(a.steals > 50 && a.steals < 150);     /* ~100 expected (a gap's length also passes) */
    ASSERT_EQ(a.end, 10 + 1000000 + a.stolen);   /* late by the gaps */
    ASSERT_EQ(a.busy, 1000000 + a.stolen);       /* ... counted as the task's run */
    ASSERT((a.stolen - 100 * (sim_time)a.steals) % 200 == 0);  /* each gap 100 or 300 */
    ASSERT(a.stolen > 100 * (sim_time)a.steals && a.stolen < 300 * (sim_time)a.steals);
    ASSERT(a.end == b.end && a.stolen == b.stolen && a.steals == b.steals);  /* deterministic */
    struct steal_out c = steal_run(1e8, 2, MACH_SCHED_EEVDF);
    ASSERT(c.stolen != a.stolen || c.steals != a.steals);                     /* the seed's */
    struct steal_out f = steal_run(1e8, 1, MACH_SCHED_FIFO);
    ASSERT(f.stolen == a.stolen && f.steals == a.steals);  /* the gaps' stream is their own */

    /* two cores, both busy: a gap stops both at once (the host stops the
     * guest), so both bursts end late by the same time */
    static const struct ms_step x[] = { { A_BURST, 1000000, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s2[] = { x, x };
    struct mach_params p = ms_params(2, MACH_SCHED_EEVDF);
    static const sim_time lens[] = { 100, 300 };
    p.steal_rate = 1e8;
    p.steal_len = lens;
    p.steal_nlen = 2;
    struct ms_world w;
    ms_setup_params(&w, &p, s2, 2);
    ms_start(&w, 0);
    ms_start(&w, 1);
    ms_run(&w);
    ASSERT(w.m.steals > 100 && w.m.steals % 2 == 0);  /* counted per core stopped */
    ASSERT_EQ(w.t[0].marks[0], w.t[1].marks[0]);
    ASSERT_EQ(w.t[0].marks[0], 10 + 1000000 + w.m.stolen / 2);
    ms_teardown(&w);
}

/* Speed levels: one task's burst of 1,000,000 on one core whose levels
 * switch every 1,000 on average.  Two levels of one factor, 2: the burst
 * takes twice its work exactly, however often it is re-timed (the work is
 * kept across each switch); levels 1 and 3, equally long on average: half
 * the time at each, in which the work goes at 1 and at 1/3, so the burst
 * takes about 1.5 times its work (within a tenth over ~1,000 switches),
 * the same for the same seed; no levels: the work. */
static sim_time speed_run(const double *f, uint64_t seed)
{
    static const struct ms_step a[] = { { A_BURST, 1000000, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { a };
    struct mach_params p = ms_params(1, MACH_SCHED_EEVDF);
    static const sim_time dwell[] = { 1000, 1000 };
    p.speed_f = f;
    p.speed_dwell = f ? dwell : NULL;
    p.speed_n = f ? 2 : 0;
    p.seed = seed;
    struct ms_world w;
    ms_setup_params(&w, &p, s, 1);
    ms_start(&w, 0);
    ms_run(&w);
    sim_time end = w.t[0].marks[0];
    ms_teardown(&w);
    return end;
}

static void test_speed_levels(void)
{
    static const double same[] = { 2.0, 2.0 }, two[] = { 1.0, 3.0 };
    ASSERT_EQ(speed_run(NULL, 1), 10 + 1000000);
    ASSERT_EQ(speed_run(same, 1), 10 + 2000000);
    sim_time a = speed_run(two, 1), b = speed_run(two, 1), c = speed_run(two, 2);
    ASSERT(a > 10 + 1350000 && a < 10 + 1650000);
    ASSERT_EQ(a, b);
    ASSERT(c != a);
}

/* mach_owed_work: a futex wake's cost at a share of the level's slowdown,
 * as work that the core's whole factor then scales (both levels x2 here,
 * so the core's level is known): share 0.5 -> 1.5x the time, as work 750
 * of 1000; share 1 (the default): the work as it is; share 0: half; no
 * core, or no levels: unchanged. */
static sim_time owed_run(double share, bool levels, int core, bool as_time)
{
    static const struct ms_step a[] = { { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { a };
    struct mach_params p = ms_params(1, MACH_SCHED_EEVDF);
    static const double f[] = { 2.0, 2.0 };
    static const sim_time dwell[] = { 1000, 1000 };
    p.speed_f = levels ? f : NULL;
    p.speed_dwell = levels ? dwell : NULL;
    p.speed_n = levels ? 2 : 0;
    p.speed_wake_share = share;
    struct ms_world w;
    ms_setup_params(&w, &p, s, 1);
    sim_time got = as_time ? mach_owed_time(&w.m, core, 1000) : mach_owed_work(&w.m, core, 1000);
    ms_teardown(&w);
    return got;
}

static void test_owed_work(void)
{
    ASSERT_EQ(owed_run(0.5, true, 0, false), 750);
    ASSERT_EQ(owed_run(1.0, true, 0, false), 1000);
    ASSERT_EQ(owed_run(0.0, true, 0, false), 500);
    ASSERT_EQ(owed_run(0.5, true, -1, false), 1000);
    ASSERT_EQ(owed_run(0.5, false, 0, false), 1000);
    /* mach_owed_time: that work at the core's factor (x2), the time its
     * payment takes - 1.5x the cost at share 0.5, 2x at 1, 1x at 0; off
     * a core or without levels, the cost itself */
    ASSERT_EQ(owed_run(0.5, true, 0, true), 1500);
    ASSERT_EQ(owed_run(1.0, true, 0, true), 2000);
    ASSERT_EQ(owed_run(0.0, true, 0, true), 1000);
    ASSERT_EQ(owed_run(0.5, true, -1, true), 1000);
    ASSERT_EQ(owed_run(0.5, false, 0, true), 1000);
}

static void test_wake_idle_extra(void)
{
    ASSERT_EQ(idle_wake_run(1000, false), 10);      /* no curve: wake_idle_core alone */
    ASSERT_EQ(idle_wake_run(50, true), 10);         /* below the first point */
    ASSERT_EQ(idle_wake_run(100, true), 10);        /* at it: its value, 0 */
    ASSERT_EQ(idle_wake_run(1000, true), 10 + 50);  /* a decade of two: half-way */
    ASSERT_EQ(idle_wake_run(10000, true), 10 + 100);
    ASSERT_EQ(idle_wake_run(50000, true), 10 + 100);  /* beyond the last point: its value */
    /* the curve itself */
    struct gv_curve c = { .n = 3, .x = { 10, 100, 1000 }, .y = { 5, 25, 15 } };
    ASSERT_EQ(gv_curve_at(&c, 9), 0);
    ASSERT_EQ(gv_curve_at(&c, 10), 5);
    ASSERT_EQ(gv_curve_at(&c, 100), 25);
    ASSERT_EQ(gv_curve_at(&c, 316), 20);   /* 25 - 10 x log10(3.16): 20.0 */
    ASSERT_EQ(gv_curve_at(&c, 2000), 15);
    struct gv_curve none = { 0 };
    ASSERT_EQ(gv_curve_at(&none, 1000), 0);
}

/* A timer of B's own idle core (mach_wake_timer) wakes B there at once:
 * no wake_idle_core (10); the caller charges timer_wake itself.  A wake
 * with no waker (mach_wake) takes the idle core's latency. */
struct timer_wake { struct machine *m; struct mach_task *t; bool own; };

static void timer_fires(void *obj, uint64_t arg)
{
    (void)arg;
    struct timer_wake *tw = obj;
    int woke = tw->own ? mach_wake_timer(tw->m, tw->t) : mach_wake(tw->m, tw->t, NULL);
    ASSERT_EQ(woke, MACH_WAKE_LOCAL);
}

static sim_time timer_wake_run(bool own)
{
    static const struct ms_step b[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { b };
    struct ms_world w;
    ms_setup(&w, 2, s, 1);
    ms_start(&w, 0);
    struct timer_wake tw = { &w.m, &w.t[0].t, own };
    sim_after(w.e, 1000, timer_fires, &tw, 0);
    ms_run(&w);
    sim_time at = w.t[0].marks[0];
    ASSERT_EQ(w.t[0].t.core, -1);
    ms_teardown(&w);
    return at;
}

static void test_wake_timer(void)
{
    ASSERT_EQ(timer_wake_run(true), 1000);
    ASSERT_EQ(timer_wake_run(false), 1000 + 10);
    /* mach_wake_draw: the machine's spread around a latency the caller
     * pays (+-wake_jitter), the mean itself without one */
    static const struct ms_step none[] = { { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { none };
    struct ms_world w;
    struct mach_params p = ms_params(1, MACH_SCHED_FIFO);
    p.wake_jitter = 0.5;
    ms_setup_params(&w, &p, s, 1);
    sim_time lo = SIM_TIME_MAX, hi = 0;
    for (int i = 0; i < 200; i++) {
        sim_time d = mach_wake_draw(&w.m, 100);
        ASSERT(d >= 50 && d <= 150);
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
    }
    ASSERT(lo < 70 && hi > 130);
    ms_teardown(&w);
    p.wake_jitter = 0;
    ms_setup_params(&w, &p, s, 1);
    ASSERT_EQ(mach_wake_draw(&w.m, 100), 100);
    ms_teardown(&w);
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
    static const struct ms_step a[] = { { A_BURST, 100, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { a };
    struct ms_world w;
    ms_setup(&w, 1, s, 1);
    ms_start(&w, 0);
    struct cut c = { &w.m, &w.t[0].t, 5 };
    sim_at(w.e, 40, cut_now, &c, 0);
    ms_run(&w);
    ASSERT_EQ(w.t[0].marks[0], 45);
    ASSERT_EQ(w.t[0].left[1], 65);  /* 10 + 100 - 45 */
    ms_teardown(&w);
}

/* A cut asked for while the task is preempted applies when it runs again. */
static void test_interrupt_while_preempted(void)
{
    static const struct ms_step a[] = { { A_BURST, 3000, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { a, a };
    struct ms_world w;
    ms_setup(&w, 1, s, 2);
    ms_start(&w, 0);
    ms_start(&w, 1);
    struct cut c = { &w.m, &w.t[0].t, 5 };
    sim_at(w.e, 1500, cut_now, &c, 0);  /* A is queued then (B runs 1012..2012) */
    ms_run(&w);
    ASSERT_EQ(w.t[0].marks[0], 2019);   /* back at 2014, cut 5 later */
    ASSERT_EQ(w.t[0].left[1], 1995);
    ASSERT_EQ(w.t[0].t.ivcsw, 1);
    ASSERT_EQ(w.t[1].t.ivcsw, 1);
    ms_teardown(&w);
}

static void wake_task(void *obj, uint64_t arg)
{
    (void)arg;
    struct ms_task *x = obj;
    ASSERT_EQ(mach_wake(x->m, &x->t, NULL), 1);
}

/* A wakeup_preempt task (the timer thread) takes a busy core at once. */
static void test_wakeup_preempt(void)
{
    static const struct ms_step a[] = { { A_BURST, 1000, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step t[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_BURST, 1, 0 },
                                         { A_BLOCK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { a, t };
    struct ms_world w;
    ms_setup(&w, 1, s, 2);
    w.t[1].t.wakeup_preempt = true;
    ms_start(&w, 1);  /* 10, blocks */
    ms_start(&w, 0);  /* 12 */
    sim_at(w.e, 100, wake_task, &w.t[1], 0);
    ms_run(&w);
    ASSERT_EQ(w.t[1].marks[0], 102);
    ASSERT_EQ(w.t[0].marks[0], 1017);  /* 1000 of work + 2 switches + 1 */
    ASSERT_EQ(w.t[0].t.ivcsw, 1);
    ms_teardown(&w);
}

/* A core that runs out of work pulls a task queued on another core. */
static void test_idle_balance(void)
{
    static const struct ms_step x[] = { { A_BURST, 5, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step y[] = { { A_BURST, 1000, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step q[] = { { A_MARK, 0, 0 }, { A_BURST, 1, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { x, y, q, q };
    struct ms_world w;
    ms_setup(&w, 2, s, 4);
    for (int i = 0; i < 4; i++) ms_start(&w, i);
    ms_run(&w);
    ASSERT_EQ(w.t[2].marks[0], 17);  /* queued on core 0 behind X */
    ASSERT_EQ(w.t[3].marks[0], 20);  /* queued on core 1, pulled by core 0 at 18 */
    ASSERT_EQ(w.t[3].t.last_core, 0);
    ASSERT_EQ(w.m.migrations, 1);
    ms_teardown(&w);
}

/* A newly idle core's pull resets the failed kicks (sched_balance_rq:
 * nr_balance_failed = 0 when a task moved).  EEVDF, ticks every 100:
 * B runs on core 0 and blocks, A runs there and wakes B at 62 while D
 * keeps core 1 busy: B queues behind A (cache-hot throughout, as every
 * task of these short runs).  D blocks at 160: the newly idle core 1
 * leaves hot B (nothing moved, no failure) and the busy core's ticks kick
 * it, refused at 200 and 300 (cache_nice_tries 1).  D, woken at 350, runs
 * on core 1 and exits at 365: two failures let this newly idle balance
 * take hot B (at 367, where the kick would have at 400 + 10), and having
 * moved a task it clears the count. */
static void test_newidle_resets_failures(void)
{
    static const struct ms_step b[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_BURST, 5, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step d[] = { { A_BURST, 150, 0 }, { A_BLOCK, 0, 0 }, { A_BURST, 5, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step a[] = { { A_BURST, 50, 0 }, { A_WAKE, 0, 0 }, { A_BURST, 1000, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { b, d, a };
    struct ms_world w;
    ms_setup_sched(&w, 2, s, 3, MACH_SCHED_EEVDF);
    for (int i = 0; i < 3; i++) ms_start(&w, i);
    sim_at(w.e, 350, wake_task, &w.t[1], 0);
    ms_run(&w);
    ASSERT_EQ(w.t[2].t.last_core, 0);
    ASSERT_EQ(w.t[0].marks[0], 367);
    ASSERT_EQ(w.t[0].t.last_core, 1);
    ASSERT_EQ(w.m.migrations, 1);
    ASSERT_EQ(w.m.cores[0].nohz_failed, 0);
    ms_teardown(&w);
}

/* The idle-core search skipped when the cores are too busy (SIS_UTIL):
 * C runs on core 0 and blocks; B keeps core 1 busy until `b_end`, A core
 * 0 for 200 ms, then wakes C (its previous core, 0, busy) and works 50
 * more.  The cores' mean utilization, averaged as PELT does, decides
 * whether C looks for idle core 1: B busy to 199 ms leaves it near 1 (on
 * 2 cores no scan above 60.4%): C stays behind A on core 0; B gone at
 * 20 ms leaves it near 0.5: C goes to core 1.  Under eevdf only; `fifo`
 * and `cfs` always look. */
static int sis_run(enum mach_sched sched, sim_time b_end, uint64_t *unscanned)
{
    static const struct ms_step c[] = { { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    struct ms_step b[] = { { A_BURST, b_end, 0 }, { A_EXIT, 0, 0 } };
    struct ms_step a[] = { { A_BURST, 200 * SIM_MS, 0 }, { A_WAKE, 0, 0 }, { A_BURST, 50, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const s[] = { c, b, a };
    struct mach_params p = ms_params(2, sched);
    p.os_tick = SIM_MS;
    struct ms_world w;
    ms_setup_params(&w, &p, s, 3);
    for (int i = 0; i < 3; i++) ms_start(&w, i);
    ms_run(&w);
    ASSERT_EQ(w.t[2].t.last_core, 0);  /* A ran on core 0, C before it */
    int woke = w.t[2].woke[0];
    *unscanned = w.m.wakes_unscanned;
    ms_teardown(&w);
    return woke;
}

static void test_llc_idle_scan(void)
{
    uint64_t n;
    ASSERT(sis_run(MACH_SCHED_EEVDF_DELAY, 199 * SIM_MS, &n) != MACH_WAKE_REMOTE);  /* kept on core 0 */
    ASSERT_EQ(n, 1);
    ASSERT(sis_run(MACH_SCHED_EEVDF, 199 * SIM_MS, &n) != MACH_WAKE_REMOTE);
    ASSERT_EQ(n, 1);
    ASSERT_EQ(sis_run(MACH_SCHED_EEVDF_DELAY, 20 * SIM_MS, &n), MACH_WAKE_REMOTE);  /* to idle core 1 */
    ASSERT_EQ(n, 0);
    ASSERT_EQ(sis_run(MACH_SCHED_CFS, 199 * SIM_MS, &n), MACH_WAKE_REMOTE);
    ASSERT_EQ(n, 0);
    ASSERT_EQ(sis_run(MACH_SCHED_FIFO, 199 * SIM_MS, &n), MACH_WAKE_REMOTE);
    ASSERT_EQ(n, 0);
}

/* A continuation that forgets to burst, block or exit is reported. */
static void forgetful(struct mach_task *t, void *ctx)
{
    (void)t;
    (void)ctx;
}

static void test_protocol_violation_reported(void)
{
    struct ms_world w;
    const struct ms_step *const s[] = { NULL };
    ms_setup(&w, 1, s, 1);
    mach_start(&w.m, &w.t[0].t, forgetful, NULL);
    char err[128];
    ASSERT_EQ(sim_run(w.e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    ASSERT_CONTAINS(w.m.error, "continuation ended without");
    ms_teardown(&w);
}

/* corun_slowdown 2 on 2 cores: work runs at half speed while both cores
 * are busy, and is re-timed when the other core starts or stops.  A and B
 * start together (both arrive at 10 on idle cores): 100 of work each at
 * factor 2 end at 210.  C alone: 100 at full speed.  D runs 300 from 10,
 * E arrives at 10 and runs 50 (100 at factor 2, to 110); D did 50 of work
 * by then and runs its last 250 alone: it ends at 360.  A burst preempted
 * and resumed keeps its work, not its time. */
static void corun_setup(struct ms_world *w, const struct ms_step *const *s, int n, double slowdown)
{
    struct mach_params p = ms_params(2, MACH_SCHED_FIFO);
    p.corun_slowdown = slowdown;  /* (mach_init derives corun and the flags that follow it) */
    ms_setup_params(w, &p, s, n);
}

static void test_corun(void)
{
    static const struct ms_step x100[] = { { A_BURST, 100, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const two[] = { x100, x100 };
    struct ms_world w;
    corun_setup(&w, two, 2, 2.0);
    ms_start(&w, 0);
    ms_start(&w, 1);
    ms_run(&w);
    ASSERT_EQ(w.t[0].marks[0], 210);
    ASSERT_EQ(w.t[1].marks[0], 210);
    ms_teardown(&w);

    const struct ms_step *const one[] = { x100 };
    corun_setup(&w, one, 1, 2.0);
    ms_start(&w, 0);
    ms_run(&w);
    ASSERT_EQ(w.t[0].marks[0], 110);
    ms_teardown(&w);

    static const struct ms_step d300[] = { { A_BURST, 300, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    static const struct ms_step e50[] = { { A_BURST, 50, 0 }, { A_MARK, 0, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const de[] = { d300, e50 };
    corun_setup(&w, de, 2, 2.0);
    ms_start(&w, 0);
    ms_start(&w, 1);
    ms_run(&w);
    ASSERT_EQ(w.t[1].marks[0], 110);
    ASSERT_EQ(w.t[0].marks[0], 360);
    ms_teardown(&w);

    /* 1 (the default): nothing changes */
    corun_setup(&w, two, 2, 1.0);
    ms_start(&w, 0);
    ms_start(&w, 1);
    ms_run(&w);
    ASSERT_EQ(w.t[0].marks[0], 110);
    ms_teardown(&w);

    /* three tasks of 1500 on two cores, slice 1000: slices preempt and
     * resume bursts while both cores run at half speed, and the last one
     * ends alone - the cores' busy time lies between 1x and 2x of the 4500
     * of work, near 2x (it would be 4500 exactly at factor 1) */
    static const struct ms_step x1500[] = { { A_BURST, 1500, 0 }, { A_EXIT, 0, 0 } };
    const struct ms_step *const three[] = { x1500, x1500, x1500 };
    corun_setup(&w, three, 3, 2.0);
    for (int i = 0; i < 3; i++) ms_start(&w, i);
    ms_run(&w);
    sim_time busy = 0;
    for (int i = 0; i < 2; i++) busy += w.m.cores[i].busy_time;
    ASSERT(w.t[0].t.ivcsw + w.t[1].t.ivcsw + w.t[2].t.ivcsw > 0);
    ASSERT(busy >= 8000 && busy <= 9000);
    ms_teardown(&w);
}

int main(void)
{
    RUN(test_start_placement);
    RUN(test_process_clock);
    RUN(test_same_core_wake);
    RUN(test_after_idle_mark);
    RUN(test_wake_chain);
    RUN(test_wake_return);
    RUN(test_wake_kinds);
    RUN(test_remote_busy_wake_and_slice);
    RUN(test_wake_pack);
    RUN(test_wake_pack_sleep);
    RUN(test_wake_pack_util);
    RUN(test_nohz_kick);
    RUN(test_newidle_resets_failures);
    RUN(test_llc_idle_scan);
    RUN(test_wake_idle_extra);
    RUN(test_wake_waking);
    RUN(test_wake_prehalt);
    RUN(test_wake_idle_cpu);
    RUN(test_wake_ipi_extra);
    RUN(test_wake_timer);
    RUN(test_interrupt_cuts_burst);
    RUN(test_interrupt_while_preempted);
    RUN(test_wakeup_preempt);
    RUN(test_idle_balance);
    RUN(test_protocol_violation_reported);
    RUN(test_corun);
    RUN(test_hidden_steal);
    RUN(test_speed_levels);
    RUN(test_owed_work);
    RUN(test_stall_core);
    TEST_DONE();
}
