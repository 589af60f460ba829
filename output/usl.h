/* usl.h - the Universal Scalability Law (N. J. Gunther, "Guerrilla Capacity
 * Planning", 2007): throughput at concurrency N is
 *
 *     X(N) = lambda N / (1 + alpha (N - 1) + beta N (N - 1))
 *
 * lambda the throughput of one, alpha the contention (the serialised
 * share, Amdahl's law), beta the coherency cost (every pair of workers
 * exchanging data: the N(N-1) term that makes throughput fall again).
 * With beta > 0 and alpha < 1 throughput peaks at N* = sqrt((1 - alpha) /
 * beta).  However large alpha and beta, the law cannot fall faster than
 * X(m) / X(k) = (k - 1) / (m - 1) from k to m > k (beta alone, without
 * bound): from 2 workers to 3 at most by half.
 */
#ifndef OUTPUT_USL_H
#define OUTPUT_USL_H

#include <stdbool.h>
#include <stddef.h>

struct usl_fit {
    double alpha, beta, lambda;
    double peak_n;     /* N*, or 0 when there is no peak above N = 1 (beta 0: it never falls;
                        * alpha >= 1: it falls from one on) */
    double peak_x;     /* X(N*), or 0 */
    double rms_rel;    /* root mean square of (fit - y) / y over the points */
    double r2;         /* 1 - SS_res / SS_tot of y (1 if all y are equal and fit) */
    size_t npts;
};

/* Least-squares fit (relative errors, so that every point weighs alike
 * whatever its magnitude) of alpha >= 0, beta >= 0, lambda > 0 to npts
 * points (n[i] >= 1, x[i] > 0).  Needs at least 3 distinct n.  Returns
 * GV_OK, or GV_EINVAL with a message (too few points, a non-positive n or
 * x). */
int usl_fit(const double *n, const double *x, size_t npts, struct usl_fit *f, char *err, size_t errlen);

/* The lowest X(m) / X(k) the law can give from k to m > k workers (k >= 1):
 * (k - 1) / (m - 1), beta alone without bound. */
double usl_min_ratio(double k, double m);

/* The steepest fall among npts points beyond what the law can give: the
 * pair k < m with x[m] / x[k] < (n[k] - 1) / (n[m] - 1) whose ratio is
 * furthest below that bound, as indexes *lo, *hi.  false if there is none
 * (every fall is one the law can fit). */
bool usl_fall_beyond(const double *n, const double *x, size_t npts, size_t *lo, size_t *hi);

/* X(N) for a fit. */
double usl_eval(const struct usl_fit *f, double n);

#endif
