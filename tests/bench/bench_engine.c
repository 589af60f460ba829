/* bench_engine.c - raw speed of an event engine: the classic "hold" model
 * (a fixed population of pending events; each fired event schedules one
 * more at a random later time), plus a cancel-heavy mix.
 *
 *   bench_engine [native|simgrid]
 *
 * Prints events per second; never run by `make test`.  SimGrid allows one
 * simulation per process, so each of its runs is a child process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../common/err.h"
#include "../../sim/engine_heap.h"
#include "../../common/rng.h"
#ifdef GVLSIM_HAVE_SIMGRID
#include "../../sim/engine_simgrid.h"
#endif

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

static struct sim_engine *create(const char *engine)
{
    struct sim_engine *e = NULL;
    char err[512] = "out of memory";
    if (!strcmp(engine, "native")) e = sim_heap_create();
#ifdef GVLSIM_HAVE_SIMGRID
    else if (!strcmp(engine, "simgrid") && sim_simgrid_create(&e, err, sizeof err) != GV_OK) e = NULL;
#endif
    else snprintf(err, sizeof err, "no engine \"%s\" in this build", engine);
    if (!e) { fprintf(stderr, "bench_engine: %s\n", err); exit(1); }
    return e;
}

static void bench(const char *engine, const char *name, int population, uint64_t events, int cancel_mix)
{
    if (!strcmp(engine, "simgrid")) {  /* one SimGrid simulation per process */
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) { perror("fork"); exit(1); }
        if (pid > 0) {
            int st;
            if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) exit(1);
            return;
        }
    }
    struct hold h = { .e = create(engine), .left = events, .cancel_mix = cancel_mix };
    rng_seed(&h.r, 1, 0);
    for (int i = 0; i < population; i++) sim_at(h.e, rng_uniform(&h.r, 0, 1000000), fire, &h, 0);
    char err[256];
    double t0 = now_s();
    if (sim_run(h.e, SIM_TIME_MAX, err, sizeof err) != GV_OK) { fprintf(stderr, "%s\n", err); exit(1); }
    double dt = now_s() - t0;
    printf("engine %-8s %-28s %10.2f M events/s  (%llu events, %.3f s)\n", engine, name,
           (double)h.e->fired / dt / 1e6, (unsigned long long)h.e->fired, dt);
    sim_destroy(h.e);
    if (!strcmp(engine, "simgrid")) {
        fflush(stdout);
        _exit(0);
    }
}

int main(int argc, char **argv)
{
    const char *engine = argc > 1 ? argv[1] : "native";
    /* SimGrid is ~10x slower: fewer events, the same populations */
    uint64_t k = strcmp(engine, "native") ? 10 : 1;
    bench(engine, "hold, 16 pending", 16, 20000000 / k, 0);
    bench(engine, "hold, 1024 pending", 1024, 20000000 / k, 0);
    bench(engine, "hold, 65536 pending", 65536, 10000000 / k, 0);
    bench(engine, "hold+cancel, 1024 pending", 1024, 10000000 / k, 1);
    return 0;
}
