/* test_load.c - scn_load end to end: every error class with its exact
 * "file:line:col: /pointer: message", defaults, --set, machine profiles,
 * derived counts and a full round trip.  Run from the repository root. */
#include <stdlib.h>
#include <unistd.h>

#include "../../common/diag.h"
#include "../../common/err.h"
#include "../../core/cursor.h"
#include "../../input/jsonpos.h"
#include "../../input/load.h"
#include "../../input/units.h"
#include "test.h"

#define D "tests/data/"
#define BAD "tests/data/bad/"
/* the ops and the top-level keys, as the messages list them */
#define ALL_OPS "compute, syscall, queue_push, queue_pop, sleep, loop, env_escape, join, measure, branch, " \
                "mutex_lock, mutex_unlock, synchronize, cv_wait, cv_signal, cv_broadcast, spawn, alloc, gc"
#define ROOT_KEYS "name, description, seed, machine, runtime, queues, mutexes, condvars, measures, " \
                  "generators, ractors, stop, warmup"

static void dump(const struct diag_list *d)
{
    for (size_t i = 0; i < d->n; i++) fprintf(stderr, "    | %s\n", d->msgs[i]);
}

static int load_with(const char *file, const char *const *sets, int nsets, const char *mdir,
                     struct scenario *s, struct diag_list *d)
{
    struct load_opts o = { .sets = sets, .nsets = nsets, .machines_dirs = &mdir,
                           .nmachines_dirs = mdir ? 1 : 0 };
    diag_init(d);
    return scn_load(file, &o, s, d);
}

/* Load `file` with `sets`; expect GV_EINVAL and exactly the messages in
 * `want` (NULL-terminated), in order. */
static void expect_sets(const char *file, const char *const *sets, int nsets, const char *mdir,
                        const char *const *want)
{
    struct scenario s;
    struct diag_list d;
    int rc = load_with(file, sets, nsets, mdir, &s, &d);
    size_t n = 0;
    while (want[n]) n++;
    if (rc != GV_EINVAL || d.n != n) {
        fprintf(stderr, "%s: rc %d, %zu diagnostics, wanted %zu:\n", file, rc, d.n, n);
        dump(&d);
    }
    ASSERT_EQ(rc, GV_EINVAL);
    ASSERT_EQ(d.n, n);
    for (size_t i = 0; i < n; i++) ASSERT_STREQ(d.msgs[i], want[i]);
    diag_free(&d);
}

#define EXPECT(file, ...) expect_sets(file, NULL, 0, NULL, (const char *const[]){ __VA_ARGS__, NULL })
#define EXPECT_SET(file, set, ...) \
    expect_sets(file, (const char *const[]){ set }, 1, NULL, (const char *const[]){ __VA_ARGS__, NULL })

static void load_ok(const char *file, const char *const *sets, int nsets, const char *mdir,
                    struct scenario *s)
{
    struct diag_list d;
    int rc = load_with(file, sets, nsets, mdir, s, &d);
    if (rc != GV_OK) {
        fprintf(stderr, "%s: rc %d\n", file, rc);
        dump(&d);
    }
    ASSERT_EQ(rc, GV_OK);
    ASSERT_EQ(d.n, 0);
    diag_free(&d);
}

static char *write_temp(const char *content, size_t len)
{
    char *path = strdup("/tmp/gvlsim_test_XXXXXX");
    ASSERT(path);
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    ASSERT_EQ(write(fd, content, len), (long long)len);
    close(fd);
    return path;
}

/* ---- one test per error class ----------------------------------------------- */

static void test_err_syntax(void)
{
    EXPECT(BAD "syntax.json", BAD "syntax.json:3:53: syntax error near '] } ] }'");
    /* cJSON points past a key that is not a string: corrected to the '}'. */
    EXPECT(D "profile_badsyntax.json", D "machines/badsyntax.json:1:15: syntax error near '}'");
    char *p = write_temp("{\"a\": 1", 7);
    char want[256];
    snprintf(want, sizeof want, "%s:1:8: syntax error at end of input", p);
    EXPECT(p, want);
    unlink(p);
    free(p);
}

static void test_err_unknown_key(void)
{
    EXPECT(BAD "unknown_key.json",
           BAD "unknown_key.json:2:16: /runtime/gvl_polcy: unknown key \"gvl_polcy\" (did you mean \"gvl_policy\"?)",
           BAD "unknown_key.json:4:3: /colour: unknown key \"colour\" (valid keys: " ROOT_KEYS ")");
}

static void test_err_duplicate_key(void)
{
    EXPECT(BAD "duplicate_key.json", BAD "duplicate_key.json:4:3: /seed: duplicate key \"seed\" (first at 2:3)");
}

static void test_err_wrong_type(void)
{
    EXPECT(BAD "wrong_type.json",
           BAD "wrong_type.json:2:11: /seed: expected an integer, got a string",
           BAD "wrong_type.json:3:42: /ractors/0/threads/0/count: expected an integer, got true",
           BAD "wrong_type.json:3:59: /ractors/0/threads/0/program: expected an array of ops, got an object");
    EXPECT(BAD "not_object.json", BAD "not_object.json:1:1: a scenario must be a JSON object, got an array");
}

static void test_err_out_of_range(void)
{
    EXPECT(BAD "out_of_range.json",
           BAD "out_of_range.json:2:25: /machine/cores: 0 is out of range (1..4096)",
           BAD "out_of_range.json:2:42: /machine/work_scale: 2000 is out of range (> 0 and <= 1000)",
           BAD "out_of_range.json:2:61: /machine/insn_time: \"7200s\" is out of range (> 0 and <= 3600s)",
           BAD "out_of_range.json:3:27: /runtime/quantum: \"0ms\" is out of range (> 0 and <= 3600s)",
           BAD "out_of_range.json:3:45: /runtime/max_cpu: 5000 is out of range (1..4096)");
}

static void test_err_unknown_enum(void)
{
    EXPECT(BAD "queue_pingpong.json",
           BAD "queue_pingpong.json:3:30: /runtime/gvl_policy: unknown gvl_policy \"fifo\" "
               "(expected one of: eager, hot_steal, delayed, threshold, barging)",
           BAD "queue_pingpong.json:14:21: /ractors/0/threads/1/program/3/op: unknown op \"queue_pops\" "
               "(did you mean \"queue_pop\"?)");
}

static void test_err_missing_key(void)
{
    EXPECT(BAD "missing_key.json",
           BAD "missing_key.json:2:15: /queues/0: missing required key \"name\"",
           BAD "missing_key.json:3:46: /ractors/0/threads/0/program/0: missing required key \"dur\"",
           BAD "missing_key.json:3:65: /ractors/0/threads/0/program/1: missing required key \"op\" "
               "(one of: " ALL_OPS ")");
    EXPECT(BAD "missing_ractors.json", BAD "missing_ractors.json:1:1: missing required key \"ractors\"");
}

static void test_err_bad_duration(void)
{
    EXPECT(BAD "bad_duration.json",
           BAD "bad_duration.json:2:34: /machine/context_switch: bad duration \"1.5 xs\": unknown unit \"xs\" "
               "(valid units: ps, ns, us, \xc2\xb5s, ms, s)",
           BAD "bad_duration.json:2:58: /machine/futex_wake: bad duration -3: durations cannot be negative",
           BAD "bad_duration.json:2:80: /machine/wake_idle_core: bad duration \"1.2345ns\": more precision than 1 ps",
           BAD "bad_duration.json:4:29: /ractors/0/threads/0/program/0/dur: bad duration \"1e30s\": "
               "too large (limit about 106 days)",
           BAD "bad_duration.json:5:29: /ractors/0/threads/0/program/1/dur: bad duration \"5\": missing unit "
               "(valid units: ps, ns, us, \xc2\xb5s, ms, s; only a JSON number, not a string, means nanoseconds)",
           BAD "bad_duration.json:6:71: /ractors/0/threads/0/program/2/dur/max: min (5us) is greater than max (1us)",
           BAD "bad_duration.json:7:39: /ractors/0/threads/0/program/3/dur/dist: unknown dist \"normal\" "
               "(expected one of: const, uniform, exp, lognormal, empirical)",
           BAD "bad_duration.json:8:29: /ractors/0/threads/0/program/4/dur: expected a duration "
               "(like \"1.5us\", or a number of nanoseconds) or a distribution object, got an array",
           BAD "bad_duration.json:10:21: /stop/time: expected a duration (like \"1.5us\", or a number of "
               "nanoseconds), got an object (distributions are only allowed in ops)");
}

static void test_err_unknown_queue(void)
{
    EXPECT(BAD "unknown_queue.json",
           BAD "unknown_queue.json:4:35: /ractors/0/threads/0/program/0/queue: unknown queue \"pongs\" "
               "(did you mean \"pong\"?)",
           BAD "unknown_queue.json:5:36: /ractors/0/threads/0/program/1/queue: unknown queue \"zzz\" "
               "(declared queues: pong, work)");
    EXPECT(BAD "no_queues.json",
           BAD "no_queues.json:2:76: /ractors/0/threads/0/program/0/queue: unknown queue \"jobs\" "
               "(no queues are declared: add it to the top-level \"queues\")");
}

static void test_err_integers(void)
{
    EXPECT(BAD "big_int.json",
           BAD "big_int.json:2:11: /seed: 9007199254740993 is beyond 2^53: integers that large are not exact in JSON",
           BAD "big_int.json:3:42: /ractors/0/threads/0/count: expected an integer, got 1.5");
}

static void test_err_exclusive(void)
{
    EXPECT(BAD "exclusive.json",
           BAD "exclusive.json:4:38: /ractors/0/threads/0/program/0/insns: \"dur\" and \"insns\" are "
               "mutually exclusive (compute takes one of them)",
           BAD "exclusive.json:5:5: /ractors/0/threads/0/program/1: compute needs \"dur\" or \"insns\"",
           BAD "exclusive.json:6:63: /ractors/0/threads/0/program/2/forever: \"times\" and \"forever\" are "
               "mutually exclusive (a loop takes exactly one of \"times\", \"times_total\", \"forever\")",
           BAD "exclusive.json:7:5: /ractors/0/threads/0/program/3: loop needs one of \"times\", "
               "\"times_total\" or \"forever\"");
}

static void test_err_forever(void)
{
    EXPECT(BAD "forever.json",
           BAD "forever.json:3:32: /ractors/0/threads/0/program/0/forever: a \"forever\" loop needs a "
               "top-level \"stop\": {\"time\": ...} to end the run",
           BAD "forever.json:4:32: /ractors/0/threads/0/program/1/forever: \"forever\" must be true "
               "(for a finite loop use \"times\")",
           BAD "forever.json:4:47: /ractors/0/threads/0/program/1/body: must have at least 1 op");
}

static void test_err_too_large(void)
{
    EXPECT(BAD "too_large.json",
           BAD "too_large.json:2:14: /ractors: scenario too large: 1100001 threads (limit 1000000)",
           BAD "too_large.json:2:14: /ractors: scenario too large: 200001 Ractor instances (limit 100000)");
}

static void test_err_main_count(void)
{
    EXPECT(BAD "main_count.json",
           BAD "main_count.json:2:27: /ractors/0/count: ractors[0] is the main Ractor and cannot be "
               "replicated: count must be 1, got 2");
}

static void test_err_file_limits(void)
{
    /* Missing file: GV_EIO, naming the file and the reason. */
    struct scenario s;
    struct diag_list d;
    ASSERT_EQ(load_with(D "no_such_file.json", NULL, 0, NULL, &s, &d), GV_EIO);
    ASSERT_EQ(d.n, 1);
    ASSERT_STREQ(d.msgs[0], D "no_such_file.json: cannot read scenario: No such file or directory");
    diag_free(&d);
    ASSERT_EQ(load_with(D "machines", NULL, 0, NULL, &s, &d), GV_EIO);  /* a directory */
    ASSERT_STREQ(d.msgs[0], D "machines: cannot read scenario: Is a directory");
    diag_free(&d);

    /* Larger than 64 MiB: rejected before reading (a sparse file). */
    char *p = write_temp("{", 1);
    ASSERT_EQ(truncate(p, (64 << 20) + 1), 0);
    char want[256];
    snprintf(want, sizeof want, "%s: scenario is too large (67108865 bytes; the limit is 64 MiB)", p);
    EXPECT(p, want);
    unlink(p);
    free(p);

    /* Nesting deeper than JPOS_MAX_DEPTH: the opening bracket one level too deep. */
    char deep[256] = "{\"ractors\":";
    size_t n = strlen(deep), pre = n;
    for (int i = 0; i < JPOS_MAX_DEPTH + 5; i++) deep[n++] = '[';
    for (int i = 0; i < JPOS_MAX_DEPTH + 5; i++) deep[n++] = ']';
    deep[n++] = '}';
    p = write_temp(deep, n);
    snprintf(want, sizeof want, "%s:1:%d: nesting deeper than %d levels", p, (int)pre + JPOS_MAX_DEPTH,
             JPOS_MAX_DEPTH);
    EXPECT(p, want);
    unlink(p);
    free(p);

    /* A NUL byte. */
    p = write_temp("{\n \0}", 5);
    snprintf(want, sizeof want, "%s:2:2: NUL byte in the text (is this a JSON file?)", p);
    EXPECT(p, want);
    unlink(p);
    free(p);
}

static void test_err_queue_names(void)
{
    EXPECT(BAD "queue_names.json",
           BAD "queue_names.json:2:25: /queues/0/name: \"a b\" is not a valid name (use letters, digits, "
               "'_', '.' and '-')",
           BAD "queue_names.json:2:83: /queues/2/initial: -1 is out of range (0..9007199254740992)",
           BAD "queue_names.json:2:64: /queues/2/name: duplicate queue name \"jobs\" (first at 2:44)");
}

/* 32 nested loops at most.  A file cannot get there (64 JSON levels are
 * about 29 loops), but --set values nest on top of each other. */
static void test_err_loop_depth(void)
{
    char v[2048] = "", path[1024] = "ractors.0.threads.0.program";
    for (int i = 0; i < 20; i++) strcat(v, "[{\"op\": \"loop\", \"times\": 1, \"body\": ");
    strcat(v, "[{\"op\": \"join\"}]");
    for (int i = 0; i < 20; i++) strcat(v, "}]");
    char set1[4096], set2[4096];
    snprintf(set1, sizeof set1, "%s=%s", path, v);
    strcat(path, ".0");
    for (int i = 0; i < 19; i++) strcat(path, ".body.0");
    snprintf(set2, sizeof set2, "%s=%.*s", path, (int)strlen(v) - 2, v + 1);  /* the op, not the array */
    const char *sets[] = { set1, set2 };
    /* Loop 33 is the 14th of set2's value, whose loops are 36 characters apart. */
    size_t step = strlen("[{\"op\": \"loop\", \"times\": 1, \"body\": ");
    char want[1024] = "--set[2]:1:";
    snprintf(want + strlen(want), sizeof want - strlen(want), "%d: /ractors/0/threads/0/program/0",
             (int)(strlen(path) + 2 + 13 * step));
    for (int i = 0; i < 32; i++) strcat(want, "/body/0");
    strcat(want, ": blocks (loop, measure, branch, synchronize) nested deeper than 32");
    expect_sets(D "minimal.json", sets, 2, NULL, (const char *const[]){ want, NULL });
}

/* The documented 32 nested loops fit the JSON nesting limit, with a
 * distribution object in the innermost op (the deepest a scenario nests). */
static void test_loop_depth_limit_fits(void)
{
    char text[4096] = "{\"ractors\": [{\"threads\": [{\"program\": ";
    for (int i = 0; i < SCN_MAX_LOOP_DEPTH; i++) strcat(text, "[{\"op\": \"loop\", \"times\": 2, \"body\": ");
    strcat(text, "[{\"op\": \"compute\", \"dur\": {\"dist\": \"uniform\", \"min\": 1, \"max\": 2}}]");
    for (int i = 0; i < SCN_MAX_LOOP_DEPTH; i++) strcat(text, "}]");
    strcat(text, "}]}]}");
    char *p = write_temp(text, strlen(text));
    struct scenario s;
    load_ok(p, NULL, 0, NULL, &s);
    const struct scn_op *op = &s.ractors[0].threads[0].prog.ops[0];
    int depth = 0;
    while (op->kind == OP_LOOP) {
        depth++;
        op = &op->u.loop.body->ops[0];
    }
    ASSERT_EQ(depth, SCN_MAX_LOOP_DEPTH);
    ASSERT_EQ(op->kind, OP_COMPUTE);
    scenario_free(&s);
    unlink(p);
    free(p);
}

/* Columns count characters; a byte order mark is not one; pointers escape '/' and '~'. */
static void test_err_utf8_columns(void)
{
    const char text[] = "\xEF\xBB\xBF{ \"description\": \"caf\xc3\xa9\", \"a/b~c\": 1,\n"
                        "  \"name\": \"\xc2\xb5\", \"seed\": -1, \"ractors\": [] }";
    char *p = write_temp(text, sizeof text - 1);
    char w1[512], w2[256], w3[256];
    snprintf(w1, sizeof w1, "%s:1:26: /a~1b~0c: unknown key \"a/b~c\" (valid keys: " ROOT_KEYS ")", p);
    snprintf(w2, sizeof w2, "%s:2:24: /seed: -1 is out of range (0..9007199254740992)", p);
    snprintf(w3, sizeof w3, "%s:2:39: /ractors: must have at least 1 Ractor", p);
    EXPECT(p, w1, w2, w3);
    unlink(p);
    free(p);
}

/* Every problem at once, up to SCH_MAX_ERRORS, then one closing line. */
static void test_err_many(void)
{
    char buf[8192] = "{\"ractors\": [{\"threads\": [{\"program\": [";
    for (int i = 0; i < 150; i++) strcat(buf, i ? ",\n{\"op\": \"nop\"}" : "\n{\"op\": \"nop\"}");
    strcat(buf, "]}]}]}");
    char *p = write_temp(buf, strlen(buf));
    struct scenario s;
    struct diag_list d;
    ASSERT_EQ(load_with(p, NULL, 0, NULL, &s, &d), GV_EINVAL);
    ASSERT_EQ(d.n, 101);
    char want[512];
    snprintf(want, sizeof want, "%s:2:8: /ractors/0/threads/0/program/0/op: unknown op \"nop\" "
             "(expected one of: " ALL_OPS ")", p);
    ASSERT_STREQ(d.msgs[0], want);
    snprintf(want, sizeof want, "%s:101:8: /ractors/0/threads/0/program/99/op: unknown op \"nop\" "
             "(expected one of: " ALL_OPS ")", p);
    ASSERT_STREQ(d.msgs[99], want);
    snprintf(want, sizeof want, "%s: too many errors; stopping after 100", p);
    ASSERT_STREQ(d.msgs[100], want);
    diag_free(&d);
    unlink(p);
    free(p);
}

/* ---- defaults, overrides, profiles ----------------------------------------------- */

static void test_defaults(void)
{
    struct scenario s;
    load_ok(D "minimal.json", NULL, 0, NULL, &s);
    ASSERT_STREQ(s.file, D "minimal.json");
    ASSERT_STREQ(s.name, "minimal");
    ASSERT_STREQ(s.description, "");
    ASSERT_EQ(s.seed, 1);
    ASSERT_EQ(s.stop_time, 0);
    const struct scn_machine *m = &s.machine;
    ASSERT_STREQ(m->name, "default");
    ASSERT_STREQ(m->source, "");
    ASSERT_EQ(m->cores, 8);
    ASSERT_EQ(m->context_switch, 1500 * SIM_PS * 1000);
    ASSERT_EQ(m->futex_wake, SIM_US);
    ASSERT_EQ(m->wake_idle_core, 25 * SIM_US);
    ASSERT_EQ(m->wake_busy_core, 2 * SIM_US);
    ASSERT_EQ(m->os_timeslice, 3 * SIM_MS);
    ASSERT(m->work_scale == 1.0);
    ASSERT_EQ(m->timer_tick_cost, SIM_US);
    ASSERT_EQ(m->mutex_uncontended, 40 * SIM_NS);
    ASSERT_EQ(m->sched_lock_cs, 75 * SIM_NS);
    ASSERT_EQ(m->remote_rmw, 100 * SIM_NS);
    ASSERT_EQ(m->safepoint_gap, 500 * SIM_NS);
    ASSERT_EQ(m->escape_check_cs, 300 * SIM_NS);
    ASSERT_EQ(m->lockless_check, SIM_NS);
    ASSERT_EQ(m->insn_time, 7 * SIM_NS);
    ASSERT_EQ(m->line_transfer, 90 * SIM_NS);
    ASSERT_EQ(m->line_store_batch, 1);
    ASSERT_EQ(m->tls_insn_overhead, 500 * SIM_PS);
    ASSERT_EQ(m->coroutine_switch, 300 * SIM_NS);
    const struct scn_runtime *r = &s.runtime;
    ASSERT_EQ(r->gvl_policy, GVL_POLICY_EAGER);
    ASSERT_EQ(r->quantum, 100 * SIM_MS);
    ASSERT_EQ(r->timer_tick, 10 * SIM_MS);
    ASSERT_EQ(r->threshold, 100 * SIM_US);
    ASSERT_EQ(r->invariant_check, INVARIANT_NONE);
    ASSERT_EQ(r->insn_counter, COUNTER_NONE);
    ASSERT_EQ(r->counter_model, COUNTER_MODEL_LINE);
    ASSERT_EQ(r->max_cpu, 8);
    ASSERT_EQ(r->snt_cap, SNT_CAP_EXACT);
    ASSERT(!r->mn_main);
    ASSERT_EQ(s.nqueues, 0);
    ASSERT(s.queues == NULL);
    ASSERT_EQ(s.nractors, 1);
    ASSERT_STREQ(s.ractors[0].name, "main");
    ASSERT_EQ(s.ractors[0].count, 1);
    ASSERT_EQ(s.ractors[0].nthreads, 1);
    ASSERT_STREQ(s.ractors[0].threads[0].name, "main");
    ASSERT_EQ(s.ractors[0].threads[0].count, 1);
    ASSERT_EQ(s.ractors[0].threads[0].prog.nops, 0);
    ASSERT_EQ(s.total_threads, 1);
    ASSERT_EQ(s.total_ractors, 1);
    scenario_free(&s);
}

static void test_override_forms(void)
{
    const char *sets[] = {
        "seed=5",                                              /* number */
        "runtime.mn_main=true",                                /* boolean, runtime created */
        "name=\"quoted name\"",                                /* JSON string */
        "description=plain words, no quotes",                  /* plain string */
        "runtime.gvl_policy=hot_steal",                        /* plain string enum */
        "runtime.quantum=5ms",                                 /* plain string duration */
        "runtime.timer_tick=2500",                             /* number = ns */
        "queues=[{\"name\": \"q\", \"initial\": 2}]",          /* array */
        "machine={\"cores\": 3, \"insn_time\": \"5ns\"}",      /* object */
        "ractors.0.threads.0.count=4",                         /* array index */
        "ractors.0.threads.0.program=[{\"op\": \"queue_pop\", \"queue\": \"q\"}]",
        "stop.time=1s",                                        /* object created */
        "seed=6",                                              /* later wins */
    };
    struct scenario s;
    load_ok(D "minimal.json", sets, (int)(sizeof sets / sizeof *sets), NULL, &s);
    ASSERT_EQ(s.seed, 6);
    ASSERT(s.runtime.mn_main);
    ASSERT_STREQ(s.name, "quoted name");
    ASSERT_STREQ(s.description, "plain words, no quotes");
    ASSERT_EQ(s.runtime.gvl_policy, GVL_POLICY_HOT_STEAL);
    ASSERT_EQ(s.runtime.quantum, 5 * SIM_MS);
    ASSERT_EQ(s.runtime.timer_tick, 2500 * SIM_NS);
    ASSERT_EQ(s.nqueues, 1);
    ASSERT_STREQ(s.queues[0].name, "q");
    ASSERT_EQ(s.queues[0].initial, 2);
    ASSERT_EQ(s.machine.cores, 3);
    ASSERT_EQ(s.machine.insn_time, 5 * SIM_NS);
    ASSERT_EQ(s.total_threads, 4);
    ASSERT_EQ(s.ractors[0].threads[0].prog.nops, 1);
    const struct scn_op *op = &s.ractors[0].threads[0].prog.ops[0];
    ASSERT_EQ(op->kind, OP_QUEUE_POP);
    ASSERT_EQ(op->u.queue.queue, 0);
    ASSERT_STREQ(op->path, "/ractors/0/threads/0/program/0");
    ASSERT_EQ(op->line, 1);  /* line 1 of --set[11] */
    ASSERT_EQ(s.stop_time, SIM_S);
    scenario_free(&s);
}

static void test_override_positions(void)
{
    /* Values set with --set are placed at --set[N]:1:COL. */
    EXPECT_SET(D "minimal.json", "description=null",
               "--set[1]:1:13: /description: expected a string, got null");
    EXPECT_SET(D "minimal.json", "runtime.quantum=0",
               "--set[1]:1:17: /runtime/quantum: 0 ns is out of range (> 0 and <= 3600s)");
    EXPECT_SET(D "minimal.json", "runtime={\"gvl_policy\": \"Barging\"}",
               "--set[1]:1:24: /runtime/gvl_policy: unknown gvl_policy \"Barging\" (did you mean \"barging\"?)");
    /* A created key is validated like any other, at its path segment. */
    EXPECT_SET(D "minimal.json", "runtime.quantm=5ms",
               "--set[1]:1:9: /runtime/quantm: unknown key \"quantm\" (did you mean \"quantum\"?)");
    /* N counts every --set, the good ones too. */
    const char *two[] = { "seed=2", "seed=x" };
    expect_sets(D "minimal.json", two, 2, NULL,
                (const char *const[]){ "--set[2]:1:6: /seed: expected an integer, got a string", NULL });
}

static void test_override_errors(void)
{
    EXPECT_SET(D "minimal.json", "seed", "--set[1]:1:1: missing '=' in \"seed\" (expected key.path=value)");
    EXPECT_SET(D "minimal.json", "=5", "--set[1]:1:1: empty key before '=' (expected key.path=value)");
    EXPECT_SET(D "minimal.json", "runtime..quantum=1",
               "--set[1]:1:9: empty segment in key path \"runtime..quantum\"");
    EXPECT_SET(D "minimal.json", "runtime.=1", "--set[1]:1:9: empty segment in key path \"runtime.\"");
    EXPECT_SET(D "minimal.json", "ractors.0.threads.0.program.0={\"op\": \"join\"}",
               "--set[1]:1:29: /ractors/0/threads/0/program: index 0 is past the end (0 elements)");
    EXPECT_SET(D "minimal.json", "ractors.first.count=1",
               "--set[1]:1:9: /ractors: \"first\" is not an array index (this is an array of 1 element)");
    EXPECT_SET(D "full.json", "seed.x=1", "--set[1]:1:6: /seed: cannot set \"x\" inside a number");
    EXPECT_SET(D "minimal.json", "runtime={\"gvl_policy\": }", "--set[1]:1:24: syntax error near '}'");
    EXPECT_SET(D "minimal.json", "name=\"unterminated", "--set[1]:1:6: unterminated string");
}

static void test_override_machine_profile(void)
{
    struct scenario s;
    /* "machine": "testbox" + machine.X: becomes {"profile": "testbox", "X": ...}. */
    const char *set1[] = { "machine.cores=2" };
    load_ok(D "profile_name.json", set1, 1, NULL, &s);
    ASSERT_STREQ(s.machine.name, "testbox");
    ASSERT_EQ(s.machine.cores, 2);
    ASSERT_EQ(s.machine.context_switch, 2 * SIM_US);  /* still from testbox */
    scenario_free(&s);
    /* machine=NAME replaces the whole value. */
    const char *set2[] = { "machine=anon" };
    load_ok(D "profile_name.json", set2, 1, NULL, &s);
    ASSERT_STREQ(s.machine.name, "anon");
    ASSERT_EQ(s.machine.cores, 3);
    ASSERT_EQ(s.machine.context_switch, 1500 * SIM_NS);  /* default again */
    scenario_free(&s);
    const char *set3[] = { "machine.profile=anon", "machine.work_scale=2" };
    load_ok(D "profile_name.json", set3, 2, NULL, &s);
    ASSERT_STREQ(s.machine.name, "anon");
    ASSERT(s.machine.work_scale == 2.0);
    scenario_free(&s);
    /* A machine.* key set by an earlier --set is never dropped silently: a
     * later machine=NAME is an error; machine.profile=NAME keeps it; a
     * profile chosen by an earlier --set may be replaced. */
    expect_sets(D "profile_name.json", (const char *const[]){ "machine.cores=2", "machine=anon" }, 2,
                NULL,
                (const char *const[]){ "--set[2]:1:1: /machine: this replaces the whole machine, "
                                       "dropping machine.cores set by --set[1]: give --set "
                                       "machine=PROFILE before the machine.* keys, or use --set "
                                       "machine.profile=PROFILE to keep them",
                                       NULL });
    const char *set4[] = { "machine.cores=2", "machine.profile=anon" };
    load_ok(D "profile_name.json", set4, 2, NULL, &s);
    ASSERT_STREQ(s.machine.name, "anon");
    ASSERT_EQ(s.machine.cores, 2);
    scenario_free(&s);
    const char *set5[] = { "machine=testbox", "machine=anon", "machine.cores=1" };
    load_ok(D "profile_name.json", set5, 3, NULL, &s);
    ASSERT_STREQ(s.machine.name, "anon");
    ASSERT_EQ(s.machine.cores, 1);
    scenario_free(&s);
    /* An unknown profile set from the command line is reported there. */
    EXPECT_SET(D "minimal.json", "machine=nosuch",
               "--set[1]:1:9: /machine: no machine profile \"nosuch\" (looked in: tests/data/machines)");
    EXPECT_SET(D "minimal.json", "machine.profile=nosuch",
               "--set[1]:1:17: /machine/profile: no machine profile \"nosuch\" (looked in: tests/data/machines)");
}

static void test_profile_merge(void)
{
    struct scenario s;
    load_ok(D "full.json", NULL, 0, NULL, &s);
    const struct scn_machine *m = &s.machine;
    ASSERT_STREQ(m->name, "testbox");                      /* profile */
    ASSERT_STREQ(m->source, "made up for tests/unit/test_load.c");
    ASSERT_EQ(m->cores, 6);                                /* scenario over profile */
    ASSERT_EQ(m->context_switch, 2 * SIM_US);              /* profile only */
    ASSERT_EQ(m->futex_wake, 700 * SIM_NS);                /* scenario over profile's 800 */
    ASSERT(m->work_scale == 1.5);                          /* profile */
    scenario_free(&s);

    /* Profile by path relative to the scenario; its name is the file's base name. */
    load_ok(D "profile_path.json", NULL, 0, NULL, &s);
    ASSERT_STREQ(s.machine.name, "anon");
    ASSERT_EQ(s.machine.cores, 2);
    scenario_free(&s);
}

static void test_profile_lookup(void)
{
    struct scenario s;
    unsetenv("GVLSIM_MACHINES");
    EXPECT(D "profile_alt.json",
           D "profile_alt.json:2:14: /machine: no machine profile \"alt\" (looked in: tests/data/machines)");
    load_ok(D "profile_alt.json", NULL, 0, D "altmachines", &s);   /* opts->machines_dirs */
    ASSERT_STREQ(s.machine.name, "alt");
    ASSERT_EQ(s.machine.cores, 12);
    ASSERT_STREQ(s.machine.source, "alternative directory");
    scenario_free(&s);
    /* several --machines directories: each searched, in the order given */
    {
        const char *dirs[] = { "/nonexistent", D "altmachines" };
        struct load_opts o = { .machines_dirs = dirs, .nmachines_dirs = 2 };
        struct diag_list d;
        diag_init(&d);
        ASSERT_EQ(scn_load(D "profile_alt.json", &o, &s, &d), GV_OK);
        ASSERT_EQ(s.machine.cores, 12);
        scenario_free(&s);
        diag_free(&d);
        diag_init(&d);
        ASSERT_EQ(scn_load(D "profile_nosuch.json", &o, &s, &d), GV_EINVAL);
        ASSERT_EQ(d.n, 1);
        ASSERT_STREQ(d.msgs[0], D "profile_nosuch.json:2:14: /machine: no machine profile \"nosuch\" "
                                  "(looked in: /nonexistent, tests/data/altmachines, tests/data/machines)");
        diag_free(&d);
    }
    setenv("GVLSIM_MACHINES", "/nonexistent::" D "altmachines", 1);
    load_ok(D "profile_alt.json", NULL, 0, NULL, &s);
    ASSERT_EQ(s.machine.cores, 12);
    scenario_free(&s);
    EXPECT(D "profile_nosuch.json",
           D "profile_nosuch.json:2:14: /machine: no machine profile \"nosuch\" (looked in: "
             "tests/data/machines, /nonexistent, tests/data/altmachines)");
    unsetenv("GVLSIM_MACHINES");
}

static void test_profile_errors(void)
{
    /* Reported in the profile file, with its own positions and pointers. */
    EXPECT(D "profile_broken.json",
           D "machines/broken.json:2:12: /cores: 9000 is out of range (1..4096)",
           D "machines/broken.json:3:3: /profile: a machine profile file cannot name another profile",
           D "machines/broken.json:4:3: /wake_idl_core: unknown key \"wake_idl_core\" (did you mean \"wake_idle_core\"?)");
}

/* A profile path naming a file that is not JSON: nothing of it is quoted. */
static void test_profile_not_json(void)
{
    static const char shadow[] = "root:$6$Zk2Xr9$s3cr3thash:19000:0:99999:7:::\n";
    char *secret = write_temp(shadow, sizeof shadow - 1);
    char text[512], want[512];
    snprintf(text, sizeof text, "{\"machine\": \"%s\", \"ractors\": [{\"threads\": [{}]}]}", secret);
    char *p = write_temp(text, strlen(text));
    snprintf(want, sizeof want, "%s:1:1: syntax error: this is not JSON (its text is not quoted)", secret);
    EXPECT(p, want);
    unlink(p);
    free(p);
    unlink(secret);
    free(secret);
}

/* Control characters from the input are escaped in every message (keys,
 * profile names, --set keys), and refused in names, which are printed. */
static void test_err_control_characters(void)
{
    static const char text[] =
        "{\"\\u001b[2Jx\\ny\": 1, \"machine\": \"m\\u009b\\r\",\n"
        " \"ractors\": [{\"threads\": [{\"name\": \"a\\u001b[31m\\u202e\", \"program\": []}]}]}";
    char *p = write_temp(text, sizeof text - 1);
    char w[5][512];
    snprintf(w[0], sizeof w[0], "%s:1:33: /machine: no machine profile \"m\\u009b\\r\" (looked in: /tmp/machines)", p);
    snprintf(w[1], sizeof w[1], "%s:1:2: /\\x1b[2Jx\\ny: unknown key \"\\x1b[2Jx\\ny\" (valid keys: name, "
             "description, seed, machine, runtime, queues, mutexes, condvars, measures, generators, ractors, "
             "stop, warmup)", p);
    snprintf(w[2], sizeof w[2], "%s:1:33: /machine: control character U+009B in a name (names are printed in "
             "output and messages; only \"description\" and \"source\" may hold them)", p);
    snprintf(w[3], sizeof w[3], "%s:2:36: /ractors/0/threads/0/name: control character U+001B in a name (names "
             "are printed in output and messages; only \"description\" and \"source\" may hold them)", p);
    snprintf(w[4], sizeof w[4], "--set[1]:1:9: /runtime/q\\x1b]0;x\\x07\\n: unknown key \"q\\x1b]0;x\\x07\\n\" "
             "(valid keys: gvl_policy, quantum, timer_tick, threshold, invariant_check, insn_counter, "
             "counter_model, alloc_counters, max_cpu, snt_cap, mn_main, gc_heap_init_slots, gc_heap_growth_factor, "
             "gc_boot_objects, yjit, event_hook, event_hook_flush, event_hook_flush_every, ruby)");
    const char *sets[] = { "runtime.q\x1b]0;x\x07\n=1" };
    expect_sets(p, sets, 1, NULL, (const char *const[]){ w[0], w[1], w[2], w[3], w[4], NULL });
    unlink(p);
    free(p);
    /* Free text may hold them; a --set name that is not UTF-8 may not. */
    EXPECT_SET(D "minimal.json", "name=\xff", "--set[1]:1:6: /name: invalid UTF-8 in a name (byte 0xFF)");
    const char *ok[] = { "description=\"line 1\\nline 2\\u001b\"" };
    struct scenario s;
    load_ok(D "minimal.json", ok, 1, NULL, &s);
    ASSERT_STREQ(s.description, "line 1\nline 2\x1b");
    scenario_free(&s);
}

/* Messages built anywhere (gv_fail) escape what they quote, and
 * diag_escape_to never cuts an escape or a character in two. */
static void test_messages_escaped(void)
{
    char err[64];
    ASSERT_EQ(gv_fail(err, sizeof err, GV_EIO, "cannot read \"%s\"", "a\x1b[31m\nb\xff\xc2\x9b"), GV_EIO);
    ASSERT_STREQ(err, "cannot read \"a\\x1b[31m\\nb\\xff\\u009b\"");
    char small[8];
    ASSERT_EQ(diag_escape_to(small, sizeof small, "ab\x1b" "cd"), 8);
    ASSERT_STREQ(small, "ab\\x1bc");
    ASSERT_EQ(diag_escape_to(small, 5, "ab\x1b" "cd"), 8);
    ASSERT_STREQ(small, "ab");             /* "\x1b" does not fit: not cut */
    ASSERT_EQ(diag_escape_to(small, 4, "a\xc3\xa9\xc3\xa9"), 5);
    ASSERT_STREQ(small, "a\xc3\xa9");      /* nor is "é" */
}

/* The error cap both validators use: max errors, then one line, then none. */
static void test_diag_capped(void)
{
    struct diag_list d;
    diag_init(&d);
    int count = 0;
    ASSERT_EQ(diag_capped(&d, &count, 2, "f.json"), 1);
    ASSERT_EQ(diag_capped(&d, &count, 2, "f.json"), 1);
    ASSERT_EQ(d.n, 0);
    ASSERT_EQ(diag_capped(&d, &count, 2, "f.json"), 0);
    ASSERT_EQ(d.n, 1);
    ASSERT_STREQ(d.msgs[0], "f.json: too many errors; stopping after 2");
    ASSERT_EQ(diag_capped(&d, &count, 2, "f.json"), 0);
    ASSERT_EQ(d.n, 1);
    diag_free(&d);
}

/* ---- derived counts and the full round trip --------------------------------------- */

static void test_counts_and_times_total(void)
{
    struct scenario s;
    load_ok(D "full.json", NULL, 0, NULL, &s);
    ASSERT_EQ(s.total_ractors, 4);    /* 1 + 2 + 1 */
    ASSERT_EQ(s.total_threads, 11);   /* 1x(1+3) + 2x(2+1) + 1x1 */
    const struct scn_thread *worker = &s.ractors[0].threads[1];
    ASSERT_EQ(worker->count, 3);
    const struct scn_op *loop = &worker->prog.ops[0];
    ASSERT_EQ(loop->u.loop.mode, LOOP_TIMES_TOTAL);
    ASSERT_EQ(loop->u.loop.times, 10);
    int k = s.ractors[0].count * worker->count;
    ASSERT_EQ(scn_loop_times(loop, 0, k), 4);   /* 10 = 4 + 3 + 3 */
    ASSERT_EQ(scn_loop_times(loop, 1, k), 3);
    ASSERT_EQ(scn_loop_times(loop, 2, k), 3);
    const struct scn_op *fl = &s.ractors[1].threads[0].prog.ops[0];
    ASSERT_EQ(fl->u.loop.mode, LOOP_FOREVER);
    ASSERT_EQ(scn_loop_times(fl, 0, 4), UINT64_MAX);
    const struct scn_op *tl = &s.ractors[0].threads[0].prog.ops[8];
    ASSERT_EQ(tl->u.loop.mode, LOOP_TIMES);
    ASSERT_EQ(scn_loop_times(tl, 3, 7), 5);
    scenario_free(&s);
}

static void test_full_round_trip(void)
{
    struct scenario s;
    load_ok(D "full.json", NULL, 0, NULL, &s);
    ASSERT_STREQ(s.name, "full");
    ASSERT_STREQ(s.description, "every key of the format");
    ASSERT_EQ(s.seed, 9007199254740992ULL);
    ASSERT_EQ(s.stop_time, 2 * SIM_S);
    const struct scn_machine *m = &s.machine;
    ASSERT_EQ(m->wake_idle_core, 30 * SIM_US);
    ASSERT_EQ(m->wake_busy_core, 3 * SIM_US);
    ASSERT_EQ(m->os_timeslice, 4 * SIM_MS);
    ASSERT_EQ(m->timer_tick_cost, 2 * SIM_US);
    ASSERT_EQ(m->mutex_uncontended, 41 * SIM_NS);
    ASSERT_EQ(m->sched_lock_cs, 76 * SIM_NS);
    ASSERT_EQ(m->remote_rmw, 101 * SIM_NS);
    ASSERT_EQ(m->safepoint_gap, 600 * SIM_NS);
    ASSERT_EQ(m->escape_check_cs, 400 * SIM_NS);
    ASSERT_EQ(m->lockless_check, 2 * SIM_NS);
    ASSERT_EQ(m->insn_time, 6500 * SIM_PS);
    ASSERT_EQ(m->line_transfer, 91 * SIM_NS);
    ASSERT_EQ(m->line_store_batch, 16);
    ASSERT_EQ(m->tls_insn_overhead, 250 * SIM_PS);
    ASSERT_EQ(m->coroutine_switch, 350 * SIM_NS);
    const struct scn_runtime *r = &s.runtime;
    ASSERT_EQ(r->gvl_policy, GVL_POLICY_THRESHOLD);
    ASSERT_EQ(r->quantum, 50 * SIM_MS);
    ASSERT_EQ(r->timer_tick, 5 * SIM_MS);
    ASSERT_EQ(r->threshold, 200 * SIM_US);
    ASSERT_EQ(r->invariant_check, INVARIANT_LOCKLESS);
    ASSERT_EQ(r->insn_counter, COUNTER_THREAD_LOCAL);
    ASSERT_EQ(r->counter_model, COUNTER_MODEL_PENALTY);
    ASSERT_EQ(r->max_cpu, 4);
    ASSERT_EQ(r->snt_cap, SNT_CAP_MINUS_ONE);
    ASSERT(r->mn_main);
    ASSERT_EQ(s.nqueues, 2);
    ASSERT_STREQ(s.queues[0].name, "jobs");
    ASSERT_EQ(s.queues[0].initial, 3);
    ASSERT_STREQ(s.queues[1].name, "done");
    ASSERT_EQ(s.queues[1].initial, 0);

    ASSERT_EQ(s.nractors, 3);
    ASSERT_STREQ(s.ractors[0].name, "main");
    ASSERT_STREQ(s.ractors[1].name, "pool");
    ASSERT_EQ(s.ractors[1].count, 2);
    ASSERT_STREQ(s.ractors[2].name, "r2");
    ASSERT_STREQ(s.ractors[0].threads[0].name, "main");
    ASSERT_STREQ(s.ractors[0].threads[1].name, "worker");
    ASSERT_STREQ(s.ractors[1].threads[0].name, "t0");
    ASSERT_STREQ(s.ractors[1].threads[1].name, "t1");
    ASSERT_EQ(s.ractors[1].threads[0].count, 2);
    ASSERT_STREQ(s.ractors[2].threads[0].name, "t0");

    const struct scn_prog *p = &s.ractors[0].threads[0].prog;
    ASSERT_EQ(p->nops, 10);
    const struct scn_op *o = p->ops;
    ASSERT_EQ(o[0].kind, OP_COMPUTE);
    ASSERT(!o[0].u.compute.has_insns);
    ASSERT_EQ(o[0].u.compute.dur.kind, DIST_CONST);
    ASSERT_EQ(o[0].u.compute.dur.a, 1500 * SIM_NS);
    ASSERT_STREQ(o[0].path, "/ractors/0/threads/0/program/0");
    ASSERT_EQ(o[0].line, 47);
    ASSERT(o[1].u.compute.has_insns);
    ASSERT_EQ(o[1].u.compute.insns, 1000);
    ASSERT_EQ(o[2].kind, OP_SYSCALL);
    ASSERT_EQ(o[2].u.syscall.dur.kind, DIST_UNIFORM);
    ASSERT_EQ(o[2].u.syscall.dur.a, SIM_US);
    ASSERT_EQ(o[2].u.syscall.dur.b, 3 * SIM_US);
    ASSERT_EQ(o[2].u.syscall.call, CALL_GETPID);
    ASSERT(o[2].u.syscall.releases_gvl);
    ASSERT(!o[2].u.syscall.io_wait);
    ASSERT_EQ(o[3].u.syscall.dur.a, 2500 * SIM_NS);
    ASSERT_EQ(o[3].u.syscall.call, CALL_NANOSLEEP);
    ASSERT(!o[3].u.syscall.releases_gvl);
    ASSERT(o[3].u.syscall.io_wait);            /* default: true for nanosleep */
    ASSERT_EQ(o[4].u.syscall.call, CALL_STAT);
    ASSERT(o[4].u.syscall.io_wait);
    ASSERT_EQ(o[5].kind, OP_QUEUE_PUSH);
    ASSERT_EQ(o[5].u.queue.queue, 0);
    ASSERT_EQ(o[6].kind, OP_QUEUE_POP);
    ASSERT_EQ(o[6].u.queue.queue, 1);
    ASSERT_EQ(o[7].kind, OP_SLEEP);
    ASSERT_EQ(o[7].u.sleep.dur.kind, DIST_EXP);
    ASSERT_EQ(o[7].u.sleep.dur.a, 10 * SIM_US);
    ASSERT_EQ(o[8].kind, OP_LOOP);
    ASSERT(o[8].u.loop.measure);
    ASSERT_EQ(o[8].u.loop.body->nops, 2);
    const struct scn_op *b = o[8].u.loop.body->ops;
    ASSERT_EQ(b[0].kind, OP_ENV_ESCAPE);
    ASSERT_EQ(b[0].u.env_escape.iseq, 7);
    ASSERT_STREQ(b[0].path, "/ractors/0/threads/0/program/8/body/0");
    ASSERT_EQ(b[0].line, 56);
    ASSERT_EQ(b[1].kind, OP_LOOP);
    ASSERT(!b[1].u.loop.measure);
    ASSERT_EQ(b[1].u.loop.mode, LOOP_TIMES_TOTAL);
    const struct scn_op *inner = &b[1].u.loop.body->ops[0];
    ASSERT_EQ(inner->u.compute.dur.kind, DIST_CONST);
    ASSERT_EQ(inner->u.compute.dur.a, 500);    /* 0.5 (a JSON number: ns) = 500 ps */
    ASSERT_STREQ(inner->path, "/ractors/0/threads/0/program/8/body/1/body/0");
    ASSERT_EQ(o[9].kind, OP_JOIN);
    ASSERT_EQ(s.ractors[1].threads[1].prog.nops, 0);
    ASSERT(s.ractors[1].threads[0].prog.ops[0].u.loop.body->ops[0].u.compute.has_insns);

    ASSERT_STREQ(scn_policy_name(r->gvl_policy), "threshold");
    ASSERT_STREQ(scn_op_name(OP_ENV_ESCAPE), "env_escape");
    ASSERT_STREQ(scn_call_name(CALL_WRITE_DEVNULL), "write_devnull");
    ASSERT_STREQ(scn_invariant_name(INVARIANT_LOCK_BARRIER), "lock_barrier");
    ASSERT_STREQ(scn_counter_name(COUNTER_SHARED), "shared");
    ASSERT_STREQ(scn_counter_model_name(COUNTER_MODEL_LINE), "line");
    ASSERT_STREQ(scn_snt_cap_name(SNT_CAP_MINUS_ONE), "minus_one");
    ASSERT_STREQ(scn_dist_name(DIST_UNIFORM), "uniform");
    scenario_free(&s);
    scenario_free(&s);  /* idempotent */
}

static void test_example_scenario(void)
{
    struct scenario s;
    load_ok("scenarios/examples/token_pingpong.json", NULL, 0, NULL, &s);
    ASSERT_EQ(s.total_threads, 2);
    ASSERT_EQ(s.machine.cores, 2);
    scenario_free(&s);
}

/* The scenario language's keys: each error at its place. */
static void test_err_lang(void)
{
    EXPECT(BAD "lang_keys.json",
           BAD "lang_keys.json:3:43: /mutexes/1/name: duplicate mutex name \"m\" (first at 3:26)",
           BAD "lang_keys.json:6:47: /generators/0/interval: \"rate\" and \"interval\" are mutually exclusive (a "
               "generator takes one of them)",
           BAD "lang_keys.json:6:79: /generators/1/queue: unknown queue \"qq\" (did you mean \"q\"?)",
           BAD "lang_keys.json:6:68: /generators/1: a generator needs \"rate\" (arrivals per second) or \"interval\"",
           BAD "lang_keys.json:12:40: /ractors/0/threads/0/program/0/mutex: unknown mutex \"mx\" (did you mean \"m\"?)",
           BAD "lang_keys.json:13:34: /ractors/0/threads/0/program/1/cv: unknown condition variable \"cvv\" (did you "
               "mean \"cv\"?)",
           BAD "lang_keys.json:14:48: /ractors/0/threads/0/program/2/measure: unknown measure \"reqs\" (did you mean "
               "\"req\"?)",
           BAD "lang_keys.json:15:70: /ractors/0/threads/0/program/3/latency_from: \"latency_from\" needs a named "
               "measure (\"measure\": \"NAME\")",
           BAD "lang_keys.json:16:35: /ractors/0/threads/0/program/4/thread: unknown thread template \"nobody\" "
               "(declared thread templates: main, w, x)",
           BAD "lang_keys.json:18:75: /ractors/0/threads/0/program/6/dur/mean: \"median\" and \"mean\" are mutually "
               "exclusive (a lognormal takes one of them)",
           BAD "lang_keys.json:19:95: /ractors/0/threads/0/program/7/dur/weights: 1 weight for 2 values: give one "
               "weight per value",
           BAD "lang_keys.json:20:32: /ractors/0/threads/0/program/8/p: 1.5 is out of range (>= 0 and <= 1)",
           BAD "lang_keys.json:21:37: /ractors/0/threads/0/program/9/objects: -1 is out of range (0..1000000000000)",
           BAD "lang_keys.json:21:52: /ractors/0/threads/0/program/9/survive: 2 is out of range (>= 0 and <= 1)",
           BAD "lang_keys.json:11:36: /ractors/0/threads/0/spawned: ractors[0].threads[0] is the main thread: it runs "
               "from the start and cannot be \"spawned\"",
           BAD "lang_keys.json:23:38: /ractors/0/threads/1/spawned: \"start\" and \"spawned\" are mutually exclusive "
               "(a spawned thread starts when a spawn op starts it)",
           BAD "lang_keys.json:26:68: /ractors/1/threads/0/program/0/mutex: a Mutex cannot be used in a replicated "
               "Ractor (ractors[1] has count 2): each copy would need its own; use a Ractor with count 1",
           BAD "lang_keys.json:7:13: /warmup: warmup (2s) must end before stop.time (1s)");
    EXPECT(BAD "lang_scope.json",
           BAD "lang_scope.json:4:19: /generators/0: a generator without \"count\" runs until the run stops: it "
               "needs a top-level \"stop\": {\"time\": ...}",
           BAD "lang_scope.json:7:103: /ractors/0/threads/0/program/1/thread: thread template \"x\" is not "
               "\"spawned\": its instances start by themselves; add \"spawned\": true to it",
           BAD "lang_scope.json:10:68: /ractors/1/threads/0/program/0/mutex: mutex \"m\" is used by threads of "
               "ractors[0] (first at 7:69) and of ractors[1]: a Mutex cannot be shared between Ractors",
           BAD "lang_scope.json:10:102: /ractors/1/threads/0/program/1/thread: thread template \"w\" belongs to "
               "another Ractor: Thread.new starts a thread in the caller's Ractor");
}

/* The scenario language's keys, built. */
static void test_lang_round_trip(void)
{
    struct scenario s;
    struct diag_list d;
    ASSERT_EQ(load_with("scenarios/examples/resource_pool.json", NULL, 0, NULL, &s, &d), GV_OK);
    diag_free(&d);
    ASSERT_EQ(s.nmutexes, 1);
    ASSERT_EQ(s.ncondvars, 1);
    ASSERT_EQ(s.nmeasures, 1);
    ASSERT_STREQ(s.measures[0].name, "acquire");
    ASSERT_EQ(s.ntmpls, 2);
    ASSERT_EQ(s.ractors[0].threads[0].prog.ops[0].u.join.tmpl, 2);  /* 1 + "worker" */
    const struct scn_op *body = s.ractors[0].threads[1].prog.ops[0].u.loop.body->ops;
    ASSERT_EQ(body[0].kind, OP_MEASURE);
    ASSERT_EQ(body[0].u.measure.mid, 1);
    const struct scn_op *sync = &body[0].u.measure.body->ops[0];
    ASSERT_EQ(sync->kind, OP_SYNCHRONIZE);
    ASSERT(sync->u.mutex.unlock && sync->u.mutex.unlock->kind == OP_MUTEX_UNLOCK);
    ASSERT_STREQ(sync->u.mutex.unlock->path, sync->path);
    const struct scn_op *wait = &sync->u.mutex.body->ops[1];
    ASSERT_EQ(wait->kind, OP_CV_WAIT);
    ASSERT(wait->u.cv.has_timeout && wait->u.cv.timeout == SIM_S && wait->u.cv.raise);
    ASSERT_EQ(wait->u.cv.while_empty, 1);
    ASSERT_EQ(wait->u.cv.mutex, 0);
    ASSERT_EQ(s.runtime.gc_heap_init_slots, 10000);
    ASSERT(s.runtime.gc_heap_growth_factor == 1.8);
    ASSERT_EQ(s.machine.gc_mark_per_object, 15 * SIM_NS);
    scenario_free(&s);

    ASSERT_EQ(load_with(D "lang/spawn_pool.json", NULL, 0, NULL, &s, &d), GV_OK);
    diag_free(&d);
    ASSERT(s.ractors[0].threads[1].spawned && s.ractors[0].threads[2].start == 3 * SIM_MS);
    ASSERT_EQ(s.ractors[0].threads[0].prog.ops[0].u.spawn.tmpl, 1);
    const struct scn_op *lp = &s.ractors[0].threads[1].prog.ops[0];
    ASSERT(lp->u.loop.mid == 1 && lp->u.loop.from_pop && !lp->u.loop.measure);
    const struct scn_dist *em = &lp->u.loop.body->ops[1].u.compute.dur;
    ASSERT_EQ(em->kind, DIST_EMPIRICAL);
    ASSERT(em->n == 3 && em->values[2] == SIM_MS && em->cum[0] == 6 && em->cum[2] == 10);
    const struct scn_op *br = &lp->u.loop.body->ops[2];
    ASSERT(br->kind == OP_BRANCH && br->u.branch.p == 0.5 && br->u.branch.else_body->nops == 0);
    const struct scn_dist *ln = &br->u.branch.then_body->ops[0].u.sleep.dur;
    ASSERT(ln->kind == DIST_LOGNORMAL && ln->a == 20 * SIM_US && ln->sigma == 0.5);
    scenario_free(&s);

    /* a rate is an interval; the generator's program is a loop of arrivals */
    const char *const mean[] = { "ractors.0.threads.1.program.0.body.2.then.0.dur={\"dist\": \"lognormal\", "
                                 "\"mean\": \"2ms\", \"sigma\": 1}" };
    ASSERT_EQ(load_with(D "lang/spawn_pool.json", mean, 1, NULL, &s, &d), GV_OK);
    diag_free(&d);
    ln = &s.ractors[0].threads[1].prog.ops[0].u.loop.body->ops[2].u.branch.then_body->ops[0].u.sleep.dur;
    ASSERT_EQ(ln->a, 1213061319);  /* 2 ms / e^0.5 */
    scenario_free(&s);
    ASSERT_EQ(load_with(D "lang/generator.json", NULL, 0, NULL, &s, &d), GV_OK);
    diag_free(&d);
    ASSERT_EQ(s.ngenerators, 1);
    ASSERT_EQ(s.generators[0].interval, 500 * SIM_US);
    ASSERT_EQ(s.generators[0].count, 200);
    ASSERT_EQ(s.generators[0].process, PROCESS_POISSON);
    ASSERT_EQ(s.generators[0].prog.ops[0].u.loop.times, 200);
    ASSERT_EQ(s.generators[0].prog.ops[0].u.loop.body->ops[0].kind, OP_ARRIVE);
    ASSERT_STREQ(s.generators[0].prog.ops[0].path, "/generators/0");
    ASSERT_EQ(s.warmup, 10 * SIM_MS);
    scenario_free(&s);
}

/* machine.syscalls and a syscall op's "dur": "machine": the machine's cost
 * of the call, per call from the scenario's machine or its profile, never
 * scaled; a call the machine has no cost for, a nanosleep or an io_wait is
 * an error at the op's dur. */
static void test_syscall_machine(void)
{
    struct scenario s;
    load_ok(D "syscall_machine.json", NULL, 0, NULL, &s);
    const struct scn_machine *m = &s.machine;
    ASSERT_EQ(m->syscall_cost[CALL_STAT], 1300 * SIM_NS);
    ASSERT_EQ(m->syscall_cost[CALL_GETPID], 950 * SIM_NS);
    ASSERT_EQ(m->syscall_cost[CALL_WRITE_DEVNULL], 1100 * SIM_NS);   /* a number: ns */
    ASSERT_EQ(m->syscall_cost[CALL_OPEN_DEVNULL], SCN_DUR_UNSET);
    ASSERT_EQ(m->syscall_cost[CALL_CLOSE], SCN_DUR_UNSET);
    ASSERT_EQ(m->syscall_cost[CALL_NANOSLEEP], SCN_DUR_UNSET);
    const struct scn_op *o = s.ractors[0].threads[0].prog.ops;
    ASSERT(o[0].u.syscall.dur_machine && o[0].u.syscall.dur.kind == DIST_CONST);
    ASSERT_EQ(o[0].u.syscall.dur.a, 1300 * SIM_NS);
    ASSERT(o[1].u.syscall.dur_machine && !o[1].u.syscall.releases_gvl);
    ASSERT_EQ(o[1].u.syscall.dur.a, 950 * SIM_NS);
    ASSERT(!o[2].u.syscall.dur_machine);
    ASSERT_EQ(o[2].u.syscall.dur.a, 1 * SIM_US);
    ASSERT_EQ(o[3].u.syscall.dur.a, 1100 * SIM_NS);
    ASSERT(m->work_scale == 2.0);   /* the builder leaves it to the model (test_core) */
    scenario_free(&s);
    /* --set one call: the others still come from the profile; --set dur=machine */
    const char *set1[] = { "machine.syscalls.stat=2us", "ractors.0.threads.0.program.2.dur=machine" };
    load_ok(D "syscall_machine.json", set1, 2, NULL, &s);
    o = s.ractors[0].threads[0].prog.ops;
    ASSERT_STREQ(s.machine.name, "sysbox");
    ASSERT_EQ(o[0].u.syscall.dur.a, 2 * SIM_US);
    ASSERT_EQ(o[1].u.syscall.dur.a, 950 * SIM_NS);
    ASSERT(o[2].u.syscall.dur_machine);
    ASSERT_EQ(o[2].u.syscall.dur.a, 2 * SIM_US);
    scenario_free(&s);
    /* a call the profile has no cost for */
    EXPECT_SET(D "syscall_machine.json", "ractors.0.threads.0.program.0.call=close",
               D "syscall_machine.json:4:47: /ractors/0/threads/0/program/0/dur: \"machine\": the machine profile "
                 "\"sysbox\" has no cost for call \"close\" (machine.syscalls.close): measure it with gvlsim "
                 "calibrate, set it (--set machine.syscalls.close=DURATION), or give the op a duration");
    EXPECT_SET(D "syscall_machine.json", "ractors.0.threads.0.program.0.call=nanosleep",
               D "syscall_machine.json:4:47: /ractors/0/threads/0/program/0/dur: \"machine\": a nanosleep waits for "
                 "its dur, which is no cost of the machine: give it a duration");
    EXPECT_SET(D "syscall_machine.json", "ractors.0.threads.0.program.0.io_wait=true",
               D "syscall_machine.json:4:47: /ractors/0/threads/0/program/0/dur: \"machine\": an io_wait sleeps off "
                 "the CPU for its dur, which is no cost of the machine: give it a duration");
    /* a profile without costs, set on the command line: each op that asks */
    EXPECT_SET(D "syscall_machine.json", "machine=anon",
               D "syscall_machine.json:4:47: /ractors/0/threads/0/program/0/dur: \"machine\": the machine profile "
                 "\"anon\" has no cost for call \"stat\" (machine.syscalls.stat): measure it with gvlsim "
                 "calibrate, set it (--set machine.syscalls.stat=DURATION), or give the op a duration",
               D "syscall_machine.json:5:72: /ractors/0/threads/0/program/1/dur: \"machine\": the machine profile "
                 "\"anon\" has no cost for call \"getpid\" (machine.syscalls.getpid): measure it with gvlsim "
                 "calibrate, set it (--set machine.syscalls.getpid=DURATION), or give the op a duration",
               D "syscall_machine.json:7:56: /ractors/0/threads/0/program/3/dur: \"machine\": the machine profile "
                 "\"anon\" has no cost for call \"write_devnull\" (machine.syscalls.write_devnull): measure it with "
                 "gvlsim calibrate, set it (--set machine.syscalls.write_devnull=DURATION), or give the op a duration");
    /* no machine at all; the op's dur set on the command line (its position) */
    EXPECT_SET(D "minimal.json", "ractors.0.threads.0.program={\"op\": \"syscall\", \"dur\": \"machine\"}",
               "--set[1]:1:29: /ractors/0/threads/0/program: expected an array of ops, got an object");
    EXPECT_SET(D "minimal.json", "ractors.0.threads.0.program=[{\"op\": \"syscall\", \"dur\": \"machine\"}]",
               "--set[1]:1:55: /ractors/0/threads/0/program/0/dur: \"machine\": the default machine (the scenario "
               "names none) has no cost for call \"getpid\" (machine.syscalls.getpid): measure it with gvlsim "
               "calibrate, set it (--set machine.syscalls.getpid=DURATION), or give the op a duration");
    /* a bad cost in the profile's syscalls is the profile's error */
    EXPECT_SET(D "syscall_machine.json", "machine.syscalls.stat=fast",
               "--set[1]:1:23: /machine/syscalls/stat: bad duration \"fast\": not a duration (expected a number and a unit, e.g. \"1.5us\")");
}

/* machine.method_work and a syscall op's "method_work": "machine": the
 * machine's work of the call's Ruby method (File.mtime for stat, File.write
 * for open_devnull), from the scenario's machine or its profile, never
 * scaled (core_method_work); a call with no measured method, or a machine
 * without the key, is an error at the op's method_work. */
/* the machine's per-call costs the ops take ("machine"), found in nested
 * bodies and spawned templates too; a cost given in the op is not read;
 * the GC's keys only with an op that allocates; calls add up (a union) */
static void test_machine_reads(void)
{
    struct scenario s;
    struct scn_reads r = { 0 };
    load_ok(D "syscall_machine.json", NULL, 0, NULL, &s);
    scn_machine_reads(&s, &r);
    const bool *sys = r.syscall, *mw = r.method_work;
    ASSERT(sys[CALL_STAT] && sys[CALL_GETPID] && sys[CALL_WRITE_DEVNULL]);
    ASSERT(!sys[CALL_OPEN_DEVNULL] && !sys[CALL_CLOSE] && !sys[CALL_NANOSLEEP]);
    for (int c = 0; c < CALL_COUNT; c++) ASSERT(!mw[c]);
    ASSERT(!r.gc);
    scenario_free(&s);
    const char *alloc[] = { "ractors.0.threads.0.program.3.allocates=1" };
    load_ok(D "syscall_machine.json", alloc, 1, NULL, &s);
    r = (struct scn_reads){ 0 };
    scn_machine_reads(&s, &r);
    ASSERT(r.gc);
    scenario_free(&s);
    const char *sets[] = {
        "ractors.0.threads=[{\"program\": [{\"op\": \"loop\", \"times\": 2, \"body\": [{\"op\": \"branch\", "
        "\"p\": 0.5, \"then\": [{\"op\": \"syscall\", \"call\": \"stat\", \"dur\": \"1us\", "
        "\"method_work\": \"machine\"}]}]}, {\"op\": \"syscall\", \"call\": \"open_devnull\", \"dur\": \"1us\"}, "
        "{\"op\": \"spawn\", \"thread\": \"s\"}]}, {\"name\": \"s\", \"spawned\": true, \"program\": "
        "[{\"op\": \"syscall\", \"call\": \"getpid\", \"dur\": \"machine\"}]}]",
        "machine.method_work.stat=2us" };
    load_ok(D "syscall_machine.json", sets, 2, NULL, &s);
    r = (struct scn_reads){ 0 };
    scn_machine_reads(&s, &r);
    ASSERT(mw[CALL_STAT] && !sys[CALL_STAT]);
    ASSERT(!sys[CALL_OPEN_DEVNULL] && !mw[CALL_OPEN_DEVNULL]);
    ASSERT(sys[CALL_GETPID] && !sys[CALL_WRITE_DEVNULL]);
    ASSERT(!r.gc);
    scenario_free(&s);
    /* an alloc in a spawned template's branch */
    const char *deep[] = { "ractors.0.threads=[{\"program\": [{\"op\": \"spawn\", \"thread\": \"s\"}]}, "
                           "{\"name\": \"s\", \"spawned\": true, \"program\": [{\"op\": \"branch\", \"p\": 0.5, "
                           "\"then\": [{\"op\": \"alloc\", \"objects\": 1}]}]}]" };
    load_ok(D "syscall_machine.json", deep, 1, NULL, &s);
    r = (struct scn_reads){ 0 };
    scn_machine_reads(&s, &r);
    ASSERT(r.gc && !sys[CALL_STAT]);
    scenario_free(&s);
    /* a second scenario adds its marks to the first's: the union */
    load_ok(D "syscall_machine.json", NULL, 0, NULL, &s);
    scn_machine_reads(&s, &r);
    ASSERT(r.gc && sys[CALL_STAT] && sys[CALL_WRITE_DEVNULL] && !sys[CALL_CLOSE]);
    scenario_free(&s);
}

static void test_method_work_machine(void)
{
    struct scenario s;
    load_ok(D "syscall_machine.json", NULL, 0, NULL, &s);
    ASSERT_EQ(s.machine.method_work_cost[CALL_STAT], 1900 * SIM_NS);
    ASSERT_EQ(s.machine.method_work_cost[CALL_OPEN_DEVNULL], SCN_DUR_UNSET);
    ASSERT_EQ(s.machine.method_work_cost[CALL_GETPID], SCN_DUR_UNSET);
    const struct scn_op *o = s.ractors[0].threads[0].prog.ops;
    ASSERT(!o[0].u.syscall.method_work_machine && o[0].u.syscall.method_work == 0);
    scenario_free(&s);
    const char *set1[] = { "ractors.0.threads.0.program.0.method_work=machine",
                           "ractors.0.threads.0.program.2.method_work=1us" };
    load_ok(D "syscall_machine.json", set1, 2, NULL, &s);
    o = s.ractors[0].threads[0].prog.ops;
    ASSERT(o[0].u.syscall.method_work_machine);
    ASSERT_EQ(o[0].u.syscall.method_work, 1900 * SIM_NS);
    ASSERT_EQ(core_method_work(&o[0], s.machine.work_scale), 1900 * SIM_NS);   /* the machine's: not scaled */
    ASSERT(!o[2].u.syscall.method_work_machine);
    ASSERT_EQ(core_method_work(&o[2], s.machine.work_scale), 2 * SIM_US);      /* work_scale 2 */
    scenario_free(&s);
    /* the scenario's machine object overrides one method */
    const char *set2[] = { "machine.method_work.open_devnull=4.35us",
                           "ractors.0.threads.0.program.0.call=open_devnull",
                           "ractors.0.threads.0.program.0.dur=1us",
                           "ractors.0.threads.0.program.0.method_work=machine" };
    load_ok(D "syscall_machine.json", set2, 4, NULL, &s);
    ASSERT_EQ(s.ractors[0].threads[0].prog.ops[0].u.syscall.method_work, 4350 * SIM_NS);
    ASSERT_EQ(s.machine.method_work_cost[CALL_STAT], 1900 * SIM_NS);
    scenario_free(&s);
    /* a call whose Ruby method calibrate does not time, before or after */
    EXPECT_SET(D "syscall_machine.json", "ractors.0.threads.0.program.1.method_work=machine",
               "--set[1]:1:43: /ractors/0/threads/0/program/1/method_work: \"machine\": no Ruby method's work is "
               "measured for call \"getpid\" (machine.method_work has \"stat\", File.mtime, and "
               "\"open_devnull\", \"write_devnull\" and \"close\", File.write): give the op a duration");
    EXPECT_SET(D "syscall_machine.json", "ractors.0.threads.0.program.1.method_work_after=machine",
               "--set[1]:1:49: /ractors/0/threads/0/program/1/method_work_after: \"machine\": no Ruby method's work "
               "is measured for call \"getpid\" (machine.method_work_after has \"stat\", File.mtime, and "
               "\"open_devnull\", \"write_devnull\" and \"close\", File.write): give the op a duration");
    /* File.write's work between its calls, and after its last, from the machine */
    const char *set3[] = { "machine.method_work.write_devnull=1.9us", "machine.method_work_after.stat=0.4us",
                           "ractors.0.threads.0.program.3.method_work=machine",
                           "ractors.0.threads.0.program.0.method_work_after=machine" };
    load_ok(D "syscall_machine.json", set3, 4, NULL, &s);
    ASSERT_EQ(s.ractors[0].threads[0].prog.ops[3].u.syscall.method_work, 1900 * SIM_NS);
    ASSERT(s.ractors[0].threads[0].prog.ops[3].u.syscall.method_work_machine);
    ASSERT_EQ(s.ractors[0].threads[0].prog.ops[0].u.syscall.method_work_after, 400 * SIM_NS);
    ASSERT(s.ractors[0].threads[0].prog.ops[0].u.syscall.method_work_after_machine);
    ASSERT_EQ(s.machine.method_work_after_cost[CALL_CLOSE], SCN_DUR_UNSET);
    scenario_free(&s);
    /* the machine lacks the part after the call */
    EXPECT_SET(D "syscall_machine.json", "ractors.0.threads.0.program.0.method_work_after=machine",
               "--set[1]:1:49: /ractors/0/threads/0/program/0/method_work_after: \"machine\": the machine profile "
               "\"sysbox\" has no Ruby method work for call \"stat\" (machine.method_work_after.stat): measure it "
               "with gvlsim calibrate (with a Ruby), set it (--set machine.method_work_after.stat=DURATION), or give "
               "the op a duration");
    /* the machine has none for the call */
    EXPECT_SET(D "minimal.json",
               "ractors.0.threads.0.program=[{\"op\": \"syscall\", \"call\": \"stat\", \"dur\": \"1us\", "
               "\"method_work\": \"machine\"}]",
               "--set[1]:1:93: /ractors/0/threads/0/program/0/method_work: \"machine\": the default machine (the "
               "scenario names none) has no Ruby method work for call \"stat\" (machine.method_work.stat): measure "
               "it with gvlsim calibrate (with a Ruby), set it (--set machine.method_work.stat=DURATION), or give "
               "the op a duration");
    /* any other string is a bad duration, as before */
    EXPECT_SET(D "syscall_machine.json", "ractors.0.threads.0.program.0.method_work=mine",
               "--set[1]:1:43: /ractors/0/threads/0/program/0/method_work: bad duration \"mine\": not a duration "
               "(expected a number and a unit, e.g. \"1.5us\")");
}

int main(void)
{
    unsetenv("GVLSIM_MACHINES");  /* the caller's profiles must not leak into "looked in" */
    RUN(test_err_syntax);
    RUN(test_err_unknown_key);
    RUN(test_err_duplicate_key);
    RUN(test_err_wrong_type);
    RUN(test_err_out_of_range);
    RUN(test_err_unknown_enum);
    RUN(test_err_missing_key);
    RUN(test_err_bad_duration);
    RUN(test_err_unknown_queue);
    RUN(test_err_integers);
    RUN(test_err_exclusive);
    RUN(test_err_forever);
    RUN(test_err_too_large);
    RUN(test_err_main_count);
    RUN(test_err_queue_names);
    RUN(test_err_loop_depth);
    RUN(test_loop_depth_limit_fits);
    RUN(test_err_file_limits);
    RUN(test_err_utf8_columns);
    RUN(test_err_many);
    RUN(test_defaults);
    RUN(test_override_forms);
    RUN(test_override_positions);
    RUN(test_override_errors);
    RUN(test_override_machine_profile);
    RUN(test_profile_merge);
    RUN(test_profile_lookup);
    RUN(test_profile_errors);
    RUN(test_profile_not_json);
    RUN(test_err_control_characters);
    RUN(test_messages_escaped);
    RUN(test_diag_capped);
    RUN(test_counts_and_times_total);
    RUN(test_full_round_trip);
    RUN(test_example_scenario);
    RUN(test_err_lang);
    RUN(test_lang_round_trip);
    RUN(test_syscall_machine);
    RUN(test_method_work_machine);
    RUN(test_machine_reads);
    TEST_DONE();
}
