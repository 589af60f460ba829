/* rng.h - deterministic random streams: xoshiro256** seeded by SplitMix64.
 *
 * Every simulated thread gets its own stream derived from (scenario seed,
 * stream index), so a thread's draws never depend on what other threads did
 * or on how runs are spread over worker processes. */
#ifndef COMMON_RNG_H
#define COMMON_RNG_H

#include <stdint.h>

#include "time.h"

struct rng {
    uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *r);
/* Uniform integer in [lo, hi] (lo <= hi). */
sim_time rng_uniform(struct rng *r, sim_time lo, sim_time hi);
/* Exponential with the given mean, rounded to the nearest picosecond: the one
 * place a floating-point computation decides a duration. */
sim_time rng_exp(struct rng *r, sim_time mean);

#endif
