/* rng.c - xoshiro256** (Blackman & Vigna 2018) with SplitMix64 seeding. */
#include "rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
    /* mix the stream index in first so that (seed, i) and (seed+1, i-1) differ */
    uint64_t x = seed ^ (stream * UINT64_C(0xd1b54a32d192ed03));
    x = splitmix64(&x) ^ stream;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

sim_time rng_uniform(struct rng *r, sim_time lo, sim_time hi)
{
    if (hi <= lo) return lo;
    uint64_t span = (uint64_t)(hi - lo) + 1;
    /* Lemire's multiply-shift without rejection: bias below span / 2^64 */
    unsigned __int128 p = (unsigned __int128)rng_next(r) * span;
    return lo + (sim_time)(p >> 64);
}

sim_time rng_exp(struct rng *r, sim_time mean)
{
    if (mean <= 0) return 0;
    /* u in (0, 1]: 53 random bits */
    double u = ((double)(rng_next(r) >> 11) + 1.0) * 0x1.0p-53;
    double d = -log(u) * (double)mean;
    if (d > 9.0e18) return (sim_time)9.0e18;
    return (sim_time)llround(d);
}
