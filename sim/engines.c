/* engines.c - the table of event engines (see engines.h). */
#include "engines.h"

#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "engine_heap.h"
#ifdef GVLSIM_HAVE_SIMGRID
#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

#include "engine_simgrid.h"
#endif

static int heap_new(struct sim_engine **out, char *err, size_t errlen)
{
    *out = sim_heap_create();
    return *out ? GV_OK : gv_fail(err, errlen, GV_ENOMEM, "out of memory creating the engine");
}

#ifdef GVLSIM_HAVE_SIMGRID
/* The SimGrid engine lives in a plugin beside the executable (see
 * engine_simgrid.h).  It is never unloaded: SimGrid leaves exit handlers. */
static int simgrid_new(struct sim_engine **out, char *err, size_t errlen)
{
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - sizeof SIM_SIMGRID_PLUGIN - 1);
    if (n <= 0) return gv_fail(err, errlen, GV_EUNSUP, "SimGrid engine: cannot find the gvlsim executable");
    path[n] = 0;
    char *slash = strrchr(path, '/');
    strcpy(slash ? slash + 1 : path, SIM_SIMGRID_PLUGIN);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return gv_fail(err, errlen, GV_EUNSUP,
                       "SimGrid engine: cannot load %s (%s); `make` builds it beside gvlsim when the "
                       "Debian package libsimgrid-dev is installed",
                       path, dlerror());
    sim_simgrid_create_fn *create;
    void *sym = dlsym(h, "sim_simgrid_create");
    memcpy(&create, &sym, sizeof create);  /* POSIX: a data pointer can hold a function's */
    if (!create) return gv_fail(err, errlen, GV_EUNSUP, "SimGrid engine: %s: %s", path, dlerror());
    return create(out, err, errlen);
}
#endif

struct engine_entry {
    const char *name;
    /* NULL if this build lacks the engine's library */
    int (*create)(struct sim_engine **out, char *err, size_t errlen);
    const char *package;  /* the Debian package it needs, or NULL */
    int one_per_process;
};

static const struct engine_entry engines[] = {
    { "native", heap_new, NULL, 0 },
#ifdef GVLSIM_HAVE_SIMGRID
    { "simgrid", simgrid_new, "libsimgrid-dev", 1 },
#else
    { "simgrid", NULL, "libsimgrid-dev", 1 },
#endif
};

#define NENGINES (sizeof engines / sizeof engines[0])

static const struct engine_entry *lookup(const char *name, char *err, size_t errlen, int *rc)
{
    for (size_t i = 0; i < NENGINES; i++) {
        if (strcmp(engines[i].name, name) != 0) continue;
        if (!engines[i].create) {
            *rc = gv_fail(err, errlen, GV_EUNSUP,
                          "engine \"%s\" is not supported by this build: install the Debian package "
                          "%s (apt-get install %s) and rebuild gvlsim",
                          name, engines[i].package, engines[i].package);
            return NULL;
        }
        *rc = GV_OK;
        return &engines[i];
    }
    size_t off = (size_t)snprintf(err, errlen, "unknown engine \"%s\" (available:", name);
    const char *sep = " ";
    for (size_t i = 0; i < NENGINES && off < errlen; i++) {
        if (!engines[i].create) continue;
        off += (size_t)snprintf(err + off, errlen - off, "%s%s", sep, engines[i].name);
        sep = ", ";
    }
    if (off < errlen) snprintf(err + off, errlen - off, ")");
    *rc = GV_EUSAGE;
    return NULL;
}

int sim_engine_check(const char *name, char *err, size_t errlen)
{
    int rc;
    lookup(name, err, errlen, &rc);
    return rc;
}

int sim_engine_new(const char *name, struct sim_engine **out, char *err, size_t errlen)
{
    int rc;
    *out = NULL;
    const struct engine_entry *en = lookup(name, err, errlen, &rc);
    return en ? en->create(out, err, errlen) : rc;
}

int sim_engine_one_per_process(const char *name)
{
    for (size_t i = 0; i < NENGINES; i++)
        if (!strcmp(engines[i].name, name)) return engines[i].one_per_process;
    return 0;
}
