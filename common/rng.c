/* rng.c - xoshiro256** (Blackman & Vigna 2018) with SplitMix64 seeding; the
 * per-draw steps, rng_next and rng_uniform, are inline in rng.h. */
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

sim_time rng_exp(struct rng *r, sim_time mean)
{
    if (mean <= 0) return 0;
    /* u in (0, 1]: 53 random bits */
    double u = ((double)(rng_next(r) >> 11) + 1.0) * 0x1.0p-53;
    double d = -log(u) * (double)mean;
    if (d > 9.0e18) return (sim_time)9.0e18;
    return sim_round(d);
}
