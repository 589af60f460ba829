/* evlog.c - the event-log wrapper engine (see evlog.h).
 *
 * The wrapper schedules a trampoline on the inner engine for every event,
 * with the event's slot in the wrapper as its argument; the trampoline
 * copies the inner engine's clock, writes the line and calls the model's
 * handler.  A stop asked of the wrapper is passed on to the inner engine
 * right after the handler, which is when the inner engine checks it. */
#include "evlog.h"

#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/hmap.h"

#define SLOT_BITS 24
#define SLOT_MASK ((UINT64_C(1) << SLOT_BITS) - 1)
#define FREE_END UINT32_MAX

struct ev_slot {
    sim_handler h;
    void *obj;
    uint64_t arg;
    sim_event_id inner;  /* the trampoline's id in the inner engine */
    uint64_t seq;        /* 0 while free */
    uint32_t next_free;
};

struct handler_name {
    sim_handler h;
    char name[64];
};

struct evlog {
    struct sim_engine base;
    struct sim_engine_ops ops;  /* the wrapper's, named after the inner engine */
    struct sim_engine *inner;
    FILE *f;
    int own_file;
    struct ev_slot *slots;
    uint32_t nslots, cap, free_head;
    uint64_t seq;
    int oom;
    struct hmap objs;           /* object address -> number in order of first appearance */
    struct handler_name names[64];
    int nnames;
};

static const char *handler_name(struct evlog *l, sim_handler h)
{
    for (int i = 0; i < l->nnames; i++)
        if (l->names[i].h == h) return l->names[i].name;
    static const char unknown[] = "?";
    if (l->nnames == (int)(sizeof l->names / sizeof l->names[0])) return unknown;
    struct handler_name *n = &l->names[l->nnames++];
    n->h = h;
    Dl_info di;
    void *addr;
    memcpy(&addr, &h, sizeof addr);  /* a function's address, as POSIX dladdr takes it */
    struct link_map *lm = NULL;
    int found = dladdr1(addr, &di, (void **)&lm, RTLD_DL_LINKMAP);
    if (found && di.dli_sname && di.dli_saddr == addr)
        snprintf(n->name, sizeof n->name, "%s", di.dli_sname);
    else if (found && lm)
        /* less the load bias (l_addr), not the file's base: the address
         * addr2line takes, which in a non-PIE executable is the address
         * itself (there dli_fbase is its first segment's, 0x400000) */
        snprintf(n->name, sizeof n->name, "+0x%" PRIxPTR, (uintptr_t)addr - (uintptr_t)lm->l_addr);
    else
        snprintf(n->name, sizeof n->name, "%p", addr);
    return n->name;
}

/* The number of `obj`, given on its first appearance; 0 if out of memory. */
static uint32_t object_number(struct evlog *l, void *obj)
{
    int32_t *n = hmap_slot(&l->objs, (uint64_t)(uintptr_t)obj);
    if (!n) {
        l->oom = 1;
        return 0;
    }
    if (*n == HMAP_NONE) *n = (int32_t)l->objs.count;  /* the count includes it */
    return (uint32_t)*n;
}

static void slot_release(struct evlog *l, uint32_t s)
{
    l->slots[s].seq = 0;
    l->slots[s].next_free = l->free_head;
    l->free_head = s;
}

static void trampoline(void *obj, uint64_t arg)
{
    struct evlog *l = obj;
    struct ev_slot s = l->slots[arg];
    slot_release(l, (uint32_t)arg);
    l->base.now = l->inner->now;
    l->base.pending = l->inner->pending;
    l->base.fired++;
    fprintf(l->f, "%" PRIu64 " %" PRId64 " %s o%" PRIu32 "\n", l->base.fired, l->base.now,
            handler_name(l, s.h), object_number(l, s.obj));
    s.h(s.obj, s.arg);
    if (l->base.stop) sim_stop(l->inner);
}

static sim_event_id evlog_at(struct sim_engine *e, sim_time t, sim_handler h, void *obj, uint64_t arg)
{
    struct evlog *l = (struct evlog *)e;
    uint32_t s = l->free_head;
    if (s != FREE_END) {
        l->free_head = l->slots[s].next_free;
    } else {
        if (l->nslots == l->cap) {
            uint32_t cap = l->cap ? 2 * l->cap : 1024;
            struct ev_slot *ns = cap <= (UINT32_C(1) << SLOT_BITS) ? realloc(l->slots, (size_t)cap * sizeof *ns)
                                                                 : NULL;
            if (!ns) {
                l->oom = 1;
                sim_stop(e);
                return 0;
            }
            l->slots = ns;
            l->cap = cap;
        }
        s = l->nslots++;
    }
    sim_event_id in = l->inner->ops->at(l->inner, t, trampoline, l, s);
    l->base.pending = l->inner->pending;
    if (!in) {
        slot_release(l, s);
        l->oom = 1;
        sim_stop(e);
        return 0;
    }
    uint64_t seq = ++l->seq;
    l->slots[s] = (struct ev_slot){ h, obj, arg, in, seq, FREE_END };
    return (seq << SLOT_BITS) | s;
}

static int evlog_cancel(struct sim_engine *e, sim_event_id id)
{
    struct evlog *l = (struct evlog *)e;
    uint32_t s = (uint32_t)(id & SLOT_MASK);
    if (s >= l->nslots || l->slots[s].seq != (id >> SLOT_BITS)) return 0;
    int rc = l->inner->ops->cancel(l->inner, l->slots[s].inner);
    slot_release(l, s);
    l->base.pending = l->inner->pending;
    return rc;
}

static int evlog_run(struct sim_engine *e, sim_time until, char *err, unsigned errlen)
{
    struct evlog *l = (struct evlog *)e;
    e->stop = 0;
    int rc = l->inner->ops->run(l->inner, until, err, errlen);
    l->base.pending = l->inner->pending;
    if (rc != GV_OK) return rc;
    if (l->oom) return gv_fail(err, errlen, GV_ENOMEM, "event log: out of memory");
    if (fflush(l->f) != 0 || ferror(l->f))
        return gv_fail(err, errlen, GV_EIO, "event log: write failed: %s", strerror(errno));
    return GV_OK;
}

static void evlog_destroy(struct sim_engine *e)
{
    struct evlog *l = (struct evlog *)e;
    sim_destroy(l->inner);
    if (l->own_file) fclose(l->f);
    else fflush(l->f);
    free(l->slots);
    hmap_free(&l->objs);
    free(l);
}

int sim_evlog_wrap(struct sim_engine *inner, const char *path, struct sim_engine **out, char *err,
                   size_t errlen)
{
    *out = NULL;
    struct evlog *l = calloc(1, sizeof *l);
    if (!l) return gv_fail(err, errlen, GV_ENOMEM, "event log: out of memory");
    if (!strcmp(path, "-")) {
        l->f = stdout;
    } else {
        l->f = fopen(path, "w");
        if (!l->f) {
            int rc = gv_fail(err, errlen, GV_EIO, "event log %s: %s", path, strerror(errno));
            free(l);
            return rc;
        }
        l->own_file = 1;
    }
    l->ops = (struct sim_engine_ops){ inner->ops->name, evlog_at, evlog_cancel, evlog_run, evlog_destroy };
    l->base.ops = &l->ops;
    l->base.now = inner->now;
    l->base.fired = inner->fired;
    l->base.pending = inner->pending;
    l->inner = inner;
    l->free_head = FREE_END;
    *out = &l->base;
    return GV_OK;
}
