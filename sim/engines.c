/* engines.c - the engine registry (engines.h). */
#include "engines.h"

#include <string.h>

#include "../common/err.h"
#include "engine_heap.h"

struct engine_entry {
    const char *name;
    struct sim_engine *(*create)(void);   /* NULL: not in this build */
    const char *package;                  /* what a build needs for it */
};

static const struct engine_entry engines[] = {
    { "native", sim_heap_create, NULL },
    { "simgrid", NULL, "libsimgrid-dev" },
};

#define NENGINES (sizeof engines / sizeof engines[0])

int sim_engine_known(const char *name)
{
    for (size_t i = 0; i < NENGINES; i++)
        if (strcmp(engines[i].name, name) == 0) return 1;
    return 0;
}

const char *sim_engine_name(size_t i)
{
    return i < NENGINES ? engines[i].name : NULL;
}

int sim_engine_new(const char *name, struct sim_engine **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!name) name = SIM_ENGINE_DEFAULT;
    for (size_t i = 0; i < NENGINES; i++) {
        const struct engine_entry *e = &engines[i];
        if (strcmp(e->name, name) != 0) continue;
        if (!e->create)
            return gv_fail(err, errlen, GV_EUNSUP,
                           "engine \"%s\" is not supported by this build (rebuild with %s installed)",
                           name, e->package);
        *out = e->create();
        return *out ? GV_OK : gv_fail(err, errlen, GV_ENOMEM, "out of memory creating the engine");
    }
    return gv_fail(err, errlen, GV_EUSAGE, "unknown engine \"%s\" (known: native, simgrid)", name);
}
