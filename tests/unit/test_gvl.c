/* test_gvl.c - the eager GVL model end to end on small scenarios built in C:
 * exact timings of a hand-computed case, one voluntary switch per syscall,
 * the sleep on the sched lock of a woken thread that preempted its waker,
 * the queue park/wake path, the 100 ms quantum, join, stop.time, deadlock
 * and no-progress reports, and determinism. */
#include <string.h>

#include "sim_fixture.h"
#include "test.h"

/* Scenario building and simulation: tests/unit/sim_fixture.h. */
static struct scn_ractor g_ractor;

static struct scenario one_ractor(int cores, struct scn_thread *threads, int n)
{
    return fx_one_ractor(cores, GVL_POLICY_EAGER, &g_ractor, threads, n);
}

/* Simulate s with one queue, "q" (queue ops name it 0). */
static struct fx_result simulate_with_queue(struct scenario s)
{
    struct scn_queue q = { "q", 0 };
    s.queues = &q;
    s.nqueues = 1;
    return fx_simulate(&s);
}

/* ---- tests -------------------------------------------------------------- */

/* One thread, one compute: the thread starts on an idle core (20 us), runs
 * 10 us and ends.  The timer thread never ticks (no waiters). */
static void test_single_thread_exact(void)
{
    struct scn_op ops[] = { fx_compute(10 * SIM_US) };
    struct scn_thread t = { "main", 1, { ops, 1 }, 0, false };
    struct scenario s = one_ractor(1, &t, 1);
    struct fx_result r = fx_simulate(&s);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.wall, 30 * SIM_US);
    ASSERT_EQ(r.m.state_time[TS_WANTS_GVL], 20 * SIM_US);
    ASSERT_EQ(r.m.state_time[TS_RUNNING], 10 * SIM_US);
    ASSERT_EQ(r.m.gvl_handoffs, 0);
    ASSERT_EQ(r.m.timer_ticks, 0);
}

/* Two threads, 2 cores, each one syscall: the GVL released at blocking
 * entry is simply taken by the other thread, so both run in parallel. */
static void test_released_gvl_taken_without_wait(void)
{
    struct scn_op ops[] = { fx_syscall(1 * SIM_US, false) };
    struct scn_thread t = { "w", 2, { ops, 1 }, 0, false };
    struct scenario s = one_ractor(2, &t, 1);
    struct fx_result r = fx_simulate(&s);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.wall, 21 * SIM_US);
    ASSERT_EQ(r.m.gvl_handoffs, 0);
    ASSERT_EQ(r.m.wakeups, 0);
    ASSERT_EQ(r.m.syscalls, 2);
}

/* Hand-computed eager trace, 2 cores (us).  A and B start on idle cores
 * (20) and the timer thread queues on core 0.  A takes the GVL and computes
 * 20..25; B queues behind it and sleeps, so core 1 pulls the timer (idle
 * balance): it runs 22..23 and, A having a waiter, arms its 10 ms timeout.
 * A's syscall hands the GVL to B (futex wake; B's core 1 is idle: B runs at
 * 45) and burns syscall + futex 25..27; back, A finds B `running`, queues
 * and sleeps.  B computes 45..50; its syscall hands the GVL back to A (core
 * 0 idle: A runs at 70) and B sleeps at 52.  A ends at 70, handing the GVL
 * to B (core 1 idle: 90) and exits after the futex (71); B ends at 90. */
static void test_eager_trace_exact(void)
{
    struct scn_op ops[] = { fx_compute(5 * SIM_US), fx_syscall(1 * SIM_US, false) };
    struct scn_thread t = { "w", 2, { ops, 2 }, 0, false };
    struct scenario s = one_ractor(2, &t, 1);
    struct fx_result r = fx_simulate(&s);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.wall, 90 * SIM_US);
    ASSERT_EQ(r.m.gvl_handoffs, 3);     /* A->B, B->A at the syscalls, A->B at A's end */
    ASSERT_EQ(r.m.syscalls, 2);
    /* vcsw: B waits (20), the timer sleeps (23), A waits (27), B waits (52) */
    ASSERT_EQ(r.m.vol_switches, 4);
    ASSERT_EQ(r.m.wakeups, 3);
    ASSERT_EQ(r.m.state_time[TS_RUNNING], 10 * SIM_US);
    ASSERT_EQ(r.m.state_time[TS_BLOCKING], 4 * SIM_US);
    /* the same with an IPI cost: each of the three hand-offs wakes a thread
     * onto the other, idle core, so its waker pays wake_ipi (3 us) beside
     * futex_wake; the wakes themselves leave at the same times */
    s.machine.wake_ipi = 3 * SIM_US;
    struct fx_result ri = fx_simulate(&s);
    ASSERT_EQ(ri.rc, GV_OK);
    ASSERT_EQ(ri.m.wall, 90 * SIM_US);
    ASSERT_EQ(ri.m.cpu - r.m.cpu, 9 * SIM_US);
}

/* A queue ping-pong on one core: main parks in its pop at once, the
 * worker starts at 1 ms (the core idles meanwhile), then every push and
 * syscall hands the GVL over.  From the second hand-off on each wake finds
 * a thread that last ran on this core, which has not been idle since it
 * went to sleep: a hand-off chain, whose wakes cost the waker
 * futex_wake_chain instead of futex_wake when the profile has it (0.25 us
 * against 1 us here).  The first wake (main, asleep since before the idle
 * millisecond) still costs futex_wake: the same hand-offs, 0.75 us less
 * CPU for each of the others. */
static void test_chain_wake_cost(void)
{
    static struct scn_op mbody[1], wbody[3];
    mbody[0] = fx_queue(OP_QUEUE_POP, 0);
    wbody[0] = fx_compute(5 * SIM_US);
    wbody[1] = fx_queue(OP_QUEUE_PUSH, 0);
    wbody[2] = fx_syscall(1 * SIM_US, false);
    static struct scn_prog mp = { mbody, 1 }, wp = { wbody, 3 };
    struct scn_op mops[] = { fx_loop(50, &mp, false) };
    struct scn_op wops[] = { fx_loop(50, &wp, false) };
    struct scn_thread th[] = { { "main", 1, { mops, 1 }, 0, false }, { "worker", 1, { wops, 1 }, 1 * SIM_MS, false } };
    struct scenario s = one_ractor(1, th, 2);
    struct fx_result r = simulate_with_queue(s);
    s.machine.futex_wake_chain = 250 * SIM_NS;
    struct fx_result rc = simulate_with_queue(s);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(rc.rc, GV_OK);
    ASSERT_EQ(r.m.wakeups, 100);  /* to main at each push's syscall, back at each pop */
    ASSERT_EQ(rc.m.wakeups, r.m.wakeups);
    ASSERT_EQ(rc.m.gvl_handoffs, r.m.gvl_handoffs);
    /* ... and so is the unlock that wakes the timer, which slept on the
     * global sched lock after it preempted the worker's eventfd write
     * (test_timer_sees_writer_in_set) */
    ASSERT_EQ(r.m.sched_lock_waits, 0);
    ASSERT_EQ(r.m.timer_lock_waits, 1);
    ASSERT_EQ(rc.m.timer_lock_waits, r.m.timer_lock_waits);
    ASSERT_EQ(r.m.cpu - rc.m.cpu, (sim_time)(r.m.wakeups - 1 + r.m.timer_lock_waits) * 750 * SIM_NS);
}

/* A hand-off's signal is made under the Ractor's sched lock
 * (thread_sched_wakeup_running_thread) and the woken thread's
 * pthread_cond_wait re-takes that lock before it returns.  On one core a
 * woken thread that preempts its waker does so inside the waker's section:
 * it sleeps on the lock (one voluntary switch more) until the waker, run
 * again, has paid its wake and unlocks.  Where the wakee does not preempt
 * (fifo: only long sleepers do), or is woken onto another, idle core (it
 * arrives after wake_idle_core, long after the wake is paid), nobody
 * sleeps on the lock. */
static struct fx_result relock_case_none(int cores, enum scn_os_scheduler os, sim_time none)
{
    static struct scn_op mbody[2], wbody[3];
    mbody[0] = fx_queue(OP_QUEUE_POP, 0);
    mbody[1] = fx_compute(600 * SIM_NS);
    wbody[0] = fx_compute(550 * SIM_NS);
    wbody[1] = fx_queue(OP_QUEUE_PUSH, 0);
    wbody[2] = fx_syscall(300 * SIM_NS, false);
    static struct scn_prog mp = { mbody, 2 }, wp = { wbody, 3 };
    static struct scn_op mops[1], wops[1];
    mops[0] = fx_loop(200, &mp, false);
    wops[0] = fx_loop(200, &wp, false);
    static struct scn_thread th[2];
    th[0] = (struct scn_thread){ "main", 1, { mops, 1 }, 0, false };
    th[1] = (struct scn_thread){ "worker", 1, { wops, 1 }, 1 * SIM_MS, false };
    struct scenario s = one_ractor(cores, th, 2);
    s.machine.os_scheduler = os;
    s.machine.os_tick = 4 * SIM_MS;
    s.machine.os_timeslice = 1500 * SIM_US;
    s.machine.context_switch = 442 * SIM_NS;
    s.machine.futex_wake_none = none;
    return simulate_with_queue(s);
}

static struct fx_result relock_case(int cores, enum scn_os_scheduler os)
{
    return relock_case_none(cores, os, 0);
}

static void test_relock_after_preempting_wake(void)
{
    struct fx_result fifo = relock_case(1, OS_SCHED_FIFO);
    struct fx_result fair = relock_case(1, OS_SCHED_EEVDF_DELAY);
    struct fx_result two = relock_case(2, OS_SCHED_EEVDF_DELAY);
    ASSERT_EQ(fifo.rc, GV_OK);
    ASSERT_EQ(fair.rc, GV_OK);
    ASSERT_EQ(two.rc, GV_OK);
    /* fifo: only main's first wake (after the worker's idle start) preempts */
    ASSERT(fifo.m.sched_lock_waits <= 1);
    /* a fair class: the woken thread preempts its waker at most hand-offs,
     * and each such wake is one sleep on the lock and one voluntary switch
     * more than its hand-off */
    ASSERT(fair.m.sched_lock_waits * 2 > fair.m.wakeups);
    ASSERT(fair.m.sched_lock_waits <= fair.m.wakeups);
    ASSERT(fair.m.vol_switches >= fair.m.wakeups + fair.m.sched_lock_waits);
    ASSERT(fair.m.invol_switches >= fair.m.sched_lock_waits);
    /* two cores, an idle one for every wakee: no sleep on the lock */
    ASSERT_EQ(two.m.sched_lock_waits, 0);
    ASSERT_EQ(two.m.timer_lock_waits, 0);
}

/* A hand-off that finds its successor registered on its condvar but not
 * asleep yet: the successor, back from its syscall while the other thread
 * holds the GVL, queues and pays its FUTEX_WAIT's way into the kernel
 * (futex_wake_none); the owner enters its own syscall within that time and
 * signals it.  glibc makes that FUTEX_WAKE all the same (futex_wake_none,
 * paid holding the Ractor's sched lock), the successor's wait returns at
 * once and must re-take the lock, which the signaller still holds: it
 * sleeps on the lock instead of on its condvar.  Without the key (0: not
 * modelled) the successor is asleep before any signal and nobody ever
 * sleeps on the lock. */
static struct fx_result presleep_case(sim_time none)
{
    static struct scn_op body[2];
    body[0] = fx_compute(1 * SIM_US);
    body[1] = fx_syscall(2 * SIM_US, false);
    static struct scn_prog prog = { body, 2 };
    static struct scn_op ops[1];
    ops[0] = fx_loop(500, &prog, false);
    static struct scn_thread th[1];
    th[0] = (struct scn_thread){ "w", 2, { ops, 1 }, 0, false };
    struct scenario s = one_ractor(2, th, 1);
    s.machine.futex_wake = 3 * SIM_US;
    s.machine.wake_idle_core = 10 * SIM_US;
    s.machine.futex_wake_none = none;
    return simulate_with_queue(s);
}

static void test_signal_before_futex_wait(void)
{
    struct fx_result off = presleep_case(0);
    struct fx_result on = presleep_case(1200 * SIM_NS);
    ASSERT_EQ(off.rc, GV_OK);
    ASSERT_EQ(on.rc, GV_OK);
    ASSERT_EQ(off.m.syscalls, 1000);
    ASSERT_EQ(on.m.syscalls, 1000);
    ASSERT_EQ(off.m.sched_lock_waits, 0);
    ASSERT(on.m.sched_lock_waits > 0);
    /* each sleep on the lock is a voluntary switch and needs an unlock's wake */
    ASSERT(on.m.vol_switches >= on.m.sched_lock_waits);
    ASSERT(on.m.wakeups >= on.m.sched_lock_waits);
}

/* The 3.1 GVL's waits (models/vm_lock.c): a thread on its way into a
 * FUTEX_WAIT - gvl->lock's, or its condvar's after pthread_cond_wait
 * unlocked the mutex - is registered but not asleep for futex_wake_none on
 * several cores; a signal or an unlock meanwhile makes the wait return at
 * once, and its FUTEX_WAKE finds nobody.  Two threads taking turns at a
 * 1.6 us call holding the GVL and a 1.6 us syscall (the AMD guest's mtime
 * loop): with the window, most hand-offs meet a waiter on its way in, so
 * fewer waits end in a sleep; the profile without the key models no
 * window.  On one core the window is not charged: the runs are alike. */
/* Two threads of 2,000 turns at a call of `compute` (barging_pair: 1.6 us)
 * holding the 3.1 GVL and a 1.6 us syscall. */
static struct scenario barging_pair_c(int cores, sim_time compute)
{
    static struct scn_op body[2];
    body[0] = fx_compute(compute);
    body[1] = fx_syscall(1600 * SIM_NS, false);
    static struct scn_prog prog = { body, 2 };
    static struct scn_op ops[1];
    ops[0] = fx_loop(2000, &prog, false);
    static struct scn_thread th[1];
    th[0] = (struct scn_thread){ "w", 2, { ops, 1 }, 0, false };
    return fx_one_ractor(cores, GVL_POLICY_BARGING, &g_ractor, th, 1);
}

static struct scenario barging_pair(int cores) { return barging_pair_c(cores, 1600 * SIM_NS); }

/* the pair on the AMD guest's wake costs, with futex_wake_none `none` and
 * machine.lock_line `line` */
static struct fx_result lines_case(int cores, sim_time none, sim_time line)
{
    struct scenario s = barging_pair(cores);
    s.machine.futex_wake = 3590 * SIM_NS;
    s.machine.wake_ipi = 3770 * SIM_NS;
    s.machine.wake_idle_core = 10700 * SIM_NS;
    s.machine.futex_wake_none = none;
    s.machine.lock_line = line;
    return simulate_with_queue(s);
}

static struct fx_result window_case(int cores, sim_time none)
{
    return lines_case(cores, none, 0);
}

static void test_barging_futex_wait_window(void)
{
    struct fx_result off = window_case(2, 0), on = window_case(2, 1170 * SIM_NS);
    struct fx_result off1 = window_case(1, 0), on1 = window_case(1, 1170 * SIM_NS);
    ASSERT_EQ(off.rc, GV_OK);
    ASSERT_EQ(on.rc, GV_OK);
    ASSERT_EQ(off.m.syscalls, 4000);
    ASSERT_EQ(on.m.syscalls, 4000);
    /* without the window every hand-off wakes a sleeper (one voluntary
     * switch each); with it a third or more of them find the waiter on its
     * way in (here half) */
    ASSERT(off.m.vol_switches > 0);
    ASSERT(on.m.vol_switches * 3 < off.m.vol_switches * 2);
    ASSERT(on.m.wall < off.m.wall);
    /* one core: no window, the same run */
    ASSERT_EQ(off1.rc, GV_OK);
    ASSERT_EQ(on1.rc, GV_OK);
    ASSERT_EQ(on1.m.vol_switches, off1.m.vol_switches);
    ASSERT_EQ(on1.m.wall, off1.m.wall);
}

/* The CSV's timer_ticks under barging counts what the executor counts:
 * the TIMER interrupts the designated waiter sets whenever its timed wait
 * returns and finds the GVL owned (do_gvl_timer's "Timeslice").  Two
 * threads of 250 ms of Ruby work on one core: the waiter's 100 ms wait
 * times out with the GVL owned, the owner yields, the other becomes the
 * timer: about one each 100 ms until one thread is done (none of them a
 * wasted wake: a timeout). */
static void test_barging_timer_fires_counted(void)
{
    struct scn_op ops[] = { fx_compute(250 * SIM_MS) };
    struct scn_thread t = { "w", 2, { ops, 1 }, 0, false };
    struct scenario s = fx_one_ractor(1, GVL_POLICY_BARGING, &g_ractor, &t, 1);
    struct fx_result r = fx_simulate(&s);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT(r.m.timer_ticks >= 3 && r.m.timer_ticks <= 5);
    ASSERT_EQ(r.m.wasted_wakes, 0);
    ASSERT(r.m.invol_switches + r.m.vol_switches >= 3);
}

/* s's wake costs (ns): a futex wake `fw`, an IPI `ipi`, an idle core
 * woken in `idle`, a wake of nobody `none`; the way in and the race's
 * wake (sim_time; 0: not measured) */
static void set_wake_costs(struct scenario *s, sim_time fw, sim_time ipi, sim_time idle, sim_time none,
                           sim_time window, sim_time wake)
{
    s->machine.futex_wake = fw * SIM_NS;
    s->machine.wake_ipi = ipi * SIM_NS;
    s->machine.wake_idle_core = idle * SIM_NS;
    s->machine.futex_wake_none = none * SIM_NS;
    if (window) s->machine.futex_wait_window = (struct scn_durs){ 1, { window } };
    if (wake) s->machine.futex_wake_race = (struct scn_durs){ 1, { wake } };
}

/* barging_pair_c on two cores, its call `compute` long, under policy p with
 * those wake costs */
static struct fx_result pair_race(enum scn_gvl_policy p, sim_time compute, sim_time fw, sim_time ipi, sim_time idle,
                                  sim_time none, sim_time window, sim_time wake)
{
    struct scenario s = barging_pair_c(2, compute);
    s.runtime.gvl_policy = p;
    set_wake_costs(&s, fw, ipi, idle, none, window, wake);
    return simulate_with_queue(s);
}

/* The race on gvl->lock (docs/validate.md, "The race on the GVL's native
 * lock"): a release signals a waiter on its way into FUTEX_WAIT and pays
 * that FUTEX_WAKE holding gvl->lock; the waiter's wait returns at the end
 * of its way in and re-locks; if the signal's wake (futex_wake_race)
 * outlasts the rest of that way in and the re-lock's own way in
 * (futex_wait_window), the waiter sleeps on gvl->lock.  With both at
 * futex_wake_none it (almost) never can; with the wake longer it does.  A
 * one-value list draws nothing: the same run as the profile without it. */
static struct fx_result race_case(sim_time window, sim_time wake)
{
    return pair_race(GVL_POLICY_BARGING, 1600 * SIM_NS, 3590, 3770, 10700, 279, window, wake);
}

static void test_barging_relock_race(void)
{
    struct fx_result none = race_case(0, 0), same = race_case(279 * SIM_NS, 279 * SIM_NS);
    struct fx_result slow = race_case(279 * SIM_NS, 900 * SIM_NS);
    ASSERT_EQ(none.rc, GV_OK);
    ASSERT_EQ(same.rc, GV_OK);
    ASSERT_EQ(slow.rc, GV_OK);
    ASSERT_EQ(same.m.wall, none.m.wall);
    ASSERT_EQ(same.m.vol_switches, none.m.vol_switches);
    ASSERT_EQ(same.m.gvl_lock_slept, none.m.gvl_lock_slept);
    /* the wake no longer than the way in: the waiter finds the lock free
     * by the end of its own (but for a section that outlasts it some other
     * way: one in the 4,000 calls); the longer wake puts it to sleep */
    ASSERT(none.m.gvl_lock_slept <= 4);
    ASSERT(slow.m.gvl_lock_slept > none.m.gvl_lock_slept + 100);
    ASSERT(slow.m.gvl_lock_slept <= slow.m.gvl_lock_waits);
    /* each such sleep is a voluntary switch and a wake more */
    ASSERT(slow.m.vol_switches > none.m.vol_switches);
    ASSERT(slow.m.wakeups >= slow.m.gvl_lock_slept);
}

/* The race on sched->lock_ (docs/validate.md, "The lock's way in"): under
 * eager a hand-off signals its successor on its way into the condvar wait
 * and keeps the lock through that FUTEX_WAKE (futex_wake_race); the
 * successor, its wait returned, finds the lock held and waits on it - a
 * FUTEX_WAIT with the same way in (futex_wait_window).  An unlock inside
 * that way in meets it there: no sleep on the lock.  A way in shorter
 * than the rest of the signaller's section: the successor sleeps on the
 * lock and the unlock wakes it across cores.  A profile without the
 * window measured keeps the sleep (vm_futex_wait_window). */
static struct fx_result sched_race_case(sim_time window, sim_time wake)
{
    /* each turn begins with the unlock's FUTEX_WAKE of the lock its
     * cond_wait re-took (models/gvl.c turn_unlock_owed, 1,040 ns here):
     * the compute shorter by as much keeps the turns as long as the
     * successor's call, and the successor's return in the signaller's
     * section */
    return pair_race(GVL_POLICY_EAGER, (1600 - 1040) * SIM_NS, 3340, 3660, 7400, 1040, window, wake);
}

static void test_sched_lock_way_in(void)
{
    struct fx_result none = sched_race_case(0, 0);
    struct fx_result shrt = sched_race_case(700 * SIM_NS, 1130 * SIM_NS);
    struct fx_result lng = sched_race_case(3000 * SIM_NS, 1130 * SIM_NS);
    ASSERT_EQ(none.rc, GV_OK);
    ASSERT_EQ(shrt.rc, GV_OK);
    ASSERT_EQ(lng.rc, GV_OK);
    /* no window measured, or one too short: the successor sleeps on the lock */
    ASSERT(none.m.sched_lock_waits > 100);
    ASSERT(shrt.m.sched_lock_waits > 100);
    /* a way in that outlasts the signaller's section: (almost) never */
    ASSERT(lng.m.sched_lock_waits * 20 < shrt.m.sched_lock_waits);
    ASSERT(lng.m.vol_switches < shrt.m.vol_switches);
    ASSERT(lng.m.wall < shrt.m.wall);
}

/* The waiter's own section of sched->lock_ (models/gvl.c, "the waiter's
 * own section"): two threads under hot_steal and eager on two cores, the
 * AMD guest's costs.  With cond_wait_section measured, a thread that wants
 * the GVL holds the lock through its section, and a holder letting go
 * meanwhile sleeps on it: more waits on the lock, more voluntary
 * switches, a longer run.  Without it, or on one core, the section is an
 * instant (one core: the same run with the key as without). */
static struct fx_result section_case(int cores, enum scn_gvl_policy p, sim_time section)
{
    /* two threads whose rounds differ by 20 ns: the phase between one's
     * return from its call and the other's release sweeps through every
     * value (a compute of 1,350 ns since the unlock after a cond_wait
     * owes its FUTEX_WAKE, models/gvl.c turn_unlock_owed, 1,040 ns here:
     * with 1,600 the rounds fell into step, every holder's release
     * meeting the other's return whether the section was measured or not) */
    static struct scn_op body[2][2];
    static struct scn_prog prog[2];
    static struct scn_op ops[2][1];
    static struct scn_thread th[2];
    for (int i = 0; i < 2; i++) {
        body[i][0] = fx_compute((1350 + 20 * i) * SIM_NS);
        body[i][1] = fx_syscall(2600 * SIM_NS, false);
        prog[i] = (struct scn_prog){ body[i], 2 };
        ops[i][0] = fx_loop(2000, &prog[i], false);
        th[i] = (struct scn_thread){ i ? "b" : "a", 1, { ops[i], 1 }, 0, false };
    }
    struct scenario s = fx_one_ractor(cores, p, &g_ractor, th, 2);
    set_wake_costs(&s, 3340, 3660, 7400, 1040, 700 * SIM_NS, 1130 * SIM_NS);  /* sched_race_case's */
    s.machine.lock_line = 140 * SIM_NS;
    if (section) s.machine.cond_wait_section = (struct scn_durs){ 1, { section } };
    return simulate_with_queue(s);
}

static void test_sched_waiter_section(void)
{
    static const enum scn_gvl_policy pols[] = { GVL_POLICY_HOT_STEAL, GVL_POLICY_EAGER };
    for (int i = 0; i < 2; i++) {
        struct fx_result off = section_case(2, pols[i], 0), on = section_case(2, pols[i], 250 * SIM_NS);
        struct fx_result off1 = section_case(1, pols[i], 0), on1 = section_case(1, pols[i], 250 * SIM_NS);
        ASSERT_EQ(off.rc, GV_OK);
        ASSERT_EQ(on.rc, GV_OK);
        ASSERT_EQ(on.m.syscalls, 4000);
        /* (here each thread's section holds the timer's eventfd write too,
         * which the waiter makes as it queues: a holder letting go at
         * nearly every round sleeps on the lock) */
        ASSERT_EQ(off.m.sched_lock_waits, 0);
        ASSERT(on.m.sched_lock_waits > 1000);
        ASSERT(on.m.vol_switches > off.m.vol_switches);
        ASSERT(on.m.wall > off.m.wall);
        ASSERT_EQ(off1.rc, GV_OK);
        ASSERT_EQ(on1.rc, GV_OK);
        ASSERT_EQ(on1.m.vol_switches, off1.m.vol_switches);
        ASSERT_EQ(on1.m.wall, off1.m.wall);
    }
}

/* A thread woken from its sleep on the sched lock took it with the futex
 * word at 2 (glibc's __lll_lock_wait), so its own unlock makes a FUTEX_WAKE
 * even when nobody else sleeps on the lock: futex_wake_none, charged to
 * it once per such sleep; and so does one whose cond_wait took the lock
 * back without a sleep (lll_cond_lock: models/gvl.c turn_unlock_owed).
 * futex_wake_none 1 ns dearer, the same run: 1 ns more CPU for each such
 * unlock - at least one per sleep on the lock, at most one per sleep and
 * per hand-off.  A profile without the key charges none of them. */
static void test_unlock_after_sleep_wakes_nobody(void)
{
    struct fx_result r0 = relock_case_none(1, OS_SCHED_EEVDF_DELAY, 0);
    struct fx_result r1 = relock_case_none(1, OS_SCHED_EEVDF_DELAY, 1 * SIM_US);
    struct fx_result r2 = relock_case_none(1, OS_SCHED_EEVDF_DELAY, 1 * SIM_US + SIM_NS);
    ASSERT_EQ(r0.rc, GV_OK);
    ASSERT_EQ(r1.rc, GV_OK);
    ASSERT_EQ(r2.rc, GV_OK);
    ASSERT(r1.m.sched_lock_waits > 100);
    ASSERT_EQ(r2.m.sched_lock_waits, r1.m.sched_lock_waits);
    ASSERT_EQ(r2.m.wakeups, r1.m.wakeups);
    ASSERT_EQ(r2.m.vol_switches, r1.m.vol_switches);
    sim_time more = r2.m.cpu - r1.m.cpu;
    ASSERT_EQ(more % SIM_NS, 0);
    ASSERT(more >= (sim_time)r1.m.sched_lock_waits * SIM_NS);
    ASSERT(more <= (sim_time)(r1.m.sched_lock_waits + r1.m.gvl_handoffs) * SIM_NS);
    ASSERT(r0.m.sched_lock_waits > 100);
    ASSERT(r0.m.cpu < r1.m.cpu);
}

/* The unlock after a cond_wait that took sched->lock_ back without a sleep
 * on it (models/gvl.c turn_unlock_owed): two threads on two cores under
 * eager, each woken across cores, find the lock free nearly every time -
 * one FUTEX_WAKE of nobody per such wake-up.  futex_wake_none 100 ns
 * dearer: about 100 ns more CPU per wake-up (a race the shift flips moves
 * a few microseconds more); under the darwin mutex (whose unlock wakes
 * only when the kernel holds a waiter) none of it. */
static struct fx_result cond_unlock_case(sim_time none, enum scn_mutex_impl impl)
{
    struct scenario s = barging_pair(2);
    s.runtime.gvl_policy = GVL_POLICY_EAGER;
    set_wake_costs(&s, 3340, 3660, 7400, 0, 700, 1130);  /* the way in and a race's wake measured */
    s.machine.futex_wake_none = none;
    s.machine.mutex_impl = impl;
    return simulate_with_queue(s);
}

static void test_unlock_after_cond_wait_wakes_nobody(void)
{
    struct fx_result a = cond_unlock_case(1000 * SIM_NS, MUTEX_GLIBC);
    struct fx_result b = cond_unlock_case(1100 * SIM_NS, MUTEX_GLIBC);
    ASSERT_EQ(a.rc, GV_OK);
    ASSERT_EQ(b.rc, GV_OK);
    ASSERT(a.m.wakeups > 1000);
    sim_time more = b.m.cpu - a.m.cpu, slack = 50 * SIM_US;
    ASSERT(more >= (sim_time)(a.m.wakeups * 9 / 10) * 100 * SIM_NS - slack);
    ASSERT(more <= (sim_time)(a.m.wakeups + a.m.sched_lock_waits) * 100 * SIM_NS + slack);
    struct fx_result da = cond_unlock_case(1000 * SIM_NS, MUTEX_DARWIN);
    struct fx_result db = cond_unlock_case(1100 * SIM_NS, MUTEX_DARWIN);
    ASSERT_EQ(da.rc, GV_OK);
    ASSERT_EQ(db.rc, GV_OK);
    ASSERT(da.m.wakeups > 1000);
    ASSERT(db.m.cpu - da.m.cpu < more / 4);
}

/* barging_pair on one CPU whose woken thread preempts its waker (short
 * slices: many preemptions); getpid(2) costing `getpid` (syscalls.getpid). */
static struct fx_result barging_pair_case(sim_time none, sim_time getpid)
{
    struct scenario s = barging_pair(1);
    s.machine.os_scheduler = OS_SCHED_EEVDF_DELAY;
    s.machine.os_tick = 40 * SIM_US;
    s.machine.os_timeslice = 40 * SIM_US;
    s.machine.futex_wake = 3 * SIM_US;
    s.machine.futex_wake_none = none;
    s.machine.syscall_cost[CALL_GETPID] = getpid;
    return simulate_with_queue(s);
}

/* Under the 3.1 GVL a waiter woken by a release preempts its waker on
 * one CPU inside gvl->lock, sleeps on it, and takes it with the word at 2;
 * its unlock's FUTEX_WAKE finds nobody (models/vm_lock.c) and costs what
 * such a call costs, futex_wake_none - not futex_wake, the wake of a
 * sleeper (a perf trace of Ruby 3.1.2's two-CPU mtime loop: 0.8 us for the
 * first, 8.9 us for the second, tracing included). */
static void test_barging_unlock_wakes_nobody(void)
{
    struct fx_result r0 = barging_pair_case(1 * SIM_US, 0);
    struct fx_result r1 = barging_pair_case(1 * SIM_US + SIM_NS, 0);
    ASSERT_EQ(r0.rc, GV_OK);
    ASSERT_EQ(r1.rc, GV_OK);
    ASSERT(r0.m.gvl_lock_waits > 50);
    /* the same run, 1 ns more CPU for each unlock of nobody: one per sleep
     * on gvl->lock (with futex_wake charged instead, none) */
    ASSERT_EQ(r1.m.gvl_lock_waits, r0.m.gvl_lock_waits);
    ASSERT_EQ(r1.m.wakeups, r0.m.wakeups);
    ASSERT_EQ(r1.m.vol_switches, r0.m.vol_switches);
    ASSERT(r1.m.cpu - r0.m.cpu >= (sim_time)r0.m.gvl_lock_waits * SIM_NS);
    ASSERT(r1.m.cpu - r0.m.cpu <= (sim_time)(r0.m.gvl_lock_waits + r0.m.wakeups) * SIM_NS);
}

/* 3.1's do_gvl_timer starts with ubf_timer_disarm, whose
 * `timer_posix.owner != getpid()` is a real system call (glibc caches no
 * pid), made holding gvl->lock: syscalls.getpid each time a waiter
 * becomes the designated timer (and at every native_sleep,
 * rb_sigwait_fd_get; none here). */
static void test_barging_getpid(void)
{
    struct fx_result r0 = barging_pair_case(1 * SIM_US, 0);
    struct fx_result r1 = barging_pair_case(1 * SIM_US, SIM_NS);
    ASSERT_EQ(r0.rc, GV_OK);
    ASSERT_EQ(r1.rc, GV_OK);
    /* one waiter at a time: every wait for the GVL is the designated
     * timer's (do_gvl_timer, one getpid each, the path unchanged by 1 ns),
     * each ended by a release's signal - the wakes that are not gvl->lock's */
    ASSERT_EQ(r1.m.vol_switches, r0.m.vol_switches);
    ASSERT(r0.m.wakeups > r0.m.gvl_lock_waits + 50);
    ASSERT_EQ(r1.m.cpu - r0.m.cpu, (sim_time)(r0.m.wakeups - r0.m.gvl_lock_waits) * SIM_NS);
}

/* machine.lock_line (models/vm_lock.c, "The lines"): every lock that
 * succeeds, condvar wait, signal that finds a waiter and woken waiter's
 * way back pays it when the line's last core is another one.  Two cores:
 * 1 ns per move changes no decision, the moves are counted in
 * line_transfers and each costs exactly its 1 ns of CPU; one core: no line
 * ever moves, the run is the same to the picosecond. */
static struct fx_result lock_line_case(int cores, sim_time lock_line)
{
    return lines_case(cores, 1170 * SIM_NS, lock_line);
}

static void test_barging_lock_line(void)
{
    struct fx_result r0 = lock_line_case(2, 0), r1 = lock_line_case(2, SIM_NS);
    ASSERT_EQ(r0.rc, GV_OK);
    ASSERT_EQ(r1.rc, GV_OK);
    ASSERT_EQ(r0.m.line_transfers, 0);
    /* per GVL hand-off at least the waiter's re-lock and the releaser's
     * next lock cross cores */
    ASSERT(r1.m.line_transfers >= 2 * r0.m.wakeups);
    ASSERT_EQ(r1.m.vol_switches, r0.m.vol_switches);
    ASSERT_EQ(r1.m.wakeups, r0.m.wakeups);
    ASSERT_EQ(r1.m.gvl_lock_waits, r0.m.gvl_lock_waits);
    ASSERT_EQ(r1.m.cpu - r0.m.cpu, (sim_time)r1.m.line_transfers * SIM_NS);
    /* a profile's lock_line of a quarter of a microsecond moves the race:
     * the designated timer's section is longer, so more releases find it
     * holding gvl->lock */
    struct fx_result r250 = lock_line_case(2, 250 * SIM_NS);
    ASSERT_EQ(r250.rc, GV_OK);
    ASSERT(r250.m.cpu > r0.m.cpu + (sim_time)r250.m.line_transfers * 250 * SIM_NS / 2);

    /* the designated timer's locked read-modify-writes on process-wide
     * words, under gvl->lock (gvl_barging.c: ubf_timer_disarm's CAS of
     * timer_posix.state_ before its wait, ruby_sigchld_handler's exchange
     * of sigchld_hit and the TIMER_INTERRUPT OR into the owner's flag after
     * it): in this pair nearly every call ends in a sleep on gvl->lock
     * (3,997 of 4,000), and each such cycle moves at least seven lines,
     * where the lock's and the condvar's alone moved five (19,991 in all,
     * 27,985 with the timer's) */
    ASSERT(r1.m.gvl_lock_waits > 3900);
    ASSERT(r1.m.line_transfers >= 7 * r1.m.gvl_lock_waits);

    struct fx_result c0 = lock_line_case(1, 0), c1 = lock_line_case(1, 250 * SIM_NS);
    ASSERT_EQ(c0.rc, GV_OK);
    ASSERT_EQ(c1.rc, GV_OK);
    ASSERT_EQ(c1.m.line_transfers, 0);
    ASSERT_EQ(c1.m.wall, c0.m.wall);
    ASSERT_EQ(c1.m.cpu, c0.m.cpu);
    ASSERT_EQ(c1.m.vol_switches, c0.m.vol_switches);
}

/* The #21685 mechanism: once another thread is ready, every syscall of an
 * eager GVL is a hand-off, a futex wake and a voluntary switch (the ready
 * queue never drains: the thread handing off queues up behind its
 * successor); on two cores each hand-off also pays an idle-core wake. */
static void test_eager_switch_per_syscall(void)
{
    static struct scn_op body[2];
    body[0] = fx_compute(500 * SIM_NS);
    body[0].u.compute.dur.kind = DIST_UNIFORM;  /* 0.5..1.5 us: no phase locking */
    body[0].u.compute.dur.b = 1500 * SIM_NS;
    body[1] = fx_syscall(1 * SIM_US, false);
    static struct scn_prog bodyp = { body, 2 };
    struct scn_op ops[] = { fx_loop(10000, &bodyp, false) };
    struct scn_thread t = { "w", 2, { ops, 1 }, 0, false };

    struct scenario s1 = one_ractor(1, &t, 1);
    struct fx_result r1 = fx_simulate(&s1);
    struct scenario s2 = one_ractor(2, &t, 1);
    struct fx_result r2 = fx_simulate(&s2);
    ASSERT_EQ(r1.rc, GV_OK);
    ASSERT_EQ(r2.rc, GV_OK);
    ASSERT_EQ(r1.m.syscalls, 20000);
    ASSERT_EQ(r2.m.syscalls, 20000);
    /* 1 core: until the first OS preemption catches a thread holding the
     * GVL, the other cannot even ask for it; from then on, the chain. */
    ASSERT(r1.m.gvl_handoffs > 15000);
    ASSERT(r1.thread_vcsw >= r1.m.gvl_handoffs - 10 && r1.thread_vcsw <= r1.m.gvl_handoffs + 10);
    /* 2 cores: from the start, one hand-off and one switch per syscall */
    ASSERT(r2.m.gvl_handoffs >= 19990 && r2.m.gvl_handoffs <= 20001);
    ASSERT(r2.thread_vcsw >= 19990 && r2.thread_vcsw <= 20010);
    ASSERT(r2.m.wakeups >= r2.m.gvl_handoffs);
    /* per syscall: 1 core ~ work 1 + syscall 1 + futex 1 + switch 2 = 5 us;
     * 2 cores: the successor's idle-core wake (20 us) dominates (and the
     * timer's wake-up that the holder's write pays for, 1 us, most times) */
    double per1 = (double)r1.m.wall / 20000 / SIM_US, per2 = (double)r2.m.wall / 20000 / SIM_US;
    ASSERT(per1 > 4.0 && per1 < 5.0);
    ASSERT(per2 > 21.5 && per2 < 24.0);
    /* the right reason: on 2 cores the threads wait for the GVL (the
     * successor is still waking), not run */
    ASSERT(r2.m.state_time[TS_WANTS_GVL] > 5 * r2.m.state_time[TS_RUNNING]);
}

/* Queue ping-pong: pop parks on empty, push makes the waiter ready; every
 * message goes through and the popper sleeps once per message. */
static void test_queue_park_wake(void)
{
    static struct scn_op pbody[2], cbody[2];
    pbody[0] = fx_queue(OP_QUEUE_PUSH, 0);
    pbody[1] = fx_syscall(500 * SIM_NS, false);
    cbody[0] = fx_queue(OP_QUEUE_POP, 0);
    cbody[1] = fx_compute(200 * SIM_NS);
    static struct scn_prog pp = { pbody, 2 }, cp = { cbody, 2 };
    struct scn_op pops[] = { fx_loop(500, &cp, true) };
    struct scn_op pushes[] = { fx_loop(500, &pp, false) };
    struct scn_thread th[] = { { "main", 1, { pops, 1 }, 0, false }, { "worker", 1, { pushes, 1 }, 0, false } };
    struct fx_result r = simulate_with_queue(one_ractor(2, th, 2));
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.ops, 500);
    ASSERT_EQ(r.m.syscalls, 500);
    ASSERT(r.m.main_vol_switches >= 450);
    ASSERT(r.m.state_time[TS_PARKED] > 0);
}

/* Two CPU-bound threads share the GVL by 100 ms quanta credited in 10 ms
 * ticks by the timer thread. */
static void test_quantum(void)
{
    struct scn_op ops[] = { fx_compute(1 * SIM_S) };
    struct scn_thread t = { "cpu", 2, { ops, 1 }, 0, false };
    struct scenario s = one_ractor(2, &t, 1);
    struct fx_result r = fx_simulate(&s);
    ASSERT_EQ(r.rc, GV_OK);
    /* 2 s of work, one thread at a time */
    ASSERT(r.m.wall > 2 * SIM_S && r.m.wall < 2 * SIM_S + 5 * SIM_MS);
    /* a switch every 100 ms while both are alive: ~10 per second each */
    ASSERT(r.m.gvl_handoffs >= 18 && r.m.gvl_handoffs <= 21);
    /* ticks every 10 ms while the other waits: ~1.9 s of waiting / 10 ms */
    ASSERT(r.m.timer_ticks >= 180 && r.m.timer_ticks <= 200);
}

/* What a timer-thread wake-up costs depends on what woke it
 * (thread_pthread.c timer_thread_polling).  A holds the GVL for `hold`; B
 * starts at 1 ms and queues, which puts A in the timeslice set and wakes
 * the timer through the eventfd (it slept without a timeout).  Woken so,
 * the timer only takes its locks and checks the set: no timer_tick_cost
 * (500 us here).  Only a 10 ms timeout costs it, once per tick. */
static sim_time timer_cpu_case(sim_time hold, uint64_t *ticks, uint64_t *timed)
{
    struct scn_op a_ops[] = { fx_compute(hold) };
    struct scn_op b_ops[] = { fx_compute(1 * SIM_MS) };
    struct scn_thread t[] = { { "a", 1, { a_ops, 1 }, 0, false },
                              { "b", 1, { b_ops, 1 }, 1 * SIM_MS, false } };
    struct scenario s = one_ractor(3, t, 2);
    s.machine.timer_tick_cost = 500 * SIM_US;
    struct fx_result r = fx_simulate(&s);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.gvl_handoffs, 1);
    ASSERT_EQ(r.m.timer_wakes, 1);  /* the set went from empty to non-empty once */
    *ticks = r.m.timer_ticks;
    *timed = r.m.timer_timed_waits;
    return r.m.cpu - hold - 1 * SIM_MS;  /* beyond the two computes */
}

static void test_timer_wake_cost(void)
{
    uint64_t ticks, timed;
    /* A ends at 5 ms: the timer woke once by the eventfd, found A in the
     * set and began a timed wait, which never timed out */
    sim_time extra = timer_cpu_case(5 * SIM_MS, &ticks, &timed);
    ASSERT_EQ(ticks, 0);
    ASSERT_EQ(timed, 1);
    ASSERT(extra < 50 * SIM_US);  /* futex wakes only (500 us per wake before) */
    /* A ends at 25 ms: two 10 ms timeouts (at ~11 and ~21 ms), each a tick
     * that costs timer_tick_cost */
    extra = timer_cpu_case(25 * SIM_MS, &ticks, &timed);
    ASSERT_EQ(ticks, 2);
    ASSERT_EQ(timed, 3);  /* after the wake-up and after each tick: A still waited on */
    ASSERT(extra >= 2 * 500 * SIM_US && extra < 2 * 500 * SIM_US + 50 * SIM_US);
}

/* The order of an eventfd write and what follows it, on one core.  The
 * worker's push makes main ready, which puts the worker in the timeslice
 * set and wakes the timer (thread_sched_enq -> timer_thread_wakeup_locked:
 * a write(2) inside thread_sched_setup_running_threads); its next op, a
 * system call, hands the GVL to main and takes it out of the set.  The
 * write returns first, and the woken timer preempts the worker there (it
 * slept long: wakeup_preempt), so it finds the worker still in the set and
 * begins its 10 ms timed wait.  (When the write was charged with the
 * worker's next burst, after that hand-off, the timer found the set empty
 * and went back to its infinite wait: no timed wait, and on one core a
 * wake-up at every acquisition.) */
static void test_timer_sees_writer_in_set(void)
{
    /* main parks in its pop at once; the worker starts at 1 ms, with the GVL free */
    struct scn_op mops[] = { fx_queue(OP_QUEUE_POP, 0), fx_compute(100 * SIM_US) };
    struct scn_op wops[] = { fx_compute(50 * SIM_US), fx_queue(OP_QUEUE_PUSH, 0), fx_syscall(5 * SIM_US, false) };
    struct scn_thread th[] = { { "main", 1, { mops, 2 }, 0, false }, { "worker", 1, { wops, 3 }, 1 * SIM_MS, false } };
    struct fx_result r = simulate_with_queue(one_ractor(1, th, 2));
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.gvl_handoffs, 2);  /* to main at the call; back to the worker at main's end */
    /* one write: when the worker, back from its call, queues behind main
     * (main joins the set), the timer is in its timed wait already and
     * nobody writes (the old order: a second write, 2 wake-ups) */
    ASSERT_EQ(r.m.timer_wakes, 1);
    ASSERT_EQ(r.m.timer_timed_waits, 1);
    ASSERT_EQ(r.m.timer_ticks, 0);
    /* the write is made holding vm->ractor.sched.lock, which the timer,
     * having preempted the writer, needs for its set_timeout: it sleeps on
     * it once, until the worker's unlock */
    ASSERT_EQ(r.m.timer_lock_waits, 1);
}

/* A queue ping-pong on 2 cores where waking a thread on the other core
 * costs the waker as much as it does on the development guest (wake_ipi:
 * there 18 of the 21 us a remote futex wake takes, against a 38 us wake
 * of an idle core).  Every GVL hand-off crosses cores; the holder joins
 * the timeslice set when the other thread queues, and leaves it when it
 * hands the GVL on, after the futex wake that signals the other thread
 * (thread_sched_wakeup_next_thread: wakeup_running_thread, then
 * del_running_thread).  The timer, woken once, finds a thread in the set
 * and stays in its 10 ms timed wait, as the pthread executor's does
 * (200k messages on the guest: ~1,700 ticks, one per 10 ms of its 17 s,
 * and a few thousand wake-ups for 481k hand-offs).  When the model took
 * the thread out of the set before its futex wake, the timer always
 * checked after the holder had left: a wake-up at every acquisition and
 * no tick. */
static void test_timer_stays_timed_on_two_cores(void)
{
    static struct scn_op mbody[3], wbody[3];
    mbody[0] = fx_queue(OP_QUEUE_POP, 0);
    mbody[1] = fx_compute(1 * SIM_US);
    mbody[2] = fx_syscall(1 * SIM_US, false);
    wbody[0] = fx_compute(1 * SIM_US);
    wbody[1] = fx_queue(OP_QUEUE_PUSH, 0);
    wbody[2] = fx_syscall(1 * SIM_US, false);
    static struct scn_prog mp = { mbody, 3 }, wp = { wbody, 3 };
    struct scn_op mops[] = { fx_loop(4000, &mp, true) };
    struct scn_op wops[] = { fx_loop(4000, &wp, false) };
    struct scn_thread th[] = { { "main", 1, { mops, 1 }, 0, false }, { "worker", 1, { wops, 1 }, 0, false } };
    struct scenario s = one_ractor(2, th, 2);
    s.machine.wake_idle_core = 38 * SIM_US;
    s.machine.futex_wake = 3 * SIM_US;
    s.machine.wake_ipi = 18 * SIM_US;
    struct fx_result r = simulate_with_queue(s);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT(r.m.gvl_handoffs >= 4000);  /* one per message at least */
    ASSERT(r.m.timer_wakes * 100 < r.m.gvl_handoffs);
    /* a tick per 10 ms of the run, give or take the checks that found the set empty */
    uint64_t periods = (uint64_t)(r.m.wall / (10 * SIM_MS));
    ASSERT(periods >= 20);
    ASSERT(r.m.timer_ticks * 10 >= periods * 7);
    /* Where a remote wake costs the waker little (report_m4: no wake_ipi),
     * a holder leaves the set soon after it joins, the timer woken on the
     * idle core finds it empty, and 3.3 writes to the eventfd again at the
     * next join: a wake-up per round trip of the timer (a hand-off takes
     * about a fifth of its 38 us wake here), and hardly a tick. */
    s.machine.wake_ipi = 0;
    r = simulate_with_queue(s);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT(r.m.timer_wakes * 10 > r.m.gvl_handoffs);
    ASSERT(r.m.timer_ticks * 3 < (uint64_t)(r.m.wall / (10 * SIM_MS)));
}

/* With a CPU-bound thread beside it, an I/O thread (1 ms io_wait calls)
 * gets about one call per quantum under eager (bug #21685, ivoanjo). */
static void test_io_thread_starved(void)
{
    static struct scn_op iob[1];
    iob[0] = fx_syscall(1 * SIM_MS, true);
    static struct scn_prog iop = { iob, 1 };
    struct scn_op io[] = { fx_loop(0, &iop, false) };
    struct scn_op cpu[] = { fx_compute(10 * SIM_S) };
    struct scn_thread th[] = { { "io", 1, { io, 1 }, 0, false }, { "cpu", 1, { cpu, 1 }, 0, false } };
    struct scenario s = one_ractor(2, th, 2);
    s.stop_time = 2 * SIM_S;
    struct fx_result r = fx_simulate(&s);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.wall, 2 * SIM_S);
    /* 2 s / 100 ms quantum = ~20 calls (not ~2000) */
    ASSERT(r.m.syscalls >= 15 && r.m.syscalls <= 25);
}

/* A thread that joins waits until every other thread has ended. */
static void test_join(void)
{
    struct scn_op jops[] = { fx_join() };
    struct scn_op wops[] = { fx_compute(5 * SIM_MS) };
    struct scn_thread th[] = { { "main", 1, { jops, 1 }, 0, false }, { "w", 3, { wops, 1 }, 0, false } };
    struct scenario s = one_ractor(4, th, 2);
    struct fx_result r = fx_simulate(&s);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT(r.m.wall > 15 * SIM_MS && r.m.wall < 16 * SIM_MS);
    ASSERT(r.m.state_time[TS_PARKED] > 14 * SIM_MS);
}

/* Who counts a woken thread as wanting the GVL: 3.3's waker makes it
 * READY at the push (ubf_waiting: thread_sched_to_ready_common); up to 3.2
 * the woken thread fires READY itself once it runs (native_sleep's
 * THREAD_BLOCKING_END: thread_sched_to_running), one OS wake-up (20 us on
 * the test machine) later, so `barging` keeps it parked until then.  The
 * worker parks while main sleeps; main pushes and computes 1 ms more. */
static void test_woken_ready(void)
{
    struct scn_op mops[] = { fx_sleep(100 * SIM_US), fx_compute(100 * SIM_US), fx_queue(OP_QUEUE_PUSH, 0),
                             fx_compute(SIM_MS) };
    struct scn_op wops[] = { fx_queue(OP_QUEUE_POP, 0), fx_compute(10 * SIM_US) };
    sim_time wants[2] = { 0, 0 };
    for (int k = 0; k < 2; k++) {
        struct scn_thread t[2] = { { "main", 1, { mops, 4 }, 0, false }, { "worker", 1, { wops, 2 }, 0, false } };
        struct scn_ractor r;
        struct scenario s = fx_one_ractor(2, k ? GVL_POLICY_BARGING : GVL_POLICY_EAGER, &r, t, 2);
        struct scn_queue q = { "q", 0 };
        s.queues = &q;
        s.nqueues = 1;
        struct fx_result res = fx_simulate(&s);
        ASSERT_EQ(res.rc, GV_OK);
        wants[k] = res.wants[1];
        run_metrics_free(&res.m);
    }
    /* both wait for main's 1 ms and one hand-off; under barging the 20 us
     * of the worker's wake-up after the push are still parked */
    ASSERT_EQ(wants[0], 1041 * SIM_US);
    ASSERT_EQ(wants[1], 1021 * SIM_US);
}

/* runtime.event_hook, a tracer's READY hook: paid at every acquisition
 * (the start, and the end of each of 10 blocking regions), before the
 * thread takes the GVL, so each adds the hook to wants_gvl and to the wall
 * time; under barging (3.2: READY fires in thread_sched_to_running_common
 * holding gvl->lock) a second thread that releases the GVL meanwhile
 * waits for that lock. */
static struct fx_result hook_flush_run(enum scn_gvl_policy p, int nthreads, sim_time hook, sim_time flush,
                                       int every)
{
    struct scn_op body[] = { fx_compute(10 * SIM_US), fx_syscall(5 * SIM_US, true) };
    struct scn_op ops[] = { fx_loop(10, &(struct scn_prog){ body, 2 }, false) };
    struct scn_thread t = { "t", nthreads, { ops, 1 }, 0, false };
    struct scn_ractor r;
    struct scenario s = fx_one_ractor(2, p, &r, &t, 1);
    s.runtime.event_hook = hook;
    s.runtime.event_hook_flush = flush;
    s.runtime.event_hook_flush_every = every;
    return fx_simulate(&s);
}

static struct fx_result hook_run(enum scn_gvl_policy p, int nthreads, sim_time hook)
{
    return hook_flush_run(p, nthreads, hook, 0, 0);
}

static void test_event_hook(void)
{
    const enum scn_gvl_policy pols[] = { GVL_POLICY_BARGING, GVL_POLICY_EAGER };
    for (int i = 0; i < 2; i++) {
        struct fx_result a = hook_run(pols[i], 1, 0), b = hook_run(pols[i], 1, 3 * SIM_US);
        ASSERT_EQ(a.rc, GV_OK);
        ASSERT_EQ(b.rc, GV_OK);
        ASSERT_EQ(b.m.state_time[TS_WANTS_GVL] - a.m.state_time[TS_WANTS_GVL], 11 * 3 * SIM_US);
        ASSERT_EQ(b.m.wall - a.m.wall, 11 * 3 * SIM_US);
        ASSERT_EQ(b.m.state_time[TS_RUNNING], a.m.state_time[TS_RUNNING]);
        run_metrics_free(&a.m);
        run_metrics_free(&b.m);
    }
    /* the tracer's buffer written out in every 4th hook: 2 of the 11 take
     * 20 us more; with no hook there is no flush either */
    for (int i = 0; i < 2; i++) {
        struct fx_result a = hook_run(pols[i], 1, 3 * SIM_US);
        struct fx_result b = hook_flush_run(pols[i], 1, 3 * SIM_US, 20 * SIM_US, 4);
        struct fx_result c = hook_run(pols[i], 1, 0), d = hook_flush_run(pols[i], 1, 0, 20 * SIM_US, 4);
        ASSERT_EQ(b.m.state_time[TS_WANTS_GVL] - a.m.state_time[TS_WANTS_GVL], 2 * 20 * SIM_US);
        ASSERT_EQ(b.m.wall - a.m.wall, 2 * 20 * SIM_US);
        ASSERT_EQ(d.m.wall, c.m.wall);
        ASSERT_EQ(d.m.state_time[TS_WANTS_GVL], c.m.state_time[TS_WANTS_GVL]);
        run_metrics_free(&a.m);
        run_metrics_free(&b.m);
        run_metrics_free(&c.m);
        run_metrics_free(&d.m);
    }
    /* two threads: the one in its hook holds gvl->lock */
    struct fx_result a = hook_run(GVL_POLICY_BARGING, 2, 0), b = hook_run(GVL_POLICY_BARGING, 2, 3 * SIM_US);
    ASSERT_EQ(a.rc, GV_OK);
    ASSERT_EQ(b.rc, GV_OK);
    ASSERT_EQ(a.m.gvl_lock_waits, 0);
    ASSERT(b.m.gvl_lock_waits > 0);
    run_metrics_free(&a.m);
    run_metrics_free(&b.m);
}

/* A pop that nobody will ever satisfy is a deadlock, reported per thread. */
static void test_deadlock_report(void)
{
    struct scn_op ops[] = { fx_queue(OP_QUEUE_POP, 0) };
    ops[0].path = "/ractors/0/threads/0/program/0";
    ops[0].line = 7;
    struct scn_thread t = { "main", 1, { ops, 1 }, 0, false };
    struct scenario s = one_ractor(1, &t, 1);
    struct scn_queue q = { "jobs", 0 };
    s.queues = &q;
    s.nqueues = 1;
    struct fx_result r = fx_simulate(&s);
    ASSERT_EQ(r.rc, GV_ERUN);
    ASSERT_CONTAINS(r.err, "deadlock");
    ASSERT_CONTAINS(r.err, "thread main: parked in queue_pop on queue \"jobs\" (empty) at "
                           "/ractors/0/threads/0/program/0 (line 7)");
}

/* A forever loop whose body takes no time is stopped, not hung. */
static void test_zero_time_loop_fails(void)
{
    static struct scn_op body[1];
    body[0] = fx_queue(OP_QUEUE_PUSH, 0);
    static struct scn_prog bp = { body, 1 };
    struct scn_op ops[] = { fx_loop(0, &bp, false) };
    struct scn_thread t = { "main", 1, { ops, 1 }, 0, false };
    struct scenario s = one_ractor(1, &t, 1);
    struct scn_queue q = { "q", 0 };
    s.queues = &q;
    s.nqueues = 1;
    s.stop_time = 1 * SIM_S;
    struct fx_result r = fx_simulate(&s);
    ASSERT_EQ(r.rc, GV_ERUN);
    ASSERT_CONTAINS(r.err, "makes no progress");
}

/* Same scenario and seed: identical results; another seed: other draws. */
static void test_deterministic(void)
{
    static struct scn_op body[2];
    body[0] = fx_compute(1 * SIM_US);
    body[0].u.compute.dur.kind = DIST_EXP;
    body[1] = fx_syscall(1 * SIM_US, false);
    body[1].u.syscall.dur.kind = DIST_UNIFORM;
    body[1].u.syscall.dur.b = 3 * SIM_US;
    static struct scn_prog bp = { body, 2 };
    struct scn_op ops[] = { fx_loop(2000, &bp, false) };
    struct scn_thread t = { "w", 3, { ops, 1 }, 0, false };
    struct scenario s = one_ractor(2, &t, 1);
    struct fx_result a = fx_simulate(&s), b = fx_simulate(&s);
    s.seed = 2;
    struct fx_result c = fx_simulate(&s);
    ASSERT_EQ(a.rc, GV_OK);
    ASSERT_EQ(a.m.wall, b.m.wall);
    ASSERT_EQ(a.m.engine_events, b.m.engine_events);
    ASSERT_EQ(a.m.vol_switches, b.m.vol_switches);
    ASSERT(a.m.wall != c.m.wall);
}

int main(void)
{
    RUN(test_single_thread_exact);
    RUN(test_released_gvl_taken_without_wait);
    RUN(test_eager_trace_exact);
    RUN(test_chain_wake_cost);
    RUN(test_relock_after_preempting_wake);
    RUN(test_signal_before_futex_wait);
    RUN(test_barging_futex_wait_window);
    RUN(test_barging_relock_race);
    RUN(test_sched_lock_way_in);
    RUN(test_sched_waiter_section);
    RUN(test_barging_timer_fires_counted);
    RUN(test_unlock_after_sleep_wakes_nobody);
    RUN(test_unlock_after_cond_wait_wakes_nobody);
    RUN(test_barging_unlock_wakes_nobody);
    RUN(test_barging_getpid);
    RUN(test_barging_lock_line);
    RUN(test_eager_switch_per_syscall);
    RUN(test_queue_park_wake);
    RUN(test_quantum);
    RUN(test_timer_wake_cost);
    RUN(test_timer_sees_writer_in_set);
    RUN(test_timer_stays_timed_on_two_cores);
    RUN(test_io_thread_starved);
    RUN(test_join);
    RUN(test_woken_ready);
    RUN(test_event_hook);
    RUN(test_deadlock_report);
    RUN(test_zero_time_loop_fails);
    RUN(test_deterministic);
    TEST_DONE();
}
