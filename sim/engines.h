/* engines.h - the event engines of this build, chosen by name.
 *
 *   native   the binary heap (sim/engine_heap.c), the default
 *   simgrid  SimGrid's kernel timers (sim/engine_simgrid.cpp), the
 *            reference; only in builds that found libsimgrid-dev
 *
 * Models never name an engine: the simulate facade (models/simulate.h)
 * creates one here and hands it to the VM.  Every engine fires the same
 * events in the same order (sim/engine.h), so a scenario gives the same
 * rows on each, apart from `engine` and `host_s` (docs/engines.md). */
#ifndef SIM_ENGINES_H
#define SIM_ENGINES_H

#include <stddef.h>

#include "engine.h"

/* The default engine's name. */
#define SIM_ENGINE_DEFAULT "native"

/* Create the engine called `name` (NULL: the default).  GV_OK, GV_EUSAGE
 * for an unknown name (the message lists the known ones), GV_EUNSUP for an
 * engine this build lacks (the message names the package), GV_ENOMEM, or
 * another GV_E* code from the engine itself. */
int sim_engine_new(const char *name, struct sim_engine **out, char *err, size_t errlen);

/* The checks of sim_engine_new (name known, engine built in) without
 * creating anything: GV_OK, GV_EUSAGE or GV_EUNSUP with a message. */
int sim_engine_check(const char *name, char *err, size_t errlen);

/* Is `name` an engine gvlsim knows (built in or not)? */
int sim_engine_known(const char *name);

/* The i-th known engine's name (built in or not), NULL past the last: what
 * --engine accepts, its help and its completion. */
const char *sim_engine_name(size_t i);

/* Nonzero if the engine runs one simulation per process (SimGrid's clock
 * is a static of the process): a sweep then runs each point as its own
 * `gvlsim run` process. */
int sim_engine_one_per_process(const char *name);

#endif
