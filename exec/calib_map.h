/* calib_map.h - measurements -> machine-profile keys.
 *
 * One function, calib_map, derives every key a calibration can set from the
 * measurements and the host facts, each with a one-line derivation that
 * names the measurements and their values; a key whose measurement is
 * missing keeps the schema's default and says so.  docs/calibrate.md has
 * the same table in prose (a test checks they agree).
 */
#ifndef EXEC_CALIB_MAP_H
#define EXEC_CALIB_MAP_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/time.h"
#include "calib.h"
#include "calib_host.h"

#include "../common/curve.h"

enum calib_key_kind { CK_DUR, CK_INT, CK_NUM, CK_STR, CK_CURVE, CK_DURS, CK_NUMS };

struct calib_key {
    const char *name;          /* the profile key; "OBJECT.KEY" for a key of an object
                                * ("syscalls.stat"), written as "OBJECT": {"KEY": ...} */
    enum calib_key_kind kind;
    sim_time dur;              /* CK_DUR, ps */
    long long i;               /* CK_INT */
    double num;                /* CK_NUM */
    const char *str;           /* CK_STR (static) */
    struct gv_curve curve;     /* CK_CURVE; CK_DURS: its y[0..n) (a list of durations) */
    double nums[8];            /* CK_NUMS: a list of numbers, */
    int nnums;                 /* ... how many */
    bool measured;             /* from this run's measurements (false: a host fact or a default) */
    char how[480];             /* the derivation */
};

#define CALIB_MAX_KEYS 72

struct calib_profile {
    struct calib_key k[CALIB_MAX_KEYS];
    int n;
    bool overflow;  /* calib_map had more keys than CALIB_MAX_KEYS: the last ones overwrote each other (a bug) */
};

void calib_map(const struct calib_result *r, const struct calib_host *h, struct calib_profile *p);

/* Is `name` one of the keys `calibrate --only cache` writes (the cache
 * keys, cache_probe, and mutex_uncontended, half of sched_lock_cs)? */
bool calib_is_cache_key(const char *name);
/* The cache keys but cache_probe and mutex_uncontended, named in buf
 * (`line_transfer, ..., line_store_batch`, `last` before the last one);
 * returns buf */
const char *calib_cache_keys(const char *last, char *buf, size_t size);
/* Is NAME a key of the Ruby measured (insn_time, method_work.CALL)? */
bool calib_is_ruby_key(const char *name);
/* The keys of the speed levels (`calibrate --only speed`). */
bool calib_is_speed_key(const char *name);

/* The lists of durations calib_map writes as the quantiles of one
 * measurement's samples, whose median that measurement records
 * (futex_wait_window, futex_wake_race, cond_wait_section, wake_waking,
 * hidden_steal_len):
 * that measurement's id for such a key, else -1 (speed_dwell, a mean of
 * runs, is none). */
int calib_list_source(const char *name);
/* Such a list after its measurement's median moved by `factor`: every
 * entry of y[0..n) times factor, rounded as calibrate rounds (3
 * significant digits), into *out (CK_DURS, measured).  false if `name` is
 * no such list or n is not 1..GV_CURVE_MAX. */
bool calib_list_scaled(const char *name, const sim_time *y, int n, double factor, struct calib_key *out);

/* The key named `name`, or NULL. */
const struct calib_key *calib_profile_key(const struct calib_profile *p, const char *name);

/* The key's value as JSON text would write it ("789ns", "3", "0.12",
 * "eevdf", [["100us", "0ns"], ["1ms", "12us"]], ["40us", "52us"]), into buf. */
void calib_key_value(const struct calib_key *k, char *buf, size_t size);

#endif
