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

/* ---- the native engine's common insertion, inline ----------------------
 * Scheduling is the most frequent engine call (more than one per event).
 * For the native engine (sim/engine_heap.c), its common case - a free
 * slot, the small sorted array with room to spare - is compiled into the
 * caller instead of an indirect call (about 9 fewer instructions per event
 * on the ping-pong); every other case, and every other engine, goes
 * through ops->at.  Its state is declared here for that alone: models
 * never read it. */

struct sim_heap_entry {
    sim_time t;
    uint64_t key;        /* sequence << SIM_HEAP_SLOT_BITS | slot: the event id */
};

struct sim_heap_slot {
    sim_handler h;
    void *obj;
    uint64_t arg;
    uint64_t seq;        /* sequence of the event held; 0 while free */
    uint32_t next_free;  /* free-list link while free */
};

struct sim_heap {
    struct sim_engine base;
    struct sim_heap_entry *heap;  /* a sorted array (small) or a binary heap */
    uint32_t n, cap;
    int small;                    /* heap[] is sorted in descending order */
    /* the inline insertion's limit: while small, it takes the array up to
     * this many entries (the small mode's maximum, within cap); 0 in heap
     * mode */
    uint32_t small_room;
    struct sim_heap_slot *slots;
    uint32_t nslots, slots_cap, free_head;
    uint64_t seq;
    int oom;  /* an allocation failed in at(): run() reports it */
};

#define SIM_HEAP_SLOT_BITS 24
#define SIM_HEAP_MAX_SEQ (UINT64_C(1) << (64 - SIM_HEAP_SLOT_BITS))
#define SIM_HEAP_FREE_END UINT32_MAX

extern const struct sim_engine_ops sim_heap_ops;

/* Fill free slot s with an event under the next sequence number; its
 * key (the event id). */
static inline uint64_t sim_heap_fill(struct sim_heap *he, uint32_t s, sim_handler h, void *obj, uint64_t arg)
{
    uint64_t seq = ++he->seq;
    struct sim_heap_slot *sl = &he->slots[s];
    sl->h = h;
    sl->obj = obj;
    sl->arg = arg;
    sl->seq = seq;
    return (seq << SIM_HEAP_SLOT_BITS) | s;
}

/* Put (t, key) into the small array a[0..n-1] (descending, room for one
 * more).  key is the newest, larger than every pending one: it goes after
 * every entry due at the same time, so times alone decide. */
static inline void sim_heap_small_insert(struct sim_heap_entry *a, uint32_t n, sim_time t, uint64_t key)
{
    uint32_t i = n;
    while (i > 0 && a[i - 1].t <= t) {
        a[i] = a[i - 1];
        i--;
    }
    a[i].t = t;
    a[i].key = key;
}

/* (No test of the free list here: while the array is small it never runs
 * dry - engine_heap.c, sim_heap_create.) */
static inline sim_event_id sim_heap_at(struct sim_engine *e, sim_time t, sim_handler h,
                                       void *obj, uint64_t arg)
{
    struct sim_heap *he = (struct sim_heap *)e;
    uint32_t n = he->n;
    if (__builtin_expect(n >= he->small_room || he->seq + 1 >= SIM_HEAP_MAX_SEQ, 0))
        return e->ops->at(e, t, h, obj, arg);
    uint32_t s = he->free_head;
    he->free_head = he->slots[s].next_free;
    uint64_t key = sim_heap_fill(he, s, h, obj, arg);
    sim_heap_small_insert(he->heap, n, t, key);
    he->n = n + 1;
    e->pending++;
    return key;
}

/* Schedule at time t, which is not before now. */
static inline sim_event_id sim_at_checked(struct sim_engine *e, sim_time t, sim_handler h,
                                          void *obj, uint64_t arg)
{
    if (e->ops == &sim_heap_ops) return sim_heap_at(e, t, h, obj, arg);
    return e->ops->at(e, t, h, obj, arg);
}

static inline sim_event_id sim_at(struct sim_engine *e, sim_time t,
                                  sim_handler h, void *obj, uint64_t arg)
{
    return sim_at_checked(e, t < e->now ? e->now : t, h, obj, arg);
}

/* dt from now; a time beyond the range is the end of time (never reached
 * before a run's time limit), not an overflow. */
static inline sim_event_id sim_after(struct sim_engine *e, sim_time dt,
                                     sim_handler h, void *obj, uint64_t arg)
{
    sim_time t;  /* (now >= 0: only a dt > 0 can overflow, a dt < 0 is now) */
    if (__builtin_add_overflow(e->now, dt, &t)) t = SIM_TIME_MAX;
    else if (dt < 0) t = e->now;
    return sim_at_checked(e, t, h, obj, arg);
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
