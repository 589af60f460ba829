/* ruby_version.c - the CRuby version table (see ruby_version.h).
 *
 * Each row was checked against the CRuby sources (ruby/ruby's files and
 * commits, read from its public mirror Shopify/ruby at the release tags
 * named) or the pull request it names.  Versions are release versions: a
 * development build between two releases may have either behaviour.
 */
#include "ruby_version.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"

#define V(a, b, c) { a, b, c }
#define NEVER { 0, 0, 0 }

const struct rver rver_oldest = V(3, 0, -1);

const struct rver_row rver_table[] = {
    { RVS_GVL_POLICY, V(3, 0, 0), V(3, 3, 0), GVL_POLICY_BARGING,
      "the GVL of 2.6-3.2 (thread_pthread.c gvl_acquire_common / gvl_release_common, per Ractor "
      "from 3.0): a release clears the owner and signals the first waiter, who competes" },
    { RVS_GVL_POLICY, V(3, 3, 0), V(4, 0, 6), GVL_POLICY_EAGER,
      "the M:N scheduler (be1bbd5b7d, v3_3_0): thread_sched_wakeup_next_thread hands the GVL to the "
      "head of the ready queue at every blocking-region entry; no runnable_hot_th in v3_3_11, "
      "v3_4_9 or v4.0.5" },
    { RVS_GVL_POLICY, V(4, 0, 6), NEVER, GVL_POLICY_HOT_STEAL,
      "PR 15840 (ddb8d353ac, master 2026-03-26), backported as PR 17751 (21a2595676, on the 4.0 "
      "branch after v4.0.5, 2026-07-09); 4.0.6 was released on 2026-07-14" },
    { RVS_INVARIANT, V(3, 0, 0), V(3, 4, 0), INVARIANT_NONE,
      "no env-escape invariant: vm_make_env_each calls no JIT hook (v3_3_0)" },
    { RVS_INVARIANT, V(3, 4, 0), V(4, 1, 0), INVARIANT_LOCK_BARRIER,
      "PR 10607 (2024-04-23): vm_make_env_each -> rb_yjit_invalidate_ep_is_bp -> with_vm_lock, "
      "the VM lock and a barrier on every escape (v3_4_0 yjit/src/invariants.rs, still in "
      "v4.0.5); nothing when YJIT is off (INVARIANTS is unset)" },
    { RVS_INVARIANT, V(4, 1, 0), NEVER, INVARIANT_LOCKLESS,
      "PR 18176 (master 2026-08-03): jit_ep_escape_recorded, a flag read without the lock" },
    { RVS_INSN_COUNTER, V(3, 0, 0), V(3, 3, 0), COUNTER_NONE, "no instruction counter" },
    { RVS_INSN_COUNTER, V(3, 3, 0), V(4, 0, 0), COUNTER_SHARED,
      "d814722fb8 (#8064): rb_vm_insns_count++ in every interpreted instruction of a build "
      "with YJIT or RJIT (vm_insnhelper.h JIT_COLLECT_USAGE_INSN, v3_3_0 to v3_4_9), one plain "
      "global uint64_t (bug #20489); YJIT-compiled code does not count" },
    { RVS_INSN_COUNTER, V(4, 0, 0), NEVER, COUNTER_NONE,
      "8cafa5b8ce: counted only in YJIT_STATS / ZJIT_STATS builds (v4.0.0); the thread-local "
      "counter of #12549 (50c2c4bdde) was never in a release" },
    { RVS_MN, V(3, 0, 0), V(3, 3, 0), 0, "no M:N: every Ruby thread has its own native thread" },
    { RVS_MN, V(3, 3, 0), NEVER, 1,
      "M:N threads for non-main Ractors (be1bbd5b7d, v3_3_0); RUBY_MN_THREADS=1 adds the main "
      "Ractor" },
    { RVS_SNT_CAP, V(3, 3, 0), V(4, 0, 0), SNT_CAP_MINUS_ONE,
      "snt_cnt counted the non-M:N main Ractor, so at most max_cpu - 1 shared native threads "
      "ran Ractors (bug #20146)" },
    { RVS_SNT_CAP, V(4, 0, 0), NEVER, SNT_CAP_EXACT,
      "7ac16eff31 (#14280, v4.0.0): min(Ractors, max_cpu) shared native threads" },
    { RVS_MAX_CPU, V(3, 3, 0), V(4, 1, 0), 8,
      "default_max_cpu = 8 in thread_pthread.c (RUBY_MAX_CPU overrides it; v3_3_0 to v4.0.5)" },
    { RVS_MAX_CPU, V(4, 1, 0), NEVER, 0,
      "e98f95b4fd (#17100, master 2026-06-06): the number of CPUs; not on the 4.0 branch" },
    { RVS_QUANTUM_ENV, V(3, 4, 0), NEVER, 1,
      "fffef9aa5d (v3_4_0): RUBY_THREAD_TIMESLICE sets the 100 ms quantum (whole milliseconds); "
      "before 3.4 it is the constant TIME_QUANTUM_MSEC" },
    { RVS_POP_TIMEOUT, V(3, 2, 0), NEVER, 1, "e3aabe93aa (Feature #18774, v3_2_0): Queue#pop(timeout:)" },
    { RVS_ALLOC_COUNTERS, V(3, 0, 0), V(4, 0, 0), ALLOC_COUNTERS_SHARED,
      "every allocation increments one shared count (gc.c newobj_init: "
      "`objspace->total_allocated_objects++` in v3_1_0, `size_pool->` in v3_3_0, `heap->` in "
      "v3_4_0 gc/default/default.c) and every malloc'd body adds to malloc_increase atomically "
      "(objspace_malloc_increase)" },
    { RVS_ALLOC_COUNTERS, V(4, 0, 0), NEVER, ALLOC_COUNTERS_LOCAL,
      "cb772247e7 (counts in each Ractor's newobj cache, added up at a page refill) and a773bbf0cc "
      "(small malloc/free changes tracked thread-locally), both in v4.0.0" },
    { RVS_BOOT_OBJECTS, V(3, 0, 0), V(3, 1, 0), 0, "not measured: no boot heap in the model" },
    { RVS_BOOT_OBJECTS, V(3, 1, 0), V(3, 2, 0), 17020,
      "measured: Debian's ruby 3.1.2 (rubygems loaded, as `ruby FILE` runs), `ruby -e 'GC.start; "
      "p GC.stat(:heap_live_slots)'`: 17,020 in each of 3 runs, 16,779 of them old" },
    { RVS_BOOT_OBJECTS, V(3, 2, 0), NEVER, 0, "not measured: no boot heap in the model" },
};
const int rver_nrows = (int)(sizeof rver_table / sizeof rver_table[0]);

int rver_parse(const char *s, struct rver *v)
{
    int part[3] = { 0, 0, -1 }, n = 0;
    const char *p = s;
    while (n < 3) {
        if (!isdigit((unsigned char)*p)) return -1;
        long x = 0;
        while (isdigit((unsigned char)*p)) {
            x = x * 10 + (*p++ - '0');
            if (x > 999) return -1;
        }
        part[n++] = (int)x;
        if (*p != '.' || n == 3) break;
        p++;
    }
    if (n < 2) return -1;
    /* a suffix ("dev", "-preview1", "p20") may follow, never another number */
    if (*p == '.' || (*p && isdigit((unsigned char)*p))) return -1;
    v->major = part[0];
    v->minor = part[1];
    v->patch = part[2];
    return 0;
}

int rver_cmp(const struct rver *a, const struct rver *b)
{
    if (a->major != b->major) return a->major < b->major ? -1 : 1;
    if (a->minor != b->minor) return a->minor < b->minor ? -1 : 1;
    int pa = a->patch < 0 ? 0 : a->patch, pb = b->patch < 0 ? 0 : b->patch;
    return pa < pb ? -1 : pa > pb;
}

void rver_format(const struct rver *v, char *buf, size_t len)
{
    if (v->patch < 0) snprintf(buf, len, "%d.%d", v->major, v->minor);
    else snprintf(buf, len, "%d.%d.%d", v->major, v->minor, v->patch);
}

static bool row_covers(const struct rver_row *r, const struct rver *v)
{
    return rver_cmp(v, &r->from) >= 0 && (r->until.major == 0 || rver_cmp(v, &r->until) < 0);
}

/* The value of `s` for v, or `dflt` when no row covers it. */
static int value_of(enum rver_setting s, const struct rver *v, int dflt)
{
    for (int i = 0; i < rver_nrows; i++)
        if (rver_table[i].setting == s && row_covers(&rver_table[i], v)) return rver_table[i].value;
    return dflt;
}

int rver_facts_of(const struct rver *v, struct rver_facts *f)
{
    memset(f, 0, sizeof *f);
    f->v = *v;
    if (rver_cmp(v, &rver_oldest) < 0) return GV_EUNSUP;
    f->gvl_policy = (enum scn_gvl_policy)value_of(RVS_GVL_POLICY, v, GVL_POLICY_EAGER);
    f->invariant_yjit = (enum scn_invariant_check)value_of(RVS_INVARIANT, v, INVARIANT_NONE);
    f->insn_counter_jit = (enum scn_insn_counter)value_of(RVS_INSN_COUNTER, v, COUNTER_NONE);
    f->mn = value_of(RVS_MN, v, 0) != 0;
    f->snt_cap = (enum scn_snt_cap)value_of(RVS_SNT_CAP, v, SNT_CAP_EXACT);
    f->max_cpu = value_of(RVS_MAX_CPU, v, 8);
    f->quantum_env = value_of(RVS_QUANTUM_ENV, v, 0) != 0;
    f->pop_timeout = value_of(RVS_POP_TIMEOUT, v, 0) != 0;
    f->alloc_counters = (enum scn_alloc_counters)value_of(RVS_ALLOC_COUNTERS, v, ALLOC_COUNTERS_LOCAL);
    f->boot_objects = value_of(RVS_BOOT_OBJECTS, v, 0);
    return GV_OK;
}

/* Before M:N every Ractor's thread has its own native thread: the
 * simulator's pool of shared native threads then must never bind. */
#define NO_MN_MAX_CPU 4096

cJSON *rver_preset(const struct rver_facts *f, bool yjit, int cores)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    int max_cpu = !f->mn ? NO_MN_MAX_CPU : f->max_cpu > 0 ? f->max_cpu : cores;
    bool ok = cJSON_AddStringToObject(o, "gvl_policy", scn_policy_name(f->gvl_policy)) &&
              cJSON_AddStringToObject(o, "invariant_check",
                                      scn_invariant_name(yjit ? f->invariant_yjit : INVARIANT_NONE)) &&
              cJSON_AddStringToObject(o, "insn_counter", scn_counter_name(f->insn_counter_jit)) &&
              cJSON_AddNumberToObject(o, "max_cpu", max_cpu) &&
              cJSON_AddStringToObject(o, "snt_cap", scn_snt_cap_name(f->mn ? f->snt_cap : SNT_CAP_EXACT)) &&
              cJSON_AddStringToObject(o, "alloc_counters", scn_alloc_counters_name(f->alloc_counters)) &&
              cJSON_AddNumberToObject(o, "gc_boot_objects", f->boot_objects);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static const char *const setting_names[RVS_COUNT] = {
    "`gvl_policy`", "`invariant_check` (YJIT on)", "`insn_counter` (build with YJIT)", "M:N threads",
    "`snt_cap`", "`max_cpu` default", "quantum settable", "`Queue#pop(timeout:)`", "`alloc_counters`",
    "`gc_boot_objects`",
};

static void value_text(const struct rver_row *r, char *buf, size_t len)
{
    switch (r->setting) {
    case RVS_GVL_POLICY: snprintf(buf, len, "`%s`", scn_policy_name((enum scn_gvl_policy)r->value)); break;
    case RVS_INVARIANT:
        snprintf(buf, len, "`%s`", scn_invariant_name((enum scn_invariant_check)r->value));
        break;
    case RVS_INSN_COUNTER:
        snprintf(buf, len, "`%s`", scn_counter_name((enum scn_insn_counter)r->value));
        break;
    case RVS_SNT_CAP: snprintf(buf, len, "`%s`", scn_snt_cap_name((enum scn_snt_cap)r->value)); break;
    case RVS_ALLOC_COUNTERS:
        snprintf(buf, len, "`%s`", scn_alloc_counters_name((enum scn_alloc_counters)r->value));
        break;
    case RVS_BOOT_OBJECTS: snprintf(buf, len, "%d", r->value); break;
    case RVS_MAX_CPU:
        if (r->value) snprintf(buf, len, "%d", r->value);
        else snprintf(buf, len, "CPUs");
        break;
    case RVS_MN:
    case RVS_QUANTUM_ENV:
    case RVS_POP_TIMEOUT:
    case RVS_COUNT: snprintf(buf, len, "%s", r->value ? "yes" : "no"); break;
    }
}

/* The presets of the release lines (and patch releases) that differ. */
static void render_presets(FILE *f)
{
    static const char *const lines[][2] = {
        { "3.0", "3.0 - 3.2" }, { "3.3", "3.3" }, { "3.4", "3.4" }, { "4.0", "4.0.0 - 4.0.5" },
        { "4.0.6", "4.0.6 and later 4.0" }, { "4.1", "4.1 (master)" },
    };
    fputs("| `ruby` | `gvl_policy` | `invariant_check` (`yjit` false / true) | `insn_counter` | `max_cpu` | "
          "`snt_cap` |\n|---|---|---|---|---|---|\n", f);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        struct rver v;
        struct rver_facts fa;
        if (rver_parse(lines[i][0], &v) != 0 || rver_facts_of(&v, &fa) != GV_OK) continue;
        char cpu[64];
        if (!fa.mn) snprintf(cpu, sizeof cpu, "%d (no M:N: the pool never binds)", NO_MN_MAX_CPU);
        else if (fa.max_cpu) snprintf(cpu, sizeof cpu, "%d", fa.max_cpu);
        else snprintf(cpu, sizeof cpu, "`machine.cores`");
        fprintf(f, "| %s | `%s` | `none` / `%s` | `%s` | %s | `%s` |\n", lines[i][1], scn_policy_name(fa.gvl_policy),
                scn_invariant_name(fa.invariant_yjit), scn_counter_name(fa.insn_counter_jit), cpu,
                scn_snt_cap_name(fa.mn ? fa.snt_cap : SNT_CAP_EXACT));
    }
}

void rver_render_markdown(FILE *f)
{
    render_presets(f);
    fputs("\nThe rows they come from, each with its source:\n\n", f);
    fputs("| setting | versions | value | source |\n|---|---|---|---|\n", f);
    for (int i = 0; i < rver_nrows; i++) {
        const struct rver_row *r = &rver_table[i];
        char from[16], until[16], val[64];
        rver_format(&r->from, from, sizeof from);
        value_text(r, val, sizeof val);
        if (r->until.major) {
            rver_format(&r->until, until, sizeof until);
            fprintf(f, "| %s | %s to before %s | %s | %s |\n", setting_names[r->setting], from, until,
                    val, r->source);
        } else {
            fprintf(f, "| %s | %s and later | %s | %s |\n", setting_names[r->setting], from, val,
                    r->source);
        }
    }
}
