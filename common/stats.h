/* stats.h - sorting samples and their median: the one comparison of
 * doubles that the calibration, the executor's busy-loop calibration,
 * `validate` and `compare` share. */
#ifndef COMMON_STATS_H
#define COMMON_STATS_H

#include <stddef.h>

/* qsort(3) comparison of two doubles, ascending. */
int stats_cmp_double(const void *a, const void *b);
/* Sort v[0..n) ascending. */
void stats_sort(double *v, size_t n);
/* The median of v[0..n): the middle value, or the mean of the two middle
 * ones for an even n; sorts v.  0 for n = 0. */
double stats_median(double *v, size_t n);

#endif
