/* measure.h - the latency distribution of a named measure, exact: every
 * sample of every thread is kept (core_samples), then sorted.  Percentiles
 * are nearest-rank: p is the smallest sample with at least p% of the
 * samples at or below it (the ceil(p/100 * n)-th smallest). */
#ifndef CORE_MEASURE_H
#define CORE_MEASURE_H

#include "../common/metrics.h"
#include "core.h"

/* Merge measure `mid` (0-based) of `nthreads` threads' samples (each
 * thread's array at samples_of(ctx, i), NULL if it has none) into out:
 * count, mean, p50, p90, p99, max.  GV_OK, or GV_ENOMEM (a thread could
 * not store a sample, or no memory to sort). */
int core_measure_collect(struct core_samples *(*samples_of)(void *ctx, int i), void *ctx, int nthreads,
                         int mid, struct run_measure *out);

void core_samples_free(struct core_samples *s, int n);

#endif
