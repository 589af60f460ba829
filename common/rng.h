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

/* (The next two inline: a wake's latency is drawn at most wake-ups.) */
static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [lo, hi] (lo <= hi). */
static inline sim_time rng_uniform(struct rng *r, sim_time lo, sim_time hi)
{
    if (hi <= lo) return lo;
    uint64_t span = (uint64_t)(hi - lo) + 1;
    /* Lemire's multiply-shift without rejection: bias below span / 2^64 */
    unsigned __int128 p = (unsigned __int128)rng_next(r) * span;
    return lo + (sim_time)(p >> 64);
}
/* A uniform double in [0, 1): 53 random bits. */
static inline double rng_unit(struct rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Exponential with the given mean, rounded to the nearest picosecond: the one
 * place a floating-point computation decides a duration. */
sim_time rng_exp(struct rng *r, sim_time mean);

#endif
