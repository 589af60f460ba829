/* calib_steal.c - time a virtual CPU loses without the guest seeing it
 * (CALIB_STEAL_*: the machine keys hidden_steal_rate, hidden_steal_len).
 *
 * A host may run something else on a guest's physical CPU while the guest
 * thinks its vCPU runs.  With paravirtual steal time the guest kernel is
 * told, shows it in /proc/stat's steal column and leaves it out of its
 * tasks' run time (kernel/sched/core.c update_rq_clock_task); without it
 * the gap is charged to whichever task was running.  On the AMD EPYC guest
 * (Firecracker, 2026-12-02) a pinned thread reading the clock saw about
 * 1,100-1,300 gaps of 8-256 us per second on each vCPU, most 32-64 us,
 * with the steal column at 0.
 *
 * The measurement: a thread pinned to each CPU in turn reads
 * CLOCK_MONOTONIC in a tight loop; a step of STEAL_GAP_NS or more between
 * two reads is a gap (a timer tick's interrupt takes under 1 us; a gap
 * was never seen between 4 and 8 us there).  The loop runs in chunks of
 * STEAL_CHUNK_NS; a chunk in which the thread was switched out (its
 * voluntary or involuntary switch count moved: another task of the guest
 * ran, which the guest does see) is dropped whole.  A round is
 * STEAL_ROUND_CHUNKS chunks on one CPU, the CPUs alternating; the rounds'
 * rates must agree like any measurement's.  calib_steal_summarise turns
 * the kept gaps into the keys: the rate (gaps per second of kept time) and
 * CALIB_STEAL_LENS equally likely lengths (the gaps' quantiles at the
 * middles of as many equal shares).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../common/err.h"
#include "../common/stats.h"
#include "calib_int.h"

#define STEAL_GAP_NS 8000LL
#define STEAL_CHUNK_NS 10000000LL
#define STEAL_ROUND_CHUNKS 20

static long switches(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0) return -1;
    return ru.ru_nvcsw + ru.ru_nivcsw;
}

struct steal_run {
    struct calib_series gaps;      /* every kept gap, ns */
    struct calib_series chunk_rate, chunk_share;
    long long kept_ns;
    int chunks, dropped;
};

/* One chunk on the current CPU: its gaps into r if the thread kept its CPU. */
static void chunk(struct steal_run *r, long long *round_gaps, long long *round_ns)
{
    double g[4096];
    int n = 0;
    long before = switches();
    long long t0 = calib_now_ns(), prev = t0, end = t0 + STEAL_CHUNK_NS, lost = 0;
    while (prev < end) {
        long long x = calib_now_ns();
        if (x - prev >= STEAL_GAP_NS && n < (int)(sizeof g / sizeof g[0])) {
            g[n++] = (double)(x - prev);
            lost += x - prev;
        }
        prev = x;
    }
    r->chunks++;
    if (before < 0 || switches() != before) {
        r->dropped++;
        return;
    }
    long long span = prev - t0;
    for (int i = 0; i < n; i++) calib_series_add(&r->gaps, g[i]);
    calib_series_add(&r->chunk_rate, (double)n * 1e9 / (double)span);
    calib_series_add(&r->chunk_share, (double)lost / (double)span);
    r->kept_ns += span;
    *round_gaps += n;
    *round_ns += span;
}

int calib_steal_summarise(const double *gaps_ns, int n, double observed_ns, struct calib_steal *out)
{
    memset(out, 0, sizeof *out);
    if (!(observed_ns > 0) || n < 0) return GV_EINVAL;
    out->gaps = n;
    out->observed_ns = observed_ns;
    out->rate = (double)n * 1e9 / observed_ns;
    if (n == 0) return GV_OK;
    double *s = malloc((size_t)n * sizeof *s), sum = 0;
    if (!s) return GV_ENOMEM;
    memcpy(s, gaps_ns, (size_t)n * sizeof *s);
    stats_sort(s, (size_t)n);
    for (int i = 0; i < n; i++) sum += s[i];
    out->share = sum / observed_ns;
    out->nlen = n < CALIB_STEAL_LENS ? n : CALIB_STEAL_LENS;
    for (int i = 0; i < out->nlen; i++)  /* (up to CALIB_STEAL_LENS gaps: each one) */
        out->len_ns[i] = n <= CALIB_STEAL_LENS ? s[i] : calib_quantile(s, n, ((double)i + 0.5) / (double)out->nlen);
    free(s);
    return GV_OK;
}

void calib_bench_steal(struct calib_ctx *c)
{
    static const enum calib_id ids[] = { CALIB_STEAL_RATE, CALIB_STEAL_LEN, CALIB_STEAL_SHARE };
    struct steal_run r;
    memset(&r, 0, sizeof r);
    struct calib_loop l;
    calib_loop_start(&l, calib_budget(c, 2.0), c->min_rounds, 200, c->o->max_spread);
    int ncpu = c->cpu1 >= 0 ? 2 : 1, round = 0, rc = GV_OK;
    do {
        int cpu = round++ % ncpu ? c->cpu1 : c->cpu0;
        if ((rc = calib_pin_self(c, cpu)) != GV_OK) break;
        long long gaps = 0, ns = 0;
        for (int k = 0; k < STEAL_ROUND_CHUNKS; k++) chunk(&r, &gaps, &ns);
        /* a round whose chunks were all dropped says nothing: not a sample */
        if (ns == 0) continue;
        if (!calib_loop_more(&l, (double)gaps * 1e9 / (double)ns)) break;
    } while (1);
    if (rc == GV_OK) rc = calib_pin_self(c, c->cpu0);
    calib_series_stat(&r.chunk_rate, &c->r->m[CALIB_STEAL_RATE]);
    calib_loop_end(&l, &c->r->m[CALIB_STEAL_RATE]);
    calib_series_stat(&r.gaps, &c->r->m[CALIB_STEAL_LEN]);
    calib_series_stat(&r.chunk_share, &c->r->m[CALIB_STEAL_SHARE]);
    for (int i = 1; i < 3; i++)  /* they share the rate's rounds */
        calib_stat_rounds_of(&c->r->m[ids[i]], &c->r->m[CALIB_STEAL_RATE]);
    if (rc == GV_OK && r.kept_ns > 0 && !r.gaps.oom &&
        calib_steal_summarise(r.gaps.v, r.gaps.n, (double)r.kept_ns, &c->r->steal) == GV_OK) {
        c->r->steal.chunks = r.chunks;
        c->r->steal.dropped = r.dropped;
        c->r->steal.cpus = ncpu;
        c->r->steal.measured = true;
        snprintf(c->r->m[CALIB_STEAL_RATE].note, sizeof c->r->m[CALIB_STEAL_RATE].note,
                 "%d gaps in %.3f s kept (%d of %d chunks of 10 ms dropped: the thread was switched out), %d CPU%s",
                 r.gaps.n, (double)r.kept_ns * 1e-9, r.dropped, r.chunks, ncpu, ncpu == 1 ? "" : "s");
    } else {
        const char *why = rc != GV_OK ? c->err : r.kept_ns == 0 ? "every chunk was dropped (the thread was switched out)"
                                                                 : "out of memory";
        for (int i = 0; i < 3; i++) calib_skip(&c->r->m[ids[i]], why);
        c->err[0] = '\0';
    }
    calib_series_free(&r.gaps);
    calib_series_free(&r.chunk_rate);
    calib_series_free(&r.chunk_share);
    for (int i = 0; i < 3; i++) calib_done(c, ids[i]);
}
