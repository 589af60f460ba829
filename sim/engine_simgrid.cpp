/* engine_simgrid.cpp - gvlsim's event interface (sim/engine.h) on SimGrid
 * 3.32's kernel timers: the reference engine that checks the native heap.
 *
 * Built as a plugin, gvlsim-simgrid.so beside the gvlsim executable, that
 * sim/engines.c loads on `--engine simgrid`: linking libsimgrid (and the
 * two dozen libraries it pulls in) into gvlsim itself would cost every
 * command ~17 ms of start-up, measured on `gvlsim check` (0.9 -> 18 ms).
 * So this file uses nothing of gvlsim but headers.
 *
 * SimGrid orders its timers by date alone (a Fibonacci heap of (date,
 * timer) pairs), so five timers set for one date fire in no defined order.
 * gvlsim needs (time, insertion) order, so this engine keeps one SimGrid
 * timer per distinct date, each owning a FIFO bucket of gvlsim events;
 * events scheduled at the date being fired join its bucket and fire in the
 * same step.  SimGrid decides which date comes next; the bucket decides
 * the order within a date.
 *
 * Time: "now" stays an integer count of picoseconds; SimGrid's clock, a
 * double in seconds, only follows it.  A double tells 1 ps steps apart only
 * below 2^13 s, so two later dates may share one SimGrid date.  A firing
 * timer therefore drains every bucket at or below its own date, in order,
 * which keeps the order exact at any magnitude.  SimGrid moves its clock
 * by now + (date - now), which can land an ulp past the date; a date below
 * the clock trips an assertion, so dates are clamped to the clock.
 *
 * The run loop advances SimGrid one date at a time with run_until(date):
 * run_until(t) returns as soon as the clock is within 1e-5 s of t (leaving
 * timers in that window for later) and cannot be interrupted, so a longer
 * stride would neither stop at sim_stop() nor respect `until` exactly.
 *
 * Nothing SimGrid does is trusted blindly: a timer that fires while an
 * earlier date is still pending, or a run_until that does not fire the
 * date it was asked for, stops the run with an internal error. */
#include "engine_simgrid.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <vector>

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <xbt/log.h>

extern "C" {
#include "../common/err.h"
}

namespace {

using simgrid::kernel::timer::Timer;

constexpr int SLOT_BITS = 24;
constexpr uint64_t SLOT_MASK = (UINT64_C(1) << SLOT_BITS) - 1;
constexpr uint64_t MAX_SEQ = UINT64_C(1) << (64 - SLOT_BITS);
constexpr uint32_t FREE_END = UINT32_MAX;

/* A scheduled event.  Its id is seq << 24 | slot, as in the heap engine,
 * so a stale id (fired, cancelled, slot reused) is recognised. */
struct Slot {
    sim_handler h;
    void *obj;
    uint64_t arg;
    uint64_t seq;        /* 0 while free */
    sim_time t;
    uint32_t next_free;
};

struct Ref {
    uint32_t slot;
    uint64_t seq;        /* dead if the slot no longer holds it */
};

/* The events of one picosecond date, in insertion order. */
struct Bucket {
    std::vector<Ref> fifo;
    size_t head = 0;      /* next entry to fire */
    uint32_t live = 0;    /* entries not cancelled or fired */
    Timer *timer = nullptr;
    double date = 0;      /* the SimGrid date of `timer` */
};

struct State {
    simgrid::s4u::Engine *sg = nullptr;
    std::map<sim_time, Bucket> buckets;
    std::vector<Slot> slots;
    uint32_t free_head = FREE_END;
    uint64_t seq = 0;
    sim_time until = 0;
    sim_time draining = -1;  /* key of the bucket being fired, or -1 */
    bool oom = false;
    char broken[256] = "";   /* an internal error, reported by run() */
};

struct SgEngine {
    struct sim_engine base;
    State *st;
};

int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return code;
}

State &state(struct sim_engine *e) { return *reinterpret_cast<SgEngine *>(e)->st; }

double seconds(sim_time t) { return (double)t / 1e12; }

void fail_broken(struct sim_engine *e, State &s, const char *what, sim_time key, double date)
{
    if (!s.broken[0])
        snprintf(s.broken, sizeof s.broken, "%s (date %lld ps, SimGrid date %.17g s, clock %.17g s)",
                 what, (long long)key, date, simgrid::s4u::Engine::get_clock());
    e->stop = 1;
}

void on_timer(struct sim_engine *e, sim_time key);

/* Give bucket `key` its SimGrid timer, at its date or the clock if later. */
void arm(struct sim_engine *e, sim_time key, Bucket &b)
{
    double date = seconds(key);
    double clock = simgrid::s4u::Engine::get_clock();
    if (date < clock) date = clock;
    b.date = date;
    b.timer = Timer::set(date, [e, key] { on_timer(e, key); });
}

void erase_bucket(State &s, std::map<sim_time, Bucket>::iterator it)
{
    if (it->second.timer) it->second.timer->remove();
    s.buckets.erase(it);
}

void slot_release(State &s, uint32_t i)
{
    s.slots[i].seq = 0;
    s.slots[i].next_free = s.free_head;
    s.free_head = i;
}

/* Fire the live events of bucket `it` in order until it is empty or the
 * run is stopped.  Returns true if it was emptied (and erased). */
bool drain(struct sim_engine *e, State &s, std::map<sim_time, Bucket>::iterator it)
{
    sim_time key = it->first;
    Bucket &b = it->second;  /* stays valid: map nodes do not move */
    s.draining = key;
    while (b.head < b.fifo.size() && !e->stop) {
        Ref r = b.fifo[b.head++];
        Slot sl = s.slots[r.slot];
        if (sl.seq != r.seq) continue;  /* cancelled */
        slot_release(s, r.slot);
        b.live--;
        e->pending--;
        e->now = key;
        e->fired++;
        sl.h(sl.obj, sl.arg);
    }
    s.draining = -1;
    if (b.head < b.fifo.size()) return false;
    erase_bucket(s, it);
    return true;
}

/* The SimGrid timer of bucket `key` fired (SimGrid deletes it on return). */
void on_timer(struct sim_engine *e, sim_time key)
{
    State &s = state(e);
    auto own = s.buckets.find(key);
    if (own == s.buckets.end()) {
        fail_broken(e, s, "internal error: a SimGrid timer fired for a date with no bucket", key, -1);
        return;
    }
    own->second.timer = nullptr;
    double date = own->second.date;
    /* stopped, or past the horizon: the next run() sets a new timer */
    if (e->stop || key > s.until) return;
    for (;;) {
        auto it = s.buckets.begin();
        if (it == s.buckets.end() || it->first > key || e->stop) break;
        if (it->first != key && it->second.timer && it->second.date < date) {
            fail_broken(e, s, "SimGrid fired a timer while an earlier one was pending", it->first,
                        it->second.date);
            break;
        }
        if (!drain(e, s, it)) break;
    }
}

sim_event_id sg_at(struct sim_engine *e, sim_time t, sim_handler h, void *obj, uint64_t arg)
{
    State &s = state(e);
    try {
        if (s.seq + 1 >= MAX_SEQ) throw std::bad_alloc();
        uint32_t i;
        if (s.free_head != FREE_END) {
            i = s.free_head;
            s.free_head = s.slots[i].next_free;
        } else {
            if (s.slots.size() >= (size_t)1 << SLOT_BITS) throw std::bad_alloc();
            s.slots.push_back(Slot());
            i = (uint32_t)(s.slots.size() - 1);
        }
        uint64_t seq = ++s.seq;
        s.slots[i] = Slot{ h, obj, arg, seq, t, FREE_END };
        auto [it, fresh] = s.buckets.try_emplace(t);
        try {
            it->second.fifo.push_back(Ref{ i, seq });
            if (fresh) arm(e, t, it->second);
        } catch (...) {
            slot_release(s, i);
            if (fresh) s.buckets.erase(it);
            throw;
        }
        it->second.live++;
        e->pending++;
        return (seq << SLOT_BITS) | i;
    } catch (...) {
        s.oom = true;
        e->stop = 1;
        return 0;
    }
}

int sg_cancel(struct sim_engine *e, sim_event_id id)
{
    State &s = state(e);
    uint64_t i = id & SLOT_MASK;
    if (i >= s.slots.size() || s.slots[i].seq != (id >> SLOT_BITS)) return 0;
    sim_time t = s.slots[i].t;
    slot_release(s, (uint32_t)i);
    e->pending--;
    auto it = s.buckets.find(t);
    if (it != s.buckets.end() && --it->second.live == 0 && t != s.draining) erase_bucket(s, it);
    return 1;
}

int sg_run(struct sim_engine *e, sim_time until, char *err, unsigned errlen)
{
    State &s = state(e);
    e->stop = 0;
    s.until = until;
    /* buckets left without a timer by a stop or the previous horizon */
    for (auto &kv : s.buckets)
        if (!kv.second.timer && !s.oom) {
            try {
                arm(e, kv.first, kv.second);
            } catch (...) {
                s.oom = true;
            }
        }
    while (!e->stop && !s.oom && !s.broken[0]) {
        auto first = s.buckets.begin();
        if (first == s.buckets.end() || first->first > until) break;
        sim_time key = first->first;
        double date = first->second.date;
        if (!first->second.timer) {  /* would never fire: fail rather than spin */
            fail_broken(e, s, "internal error: the earliest date has no SimGrid timer", key, date);
            break;
        }
        /* run_until may stop an ulp short of the date: then go again */
        for (int tries = 0;; tries++) {
            double clock = simgrid::s4u::Engine::get_clock();
            s.sg->run_until(date > clock ? date : clock);
            auto b = s.buckets.find(key);
            if (b == s.buckets.end() || !b->second.timer || e->stop) break;
            if (simgrid::s4u::Engine::get_clock() >= date || tries == 3) {
                fail_broken(e, s, "SimGrid's run_until did not fire the timer it was run to", key, date);
                break;
            }
        }
    }
    if (s.oom)
        return fail(err, errlen, GV_ENOMEM, "SimGrid engine: out of memory (%llu events pending)",
                       (unsigned long long)e->pending);
    if (s.broken[0]) return fail(err, errlen, GV_ERUN, "SimGrid engine: %s", s.broken);
    return GV_OK;
}

void sg_destroy(struct sim_engine *e)
{
    SgEngine *se = reinterpret_cast<SgEngine *>(e);
    State *s = se->st;
    /* SimGrid's exit handlers crash on timers still pending */
    for (auto &kv : s->buckets)
        if (kv.second.timer) kv.second.timer->remove();
    delete s->sg;
    delete s;
    delete se;
}

const struct sim_engine_ops sg_ops = {
    "simgrid", sg_at, sg_cancel, sg_run, sg_destroy,
};

}  // namespace

extern "C" int sim_simgrid_create(struct sim_engine **out, char *err, size_t errlen)
{
    *out = nullptr;
    if (simgrid::s4u::Engine::is_initialized() || simgrid::s4u::Engine::get_clock() != 0.0)
        return fail(err, errlen, GV_EUNSUP,
                       "the SimGrid engine runs one simulation per process (SimGrid's clock is a "
                       "static of the process that a new engine does not reset)");
    SgEngine *se = nullptr;
    try {
        se = new SgEngine();
        se->base.ops = &sg_ops;
        se->st = new State();
        /* error, not critical: SimGrid logs its fatal errors at error */
        xbt_log_control_set("root.thres:error");
        static char arg0[] = "gvlsim";
        char *argv[] = { arg0, nullptr };
        int argc = 1;
        se->st->sg = new simgrid::s4u::Engine(&argc, argv);
        /* run_until seals the platform, which needs a root zone */
        simgrid::s4u::create_empty_zone("gvlsim")->seal();
    } catch (const std::exception &ex) {
        if (se) {
            if (se->st) delete se->st->sg;
            delete se->st;
        }
        delete se;
        return fail(err, errlen, GV_ENOMEM, "SimGrid engine: %s", ex.what());
    }
    *out = &se->base;
    return GV_OK;
}
