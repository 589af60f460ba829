/* calib_pack.c - wake placement: is a woken thread kept on its waker's busy
 * CPU, or sent to the idle one - and does that depend on how long it slept?
 *
 * The wakee may run on both CPUs; the waker stays on the first.  Before each
 * sample the wakee runs on the CPU it is to have last run on (its affinity
 * set to that CPU alone, then back to both) and goes to sleep; the waker
 * spins until the wakee has slept the sample's length (its CPU busy, as a
 * GVL holder's is), wakes it, and spins PACK_AFTER_NS more - longer than a
 * wake onto the idle CPU takes, so that a wakee sent there runs there while
 * the waker still holds its own CPU.  The wakee notes sched_getcpu() once
 * running, then waits for the waker to be done.
 *
 * Linux's select_idle_sibling takes the wakee's previous CPU when it is
 * idle, else an idle one: a wakee that last ran on the waker's CPU goes to
 * the idle CPU whatever it slept.  A kernel that packs wakes onto busy
 * vCPUs keeps it behind its waker; this repository's 2-vCPU guest (its
 * command line sets the non-mainline `sched_vcpu_pack`) did so after sleeps
 * of up to about 300 us and seldom after 0.5 ms or more.  So each round
 * bisects the sleep length over a grid (PACK_GRID, a factor sqrt 2 apart):
 * PACK_PROBE samples at a length, the majority decides on which side the
 * threshold lies.  The round also takes samples at the grid's shortest and
 * longest sleeps (the shares below and above) and, with the wakee last run
 * on the other, idle CPU, at a length drawn from the grid.
 *
 * A sample counts only if (1) the waker kept its CPU through its spins but
 * for the wakee's short run (its CPU-time clock against the wall clock:
 * otherwise another task shared the waker's CPU), and (2) the other CPU
 * idled throughout - a busy CPU is no idle CPU to place a wakee on, on any
 * kernel.  The waker reads that CPU's idle statistics (cpuidle's per-state
 * residency and entry counts in sysfs) before the sleep, without waking it;
 * after the wakee ran, a sentinel thread pinned there reads them again
 * (waking the CPU ends its idle period, which cpuidle then accounts).  One
 * idle exit in between (two if the wakee went there), and idle time short
 * of the sample's length by at most PACK_BUSY_NS (the wakee's run, the
 * sentinel's): nothing else ran there.  The CPU then idles PACK_REST_NS
 * before the next sample, so that the sentinel's wake-up is no recent
 * activity of the CPU the next wakee may be sent to.  Without cpuidle
 * statistics (no cpuidle driver) the second check is skipped and the note
 * says so.
 */
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/err.h"
#include "calib_int.h"

#define PACK_AFTER_NS 50000
#define PACK_LOST_NS 20000     /* more CPU lost by the waker: another task ran on its CPU */
#define PACK_BUSY_NS 60000     /* more run on the other CPU: another task ran there */
#define PACK_PROBE 3           /* samples per bisection step (a majority decides) */
#define PACK_ENDS 3            /* samples at the shortest and at the longest sleep, per round */
#define PACK_OTHER 2           /* samples with the wakee last on the other CPU, per round */
#define PACK_TRIES 8           /* attempts per wanted sample before a round is given up */
#define PACK_STATES 8          /* cpuidle states read */
#define PACK_REST_NS 2000000   /* after a sample: the other CPU idles again before the next one */

/* Sleep lengths, us: 80 x sqrt(2)^i (shorter ones are not kept short: the
 * sentinel's read before the sleep wakes an idle CPU, 20-50 us). */
static const int pack_grid_us[] = { 80, 113, 160, 226, 320, 453, 640, 905, 1280, 1810, 2560 };
#define PACK_NGRID ((int)(sizeof pack_grid_us / sizeof pack_grid_us[0]))


/* ---- the other CPU's idle time ------------------------------------------- */

struct idle_reader {
    int fd[PACK_STATES][2];  /* each state's residency ("time", us) and entries ("usage") */
    int n;
};

static void idle_open(struct idle_reader *ir, int cpu)
{
    static const char *const files[2] = { "time", "usage" };
    ir->n = 0;
    for (int s = 0; s < PACK_STATES; s++) {
        int fd[2];
        for (int f = 0; f < 2; f++) {
            char path[96];
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/%s", cpu, s, files[f]);
            fd[f] = open(path, O_RDONLY | O_CLOEXEC);
        }
        if (fd[0] < 0 || fd[1] < 0) {
            for (int f = 0; f < 2; f++)
                if (fd[f] >= 0) close(fd[f]);
            break;
        }
        ir->fd[ir->n][0] = fd[0];
        ir->fd[ir->n][1] = fd[1];
        ir->n++;
    }
}

static void idle_close(struct idle_reader *ir)
{
    for (int i = 0; i < ir->n; i++)
        for (int f = 0; f < 2; f++) close(ir->fd[i][f]);
    ir->n = 0;
}

static long long read_num(int fd)
{
    char buf[32];
    ssize_t k = pread(fd, buf, sizeof buf - 1, 0);
    if (k <= 0) return -1;
    buf[k] = '\0';
    return atoll(buf);
}

/* The CPU's idle residency (us) and idle entries, summed over its states;
 * false on an error.  cpuidle accounts an idle period when it ends: read
 * from another CPU, the period under way is not in it yet. */
static bool idle_read(const struct idle_reader *ir, long long *us, long long *entries)
{
    *us = *entries = 0;
    for (int i = 0; i < ir->n; i++) {
        long long t = read_num(ir->fd[i][0]), u = read_num(ir->fd[i][1]);
        if (t < 0 || u < 0) return false;
        *us += t;
        *entries += u;
    }
    return true;
}

/* ---- threads --------------------------------------------------------------- */

struct packer {
    atomic_int word;       /* 0: sleep; 1: woken */
    atomic_int asleep;     /* the wakee's sample number once it is about to sleep; -1: quit */
    atomic_int ran;        /* the sample number once it ran after the wake */
    atomic_int go;         /* the sample number the waker is done with */
    atomic_int home;       /* the CPU to have run on before sleeping; -1: quit */
    atomic_llong slept_at; /* when it went to sleep (monotonic ns) */
    int cpus[2];
    int last_cpu, cpu;     /* where it ran before sleeping, and after the wake */
    /* the sentinel on the other CPU */
    atomic_int ping, pong; /* ping = n: read; pong = n: done (ping -1: quit) */
    struct idle_reader ir;
    long long s_idle_us, s_entries, s_at_ns;
    bool s_ok;
};

static void *packer_thread(void *arg)
{
    struct packer *p = arg;
    for (int n = 1;; n++) {
        int home = atomic_load(&p->home);
        if (home < 0) {
            atomic_store(&p->asleep, -1);
            return NULL;
        }
        calib_allow(home, -1);          /* run there (a migration if needed) */
        calib_allow(p->cpus[0], p->cpus[1]);
        p->last_cpu = sched_getcpu();
        atomic_store(&p->slept_at, calib_now_ns());
        atomic_store(&p->asleep, n);
        calib_futex_wait(&p->word, 0);
        p->cpu = sched_getcpu();
        atomic_store(&p->word, 0);
        atomic_store(&p->ran, n);
        calib_futex_wait(&p->go, n - 1);  /* not on the waker's CPU during its spin */
    }
}

static void *sentinel_thread(void *arg)
{
    struct packer *p = arg;
    for (int n = 1;; n++) {
        int v;
        while ((v = atomic_load(&p->ping)) != n && v >= 0) calib_futex_wait(&p->ping, v);
        if (v < 0) return NULL;
        p->s_ok = idle_read(&p->ir, &p->s_idle_us, &p->s_entries);
        p->s_at_ns = calib_now_ns();
        atomic_store(&p->pong, n);
    }
}

/* Wake the sentinel (the other CPU leaves idle, which accounts its idle
 * time); spins for its answer, so that the waker's CPU stays busy. */
static bool sentinel_read(struct packer *p, int n, long long *idle, long long *entries, long long *at)
{
    atomic_store(&p->ping, n);
    calib_futex_wake(&p->ping, 1);
    while (atomic_load(&p->pong) != n) {
    }
    *idle = p->s_idle_us;
    *entries = p->s_entries;
    *at = p->s_at_ns;
    return p->s_ok;
}

/* ---- samples ----------------------------------------------------------------- */

struct pack_run {
    struct calib_ctx *c;
    struct packer p;
    int n;                 /* samples started */
    int ping;              /* sentinel reads */
    bool idle_checked;
    long long hard_end;    /* ns: no more samples after it */
    int counted, busy, lost, late;  /* samples counted; dropped: the other CPU busy, the waker's
                                     * CPU shared, slept too long (and a probe's first sample after
                                     * one with the other home, which did not start there) */
    unsigned long long rnd;
};

/* A sample dropped before its wake: wake the wakee and let it go home. */
static int pack_skip(struct pack_run *pr, int n)
{
    struct packer *p = &pr->p;
    atomic_store(&p->word, 1);
    calib_futex_wake(&p->word, 1);
    while (atomic_load(&p->ran) != n) calib_nap_ns(10000);
    atomic_store(&p->go, n);
    calib_futex_wake(&p->go, 1);
    return -1;
}

/* One sample: the wakee, last run on `home`, sleeps sleep_us and is woken.
 * Returns -1 if dropped, else 1 if it ran on the waker's CPU, 0 if not.
 * The next sample's wakee goes home to next_home. */
static int pack_one(struct pack_run *pr, int home, int next_home, int sleep_us)
{
    struct packer *p = &pr->p;
    struct calib_ctx *c = pr->c;
    int n = ++pr->n;
    while (atomic_load(&p->asleep) != n) calib_nap_ns(10000);
    int last = p->last_cpu;
    atomic_store(&p->home, next_home);
    /* the other CPU's idle statistics, read from here: it is not woken */
    long long idle0 = 0, ent0 = 0, idle1 = 0, ent1 = 0, at1 = 0;
    bool idle_ok = pr->idle_checked && idle_read(&p->ir, &idle0, &ent0);
    long long w0 = calib_now_ns(), c0 = calib_thread_cpu_ns();
    long long wake_at = atomic_load(&p->slept_at) + (long long)sleep_us * 1000;
    if (calib_now_ns() > wake_at + (long long)sleep_us * 250) {  /* slept too long */
        pr->late++;
        return pack_skip(pr, n);
    }
    while (calib_now_ns() < wake_at) {
    }
    atomic_store(&p->word, 1);
    int woken = calib_futex_wake(&p->word, 1);
    calib_spin_ns(PACK_AFTER_NS);
    long long lost = (calib_now_ns() - w0) - (calib_thread_cpu_ns() - c0);
    while (atomic_load(&p->ran) != n) calib_nap_ns(10000);
    if (pr->idle_checked) idle_ok = sentinel_read(p, ++pr->ping, &idle1, &ent1, &at1) && idle_ok;
    atomic_store(&p->go, n);
    calib_futex_wake(&p->go, 1);
    calib_nap_ns(PACK_REST_NS);
    if (last != (home == 0 ? c->cpu0 : c->cpu1)) return -1;
    if (woken != 1 || lost > PACK_LOST_NS) {
        pr->lost++;
        return -1;
    }
    /* idle throughout: one idle period over the whole sample (it ended when
     * the sentinel ran), or two if the wakee went there (none between if
     * the sentinel found it still running); more means another task ran
     * there, and so does idle time short of the sample's length */
    bool went = p->cpu != c->cpu0;
    long long exits = ent1 - ent0;
    if (pr->idle_checked && (!idle_ok || exits < 1 || exits > (went ? 2 : 1) ||
                             (at1 - w0) - (idle1 - idle0) * 1000 > PACK_BUSY_NS)) {
        pr->busy++;
        return -1;
    }
    pr->counted++;
    return p->cpu == c->cpu0;
}

/* `want` counted samples at sleep_us, the wakee last on CPU `home` (0: the
 * waker's, 1: the other): how many ran on the waker's CPU, or -1 if too
 * few samples counted (the other CPU kept busy, the budget spent). */
static int pack_probe(struct pack_run *pr, int home, int sleep_us, int want)
{
    int kept = 0, got = 0;
    for (int t = 0; got < want && t < want * PACK_TRIES; t++) {
        if (calib_now_ns() > pr->hard_end) break;
        /* the wakee goes home for the next sample (its home is set one
         * sample ahead: it moves there while the waker is done) */
        int r = pack_one(pr, home, home == 0 ? pr->c->cpu0 : pr->c->cpu1, sleep_us);
        if (r < 0) continue;
        got++;
        kept += r;
    }
    return got == want ? kept : -1;
}

/* One round: the shares at both ends of the grid, the other-CPU share, and
 * the bisected threshold (us).  false if a probe came out short. */
static bool pack_round(struct pack_run *pr, double *short_share, double *long_share, double *other_share,
                       double *threshold_us)
{
    int lo = -1, hi = PACK_NGRID;  /* virtual ends: stays at lo, goes at hi */
    int k = pack_probe(pr, 0, pack_grid_us[0], PACK_ENDS);
    if (k < 0) return false;
    *short_share = (double)k / PACK_ENDS;
    k = pack_probe(pr, 0, pack_grid_us[PACK_NGRID - 1], PACK_ENDS);
    if (k < 0) return false;
    *long_share = (double)k / PACK_ENDS;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        k = pack_probe(pr, 0, pack_grid_us[mid], PACK_PROBE);
        if (k < 0) return false;
        if (2 * k > PACK_PROBE) lo = mid;
        else hi = mid;
    }
    double a = lo < 0 ? pack_grid_us[0] / M_SQRT2 : pack_grid_us[lo];
    double b = hi >= PACK_NGRID ? pack_grid_us[PACK_NGRID - 1] * M_SQRT2 : pack_grid_us[hi];
    *threshold_us = sqrt(a * b);
    /* home = the other CPU: the sample before it sends the wakee there */
    k = pack_probe(pr, 1, pack_grid_us[calib_rand(&pr->rnd) % PACK_NGRID], PACK_OTHER);
    if (k < 0) return false;
    *other_share = (double)k / PACK_OTHER;
    return true;
}

static void skip_all(struct calib_ctx *c, const enum calib_id *ids, int n, const char *why)
{
    for (int i = 0; i < n; i++) {
        calib_skip(&c->r->m[ids[i]], why);
        calib_done(c, ids[i]);
    }
}

void calib_bench_pack(struct calib_ctx *c)
{
    static const enum calib_id ids[4] = { CALIB_WAKE_PACK_SHORT, CALIB_WAKE_PACK_LONG, CALIB_WAKE_PACK_SLEEP,
                                          CALIB_WAKE_PACK_OTHER };
    if (c->cpu1 < 0) {
        skip_all(c, ids, 4, "needs two CPUs");
        return;
    }
    struct pack_run *pr = calloc(1, sizeof *pr);
    if (!pr) {
        skip_all(c, ids, 4, "out of memory");
        return;
    }
    pr->c = c;
    pr->rnd = 0x2545f4914f6cdd1dull;
    struct packer *p = &pr->p;
    p->cpus[0] = c->cpu0;
    p->cpus[1] = c->cpu1;
    atomic_store(&p->home, c->cpu0);
    idle_open(&p->ir, c->cpu1);
    long long u0, e0;
    pr->idle_checked = p->ir.n > 0 && idle_read(&p->ir, &u0, &e0);
    pthread_t t, ts;
    if (calib_thread_start(c, &t, c->cpu0, packer_thread, p) != GV_OK) {
        skip_all(c, ids, 4, c->err);
        c->err[0] = '\0';
        idle_close(&p->ir);
        free(pr);
        return;
    }
    bool sentinel = pr->idle_checked && calib_thread_start(c, &ts, c->cpu1, sentinel_thread, p) == GV_OK;
    if (pr->idle_checked && !sentinel) {
        c->err[0] = '\0';
        pr->idle_checked = false;
    }
    struct calib_series sh = { 0 }, lg = { 0 }, th = { 0 }, ot = { 0 };
    struct calib_loop l;
    double budget = calib_budget(c, 4.0);
    calib_loop_start(&l, budget, c->min_rounds, 400, c->o->max_spread);
    pr->hard_end = calib_now_ns() + (long long)(2 * budget * 1e9);
    int tried = 0;
    for (;;) {
        double s, lo, o, thr;
        tried++;
        if (pack_round(pr, &s, &lo, &o, &thr)) {
            calib_series_add(&sh, s);
            calib_series_add(&lg, lo);
            calib_series_add(&ot, o);
            calib_series_add(&th, thr * 1000);
            if (!calib_loop_more(&l, thr)) break;
        } else if ((double)calib_now_ns() * 1e-9 >= l.t_end) {
            break;  /* the budget spent on rounds the load spoiled */
        }
        if (calib_now_ns() > pr->hard_end) break;
    }
    /* stop the wakee: its next home is "quit" */
    atomic_store(&p->home, -1);
    int n = pr->n;
    atomic_store(&p->go, n);
    calib_futex_wake(&p->go, 1);
    int a;
    while ((a = atomic_load(&p->asleep)) != n + 1 && a != -1) calib_nap_ns(10000);
    if (a == n + 1) {  /* it read the last sample's home: wake it to quit */
        atomic_store(&p->word, 1);
        calib_futex_wake(&p->word, 1);
        atomic_store(&p->go, n + 1);
        calib_futex_wake(&p->go, 1);
    }
    pthread_join(t, NULL);
    if (sentinel) {
        atomic_store(&p->ping, -1);
        calib_futex_wake(&p->ping, 1);
        pthread_join(ts, NULL);
    }
    idle_close(&p->ir);
    struct calib_series *ser[4] = { &sh, &lg, &th, &ot };
    for (int i = 0; i < 4; i++) {
        struct calib_stat *st = &c->r->m[ids[i]];
        calib_series_stat(ser[i], st);
        if (i == 0) {
            calib_loop_end(&l, st);
        } else {
            calib_stat_rounds_of(st, &c->r->m[ids[0]]);
        }
        int dropped = pr->busy + pr->lost + pr->late;
        if (!st->measured)
            snprintf(st->note, sizeof st->note, "no round of %d complete: %d samples counted, %d dropped (the other "
                     "CPU busy %d, the waker's shared %d, slept too long %d); measure on a quiet machine", tried,
                     pr->counted, dropped, pr->busy, pr->lost, pr->late);
        else if (!pr->idle_checked)
            snprintf(st->note, sizeof st->note, "the other CPU's idleness not checked (no cpuidle statistics)");
        else if (dropped)
            snprintf(st->note, sizeof st->note, "%d samples counted, %d dropped (the other CPU busy %d, the "
                     "waker's shared %d, slept too long %d)", pr->counted, dropped, pr->busy, pr->lost, pr->late);
        calib_series_free(ser[i]);
    }
    free(pr);
    for (int i = 0; i < 4; i++) calib_done(c, ids[i]);
}
