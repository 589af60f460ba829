/* simulate.h - the one way to run a simulation: scenario in, metrics out.
 *
 * simulate_run() creates the engine named in the options, builds the VM,
 * runs it and collects its metrics; `gvlsim run`, `gvlsim sweep` and the
 * unit tests all go through it.  Hooks let a caller look at the VM before
 * and after the run (a trace's observers, a test's observables). */
#ifndef MODELS_SIMULATE_H
#define MODELS_SIMULATE_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/metrics.h"
#include "../common/observer.h"
#include "../input/scenario.h"

struct vm;

struct simulate_opts {
    const char *engine;      /* engine name (sim/engines.h); NULL: the default */
    sim_time max_time;       /* simulated-time limit; <= 0: one hour */
    bool force;              /* run even if estimated beyond ESTIMATE_MAX_EVENTS (estimate.h) */
    const char *event_log;   /* write every fired event to this file (sim/evlog.h);
                                NULL: none (the engine then pays nothing) */
    void *ctx;               /* passed to the hooks */
    /* after the VM is built, before it runs (may be NULL): observers,
     * a state to start from.  An error code stops the run. */
    int (*setup)(void *ctx, struct vm *vm, char *err, size_t errlen);
    /* after the run, whatever its outcome, before the VM is freed (may be
     * NULL; called whenever setup was): `run_rc` is the run's result and
     * `end` its end time (the failure time for a failed run).  An error
     * code fails a run that succeeded. */
    int (*finish)(void *ctx, struct vm *vm, int run_rc, sim_time end, char *err, size_t errlen);
};

/* Simulate `scn`.  On GV_OK, `m` is filled (free it with
 * run_metrics_free); otherwise `m` is left empty and err says why:
 * GV_EUSAGE/GV_EUNSUP (engine), GV_EUNSUP/GV_EINVAL (a scenario the
 * models cannot run; a run estimated beyond ESTIMATE_MAX_EVENTS, unless
 * forced: the message gives the estimate and a rough host time), GV_ERUN
 * (deadlock, time limit, no progress; who waits on what is in err),
 * GV_ENOMEM, or a hook's code. */
int simulate_run(const struct scenario *scn, const struct simulate_opts *o, struct run_metrics *m,
                 char *err, size_t errlen);

/* The run's shape for an observer (thread and Ractor names in scenario
 * order).  The name arrays point into the VM; free them with
 * simulate_layout_free. */
int simulate_layout(const struct vm *vm, struct run_layout *lay);
void simulate_layout_free(struct run_layout *lay);

#endif
