/* test_engines.c - the engine table, the event-log wrapper, and the SimGrid
 * engine against the native heap: random schedules with ties, cancels,
 * stops and horizons, at dates up to 9e6 s where a double no longer tells
 * picoseconds apart.  Each SimGrid case runs in a child process of its own
 * (SimGrid's clock is a static of the process).  Not under valgrind, whose
 * memcheck SimGrid confuses: GVLSIM_UNDER_VALGRIND skips those cases. */
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/err.h"
#include "../../sim/engine_heap.h"
#include "../../sim/engines.h"
#include "../../sim/evlog.h"
#include "../../common/rng.h"
#ifdef GVLSIM_HAVE_SIMGRID
#include "../../sim/engine_simgrid.h"
#endif
#include "test.h"

static void test_table(void)
{
    char err[512];
    ASSERT_EQ(sim_engine_check("native", err, sizeof err), GV_OK);
    ASSERT_EQ(sim_engine_check("heap", err, sizeof err), GV_EUSAGE);
    ASSERT_CONTAINS(err, "unknown engine \"heap\" (known: native, simgrid)");
    ASSERT_EQ(sim_engine_known("heap"), 0);
    ASSERT_STREQ(sim_engine_name(0), "native");
    ASSERT_STREQ(sim_engine_name(1), "simgrid");
    ASSERT(sim_engine_name(2) == NULL);
    ASSERT_EQ(sim_engine_one_per_process("native"), 0);
    ASSERT_EQ(sim_engine_one_per_process("simgrid"), 1);
    struct sim_engine *e;
    ASSERT_EQ(sim_engine_new("native", &e, err, sizeof err), GV_OK);
    ASSERT_STREQ(e->ops->name, "native");
    sim_destroy(e);
#ifdef GVLSIM_HAVE_SIMGRID
    ASSERT_EQ(sim_engine_check("simgrid", err, sizeof err), GV_OK);
    ASSERT_EQ(sim_engine_check("nosuch", err, sizeof err), GV_EUSAGE);
    ASSERT_EQ(sim_engine_known("simgrid"), 1);
#else
    ASSERT_EQ(sim_engine_check("simgrid", err, sizeof err), GV_EUNSUP);
    ASSERT_CONTAINS(err, "libsimgrid-dev");
    ASSERT_EQ(sim_engine_new("simgrid", &e, err, sizeof err), GV_EUNSUP);
    ASSERT(e == NULL);
#endif
}

/* ---- a random workload, the same on every engine ------------------------ */

#define MAXTRACE 400000
#define MAXIDS 64

struct params {
    const char *name;
    sim_time base;       /* first events around this date */
    sim_time spread;     /* delays drawn from [0, spread] (besides 0 and 1 ps) */
    int initial;         /* events scheduled before the first run */
    int budget;          /* events the handlers may still schedule */
    int cancel_pct, stop_pct;
    uint64_t seed;
};

struct drv {
    struct sim_engine *e;
    struct rng r;
    const struct params *p;
    int budget;
    sim_event_id ids[MAXIDS];  /* recent ids, cancel candidates */
    uint64_t trace[MAXTRACE];
    int n;
    bool stopped;
};

static void put(struct drv *d, uint64_t v)
{
    ASSERT(d->n < MAXTRACE);
    d->trace[d->n++] = v;
}

static void fire(void *obj, uint64_t tag);

static void schedule(struct drv *d, sim_time from)
{
    sim_time dt;
    switch (rng_uniform(&d->r, 0, 5)) {
    case 0: dt = 0; break;                                        /* a tie with now */
    case 1: dt = 1; break;                                        /* one picosecond */
    case 2: dt = rng_uniform(&d->r, 0, 4); break;
    default: dt = rng_uniform(&d->r, 0, d->p->spread); break;
    }
    uint64_t tag = rng_next(&d->r) >> 16;
    sim_event_id id = sim_at(d->e, from + dt, fire, d, tag);
    ASSERT(id != 0);
    d->ids[rng_uniform(&d->r, 0, MAXIDS - 1)] = id;
}

static void fire(void *obj, uint64_t tag)
{
    struct drv *d = obj;
    put(d, (uint64_t)sim_now(d->e));
    put(d, tag);
    int k = (int)rng_uniform(&d->r, 0, 3);
    for (int i = 0; i < k && d->budget > 0; i++, d->budget--) schedule(d, sim_now(d->e));
    if ((int)rng_uniform(&d->r, 0, 99) < d->p->cancel_pct) {
        sim_event_id *victim = &d->ids[rng_uniform(&d->r, 0, MAXIDS - 1)];
        put(d, (uint64_t)sim_cancel(d->e, *victim));  /* 0 if fired, cancelled or none */
        *victim = 0;
    }
    if ((int)rng_uniform(&d->r, 0, 999) < d->p->stop_pct) {
        sim_stop(d->e);
        d->stopped = true;
    }
}

/* Schedule, then run to a series of horizons (some on event dates, each
 * resumed after a stop) and then to the end; the trace is every fired
 * event, every cancel's result and the engine's counters after each run. */
static void drive(struct drv *d, struct sim_engine *e, const struct params *p)
{
    d->e = e;
    d->p = p;
    d->n = 0;
    d->budget = p->budget;
    d->stopped = false;
    memset(d->ids, 0, sizeof d->ids);
    rng_seed(&d->r, p->seed, 0);
    for (int i = 0; i < p->initial; i++) schedule(d, p->base);
    sim_time until = p->base;
    char err[256];
    for (int step = 0; step < 12; step++) {
        until += step % 3 == 0 ? 0 : rng_uniform(&d->r, 0, 3 * p->spread);
        do {
            d->stopped = false;
            ASSERT_EQ(sim_run(e, step == 11 ? SIM_TIME_MAX : until, err, sizeof err), GV_OK);
            put(d, 0xffff0000u + (uint64_t)step);
            put(d, (uint64_t)sim_now(e));
            put(d, e->fired);
            put(d, e->pending);
            /* new events between runs, when SimGrid's clock may be an ulp past now */
            if (step < 11 || d->stopped)
                for (int i = (int)rng_uniform(&d->r, 0, 2); i > 0; i--) schedule(d, sim_now(e));
        } while (d->stopped);
    }
    ASSERT_EQ(e->pending, 0);
}

static const struct params cases[] = {
    /* name                       base                     spread      init budget cancel stop seed */
    { "small dates, many ties", 0, 1000, 200, 60000, 30, 2, 1 },
    { "around 2^13 s", 8190 * SIM_S, 4 * SIM_S, 100, 60000, 20, 2, 2 },
    { "1e4 s, picosecond steps", 10000 * SIM_S, 8, 50, 40000, 30, 2, 3 },
    { "9e6 s, below a double's ulp", 9000000 * SIM_S, 3000, 100, 60000, 30, 2, 4 },
    { "cancel heavy", 5 * SIM_S, 100000, 300, 60000, 90, 0, 5 },
};

static struct drv want, got;

static void compare(const char *name)
{
    for (int i = 0; i < want.n && i < got.n; i++)
        if (want.trace[i] != got.trace[i]) {
            fprintf(stderr, "%s: traces differ at entry %d: native %" PRIu64 ", simgrid %" PRIu64 "\n", name, i,
                    want.trace[i], got.trace[i]);
            ASSERT(0);
        }
    ASSERT_EQ(want.n, got.n);
}

/* The wrapper changes nothing: same trace as the bare engine, and one log
 * line per fired event. */
static void test_evlog(void)
{
    const struct params *p = &cases[0];
    struct sim_engine *bare = sim_heap_create();
    drive(&want, bare, p);
    uint64_t fired = bare->fired;
    sim_destroy(bare);

    char path[] = "/tmp/gvlsim-evlog-XXXXXX";
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    close(fd);
    struct sim_engine *w;
    char err[256];
    ASSERT_EQ(sim_evlog_wrap(sim_heap_create(), path, &w, err, sizeof err), GV_OK);
    ASSERT_STREQ(w->ops->name, "native");
    drive(&got, w, p);
    compare("event log");
    sim_destroy(w);

    FILE *f = fopen(path, "r");
    ASSERT(f);
    char line[256];
    uint64_t n = 0;
    while (fgets(line, sizeof line, f)) {
        n++;
        unsigned long long k;
        long long t;
        char handler[64], obj[16];
        ASSERT_EQ(sscanf(line, "%llu %lld %63s %15s", &k, &t, handler, obj), 4);
        ASSERT_EQ(k, n);
        ASSERT_STREQ(obj, "o1");  /* every event has the one driver as its object */
        ASSERT(handler[0] == '+' || handler[0] == 'f');
    }
    fclose(f);
    unlink(path);
    ASSERT_EQ(n, fired);
    struct sim_engine *inner = sim_heap_create();
    ASSERT_EQ(sim_evlog_wrap(inner, "/nonexistent/dir/log", &w, err, sizeof err), GV_EIO);
    ASSERT(w == NULL);
    sim_destroy(inner);  /* still the caller's */
}

#ifdef GVLSIM_HAVE_SIMGRID
/* In a child: the native trace, then the SimGrid one, compared. */
static void simgrid_case(const struct params *p)
{
    struct sim_engine *e = sim_heap_create();
    drive(&want, e, p);
    sim_destroy(e);
    char err[512];
    ASSERT_EQ(sim_simgrid_create(&e, err, sizeof err), GV_OK);
    ASSERT_STREQ(e->ops->name, "simgrid");
    drive(&got, e, p);
    compare(p->name);
    sim_destroy(e);
    /* the clock has moved: a second engine in this process is refused */
    ASSERT_EQ(sim_simgrid_create(&e, err, sizeof err), GV_EUNSUP);
    ASSERT_CONTAINS(err, "one simulation per process");
}

/* Five events at one date fire in insertion order (SimGrid's own timers at
 * one date do not), and ones scheduled at the current date join the step. */
static void record(void *obj, uint64_t arg)
{
    struct drv *d = obj;
    put(d, arg);
    if (arg == 2) sim_after(d->e, 0, record, d, 9);
}

static void simgrid_ties(void)
{
    struct sim_engine *e;
    char err[512];
    ASSERT_EQ(sim_simgrid_create(&e, err, sizeof err), GV_OK);
    got.e = e;
    got.n = 0;
    for (uint64_t i = 0; i < 5; i++) sim_at(e, SIM_S, record, &got, i);
    sim_event_id c = sim_at(e, SIM_S, record, &got, 5);
    sim_at(e, 2 * SIM_S, record, &got, 6);
    ASSERT_EQ(sim_cancel(e, c), 1);
    ASSERT_EQ(sim_cancel(e, c), 0);
    ASSERT_EQ(e->pending, 6);
    ASSERT_EQ(sim_run(e, SIM_S, err, sizeof err), GV_OK);  /* the horizon is inclusive */
    uint64_t order[] = { 0, 1, 2, 3, 4, 9 };
    ASSERT_EQ(got.n, 6);
    for (int i = 0; i < 6; i++) ASSERT_EQ(got.trace[i], order[i]);
    ASSERT_EQ(sim_now(e), SIM_S);
    ASSERT_EQ(e->pending, 1);
    ASSERT_EQ(sim_run(e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    ASSERT_EQ(got.trace[6], 6);
    ASSERT_EQ(e->fired, 7);
    sim_destroy(e);
}

/* SimGrid moves its clock to a date d as now + (d - now), which is not
 * always d.  These dates (found by search) make it land an ulp short of d,
 * then an ulp past d above 2^13 s, where d + 1 ps has d's double: an event
 * scheduled there after a stop lies below SimGrid's clock. */
static void stop_at(void *obj, uint64_t arg)
{
    struct drv *d = obj;
    put(d, arg);
    sim_stop(d->e);
}

static void simgrid_clock_edges(void)
{
    const sim_time short_of[2] = { 83166071344, 1486558320778 };
    const sim_time past[2] = { 3295470816208678, 13717884829121116 };
    ASSERT((double)short_of[0] / 1e12 + ((double)short_of[1] / 1e12 - (double)short_of[0] / 1e12) <
           (double)short_of[1] / 1e12);
    ASSERT((double)past[0] / 1e12 + ((double)past[1] / 1e12 - (double)past[0] / 1e12) > (double)past[1] / 1e12);
    ASSERT((double)(past[1] + 1) / 1e12 == (double)past[1] / 1e12);
    struct sim_engine *e;
    char err[512];
    ASSERT_EQ(sim_simgrid_create(&e, err, sizeof err), GV_OK);
    got.e = e;
    got.n = 0;
    sim_at(e, short_of[0], record, &got, 1);
    sim_at(e, short_of[1], record, &got, 2);  /* schedules 9 at the same date */
    sim_at(e, past[0], record, &got, 3);
    sim_at(e, past[1], stop_at, &got, 4);
    sim_at(e, past[1], record, &got, 5);
    ASSERT_EQ(sim_run(e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    ASSERT_EQ(sim_now(e), past[1]);
    sim_at(e, past[1] + 1, record, &got, 6);
    sim_at(e, past[1], record, &got, 7);
    ASSERT_EQ(sim_run(e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    uint64_t order[] = { 1, 2, 9, 3, 4, 5, 7, 6 };
    ASSERT_EQ(got.n, 8);
    for (int i = 0; i < 8; i++) ASSERT_EQ(got.trace[i], order[i]);
    ASSERT_EQ(sim_now(e), past[1] + 1);
    sim_destroy(e);
}

static void in_child(void (*fn)(const struct params *), const struct params *p, const char *name)
{
    fflush(stderr);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        fn(p);
        _exit(0);
    }
    int st;
    ASSERT_EQ(waitpid(pid, &st, 0), pid);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) fprintf(stderr, "SimGrid case \"%s\" failed\n", name);
    ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    fprintf(stderr, "  ok  simgrid: %s\n", name);
}

static void ties_case(const struct params *p)
{
    (void)p;
    simgrid_ties();
}

static void clock_edges_case(const struct params *p)
{
    (void)p;
    simgrid_clock_edges();
}

static void test_simgrid_against_native(void)
{
    if (getenv("GVLSIM_UNDER_VALGRIND")) {
        fprintf(stderr, "  (SimGrid cases skipped under valgrind)\n");
        return;
    }
    in_child(ties_case, NULL, "ties and an inclusive horizon");
    in_child(clock_edges_case, NULL, "SimGrid's clock an ulp short of and past a date");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) in_child(simgrid_case, &cases[i], cases[i].name);
}
#endif

int main(void)
{
    RUN(test_table);
    RUN(test_evlog);
#ifdef GVLSIM_HAVE_SIMGRID
    RUN(test_simgrid_against_native);
#endif
    TEST_DONE();
}
