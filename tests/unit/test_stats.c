/* test_stats.c - sorting samples and their median. */
#include "../../common/stats.h"
#include "test.h"

static int near(double a, double b) { return a - b < 1e-12 && b - a < 1e-12; }

static void test_sort(void)
{
    double v[] = { 3, -1, 2.5, -7, 2.5, 0 };
    stats_sort(v, 6);
    for (int i = 1; i < 6; i++) ASSERT(v[i - 1] <= v[i]);
    ASSERT(near(v[0], -7) && near(v[5], 3));
    double a = 1, b = 2;
    ASSERT(stats_cmp_double(&a, &b) < 0);
    ASSERT(stats_cmp_double(&b, &a) > 0);
    ASSERT_EQ(stats_cmp_double(&a, &a), 0);
}

static void test_median(void)
{
    double a[] = { 5, 1, 3 };
    ASSERT(near(stats_median(a, 3), 3));
    ASSERT(near(a[0], 1) && near(a[2], 5));  /* sorted */
    double b[] = { 4, 1, 3, 2 };
    ASSERT(near(stats_median(b, 4), 2.5));
    double c[] = { 7 };
    ASSERT(near(stats_median(c, 1), 7));
    ASSERT(near(stats_median(c, 0), 0));
}

int main(void)
{
    RUN(test_sort);
    RUN(test_median);
    TEST_DONE();
}
