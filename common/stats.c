/* stats.c - sorting samples and their median (see stats.h). */
#include "stats.h"

#include <stdlib.h>

int stats_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n)
{
    if (n > 1) qsort(v, n, sizeof *v, stats_cmp_double);
}

double stats_median(double *v, size_t n)
{
    if (n == 0) return 0;
    stats_sort(v, n);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
