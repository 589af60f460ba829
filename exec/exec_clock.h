/* exec_clock.h - the executor's clock: CLOCK_MONOTONIC nanoseconds, and
 * scenario picoseconds converted to them. */
#ifndef EXEC_EXEC_CLOCK_H
#define EXEC_EXEC_CLOCK_H

#include <stdint.h>
#include <time.h>

#include "../common/time.h"

static inline int64_t exec_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline struct timespec exec_abstime(int64_t ns)
{
    struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };
    return ts;
}

/* Scenario picoseconds -> nanoseconds (rounded). */
static inline int64_t exec_ps_to_ns(sim_time ps)
{
    return (ps + 500) / 1000;
}

#endif
