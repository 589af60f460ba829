/* test_heap.c - the native engine: (time, insertion) order, cancellation,
 * stale ids, stop, `until`, a randomised check against a reference, and
 * the same order while the pending count moves across the sorted-array /
 * heap threshold (engine_heap.c) both ways, and cancelled events dropped
 * before their time (a timed wait signalled long before its timeout). */
#include <string.h>

#include "../../common/err.h"
#include "../../sim/engine_heap.h"
#include "../../common/rng.h"
#include "test.h"

#define MAXLOG 20000

struct log {
    uint64_t got[MAXLOG];
    sim_time at[MAXLOG];
    int n;
    struct sim_engine *e;
};

static void record(void *obj, uint64_t arg)
{
    struct log *l = obj;
    ASSERT(l->n < MAXLOG);
    l->got[l->n] = arg;
    l->at[l->n] = sim_now(l->e);
    l->n++;
}

static void test_order_time_then_insertion(void)
{
    struct sim_engine *e = sim_heap_create();
    static struct log l;
    l.n = 0;
    l.e = e;
    sim_at(e, 30, record, &l, 3);
    sim_at(e, 10, record, &l, 1);
    sim_at(e, 20, record, &l, 20);
    sim_at(e, 20, record, &l, 21);
    sim_at(e, 20, record, &l, 22);
    sim_at(e, 10, record, &l, 2);
    char err[128];
    ASSERT_EQ(sim_run(e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    uint64_t want[] = { 1, 2, 20, 21, 22, 3 };
    ASSERT_EQ(l.n, 6);
    for (int i = 0; i < 6; i++) ASSERT_EQ(l.got[i], want[i]);
    ASSERT_EQ(e->fired, 6);
    ASSERT_EQ(e->pending, 0);
    ASSERT_EQ(sim_now(e), 30);
    sim_destroy(e);
}

static void test_cancel_and_stale_ids(void)
{
    struct sim_engine *e = sim_heap_create();
    static struct log l;
    l.n = 0;
    l.e = e;
    sim_event_id a = sim_at(e, 5, record, &l, 1);
    sim_event_id b = sim_at(e, 6, record, &l, 2);
    ASSERT(a != 0 && b != 0 && a != b);
    ASSERT_EQ(sim_cancel(e, a), 1);
    ASSERT_EQ(sim_cancel(e, a), 0);       /* already cancelled */
    /* the freed slot is reused by c; the stale id a must not cancel c */
    sim_event_id c = sim_at(e, 4, record, &l, 3);
    ASSERT_EQ(sim_cancel(e, a), 0);
    ASSERT_EQ(e->pending, 2);
    char err[128];
    ASSERT_EQ(sim_run(e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    ASSERT_EQ(l.n, 2);
    ASSERT_EQ(l.got[0], 3);
    ASSERT_EQ(l.got[1], 2);
    ASSERT_EQ(sim_cancel(e, c), 0);       /* already fired */
    ASSERT_EQ(sim_cancel(e, 0), 0);
    sim_destroy(e);
}

struct chain { struct sim_engine *e; int left; };

static void chain_step(void *obj, uint64_t arg)
{
    struct chain *c = obj;
    if (--c->left > 0) sim_after(c->e, (sim_time)arg, chain_step, c, arg);
    if (c->left == 5) sim_stop(c->e);
}

static void test_until_and_stop(void)
{
    struct sim_engine *e = sim_heap_create();
    struct chain c = { e, 10 };
    sim_at(e, 0, chain_step, &c, 7);
    char err[128];
    /* until: stops before events later than 20 */
    ASSERT_EQ(sim_run(e, 20, err, sizeof err), GV_OK);
    ASSERT_EQ(sim_now(e), 14);
    ASSERT_EQ(c.left, 7);
    /* stop from inside a handler */
    ASSERT_EQ(sim_run(e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    ASSERT_EQ(c.left, 5);
    ASSERT_EQ(sim_now(e), 28);
    ASSERT_EQ(sim_run(e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    ASSERT_EQ(c.left, 0);
    ASSERT_EQ(e->pending, 0);
    sim_destroy(e);
}

/* Random schedule + cancel against a reference: every live event must fire
 * exactly once, in (time, insertion) order. */
static void test_random_against_reference(void)
{
    struct sim_engine *e = sim_heap_create();
    static struct log l;
    l.n = 0;
    l.e = e;
    enum { N = 5000 };
    static sim_time t[N];
    static sim_event_id id[N];
    static int live[N];
    struct rng r;
    rng_seed(&r, 42, 0);
    for (int i = 0; i < N; i++) {
        t[i] = rng_uniform(&r, 0, 300);
        id[i] = sim_at(e, t[i], record, &l, (uint64_t)i);
        live[i] = 1;
        if (i > 10 && rng_uniform(&r, 0, 3) == 0) {
            int k = (int)rng_uniform(&r, 0, i);
            ASSERT_EQ(sim_cancel(e, id[k]), live[k]);
            live[k] = 0;
        }
    }
    char err[128];
    ASSERT_EQ(sim_run(e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    int nlive = 0;
    for (int i = 0; i < N; i++) nlive += live[i];
    ASSERT_EQ(l.n, nlive);
    for (int j = 0; j < l.n; j++) {
        int i = (int)l.got[j];
        ASSERT(live[i]);
        ASSERT_EQ(l.at[j], t[i]);
        if (j > 0) {
            int p = (int)l.got[j - 1];
            ASSERT(t[p] < t[i] || (t[p] == t[i] && p < i));
        }
    }
    sim_destroy(e);
}

/* Handlers that schedule 0 to 3 events and cancel some: the pending count
 * rises to about 100 and falls back to 0 several times, so the engine
 * switches between its sorted array and its heap both ways while events
 * fire.  Every live event fires once, in (time, insertion) order. */
enum { WAVE_N = 20000 };
struct wave {
    struct sim_engine *e;
    struct rng r;
    int n;                      /* events scheduled */
    sim_time t[WAVE_N];
    sim_event_id id[WAVE_N];
    int live[WAVE_N], fired[WAVE_N];
    int last;                   /* index of the last fired, -1 */
    int nfired, bad;
    int high, crossings;        /* pending above 40 / then below 4: count */
};

static void wave_fire(void *obj, uint64_t arg);

static void wave_add(struct wave *w, sim_time dt)
{
    if (w->n >= WAVE_N) return;
    int i = w->n++;
    w->t[i] = sim_now(w->e) + dt;
    w->live[i] = 1;
    w->id[i] = sim_after(w->e, dt, wave_fire, w, (uint64_t)i);
}

static void wave_fire(void *obj, uint64_t arg)
{
    struct wave *w = obj;
    int i = (int)arg, p = w->last;
    if (!w->live[i] || w->fired[i] || w->t[i] != sim_now(w->e)) w->bad++;
    if (p >= 0 && !(w->t[p] < w->t[i] || (w->t[p] == w->t[i] && p < i))) w->bad++;
    w->fired[i] = 1;
    w->last = i;
    if (w->e->pending > 40) w->high = 1;
    if (w->high && w->e->pending < 4) {
        w->high = 0;
        w->crossings++;
    }
    /* growing for 200 events of every 400, shrinking for the others */
    int grow = (w->nfired++ % 400) < 200;
    int k = (int)rng_uniform(&w->r, 0, grow ? 3 : 1);
    if (w->e->pending == 0 && k == 0) k = 1;
    for (int j = 0; j < k; j++) wave_add(w, rng_uniform(&w->r, 0, 50));
    if (rng_uniform(&w->r, 0, 4) == 0 && w->n > 0) {
        int c = (int)rng_uniform(&w->r, 0, w->n - 1);
        int was = w->live[c] && !w->fired[c];
        if (sim_cancel(w->e, w->id[c]) != was) w->bad++;
        if (was) w->live[c] = 0;
    }
}

static void test_order_across_modes(void)
{
    static struct wave w;
    memset(&w, 0, sizeof w);
    w.e = sim_heap_create();
    w.last = -1;
    rng_seed(&w.r, 7, 0);
    for (int i = 0; i < 40; i++) wave_add(&w, rng_uniform(&w.r, 0, 50));
    char err[128];
    ASSERT_EQ(sim_run(w.e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    ASSERT_EQ(w.bad, 0);
    ASSERT_EQ(w.n, WAVE_N);
    ASSERT(w.crossings >= 10);
    for (int i = 0; i < w.n; i++) ASSERT_EQ(w.fired[i], w.live[i]);
    ASSERT_EQ(w.e->pending, 0);
    sim_destroy(w.e);
}

/* The pattern of the 3.1 GVL's timer thread (models/gvl_barging.c): CHAINS
 * live events, each of which, firing, schedules its successor a few steps
 * ahead and a timeout far ahead, cancelling the previous timeout (a timed
 * wait signalled long before it expires).  The dead timeouts must not pile
 * up until their time (engine_heap.c, compact: at most twice the live
 * events plus the sorted array's 24 entries stay queued; lazily, about
 * 500 per chain would), and every live event fires once, in (time,
 * insertion) order, whether the entries kept make a sorted array (3
 * chains) or a heap (40). */
enum { TMO_N = 60000, TMO_FAR = 5000 };
struct tmo {
    struct sim_engine *e;
    struct rng r;
    int n, chains;
    sim_time t[TMO_N];
    sim_event_id id[TMO_N];
    int live[TMO_N], fired[TMO_N], timeout_of[64];
    int last, bad;
    uint32_t most_queued;
};

static void tmo_fire(void *obj, uint64_t arg);

static int tmo_add(struct tmo *m, sim_time dt, uint64_t chain)
{
    if (m->n >= TMO_N) return -1;
    int i = m->n++;
    m->t[i] = sim_now(m->e) + dt;
    m->live[i] = 1;
    m->id[i] = sim_after(m->e, dt, tmo_fire, m, (uint64_t)i << 8 | chain);
    return i;
}

static void tmo_fire(void *obj, uint64_t arg)
{
    struct tmo *m = obj;
    int i = (int)(arg >> 8), p = m->last, c = (int)(arg & 0xff);
    if (!m->live[i] || m->fired[i] || m->t[i] != sim_now(m->e)) m->bad++;
    if (p >= 0 && !(m->t[p] < m->t[i] || (m->t[p] == m->t[i] && p < i))) m->bad++;
    m->fired[i] = 1;
    m->last = i;
    uint32_t queued = ((struct sim_heap *)m->e)->n;
    if (queued > m->most_queued) m->most_queued = queued;
    if (c == 0xff) return;  /* a timeout that expired */
    int old = m->timeout_of[c];
    if (old >= 0) {
        int was = m->live[old] && !m->fired[old];
        if (sim_cancel(m->e, m->id[old]) != was) m->bad++;
        if (was) m->live[old] = 0;
    }
    m->timeout_of[c] = tmo_add(m, TMO_FAR, 0xff);
    tmo_add(m, rng_uniform(&m->r, 1, 10), (uint64_t)c);
}

static void tmo_case(int chains)
{
    static struct tmo m;
    memset(&m, 0, sizeof m);
    m.e = sim_heap_create();
    m.last = -1;
    m.chains = chains;
    rng_seed(&m.r, 11, (uint64_t)chains);
    for (int c = 0; c < chains; c++) {
        m.timeout_of[c] = -1;
        tmo_add(&m, rng_uniform(&m.r, 0, 10), (uint64_t)c);
    }
    char err[128];
    ASSERT_EQ(sim_run(m.e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    ASSERT_EQ(m.bad, 0);
    ASSERT_EQ(m.n, TMO_N);
    for (int i = 0; i < m.n; i++) ASSERT_EQ(m.fired[i], m.live[i]);
    /* live: a chain's next event and its timeout, and the expired ones'
     * last few at the end */
    ASSERT(m.most_queued <= 2 * (uint32_t)(2 * chains + 1) + 24 + 1);
    ASSERT(m.most_queued >= (uint32_t)chains);
    ASSERT_EQ(m.e->pending, 0);
    sim_destroy(m.e);
}

static void test_dead_timeouts_dropped(void)
{
    tmo_case(3);
    tmo_case(40);
}

int main(void)
{
    RUN(test_order_time_then_insertion);
    RUN(test_cancel_and_stale_ids);
    RUN(test_until_and_stop);
    RUN(test_random_against_reference);
    RUN(test_order_across_modes);
    RUN(test_dead_timeouts_dropped);
    TEST_DONE();
}
