/* observer.h - what a run reports as it happens, for whoever draws it.
 *
 * A backend (the simulated VM today) calls these while it runs; a consumer
 * (output/trace.c) implements them.  Every argument is a plain index or
 * name, so the consumer never needs the backend's structures: threads and
 * Ractors are numbered in scenario order (the order of the CSV, the trace
 * tracks and the run_layout below).  Every callback may be NULL. */
#ifndef COMMON_OBSERVER_H
#define COMMON_OBSERVER_H

#include <stdint.h>

#include "metrics.h"
#include "time.h"

struct run_observer {
    void *ctx;
    /* thread `thread` changes state (TS_COUNT: not started / ended) */
    void (*thread_state)(void *ctx, int thread, enum thread_state from, enum thread_state to,
                         sim_time now);
    /* the GVL ready queue of Ractor `ractor` changes length */
    void (*readyq)(void *ctx, int ractor, int len, sim_time now);
    /* a point event, e.g. "barrier_start" by `thread` (-1: no thread) */
    void (*instant)(void *ctx, const char *name, int thread, sim_time now);
    /* a named process-wide counter changes, e.g. "vm_lock_waiters" */
    void (*counter)(void *ctx, const char *name, int64_t value, sim_time now);
};

/* The shape of a run, given to a consumer before it starts. */
struct run_layout {
    const char *scenario;        /* the scenario's name */
    const char *policy;          /* runtime.gvl_policy */
    uint64_t seed;
    int ncores;
    int nthreads;
    const char *const *thread_names;   /* nthreads names: "main", "worker#3" */
    int nractors;
    const char *const *ractor_names;   /* nractors names */
    /* NULL: a simulated run; else the real backend that ran it ("pthread"),
     * which records its threads' states only: no cores, timer thread or
     * ready queues */
    const char *backend;
};

#endif
