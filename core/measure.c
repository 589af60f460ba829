/* measure.c - exact latency statistics (measure.h). */
#include "measure.h"

#include <stdlib.h>

#include "../common/err.h"

static int cmp_time(const void *a, const void *b)
{
    sim_time x = *(const sim_time *)a, y = *(const sim_time *)b;
    return (x > y) - (x < y);
}

/* the ceil(p/100 * n)-th smallest of n sorted samples */
static sim_time rank(const sim_time *v, size_t n, unsigned p)
{
    size_t r = ((size_t)p * n + 99) / 100;
    return v[r ? r - 1 : 0];
}

int core_measure_collect(struct core_samples *(*samples_of)(void *ctx, int i), void *ctx, int nthreads,
                         int mid, struct run_measure *out)
{
    size_t n = 0;
    for (int i = 0; i < nthreads; i++) {
        struct core_samples *s = samples_of(ctx, i);
        if (!s) continue;
        if (s[mid].oom) return GV_ENOMEM;
        n += s[mid].n;
    }
    out->count = n;
    out->mean = out->p50 = out->p90 = out->p99 = out->max = 0;
    if (n == 0) return GV_OK;
    sim_time *all = malloc(n * sizeof *all);
    if (!all) return GV_ENOMEM;
    size_t k = 0;
    __int128 sum = 0;
    for (int i = 0; i < nthreads; i++) {
        struct core_samples *s = samples_of(ctx, i);
        if (!s) continue;
        for (size_t j = 0; j < s[mid].n; j++) {
            all[k++] = s[mid].v[j];
            sum += s[mid].v[j];
        }
    }
    qsort(all, n, sizeof *all, cmp_time);
    out->mean = (sim_time)((sum + (__int128)n / 2) / (__int128)n);
    out->p50 = rank(all, n, 50);
    out->p90 = rank(all, n, 90);
    out->p99 = rank(all, n, 99);
    out->max = all[n - 1];
    free(all);
    return GV_OK;
}

void core_samples_free(struct core_samples *s, int n)
{
    if (!s) return;
    for (int i = 0; i < n; i++) free(s[i].v);
    free(s);
}
