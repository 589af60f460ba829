/* test_ruby_version.c - the CRuby version table (input/ruby_version.c):
 * version parsing, each release's facts, the table's own consistency, the
 * runtime.ruby preset as the loader applies it (explicit keys win, `asked`
 * records what was not a default), its positioned errors, and the copy of
 * the table the docs render (docs/data/ruby-versions.txt).
 *
 *   test_ruby_version --print-table   prints the table's Markdown
 *   (scripts/ruby_versions_doc.sh writes it to docs/data/ruby-versions.txt). */
#include <stdlib.h>
#include <unistd.h>

#include "../../common/err.h"
#include "../../input/load.h"
#include "../../input/ruby_version.h"
#include "test.h"

static struct rver ver(const char *s)
{
    struct rver v;
    ASSERT_EQ(rver_parse(s, &v), 0);
    return v;
}

static struct rver_facts facts(const char *s)
{
    struct rver v = ver(s);
    struct rver_facts f;
    ASSERT_EQ(rver_facts_of(&v, &f), GV_OK);
    return f;
}

static void test_parse(void)
{
    struct rver v = ver("3.1");
    ASSERT_EQ(v.major, 3);
    ASSERT_EQ(v.minor, 1);
    ASSERT_EQ(v.patch, -1);
    v = ver("3.1.2");
    ASSERT_EQ(v.patch, 2);
    v = ver("3.4.0dev");
    ASSERT_EQ(v.minor, 4);
    ASSERT_EQ(v.patch, 0);
    v = ver("3.3.0-preview1");
    ASSERT_EQ(v.patch, 0);
    const char *bad[] = { "", "3", "3.", ".1", "x3.1", "3.1.2.4", "3..1", "1000.1", "3.1.", "-3.1" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct rver w;
        if (rver_parse(bad[i], &w) != -1) fprintf(stderr, "    accepted \"%s\"\n", bad[i]);
        ASSERT_EQ(rver_parse(bad[i], &w), -1);
    }
    struct rver a = ver("3.1"), b = ver("3.1.0"), c = ver("3.1.1"), d = ver("3.10");
    ASSERT_EQ(rver_cmp(&a, &b), 0);
    ASSERT(rver_cmp(&a, &c) < 0);
    ASSERT(rver_cmp(&d, &c) > 0);
    char buf[16];
    rver_format(&a, buf, sizeof buf);
    ASSERT_STREQ(buf, "3.1");
    rver_format(&c, buf, sizeof buf);
    ASSERT_STREQ(buf, "3.1.1");
}

static void test_facts(void)
{
    struct rver old = ver("2.7");
    struct rver_facts f;
    ASSERT_EQ(rver_facts_of(&old, &f), GV_EUNSUP);

    f = facts("3.1.2");  /* Debian bookworm's */
    ASSERT_EQ(f.gvl_policy, GVL_POLICY_BARGING);
    ASSERT_EQ(f.invariant_yjit, INVARIANT_NONE);
    ASSERT_EQ(f.insn_counter_jit, COUNTER_NONE);
    ASSERT(!f.mn);
    ASSERT(!f.quantum_env);
    ASSERT(!f.pop_timeout);
    ASSERT(facts("3.2").pop_timeout);
    ASSERT_EQ(facts("3.2.9").gvl_policy, GVL_POLICY_BARGING);

    f = facts("3.3");
    ASSERT_EQ(f.gvl_policy, GVL_POLICY_EAGER);
    ASSERT_EQ(f.invariant_yjit, INVARIANT_NONE);
    ASSERT_EQ(f.insn_counter_jit, COUNTER_SHARED);
    ASSERT(f.mn);
    ASSERT_EQ(f.snt_cap, SNT_CAP_MINUS_ONE);
    ASSERT_EQ(f.max_cpu, 8);
    ASSERT(!f.quantum_env);

    f = facts("3.4.9");
    ASSERT_EQ(f.gvl_policy, GVL_POLICY_EAGER);
    ASSERT_EQ(f.invariant_yjit, INVARIANT_LOCK_BARRIER);
    ASSERT_EQ(f.insn_counter_jit, COUNTER_SHARED);
    ASSERT_EQ(f.snt_cap, SNT_CAP_MINUS_ONE);
    ASSERT(f.quantum_env);

    f = facts("4.0");
    ASSERT_EQ(f.gvl_policy, GVL_POLICY_EAGER);
    ASSERT_EQ(f.insn_counter_jit, COUNTER_NONE);
    ASSERT_EQ(f.snt_cap, SNT_CAP_EXACT);
    ASSERT_EQ(f.invariant_yjit, INVARIANT_LOCK_BARRIER);
    ASSERT_EQ(facts("4.0.5").gvl_policy, GVL_POLICY_EAGER);
    ASSERT_EQ(facts("4.0.6").gvl_policy, GVL_POLICY_HOT_STEAL);  /* PR 17751, the backport of 15840 */
    ASSERT_EQ(facts("4.0.6").max_cpu, 8);

    f = facts("4.1.0");
    ASSERT_EQ(f.gvl_policy, GVL_POLICY_HOT_STEAL);
    ASSERT_EQ(f.invariant_yjit, INVARIANT_LOCKLESS);
    ASSERT_EQ(f.max_cpu, 0);
}

/* Rows of one setting follow each other without gaps or overlaps, and
 * every row has a source. */
static void test_table(void)
{
    for (int s = 0; s < RVS_COUNT; s++) {
        const struct rver_row *prev = NULL;
        for (int i = 0; i < rver_nrows; i++) {
            const struct rver_row *r = &rver_table[i];
            ASSERT(r->source && strlen(r->source) > 10);
            if ((int)r->setting != s) continue;
            if (r->until.major) ASSERT(rver_cmp(&r->from, &r->until) < 0);
            if (prev) {
                ASSERT(prev->until.major != 0);
                ASSERT_EQ(rver_cmp(&prev->until, &r->from), 0);
            }
            prev = r;
        }
        ASSERT(prev != NULL);
        ASSERT_EQ(prev->until.major, 0);  /* the last row is open-ended */
    }
}

static int load_text(const char *json, const char *const *sets, int nsets, struct scenario *s,
                     struct diag_list *d)
{
    char path[] = "/tmp/gvlsim_rver_XXXXXX";
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    ASSERT_EQ(write(fd, json, strlen(json)), (long long)strlen(json));
    close(fd);
    diag_init(d);
    struct load_opts lo = { .sets = sets, .nsets = nsets };
    int rc = scn_load(path, &lo, s, d);
    unlink(path);
    return rc;
}

static struct scn_runtime runtime_of(const char *runtime_json, const char *set)
{
    char json[1024];
    snprintf(json, sizeof json,
             "{ \"machine\": { \"cores\": 6 }, \"runtime\": %s, \"ractors\": [ { \"threads\": [ { \"program\": [] } ] } ] }",
             runtime_json);
    struct scenario s;
    struct diag_list d;
    const char *sets[] = { set };
    int rc = load_text(json, sets, set ? 1 : 0, &s, &d);
    for (size_t i = 0; i < d.n; i++) fprintf(stderr, "    | %s\n", d.msgs[i]);
    ASSERT_EQ(rc, GV_OK);
    diag_free(&d);
    struct scn_runtime r = s.runtime;
    r.ruby = NULL;  /* freed with s */
    scenario_free(&s);
    return r;
}

#define BIT(k) (1u << (k))

static void test_preset(void)
{
    /* no preset: the table defaults, nothing asked */
    struct scn_runtime r = runtime_of("{}", NULL);
    ASSERT_EQ(r.gvl_policy, GVL_POLICY_EAGER);
    ASSERT_EQ(r.asked, 0);
    ASSERT(!r.yjit);
    /* an explicit key is asked */
    r = runtime_of("{ \"quantum\": \"50ms\" }", NULL);
    ASSERT_EQ(r.asked, BIT(RT_QUANTUM));
    /* 3.1: barging, no invariant, no counter, no M:N (a pool that never binds) */
    r = runtime_of("{ \"ruby\": \"3.1\" }", NULL);
    ASSERT_EQ(r.gvl_policy, GVL_POLICY_BARGING);
    ASSERT_EQ(r.invariant_check, INVARIANT_NONE);
    ASSERT_EQ(r.insn_counter, COUNTER_NONE);
    ASSERT_EQ(r.max_cpu, 4096);
    ASSERT_EQ(r.snt_cap, SNT_CAP_EXACT);
    ASSERT_EQ(r.quantum, 100 * SIM_MS);
    ASSERT_EQ(r.alloc_counters, ALLOC_COUNTERS_SHARED);
    ASSERT_EQ(r.gc_boot_objects, 17020);  /* measured on 3.1.2 */
    ASSERT_EQ(r.asked, BIT(RT_GVL_POLICY) | BIT(RT_INVARIANT_CHECK) | BIT(RT_INSN_COUNTER) | BIT(RT_MAX_CPU) |
                           BIT(RT_SNT_CAP) | BIT(RT_ALLOC_COUNTERS));
    /* YJIT on 3.1 changes nothing; on 3.4 an escape takes the lock and the barrier */
    r = runtime_of("{ \"ruby\": \"3.1\", \"yjit\": true }", NULL);
    ASSERT_EQ(r.invariant_check, INVARIANT_NONE);
    ASSERT(r.yjit);
    ASSERT(r.asked & BIT(RT_YJIT));
    r = runtime_of("{ \"ruby\": 3.4 }", "runtime.yjit=true");  /* a JSON number works too */
    ASSERT_EQ(r.gvl_policy, GVL_POLICY_EAGER);
    ASSERT_EQ(r.gc_boot_objects, 0);  /* not measured */
    ASSERT_EQ(r.invariant_check, INVARIANT_LOCK_BARRIER);
    ASSERT_EQ(r.insn_counter, COUNTER_SHARED);
    ASSERT_EQ(r.snt_cap, SNT_CAP_MINUS_ONE);
    ASSERT_EQ(r.max_cpu, 8);
    /* explicit keys override the preset */
    r = runtime_of("{ \"ruby\": \"3.3\", \"gvl_policy\": \"hot_steal\", \"max_cpu\": 12 }", NULL);
    ASSERT_EQ(r.gvl_policy, GVL_POLICY_HOT_STEAL);
    ASSERT_EQ(r.max_cpu, 12);
    ASSERT_EQ(r.insn_counter, COUNTER_SHARED);
    /* --set runtime.ruby=4.0.6 (a plain string) */
    r = runtime_of("{}", "runtime.ruby=4.0.6");
    ASSERT_EQ(r.gvl_policy, GVL_POLICY_HOT_STEAL);
    ASSERT_EQ(r.snt_cap, SNT_CAP_EXACT);
    /* 4.1: max_cpu is the number of CPUs (machine.cores) */
    r = runtime_of("{ \"ruby\": \"4.1\", \"yjit\": true }", NULL);
    ASSERT_EQ(r.max_cpu, 6);
    ASSERT_EQ(r.invariant_check, INVARIANT_LOCKLESS);
}

static void expect_error(const char *runtime_json, const char *set, const char *msg_tail)
{
    char json[512];
    snprintf(json, sizeof json, "{ \"runtime\": %s,\n  \"ractors\": [ { \"threads\": [ { \"program\": [] } ] } ] }",
             runtime_json);
    struct scenario s;
    struct diag_list d;
    const char *sets[] = { set };
    int rc = load_text(json, sets, set ? 1 : 0, &s, &d);
    ASSERT_EQ(rc, GV_EINVAL);
    ASSERT_EQ(d.n, 1);
    const char *colon = strchr(d.msgs[0], ':');  /* after the temporary file's name */
    ASSERT(colon != NULL);
    ASSERT_STREQ(set ? d.msgs[0] : colon + 1, msg_tail);
    diag_free(&d);
}

static void test_errors(void)
{
    expect_error("{ \"ruby\": \"2.7\" }", NULL,
                 "1:24: /runtime/ruby: Ruby 2.7 is older than the version table (3.0 and later: Ractors exist from 3.0)");
    expect_error("{ \"ruby\": \"three\" }", NULL,
                 "1:24: /runtime/ruby: bad Ruby version \"three\" (expected MAJOR.MINOR or MAJOR.MINOR.PATCH, e.g. \"3.1\")");
    expect_error("{ \"ruby\": true }", NULL,
                 "1:24: /runtime/ruby: expected a Ruby version such as \"3.1\" or \"3.4.2\", got true");
    expect_error("{ \"rubi\": \"3.1\" }", NULL, "1:16: /runtime/rubi: unknown key \"rubi\" (did you mean \"ruby\"?)");
    expect_error("{}", "runtime.ruby=3",
                 "--set[1]:1:14: /runtime/ruby: bad Ruby version \"3\" (expected MAJOR.MINOR or MAJOR.MINOR.PATCH, e.g. \"3.1\")");
}

/* docs/data/ruby-versions.txt, which the docs render into
 * scenarios/README.md (scripts/docs/tables/ruby_versions.awk), is the
 * table's current rendering. */
static void test_doc_table(void)
{
    char *want = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&want, &len);
    ASSERT(m != NULL);
    rver_render_markdown(m);
    fclose(m);
    FILE *f = fopen("docs/data/ruby-versions.txt", "r");
    ASSERT(f != NULL);
    static char doc[1 << 16];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = '\0';
    if (n != len || memcmp(doc, want, len) != 0)
        fprintf(stderr, "    docs/data/ruby-versions.txt is stale: run scripts/ruby_versions_doc.sh\n");
    ASSERT_EQ(n, len);
    ASSERT(memcmp(doc, want, len) == 0);
    free(want);
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--print-table")) {
        rver_render_markdown(stdout);
        return 0;
    }
    RUN(test_parse);
    RUN(test_facts);
    RUN(test_table);
    RUN(test_preset);
    RUN(test_errors);
    RUN(test_doc_table);
    TEST_DONE();
}
