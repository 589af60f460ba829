/* simulate.c - engine + VM + metrics in one call (simulate.h). */
#include "simulate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../sim/engines.h"
#include "../sim/evlog.h"
#include "estimate.h"
#include "vm.h"

int simulate_layout(const struct vm *vm, struct run_layout *lay)
{
    memset(lay, 0, sizeof *lay);
    const char **th = calloc((size_t)(vm->nthreads ? vm->nthreads : 1), sizeof *th);
    const char **ra = calloc((size_t)(vm->nractors ? vm->nractors : 1), sizeof *ra);
    if (!th || !ra) {
        free(th);
        free(ra);
        return GV_ENOMEM;
    }
    for (int i = 0; i < vm->nthreads; i++) th[i] = vm->threads[i].core.name;
    for (int r = 0; r < vm->nractors; r++) ra[r] = vm->ractors[r].core.name;
    lay->scenario = vm->scn->name;
    lay->policy = scn_policy_name(vm->scn->runtime.gvl_policy);
    lay->seed = vm->scn->seed;
    lay->ncores = vm->mach.ncores;
    lay->nthreads = vm->nthreads;
    lay->thread_names = th;
    lay->nractors = vm->nractors;
    lay->ractor_names = ra;
    return GV_OK;
}

void simulate_layout_free(struct run_layout *lay)
{
    free((void *)lay->thread_names);
    free((void *)lay->ractor_names);
    memset(lay, 0, sizeof *lay);
}

int simulate_run(const struct scenario *scn, const struct simulate_opts *o, struct run_metrics *m,
                 char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    sim_time max_time = o->max_time > 0 ? o->max_time : 3600 * SIM_S;
    if (!o->force) {
        double ev = estimate_events(scn, max_time);
        if (ev > ESTIMATE_MAX_EVENTS) {
            char host[64];
            double s = ev / ESTIMATE_EVENTS_PER_S;
            if (s < 3600) snprintf(host, sizeof host, "%.0f minutes", s / 60);
            else if (s < 2 * 86400) snprintf(host, sizeof host, "%.1f hours", s / 3600);
            else if (s < 2 * 365 * 86400.0) snprintf(host, sizeof host, "%.0f days", s / 86400);
            else snprintf(host, sizeof host, "%.1g years", s / (365 * 86400.0));
            return gv_fail(err, errlen, GV_EINVAL,
                           "%s: this run would take about %.2g engine events, roughly %s of host time "
                           "(at %.0fM events/s), beyond the %.0g that gvlsim runs without asking: "
                           "shorten it (loop counts, stop.time, --max-time) or pass --force",
                           scn->file, ev, host, ESTIMATE_EVENTS_PER_S / 1e6, ESTIMATE_MAX_EVENTS);
        }
    }
    struct sim_engine *eng = NULL;
    int rc = sim_engine_new(o->engine, &eng, err, errlen);
    if (rc != GV_OK) return rc;
    if (o->event_log) {
        struct sim_engine *logged;
        rc = sim_evlog_wrap(eng, o->event_log, &logged, err, errlen);
        if (rc != GV_OK) {
            sim_destroy(eng);
            return rc;
        }
        eng = logged;
    }
    struct vm vm;
    rc = vm_init(&vm, scn, eng, err, (unsigned)errlen);
    if (rc != GV_OK) {
        sim_destroy(eng);
        return rc;
    }
    if (o->setup) rc = o->setup(o->ctx, &vm, err, errlen);
    if (rc == GV_OK) {
        rc = vm_run(&vm, max_time, err, (unsigned)errlen);
        if (rc == GV_OK) rc = vm_collect(&vm, m);
        if (rc == GV_ENOMEM) gv_fail(err, errlen, rc, "out of memory collecting the metrics");
        if (o->finish) {
            char herr[GV_ERRLEN];
            int hrc = o->finish(o->ctx, &vm, rc, rc == GV_OK ? vm.end_time : sim_now(eng), herr,
                                sizeof herr);
            if (rc == GV_OK && hrc != GV_OK) {
                rc = hrc;
                snprintf(err, errlen, "%s", herr);
            }
        }
        if (rc != GV_OK) run_metrics_free(m);
    }
    vm_free(&vm);
    sim_destroy(eng);
    return rc;
}
