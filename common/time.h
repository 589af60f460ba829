/* time.h - simulated time: an int64 count of picoseconds.
 *
 * Why picoseconds: per-instruction costs of the interpreter (5-10 ns) and of
 * a thread-local counter (0.3-1 ns) must be representable exactly, while
 * 2^63 ps is still 106 days of simulated time.  Integer time means no float
 * drift and exact ties.  Every layer may use this header (scenario
 * durations, metrics, engines, executors). */
#ifndef COMMON_TIME_H
#define COMMON_TIME_H

#include <math.h>
#include <stdint.h>

typedef int64_t sim_time;

/* A sum of simulated times over threads or cores (a state's time summed
 * over a run's threads, busy time over its cores): 10^6 threads x 9e6 s is
 * 9e24 ps, beyond int64 (9.2e18 ps), so sums are 128 bits wide. */
typedef __int128 sim_sum;

#define SIM_PS ((sim_time)1)
#define SIM_NS ((sim_time)1000)
#define SIM_US ((sim_time)1000000)
#define SIM_MS ((sim_time)1000000000)
#define SIM_S ((sim_time)1000000000000)
#define SIM_TIME_MAX INT64_MAX

/* llround(x), the same value for every x, without libm's call where the
 * simulator rounds most (a burst's time under co-running, a scaled compute,
 * a drawn duration): for 0 <= x < 2^63 the truncation i and x - i are exact
 * (Sterbenz: i >= x / 2 once x >= 1), so halves round away from zero as
 * llround rounds them; anything else (negative, NaN, too large) goes to
 * llround itself. */
static inline sim_time sim_round(double x)
{
    if (x >= 0 && x < 0x1p63) {
        sim_time i = (sim_time)x;
        return x - (double)i >= 0.5 ? i + 1 : i;
    }
    return (sim_time)llround(x);
}

#endif
