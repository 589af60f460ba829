/* usl.c - fitting the Universal Scalability Law.
 *
 * The objective is the sum of squared relative residuals (fit / y - 1)^2.
 * For given (alpha, beta) the best lambda is a closed form (the fit is
 * linear in it), so a start is found on a grid over {0} and logarithmic
 * steps of alpha (1e-6..1) and beta (1e-9..1); Levenberg-Marquardt on
 * (alpha, beta, ln lambda) then converges from there, alpha and beta kept
 * >= 0 by projection.
 */
#include "usl.h"

#include <math.h>
#include <stdbool.h>

#include "../common/err.h"

static double g(double alpha, double beta, double n)
{
    return n / (1 + alpha * (n - 1) + beta * n * (n - 1));
}

/* The least-squares lambda of sum (lambda g_i / y_i - 1)^2, and that sum. */
static double sse(const double *n, const double *x, size_t npts, double alpha, double beta, double *lambda)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < npts; i++) {
        double r = g(alpha, beta, n[i]) / x[i];
        num += r;
        den += r * r;
    }
    double l = den > 0 ? num / den : 0, s = 0;
    for (size_t i = 0; i < npts; i++) {
        double e = l * g(alpha, beta, n[i]) / x[i] - 1;
        s += e * e;
    }
    if (lambda) *lambda = l;
    return s;
}

double usl_min_ratio(double k, double m)
{
    return (k - 1) / (m - 1);
}

bool usl_fall_beyond(const double *n, const double *x, size_t npts, size_t *lo, size_t *hi)
{
    /* the worst pair by how far its ratio lies below the bound (a log
     * ratio, so that a 30x fall outranks a 3x one whatever the bound) */
    double worst = 0;
    bool found = false;
    for (size_t i = 0; i < npts; i++)
        for (size_t j = 0; j < npts; j++) {
            if (!(n[j] > n[i]) || !(n[i] > 1) || !(x[i] > 0) || !(x[j] > 0)) continue;
            double bound = usl_min_ratio(n[i], n[j]), ratio = x[j] / x[i];
            if (ratio >= bound) continue;
            double by = log(bound / ratio);
            if (!found || by > worst) {
                worst = by;
                *lo = i;
                *hi = j;
                found = true;
            }
        }
    return found;
}

double usl_eval(const struct usl_fit *f, double n)
{
    return f->lambda * g(f->alpha, f->beta, n);
}

int usl_fit(const double *n, const double *x, size_t npts, struct usl_fit *f, char *err, size_t errlen)
{
    f->npts = npts;
    size_t distinct = 0;
    for (size_t i = 0; i < npts; i++) {
        if (!(n[i] >= 1) || !isfinite(n[i]))
            return gv_fail(err, errlen, GV_EINVAL, "concurrency %g is not >= 1", n[i]);
        if (!(x[i] > 0) || !isfinite(x[i]))
            return gv_fail(err, errlen, GV_EINVAL, "throughput %g at concurrency %g is not > 0", x[i], n[i]);
        size_t j = 0;
        while (j < i && n[j] != n[i]) j++;
        if (j == i) distinct++;
    }
    if (distinct < 3)
        return gv_fail(err, errlen, GV_EINVAL,
                       "%zu distinct concurrency value%s: the law has 3 parameters, fit at least 3",
                       distinct, distinct == 1 ? "" : "s");

    /* grid */
    double ba = 0, bb = 0, best = sse(n, x, npts, 0, 0, NULL);
    for (int i = -1; i <= 60; i++) {
        double a = i < 0 ? 0 : pow(10, -6 + 6.0 * i / 60);
        for (int j = -1; j <= 90; j++) {
            double b = j < 0 ? 0 : pow(10, -9 + 9.0 * j / 90);
            double s = sse(n, x, npts, a, b, NULL);
            if (s < best) { best = s; ba = a; bb = b; }
        }
    }
    /* Levenberg-Marquardt */
    double p[3] = { ba, bb, 0 }, lam;
    sse(n, x, npts, ba, bb, &lam);
    p[2] = log(lam);
    double mu = 1e-3;
    for (int it = 0; it < 500; it++) {
        double JtJ[3][3] = { { 0 } }, Jtr[3] = { 0 };
        double l = exp(p[2]);
        for (size_t i = 0; i < npts; i++) {
            double D = 1 + p[0] * (n[i] - 1) + p[1] * n[i] * (n[i] - 1);
            double gi = n[i] / D, r = l * gi / x[i] - 1;
            double dg = -n[i] / (D * D);
            double J[3] = { l / x[i] * dg * (n[i] - 1), l / x[i] * dg * n[i] * (n[i] - 1), l * gi / x[i] };
            for (int a = 0; a < 3; a++) {
                Jtr[a] += J[a] * r;
                for (int b = 0; b < 3; b++) JtJ[a][b] += J[a] * J[b];
            }
        }
        bool improved = false;
        for (int tries = 0; tries < 30 && !improved; tries++) {
            double A[3][4];
            for (int a = 0; a < 3; a++) {
                for (int b = 0; b < 3; b++) A[a][b] = JtJ[a][b] + (a == b ? mu * (JtJ[a][a] > 0 ? JtJ[a][a] : 1) : 0);
                A[a][3] = -Jtr[a];
            }
            /* Gaussian elimination with partial pivoting */
            bool singular = false;
            for (int c = 0; c < 3 && !singular; c++) {
                int piv = c;
                for (int r = c + 1; r < 3; r++)
                    if (fabs(A[r][c]) > fabs(A[piv][c])) piv = r;
                if (fabs(A[piv][c]) < 1e-300) { singular = true; break; }
                for (int k = 0; k < 4; k++) { double t = A[c][k]; A[c][k] = A[piv][k]; A[piv][k] = t; }
                for (int r = 0; r < 3; r++) {
                    if (r == c) continue;
                    double fct = A[r][c] / A[c][c];
                    for (int k = c; k < 4; k++) A[r][k] -= fct * A[c][k];
                }
            }
            if (singular) { mu *= 10; continue; }
            double q[3];
            for (int a = 0; a < 3; a++) q[a] = p[a] + A[a][3] / A[a][a];
            if (q[0] < 0) q[0] = 0;
            if (q[1] < 0) q[1] = 0;
            double s = 0;
            for (size_t i = 0; i < npts; i++) {
                double e = exp(q[2]) * g(q[0], q[1], n[i]) / x[i] - 1;
                s += e * e;
            }
            if (s < best) {
                double gain = best - s;
                best = s;
                p[0] = q[0], p[1] = q[1], p[2] = q[2];
                mu = mu / 3 > 1e-12 ? mu / 3 : 1e-12;
                improved = true;
                if (gain <= 1e-15 * (best + 1e-30)) it = 500;  /* converged */
            } else {
                mu *= 4;
            }
        }
        if (!improved) break;
    }
    ba = p[0];
    bb = p[1];
    /* a parameter the data cannot tell from 0 is 0 (no peak from a beta
     * of 1e-13 that only rounding put there) */
    double tol = best * 1e-6 + 1e-24;
    if (bb > 0 && sse(n, x, npts, ba, 0, NULL) <= best + tol) bb = 0;
    if (ba > 0 && sse(n, x, npts, 0, bb, NULL) <= best + tol) ba = 0;
    best = sse(n, x, npts, ba, bb, &lam);  /* lambda: the closed form for the final alpha, beta */
    f->alpha = ba;
    f->beta = bb;
    f->lambda = lam;
    f->rms_rel = sqrt(best / (double)npts);
    f->peak_n = bb > 0 && ba < 1 ? sqrt((1 - ba) / bb) : 0;
    f->peak_x = f->peak_n > 0 ? usl_eval(f, f->peak_n) : 0;
    double mean = 0, ss_tot = 0, ss_res = 0;
    for (size_t i = 0; i < npts; i++) mean += x[i] / (double)npts;
    for (size_t i = 0; i < npts; i++) {
        double e = usl_eval(f, n[i]) - x[i];
        ss_res += e * e;
        ss_tot += (x[i] - mean) * (x[i] - mean);
    }
    f->r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : (ss_res == 0 ? 1 : 0);
    return GV_OK;
}
