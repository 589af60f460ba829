/* test_policies.c - the GVL policies around blocking regions on small
 * scenarios built in C: hand-computed traces of each policy's mechanism
 * (the hot thread's steal and its successor's wasted wake, the lock
 * window of PR 15840, the delayed tick hand-off, the threshold helper,
 * barging's forced yield), the statistics of a syscall loop, the quantum,
 * and that the deferring policies leave the Queue park/wake path alone.
 *
 * Test machine (sim_fixture.h): context switch 2 us, futex wake 1 us, idle
 * core wake 20 us, no jitter, global-lock sections and mutexes free unless
 * a test sets them. */
#include "sim_fixture.h"
#include "test.h"

#include "../../core/policy.h"

#define US SIM_US
#define MS SIM_MS

static const enum scn_gvl_policy deferring[] = { GVL_POLICY_HOT_STEAL, GVL_POLICY_DELAYED,
                                                 GVL_POLICY_THRESHOLD };

/* A: compute 5 us, syscall `call` on the CPU, compute 30 us; B: compute 5 us.
 * Both start on idle cores at 20 us; A takes the GVL first, B queues. */
static struct fx_result two_threads(enum scn_gvl_policy p, sim_time call, sim_time mutex)
{
    static struct scn_op a[3], b[1];
    a[0] = fx_compute(5 * US);
    a[1] = fx_syscall(call, false);
    a[2] = fx_compute(30 * US);
    b[0] = fx_compute(5 * US);
    struct scn_thread th[] = { { "A", 1, { a, 3 }, 0, false }, { "B", 1, { b, 1 }, 0, false } };
    struct scn_ractor r;
    struct scenario s = fx_one_ractor(2, p, &r, th, 2);
    s.machine.mutex_uncontended = mutex;
    return fx_simulate(&s);
}

static void test_registry(void)
{
    for (int p = 0; p < GVL_POLICY_COUNT; p++) {
        const struct core_policy *g = core_policy_get((enum scn_gvl_policy)p);
        ASSERT(g != NULL);
        ASSERT_EQ(g->id, p);
        ASSERT_STREQ(g->name, scn_policy_name((enum scn_gvl_policy)p));
        /* every policy says what a blocking region does: barging releases,
         * the deferring ones keep the GVL for the timer or a helper, the
         * others hand it on (core/policy.c) */
        ASSERT(g->barging ? g->defer == CORE_DEFER_NONE && !g->marks_hot
                          : g->defer == CORE_DEFER_NONE || !g->marks_hot);
        ASSERT_EQ(g->defer == CORE_DEFER_TIMER, p == GVL_POLICY_DELAYED);
        ASSERT_EQ(g->defer == CORE_DEFER_HELPER, p == GVL_POLICY_THRESHOLD);
        ASSERT_EQ(g->marks_hot, p == GVL_POLICY_HOT_STEAL);
        /* only the 2.6-3.2 GVL has no timeslice timer thread, and only it
         * credits a whole quantum per TIMER interrupt */
        ASSERT_EQ(g->uses_timer_thread, p != GVL_POLICY_BARGING);
        ASSERT_EQ(g->tick_credits_quantum, p == GVL_POLICY_BARGING);
    }
    ASSERT(core_policy_get(GVL_POLICY_COUNT) == NULL);
}

/* Eager (us): A hands the GVL to B at its syscall (25; futex: B's core is
 * idle, B runs at 45), is back at 27 and queues behind B; B computes 45..50
 * and ends, handing the GVL back (A's core idle: 70); A computes 70..100.
 * hot_steal: A is back at 27 before B runs, so it steals: B goes back to
 * the head of the queue and A computes 27..57.  B wakes at 45 for nothing
 * (running == A): one wasted wake, one more voluntary switch.  A ends at
 * 57 handing the GVL to B (idle core: 77), B ends at 82. */
static void test_hot_steal_trace(void)
{
    struct fx_result e = two_threads(GVL_POLICY_EAGER, 1 * US, 0);
    struct fx_result h = two_threads(GVL_POLICY_HOT_STEAL, 1 * US, 0);
    ASSERT_EQ(e.rc, GV_OK);
    ASSERT_EQ(h.rc, GV_OK);
    ASSERT_EQ(e.m.wall, 100 * US);
    ASSERT_EQ(e.m.wasted_wakes, 0);
    ASSERT_EQ(h.m.wall, 82 * US);
    ASSERT_EQ(h.m.wasted_wakes, 1);
    ASSERT_EQ(h.wasted[1], 1);              /* it is B's */
    ASSERT_EQ(h.m.gvl_handoffs, 2);         /* at A's syscall (stolen back) and at A's end */
    ASSERT_EQ(h.wants[0], 20 * US);         /* A never waits after its start */
    ASSERT_EQ(h.wants[1], 77 * US);         /* B: 0..77 */
    /* B sleeps at 20, again at 45 (the wasted wake); the timer once */
    ASSERT_EQ(h.thread_vcsw, 2);
    ASSERT_EQ(h.m.vol_switches, 3);
}

/* The lock window of PR 15840 (mutex_uncontended = 2 us here).  A's call
 * lasts 20 us: it is back at 46 (25 + 20 + 1 futex), just after B woke at
 * 45 holding sched->lock_ until 47.  A finds the lock taken and spins; B
 * sees runnable_hot_th_waiting, drops and re-takes the lock (47..49), A
 * steals in between (47) and computes 47..77; B finds running != self: a
 * wasted wake.  A ends at 77, B (idle core) runs 97..102.  Without the
 * window (mutex 0) B simply took over at 45 and A queued behind it: the
 * eager outcome, 100 us. */
static void test_hot_steal_lock_window(void)
{
    struct fx_result w = two_threads(GVL_POLICY_HOT_STEAL, 20 * US, 2 * US);
    struct fx_result n = two_threads(GVL_POLICY_HOT_STEAL, 20 * US, 0);
    struct fx_result e = two_threads(GVL_POLICY_EAGER, 20 * US, 2 * US);
    ASSERT_EQ(w.rc, GV_OK);
    ASSERT_EQ(w.m.wall, 102 * US);
    ASSERT_EQ(w.m.wasted_wakes, 1);
    ASSERT_EQ(w.wants[0], 20 * US + 1 * US);  /* + the 1 us spin on the lock */
    ASSERT_EQ(n.m.wall, 100 * US);
    ASSERT_EQ(n.m.wasted_wakes, 0);
    ASSERT_EQ(e.m.wall, 100 * US);  /* eager never arms the window */
}

/* THREAD_BLOCKING_BEGIN (a native sleep) passes yield_immediately: no hint,
 * so hot_steal hands over exactly as eager does. */
static void test_hot_steal_not_for_sleeps(void)
{
    struct fx_result r[2];
    enum scn_gvl_policy ps[2] = { GVL_POLICY_EAGER, GVL_POLICY_HOT_STEAL };
    for (int i = 0; i < 2; i++) {
        static struct scn_op a[3], b[1];
        a[0] = fx_compute(5 * US);
        a[1] = fx_sleep(1 * US);
        a[2] = fx_compute(30 * US);
        b[0] = fx_compute(5 * US);
        struct scn_thread th[] = { { "A", 1, { a, 3 }, 0, false }, { "B", 1, { b, 1 }, 0, false } };
        struct scn_ractor rr;
        struct scenario s = fx_one_ractor(2, ps[i], &rr, th, 2);
        r[i] = fx_simulate(&s);
        ASSERT_EQ(r[i].rc, GV_OK);
    }
    ASSERT_EQ(r[1].m.wall, r[0].m.wall);
    ASSERT_EQ(r[1].m.wasted_wakes, 0);
    ASSERT_EQ(r[1].m.vol_switches, r[0].m.vol_switches);
}

/* delayed and threshold keep the GVL through a 1 us call: A computes
 * 26..56 and ends at 56, handing over to B (idle core: 76), B ends at 81;
 * one hand-off, no wasted wake.  threshold's helper is a native thread of
 * its own (native_threads: 2 Ruby threads + timer + helper). */
static void test_deferred_short_call_trace(void)
{
    struct fx_result d = two_threads(GVL_POLICY_DELAYED, 1 * US, 0);
    struct fx_result t = two_threads(GVL_POLICY_THRESHOLD, 1 * US, 0);
    ASSERT_EQ(d.rc, GV_OK);
    ASSERT_EQ(t.rc, GV_OK);
    ASSERT_EQ(d.m.wall, 81 * US);
    ASSERT_EQ(d.m.gvl_handoffs, 1);
    ASSERT_EQ(d.m.wasted_wakes, 0);
    ASSERT_EQ(d.m.native_threads, 3);
    ASSERT_EQ(t.m.wall, 81 * US);
    ASSERT_EQ(t.m.gvl_handoffs, 1);
    ASSERT_EQ(t.m.native_threads, 4);
    /* the helper's own switch is counted: it went to sleep once */
    ASSERT_EQ(t.m.vol_switches, d.m.vol_switches + 1);
}

/* barging (us; gvl->lock is glibc's, its sections free here, so nobody
 * ever finds it held): B becomes the designated timer (timed wait).  A's
 * syscall releases the GVL and signals B (idle core: 45); A is back at 27
 * and takes the GVL again (barging).  B wakes at 45 and re-locks gvl->lock,
 * finds the GVL owned: a wasted wake; as the timer it sets A's TIMER
 * interrupt, which under 3.2 credits a whole quantum, and waits again.  A
 * yields at once (45): it releases and signals B (+1 us futex, paid
 * holding gvl->lock: 46) and sleeps on switch_cond.  B runs at 65, takes
 * the GVL and signals A's switch_cond (A: 85), computes 66..71, ends.  A
 * takes the GVL at 85 and finishes its remaining 12 us at 97. */
static void test_barging_trace(void)
{
    struct fx_result b = two_threads(GVL_POLICY_BARGING, 1 * US, 0);
    ASSERT_EQ(b.rc, GV_OK);
    ASSERT_EQ(b.m.wall, 97 * US);
    ASSERT_EQ(b.m.wasted_wakes, 1);
    /* B's take after its wait; A's at 85 found the GVL free (A waited on
     * switch_cond, not for the GVL): a take that did not wait is not a
     * hand-off under barging (core_barging_got_it), as in the executor */
    ASSERT_EQ(b.m.gvl_handoffs, 1);
    ASSERT_EQ(b.m.timer_ticks, 1);   /* B's one TIMER interrupt (no timeslice timer thread) */
    /* A: start, release, acquire, yield, switch_cond's re-lock, end; B:
     * start, two re-locks of the timed wait, end */
    ASSERT_EQ(b.m.gvl_lock_sections, 10);
    ASSERT_EQ(b.m.gvl_lock_waits, 0);
}

/* 2 threads looping compute 1 us + syscall 1 us, 2000 times each, with
 * +-50% wake-latency jitter (without it a successor woken at a syscall
 * entry would arrive exactly at another entry 20 us later, every time). */
static struct fx_result syscall_loop(enum scn_gvl_policy p, int cores, bool sleep_in_kernel)
{
    static struct scn_op body[2];
    body[0] = fx_compute(1 * US);
    body[1] = fx_syscall(1 * US, sleep_in_kernel);
    static struct scn_prog bp = { body, 2 };
    static struct scn_op ops[1];
    ops[0] = fx_loop(2000, &bp, true);
    struct scn_thread t = { "w", 2, { ops, 1 }, 0, false };
    struct scn_ractor r;
    struct scenario s = fx_one_ractor(cores, p, &r, &t, 1);
    s.machine.wake_jitter = 0.5;
    return fx_simulate(&s);
}

/* The #21685 loop on 2 cores: eager pays an idle-core wake per call; the
 * deferring policies run it at about the 1-core speed, for the right
 * reason each: hot_steal still hands `running` over at every entry but
 * steals it back (a futex-free re-take: the successor is already awake),
 * its successor waking for nothing now and then; delayed and threshold
 * never hand over a 1 us call. */
static void test_syscall_loop_two_cores(void)
{
    struct fx_result e1 = syscall_loop(GVL_POLICY_EAGER, 1, false);
    struct fx_result e2 = syscall_loop(GVL_POLICY_EAGER, 2, false);
    ASSERT_EQ(e2.m.syscalls, 4000);
    ASSERT(e2.m.wall > 5 * e1.m.wall);
    ASSERT(e2.thread_vcsw >= 3990);  /* one switch per call */
    for (size_t i = 0; i < sizeof deferring / sizeof deferring[0]; i++) {
        struct fx_result r = syscall_loop(deferring[i], 2, false);
        ASSERT_EQ(r.rc, GV_OK);
        ASSERT_EQ(r.m.syscalls, 4000);
        ASSERT_EQ(r.m.ops, 4000);
        /* 4000 x (1 us + 1 us) of work, one GVL: about 8 ms */
        ASSERT(r.m.wall < 9 * MS);
        ASSERT(r.thread_vcsw < 1000);  /* eager: 4000 */
        /* the GVL is busy, not waited for by an idle pair of cores */
        ASSERT(r.m.state_time[TS_RUNNING] > r.m.wall * 45 / 100);
    }
    struct fx_result h = syscall_loop(GVL_POLICY_HOT_STEAL, 2, false);
    ASSERT(h.m.gvl_handoffs > 3900);  /* running passed at every entry ... */
    ASSERT(h.m.wasted_wakes > 10);    /* ... the successor woken for nothing */
    ASSERT(h.m.wakeups < 1000);       /* but rarely asleep when signalled */
    struct fx_result d = syscall_loop(GVL_POLICY_DELAYED, 2, false);
    ASSERT(d.m.gvl_handoffs < 5);
    ASSERT_EQ(d.m.wasted_wakes, 0);
    /* threshold's helper polls while a thread waits and is woken only when
     * one starts to (core_helper_next), not by every call's region */
    struct fx_result t = syscall_loop(GVL_POLICY_THRESHOLD, 2, false);
    ASSERT(t.m.wakeups < 20);
}

/* delayed: a 25 ms call keeps the GVL until the next tick of the timer
 * thread (which ticks because the blocked thread still "runs" with a
 * waiter), then the tick hands it to the waiting thread.  eager hands it
 * over at once. */
static struct fx_result long_call_with(enum scn_gvl_policy p, bool sleep_op, sim_time threshold)
{
    static struct scn_op a[2], b[1];
    a[0] = fx_compute(5 * US);
    a[1] = sleep_op ? fx_sleep(2 * MS) : fx_syscall(25 * MS, false);
    b[0] = fx_compute(1 * MS);
    struct scn_thread th[] = { { "A", 1, { a, 2 }, 0, false }, { "B", 1, { b, 1 }, 0, false } };
    struct scn_ractor r;
    struct scenario s = fx_one_ractor(2, p, &r, th, 2);
    s.runtime.threshold = threshold;
    return fx_simulate(&s);
}

/* with the runtime's default threshold (100 us, fx_runtime) */
static struct fx_result long_call(enum scn_gvl_policy p, bool sleep_op)
{
    return long_call_with(p, sleep_op, 100 * US);
}

static void test_delayed_tick_hands_over(void)
{
    struct fx_result e = long_call(GVL_POLICY_EAGER, false);
    struct fx_result d = long_call(GVL_POLICY_DELAYED, false);
    ASSERT_EQ(d.rc, GV_OK);
    /* eager: B runs 20 us after A's syscall starts */
    ASSERT(e.wants[1] < 50 * US);
    /* delayed: B waits for the first tick, 10 ms after it queued (+ the
     * timer's and B's wake-ups) */
    ASSERT(d.wants[1] > 10 * MS && d.wants[1] < 10 * MS + 100 * US);
    ASSERT_EQ(d.m.gvl_handoffs, 1);
    ASSERT(d.m.timer_ticks >= 1);
    /* the hand-off did not end the call: A still finishes at ~25 ms */
    ASSERT(d.m.wall > 25 * MS && d.m.wall < 25 * MS + 100 * US);
}

/* PR 15529 predates the yield_immediately flag: a native sleep is delayed
 * too.  B waits for A's 2 ms sleep (it ends before any tick). */
static void test_delayed_sleep_keeps_gvl(void)
{
    struct fx_result e = long_call(GVL_POLICY_EAGER, true);
    struct fx_result d = long_call(GVL_POLICY_DELAYED, true);
    ASSERT_EQ(d.rc, GV_OK);
    ASSERT(e.wants[1] < 50 * US);
    ASSERT(d.wants[1] > 2 * MS && d.wants[1] < 2 * MS + 100 * US);
    ASSERT(d.m.wall > 3 * MS);
    ASSERT(e.m.wall < 2100 * US);
}

/* threshold: the helper hands a 25 ms call over `threshold` (100 us) after
 * it began, plus the 50 us timer slack its timed wait ends late by (Linux's
 * default; models/gvl_helper.c), its own wake-up (idle core, 20 us) and
 * B's (20 us).  Without the slack B would wait about 140 us. */
static void test_threshold_helper_hands_over(void)
{
    struct fx_result t = long_call(GVL_POLICY_THRESHOLD, false);
    ASSERT_EQ(t.rc, GV_OK);
    ASSERT_EQ(t.m.gvl_handoffs, 1);
    ASSERT(t.wants[1] > 100 * US + 50 * US + 20 * US && t.wants[1] < 250 * US);
    /* a longer threshold, a longer wait; the same slack */
    struct fx_result t2 = long_call_with(GVL_POLICY_THRESHOLD, false, 1 * MS);
    ASSERT(t2.wants[1] > 1 * MS + 50 * US + 20 * US && t2.wants[1] < 1 * MS + 150 * US);
}

/* The helper's timed wait under machine values: A's 25 ms call, B ready
 * behind it, as long_call, with the machine's timer keys set; three
 * cores, so that B's wake never waits for the helper's own CPU. */
static struct fx_result helper_timed_stall(sim_time slack, sim_time tick_cost, sim_time timer_wake, double jitter,
                                           uint64_t seed, sim_time idle_wake, sim_time stall)
{
    static struct scn_op a[2], b[1];
    a[0] = fx_compute(5 * US);
    a[1] = fx_syscall(25 * MS, false);
    b[0] = fx_compute(1 * MS);
    struct scn_thread th[] = { { "A", 1, { a, 2 }, 0, false }, { "B", 1, { b, 1 }, 0, false } };
    struct scn_ractor r;
    struct scenario s = fx_one_ractor(3, GVL_POLICY_THRESHOLD, &r, th, 2);
    s.machine.timer_slack = slack;
    s.machine.timer_tick_cost = tick_cost;
    s.machine.timer_wake = timer_wake;
    s.machine.timer_stall = stall;
    s.machine.wake_jitter = jitter;
    s.machine.wake_idle_core = idle_wake;
    s.seed = seed;
    return fx_simulate(&s);
}

static struct fx_result helper_timed_seed(sim_time slack, sim_time tick_cost, sim_time timer_wake, double jitter,
                                          uint64_t seed, sim_time idle_wake)
{
    return helper_timed_stall(slack, tick_cost, timer_wake, jitter, seed, idle_wake, SCN_DUR_UNSET);
}

static struct fx_result helper_timed(sim_time slack, sim_time tick_cost, sim_time timer_wake)
{
    return helper_timed_seed(slack, tick_cost, timer_wake, 0, 1, 20 * US);
}

/* machine.timer_slack is the machine's (calibrate measures it), not a
 * constant: 200 us of slack put the hand-off 150 us later than 50 us. */
static void test_threshold_helper_slack_key(void)
{
    struct fx_result a = helper_timed(50 * US, 1 * US, SCN_DUR_UNSET);
    struct fx_result b = helper_timed(200 * US, 1 * US, SCN_DUR_UNSET);
    ASSERT_EQ(a.rc, GV_OK);
    ASSERT_EQ(b.rc, GV_OK);
    ASSERT_EQ(b.m.gvl_handoffs, 1);
    ASSERT_EQ(b.wants[1] - a.wants[1], 150 * US);
    ASSERT(b.wants[1] > 100 * US + 200 * US + 20 * US && b.wants[1] < 100 * US + 200 * US + 80 * US);
}

/* A measured timer_wake is the time from the wait's expiry to the helper's
 * check; the rest of timer_tick_cost (500 us here) comes after it has
 * decided, and its idle core wakes by its own timer (no wake_idle_core,
 * 20 us here: mach_wake_timer).  So B waits for A's 5 us of Ruby, the
 * helper's start on an idle core (20 us), 100 + 50 + 5 us, then its own
 * wake-up (20 us): 200 us (220 with wake_idle_core at the expiry); unset,
 * all 500 us and the idle core's wake come before the check. */
static void test_threshold_helper_timer_wake(void)
{
    struct fx_result set = helper_timed(50 * US, 500 * US, 5 * US);
    struct fx_result unset = helper_timed(50 * US, 500 * US, SCN_DUR_UNSET);
    ASSERT_EQ(set.rc, GV_OK);
    ASSERT_EQ(set.m.gvl_handoffs, 1);
    ASSERT(set.wants[1] >= 195 * US && set.wants[1] < 210 * US);
    ASSERT(unset.wants[1] > 100 * US + 50 * US + 20 * US + 500 * US);
    /* the CPU of the wake-up is the same: A's call still ends the run */
    ASSERT(set.m.wall > 25 * MS && set.m.wall < 25 * MS + 600 * US);
    /* drawn like every wake latency (+-wake_jitter, here 0.5 of 20 us),
     * so that the helper's polls do not phase-lock with a loop of calls:
     * B's wait moves from seed to seed within +-10 us of the mean's (idle
     * cores that wake at once here: no other latency is drawn) */
    struct fx_result mean = helper_timed_seed(50 * US, 500 * US, 20 * US, 0, 1, 0);
    sim_time lo = SIM_TIME_MAX, hi = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        struct fx_result j = helper_timed_seed(50 * US, 500 * US, 20 * US, 0.5, seed, 0);
        ASSERT_EQ(j.rc, GV_OK);
        lo = j.wants[1] < lo ? j.wants[1] : lo;
        hi = j.wants[1] > hi ? j.wants[1] : hi;
    }
    ASSERT(lo < hi);
    ASSERT(lo >= mean.wants[1] - 10 * US && hi <= mean.wants[1] + 10 * US);
}

/* machine.timer_stall: a timer's expiry stops the busy CPU it fires on
 * (a virtual CPU: the host delivering the interrupt), charged to the task
 * running there, and the helper is woken at the stall's end with only the
 * rest of timer_wake and timer_tick_cost as its own CPU.  One core under
 * EEVDF with DELAY_DEQUEUE: A runs 20 ms of Ruby holding the GVL, B is
 * ready, so the helper polls every threshold (100 us) + slack (50 us) +
 * timer_wake (150 us here).  Charged the whole 150 us as its own CPU each
 * time, the helper takes half of the core's time: EEVDF holds it back
 * (not eligible when its timer fires) and it polls far less often than
 * every ~300 us; with 140 us of it a stall of A's, it runs 10 + 10 us a
 * wake, stays eligible, and preempts A at every expiry.  On idle cores
 * (helper_timed's three) the stall changes nothing: an idle vCPU loses no
 * work. */
static struct fx_result helper_polls_with(sim_time stall, sim_time wake_none, enum scn_mutex_impl impl)
{
    static struct scn_op a[2], b[1];
    a[0] = fx_syscall(5 * US, false);  /* the helper starts at the first region */
    a[1] = fx_compute(20 * MS);
    b[0] = fx_compute(1 * MS);
    struct scn_thread th[] = { { "A", 1, { a, 2 }, 0, false }, { "B", 1, { b, 1 }, 0, false } };
    struct scn_ractor r;
    struct scenario s = fx_one_ractor(1, GVL_POLICY_THRESHOLD, &r, th, 2);
    s.machine.os_scheduler = OS_SCHED_EEVDF_DELAY;
    s.machine.os_tick = 4 * MS;
    s.machine.os_timeslice = 3 * MS;
    s.machine.timer_tick_cost = 20 * US;
    s.machine.timer_wake = 150 * US;
    s.machine.timer_stall = stall;
    s.machine.futex_wake_none = wake_none;
    s.machine.mutex_impl = impl;
    s.runtime.quantum = 100 * MS;
    return fx_simulate(&s);
}

static struct fx_result helper_polls(sim_time stall)
{
    return helper_polls_with(stall, 0, MUTEX_GLIBC);
}

static void test_threshold_helper_timer_stall(void)
{
    struct fx_result none = helper_polls(SCN_DUR_UNSET), st = helper_polls(140 * US);
    ASSERT_EQ(none.rc, GV_OK);
    ASSERT_EQ(st.rc, GV_OK);
    /* the helper's wakes: its voluntary switches (each poll ends in a wait) */
    uint64_t polls_none = none.m.vol_switches - none.thread_vcsw, polls_st = st.m.vol_switches - st.thread_vcsw;
    ASSERT(polls_none > 20 && polls_st > 20);
    /* wake to wake: 100 + 50 + 150 us and the helper's own CPU (here 333
     * us); charged all of timer_wake, 434 us */
    sim_time cycle_none = none.m.wall / (sim_time)polls_none, cycle_st = st.m.wall / (sim_time)polls_st;
    ASSERT(cycle_st > 300 * US && cycle_st < 350 * US);
    ASSERT(cycle_none > 400 * US);
    /* A's 20 ms took the stalls: the run is longer by about them */
    ASSERT(st.m.wall > 20 * MS + (sim_time)polls_st * 140 * US);
    /* idle cores (three): nothing to stop, the same wait for B */
    struct fx_result idle = helper_timed_stall(50 * US, 500 * US, 5 * US, 0, 1, 20 * US, SCN_DUR_UNSET);
    struct fx_result idle_st = helper_timed_stall(50 * US, 500 * US, 5 * US, 0, 1, 20 * US, 4 * US);
    ASSERT_EQ(idle_st.rc, GV_OK);
    ASSERT_EQ(idle.wants[1], idle_st.wants[1]);
}

/* The helper holds the sched lock from one wait to the next, and glibc's
 * pthread_cond_wait takes it back with the word at 2 after a timeout as
 * after a signal: the next wait's unlock makes a FUTEX_WAKE of nobody,
 * futex_wake_none, once a poll (models/gvl_helper.c, helper_unlock).
 * helper_polls' helper wakes by its timeout every ~330 us: 100 ns more on
 * futex_wake_none is 100 ns more CPU a poll but its first (117 of 121
 * here), and none of those under the darwin mutex (no such word). */
static void test_threshold_helper_unlock_wakes_nobody(void)
{
    struct fx_result a = helper_polls_with(140 * US, 1000 * SIM_NS, MUTEX_GLIBC);
    struct fx_result b = helper_polls_with(140 * US, 1100 * SIM_NS, MUTEX_GLIBC);
    ASSERT_EQ(a.rc, GV_OK);
    ASSERT_EQ(b.rc, GV_OK);
    uint64_t polls = a.m.vol_switches - a.thread_vcsw;
    ASSERT(polls > 20);
    ASSERT_EQ(b.m.vol_switches - b.thread_vcsw, polls);
    sim_time more = b.m.cpu - a.m.cpu;
    ASSERT(more >= (sim_time)(polls * 9 / 10) * 100 * SIM_NS);
    ASSERT(more <= (sim_time)polls * 100 * SIM_NS);
    struct fx_result da = helper_polls_with(140 * US, 1000 * SIM_NS, MUTEX_DARWIN);
    struct fx_result db = helper_polls_with(140 * US, 1100 * SIM_NS, MUTEX_DARWIN);
    ASSERT_EQ(da.rc, GV_OK);
    ASSERT_EQ(db.rc, GV_OK);
    ASSERT(db.m.cpu - da.m.cpu < more / 4);  /* (a signal's presleep wake: once here) */
}

/* What the helper's wake-ups cost depends on what woke it: a signal of its
 * condvar (or its start) costs the sched lock it takes back, only a timed
 * wait's expiry costs timer_tick_cost (models/gvl_helper.c; 500 us here,
 * so that it shows).  The helper starts at A's 25 ms call with nobody
 * ready and waits without a timeout; B queues at 1 ms and signals it; it
 * wakes (idle core, 20 us), finds the call 100 us old or more and hands
 * the GVL over at once.  Charged timer_tick_cost for that signal (as it
 * used to be), B would wait 500 us longer. */
static void test_threshold_helper_wake_cost(void)
{
    static struct scn_op a[2], b[1];
    a[0] = fx_compute(5 * US);
    a[1] = fx_syscall(25 * MS, false);
    b[0] = fx_compute(1 * MS);
    struct scn_thread th[] = { { "A", 1, { a, 2 }, 0, false }, { "B", 1, { b, 1 }, 1 * MS, false } };
    struct scn_ractor r;
    struct scenario s = fx_one_ractor(2, GVL_POLICY_THRESHOLD, &r, th, 2);
    s.machine.timer_tick_cost = 500 * US;
    struct fx_result t = fx_simulate(&s);
    ASSERT_EQ(t.rc, GV_OK);
    ASSERT_EQ(t.m.gvl_handoffs, 1);
    /* 26 us here (525 us with timer_tick_cost per signal) */
    ASSERT(t.wants[1] >= 20 * US && t.wants[1] < 100 * US);
}

/* The tick's hand-off holds the Ractor's sched lock until its futex wake
 * is paid (models/gvl.c, gvl_handoff_lock).  A loops on 9 us calls with
 * 1 us of Ruby between them; B waits.  The first tick finds A in a call
 * and hands the GVL to B, and the wake costs the timer futex_wake, 50 us
 * here: A is back from its call within it and sleeps on the lock (one
 * voluntary switch more), and B, woken on the idle core 20 us after the
 * decision, sleeps on it too as it returns from pthread_cond_wait.  The
 * unlock wakes A (FIFO), A's unlock wakes B.  By then nobody has refilled
 * the timeslice set: the timer waits without a timeout, and B's
 * add_running (A queued behind it) wakes it.  (Before, B's add_running
 * came within the timer's 50 us and the timer kept its timed wait.) */
struct lock_obs {
    uint64_t vcsw[2];       /* A's and B's voluntary switches */
    uint64_t timer_wakes;   /* the timer's wakes from its infinite wait */
    bool locked;            /* the lock still held at the end */
};

static void lock_inspect(struct vm *vm, void *ctx)
{
    struct lock_obs *o = ctx;
    o->vcsw[0] = rb_own_nt(&vm->threads[0])->vcsw;
    o->vcsw[1] = rb_own_nt(&vm->threads[1])->vcsw;
    o->timer_wakes = vm->timer.wakes;
    o->locked = vm->ractors[0].sched_lock.holder != NULL || vm->ractors[0].sched_lock.head != NULL;
}

static struct fx_result tick_lock_run(enum scn_gvl_policy p, sim_time futex_wake, struct lock_obs *o)
{
    static struct scn_op a[2], body[2], b[1];
    static struct scn_prog loop;
    body[0] = fx_syscall(9 * US, false);
    body[1] = fx_compute(1 * US);
    loop = (struct scn_prog){ body, 2 };
    a[0] = fx_compute(5 * US);
    a[1] = fx_loop(1500, &loop, false);
    b[0] = fx_compute(5 * US);
    struct scn_thread th[] = { { "A", 1, { a, 2 }, 0, false }, { "B", 1, { b, 1 }, 0, false } };
    struct scn_ractor r;
    struct scenario s = fx_one_ractor(2, p, &r, th, 2);
    s.machine.futex_wake = futex_wake;
    struct fx_hooks h = { NULL, lock_inspect, o };
    struct fx_result res;
    fx_run(&s, &h, &res);
    return res;
}

static void test_delayed_tick_holds_sched_lock(void)
{
    struct lock_obs o;
    struct fx_result d = tick_lock_run(GVL_POLICY_DELAYED, 50 * US, &o);
    ASSERT_EQ(d.rc, GV_OK);
    ASSERT_EQ(d.m.gvl_handoffs, 2);  /* the tick's, and B's at its end */
    ASSERT(!o.locked);
    /* A: the lock, then its turn behind B; B: its first turn, the lock */
    ASSERT_EQ(o.vcsw[0], 2);
    ASSERT_EQ(o.vcsw[1], 2);
    /* the timer: its first wait timed (B queued before it started), its
     * wait after the hand-off infinite, ended by B */
    ASSERT_EQ(o.timer_wakes, 1);
    /* a wake cheaper than A's call: A is still in it at the unlock, B
     * still waking; nobody sleeps on the lock */
    struct fx_result c = tick_lock_run(GVL_POLICY_DELAYED, 1 * US, &o);
    ASSERT_EQ(c.rc, GV_OK);
    ASSERT_EQ(c.m.gvl_handoffs, 2);
    ASSERT_EQ(o.vcsw[0], 1);
    ASSERT_EQ(o.vcsw[1], 1);
}

/* Two CPU-bound threads: every policy shares the GVL by 100 ms quanta; the
 * 3.3 policies count them in 10 ms ticks of the timer thread, barging in
 * its designated timer's 100 ms timed waits (timer_ticks: one TIMER
 * interrupt a quantum, as the executor counts them). */
static void test_quantum_every_policy(void)
{
    for (int p = 0; p < GVL_POLICY_COUNT; p++) {
        static struct scn_op ops[1];
        ops[0] = fx_compute(1 * SIM_S);
        struct scn_thread t = { "cpu", 2, { ops, 1 }, 0, false };
        struct scn_ractor r;
        struct scenario s = fx_one_ractor(2, (enum scn_gvl_policy)p, &r, &t, 1);
        struct fx_result x = fx_simulate(&s);
        ASSERT_EQ(x.rc, GV_OK);
        ASSERT(x.m.wall > 2 * SIM_S && x.m.wall < 2 * SIM_S + 5 * MS);
        ASSERT(x.m.gvl_handoffs >= 18 && x.m.gvl_handoffs <= 21);
        if (p == GVL_POLICY_BARGING) ASSERT(x.m.timer_ticks >= 18 && x.m.timer_ticks <= 21);  /* one a quantum */
        else ASSERT(x.m.timer_ticks >= 180 && x.m.timer_ticks <= 200);
    }
}

/* Queue ping-pong: every message delivered under every policy; the
 * deferring policies do not touch the park/wake path, so without blocking
 * regions their runs are the eager run, event for event. */
static struct fx_result pingpong(enum scn_gvl_policy p, int cores)
{
    static struct scn_op mb[2], eb[3];
    mb[0] = fx_queue(OP_QUEUE_PUSH, 0);
    mb[1] = fx_queue(OP_QUEUE_POP, 1);
    eb[0] = fx_queue(OP_QUEUE_POP, 0);
    eb[1] = fx_compute(2 * US);
    eb[2] = fx_queue(OP_QUEUE_PUSH, 1);
    static struct scn_prog mp = { mb, 2 }, ep = { eb, 3 };
    static struct scn_op mops[1], eops[1];
    mops[0] = fx_loop(500, &mp, true);
    eops[0] = fx_loop(500, &ep, false);
    struct scn_thread th[] = { { "main", 1, { mops, 1 }, 0, false }, { "echo", 1, { eops, 1 }, 0, false } };
    struct scn_ractor r;
    struct scenario s = fx_one_ractor(cores, p, &r, th, 2);
    struct scn_queue q[2] = { { "ping", 0 }, { "pong", 0 } };
    s.queues = q;
    s.nqueues = 2;
    return fx_simulate(&s);
}

static void test_queue_path_untouched(void)
{
    for (int cores = 1; cores <= 2; cores++) {
        struct fx_result e = pingpong(GVL_POLICY_EAGER, cores);
        ASSERT_EQ(e.rc, GV_OK);
        ASSERT_EQ(e.m.ops, 500);
        for (size_t i = 0; i < sizeof deferring / sizeof deferring[0]; i++) {
            struct fx_result r = pingpong(deferring[i], cores);
            ASSERT_EQ(r.rc, GV_OK);
            ASSERT_EQ(r.m.wall, e.m.wall);
            ASSERT_EQ(r.m.vol_switches, e.m.vol_switches);
            ASSERT_EQ(r.m.gvl_handoffs, e.m.gvl_handoffs);
            ASSERT_EQ(r.m.engine_events, e.m.engine_events);
        }
        /* barging has its own park/wake path (release, cond.intr, acquire) */
        struct fx_result b = pingpong(GVL_POLICY_BARGING, cores);
        ASSERT_EQ(b.rc, GV_OK);
        ASSERT_EQ(b.m.ops, 500);
        ASSERT(b.m.state_time[TS_PARKED] > 0);
    }
}

/* 2.6-3.2's native_sleep on one core: the main thread pops from an empty
 * queue while the worker, preempted in its File.write, is runnable but not
 * waiting for the GVL; the release signals nobody, so the main thread
 * sched_yields (THREAD_BLOCKING_YIELD), the worker runs, pushes, and the
 * main thread need not sleep.  The chain of hand-offs the 3.3 policies
 * keep (eager: the worker hands the GVL back at each File.write) does not
 * form: turns come from the OS's slices, a few main-thread switches per
 * thousand messages - as the executor and Ruby 3.1 measure on one CPU.
 * Whatever the OS scheduler. */
static void test_barging_sleep_yields(void)
{
    static const char *const scheds[] = { "fifo", "cfs", "eevdf", "eevdf_delay_dequeue" };
    for (size_t i = 0; i < sizeof scheds / sizeof *scheds; i++) {
        char sched[64];
        snprintf(sched, sizeof sched, "machine.os_scheduler=%s", scheds[i]);
        for (int barging = 0; barging < 2; barging++) {
            const char *sets[] = { "machine=dev_vm", "machine.cores=1", sched,
                                   "ractors.0.threads.0.program.0.times=2000",
                                   "ractors.0.threads.1.program.0.times=10000",
                                   barging ? "runtime.gvl_policy=barging" : "runtime.gvl_policy=eager" };
            struct scenario scn;
            ASSERT_EQ(fx_load("scenarios/queue_pingpong.json", sets, 6, NULL, &scn), GV_OK);
            struct fx_result r = fx_simulate(&scn);
            ASSERT_EQ(r.rc, GV_OK);
            ASSERT_EQ(r.m.ops, 10000);
            if (barging) ASSERT(r.m.main_vol_switches <= 50);
            else ASSERT(r.m.main_vol_switches >= 2000);
            scenario_free(&scn);
        }
    }
}

/* An I/O thread (1 ms calls sleeping in the kernel) beside a CPU-bound
 * thread, 2 s: eager and barging give it about one call per quantum;
 * delayed, one quantum's worth of calls per tick that catches it; the
 * threshold helper leaves 1 ms calls alone only if threshold > 1 ms. */
static struct fx_result io_thread(enum scn_gvl_policy p, sim_time call)
{
    static struct scn_op iob[1];
    iob[0] = fx_syscall(call, true);
    static struct scn_prog iop = { iob, 1 };
    static struct scn_op io[1], cpu[1];
    io[0] = fx_loop(0, &iop, true);
    cpu[0] = fx_compute(10 * SIM_S);
    struct scn_thread th[] = { { "io", 1, { io, 1 }, 0, false }, { "cpu", 1, { cpu, 1 }, 0, false } };
    struct scn_ractor r;
    struct scenario s = fx_one_ractor(2, p, &r, th, 2);
    s.stop_time = 2 * SIM_S;
    return fx_simulate(&s);
}

static void test_io_thread(void)
{
    struct fx_result e = io_thread(GVL_POLICY_EAGER, 1 * MS);
    struct fx_result b = io_thread(GVL_POLICY_BARGING, 1 * MS);
    struct fx_result h = io_thread(GVL_POLICY_HOT_STEAL, 1 * MS);
    struct fx_result d = io_thread(GVL_POLICY_DELAYED, 1 * MS);
    struct fx_result d20 = io_thread(GVL_POLICY_DELAYED, 20 * MS);
    ASSERT(e.m.syscalls >= 15 && e.m.syscalls <= 25);
    ASSERT(b.m.syscalls >= 15 && b.m.syscalls <= 25);
    ASSERT(h.m.syscalls >= 15 && h.m.syscalls <= 25);  /* 1 ms > the successor's wake */
    ASSERT(d.m.syscalls > 5 * e.m.syscalls);           /* 1 ms < the 10 ms tick */
    ASSERT(d20.m.syscalls <= 25);                      /* 20 ms > the tick: no help */
}

/* A thread that queues for the GVL pays the CPU it owes (here the futex
 * wake of the timer thread) before it sleeps; a successor handing it the
 * GVL meanwhile must not be lost: the wait checks `running` after paying.
 * (Cheap idle wake-ups, as on linux_desktop, make the window reachable:
 * the old code hung here with every thread "waiting for the GVL".) */
static void test_no_lost_wakeup(void)
{
    static struct scn_op body[2];
    body[0] = fx_compute(400 * SIM_NS);
    body[0].u.compute.dur.kind = DIST_UNIFORM;
    body[0].u.compute.dur.b = 800 * SIM_NS;
    body[1] = fx_syscall(1700 * SIM_NS, false);
    static struct scn_prog bp = { body, 2 };
    static struct scn_op ops[1];
    ops[0] = fx_loop(10000, &bp, false);
    struct scn_thread t = { "w", 2, { ops, 1 }, 0, false };
    struct scn_ractor r;
    struct scenario s = fx_one_ractor(2, GVL_POLICY_EAGER, &r, &t, 1);
    s.machine.context_switch = 718 * SIM_NS;
    s.machine.futex_wake = 513 * SIM_NS;
    s.machine.wake_idle_core = 2100 * SIM_NS;
    s.machine.wake_jitter = 0.5;
    s.machine.sched_lock_cs = 127 * SIM_NS;
    struct fx_result x = fx_simulate(&s);
    ASSERT_EQ(x.rc, GV_OK);
    ASSERT_EQ(x.m.syscalls, 20000);
}

static void test_deterministic_every_policy(void)
{
    for (int p = 0; p < GVL_POLICY_COUNT; p++) {
        struct fx_result a = syscall_loop((enum scn_gvl_policy)p, 2, true);
        struct fx_result b = syscall_loop((enum scn_gvl_policy)p, 2, true);
        ASSERT_EQ(a.rc, GV_OK);
        ASSERT_EQ(a.m.wall, b.m.wall);
        ASSERT_EQ(a.m.engine_events, b.m.engine_events);
        ASSERT_EQ(a.m.vol_switches, b.m.vol_switches);
        ASSERT_EQ(a.m.syscalls, 4000);
    }
}

int main(void)
{
    RUN(test_registry);
    RUN(test_hot_steal_trace);
    RUN(test_hot_steal_lock_window);
    RUN(test_hot_steal_not_for_sleeps);
    RUN(test_deferred_short_call_trace);
    RUN(test_barging_trace);
    RUN(test_barging_sleep_yields);
    RUN(test_syscall_loop_two_cores);
    RUN(test_delayed_tick_hands_over);
    RUN(test_delayed_sleep_keeps_gvl);
    RUN(test_delayed_tick_holds_sched_lock);
    RUN(test_threshold_helper_hands_over);
    RUN(test_threshold_helper_wake_cost);
    RUN(test_threshold_helper_slack_key);
    RUN(test_threshold_helper_timer_wake);
    RUN(test_threshold_helper_timer_stall);
    RUN(test_threshold_helper_unlock_wakes_nobody);
    RUN(test_quantum_every_policy);
    RUN(test_queue_path_untouched);
    RUN(test_io_thread);
    RUN(test_no_lost_wakeup);
    RUN(test_deterministic_every_policy);
    TEST_DONE();
}
