/* test_ruby_gen.c - the Ruby backend's generator, op by op: the exact Ruby
 * emitted for each op (found by the "# /pointer (line N)" comment the
 * generator puts on every op line), the locals a thread method sets up,
 * the Ractor and main parts, the line -> op map, and every refusal.
 * Running the programs is tests/e2e/ruby.sh's job. */
#include <stdlib.h>
#include <unistd.h>

#include "../../common/err.h"
#include "../../exec/ruby_gen.h"
#include "../../input/load.h"
#include "test.h"

struct gen {
    struct scenario scn;
    struct rgen_program prog;
    char err[1024];
    int rc;
};

/* Load `json` (from a temporary file) and generate its program. */
static void gen(struct gen *g, const char *json)
{
    char path[] = "/tmp/gvlsim_rgen_XXXXXX";
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    size_t len = strlen(json);
    ASSERT_EQ(write(fd, json, len), (long long)len);
    close(fd);
    struct diag_list d;
    diag_init(&d);
    struct load_opts lo = { 0 };
    int rc = scn_load(path, &lo, &g->scn, &d);
    for (size_t i = 0; i < d.n; i++) fprintf(stderr, "    | %s\n", d.msgs[i]);
    diag_free(&d);
    unlink(path);
    ASSERT_EQ(rc, GV_OK);
    struct rgen_opts o = { .stat_path = "/etc/hostname" };
    g->err[0] = '\0';
    g->rc = rgen_generate(&g->scn, &o, &g->prog, g->err, sizeof g->err);
}

static void done(struct gen *g)
{
    rgen_program_free(&g->prog);
    scenario_free(&g->scn);
}

/* The lines tagged with op `ptr`, their comments cut off, joined by '\n';
 * leading indentation kept.  Static buffer. */
static const char *op_text(const struct gen *g, const char *ptr)
{
    static char out[4096];
    out[0] = '\0';
    char tag[256];
    snprintf(tag, sizeof tag, " # %s (line ", ptr);
    const char *s = g->prog.text;
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        const char *hit = NULL;
        for (const char *p = s; p + strlen(tag) <= s + n; p++)
            if (!strncmp(p, tag, strlen(tag))) hit = p;
        if (hit) {
            size_t used = strlen(out);
            snprintf(out + used, sizeof out - used, "%s%.*s", used ? "\n" : "", (int)(hit - s), s);
        }
        s = nl ? nl + 1 : NULL;
    }
    return out;
}

/* A one-thread scenario whose program is `ops` (JSON), `extra` top-level keys. */
static void gen_ops(struct gen *g, const char *extra, const char *ops)
{
    char json[4096];
    snprintf(json, sizeof json,
             "{ \"name\": \"t\", %s \"ractors\": [ { \"threads\": [ { \"name\": \"main\", \"program\": [ %s ] } ] } ] }",
             extra, ops);
    gen(g, json);
    if (g->rc != GV_OK) fprintf(stderr, "    rgen: %s\n", g->err);
    ASSERT_EQ(g->rc, GV_OK);
}

#define P0 "/ractors/0/threads/0/program/0"

static void test_compute(void)
{
    struct gen g;
    gen_ops(&g, "", "{ \"op\": \"compute\", \"dur\": \"550ns\" }");
    ASSERT_STREQ(op_text(&g, P0), "  c = gv_spin(550.000, c)");
    done(&g);
    gen_ops(&g, "", "{ \"op\": \"compute\", \"dur\": { \"dist\": \"uniform\", \"min\": \"0.4us\", \"max\": \"0.8us\" } }");
    ASSERT_STREQ(op_text(&g, P0), "  c = gv_spin(400.000 + 400.000 * rng.rand, c)");
    ASSERT_CONTAINS(g.prog.text, "\n  rng = Random.new(seed)\n");
    done(&g);
    gen_ops(&g, "", "{ \"op\": \"compute\", \"dur\": { \"dist\": \"exp\", \"mean\": \"2us\" } }");
    ASSERT_STREQ(op_text(&g, P0), "  c = gv_spin(-2000.000 * Math.log(1.0 - rng.rand), c)");
    done(&g);
    /* sub-nanosecond durations keep their picoseconds */
    gen_ops(&g, "", "{ \"op\": \"compute\", \"dur\": \"1500ps\" }");
    ASSERT_STREQ(op_text(&g, P0), "  c = gv_spin(1.500, c)");
    ASSERT(!strstr(g.prog.text, "rng = Random.new"));  /* nothing drawn */
    done(&g);
    gen_ops(&g, "", "{ \"op\": \"compute\", \"insns\": 1057137368 }");
    ASSERT_STREQ(op_text(&g, P0), "  ins += gv_insns(1057137368)");
    done(&g);
}

static void test_syscall(void)
{
    struct gen g;
    gen_ops(&g, "", "{ \"op\": \"syscall\", \"call\": \"stat\", \"dur\": \"1us\" }");
    ASSERT_STREQ(op_text(&g, P0), "  File.mtime(GV_STAT); sys += 1");
    ASSERT_CONTAINS(g.prog.text, "\nGV_STAT = \"/etc/hostname\"\n");
    done(&g);
    gen_ops(&g, "", "{ \"op\": \"syscall\", \"call\": \"getpid\", \"releases_gvl\": false, \"dur\": \"1us\" }");
    ASSERT_STREQ(op_text(&g, P0), "  Process.ppid; sys += 1");
    done(&g);
    gen_ops(&g, "", "{ \"op\": \"syscall\", \"call\": \"write_devnull\", \"dur\": \"1us\" }");
    ASSERT_STREQ(op_text(&g, P0), "  (fd || dn).syswrite(\"0\"); sys += 1");
    ASSERT_CONTAINS(g.prog.text, "\n  dn = File.open(GV_NULL, \"w\")\n  fd = nil\n");
    done(&g);
    gen_ops(&g, "", "{ \"op\": \"syscall\", \"call\": \"open_devnull\", \"dur\": \"1us\" }, "
                    "{ \"op\": \"syscall\", \"call\": \"close\", \"dur\": \"1us\" }");
    ASSERT_STREQ(op_text(&g, P0), "  fd&.close; fd = File.open(GV_NULL, \"w\"); sys += 1");
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/0/program/1"), "  fd&.close; fd = nil; sys += 1");
    done(&g);
    /* open + write + close of /dev/null is File.write: one Ruby call */
    gen_ops(&g, "", "{ \"op\": \"syscall\", \"call\": \"open_devnull\", \"dur\": \"0.31us\" }, "
                    "{ \"op\": \"syscall\", \"call\": \"write_devnull\", \"dur\": \"0.12us\" }, "
                    "{ \"op\": \"syscall\", \"call\": \"close\", \"dur\": \"0.19us\" }");
    ASSERT_STREQ(op_text(&g, P0), "  File.write(GV_NULL, \"0\"); sys += 3");
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/0/program/1"), "  # (File.write: write)");
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/0/program/2"), "  # (File.write: close)");
    done(&g);
    /* method_work is the real method's own: no spin for it */
    gen_ops(&g, "", "{ \"op\": \"syscall\", \"call\": \"stat\", \"dur\": \"1us\", \"method_work\": \"2us\" }");
    ASSERT_STREQ(op_text(&g, P0), "  File.mtime(GV_STAT); sys += 1");
    done(&g);
    /* an I/O wait: IO.select on a pipe nobody writes, for the op's duration */
    gen_ops(&g, "", "{ \"op\": \"syscall\", \"call\": \"nanosleep\", \"dur\": \"50us\" }");
    ASSERT_STREQ(op_text(&g, P0), "  IO.select([nv], nil, nil, 5e-05); sys += 1");
    ASSERT_CONTAINS(g.prog.text, "\n  nv, _nvw = IO.pipe\n");
    done(&g);
    gen_ops(&g, "", "{ \"op\": \"syscall\", \"call\": \"stat\", \"io_wait\": true, "
                    "\"dur\": { \"dist\": \"uniform\", \"min\": \"1ms\", \"max\": \"3ms\" } }");
    ASSERT_STREQ(op_text(&g, P0), "  File.mtime(GV_STAT); sys += 1\n"
                                  "  IO.select([nv], nil, nil, (1000000.000 + 2000000.000 * rng.rand) / 1e9); sys += 1");
    done(&g);
    /* with stop.time, a wait never outlasts the stop */
    gen_ops(&g, "\"stop\": { \"time\": \"1s\" },", "{ \"op\": \"syscall\", \"call\": \"nanosleep\", \"dur\": \"20ms\" }");
    ASSERT_STREQ(op_text(&g, P0), "    gv_iowait(nv, 0.02, st); sys += 1");
    done(&g);
}

static void test_queues_sleep_escape_join(void)
{
    struct gen g;
    gen_ops(&g, "\"queues\": [ { \"name\": \"a.b-c\" }, { \"name\": \"q\", \"initial\": 3 } ],",
            "{ \"op\": \"queue_push\", \"queue\": \"q\" }, { \"op\": \"queue_pop\", \"queue\": \"q\" }, "
            "{ \"op\": \"sleep\", \"dur\": \"1ms\" }, { \"op\": \"env_escape\", \"iseq\": 7 }, { \"op\": \"join\" }");
    ASSERT_STREQ(op_text(&g, P0), "  q1.push(1)");
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/0/program/1"), "  q1.pop");
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/0/program/2"), "  sleep(0.001)");
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/0/program/3"), "  gv_escape_7");
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/0/program/4"), "  gv_join");
    /* the queue local, the queues of the main Ractor with their initial items */
    ASSERT_CONTAINS(g.prog.text, "\n  q1 = res[1] # queue \"q\"\n");
    ASSERT(!strstr(g.prog.text, "q0 = res[0]"));
    ASSERT_CONTAINS(g.prog.text, "\nres = [Thread::Queue.new, Thread::Queue.new]\n3.times { res[1] << 1 }\n");
    /* the escape: a lambda capturing a local of a method of its own */
    ASSERT_CONTAINS(g.prog.text, "\ndef gv_escape_7\n  x = 7\n  -> { x }\nend\n");
    done(&g);
    gen_ops(&g, "\"queues\": [ { \"name\": \"q\" } ], \"stop\": { \"time\": \"1s\" },",
            "{ \"op\": \"queue_pop\", \"queue\": \"q\" }, { \"op\": \"sleep\", \"dur\": { \"dist\": \"exp\", \"mean\": \"1ms\" } }");
    /* stop.time closes the queues: a parked pop returns nil */
    ASSERT_STREQ(op_text(&g, P0), "    q0.pop || raise(GvStop)");
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/0/program/1"),
                 "    gv_sleep((-1000000.000 * Math.log(1.0 - rng.rand)) / 1e9, st)");
    ASSERT_CONTAINS(g.prog.text, "\n  rescue GvStop\n  rescue ClosedQueueError\n    raise unless st[0]\n  end\n");
    ASSERT_CONTAINS(g.prog.text, "\nGV_STOP_NS = 1000000000\n");
    ASSERT_CONTAINS(g.prog.text, "\ngv_stopper_th = Thread.new { gate.pop; gv_stopper(st, tstop, res) }\n");
    ASSERT_CONTAINS(g.prog.text, "\ngv_finish(main, st, tstop, gv_stopper_th)\n");
    done(&g);
}

static void test_loops(void)
{
    struct gen g;
    gen_ops(&g, "",
            "{ \"op\": \"loop\", \"times\": 5, \"measure\": true, \"body\": ["
            "  { \"op\": \"loop\", \"times\": 3, \"body\": [ { \"op\": \"compute\", \"dur\": \"1us\" } ] } ] }");
    ASSERT_STREQ(op_text(&g, P0), "  n1 = 5; i1 = 0");
    ASSERT_STREQ(op_text(&g, P0 "/body/0"), "    n2 = 3; i2 = 0");
    ASSERT_CONTAINS(g.prog.text,
                    "  n1 = 5; i1 = 0 # " P0 " (line 1)\n"
                    "  while i1 < n1\n"
                    "    n2 = 3; i2 = 0 # " P0 "/body/0 (line 1)\n"
                    "    while i2 < n2\n"
                    "      c = gv_spin(1000.000, c) # " P0 "/body/0/body/0 (line 1)\n"
                    "      i2 += 1\n"
                    "    end\n"
                    "    ops += 1\n"
                    "    i1 += 1\n"
                    "  end\n");
    done(&g);
    /* times_total: the instance's share of 10 over 2 Ractor copies x 2 threads = 4 instances */
    gen(&g, "{ \"ractors\": [ { \"threads\": [ { \"program\": [ { \"op\": \"join\" } ] } ] },"
            " { \"name\": \"r\", \"count\": 2, \"threads\": [ { \"name\": \"w\", \"count\": 2, \"program\": ["
            "   { \"op\": \"loop\", \"times_total\": 10, \"body\": [ { \"op\": \"compute\", \"dur\": \"1us\" } ] },"
            "   { \"op\": \"loop\", \"times_total\": 8, \"body\": [ { \"op\": \"compute\", \"dur\": \"1us\" } ] } ] } ] } ] }");
    ASSERT_EQ(g.rc, GV_OK);
    ASSERT_STREQ(op_text(&g, "/ractors/1/threads/0/program/0"), "  n1 = 2 + (inst < 2 ? 1 : 0); i1 = 0");
    ASSERT_STREQ(op_text(&g, "/ractors/1/threads/0/program/1"), "  n1 = 2; i1 = 0");
    done(&g);
    /* forever, with the stop flag checked at every iteration */
    gen_ops(&g, "\"stop\": { \"time\": \"10ms\" },",
            "{ \"op\": \"loop\", \"forever\": true, \"measure\": true, \"body\": [ { \"op\": \"compute\", \"dur\": \"1us\" } ] }");
    ASSERT_CONTAINS(g.prog.text,
                    "    while true # " P0 " (line 1)\n"
                    "      raise GvStop if st[0]\n"
                    "      c = gv_spin(1000.000, c) # " P0 "/body/0 (line 1)\n"
                    "      ops += 1\n"
                    "    end\n");
    done(&g);
}

static void test_ractors_and_threads(void)
{
    struct gen g;
    gen(&g, "{ \"seed\": 3, \"queues\": [ { \"name\": \"rq\" } ], \"ractors\": ["
            " { \"name\": \"main\", \"threads\": [ { \"name\": \"main\", \"program\": [ { \"op\": \"join\" } ] },"
            "   { \"name\": \"h\\\"#{x}\", \"count\": 2, \"program\": [] } ] },"
            " { \"name\": \"one\", \"threads\": [ { \"name\": \"a\", \"program\": [ { \"op\": \"queue_push\", \"queue\": \"rq\" } ] },"
            "   { \"name\": \"b\", \"program\": [ { \"op\": \"queue_pop\", \"queue\": \"rq\" } ] } ] },"
            " { \"name\": \"r\", \"count\": 3, \"threads\": [ { \"name\": \"w\", \"count\": 2, \"program\": [] } ] } ] }");
    ASSERT_EQ(g.rc, GV_OK);
    const char *t = g.prog.text;
    ASSERT_CONTAINS(t, "\nGV_SEED = 3\nGV_RACTORS = 5\n");
    /* thread names as both backends give them, escaped (no interpolation) */
    ASSERT_CONTAINS(t, "    Thread.current.name = \"main/h\\\"\\#{x}##{j}\"\n");
    /* main Ractor: the helper threads; instance j, the seed of thread 1 + j */
    ASSERT_CONTAINS(t, "gv_fin(0, gv_t0_1(0 * 2 + j, GV_SEED * 1_000_003 + 1 + 0 * 3 + j, st, gate, res))");
    /* Ractor "one" owns rq; the main Ractor does not */
    ASSERT_CONTAINS(t, "\nres = [nil]\n");
    ASSERT_CONTAINS(t, "\ndef gv_r1(k)\n  ri = 1 + k\n");
    ASSERT_CONTAINS(t, "\n  res = [Thread::Queue.new]\n");
    ASSERT_CONTAINS(t, "  $gv_ractors << Ractor.new(k, name: \"one\") { |rk| gv_r1(rk) }\n");
    /* Ractor "r" x3: Ractor instances 2..4, thread instances 5.. (3 + 2 of ractor one) */
    ASSERT_CONTAINS(t, "\ndef gv_r2(k)\n  ri = 2 + k\n");
    ASSERT_CONTAINS(t, "  $gv_ractors << Ractor.new(k, name: \"r##{k}\") { |rk| gv_r2(rk) }\n");
    ASSERT_CONTAINS(t, "    Thread.current.name = \"r##{k}/w##{j}\"\n");
    ASSERT_CONTAINS(t, "gv_fin(ri, gv_t2_0(k * 2 + j, GV_SEED * 1_000_003 + 5 + k * 2 + j, st, gate, res))");
    ASSERT_CONTAINS(t, "  out = [gv_fin(ri, gv_t2_0(k * 2, GV_SEED * 1_000_003 + 5 + k * 2, st, go, res))]\n");
    ASSERT_CONTAINS(t, "  Ractor.main.send([:done, ri, out, tstop[0]])\n");
    ASSERT_CONTAINS(t, "\ngo = GvGate.new { gv_start(gate, st, 0) }\nThread.current.name = \"main/main\"\n");
    ASSERT_CONTAINS(t, "\ngv_finish(main, st, tstop, nil)\n");
    /* the line -> op map */
    int ln = 1;
    const char *hit = strstr(t, "  q0.pop # /ractors/1/threads/1/program/0");
    ASSERT(hit != NULL);
    for (const char *p = t; p < hit; p++) ln += *p == '\n';
    const struct scn_op *op = rgen_op_at(&g.prog, ln);
    ASSERT(op != NULL);
    ASSERT_STREQ(op->path, "/ractors/1/threads/1/program/0");
    ASSERT(rgen_op_at(&g.prog, ln + 1) == NULL);
    ASSERT(rgen_op_at(&g.prog, 1) == NULL);
    done(&g);
}

/* Load `json`; expect rgen_check to refuse it with `msg`. */
static void refused(const char *json, const char *msg)
{
    struct gen g;
    gen(&g, json);
    ASSERT_EQ(g.rc, GV_EUNSUP);
    ASSERT_STREQ(g.err, msg);
    char err[1024];
    ASSERT_EQ(rgen_check(&g.scn, err, sizeof err), GV_EUNSUP);
    ASSERT_STREQ(err, msg);
    done(&g);
}

static void test_refusals(void)
{
    refused("{ \"ractors\": [ { \"threads\": [ { \"program\": [\n"
            "{ \"op\": \"syscall\", \"call\": \"getpid\", \"dur\": \"1us\" } ] } ] } ] }",
            P0 " (line 2): syscall \"getpid\" with releases_gvl: no Ruby method releases the GVL around "
               "getppid(2); use releases_gvl false (Process.ppid) or call \"stat\" (File.mtime)");
    refused("{ \"ractors\": [ { \"threads\": [ { \"program\": [\n"
            "{ \"op\": \"syscall\", \"call\": \"stat\", \"releases_gvl\": false, \"dur\": \"1us\" } ] } ] } ] }",
            P0 " (line 2): syscall \"stat\" with releases_gvl false: Ruby always releases the GVL around it "
               "(File.mtime, File.open, IO#syswrite, IO#close, IO.select are blocking regions)");
    refused("{ \"ractors\": [ { \"threads\": [ { \"program\": [] }, { \"program\": [\n"
            "{ \"op\": \"join\" } ] } ] } ] }",
            "/ractors/0/threads/1/program/0 (line 2): join is generated only in the main thread "
            "(ractors[0].threads[0] with count 1): another thread cannot wait for the threads of other Ractors");
    refused("{ \"queues\": [ { \"name\": \"q\" } ], \"ractors\": [ { \"threads\": [ { \"program\": [\n"
            "{ \"op\": \"queue_push\", \"queue\": \"q\" } ] } ] },\n"
            "{ \"threads\": [ { \"program\": [ { \"op\": \"queue_pop\", \"queue\": \"q\" } ] } ] } ] }",
            "/ractors/1/threads/0/program/0 (line 3): queue \"q\" is used by threads of ractors[0] and "
            "ractors[1]: a Thread::Queue cannot be shared between Ractors");
    refused("{ \"queues\": [ { \"name\": \"q\" } ], \"ractors\": [ { \"threads\": [ { \"program\": [] } ] },\n"
            "{ \"count\": 2, \"threads\": [ { \"program\": [ { \"op\": \"queue_pop\", \"queue\": \"q\" } ] } ] } ] }",
            "/ractors/1/threads/0/program/0 (line 2): queue \"q\" is used by ractors[1], which has 2 copies: "
            "a Thread::Queue cannot be shared between Ractors");
}

/* The application ops (issue 11): distributions, timed pops, measures,
 * branches, Mutex, ConditionVariable, spawn, alloc, generators. */
static void test_app_ops(void)
{
    struct gen g;
    /* lognormal (median, sigma) and empirical durations */
    gen_ops(&g, "", "{ \"op\": \"compute\", \"dur\": { \"dist\": \"lognormal\", \"median\": \"2us\", \"sigma\": 0.5 } },"
                    "{ \"op\": \"sleep\", \"dur\": { \"dist\": \"empirical\", \"values\": [ \"1ms\", \"3ms\" ],"
                    " \"weights\": [ 3, 1 ] } }");
    ASSERT_STREQ(op_text(&g, P0), "  c = gv_spin(2000.000 * Math.exp(0.5 * gv_normal(rng)), c)");
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/0/program/1"), "  sleep((gv_pick(rng, *GV_EMP0)) / 1e9)");
    ASSERT_CONTAINS(g.prog.text, "\nGV_EMP0 = [[1000000.000, 3000000.000], [3, 4]].freeze\n");
    ASSERT_CONTAINS(g.prog.text, "\n  rng = Random.new(seed)\n");
    done(&g);

    /* a timed pop counts its timeouts; a measured loop from the pop */
    gen_ops(&g, "\"queues\": [ { \"name\": \"q\", \"initial\": 2 } ], \"measures\": [ { \"name\": \"m\" } ],"
                " \"warmup\": \"5ms\",",
            "{ \"op\": \"loop\", \"times\": 2, \"measure\": \"m\", \"latency_from\": \"pop\", \"body\": ["
            "  { \"op\": \"queue_pop\", \"queue\": \"q\", \"timeout\": \"10ms\" },"
            "  { \"op\": \"queue_push\", \"queue\": \"q\" } ] }");
    ASSERT_CONTAINS(g.prog.text,
                    "  n1 = 2; i1 = 0 # " P0 " (line 1)\n"
                    "  while i1 < n1\n"
                    "    ms1 = gv_now\n"
                    "    mp1 = false\n"
                    "    x = q0.pop(timeout: 0.01) # " P0 "/body/0 (line 1)\n"
                    "    to += 1 unless x\n"
                    "    if x && !mp1\n"
                    "      mp1 = true\n"
                    "      ms1 = x > 0 ? x : st[2] # an item present at the start arrived then\n"
                    "    end\n"
                    "    q0.push(gv_now) # " P0 "/body/1 (line 1)\n"
                    "    gv_sample(lat[0], ms1, st)\n"
                    "    i1 += 1\n"
                    "  end\n");
    /* items present at the start arrived at the start (0) */
    ASSERT_CONTAINS(g.prog.text, "\n2.times { res[0] << 0 }\n");
    ASSERT_CONTAINS(g.prog.text, "\nGV_WARMUP_NS = 5000000\nGV_MEASURES = 1\n");
    ASSERT_CONTAINS(g.prog.text, "\n  lat = Array.new(1) { [] }\n");
    done(&g);
    /* ops count after the warm-up */
    gen_ops(&g, "\"warmup\": \"5ms\",",
            "{ \"op\": \"loop\", \"times\": 2, \"measure\": true, \"body\": [ { \"op\": \"compute\", \"dur\": \"1us\" } ] }");
    ASSERT_CONTAINS(g.prog.text, "\n    ops += 1 if gv_now - st[2] >= GV_WARMUP_NS\n");
    done(&g);

    /* measure and branch blocks */
    gen_ops(&g, "\"measures\": [ { \"name\": \"a\" }, { \"name\": \"b\" } ],",
            "{ \"op\": \"measure\", \"name\": \"b\", \"body\": ["
            "  { \"op\": \"branch\", \"p\": 0.25, \"then\": [ { \"op\": \"compute\", \"dur\": \"1us\" } ],"
            "    \"else\": [ { \"op\": \"compute\", \"dur\": \"2us\" } ] } ] }");
    ASSERT_CONTAINS(g.prog.text,
                    "  ms1 = gv_now # " P0 " (line 1)\n"
                    "  if rng.rand < 0.25 # " P0 "/body/0 (line 1)\n"
                    "    c = gv_spin(1000.000, c) # " P0 "/body/0/then/0 (line 1)\n"
                    "  else\n"
                    "    c = gv_spin(2000.000, c) # " P0 "/body/0/else/0 (line 1)\n"
                    "  end\n"
                    "  gv_sample(lat[1], ms1, st)\n");
    done(&g);

    /* Mutex and ConditionVariable: created by the main Ractor after its queues */
    gen_ops(&g, "\"queues\": [ { \"name\": \"pool\" } ], \"mutexes\": [ { \"name\": \"m\" } ],"
                " \"condvars\": [ { \"name\": \"cv\" } ],",
            "{ \"op\": \"mutex_lock\", \"mutex\": \"m\" }, { \"op\": \"mutex_unlock\", \"mutex\": \"m\" },"
            "{ \"op\": \"synchronize\", \"mutex\": \"m\", \"body\": ["
            "  { \"op\": \"cv_wait\", \"cv\": \"cv\", \"mutex\": \"m\" },"
            "  { \"op\": \"cv_wait\", \"cv\": \"cv\", \"mutex\": \"m\", \"timeout\": \"2ms\" },"
            "  { \"op\": \"cv_wait\", \"cv\": \"cv\", \"mutex\": \"m\", \"while_empty\": \"pool\", \"timeout\": \"1s\","
            "    \"on_timeout\": \"raise\" },"
            "  { \"op\": \"cv_signal\", \"cv\": \"cv\" }, { \"op\": \"cv_broadcast\", \"cv\": \"cv\" } ] }");
    ASSERT_STREQ(op_text(&g, P0), "    m0.lock");  /* inside begin ... rescue GvRaise */
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/0/program/1"), "    m0.unlock");
    ASSERT_CONTAINS(g.prog.text,
                    "    m0.synchronize do # /ractors/0/threads/0/program/2 (line 1)\n"
                    "      cv0.wait(m0) # /ractors/0/threads/0/program/2/body/0 (line 1)\n"
                    "      w0 = gv_now; cv0.wait(m0, 0.002) # /ractors/0/threads/0/program/2/body/1 (line 1)\n"
                    "      if gv_now - w0 >= 2000000\n"
                    "        to += 1\n"
                    "      end\n"
                    "      dl = gv_now + 1000000000 # /ractors/0/threads/0/program/2/body/2 (line 1)\n"
                    "      while q0.empty?\n"
                    "        w = dl - gv_now\n"
                    "        if w <= 0\n"
                    "          to += 1\n"
                    "          raise GvRaise\n"
                    "        end\n"
                    "        cv0.wait(m0, w / 1e9)\n"
                    "      end\n"
                    "      cv0.signal # /ractors/0/threads/0/program/2/body/3 (line 1)\n"
                    "      cv0.broadcast # /ractors/0/threads/0/program/2/body/4 (line 1)\n"
                    "    end\n");
    ASSERT_CONTAINS(g.prog.text, "\n  rescue GvRaise # on_timeout raise: an exception not rescued ends the thread\n");
    ASSERT_CONTAINS(g.prog.text, "\n  m0 = res[1] # mutex \"m\"\n  cv0 = res[2] # condition variable \"cv\"\n");
    ASSERT_CONTAINS(g.prog.text, "\nres = [Thread::Queue.new, Thread::Mutex.new, Thread::ConditionVariable.new]\n");
    done(&g);

    /* spawn, join of a template, alloc */
    gen(&g, "{ \"ractors\": [ { \"threads\": [ { \"name\": \"main\", \"program\": ["
            "  { \"op\": \"spawn\", \"thread\": \"w\" }, { \"op\": \"join\", \"thread\": \"w\" } ] },"
            " { \"name\": \"w\", \"count\": 2, \"spawned\": true, \"program\": ["
            "  { \"op\": \"alloc\", \"objects\": 100, \"survive\": 0.1 }, { \"op\": \"alloc\", \"objects\": 5 },"
            "  { \"op\": \"gc\", \"dur\": \"2ms\" } ] } ] } ] }");
    ASSERT_EQ(g.rc, GV_OK);
    ASSERT_STREQ(op_text(&g, P0), "  gv_spawn_0_1(st, res)");
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/0/program/1"), "  $gv_tmpl[1].each(&:join)");
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/1/program/0"), "  10.times { keep << Object.new }; 90.times { Object.new }");
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/1/program/1"), "  5.times { Object.new }");
    /* a collection of a given length: the GVL held for it (Ruby cannot collect for a given time) */
    ASSERT_STREQ(op_text(&g, "/ractors/0/threads/1/program/2"), "  c = gv_spin(2000000.000, c)");
    ASSERT_CONTAINS(g.prog.text, "\n  keep = []\n");
    ASSERT_CONTAINS(g.prog.text,
                    "\ndef gv_spawn_0_1(st, res)\n"
                    "  j = $gv_tmpl[1].size\n"
                    "  raise \"spawn: every instance of thread template \" + \"w\" + \" is already spawned\" if j >= 2\n"
                    "  th = Thread.new do\n"
                    "    Thread.current.name = \"w##{j}\"\n"
                    "    gv_fin(0, gv_t0_1(j, GV_SEED * 1_000_003 + 1 + j, st, GvGate.new {}, res))\n"
                    "  end\n"
                    "  $gv_tmpl[1] << th\n"
                    "  $gv_threads << th\n"
                    "end\n");
    ASSERT(!strstr(g.prog.text, "# ractors[0].threads[1] \"w\"\n(0...2)"));  /* not started with the others */
    done(&g);

    /* a generator: a thread of the main Ractor pushing arrival times */
    gen(&g, "{ \"queues\": [ { \"name\": \"q\" } ], \"stop\": { \"time\": \"1s\" },"
            " \"generators\": [ { \"name\": \"g\", \"queue\": \"q\", \"rate\": 100, \"start\": \"2ms\" } ],"
            " \"ractors\": [ { \"threads\": [ { \"program\": [ { \"op\": \"queue_pop\", \"queue\": \"q\" } ] } ] } ] }");
    ASSERT_EQ(g.rc, GV_OK);
    ASSERT_CONTAINS(g.prog.text,
                    "\ndef gv_g0(seed, st, gate, res)\n"
                    "  rng = Random.new(seed)\n"
                    "  q = res[0]\n"
                    "  n = 0\n"
                    "  gate.pop\n"
                    "  t = st[2] + 2000000\n"
                    "  begin\n"
                    "    while true\n"
                    "      t += (-10000000.000 * Math.log(1.0 - rng.rand)).round\n"
                    "      w = t - gv_now\n"
                    "      gv_sleep(w / 1e9, st) if w > 0\n"
                    "      q.push(t)\n"
                    "      n += 1\n"
                    "    end\n"
                    "  rescue GvStop\n"
                    "  rescue ClosedQueueError\n"
                    "    raise unless st[0]\n"
                    "  end\n"
                    "  [0, 0, 0, 0, Array.new(0) { [] }]\n"
                    "end\n");
    ASSERT_CONTAINS(g.prog.text, "  gv_fin(0, gv_g0(GV_SEED * 1_000_003 + 1000000, st, gate, res))\n");
    done(&g);
}

static void test_app_refusals(void)
{
    refused("{ \"ractors\": [ { \"threads\": [ { \"program\": [] } ] },\n"
            "{ \"threads\": [ { \"program\": [ { \"op\": \"spawn\", \"thread\": \"w\" } ] },\n"
            "  { \"name\": \"w\", \"spawned\": true, \"program\": [] } ] } ] }",
            "/ractors/1/threads/0/program/0 (line 2): spawn is generated only in the main Ractor "
            "(its threads are joined there)");
    refused("{ \"queues\": [ { \"name\": \"q\" } ], \"stop\": { \"time\": \"1s\" },\n"
            " \"generators\": [ { \"name\": \"g\", \"queue\": \"q\", \"rate\": 100 } ],\n"
            " \"ractors\": [ { \"threads\": [ { \"program\": [] } ] },\n"
            "{ \"threads\": [ { \"program\": [ { \"op\": \"queue_pop\", \"queue\": \"q\" } ] } ] } ] }",
            "/generators/0: queue \"q\" is used by threads of ractors[1]: a generator is a thread of the main "
            "Ractor, and a Thread::Queue cannot be shared between Ractors");
}

/* The prelude's parts the generated code relies on. */
static void test_prelude(void)
{
    struct gen g;
    gen_ops(&g, "", "{ \"op\": \"compute\", \"dur\": \"1us\" }");
    const char *t = g.prog.text;
    ASSERT(!strncmp(t, "# frozen_string_literal: true\n", 30));  /* must be the first comment */
    const char *defs[] = { "def gv_loop(n)", "def gv_spin(ns, carry)", "def gv_insns(n)", "def gv_insn_shape",
                           "def gv_calibrate", "def gv_status", "def gv_tasks", "def gv_fin(ri, r)",
                           "def gv_sleep(s, st)", "def gv_iowait(io, s, st)", "def gv_stopper(st, tstop, res)",
                           "def gv_join", "def gv_start(gate, st, stop_ns)", "def gv_finish(main, st, tstop, stopper)",
                           "def gv_report(", "class GvGate", "class GvStop", "trap(\"USR1\")",
                           "class GvRaise", "def gv_normal(rng)", "def gv_pick(rng, vals, cum)",
                           "def gv_sample(a, t0, st)", "def gv_left(st)", "def gv_measures" };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++) ASSERT_CONTAINS(t, defs[i]);
    ASSERT_CONTAINS(t, "\nGV_MAX_SPREAD = 0.1\n");
    ASSERT_CONTAINS(t, "exit 3\n");  /* RGEN_EXIT_CALIBRATION */
    ASSERT_EQ(RGEN_EXIT_CALIBRATION, 3);
    ASSERT_CONTAINS(t, "  $stderr.flush\n  exit!(4)\nend\n");  /* the watchdog's dump ends the program */
    ASSERT_EQ(RGEN_EXIT_WATCHDOG, 4);
    done(&g);
}

int main(void)
{
    RUN(test_compute);
    RUN(test_syscall);
    RUN(test_queues_sleep_escape_join);
    RUN(test_loops);
    RUN(test_ractors_and_threads);
    RUN(test_refusals);
    RUN(test_app_ops);
    RUN(test_app_refusals);
    RUN(test_prelude);
    TEST_DONE();
}
