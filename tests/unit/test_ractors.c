/* test_ractors.c - the VM lock, the barrier and the JIT's env-escape check
 * (models/vm_lock.c, barrier.c, invariant.c): exact single-Ractor and
 * uncontended costs, who a barrier waits for, switch-ins during a barrier,
 * the bug #22224 results on the committed scenarios (with the state and
 * count checks that say they hit for the right reason), deadlock reports,
 * observer events and determinism. */
#include <string.h>

#include "../../core/heap.h"
#include "../../models/thread.h"
#include "../../models/vm_lock.h"
#include "sim_fixture.h"
#include "test.h"

/* ---- running scenarios ------------------------------------------------------ */

/* Loading, ops, the test machine and fx_run: tests/unit/sim_fixture.h. */

typedef void (*vm_hook)(struct vm *vm);

struct run_result {
    struct fx_result fx;
    uint64_t ractor_ops[80];
    sim_time th_state[16][TS_COUNT];   /* per thread (first 16) */
    sim_time th_end[16];               /* when each thread ended (0: never) */
    char waits[16][512];               /* th_describe_wait at the end */
    uint64_t barrier_starts, barrier_ends, join_entries, joins;
    vm_hook hook;                      /* run after the observers are attached (may be NULL) */
};

static void obs_instant(void *ctx, const char *name, int thread, sim_time now)
{
    (void)thread, (void)now;
    struct run_result *r = ctx;
    if (!strcmp(name, "barrier_start")) r->barrier_starts++;
    if (!strcmp(name, "barrier_end")) r->barrier_ends++;
}

static void obs_counter(void *ctx, const char *name, int64_t v, sim_time now)
{
    (void)now;
    struct run_result *r = ctx;
    if (!strcmp(name, "barrier_joined") && v > 0) r->joins++;
}

static void obs_state(void *ctx, int thread, enum thread_state from, enum thread_state to,
                      sim_time now)
{
    (void)from;
    struct run_result *r = ctx;
    if (to == TS_BARRIER_JOIN) r->join_entries++;
    if (to == TS_COUNT && thread < 16) r->th_end[thread] = now;
}

static void attach_observers(struct vm *vm, void *ctx)
{
    struct run_result *r = ctx;
    vm->obs.ctx = r;
    vm->obs.instant = obs_instant;
    vm->obs.thread_state = obs_state;
    vm->obs.counter = obs_counter;
    if (r->hook) r->hook(vm);
}

static void inspect_threads(struct vm *vm, void *ctx)
{
    struct run_result *r = ctx;
    if (r->fx.rc == GV_OK)
        for (int i = 0; i < vm->nthreads; i++) {
            int id = vm->threads[i].core.ractor->id;
            if (id < 80) r->ractor_ops[id] += vm->threads[i].core.cur.ops;
        }
    for (int i = 0; i < vm->nthreads && i < 16; i++) {
        for (int k = 0; k < TS_COUNT; k++) r->th_state[i][k] = fx_state_time(vm, i, (enum thread_state)k);
        if (!vm->threads[i].dead) th_describe_wait(&vm->threads[i], r->waits[i], sizeof r->waits[i]);
    }
}

/* Run `s`, `hook` (may be NULL) after the observers are attached.  The
 * result is valid until the next run. */
static struct run_result *run_vm(struct scenario *s, vm_hook hook)
{
    static struct run_result r;
    memset(&r, 0, sizeof r);
    r.hook = hook;
    struct fx_hooks h = { attach_observers, inspect_threads, &r };
    fx_run(s, &h, &r.fx);
    return &r;
}

/* A committed scenario with --set overrides. */
static struct run_result *run_file(const char *path, const char *const *sets, int nsets)
{
    struct scenario scn;
    ASSERT_EQ(fx_load(path, sets, nsets, NULL, &scn), GV_OK);
    struct run_result *r = run_vm(&scn, NULL);
    scenario_free(&scn);
    return r;
}

static double ops_per_s(const struct run_result *r)
{
    return (double)r->fx.m.ops * (double)SIM_S / (double)r->fx.m.wall;
}

/* proc_heavy with N workers, a check mode, a core count and a run length */
static struct run_result proc_heavy(int n, const char *check, int cores, const char *stop)
{
    char a[64], b[64], c[64], d[64];
    snprintf(a, sizeof a, "ractors.1.count=%d", n);
    snprintf(b, sizeof b, "runtime.invariant_check=%s", check);
    snprintf(c, sizeof c, "machine.cores=%d", cores);
    snprintf(d, sizeof d, "stop.time=%s", stop);
    const char *sets[] = { a, b, c, d };
    return *run_file("scenarios/proc_heavy.json", sets, 4);
}

/* ---- scenarios built in C ------------------------------------------------------ */

/* Ractors of one thread each: progs[0] is the main Ractor's. */
#define MAXR 6
struct built {
    struct scenario s;
    struct scn_ractor r[MAXR];
    struct scn_thread t[MAXR];
    struct scn_queue q;
};

/* On the test machine with the costs of the Ractor mechanisms (Darwin's
 * mutex), eager GVL, `check` for the env-escape check, one queue "never". */
static void build(struct built *b, int cores, enum scn_invariant_check check, int n,
                  const char *const *names, struct scn_prog *progs)
{
    memset(b, 0, sizeof *b);
    for (int i = 0; i < n; i++) {
        b->t[i] = (struct scn_thread){ (char *)"t", 1, progs[i], 0, false };
        b->r[i] = (struct scn_ractor){ (char *)names[i], 1, &b->t[i], 1 };
    }
    struct scenario *s = &b->s;
    *s = fx_scenario(cores, GVL_POLICY_EAGER, b->r, n);
    s->machine.mutex_uncontended = 40 * SIM_NS;
    s->machine.sched_lock_cs = 75 * SIM_NS;
    s->machine.remote_rmw = 100 * SIM_NS;
    s->machine.safepoint_gap = 500 * SIM_NS;
    s->machine.escape_check_cs = 300 * SIM_NS;
    s->machine.lockless_check = 1 * SIM_NS;
    s->machine.mutex_impl = MUTEX_DARWIN;
    s->runtime.invariant_check = check;
    s->runtime.gc_heap_init_slots = 10000;  /* the loader's defaults: an escape allocates */
    s->runtime.gc_heap_growth_factor = 1.8;
    b->q = (struct scn_queue){ (char *)"never", 0 };
    s->queues = &b->q;
    s->nqueues = 1;
}

static struct scn_prog join_prog(void)
{
    static struct scn_op j[1];
    j[0] = fx_join();
    return (struct scn_prog){ j, 1 };
}

/* ---- tests: costs ------------------------------------------------------------------- */

/* One Ractor: rb_multi_ractor_p() is false, the VM lock and the barrier are
 * no-ops, only YJIT's lookup remains (escape_check_cs per escape). */
static void test_single_ractor_is_lock_free(void)
{
    static struct scn_op body[2];
    body[0] = fx_compute(1 * SIM_US);
    body[1] = fx_escape(0);
    static struct scn_prog bp = { body, 2 };
    static struct scn_op ops[1];
    ops[0] = fx_loop(1000, &bp, true);
    struct scn_prog p = { ops, 1 };
    const char *names[] = { "main" };
    struct built b;
    build(&b, 2, INVARIANT_LOCK_BARRIER, 1, names, &p);
    struct run_result r = *run_vm(&b.s, NULL);
    ASSERT_EQ(r.fx.rc, GV_OK);
    ASSERT_EQ(r.fx.m.vmlock_acquires, 0);
    ASSERT_EQ(r.fx.m.barriers, 0);
    ASSERT_EQ(r.barrier_starts, 0);
    /* start on an idle core (20 us), 1000 x (1 us + 0.3 us), and the sched
     * lock sections of the start and the end (2 x 75 ns), exactly */
    ASSERT_EQ(r.fx.m.wall, 20 * SIM_US + 1000 * (1 * SIM_US + 300 * SIM_NS) + 150 * SIM_NS);
    /* none: the escape is free */
    b.s.runtime.invariant_check = INVARIANT_NONE;
    r = *run_vm(&b.s, NULL);
    ASSERT_EQ(r.fx.m.wall, 20 * SIM_US + 1000 * SIM_US + 150 * SIM_NS);
}

/* Time per op outside the GC (the escape's environment and Proc fill the
 * heap), in ns. */
static double ns_per_op_but_gc(const struct run_result *r)
{
    return (double)(r->fx.m.wall - r->fx.m.state_time[TS_GC]) / (double)r->fx.m.ops / (double)SIM_NS;
}

/* The report's N=1 numbers (one worker Ractor, main waiting): 167 ns/op
 * without YJIT's bookkeeping, 180 ns with the uncontended lock + barrier,
 * each plus the GC of the two objects an escape allocates. */
static void test_proc_one_worker_costs(void)
{
    struct run_result lb = proc_heavy(1, "lock_barrier", 8, "5ms");
    ASSERT_EQ(lb.fx.rc, GV_OK);
    double per_op = ns_per_op_but_gc(&lb);
    ASSERT(per_op > 179.0 && per_op < 181.5);         /* 180 ns/op */
    ASSERT(lb.fx.m.gc_count > 0);
    /* a barrier per escape, and (eager: 3.3+) per GC start and sweep step */
    uint64_t steps = lb.fx.m.gc_count + lb.fx.m.gc_sweeps;
    ASSERT(lb.fx.m.barriers + 1 >= lb.fx.m.ops + steps && lb.fx.m.barriers <= lb.fx.m.ops + steps + 1);
    ASSERT_EQ(lb.fx.m.vmlock_waits, 0);                /* never contended */
    ASSERT_EQ(lb.fx.m.line_transfers, 0);              /* one allocating core */
    /* one outermost VM-lock enter per escape (plus the main thread's, if the
     * first barrier caught it before it parked), and one per heap page the
     * worker's cache takes (2 objects an op, at most 409 a page; fewer
     * after a sweep step leaves a partial page, or a GC empties the cache) */
    uint64_t pages = 2 * lb.fx.m.ops / CORE_HEAP_PAGE_SLOTS;
    ASSERT(lb.fx.m.vmlock_acquires >= lb.fx.m.ops + pages &&
           lb.fx.m.vmlock_acquires <= lb.fx.m.ops + pages + 2 * steps + 2);
    struct run_result none = proc_heavy(1, "none", 8, "5ms");
    per_op = ns_per_op_but_gc(&none);
    ASSERT(per_op > 166.5 && per_op < 168.0);         /* 167 ns/op */
    pages = 2 * none.fx.m.ops / CORE_HEAP_PAGE_SLOTS;
    steps = none.fx.m.gc_count + none.fx.m.gc_sweeps;
    ASSERT(none.fx.m.vmlock_acquires >= pages && none.fx.m.vmlock_acquires <= pages + 2 * steps + 2);
}

/* ---- tests: who the barrier waits for ----------------------------------------------- */

/* Threads in a blocking region, asleep or parked are not in running_threads:
 * the barrier does not wait for them and they never join. */
static void test_barrier_ignores_non_running(void)
{
    static struct scn_op a[2], bops[1], c[1];
    a[0] = fx_compute(50 * SIM_US);
    a[1] = fx_escape(1);
    bops[0] = fx_sleep(5 * SIM_MS);
    c[0] = fx_syscall(5 * SIM_MS, true);
    struct scn_prog progs[] = { join_prog(), { a, 2 }, { bops, 1 }, { c, 1 } };
    const char *names[] = { "main", "a", "b", "c" };
    struct built b;
    build(&b, 4, INVARIANT_LOCK_BARRIER, 4, names, progs);
    struct run_result r = *run_vm(&b.s, NULL);
    ASSERT_EQ(r.fx.rc, GV_OK);
    ASSERT_EQ(r.fx.m.barriers, 1);
    /* the initiator only paid its own lock sections: nobody to wait for */
    ASSERT(r.th_state[1][TS_BARRIER_INIT] < 1 * SIM_US);
    ASSERT_EQ(r.th_state[2][TS_BARRIER_JOIN], 0);
    ASSERT_EQ(r.th_state[3][TS_BARRIER_JOIN], 0);
    ASSERT_EQ(r.join_entries, 0);
}

/* A thread that switches in while the barrier still waits (sched lock
 * free) is flagged and must join; the barrier also waits for a thread in a
 * GVL-holding call, which cannot be cut, until its next safe point. */
static void test_switch_in_before_completion_joins(void)
{
    static struct scn_op a[2], bops[2], c[2];
    a[0] = fx_compute(50 * SIM_US);
    a[1] = fx_escape(1);
    bops[0] = fx_syscall(100 * SIM_US, false);  /* releases the GVL, back at ~120 us */
    bops[1] = fx_compute(1 * SIM_MS);
    c[0] = fx_syscall(500 * SIM_US, false);
    c[0].u.syscall.releases_gvl = false;        /* holds the GVL: running, not cuttable */
    c[1] = fx_compute(10 * SIM_US);
    struct scn_prog progs[] = { join_prog(), { a, 2 }, { bops, 2 }, { c, 2 } };
    const char *names[] = { "main", "a", "b", "c" };
    struct built b;
    build(&b, 4, INVARIANT_LOCK_BARRIER, 4, names, progs);
    b.s.machine.wake_jitter = 0;
    struct run_result r = *run_vm(&b.s, NULL);
    ASSERT_EQ(r.fx.rc, GV_OK);
    ASSERT_EQ(r.fx.m.barriers, 1);
    /* a initiates at ~70 us and waits for c's call to end at ~520 us */
    ASSERT(r.th_state[1][TS_BARRIER_INIT] > 440 * SIM_US);
    ASSERT(r.th_state[1][TS_BARRIER_INIT] < 520 * SIM_US);
    /* b switched in at ~120 us, got the interrupt and joined until the end */
    ASSERT(r.th_state[2][TS_BARRIER_JOIN] > 380 * SIM_US);
    ASSERT(r.th_state[3][TS_BARRIER_JOIN] > 0);
    ASSERT_EQ(r.join_entries, 2);
}

/* After completion the initiator holds the sched lock through its critical
 * section: a thread coming back from a blocking region cannot switch in
 * (thread_sched_setup_running_threads) until barrier_end - from 3.3; 3.1
 * has no such lock. */
static void test_switch_in_after_completion_waits(void)
{
    static struct scn_op a[2], bops[2];
    a[0] = fx_compute(50 * SIM_US);
    a[1] = fx_escape(1);
    bops[0] = fx_syscall(100 * SIM_US, false);
    bops[1] = fx_compute(10 * SIM_US);
    struct scn_prog progs[] = { join_prog(), { a, 2 }, { bops, 2 } };
    const char *names[] = { "main", "a", "b" };
    struct built b;
    build(&b, 4, INVARIANT_LOCK_BARRIER, 3, names, progs);
    b.s.machine.wake_jitter = 0;
    b.s.machine.escape_check_cs = 1 * SIM_MS;  /* a long critical section under the barrier */
    struct run_result r = *run_vm(&b.s, NULL);
    ASSERT_EQ(r.fx.rc, GV_OK);
    ASSERT_EQ(r.fx.m.barriers, 1);
    /* b's switch-in at ~120 us waits for a's barrier_end at ~1070 us */
    ASSERT(r.th_state[2][TS_BARRIER_JOIN] > 900 * SIM_US);
    ASSERT(r.th_state[2][TS_BARRIER_JOIN] < 1000 * SIM_US);
    ASSERT(r.th_end[2] > r.th_end[1]);
    ASSERT_EQ(r.th_state[2][TS_RUNNING] >= 10 * SIM_US, 1);
    /* 3.1 (`barging`, vm_sync.c v3_1_2): no sched lock, and the barrier is
     * over before the critical section: b switches in at ~120 us, runs its
     * 10 us and ends while a is still inside */
    b.s.runtime.gvl_policy = GVL_POLICY_BARGING;
    r = *run_vm(&b.s, NULL);
    ASSERT_EQ(r.fx.rc, GV_OK);
    ASSERT_EQ(r.fx.m.barriers, 1);
    ASSERT_EQ(r.th_state[2][TS_BARRIER_JOIN], 0);
    ASSERT(r.th_end[2] < r.th_end[1]);
    ASSERT(r.th_end[2] < 200 * SIM_US);
}

/* lockless (PR 18176): the lock and the barrier only on the first escape of
 * each iseq. */
static void test_lockless_once_per_iseq(void)
{
    static struct scn_op body[4], w[1], other[1];
    body[0] = fx_compute(1 * SIM_US);
    body[1] = fx_escape(1);
    body[2] = fx_compute(1 * SIM_US);
    body[3] = fx_escape(7);
    static struct scn_prog bp = { body, 4 };
    w[0] = fx_loop(500, &bp, true);
    other[0] = fx_compute(2 * SIM_MS);
    struct scn_prog progs[] = { join_prog(), { w, 1 }, { other, 1 } };
    const char *names[] = { "main", "w", "o" };
    struct built b;
    build(&b, 4, INVARIANT_LOCKLESS, 3, names, progs);
    struct run_result r = *run_vm(&b.s, NULL);
    ASSERT_EQ(r.fx.rc, GV_OK);
    ASSERT_EQ(r.fx.m.barriers, 2);
    /* the two first escapes, o's two joins from its interrupt handler, and
     * the heap pages w's cache takes for the 1000 escapes' 2000 objects */
    ASSERT_EQ(r.fx.m.vmlock_acquires, 4 + (2 * 1000 + CORE_HEAP_PAGE_SLOTS - 1) / CORE_HEAP_PAGE_SLOTS);
    ASSERT_EQ(r.barrier_starts, 2);
    ASSERT_EQ(r.barrier_ends, 2);
    /* lock_barrier: one per escape */
    b.s.runtime.invariant_check = INVARIANT_LOCK_BARRIER;
    r = *run_vm(&b.s, NULL);
    ASSERT_EQ(r.fx.m.barriers, 1000);
    ASSERT(r.th_state[2][TS_BARRIER_JOIN] > 0);  /* o was stopped by them */
}

/* Every GVL policy with every env-escape check: a worker Ractor that ends
 * early leaves the running-threads count the barrier waits for, so the
 * other one's barriers still complete (barging once never entered or left
 * that count: its first barrier after a thread ended waited forever and the
 * run stopped with a false deadlock).  Exact counts: every op done, one
 * barrier per escape under lock_barrier, one per iseq under lockless. */
static void test_every_policy_and_check_finishes(void)
{
    static struct scn_op short_body[2], long_body[2], s_prog[1], l_prog[1];
    short_body[0] = fx_escape(1);
    short_body[1] = fx_compute(1 * SIM_US);
    long_body[0] = fx_escape(1);
    long_body[1] = fx_compute(1 * SIM_US);
    static struct scn_prog sp = { short_body, 2 }, lp = { long_body, 2 };
    s_prog[0] = fx_loop(50, &sp, true);
    l_prog[0] = fx_loop(300, &lp, true);
    for (int p = 0; p < GVL_POLICY_COUNT; p++)
        for (int c = 0; c < INVARIANT_COUNT; c++)
            for (int cores = 1; cores <= 2; cores++) {
                struct scn_prog progs[] = { join_prog(), { s_prog, 1 }, { l_prog, 1 } };
                const char *names[] = { "main", "short", "long" };
                struct built b;
                build(&b, cores, (enum scn_invariant_check)c, 3, names, progs);
                b.s.runtime.gvl_policy = (enum scn_gvl_policy)p;
                struct run_result r = *run_vm(&b.s, NULL);
                if (r.fx.rc != GV_OK)
                    fprintf(stderr, "%s, %s, %d cores: %s\n", scn_policy_name(b.s.runtime.gvl_policy),
                            scn_invariant_name(b.s.runtime.invariant_check), cores, r.fx.err);
                ASSERT_EQ(r.fx.rc, GV_OK);
                ASSERT_EQ(r.fx.m.ops, 350);
                ASSERT_EQ(r.ractor_ops[1], 50);
                ASSERT_EQ(r.ractor_ops[2], 300);
                uint64_t want = c == INVARIANT_LOCK_BARRIER ? 350 : c == INVARIANT_LOCKLESS ? 1 : 0;
                ASSERT_EQ(r.fx.m.barriers, want);
                ASSERT_EQ(r.barrier_starts, want);
                ASSERT_EQ(r.barrier_ends, want);
            }
}

/* ---- tests: bug #22224 ---------------------------------------------------------------- */

/* lock_barrier: aggregate throughput collapses from 1 to 8 workers on 8
 * cores (report: ~150x, 5.5M -> 37K ops/s); lockless and none do not
 * collapse, but the allocation every escape makes (heap pages under the
 * VM lock, a barrier per GC start and, on 3.3+, per sweep step) keeps
 * them far below the no-escape control's scaling: PR 18176 measured 1.5x
 * for YJIT off (~6M -> ~9M), the report 1.7x.  The report's Ruby (master,
 * alloc_counters `local`) no longer writes shared allocation counters. */
static void test_proc_collapse_and_fix(void)
{
    struct run_result one = proc_heavy(1, "lock_barrier", 8, "4ms");
    struct run_result eight = proc_heavy(8, "lock_barrier", 8, "25ms");
    ASSERT_EQ(eight.fx.rc, GV_OK);
    double r1 = ops_per_s(&one), r8 = ops_per_s(&eight);
    ASSERT(r1 / r8 >= 50.0);
    /* the right reason: one serialised barrier per op ... */
    ASSERT(eight.fx.m.barriers * 100 >= eight.fx.m.ops * 99 && eight.fx.m.barriers <= eight.fx.m.ops + 8);
    double per_barrier_us = (double)eight.fx.m.wall / (double)eight.fx.m.barriers / (double)SIM_US;
    ASSERT(per_barrier_us > 10.0 && per_barrier_us < 30.0);
    /* ... and the workers (8 of the 9 threads) stopped in it, not running */
    sim_time total = 0;
    for (int s = 0; s < TS_COUNT; s++) total += eight.fx.m.state_time[s];
    sim_time worker_total = total - eight.fx.m.state_time[TS_PARKED];
    sim_time stopped = eight.fx.m.state_time[TS_BARRIER_JOIN] + eight.fx.m.state_time[TS_VMLOCK_WAIT];
    ASSERT(stopped * 100 >= worker_total * 75);
    ASSERT(eight.fx.m.state_time[TS_RUNNING] * 100 <= worker_total * 5);
    /* every worker got a share: no Ractor starved at 8 */
    for (int i = 1; i <= 8; i++) ASSERT(eight.ractor_ops[i] > 0);

    struct run_result ll1 = proc_heavy(1, "lockless", 8, "2ms");
    struct run_result ll8 = proc_heavy(8, "lockless", 8, "2ms");
    double sl = ops_per_s(&ll8) / ops_per_s(&ll1);
    ASSERT(sl > 1.0 && sl < 3.0);
    /* only first escapes, and (eager: 3.3+) GC starts and sweep steps */
    ASSERT(ll8.fx.m.barriers <= 8 + ll8.fx.m.gc_count + ll8.fx.m.gc_sweeps);
    struct run_result n1 = proc_heavy(1, "none", 8, "2ms");
    struct run_result n8 = proc_heavy(8, "none", 8, "2ms");
    double sn = ops_per_s(&n8) / ops_per_s(&n1);
    ASSERT(sn > 1.0 && sn < 3.0);
    /* the GC's only: one a step, but for a step decided under the VM lock
     * whose barrier the stop time cut off (at most one: the lock is held) */
    ASSERT(n8.fx.m.barriers <= n8.fx.m.gc_count + n8.fx.m.gc_sweeps);
    ASSERT(n8.fx.m.barriers + 1 >= n8.fx.m.gc_count + n8.fx.m.gc_sweeps);
    ASSERT_EQ(n8.fx.m.line_transfers, 0);
}

/* The Proc-free control scales with YJIT's lock_barrier setting too. */
static void test_calc_scales(void)
{
    const char *s1[] = { "ractors.1.count=1", "machine.cores=8", "stop.time=10ms" };
    const char *s8[] = { "ractors.1.count=8", "machine.cores=8", "stop.time=10ms" };
    struct run_result a = *run_file("scenarios/calc.json", s1, 3);
    struct run_result b = *run_file("scenarios/calc.json", s8, 3);
    ASSERT(ops_per_s(&b) / ops_per_s(&a) >= 5.0);
    ASSERT(ops_per_s(&a) > 129.0e3 && ops_per_s(&a) < 130.0e3);  /* 129.4M iters/s */
    ASSERT_EQ(b.fx.m.barriers, 0);
}

/* glibc's futex word wakes sleepers in a serial chain, Darwin's waiter
 * count wakes on every unlock: with 8 workers glibc's barriers are longer. */
static void test_mutex_impls_differ(void)
{
    const char *g[] = { "ractors.1.count=8", "machine.cores=8", "stop.time=10ms",
                        "machine.mutex_impl=glibc" };
    const char *d[] = { "ractors.1.count=8", "machine.cores=8", "stop.time=10ms",
                        "machine.mutex_impl=darwin" };
    struct run_result rg = *run_file("scenarios/proc_heavy.json", g, 4);
    struct run_result rd = *run_file("scenarios/proc_heavy.json", d, 4);
    ASSERT(rg.fx.m.barriers * 5 < rd.fx.m.barriers * 4);
    /* fewer wake-ups per barrier under glibc: waiters are not woken by
     * uncontended unlocks */
    ASSERT(rg.fx.m.wakeups * rd.fx.m.barriers < rd.fx.m.wakeups * rg.fx.m.barriers);
}

/* Where a barrier's time goes, from the observer: start -> last join (the
 * joiners come back from the previous barrier and join), -> initiator on a
 * core (its wake-up from barrier_complete_cond), -> barrier_end (broadcast,
 * VM-mutex re-lock and the lookup, under the sched lock), -> the next
 * barrier_start (the next initiator's Ruby work and locks). */
struct phases {
    int workers;
    const struct vm *vm;
    const struct rb_thread *init;
    int state;
    sim_time t_start, t_joined, t_oncore, t_end;
    double join, wake, post, gap;
    long n;
};
static struct phases g_ph;

static void ph_instant(void *ctx, const char *name, int thread, sim_time now)
{
    const struct rb_thread *th = thread >= 0 ? &g_ph.vm->threads[thread] : NULL;
    (void)ctx;
    struct phases *p = &g_ph;
    if (!strcmp(name, "barrier_start")) {
        if (p->state == 4) {
            p->n++;
            p->join += (double)(p->t_joined - p->t_start);
            p->wake += (double)(p->t_oncore - p->t_joined);
            p->post += (double)(p->t_end - p->t_oncore);
            p->gap += (double)(now - p->t_end);
        }
        p->state = 1;
        p->t_start = now;
        p->init = th;
    } else if (!strcmp(name, "barrier_end")) {
        p->state = p->state == 3 ? 4 : 0;
        p->t_end = now;
    }
}

static void ph_counter(void *ctx, const char *name, int64_t v, sim_time now)
{
    (void)ctx;
    if (g_ph.state == 1 && !strcmp(name, "barrier_joined") && v == g_ph.workers - 1) {
        g_ph.t_joined = now;
        g_ph.state = 2;
    }
}

static void ph_core(void *ctx, int core, enum mach_core_state st, const struct mach_task *t,
                    sim_time now)
{
    (void)ctx, (void)core;
    if (g_ph.state == 2 && st == CORE_BUSY && t == g_ph.init->nt) {
        g_ph.t_oncore = now;
        g_ph.state = 3;
    }
}

static void phases_hook(struct vm *vm)
{
    g_ph.vm = vm;
    vm->obs.instant = ph_instant;
    vm->obs.counter = ph_counter;
    vm->mach.obs.core_change = ph_core;
}

/* Mean phase lengths in us for proc_heavy with n workers on its machine. */
static void measure_phases(int n, double out[4])
{
    char cnt[64];
    snprintf(cnt, sizeof cnt, "ractors.1.count=%d", n);
    const char *sets[] = { cnt, "stop.time=30ms" };
    struct scenario scn;
    ASSERT_EQ(fx_load("scenarios/proc_heavy.json", sets, 2, NULL, &scn), GV_OK);
    memset(&g_ph, 0, sizeof g_ph);
    g_ph.workers = n;
    ASSERT_EQ(run_vm(&scn, phases_hook)->fx.rc, GV_OK);
    ASSERT(g_ph.n > 1500);
    double us = (double)SIM_US * (double)g_ph.n;
    out[0] = g_ph.join / us;
    out[1] = g_ph.wake / us;
    out[2] = g_ph.post / us;
    out[3] = g_ph.gap / us;
    scenario_free(&scn);
}

static void test_barrier_phases(void)
{
    double p[4];
    measure_phases(8, p);
    /* the initiator's wake is one idle-core wake (3 us +- 50%, mean 3 us) */
    ASSERT(p[1] > 2.8 && p[1] < 3.2);
    /* the broadcast wakes 7 joiners at futex_wake (0.5 us) each, with the
     * sched lock held, then the uncontended re-lock and lookup */
    ASSERT(p[2] > 3.5 && p[2] < 3.6);
    /* the joiners come back from the previous barrier: about two wakes */
    ASSERT(p[0] > 6.5 && p[0] < 8.0);
    ASSERT(p[3] > 0.5 && p[3] < 1.5);
    double total = p[0] + p[1] + p[2] + p[3];
    ASSERT(total > 14.0 && total < 15.6);
    /* 4 workers (the calibration point, report 7.1 us): 3 joiners, 3 wakes
     * in the broadcast, the next initiator right away */
    measure_phases(4, p);
    ASSERT(p[0] > 2.5 && p[0] < 3.1);
    ASSERT(p[1] > 2.8 && p[1] < 3.2);
    ASSERT(p[2] > 1.5 && p[2] < 1.6);
    ASSERT(p[3] > 0.1 && p[3] < 0.3);
}

/* ---- tests: reports, events, determinism ---------------------------------------------- */

/* Stopped in the middle of a barrier storm, each thread says where it is
 * (the same texts a deadlock report would show). */
static void test_describe_in_barrier(void)
{
    /* Snapshots at several instants of a 4-worker storm: some thread must be
     * found joining, and some initiating, with the texts of the reports. */
    int seen_join = 0, seen_init = 0;
    for (int us = 1000; us < 1100 && !(seen_join && seen_init); us += 3) {
        char stop[32];
        snprintf(stop, sizeof stop, "stop.time=%dus", us);
        const char *sets[] = { "ractors.1.count=4", stop };
        struct run_result r = *run_file("scenarios/proc_heavy.json", sets, 2);
        ASSERT_EQ(r.fx.rc, GV_OK);
        for (int i = 1; i <= 4; i++) {
            if (strstr(r.waits[i], "stopped at a VM barrier started by thread r#") &&
                strstr(r.waits[i], ", waiting for its end at /ractors/1/threads/0/program/0/body/0 (line 11)"))
                seen_join = 1;
            if (strstr(r.waits[i], "initiating a VM barrier, waiting for ") &&
                strstr(r.waits[i], " to join ("))
                seen_init = 1;
        }
    }
    ASSERT(seen_join);
    ASSERT(seen_init);
}

static void hold_vm_lock(struct vm *vm)
{
    /* a C extension that took the VM lock and parks with it */
    nlock_hold(&vm->sync->lock.nl, &vm->threads[1]);
    vm->sync->lock_owner = vm->threads[1].core.ractor;
    vm->sync->lock_rec = 1;
}

/* A deadlock through the VM lock is reported like any other. */
static void test_deadlock_on_vm_lock(void)
{
    static struct scn_op h[1], e[2];
    h[0] = fx_at(fx_queue(OP_QUEUE_POP, 0), "/ractors/1/threads/0/program/0", 3);
    e[0] = fx_compute(5 * SIM_US);
    e[1] = fx_at(fx_escape(1), "/ractors/2/threads/0/program/1", 9);
    struct scn_prog progs[] = { join_prog(), { h, 1 }, { e, 2 } };
    const char *names[] = { "main", "holder", "esc" };
    struct built b;
    build(&b, 4, INVARIANT_LOCK_BARRIER, 3, names, progs);
    struct run_result r = *run_vm(&b.s, hold_vm_lock);
    ASSERT_EQ(r.fx.rc, GV_ERUN);
    ASSERT_CONTAINS(r.fx.err, "deadlock");
    ASSERT_CONTAINS(r.fx.err, "thread holder/t: parked in queue_pop on queue \"never\" (empty) at "
                           "/ractors/1/threads/0/program/0 (line 3) while holding the VM lock");
    ASSERT_CONTAINS(r.fx.err, "thread esc/t: waiting for the VM lock (held by thread holder/t) at "
                           "/ractors/2/threads/0/program/1 (line 9)");
    ASSERT_CONTAINS(r.fx.err, "thread main/t: in join, waiting for 2 other threads to finish");
}

/* Barrier episodes reach the observer: one start and one end per barrier,
 * a "barrier_joined" counter step per join (two joiners per barrier with
 * three workers), and the joins as thread states. */
static void test_observer_events(void)
{
    const char *sets[] = { "ractors.1.count=3", "stop.time=2ms" };
    struct run_result r = *run_file("scenarios/proc_heavy.json", sets, 2);
    ASSERT(r.fx.m.barriers > 50);
    ASSERT(r.barrier_starts >= r.fx.m.barriers && r.barrier_starts <= r.fx.m.barriers + 1);
    ASSERT(r.barrier_ends + 1 >= r.fx.m.barriers && r.barrier_ends <= r.barrier_starts);
    /* (the first barriers, before every worker has started, have fewer;
     * until the main thread parks in its join it is a running thread of
     * another Ractor too, and joins them as a third joiner) */
    ASSERT(r.joins + 8 >= 2 * r.fx.m.barriers && r.joins <= 3 * r.fx.m.barriers);
    ASSERT(r.join_entries > 0);
}

static void test_deterministic(void)
{
    const char *s1[] = { "ractors.1.count=5", "stop.time=3ms" };
    const char *s2[] = { "ractors.1.count=5", "stop.time=3ms", "seed=2" };
    struct run_result a = *run_file("scenarios/proc_heavy.json", s1, 2);
    struct run_result b = *run_file("scenarios/proc_heavy.json", s1, 2);
    struct run_result c = *run_file("scenarios/proc_heavy.json", s2, 3);
    ASSERT_EQ(a.fx.m.ops, b.fx.m.ops);
    ASSERT_EQ(a.fx.m.engine_events, b.fx.m.engine_events);
    ASSERT_EQ(a.fx.m.wakeups, b.fx.m.wakeups);
    ASSERT(a.fx.m.engine_events != c.fx.m.engine_events);
}

int main(void)
{
    RUN(test_single_ractor_is_lock_free);
    RUN(test_proc_one_worker_costs);
    RUN(test_barrier_ignores_non_running);
    RUN(test_switch_in_before_completion_joins);
    RUN(test_switch_in_after_completion_waits);
    RUN(test_lockless_once_per_iseq);
    RUN(test_every_policy_and_check_finishes);
    RUN(test_proc_collapse_and_fix);
    RUN(test_calc_scales);
    RUN(test_mutex_impls_differ);
    RUN(test_barrier_phases);
    RUN(test_describe_in_barrier);
    RUN(test_deadlock_on_vm_lock);
    RUN(test_observer_events);
    RUN(test_deterministic);
    TEST_DONE();
}
