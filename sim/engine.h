/* engine.h - the one interface between models and a discrete-event engine.
 *
 * Models (the models/ files) and the machine (sim/machine.c) schedule callbacks at
 * absolute simulated times and cancel them; they never name an engine.  Two
 * engines implement this table: the native binary heap (sim/engine_heap.c,
 * the default) and SimGrid's kernel timers (sim/engine_simgrid.cpp, the
 * reference; docs/engines.md).  sim/engines.h creates them by name.
 *
 * Time is an int64 count of picoseconds (common/time.h).
 *
 * Ordering contract (every engine): events fire in (time, insertion
 * sequence) order, so events due at the same time fire in the order they
 * were scheduled (the libuv timer rule).  That makes runs deterministic.
 */
#ifndef SIM_ENGINE_H
#define SIM_ENGINE_H

#include <stdint.h>

#include "../common/time.h"

/* An event handler: `obj` is the model object, `arg` a small payload. */
typedef void (*sim_handler)(void *obj, uint64_t arg);

/* Handle of a scheduled event; 0 is "no event". */
typedef uint64_t sim_event_id;

struct sim_engine;

struct sim_engine_ops {
    const char *name;
    sim_event_id (*at)(struct sim_engine *e, sim_time t, sim_handler h,
                       void *obj, uint64_t arg);
    /* Returns 1 if the event was pending and is now cancelled, else 0. */
    int (*cancel)(struct sim_engine *e, sim_event_id id);
    /* Fire events until none remain, sim_stop() is called, or the next
     * event lies after `until`.  Returns GV_OK or a GV_E* code. */
    int (*run)(struct sim_engine *e, sim_time until, char *err, unsigned errlen);
    void (*destroy)(struct sim_engine *e);
};

struct sim_engine {
    const struct sim_engine_ops *ops;
    sim_time now;        /* time of the event being fired */
    uint64_t fired;      /* events fired so far (a CSV column) */
    uint64_t pending;    /* events scheduled and not yet fired/cancelled */
    int stop;            /* set by sim_stop(); run() returns after the current event */
};

static inline sim_time sim_now(const struct sim_engine *e) { return e->now; }

static inline sim_event_id sim_at(struct sim_engine *e, sim_time t,
                                  sim_handler h, void *obj, uint64_t arg)
{
    return e->ops->at(e, t < e->now ? e->now : t, h, obj, arg);
}

/* dt from now; a time beyond the range is the end of time (never reached
 * before a run's time limit), not an overflow. */
static inline sim_event_id sim_after(struct sim_engine *e, sim_time dt,
                                     sim_handler h, void *obj, uint64_t arg)
{
    if (dt < 0) dt = 0;
    return e->ops->at(e, dt > SIM_TIME_MAX - e->now ? SIM_TIME_MAX : e->now + dt, h, obj, arg);
}

static inline int sim_cancel(struct sim_engine *e, sim_event_id id)
{
    return id ? e->ops->cancel(e, id) : 0;
}

static inline void sim_stop(struct sim_engine *e) { e->stop = 1; }

static inline int sim_run(struct sim_engine *e, sim_time until, char *err,
                          unsigned errlen)
{
    return e->ops->run(e, until, err, errlen);
}

static inline void sim_destroy(struct sim_engine *e)
{
    if (e) e->ops->destroy(e);
}

#endif
