/* calib_speed.c - the speed levels of a virtual CPU (CALIB_SPEED_WINDOW:
 * the machine keys speed_levels and speed_dwell).
 *
 * On the AMD EPYC guest (Firecracker, Linux 6.18.44-fc-v1147, 2026-12-03)
 * a stat(2) of a cached file and the user-space loop timed right after it
 * slowed down together by the same factor, about 1.45 (stat 1.09 -> 1.66
 * us, the loop 190 -> 280 ns), for tens to hundreds of milliseconds at a
 * time, and the two vCPUs did so at different times: the host shares its
 * cores (an SMT sibling, a frequency) with work the guest cannot see.  A
 * two-thread loop that keeps its threads in step - one in its system call
 * while the other holds the GVL - falls out of step when one CPU slows
 * (docs/validate.md, "The 3.1 loop on the v1147 guest").
 *
 * The measurement: a thread pinned to each CPU in turn (the other idle)
 * makes stat(2) calls (stat_calls) in windows of SPEED_SUBS
 * sub-windows of about
 * SPEED_SUB_NS each; a window's length is its median sub-window times
 * SPEED_SUBS, so that a hidden-steal gap (calib_steal.c, tens of us) or a
 * tick does not move it.  calib_speed_summarise classifies the windows: if
 * their 90th percentile is less than SPEED_TWO_LEVELS times their 10th,
 * the CPU has one speed (no keys); else a window is slow above the
 * geometric middle of the two, a lone window between two of the other
 * kind taking theirs, and each level's factor is its windows' median over
 * every window's median (so that the costs calibrate's other
 * measurements took as medians stay the level most windows ran at), its
 * dwell the mean length of its runs of windows.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/err.h"
#include "../common/stats.h"
#include "calib_int.h"

#define SPEED_SUB_NS 50000.0
#define SPEED_SUBS 20
#define SPEED_TWO_LEVELS 1.10

/* v's n windows in two levels: a new array *s of them sorted, their
 * 10th, 50th and 90th percentiles into q, and *two whether they make two
 * levels (the 90th percentile at least SPEED_TWO_LEVELS times the 10th);
 * then window i is slow (*slow, a new array of n flags) above the
 * geometric middle of the two, else none is.  GV_OK, or GV_ENOMEM
 * (neither array left). */
static int split_levels(const double *v, int n, double **s, unsigned char **slow, double q[3], bool *two)
{
    *s = malloc((size_t)n * sizeof **s);
    *slow = malloc((size_t)n);
    if (!*s || !*slow) {
        free(*s);
        free(*slow);
        return GV_ENOMEM;
    }
    memcpy(*s, v, (size_t)n * sizeof **s);
    stats_sort(*s, (size_t)n);
    q[0] = calib_quantile(*s, n, 0.1);
    q[1] = calib_quantile(*s, n, 0.5);
    q[2] = calib_quantile(*s, n, 0.9);
    *two = q[0] > 0 && q[2] >= SPEED_TWO_LEVELS * q[0];
    double cut = sqrt(q[0] * q[2]);
    for (int i = 0; i < n; i++) (*slow)[i] = *two && v[i] > cut;
    return GV_OK;
}

int calib_speed_summarise(const double *win_ns, const int *cpu, int n, struct calib_speed *out)
{
    memset(out, 0, sizeof *out);
    if (n < 10) return GV_EINVAL;
    double *s, q[3];
    unsigned char *slow;
    bool two;
    if (split_levels(win_ns, n, &s, &slow, q, &two) != GV_OK) return GV_ENOMEM;
    double med = q[1];
    out->p10 = q[0];
    out->p90 = q[2];
    out->windows = n;
    out->window_ns = med;
    out->measured = true;
    out->nlev = 1;
    if (!two) {
        free(s);
        free(slow);
        return GV_OK;
    }
    /* a lone window between two of the other kind, on one CPU, takes theirs */
    for (int i = 1; i + 1 < n; i++)
        if (cpu[i - 1] == cpu[i] && cpu[i + 1] == cpu[i] && slow[i - 1] == slow[i + 1] && slow[i] != slow[i - 1])
            slow[i] = slow[i - 1];
    int cnt[2] = { 0, 0 }, runs[2] = { 0, 0 }, on_cpu[2] = { 0, 0 }, slow_on[2] = { 0, 0 };
    double len[2] = { 0, 0 };
    for (int i = 0; i < n; i++) {
        int k = slow[i];
        cnt[k]++;
        len[k] += win_ns[i];
        if (i == 0 || cpu[i - 1] != cpu[i] || slow[i - 1] != slow[i]) runs[k]++;
        if (cpu[i] == 0 || cpu[i] == 1) {
            on_cpu[cpu[i]]++;
            slow_on[cpu[i]] += k;
        }
    }
    /* each CPU's windows are timed in one block: a CPU slow all through
     * its block (a spell at least that long, or a CPU slower than the
     * other) shows as a "level" as long as the block, whose dwell measures
     * nothing (noted: calib_speed_per_cpu; on the AMD EPYC guest at 22:10
     * UTC, 2026-12-05, one run of three: 91% of CPU 0's windows slow, 0%
     * of CPU 1's; the other two 27%/6% and 4%/26%) */
    for (int k = 0; k < 2; k++) out->slow_cpu[k] = on_cpu[k] ? (double)slow_on[k] / on_cpu[k] : -1;
    if (cnt[0] == 0 || cnt[1] == 0) {
        free(s);
        free(slow);
        return GV_OK;
    }
    for (int k = 0; k < 2; k++) {
        int m = 0;
        for (int i = 0; i < n; i++)
            if (slow[i] == k) s[m++] = win_ns[i];
        stats_sort(s, (size_t)m);
        out->factor[k] = calib_quantile(s, m, 0.5) / med;
        out->dwell_ns[k] = len[k] / (double)runs[k];
        out->share[k] = (double)cnt[k] / (double)n;
    }
    out->nlev = 2;
    free(s);
    free(slow);
    return GV_OK;
}

/* The median of v[i] over the windows whose slow[i] is k (m of them). */
static double median_of(const double *v, const unsigned char *slow, int n, int k, double *buf)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (slow[i] == k) buf[m++] = v[i];
    stats_sort(buf, (size_t)m);
    return calib_quantile(buf, m, 0.5);
}

bool calib_speed_per_cpu(const struct calib_speed *s)
{
    double a = s->slow_cpu[0], b = s->slow_cpu[1];
    if (s->nlev != 2 || a < 0 || b < 0) return false;
    return (a >= 0.9 && b <= 0.1) || (b >= 0.9 && a <= 0.1);
}

int calib_speed_wake_summarise(const double *wake_ns, const double *stat_ns, int n, struct calib_speed *out)
{
    out->wake_measured = false;
    out->wake_windows = n;
    out->wake_slow = 0;
    if (n < 10) return GV_EINVAL;
    double *s, q[3];
    unsigned char *slow;
    bool two;
    if (split_levels(stat_ns, n, &s, &slow, q, &two) != GV_OK) return GV_ENOMEM;
    for (int i = 0; i < n; i++) out->wake_slow += slow[i];
    if (out->wake_slow > 0 && out->wake_slow < n) {
        out->stat_ratio = median_of(stat_ns, slow, n, 1, s) / median_of(stat_ns, slow, n, 0, s);
        out->wake_ratio = median_of(wake_ns, slow, n, 1, s) / median_of(wake_ns, slow, n, 0, s);
        double share = (out->wake_ratio - 1) / (out->stat_ratio - 1);
        out->wake_share = share < 0 ? 0 : share > 2 ? 2 : share;
        /* two kinds of window whose stats differ by less than two levels
         * do (a spread, not levels: 1.06 in a --quick run) give a share of
         * noise */
        out->wake_measured = out->stat_ratio >= SPEED_TWO_LEVELS;
    }
    free(s);
    free(slow);
    return GV_OK;
}

/* The window's work: stat(2) of the benchmark's file (calib.c).  The slow
 * level is in the memory path, not the ALU, and differs by workload: on
 * the v1147 guest, between the two levels, the register-only chain of
 * exec_spin kept 340 ns, a stat went from 1.11 to 1.69 us (x1.5), Ruby
 * 3.1.2's `while i < 4000; i += 1; end` with a File.mtime from 39.7 to
 * 53-56 us (x1.35-1.4), a volatile `v += i * i` loop x1.4-1.8 from run to
 * run, a bare load-store chain x1.9.  A system call is the work the
 * levels matter for here, and the nearest to the interpreter's factor. */
static void stat_calls(const char *path, uint64_t iters)
{
    struct stat st;
    for (uint64_t i = 0; i < iters; i++) (void)stat(path, &st);
}

/* One window on the current CPU: SPEED_SUBS sub-windows of `iters`
 * calls of stat_calls, their median times SPEED_SUBS. */
static double window(const char *path, uint64_t iters)
{
    double sub[SPEED_SUBS];
    for (int i = 0; i < SPEED_SUBS; i++) {
        long long t = calib_now_ns();
        stat_calls(path, iters);
        sub[i] = (double)(calib_now_ns() - t);
    }
    stats_sort(sub, SPEED_SUBS);
    return sub[SPEED_SUBS / 2] * SPEED_SUBS;
}

/* Calls of stat_calls for about SPEED_SUB_NS (the fastest of a few). */
static uint64_t sub_iters(const char *path)
{
    const uint64_t probe = 200;
    double best = 0;
    for (int i = 0; i < 5; i++) {
        long long t = calib_now_ns();
        stat_calls(path, probe);
        double d = (double)(calib_now_ns() - t);
        if (d > 0 && (best == 0 || d < best)) best = d;
    }
    return best > 0 ? (uint64_t)(SPEED_SUB_NS * (double)probe / best) + 1 : probe;
}

/* `per_cpu` windows on each of the first `ncpu` CPUs of c in turn (pinned
 * there, the others idle), one sub-window length for all (*iters calls):
 * their lengths into w and their CPUs' indexes into cpu, *n of them.
 * GV_OK, or calib_pin_self's failure. */
static int speed_windows(struct calib_ctx *c, const char *path, int ncpu, int per_cpu, double *w, int *cpu, int *n,
                         uint64_t *iters_out)
{
    uint64_t iters = 0;
    *n = 0;
    for (int k = 0; k < ncpu; k++) {
        int rc = calib_pin_self(c, k ? c->cpu1 : c->cpu0);
        if (rc != GV_OK) return rc;
        if (!iters) iters = sub_iters(path);
        for (int i = 0; i < per_cpu; i++, (*n)++) {
            w[*n] = window(path, iters);
            cpu[*n] = k;
        }
    }
    *iters_out = iters;
    return GV_OK;
}

void calib_speed_set_calls(struct calib_speed *s, double calls_per_window)
{
    s->call_ns[0] = s->call_ns[1] = s->call_all_ns = 0;
    if (!s->measured || !(calls_per_window > 0)) return;
    s->call_all_ns = s->window_ns / (SPEED_SUBS * calls_per_window);
    if (s->nlev != 2) {
        s->call_ns[0] = s->call_all_ns;
        return;
    }
    for (int k = 0; k < 2; k++) s->call_ns[k] = s->factor[k] * s->call_all_ns;
}

/* The fast level is the machine the profile's costs describe (x1), the slow
 * one in proportion: a level slows work (sim/machine.h, "Speed levels": the
 * host shares the core with work the guest cannot see), it never runs the
 * machine faster than its undisturbed speed.  Two earlier rules made the
 * fast level faster than the profile: every window's median as 1 puts it
 * below 1 when the windows split about evenly (the AMD EPYC guest of
 * 2026-12-05, 49% and 51%: x0.856 and x1.068), and the level nearest the
 * profile's own stat(2) cost as 1 (session 35) did so whenever that
 * stat fell nearer the slow level - on the Intel Xeon guest of 2026-12-06
 * syscall_stat_ns was 766 ns between levels of 603 and 834 ns, the fast
 * level came out x0.724, and the model's 1-core runs were 26% shorter
 * than the executor's and Ruby's at the median of 16 configurations; with
 * the fast level x1, +0%, and 39 of its 43 fidelity figures within target
 * instead of 24 (on the AMD guest of 2026-12-05, -16% -> -1%;
 * docs/validate.md, "The fast level is the profile's machine"). */
void calib_speed_anchor(const struct calib_speed *s, double f[2])
{
    f[0] = f[1] = 1;
    if (s->nlev != 2 || !(s->factor[0] > 0)) return;
    for (int k = 0; k < 2; k++) f[k] = s->factor[k] / s->factor[0];
}

/* With two levels: how much of them a FUTEX_WAKE's cost to its waker sees
 * (speed_wake_share).  On the AMD EPYC guest of 2026-12-05 the windows
 * whose stat(2) ran 1.21-1.26x slower saw the wake cost 1.13-1.15x more
 * (scripts/wake_scope.c): the levels slow work beyond the core's L2
 * (docs/validate.md, "What the levels slow"), of which a wake's path through
 * the hypervisor has about half a stat's share.  The windows are timed on
 * each CPU in turn (the sleeper on the other), split by their own stat
 * (the levels come and go within seconds: the stat windows above found
 * them, these must meet them too). */
static void bench_speed_wake(struct calib_ctx *c)
{
    struct calib_stat *st = &c->r->m[CALIB_SPEED_WAKE];
    struct calib_speed *sp = &c->r->speed;
    if (sp->nlev != 2 || c->cpu1 < 0) {
        calib_skip(st, c->cpu1 < 0 ? "needs two CPUs" : "one speed level: no share to measure");
        calib_done(c, CALIB_SPEED_WAKE);
        return;
    }
    /* 2 s; --quick 0.3 s (within its 15 s): windows of 40 wakes of ~25 us */
    enum { ROUNDS = 40 };
    int n1 = (int)((c->o->quick ? 0.3 : calib_budget(c, 2.0)) * 1e9 / (ROUNDS * 25000.0));
    if (n1 < 20) n1 = 20;
    /* A second pass as long as the first when the first's windows met one
     * level: the levels come and go within seconds, and the windows of the
     * Intel Xeon guest of 2026-12-07 00:55 UTC met one where the speed
     * windows before them had found two (that profile then slowed a
     * wake's cost as much as a stat); --quick has no time for it */
    int passes = c->o->quick ? 1 : 2, n = 0;
    double *wk = malloc((size_t)(passes * n1) * sizeof *wk), *sn = malloc((size_t)(passes * n1) * sizeof *sn);
    struct calib_series all = { 0 };
    int rc = wk && sn ? calib_pin_self(c, c->cpu0) : gv_fail(c->err, c->errlen, GV_ENOMEM, "out of memory");
    for (int pass = 0; rc == GV_OK && pass < passes && (pass == 0 || !sp->wake_measured); pass++) {
        rc = calib_wake_stat_windows(c, n1, ROUNDS, wk + n, sn + n);
        if (rc == GV_OK) n += n1;
        if (rc == GV_OK) rc = calib_speed_wake_summarise(wk, sn, n, sp);
    }
    for (int i = 0; rc == GV_OK && i < n; i++) calib_series_add(&all, wk[i]);
    if (rc == GV_OK && all.oom) rc = GV_ENOMEM;
    if (rc == GV_OK) {
        calib_series_stat(&all, st);
        st->rounds = n / n1;
        if (sp->wake_measured)
            snprintf(st->note, sizeof st->note,
                     "%d windows of %d wakes, %d slow by their stat: the wake x%.3g there, the stat x%.3g: "
                     "share %.2f", n, ROUNDS, sp->wake_slow, sp->wake_ratio, sp->stat_ratio, sp->wake_share);
        else
            snprintf(st->note, sizeof st->note, "%d windows of %d wakes: their stats in one level (no share)", n,
                     ROUNDS);
    } else {
        calib_skip(st, rc == GV_ENOMEM ? "out of memory" : c->err);
        c->err[0] = '\0';
    }
    calib_series_free(&all);
    free(wk);
    free(sn);
    calib_done(c, CALIB_SPEED_WAKE);
}

void calib_bench_speed(struct calib_ctx *c)
{
    struct calib_stat *st = &c->r->m[CALIB_SPEED_WINDOW];
    int ncpu = c->cpu1 >= 0 ? 2 : 1;
    /* 8 s over the CPUs; --quick 1 s (on 2 CPUs 500 windows each, dozens
     * of a level's dwells of 10-14 ms: enough to tell the levels, and
     * within --quick's 15 s) */
    double per_cpu_s = (c->o->quick ? 1.0 : calib_budget(c, 8.0)) / ncpu;
    int per_cpu = (int)(per_cpu_s * 1e9 / (SPEED_SUB_NS * SPEED_SUBS));
    if (per_cpu < 20) per_cpu = 20;
    int n = 0, rc = GV_OK;
    double *w = malloc((size_t)(per_cpu * ncpu) * sizeof *w);
    int *cpu = malloc((size_t)(per_cpu * ncpu) * sizeof *cpu);
    struct calib_series all = { 0 };
    if (!w || !cpu) rc = GV_ENOMEM;
    uint64_t iters = 0;
    if (rc == GV_OK) rc = speed_windows(c, c->o->stat_path, ncpu, per_cpu, w, cpu, &n, &iters);
    for (int i = 0; i < n; i++) calib_series_add(&all, w[i]);
    if (ncpu > 1 && rc == GV_OK) rc = calib_pin_self(c, c->cpu0);
    if (rc == GV_OK && !all.oom) rc = calib_speed_summarise(w, cpu, n, &c->r->speed);
    if (rc == GV_OK) calib_speed_set_calls(&c->r->speed, (double)iters);
    if (rc == GV_OK && all.oom) rc = GV_ENOMEM;
    if (rc == GV_OK) {
        calib_series_stat(&all, st);
        st->rounds = ncpu;
        const struct calib_speed *sp = &c->r->speed;
        if (sp->nlev == 2) {
            int l = snprintf(st->note, sizeof st->note,
                             "%d windows of %.3g ms, %d CPU%s: two levels, x%.3g (stat %.0f ns) for %.3g ms (%.0f%%) "
                             "and x%.3g (%.0f ns) for %.3g ms (%.0f%%)", n, sp->window_ns * 1e-6, ncpu,
                             ncpu == 1 ? "" : "s", sp->factor[0], sp->call_ns[0], sp->dwell_ns[0] * 1e-6,
                             sp->share[0] * 100, sp->factor[1], sp->call_ns[1], sp->dwell_ns[1] * 1e-6,
                             sp->share[1] * 100);
            if (ncpu > 1 && l > 0 && (size_t)l < sizeof st->note)
                snprintf(st->note + l, sizeof st->note - (size_t)l, "; slow: %.0f%%/%.0f%% of CPU 0/1's windows%s",
                         sp->slow_cpu[0] * 100, sp->slow_cpu[1] * 100,
                         calib_speed_per_cpu(sp) ? " (one CPU slow all its block)" : "");
        }
        else
            snprintf(st->note, sizeof st->note, "%d windows of %.3g ms, %d CPU%s: one level (90th / 10th percentile %.3g)",
                     n, sp->window_ns * 1e-6, ncpu, ncpu == 1 ? "" : "s", sp->p90 / sp->p10);
    } else {
        calib_skip(st, rc == GV_ENOMEM ? "out of memory" : c->err);
        c->err[0] = '\0';
    }
    calib_series_free(&all);
    free(w);
    free(cpu);
    calib_done(c, CALIB_SPEED_WINDOW);
    bench_speed_wake(c);
}

int calib_speed_probe(int windows, struct calib_speed *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (windows < 10 || windows > 10000)
        return gv_fail(err, errlen, GV_EINVAL, "probe windows %d not in 10..10000", windows);
    double *w = malloc((size_t)(2 * windows) * sizeof *w);
    int *cpu = malloc((size_t)(2 * windows) * sizeof *cpu);
    if (!w || !cpu) {
        free(w);
        free(cpu);
        return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    }
    char path[512];
    calib_default_stat_path(path, sizeof path);
    struct calib_probe_env e;
    int rc = calib_probe_begin(&e, "speed", err, errlen), n = 0;
    uint64_t iters = 0;
    if (rc == GV_OK) {
        rc = speed_windows(&e.c, path, 2, windows, w, cpu, &n, &iters);
        calib_probe_end(&e);
    }
    if (rc == GV_OK) {
        rc = calib_speed_summarise(w, cpu, n, out);
        if (rc == GV_ENOMEM) rc = gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    }
    if (rc == GV_OK) calib_speed_set_calls(out, (double)iters);
    free(w);
    free(cpu);
    return rc;
}
