/* engines.c - the engine registry (engines.h). */
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
/* The SimGrid engine is a plugin (see engine_simgrid.h), looked for beside
 * the executable (the build tree), then in ../lib/gvlsim relative to it
 * (`make install`).  It is never unloaded: SimGrid leaves exit handlers. */
static int simgrid_new(struct sim_engine **out, char *err, size_t errlen)
{
    static const char *const where[] = { "", "../lib/gvlsim/" };
    char exe[PATH_MAX], path[PATH_MAX + 64], tried[2 * PATH_MAX + 256] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return gv_fail(err, errlen, GV_EUNSUP, "SimGrid engine: cannot find the gvlsim executable");
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) slash[1] = 0;
    void *h = NULL;
    for (size_t i = 0; i < sizeof where / sizeof where[0] && !h; i++) {
        snprintf(path, sizeof path, "%s%s%s", slash ? exe : "", where[i], SIM_SIMGRID_PLUGIN);
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            size_t len = strlen(tried);
            snprintf(tried + len, sizeof tried - len, "%s%s", len ? "; " : "", dlerror());
        }
    }
    if (!h)
        return gv_fail(err, errlen, GV_EUNSUP,
                       "SimGrid engine: cannot load %s (%s); `make` builds it beside gvlsim when the "
                       "Debian package libsimgrid-dev is installed",
                       SIM_SIMGRID_PLUGIN, tried);
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
    if (!name) name = SIM_ENGINE_DEFAULT;
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
    size_t off = (size_t)snprintf(err, errlen, "unknown engine \"%s\" (known:", name);
    for (size_t i = 0; i < NENGINES && off < errlen; i++)
        off += (size_t)snprintf(err + off, errlen - off, "%s %s", i ? "," : "", engines[i].name);
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

int sim_engine_one_per_process(const char *name)
{
    for (size_t i = 0; i < NENGINES; i++)
        if (!strcmp(engines[i].name, name)) return engines[i].one_per_process;
    return 0;
}
