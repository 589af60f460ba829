/* test_units.c - exact duration parsing and formatting. */
#include "../../input/units.h"
#include "test.h"

static sim_time dur(const char *s)
{
    sim_time t = -1;
    char err[200];
    int rc = units_parse(s, &t, err, sizeof err);
    if (rc != UNITS_OK) {
        fprintf(stderr, "units_parse(\"%s\"): %s\n", s, err);
        abort();
    }
    return t;
}

static int dur_err(const char *s, char *err, size_t n)
{
    sim_time t = 12345;
    int rc = units_parse(s, &t, err, n);
    ASSERT(rc != UNITS_OK);
    ASSERT_EQ(t, 12345);  /* untouched on error */
    return rc;
}

static void test_units_all(void)
{
    ASSERT_EQ(dur("1ps"), 1);
    ASSERT_EQ(dur("1ns"), 1000);
    ASSERT_EQ(dur("1us"), 1000000);
    ASSERT_EQ(dur("1\xc2\xb5s"), 1000000);   /* micro sign */
    ASSERT_EQ(dur("1\xce\xbcs"), 1000000);   /* greek mu */
    ASSERT_EQ(dur("1ms"), SIM_MS);
    ASSERT_EQ(dur("1s"), SIM_S);
}

static void test_units_exact_decimals(void)
{
    ASSERT_EQ(dur("1.5us"), 1500000);
    ASSERT_EQ(dur("0.1us"), 100000);          /* 0.1 is not exact in binary */
    ASSERT_EQ(dur("2.6 \xc2\xb5s"), 2600000);  /* one space allowed */
    ASSERT_EQ(dur("1e3ns"), 1000000);
    ASSERT_EQ(dur("1E-3s"), SIM_MS);
    ASSERT_EQ(dur("1.234ns"), 1234);
    ASSERT_EQ(dur("0.000001us"), 1);
    ASSERT_EQ(dur("10ms"), 10 * SIM_MS);
    ASSERT_EQ(dur("36.2s"), 36200 * SIM_MS);
    ASSERT_EQ(dur("0s"), 0);
    ASSERT_EQ(dur("0.0e-999999ps"), 0);
    ASSERT_EQ(dur("007ns"), 7000);
    ASSERT_EQ(dur("1.ms"), SIM_MS);
    ASSERT_EQ(dur("1.000000000000000000000000000000ms"), SIM_MS);  /* long zero tails */
    ASSERT_EQ(dur("9223372.036854775807s"), INT64_MAX);               /* the largest */
}

static void test_units_errors(void)
{
    char err[200];
    ASSERT_EQ(dur_err("5xs", err, sizeof err), UNITS_EUNIT);
    ASSERT_STREQ(err, "unknown unit \"xs\" (valid units: ps, ns, us, \xc2\xb5s, ms, s)");
    ASSERT_EQ(dur_err("5 h", err, sizeof err), UNITS_EUNIT);
    ASSERT_EQ(dur_err("5", err, sizeof err), UNITS_ENOUNIT);
    ASSERT_CONTAINS(err, "missing unit");
    ASSERT_EQ(dur_err("-1us", err, sizeof err), UNITS_ENEGATIVE);
    ASSERT_STREQ(err, "durations cannot be negative");
    ASSERT_EQ(dur_err("1.2345ps", err, sizeof err), UNITS_EPRECISION);
    ASSERT_STREQ(err, "more precision than 1 ps");
    ASSERT_EQ(dur_err("0.0001ns", err, sizeof err), UNITS_EPRECISION);
    ASSERT_EQ(dur_err("9223372.036854775808s", err, sizeof err), UNITS_EOVERFLOW);
    ASSERT_STREQ(err, "too large (limit about 106 days)");
    ASSERT_EQ(dur_err("1e400s", err, sizeof err), UNITS_EOVERFLOW);
    ASSERT_EQ(dur_err("200000000000000000000000ps", err, sizeof err), UNITS_EOVERFLOW);
    ASSERT_EQ(dur_err("1  us", err, sizeof err), UNITS_ESYNTAX);
    ASSERT_CONTAINS(err, "at most one space");
    ASSERT_EQ(dur_err("us", err, sizeof err), UNITS_ESYNTAX);
    ASSERT_EQ(dur_err("", err, sizeof err), UNITS_ESYNTAX);
    ASSERT_EQ(dur_err("+1us", err, sizeof err), UNITS_ESYNTAX);
    ASSERT_EQ(dur_err(" 1us", err, sizeof err), UNITS_ESYNTAX);
    ASSERT_EQ(dur_err("1us ", err, sizeof err), UNITS_EUNIT);
    ASSERT_EQ(dur_err("1.5.3us", err, sizeof err), UNITS_EUNIT);
}

static void test_units_ns_numbers(void)
{
    sim_time t;
    char err[200];
    ASSERT_EQ(units_parse_ns("0.5", 3, &t, err, sizeof err), UNITS_OK);
    ASSERT_EQ(t, 500);
    ASSERT_EQ(units_parse_ns("1500", 4, &t, err, sizeof err), UNITS_OK);
    ASSERT_EQ(t, 1500000);
    ASSERT_EQ(units_parse_ns("1e-3", 4, &t, err, sizeof err), UNITS_OK);
    ASSERT_EQ(t, 1);
    ASSERT_EQ(units_parse_ns("-0", 2, &t, err, sizeof err), UNITS_OK);
    ASSERT_EQ(t, 0);
    ASSERT_EQ(units_parse_ns("-5", 2, &t, err, sizeof err), UNITS_ENEGATIVE);
    ASSERT_EQ(units_parse_ns("-1e400", 6, &t, err, sizeof err), UNITS_ENEGATIVE);
    ASSERT_EQ(units_parse_ns("0.0001", 6, &t, err, sizeof err), UNITS_EPRECISION);
    ASSERT_EQ(units_parse_ns("1e20", 4, &t, err, sizeof err), UNITS_EOVERFLOW);
}

static void test_units_exact_ints(void)
{
    int64_t v;
    ASSERT_EQ(units_exact("9007199254740993", 16, 0, &v), UNITS_OK);
    ASSERT_EQ(v, 9007199254740993LL);  /* a double would say ...992 */
    ASSERT_EQ(units_exact("1e3", 3, 0, &v), UNITS_OK);
    ASSERT_EQ(v, 1000);
    ASSERT_EQ(units_exact("1.0", 3, 0, &v), UNITS_OK);
    ASSERT_EQ(v, 1);
    ASSERT_EQ(units_exact("-42", 3, 0, &v), UNITS_OK);
    ASSERT_EQ(v, -42);
    ASSERT_EQ(units_exact("1.5", 3, 0, &v), UNITS_EPRECISION);
    ASSERT_EQ(units_exact("12a", 3, 0, &v), UNITS_ESYNTAX);
    ASSERT_EQ(units_exact("-.5", 3, 1, &v), UNITS_OK);
    ASSERT_EQ(v, -5);
    ASSERT_EQ(units_number_len("1.5e3xyz", 8), 5);
    ASSERT_EQ(units_number_len("1e", 2), 1);
    ASSERT_EQ(units_number_len("-", 1), 0);
}

static const char *fmt(sim_time t)
{
    static char buf[64];
    units_format(t, buf, sizeof buf);
    return buf;
}

static void test_units_format(void)
{
    ASSERT_STREQ(fmt(0), "0s");
    ASSERT_STREQ(fmt(1), "1ps");
    ASSERT_STREQ(fmt(999), "999ps");
    ASSERT_STREQ(fmt(1000), "1ns");
    ASSERT_STREQ(fmt(1500000), "1.5us");
    ASSERT_STREQ(fmt(36200 * SIM_MS), "36.2s");
    ASSERT_STREQ(fmt(1234567), "1.235us");         /* 3 decimals, rounded half up */
    ASSERT_STREQ(fmt(999999600), "1ms");           /* 999.9996us rounds into the next unit */
    ASSERT_STREQ(fmt(3600 * SIM_S), "3600s");
    ASSERT_STREQ(fmt(-2 * SIM_US), "-2us");
    ASSERT_STREQ(fmt(INT64_MAX), "9223372.037s");
    /* Every format of a whole number of units parses back exactly. */
    sim_time samples[] = { 1, 7000, 1500000, 25 * SIM_US, 3 * SIM_MS, 100 * SIM_MS, 86400 * SIM_S };
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        ASSERT_EQ(dur(fmt(samples[i])), samples[i]);
}

/* common/time.h's sim_round is llround, value for value: halves, values
 * just below and above them, the largest doubles below 2^63 and beyond,
 * negatives, and a million products of the kind the model rounds (a
 * duration times a co-run factor). */
static void test_sim_round(void)
{
    const double edge[] = { 0.0, -0.0, 0.49999999999999994, 0.5, 1.5, 2.5, 1.0 - 0x1p-53, 4503599627370495.5,
                            4503599627370496.5, 9007199254740993.0, 0x1p62, 0x1p63 - 1024.0, 0x1p63, -0.5, -2.5,
                            -7.49999, 1e-300, 3.0000000000000004 };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        double x = edge[i];
        if (x >= 0x1p63) continue;  /* llround's result is unspecified there */
        ASSERT_EQ(sim_round(x), (sim_time)llround(x));
        ASSERT_EQ(sim_round(nextafter(x, 0x1p64)), (sim_time)llround(nextafter(x, 0x1p64)));
        ASSERT_EQ(sim_round(nextafter(x, -0x1p64)), (sim_time)llround(nextafter(x, -0x1p64)));
    }
    uint64_t z = 12345;
    for (int i = 0; i < 1000000; i++) {
        z = z * 6364136223846793005u + 1442695040888963407u;
        double work = (double)(z >> 24), f = 1.0 + (double)(z & 0xffffff) * 0x1p-24;
        double x = work * f / (double)(1 + (z >> 60));
        ASSERT_EQ(sim_round(x), (sim_time)llround(x));
        double h = floor(x) + 0.5;  /* an exact half */
        ASSERT_EQ(sim_round(h), (sim_time)llround(h));
    }
}

int main(void)
{
    RUN(test_sim_round);
    RUN(test_units_all);
    RUN(test_units_exact_decimals);
    RUN(test_units_errors);
    RUN(test_units_ns_numbers);
    RUN(test_units_exact_ints);
    RUN(test_units_format);
    TEST_DONE();
}
