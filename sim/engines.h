/* engines.h - the event engines of this build, chosen by name.
 *
 * "native" (sim/engine_heap.c) is always there; "simgrid" only in builds
 * linked with SimGrid.  Models never name an engine: the simulate facade
 * (models/simulate.h) creates one here and hands it to the VM. */
#ifndef SIM_ENGINES_H
#define SIM_ENGINES_H

#include <stddef.h>

#include "engine.h"

/* The default engine's name. */
#define SIM_ENGINE_DEFAULT "native"

/* Create the engine called `name` (NULL: the default).  GV_OK, GV_EINVAL
 * for an unknown name (the message lists the known ones), GV_EUNSUP for an
 * engine this build lacks (the message names the package), GV_ENOMEM. */
int sim_engine_new(const char *name, struct sim_engine **out, char *err, size_t errlen);

/* Is `name` an engine gvlsim knows (built in or not)? */
int sim_engine_known(const char *name);

/* The i-th known engine's name (built in or not), NULL past the last: what
 * --engine accepts, its help and its completion. */
const char *sim_engine_name(size_t i);

#endif
