/* backend.h - what a scenario can run on: the simulator, or for real.
 *
 * One table, read by `sweep --backend` (and by any command that runs a
 * scenario on a backend chosen by name): a backend turns a loaded
 * scenario into the one struct run_metrics every backend fills, so the
 * rows of all of them share one schema.  Adding a backend is one line in
 * cli/backend.c's table (a name, whether it measures, a run function). */
#ifndef CLI_BACKEND_H
#define CLI_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/metrics.h"
#include "../common/time.h"
#include "../input/scenario.h"

struct backend_opts {
    const char *engine;      /* simulator: the event engine (NULL: the default) */
    sim_time max_time;       /* simulator: the simulated-time limit */
    bool force;              /* simulator: run even if estimated to take very long */
    double timeout_s;        /* real backends: the watchdog */
    double max_spread;       /* real backends: the calibration's largest spread; 0: default */
    const char *ruby;        /* ruby: the executable (NULL: ruby on PATH) */
    const char *const *ruby_opts;  /* ruby: its options, e.g. --yjit */
    int nruby_opts;
};

/* What a run gives: the metrics, whose strings point into the scenario or
 * into `engine` (a backend whose engine name is made per run, such as a
 * Ruby's version, copies it there). */
struct backend_result {
    struct run_metrics m;
    char engine[64];
};

struct backend {
    const char *name;        /* "sim", "pthread", ... : option values and the CSV's backend */
    /* A measurement on this host: it needs the machine's cores (one run at a
     * time), and its timings vary from run to run (repeat and interleave). */
    bool measured;
    /* Run `scn`; on GV_OK `r` is filled (free it with backend_result_free),
     * otherwise err says why, with the codes of simulate_run / exec_run. */
    int (*run)(const struct scenario *scn, const struct backend_opts *o, struct backend_result *r,
               char *err, size_t errlen);
};

void backend_result_free(struct backend_result *r);

/* The backend called `name`, or NULL. */
const struct backend *backend_find(const char *name);
/* The i-th backend's name, NULL past the last (for an ARGS_ENUM option). */
const char *backend_name(size_t i);

#endif
