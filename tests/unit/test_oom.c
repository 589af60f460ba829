/* test_oom.c - scn_load under allocation failure: fail the n-th allocation
 * (alone, then with every later one) for every n, and require GV_ENOMEM
 * each time a failure was injected - never a crash, never a wrong answer.
 * Leaks on these paths are caught by running this binary under valgrind.
 *
 * malloc is replaced by ELF interposition (glibc supports it; cJSON and
 * strdup come through here too).  Skipped under ASan, which owns malloc. */
#include <stdlib.h>

#include "../../common/err.h"
#include "../../input/load.h"
#include "test.h"

#if defined(__SANITIZE_ADDRESS__)

int main(void)
{
    fprintf(stderr, "  skipped: allocation-failure injection needs the libc malloc (ASan build)\n");
    TEST_DONE();
}

#else

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t m);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

static long fail_at = -1;  /* 1-based allocation to fail; -1: none */
static int fail_after;     /* also fail every later allocation */
static long nalloc;        /* allocations since arming */

static int inject(void)
{
    if (fail_at < 0) return 0;
    nalloc++;
    return nalloc == fail_at || (fail_after && nalloc > fail_at);
}

/* Live blocks: every run must end where it started, so the error paths
 * leak nothing (valgrind cannot see through __libc_malloc). */
static long live;

void *malloc(size_t n)
{
    void *p = inject() ? NULL : __libc_malloc(n);
    live += p != NULL;
    return p;
}

void *calloc(size_t n, size_t m)
{
    void *p = inject() ? NULL : __libc_calloc(n, m);
    live += p != NULL;
    return p;
}

void *realloc(void *p, size_t n)
{
    if (inject()) return NULL;
    void *q = __libc_realloc(p, n);
    if (!p && q) live++;
    else if (p && !q && n == 0) live--;  /* glibc frees on realloc(p, 0) */
    return q;
}

void free(void *p)
{
    live -= p != NULL;
    __libc_free(p);
}

/* What a run produced, to compare with the run without failures. */
static void outcome(int rc, const struct scenario *s, const struct diag_list *d, char *buf, size_t n)
{
    if (rc == GV_OK)
        snprintf(buf, n, "ok %s %d %d %s %d", s->name, s->total_threads, s->machine.cores,
                 scn_policy_name(s->runtime.gvl_policy), s->ractors[0].threads[0].prog.nops);
    else
        snprintf(buf, n, "rc %d, %zu diags, last %s", rc, d->n, d->n ? d->msgs[d->n - 1] : "-");
}

/* Load `file` failing allocation 1, 2, ... until a run needs fewer
 * allocations than the failure point.  Each run must end in GV_ENOMEM or,
 * if the failed allocation did not matter (a trial parse of a --set value
 * that is a plain string), exactly as the clean run did. */
static long sweep(const char *file, const char *const *sets, int nsets, int after, int clean_rc)
{
    struct load_opts o = { .sets = sets, .nsets = nsets };
    char clean[512] = "", got[512];
    long n;
    for (n = 0;; n++) {
        struct scenario s;
        struct diag_list d;
        long live0 = live;
        diag_init(&d);
        fail_after = after;
        nalloc = 0;
        fail_at = n ? n : -1;
        int rc = scn_load(file, &o, &s, &d);
        fail_at = -1;
        long used = nalloc;
        outcome(rc, &s, &d, n ? got : clean, sizeof got);
        if (rc == GV_OK) scenario_free(&s);
        diag_free(&d);
        if (live != live0) fprintf(stderr, "%s: allocation %ld failed: %ld blocks leaked\n", file, n, live - live0);
        ASSERT_EQ(live, live0);
        if (n == 0) {
            ASSERT_EQ(rc, clean_rc);
            continue;
        }
        if (used < n) break;  /* nothing failed any more */
        if (rc != GV_ENOMEM && strcmp(got, clean) != 0) {
            fprintf(stderr, "%s: allocation %ld failed: %s\n  clean run: %s\n", file, n, got, clean);
            ASSERT(0);
        }
    }
    return n;
}

static void test_oom_valid(void)
{
    const char *sets[] = { "runtime.gvl_policy=barging", "ractors.0.threads.0.count=2",
                           "queues.1={\"name\": \"done\", \"initial\": 1}" };
    for (int after = 0; after <= 1; after++) {
        ASSERT(sweep("tests/data/full.json", sets, 3, after, GV_OK) > 100);
        const char *m[] = { "machine.cores=2" };
        sweep("tests/data/profile_name.json", m, 1, after, GV_OK);
    }
}

static void test_oom_invalid(void)
{
    const char *bad[] = { "tests/data/bad/bad_duration.json", "tests/data/bad/unknown_queue.json",
                          "tests/data/bad/syntax.json", "tests/data/profile_broken.json",
                          "tests/data/profile_nosuch.json", "tests/data/bad/duplicate_key.json" };
    const char *sets[] = { "seed.x=1", "runtime.quantm=1" };
    for (int after = 0; after <= 1; after++) {
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) sweep(bad[i], NULL, 0, after, GV_EINVAL);
        sweep("tests/data/full.json", sets, 2, after, GV_EINVAL);
    }
}

int main(void)
{
    unsetenv("GVLSIM_MACHINES");
    RUN(test_oom_valid);
    RUN(test_oom_invalid);
    TEST_DONE();
}

#endif
