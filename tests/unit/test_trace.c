/* test_trace.c - the Perfetto trace read back with cJSON: valid JSON; the
 * slices of every track nest and never overlap; each thread's slices tile
 * its life from time 0 without gaps; per-state slice times summed over the
 * threads equal the CSV's *_s columns of the same run to the nanosecond,
 * core slices equal cpu_s; the cap is honoured, reported and cuts cleanly;
 * .gz decompresses to the same bytes; equal runs give equal traces; a
 * failed run (deadlock) still gives a valid trace. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../../output/csv.h"
#include "../../output/trace.h"
#include "sim_fixture.h"
#include "test.h"

static char tmpdir[] = "/tmp/gvlsim_test_trace.XXXXXX";

/* ---- a traced run --------------------------------------------------------- */

struct traced {
    char csv[8192];          /* header + row of the same run */
    struct trace_stats st;
    int run_rc;
    sim_time end;            /* when the trace was ended */
    int nthreads, ncores;
};

struct traced_run {
    const char *path;
    uint64_t max_events;
    struct traced *out;
    struct trace *tr;
};

static int traced_setup(void *ctx, struct vm *vm, char *err, size_t errlen)
{
    struct traced_run *c = ctx;
    struct run_layout lay;
    ASSERT_EQ(simulate_layout(vm, &lay), GV_OK);
    int rc = trace_open(&c->tr, c->path, c->max_events, &lay, err, errlen);
    simulate_layout_free(&lay);
    ASSERT_EQ(rc, GV_OK);
    trace_observe(c->tr, &vm->obs, &vm->mach.obs, &vm->timer.nt);
    c->out->nthreads = vm->nthreads;
    c->out->ncores = vm->mach.ncores;
    return GV_OK;
}

static int traced_finish(void *ctx, struct vm *vm, int run_rc, sim_time end, char *err,
                         size_t errlen)
{
    (void)vm;
    struct traced_run *c = ctx;
    c->out->run_rc = run_rc;
    c->out->end = end;
    trace_end(c->tr, end);
    ASSERT_EQ(trace_commit(c->tr, &c->out->st, err, errlen), GV_OK);
    return GV_OK;
}

static void run_traced(const char *file, const char *const *sets, int nsets, const char *machines,
                       const char *trace_path, uint64_t max_events, struct traced *out)
{
    memset(out, 0, sizeof *out);
    struct scenario scn;
    ASSERT_EQ(fx_load(file, sets, nsets, machines, &scn), GV_OK);
    struct traced_run c = { trace_path, max_events, out, NULL };
    struct simulate_opts so = { .engine = "native", .max_time = 3600 * SIM_S, .ctx = &c,
                                .setup = traced_setup, .finish = traced_finish };
    struct run_metrics m;
    char err[4096];
    int rc = simulate_run(&scn, &so, &m, err, sizeof err);
    ASSERT_EQ(rc, out->run_rc);
    if (rc == GV_OK) {
        FILE *f = fmemopen(out->csv, sizeof out->csv, "w");
        ASSERT(f);
        csv_write_header(f, &m);
        csv_write_row(f, &m, true);
        fclose(f);
        run_metrics_free(&m);
    }
    scenario_free(&scn);
}

/* ---- reading back --------------------------------------------------------- */

static char *read_maybe_gz(const char *path, size_t *len)
{
    gzFile z = gzopen(path, "rb");  /* reads plain files as they are */
    ASSERT(z);
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    ASSERT(buf);
    for (;;) {
        if (cap - n < 65536) {
            cap *= 2;
            buf = realloc(buf, cap);
            ASSERT(buf);
        }
        int r = gzread(z, buf + n, (unsigned)(cap - n - 1));
        ASSERT(r >= 0);
        if (r == 0) break;
        n += (size_t)r;
    }
    gzclose(z);
    buf[n] = 0;
    *len = n;
    return buf;
}

static char *read_raw(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ASSERT(f);
    char *buf = malloc(1 << 24);
    ASSERT(buf);
    *len = fread(buf, 1, 1 << 24, f);
    ASSERT(*len < (1 << 24));
    fclose(f);
    return buf;
}

static sim_time ps_of(const cJSON *num)
{
    ASSERT(cJSON_IsNumber(num));
    return (sim_time)llround(num->valuedouble * 1e6);
}

struct slice {
    sim_time ts, dur;
    const char *name;
    const char *state;   /* args.state (core tracks) */
    const char *task;    /* args.task (core tracks) */
};

#define MAXTID 64

struct track {
    struct slice *s;
    int n, cap;
};

struct parsed {
    cJSON *root;
    struct track tracks[MAXTID];
    int nevents;
    double events_meta, dropped_meta, max_meta;
    int truncated;
    sim_time truncated_at;
    int cut_instants;
};

static int by_ts(const void *a, const void *b)
{
    const struct slice *x = a, *y = b;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    return x->dur > y->dur ? -1 : x->dur < y->dur;  /* parents first */
}

static void parse_trace(const char *path, struct parsed *p)
{
    memset(p, 0, sizeof *p);
    size_t len;
    char *text = read_maybe_gz(path, &len);
    const char *end = NULL;
    p->root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
    ASSERT(p->root);  /* valid JSON, nothing after it */
    free(text);
    const cJSON *evs = cJSON_GetObjectItemCaseSensitive(p->root, "traceEvents");
    ASSERT(cJSON_IsArray(evs));
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(p->root, "metadata");
    ASSERT(cJSON_IsObject(meta));
    p->events_meta = cJSON_GetObjectItemCaseSensitive(meta, "events")->valuedouble;
    p->dropped_meta = cJSON_GetObjectItemCaseSensitive(meta, "dropped_events")->valuedouble;
    p->max_meta = cJSON_GetObjectItemCaseSensitive(meta, "max_events")->valuedouble;
    p->truncated = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(meta, "truncated"));
    if (p->truncated) p->truncated_at = ps_of(cJSON_GetObjectItemCaseSensitive(meta, "truncated_at_us"));
    const cJSON *e;
    cJSON_ArrayForEach(e, evs) {
        p->nevents++;
        const cJSON *ph = cJSON_GetObjectItemCaseSensitive(e, "ph");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
        ASSERT(cJSON_IsString(ph) && cJSON_IsString(name));
        ASSERT_EQ(cJSON_GetObjectItemCaseSensitive(e, "pid")->valueint, 1);
        int tid = cJSON_GetObjectItemCaseSensitive(e, "tid")->valueint;
        ASSERT(tid >= 1 && tid < MAXTID);
        if (!strcmp(ph->valuestring, "i") && !strcmp(name->valuestring, "trace_truncated"))
            p->cut_instants++;
        if (strcmp(ph->valuestring, "X") != 0) continue;
        struct track *t = &p->tracks[tid];
        if (t->n == t->cap) {
            t->cap = t->cap ? 2 * t->cap : 256;
            t->s = realloc(t->s, (size_t)t->cap * sizeof *t->s);
            ASSERT(t->s);
        }
        struct slice *s = &t->s[t->n++];
        s->ts = ps_of(cJSON_GetObjectItemCaseSensitive(e, "ts"));
        s->dur = ps_of(cJSON_GetObjectItemCaseSensitive(e, "dur"));
        ASSERT(s->dur > 0);  /* zero-length states are left out */
        s->name = name->valuestring;
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
        s->state = args ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "state")) : NULL;
        s->task = args ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "task")) : NULL;
    }
    for (int i = 0; i < MAXTID; i++)
        if (p->tracks[i].n) qsort(p->tracks[i].s, (size_t)p->tracks[i].n, sizeof(struct slice), by_ts);
}

static void parsed_free(struct parsed *p)
{
    for (int i = 0; i < MAXTID; i++) free(p->tracks[i].s);
    cJSON_Delete(p->root);
}

/* Slices nest (a stack discipline: each one inside its parent or after
 * it, never partly overlapping); returns the deepest nesting seen. */
static int check_nesting(const struct track *t)
{
    sim_time stack[64];
    int sp = 0, depth = 0;
    for (int i = 0; i < t->n; i++) {
        const struct slice *s = &t->s[i];
        while (sp > 0 && stack[sp - 1] <= s->ts) sp--;
        if (sp > 0) ASSERT(s->ts + s->dur <= stack[sp - 1]);  /* no partial overlap */
        ASSERT(sp < 64);
        stack[sp++] = s->ts + s->dur;
        if (sp > depth) depth = sp;
    }
    return depth;
}

/* The CSV column `name` of a header + row text. */
static void csv_column(const char *csv, const char *name, char *out, size_t len)
{
    const char *nl = strchr(csv, '\n');
    ASSERT(nl);
    const char *h = csv, *r = nl + 1;
    for (;;) {
        size_t hl = strcspn(h, ",\n"), rl = strcspn(r, ",\n");
        if (hl == strlen(name) && !strncmp(h, name, hl)) {
            ASSERT(rl < len);
            memcpy(out, r, rl);
            out[rl] = 0;
            return;
        }
        ASSERT(h[hl] == ',' && r[rl] == ',');
        h += hl + 1;
        r += rl + 1;
    }
}

static void expect_seconds(const char *csv, const char *col, sim_time ps)
{
    char want[64], got[64];
    csv_column(csv, col, want, sizeof want);
    csv_format_seconds(got, sizeof got, ps);
    if (strcmp(want, got) != 0) fprintf(stderr, "column %s: CSV %s, trace %s\n", col, want, got);
    ASSERT_STREQ(got, want);
}

/* Everything a complete or capped trace of a run must satisfy.  `until`:
 * the time every thread track must reach (the end, or the cut). */
static void check_tracks(const struct parsed *p, const struct traced *r, sim_time until)
{
    ASSERT_EQ(p->nevents, (long long)p->events_meta);
    ASSERT(p->events_meta <= p->max_meta);
    for (int tid = 1; tid < MAXTID; tid++) {
        const struct track *t = &p->tracks[tid];
        if (t->n == 0) continue;
        ASSERT_EQ(check_nesting(t), 1);  /* one state at a time: no overlap at all */
        ASSERT(t->s[t->n - 1].ts + t->s[t->n - 1].dur <= until);
    }
    /* each thread: gapless from 0 to its death, or to `until` if alive */
    for (int i = 0; i < r->nthreads; i++) {
        const struct track *t = &p->tracks[1 + i];
        ASSERT(t->n > 0);
        ASSERT_EQ(t->s[0].ts, 0);
        for (int k = 1; k < t->n; k++) ASSERT_EQ(t->s[k].ts, t->s[k - 1].ts + t->s[k - 1].dur);
    }
}

static void check_against_csv(const struct parsed *p, const struct traced *r)
{
    sim_time state[TS_COUNT] = { 0 };
    for (int i = 0; i < r->nthreads; i++) {
        const struct track *t = &p->tracks[1 + i];
        for (int k = 0; k < t->n; k++) {
            int s = 0;
            while (s < TS_COUNT && strcmp(thread_state_name((enum thread_state)s), t->s[k].name)) s++;
            ASSERT(s < TS_COUNT);
            state[s] += t->s[k].dur;
        }
    }
    char col[64];
    for (int s = 0; s < TS_COUNT; s++) {
        snprintf(col, sizeof col, "%s_s", thread_state_name((enum thread_state)s));
        expect_seconds(r->csv, col, state[s]);
    }
    /* cores: busy + switch = cpu_s; the timer track = the timer's busy time */
    sim_time cpu = 0, timer_busy = 0, timer_track = 0;
    for (int c = 0; c < r->ncores; c++) {
        const struct track *t = &p->tracks[2 + r->nthreads + c];
        for (int k = 0; k < t->n; k++) {
            const struct slice *s = &t->s[k];
            ASSERT(s->state && s->task);
            if (!strcmp(s->state, "busy")) {
                ASSERT_STREQ(s->name, s->task);
                cpu += s->dur;
                if (!strcmp(s->task, "timer")) timer_busy += s->dur;
            } else if (!strcmp(s->state, "switch")) {
                cpu += s->dur;
            } else {
                ASSERT_STREQ(s->state, "wake");
            }
        }
    }
    expect_seconds(r->csv, "cpu_s", cpu);
    const struct track *tt = &p->tracks[1 + r->nthreads];
    for (int k = 0; k < tt->n; k++) timer_track += tt->s[k].dur;
    ASSERT_EQ(timer_track, timer_busy);
}

static int files_in_tmp(void)
{
    DIR *d = opendir(tmpdir);
    ASSERT(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static void path_in_tmp(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", tmpdir, name);
}

/* ---- tests ---------------------------------------------------------------- */

static void full_check(const char *file, const char *const *sets, int nsets, const char *machines,
                       const char *name)
{
    char path[256];
    path_in_tmp(path, sizeof path, name);
    struct traced r;
    run_traced(file, sets, nsets, machines, path, 2000000, &r);
    ASSERT_EQ(r.run_rc, GV_OK);
    ASSERT(!r.st.truncated);
    ASSERT_EQ(r.st.dropped, 0);
    struct parsed p;
    parse_trace(path, &p);
    ASSERT(!p.truncated);
    ASSERT_EQ(p.dropped_meta, 0);
    ASSERT_EQ(p.events_meta, r.st.written);
    check_tracks(&p, &r, r.end);
    check_against_csv(&p, &r);
    parsed_free(&p);
    unlink(path);
}

static void test_token_pingpong(void)
{
    const char *sets[] = { "ractors.0.threads.0.program.0.times=2000",
                           "ractors.0.threads.1.program.0.times=2000" };
    full_check("scenarios/examples/token_pingpong.json", sets, 2, NULL, "token.json");
}

static void test_mtime_loop_2core(void)
{
    const char *sets[] = { "machine.cores=2", "ractors.0.threads.1.program.0.times_total=2000" };
    full_check("scenarios/mtime_loop.json", sets, 2, NULL, "mtime.json");
}

static void test_io_plus_cpu_stopped(void)
{
    /* stop.time ends the run with every state still open */
    const char *sets[] = { "stop.time=\"250ms\"" };
    full_check("scenarios/io_plus_cpu.json", sets, 1, NULL, "io.json");
}

static void test_mixed_ops(void)
{
    /* sleep, I/O wait, GVL-holding syscalls, queues, quantum, join */
    full_check("tests/golden/mixed_ops.json", NULL, 0, "scenarios/machines", "mixed.json");
}

static void test_ractors_barriers(void)
{
    /* VM lock, barriers (instants and counters from the models), 5 Ractors */
    const char *sets[] = { "ractors.1.count=4", "stop.time=\"2ms\"" };
    full_check("scenarios/proc_heavy.json", sets, 2, NULL, "proc.json");
}

static void test_mn_threads(void)
{
    /* M:N: threads on shared native threads (the core tracks name them) */
    full_check("tests/golden/mn_mixed.json", NULL, 0, "scenarios/machines", "mn.json");
}

static void test_cap(void)
{
    const char *sets[] = { "machine.cores=2", "ractors.0.threads.1.program.0.times_total=2000" };
    char path[256];
    path_in_tmp(path, sizeof path, "capped.json");
    struct traced r;
    run_traced("scenarios/mtime_loop.json", sets, 2, NULL, path, 500, &r);
    ASSERT_EQ(r.run_rc, GV_OK);
    ASSERT(r.st.truncated);
    ASSERT(r.st.written <= 500);
    ASSERT(r.st.written >= 490);  /* it filled the budget before cutting */
    ASSERT(r.st.dropped > 1000);
    ASSERT(r.st.cut_at > 0 && r.st.cut_at < r.end);
    struct parsed p;
    parse_trace(path, &p);
    ASSERT(p.truncated);
    ASSERT_EQ(p.truncated_at, r.st.cut_at);
    ASSERT_EQ(p.dropped_meta, (double)r.st.dropped);
    ASSERT_EQ(p.max_meta, 500);
    ASSERT_EQ(p.cut_instants, 1);
    check_tracks(&p, &r, r.st.cut_at);
    /* cut cleanly: every thread alive at the cut is covered up to it */
    for (int i = 0; i < r.nthreads; i++) {
        const struct track *t = &p.tracks[1 + i];
        ASSERT_EQ(t->s[t->n - 1].ts + t->s[t->n - 1].dur, r.st.cut_at);
    }
    parsed_free(&p);
    unlink(path);

    /* a cap smaller than the track names: still valid JSON, still reported */
    run_traced("scenarios/mtime_loop.json", sets, 2, NULL, path, 3, &r);
    ASSERT(r.st.truncated);
    ASSERT(r.st.written <= 3);
    parse_trace(path, &p);
    ASSERT(p.nevents <= 3);
    ASSERT(p.truncated);
    parsed_free(&p);
    unlink(path);
}

static void test_gzip_same_content_and_deterministic(void)
{
    const char *sets[] = { "ractors.0.threads.0.program.0.times=300",
                           "ractors.0.threads.1.program.0.times=300" };
    char plain[256], plain2[256], gz[256], gz2[256];
    path_in_tmp(plain, sizeof plain, "a.json");
    path_in_tmp(plain2, sizeof plain2, "b.json");
    path_in_tmp(gz, sizeof gz, "a.json.gz");
    path_in_tmp(gz2, sizeof gz2, "b.json.gz");
    struct traced r;
    run_traced("scenarios/examples/token_pingpong.json", sets, 2, NULL, plain, 2000000, &r);
    run_traced("scenarios/examples/token_pingpong.json", sets, 2, NULL, plain2, 2000000, &r);
    run_traced("scenarios/examples/token_pingpong.json", sets, 2, NULL, gz, 2000000, &r);
    run_traced("scenarios/examples/token_pingpong.json", sets, 2, NULL, gz2, 2000000, &r);
    size_t la, lb, lz, lraw;
    char *a = read_maybe_gz(plain, &la), *b = read_maybe_gz(plain2, &lb), *z = read_maybe_gz(gz, &lz);
    ASSERT(la > 1000);
    ASSERT_EQ(la, lb);
    ASSERT(memcmp(a, b, la) == 0);
    ASSERT_EQ(la, lz);
    ASSERT(memcmp(a, z, la) == 0);
    /* the .gz really is gzip (magic 1f 8b), smaller, and byte-identical run to run */
    size_t lraw2;
    char *raw = read_raw(gz, &lraw), *raw2 = read_raw(gz2, &lraw2);
    ASSERT((unsigned char)raw[0] == 0x1f && (unsigned char)raw[1] == 0x8b);
    ASSERT(lraw < la / 4);
    ASSERT_EQ(lraw, lraw2);
    ASSERT(memcmp(raw, raw2, lraw) == 0);
    free(a);
    free(b);
    free(z);
    free(raw);
    free(raw2);
    unlink(plain);
    unlink(plain2);
    unlink(gz);
    unlink(gz2);
}

static void test_deadlock_still_traced(void)
{
    char path[256];
    path_in_tmp(path, sizeof path, "dead.json");
    struct traced r;
    run_traced("tests/data/deadlock.json", NULL, 0, NULL, path, 2000000, &r);
    ASSERT_EQ(r.run_rc, GV_ERUN);
    struct parsed p;
    parse_trace(path, &p);
    check_tracks(&p, &r, r.end);
    /* main: wants_gvl, running (5 us compute), then parked until the end */
    const struct track *t = &p.tracks[1];
    ASSERT_STREQ(t->s[t->n - 1].name, "parked");
    ASSERT_EQ(t->s[t->n - 1].ts + t->s[t->n - 1].dur, r.end);
    parsed_free(&p);
    unlink(path);
}

static void test_format_us(void)
{
    char b[48];
    trace_format_us(b, sizeof b, 0);
    ASSERT_STREQ(b, "0.000000");
    trace_format_us(b, sizeof b, 1);
    ASSERT_STREQ(b, "0.000001");
    trace_format_us(b, sizeof b, 36567547295123);
    ASSERT_STREQ(b, "36567547.295123");
}

static void test_unwritable(void)
{
    const char *threads[] = { "main", "worker" };
    const char *ractors[] = { "main" };
    struct run_layout lay = { .scenario = "t", .policy = "eager", .ncores = 1, .nthreads = 2,
                              .thread_names = threads, .nractors = 1, .ractor_names = ractors };
    struct run_observer obs;
    struct mach_observer mobs;
    memset(&obs, 0, sizeof obs);
    memset(&mobs, 0, sizeof mobs);
    char err[512];
    struct trace *tr = NULL;
    ASSERT_EQ(trace_open(&tr, "/nonexistent-dir/x.json", 100, &lay, err, sizeof err), GV_EIO);
    ASSERT_CONTAINS(err, "/nonexistent-dir/x.json");
    ASSERT(!tr);
    /* abort removes the temporary file and detaches */
    char path[256];
    path_in_tmp(path, sizeof path, "aborted.json.gz");
    ASSERT_EQ(trace_open(&tr, path, 100, &lay, err, sizeof err), GV_OK);
    trace_observe(tr, &obs, &mobs, NULL);
    ASSERT(obs.thread_state && mobs.core_change);
    trace_abort(tr);
    ASSERT(!obs.thread_state && !mobs.core_change);
    ASSERT(access(path, F_OK) != 0);
    ASSERT_EQ(files_in_tmp(), 0);  /* no temporary file left behind either */
}

int main(void)
{
    ASSERT(mkdtemp(tmpdir));
    RUN(test_format_us);
    RUN(test_token_pingpong);
    RUN(test_mtime_loop_2core);
    RUN(test_io_plus_cpu_stopped);
    RUN(test_mixed_ops);
    RUN(test_ractors_barriers);
    RUN(test_mn_threads);
    RUN(test_cap);
    RUN(test_gzip_same_content_and_deterministic);
    RUN(test_deadlock_still_traced);
    RUN(test_unwritable);
    ASSERT(rmdir(tmpdir) == 0);
    TEST_DONE();
}
