/* curve.c - a curve's value: linear in log x between its points. */
#include "curve.h"

#include <math.h>

sim_time gv_curve_at(const struct gv_curve *c, sim_time x)
{
    if (c->n <= 0 || x < c->x[0]) return 0;
    int i = 1;
    while (i < c->n && c->x[i] <= x) i++;
    if (i == c->n) return c->y[c->n - 1];
    /* x in [x[i-1], x[i]) */
    double f = log((double)x / (double)c->x[i - 1]) / log((double)c->x[i] / (double)c->x[i - 1]);
    return c->y[i - 1] + sim_round(f * (double)(c->y[i] - c->y[i - 1]));
}
