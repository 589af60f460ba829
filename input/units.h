/* units.h - exact decimal numbers and durations.
 *
 * Durations are parsed into sim_time picoseconds with decimal string
 * arithmetic, never through a double, so "0.1us" is exactly 100000 ps and
 * "1.2345ns" is an error (finer than 1 ps) instead of a silent rounding.
 *
 * Duration strings: a non-negative decimal (optional fraction, optional
 * exponent), at most one space, then a unit: ps ns us µs (or μs) ms s.
 * Examples: "1.5us", "10ms", "2.6 µs", "1e3ns".  A bare JSON number is a
 * count of nanoseconds ("0.5" -> 500 ps): units_parse_ns().
 */
#ifndef INPUT_UNITS_H
#define INPUT_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/time.h"

enum units_status {
    UNITS_OK = 0,
    UNITS_ESYNTAX,     /* not a decimal number */
    UNITS_ENEGATIVE,   /* durations only */
    UNITS_EPRECISION,  /* not an integer after scaling (finer than 1 ps) */
    UNITS_EOVERFLOW,   /* magnitude beyond INT64_MAX after scaling */
    UNITS_EUNIT,       /* unknown unit */
    UNITS_ENOUNIT      /* a string with a number but no unit */
};

/* The valid unit names, for messages: "ps, ns, us, µs, ms, s". */
#define UNITS_LIST "ps, ns, us, µs, ms, s"

/* Parse s[0..len) = [-]digits[.digits][(e|E)[+-]digits] exactly, times
 * 10^pow10, into *out.  Leading zeros, "1." and "-.5" are accepted: the
 * number of a duration string is not JSON (a JSON number reaches here only
 * after the parser checked it).  Returns a units_status. */
int units_exact(const char *s, size_t len, int pow10, int64_t *out);

/* Length of the longest prefix of s[0..len) that is a number as strtod
 * reads it; 0 if none. */
size_t units_number_len(const char *s, size_t len);

/* Parse a duration string ("1.5us").  On error returns a units_status and
 * writes a one-line reason (without the input) into err. */
int units_parse(const char *s, sim_time *out, char *err, size_t errlen);

/* Parse the text of a JSON number (len bytes) as nanoseconds. */
int units_parse_ns(const char *num, size_t len, sim_time *out, char *err, size_t errlen);

/* Human duration for messages and summaries: "1.5us", "36.2s", "0s".  At
 * most 3 decimals (rounded half up) in the largest unit that keeps the
 * integer part non-zero.  Returns what snprintf would. */
int units_format(sim_time t, char *buf, size_t size);

#endif
