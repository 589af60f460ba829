/* calltime.c - the gaps of the call-timing records (calltime.h). */
#include "calltime.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"

/* The calls between two markers of each method's cycle, in order. */
static const struct {
    const char *what;
    int ncalls;
    enum calltime_call calls[3];
    enum calltime_gap first; /* gap before the first call; the others follow */
} cycles[] = {
    { "the marker loop", 0, { 0 }, CALLTIME_GAP_LOOP },
    { "File.mtime (stat)", 1, { CALLTIME_STAT }, CALLTIME_GAP_MTIME_BEFORE },
    { "File.write (open, write, close)", 3, { CALLTIME_OPEN, CALLTIME_WRITE, CALLTIME_CLOSE },
      CALLTIME_GAP_WRITE_BEFORE },
};
#define NCYCLES (sizeof cycles / sizeof *cycles)

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Does a cycle of kind k start at marker r[i]? */
static bool cycle_at(const struct calltime_rec *r, size_t n, size_t i, size_t k)
{
    int m = cycles[k].ncalls;
    if (i + (size_t)m + 1 >= n || r[i + (size_t)m + 1].call != CALLTIME_MARK) return false;
    for (int j = 0; j < m; j++)
        if (r[i + 1 + (size_t)j].call != cycles[k].calls[j]) return false;
    return true;
}

int calltime_gaps(const struct calltime_rec *r, size_t n, int nchunks, double *out, char *err, size_t errlen)
{
    if (nchunks < 1) return gv_fail(err, errlen, GV_EINVAL, "calltime_gaps: %d chunks", nchunks);
    double *g = malloc(sizeof *g * (n > 0 ? n : 1));
    if (!g) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    int rc = GV_OK;
    for (size_t k = 0; k < NCYCLES && rc == GV_OK; k++) {
        int ngaps = cycles[k].ncalls + 1;
        /* the cycles of kind k, as their start indexes */
        size_t nc = 0;
        for (size_t i = 0; i < n; i++)
            if (r[i].call == CALLTIME_MARK && cycle_at(r, n, i, k)) nc++;
        size_t skip = nc / 8, used = nc - skip;
        if (used < (size_t)nchunks) {
            rc = gv_fail(err, errlen, GV_ERUN, "%zu cycles of %s in the call records (%d needed)", used,
                         cycles[k].what, nchunks);
            break;
        }
        for (int gi = 0; gi < ngaps; gi++) {
            size_t m = 0, seen = 0;
            for (size_t i = 0; i < n; i++) {
                if (r[i].call != CALLTIME_MARK || !cycle_at(r, n, i, k)) continue;
                if (seen++ < skip) continue;
                g[m++] = (double)(r[i + (size_t)gi + 1].enter_ns - r[i + (size_t)gi].exit_ns);
            }
            for (int ch = 0; ch < nchunks; ch++) {
                size_t lo = m * (size_t)ch / (size_t)nchunks, hi = m * (size_t)(ch + 1) / (size_t)nchunks;
                qsort(g + lo, hi - lo, sizeof *g, cmp_double);
                size_t len = hi - lo;
                out[(size_t)(cycles[k].first + gi) * (size_t)nchunks + (size_t)ch] =
                    len % 2 ? g[lo + len / 2] : (g[lo + len / 2 - 1] + g[lo + len / 2]) / 2;
            }
        }
    }
    free(g);
    return rc;
}
