/* test_import.c - gvlsim import: reading traces (both forms, gzip, the
 * malformed ones), classifying waits, and the scenario it emits. */
#include <stdarg.h>
#include <zlib.h>

#include "../../common/err.h"
#include "../../input/import.h"
#include "../../input/load.h"
#include "../../input/scenario.h"
#include "sim_fixture.h"
#include "test.h"

/* ---- a trace builder ------------------------------------------------------ */

struct tb {
    char s[1 << 16];
    size_t n;
    int events;
};

static void tb_raw(struct tb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tb_raw(struct tb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
    va_end(ap);
    ASSERT(w > 0 && (size_t)w < sizeof b->s - b->n);
    b->n += (size_t)w;
}

static void tb_sep(struct tb *b) { tb_raw(b, b->events++ ? ",\n  " : "[\n  "); }

/* gvl-tracing's state change: E closing the previous state, B opening `st` */
static void st(struct tb *b, int tid, double us, const char *state)
{
    tb_sep(b);
    tb_raw(b, "{\"ph\": \"E\", \"pid\": 7, \"tid\": %d, \"ts\": %.3f},\n  ", tid, us);
    b->events++;
    tb_raw(b, "{\"ph\": \"B\", \"pid\": 7, \"tid\": %d, \"ts\": %.3f, \"name\": \"%s\"}", tid, us, state);
}

static void tname(struct tb *b, int tid, const char *name)
{
    tb_sep(b);
    tb_raw(b, "{\"ph\": \"M\", \"pid\": 7, \"tid\": %d, \"name\": \"thread_name\", \"args\": {\"name\": \"%s\"}}",
           tid, name);
}

static const char *tb_end(struct tb *b)
{
    tb_raw(b, "\n]\n");
    return b->s;
}

static int read_text(const char *text, struct imp_trace *t, struct diag_list *d)
{
    diag_init(d);
    return imp_read_mem("t.json", text, strlen(text), t, d);
}

/* Read `text`, expect GV_EINVAL with one message containing `want`. */
static void expect_error(const char *text, const char *want)
{
    struct imp_trace t;
    struct diag_list d;
    int rc = read_text(text, &t, &d);
    if (rc != GV_EINVAL || d.n == 0 || !strstr(d.msgs[0], want)) {
        fprintf(stderr, "expected an error containing \"%s\", got rc %d:\n", want, rc);
        for (size_t i = 0; i < d.n; i++) fprintf(stderr, "  %s\n", d.msgs[i]);
        abort();
    }
    diag_free(&d);
}

static const struct imp_thread *thread_named(const struct imp_trace *t, const char *name)
{
    for (int i = 0; i < t->nthreads; i++)
        if (!strcmp(t->threads[i].name, name)) return &t->threads[i];
    fprintf(stderr, "no thread \"%s\"\n", name);
    abort();
}

static int thread_index(const struct imp_trace *t, const char *name)
{
    return (int)(thread_named(t, name) - t->threads);
}

/* The i-th waiting segment of a thread. */
static const struct imp_seg *wait_of(const struct imp_trace *t, const char *name, int i)
{
    const struct imp_thread *th = thread_named(t, name);
    for (int k = 0; k < th->nsegs; k++)
        if (th->segs[k].st == IMP_WAITING && i-- == 0) return &th->segs[k];
    fprintf(stderr, "thread %s has no such wait\n", name);
    abort();
}

/* the worker dies at `died`, main's join ends 10 us later, and tracing
 * stops 10 us after that */
/* a trace whose main thread runs from 0 and whose second thread, started
 * at 1 us, wants the GVL from 5 us */
static void ready_at_5us(struct tb *b)
{
    memset(b, 0, sizeof *b);
    st(b, 1, 0, "started_tracing");
    st(b, 2, 1, "started");
    st(b, 2, 5, "wants_gvl");
}

/* read a trace, classify its waits and measure its GVL latencies */
static int latencies_of(const char *text, struct imp_trace *t, struct diag_list *d, struct imp_latency *lat)
{
    char err[256];
    int rc = read_text(text, t, d);
    if (rc == GV_OK) rc = imp_classify(t, NULL, err, sizeof err);
    if (rc == GV_OK) rc = imp_latencies(t, lat);
    return rc;
}

static const char *join_end(struct tb *b, double died)
{
    st(b, 2, died, "died");
    st(b, 1, died + 10, "wants_gvl");
    st(b, 1, died + 12, "running");
    st(b, 1, died + 20, "stopped_tracing");
    tname(b, 1, "Main Thread");
    tname(b, 2, "worker");
    return tb_end(b);
}

/* main starts a worker that runs, waits on a queue main pushes to, runs,
 * then main joins it: the building block of several tests */
static const char *two_threads(struct tb *b)
{
    memset(b, 0, sizeof *b);
    st(b, 1, 10, "started_tracing");
    st(b, 2, 20, "started");        /* created while main holds the GVL */
    st(b, 2, 22, "wants_gvl");
    st(b, 1, 30, "waiting");        /* main sleeps 1 ms */
    st(b, 2, 35, "running");
    st(b, 2, 100, "waiting");       /* worker pops an empty queue */
    st(b, 1, 1030, "wants_gvl");
    st(b, 1, 1032, "running");      /* main pushes, ... */
    st(b, 2, 1040, "wants_gvl");    /* ... the worker is ready while main still runs */
    st(b, 1, 1050, "waiting");      /* main joins */
    st(b, 2, 1060, "running");
    return join_end(b, 2000);
}

/* ---- reading --------------------------------------------------------------- */

static void test_read_gvl_tracing(void)
{
    struct tb b;
    struct imp_trace t;
    struct diag_list d;
    ASSERT_EQ(read_text(two_threads(&b), &t, &d), GV_OK);
    ASSERT_EQ(d.n, 0);
    ASSERT_EQ(t.form, IMP_FORM_GVL_TRACING);
    ASSERT_EQ(t.nthreads, 2);
    ASSERT_EQ(t.end, (2020 - 10) * SIM_US);   /* from the first event */
    const struct imp_thread *m = thread_named(&t, "Main Thread"), *w = thread_named(&t, "worker");
    ASSERT(m->is_main && !w->is_main);
    ASSERT(w->created && !m->created && w->died && !m->died);
    ASSERT_EQ(w->start, 10 * SIM_US);
    /* main: running (started_tracing), waiting, wants_gvl, running, waiting, wants_gvl, running */
    ASSERT_EQ(m->nsegs, 7);
    ASSERT_EQ(m->segs[0].st, IMP_RUNNING);
    ASSERT_EQ(m->segs[1].st, IMP_WAITING);
    ASSERT_EQ(m->segs[1].t0, 20 * SIM_US);
    ASSERT_EQ(m->segs[1].t1, 1020 * SIM_US);
    ASSERT_EQ(m->segs[1].event, 7);   /* the B of "waiting" at 30 */
    ASSERT(t.ruby == NULL && t.quantum == 0);
    imp_trace_free(&t);
    diag_free(&d);
}

static void test_read_forms(void)
{
    /* {"traceEvents": [...]}, a trailing comma, microseconds with more
     * decimals than a picosecond, a sort-index event, names of the OS
     * view, and the version gvl-tracing 1.5+ writes */
    const char *text =
        "{\"traceEvents\": [\n"
        "{\"ph\": \"M\", \"pid\": 7, \"name\": \"process_name\", \"args\": {\"name\": \"Ruby threads view (3.4.1, 50ms)\"}},\n"
        "{\"ph\": \"M\", \"pid\": 0, \"name\": \"process_name\", \"args\": {\"name\": \"OS threads view\"}},\n"
        "{\"ph\": \"E\", \"pid\": 7, \"tid\": 0, \"ts\": 1.5},\n"
        "{\"ph\": \"B\", \"pid\": 7, \"tid\": 0, \"ts\": 1.5, \"name\": \"started_tracing\"},\n"
        "{\"ph\": \"B\", \"pid\": 0, \"tid\": 4242, \"ts\": 1.5, \"name\": \"Thread 0 (a)\"},\n"
        "{\"ph\": \"E\", \"pid\": 0, \"tid\": 4242, \"ts\": 9.0},\n"
        "{\"ph\": \"M\", \"pid\": 7, \"tid\": 0, \"name\": \"thread_sort_index\", \"args\": {\"sort_index\": 1}},\n"
        "{\"ph\": \"E\", \"pid\": 7, \"tid\": 0, \"ts\": 11.0000012345},\n"
        "{\"ph\": \"B\", \"pid\": 7, \"tid\": 0, \"ts\": 11.0000012345, \"name\": \"stopped_tracing\"},\n"
        "]}";
    struct imp_trace t;
    struct diag_list d;
    ASSERT_EQ(read_text(text, &t, &d), GV_OK);
    ASSERT_EQ(t.nthreads, 1);
    ASSERT_STREQ(t.ruby, "3.4.1");
    ASSERT_EQ(t.quantum, 50 * SIM_MS);
    ASSERT_EQ(t.trailing_commas, 1);
    ASSERT_EQ(t.os_view_events, 2);
    ASSERT_EQ(t.other_events, 1);
    ASSERT_EQ(t.threads[0].nsegs, 1);
    ASSERT_EQ(t.threads[0].segs[0].t1, 9500001);  /* rounded to the picosecond */
    ASSERT_STREQ(t.threads[0].name, "main");
    imp_trace_free(&t);
    diag_free(&d);
}

/* gzip with zlib's own deflate (gzip framing: windowBits 16 + 15) */
static size_t gz(const char *in, unsigned char *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    ASSERT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)strlen(in);
    z.next_out = out;
    z.avail_out = (uInt)cap;
    ASSERT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t n = cap - z.avail_out;
    deflateEnd(&z);
    return n;
}

static void test_read_gzip(void)
{
    struct tb b;
    static unsigned char buf[1 << 16];
    size_t n = gz(two_threads(&b), buf, sizeof buf);
    struct imp_trace t;
    struct diag_list d;
    diag_init(&d);
    ASSERT_EQ(imp_read_mem("t.json.gz", buf, n, &t, &d), GV_OK);
    ASSERT_EQ(t.nthreads, 2);
    imp_trace_free(&t);
    /* cut: the stream ends early, inside an event of the JSON */
    ASSERT_EQ(imp_read_mem("t.json.gz", buf, n / 2, &t, &d), GV_EINVAL);
    ASSERT_EQ(d.n, 1);
    ASSERT_CONTAINS(d.msgs[0], "t.json.gz:");
    ASSERT_CONTAINS(d.msgs[0], "the gzip stream is truncated: it ends inside event");
    diag_free(&d);
    /* a flipped byte in the deflate data: corrupt */
    diag_init(&d);
    buf[n / 2] ^= 0x55;
    ASSERT_EQ(imp_read_mem("t.json.gz", buf, n, &t, &d), GV_EINVAL);
    ASSERT_CONTAINS(d.msgs[0], "corrupt gzip data");
    diag_free(&d);
}

static void test_read_errors(void)
{
    struct tb b;
    /* unbalanced: a B while a state is open */
    memset(&b, 0, sizeof b);
    st(&b, 1, 10, "running");
    tb_sep(&b);
    tb_raw(&b, "{\"ph\": \"B\", \"pid\": 7, \"tid\": 1, \"ts\": 12, \"name\": \"waiting\"}");
    expect_error(tb_end(&b), "event 2 (tid 1): B \"waiting\" while \"running\" (event 1) is still open: a missing E "
                             "(unbalanced B/E)");
    /* unbalanced: an E that closes nothing (not the thread's first event) */
    memset(&b, 0, sizeof b);
    st(&b, 1, 10, "running");
    tb_sep(&b);
    tb_raw(&b, "{\"ph\": \"E\", \"pid\": 7, \"tid\": 1, \"ts\": 12}");
    tb_sep(&b);
    tb_raw(&b, "{\"ph\": \"E\", \"pid\": 7, \"tid\": 1, \"ts\": 13}");
    expect_error(tb_end(&b), "t.json:5:3: event 3 (tid 1): an E event closes nothing");
    /* time going backwards on one thread */
    memset(&b, 0, sizeof b);
    st(&b, 1, 10, "running");
    st(&b, 1, 9, "waiting");
    expect_error(tb_end(&b), "event 2 (tid 1): time goes backwards: ts 9us after 10us at event 1");
    /* an unknown state */
    memset(&b, 0, sizeof b);
    st(&b, 1, 10, "running");
    st(&b, 1, 12, "napping");
    expect_error(tb_end(&b), "event 3 (tid 1): unknown state \"napping\" (gvl-tracing's: started, wants_gvl");
    /* an unknown phase */
    expect_error("[{\"ph\": \"X\", \"pid\": 7, \"tid\": 1, \"ts\": 1, \"dur\": 2, \"name\": \"running\"}]",
                 "event 0: phase \"X\" is not part of a gvl-tracing trace (B, E and M are)");
    /* fields */
    expect_error("[{\"ph\": \"B\", \"pid\": 7, \"tid\": 1.5, \"ts\": 1, \"name\": \"running\"}]",
                 "event 0: \"tid\" must be an integer");
    expect_error("[{\"ph\": \"B\", \"pid\": 7, \"tid\": 1, \"ts\": \"1\", \"name\": \"running\"}]",
                 "event 0: \"ts\" must be a number (microseconds)");
    expect_error("[{\"ph\": \"B\", \"pid\": 7, \"tid\": 1, \"ts\": -1, \"name\": \"running\"}]",
                 "event 0: \"ts\" is negative");
    expect_error("[{\"pid\": 7}]", "event 0: missing \"ph\"");
    expect_error("[7]", "event 0: expected an object");
    expect_error("{\"events\": []}", "not a trace: expected an array of trace events");
    /* two processes */
    memset(&b, 0, sizeof b);
    st(&b, 1, 10, "running");
    tb_sep(&b);
    tb_raw(&b, "{\"ph\": \"B\", \"pid\": 8, \"tid\": 1, \"ts\": 12, \"name\": \"waiting\"}");
    expect_error(tb_end(&b), "event 2: pid 8 is not the traced process (7): one process per trace");
    /* truncated JSON: the file stops inside an event, or after one */
    const char *full = two_threads(&b);
    char cut[1 << 16];
    snprintf(cut, sizeof cut, "%.*s", (int)(strstr(full, "\"ts\": 100") - full), full);
    expect_error(cut, "the JSON is not closed: it ends inside event 10 (after 10 complete events): a truncated trace");
    snprintf(cut, sizeof cut, "%.*s", (int)(strstr(full, "\n]") - full), full);
    expect_error(cut, "the JSON is not closed: it ends after 32 complete events: a truncated trace");
    expect_error("", "t.json: an empty file is not a trace");
    expect_error("[]", "no thread states in this trace");
    expect_error("[{\"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"name\": \"thread_name\"}]",
                 "event 0: thread_name without args.name");
    expect_error("[1, 2", "the JSON is not closed: it ends after 0 complete events");
    /* a NUL byte: not JSON text */
    struct imp_trace t;
    struct diag_list d;
    diag_init(&d);
    ASSERT_EQ(imp_read_mem("t.json", "[\0]", 3, &t, &d), GV_EINVAL);
    ASSERT_CONTAINS(d.msgs[0], "t.json: not a JSON trace (it contains a NUL byte)");
    diag_free(&d);
}

static void test_read_tid_reuse_and_death(void)
{
    /* 3.2 names threads by native id: a new thread may reuse a dead one's;
     * 3.3 reports the exiting thread's GVL release after "died" */
    struct tb b;
    memset(&b, 0, sizeof b);
    st(&b, 1, 0, "started_tracing");
    st(&b, 5, 1, "started");
    st(&b, 5, 2, "running");
    st(&b, 5, 5, "died");
    st(&b, 5, 6, "waiting");
    st(&b, 5, 8, "started");
    st(&b, 5, 9, "running");
    st(&b, 5, 12, "died");
    st(&b, 1, 20, "stopped_tracing");
    tname(&b, 5, "w");
    struct imp_trace t;
    struct diag_list d;
    ASSERT_EQ(read_text(tb_end(&b), &t, &d), GV_OK);
    ASSERT_EQ(t.nthreads, 3);
    ASSERT_EQ(t.after_death, 1);
    ASSERT_STREQ(t.threads[1].name, "t5");        /* the M event names the later thread */
    ASSERT_STREQ(t.threads[2].name, "w");
    ASSERT_EQ(t.threads[1].nsegs, 2);   /* started, running */
    ASSERT_EQ(t.threads[2].start, 8 * SIM_US);
    ASSERT(t.threads[1].died && t.threads[2].died);
    imp_trace_free(&t);
    diag_free(&d);
}

static void test_read_gvlsim(void)
{
    const char *text =
        "{\"traceEvents\":[\n"
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"main\"}},\n"
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"echo\"}},\n"
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":3,\"args\":{\"name\":\"timer thread\"}},\n"
        "{\"ph\":\"X\",\"cat\":\"thread\",\"name\":\"running\",\"pid\":1,\"tid\":1,\"ts\":0.000000,\"dur\":2.000000},\n"
        "{\"ph\":\"X\",\"cat\":\"thread\",\"name\":\"parked\",\"pid\":1,\"tid\":2,\"ts\":0.000000,\"dur\":1.500000},\n"
        "{\"ph\":\"X\",\"cat\":\"core\",\"name\":\"main\",\"pid\":1,\"tid\":4,\"ts\":0.000000,\"dur\":2.0},\n"
        "{\"ph\":\"X\",\"cat\":\"thread\",\"name\":\"wants_gvl\",\"pid\":1,\"tid\":2,\"ts\":1.500000,\"dur\":0.500000},\n"
        "{\"ph\":\"X\",\"cat\":\"thread\",\"name\":\"blocking\",\"pid\":1,\"tid\":1,\"ts\":2.000000,\"dur\":5.000000},\n"
        "{\"ph\":\"X\",\"cat\":\"thread\",\"name\":\"running\",\"pid\":1,\"tid\":2,\"ts\":2.000000,\"dur\":1.000000},\n"
        "{\"ph\":\"C\",\"name\":\"cores\",\"pid\":1,\"tid\":1,\"ts\":0.000000,\"args\":{\"busy\":1}}\n"
        "],\"displayTimeUnit\":\"ns\",\"metadata\":{\"generator\":\"gvlsim\",\"truncated\":false}}";
    struct imp_trace t;
    struct diag_list d;
    ASSERT_EQ(read_text(text, &t, &d), GV_OK);
    ASSERT_EQ(t.form, IMP_FORM_GVLSIM);
    ASSERT_EQ(t.nthreads, 2);   /* the timer's and the cores' tracks hold no thread state */
    ASSERT_EQ(t.other_events, 2);
    const struct imp_thread *m = thread_named(&t, "main"), *e = thread_named(&t, "echo");
    ASSERT(m->is_main);
    ASSERT_EQ(m->segs[1].known, IMP_CLS_IO);
    ASSERT_EQ(e->segs[0].known, IMP_CLS_SYNC);
    ASSERT_EQ(t.end, 7 * SIM_US);
    ASSERT_EQ(imp_classify(&t, NULL, NULL, 0), GV_OK);
    ASSERT_EQ(e->segs[0].cls, IMP_CLS_SYNC);   /* parked: main woke it, it held the GVL then */
    ASSERT_EQ(e->segs[0].rule, IMP_RULE_KNOWN);
    ASSERT_EQ(e->segs[0].waker, (int)(m - t.threads));
    ASSERT_EQ(e->segs[0].wake_at, 1500000);
    ASSERT_EQ(m->segs[1].cls, IMP_CLS_IO);
    imp_trace_free(&t);
    diag_free(&d);
    /* a trace cut at its event cap does not hold the whole run */
    expect_error("{\"traceEvents\":[],\"metadata\":{\"generator\":\"gvlsim\",\"truncated\":true}}",
                 "cut at its event cap");
    expect_error("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"thread\",\"name\":\"idle\",\"pid\":1,\"tid\":1,\"ts\":0,"
                 "\"dur\":1}],\"metadata\":{\"generator\":\"gvlsim\"}}",
                 "unknown thread state \"idle\" (gvlsim's: running");
    expect_error("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"thread\",\"name\":\"running\",\"pid\":1,\"tid\":1,\"ts\":5,"
                 "\"dur\":1},{\"ph\":\"X\",\"cat\":\"thread\",\"name\":\"running\",\"pid\":1,\"tid\":1,\"ts\":4,"
                 "\"dur\":1}],\"metadata\":{\"generator\":\"gvlsim\"}}",
                 "event 1 (tid 1): time goes backwards");
}

/* ---- classifying ------------------------------------------------------------- */

static void test_classify_two_threads(void)
{
    struct tb b;
    struct imp_trace t;
    struct diag_list d;
    ASSERT_EQ(read_text(two_threads(&b), &t, &d), GV_OK);
    char err[256];
    ASSERT_EQ(imp_classify(&t, NULL, err, sizeof err), GV_OK);
    int m = thread_index(&t, "Main Thread"), w = thread_index(&t, "worker");
    ASSERT_EQ(t.nractors, 1);
    /* main's 1 ms sleep: nothing another thread did explains its end */
    ASSERT_EQ(wait_of(&t, "Main Thread", 0)->cls, IMP_CLS_IO);
    ASSERT_EQ(wait_of(&t, "Main Thread", 0)->rule, IMP_RULE_ALONE);
    /* the worker's pop ended while main held the GVL, released 10 us later */
    const struct imp_seg *s = wait_of(&t, "worker", 0);
    ASSERT_EQ(s->cls, IMP_CLS_SYNC);
    ASSERT_EQ(s->rule, IMP_RULE_RELEASE);
    ASSERT_EQ(s->waker, m);
    ASSERT_EQ(s->wake_at, 1030 * SIM_US);   /* at the latest when the wait ended */
    ASSERT_EQ(s->gap, 10 * SIM_US);
    /* main's join ended 10 us after the worker died */
    s = wait_of(&t, "Main Thread", 1);
    ASSERT_EQ(s->cls, IMP_CLS_JOIN);
    ASSERT_EQ(s->waker, w);
    ASSERT_EQ(s->wake_at, 1990 * SIM_US);
    /* the worker was created by main */
    ASSERT_EQ(t.threads[w].spawner, m);
    ASSERT_EQ(t.threads[w].spawn_at, 10 * SIM_US);
    struct imp_totals tot;
    imp_totals(&t, &tot);
    ASSERT_EQ(tot.waits, 3);
    ASSERT_EQ(tot.cls[IMP_CLS_IO], 1);
    ASSERT_EQ(tot.cls[IMP_CLS_SYNC], 1);
    ASSERT_EQ(tot.cls[IMP_CLS_JOIN], 1);
    ASSERT_EQ(tot.wants_gvl, (2 + 2 + 13 + 20) * SIM_US);
    imp_trace_free(&t);
    diag_free(&d);
}

static void test_classify_window_and_overrides(void)
{
    struct tb b;
    struct imp_trace t;
    struct diag_list d;
    char err[256];
    /* a window of 5 us: the worker's wake (10 us before main's release) is no longer explained */
    ASSERT_EQ(read_text(two_threads(&b), &t, &d), GV_OK);
    struct imp_classify_opts o = { .window = 5 * SIM_US };
    ASSERT_EQ(imp_classify(&t, &o, err, sizeof err), GV_OK);
    ASSERT_EQ(wait_of(&t, "worker", 0)->cls, IMP_CLS_IO);
    imp_trace_free(&t);
    /* the user says: main's sleep was woken, the worker's pop was I/O */
    struct imp_override ov[2];
    ASSERT_EQ(imp_override_parse("Main Thread:0=sync", &ov[0], err, sizeof err), 0);
    ASSERT_EQ(imp_override_parse("2:*=io", &ov[1], err, sizeof err), 0);   /* by tid, every wait */
    ASSERT_STREQ(ov[0].thread, "Main Thread");
    ASSERT_EQ(ov[1].index, -1);
    ASSERT_EQ(read_text(two_threads(&b), &t, &d), GV_OK);
    o = (struct imp_classify_opts){ .overrides = ov, .noverrides = 2 };
    ASSERT_EQ(imp_classify(&t, &o, err, sizeof err), GV_OK);
    const struct imp_seg *s = wait_of(&t, "Main Thread", 0);
    ASSERT_EQ(s->cls, IMP_CLS_SYNC);
    ASSERT_EQ(s->rule, IMP_RULE_OVERRIDE);
    ASSERT_EQ(s->waker, thread_index(&t, "worker"));   /* the worker released the GVL at 100 */
    ASSERT_EQ(s->wake_at, 90 * SIM_US);
    ASSERT_EQ(wait_of(&t, "worker", 0)->cls, IMP_CLS_IO);
    ASSERT_EQ(wait_of(&t, "worker", 0)->rule, IMP_RULE_OVERRIDE);
    imp_trace_free(&t);
    /* overrides that name nothing */
    ASSERT_EQ(imp_override_parse("nobody:0=io", &ov[0], err, sizeof err), 0);
    ASSERT_EQ(read_text(two_threads(&b), &t, &d), GV_OK);
    o = (struct imp_classify_opts){ .overrides = ov, .noverrides = 1 };
    ASSERT_EQ(imp_classify(&t, &o, err, sizeof err), GV_EINVAL);
    ASSERT_CONTAINS(err, "--classify nobody:...: no thread of that name or tid");
    imp_trace_free(&t);
    ASSERT_EQ(imp_override_parse("worker:3=io", &ov[0], err, sizeof err), 0);
    ASSERT_EQ(read_text(two_threads(&b), &t, &d), GV_OK);
    ASSERT_EQ(imp_classify(&t, &o, err, sizeof err), GV_EINVAL);
    ASSERT_CONTAINS(err, "--classify worker:3: thread worker has 1 waiting segments (0..0)");
    imp_trace_free(&t);
    ASSERT_EQ(imp_override_parse("worker", &ov[0], err, sizeof err), -1);
    ASSERT_CONTAINS(err, "expected THREAD:INDEX=io|sync");
    ASSERT_EQ(imp_override_parse("worker:1=maybe", &ov[0], err, sizeof err), -1);
    ASSERT_CONTAINS(err, "unknown class \"maybe\"");
    ASSERT_EQ(imp_override_parse("worker:x=io", &ov[0], err, sizeof err), -1);
    ASSERT_EQ(imp_override_parse("worker:=io", &ov[0], err, sizeof err), -1);
    diag_free(&d);
}

static void test_classify_yield_end_exit_ractors(void)
{
    struct tb b;
    memset(&b, 0, sizeof b);
    st(&b, 1, 0, "started_tracing");
    st(&b, 2, 5, "started");
    st(&b, 2, 6, "wants_gvl");
    st(&b, 1, 100000, "waiting");    /* main: 100 ms of running, then a hand-over */
    st(&b, 2, 100004, "running");
    st(&b, 1, 100006, "wants_gvl");
    st(&b, 2, 150000, "waiting");    /* still waiting when tracing stops */
    st(&b, 1, 150010, "running");
    st(&b, 3, 150020, "started");    /* a thread of another Ractor: runs with main */
    st(&b, 3, 150021, "running");
    st(&b, 3, 160021, "waiting");    /* its exit */
    st(&b, 3, 160023, "died");
    st(&b, 1, 170000, "stopped_tracing");
    tname(&b, 1, "Main Thread");
    struct imp_trace t;
    struct diag_list d;
    char err[256];
    ASSERT_EQ(read_text(tb_end(&b), &t, &d), GV_OK);
    ASSERT_EQ(imp_classify(&t, NULL, err, sizeof err), GV_OK);
    ASSERT_EQ(wait_of(&t, "Main Thread", 0)->cls, IMP_CLS_YIELD);
    ASSERT_EQ(wait_of(&t, "t2", 0)->cls, IMP_CLS_END);
    ASSERT_EQ(wait_of(&t, "t3", 0)->cls, IMP_CLS_EXIT);
    ASSERT_EQ(t.nractors, 2);
    ASSERT_EQ(thread_named(&t, "t3")->ractor, 1);
    ASSERT_EQ(thread_named(&t, "t2")->ractor, 0);
    ASSERT_EQ(thread_named(&t, "t3")->spawner, -1);   /* a new Ractor's thread starts by time */
    ASSERT_EQ(thread_named(&t, "t2")->spawner, 0);
    struct imp_totals tot;
    imp_totals(&t, &tot);
    ASSERT_EQ(tot.waiting, (6 + 2) * SIM_US);   /* the open wait is not counted */
    imp_trace_free(&t);
    /* a quantum of 1 s: 100 ms of running is no quantum yield */
    ASSERT_EQ(read_text(b.s, &t, &d), GV_OK);
    struct imp_classify_opts o = { .quantum = SIM_S };
    ASSERT_EQ(imp_classify(&t, &o, err, sizeof err), GV_OK);
    ASSERT(wait_of(&t, "Main Thread", 0)->cls != IMP_CLS_YIELD);
    imp_trace_free(&t);
    diag_free(&d);
}

static void test_classify_ractor_overlaps(void)
{
    /* 3.2 reports a quantum yield's release late (at the yielder's READY):
     * the next holder's first hold may overlap it, even sit inside it, in
     * one Ractor; a hold inside one whose end was reported in time, or a
     * long overlap, takes two GVLs */
    struct tb b;
    memset(&b, 0, sizeof b);
    st(&b, 1, 0, "started_tracing");
    st(&b, 2, 1, "started");
    st(&b, 2, 2, "wants_gvl");
    st(&b, 2, 100000, "running");    /* t2 got the GVL at the yield ... */
    st(&b, 2, 100030, "waiting");    /* ... and released it within main's late end */
    st(&b, 1, 100050, "wants_gvl");  /* main's READY: its yield, reported 50 us late */
    st(&b, 1, 100060, "running");
    st(&b, 3, 100070, "started");
    st(&b, 3, 100071, "running");    /* t3 runs inside main's hold: another Ractor */
    st(&b, 3, 100200, "died");
    st(&b, 1, 101000, "stopped_tracing");
    tname(&b, 1, "Main Thread");
    struct imp_trace t;
    struct diag_list d;
    char err[256];
    ASSERT_EQ(read_text(tb_end(&b), &t, &d), GV_OK);
    ASSERT_EQ(imp_classify(&t, NULL, err, sizeof err), GV_OK);
    ASSERT_EQ(t.nractors, 2);
    ASSERT_EQ(thread_named(&t, "t2")->ractor, 0);
    ASSERT_EQ(thread_named(&t, "t3")->ractor, 1);
    /* what the trace measured: t2's wait for the GVL ended at main's release? no: main
     * yielded (wants_gvl after), which is no release; main's 10 us wait is uncontended */
    struct imp_latency lat;
    ASSERT_EQ(imp_latencies(&t, &lat), GV_OK);
    ASSERT_EQ(lat.handoffs, 0);
    ASSERT_EQ(lat.acquires, 1);
    ASSERT_EQ(lat.acquire_median, 10 * SIM_US);
    imp_trace_free(&t);
    diag_free(&d);
    /* the two-thread trace: the worker's waits for the GVL ended 5 us after
     * main's release into its sleep and 10 us after its release into the
     * join: two hand-offs; main's waits (after its sleep, after the worker's
     * death) found the GVL free */
    ASSERT_EQ(latencies_of(two_threads(&b), &t, &d, &lat), GV_OK);
    ASSERT_EQ(lat.handoffs, 2);
    ASSERT_EQ(lat.handoff_median, 7500000);
    ASSERT_EQ(lat.acquires, 2);
    ASSERT_EQ(lat.acquire_median, 2 * SIM_US);
    imp_trace_free(&t);
    diag_free(&d);
    /* 3.2's native_sleep fires SUSPENDED before it releases the GVL and
     * again at the release (thread_sched_to_waiting): the waiter that
     * takes the GVL 70 us after the second is a hand-off too */
    ready_at_5us(&b);
    st(&b, 1, 100, "waiting");       /* main pops an empty queue: the first SUSPENDED ... */
    st(&b, 1, 101, "waiting");       /* ... and the release's */
    st(&b, 2, 171, "running");
    ASSERT_EQ(latencies_of(join_end(&b, 300), &t, &d, &lat), GV_OK);
    ASSERT_EQ(lat.handoffs, 1);
    ASSERT_EQ(lat.handoff_median, 70 * SIM_US);
    /* by quiet time: no thread but main changed state from t2's READY (5 us)
     * to main's release (101 us): 96 us, the first bin */
    ASSERT_EQ(lat.quiet[0], 1);
    ASSERT_EQ(lat.quiet_median[0], 70 * SIM_US);
    ASSERT_EQ(lat.quiet_time[0], 96 * SIM_US);
    ASSERT(lat.quiet[1] == 0 && lat.quiet[2] == 0 && lat.quiet[3] == 0);
    imp_trace_free(&t);
    diag_free(&d);
    /* the same after 20 ms of quiet: the last bin (10 ms or more) */
    ready_at_5us(&b);
    st(&b, 1, 20005, "waiting");
    st(&b, 2, 20095, "running");
    ASSERT_EQ(latencies_of(join_end(&b, 30000), &t, &d, &lat), GV_OK);
    ASSERT(lat.quiet[0] == 0 && lat.quiet[1] == 0 && lat.quiet[2] == 0);
    ASSERT_EQ(lat.quiet[3], 1);
    ASSERT_EQ(lat.quiet_median[3], 90 * SIM_US);
    ASSERT_EQ(lat.quiet_time[3], 20 * SIM_MS);
    ASSERT_STREQ(imp_quiet_bin_name(3), "ge10ms");
    ASSERT_EQ(imp_quiet_bin_from(1), 100 * SIM_US);
    imp_trace_free(&t);
    diag_free(&d);
}

/* ---- the scenario ----------------------------------------------------------- */

static void test_emit(void)
{
    struct tb b;
    struct imp_trace t;
    struct diag_list d;
    char err[256];
    ASSERT_EQ(read_text(two_threads(&b), &t, &d), GV_OK);
    ASSERT_EQ(imp_classify(&t, NULL, err, sizeof err), GV_OK);
    struct imp_emit_opts eo = { .name = "two" };
    cJSON *root = imp_emit(&t, &eo);
    ASSERT(root);
    char *text = imp_print(root);
    ASSERT(text);
    /* main creates the worker 10 us into its first hold (a spawn), sleeps
     * 1 ms (I/O: a fixed length), wakes the worker 8 us into its second
     * hold (the worker's wait ended then), joins it (Thread#join: the
     * worker's death ends it) */
    ASSERT_CONTAINS(text,
        "      { \"name\": \"Main Thread\", \"program\": [\n"
        "          {\"op\":\"compute\",\"trace\":\"e1 running\",\"dur\":\"10us\"},\n"
        "          {\"op\":\"spawn\",\"trace\":\"creates worker\",\"thread\":\"worker\"},\n"
        "          {\"op\":\"compute\",\"trace\":\"e1 running (part 2)\",\"dur\":\"10us\"},\n"
        "          {\"op\":\"syscall\",\"trace\":\"e7 waiting[0] io: no other thread acted near its end\","
        "\"dur\":\"1ms\",\"call\":\"nanosleep\",\"io_wait\":true},\n"
        "          {\"op\":\"compute\",\"trace\":\"e15 running\",\"dur\":\"8us\"},\n"
        "          {\"op\":\"queue_push\",\"trace\":\"wakes worker's waiting[0] (e11)\",\"queue\":\"wake.1\"},\n"
        "          {\"op\":\"compute\",\"trace\":\"e15 running (part 2)\",\"dur\":\"10us\"},\n"
        "          {\"op\":\"join\",\"trace\":\"e19 waiting[1] join: worker (died 10us before its end; ended "
        "right after another thread died)\",\"thread\":\"worker\"},\n"
        "          {\"op\":\"compute\",\"trace\":\"e27 running\",\"dur\":\"8us\"}\n");
    ASSERT_CONTAINS(text,
        "      { \"name\": \"worker\", \"spawned\": true, \"program\": [\n"
        "          {\"op\":\"compute\",\"trace\":\"e9 running\",\"dur\":\"65us\"},\n"
        "          {\"op\":\"queue_pop\",\"trace\":\"e11 waiting[0] sync: Main Thread (held the GVL 10us around its "
        "end; ended at another thread's GVL release)\",\"queue\":\"wake.1\"},\n"
        "          {\"op\":\"compute\",\"trace\":\"e21 running\",\"dur\":\"940us\"}\n"
        "        ] }");
    /* the loader takes it, and it runs the two threads */
    struct scenario s;
    struct diag_list ld;
    diag_init(&ld);
    int rc = scn_load_text("two.json", text, strlen(text), NULL, &s, &ld);
    for (size_t i = 0; i < ld.n; i++) fprintf(stderr, "%s\n", ld.msgs[i]);
    ASSERT_EQ(rc, GV_OK);
    ASSERT_EQ(s.total_threads, 2);
    ASSERT_EQ(s.nqueues, 1);   /* the worker's wake queue; the join and the spawn need none */
    ASSERT_EQ(s.runtime.event_hook, 0);
    scenario_free(&s);
    diag_free(&ld);
    free(text);
    cJSON_Delete(root);
    /* the tracer's READY hook: main's two acquisitions of a free GVL took
     * 2 us (median), written as runtime.event_hook and said where from */
    struct imp_latency lat;
    ASSERT_EQ(imp_latencies(&t, &lat), GV_OK);
    eo.hook = imp_event_hook(&t, &lat);
    eo.hook_samples = lat.acquires;
    ASSERT_EQ(eo.hook.hook, 2 * SIM_US);
    ASSERT_EQ(eo.hook.every, 0);   /* a short trace: no hook wrote the tracer's buffer out */
    ASSERT_EQ(lat.flushes, 0);
    ASSERT((root = imp_emit(&t, &eo)) && (text = imp_print(root)));
    ASSERT_CONTAINS(text, "\"runtime\": {\"event_hook\":\"2us\"}");
    ASSERT_CONTAINS(text, "runtime.event_hook 2us: the tracer's READY hook, the median of the trace's 2 "
                          "acquisitions of a free GVL (--set runtime.event_hook=0");
    diag_init(&ld);
    ASSERT_EQ(scn_load_text("two.json", text, strlen(text), NULL, &s, &ld), GV_OK);
    ASSERT_EQ(s.runtime.event_hook, 2 * SIM_US);
    scenario_free(&s);
    diag_free(&ld);
    free(text);
    cJSON_Delete(root);
    /* a trace of gvlsim's own has no tracer */
    t.form = IMP_FORM_GVLSIM;
    ASSERT_EQ(imp_event_hook(&t, &lat).hook, 0);
    imp_trace_free(&t);
    diag_free(&d);
}

/* `trace` read, classified and emitted with `eo`: its text */
static char *emit_text(const char *trace, const struct imp_emit_opts *eo)
{
    struct imp_trace t;
    struct diag_list d;
    char err[256];
    ASSERT_EQ(read_text(trace, &t, &d), GV_OK);
    ASSERT_EQ(imp_classify(&t, NULL, err, sizeof err), GV_OK);
    cJSON *root = imp_emit(&t, eo);
    char *text = root ? imp_print(root) : NULL;
    ASSERT(text);
    cJSON_Delete(root);
    imp_trace_free(&t);
    diag_free(&d);
    return text;
}

/* A recorded sleep or off-CPU wait ends when the thread ran again (it
 * fires READY itself: thread_sched_to_running), so it holds the wake-up
 * the replay's machine adds itself: emitted that much shorter. */
static void test_emit_wake(void)
{
    /* the part of a length the replay's machine takes to wake the thread */
    struct gv_curve c = { .n = 2, .x = { 100 * SIM_US, 10 * SIM_MS }, .y = { 0, 20 * SIM_US } };
    struct imp_emit_opts o = { .wake = 17 * SIM_US };
    ASSERT_EQ(imp_wake_of(&o, SIM_MS), 17 * SIM_US);
    ASSERT_EQ(imp_wake_of(&o, 10 * SIM_US), 10 * SIM_US);   /* never more than the length */
    ASSERT_EQ(imp_wake_of(&o, 0), 0);
    o.wake_extra = &c;   /* a core idle 1 ms (a decade above 100 us of two): + 10 us */
    sim_time w = imp_wake_of(&o, SIM_MS + 17 * SIM_US);
    ASSERT(w >= 27 * SIM_US - 1 && w <= 27 * SIM_US + 1);
    ASSERT_EQ(imp_wake_of(&o, 50 * SIM_US), 17 * SIM_US);   /* idle 33 us: below the curve */
    o.wake = 0;
    ASSERT_EQ(imp_wake_of(&o, SIM_MS), 0);   /* none given: none taken out */

    /* main's 1 ms wait (I/O off the CPU) is replayed 17 us shorter, and
     * says why; the worker's wait for main's push is not a fixed length */
    struct tb b;
    struct imp_emit_opts eo = { .name = "wake", .wake = 17 * SIM_US };
    char *text = emit_text(two_threads(&b), &eo);
    ASSERT_CONTAINS(text, "{\"op\":\"syscall\",\"trace\":\"e7 waiting[0] io: no other thread acted near its end "
                          "(1ms recorded, which holds the OS's wake-up of the thread: less the replay machine's, "
                          "17us, which the replay adds)\",\"dur\":\"983us\",\"call\":\"nanosleep\",\"io_wait\":true}");
    ASSERT_CONTAINS(text, "Sleeps and off-CPU I/O waits (1) end where the trace shows the thread running again");
    ASSERT_CONTAINS(text, "{\"op\":\"queue_pop\",\"trace\":\"e11 waiting[0] sync");
    free(text);
    struct imp_trace t;
    struct diag_list d;
    char err[256];
    cJSON *root;

    /* replayed with wake-ups of exactly 17 us, a 1 ms sleep between two
     * holds lasts 1 ms, as the trace's did: main, started one wake-up (17
     * us) in, ends 1020 us after that (without the wake-up taken out: a
     * sleep of 1017 us, an end at 1054 us) */
    memset(&b, 0, sizeof b);
    st(&b, 1, 0, "started_tracing");
    st(&b, 1, 10, "sleeping");
    st(&b, 1, 1010, "running");
    st(&b, 1, 1020, "stopped_tracing");
    tname(&b, 1, "Main Thread");
    ASSERT_EQ(read_text(tb_end(&b), &t, &d), GV_OK);
    ASSERT_EQ(imp_classify(&t, NULL, err, sizeof err), GV_OK);
    const char *sets[1] = { "machine.wake_jitter=0" }, *dirs[1] = { "scenarios/machines" };
    struct load_opts lo = { .sets = sets, .nsets = 1, .machines_dirs = dirs, .nmachines_dirs = 1 };
    struct imp_emit_opts so = { .name = "sleep", .machine = "gvltrace_2023", .wake = 17 * SIM_US };
    for (int pass = 0; pass < 2; pass++) {
        ASSERT((root = imp_emit(&t, &so)) && (text = imp_print(root)));
        ASSERT_CONTAINS(text, pass ? "\"dur\":\"1ms\"" : "\"dur\":\"983us\"");
        struct scenario s;
        ASSERT_EQ(scn_load_text("sleep.json", text, strlen(text), &lo, &s, &d), GV_OK);
        ASSERT_EQ(s.machine.wake_idle_core, 17 * SIM_US);
        struct fx_result r = fx_simulate(&s);
        ASSERT_EQ(r.rc, GV_OK);
        /* and the GVL's own lock sections: under 1 us more */
        sim_time slept = (sim_time)r.m.state_time[TS_SLEEPING], sleep = (pass ? 1017 : 1000) * SIM_US;
        ASSERT(slept >= sleep && slept < sleep + SIM_US);
        sim_time end = (pass ? 1054 : 1037) * SIM_US;
        ASSERT(r.m.wall >= end && r.m.wall < end + SIM_US);
        run_metrics_free(&r.m);
        scenario_free(&s);
        free(text);
        cJSON_Delete(root);
        so.wake = 0;
    }
    imp_trace_free(&t);
    diag_free(&d);

    /* a gvlsim trace's core track shows where the wake-up began; without
     * one (cut out) its slices are taken as gvl-tracing's */
#define SIM_HEAD "{\"traceEvents\":[\n" \
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"main\"}},\n" \
    "{\"ph\":\"X\",\"cat\":\"thread\",\"name\":\"running\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},\n" \
    "{\"ph\":\"X\",\"cat\":\"thread\",\"name\":\"sleeping\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":1000},\n"
#define SIM_CORE(ts, dur, state) \
    "{\"ph\":\"X\",\"cat\":\"core\",\"name\":\"main\",\"pid\":1,\"tid\":4,\"ts\":" #ts ",\"dur\":" #dur "," \
    "\"args\":{\"state\":\"" state "\",\"task\":\"main\"}},\n"
#define SIM_TAIL "{\"ph\":\"X\",\"cat\":\"thread\",\"name\":\"running\",\"pid\":1,\"tid\":1,\"ts\":1010,\"dur\":10}\n" \
    "],\"metadata\":{\"generator\":\"gvlsim\",\"truncated\":false}}"
    const char *cored = SIM_HEAD SIM_CORE(0, 10, "busy") SIM_CORE(993, 17, "wake") SIM_CORE(1010, 10, "busy") SIM_TAIL;
    const char *bare = SIM_HEAD SIM_TAIL;
    ASSERT_EQ(read_text(cored, &t, &d), GV_OK);
    ASSERT_EQ(t.threads[0].segs[0].cpu, 10 * SIM_US);
    ASSERT_EQ(t.threads[0].segs[1].cpu, 983 * SIM_US);   /* up to its wake-up */
    imp_trace_free(&t);
    diag_free(&d);
    ASSERT_EQ(read_text(bare, &t, &d), GV_OK);
    ASSERT_EQ(t.threads[0].segs[0].cpu, -1);
    ASSERT_EQ(t.threads[0].segs[1].cpu, -1);
    imp_trace_free(&t);
    diag_free(&d);
    struct imp_emit_opts go = { .name = "bare", .wake = 17 * SIM_US };
    text = emit_text(bare, &go);
    ASSERT_CONTAINS(text, "{\"op\":\"compute\",\"trace\":\"e1 running\",\"dur\":\"10us\"}");
    ASSERT_CONTAINS(text, "\"dur\":\"983us\"");
    free(text);
#undef SIM_HEAD
#undef SIM_CORE
#undef SIM_TAIL
}

/* `trace` read, classified and emitted with a start lead: its text */
static char *emit_with_lead(const char *trace, sim_time lead)
{
    struct imp_emit_opts eo = { .name = "lead", .start_lead = lead };
    return emit_text(trace, &eo);
}

/* Up to 3.2 a created thread reports `started` itself once it runs
 * (thread_start_func_1), and a woken one READY (thread_sched_to_running);
 * 3.3 from its creator (native_thread_create) and its waker
 * (ubf_waiting): in a 3.2 trace the creation and the wake came one
 * start-up of the replay's machine before the event, never before the
 * actor's hold began. */
static void test_emit_start_lead(void)
{
    struct tb b;
    struct imp_trace t;
    struct diag_list d;
    ASSERT_EQ(read_text(two_threads(&b), &t, &d), GV_OK);
    ASSERT_EQ(imp_start_lead(&t, "3.2", 17 * SIM_US), 17 * SIM_US);
    ASSERT_EQ(imp_start_lead(&t, "3.1.2", 17 * SIM_US), 17 * SIM_US);
    ASSERT_EQ(imp_start_lead(&t, "3.3", 17 * SIM_US), 0);
    ASSERT_EQ(imp_start_lead(&t, "3.3.0-preview1", 17 * SIM_US), 0);
    ASSERT_EQ(imp_start_lead(&t, "3.4.1", 17 * SIM_US), 0);
    ASSERT_EQ(imp_start_lead(&t, NULL, 17 * SIM_US), 0);
    t.form = IMP_FORM_GVLSIM;   /* a gvlsim trace starts a thread at its spawn */
    ASSERT_EQ(imp_start_lead(&t, "3.2", 17 * SIM_US), 0);
    imp_trace_free(&t);
    diag_free(&d);
    /* the worker started 10 us into main's hold: a lead of 4 us puts the
     * spawn 6 us into it, one of 17 us at its start */
    char *text = emit_with_lead(two_threads(&b), 4 * SIM_US);
    ASSERT_CONTAINS(text,
        "          {\"op\":\"compute\",\"trace\":\"e1 running\",\"dur\":\"6us\"},\n"
        "          {\"op\":\"spawn\",\"trace\":\"creates worker (4us before its started event, which Ruby up to 3.2 "
        "fires from the new thread once it runs)\",\"thread\":\"worker\"},\n"
        "          {\"op\":\"compute\",\"trace\":\"e1 running (part 2)\",\"dur\":\"14us\"},\n");
    /* the worker's pop ended 8 us into main's second hold: the push goes
     * 4 us before that end */
    ASSERT_CONTAINS(text,
        "          {\"op\":\"compute\",\"trace\":\"e15 running\",\"dur\":\"4us\"},\n"
        "          {\"op\":\"queue_push\",\"trace\":\"wakes worker's waiting[0] (e11)\",\"queue\":\"wake.1\"},\n"
        "          {\"op\":\"compute\",\"trace\":\"e15 running (part 2)\",\"dur\":\"14us\"},\n");
    free(text);
    text = emit_with_lead(two_threads(&b), 17 * SIM_US);
    ASSERT_CONTAINS(text,
        "      { \"name\": \"Main Thread\", \"program\": [\n"
        "          {\"op\":\"spawn\",\"trace\":\"creates worker (10us before its started event, which Ruby up to 3.2 "
        "fires from the new thread once it runs)\",\"thread\":\"worker\"},\n"
        "          {\"op\":\"compute\",\"trace\":\"e1 running\",\"dur\":\"20us\"},\n");
    /* ... and the push at the start of main's hold, not before it */
    ASSERT_CONTAINS(text,
        "          {\"op\":\"queue_push\",\"trace\":\"wakes worker's waiting[0] (e11)\",\"queue\":\"wake.1\"},\n"
        "          {\"op\":\"compute\",\"trace\":\"e15 running\",\"dur\":\"18us\"},\n");
    free(text);
}

/* A wait that ends while its waker holds the GVL again after a short
 * release (a `p`): the READY came in that later hold, so the push goes
 * there (one wake-up before the end, in a 3.2 trace), not at the release;
 * a lead longer than that hold puts it back in the hold before. */
static const char *rehold_trace(struct tb *b)
{
    memset(b, 0, sizeof *b);
    st(b, 1, 0, "started_tracing");
    st(b, 2, 1, "started");
    st(b, 2, 2, "wants_gvl");
    st(b, 1, 10, "waiting");     /* main sleeps */
    st(b, 2, 12, "running");
    st(b, 2, 30, "waiting");     /* the worker pops an empty queue */
    st(b, 1, 300, "wants_gvl");
    st(b, 1, 301, "running");
    st(b, 1, 400, "waiting");    /* main writes for 10 us ... */
    st(b, 1, 410, "wants_gvl");
    st(b, 1, 411, "running");    /* ... and takes the GVL back */
    st(b, 2, 480, "wants_gvl");  /* the worker's READY, 69 us into that hold */
    st(b, 1, 600, "waiting");    /* main joins */
    st(b, 2, 605, "running");
    return join_end(b, 700);
}

static void test_emit_wake_in_next_hold(void)
{
    struct tb b;
    struct imp_trace t;
    struct diag_list d;
    char err[256];
    ASSERT_EQ(read_text(rehold_trace(&b), &t, &d), GV_OK);
    ASSERT_EQ(imp_classify(&t, NULL, err, sizeof err), GV_OK);
    const struct imp_seg *s = wait_of(&t, "worker", 0);
    ASSERT_EQ(s->cls, IMP_CLS_SYNC);
    ASSERT_EQ(s->wake_at, 400 * SIM_US);     /* main's release, 80 us before the end */
    ASSERT_EQ(s->wake_next, 411 * SIM_US);   /* and main's hold around the end */
    imp_trace_free(&t);
    diag_free(&d);
    static const struct { sim_time lead; const char *want; } cases[] = {
        { 0, "\"e21 running\",\"dur\":\"69us\"},\n          {\"op\":\"queue_push\"" },
        { 17 * SIM_US, "\"e21 running\",\"dur\":\"52us\"},\n          {\"op\":\"queue_push\"" },
        { 100 * SIM_US, "\"e15 running\",\"dur\":\"79us\"},\n          {\"op\":\"queue_push\"" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *text = emit_with_lead(rehold_trace(&b), cases[k].lead);
        ASSERT_CONTAINS(text, cases[k].want);
        free(text);
    }
}

/* gvl-tracing's render_event writes each E and B pair with one fprintf to
 * a stdio buffer of 4096 bytes: a READY whose pair overflows a block pays
 * the write() of it.  One thread sleeps and takes a free GVL 200 times, in
 * 2 us, or 20 us when its READY's lines cross a block boundary: the import
 * finds those (and only those), and says 2 us per hook and 18 us more in one
 * of every so many. */
static void test_hook_flush(void)
{
    size_t cap = 1 << 18, len = 0;
    char *text = malloc(cap);
    ASSERT(text);
    int crossing = 0, sleeps_crossing = 0;
    len += (size_t)snprintf(text + len, cap - len, "[\n");
#define PAIR(ts, name)                                                                                       \
    (len += (size_t)snprintf(text + len, cap - len,                                                          \
                             "  {\"ph\": \"E\", \"pid\": 7, \"tid\": 1, \"ts\": %.6f},\n"                         \
                             "  {\"ph\": \"B\", \"pid\": 7, \"tid\": 1, \"ts\": %.6f, \"name\": \"%s\"},\n",        \
                             (double)(ts), (double)(ts), (name)))
    PAIR(1, "started_tracing");
    for (int i = 0; i < 200; i++) {
        double t0 = 100.0 + 1000.0 * i;
        size_t a = len;
        PAIR(t0, "sleeping");
        sleeps_crossing += (a + 4095) / 4096 * 4096 < len;
        a = len;
        PAIR(t0 + 500, "wants_gvl");
        /* bytes [a, len): a block boundary m with a <= m < len */
        bool cross = (a + 4095) / 4096 * 4096 < len;
        crossing += cross;
        PAIR(t0 + 500 + (cross ? 20 : 2), "running");
    }
    PAIR(300000, "stopped_tracing");
#undef PAIR
    len += (size_t)snprintf(text + len, cap - len, "]\n");
    ASSERT(len < cap - 1);
    ASSERT(crossing >= 5);   /* 200 pairs of about 170 bytes: one in 24 */
    struct imp_trace t;
    struct diag_list d;
    ASSERT_EQ(read_text(text, &t, &d), GV_OK);
    struct imp_latency lat;
    ASSERT_EQ(imp_latencies(&t, &lat), GV_OK);
    ASSERT_EQ(lat.acquires, 200);
    ASSERT_EQ(lat.flushes, crossing);
    ASSERT_EQ(lat.plain_median, 2 * SIM_US);
    ASSERT_EQ(lat.flush_median, 20 * SIM_US);
    struct imp_hook h = imp_event_hook(&t, &lat);
    ASSERT_EQ(h.hook, 2 * SIM_US);
    ASSERT_EQ(h.flush, 18 * SIM_US);
    ASSERT_EQ(h.every, (200 + crossing / 2) / crossing);
    /* a SUSPENDED hook that wrote the buffer out did so before the release:
     * the write (18 us) goes to the hold before the sleep, out of the sleep */
    char err[256];
    ASSERT(sleeps_crossing >= 3);
    ASSERT_EQ(imp_classify(&t, NULL, err, sizeof err), GV_OK);
    struct imp_emit_opts eo = { .name = "flush", .hook = h, .hook_samples = lat.acquires,
                                .hook_flushes = lat.flushes };
    cJSON *root = imp_emit(&t, &eo);
    ASSERT(root);
    char *out = imp_print(root);
    ASSERT(out);
    int writes = 0, short_sleeps = 0;
    for (const char *q = out; (q = strstr(q, "SUSPENDED hook writing its buffer out, with the GVL held\",\"dur\":\"18us\"}"));
         q++)
        writes++;
    for (const char *q = out; (q = strstr(q, "sleeping\",\"dur\":\"482us\"")); q++) short_sleeps++;
    ASSERT_EQ(writes, sleeps_crossing);
    ASSERT_EQ(short_sleeps, sleeps_crossing);
    ASSERT_CONTAINS(out, "\"event_hook\":\"2us\",\"event_hook_flush\":\"18us\",\"event_hook_flush_every\":");
    free(out);
    cJSON_Delete(root);
    imp_trace_free(&t);
    diag_free(&d);
    /* the same acquisitions reformatted (one more space per line): the
     * slow ones no longer fall where the blocks end, and the hook is their
     * median, with no flush */
    char *wide = malloc(2 * cap);
    ASSERT(wide);
    size_t w = 0;
    for (size_t i = 0; i < len; i++) {
        wide[w++] = text[i];
        if (text[i] == '\n') wide[w++] = ' ';
    }
    wide[w] = '\0';
    ASSERT_EQ(read_text(wide, &t, &d), GV_OK);
    ASSERT_EQ(imp_latencies(&t, &lat), GV_OK);
    h = imp_event_hook(&t, &lat);
    ASSERT_EQ(h.every, 0);
    ASSERT_EQ(h.hook, 2 * SIM_US);
    imp_trace_free(&t);
    diag_free(&d);
    free(wide);
    free(text);
}

/* At a thread's death: the joiner's READY and the next holder's RESUMED,
 * each from the dying thread's release (its SUSPENDED, before `died`) -
 * the first death of gc.json.gz, where the queue head ran 7 us after it
 * and main, woken first, became ready 9 us after it. */
static void test_latencies_at_death(void)
{
    struct tb b;
    memset(&b, 0, sizeof b);
    st(&b, 1, 1, "started_tracing");
    st(&b, 2, 33, "started");
    st(&b, 2, 37, "wants_gvl");
    st(&b, 3, 41, "started");
    st(&b, 3, 49, "wants_gvl");
    st(&b, 1, 45, "waiting");     /* main joins w1 */
    st(&b, 2, 60, "running");
    st(&b, 2, 8090, "waiting");   /* w1's release ... */
    st(&b, 2, 8092, "died");      /* ... and its EXITED */
    st(&b, 3, 8097, "running");   /* the queue head */
    st(&b, 1, 8099, "wants_gvl"); /* main, behind it */
    st(&b, 3, 9000, "waiting");
    st(&b, 3, 9002, "died");
    st(&b, 1, 9010, "running");
    st(&b, 1, 9100, "stopped_tracing");
    tname(&b, 1, "Main Thread");
    tname(&b, 2, "w1");
    tname(&b, 3, "w2");
    struct imp_trace t;
    struct diag_list d;
    char err[256];
    ASSERT_EQ(read_text(tb_end(&b), &t, &d), GV_OK);
    ASSERT_EQ(imp_classify(&t, NULL, err, sizeof err), GV_OK);
    ASSERT_EQ(wait_of(&t, "Main Thread", 0)->cls, IMP_CLS_JOIN);
    struct imp_latency lat;
    ASSERT_EQ(imp_latencies(&t, &lat), GV_OK);
    ASSERT_EQ(lat.joins, 1);
    ASSERT_EQ(lat.join_median, 9 * SIM_US);
    ASSERT_EQ(lat.death_handoffs, 2);             /* w2 after w1's death, main after w2's */
    ASSERT_EQ(lat.death_handoff_median, 8500 * SIM_NS);
    ASSERT_EQ(lat.handoffs, 3);                   /* and w1 after main's join */
    /* the deaths' hand-offs are in no quiet-time bin; w1's is, after 4 us of
     * quiet (w2's start at 41 us, main's release at 45) */
    ASSERT_EQ(lat.quiet[0] + lat.quiet[1] + lat.quiet[2] + lat.quiet[3], 1);
    ASSERT_EQ(lat.quiet[0], 1);
    ASSERT_EQ(lat.quiet_median[0], 15 * SIM_US);
    ASSERT_EQ(lat.quiet_time[0], 4 * SIM_US);
    imp_trace_free(&t);
    diag_free(&d);
}

/* gc.json.gz (tests/data/gvl-tracing), imported as `gvlsim import --ruby
 * 3.2 --machine gvltrace_2023` does, with `--set seed=SEED`. */
static void load_gc_replay(int seed, struct scenario *s)
{
    struct imp_trace t;
    struct diag_list d;
    char err[256], set[32];
    diag_init(&d);
    ASSERT_EQ(imp_read("tests/data/gvl-tracing/gc.json.gz", &t, &d), GV_OK);
    ASSERT_EQ(imp_classify(&t, NULL, err, sizeof err), GV_OK);
    struct imp_latency lat;
    ASSERT_EQ(imp_latencies(&t, &lat), GV_OK);
    struct imp_emit_opts eo = { .name = "gc", .machine = "gvltrace_2023", .ruby = "3.2",
                                .hook = imp_event_hook(&t, &lat), .hook_samples = lat.acquires,
                                .hook_flushes = lat.flushes };
    snprintf(set, sizeof set, "seed=%d", seed);
    const char *sets[1] = { set }, *dirs[1] = { "scenarios/machines" };
    struct load_opts lo = { .sets = sets, .nsets = 1, .machines_dirs = dirs, .nmachines_dirs = 1 };
    /* the spawn leads `started` by one start-up of the profile, and the
     * sleeps and off-CPU waits hold one wake-up (cmd_import.c) */
    for (int pass = 0; pass < 2; pass++) {
        cJSON *root = imp_emit(&t, &eo);
        char *text = root ? imp_print(root) : NULL;
        ASSERT(text);
        ASSERT_EQ(scn_load_text("gc.json", text, strlen(text), &lo, s, &d), GV_OK);
        cJSON_Delete(root);
        free(text);
        if (pass == 0) {
            eo.start_lead = imp_start_lead(&t, "3.2", s->machine.wake_idle_core);
            eo.wake = s->machine.wake_idle_core;   /* gvltrace_2023 has no wake_idle_extra */
            ASSERT_EQ(s->machine.wake_idle_extra.n, 0);
            scenario_free(s);
        }
    }
    imp_trace_free(&t);
    diag_free(&d);
}

/* The machine of gvltrace_2023 gave the traced process two CPUs: at the
 * first worker's death in `gc` (thread_start_func_2 of v3_2_0: the joining
 * main thread is woken first, by rb_threadptr_join_list_wakeup; then the
 * release signals the GVL's queue head) the head, whose CPU is the dying
 * thread's, runs as soon as that thread is gone, while main waits for the
 * other CPU's wake-up and queues behind both workers: 15.1 ms of
 * wants_gvl in the trace.  With a third CPU idle the head pays a wake-up
 * too, and main, woken first, often takes the free GVL: with the 8 cores
 * this profile used to assume, main queued behind both workers in 4 of
 * seeds 1-15. */
static void test_replay_gc_death_race(void)
{
    int queued = 0;
    for (int seed = 1; seed <= 15; seed++) {
        struct scenario s;
        load_gc_replay(seed, &s);
        ASSERT_EQ(s.machine.cores, 2);
        ASSERT_EQ(strcmp(s.ractors[0].threads[0].name, "Main Thread"), 0);
        struct fx_result r = fx_simulate(&s);
        ASSERT_EQ(r.rc, GV_OK);
        if (r.wants[0] >= 14 * SIM_MS) queued++;
        run_metrics_free(&r.m);
        scenario_free(&s);
    }
    ASSERT(queued >= 13);
}

int main(void)
{
    RUN(test_read_gvl_tracing);
    RUN(test_read_forms);
    RUN(test_read_gzip);
    RUN(test_read_errors);
    RUN(test_read_tid_reuse_and_death);
    RUN(test_read_gvlsim);
    RUN(test_classify_two_threads);
    RUN(test_classify_window_and_overrides);
    RUN(test_classify_yield_end_exit_ractors);
    RUN(test_classify_ractor_overlaps);
    RUN(test_emit);
    RUN(test_emit_start_lead);
    RUN(test_emit_wake);
    RUN(test_emit_wake_in_next_hold);
    RUN(test_hook_flush);
    RUN(test_latencies_at_death);
    RUN(test_replay_gc_death_race);
    TEST_DONE();
}
