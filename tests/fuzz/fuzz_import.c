/* fuzz_import.c - fuzz target: `gvlsim import`'s trace reader, classifier
 * and emitter.  An input is a trace file's bytes (plain or gzip).  Besides
 * "no crash, no sanitizer report", every import must keep its promises,
 * checked here with abort():
 *   - the reader's status is GV_OK, GV_EINVAL or GV_ENOMEM, with
 *     diagnostics exactly when it is not GV_OK, each one line of printable
 *     text starting with the trace's name;
 *   - a trace it reads has threads whose segments are in time order, each
 *     non-empty but the implied holds;
 *   - every waiting segment gets a class, and every wake has a waker of the
 *     waiting thread's Ractor, acting no later than the wait's end but for
 *     a join (the joined thread's death may come just after);
 *   - the scenario it emits passes the loader (scn_load_text).
 *
 * Built with libFuzzer by `make fuzz`; tests/fuzz/replay.c runs the kept
 * corpus and crashers through the same function in `make test`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../input/import.h"
#include "../../input/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(e) do { if (!(e)) { \
    fprintf(stderr, "fuzz_import: %s:%d: promise broken: %s\n", __FILE__, __LINE__, #e); \
    abort(); } } while (0)

static void check_diags(const struct diag_list *d)
{
    for (size_t i = 0; i < d->n; i++) {
        const char *m = d->msgs[i];
        CHECK(!strncmp(m, "fuzz.json", 9));
        for (const unsigned char *p = (const unsigned char *)m; *p; p++) CHECK(*p >= 0x20 || *p == '\t');
    }
}

static void check_trace(const struct imp_trace *t)
{
    CHECK(t->nthreads >= 1);
    for (int i = 0; i < t->nthreads; i++) {
        const struct imp_thread *th = &t->threads[i];
        CHECK(th->name && th->name[0]);
        for (int k = 0; k < th->nsegs; k++) {
            const struct imp_seg *s = &th->segs[k];
            CHECK(s->t0 >= 0 && s->t1 >= s->t0);
            CHECK(s->t1 > s->t0 || s->st == IMP_RUNNING);
            if (k) CHECK(s->t0 >= th->segs[k - 1].t1);
            if (s->st != IMP_WAITING) continue;
            CHECK(s->cls != IMP_CLS_NONE);
            if (s->cls != IMP_CLS_SYNC && s->cls != IMP_CLS_JOIN) continue;
            CHECK(s->waker >= 0 && s->waker < t->nthreads && s->waker != i);
            CHECK(t->threads[s->waker].ractor == th->ractor);
            if (s->cls == IMP_CLS_SYNC) CHECK(s->wake_at <= s->t1);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct imp_trace t;
    struct diag_list d;
    diag_init(&d);
    int rc = imp_read_mem("fuzz.json", data, size, &t, &d);
    CHECK(rc == GV_OK || rc == GV_EINVAL || rc == GV_ENOMEM);
    CHECK((rc == GV_OK) == (d.n == 0) || rc == GV_ENOMEM);
    check_diags(&d);
    diag_free(&d);
    if (rc != GV_OK) return 0;
    char err[GV_ERRLEN];
    rc = imp_classify(&t, NULL, err, sizeof err);
    CHECK(rc == GV_OK || rc == GV_ENOMEM);
    if (rc == GV_OK) {
        check_trace(&t);
        struct imp_emit_opts eo = { .name = "fuzz" };
        cJSON *root = imp_emit(&t, &eo);
        char *text = root ? imp_print(root) : NULL;
        if (text) {
            struct scenario s;
            diag_init(&d);
            rc = scn_load_text("fuzz.scenario.json", text, strlen(text), NULL, &s, &d);
            for (size_t i = 0; rc != GV_OK && i < d.n; i++) fprintf(stderr, "%s\n", d.msgs[i]);
            CHECK(rc == GV_OK || rc == GV_ENOMEM);
            if (rc == GV_OK) scenario_free(&s);
            diag_free(&d);
        }
        free(text);
        cJSON_Delete(root);
    }
    imp_trace_free(&t);
    return 0;
}
