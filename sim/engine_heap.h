/* engine_heap.h - the native discrete-event engine: a binary heap ordered
 * by (time, insertion sequence).  Default engine of gvlsim. */
#ifndef SIM_ENGINE_HEAP_H
#define SIM_ENGINE_HEAP_H

#include "engine.h"

/* Returns NULL on allocation failure. */
struct sim_engine *sim_heap_create(void);

#endif
