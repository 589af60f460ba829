/* metrics.c - names of the per-thread states (CSV column stems). */
#include "metrics.h"

#include <stdlib.h>
#include <string.h>

const char *thread_state_name(enum thread_state s)
{
    static const char *const names[TS_COUNT] = {
        [TS_RUNNING] = "running",
        [TS_WANTS_GVL] = "wants_gvl",
        [TS_BLOCKING] = "blocking",
        [TS_PARKED] = "parked",
        [TS_SLEEPING] = "sleeping",
        [TS_BARRIER_INIT] = "barrier_init",
        [TS_BARRIER_JOIN] = "barrier_join",
        [TS_VMLOCK_WAIT] = "vmlock_wait",
        [TS_WANTS_SNT] = "wants_snt",
        [TS_GC] = "gc",
    };
    return (unsigned)s < TS_COUNT ? names[s] : "dead";
}

void run_metrics_free(struct run_metrics *m)
{
    free(m->ractor_ops);
    free(m->measures);
    free(m->fair_threads);
    memset(m, 0, sizeof *m);
}
