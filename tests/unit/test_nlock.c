/* test_nlock.c - the native lock held through a section (models/nlock.h):
 * who holds it, FIFO sleepers woken one by one (the unlock wakes the
 * first, whose own section end wakes the next), an unlock by a non-holder
 * and a pass while held wake nobody, a waiter registered on its way in
 * that the unlock meets there (no sleep) or that sleeps in its place.
 * Times in the engine's unit; exact. */
#include "../../models/nlock.h"
#include "mach_script.h"

/* Scripts, the machine and the world: tests/unit/mach_script.h. */

struct lk_world {
    struct ms_world w;
    struct nlock l;
    struct nlock_waiter wait[3];
    int order[3], norder;
    sim_time woken_at[3];
    int woke_kinds[3];
    bool asleep[3];
    bool sleepers;  /* A and B started */
};

static struct lk_world g;

static int task_id(const struct mach_task *t)
{
    for (int i = 0; i < 3; i++)
        if (&g.w.t[i].t == t) return i;
    return -1;
}

/* a sleeper, woken: its section (an instant) ends with a pass to the next */
static void sleeper_woken(struct mach_task *t, void *ctx)
{
    (void)ctx;
    int i = task_id(t);
    ASSERT(!g.asleep[i]);  /* cleared by the wake */
    g.order[g.norder++] = i;
    g.woken_at[i] = sim_now(g.w.e);
    g.woke_kinds[i] = nlock_pass(&g.l, &g.w.m, t);
    mach_exit(&g.w.m, t);
}

/* A and B want the lock H holds: they sleep on it */
static void want(struct mach_task *t, void *ctx)
{
    (void)ctx;
    int i = task_id(t);
    ASSERT(nlock_taken(&g.l, t));
    nlock_sleep(&g.l, &g.w.m, &g.wait[i], t, &g.asleep[i], sleeper_woken, NULL);
    ASSERT(g.asleep[i]);
}

static void holder_done(struct mach_task *t, void *ctx)
{
    (void)ctx;
    int woke;
    /* not its lock to let go: nothing happens */
    ASSERT(!nlock_unlock(&g.l, &g.w.t[1].t, &g.w.m, t, &woke));
    ASSERT_EQ(woke, MACH_WAKE_NONE);
    ASSERT(g.l.holder == t);
    /* a pass while it is held wakes nobody */
    ASSERT_EQ(nlock_pass(&g.l, &g.w.m, t), MACH_WAKE_NONE);
    ASSERT(nlock_unlock(&g.l, t, &g.w.m, t, &woke));
    ASSERT_EQ(woke != MACH_WAKE_NONE, g.sleepers);  /* the first sleeper, if any */
    ASSERT(g.l.holder == NULL);
    mach_exit(&g.w.m, t);
}

/* H takes the lock and holds it through a burst of 100 */
static void holder(struct mach_task *t, void *ctx)
{
    (void)ctx;
    nlock_hold(&g.l, t);
    ASSERT(!nlock_taken(&g.l, t));
    mach_burst(&g.w.m, t, 100, holder_done, NULL);
}

/* Three cores: H holds the lock from 0; A (started at 10) and B (at 20)
 * find it taken and sleep; H's unlock at ~100 wakes A only, and A's
 * section end wakes B: FIFO, one after the other. */
static void test_fifo_wake_chain(void)
{
    static const struct ms_step none[] = { { A_EXIT, 0, 0 } };
    const struct ms_step *scripts[] = { none, none, none };
    memset(&g, 0, sizeof g);
    ms_setup(&g.w, 3, scripts, 3);
    mach_start(&g.w.m, &g.w.t[0].t, holder, NULL);
    ms_run(&g.w);  /* (nothing else happens before H's burst ends) */
    ms_teardown(&g.w);
    ASSERT_EQ(g.l.sleeps, 0);
    ASSERT_EQ(g.norder, 0);

    memset(&g, 0, sizeof g);
    g.sleepers = true;
    ms_setup(&g.w, 3, scripts, 3);
    mach_start(&g.w.m, &g.w.t[0].t, holder, NULL);
    mach_start(&g.w.m, &g.w.t[1].t, want, NULL);
    mach_start(&g.w.m, &g.w.t[2].t, want, NULL);
    ms_run(&g.w);
    ms_teardown(&g.w);
    ASSERT_EQ(g.l.sleeps, 2);
    ASSERT_EQ(g.norder, 2);
    ASSERT_EQ(g.order[0], 1);
    ASSERT_EQ(g.order[1], 2);
    ASSERT(g.woken_at[1] > 100);                 /* only after H's unlock */
    ASSERT(g.woken_at[2] > g.woken_at[1]);       /* only after A's pass */
    ASSERT(g.woke_kinds[1] != MACH_WAKE_NONE);   /* A woke B */
    ASSERT_EQ(g.woke_kinds[2], MACH_WAKE_NONE);  /* nobody left */
    ASSERT(g.l.head == NULL && g.l.tail == NULL && g.l.holder == NULL);
}

/* Taking it over: a third party holds it over a holder's section, whose
 * unlock then lets nothing go; the third party's does. */
static void test_take_over(void)
{
    struct nlock l = { 0 };
    int a, b, woke;
    nlock_hold(&l, &a);
    ASSERT(nlock_taken(&l, &b));
    ASSERT(!nlock_taken(&l, &a));
    nlock_hold(&l, &b);
    ASSERT(!nlock_unlock(&l, &a, NULL, NULL, &woke));
    ASSERT(l.holder == &b);
    ASSERT(nlock_unlock(&l, &b, NULL, NULL, &woke));  /* no sleeper: no wake, no machine needed */
    ASSERT_EQ(woke, MACH_WAKE_NONE);
    ASSERT(!nlock_taken(&l, &a));
}

/* The way in: A registers (nlock_enqueue) at 10 and pays a window of
 * way_in before it sleeps; H unlocks at 100. */
static sim_time way_in;
static int unlock_woke;
static bool got_without_sleep;

static void holder_unlocks(struct mach_task *t, void *ctx)
{
    (void)ctx;
    ASSERT(nlock_unlock(&g.l, t, &g.w.m, t, &unlock_woke));
    mach_exit(&g.w.m, t);
}

static void holder_then_unlock(struct mach_task *t, void *ctx)
{
    (void)ctx;
    nlock_hold(&g.l, t);
    mach_burst(&g.w.m, t, 100, holder_unlocks, NULL);
}

static void way_in_end(struct mach_task *t, void *ctx)
{
    (void)ctx;
    int i = task_id(t);
    if (!g.wait[i].queued) {  /* met by the unlock: its wait returns at once */
        got_without_sleep = true;
        g.woken_at[i] = sim_now(g.w.e);
        mach_exit(&g.w.m, t);
        return;
    }
    nlock_sleep(&g.l, &g.w.m, &g.wait[i], t, &g.asleep[i], sleeper_woken, NULL);
    ASSERT(g.l.head == &g.wait[i] && g.l.tail == &g.wait[i]);  /* its place, once */
}

static void want_way_in(struct mach_task *t, void *ctx)
{
    (void)ctx;
    int i = task_id(t);
    ASSERT(nlock_taken(&g.l, t));
    nlock_enqueue(&g.l, &g.wait[i], t, &g.wait[i]);
    ASSERT(g.wait[i].queued);
    mach_burst(&g.w.m, t, way_in, way_in_end, NULL);
}

static void run_way_in(sim_time w)
{
    static const struct ms_step none[] = { { A_EXIT, 0, 0 } };
    const struct ms_step *scripts[] = { none, none, none };
    memset(&g, 0, sizeof g);
    way_in = w;
    unlock_woke = -1;
    got_without_sleep = false;
    ms_setup(&g.w, 3, scripts, 3);
    mach_start(&g.w.m, &g.w.t[0].t, holder_then_unlock, NULL);
    mach_start(&g.w.m, &g.w.t[1].t, want_way_in, NULL);
    ms_run(&g.w);
    ms_teardown(&g.w);
}

static void test_way_in(void)
{
    /* the unlock (100) inside A's way in (until 10 + 150): the kernel finds
     * nobody, A's wait returns at its end with no sleep */
    run_way_in(150);
    ASSERT_EQ(unlock_woke, NLOCK_WAKE_RACE);
    ASSERT(g.l.raced == &g.wait[1]);
    ASSERT(got_without_sleep);
    ASSERT_EQ(g.l.sleeps, 0);
    ASSERT(g.woken_at[1] >= 160);
    ASSERT(g.l.head == NULL && g.l.holder == NULL);
    /* the way in over before the unlock: A sleeps in its place and the
     * unlock wakes it */
    run_way_in(50);
    ASSERT(!got_without_sleep);
    ASSERT(unlock_woke != MACH_WAKE_NONE && unlock_woke != NLOCK_WAKE_RACE);
    ASSERT(g.l.raced == NULL);
    ASSERT_EQ(g.l.sleeps, 1);
    ASSERT_EQ(g.norder, 1);
    ASSERT(g.woken_at[1] > 100);
}

int main(void)
{
    RUN(test_fifo_wake_chain);
    RUN(test_way_in);
    RUN(test_take_over);
    TEST_DONE();
}
