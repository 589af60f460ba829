/* schema.h - the scenario format as tables, and the validator.
 *
 * Each JSON object of the format is a table of keys (name, kind, required,
 * default, range, enum values, nested object, struct offset).  The
 * validator walks the whole tree against the tables and reports every
 * problem as "file:line:col: /json/pointer: message"; the builder
 * (build.c) reads the same tables for defaults and struct offsets, so a
 * key's default lives in exactly one place.  scenarios/README.md documents
 * these tables key by key.
 */
#ifndef INPUT_SCHEMA_H
#define INPUT_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "../common/diag.h"
#include "../common/time.h"
#include "jsonpos.h"

enum sch_kind {
    SCH_STRING,
    SCH_NAME,     /* a string of [A-Za-z0-9_.-]+ (queue names) */
    SCH_INT,      /* an exact integer in [min, max] */
    SCH_NUMBER,   /* a number in (0, dmax], or [0, dmax] with SCH_ZERO_OK, or [dmin, dmax], or
                   * [-dmax, dmax] with SCH_SIGNED */
    SCH_BOOL,
    SCH_DUR,      /* a plain duration in [min, max] ps */
    SCH_DIST,     /* a duration or a distribution object */
    SCH_ENUM,     /* one of `values` */
    SCH_TRUE,     /* must be true ("forever") */
    SCH_OBJECT,   /* keys in `obj` */
    SCH_ARRAY,    /* at least `min` objects described by `obj` */
    SCH_OPS,      /* a program: at least `min` ops */
    SCH_MACHINE,  /* a profile name or a machine object */
    SCH_QUEUE,    /* the name of a declared queue */
    SCH_MUTEX,    /* the name of a declared mutex */
    SCH_CONDVAR,  /* the name of a declared condition variable */
    SCH_MEASURE,  /* the name of a declared measure */
    SCH_MEASURE_OR_BOOL, /* true, false, or the name of a declared measure */
    SCH_TMPL,     /* the name of a thread template */
    SCH_DURS,     /* an array of at least `min` (and, if dmax > 0, at most dmax) durations in [0, max] */
    SCH_WEIGHTS,  /* an array of numbers >= 0 */
    SCH_CURVE,    /* an array of up to GV_CURVE_MAX [x, y] pairs of durations: x > 0 and strictly
                   * increasing, y in [0, max] (common/curve.h) */
    SCH_RUBY      /* a CRuby version known to input/ruby_version.c, string or number ("3.1", 3.4) */
};

#define SCH_REQUIRED 1u
#define SCH_POSITIVE 2u   /* SCH_DUR: must be > 0 (min is ignored) */
#define SCH_ZERO_OK 4u    /* SCH_NUMBER: 0 is allowed: [0, dmax] */
#define SCH_FREE_TEXT 8u  /* SCH_STRING: never printed, may hold control characters
                           * (other strings are names: printed in output and messages) */
#define SCH_SIGNED 16u    /* SCH_NUMBER: any sign: [-dmax, dmax] */
#define SCH_MACHINE_OK 32u /* SCH_DIST, SCH_DUR: also the string SCH_DUR_MACHINE (a syscall op's "dur":
                            * the machine's cost of its call, machine.syscalls; its "method_work": the
                            * machine's, machine.method_work) */
#define SCH_DUR_MACHINE "machine"

#define SCH_NOFF ((size_t)-1)   /* no struct field: the builder handles it */

#define SCH_INT_MAX 9007199254740992LL   /* 2^53: larger JSON integers are not exact */
#define SCH_MAX_ERRORS 100               /* diagnostics per file before giving up */
#define SCH_MAX_THREADS 1000000LL
#define SCH_MAX_RACTORS 100000LL

struct sch_obj;

struct sch_key {
    const char *name;
    enum sch_kind kind;
    unsigned flags;             /* SCH_REQUIRED, SCH_POSITIVE */
    const char *def;            /* default as written in JSON text, or NULL */
    int64_t min, max;           /* INT; DUR (ps); ARRAY/OPS: min = fewest elements */
    double dmax;                /* NUMBER; DURS: if > 0, the most values */
    double dmin;                /* NUMBER: if > 0, the least value (inclusive) */
    const char *const *values;  /* ENUM: NULL-terminated, in enum order */
    const struct sch_obj *obj;  /* OBJECT: its keys; ARRAY: the element */
    size_t off;                 /* field offset for the builder, or SCH_NOFF */
};

struct sch_obj {
    const char *what;           /* element noun for messages: "thread" */
    const struct sch_key *keys;
    int nkeys;
};

/* The machine keys (a scenario's "machine" object, with "profile") and the
 * same without "profile" (a profile file); runtime keys. */
extern const struct sch_obj sch_machine;
extern const struct sch_obj sch_machine_profile;
extern const struct sch_obj sch_runtime;
/* machine.syscalls: one duration key per call name of a syscall op that
 * costs CPU (every scn_call_names entry but "nanosleep"). */
extern const struct sch_obj sch_syscalls;
/* machine.method_work and method_work_after: one duration key per call
 * name whose Ruby method's work `gvlsim calibrate` measures ("stat";
 * File.write's "open_devnull", "write_devnull", "close"), before and after
 * the call. */
extern const struct sch_obj sch_method_work, sch_method_work_after, sch_method_after_idle;
/* The other objects, for their defaults. */
extern const struct sch_obj sch_scenario, sch_queue, sch_ractor, sch_thread, sch_generator;
const struct sch_obj *sch_op(int kind);   /* enum scn_op_kind */
const struct sch_obj *sch_dist(int kind); /* enum scn_dist_kind */

/* What the validator and the builder read. */
struct sch_doc {
    const cJSON *root;            /* the scenario, --set applied */
    const cJSON *profile;         /* the machine profile file's root, or NULL */
    const struct jpos_table *pos;
    const char *file;             /* scenario file name (nodes without a position) */
};

/* The machine's cost of the real call `call` (a scn_call_names name): the
 * scenario's machine.syscalls.CALL, else its profile file's, else NULL. */
const cJSON *sch_machine_syscall(const struct sch_doc *d, const char *call);
/* machine.KEY of the scenario, else of its profile file, else NULL. */
const cJSON *sch_machine_member(const struct sch_doc *d, const char *key);
/* The same for a Ruby method's figure by its call, machine.OBJ.CALL:
 * sch_method_work (its work before the call), sch_method_work_after (after
 * it), sch_method_after_idle (what it costs more first after an idle core). */
const cJSON *sch_machine_call_key(const struct sch_doc *d, const struct sch_obj *o, const char *call);

/* Validate everything; GV_OK, GV_EINVAL (diagnostics added) or GV_ENOMEM. */
int sch_validate(const struct sch_doc *d, struct diag_list *diags);

const struct sch_key *sch_find(const struct sch_obj *o, const char *name);
/* The key a --set path names ("machine.cores",
 * "ractors.0.threads.1.program.0.body.1.dur"), or NULL if the scenario
 * format has none; an op's key is looked up in every op kind. */
const struct sch_key *sch_path_key(const char *path);

/* Readers of values that passed validation (or of a key's default). */
int64_t sch_int(const struct jpos_table *pos, const cJSON *v);
sim_time sch_dur(const struct jpos_table *pos, const cJSON *v);
int64_t sch_default_int(const struct sch_key *k);
sim_time sch_default_dur(const struct sch_key *k);
int sch_enum_index(const char *const *values, const char *s);  /* -1 if absent */
/* The text of a runtime.ruby value: the string, or a number as written
 * (3.4 -> "3.4", in buf); NULL if neither. */
const char *sch_ruby_text(const struct jpos_table *pos, const cJSON *v, char *buf, size_t size);

/* Best "did you mean" candidate among n names (stride bytes apart, so a
 * table of structs whose first member is the name works too), or NULL. */
const char *sch_suggest(const char *given, const void *names, size_t n, size_t stride);

#endif
