/* fuzz_load.c - fuzz target: the scenario loader, its validator and --set.
 *
 * An input is the scenario text, then up to four --set arguments, each
 * after a NUL byte (fuzz_scenario.h).  Besides "no crash, no sanitizer
 * report", every load must keep the loader's promises, checked here with
 * abort():
 *   - the status is one of GV_OK, GV_EINVAL, GV_EIO, GV_ENOMEM, with
 *     diagnostics exactly when it is not GV_OK;
 *   - each diagnostic is one line of printable text (control characters
 *     escaped), "NAME: ..." or "NAME:L:C: ...";
 *   - a loaded scenario is within the documented limits: threads, Ractors,
 *     loop depth, non-negative durations, known enum values;
 *   - its run-size estimate (models/estimate.c) is a finite number >= 0, so
 *     that the guard refusing long runs decides on a number.
 *
 * Built with libFuzzer by `make fuzz`; tests/fuzz/replay.c runs the kept
 * corpus and crashers through the same function in `make test`. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../input/load.h"
#include "../../input/schema.h"
#include "../../models/estimate.h"
#include "fuzz_scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(e) do { if (!(e)) { \
    fprintf(stderr, "fuzz_load: %s:%d: promise broken: %s\n", __FILE__, __LINE__, #e); \
    abort(); } } while (0)

static void check_dist(const struct scn_dist *d)
{
    CHECK(d->kind >= 0 && d->kind < DIST_KIND_COUNT);
    CHECK(d->a >= 0 && d->b >= 0);
    if (d->kind == DIST_UNIFORM) CHECK(d->a <= d->b);
    if (d->kind == DIST_LOGNORMAL) CHECK(d->sigma >= 0 && d->sigma <= 10);
    if (d->kind == DIST_EMPIRICAL) {
        /* one value or more, each a duration; the cumulative weights never
         * fall and end above 0 (a draw always lands on a value) */
        CHECK(d->n >= 1 && d->values && d->cum);
        for (int i = 0; i < d->n; i++) {
            CHECK(d->values[i] >= 0);
            CHECK(d->cum[i] >= (i > 0 ? d->cum[i - 1] : 0));
        }
        CHECK(d->cum[d->n - 1] > 0 && isfinite(d->cum[d->n - 1]));
    }
}

static void check_prog(const struct scn_prog *p, const struct scenario *s, int depth)
{
    CHECK(depth <= SCN_MAX_LOOP_DEPTH);
    CHECK(p->nops >= 0);
    for (int i = 0; i < p->nops; i++) {
        const struct scn_op *op = &p->ops[i];
        CHECK(op->kind >= 0 && op->kind < OP_KIND_COUNT);
        CHECK(op->path && op->path[0] == '/');
        switch (op->kind) {
        case OP_COMPUTE:
            if (!op->u.compute.has_insns) check_dist(&op->u.compute.dur);
            break;
        case OP_SYSCALL: check_dist(&op->u.syscall.dur); break;
        case OP_SLEEP: check_dist(&op->u.sleep.dur); break;
        case OP_GC: check_dist(&op->u.gc.dur); break;
        case OP_QUEUE_PUSH:
        case OP_QUEUE_POP: CHECK(op->u.queue.queue >= 0 && op->u.queue.queue < s->nqueues); break;
        case OP_LOOP:
            CHECK(op->u.loop.body && op->u.loop.body->nops >= 1);
            check_prog(op->u.loop.body, s, depth + 1);
            break;
        /* every block counts toward the nesting limit (schema.c is_block) */
        case OP_MEASURE:
            CHECK(op->u.measure.body && op->u.measure.mid >= 1 && op->u.measure.mid <= s->nmeasures);
            check_prog(op->u.measure.body, s, depth + 1);
            break;
        case OP_BRANCH:
            CHECK(op->u.branch.p >= 0 && op->u.branch.p <= 1);
            CHECK(op->u.branch.then_body && op->u.branch.else_body);
            check_prog(op->u.branch.then_body, s, depth + 1);
            check_prog(op->u.branch.else_body, s, depth + 1);
            break;
        case OP_SYNCHRONIZE:
            CHECK(op->u.mutex.body && op->u.mutex.unlock);
            CHECK(op->u.mutex.mutex >= 0 && op->u.mutex.mutex < s->nmutexes);
            check_prog(op->u.mutex.body, s, depth + 1);
            break;
        default: break;
        }
    }
}

static void check_scenario(const struct scenario *s)
{
    CHECK(s->name && s->file);
    CHECK(s->nractors >= 1 && s->ractors[0].count == 1);
    CHECK(s->total_threads >= 1 && s->total_threads <= SCH_MAX_THREADS);
    CHECK(s->total_ractors >= 1 && s->total_ractors <= SCH_MAX_RACTORS);
    CHECK(s->machine.cores >= 1 && s->machine.cores <= 4096);
    CHECK(s->machine.work_scale > 0 && s->machine.work_scale <= 1000);
    CHECK(s->runtime.quantum > 0 && s->runtime.timer_tick > 0);
    CHECK(s->stop_time >= 0);
    int64_t threads = 0;
    for (int r = 0; r < s->nractors; r++) {
        const struct scn_ractor *ra = &s->ractors[r];
        CHECK(ra->name && ra->count >= 1 && ra->nthreads >= 1);
        int64_t per = 0;
        for (int t = 0; t < ra->nthreads; t++) {
            CHECK(ra->threads[t].name && ra->threads[t].count >= 1);
            per += ra->threads[t].count;
            check_prog(&ra->threads[t].prog, s, 0);
        }
        threads += per * ra->count;
    }
    CHECK(threads == s->total_threads);
}

static void check_diag(const char *m)
{
    CHECK(*m);
    for (const unsigned char *p = (const unsigned char *)m; *p; p++) CHECK(*p >= 0x20 && *p != 0x7F);
    CHECK(strstr(m, ": ") != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct scenario s;
    struct diag_list d;
    int rc = fuzz_scenario_load(data, size, &s, &d);
    CHECK(rc == GV_OK || rc == GV_EINVAL || rc == GV_EIO || rc == GV_ENOMEM);
    if (rc == GV_OK) {
        CHECK(d.n == 0);
        check_scenario(&s);
        double ev = estimate_events(&s, 3600 * SIM_S);
        CHECK(isfinite(ev) && ev >= 0);
        scenario_free(&s);
    } else if (rc != GV_ENOMEM) {
        CHECK(d.n > 0);
    }
    for (size_t i = 0; i < d.n; i++) check_diag(d.msgs[i]);
    diag_free(&d);
    return 0;
}
