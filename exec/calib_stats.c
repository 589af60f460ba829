/* calib_stats.c - quantiles, sample lists, and the "repeat until stable"
 * loop shared by the calibration benchmarks. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/err.h"
#include "../common/stats.h"
#include "calib.h"

long long calib_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

double calib_quantile(const double *sorted, int n, double q)
{
    if (n <= 0) return 0;
    if (q <= 0) return sorted[0];
    if (q >= 1) return sorted[n - 1];
    double pos = q * (double)(n - 1);
    int i = (int)pos;
    double frac = pos - (double)i;
    if (i + 1 >= n) return sorted[n - 1];
    return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

int calib_summarise(const double *v, int n, double *median, double *q1, double *q3)
{
    *median = *q1 = *q3 = 0;
    if (n <= 0) return GV_OK;
    double *s = malloc((size_t)n * sizeof *s);
    if (!s) return GV_ENOMEM;
    memcpy(s, v, (size_t)n * sizeof *s);
    stats_sort(s, (size_t)n);
    *median = calib_quantile(s, n, 0.5);
    *q1 = calib_quantile(s, n, 0.25);
    *q3 = calib_quantile(s, n, 0.75);
    free(s);
    return GV_OK;
}

void calib_series_add(struct calib_series *s, double x)
{
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        double *v = realloc(s->v, (size_t)cap * sizeof *v);
        if (!v) { s->oom = true; return; }
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = x;
}

void calib_series_free(struct calib_series *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

void calib_series_stat(const struct calib_series *s, struct calib_stat *st)
{
    st->samples = s->n;
    st->measured = s->n > 0;
    if (calib_summarise(s->v, s->n, &st->median, &st->q1, &st->q3) != GV_OK) st->measured = false;
}

void calib_series_add_relative(struct calib_series *to, const struct calib_series *round, double median)
{
    if (!(median > 0)) return;
    for (int i = 0; i < round->n; i++) calib_series_add(to, round->v[i] / median);
}

void calib_stat_within(struct calib_stat *st, const struct calib_series *rel)
{
    double med, q1, q3;
    st->within_spread = 0;
    if (rel->n < 8 || rel->oom || calib_summarise(rel->v, rel->n, &med, &q1, &q3) != GV_OK || !(med > 0)) return;
    st->within_spread = (q3 - q1) / med;
}

void calib_stat_rounds_of(struct calib_stat *st, const struct calib_stat *of)
{
    st->rounds = of->rounds;
    st->round_spread = of->round_spread;
    st->unstable = of->unstable;
}

void calib_loop_start(struct calib_loop *l, double budget_s, int min_rounds, int max_rounds,
                      double max_spread)
{
    memset(l, 0, sizeof *l);
    l->t_end = (double)calib_now_ns() * 1e-9 + budget_s;
    l->min_rounds = min_rounds;
    l->max_rounds = max_rounds;
    l->max_spread = max_spread;
    l->spread = 1.0;
}

bool calib_loop_more(struct calib_loop *l, double round_median)
{
    calib_series_add(&l->medians, round_median);
    int n = l->medians.n;
    double med, q1, q3;
    if (calib_summarise(l->medians.v, n, &med, &q1, &q3) != GV_OK || l->medians.oom) return false;
    l->spread = med != 0 ? (q3 - q1) / (med < 0 ? -med : med) : (q3 - q1 == 0 ? 0 : 1.0);
    l->stable = n >= l->min_rounds && l->spread <= l->max_spread;
    if (l->stable || n >= l->max_rounds) return false;
    /* one more round, unless the budget is spent and the minimum reached */
    return n < l->min_rounds || (double)calib_now_ns() * 1e-9 < l->t_end;
}

void calib_loop_end(struct calib_loop *l, struct calib_stat *st)
{
    st->rounds = l->medians.n;
    st->round_spread = l->spread;
    st->unstable = !l->stable;
    calib_series_free(&l->medians);
}
