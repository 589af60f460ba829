/* time.h - simulated time: an int64 count of picoseconds.
 *
 * Why picoseconds: per-instruction costs of the interpreter (5-10 ns) and of
 * a thread-local counter (0.3-1 ns) must be representable exactly, while
 * 2^63 ps is still 106 days of simulated time.  Integer time means no float
 * drift and exact ties.  Every layer may use this header (scenario
 * durations, metrics, engines, executors). */
#ifndef COMMON_TIME_H
#define COMMON_TIME_H

#include <stdint.h>

typedef int64_t sim_time;

#define SIM_PS ((sim_time)1)
#define SIM_NS ((sim_time)1000)
#define SIM_US ((sim_time)1000000)
#define SIM_MS ((sim_time)1000000000)
#define SIM_S ((sim_time)1000000000000)
#define SIM_TIME_MAX INT64_MAX

#endif
