/* units.c - exact decimal -> int64 scaling, duration parsing and printing. */
#include "units.h"

#include <stdio.h>
#include <string.h>

#include "../common/err.h"

static int is_digit(char c) { return c >= '0' && c <= '9'; }

size_t units_number_len(const char *s, size_t len)
{
    size_t i = 0, mant = 0;
    if (i < len && (s[i] == '-' || s[i] == '+')) i++;
    while (i < len && is_digit(s[i])) { i++; mant++; }
    if (i < len && s[i] == '.') {
        size_t j = i + 1;
        while (j < len && is_digit(s[j])) { j++; mant++; }
        if (mant) i = j;
    }
    if (!mant) return 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < len && (s[j] == '+' || s[j] == '-')) j++;
        if (j < len && is_digit(s[j])) {
            while (j < len && is_digit(s[j])) j++;
            i = j;
        }
    }
    return i;
}

/* Exponents are saturated here: anything this large over- or underflows an
 * int64 of picoseconds anyway, and saturation keeps the arithmetic safe. */
#define EXP_SAT 100000000LL

int units_exact(const char *s, size_t len, int pow10, int64_t *out)
{
    if (units_number_len(s, len) != len || len == 0) return UNITS_ESYNTAX;
    size_t i = 0;
    int neg = 0;
    if (s[i] == '-' || s[i] == '+') neg = (s[i++] == '-');

    /* Mantissa digits: D = all digits as one integer, f = fraction digits. */
    size_t mstart = i, mend;
    long long frac = 0;
    int seen_point = 0;
    while (i < len && (is_digit(s[i]) || (s[i] == '.' && !seen_point))) {
        if (s[i] == '.') seen_point = 1;
        else if (seen_point && frac < EXP_SAT) frac++;
        i++;
    }
    mend = i;
    long long e = 0;
    if (i < len) { /* exponent */
        i++;
        int eneg = 0;
        if (s[i] == '+' || s[i] == '-') eneg = (s[i++] == '-');
        for (; i < len; i++)
            if (e < EXP_SAT) e = e * 10 + (s[i] - '0');
        if (eneg) e = -e;
    }

    /* Significant digits: first to last non-zero digit of the mantissa. */
    size_t first = mend, last = mend;
    for (size_t k = mstart; k < mend; k++)
        if (is_digit(s[k]) && s[k] != '0') { first = k; break; }
    if (first == mend) { *out = 0; return UNITS_OK; }   /* zero: exact at any scale */
    for (size_t k = mend; k-- > first;)
        if (is_digit(s[k]) && s[k] != '0') { last = k; break; }

    /* Trailing zeros of the mantissa after `last` raise the exponent. */
    long long tz = 0;
    for (size_t k = last + 1; k < mend; k++)
        if (is_digit(s[k]) && tz < EXP_SAT) tz++;
    long long ndig = 0;
    uint64_t d = 0;
    for (size_t k = first; k <= last; k++) {
        if (!is_digit(s[k])) continue;
        if (ndig < 20) d = d * 10 + (uint64_t)(s[k] - '0');
        ndig++;
    }
    long long exp10 = e - frac + tz + pow10;
    if (exp10 < 0) return UNITS_EPRECISION;  /* a non-zero digit below 10^0 */
    if (ndig > 19 || exp10 > 18) return UNITS_EOVERFLOW;
    for (long long k = 0; k < exp10; k++) {
        if (d > UINT64_MAX / 10) return UNITS_EOVERFLOW;
        d *= 10;
    }
    if (d > (uint64_t)INT64_MAX) return UNITS_EOVERFLOW;
    *out = neg ? -(int64_t)d : (int64_t)d;
    return UNITS_OK;
}

struct unit { const char *name; int pow10; };

/* Longest names first is not needed: a unit must match the whole rest. */
static const struct unit units_tab[] = {
    { "ps", 0 }, { "ns", 3 }, { "us", 6 }, { "\xc2\xb5s", 6 }, /* U+00B5 micro sign */
    { "\xce\xbcs", 6 },                                        /* U+03BC greek mu */
    { "ms", 9 }, { "s", 12 },
};

static int fail_msg(int code, char *err, size_t errlen)
{
    switch (code) {
    case UNITS_ESYNTAX:
        gv_fail(err, errlen, 0, "not a duration (expected a number and a unit, e.g. \"1.5us\")");
        break;
    case UNITS_ENEGATIVE:
        gv_fail(err, errlen, 0, "durations cannot be negative");
        break;
    case UNITS_EPRECISION:
        gv_fail(err, errlen, 0, "more precision than 1 ps");
        break;
    case UNITS_EOVERFLOW:
        gv_fail(err, errlen, 0, "too large (limit about 106 days)");
        break;
    case UNITS_ENOUNIT:
        gv_fail(err, errlen, 0, "missing unit (valid units: " UNITS_LIST
                "; only a JSON number, not a string, means nanoseconds)");
        break;
    default:
        break;
    }
    return code;
}

static int scaled(const char *num, size_t len, int pow10, sim_time *out, char *err, size_t errlen)
{
    int64_t v = 0;
    int rc = units_exact(num, len, pow10, &v);
    if (rc == UNITS_OK && v < 0) rc = UNITS_ENEGATIVE;
    /* A negative overflow/precision error is reported as "negative": that is
     * the first thing the user has to fix. */
    if (rc != UNITS_OK && rc != UNITS_ESYNTAX && num[0] == '-') {
        int64_t z = 0;
        if (units_exact(num, len, 0, &z) != UNITS_OK || z != 0) rc = UNITS_ENEGATIVE;
    }
    if (rc != UNITS_OK) return fail_msg(rc, err, errlen);
    *out = v;
    return UNITS_OK;
}

int units_parse(const char *s, sim_time *out, char *err, size_t errlen)
{
    size_t len = strlen(s);
    if (len && s[0] == '+') return fail_msg(UNITS_ESYNTAX, err, errlen);
    size_t n = units_number_len(s, len);
    if (n == 0) return fail_msg(UNITS_ESYNTAX, err, errlen);
    const char *u = s + n;
    if (*u == ' ') u++;
    if (*u == '\0') return fail_msg(UNITS_ENOUNIT, err, errlen);
    if (*u == ' ' || *u == '\t') {
        gv_fail(err, errlen, 0, "at most one space is allowed between the number and the unit");
        return UNITS_ESYNTAX;
    }
    for (size_t i = 0; i < sizeof units_tab / sizeof units_tab[0]; i++)
        if (strcmp(u, units_tab[i].name) == 0)
            return scaled(s, n, units_tab[i].pow10, out, err, errlen);
    gv_fail(err, errlen, 0, "unknown unit \"%.20s\" (valid units: " UNITS_LIST ")", u);
    return UNITS_EUNIT;
}

int units_parse_ns(const char *num, size_t len, sim_time *out, char *err, size_t errlen)
{
    if (units_number_len(num, len) != len) return fail_msg(UNITS_ESYNTAX, err, errlen);
    return scaled(num, len, 3, out, err, errlen);
}

int units_format(sim_time t, char *buf, size_t size)
{
    static const struct unit fmt[] = { { "s", 12 }, { "ms", 9 }, { "us", 6 }, { "ns", 3 } };
    const char *sign = "";
    uint64_t v = (uint64_t)t;
    if (t < 0) { sign = "-"; v = (uint64_t)0 - v; }
    if (v == 0) return snprintf(buf, size, "0s");
    for (size_t i = 0; i < sizeof fmt / sizeof fmt[0]; i++) {
        uint64_t u = 1;
        for (int k = 0; k < fmt[i].pow10; k++) u *= 10;
        if (v < u) continue;
        uint64_t ip = v / u, rem = v % u;
        uint64_t fr = (rem * 1000 + u / 2) / u;  /* rem < u <= 1e12: no overflow */
        if (fr == 1000) { ip++; fr = 0; }
        if (ip >= 1000 && i > 0)  /* rounded up into the next unit: 999.9996ms -> 1s */
            return snprintf(buf, size, "%s1%s", sign, fmt[i - 1].name);
        char frac[8] = "";
        if (fr) {
            snprintf(frac, sizeof frac, ".%03u", (unsigned)fr);
            for (size_t k = strlen(frac); k > 0 && frac[k - 1] == '0'; k--) frac[k - 1] = '\0';
        }
        return snprintf(buf, size, "%s%llu%s%s", sign, (unsigned long long)ip, frac, fmt[i].name);
    }
    return snprintf(buf, size, "%s%llups", sign, (unsigned long long)v);
}
