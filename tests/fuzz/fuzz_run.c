/* fuzz_run.c - fuzz target: the simulation of whatever scenario loads.
 *
 * The input is fuzz_load's (the scenario text, then up to four --set
 * arguments, each after a NUL byte: fuzz_scenario.h); fuzz_load checks
 * the loader, this target runs what it accepts: twice, on the native
 * engine under its own seed, with a simulated-time limit of MAX_TIME.  A
 * scenario estimated at more than MAX_EVENTS events (the repository's own,
 * most mutations of them) runs its first SHORT_TIME only (as its
 * stop.time), unless it has more than SHORT_MAX_THREADS threads to start.
 * Besides "no crash, no hang, no sanitizer report", every run must keep
 * the simulator's promises, checked here with abort():
 *   - the status is one simulate_run documents (GV_OK, GV_EINVAL, GV_EUNSUP,
 *     GV_ERUN, GV_ENOMEM), with a message exactly when it is not GV_OK:
 *     printable text (a deadlock's report has a line per blocked thread);
 *   - no message is one of the model's own consistency failures (an
 *     "internal error", a lock released by a thread that does not hold it):
 *     a scenario can deadlock or outlast its limit, never break the model;
 *   - the two runs agree: the same status, message and result row, byte for
 *     byte (same scenario + seed -> the same output);
 *   - a result adds up: the busy time of the cores is at most cores x wall,
 *     the threads' state times at most threads x wall (each thread is in one
 *     state at a time, from its start to its end), and every number of the
 *     row is finite (no nan, no inf);
 *   - the summary `gvlsim run` prints of it is printable text.
 *
 * Built with libFuzzer by `make fuzz`; tests/fuzz/replay.c runs the kept
 * corpus and crashers through the same function in `make test`. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/metrics.h"
#include "../../models/estimate.h"
#include "../../models/simulate.h"
#include "../../output/csv.h"
#include "../../output/rows.h"
#include "../../output/summary.h"
#include "fuzz_scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_EVENTS 2e5
#define MAX_TIME (2 * SIM_S)
#define SHORT_TIME (100 * SIM_US)
#define SHORT_MAX_THREADS 2000

#define CHECK(e) do { if (!(e)) { \
    fprintf(stderr, "fuzz_run: %s:%d: promise broken: %s\n", __FILE__, __LINE__, #e); \
    abort(); } } while (0)

/* The messages of the model's consistency failures (models/vm.c,
 * vm_lock.c, mn_pool.c, thread.c): none is a scenario's fault. */
static const char *const internal[] = {
    "internal error", "leaves the VM lock it does not hold", " unlocks ", "without a shared native thread",
    "unknown op kind",
};

struct outcome {
    int rc;
    char err[GV_ERRLEN];
    char *row;       /* the CSV row of a run that succeeded (malloc'd), else NULL */
    size_t rowlen;
};

/* Printable text and newlines (a message's last line has no newline of
 * its own; the summary's has). */
static void check_text(const char *t, bool newline_last)
{
    for (const unsigned char *p = (const unsigned char *)t; *p; p++)
        CHECK((*p >= 0x20 && *p != 0x7F) || (*p == '\n' && (p[1] || newline_last)));
}

/* (input, size: the fuzz input, whose names a message may quote: a phrase
 * the input itself holds proves nothing) */
static void check_message(const char *m, const uint8_t *input, size_t size)
{
    CHECK(*m);
    check_text(m, false);
    for (size_t i = 0; i < sizeof internal / sizeof *internal; i++) {
        if (strstr(m, internal[i]) && !memmem(input, size, internal[i], strlen(internal[i]))) {
            fprintf(stderr, "fuzz_run: the model broke: %s\n", m);
            abort();
        }
    }
}

static void check_sums(const struct run_metrics *m)
{
    CHECK(m->wall >= 0);
    CHECK(m->cpu >= 0 && m->cpu <= (sim_sum)m->cores * m->wall);
    sim_sum states = 0;
    for (int s = 0; s < TS_COUNT; s++) {
        CHECK(m->state_time[s] >= 0);
        states += m->state_time[s];
    }
    CHECK(states <= (sim_sum)m->threads * m->wall);
}

/* Every number of the row (a number cell, each item of a list) is finite:
 * the whole text a number, not nan or inf. */
static void check_number(const char *t, size_t n)
{
    char buf[64];
    CHECK(n > 0 && n < sizeof buf);
    memcpy(buf, t, n);
    buf[n] = '\0';
    char *end;
    double v = strtod(buf, &end);
    CHECK(*end == '\0' && isfinite(v));
}

static void check_numbers(const struct run_metrics *m)
{
    struct row r;
    row_init(&r);
    csv_row(&r, m, true);
    CHECK(!r.oom);
    for (size_t i = 0; i < r.n; i++) {
        const char *t = row_get(&r, i);
        if (r.cells[i].kind == ROW_NUM) check_number(t, strlen(t));
        if (r.cells[i].kind != ROW_LIST || !*t) continue;
        for (const char *p = t;; ) {
            size_t n = strcspn(p, ";");
            check_number(p, n);
            if (!p[n]) break;
            p += n + 1;
        }
    }
    row_free(&r);
}

static void run_once(const struct scenario *s, struct outcome *o, const uint8_t *input, size_t size)
{
    struct simulate_opts opts = { .max_time = MAX_TIME };
    struct run_metrics m;
    memset(&m, 0, sizeof m);
    o->err[0] = '\0';
    o->row = NULL;
    o->rowlen = 0;
    o->rc = simulate_run(s, &opts, &m, o->err, sizeof o->err);
    CHECK(o->rc == GV_OK || o->rc == GV_EINVAL || o->rc == GV_EUNSUP || o->rc == GV_ERUN ||
          o->rc == GV_ENOMEM);
    if (o->rc != GV_OK) {
        check_message(o->err, input, size);
        return;
    }
    CHECK(o->err[0] == '\0');
    check_sums(&m);
    FILE *f = open_memstream(&o->row, &o->rowlen);
    CHECK(f != NULL);
    csv_write_row(f, &m, true);
    CHECK(fclose(f) == 0);
    check_numbers(&m);
    /* and the summary `gvlsim run` prints of it: printable lines */
    char *text = NULL;
    size_t textlen = 0;
    f = open_memstream(&text, &textlen);
    CHECK(f != NULL);
    summary_write(f, &m);
    CHECK(fclose(f) == 0);
    CHECK(textlen > 0 && strlen(text) == textlen);
    check_text(text, true);
    free(text);
    run_metrics_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct scenario s;
    struct diag_list d;
    int rc = fuzz_scenario_load(data, size, &s, &d);
    diag_free(&d);
    if (rc != GV_OK) return 0;  /* (fuzz_load's promises) */
    bool run = estimate_events(&s, MAX_TIME) <= MAX_EVENTS;
    if (!run && s.total_threads <= SHORT_MAX_THREADS) {
        if (s.stop_time == 0 || s.stop_time > SHORT_TIME) s.stop_time = SHORT_TIME;
        run = true;
    }
    if (run) {
        struct outcome a, b;
        run_once(&s, &a, data, size);
        run_once(&s, &b, data, size);
        CHECK(a.rc == b.rc);
        CHECK(strcmp(a.err, b.err) == 0);
        CHECK(a.rowlen == b.rowlen && (a.rowlen == 0 || memcmp(a.row, b.row, a.rowlen) == 0));
        free(a.row);
        free(b.row);
    }
    scenario_free(&s);
    return 0;
}
