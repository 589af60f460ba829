/* test_usl.c - the Universal Scalability Law fit (output/usl.c) on
 * synthetic data of known alpha, beta and lambda: exact data is recovered,
 * noisy data within its noise, the peak is where the law puts it, pure
 * Amdahl and linear data have no peak, and data that cannot be fitted is
 * refused with a message. */
#include <math.h>
#include <string.h>

#include "../../common/err.h"
#include "../../output/usl.h"
#include "test.h"

static double law(double a, double b, double l, double n)
{
    return l * n / (1 + a * (n - 1) + b * n * (n - 1));
}

static double rel(double got, double want)
{
    return fabs(got - want) / fabs(want);
}

static void test_exact(void)
{
    static const double cases[][3] = {
        { 0.05, 0.002, 1000 },   /* peaks at N* = sqrt(0.95 / 0.002) = 21.8 */
        { 0.3, 0.0001, 5e6 },
        { 0.01, 0.02, 2.5 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double n[32], x[32];
        for (int i = 0; i < 32; i++) {
            n[i] = i + 1;
            x[i] = law(cases[c][0], cases[c][1], cases[c][2], n[i]);
        }
        struct usl_fit f;
        char err[256];
        ASSERT_EQ(usl_fit(n, x, 32, &f, err, sizeof err), GV_OK);
        ASSERT(rel(f.alpha, cases[c][0]) < 1e-4);
        ASSERT(rel(f.beta, cases[c][1]) < 1e-4);
        ASSERT(rel(f.lambda, cases[c][2]) < 1e-6);
        ASSERT(f.rms_rel < 1e-6);
        ASSERT(f.r2 > 0.999999);
        ASSERT(rel(f.peak_n, sqrt((1 - cases[c][0]) / cases[c][1])) < 1e-4);
        ASSERT(rel(f.peak_x, law(cases[c][0], cases[c][1], cases[c][2], f.peak_n)) < 1e-9);
    }
}

/* 2% multiplicative noise (a fixed LCG), 3 replicates per N, N = 1, 2, 4..64 */
static void test_noisy(void)
{
    double n[60], x[60];
    size_t k = 0;
    unsigned long long s = 7;
    for (int p = 0; p <= 6; p++)
        for (int r = 0; r < 3; r++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            double u = (double)(s >> 11) / 9007199254740992.0 * 2 - 1;
            n[k] = (double)(1 << p);
            x[k] = law(0.08, 0.0005, 200, n[k]) * (1 + 0.02 * u);
            k++;
        }
    struct usl_fit f;
    char err[256];
    ASSERT_EQ(usl_fit(n, x, k, &f, err, sizeof err), GV_OK);
    ASSERT_EQ(f.npts, 21);
    ASSERT(fabs(f.alpha - 0.08) < 0.02);
    ASSERT(fabs(f.beta - 0.0005) < 0.0003);
    ASSERT(rel(f.lambda, 200) < 0.03);
    ASSERT(f.rms_rel < 0.02);
    ASSERT(f.rms_rel > 0.002);   /* the noise is seen, not fitted away */
}

/* Amdahl (beta 0) and linear scaling: no peak; a flat line is alpha 1. */
static void test_no_peak(void)
{
    double n[] = { 1, 2, 4, 8, 16 }, x[5];
    struct usl_fit f;
    char err[256];
    for (int i = 0; i < 5; i++) x[i] = law(0.1, 0, 50, n[i]);
    ASSERT_EQ(usl_fit(n, x, 5, &f, err, sizeof err), GV_OK);
    ASSERT(rel(f.alpha, 0.1) < 1e-4);
    ASSERT(f.beta < 1e-9);
    ASSERT(f.peak_n == 0 && f.peak_x == 0);
    for (int i = 0; i < 5; i++) x[i] = 3 * n[i];
    ASSERT_EQ(usl_fit(n, x, 5, &f, err, sizeof err), GV_OK);
    ASSERT(f.alpha < 1e-9 && f.beta < 1e-9);
    ASSERT(rel(f.lambda, 3) < 1e-9);
    for (int i = 0; i < 5; i++) x[i] = 7;
    ASSERT_EQ(usl_fit(n, x, 5, &f, err, sizeof err), GV_OK);
    ASSERT(rel(f.alpha, 1) < 1e-4 && f.beta < 1e-9);
}

/* The fastest fall the law allows, (k - 1) / (m - 1) from k to m: the law
 * itself at any alpha and beta never goes beyond it, a steeper fall does
 * and is found as the pair furthest below the bound; a fall from one
 * worker is never beyond it. */
static void test_fall_beyond(void)
{
    double n[] = { 1, 2, 3, 4, 6, 8, 16, 32 }, x[8];
    size_t lo = 99, hi = 99;
    static const double ab[][2] = { { 0, 0 }, { 0.5, 0 }, { 0, 10 }, { 3, 1000 }, { 50, 1e6 } };
    for (size_t k = 0; k < sizeof ab / sizeof ab[0]; k++) {
        for (int i = 0; i < 8; i++) x[i] = law(ab[k][0], ab[k][1], 10, n[i]);
        ASSERT(!usl_fall_beyond(n, x, 8, &lo, &hi));
    }
    /* 10 -> 1 from one worker to two: any beta gives it */
    double n1[] = { 1, 2, 3 }, x1[] = { 10, 1, 0.6 };
    ASSERT(!usl_fall_beyond(n1, x1, 3, &lo, &hi));
    /* from 2 to 3 the law falls by half at the most: 0.4 of it is beyond,
     * and so are 3 -> 4 (0.3, bound 2/3) and 2 -> 4 (0.12, bound 1/3),
     * the furthest below its bound */
    double n2[] = { 1, 3, 2, 4 }, x2[] = { 5, 4, 10, 1.2 };
    ASSERT(usl_fall_beyond(n2, x2, 4, &lo, &hi));
    ASSERT_EQ(lo, 2);
    ASSERT_EQ(hi, 3);
    double n3[] = { 2, 3 }, x3[] = { 10, 5 };
    ASSERT(!usl_fall_beyond(n3, x3, 2, &lo, &hi));  /* exactly the bound */
}

static void test_refused(void)
{
    struct usl_fit f;
    char err[256];
    double n2[] = { 1, 2, 2, 1 }, x2[] = { 1, 2, 2, 1 };
    ASSERT_EQ(usl_fit(n2, x2, 4, &f, err, sizeof err), GV_EINVAL);
    ASSERT_CONTAINS(err, "2 distinct concurrency values");
    double n3[] = { 1, 2, 3 }, x3[] = { 1, 0, 2 };
    ASSERT_EQ(usl_fit(n3, x3, 3, &f, err, sizeof err), GV_EINVAL);
    ASSERT_CONTAINS(err, "throughput 0 at concurrency 2 is not > 0");
    double n4[] = { 0.5, 2, 3 }, x4[] = { 1, 1, 2 };
    ASSERT_EQ(usl_fit(n4, x4, 3, &f, err, sizeof err), GV_EINVAL);
    ASSERT_CONTAINS(err, "concurrency 0.5 is not >= 1");
}

int main(void)
{
    RUN(test_exact);
    RUN(test_noisy);
    RUN(test_no_peak);
    RUN(test_fall_beyond);
    RUN(test_refused);
    TEST_DONE();
}
