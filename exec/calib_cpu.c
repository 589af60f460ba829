/* calib_cpu.c - benchmarks of CPU work, locks, system calls, the cache
 * line, and what the kernel does to a CPU-bound thread (tick, time slice).
 *
 * Costs of one thread are timed on its CPU-time clock (a preemption by
 * another process does not count); costs involving two threads on the wall
 * clock, both threads pinned.  Every benchmark is a round function run by
 * the calib_loop until its rounds agree.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/err.h"
#include "calib_int.h"
#include "exec_work.h"

/* ---- one thread, CPU-time clock ------------------------------------------ */

/* How Ruby's File.write opens its file (mode "w": rb_sysopen with O_WRONLY |
 * O_CREAT | O_TRUNC, and O_CLOEXEC on every fd it makes). */
#define FILE_WRITE_FLAGS (O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC)

enum op_kind { OP_SPIN, OP_INCR_LOCAL, OP_MUTEX, OP_GETPID, OP_FUTEX_WAKE_NONE, OP_STAT, OP_WRITE, OP_FILE_WRITE };

struct op_ctx {
    enum op_kind kind;
    const char *stat_path;
    int devnull;
    pthread_mutex_t mu;
    uint32_t futex_word;  /* nobody ever waits on it */
    uint64_t x;
};

static void op_run(struct op_ctx *o, uint64_t n)
{
    struct stat st;
    switch (o->kind) {
    case OP_SPIN: o->x = exec_spin(n, o->x); break;
    case OP_INCR_LOCAL: o->x = exec_insns(COUNTER_THREAD_LOCAL, NULL, n, o->x); break;
    case OP_MUTEX:
        for (uint64_t i = 0; i < n; i++) {
            pthread_mutex_lock(&o->mu);
            pthread_mutex_unlock(&o->mu);
        }
        break;
    case OP_GETPID:
        for (uint64_t i = 0; i < n; i++) o->x += (uint64_t)syscall(SYS_getpid);
        break;
    case OP_FUTEX_WAKE_NONE:
        /* what glibc's pthread_cond_signal costs when its waiter has not
         * reached FUTEX_WAIT yet (it makes the FUTEX_WAKE whenever a waiter
         * is registered, nptl pthread_cond_signal.c), and lll_unlock when
         * the word was 2 but the sleeper has gone: a futex hash lookup that
         * finds nobody */
        for (uint64_t i = 0; i < n; i++)
            o->x += (uint64_t)syscall(SYS_futex, &o->futex_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        break;
    case OP_STAT:
        for (uint64_t i = 0; i < n; i++) o->x += (uint64_t)stat(o->stat_path, &st);
        break;
    case OP_WRITE:
        for (uint64_t i = 0; i < n; i++) o->x += (uint64_t)write(o->devnull, "0", 1);
        break;
    case OP_FILE_WRITE:
        for (uint64_t i = 0; i < n; i++) {
            int fd = open("/dev/null", FILE_WRITE_FLAGS, 0666);
            if (fd < 0) continue;
            o->x += (uint64_t)write(fd, "0", 1);
            close(fd);
        }
        break;
    }
    exec_consume(o->x);
}

static double median_of(const double *v, int n)
{
    double med, q1, q3;
    calib_summarise(v, n, &med, &q1, &q3);
    return med;
}

/* How many operations make a sample of about sample_ns on the CPU-time
 * clock: 16, 64, ... until a run takes a quarter of it, then scaled. */
static uint64_t sample_ops(struct op_ctx *o, long long sample_ns)
{
    uint64_t n = 16;
    for (;;) {
        long long t = calib_thread_cpu_ns();
        op_run(o, n);
        long long dt = calib_thread_cpu_ns() - t;
        if (dt >= sample_ns / 4 || n >= (1ull << 40))
            return (uint64_t)((double)n * (double)sample_ns / (double)(dt > 0 ? dt : 1)) + 1;
        n *= 4;
    }
}

/* ns per operation on the CPU-time clock: rounds of 9 samples of ~200 us each. */
static void bench_op(struct calib_ctx *c, enum calib_id id, enum op_kind kind, double full_s)
{
    struct calib_stat *st = &c->r->m[id];
    struct op_ctx o;
    memset(&o, 0, sizeof o);
    o.kind = kind;
    o.x = 1;
    o.stat_path = c->o->stat_path;
    o.devnull = -1;
    pthread_mutex_init(&o.mu, NULL);
    if (kind == OP_WRITE && (o.devnull = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0) {
        calib_skip(st, "cannot open /dev/null");
        calib_done(c, id);
        return;
    }
    uint64_t n = sample_ops(&o, 200000);  /* a sample of ~200 us */
    struct calib_series all = { 0 };
    struct calib_loop l;
    calib_loop_start(&l, calib_budget(c, full_s), c->min_rounds, 200, c->o->max_spread);
    double round[9];
    do {
        for (int i = 0; i < 9; i++) {
            long long t = calib_thread_cpu_ns();
            op_run(&o, n);
            round[i] = (double)(calib_thread_cpu_ns() - t) / (double)n;
            calib_series_add(&all, round[i]);
        }
    } while (calib_loop_more(&l, median_of(round, 9)));
    calib_series_stat(&all, st);
    calib_loop_end(&l, st);
    calib_series_free(&all);
    if (o.devnull >= 0) close(o.devnull);
    pthread_mutex_destroy(&o.mu);
    calib_done(c, id);
}

/* ns per stat(2) of the benchmark's file (syscall true) or per open +
 * write + close of /dev/null (false), the median of n samples of about
 * sample_ns each on the CPU-time clock: the C side of a Ruby method's extra
 * (calib_ruby.c), sampled right after it. */
double calib_syscall_sample_ns(struct calib_ctx *c, bool stat_call, int n, long long sample_ns)
{
    struct op_ctx o;
    memset(&o, 0, sizeof o);
    o.kind = stat_call ? OP_STAT : OP_FILE_WRITE;
    o.x = 1;
    o.stat_path = c->o->stat_path;
    uint64_t k = sample_ops(&o, sample_ns);
    double s[32];
    if (n > 32) n = 32;
    if (n < 1) n = 1;
    for (int i = 0; i < n; i++) {
        long long t = calib_thread_cpu_ns();
        op_run(&o, k);
        s[i] = (double)(calib_thread_cpu_ns() - t) / (double)k;
    }
    return median_of(s, n);
}

/* open(2) and close(2) apart: neither can be looped alone (the fds run out,
 * or there is nothing to close), so each sample opens a batch of fds and
 * then closes them, timing the two halves on the CPU-time clock; one clock
 * read falls in each half (a batch of OPEN_BATCH makes it a share of a
 * call's time below 1/OPEN_BATCH of a read).  A sample is `n` batches
 * (about 200 us); open and close are two kinds of one calib_kinds, the
 * open's round medians deciding when to stop. */
#define OPEN_BATCH 64

static int open_close_batches(uint64_t n, double *open_ns, double *close_ns)
{
    int fds[OPEN_BATCH];
    long long to = 0, tc = 0;
    for (uint64_t b = 0; b < n; b++) {
        long long t0 = calib_thread_cpu_ns();
        for (int i = 0; i < OPEN_BATCH; i++) fds[i] = open("/dev/null", FILE_WRITE_FLAGS, 0666);
        long long t1 = calib_thread_cpu_ns();
        for (int i = 0; i < OPEN_BATCH; i++) close(fds[i]);
        long long t2 = calib_thread_cpu_ns();
        for (int i = 0; i < OPEN_BATCH; i++)
            if (fds[i] < 0) return -1;
        to += t1 - t0;
        tc += t2 - t1;
    }
    *open_ns = (double)to / (double)(n * OPEN_BATCH);
    *close_ns = (double)tc / (double)(n * OPEN_BATCH);
    return 0;
}

static void bench_open_close(struct calib_ctx *c, double full_s)
{
    static const enum calib_id ids[2] = { CALIB_SYSCALL_OPEN, CALIB_SYSCALL_CLOSE };
    double o, cl;
    /* size a sample at ~200 us */
    uint64_t n = 1;
    for (;;) {
        long long t = calib_thread_cpu_ns();
        if (open_close_batches(n, &o, &cl) != 0) {
            calib_skip_ids(c, ids, 2, "cannot open /dev/null");
            return;
        }
        long long dt = calib_thread_cpu_ns() - t;
        if (dt >= 50000 || n >= (1ull << 30)) {
            n = (uint64_t)((double)n * 200000.0 / (double)(dt > 0 ? dt : 1)) + 1;
            break;
        }
        n *= 4;
    }
    struct calib_kinds k;
    calib_kinds_start(&k, c, ids, 2, 0, full_s, c->min_rounds);
    bool ok = true;
    do {
        for (int i = 0; i < 9 && ok; i++) {
            if (!(ok = open_close_batches(n, &o, &cl) == 0)) break;
            calib_kinds_add(&k, 0, o);
            calib_kinds_add(&k, 1, cl);
        }
    } while (ok && calib_kinds_round_end(&k));
    calib_kinds_end(&k, c);
}

/* ---- two CPUs ------------------------------------------------------------- */

#define FETCH_LINES 16
#define FETCH_STRIDE 4096

struct pair {
    atomic_int go;         /* generation to run; -1: quit */
    atomic_int done;       /* last generation the other thread finished */
    uint64_t n;            /* iterations each */
    long long t_start, t_end[2];
    pthread_mutex_t mu;
    struct exec_shared_counter *shared;
    _Alignas(64) atomic_uint_fast64_t ball;   /* the line-transfer ping-pong */
    _Alignas(64) atomic_uint_fast64_t turn;   /* kind 4: whose turn (1: the other thread's) */
    unsigned char *fetch;  /* kind 4's lines, a page apart */
    int kind;              /* 0 mutex, 1 shared increments, 2 ping-pong, 3 busy loops, 4 line fetches */
    long long cpu_ns[2];   /* kind 3: each side's CPU time in its loop; kind 4: the remote and own adds' wall ns */
};

static atomic_uint_fast64_t *fetch_line(struct pair *p, int i)
{
    return (atomic_uint_fast64_t *)(void *)(p->fetch + (size_t)i * FETCH_STRIDE);
}

/* kind 4: one locked add on each of the lines, one after another; each
 * line's address depends on the value the add before it returned (always
 * 0 here, which the compiler cannot know), so that the core cannot start
 * the next line's request before the previous add has its line, and the
 * lines are a page apart, taken in a scattered order, so that no
 * prefetcher brings the next one early: the adds' wall time is
 * FETCH_LINES whole fetches, not overlapped ones.  (With the lines next
 * to each other, taken in order, a quick run on an AMD EPYC guest gave
 * 88 ns where a single timed add gave 130.) */
static uint64_t fetch_chain(struct pair *p)
{
    uint64_t old = 0;
    int i = 0;
    for (int k = 0; k < FETCH_LINES; k++) {
        old = atomic_fetch_add_explicit(fetch_line(p, i), 1, memory_order_relaxed);
        i = ((k + 1) * 7 + (int)(old >> 62)) % FETCH_LINES;
    }
    return old;
}

/* A spin-wait's step: after many spins, yield the CPU.  On real CPUs the
 * other side answers in well under a microsecond and this never yields;
 * under a serialising tool (valgrind runs one thread at a time) the spinner
 * would hold the CPU for its whole time slice on every turn. */
static inline void spin_step(unsigned *spins)
{
    if (++*spins >= (1u << 16)) {
        *spins = 0;
        sched_yield();
    }
}

static void pair_work(struct pair *p, int who)
{
    uint64_t x = (uint64_t)who + 1;
    switch (p->kind) {
    case 0:
        for (uint64_t i = 0; i < p->n; i++) {
            pthread_mutex_lock(&p->mu);
            x++;
            pthread_mutex_unlock(&p->mu);
        }
        break;
    case 1: x = exec_insns(COUNTER_SHARED, p->shared, p->n, x); break;
    case 3: {
        long long t = calib_thread_cpu_ns();
        x = exec_spin(p->n, x);
        p->cpu_ns[who] = calib_thread_cpu_ns() - t;
        break;
    }
    case 4:
        /* The other thread stores to every line, then passes the turn on a
         * line of its own and keeps away from them; this one times its
         * adds on them (each line comes from the other CPU's cache), then
         * the same adds again (the lines now here): what a fetch adds. */
        for (uint64_t i = 0; i < p->n; i++) {
            unsigned spins = 0;
            while (atomic_load_explicit(&p->turn, memory_order_acquire) != (uint64_t)(who == 0 ? 0 : 1))
                spin_step(&spins);
            if (who == 1) {
                for (int k = 0; k < FETCH_LINES; k++) atomic_store_explicit(fetch_line(p, k), i, memory_order_relaxed);
            } else {
                long long t0 = calib_now_ns();
                x += fetch_chain(p);
                long long t1 = calib_now_ns();
                x += fetch_chain(p);
                long long t2 = calib_now_ns();
                p->cpu_ns[0] += t1 - t0;
                p->cpu_ns[1] += t2 - t1;
            }
            atomic_store_explicit(&p->turn, who == 0 ? 1 : 0, memory_order_release);
        }
        break;
    case 2:
        for (uint64_t i = 0; i < p->n; i++) {
            while ((atomic_load_explicit(&p->ball, memory_order_acquire) & 1) != (uint64_t)who) {
            }
            atomic_fetch_add_explicit(&p->ball, 1, memory_order_acq_rel);
        }
        break;
    }
    exec_consume(x);
}

static void *pair_thread(void *arg)
{
    struct pair *p = arg;
    int seen = 0;
    for (;;) {
        int g;
        unsigned spins = 0;
        while ((g = atomic_load(&p->go)) == seen) spin_step(&spins);
        if (g < 0) return NULL;
        seen = g;
        pair_work(p, 1);
        p->t_end[1] = calib_now_ns();
        atomic_store(&p->done, g);
    }
}

/* One run of both sides (generation go + 1); returns the wall ns until
 * both ended. */
static long long pair_round(struct pair *p)
{
    atomic_store(&p->ball, 0);
    atomic_store(&p->turn, 1);  /* kind 4: the other thread stores first */
    p->cpu_ns[0] = p->cpu_ns[1] = 0;
    int g = atomic_load(&p->go) + 1;
    p->t_start = calib_now_ns();
    atomic_store(&p->go, g);
    pair_work(p, 0);
    p->t_end[0] = calib_now_ns();
    unsigned spins = 0;
    while (atomic_load(&p->done) != g) spin_step(&spins);
    long long end = p->t_end[0] > p->t_end[1] ? p->t_end[0] : p->t_end[1];
    return end - p->t_start;
}

/* One round: ns per mutex pair, per increment per CPU, or per ball move. */
static int pair_sample(struct calib_ctx *c, void *ctx, double *v)
{
    (void)c;
    struct pair *p = ctx;
    double per = p->kind == 1 ? (double)p->n : 2.0 * (double)p->n;
    long long wall = pair_round(p);
    /* kind 3: CPU time, so that another process taking one side's CPU for
     * a while does not count (only the overlap of the two loops does) */
    if (p->kind == 4)
        *v = (double)(p->cpu_ns[0] - p->cpu_ns[1]) / ((double)p->n * FETCH_LINES);
    else
        *v = p->kind == 3 ? (double)(p->cpu_ns[0] + p->cpu_ns[1]) / per : (double)wall / per;
    return GV_OK;
}

/* The pair of bench_pair and the probe: this thread (already on c->cpu0)
 * and one started on c->cpu1, running kind `kind`, n iterations a round.
 * GV_OK, or an error with the message in c->err. */
static int pair_open(struct calib_ctx *c, int kind, uint64_t n, struct pair **out, pthread_t *t)
{
    struct pair *p = aligned_alloc(64, sizeof *p);
    struct exec_shared_counter *sc = aligned_alloc(64, sizeof *sc);
    unsigned char *fetch = kind == 4 ? aligned_alloc(FETCH_STRIDE, (size_t)FETCH_LINES * FETCH_STRIDE) : NULL;
    if (!p || !sc || (kind == 4 && !fetch)) {
        free(p);
        free(sc);
        free(fetch);
        return gv_fail(c->err, c->errlen, GV_ENOMEM, "out of memory");
    }
    memset(p, 0, sizeof *p);
    memset(sc, 0, sizeof *sc);
    if (fetch) memset(fetch, 0, (size_t)FETCH_LINES * FETCH_STRIDE);
    p->fetch = fetch;
    p->kind = kind;
    p->n = n;
    p->shared = sc;
    pthread_mutex_init(&p->mu, NULL);
    int rc = calib_thread_start(c, t, c->cpu1, pair_thread, p);
    if (rc != GV_OK) {
        pthread_mutex_destroy(&p->mu);
        free(p);
        free(sc);
        free(fetch);
        return rc;
    }
    *out = p;
    return GV_OK;
}

static void pair_close(struct pair *p, pthread_t t)
{
    atomic_store(&p->go, -1);
    pthread_join(t, NULL);
    pthread_mutex_destroy(&p->mu);
    free(p->shared);
    free(p->fetch);
    free(p);
}

/* kind 0: ns per mutex pair; 1: ns per shared-increment iteration per CPU;
 * 2: ns per ball move (one atomic increment on a line the other CPU wrote,
 * while that CPU spins reading it); 3: ns per busy-loop iteration while
 * both CPUs run it (CPU-time clock); 4: ns one locked add on a line the
 * other CPU stored to takes beyond one on a line this CPU holds, the other
 * CPU keeping away from the line meanwhile. */
static void bench_pair(struct calib_ctx *c, enum calib_id id, int kind, uint64_t n, double full_s)
{
    struct calib_stat *st = &c->r->m[id];
    if (c->cpu1 < 0) {
        calib_skip(st, "needs two CPUs");
        calib_done(c, id);
        return;
    }
    struct pair *p;
    pthread_t t;
    if (pair_open(c, kind, n, &p, &t) != GV_OK) {
        calib_skip(st, c->err);
        c->err[0] = '\0';
        calib_done(c, id);
        return;
    }
    calib_rounds(c, id, full_s, pair_sample, p);
    pair_close(p, t);
    calib_done(c, id);
}

static void bench_free(struct calib_ctx *c);

/* ---- the cache-regime probe ------------------------------------------------ */

#define PROBE_N 200   /* fetches of the FETCH_LINES lines per round */

/* `rounds` rounds of kind 4 (the caller's thread on c->cpu0): each round's
 * ns per add on the lines the other CPU stored to, and on the lines held. */
static int probe_rounds(struct calib_ctx *c, int rounds, struct calib_probe *out)
{
    memset(out, 0, sizeof *out);
    out->cpus[0] = c->cpu0;
    out->cpus[1] = c->cpu1;
    double *v = malloc(2 * (size_t)rounds * sizeof *v);
    if (!v) return gv_fail(c->err, c->errlen, GV_ENOMEM, "out of memory");
    struct pair *p;
    pthread_t t;
    int rc = pair_open(c, 4, PROBE_N, &p, &t);
    if (rc != GV_OK) {
        free(v);
        return rc;
    }
    double per = (double)PROBE_N * FETCH_LINES;
    for (int r = 0; r < rounds; r++) {
        pair_round(p);
        v[r] = (double)p->cpu_ns[0] / per;
        v[rounds + r] = (double)p->cpu_ns[1] / per;
    }
    pair_close(p, t);
    double q1, q3;
    rc = calib_summarise(v + rounds, rounds, &out->own_ns, &q1, &q3);
    if (rc == GV_OK) rc = calib_summarise(v, rounds, &out->add_ns, &out->q1, &out->q3);
    free(v);
    if (rc != GV_OK) return gv_fail(c->err, c->errlen, rc, "out of memory");
    out->rounds = rounds;
    out->measured = true;
    return GV_OK;
}

#define PROBE_ROUNDS 15

/* calibrate's probe, before and after the cache measurements (the same
 * function `gvlsim validate` runs before a configuration's real runs) */
static void bench_probe(struct calib_ctx *c, enum calib_id id)
{
    struct calib_stat *st = &c->r->m[id];
    struct calib_probe pr;
    if (c->cpu1 < 0) {
        calib_skip(st, "needs two CPUs");
    } else if (probe_rounds(c, PROBE_ROUNDS, &pr) != GV_OK) {
        calib_skip(st, c->err);
        c->err[0] = '\0';
    } else {
        memset(st, 0, sizeof *st);
        st->measured = true;
        st->median = pr.add_ns;
        st->q1 = pr.q1;
        st->q3 = pr.q3;
        st->samples = st->rounds = pr.rounds;
        st->round_spread = pr.add_ns > 0 ? (pr.q3 - pr.q1) / pr.add_ns : 0;
        snprintf(st->note, sizeof st->note, "the same adds on the lines held: %.3g ns", pr.own_ns);
    }
    calib_done(c, id);
}

bool calib_probe_moved(double a_ns, double b_ns)
{
    if (!(a_ns > 0) || !(b_ns > 0)) return false;
    return a_ns > CALIB_PROBE_FACTOR * b_ns || b_ns > CALIB_PROBE_FACTOR * a_ns;
}

int calib_line_probe(int rounds, struct calib_probe *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (rounds < 1 || rounds > 1000) return gv_fail(err, errlen, GV_EINVAL, "probe rounds %d not in 1..1000", rounds);
    struct calib_probe_env e;
    int rc = calib_probe_begin(&e, "cache", err, errlen);
    if (rc != GV_OK) return rc;
    rc = probe_rounds(&e.c, rounds, out);
    calib_probe_end(&e);
    return rc;
}

void calib_bench_cache(struct calib_ctx *c)
{
    bench_probe(c, CALIB_LINE_PROBE);
    bench_pair(c, CALIB_LINE_TRANSFER, 2, 2000, 2.0);
    bench_pair(c, CALIB_LINE_FETCH, 4, 500, 2.0);
    bench_pair(c, CALIB_INCR_SHARED, 1, 2000000, 3.0);
    bench_free(c);
    bench_probe(c, CALIB_LINE_PROBE_END);
}

/* ---- what the kernel does to a spinning thread ----------------------------- */

/* Spin reading the clock for `ns`; record the start and length of every
 * gap longer than gap_ns (the thread was not running).  Returns the number
 * of gaps (at most max). */
static int spin_gaps(long long ns, long long gap_ns, long long *at, long long *len, int max)
{
    long long start = calib_now_ns(), prev = start, end = start + ns;
    int n = 0;
    for (;;) {
        long long t = calib_now_ns();
        if (t - prev > gap_ns && n < max) {
            at[n] = prev;
            len[n] = t - prev;
            n++;
        }
        prev = t;
        if (t >= end) break;
    }
    return n;
}

/* Candidate tick periods: HZ = 1000, 500, 300, 250, 100. */
static const double tick_candidates_ns[] = { 1e6, 2e6, 1e9 / 300.0, 4e6, 1e7 };
#define NTICK (int)(sizeof tick_candidates_ns / sizeof tick_candidates_ns[0])
#define PHASE_BINS 25

/* The most populated 3/25 of the phase circle modulo `period`: the share
 * of the times in it, and its centre (0..1). */
static double phase_concentration(const long long *at, int n, double period, double *centre)
{
    int bins[PHASE_BINS] = { 0 };
    for (int i = 0; i < n; i++) {
        double ph = (double)at[i] / period;
        ph -= (double)(long long)ph;
        int b = (int)(ph * PHASE_BINS);
        bins[b < PHASE_BINS ? b : PHASE_BINS - 1]++;
    }
    int best = 0, bb = 0;
    for (int b = 0; b < PHASE_BINS; b++) {
        int s = bins[b] + bins[(b + 1) % PHASE_BINS] + bins[(b + PHASE_BINS - 1) % PHASE_BINS];
        if (s > best) { best = s; bb = b; }
    }
    *centre = ((double)bb + 0.5) / PHASE_BINS;
    return n ? (double)best / n : 0;
}

/* The tick period from the times at which a CPU-bound thread was switched
 * out by another CPU-bound one: such switches happen only at a tick (the
 * slice's end is noticed there), so the times are multiples of the period
 * plus a constant.  The longest candidate period whose phase concentration
 * is within 80% of the best (a divisor of the true period concentrates as
 * well, a multiple does not) is refined by the spacing of the first and
 * last time in phase.  0 if nothing is periodic.  (If every run lasts the
 * same number k of ticks, a period k times the tick fits as well: the
 * kernel's CONFIG_HZ, when readable, decides; see calib_host.c.) */
double calib_tick_estimate(const long long *at, int n)
{
    if (n < 6) return 0;
    double conc[NTICK], centre[NTICK], best = 0;
    for (int i = 0; i < NTICK; i++) {
        conc[i] = phase_concentration(at, n, tick_candidates_ns[i], &centre[i]);
        if (conc[i] > best) best = conc[i];
    }
    if (best < 0.5) return 0;
    int k = -1;
    for (int i = 0; i < NTICK; i++)
        if (conc[i] >= 0.8 * best && (k < 0 || tick_candidates_ns[i] > tick_candidates_ns[k])) k = i;
    double period = tick_candidates_ns[k];
    long long first = -1, last = -1;
    for (int i = 0; i < n; i++) {
        double ph = (double)at[i] / period;
        ph -= (double)(long long)ph;
        double d = ph - centre[k];
        if (d > 0.5) d -= 1;
        if (d < -0.5) d += 1;
        if (d < -1.5 / PHASE_BINS || d > 1.5 / PHASE_BINS) continue;
        if (first < 0 || at[i] < first) first = at[i];
        if (at[i] > last) last = at[i];
    }
    if (first < 0 || last <= first) return period;
    long long ticks = (long long)((double)(last - first) / period + 0.5);
    return ticks > 0 ? (double)(last - first) / (double)ticks : period;
}

#define MAX_GAPS 20000

/* Two CPU-bound threads on one CPU.  Each run between two gaps longer than
 * 50 us (the other thread ran) is one time slice; the gaps' start times
 * give the tick period. */
struct slice_ctx {
    long long window;
    struct calib_series runs;
    long long *starts;     /* gap start times of both threads */
    int nstarts;
    pthread_mutex_t mu;
};

static void *slice_thread(void *arg)
{
    struct slice_ctx *s = arg;
    long long *at = malloc(MAX_GAPS * sizeof *at), *len = malloc(MAX_GAPS * sizeof *len);
    if (at && len) {
        int n = spin_gaps(s->window, 50000, at, len, MAX_GAPS);
        pthread_mutex_lock(&s->mu);
        /* runs between consecutive gaps (the first and last are cut by the window) */
        for (int i = 1; i < n; i++) calib_series_add(&s->runs, (double)(at[i] - (at[i - 1] + len[i - 1])));
        for (int i = 0; i < n && s->nstarts < 2 * MAX_GAPS; i++) s->starts[s->nstarts++] = at[i];
        pthread_mutex_unlock(&s->mu);
    }
    free(at);
    free(len);
    return NULL;
}

static void bench_slice_tick(struct calib_ctx *c)
{
    struct calib_stat *st = &c->r->m[CALIB_TIMESLICE], *tk = &c->r->m[CALIB_TICK_PERIOD];
    struct slice_ctx s;
    memset(&s, 0, sizeof s);
    pthread_mutex_init(&s.mu, NULL);
    s.window = c->o->quick ? 100000000LL : 200000000LL;
    s.starts = malloc(2 * MAX_GAPS * sizeof *s.starts);
    struct calib_series all = { 0 }, ticks = { 0 };
    struct calib_loop l;
    calib_loop_start(&l, calib_budget(c, 5.0), c->min_rounds, 40, c->o->max_spread);
    double v = 0;
    bool failed = !s.starts;
    if (failed) snprintf(c->err, c->errlen, "out of memory");
    while (!failed) {
        pthread_t t[2];
        int started = 0;
        s.nstarts = 0;
        for (int i = 0; i < 2; i++) {
            if (calib_thread_start(c, &t[i], c->cpu0, slice_thread, &s) != GV_OK) break;
            started++;
        }
        for (int i = 0; i < started; i++) pthread_join(t[i], NULL);
        if (started < 2) { failed = true; break; }
        v = median_of(s.runs.v, s.runs.n);
        for (int i = 0; i < s.runs.n; i++) calib_series_add(&all, s.runs.v[i]);
        s.runs.n = 0;
        double tick = calib_tick_estimate(s.starts, s.nstarts);
        if (tick > 0) calib_series_add(&ticks, tick);
        if (!calib_loop_more(&l, v)) break;
    }
    calib_series_stat(&all, st);
    calib_series_stat(&ticks, tk);
    calib_loop_end(&l, st);
    tk->rounds = st->rounds;
    if (failed) {
        calib_skip(st, c->err);
        calib_skip(tk, c->err);
        c->err[0] = '\0';
    } else if (!tk->measured) {
        snprintf(tk->note, sizeof tk->note, "the switches between two CPU-bound threads were not periodic");
    }
    calib_series_free(&all);
    calib_series_free(&ticks);
    calib_series_free(&s.runs);
    free(s.starts);
    pthread_mutex_destroy(&s.mu);
    calib_done(c, CALIB_TIMESLICE);
    calib_done(c, CALIB_TICK_PERIOD);
}

/* CPU time per wake-up of a thread that waits 1 ms in epoll_wait, as the
 * timer thread of CRuby 3.3+ does (timer_thread_polling). */
static int timer_wake_round(struct calib_ctx *c, void *ctx, double *v)
{
    int ep = *(int *)ctx, n = c->o->quick ? 40 : 100;
    struct epoll_event ev;
    long long t = calib_thread_cpu_ns();
    for (int i = 0; i < n; i++) (void)epoll_wait(ep, &ev, 1, 1);
    *v = (double)(calib_thread_cpu_ns() - t) / n;
    return GV_OK;
}

static void bench_timer_wake(struct calib_ctx *c)
{
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0) calib_skip(&c->r->m[CALIB_TIMER_WAKE_CPU], "epoll_create1 failed");
    else calib_rounds(c, CALIB_TIMER_WAKE_CPU, 2.0, timer_wake_round, &ep);
    if (ep >= 0) close(ep);
    calib_done(c, CALIB_TIMER_WAKE_CPU);
}

/* glibc's free of another thread's chunks while that thread allocates:
 * two threads on two CPUs each allocate and write a batch of 48-byte
 * chunks (a Ruby environment's or Proc's body, with its header), publish
 * it, wait for the other's, then free a batch - their own, or the other
 * thread's previous one (both kinds keep step so).  A chunk goes back to the arena of the thread that allocated it
 * (malloc.c _int_free: past the freeing thread's tcache bin, seven
 * chunks, arena_for_chunk and the fastbin's compare-and-swap), which that
 * thread takes chunks from at the same time (_int_malloc's REMOVE_FB).
 * A sample is one batch of one thread: the CPU time of its malloc loop and
 * its free loop, per chunk - what the pair pays for the frees and for the
 * allocations they disturb.
 *
 * What it leaves out, because it is the host's and not the allocator's:
 * the wait for the other thread's batch (a sched_yield loop, whose CPU
 * time grew to 5-145 ns a chunk while other processes used the CPUs), and
 * the batches during which the two threads did not both work - this thread
 * off its CPU for more than a tenth of the batch, or the other thread
 * (seen through its progress count) doing under half a batch's chunks
 * meanwhile: then the frees meet no allocations on the other CPU and cost
 * what one's own do (the 10 ns `free_remote` of one window against 124 ns
 * in another, docs/calibrate.md).  Each round runs own and remote in a
 * shuffled order, so that a quiet or a busy moment falls on both alike;
 * rounds go on until the remote rounds' medians agree. */
#define FREE_BATCH 2000
#define FREE_BATCHES 24
#define FREE_BEAT 64           /* chunks between two progress marks */
#define FREE_MIN_ON_CPU 0.9    /* a batch counts: this thread on its CPU 90% of it, */
#define FREE_MIN_OTHER 0.5     /* ... and the other one working half of it */

struct free_pair {
    void *batch[2][FREE_BATCHES][FREE_BATCH];
    atomic_int ready[2];
    atomic_int go;   /* 0: wait, 1: run, -1: the other thread did not start */
    bool remote;
    struct {
        _Alignas(64) atomic_long done;  /* chunks malloc'd and freed so far */
    } prog[2];
    double v[2][FREE_BATCHES];   /* CPU ns a chunk of each batch's malloc and free */
    bool both[2][FREE_BATCHES];  /* ... taken while both threads worked */
};

struct free_arg {
    struct free_pair *f;
    int me;
};

/* the progress mark every FREE_BEAT chunks */
static void free_beat(struct free_pair *f, int me, int i)
{
    if (i % FREE_BEAT == FREE_BEAT - 1) atomic_fetch_add_explicit(&f->prog[me].done, FREE_BEAT, memory_order_relaxed);
}

static void *free_thread(void *arg)
{
    struct free_arg *a = arg;
    struct free_pair *f = a->f;
    int me = a->me, from = f->remote ? 1 - me : me;
    int go;
    while ((go = atomic_load(&f->go)) == 0) sched_yield();
    if (go < 0) return NULL;
    for (int r = 0; r < FREE_BATCHES; r++) {
        long long c0 = calib_thread_cpu_ns(), w0 = calib_now_ns();
        long o0 = atomic_load_explicit(&f->prog[1 - me].done, memory_order_relaxed);
        for (int i = 0; i < FREE_BATCH; i++) {
            f->batch[me][r][i] = malloc(48);
            if (f->batch[me][r][i]) memset(f->batch[me][r][i], r, 48);
            free_beat(f, me, i);
        }
        long long c1 = calib_thread_cpu_ns(), w1 = calib_now_ns();
        long o1 = atomic_load_explicit(&f->prog[1 - me].done, memory_order_relaxed);
        atomic_store(&f->ready[me], r + 1);
        f->both[me][r] = false;
        if (r == 0) continue;
        /* own or remote, the threads keep step: the other's batch first */
        while (atomic_load(&f->ready[1 - me]) < r) sched_yield();
        long long c2 = calib_thread_cpu_ns(), w2 = calib_now_ns();
        long o2 = atomic_load_explicit(&f->prog[1 - me].done, memory_order_relaxed);
        for (int i = 0; i < FREE_BATCH; i++) {
            free(f->batch[from][r - 1][i]);
            free_beat(f, me, i);
        }
        long long c3 = calib_thread_cpu_ns(), w3 = calib_now_ns();
        long o3 = atomic_load_explicit(&f->prog[1 - me].done, memory_order_relaxed);
        /* the malloc and free loops, not the wait between them */
        long long cpu = (c1 - c0) + (c3 - c2);
        f->v[me][r] = (double)cpu / FREE_BATCH;
        f->both[me][r] = calib_free_both_at_work(cpu, (w1 - w0) + (w3 - w2), (o1 - o0) + (o3 - o2), FREE_BATCH);
    }
    return NULL;
}

bool calib_free_both_at_work(long long cpu_ns, long long wall_ns, long other_chunks, int batch)
{
    return wall_ns > 0 && (double)cpu_ns >= FREE_MIN_ON_CPU * (double)wall_ns &&
           (double)other_chunks >= FREE_MIN_OTHER * 2.0 * batch;
}

/* One run of the pair, own or remote: the batches of both threads taken
 * while both worked go to s. */
static int free_run(struct calib_ctx *c, struct free_pair *f, bool remote, struct calib_series *s)
{
    f->remote = remote;
    atomic_store(&f->ready[0], 0);
    atomic_store(&f->ready[1], 0);
    atomic_store(&f->prog[0].done, 0);
    atomic_store(&f->prog[1].done, 0);
    atomic_store(&f->go, 0);
    struct free_arg a[2] = { { f, 0 }, { f, 1 } };
    pthread_t t[2];
    if (calib_thread_start(c, &t[0], c->cpu0, free_thread, &a[0]) != GV_OK) return GV_ERUN;
    if (calib_thread_start(c, &t[1], c->cpu1, free_thread, &a[1]) != GV_OK) {
        atomic_store(&f->go, -1);
        pthread_join(t[0], NULL);
        return GV_ERUN;
    }
    atomic_store(&f->go, 1);
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < FREE_BATCH; i++) free(f->batch[m][FREE_BATCHES - 1][i]);
    for (int m = 0; m < 2; m++)
        for (int r = 1; r < FREE_BATCHES; r++)
            if (f->both[m][r]) calib_series_add(s, f->v[m][r]);
    return GV_OK;
}

static void bench_free(struct calib_ctx *c)
{
    enum calib_id ids[2] = { CALIB_FREE_OWN, CALIB_FREE_REMOTE };
    struct free_pair *f = c->cpu1 < 0 ? NULL : calloc(1, sizeof *f);
    if (!f) {
        for (int k = 0; k < 2; k++) {
            calib_skip(&c->r->m[ids[k]], c->cpu1 < 0 ? "needs two CPUs" : "out of memory");
            calib_done(c, ids[k]);
        }
        return;
    }
    /* every sample kept, and this round's; rounds go on until the remote
     * rounds' medians agree (or the budget is spent) */
    struct calib_series all[2] = { { 0 }, { 0 } }, round[2] = { { 0 }, { 0 } };
    struct calib_loop l;
    calib_loop_start(&l, calib_budget(c, 2.0), c->min_rounds, 200, c->o->max_spread);
    unsigned long long rnd = 0x9e3779b97f4a7c15ull;
    int rc = GV_OK, rounds = 0;
    for (;;) {
        int first = (int)(calib_rand(&rnd) & 1);
        round[0].n = round[1].n = 0;
        for (int k = 0; k < 2 && rc == GV_OK; k++) {
            int m = k ? 1 - first : first;
            rc = free_run(c, f, m == 1, &round[m]);
        }
        if (rc != GV_OK) break;
        rounds++;
        for (int m = 0; m < 2; m++)
            for (int i = 0; i < round[m].n; i++) calib_series_add(&all[m], round[m].v[i]);
        if (round[0].n > 0 && round[1].n > 0) {
            double med, q1, q3;
            calib_summarise(round[1].v, round[1].n, &med, &q1, &q3);
            if (!calib_loop_more(&l, med)) break;
        } else if ((double)calib_now_ns() * 1e-9 >= l.t_end || rounds >= l.max_rounds) {
            break;  /* the budget is spent: the rounds kept stand */
        }
    }
    int kept = l.medians.n;
    for (int k = 0; k < 2; k++) {
        struct calib_stat *st = &c->r->m[ids[k]];
        calib_series_stat(&all[k], st);
        if (k == 1) calib_loop_end(&l, st);  /* the spread of the remote rounds' medians */
        st->rounds = rounds;
        if (rc != GV_OK) calib_skip(st, c->err);
        else if (all[k].n == 0)
            calib_skip(st, "the two threads never worked at the same time (a busy host)");
        else
            snprintf(st->note, sizeof st->note,
                     "batches with both threads at work: %d; rounds %d (%d with both kinds)", all[k].n,
                     rounds, kept);
        calib_series_free(&all[k]);
        calib_series_free(&round[k]);
    }
    if (rc != GV_OK) c->err[0] = '\0';
    free(f);
    for (int k = 0; k < 2; k++) calib_done(c, ids[k]);
}

/* Measured again, up to twice, while calib_busy_loop_plausible says no;
 * still so, left out (corun_slowdown and tls_insn_overhead, derived from
 * it, take their defaults), the note saying why. */
static void busy_loop_recheck(struct calib_ctx *c)
{
    struct calib_stat *bl = &c->r->m[CALIB_BUSY_LOOP];
    const struct calib_stat *bp = &c->r->m[CALIB_BUSY_LOOP_PAIR];
    double first = bl->median;
    int again = 0;
    for (; again < 2 && !calib_busy_loop_plausible(bl, bp); again++)
        bench_op(c, CALIB_BUSY_LOOP, OP_SPIN, 1.0);
    if (again == 0) return;  /* plausible at once, or not measured */
    if (calib_busy_loop_plausible(bl, bp)) {
        snprintf(bl->note, sizeof bl->note,
                 "measured again: the first run gave %.4g ns, %.1fx busy_loop_pair_ns (the CPU ran slow)",
                 first, first / bp->median);
        return;
    }
    char why[sizeof bl->note];
    snprintf(why, sizeof why,
             "%.4g ns in three runs, %.1fx busy_loop_pair_ns %.4g ns: the CPU ran slow while measured (a throttled vCPU?)",
             bl->median, bl->median / bp->median, bp->median);
    calib_skip(bl, why);
    calib_done(c, CALIB_BUSY_LOOP);
}

void calib_bench_cpu(struct calib_ctx *c)
{
    bench_op(c, CALIB_BUSY_LOOP, OP_SPIN, 1.0);
    bench_pair(c, CALIB_BUSY_LOOP_PAIR, 3, 2000000, 2.0);
    busy_loop_recheck(c);
    bench_op(c, CALIB_INCR_LOCAL, OP_INCR_LOCAL, 1.0);
    bench_op(c, CALIB_MUTEX_UNCONTENDED, OP_MUTEX, 1.0);
    bench_pair(c, CALIB_MUTEX_CONTENDED, 0, 2000, 2.0);
    bench_op(c, CALIB_SYSCALL_GETPID, OP_GETPID, 1.0);
    bench_op(c, CALIB_FUTEX_WAKE_NONE, OP_FUTEX_WAKE_NONE, 1.0);
    bench_op(c, CALIB_SYSCALL_STAT, OP_STAT, 1.0);
    bench_op(c, CALIB_SYSCALL_WRITE, OP_WRITE, 1.0);
    bench_op(c, CALIB_FILE_WRITE, OP_FILE_WRITE, 1.0);
    bench_open_close(c, 1.0);
    calib_bench_cache(c);
    bench_slice_tick(c);
    bench_timer_wake(c);
}

void calib_bench_cache_only(struct calib_ctx *c)
{
    bench_op(c, CALIB_MUTEX_UNCONTENDED, OP_MUTEX, 1.0);
    calib_bench_cache(c);
}
