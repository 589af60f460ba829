/* test.h - minimal assertions for gvlsim unit tests (libuv task.h style).
 * A failed assertion prints file:line and the expression, then aborts. */
#ifndef GV_TEST_H
#define GV_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_checks;

#define ASSERT(e) do { test_checks++; if (!(e)) { \
    fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__, __LINE__, #e); \
    abort(); } } while (0)

#define ASSERT_EQ(a, b) do { test_checks++; long long a_ = (long long)(a), b_ = (long long)(b); \
    if (a_ != b_) { fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", \
    __FILE__, __LINE__, #a, #b, a_, b_); abort(); } } while (0)

#define ASSERT_STREQ(a, b) do { test_checks++; const char *a_ = (a), *b_ = (b); \
    if (!a_ || !b_ || strcmp(a_, b_) != 0) { fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", \
    __FILE__, __LINE__, #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); abort(); } } while (0)

#define ASSERT_CONTAINS(hay, needle) do { test_checks++; const char *h_ = (hay), *n_ = (needle); \
    if (!h_ || !strstr(h_, n_)) { fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", \
    __FILE__, __LINE__, h_ ? h_ : "(null)", n_); abort(); } } while (0)

/* Each test file defines its tests as functions and lists them in main via RUN. */
#define RUN(fn) do { fn(); fprintf(stderr, "  ok  %s\n", #fn); } while (0)
#define TEST_DONE() do { fprintf(stderr, "  %d checks passed\n", test_checks); return 0; } while (0)

#endif
