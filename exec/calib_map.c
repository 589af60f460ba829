/* calib_map.c - measurements -> machine-profile keys (the table of
 * docs/calibrate.md).  The machine model's costs (sim/machine.h) are read
 * off the microbenchmarks that isolate them:
 *
 *   context_switch  = a sched_yield switch - a bare system call
 *   futex_wake      = the waker's CPU time in FUTEX_WAKE, sleeper on its CPU
 *   wake_ipi        = the waker's CPU time in FUTEX_WAKE with the sleeper on
 *                     the other CPU, idle for 10 us (wake_ipi_after_idle_10us),
 *                     minus futex_wake; without it, the one-way wake after a
 *                     200-600 us pause (futex_wake_remote) minus futex_wake
 *   futex_wake_chain= a futex ping-pong on one CPU, per hand-off, minus
 *                     context_switch: what the waker pays for a wake in a
 *                     hand-off chain (futex_wake is taken after a pause, and
 *                     also holds the waker's halves of the switch to the
 *                     sleeper, which the model charges as context_switch)
 *   ppoll_wake_extra= the waker's CPU time in write(eventfd) with the sleeper
 *                     in ppoll on its CPU - that in FUTEX_WAKE, pair by pair
 *                     (CRuby's ppoll sleepers are woken by that write
 *                     instead of a futex)
 *   ppoll_return    = (eventfd + ppoll ping-pong - futex ping-pong on one
 *                     CPU, per hand-off, round by round) - ppoll_wake_extra:
 *                     what the woken sleeper adds (ppoll's return, the read)
 *   wake_idle_core  = wake -> running on the other CPU idle for 10 us
 *                     (wake_after_idle_10us); without it, a futex ping-pong
 *                     across two CPUs, per hand-off
 *   wake_busy_core  = wake -> running on a busy CPU (when at once) - context_switch
 *   wake_jitter     = interquartile range / median of wake_idle_core's
 *                     measurement (wake_after_idle_10us; without it the
 *                     idle-CPU wake after a long pause, wake_idle), its
 *                     samples each over its own round's median when it has
 *                     rounds (within_spread): a uniform +-j spread has
 *                     IQR = j x mean
 *   wake_pack       = the share of wakes the kernel kept on the waker's busy
 *                     CPU when the wakee last ran there and the other CPU
 *                     was idle, after a short sleep (wake_pack_short)
 *   wake_pack_sleep = the sleep length from which most such wakes went to
 *                     the idle CPU (wake_pack_sleep_ns, bisected), when
 *                     short sleeps were mostly packed and long ones mostly
 *                     not; else 0 (no dependence on the sleep seen)
 *   wake_pack_util  = the waker CPU's busy share over the 100 ms before a
 *                     wake from which such wakes went to the idle CPU
 *                     (bisected), on a packing machine; not measured: not
 *                     written (no limit)
 *   os_scheduler    = the kernel's version and scheduler features
 *   os_tick         = 1 / CONFIG_HZ, else the measured tick period
 *   os_timeslice    = EEVDF: the base slice; CFS: the measured run length
 *   timer_tick_cost = CPU time per wake-up of a 1 ms epoll_wait loop
 *   timer_slack     = how late a timed futex wait ends with the thread's
 *                     default slack - with 1 ns, the median over the wait
 *                     sizes (100 us, 300 us, 1 ms); not measured: Linux's
 *                     default slack, 50 us (init/init_task.c)
 *   timer_wake      = how late it ends with 1 ns of slack (the expiry ->
 *                     the thread's code), the median over the sizes; not
 *                     measured: not written (all of timer_tick_cost then
 *                     comes before a woken helper's code)
 *   timer_stall     = how long the busy CPU stopped at such an expiry: the
 *                     busy thread's clock gap there less the waiting
 *                     thread's CPU per wait (median); not measured: not
 *                     written (no stall modelled)
 *   mutex_uncontended, line_transfer = measured as such
 *   remote_rmw      = line_fetch: a locked add on a line the other CPU stored
 *                     to and keeps away from, beyond one on a line held (the
 *                     objspace's and an interrupt flag's accesses: one
 *                     fetch each).  Not line_transfer, whose ping-pong has
 *                     the other CPU spinning on the line: on an AMD EPYC
 *                     guest each of its moves also took the spinner's copy
 *                     away (246 ns a move against 140 ns a fetch).
 *   free_remote     = free of another thread's chunks while it allocates on the
 *                     other CPU - free of one's own (two CPUs both ways)
 *   lock_line       = line_fetch_ns, as remote_rmw (an atomic on a native
 *                     mutex's or condvar's line the other CPU touched last
 *                     and has moved on from: a lock in a hand-off measured
 *                     141-149 ns over a local one where line_fetch_ns was
 *                     139 and line_transfer_ns 240; docs/validate.md)
 *   sched_lock_cs   = mutex_uncontended + line_fetch (the global lock is
 *                     taken by threads on different CPUs: its line moves, a
 *                     fetch from the CPU that took it last and moved on, as
 *                     lock_line's)
 *   line_store_batch= 2 x line_transfer / per-CPU time of a plain shared
 *                     increment on two CPUs (the line model's rate
 *                     B / (k x line_transfer) at k = 2), at least 1
 *   tls_insn_overhead = thread-local increment loop - the same loop without it
 *   insn_time       = a VM instruction of the Ruby backend's counted loop, on
 *                     the Ruby that backend runs (skipped without one)
 *   wake_idle_extra = wake_after_idle_*_ns - wake_after_idle_10us_ns:
 *                     (10 us, 0), then a point per idle time from 30 us on
 *                     (floored at 0)
 *   corun_slowdown  = the busy loop's time per iteration while both CPUs run
 *                     it / alone (CPU-time clocks), at least 1
 *   hidden_steal_rate = gaps of 8 us or more per second that a thread pinned
 *                     to each CPU in turn sees in its clock reads (chunks in
 *                     which it was switched out dropped); not measured: not
 *                     written (no hidden steal)
 *   hidden_steal_len= those gaps' quantiles at (i + 1/2) / n, n = 16 (fewer
 *                     gaps: each one), equally likely; not written at rate 0
 *   syscalls.CALL   = the CPU time of the real call a syscall op with
 *                     "dur": "machine" makes (exec/exec_syscall.c), each
 *                     measured as such: stat syscall_stat_ns, write_devnull
 *                     syscall_write_ns, getpid syscall_getpid_ns (getpid(2);
 *                     the executor's getppid(2) is the same bare round
 *                     trip), open_devnull syscall_open_ns, close
 *                     syscall_close_ns; not measured: not written (such an
 *                     op is then a load error, not a guess).  The stat is
 *                     of the file the backends stat (calib.c)
 *   method_work.CALL= the CPU the Ruby method the Ruby backend runs for a
 *   method_work_after.CALL  syscall op of CALL uses beyond its system
 *                     calls, before and after the call: stat and
 *                     method_work_after.stat ruby_file_mtime_extra_ns
 *                     (File.mtime), open_devnull, write_devnull, close and
 *                     method_work_after.close ruby_file_write_extra_ns
 *                     (File.write: its open, write and close are three
 *                     ops), split in the proportions of the gaps between
 *                     the calls (ruby_file_*_before_ns .. _after_ns, the
 *                     edges less half ruby_marker_loop_ns); without them
 *                     all before the first call; not measured (no Ruby):
 *                     not written
 *   compute_after_idle = ruby_cross_compute_ns, a minimal Ruby step right
 *                     after a Thread::Queue hand-off from a thread on the
 *                     other CPU less on one CPU; not measured (no Ruby, one
 *                     CPU): not written (none charged)
 *   method_after_idle.stat = ruby_cross_mtime_ns, the same of a File.mtime;
 *   method_after_idle.open_devnull = ruby_cross_write_ns, of a File.write
 *                     (its open, write and close: all of it on the first
 *                     call); not measured: not written
 */
#include "calib_map.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../input/schema.h"
#include "../input/units.h"

static const struct calib_stat *M(const struct calib_result *r, enum calib_id id)
{
    const struct calib_stat *s = &r->m[id];
    return s->measured ? s : NULL;
}

static const char *mname(enum calib_id id)
{
    return calib_describe(id)->name;
}

/* ns -> ps, rounded to 3 significant digits (the measurements are not
 * more precise than that, and the profile stays readable). */
static sim_time ns3(double ns)
{
    if (!(ns > 0)) return 0;
    double ps = ns * 1000.0, mag = pow(10.0, floor(log10(ps)) - 2);
    if (mag < 1) mag = 1;
    return (sim_time)(floor(ps / mag + 0.5) * mag);
}

static struct calib_key *add(struct calib_profile *p, const char *name, enum calib_key_kind kind)
{
    if (p->n == CALIB_MAX_KEYS) {  /* never past the array: test_calib checks that it never fills */
        p->overflow = true;
        p->n--;
    }
    struct calib_key *k = &p->k[p->n++];
    memset(k, 0, sizeof *k);
    k->name = name;
    k->kind = kind;
    return k;
}

static struct calib_key *add_dur(struct calib_profile *p, const char *name, double ns, bool measured,
                                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static struct calib_key *add_dur(struct calib_profile *p, const char *name, double ns, bool measured,
                                 const char *fmt, ...)
{
    struct calib_key *k = add(p, name, CK_DUR);
    k->dur = ns3(ns);
    k->measured = measured;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k->how, sizeof k->how, fmt, ap);
    va_end(ap);
    return k;
}

/* Append to k's derivation (cut at its end, as the first part is). */
static void how_add(struct calib_key *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void how_add(struct calib_key *k, const char *fmt, ...)
{
    size_t l = strlen(k->how);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k->how + l, sizeof k->how - l, fmt, ap);
    va_end(ap);
}

/* A measured list of durations (CK_DURS) from n values in ns (at most
 * GV_CURVE_MAX kept); the caller writes its derivation. */
static struct calib_key *add_durs(struct calib_profile *p, const char *name, const double *ns, int n)
{
    struct calib_key *k = add(p, name, CK_DURS);
    k->measured = true;
    for (int i = 0; i < n && i < GV_CURVE_MAX; i++) k->curve.y[k->curve.n++] = ns3(ns[i]);
    return k;
}

/* The schema's default of a duration key, in ns. */
static double default_ns(const char *key)
{
    const struct sch_key *k = sch_find(&sch_machine_profile, key);
    return k ? (double)sch_default_dur(k) / 1000.0 : 0;
}

#define NONE CALIB_COUNT   /* no measurement */

/* A key from one measurement minus others (floored at 0), or its default. */
static void dur_or_default(struct calib_profile *p, const char *key, const struct calib_result *r,
                           enum calib_id a, enum calib_id minus1, enum calib_id minus2)
{
    const struct calib_stat *sa = M(r, a);
    bool need1 = minus1 != NONE, need2 = minus2 != NONE;
    const struct calib_stat *s1 = need1 ? M(r, minus1) : NULL;
    const struct calib_stat *s2 = need2 ? M(r, minus2) : NULL;
    if (!sa || (need1 && !s1) || (need2 && !s2)) {
        enum calib_id miss = !sa ? a : (need1 && !s1) ? minus1 : minus2;
        add_dur(p, key, default_ns(key), false, "not measured (%s: %s): the default",
                mname(miss), r->m[miss].note[0] ? r->m[miss].note : "no samples");
        return;
    }
    double v = sa->median - (s1 ? s1->median : 0) - (s2 ? s2->median : 0);
    if (!need1)  /* (a difference of two costs, as the GC's, may come out below 0 on noise) */
        add_dur(p, key, v > 0 ? v : 0, true, "%s %.4g ns", mname(a), sa->median);
    else if (!need2)
        add_dur(p, key, v > 0 ? v : 0, true, "%s %.4g ns - %s %.4g ns", mname(a), sa->median,
                mname(minus1), s1->median);
    else
        add_dur(p, key, v > 0 ? v : 0, true, "%s %.4g ns - %s %.4g ns - %s %.4g ns", mname(a),
                sa->median, mname(minus1), s1->median, mname(minus2), s2->median);
}

/* A key from a measurement minus a key derived before it (floored at 0),
 * or its default: `missing` says which measurement is not there. */
static void dur_minus_key(struct calib_profile *p, const char *key, const struct calib_result *r, enum calib_id a,
                          const char *minus, const char *missing)
{
    const struct calib_stat *sa = M(r, a);
    const struct calib_key *km = calib_profile_key(p, minus);
    if (sa && km && km->measured) {
        double v = sa->median - (double)km->dur / 1000.0;
        add_dur(p, key, v > 0 ? v : 0, true, "%s %.4g ns - %s %.4g ns", mname(a), sa->median, minus,
                (double)km->dur / 1000.0);
    } else {
        add_dur(p, key, default_ns(key), false, "not measured (%s): the default", missing);
    }
}

static double median3(double a, double b, double c)
{
    return a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b));
}

/* timer_slack and timer_wake from the timed waits of each size, with the
 * default slack and with 1 ns: per size the difference, and the 1 ns
 * lateness; each key the middle of its three. */
static void timer_keys(struct calib_profile *p, const struct calib_result *r)
{
    const struct calib_stat *d[CALIB_TIMER_SIZES], *o[CALIB_TIMER_SIZES];
    _Static_assert(CALIB_TIMER_SIZES == 3, "median3");
    for (int i = 0; i < CALIB_TIMER_SIZES; i++) {
        d[i] = M(r, (enum calib_id)(CALIB_TIMER_LATE_100US + i));
        o[i] = M(r, (enum calib_id)(CALIB_TIMER_LATE_1NS_100US + i));
        if (!d[i] || !o[i]) {
            enum calib_id miss = (enum calib_id)((d[i] ? CALIB_TIMER_LATE_1NS_100US : CALIB_TIMER_LATE_100US) + i);
            add_dur(p, "timer_slack", default_ns("timer_slack"), false,
                    "not measured (%s: %s): the default, Linux's slack of a normal thread", mname(miss),
                    r->m[miss].note[0] ? r->m[miss].note : "no samples");
            return;
        }
    }
    double s = median3(d[0]->median - o[0]->median, d[1]->median - o[1]->median, d[2]->median - o[2]->median);
    add_dur(p, "timer_slack", s > 0 ? s : 0, true, "the middle of %s..%s - %s..%s: %.4g - %.4g, %.4g - %.4g, %.4g - %.4g ns",
            mname(CALIB_TIMER_LATE_100US), mname(CALIB_TIMER_LATE_1MS), mname(CALIB_TIMER_LATE_1NS_100US),
            mname(CALIB_TIMER_LATE_1NS_1MS), d[0]->median, o[0]->median, d[1]->median, o[1]->median,
            d[2]->median, o[2]->median);
    double w = median3(o[0]->median, o[1]->median, o[2]->median);
    add_dur(p, "timer_wake", w > 0 ? w : 0, true, "the middle of %s..%s: %.4g %.4g %.4g ns",
            mname(CALIB_TIMER_LATE_1NS_100US), mname(CALIB_TIMER_LATE_1NS_1MS), o[0]->median, o[1]->median,
            o[2]->median);
    /* how much of that latency stopped the busy CPU (charged to its task,
     * not to the woken thread); not measured: not written (no stall) */
    const struct calib_stat *st = M(r, CALIB_TIMER_STALL);
    if (st)
        add_dur(p, "timer_stall", st->median > 0 ? st->median : 0, true,
                "%s %.4g ns (the busy thread's gap at a 1 ns-slack expiry less the waiter's CPU per wait)",
                mname(CALIB_TIMER_STALL), st->median);
}

/* rise_curve: KEY as the rise of the n measurements from FIRST on (taken
 * at xs_ns[0..n-1]) over the first of them, a point per x (floored at 0),
 * from (xs_ns[0], 0) when ZERO_POINT.  Written only when all n were
 * measured. */
static void rise_curve(struct calib_profile *p, const struct calib_result *r, enum calib_id first, int n,
                       const long long *xs_ns, const char *key, bool zero_point)
{
    const struct calib_stat *st[CALIB_IDLE_LEVELS > CALIB_GC_GAPS ? CALIB_IDLE_LEVELS : CALIB_GC_GAPS];
    for (int i = 0; i < n; i++)
        if (!(st[i] = M(r, (enum calib_id)(first + i)))) return;
    double base = st[0]->median;
    struct calib_key *k = add(p, key, CK_CURVE);
    k->measured = true;
    int used = snprintf(k->how, sizeof k->how, "%s..%s minus %s, %.4g ns:", mname((enum calib_id)(first + 1)),
                        mname((enum calib_id)(first + n - 1)),
                        zero_point ? "the first" : mname(first), base);
    if (zero_point) {
        k->curve.x[0] = (sim_time)xs_ns[0] * SIM_NS;
        k->curve.y[0] = 0;
        k->curve.n = 1;
    }
    for (int i = 1; i < n; i++) {
        double extra = st[i]->median - base;
        k->curve.x[k->curve.n] = (sim_time)xs_ns[i] * SIM_NS;
        k->curve.y[k->curve.n++] = ns3(extra > 0 ? extra : 0);
        if (used > 0 && (size_t)used < sizeof k->how)
            used += snprintf(k->how + used, sizeof k->how - (size_t)used, " %.4g", st[i]->median);
    }
}

/* wake_idle_extra: how much longer than after 10 us an idle CPU takes to
 * run a woken thread, by how long it idled: (10 us, 0) and a point per
 * longer idle time.  The base is the shortest idle time, the one that
 * wake_idle_core is: each idle time is measured in its own steady state
 * (calib_wake.c), and the rise can come early - on an AMD EPYC guest
 * (2026-12-02) the wake took 10-12 us after up to 50 us of idle and 75-85
 * us after 100 us.  (The base used to be the middle of the 10, 30 and
 * 100 us levels, with the curve from (100 us, 0): samples of every level
 * shuffled singly put a long idle before most short ones, and the short
 * levels then moved together, by 25-40 us on the Intel development guest.)
 * Written only when every idle time was measured. */
static void idle_curve(struct calib_profile *p, const struct calib_result *r)
{
    rise_curve(p, r, CALIB_WAKE_AFTER_IDLE_10US, CALIB_IDLE_LEVELS, calib_idle_ns, "wake_idle_extra", true);
}

/* wake_ipi_extra: what a wake onto an idle CPU costs its waker beyond
 * the wake after 10 us of idle (wake_ipi's measurement), by how long the
 * CPU idled: a point per idle time from 30 us on (wake_ipi_after_idle_*,
 * floored at 0) - a guest's vCPU past the host's halt polling must be
 * woken by the host, and the waker waits for it.  Written only when all
 * eight were measured; absent, the model adds nothing. */
static void ipi_curve(struct calib_profile *p, const struct calib_result *r)
{
    rise_curve(p, r, CALIB_WAKE_IPI_AFTER_IDLE_10US, CALIB_IDLE_LEVELS, calib_idle_ns, "wake_ipi_extra", false);
}

/* The stat's path as the derivation names it: how many directories it
 * walks (what its cost depends on: its components) and its last two, not the
 * whole path, which holds the host's own directories (a profile is meant
 * to be committed and shared). */
static const char *path_shape(const char *path, char *buf, size_t size)
{
    int parts = 0;
    const char *tail = path, *prev = path;
    for (const char *q = path; *q; q++)
        if (*q == '/' && q[1]) {
            parts++;
            prev = tail;
            tail = q + 1;
        }
    if (parts <= 1) snprintf(buf, size, "%.200s", path);
    else snprintf(buf, size, "a path of %d components, .../%.200s", parts, prev);
    return buf;
}

/* machine.syscalls: each call's cost as measured; a call not measured is
 * not written. */
static void syscall_keys(struct calib_profile *p, const struct calib_result *r)
{
    char shape[256];
    static const struct { const char *key; enum calib_id id; } calls[] = {
        { "syscalls.stat", CALIB_SYSCALL_STAT },
        { "syscalls.write_devnull", CALIB_SYSCALL_WRITE },
        { "syscalls.getpid", CALIB_SYSCALL_GETPID },
        { "syscalls.open_devnull", CALIB_SYSCALL_OPEN },
        { "syscalls.close", CALIB_SYSCALL_CLOSE },
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        const struct calib_stat *st = M(r, calls[i].id);
        if (!st) continue;
        if (calls[i].id == CALIB_SYSCALL_STAT && r->stat_path[0])
            add_dur(p, calls[i].key, st->median, true, "%s %.4g ns (of %s)", mname(calls[i].id), st->median,
                    path_shape(r->stat_path, shape, sizeof shape));
        else
            add_dur(p, calls[i].key, st->median, true, "%s %.4g ns", mname(calls[i].id), st->median);
    }
}

/* machine.method_work and method_work_after: each Ruby method's extra as
 * measured (its CPU less its calls', round by round, calib_ruby.c), split
 * between the places it runs in the proportions of the gaps the preload
 * library timed inside the Ruby (calib_ruby.c method_gaps): the gaps before
 * the first call and after the last hold the loop and the marker's own call
 * around the method, so each gives up half the marker loop's gap
 * (ruby_marker_loop_ns, which is exactly those); the rest is the method's.
 * Proportions, not the gaps themselves: the extra is the figure measured
 * back to back with the same calls from C, and the gaps also hold the
 * blocking region's entry and exit around each call, which the model
 * charges on its own.  Without the gaps the extra goes before the first
 * call, as it did before they were measured (the other parts 0); a method
 * not measured is not written. */
struct method_part {
    const char *key;   /* machine key */
    enum calib_id gap; /* the gap it takes its share from */
    bool edge;         /* before the first call or after the last: less half the loop's gap */
};

static bool in_phase(const char *key, bool after)
{
    return !strncmp(key, "method_work_after.", sizeof "method_work_after." - 1) == after;
}

/* The parts of one method whose key is method_work_after.* (after) or
 * method_work.* (not after): the profile writes each object's keys in one
 * run, so the caller adds every method's method_work keys first. */
static void method_split(struct calib_profile *p, const struct calib_result *r, const char *method,
                         enum calib_id extra, const struct method_part *parts, int nparts, bool after)
{
    const struct calib_stat *x = M(r, extra), *loop = M(r, CALIB_RUBY_LOOP_GAP);
    if (!x) return;
    double share[4] = { 0 }, sum = 0;
    bool timed = loop != NULL;
    for (int i = 0; i < nparts && timed; i++) {
        const struct calib_stat *g = M(r, parts[i].gap);
        if (!g) timed = false;
        else sum += share[i] = fmax(0, g->median - (parts[i].edge ? loop->median / 2 : 0));
    }
    if (!timed || !(sum > 0)) {
        if (in_phase(parts[0].key, after))
            add_dur(p, parts[0].key, x->median, true,
                    "%s %.4g ns (%s's CPU beyond its system calls; where it falls between them not timed: all of "
                    "it before the first)", mname(extra), x->median, method);
        for (int i = 1; i < nparts; i++)
            if (in_phase(parts[i].key, after))
                add_dur(p, parts[i].key, 0, true, "0: %s's CPU beyond its system calls not timed between them "
                        "(%s before the first call)", method, parts[0].key);
        return;
    }
    for (int i = 0; i < nparts; i++) {
        if (!in_phase(parts[i].key, after)) continue;
        const struct calib_stat *g = M(r, parts[i].gap);
        add_dur(p, parts[i].key, x->median * share[i] / sum, true,
                "%s %.4g ns x %.3f: %s's CPU beyond its system calls, the share of %s %.4g ns%s among its gaps "
                "(%.4g ns)",
                mname(extra), x->median, share[i] / sum, method, mname(parts[i].gap), g->median,
                parts[i].edge ? " less half ruby_marker_loop_ns" : "", sum);
    }
}

static void method_work_keys(struct calib_profile *p, const struct calib_result *r)
{
    static const struct method_part mtime[] = {
        { "method_work.stat", CALIB_RUBY_MTIME_BEFORE, true },
        { "method_work_after.stat", CALIB_RUBY_MTIME_AFTER, true },
    };
    static const struct method_part write[] = {
        { "method_work.open_devnull", CALIB_RUBY_WRITE_BEFORE, true },
        { "method_work.write_devnull", CALIB_RUBY_WRITE_OPEN_WRITE, false },
        { "method_work.close", CALIB_RUBY_WRITE_WRITE_CLOSE, false },
        { "method_work_after.close", CALIB_RUBY_WRITE_AFTER, true },
    };
    for (int after = 0; after < 2; after++) {
        method_split(p, r, "File.mtime", CALIB_RUBY_FILE_MTIME_EXTRA, mtime, 2, after);
        method_split(p, r, "File.write", CALIB_RUBY_FILE_WRITE_EXTRA, write, 4, after);
    }
}

/* compute_after_idle and method_after_idle: a Ruby thread's work right
 * after the GVL came to it from a thread on the other CPU, less the same on
 * one CPU (calib_ruby.c handoff_cross): the model charges it to a thread's
 * first such work after it arrives on an idle core.  A method's figure is
 * keyed by the call that begins it (File.write's by open_devnull).  Not
 * measured (no Ruby, one CPU): not written, and the model adds nothing. */
static void after_idle_keys(struct calib_profile *p, const struct calib_result *r)
{
    static const struct { const char *key, *what; enum calib_id id; } keys[] = {
        { "compute_after_idle", "a minimal Ruby step", CALIB_RUBY_CROSS_COMPUTE },
        { "method_after_idle.stat", "a File.mtime", CALIB_RUBY_CROSS_MTIME },
        { "method_after_idle.open_devnull", "a File.write (its open, write and close)",
          CALIB_RUBY_CROSS_WRITE },
    };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const struct calib_stat *st = M(r, keys[i].id);
        if (!st) continue;
        add_dur(p, keys[i].key, st->median > 0 ? st->median : 0, true,
                "%s %.4g ns: %s right after a hand-off from the other CPU, less on one CPU", mname(keys[i].id),
                st->median, keys[i].what);
    }
}

/* hidden_steal_rate and hidden_steal_len: the clock-reading loop's gaps
 * (calib_steal.c), the rate per second of the time kept and the gaps'
 * quantiles as equally likely lengths; a rate of 0 (no gap seen) writes
 * no lengths, and an unmeasured run writes neither key (no hidden steal). */
/* The keys a cache line's moves between the CPUs set: their measurements
 * run between the two cache-regime probes (calib_cpu.c calib_bench_cache). */
static const char *const cache_keys[] = { "line_transfer", "lock_line", "remote_rmw", "free_remote",
                                          "sched_lock_cs", "line_store_batch" };

const char *calib_cache_keys(const char *last, char *buf, size_t size)
{
    size_t n = sizeof cache_keys / sizeof *cache_keys, len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len < size; i++) {
        int w = snprintf(buf + len, size - len, "%s%s", i == 0 ? "" : i + 1 == n ? last : ", ", cache_keys[i]);
        if (w < 0) break;
        len += (size_t)w;
    }
    return buf;
}

bool calib_is_cache_key(const char *name)
{
    if (!strcmp(name, "cache_probe") || !strcmp(name, "mutex_uncontended")) return true;
    for (size_t i = 0; i < sizeof cache_keys / sizeof *cache_keys; i++)
        if (!strcmp(name, cache_keys[i])) return true;
    return false;
}

/* The keys of one Ruby (calib_ruby.c): `calibrate --only ruby` writes these
 * alone, for a Ruby other than the one the host's profile was measured
 * with. */
bool calib_is_ruby_key(const char *name)
{
    return !strcmp(name, "insn_time") || !strcmp(name, "alloc_object") || !strcmp(name, "env_escape_work") ||
           !strncmp(name, "gc_", 3) ||
           !strcmp(name, "compute_after_idle") ||
           !strncmp(name, "method_after_idle.", sizeof "method_after_idle." - 1) ||
           !strncmp(name, "method_work.", sizeof "method_work." - 1) ||
           !strncmp(name, "method_work_after.", sizeof "method_work_after." - 1);
}

bool calib_is_speed_key(const char *name)
{
    return !strcmp(name, "speed_levels") || !strcmp(name, "speed_dwell") || !strcmp(name, "speed_wake_share");
}

/* cache_probe: the regime the cache keys were measured in (the middle of
 * the probes before and after them), each cache key's derivation naming
 * it; written only when a probe ran (two CPUs). */
static void cache_probe_key(struct calib_profile *p, const struct calib_result *r)
{
    const struct calib_stat *a = M(r, CALIB_LINE_PROBE), *b = M(r, CALIB_LINE_PROBE_END);
    if (!a && !b) return;
    double v = a && b ? (a->median + b->median) / 2 : (a ? a : b)->median;
    char keys[160];
    struct calib_key *k;
    if (a && b && calib_probe_moved(a->median, b->median))
        k = add_dur(p, "cache_probe", v, true,
                    "%s %.4g ns, %s %.4g ns: the cache regime MOVED during the cache measurements (more than "
                    "%.2gx apart): their keys mix two regimes", mname(CALIB_LINE_PROBE), a->median,
                    mname(CALIB_LINE_PROBE_END), b->median, CALIB_PROBE_FACTOR);
    else if (a && b)
        k = add_dur(p, "cache_probe", v, true, "the middle of %s %.4g ns and %s %.4g ns: the cache regime of %s",
                    mname(CALIB_LINE_PROBE), a->median, mname(CALIB_LINE_PROBE_END), b->median,
                    calib_cache_keys(", ", keys, sizeof keys));
    else
        k = add_dur(p, "cache_probe", v, true, "%s %.4g ns (the other probe: not measured)",
                    mname(a ? CALIB_LINE_PROBE : CALIB_LINE_PROBE_END), v);
    (void)k;
    for (size_t i = 0; i < sizeof cache_keys / sizeof *cache_keys; i++)
        for (int j = 0; j < p->n; j++) {
            struct calib_key *c = &p->k[j];
            if (strcmp(c->name, cache_keys[i]) || !c->measured) continue;
            how_add(c, " (cache probe %.3g ns)", v);
        }
}

/* speed_levels and speed_dwell (calib_speed.c): written with two levels
 * only (one speed: none, as a machine without levels). */
static void speed_keys(struct calib_profile *p, const struct calib_result *r)
{
    const struct calib_speed *s = &r->speed;
    if (!s->measured || s->nlev != 2) return;
    struct calib_key *k = add(p, "speed_levels", CK_NUMS);
    k->measured = true;
    double f[2];
    calib_speed_anchor(s, f);
    for (int i = 0; i < 2; i++) k->nums[k->nnums++] = round(f[i] * 1000) / 1000;
    snprintf(k->how, sizeof k->how, "%s: %d windows of stat(2) calls (%.3g ms each, the median of 20 parts), "
             "each CPU alone, in two levels (%.0f%% and %.0f%% of them)", mname(CALIB_SPEED_WINDOW), s->windows,
             s->window_ns * 1e-6, s->share[0] * 100, s->share[1] * 100);
    if (s->call_ns[0] > 0 && s->call_ns[1] > 0) how_add(k, " of %.0f and %.0f ns a call", s->call_ns[0], s->call_ns[1]);
    how_add(k, ": the fast one is the machine the profile's costs describe (x1), the slow one in proportion");
    const struct calib_stat *st = &r->m[CALIB_SYSCALL_STAT];
    if (st->measured) how_add(k, " (%s %.0f ns)", mname(CALIB_SYSCALL_STAT), st->median);
    if (calib_speed_per_cpu(s))
        how_add(k, "; but the slow windows are one CPU's (%.0f%% of CPU 0's, %.0f%% of CPU 1's): a spell as long as "
                "its block of windows, or a slower CPU - the dwells measure neither",
                s->slow_cpu[0] * 100, s->slow_cpu[1] * 100);
    k = add_durs(p, "speed_dwell", s->dwell_ns, 2);
    snprintf(k->how, sizeof k->how, "the mean length of a level's runs of windows (%s)", mname(CALIB_SPEED_WINDOW));
    /* not measured (the wake windows met one level): absent, the model
     * scales a wake's cost as the stat's, as before the key */
    if (!s->wake_measured) return;
    k = add(p, "speed_wake_share", CK_NUM);
    k->num = round(s->wake_share * 100) / 100;
    k->measured = true;
    snprintf(k->how, sizeof k->how, "%s: %d windows of wakes, each followed by a stat(2), %d of them slow by their "
             "stat: the wake's cost x%.3g there, the stat x%.3g", mname(CALIB_SPEED_WAKE), s->wake_windows,
             s->wake_slow, s->wake_ratio, s->stat_ratio);
}

static void steal_keys(struct calib_profile *p, const struct calib_result *r)
{
    const struct calib_steal *s = &r->steal;
    if (!s->measured) return;
    struct calib_key *k = add(p, "hidden_steal_rate", CK_NUM);
    k->num = floor(s->rate + 0.5);
    k->measured = true;
    snprintf(k->how, sizeof k->how, "%d gaps of >= 8 us in %.3g s of a pinned clock-reading loop on %d CPU%s "
             "(%.2g%% of its time; %s median %.4g ns)", s->gaps, s->observed_ns * 1e-9, s->cpus,
             s->cpus == 1 ? "" : "s", s->share * 100, mname(CALIB_STEAL_LEN), r->m[CALIB_STEAL_LEN].median);
    if (s->nlen <= 0) return;
    k = add_durs(p, "hidden_steal_len", s->len_ns, s->nlen);
    snprintf(k->how, sizeof k->how, "the %d gaps' quantiles at (i + 1/2) / %d, equally likely (%s %.4g..%.4g ns)",
             s->gaps, s->nlen, mname(CALIB_STEAL_LEN), s->len_ns[0], s->len_ns[s->nlen - 1]);
}

/* wake_waking (calib_wake.c): its quantiles, equally likely; not measured
 * (one CPU): not written (such a wake then costs what any other does). */
static void waking_keys(struct calib_profile *p, const struct calib_result *r)
{
    const struct calib_waking *w = &r->waking;
    if (!w->measured || w->n <= 0) return;
    struct calib_key *k = add_durs(p, "wake_waking", w->cost_ns, w->n);
    snprintf(k->how, sizeof k->how, "%s: its %d wakes' quantiles at (i + 1/2) / %d, equally likely (%.4g..%.4g ns; "
             "median %.4g ns)", mname(CALIB_WAKE_WAKING), r->m[CALIB_WAKE_WAKING].samples, w->n, w->cost_ns[0],
             w->cost_ns[w->n - 1], r->m[CALIB_WAKE_WAKING].median);
}

/* wake_prehalt_window, _share, _return (calib_wake.c): the passes'
 * medians, written only where a window was found (its median above 0) and
 * wakes within it returned; otherwise absent (every wake onto an idle core
 * is then an IPI's, as before the keys). */
static void prehalt_keys(struct calib_profile *p, const struct calib_result *r)
{
    const struct calib_stat *w = M(r, CALIB_WAKE_PREHALT_WINDOW), *s = M(r, CALIB_WAKE_PREHALT_SHARE),
                            *t = M(r, CALIB_WAKE_PREHALT_RETURN);
    if (!w || !s || !t || w->median <= 0) return;
    add_dur(p, "wake_prehalt_window", w->median, true, "%s %.4g ns (q1 %.4g, q3 %.4g; %s)",
            mname(CALIB_WAKE_PREHALT_WINDOW), w->median, w->q1, w->q3, r->m[CALIB_WAKE_PREHALT_WINDOW].note);
    struct calib_key *k = add(p, "wake_prehalt_share", CK_NUM);
    k->num = floor(s->median * 100 + 0.5) / 100;
    k->measured = true;
    snprintf(k->how, sizeof k->how, "%s %.3g (q1 %.3g, q3 %.3g)", mname(CALIB_WAKE_PREHALT_SHARE), s->median,
             s->q1, s->q3);
    add_dur(p, "wake_prehalt_return", t->median, true, "%s %.4g ns (q1 %.4g, q3 %.4g)",
            mname(CALIB_WAKE_PREHALT_RETURN), t->median, t->q1, t->q3);
}

/* futex_wait_window and futex_wake_race (calib_race.c): the window's and
 * the wake's quantiles, equally likely; not measured (one CPU): not
 * written (the window is then futex_wake_none's, and so is the wake). */
static void race_keys(struct calib_profile *p, const struct calib_result *r)
{
    const struct calib_race *s = &r->race;
    if (!s->measured || s->n <= 0) return;
    struct calib_key *k = add_durs(p, "futex_wait_window", s->window_ns, s->n);
    snprintf(k->how, sizeof k->how, "%s: the quantiles at (i + 1/2) / %d of the way in, equally likely "
             "(%.4g..%.4g ns; median %.4g ns)", mname(CALIB_FUTEX_WAIT_WINDOW), s->n, s->window_ns[0],
             s->window_ns[s->n - 1], r->m[CALIB_FUTEX_WAIT_WINDOW].median);
    k = add_durs(p, "futex_wake_race", s->wake_ns, s->n);
    snprintf(k->how, sizeof k->how, "%s: its quantiles at (i + 1/2) / %d, equally likely (%.4g..%.4g ns; median "
             "%.4g ns)", mname(CALIB_FUTEX_WAKE_RACE), s->n, s->wake_ns[0], s->wake_ns[s->n - 1],
             r->m[CALIB_FUTEX_WAKE_RACE].median);
}

/* cond_wait_section (calib_race.c): the section's quantiles, equally
 * likely; not measured (one CPU, or its median off the grid): not
 * written (the waiter's section is then an instant). */
static void section_keys(struct calib_profile *p, const struct calib_result *r)
{
    const struct calib_race *s = &r->race;
    if (!s->section_measured) return;
    struct calib_key *k = add_durs(p, "cond_wait_section", s->section_ns, CALIB_RACE_LENS);
    snprintf(k->how, sizeof k->how, "%s: the quantiles at (i + 1/2) / %d of the section, equally likely "
             "(%.4g..%.4g ns; median %.4g ns)", mname(CALIB_COND_SECTION), CALIB_RACE_LENS, s->section_ns[0],
             s->section_ns[CALIB_RACE_LENS - 1], r->m[CALIB_COND_SECTION].median);
}

void calib_map(const struct calib_result *r, const struct calib_host *h, struct calib_profile *p)
{
    memset(p, 0, sizeof *p);
    struct calib_key *k = add(p, "cores", CK_INT);
    k->i = r->ncpus_allowed > 0 ? r->ncpus_allowed : h->cpus_allowed;
    snprintf(k->how, sizeof k->how, "CPUs in the affinity mask (%d online)", h->cpus_online);

    dur_or_default(p, "context_switch", r, CALIB_YIELD_SWITCH, CALIB_SYSCALL_GETPID, NONE);
    dur_or_default(p, "futex_wake", r, CALIB_FUTEX_WAKE, NONE, NONE);
    dur_or_default(p, "futex_wake_none", r, CALIB_FUTEX_WAKE_NONE, NONE, NONE);
    race_keys(p, r);
    section_keys(p, r);
    /* the IPI of a wake onto a CPU that idled briefly, as a hand-off's
     * target has (the one-way wake after a 200-600 us pause cost the waker
     * 33 us on an AMD EPYC guest, a wake after 10 us 7-9 us: the host's
     * wake of a vCPU halted longer, paid by the waker; calib_wake.c) */
    if (M(r, CALIB_WAKE_IPI_AFTER_IDLE_10US))
        dur_or_default(p, "wake_ipi", r, CALIB_WAKE_IPI_AFTER_IDLE_10US, CALIB_FUTEX_WAKE, NONE);
    else
        dur_or_default(p, "wake_ipi", r, CALIB_FUTEX_WAKE_REMOTE, CALIB_FUTEX_WAKE, NONE);
    ipi_curve(p, r);
    waking_keys(p, r);
    prehalt_keys(p, r);
    dur_minus_key(p, "futex_wake_chain", r, CALIB_HANDOFF_SAME, "context_switch", mname(CALIB_HANDOFF_SAME));
    dur_or_default(p, "ppoll_wake_extra", r, CALIB_EVENTFD_WAKE_EXTRA, NONE, NONE);
    enum calib_id px = M(r, CALIB_HANDOFF_PPOLL_EXTRA) ? CALIB_EVENTFD_WAKE_EXTRA : CALIB_HANDOFF_PPOLL_EXTRA;
    dur_minus_key(p, "ppoll_return", r, CALIB_HANDOFF_PPOLL_EXTRA, "ppoll_wake_extra", mname(px));
    /* the one-way wake onto a CPU idle 10 us (the base of wake_idle_extra);
     * a ping-pong's hand-off also holds the wakee's return and next wake,
     * and on the AMD guest measured 7.3 us in one run and 11.2 us in
     * another where the one-way wake took 10-12 us */
    dur_or_default(p, "wake_idle_core", r, M(r, CALIB_WAKE_AFTER_IDLE_10US) ? CALIB_WAKE_AFTER_IDLE_10US : CALIB_HANDOFF_CROSS,
                   NONE, NONE);
    /* what the wakee of such a wake is charged: its FUTEX_WAIT's CPU time
     * (the model charges a sleeper on an idle core nothing else: no switch
     * into or out of the idle task); CPU, within the latency above */
    dur_or_default(p, "wake_idle_cpu", r, CALIB_WAKE_IDLE_CPU, NONE, NONE);
    char busy_why[sizeof r->m[0].note + 64];
    snprintf(busy_why, sizeof busy_why, "%s: %s", mname(CALIB_WAKE_BUSY),
             r->m[CALIB_WAKE_BUSY].note[0] ? r->m[CALIB_WAKE_BUSY].note : "no wake ran at once");
    dur_minus_key(p, "wake_busy_core", r, CALIB_WAKE_BUSY, "context_switch", busy_why);

    /* the spread of the wake wake_idle_core is: the same measurement's
     * (wake_after_idle_10us_ns, else the wake after a long pause that the
     * ping-pong's wake_idle_core stood beside).  The long pause's spread
     * (wake_idle_ns, a vCPU halted 200-600 us) was 11% where the 10 us
     * wake's was 3-6% on the AMD EPYC guests of ~10 us wakes: as a share
     * of wake_idle_core it let the model's successor arrive before its
     * waker was back from its call a cycle in five, which a real run's
     * wake does not (docs/validate.md, "The wake's own spread").  And the
     * spread within its rounds, where it has them: the rounds' medians
     * drift with the host (7.5-10.5 us over the 12 rounds of the AMD EPYC
     * guest of 2026-12-07, all samples' IQR 0.37 of the median) while a
     * run's wakes stay close to the minute's (the executor's mtime loop
     * there: 11.7 / 12.6 / 14.2 us at p10 / p50 / p90); the
     * drift is the validate runs' wake probe's to follow, and a spread of
     * 0.37 drew the model's successor first in a fifth of its hand-offs
     * (docs/validate.md, "The wake's drift is not its spread") */
    k = add(p, "wake_jitter", CK_NUM);
    enum calib_id wid = M(r, CALIB_WAKE_AFTER_IDLE_10US) ? CALIB_WAKE_AFTER_IDLE_10US : CALIB_WAKE_IDLE;
    const struct calib_stat *wi = M(r, wid);
    if (wi && (wi->within_spread > 0 || wi->median > 0)) {
        double j;
        if (wi->within_spread > 0) {
            j = wi->within_spread;
            snprintf(k->how, sizeof k->how,
                     "the interquartile range / median of %s's samples, each over its round's median: %.4g "
                     "(all its samples together: (q3 %.4g - q1 %.4g) / median %.4g)", mname(wid), j, wi->q3,
                     wi->q1, wi->median);
        } else {
            j = (wi->q3 - wi->q1) / wi->median;
            snprintf(k->how, sizeof k->how, "(q3 %.4g - q1 %.4g) / median %.4g of %s", wi->q3, wi->q1,
                     wi->median, mname(wid));
        }
        k->num = floor((j > 1 ? 1 : j) * 100 + 0.5) / 100;
        k->measured = true;
    } else {
        k->num = 0.5;
        snprintf(k->how, sizeof k->how, "not measured: the default");
    }

    /* a share, not a choice between two regimes: the model draws each such
     * wake from it, so a kernel that packs some wakes and not others (or a
     * noisy measurement of one that packs all) is reproduced as measured;
     * and the sleep length up to which it applies, when it depends on it */
    k = add(p, "wake_pack", CK_NUM);
    const struct calib_stat *ps = M(r, CALIB_WAKE_PACK_SHORT), *pl = M(r, CALIB_WAKE_PACK_LONG),
                            *pt = M(r, CALIB_WAKE_PACK_SLEEP), *po = M(r, CALIB_WAKE_PACK_OTHER);
    if (ps) {
        k->num = floor(ps->median * 100 + 0.5) / 100;
        k->measured = true;
        snprintf(k->how, sizeof k->how, "%s %.3g (q1 %.3g, q3 %.3g); %s %.3g", mname(CALIB_WAKE_PACK_SHORT),
                 ps->median, ps->q1, ps->q3, mname(CALIB_WAKE_PACK_OTHER), po ? po->median : 0);
    } else {
        k->num = 0;
        snprintf(k->how, sizeof k->how, "not measured (%s): the default",
                 r->m[CALIB_WAKE_PACK_SHORT].note[0] ? r->m[CALIB_WAKE_PACK_SHORT].note : "no samples");
    }
    if (ps && pl && pt && ps->median >= 0.5 && pl->median < 0.5) {
        add_dur(p, "wake_pack_sleep", pt->median, true, "%s %.4g ns (q1 %.4g, q3 %.4g): %s %.3g, %s %.3g",
                mname(CALIB_WAKE_PACK_SLEEP), pt->median, pt->q1, pt->q3, mname(CALIB_WAKE_PACK_SHORT),
                ps->median, mname(CALIB_WAKE_PACK_LONG), pl->median);
    } else if (ps && pl) {
        add_dur(p, "wake_pack_sleep", 0, true, "0 (any sleep): %s %.3g, %s %.3g - no dependence on the sleep",
                mname(CALIB_WAKE_PACK_SHORT), ps->median, mname(CALIB_WAKE_PACK_LONG), pl->median);
    } else {
        add_dur(p, "wake_pack_sleep", 0, false, "not measured: the default (any sleep)");
    }
    /* the load up to which it packs (calib_pack_util.c): written when
     * measured on a packing machine; absent, no limit */
    const struct calib_stat *pu = M(r, CALIB_WAKE_PACK_UTIL);
    if (pu && ps && ps->median > 0) {
        k = add(p, "wake_pack_util", CK_NUM);
        k->num = floor(pu->median * 1000 + 0.5) / 1000;
        k->measured = true;
        snprintf(k->how, sizeof k->how, "%s %.3g (q1 %.3g, q3 %.3g): the waker's and the wakee's recent running "
                 "summed (the wakee's was about 0 there)", mname(CALIB_WAKE_PACK_UTIL), pu->median, pu->q1, pu->q3);
    }

    idle_curve(p, r);

    const char *why;
    k = add(p, "os_scheduler", CK_STR);
    k->str = calib_host_scheduler(h, &why);
    snprintf(k->how, sizeof k->how, "Linux %s: %s", h->kernel, why);

    const struct calib_stat *tp = M(r, CALIB_TICK_PERIOD);
    if (h->config_hz > 0) {
        add_dur(p, "os_tick", 1e9 / h->config_hz, false, "1 / CONFIG_HZ (%d, %s)%s%.4g ns",
                h->config_hz, h->config_from, tp ? "; measured " : "", tp ? tp->median : 0);
    } else if (tp) {
        add_dur(p, "os_tick", tp->median, true, "%s %.4g ns (the kernel's config is not readable)",
                mname(CALIB_TICK_PERIOD), tp->median);
    } else {
        add_dur(p, "os_tick", default_ns("os_tick"), false, "not measured, config not readable: the default");
    }

    const struct calib_stat *ts = M(r, CALIB_TIMESLICE);
    if (strcmp(k->str, "cfs") != 0) {
        long long bs = calib_host_base_slice_ns(h);
        add_dur(p, "os_timeslice", (double)bs, false, "EEVDF's base slice%s%s%.4g ns",
                calib_host_base_slice_from(h),
                ts ? "; a CPU-bound thread sharing its CPU measured runs of " : "", ts ? ts->median : 0);
    } else {
        dur_or_default(p, "os_timeslice", r, CALIB_TIMESLICE, NONE, NONE);
    }

    dur_or_default(p, "timer_tick_cost", r, CALIB_TIMER_WAKE_CPU, NONE, NONE);
    timer_keys(p, r);
    dur_or_default(p, "mutex_uncontended", r, CALIB_MUTEX_UNCONTENDED, NONE, NONE);
    dur_or_default(p, "line_transfer", r, CALIB_LINE_TRANSFER, NONE, NONE);
    dur_or_default(p, "remote_rmw", r, CALIB_LINE_FETCH, NONE, NONE);
    dur_or_default(p, "free_remote", r, CALIB_FREE_REMOTE, CALIB_FREE_OWN, NONE);

    const struct calib_stat *mu = M(r, CALIB_MUTEX_UNCONTENDED), *lt = M(r, CALIB_LINE_TRANSFER),
                            *lf = M(r, CALIB_LINE_FETCH);
    /* a native lock's or condvar's line taken from the other CPU (models/vm_lock.c) */
    dur_or_default(p, "lock_line", r, CALIB_LINE_FETCH, NONE, NONE);
    if (mu && lf)
        add_dur(p, "sched_lock_cs", mu->median + lf->median, true, "%s %.4g ns + %s %.4g ns",
                mname(CALIB_MUTEX_UNCONTENDED), mu->median, mname(CALIB_LINE_FETCH), lf->median);
    else
        add_dur(p, "sched_lock_cs", default_ns("sched_lock_cs"), false, "not measured: the default");

    k = add(p, "line_store_batch", CK_INT);
    const struct calib_stat *sh = M(r, CALIB_INCR_SHARED);
    if (lt && sh && sh->median > 0) {
        double b = 2.0 * lt->median / sh->median;
        k->i = b < 1 ? 1 : (long long)floor(b + 0.5);
        k->measured = true;
        snprintf(k->how, sizeof k->how, "2 x %s %.4g ns / %s %.4g ns = %.3g", mname(CALIB_LINE_TRANSFER),
                 lt->median, mname(CALIB_INCR_SHARED), sh->median, b);
    } else {
        k->i = 1;
        snprintf(k->how, sizeof k->how, "not measured: the default");
    }

    cache_probe_key(p, r);

    dur_or_default(p, "tls_insn_overhead", r, CALIB_INCR_LOCAL, CALIB_BUSY_LOOP, NONE);
    dur_or_default(p, "insn_time", r, CALIB_RUBY_INSN, NONE, NONE);
    dur_or_default(p, "gc_free_body", r, CALIB_RUBY_SWEEP_BODY, NONE, NONE);
    dur_or_default(p, "gc_sweep_per_slot", r, CALIB_RUBY_SWEEP_SLOT, NONE, NONE);
    dur_or_default(p, "gc_mark_base", r, CALIB_RUBY_MARK_BASE, NONE, NONE);
    dur_or_default(p, "gc_mark_per_page", r, CALIB_RUBY_MARK_PAGE, NONE, NONE);
    dur_or_default(p, "gc_mark_per_thread", r, CALIB_RUBY_MARK_THREAD, NONE, NONE);
    dur_or_default(p, "gc_mark_per_object", r, CALIB_RUBY_MARK_OBJECT, NONE, NONE);
    dur_or_default(p, "alloc_object", r, CALIB_RUBY_ALLOC, NONE, NONE);
    dur_or_default(p, "env_escape_work", r, CALIB_RUBY_ESCAPE, NONE, NONE);
    /* gc_cold: what a minor GC costs more after a longer gap since the GC
     * before than after 1 ms (the points (1 ms, 0) and one per
     * longer gap); absent, the model adds nothing */
    rise_curve(p, r, CALIB_RUBY_GC_GAP_1MS, CALIB_GC_GAPS, calib_gc_gap_ns, "gc_cold", true);

    k = add(p, "corun_slowdown", CK_NUM);
    const struct calib_stat *bl = M(r, CALIB_BUSY_LOOP), *bp = M(r, CALIB_BUSY_LOOP_PAIR);
    if (bl && bp && bl->median > 0) {
        double q = bp->median / bl->median;
        k->num = q < 1 ? 1 : floor(q * 100 + 0.5) / 100;
        k->measured = true;
        snprintf(k->how, sizeof k->how, "%s %.4g ns / %s %.4g ns = %.3g", mname(CALIB_BUSY_LOOP_PAIR),
                 bp->median, mname(CALIB_BUSY_LOOP), bl->median, q);
    } else {
        k->num = 1;
        snprintf(k->how, sizeof k->how, "not measured (%s): the default", bp ? "no busy loop" :
                 r->m[CALIB_BUSY_LOOP_PAIR].note[0] ? r->m[CALIB_BUSY_LOOP_PAIR].note : "no pair run");
    }

    k = add(p, "mutex_impl", CK_STR);
    k->str = "glibc";
    snprintf(k->how, sizeof k->how, "the C library (%s)", h->libc);

    steal_keys(p, r);
    speed_keys(p, r);
    syscall_keys(p, r);
    method_work_keys(p, r);
    after_idle_keys(p, r);
}

/* The lists that are one measurement's quantiles (the derivations above:
 * race_keys, waking_keys, steal_keys); test_calib checks that every other
 * measured list is speed_dwell's. */
static const struct {
    const char *key;
    enum calib_id from;
} list_sources[] = {
    { "futex_wait_window", CALIB_FUTEX_WAIT_WINDOW },
    { "futex_wake_race", CALIB_FUTEX_WAKE_RACE },
    { "cond_wait_section", CALIB_COND_SECTION },
    { "wake_waking", CALIB_WAKE_WAKING },
    { "hidden_steal_len", CALIB_STEAL_LEN },
};

static int list_index(const char *name)
{
    for (int i = 0; i < (int)(sizeof list_sources / sizeof list_sources[0]); i++)
        if (!strcmp(list_sources[i].key, name)) return i;
    return -1;
}

int calib_list_source(const char *name)
{
    int i = list_index(name);
    return i < 0 ? -1 : (int)list_sources[i].from;
}

bool calib_list_scaled(const char *name, const sim_time *y, int n, double factor, struct calib_key *out)
{
    int i = list_index(name);
    if (i < 0 || n < 1 || n > GV_CURVE_MAX) return false;
    memset(out, 0, sizeof *out);
    out->name = list_sources[i].key;
    out->kind = CK_DURS;
    out->measured = true;
    for (int j = 0; j < n; j++) out->curve.y[out->curve.n++] = ns3((double)y[j] / 1000.0 * factor);
    return true;
}

const struct calib_key *calib_profile_key(const struct calib_profile *p, const char *name)
{
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->k[i].name, name)) return &p->k[i];
    return NULL;
}

void calib_key_value(const struct calib_key *k, char *buf, size_t size)
{
    switch (k->kind) {
    case CK_DUR: units_format(k->dur, buf, size); break;
    case CK_INT: snprintf(buf, size, "%lld", k->i); break;
    case CK_NUM: snprintf(buf, size, "%g", k->num); break;
    case CK_NUMS: {
        size_t used = (size_t)snprintf(buf, size, "[");
        for (int i = 0; i < k->nnums && used < size; i++)
            used += (size_t)snprintf(buf + used, size - used, "%s%g", i ? ", " : "", k->nums[i]);
        if (used < size) snprintf(buf + used, size - used, "]");
        break;
    }
    case CK_STR: snprintf(buf, size, "%s", k->str); break;
    case CK_DURS: {
        size_t used = (size_t)snprintf(buf, size, "[");
        for (int i = 0; i < k->curve.n && used < size; i++) {
            char y[32];
            units_format(k->curve.y[i], y, sizeof y);
            used += (size_t)snprintf(buf + used, size - used, "%s\"%s\"", i ? ", " : "", y);
        }
        if (used < size) snprintf(buf + used, size - used, "]");
        break;
    }
    case CK_CURVE: {
        size_t used = (size_t)snprintf(buf, size, "[");
        for (int i = 0; i < k->curve.n && used < size; i++) {
            char x[32], y[32];
            units_format(k->curve.x[i], x, sizeof x);
            units_format(k->curve.y[i], y, sizeof y);
            used += (size_t)snprintf(buf + used, size - used, "%s[\"%s\", \"%s\"]", i ? ", " : "", x, y);
        }
        if (used < size) snprintf(buf + used, size - used, "]");
        break;
    }
    }
}
