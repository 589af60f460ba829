/* engine_simgrid.h - the reference engine: gvlsim's event interface on
 * SimGrid's kernel timers (sim/engine_simgrid.cpp, built only when
 * `pkg-config simgrid` finds libsimgrid-dev; see docs/engines.md).
 *
 * The engine is a plugin, gvlsim-simgrid.so, whose one entry point is
 * sim_simgrid_create; sim/engines.c loads it with dlopen when it is asked
 * for, so that gvlsim does not load SimGrid's libraries otherwise.
 *
 * SimGrid keeps its clock in a static of the process that no new engine
 * resets, so a process runs at most one SimGrid simulation: a second
 * create after the clock has moved fails with GV_EUNSUP. */
#ifndef SIM_ENGINE_SIMGRID_H
#define SIM_ENGINE_SIMGRID_H

#include <stddef.h>

#include "engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns GV_OK and the engine in *out, or a GV_E* code with a message. */
int sim_simgrid_create(struct sim_engine **out, char *err, size_t errlen);
typedef int sim_simgrid_create_fn(struct sim_engine **out, char *err, size_t errlen);

#define SIM_SIMGRID_PLUGIN "gvlsim-simgrid.so"

#ifdef __cplusplus
}
#endif

#endif
