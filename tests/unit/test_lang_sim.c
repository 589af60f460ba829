/* test_lang_sim.c - the scenario language's ops in the simulator, on the
 * scenarios of tests/data/lang: exact facts (ops and samples counted,
 * items delivered, GCs and barriers as core/heap.c decides them, who waits
 * on what in a deadlock) and the mechanisms (how many OS wake-ups a timed
 * wait costs on 3.1 and 3.3, a Mutex never handed over). */
#include "sim_fixture.h"
#include "test.h"

#include "../../core/heap.h"

#define LANG "tests/data/lang/"

/* A run's metrics point into its scenario: run_free frees both. */
struct run {
    int rc;
    char err[4096];
    struct scenario s;
    struct run_metrics m;
};

/* Load `file` with the --set values (NULL-terminated) and simulate it. */
static void run_sets(const char *file, const char *const *sets, struct run *r)
{
    memset(r, 0, sizeof *r);
    int nsets = 0;
    while (sets && sets[nsets]) nsets++;
    ASSERT_EQ(fx_load(file, sets, nsets, NULL, &r->s), GV_OK);
    struct simulate_opts so = { .engine = "native" };
    r->rc = simulate_run(&r->s, &so, &r->m, r->err, sizeof r->err);
}

static void run_free(struct run *r)
{
    run_metrics_free(&r->m);
    scenario_free(&r->s);
}

#define RUN_SETS(file, r, ...) run_sets(file, (const char *const[]){ __VA_ARGS__, NULL }, r)

static const struct run_measure *measure(const struct run *r, const char *name)
{
    for (int i = 0; i < r->m.nmeasures; i++)
        if (!strcmp(r->m.measures[i].name, name)) return &r->m.measures[i];
    ASSERT(!"no such measure");
    return NULL;
}

/* A pop that waits: untimed on 3.3+ the pusher's ubf only queues the
 * popper, one OS wake-up (at the GVL hand-off) per item; with a timeout
 * the ubf wakes its native thread at once, and it sleeps again for the
 * GVL: two.  On 3.1 (barging) both kinds wake at once: two. */
static void test_timed_wait_wakes(void)
{
    struct run r;
    const char *const pol[2] = { "runtime.gvl_policy=eager", "runtime.gvl_policy=barging" };
    const uint64_t untimed[2] = { 100, 200 }, timed[2] = { 200, 200 };
    for (int p = 0; p < 2; p++) {
        RUN_SETS(LANG "timed_pop.json", &r, pol[p]);
        ASSERT_EQ(r.rc, GV_OK);
        ASSERT_EQ(r.m.ops, 100);
        /* (and one per sleep on the 2.x GVL's own lock, models/gvl_barging.c) */
        ASSERT_EQ(r.m.wakeups - r.m.gvl_lock_waits, untimed[p]);
        run_free(&r);
        RUN_SETS(LANG "timed_pop.json", &r, pol[p], "ractors.0.threads.1.program.0.body.0.timeout=1s");
        ASSERT_EQ(r.rc, GV_OK);
        ASSERT_EQ(r.m.ops, 100);
        ASSERT_EQ(r.m.timeouts, 0);
        ASSERT_EQ(r.m.wakeups - r.m.gvl_lock_waits, timed[p]);
        run_free(&r);
    }
    /* nobody pushes: every pop times out after 50 us, and the loop goes on */
    RUN_SETS(LANG "timed_pop.json", &r, "ractors.0.threads.0.program.0.times=0",
             "ractors.0.threads.1.program.0.body.0.timeout=50us");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.ops, 100);
    ASSERT_EQ(r.m.timeouts, 100);
    ASSERT(r.m.wall >= 100 * 55 * SIM_US);
    run_free(&r);
    /* timeout 0: nil at once, no wait at all */
    RUN_SETS(LANG "timed_pop.json", &r, "ractors.0.threads.0.program.0.times=0",
             "ractors.0.threads.1.program.0.body.0.timeout=0");
    ASSERT_EQ(r.m.timeouts, 100);
    ASSERT_EQ(r.m.state_time[TS_PARKED], 0);
    ASSERT(r.m.wall < 1000 * SIM_US);
    run_free(&r);
}

/* Bug #19717: the releaser checks the resource in and out again before the
 * signalled waiter holds the GVL, so one worker does all 1000 iterations
 * and the two others give up at their 1 s deadline - on 3.1 and 3.3. */
static void test_resource_pool_starvation(void)
{
    const char *const pol[2] = { "runtime.gvl_policy=barging", "runtime.gvl_policy=eager" };
    for (int p = 0; p < 2; p++) {
        struct run r;
        RUN_SETS("scenarios/examples/resource_pool.json", &r, pol[p]);
        ASSERT_EQ(r.rc, GV_OK);
        ASSERT_EQ(measure(&r, "acquire")->count, 1000);
        ASSERT_EQ(r.m.timeouts, 2);
        ASSERT_EQ(r.m.threads, 4);
        /* the winner's 1000 sleeps of 1 ms; the losers gave up at 1 s */
        ASSERT(r.m.wall > 1000 * SIM_MS && r.m.wall < 1100 * SIM_MS);
        ASSERT(r.m.state_time[TS_PARKED] > 1900 * SIM_MS);  /* two losers, 1 s each */
        run_free(&r);
    }
}

/* A Mutex held across a sleep makes the others queue on it; a producer
 * hands items to consumers through a ConditionVariable: under every policy
 * every section and every item is counted once, nothing deadlocks. */
static void test_mutex_sections(void)
{
    const char *const pol[] = { "runtime.gvl_policy=eager", "runtime.gvl_policy=hot_steal",
                                "runtime.gvl_policy=delayed", "runtime.gvl_policy=threshold",
                                "runtime.gvl_policy=barging" };
    for (int p = 0; p < 5; p++) {
        struct run r;
        RUN_SETS(LANG "mutex_counter.json", &r, pol[p]);
        ASSERT_EQ(r.rc, GV_OK);
        ASSERT_EQ(r.m.ops, 4 * 500);
        /* a holder's 20 us sleep hands the GVL on, and the others wait for
         * the mutex; delayed and threshold keep the GVL through so short a
         * sleep (a tick is 10 ms, the threshold 100 us): nobody waits */
        if (p == 2 || p == 3) ASSERT_EQ(r.m.mutex_waits, 0);
        else ASSERT(r.m.mutex_waits > 0);
        ASSERT_EQ(r.m.threads, 5);
        run_free(&r);
        RUN_SETS(LANG "cv_handoff.json", &r, pol[p]);
        ASSERT_EQ(r.rc, GV_OK);
        ASSERT_EQ(r.m.ops, 300);
        run_free(&r);
        RUN_SETS("scenarios/examples/resource_pool.json", &r, pol[p], "ractors.0.threads.1.program.0.times=50");
        ASSERT_EQ(r.rc, GV_OK);
        run_free(&r);
    }
}

/* Deadlocks on mutexes and condition variables: who waits on what. */
static void test_deadlock_reports(void)
{
    struct run r;
    RUN_SETS(LANG "deadlock_mutex.json", &r, "seed=1");
    ASSERT_EQ(r.rc, GV_ERUN);
    ASSERT_CONTAINS(r.err, "deadlock at");
    ASSERT_CONTAINS(r.err, "thread main: waiting to lock mutex \"b\" (held by other) at /ractors/0/threads/0/program/2");
    ASSERT_CONTAINS(r.err, "thread other: waiting to lock mutex \"a\" (held by main)");
    run_free(&r);
    RUN_SETS(LANG "deadlock_cv.json", &r, "seed=1");
    ASSERT_EQ(r.rc, GV_ERUN);
    ASSERT_CONTAINS(r.err, "thread main: in join, waiting for thread waiter to finish");
    ASSERT_CONTAINS(r.err, "thread waiter: waiting on condition variable \"ready\" (nobody left to signal it) at "
                           "/ractors/0/threads/1/program/0/body/0");
    run_free(&r);
    /* a thread that ends unlocks what it holds: no deadlock */
    RUN_SETS(LANG "deadlock_mutex.json", &r, "ractors.0.threads.1.program.2={\"op\": \"sleep\", \"dur\": \"1ms\"}");
    ASSERT_EQ(r.rc, GV_OK);
    run_free(&r);
    /* ThreadErrors fail the run at the op */
    RUN_SETS(LANG "deadlock_mutex.json", &r, "ractors.0.threads.0.program.2.mutex=a");
    ASSERT_EQ(r.rc, GV_ERUN);
    ASSERT_CONTAINS(r.err, "thread main: mutex_lock of mutex \"a\" at /ractors/0/threads/0/program/2 (line 10): "
                           "deadlock; recursive locking");
    run_free(&r);
    RUN_SETS(LANG "deadlock_mutex.json", &r, "ractors.0.threads.0.program.2.op=mutex_unlock");
    ASSERT_EQ(r.rc, GV_ERUN);
    ASSERT_CONTAINS(r.err, "Attempt to unlock a mutex which is locked by another thread");
    run_free(&r);
}

/* spawn starts a pool's slots one by one; a template's "start" delays it;
 * join of a template waits for each started instance; more spawns than
 * slots fail. */
static void test_spawn_and_start(void)
{
    struct run r;
    RUN_SETS(LANG "spawn_pool.json", &r, "seed=1");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.threads, 5);
    ASSERT_EQ(r.m.spawned, 3);
    ASSERT_EQ(measure(&r, "job")->count, 30);
    ASSERT(r.m.wall >= 3100 * SIM_US);  /* "late" starts at 3 ms, computes 100 us */
    run_free(&r);
    RUN_SETS(LANG "spawn_pool.json", &r, "ractors.0.threads.1.count=2");
    ASSERT_EQ(r.rc, GV_ERUN);
    ASSERT_CONTAINS(r.err, "spawn at /ractors/0/threads/0/program/4 (line 13): every instance of thread template "
                           "\"worker\" is already spawned (its \"count\", 2, is the most that can run; raise it)");
    run_free(&r);
    /* a slot never spawned is not a thread of the run, nor joined */
    RUN_SETS(LANG "spawn_pool.json", &r, "ractors.0.threads.1.count=4");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.threads, 5);
    run_free(&r);
}

/* A generator delivers exactly its count; latency counts from arrival,
 * samples before the warm-up are dropped, rates are over the rest. */
static void test_generator(void)
{
    struct run r;
    RUN_SETS(LANG "generator.json", &r, "seed=1");
    ASSERT_EQ(r.rc, GV_OK);
    const struct run_measure *s = measure(&r, "served");
    ASSERT(s->count > 170 && s->count < 200);
    ASSERT(s->p50 >= 300 * SIM_US && s->p50 <= s->p90 && s->p90 <= s->p99 && s->p99 <= s->max);
    ASSERT_EQ(r.m.threads, 4);
    ASSERT_EQ(r.m.warmup, 10 * SIM_MS);
    run_free(&r);
    /* no warm-up: every one of the 200 items is a sample */
    RUN_SETS(LANG "generator.json", &r, "warmup=0s");
    ASSERT_EQ(measure(&r, "served")->count, 200);
    run_free(&r);
    /* one item for 200 pops: the servers wait for ever, a deadlock, reported */
    RUN_SETS(LANG "generator.json", &r, "generators.0.count=1");
    ASSERT_EQ(r.rc, GV_ERUN);
    ASSERT_CONTAINS(r.err, "parked in queue_pop on queue \"q\" (empty)");
    run_free(&r);
}

/* The GC: the counts the heap decides (replayed here with core/heap.c),
 * all work in state gc; a multi-Ractor process takes one barrier per GC
 * start, and on 3.3+ one per lazy-sweep step too. */
static void test_gc(void)
{
    struct core_heap h;
    core_heap_init(&h, 10000, 1.8, 1);
    sim_time work = 0;
    for (int i = 0; i < 2000; i++) {
        uint64_t left = 100;
        struct core_gc_step st;
        while ((st = core_heap_alloc(&h, &left, 0.1)).kind != CORE_GC_NONE)
            work += st.kind == CORE_GC_SWEEP ? (sim_time)st.swept * 16 * SIM_NS
                                             : 43 * SIM_US + (sim_time)st.marked * 15 * SIM_NS;
    }
    struct run r;
    RUN_SETS(LANG "gc.json", &r, "seed=1");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.gc_count, h.minor + h.major);
    ASSERT_EQ(r.m.gc_major, h.major);
    ASSERT_EQ(r.m.gc_sweeps, h.sweeps);
    ASSERT_EQ(r.m.state_time[TS_GC], work);
    ASSERT_EQ(r.m.gc_clock, work);  /* alone on its core: the process's CPU in the windows is the GC's */
    ASSERT_EQ(r.m.ops, 2000);
    sim_time wall = r.m.wall;
    run_free(&r);
    /* alone, the thread's time is its Ruby and its GC work */
    RUN_SETS(LANG "gc.json", &r, "ractors.0.threads.0.program.0.body.1.objects=0");
    ASSERT_EQ(r.m.gc_count, 0);
    ASSERT_EQ(wall - r.m.wall, work);
    run_free(&r);
    /* a syscall's "allocates" (File.mtime's Time) allocates as an alloc op
     * of that many objects right after the call: the same GCs */
    RUN_SETS(LANG "gc.json", &r, "ractors.0.threads.0.program.0.body.1.survive=0");
    uint64_t gcs = r.m.gc_count, sweeps = r.m.gc_sweeps;
    ASSERT(gcs > 0);
    run_free(&r);
    RUN_SETS(LANG "gc.json", &r,
             "ractors.0.threads.0.program.0.body.1={\"op\":\"syscall\",\"call\":\"stat\",\"dur\":\"1us\","
             "\"allocates\":100}");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.gc_count, gcs);
    ASSERT_EQ(r.m.gc_sweeps, sweeps);
    ASSERT_EQ(r.m.syscalls, 2000);
    run_free(&r);
    /* two Ractors: every GC start takes a barrier; from 3.3 every sweep step too */
    RUN_SETS(LANG "gc_ractors.json", &r, "runtime.gvl_policy=barging");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.barriers, r.m.gc_count);
    /* ... and each Ractor takes its pages under the VM lock
     * (newobj_slowpath): 400,000 objects, at most 409 a page, where the
     * GC's steps alone would take it once each */
    ASSERT(r.m.vmlock_acquires >= 2 * 2000 * 100 / CORE_HEAP_PAGE_SLOTS);
    ASSERT(r.m.vmlock_acquires > 2 * (r.m.gc_count + r.m.gc_sweeps));
    run_free(&r);
    /* an env escape allocates the environment and the Proc, both with a
     * malloc'd body: fifteen accesses to rb_objspace's shared lines in five
     * runs on one line.  Two worker Ractors on two cores move the lines (at
     * most once a run); on one core they never move */
    const char *proc2[] = { "runtime={\"ruby\":\"3.1\"}", "ractors.1.count=2", "stop.time=20ms",
                            "machine.cores=2", NULL };
    run_sets("scenarios/proc_heavy.json", proc2, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT(r.m.gc_count > 0);
    ASSERT(r.m.line_transfers > r.m.ops);
    ASSERT(r.m.line_transfers <= 5 * r.m.ops + CORE_OBJSPACE_LINES);
    ASSERT(r.m.vmlock_acquires > r.m.gc_count + r.m.gc_sweeps);
    uint64_t ops2 = r.m.ops;
    sim_time gc2 = r.m.state_time[TS_GC];
    run_free(&r);
    /* the sweep's frees of the other Ractor's bodies (free_remote): longer
     * GC steps on two cores, none of them on one */
    const char *proc2f[] = { "runtime={\"ruby\":\"3.1\"}", "ractors.1.count=2", "stop.time=20ms",
                             "machine.cores=2", "machine.free_remote=150ns", NULL };
    run_sets("scenarios/proc_heavy.json", proc2f, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT(r.m.state_time[TS_GC] * 10 > gc2 * 13);
    ASSERT(r.m.ops < ops2);
    run_free(&r);
    proc2f[3] = "machine.cores=1";
    run_sets("scenarios/proc_heavy.json", proc2f, &r);
    ASSERT_EQ(r.rc, GV_OK);
    uint64_t ops1f = r.m.ops;
    sim_time gc1f = r.m.state_time[TS_GC];
    run_free(&r);
    proc2f[4] = "machine.free_remote=0ns";
    run_sets("scenarios/proc_heavy.json", proc2f, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.ops, ops1f);
    ASSERT_EQ(r.m.state_time[TS_GC], gc1f);
    run_free(&r);
    proc2[3] = "machine.cores=1";
    run_sets("scenarios/proc_heavy.json", proc2, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.line_transfers, 0);
    ASSERT(r.m.gc_count > 0);
    ASSERT(ops2 < 2 * r.m.ops);  /* the moves cost the two cores more than half their gain */
    run_free(&r);
    RUN_SETS(LANG "gc_ractors.json", &r, "runtime.gvl_policy=eager");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.barriers, r.m.gc_count + r.m.gc_sweeps);
    ASSERT(r.m.state_time[TS_BARRIER_JOIN] > 0);
    run_free(&r);
}

/* barging: every acquire and release of the 2.x GVL is a section of its
 * native mutex gvl->lock.  One worker (N File.mtime calls: a release and
 * an acquire each) and the main thread joining it never contend: 2N
 * sections, + 6 (each thread's start and end, the join's release and
 * acquire), no sleep on the lock.  Eight workers on two cores come back
 * from stat(2) while another holds gvl->lock through a release's futex
 * wake: they sleep on it, each sleep a voluntary switch and a wake-up. */
static void test_barging_gvl_lock(void)
{
    const char *one[] = { "runtime.gvl_policy=barging", "machine.cores=2", "ractors.0.threads.1.count=1",
                          "ractors.0.threads.1.program.0.times_total=2000", NULL };
    struct run r;
    run_sets("scenarios/mtime_loop.json", one, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.gvl_lock_sections, 2 * 2000 + 6);
    ASSERT_EQ(r.m.gvl_lock_waits, 0);
    run_free(&r);
    const char *eight[] = { "runtime.gvl_policy=barging", "machine.cores=2",
                            "ractors.0.threads.1.program.0.times_total=20000", NULL };
    run_sets("scenarios/mtime_loop.json", eight, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT(r.m.gvl_lock_waits > 0);
    ASSERT(r.m.gvl_lock_sections >= 2 * 20000);
    ASSERT(r.m.vol_switches >= r.m.gvl_lock_waits);
    ASSERT(r.m.wakeups >= r.m.gvl_lock_waits);
    run_free(&r);
    /* the 3.3+ GVL has no such lock */
    const char *eager[] = { "runtime.gvl_policy=eager", "machine.cores=2",
                            "ractors.0.threads.1.program.0.times_total=20000", NULL };
    run_sets("scenarios/mtime_loop.json", eager, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.gvl_lock_sections, 0);
    run_free(&r);
}

/* barging: the pusher wakes the parked popper holding the popper's
 * interrupt_lock (rb_threadptr_interrupt_common runs the unblock function
 * under it) for what the wake costs it, here a 5 us FUTEX_WAKE.  A popper
 * back on a core within 1 us asks for that lock (unblock_function_clear,
 * native_cond_sleep's re-lock) inside the section and sleeps on it, every
 * time; one back after 20 us finds it free.  The 3.3+ GVL has no such
 * section (its wake only queues the popper). */
static void test_barging_interrupt_lock(void)
{
    struct run r;
    RUN_SETS(LANG "timed_pop.json", &r, "runtime.gvl_policy=barging", "machine.futex_wake=5us",
             "machine.wake_idle_core=1us");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.ops, 100);
    ASSERT_EQ(r.m.intr_lock_waits, 100);
    ASSERT(r.m.vol_switches >= 300 + r.m.intr_lock_waits);
    run_free(&r);
    RUN_SETS(LANG "timed_pop.json", &r, "runtime.gvl_policy=barging", "machine.futex_wake=5us",
             "machine.wake_idle_core=20us");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.intr_lock_waits, 0);
    run_free(&r);
    RUN_SETS(LANG "timed_pop.json", &r, "runtime.gvl_policy=eager", "machine.futex_wake=5us",
             "machine.wake_idle_core=1us");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.intr_lock_waits, 0);
    run_free(&r);
}

/* barging: the popper, the process's first native sleeper, holds the
 * signal self-pipe and sleeps in ppoll on it (rb_sigwait_fd_get,
 * rb_sigwait_sleep); the pusher wakes it by a write to that eventfd
 * (ubf_sigwait), inside the popper's interrupt_lock section, which lasts
 * futex_wake + ppoll_wake_extra; the popper, back on a core, pays
 * ppoll_return (ppoll's return and the eventfd read) before it asks for
 * that lock.  Back after 20 us, it finds a 5 + 20 us section still held;
 * back after 1 us + 10 us of ppoll_return, a 5 us one already over. */
static void test_barging_ppoll_wake(void)
{
    static const struct {
        const char *wake_idle, *cost;
        uint64_t waits;
    } c[] = {
        { "machine.wake_idle_core=20us", "machine.ppoll_wake_extra=20us", 100 },
        { "machine.wake_idle_core=1us", "machine.ppoll_return=10us", 0 },
    };
    for (int i = 0; i < 2; i++) {
        struct run r;
        RUN_SETS(LANG "timed_pop.json", &r, "runtime.gvl_policy=barging", "machine.futex_wake=5us", c[i].wake_idle,
                 c[i].cost);
        ASSERT_EQ(r.rc, GV_OK);
        ASSERT_EQ(r.m.ops, 100);
        ASSERT_EQ(r.m.intr_lock_waits, c[i].waits);
        run_free(&r);
    }
}

/* barging on one core under a fair class: a popper whose wake preempts
 * the pusher runs while the pusher's interrupt_lock section is still
 * open - the section ends when the pusher has paid its wake, which it can
 * only do once it runs again - so the popper finds the lock held however
 * long its way back: a 10 us ppoll_return against a 5 us wake makes as
 * many sleeps on it as no ppoll_return at all (half the pushes here: the
 * others find the popper asleep with no lag, which does not preempt).
 * Under FIFO no wake preempts, and the section is over when the popper
 * asks.  (Debian's Ruby 3.1.2 and the executor on one CPU: a sleep on a
 * mutex after every sleep in ppoll, docs/validate.md.) */
static void test_barging_interrupt_lock_preempted(void)
{
    uint64_t waits[3];
    const char *sched[3] = { "machine.os_scheduler=eevdf_delay_dequeue", "machine.os_scheduler=eevdf_delay_dequeue",
                             "machine.os_scheduler=fifo" };
    const char *back[3] = { "machine.ppoll_return=10us", "machine.ppoll_return=0s", "machine.ppoll_return=0s" };
    for (int i = 0; i < 3; i++) {
        struct run r;
        RUN_SETS(LANG "timed_pop.json", &r, "runtime.gvl_policy=barging", "machine.cores=1", sched[i],
                 "machine.futex_wake=5us", back[i]);
        ASSERT_EQ(r.rc, GV_OK);
        ASSERT_EQ(r.m.ops, 100);
        ASSERT(r.m.vol_switches >= r.m.intr_lock_waits);
        waits[i] = r.m.intr_lock_waits;
        run_free(&r);
    }
    ASSERT(waits[0] >= 40);
    ASSERT_EQ(waits[0], waits[1]);
    ASSERT_EQ(waits[2], 0);
}

/* The 3.1 ping-pong on one CPU with a calibrated profile (the AMD EPYC
 * guest of 2026-12-08, its Ruby's File.write work; 40K messages): every
 * sleeper's wake preempts its waker inside a lock section - a release's
 * signal inside gvl->lock, a push's eventfd write inside the sleeper's
 * interrupt_lock - and the woken thread sleeps on that lock, so half the
 * voluntary switches are sleeps on a mutex, as perf showed of the
 * executor (2,598 of 5,190) and of Debian's Ruby 3.1.2 (2,849 of 5,694)
 * there (docs/validate.md, "The interrupt_lock held through a
 * preemption"; before it, the model's interrupt_lock section had always
 * ended by the time the woken thread came back: 37%). */
static void test_barging_one_cpu_lock_sleeps(void)
{
    static const char *const sets[] = {
        "machine=docs/data/validate/hosts/epyc-2vcpu-2026-12-08-v1272-s53/host.json", "machine.cores=1",
        "runtime={\"ruby\":\"3.1\"}", "ractors.0.threads.0.program.0.times=8000",
        "ractors.0.threads.1.program.0.times=40000",
        "ractors.0.threads.0.program.0.body.2.dur=machine", "ractors.0.threads.0.program.0.body.2.method_work=machine",
        "ractors.0.threads.0.program.0.body.3.dur=machine", "ractors.0.threads.0.program.0.body.3.method_work=machine",
        "ractors.0.threads.0.program.0.body.4.dur=machine", "ractors.0.threads.0.program.0.body.4.method_work=machine",
        "ractors.0.threads.1.program.0.body.2.dur=machine", "ractors.0.threads.1.program.0.body.2.method_work=machine",
        "ractors.0.threads.1.program.0.body.3.dur=machine", "ractors.0.threads.1.program.0.body.3.method_work=machine",
        "ractors.0.threads.1.program.0.body.4.dur=machine", "ractors.0.threads.1.program.0.body.4.method_work=machine",
        NULL };
    struct run r;
    run_sets("scenarios/queue_pingpong.json", sets, &r);
    ASSERT_EQ(r.rc, GV_OK);
    uint64_t mutex = r.m.gvl_lock_slept + r.m.intr_lock_waits;
    ASSERT(r.m.vol_switches > 300);
    ASSERT(r.m.intr_lock_waits > r.m.vol_switches / 10);
    ASSERT(20 * mutex >= 9 * r.m.vol_switches && 20 * mutex <= 11 * r.m.vol_switches);
    run_free(&r);
}

/* A syscall's method_work: CPU its Ruby method uses holding the GVL before
 * the call.  One thread: exactly 100 x 4 us more running time, the same
 * blocking time.  Two threads on two cores: the work of one waits for the
 * other's (the GVL), so the run lasts at least 2 x 100 x 4 us, where the
 * calls alone (1 us each, outside the GVL) would overlap. */
static void test_syscall_method_work(void)
{
    struct run r;
    RUN_SETS(LANG "method_work.json", &r, "ractors.0.threads.0.count=1",
             "ractors.0.threads.0.program.0.body.0.method_work=0ns");
    ASSERT_EQ(r.rc, GV_OK);
    sim_time run0 = r.m.state_time[TS_RUNNING], block0 = r.m.state_time[TS_BLOCKING], wall0 = r.m.wall;
    run_free(&r);
    RUN_SETS(LANG "method_work.json", &r, "ractors.0.threads.0.count=1");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.syscalls, 100);
    ASSERT_EQ(r.m.state_time[TS_RUNNING] - run0, 100 * 4 * SIM_US);
    ASSERT_EQ(r.m.state_time[TS_BLOCKING], block0);
    ASSERT_EQ(r.m.wall - wall0, 100 * 4 * SIM_US);
    run_free(&r);
    RUN_SETS(LANG "method_work.json", &r, "seed=1");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.syscalls, 200);
    ASSERT(r.m.wall >= 2 * 100 * 4 * SIM_US);
    run_free(&r);
}

/* A syscall's method_work_after: CPU its Ruby method uses after the call,
 * the GVL taken back.  One thread: 100 x 3 us more running time, the same
 * blocking time, as method_work's; two threads on two cores, the same 4 us
 * split 1 us before the call and 3 us after it: the same CPU as all of it
 * before, and the GVL holds it all the same (the run lasts the 800 us of
 * the two threads' work at least). */
static void test_syscall_method_work_after(void)
{
    struct run r;
    RUN_SETS(LANG "method_work.json", &r, "ractors.0.threads.0.count=1");
    ASSERT_EQ(r.rc, GV_OK);
    sim_time run0 = r.m.state_time[TS_RUNNING], block0 = r.m.state_time[TS_BLOCKING];
    run_free(&r);
    RUN_SETS(LANG "method_work.json", &r, "ractors.0.threads.0.count=1",
             "ractors.0.threads.0.program.0.body.0.method_work_after=3us");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.syscalls, 100);
    ASSERT_EQ(r.m.state_time[TS_RUNNING] - run0, 100 * 3 * SIM_US);
    ASSERT_EQ(r.m.state_time[TS_BLOCKING], block0);
    run_free(&r);
    RUN_SETS(LANG "method_work.json", &r, "seed=1");
    ASSERT_EQ(r.rc, GV_OK);
    sim_time run2 = r.m.state_time[TS_RUNNING];
    run_free(&r);
    RUN_SETS(LANG "method_work.json", &r, "seed=1", "ractors.0.threads.0.program.0.body.0.method_work=1us",
             "ractors.0.threads.0.program.0.body.0.method_work_after=3us");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.syscalls, 200);
    ASSERT(r.m.wall >= 2 * 100 * 4 * SIM_US);
    /* (within a few us: the two runs' hand-offs differ) */
    ASSERT(r.m.state_time[TS_RUNNING] - run2 <= 5 * SIM_US && run2 - r.m.state_time[TS_RUNNING] <= 5 * SIM_US);
    run_free(&r);
}

#define LIST(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The running time `keys` add to a run of `file` with `sets` (each list
 * NULL-terminated, at most 8 in all). */
static sim_time running_added(const char *file, const char *const *sets, const char *const *keys)
{
    const char *all[9];
    int n = 0;
    for (int i = 0; sets[i]; i++) all[n++] = sets[i];
    for (int i = 0; keys[i]; i++) all[n++] = keys[i];
    ASSERT(n <= 8);
    all[n] = NULL;
    struct run r;
    run_sets(file, sets, &r);
    ASSERT_EQ(r.rc, GV_OK);
    sim_time base = r.m.state_time[TS_RUNNING];
    run_free(&r);
    run_sets(file, all, &r);
    ASSERT_EQ(r.rc, GV_OK);
    sim_time more = r.m.state_time[TS_RUNNING] - base;
    run_free(&r);
    return more;
}

/* Work after an idle core (machine.compute_after_idle, method_after_idle):
 * a thread that sleeps before each of 100 iterations arrives on an idle
 * core each time; its first Ruby work after pays once per kind - the
 * machine's File.mtime its method's figure (which holds the interpreter's:
 * the compute after it pays none), or without one the interpreter's.
 * Without the keys nothing; a thread that never idles pays once, at its
 * start, where its compute comes first: the interpreter's figure, then
 * File.mtime's less it.  Arriving in the middle of File.write (here after
 * a sleep between its open and its write; in a run, a GVL waiter woken
 * after the open) it pays the interpreter's figure for the rest, and its
 * next File.write nothing. */
static void test_after_idle(void)
{
    struct run r;
    RUN_SETS(LANG "after_idle.json", &r, "seed=1");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.state_time[TS_RUNNING], 100 * 3 * SIM_US);  /* the method's 2 us, the compute's 1 us */
    ASSERT_EQ(r.m.syscalls, 100);
    run_free(&r);
    ASSERT_EQ(running_added(LANG "after_idle.json", LIST("seed=1"), LIST("machine.compute_after_idle=1us")),
              100 * 1 * SIM_US);
    ASSERT_EQ(running_added(LANG "after_idle.json", LIST("seed=1"),
                            LIST("machine.compute_after_idle=1us", "machine.method_after_idle.stat=3us")),
              100 * 3 * SIM_US);
    /* a 50 us compute instead of the sleep: one idle core, at the start */
    ASSERT_EQ(running_added(LANG "after_idle.json", LIST("ractors.0.threads.0.program.0.body.0.op=compute"),
                            LIST("machine.compute_after_idle=1us", "machine.method_after_idle.stat=3us")),
              (1 + 2) * SIM_US);
    /* the middle of File.write: 1 us each time, 3 us once (its first
     * open, on the idle core it starts on) */
    ASSERT_EQ(running_added(LANG "after_idle_write.json", LIST("seed=1"),
                            LIST("machine.compute_after_idle=1us", "machine.method_after_idle.open_devnull=3us")),
              (100 * 1 + 3) * SIM_US);
}

/* A wake onto a core still waking up (machine.wake_waking): the eager
 * ping-pong on two cores with the Intel Xeon guest's profile of session 39
 * (its 10K messages).  There a GVL holder's hand-off often wakes its
 * successor on the core its own eventfd write is waking the timer on;
 * charged like any remote wake, the holder has always left the timeslice
 * set when the timer looks, and the timer is woken at nearly every
 * acquisition (over 2 a message, no tick); with the costs calibrate
 * measured for such wakes (0.96-3.66 us; a remote wake onto an idle core
 * 1.42 us in that profile) the slow ones keep the holder in the set, the
 * timer finds it, takes its 10 ms timed wait and ticks (the pthread
 * executor there: 0.02-0.09 wake-ups a message). */
static void test_wake_waking(void)
{
    static const char *const base[] = {
        "machine=docs/data/validate/hosts/xeon-2vcpu-2026-12-06-v1272-s39/host.json", "machine.cores=2",
        "runtime.gvl_policy=eager", "ractors.0.threads.0.program.0.times=2000",
        "ractors.0.threads.1.program.0.times=10000", NULL };
    struct run r;
    run_sets("scenarios/queue_pingpong.json", base, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT(r.m.timer_wakes > 2 * 10000);
    run_free(&r);
    const char *with[8];
    int n = 0;
    for (; base[n]; n++) with[n] = base[n];
    with[n++] = "machine.wake_waking=[\"961ns\", \"1.13us\", \"1.63us\", \"2.27us\", \"2.58us\", \"2.89us\", "
                "\"3.15us\", \"3.66us\"]";
    with[n] = NULL;
    run_sets("scenarios/queue_pingpong.json", with, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT(r.m.timer_wakes < 10000 / 2);
    ASSERT(r.m.timer_ticks > 0);
    run_free(&r);
}

/* A wake before the vCPU halts (machine.wake_prehalt_*): the 3.1 mtime
 * loop of 2 threads on two cores (50K calls) with the profile of the Intel
 * Xeon guest that first measured it (Linux 6.18.44-fc-v1300: a wake within
 * 6.5 us of the sleeper's FUTEX_WAIT costs its waker no IPI, 9.25 us
 * otherwise, and the sleeper is back 15.2 us after it went to sleep).  The
 * loop's hand-offs wake a thread that went to sleep a moment before: with
 * the keys its wakers' CPU falls by most of an IPI per wake and the run
 * by a quarter; without them (window 0) every wake is the IPI's. */
static void test_wake_prehalt(void)
{
    const char *sets[] = { "machine=docs/data/validate/hosts/xeon-2vcpu-2026-12-08-v1300-s54b/host.json",
                           "runtime={\"ruby\":\"3.1\"}", "machine.cores=2", "ractors.0.threads.1.count=2",
                           "ractors.0.threads.1.program.0.times_total=50000",
                           "ractors.0.threads.1.program.0.body.1.dur=machine", "seed=1", NULL, NULL };
    struct run with, without;
    run_sets("scenarios/mtime_loop.json", sets, &with);
    ASSERT_EQ(with.rc, GV_OK);
    sets[7] = "machine.wake_prehalt_window=0ns";
    run_sets("scenarios/mtime_loop.json", sets, &without);
    ASSERT_EQ(without.rc, GV_OK);
    ASSERT(with.m.wakeups > 3000 && without.m.wakeups > 3000);
    /* at least half an IPI (4.6 us) saved per wake, over a third of them */
    ASSERT((double)(without.m.cpu - with.m.cpu) > (double)with.m.wakeups / 3 * 4.6 * (double)SIM_US);
    ASSERT((double)with.m.wall < 0.85 * (double)without.m.wall);
    run_free(&with);
    run_free(&without);
}

/* The gc op: a GC start of the given length, in state gc for exactly that
 * long and counted once; the other thread of its Ractor, ready meanwhile,
 * waits for the GVL through it.  With a second Ractor it takes one barrier,
 * which stops that Ractor's running thread. */
static void test_gc_op(void)
{
    struct run r;
    RUN_SETS(LANG "gc_op.json", &r, "seed=1");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.gc_count, 1);
    ASSERT_EQ(r.m.state_time[TS_GC], SIM_MS);
    ASSERT_EQ(r.m.barriers, 0);
    ASSERT(r.m.state_time[TS_WANTS_GVL] >= 1050 * SIM_US);  /* "other" from 50 us to the end of the GC at least */
    ASSERT(r.m.wall >= 2200 * SIM_US);                      /* one GVL: 1.2 ms of main, 1 ms of other */
    run_free(&r);
    RUN_SETS(LANG "gc_op_ractors.json", &r, "seed=1");
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.gc_count, 1);
    ASSERT_EQ(r.m.state_time[TS_GC], SIM_MS);
    ASSERT_EQ(r.m.barriers, 1);
    ASSERT(r.m.state_time[TS_BARRIER_JOIN] > 0);
    ASSERT(r.m.wall >= 6 * SIM_MS);   /* t stopped for the collection */
    run_free(&r);
}

/* A worker Ractor with two threads, under every policy: the second thread
 * gets its Ractor's GVL when the first ends.  Under `barging` (CRuby before
 * 3.3, no M:N) every thread has a native thread of its own: none waits for
 * a shared one.  (Before, the M:N path ran under the 2.x GVL too, and the
 * second thread waited for a GVL "held by nobody": a false deadlock.) */
static void test_two_threads_per_ractor_every_policy(void)
{
    for (int p = 0; p < GVL_POLICY_COUNT; p++) {
        char pol[64];
        snprintf(pol, sizeof pol, "runtime.gvl_policy=%s", scn_policy_name((enum scn_gvl_policy)p));
        struct run r;
        RUN_SETS("scenarios/tarai_ractors.json", &r, pol, "ractors.1.count=2", "ractors.1.threads.0.count=2",
                 "ractors.1.threads.0.program.0.insns=2000000");
        if (r.rc != GV_OK) fprintf(stderr, "%s: %s\n", pol, r.err);
        ASSERT_EQ(r.rc, GV_OK);
        ASSERT_EQ(r.m.threads, 5);
        if (p == GVL_POLICY_BARGING) {
            ASSERT_EQ(r.m.state_time[TS_WANTS_SNT], 0);
            ASSERT_EQ(r.m.native_threads, 5);  /* one per Ruby thread; no timer thread before 3.3 */
        }
        run_free(&r);
    }
}

/* gc_free_body: with every other GC cost 0, a run's GC time is its freed
 * bodies times the key, and the bodies are the env_escapes' two objects,
 * all freed but those of the last GC's unfinished sweep and of the
 * allocations after it (at most one GC's worth). */
static void test_gc_free_body(void)
{
    struct run r;
    const char *sets[] = { "runtime={\"ruby\":\"3.1\"}", "ractors.1.count=1", "stop.time=20ms", "machine.cores=1",
                           "machine.gc_mark_base=0ns", "machine.gc_mark_per_object=0ns",
                           "machine.gc_sweep_per_slot=0ns", "machine.gc_free_body=22ns", NULL };
    run_sets("scenarios/proc_heavy.json", sets, &r);
    ASSERT_EQ(r.rc, GV_OK);
    uint64_t gcs = r.m.gc_count, ops = r.m.ops;
    sim_time gc = (sim_time)r.m.state_time[TS_GC];
    ASSERT(gcs >= 5 && ops > 0);
    ASSERT_EQ(gc % (22 * SIM_NS), 0);
    uint64_t freed = (uint64_t)(gc / (22 * SIM_NS)), bodies = 2 * ops;
    ASSERT(freed <= bodies && bodies - freed <= 2 * bodies / gcs + 2);
    run_free(&r);
    /* two cores: the clock windows (what GC.stat(:time) reads) hold the
     * collector's time and some of the other Ractor's, which runs until a
     * barrier or the VM lock stops it - counted, as the kernel does, from
     * the last update of its runtime before the window (a tick, its own
     * read, its switch) when it switches inside it: more than its CPU in
     * the window alone (sim/machine.h mach_cpu_clock_read) */
    const char *two[] = { "runtime={\"ruby\":\"3.1\"}", "ractors.1.count=2", "stop.time=20ms", "machine.cores=2",
                          "machine.gc_free_body=22ns", NULL };
    run_sets("scenarios/proc_heavy.json", two, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT(r.m.gc_count >= 5 && r.m.gc_clock > r.m.state_time[TS_GC] && r.m.gc_clock < r.m.cpu);
    run_free(&r);
    /* gc_mark_per_thread: with every other GC cost 0, each GC start marks
     * the living threads - main (parked in its join) and the worker, the
     * whole run long (the run's end may cut the last start short) */
    const char *threads[] = { "runtime={\"ruby\":\"3.1\"}", "ractors.1.count=1", "stop.time=20ms", "machine.cores=1",
                              "machine.gc_mark_base=0ns", "machine.gc_mark_per_object=0ns",
                              "machine.gc_sweep_per_slot=0ns", "machine.gc_mark_per_thread=2us", NULL };
    run_sets("scenarios/proc_heavy.json", threads, &r);
    ASSERT_EQ(r.rc, GV_OK);
    gc = (sim_time)r.m.state_time[TS_GC];
    ASSERT(r.m.gc_count >= 5);
    ASSERT(gc <= (sim_time)r.m.gc_count * 2 * 2 * SIM_US && gc > (sim_time)(r.m.gc_count - 1) * 2 * 2 * SIM_US);
    run_free(&r);
    /* gc_cold: each GC start pays the curve at the time since the one
     * before, once - with every other cost 0, a flat curve of 100 us gives
     * every start 100 us (the first's gap, from the run's start, is past
     * the curve's point too; the run's end may cut the last short) */
    const char *cold[] = { "runtime={\"ruby\":\"3.1\"}", "ractors.1.count=1", "stop.time=20ms", "machine.cores=1",
                           "machine.gc_mark_base=0ns", "machine.gc_mark_per_object=0ns",
                           "machine.gc_sweep_per_slot=0ns", "machine.gc_cold=[[\"1ns\", \"100us\"]]", NULL };
    run_sets("scenarios/proc_heavy.json", cold, &r);
    ASSERT_EQ(r.rc, GV_OK);
    gc = (sim_time)r.m.state_time[TS_GC];
    ASSERT(r.m.gc_count >= 5);
    ASSERT(gc > (sim_time)(r.m.gc_count - 1) * 100 * SIM_US && gc <= (sim_time)r.m.gc_count * 100 * SIM_US);
    run_free(&r);
    /* the curve from 500 ms on: no GC of this run waits that long */
    const char *late[] = { "runtime={\"ruby\":\"3.1\"}", "ractors.1.count=1", "stop.time=20ms", "machine.cores=1",
                           "machine.gc_mark_base=0ns", "machine.gc_mark_per_object=0ns",
                           "machine.gc_sweep_per_slot=0ns", "machine.gc_cold=[[\"500ms\", \"0s\"], [\"1s\", \"1us\"]]",
                           NULL };
    run_sets("scenarios/proc_heavy.json", late, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.state_time[TS_GC], 0);
    run_free(&r);
    /* alloc_object: an alloc op's own CPU, before its objects - the heap's
     * decisions unchanged, each op longer by its objects times the key */
    const char *plain[] = { "machine.cores=1", NULL };
    const char *paid[] = { "machine.cores=1", "machine.alloc_object=10ns", NULL };
    run_sets("tests/data/lang/gc.json", plain, &r);
    ASSERT_EQ(r.rc, GV_OK);
    sim_time wall0 = r.m.wall;
    uint64_t gcs0 = r.m.gc_count;
    run_free(&r);
    run_sets("tests/data/lang/gc.json", paid, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.gc_count, gcs0);
    ASSERT_EQ(r.m.wall - wall0, (sim_time)2000 * 100 * 10 * SIM_NS);  /* 2000 ops of 100 objects */
    run_free(&r);
    /* env_escape_work: an env_escape op's own CPU, before its two objects -
     * on one core, one Ractor and no JIT check, each op longer by the key
     * and the heap's decisions unchanged */
    const char *esc0[] = { "runtime={\"ruby\":\"3.1\"}", "ractors.1.count=1", "stop.time=5ms", "machine.cores=1",
                           NULL };
    const char *esc1[] = { "runtime={\"ruby\":\"3.1\"}", "ractors.1.count=1", "stop.time=5ms", "machine.cores=1",
                           "machine.env_escape_work=100ns", NULL };
    run_sets("scenarios/proc_heavy.json", esc0, &r);
    ASSERT_EQ(r.rc, GV_OK);
    double ops0 = (double)r.m.ops, per0 = (double)r.m.wall / ops0;
    run_free(&r);
    run_sets("scenarios/proc_heavy.json", esc1, &r);
    ASSERT_EQ(r.rc, GV_OK);
    double per1 = (double)r.m.wall / (double)r.m.ops;
    ASSERT(ops0 > 1000 && r.m.ops < ops0);
    ASSERT(per1 - per0 > 95 * SIM_NS && per1 - per0 < 105 * SIM_NS);
    run_free(&r);
    /* the key at 0: no GC time at all */
    const char *none[] = { "runtime={\"ruby\":\"3.1\"}", "ractors.1.count=1", "stop.time=20ms", "machine.cores=1",
                           "machine.gc_mark_base=0ns", "machine.gc_mark_per_object=0ns",
                           "machine.gc_sweep_per_slot=0ns", NULL };
    run_sets("scenarios/proc_heavy.json", none, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.state_time[TS_GC], 0);
    ASSERT(r.m.gc_count >= 5);
    run_free(&r);
}

/* rb_objspace's shared lines as the accesses of gc.c make them: the
 * sequence of an env_escape (core/heap.c), and two Ractors allocating on two
 * cores, whose ops fetch the lines the other core took, both at once. */
static void test_objspace_accesses(void)
{
    int n, runs = 0, writes = 0, oldmalloc = 0;
    const struct core_objspace_access *a = core_objspace_escape(&n);
    ASSERT_EQ(n, 15);
    for (int i = 0; i < n; i++) {
        if (i == 0 || a[i].line != a[i - 1].line) runs++;
        writes += a[i].write;
        oldmalloc += a[i].line == CORE_OBJSPACE_OLDMALLOC;
        ASSERT(a[i].site && strstr(a[i].site, ".c "));
    }
    ASSERT_EQ(a[0].line, CORE_OBJSPACE_HEAD);
    ASSERT_EQ(runs, 5);       /* head, oldmalloc, head, oldmalloc, head */
    ASSERT_EQ(writes, 6);     /* 2 x (two atomic adds, total_allocated_objects++) */
    ASSERT_EQ(oldmalloc, 2);
    a = core_objspace_object(&n);
    ASSERT_EQ(n, 2);
    ASSERT(a[0].line == CORE_OBJSPACE_HEAD && a[1].line == CORE_OBJSPACE_HEAD && a[1].write);
    /* the lines, each once, in the order of first access: what the model
     * moves (a line's later accesses find it held) */
    unsigned char lines[CORE_OBJSPACE_LINES];
    ASSERT_EQ(core_objspace_lines(a, n, lines), 1);
    ASSERT_EQ(lines[0], CORE_OBJSPACE_HEAD);
    a = core_objspace_escape(&n);
    ASSERT_EQ(core_objspace_lines(a, n, lines), 2);
    ASSERT(lines[0] == CORE_OBJSPACE_HEAD && lines[1] == CORE_OBJSPACE_OLDMALLOC);
    ASSERT_EQ(core_objspace_lines(a + 2, 1, lines), 1);  /* oldmalloc's add alone */
    ASSERT_EQ(lines[0], CORE_OBJSPACE_OLDMALLOC);

    struct run r;
    const char *sets[] = { "runtime={\"ruby\":\"3.1\"}", "ractors.1.count=2", "stop.time=20ms",
                           "machine.cores=2", "machine.free_remote=0ns", "machine.remote_rmw=60ns",
                           "ractors.1.threads.0.program.0.body.0.dur=167ns", NULL };
    /* each op 167 ns of work, then its accesses: the other core has taken
     * both lines since nearly every time, each comes at most once an op
     * (a stall per change of line made up to five before) */
    run_sets("scenarios/proc_heavy.json", sets, &r);
    ASSERT_EQ(r.rc, GV_OK);
    double busy = (double)r.m.line_transfers / (double)r.m.ops;
    ASSERT(busy > 1.7 && busy <= 2.0);
    uint64_t ops_busy = r.m.ops;
    run_free(&r);
    /* 20 us of work an op: the runs almost never meet, one move a line an
     * op (the other core has been there since) */
    sets[6] = "ractors.1.threads.0.program.0.body.0.dur=20us";
    run_sets("scenarios/proc_heavy.json", sets, &r);
    ASSERT_EQ(r.rc, GV_OK);
    double apart = (double)r.m.line_transfers / (double)r.m.ops;
    ASSERT(apart > 1.9 && apart < 2.1);
    run_free(&r);
    /* the moves are what slows the busy loop, by one fetch an op: the two
     * lines come together (remote_rmw 0: the lines still move, for free).
     * An op of the two workers' 2 x 20 ms: without the stalls 239 ns, with
     * them one remote_rmw more (60 ns), not one per line (120 ns) */
    sets[5] = "machine.remote_rmw=0ns";
    sets[6] = "ractors.1.threads.0.program.0.body.0.dur=167ns";
    run_sets("scenarios/proc_heavy.json", sets, &r);
    ASSERT_EQ(r.rc, GV_OK);
    double op_free = 40e6 / (double)r.m.ops, op_busy = 40e6 / (double)ops_busy;  /* ns */
    ASSERT(op_busy - op_free > 40 && op_busy - op_free < 80);
    run_free(&r);
    /* Ruby 4.0's per-Ractor counts: nothing moves */
    sets[5] = "runtime.alloc_counters=local";
    run_sets("scenarios/proc_heavy.json", sets, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT_EQ(r.m.line_transfers, 0);
    run_free(&r);
}

int main(void)
{
    RUN(test_timed_wait_wakes);
    RUN(test_wake_prehalt);
    RUN(test_resource_pool_starvation);
    RUN(test_mutex_sections);
    RUN(test_deadlock_reports);
    RUN(test_spawn_and_start);
    RUN(test_generator);
    RUN(test_gc);
    RUN(test_barging_gvl_lock);
    RUN(test_barging_interrupt_lock);
    RUN(test_barging_ppoll_wake);
    RUN(test_barging_interrupt_lock_preempted);
    RUN(test_barging_one_cpu_lock_sleeps);
    RUN(test_gc_op);
    RUN(test_syscall_method_work);
    RUN(test_syscall_method_work_after);
    RUN(test_after_idle);
    RUN(test_wake_waking);
    RUN(test_two_threads_per_ractor_every_policy);
    RUN(test_objspace_accesses);
    RUN(test_gc_free_body);
    TEST_DONE();
}
