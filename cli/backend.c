/* backend.c - the table of backends (backend.h). */
#include "backend.h"

#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "../exec/exec.h"
#include "../exec/ruby_run.h"
#include "../models/simulate.h"

static int run_sim(const struct scenario *scn, const struct backend_opts *o, struct backend_result *r,
                   char *err, size_t errlen)
{
    struct simulate_opts so = { .engine = o->engine, .max_time = o->max_time, .force = o->force };
    memset(r, 0, sizeof *r);
    return simulate_run(scn, &so, &r->m, err, errlen);
}

/* A real backend's report hands its metrics to r: r owns the per-Ractor
 * counts and the measures from then on (the report, freed next, no
 * longer points at them). */
static void take_metrics(struct backend_result *r, struct run_metrics *m, uint64_t **ractor_ops_buf)
{
    r->m = *m;
    *ractor_ops_buf = NULL;
    m->ractor_ops = NULL;
    m->measures = NULL;
    m->nmeasures = 0;
}

static int run_pthread(const struct scenario *scn, const struct backend_opts *o,
                       struct backend_result *r, char *err, size_t errlen)
{
    struct exec_opts eo = { .timeout_s = o->timeout_s, .max_spread = o->max_spread };
    struct exec_report rep;
    memset(r, 0, sizeof *r);
    int rc = exec_run(scn, &eo, &rep, err, errlen);
    if (rc == GV_OK) take_metrics(r, &rep.m, &rep.ractor_ops_buf);
    exec_report_free(&rep);
    return rc;
}

static int run_ruby(const struct scenario *scn, const struct backend_opts *o, struct backend_result *r,
                    char *err, size_t errlen)
{
    struct rrun_opts ro = { .ruby = o->ruby, .ruby_opts = o->ruby_opts, .nruby_opts = o->nruby_opts,
                            .timeout_s = o->timeout_s, .max_spread = o->max_spread };
    struct rrun_report rep;
    memset(r, 0, sizeof *r);
    int rc = rrun_run(scn, &ro, &rep, err, errlen);
    if (rc == GV_OK) {
        take_metrics(r, &rep.m, &rep.ractor_ops_buf);
        snprintf(r->engine, sizeof r->engine, "%s", rep.engine);  /* the Ruby's version string lives in r */
        r->m.engine = r->engine;
    }
    rrun_report_free(&rep);
    return rc;
}

static const struct backend backends[] = {
    { "sim", false, run_sim },
    { "pthread", true, run_pthread },
    { "ruby", true, run_ruby },
};

void backend_result_free(struct backend_result *r)
{
    run_metrics_free(&r->m);
}

const struct backend *backend_find(const char *name)
{
    for (size_t i = 0; i < sizeof backends / sizeof *backends; i++)
        if (strcmp(backends[i].name, name) == 0) return &backends[i];
    return NULL;
}

const char *backend_name(size_t i)
{
    return i < sizeof backends / sizeof *backends ? backends[i].name : NULL;
}
