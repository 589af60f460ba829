/* bench_engine.c - raw speed of the native event engine: the classic
 * "hold" model (a fixed population of pending events; each fired event
 * schedules one more at a random later time), plus a cancel-heavy mix.
 * Prints events per second; never run by `make test`. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../common/err.h"
#include "../../sim/engine_heap.h"
#include "../../common/rng.h"

struct hold {
    struct sim_engine *e;
    struct rng r;
    uint64_t left;
    sim_event_id victim;
    int cancel_mix;
};

static void fire(void *obj, uint64_t arg)
{
    (void)arg;
    struct hold *h = obj;
    if (h->left == 0) return;
    h->left--;
    sim_after(h->e, rng_uniform(&h->r, 1, 1000000), fire, h, 0);
    if (h->cancel_mix) {
        /* a burst cut short: schedule, then cancel a pending one */
        if (h->victim) sim_cancel(h->e, h->victim);
        h->victim = sim_after(h->e, rng_uniform(&h->r, 1, 1000000), fire, h, 0);
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void bench(const char *name, int population, uint64_t events, int cancel_mix)
{
    struct hold h = { .e = sim_heap_create(), .left = events, .cancel_mix = cancel_mix };
    if (!h.e) { fprintf(stderr, "out of memory\n"); exit(1); }
    rng_seed(&h.r, 1, 0);
    for (int i = 0; i < population; i++) sim_at(h.e, rng_uniform(&h.r, 0, 1000000), fire, &h, 0);
    char err[256];
    double t0 = now_s();
    if (sim_run(h.e, SIM_TIME_MAX, err, sizeof err) != GV_OK) { fprintf(stderr, "%s\n", err); exit(1); }
    double dt = now_s() - t0;
    printf("engine %-28s %10.1f M events/s  (%llu events, %.3f s)\n", name,
           (double)h.e->fired / dt / 1e6, (unsigned long long)h.e->fired, dt);
    sim_destroy(h.e);
}

int main(void)
{
    bench("hold, 16 pending", 16, 20000000, 0);
    bench("hold, 1024 pending", 1024, 20000000, 0);
    bench("hold, 65536 pending", 65536, 10000000, 0);
    bench("hold+cancel, 1024 pending", 1024, 10000000, 1);
    return 0;
}
