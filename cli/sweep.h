/* sweep.h - the parameter grid of `gvlsim sweep`, apart from running it.
 *
 * A sweep is the cartesian product of its --param value lists, the first
 * --param varying slowest, times N seeds (innermost).  Run r of the sweep
 * is point r / nseeds, replicate r % nseeds.  Replicate 0 runs with the
 * scenario's own seed (or --seed), so a sweep row equals `gvlsim run` with
 * the same --set values; replicate k > 0 runs with sweep_seed(base, k), a
 * SplitMix64 mix of the base seed and k: fixed per replicate, the same for
 * every point (common random numbers), whatever -j is. */
#ifndef CLI_SWEEP_H
#define CLI_SWEEP_H

#include <stddef.h>
#include <stdint.h>

struct sweep_param {
    char *key;       /* a --set path, e.g. "machine.cores" */
    char **values;   /* each as --set takes it (JSON or a bare string) */
    int nvalues;
};

struct sweep_grid {
    struct sweep_param *params;
    int nparams;
    uint64_t npoints;   /* product of the value counts (1 with no --param) */
    int nseeds;
};

void sweep_grid_init(struct sweep_grid *g);
void sweep_grid_free(struct sweep_grid *g);

/* Add "KEY=V1,V2,...": values are split at commas outside JSON brackets,
 * braces and strings, so `k=[1,2],{"a":1,"b":2}` gives two values.
 * Returns 0, or -1 with a message in err (empty key or value, a repeated
 * key, unbalanced brackets, a grid of more than 10^7 runs). */
int sweep_grid_add(struct sweep_grid *g, const char *spec, char *err, size_t errlen);

/* Runs in the sweep: npoints * nseeds. */
uint64_t sweep_runs(const struct sweep_grid *g);

/* The value index of parameter `param` at point `point`. */
int sweep_value_index(const struct sweep_grid *g, uint64_t point, int param);

/* "KEY=VALUE" of parameter `param` at `point` (malloc'ed), or NULL (OOM). */
char *sweep_set_string(const struct sweep_grid *g, uint64_t point, int param);

struct load_opts;
struct scenario;
struct diag_list;
/* Load the scenario of grid point `point`: with `base`'s --set values
 * followed by the point's "KEY=VALUE" ones (and base's machine
 * directories), from `text` (len bytes, as scn_read_file read it once) or,
 * when text is NULL, from the file `name`.  Returns what scn_load does
 * (the problems in d; on failure `out` holds nothing to free). */
int sweep_load_point(const struct sweep_grid *g, uint64_t point, const char *name, const char *text, size_t len,
                     const struct load_opts *base, struct scenario *out, struct diag_list *d);

/* A share of the runs for one machine or job (`--shard K/N`, 1-based):
 * run r belongs to share (r mod N) + 1, so each share holds runs spread
 * over the whole grid (similar work per share whatever parameter makes a
 * run slow), and the shares' rows, merged in run order, are the rows of
 * the whole sweep.  No shard: K = N = 1. */
struct sweep_shard {
    uint64_t k, n;
};

/* Parse "K/N".  0, or -1 with a message. */
int sweep_shard_parse(const char *s, struct sweep_shard *sh, char *err, size_t errlen);
/* How many of `runs` runs belong to the share. */
uint64_t sweep_shard_runs(const struct sweep_shard *sh, uint64_t runs);
/* The run index of the share's j-th run (in run order). */
uint64_t sweep_shard_run(const struct sweep_shard *sh, uint64_t j);

/* The order in which a real backend runs a share's `nslots` runs (slot j
 * is the share's j-th run in run order): replicate 0 of every point, then
 * replicate 1 of every point, ... (A B A B), so that a host whose speed
 * drifts during the sweep spreads the drift over every configuration
 * alike.  `order` receives the nslots slots. */
void sweep_interleave(const struct sweep_shard *sh, uint64_t nslots, int seeds, uint64_t *order);

/* Seed of replicate `rep` (see above); always <= 2^53. */
uint64_t sweep_seed(uint64_t base, int rep);

#endif
