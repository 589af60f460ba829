/* ruby_version.h - what each CRuby release does, for the runtime settings
 * gvlsim models: one table, each row with its source.
 *
 * Two users: the Ruby backend (exec/ruby_run.c) reports in the CSV what the
 * Ruby it ran actually does and refuses a scenario setting that Ruby cannot
 * honour; the loader turns the scenario key runtime.ruby ("3.1") into the
 * defaults of every version-dependent runtime key (explicit keys override
 * them).  The table is rendered into scenarios/README.md by
 * rver_render_markdown (a unit test checks the copy).
 */
#ifndef INPUT_RUBY_VERSION_H
#define INPUT_RUBY_VERSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "scenario.h"

/* A CRuby version; patch -1 when written as MAJOR.MINOR. */
struct rver {
    int major, minor, patch;
};

/* Parse "3.1", "3.1.2", "4.0.6" (a suffix after the numbers, as in
 * "3.4.0dev" or "3.3.0-preview1", is ignored).  0, or -1 if malformed. */
int rver_parse(const char *s, struct rver *v);
/* <0, 0, >0; a missing patch counts as 0 ("3.1" == "3.1.0"). */
int rver_cmp(const struct rver *a, const struct rver *b);
/* "3.1" or "3.1.2" into buf. */
void rver_format(const struct rver *v, char *buf, size_t len);

/* What the table says about one setting. */
enum rver_setting {
    RVS_GVL_POLICY,      /* value: enum scn_gvl_policy */
    RVS_INVARIANT,       /* value: enum scn_invariant_check with YJIT on (none with it off) */
    RVS_INSN_COUNTER,    /* value: enum scn_insn_counter of a build with a JIT (none without) */
    RVS_MN,              /* value: 1 if non-main Ractors run M:N on shared native threads */
    RVS_SNT_CAP,         /* value: enum scn_snt_cap */
    RVS_MAX_CPU,         /* value: default RUBY_MAX_CPU; 0 = the number of CPUs */
    RVS_QUANTUM_ENV,     /* value: 1 if RUBY_THREAD_TIMESLICE sets the quantum */
    RVS_POP_TIMEOUT,     /* value: 1 if Queue#pop(timeout:) exists */
    RVS_ALLOC_COUNTERS,  /* value: enum scn_alloc_counters */
    RVS_BOOT_OBJECTS,    /* value: objects live after boot (measured; 0 where not measured) */
    RVS_COUNT
};

struct rver_row {
    enum rver_setting setting;
    struct rver from;    /* first version with this value */
    struct rver until;   /* first version without it; major 0: still true */
    int value;
    const char *source;  /* where it comes from: file, function, commit, PR */
};

extern const struct rver_row rver_table[];
extern const int rver_nrows;

/* Every setting for one version. */
struct rver_facts {
    struct rver v;
    enum scn_gvl_policy gvl_policy;
    enum scn_invariant_check invariant_yjit;  /* with YJIT on; INVARIANT_NONE with it off */
    enum scn_insn_counter insn_counter_jit;   /* on builds with a JIT compiled in */
    bool mn;
    enum scn_snt_cap snt_cap;
    int max_cpu;                              /* 0: the number of CPUs */
    bool quantum_env;
    bool pop_timeout;
    enum scn_alloc_counters alloc_counters;
    int boot_objects;                         /* 0: not measured */
};

/* The oldest version the table covers (Ractors exist from 3.0). */
extern const struct rver rver_oldest;

/* Facts for v.  GV_OK, or GV_EUNSUP (older than rver_oldest). */
int rver_facts_of(const struct rver *v, struct rver_facts *f);

/* The runtime keys runtime.ruby sets, as a JSON object (NULL when out of
 * memory): gvl_policy, invariant_check (for `yjit`), insn_counter (a build
 * with YJIT, as release builds are), max_cpu (`cores` when the version's
 * default is the CPU count; 4096 before M:N, which no Ractor count reaches),
 * snt_cap, alloc_counters, gc_boot_objects. */
cJSON *rver_preset(const struct rver_facts *f, bool yjit, int cores);

/* The table as the Markdown of scenarios/README.md ("Ruby versions"). */
void rver_render_markdown(FILE *f);

#endif
