/* sensitivity.h - how far a machine profile's measurements let its keys
 * move: the variants behind `gvlsim validate --sensitivity`.
 *
 * A profile that `gvlsim calibrate` wrote keeps, in its "calibration"
 * section, every measurement's median and quartiles (q1, q3); each key was
 * derived from medians by calib_map (exec/calib_map.c).  A variant moves
 * one measurement to its q1 (or its q3), derives the keys again with the
 * same calib_map, and keeps the keys that changed: what the profile would
 * say had that measurement come out at the edge of its interquartile
 * range.  Moving measurements rather than keys keeps each derivation
 * whole: context_switch is yield_switch_ns - syscall_getpid_ns, and has no
 * quartiles of its own; a move of syscall_getpid_ns moves context_switch
 * and syscalls.getpid together, as a profile measured so would have them.
 *
 * Not varied, and said so (sens_plan.notes): a key whose value in the
 * profile is not what calib_map derives from the calibration's medians (a
 * hand-edited key, or one calibrated in another run), and a key the user
 * sets anyway (sens_plan_drop_key); and a key the calibration measured
 * from something other than a median - the lists and rates derived from a
 * run's samples (hidden_steal_rate, hidden_steal_len, futex_wait_window,
 * futex_wake_race, cond_wait_section, wake_waking) and the speed levels'
 * keys: calib_map does not write them from the medians alone, so they
 * never vary, and the note names those the profile has (a figure can turn
 * on one: the hot_steal mtime loop on futex_wait_window, docs/validate.md).
 */
#ifndef CLI_SENSITIVITY_H
#define CLI_SENSITIVITY_H

#include <stdbool.h>

#include "../common/diag.h"

struct sens_variant {
    const char *measurement;   /* the measurement moved (static: calib_describe's name) */
    bool high;                 /* to its q3 (else its q1) */
    double at;                 /* the value it moved to */
    int nsets;
    char **sets;               /* "machine.KEY=VALUE", the keys that changed */
    char keys[512];            /* their names, space-separated ("wake_idle_core wake_idle_extra") */
};

struct sens_plan {
    int nvar;
    struct sens_variant *var;  /* measurement by measurement (calib.h's order), q1 then q3 */
    int nmeasured;             /* measurements with quartiles in the calibration */
    char notes[1024];          /* what is not varied and why ("" if all is) */
};

/* The variants of the profile in `file` (a profile as scn_load found it).
 * GV_OK; GV_EINVAL with "file:line:col: /pointer: message" in d (no
 * calibration section, a measurement whose quartiles do not bracket its
 * median, one named twice); GV_EIO (unreadable); GV_ENOMEM.  On failure
 * `out` holds nothing to free. */
int sens_plan_make(const char *file, struct sens_plan *out, struct diag_list *d);

/* Leave KEY ("syscalls.stat") out of every variant (the user sets it; a
 * variant would override the user's value); a variant left with no key is
 * dropped.  GV_OK or GV_ENOMEM. */
int sens_plan_drop_key(struct sens_plan *p, const char *key);

/* Drop every variant none of whose keys `read` says the simulation reads
 * (a per-call cost no op takes, the GC's keys where nothing allocates:
 * the variant would simulate what the profile does); the dropped
 * measurements' names are appended to `note` (space-separated).  Returns
 * how many were dropped. */
int sens_plan_drop_unread(struct sens_plan *p, bool (*read)(const char *key, void *ctx), void *ctx, char *note,
                          size_t cap);

void sens_plan_free(struct sens_plan *p);

#endif
