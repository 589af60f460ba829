/* test_lang.c - core/'s decisions for the scenario language's ops, on
 * plain core structs (no engine, no threads): measured blocks and their
 * samples, branches, synchronize's unlock, queue items' arrival times,
 * Mutex / ConditionVariable / join, the heap's GC steps, exact latency
 * statistics, the new distributions and the random streams of spawned
 * threads and generators. */
#include "test.h"

#include "../../common/err.h"
#include "../../core/cursor.h"
#include "../../core/expand.h"
#include "../../core/heap.h"
#include "../../core/measure.h"
#include "../../core/queue.h"
#include "../../core/sync.h"

static struct scn_op op_of(enum scn_op_kind k)
{
    struct scn_op op;
    memset(&op, 0, sizeof op);
    op.kind = k;
    return op;
}

static struct scn_op compute_op(sim_time d)
{
    struct scn_op op = op_of(OP_COMPUTE);
    op.u.compute.dur.a = d;
    return op;
}

/* A thread with one named measure and its samples. */
struct mthread {
    struct core_thread th;
    struct core_samples samples[2];
};

static void mthread_init(struct mthread *m, const struct scn_prog *prog, sim_time warmup)
{
    memset(m, 0, sizeof *m);
    ASSERT_EQ(core_cursor_init(&m->th.cur, prog, warmup), GV_OK);
    m->th.cur.samples = m->samples;
    rng_seed(&m->th.rng, 1, 0);
}

/* The cursor again at the start of prog (samples kept). */
static void mthread_restart(struct mthread *m, const struct scn_prog *prog)
{
    core_cursor_free(&m->th.cur);
    ASSERT_EQ(core_cursor_init(&m->th.cur, prog, 0), GV_OK);
    m->th.cur.samples = m->samples;
}

static void mthread_free(struct mthread *m)
{
    core_cursor_free(&m->th.cur);
    for (int i = 0; i < 2; i++) free(m->samples[i].v);
}

/* ---- the cursor ------------------------------------------------------------ */

/* A loop with "measure": "NAME": each iteration ends with a sample of its
 * duration; samples ending before the warm-up are dropped. */
static void test_cursor_named_loop(void)
{
    struct scn_op body_ops[1] = { compute_op(SIM_US) };
    struct scn_prog body = { body_ops, 1 };
    struct scn_op loop = op_of(OP_LOOP);
    loop.u.loop.mode = LOOP_TIMES;
    loop.u.loop.times = 3;
    loop.u.loop.mid = 1;
    loop.u.loop.body = &body;
    struct scn_prog prog = { &loop, 1 };
    struct mthread m;
    mthread_init(&m, &prog, 15);
    const struct scn_op *op = NULL;
    ASSERT(core_block_timed(&m.th.cur, &loop));
    ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_OP);
    ASSERT(core_cursor_enter(&m.th, op, 10));
    sim_time ends[3] = { 14, 30, 47 };
    for (int it = 0; it < 3; it++) {
        if (it > 0) ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_ITERATION);
        ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_OP);
        ASSERT(op == &body_ops[0]);
        ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_SAMPLE);
        ASSERT(core_cursor_sample(&m.th, ends[it]));
    }
    ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_END);
    /* 10..14 ended before the warm-up (15): not counted; then 14..30, 30..47 */
    ASSERT_EQ(m.samples[0].n, 2);
    ASSERT_EQ(m.samples[0].v[0], 16);
    ASSERT_EQ(m.samples[0].v[1], 17);
    ASSERT_EQ(m.th.cur.ops, 0);  /* a named measure is not an op */
    mthread_free(&m);
}

/* "measure": true with a warm-up: iterations are timed, only those after it count. */
static void test_cursor_ops_after_warmup(void)
{
    struct scn_op body_ops[1] = { compute_op(SIM_US) };
    struct scn_prog body = { body_ops, 1 };
    struct scn_op loop = op_of(OP_LOOP);
    loop.u.loop.mode = LOOP_TIMES;
    loop.u.loop.times = 4;
    loop.u.loop.measure = true;
    loop.u.loop.body = &body;
    struct scn_prog prog = { &loop, 1 };
    struct mthread m;
    mthread_init(&m, &prog, 100);
    const struct scn_op *op = NULL;
    core_cursor_next(&m.th, &op);
    ASSERT(core_cursor_enter(&m.th, op, 0));
    sim_time t = 0;
    enum core_next n;
    while ((n = core_cursor_next(&m.th, &op)) != CORE_NEXT_END)
        if (n == CORE_NEXT_SAMPLE) core_cursor_sample(&m.th, t += 40);  /* 40, 80, 120, 160 */
    ASSERT_EQ(m.th.cur.ops, 2);
    /* without a warm-up nothing is timed, and every iteration counts */
    mthread_free(&m);
    mthread_init(&m, &prog, 0);
    ASSERT(!core_block_timed(&m.th.cur, &loop));
    core_cursor_next(&m.th, &op);
    ASSERT(core_cursor_enter(&m.th, op, 0));
    while ((n = core_cursor_next(&m.th, &op)) != CORE_NEXT_END) ASSERT(n != CORE_NEXT_SAMPLE);
    ASSERT_EQ(m.th.cur.ops, 4);
    mthread_free(&m);
}

/* A measure block with latency_from pop: the sample starts when the
 * popped item arrived, not when the block began; nested measures each
 * take one pop. */
static void test_cursor_latency_from_pop(void)
{
    struct scn_op inner_ops[1] = { compute_op(1) };
    struct scn_prog inner = { inner_ops, 1 };
    struct scn_op ops[2] = { op_of(OP_MEASURE), op_of(OP_MEASURE) };
    ops[1].u.measure.mid = 2;
    ops[1].u.measure.from_pop = true;
    ops[1].u.measure.body = &inner;
    struct scn_prog outer = { &ops[1], 1 };
    ops[0].u.measure.mid = 1;
    ops[0].u.measure.from_pop = true;
    ops[0].u.measure.body = &outer;
    struct scn_prog prog = { ops, 1 };
    struct mthread m;
    mthread_init(&m, &prog, 0);
    const struct scn_op *op = NULL;
    core_cursor_next(&m.th, &op);
    ASSERT(core_cursor_enter(&m.th, op, 100));
    core_cursor_next(&m.th, &op);
    ASSERT(core_cursor_enter(&m.th, op, 110));
    core_cursor_popped(&m.th, 50);  /* the inner one takes it */
    core_cursor_popped(&m.th, 60);  /* then the outer */
    core_cursor_popped(&m.th, 70);  /* nobody */
    ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_OP);
    ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_SAMPLE);
    core_cursor_sample(&m.th, 200);
    ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_SAMPLE);
    core_cursor_sample(&m.th, 210);
    ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_END);
    ASSERT_EQ(m.samples[1].n, 1);
    ASSERT_EQ(m.samples[1].v[0], 150);
    ASSERT_EQ(m.samples[0].n, 1);
    ASSERT_EQ(m.samples[0].v[0], 150);
    mthread_free(&m);
}

/* branch: one draw per execution whatever the bodies; p = 0 and 1 are
 * certain; synchronize runs its unlock after its body, even an empty one;
 * abort ends the program. */
static void test_cursor_branch_and_synchronize(void)
{
    struct scn_op a = compute_op(1), b = compute_op(2);
    struct scn_prog then_b = { &a, 1 }, else_b = { &b, 1 }, empty = { NULL, 0 };
    struct scn_op br = op_of(OP_BRANCH);
    br.u.branch.then_body = &then_b;
    br.u.branch.else_body = &else_b;
    struct scn_prog prog = { &br, 1 };
    struct mthread m;
    int thens = 0;
    mthread_init(&m, &prog, 0);
    struct rng ref;
    rng_seed(&ref, 1, 0);
    for (int i = 0; i < 1000; i++) {
        br.u.branch.p = 0.25;
        mthread_restart(&m, &prog);
        const struct scn_op *op = NULL;
        core_cursor_next(&m.th, &op);
        ASSERT(core_cursor_enter(&m.th, op, 0));
        ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_OP);
        bool want = (double)(rng_next(&ref) >> 11) * 0x1.0p-53 < 0.25;
        ASSERT(op == (want ? &a : &b));
        thens += op == &a;
        ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_END);
    }
    ASSERT(thens > 200 && thens < 300);
    /* an empty body still draws */
    br.u.branch.then_body = &empty;
    br.u.branch.p = 1.0;
    struct rng before = m.th.rng;
    mthread_restart(&m, &prog);
    const struct scn_op *op = NULL;
    core_cursor_next(&m.th, &op);
    ASSERT(core_cursor_enter(&m.th, op, 0));
    ASSERT(memcmp(&before, &m.th.rng, sizeof before) != 0);
    ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_END);

    struct scn_op unlock = op_of(OP_MUTEX_UNLOCK);
    struct scn_op sync = op_of(OP_SYNCHRONIZE);
    sync.u.mutex.body = &empty;
    sync.u.mutex.unlock = &unlock;
    struct scn_op after = compute_op(5);
    struct scn_op sops[2] = { sync, after };
    struct scn_prog sprog = { sops, 2 };
    mthread_restart(&m, &sprog);
    core_cursor_next(&m.th, &op);
    ASSERT(core_cursor_enter(&m.th, op, 0));
    ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_OP);
    ASSERT(op == &unlock);
    ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_OP);
    ASSERT(op == &sops[1]);
    /* an exception inside a block: the program ends, no unlock runs */
    mthread_restart(&m, &sprog);
    core_cursor_next(&m.th, &op);
    ASSERT(core_cursor_enter(&m.th, op, 0));
    core_cursor_abort(&m.th);
    ASSERT_EQ(core_cursor_next(&m.th, &op), CORE_NEXT_END);
    mthread_free(&m);
}

/* ---- distributions ------------------------------------------------------- */

static int cmp_t(const void *a, const void *b)
{
    sim_time x = *(const sim_time *)a, y = *(const sim_time *)b;
    return (x > y) - (x < y);
}

static void test_draws(void)
{
    struct core_thread th;
    memset(&th, 0, sizeof th);
    rng_seed(&th.rng, 3, 0);
    /* lognormal: the median of many draws is close to the median given */
    struct scn_dist ln = { .kind = DIST_LOGNORMAL, .a = 2 * SIM_MS, .sigma = 0.7 };
    static sim_time v[20001];
    for (int i = 0; i < 20001; i++) v[i] = core_draw(&th, &ln);
    qsort(v, 20001, sizeof *v, cmp_t);
    ASSERT(v[10000] > 19 * SIM_MS / 10 && v[10000] < 21 * SIM_MS / 10);
    ASSERT(v[19800] > 8 * SIM_MS);  /* p99 = e^(0.7 * 2.326) = 5.1x the median */
    ln.sigma = 0;
    ASSERT_EQ(core_draw(&th, &ln), 2 * SIM_MS);
    /* empirical: a value of weight 0 is never drawn; the others by weight */
    sim_time vals[3] = { 10, 20, 30 };
    double cum[3] = { 0, 1, 4 };  /* weights 0, 1, 3 */
    struct scn_dist em = { .kind = DIST_EMPIRICAL, .values = vals, .cum = cum, .n = 3 };
    int count[3] = { 0, 0, 0 };
    for (int i = 0; i < 4000; i++) count[core_draw(&th, &em) / 10 - 1]++;
    ASSERT_EQ(count[0], 0);
    ASSERT(count[1] > 850 && count[1] < 1150);
    ASSERT_EQ(count[1] + count[2], 4000);
    /* the same stream gives the same draws */
    struct core_thread a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    rng_seed(&a.rng, 9, 4);
    rng_seed(&b.rng, 9, 4);
    ln.sigma = 1.5;
    for (int i = 0; i < 100; i++) ASSERT_EQ(core_draw(&a, &ln), core_draw(&b, &ln));
}

/* ---- the queue's items ------------------------------------------------------ */

static void test_queue_arrivals(void)
{
    struct core_queue q;
    core_queue_init(&q, "q", 2);
    struct core_thread w[2];
    memset(w, 0, sizeof w);
    sim_time t;
    struct core_thread *woken;
    for (int i = 0; i < 100; i++) {  /* grows the ring across its wrap */
        ASSERT(core_queue_push(&q, 1000 + i, &woken));
        ASSERT(woken == NULL);
        if (i % 3 == 2) ASSERT(core_queue_take(&q, &t));
    }
    /* the items present at start come first (time 0), then in push order */
    core_queue_destroy(&q);
    core_queue_init(&q, "q", 2);
    for (int i = 0; i < 70; i++) core_queue_push(&q, 1000 + i, &woken);
    ASSERT(core_queue_take(&q, &t) && t == 0);
    ASSERT(core_queue_take(&q, &t) && t == 0);
    for (int i = 0; i < 70; i++) ASSERT(core_queue_take(&q, &t) && t == 1000 + i);
    ASSERT(!core_queue_take(&q, &t));
    /* a push wakes the first waiter; a timed-out waiter leaves the list */
    core_queue_wait(&q, &w[0], 0);
    core_queue_wait(&q, &w[1], 0);
    ASSERT(core_waitq_remove(&q.waiters, &w[0]));
    ASSERT(!core_waitq_remove(&q.waiters, &w[0]));
    ASSERT(core_queue_push(&q, 5, &woken));
    ASSERT(woken == &w[1] && w[1].parked_queue == -1);
    ASSERT(q.waiters.head == NULL && q.waiters.tail == NULL);
    core_queue_destroy(&q);
}

/* ---- Mutex, ConditionVariable, join -------------------------------------- */

static void test_mutex(void)
{
    struct core_mutex m;
    core_mutex_init(&m, "m");
    struct core_thread t[3];
    memset(t, 0, sizeof t);
    for (int i = 0; i < 3; i++) t[i].parked_mutex = -1;
    struct core_thread *w;
    ASSERT_EQ(core_mutex_unlock(&m, &t[0], &w), CORE_UNLOCK_NOT_LOCKED);
    ASSERT_EQ(core_mutex_lock(&m, &t[0], 0), CORE_LOCK_TAKEN);
    ASSERT_EQ(core_mutex_lock(&m, &t[0], 0), CORE_LOCK_RECURSIVE);
    ASSERT_EQ(core_mutex_lock(&m, &t[1], 0), CORE_LOCK_WAIT);
    ASSERT_EQ(core_mutex_lock(&m, &t[2], 0), CORE_LOCK_WAIT);
    ASSERT_EQ(t[1].parked_mutex, 0);
    ASSERT_EQ(core_mutex_unlock(&m, &t[1], &w), CORE_UNLOCK_NOT_OWNER);
    /* unlock wakes the head but hands nothing over: the unlocker may barge */
    ASSERT_EQ(core_mutex_unlock(&m, &t[0], &w), CORE_UNLOCK_OK);
    ASSERT(w == &t[1] && t[1].parked_mutex == -1 && m.owner == NULL);
    ASSERT_EQ(core_mutex_lock(&m, &t[0], 0), CORE_LOCK_TAKEN);
    /* the woken waiter finds it taken: it queues again, behind t[2] */
    ASSERT_EQ(core_mutex_lock(&m, &t[1], 0), CORE_LOCK_WAIT);
    ASSERT_EQ(core_mutex_unlock(&m, &t[0], &w), CORE_UNLOCK_OK);
    ASSERT(w == &t[2]);
    ASSERT_EQ(core_mutex_lock(&m, &t[2], 0), CORE_LOCK_TAKEN);
    ASSERT_EQ(core_mutex_unlock(&m, &t[2], &w), CORE_UNLOCK_OK);
    ASSERT(w == &t[1]);
    ASSERT_EQ(m.waits, 3);
    ASSERT_STREQ(core_unlock_error(CORE_UNLOCK_NOT_OWNER),
                 "Attempt to unlock a mutex which is locked by another thread");
}

static void test_condvar_and_join(void)
{
    struct core_condvar cv;
    core_condvar_init(&cv, "cv");
    struct core_thread t[4];
    memset(t, 0, sizeof t);
    for (int i = 0; i < 4; i++) t[i].parked_cv = -1;
    ASSERT(core_cv_signal(&cv) == NULL);
    for (int i = 0; i < 3; i++) core_cv_wait(&cv, &t[i], 0);
    ASSERT(core_cv_signal(&cv) == &t[0] && t[0].parked_cv == -1);  /* the longest waiter */
    ASSERT(core_cv_timed_out(&cv, &t[2]) && t[2].parked_cv == -1);
    ASSERT(!core_cv_timed_out(&cv, &t[0]));  /* signalled: not a timeout */
    core_cv_wait(&cv, &t[3], 0);
    struct core_thread *all = core_cv_broadcast(&cv);
    ASSERT(all == &t[1] && all->wait_next == &t[3] && t[3].wait_next == NULL);
    ASSERT(cv.waiters.head == NULL);
    /* join: the newest joiner is woken first */
    struct core_thread target;
    memset(&target, 0, sizeof target);
    core_join_wait(&target, &t[0]);
    core_join_wait(&target, &t[1]);
    ASSERT(t[0].joining && t[0].join_target == &target);
    struct core_thread *j = core_join_wakeup(&target);
    ASSERT(j == &t[1] && j->wait_next == &t[0]);
    ASSERT(!t[0].joining && t[0].join_target == NULL && target.joiners == NULL);
}

/* ---- the heap ---------------------------------------------------------------- */

static void test_heap_steps(void)
{
    struct core_heap h;
    core_heap_init(&h, 10000, 1.8, 1);
    uint64_t left = 6000;
    struct core_gc_step st = core_heap_alloc(&h, &left, 0.0);
    ASSERT_EQ(st.kind, CORE_GC_NONE);
    ASSERT_EQ(h.free, 4000);
    /* 5000 more: 4000 fit, then a minor GC (nothing survives: 0 marked) */
    left = 5000;
    st = core_heap_alloc(&h, &left, 0.0);
    ASSERT_EQ(st.kind, CORE_GC_MINOR);
    ASSERT_EQ(st.marked, 0);
    ASSERT_EQ(left, 1000);
    ASSERT_EQ(h.unswept, 10000);
    /* then lazy sweep steps of 2048 slots */
    st = core_heap_alloc(&h, &left, 0.0);
    ASSERT_EQ(st.kind, CORE_GC_SWEEP);
    ASSERT_EQ(st.swept, CORE_SWEEP_STEP);
    ASSERT_EQ(core_heap_alloc(&h, &left, 0.0).kind, CORE_GC_NONE);
    ASSERT_EQ(left, 0);
    ASSERT_EQ(h.free, CORE_SWEEP_STEP - 1000);
    /* survivors: half of 20000 objects in a 10000-slot heap fill it: the
     * old objects pass the limit (0 after no major: the next GC is major)
     * and the heap grows when too few slots are free */
    core_heap_init(&h, 10000, 1.8, 1);
    left = 30000;
    int minors = 0, majors = 0;
    while ((st = core_heap_alloc(&h, &left, 0.5)).kind != CORE_GC_NONE) {
        minors += st.kind == CORE_GC_MINOR;
        majors += st.kind == CORE_GC_MAJOR;
        if (st.kind == CORE_GC_MAJOR) ASSERT_EQ(st.marked, h.old);
    }
    ASSERT(minors >= 1 && majors >= 1);
    ASSERT(h.slots > 10000);
    ASSERT_EQ(h.minor, (uint64_t)minors);
    ASSERT_EQ(h.major, (uint64_t)majors);
    ASSERT_EQ(h.old_limit > 0, 1);
    /* barriers: a start always, a sweep step only from 3.3 */
    struct core_gc_step s1 = { CORE_GC_MINOR, 0, 0, 0, 0, 0, 0 }, s2 = { CORE_GC_SWEEP, 0, 2048, 0, 0, 0, 0 };
    ASSERT(core_gc_step_barrier(&s1, true) && core_gc_step_barrier(&s1, false));
    ASSERT(!core_gc_step_barrier(&s2, true) && core_gc_step_barrier(&s2, false));
    /* a Ractor's newobj cache takes a page: 409 free slots, less the
     * page's share of the old objects; with none free, the sweep first */
    core_heap_init(&h, 10000, 1.8, 1);
    uint64_t got;
    ASSERT_EQ(core_heap_take_page(&h, &got).kind, CORE_GC_NONE);
    ASSERT_EQ(got, CORE_HEAP_PAGE_SLOTS);
    ASSERT_EQ(h.free, 10000 - CORE_HEAP_PAGE_SLOTS);
    h.old = 5000;  /* half the heap old: 204.5 free slots a page */
    ASSERT_EQ(core_heap_take_page(&h, &got).kind, CORE_GC_NONE);
    ASSERT_EQ(got, 205);
    h.free = 3;
    ASSERT_EQ(core_heap_take_page(&h, &got).kind, CORE_GC_NONE);
    ASSERT_EQ(got, 3);
    ASSERT_EQ(core_heap_take_page(&h, &got).kind, CORE_GC_MINOR);
    ASSERT_EQ(got, 0);
    ASSERT_EQ(core_heap_take_page(&h, &got).kind, CORE_GC_SWEEP);
    ASSERT_EQ(core_heap_take_page(&h, &got).kind, CORE_GC_NONE);
    ASSERT(got > 0 && got <= CORE_HEAP_PAGE_SLOTS);
}

/* The sweep's frees of malloc'd bodies: the bodies allocated before a GC
 * start are freed by its sweep steps in proportion to their slots, every
 * one by its last step; those allocated after it wait for the next GC; and
 * each step costs gc_sweep_per_slot per slot and gc_free_body per body. */
static void test_heap_bodies(void)
{
    struct core_heap h;
    core_heap_init(&h, 10000, 1.8, 1);
    uint64_t left = 10000;
    core_heap_bodies(&h, 3000);  /* 3000 of the 10000 have a body */
    ASSERT_EQ(core_heap_alloc(&h, &left, 0.0).kind, CORE_GC_NONE);
    left = 1;
    core_heap_bodies(&h, 1);
    ASSERT_EQ(core_heap_alloc(&h, &left, 0.0).kind, CORE_GC_MINOR);  /* that one is counted with them */
    ASSERT_EQ(h.sweep_total, 10000);
    struct scn_machine m = { .gc_sweep_per_slot = 16 * SIM_NS, .gc_free_body = 22 * SIM_NS,
                             .gc_mark_base = 43 * SIM_US, .gc_mark_per_object = 15 * SIM_NS };
    uint64_t freed = 0, steps = 0;
    struct core_gc_step st;
    while (h.unswept > 0) {  /* take every free slot and one more: a sweep step each time */
        left = h.free + 1;
        st = core_heap_alloc(&h, &left, 0.0);
        ASSERT_EQ(st.kind, CORE_GC_SWEEP);
        /* 3001 bodies over 10000 slots: 614 in the first 2048 (614.6), the
         * rest in proportion, rounded down as the sweep goes */
        if (steps == 0) ASSERT_EQ(st.bodies, 614);
        ASSERT_EQ(core_gc_step_cost(&m, &st), (sim_time)st.swept * 16 * SIM_NS + (sim_time)st.bodies * 22 * SIM_NS);
        freed += st.bodies;
        steps++;
        ASSERT_EQ(core_heap_alloc(&h, &left, 0.0).kind, CORE_GC_NONE);
    }
    ASSERT_EQ(freed, 3001);
    ASSERT_EQ(h.bodies_freed, 3001);
    ASSERT_EQ(steps, 5);  /* 10000 slots in steps of 2048 */
    struct core_gc_step start = { CORE_GC_MINOR, 100, 0, 0, 25, 0, 0 };
    ASSERT_EQ(core_gc_step_cost(&m, &start), 43 * SIM_US + 100 * 15 * SIM_NS);  /* gc_mark_per_page 0: none */
    m.gc_mark_per_page = 70 * SIM_NS;
    ASSERT_EQ(core_gc_step_cost(&m, &start), 43 * SIM_US + 25 * 70 * SIM_NS + 100 * 15 * SIM_NS);
    /* and per living thread, which the backend counts into st.threads */
    m.gc_mark_per_thread = 1300 * SIM_NS;
    start.threads = 4;
    ASSERT_EQ(core_gc_step_cost(&m, &start), 43 * SIM_US + 25 * 70 * SIM_NS + 4 * 1300 * SIM_NS + 100 * 15 * SIM_NS);
    struct core_gc_step sweep = { CORE_GC_SWEEP, 0, 2048, 0, 0, 4, 0 };  /* a sweep step marks no thread */
    ASSERT_EQ(core_gc_step_cost(&m, &sweep), 2048 * 16 * SIM_NS);
    /* gc_cold: once per start, whatever the heap's pages, by the gap
     * since the GC start before - 0 up to its first point, linear in log
     * gap to the next, the last point's beyond; a sweep step pays none */
    m.gc_cold = (struct gv_curve){ .n = 2, .x = { SIM_MS, 10 * SIM_MS }, .y = { 0, 2 * SIM_US } };
    sim_time warm = 43 * SIM_US + 25 * 70 * SIM_NS + 4 * 1300 * SIM_NS + 100 * 15 * SIM_NS;
    start.gap = SIM_MS / 2;
    ASSERT_EQ(core_gc_step_cost(&m, &start), warm);
    start.gap = 100 * SIM_MS;
    ASSERT_EQ(core_gc_step_cost(&m, &start), warm + 2 * SIM_US);
    start.gap = (sim_time)(sqrt(10.0) * (double)SIM_MS);  /* half way in log */
    sim_time mid = core_gc_step_cost(&m, &start) - warm;
    ASSERT(mid > 999 * SIM_NS && mid < 1001 * SIM_NS);
    start.pages = 250;  /* ten times the heap: the same extra */
    ASSERT_EQ(core_gc_step_cost(&m, &start) - mid, 43 * SIM_US + 250 * 70 * SIM_NS + 4 * 1300 * SIM_NS + 100 * 15 * SIM_NS);
    start.pages = 25;
    sweep.gap = 100 * SIM_MS;
    ASSERT_EQ(core_gc_step_cost(&m, &sweep), 2048 * 16 * SIM_NS);
    m.gc_cold.n = 0;
    /* a GC start counts the heap's pages as it marks: 10000 slots, 25 pages
     * of 409 (the last one partly) */
    struct core_heap g;
    core_heap_init(&g, 10000, 1.8, 1);
    left = 10001;
    st = core_heap_alloc(&g, &left, 0.0);
    ASSERT_EQ(st.kind, CORE_GC_MINOR);
    ASSERT_EQ(st.pages, 25);
    /* bodies allocated during the sweep are the next GC's */
    core_heap_bodies(&h, 7);
    ASSERT_EQ(h.bodies, 7);
    ASSERT_EQ(h.bodies_garbage, 3001);
}

/* The boot heap: 17,020 objects live before the program (Ruby 3.1.2), grown
 * into by the heap's own rules with one Ractor; none of boot's GCs counts.
 * Then two objects an op, none surviving, with three Ractors (the floor of
 * free slots 3 x 4096): a GC every (free slots after a GC) / 2 ops - the
 * boot objects make the heap hold more than that floor, so the GCs come
 * less often than without them (Ruby 3.1.2 measured every 7.3K ops, the
 * heap without the boot objects every 6.1K). */
static double ops_per_gc(uint64_t boot)
{
    struct core_heap h;
    core_heap_init(&h, 10000, 1.8, 3);
    core_heap_boot(&h, boot);
    if (boot) {
        ASSERT_EQ(h.old, boot);
        ASSERT_EQ(h.minor + h.major + h.sweeps, 0);
        ASSERT(h.slots > boot && h.slots - boot >= h.free);
    }
    for (int op = 0; op < 1000000; op++) {
        uint64_t left = 2;
        while (core_heap_alloc(&h, &left, 0.0).kind != CORE_GC_NONE) {}
    }
    ASSERT_EQ(h.old, boot);  /* nothing the ops allocate survives */
    return 1e6 / (double)(h.minor + h.major);
}

static void test_heap_boot(void)
{
    double bare = ops_per_gc(0), booted = ops_per_gc(17020);
    ASSERT(bare > 6000 && bare < 6400);
    ASSERT(booted > 6900 && booted < 7600);
    struct core_heap h;  /* 0: nothing changes */
    core_heap_init(&h, 10000, 1.8, 1);
    core_heap_boot(&h, 0);
    ASSERT_EQ(h.slots, 10000);
    ASSERT_EQ(h.free, 10000);
    ASSERT_EQ(h.old, 0);
}

/* ---- latency statistics ------------------------------------------------------- */

static struct core_samples *samples_at(void *ctx, int i) { return ((struct core_samples **)ctx)[i]; }

static void test_measure_stats(void)
{
    /* 1..200 over two threads, in no order: exact nearest-rank percentiles */
    struct core_samples a[1], b[1];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    a[0].v = malloc(100 * sizeof *a[0].v);
    b[0].v = malloc(100 * sizeof *b[0].v);
    for (int i = 0; i < 100; i++) {
        a[0].v[a[0].n++] = 200 - 2 * i;  /* evens */
        b[0].v[b[0].n++] = 1 + 2 * i;    /* odds */
    }
    struct core_samples *per[3] = { a, NULL, b };
    struct run_measure r;
    ASSERT_EQ(core_measure_collect(samples_at, per, 3, 0, &r), GV_OK);
    ASSERT_EQ(r.count, 200);
    ASSERT_EQ(r.p50, 100);
    ASSERT_EQ(r.p90, 180);
    ASSERT_EQ(r.p99, 198);
    ASSERT_EQ(r.max, 200);
    ASSERT_EQ(r.mean, 101);  /* 100.5 rounds away */
    /* one sample: every percentile is it; none: zeros */
    a[0].n = 1;
    b[0].n = 0;
    ASSERT_EQ(core_measure_collect(samples_at, per, 3, 0, &r), GV_OK);
    ASSERT(r.count == 1 && r.p50 == 200 && r.p99 == 200 && r.max == 200);
    a[0].n = 0;
    ASSERT_EQ(core_measure_collect(samples_at, per, 3, 0, &r), GV_OK);
    ASSERT(r.count == 0 && r.max == 0);
    b[0].oom = true;  /* a lost sample fails the collection */
    ASSERT_EQ(core_measure_collect(samples_at, per, 3, 0, &r), GV_ENOMEM);
    free(a[0].v);
    free(b[0].v);
}

/* ---- instances and their random streams ----------------------------------------- */

struct layout {
    struct core_ractor ractors[2];
    struct core_thread threads[16];
};

static struct core_ractor *ractor_at(void *ctx, int i) { return &((struct layout *)ctx)->ractors[i]; }
static struct core_thread *thread_at(void *ctx, int i) { return &((struct layout *)ctx)->threads[i]; }

static void layout_free(struct layout *l)
{
    for (int i = 0; i < 2; i++) core_ractor_free(&l->ractors[i]);
}

/* Adding a spawned template or a generator leaves every other thread's
 * stream as it was; delayed and spawned instances are marked so. */
static void test_expand_streams(void)
{
    struct scn_op op = compute_op(SIM_US);
    struct scn_thread base[2] = { { "main", 1, { &op, 1 }, 0, false }, { "w", 2, { &op, 1 }, 0, false } };
    struct scn_thread more[4] = { { "main", 1, { &op, 1 }, 0, false }, { "pool", 3, { &op, 1 }, 0, true },
                                  { "w", 2, { &op, 1 }, 0, false }, { "late", 1, { &op, 1 }, 5 * SIM_MS, false } };
    struct scn_ractor r1 = { "main", 1, base, 2 }, r2 = { "main", 1, more, 4 };
    struct scn_generator gen;
    memset(&gen, 0, sizeof gen);
    gen.name = "reactor";
    gen.start = 7;
    struct scenario s1, s2;
    memset(&s1, 0, sizeof s1);
    memset(&s2, 0, sizeof s2);
    s1.seed = s2.seed = 11;
    s1.ractors = &r1;
    s1.nractors = 1;
    s1.total_threads = 3;
    s2.ractors = &r2;
    s2.nractors = 1;
    s2.total_threads = 7;
    s2.generators = &gen;
    s2.ngenerators = 1;
    ASSERT_EQ(core_thread_count(&s2), 8);
    struct layout a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    ASSERT_EQ(core_expand(&s1, ractor_at, thread_at, &a), GV_OK);
    ASSERT_EQ(core_expand(&s2, ractor_at, thread_at, &b), GV_OK);
    /* main and w#0, w#1 draw the same in both */
    ASSERT(memcmp(&a.threads[0].rng, &b.threads[0].rng, sizeof a.threads[0].rng) == 0);
    ASSERT(memcmp(&a.threads[1].rng, &b.threads[4].rng, sizeof a.threads[1].rng) == 0);
    ASSERT(memcmp(&a.threads[2].rng, &b.threads[5].rng, sizeof a.threads[2].rng) == 0);
    ASSERT_STREQ(b.threads[4].name, "w#0");
    /* a spawned slot starts when spawned; the late one at its start */
    ASSERT(b.threads[1].start_at < 0 && b.threads[3].start_at < 0);
    ASSERT_EQ(b.threads[1].tmpl, 1);
    ASSERT_EQ(b.threads[2].instance, 1);
    ASSERT_EQ(b.threads[6].start_at, 5 * SIM_MS);
    ASSERT_EQ(b.threads[6].tmpl, 3);
    /* the generator: last, in the main Ractor, its own stream */
    ASSERT_STREQ(b.threads[7].name, "reactor");
    ASSERT(b.threads[7].gen == 0 && b.threads[7].tmpl == -1 && b.threads[7].ractor == &b.ractors[0]);
    ASSERT_EQ(b.threads[7].arrival, 7);
    ASSERT_EQ(b.ractors[0].nthreads, 8);
    struct rng g;
    rng_seed(&g, 11, CORE_STREAM_GENERATOR | 0);
    ASSERT(memcmp(&g, &b.threads[7].rng, sizeof g) == 0);
    rng_seed(&g, 11, CORE_STREAM_SPAWNED | (uint64_t)1 << 24 | 2);
    ASSERT(memcmp(&g, &b.threads[3].rng, sizeof g) == 0);
    layout_free(&a);
    layout_free(&b);
}

/* A generator's arrivals: constant intervals from its start; Poisson ones
 * from its stream, with the given mean. */
static void test_arrivals(void)
{
    struct scn_generator g;
    memset(&g, 0, sizeof g);
    g.process = PROCESS_CONSTANT;
    g.interval = 25;
    struct core_thread th;
    memset(&th, 0, sizeof th);
    th.arrival = 100;
    ASSERT_EQ(core_next_arrival(&th, &g), 125);
    ASSERT_EQ(core_next_arrival(&th, &g), 150);
    g.process = PROCESS_POISSON;
    g.interval = SIM_MS;
    rng_seed(&th.rng, 1, 2);
    th.arrival = 0;
    for (int i = 0; i < 10000; i++) core_next_arrival(&th, &g);
    ASSERT(th.arrival > 9700 * SIM_MS && th.arrival < 10300 * SIM_MS);
}

int main(void)
{
    RUN(test_cursor_named_loop);
    RUN(test_cursor_ops_after_warmup);
    RUN(test_cursor_latency_from_pop);
    RUN(test_cursor_branch_and_synchronize);
    RUN(test_draws);
    RUN(test_queue_arrivals);
    RUN(test_mutex);
    RUN(test_condvar_and_join);
    RUN(test_heap_steps);
    RUN(test_heap_bodies);
    RUN(test_heap_boot);
    RUN(test_measure_stats);
    RUN(test_expand_streams);
    RUN(test_arrivals);
    TEST_DONE();
}
