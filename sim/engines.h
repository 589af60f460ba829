/* engines.h - the event engines by name: what `--engine NAME` accepts.
 *
 *   native   the binary heap (sim/engine_heap.c), the default
 *   simgrid  SimGrid's kernel timers (sim/engine_simgrid.cpp), the
 *            reference; only in builds that found libsimgrid-dev
 *
 * Every engine fires the same events in the same order (sim/engine.h), so
 * a scenario gives the same CSV on each, apart from `engine` and `host_s`. */
#ifndef SIM_ENGINES_H
#define SIM_ENGINES_H

#include <stddef.h>

#include "engine.h"

/* Create the engine called `name`.  Returns GV_OK, GV_EUSAGE (no such
 * engine: the message lists those available), GV_EUNSUP (known, but not in
 * this build: the message names the package to install) or another GV_E*
 * code from the engine itself. */
int sim_engine_new(const char *name, struct sim_engine **out, char *err, size_t errlen);

/* The checks of sim_engine_new without creating anything. */
int sim_engine_check(const char *name, char *err, size_t errlen);

/* Nonzero if the engine runs one simulation per process (SimGrid's clock
 * is a static of the process): a sweep then runs each point as its own
 * `gvlsim run` process. */
int sim_engine_one_per_process(const char *name);

#endif
