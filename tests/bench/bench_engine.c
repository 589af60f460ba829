/* bench_engine.c - raw speed of the native event engine, and the bare-loop
 * reference that the full model's speed is measured against.  Never run by
 * `make test`; scripts/bench.sh runs it.
 *
 *   bench_engine            the "hold" model (a fixed population of pending
 *                           events; each fired event schedules one more at a
 *                           random later time), plus a cancel-heavy mix
 *   bench_engine simgrid    the same on the SimGrid engine (a tenth of the
 *                           events; each run a child process, as SimGrid
 *                           allows one simulation per process)
 *   bench_engine toy-bare   a minimal GVL ping-pong model on a minimal heap
 *   bench_engine toy-engine the same model on gvlsim's engine (sim/engine_heap.c)
 *
 * The toy model is two threads passing one lock (a GVL with a FIFO of
 * waiters): compute holding it, release it around a blocking call (handing
 * it to a waiter, which runs after a wake-up latency), take it back or
 * queue.  No cores, no OS scheduler, no timer thread.  Its events per
 * second are the ceiling a discrete-event GVL model reaches on this host,
 * which is what the full model's events per second are compared with in
 * the same `make bench` run (the ratio, not either figure, is the result).
 * The toy modes print "EVENTS SECONDS" on one line for the script. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../common/err.h"
#include "../../common/rng.h"
#include "../../sim/engine_heap.h"
#ifdef GVLSIM_HAVE_SIMGRID
#include "../../sim/engine_simgrid.h"
#endif

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the hold model on the engine --------------------------------------- */

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

static struct sim_engine *create(int simgrid)
{
    struct sim_engine *e = NULL;
    char err[512] = "out of memory";
    if (!simgrid) e = sim_heap_create();
#ifdef GVLSIM_HAVE_SIMGRID
    else if (sim_simgrid_create(&e, err, sizeof err) != GV_OK) e = NULL;
#else
    else snprintf(err, sizeof err, "no SimGrid engine in this build");
#endif
    if (!e) { fprintf(stderr, "bench_engine: %s\n", err); exit(1); }
    return e;
}

static void bench(int simgrid, const char *name, int population, uint64_t events, int cancel_mix)
{
    if (simgrid) {  /* one SimGrid simulation per process */
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) { perror("fork"); exit(1); }
        if (pid > 0) {
            int st;
            if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) exit(1);
            return;
        }
        events /= 10;
    }
    struct hold h = { .e = create(simgrid), .left = events, .cancel_mix = cancel_mix };
    rng_seed(&h.r, 1, 0);
    for (int i = 0; i < population; i++) sim_at(h.e, rng_uniform(&h.r, 0, 1000000), fire, &h, 0);
    char err[256];
    double t0 = now_s();
    if (sim_run(h.e, SIM_TIME_MAX, err, sizeof err) != GV_OK) { fprintf(stderr, "%s\n", err); exit(1); }
    double dt = now_s() - t0;
    printf("%s %-28s %10.*f M events/s  (%llu events, %.3f s)\n", simgrid ? "simgrid" : "engine", name,
           simgrid ? 2 : 1, (double)h.e->fired / dt / 1e6, (unsigned long long)h.e->fired, dt);
    sim_destroy(h.e);
    if (simgrid) {
        fflush(stdout);
        _exit(0);
    }
}

/* ---- the toy GVL ping-pong ---------------------------------------------- */

enum toy_ev { TOY_COMPUTE_DONE, TOY_CALL_DONE, TOY_ACQUIRED };

struct toy_thread {
    struct toy_thread *next;    /* in the lock's FIFO */
    uint64_t left;              /* iterations still to run */
};

/* the minimal heap: (time, sequence) order, as the engine's contract says */
struct toy_entry {
    sim_time t;
    uint64_t seq;
    struct toy_thread *th;
    enum toy_ev kind;
};

struct toy {
    struct sim_engine *eng;     /* NULL: the minimal heap below */
    struct toy_entry *heap;
    uint32_t n, cap;
    uint64_t seq, fired;
    sim_time now;
    struct toy_thread th[2];
    struct toy_thread *owner, *head, *tail;
};

/* costs in ps, after the 2-core queue ping-pong's orders of magnitude */
#define TOY_COMPUTE 550000
#define TOY_CALL 310000
#define TOY_WAKE 12000000

static int toy_less(const struct toy_entry *a, const struct toy_entry *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void toy_push(struct toy *m, sim_time t, enum toy_ev kind, struct toy_thread *th)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 64;
        m->heap = realloc(m->heap, m->cap * sizeof *m->heap);
        if (!m->heap) { fprintf(stderr, "out of memory\n"); exit(1); }
    }
    struct toy_entry x = { t, ++m->seq, th, kind };
    uint32_t i = m->n++;
    while (i > 0 && toy_less(&x, &m->heap[(i - 1) / 2])) {
        m->heap[i] = m->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    m->heap[i] = x;
}

static struct toy_entry toy_pop(struct toy *m)
{
    struct toy_entry top = m->heap[0], x = m->heap[--m->n];
    uint32_t i = 0, c;
    while ((c = 2 * i + 1) < m->n) {
        if (c + 1 < m->n && toy_less(&m->heap[c + 1], &m->heap[c])) c++;
        if (!toy_less(&m->heap[c], &x)) break;
        m->heap[i] = m->heap[c];
        i = c;
    }
    m->heap[i] = x;
    return top;
}

static void toy_fire(struct toy *m, enum toy_ev kind, struct toy_thread *th);

static void toy_handler(void *obj, uint64_t arg)
{
    struct toy_thread *th = obj;
    struct toy *m = (struct toy *)(uintptr_t)(arg >> 2 << 2);
    toy_fire(m, (enum toy_ev)(arg & 3), th);
}

static void toy_after(struct toy *m, sim_time dt, enum toy_ev kind, struct toy_thread *th)
{
    if (m->eng) sim_after(m->eng, dt, toy_handler, th, (uint64_t)(uintptr_t)m | kind);
    else toy_push(m, m->now + dt, kind, th);
}

static void toy_fire(struct toy *m, enum toy_ev kind, struct toy_thread *th)
{
    switch (kind) {
    case TOY_ACQUIRED:          /* holding the lock: compute */
        toy_after(m, TOY_COMPUTE, TOY_COMPUTE_DONE, th);
        return;
    case TOY_COMPUTE_DONE: {    /* release around a blocking call */
        struct toy_thread *next = m->head;
        m->owner = next;
        if (next) {             /* hand over: the waiter wakes up */
            m->head = next->next;
            if (!m->head) m->tail = NULL;
            toy_after(m, TOY_WAKE, TOY_ACQUIRED, next);
        }
        toy_after(m, TOY_CALL, TOY_CALL_DONE, th);
        return;
    }
    case TOY_CALL_DONE:         /* take the lock back, or queue */
        if (th->left == 0) return;
        th->left--;
        if (!m->owner) {
            m->owner = th;
            toy_after(m, TOY_COMPUTE, TOY_COMPUTE_DONE, th);
        } else {
            th->next = NULL;
            if (m->tail) m->tail->next = th;
            else m->head = th;
            m->tail = th;
        }
        return;
    }
}

static int toy_run(int on_engine, uint64_t iterations)
{
    struct toy *m = calloc(1, sizeof *m);
    if (!m) { fprintf(stderr, "out of memory\n"); return 1; }
    if (on_engine && !(m->eng = sim_heap_create())) { fprintf(stderr, "out of memory\n"); return 1; }
    for (int i = 0; i < 2; i++) {
        m->th[i].left = iterations;
        toy_after(m, 0, TOY_CALL_DONE, &m->th[i]);
    }
    double t0 = now_s();
    uint64_t fired;
    if (m->eng) {
        char err[256];
        if (sim_run(m->eng, SIM_TIME_MAX, err, sizeof err) != GV_OK) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        fired = m->eng->fired;
    } else {
        while (m->n > 0) {
            struct toy_entry e = toy_pop(m);
            m->now = e.t;
            m->fired++;
            toy_fire(m, e.kind, e.th);
        }
        fired = m->fired;
    }
    double dt = now_s() - t0;
    printf("%llu %.6f\n", (unsigned long long)fired, dt);
    sim_destroy(m->eng);
    free(m->heap);
    free(m);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "toy-bare") == 0) return toy_run(0, 5000000);
    if (argc == 2 && strcmp(argv[1], "toy-engine") == 0) return toy_run(1, 5000000);
    int simgrid = argc == 2 && strcmp(argv[1], "simgrid") == 0;
    if (argc != 1 && !simgrid) {
        fprintf(stderr, "usage: bench_engine [toy-bare|toy-engine|simgrid]\n");
        return 2;
    }
    bench(simgrid, "hold, 16 pending", 16, 20000000, 0);
    bench(simgrid, "hold, 1024 pending", 1024, 20000000, 0);
    bench(simgrid, "hold, 65536 pending", 65536, 10000000, 0);
    bench(simgrid, "hold+cancel, 1024 pending", 1024, 10000000, 1);
    return 0;
}
