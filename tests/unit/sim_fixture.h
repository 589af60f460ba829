/* sim_fixture.h - build small scenarios in C, load committed ones, and
 * simulate them: the scaffolding shared by the model tests (test_gvl,
 * test_policies, test_mn, test_ractors, test_counter, test_tarai,
 * test_trace).  Each test keeps only what it varies (a machine cost, a
 * runtime switch) and the observables it reads (an fx_hooks inspector).
 * Times are exact: the test machine has no wake-latency jitter. */
#ifndef GV_SIM_FIXTURE_H
#define GV_SIM_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/diag.h"
#include "../../common/err.h"
#include "../../input/load.h"
#include "../../models/vm.h"
#include "../../models/simulate.h"

/* ---- machine, runtime, scenario ------------------------------------------------- */

/* The test machine: round costs, no jitter, global-lock sections and
 * mutexes free (tests that need them set them). */
static inline struct scn_machine fx_machine(int cores)
{
    struct scn_machine m;
    memset(&m, 0, sizeof m);
    m.name = "test";
    m.cores = cores;
    m.context_switch = 2 * SIM_US;
    m.futex_wake = 1 * SIM_US;
    m.wake_idle_core = 20 * SIM_US;
    m.wake_busy_core = 3 * SIM_US;
    m.os_timeslice = 3 * SIM_MS;
    m.work_scale = 1.0;
    m.timer_tick_cost = 1 * SIM_US;
    m.timer_slack = 50 * SIM_US;      /* the schema's defaults */
    m.timer_wake = SCN_DUR_UNSET;
    m.insn_time = 7 * SIM_NS;
    return m;
}

/* CRuby's defaults: 100 ms quantum, 10 ms ticks, RUBY_MAX_CPU 8; the
 * threshold policy's 100 us (read by that policy only). */
static inline struct scn_runtime fx_runtime(enum scn_gvl_policy p)
{
    struct scn_runtime r;
    memset(&r, 0, sizeof r);
    r.gvl_policy = p;
    r.quantum = 100 * SIM_MS;
    r.timer_tick = 10 * SIM_MS;
    r.threshold = 100 * SIM_US;
    r.max_cpu = 8;
    return r;
}

/* `n` Ractor templates on the test machine, seed 1, no queues. */
static inline struct scenario fx_scenario(int cores, enum scn_gvl_policy p, struct scn_ractor *ractors,
                                          int n)
{
    struct scenario s;
    memset(&s, 0, sizeof s);
    s.seed = 1;
    s.machine = fx_machine(cores);
    s.runtime = fx_runtime(p);
    s.ractors = ractors;
    s.nractors = n;
    return s;
}

/* One Ractor with the given thread templates. */
static inline struct scenario fx_one_ractor(int cores, enum scn_gvl_policy p, struct scn_ractor *r,
                                            struct scn_thread *threads, int n)
{
    memset(r, 0, sizeof *r);
    r->name = "main";
    r->count = 1;
    r->threads = threads;
    r->nthreads = n;
    return fx_scenario(cores, p, r, 1);
}

/* ---- ops ------------------------------------------------------------------------ */

static inline struct scn_op fx_op(enum scn_op_kind k, const char *path)
{
    struct scn_op o;
    memset(&o, 0, sizeof o);
    o.kind = k;
    o.path = (char *)path;
    return o;
}

/* `o` at another place: for tests that check a report's "at PATH (line N)". */
static inline struct scn_op fx_at(struct scn_op o, const char *path, int line)
{
    o.path = (char *)path;
    o.line = line;
    return o;
}

static inline struct scn_op fx_compute(sim_time d)
{
    struct scn_op o = fx_op(OP_COMPUTE, "/compute");
    o.u.compute.dur.a = d;
    return o;
}

/* a compute given in interpreter instructions (the insn counter's unit) */
static inline struct scn_op fx_insns(uint64_t n)
{
    struct scn_op o = fx_op(OP_COMPUTE, "/insns");
    o.u.compute.has_insns = true;
    o.u.compute.insns = n;
    return o;
}

/* a GVL-releasing call: on the CPU, or asleep in the kernel (io_wait) */
static inline struct scn_op fx_syscall(sim_time d, bool io_wait)
{
    struct scn_op o = fx_op(OP_SYSCALL, "/syscall");
    o.u.syscall.dur.a = d;
    o.u.syscall.releases_gvl = true;
    o.u.syscall.io_wait = io_wait;
    return o;
}

static inline struct scn_op fx_sleep(sim_time d)
{
    struct scn_op o = fx_op(OP_SLEEP, "/sleep");
    o.u.sleep.dur.a = d;
    return o;
}

static inline struct scn_op fx_queue(enum scn_op_kind k, int q)
{
    struct scn_op o = fx_op(k, k == OP_QUEUE_POP ? "/pop" : "/push");
    o.u.queue.queue = q;
    return o;
}

static inline struct scn_op fx_join(void)
{
    return fx_op(OP_JOIN, "/join");
}

static inline struct scn_op fx_escape(int iseq)
{
    struct scn_op o = fx_op(OP_ENV_ESCAPE, "/escape");
    o.u.env_escape.iseq = iseq;
    return o;
}

/* times == 0: forever */
static inline struct scn_op fx_loop(uint64_t times, struct scn_prog *body, bool measure)
{
    struct scn_op o = fx_op(OP_LOOP, "/loop");
    o.u.loop.mode = times ? LOOP_TIMES : LOOP_FOREVER;
    o.u.loop.times = times;
    o.u.loop.measure = measure;
    o.u.loop.body = body;
    return o;
}

/* ---- loading and running -------------------------------------------------------- */

/* Load a committed scenario with --set overrides (machines_dir may be
 * NULL); diagnostics go to stderr.  Returns scn_load's code. */
static inline int fx_load(const char *path, const char *const *sets, int nsets, const char *machines_dir,
                          struct scenario *s)
{
    struct load_opts lo = { .sets = sets, .nsets = nsets, .machines_dirs = &machines_dir,
                            .nmachines_dirs = machines_dir ? 1 : 0 };
    struct diag_list d;
    diag_init(&d);
    int rc = scn_load(path, &lo, s, &d);
    for (size_t i = 0; i < d.n; i++) fprintf(stderr, "%s\n", d.msgs[i]);
    diag_free(&d);
    return rc;
}

struct fx_result {
    int rc;                   /* vm_init's, then vm_run's */
    char err[4096];
    struct run_metrics m;     /* filled when the run succeeded (ractor_ops, fair_threads: NULL) */
    int nthreads;
    uint64_t thread_vcsw;     /* voluntary switches of the Ruby threads alone */
    sim_time wants[8];        /* wants_gvl time of the first 8 threads */
    uint64_t wasted[8];       /* their wasted wakes */
};

/* What a test adds to a run (any may be NULL): `setup` after vm_init,
 * before vm_run (observers, a state to start from); `inspect` after the
 * run, whatever its outcome, before vm_free (the observables the test
 * reads: the vm is gone afterwards). */
struct fx_hooks {
    void (*setup)(struct vm *vm, void *ctx);
    void (*inspect)(struct vm *vm, void *ctx);
    void *ctx;
};

struct fx_run_ctx {
    const struct fx_hooks *h;
    struct fx_result *r;
    /* the run's observer: the fixture's in front of the test's (inner) */
    struct run_observer inner;
    /* every thread's time in each state, and since when it is in its
     * current one (the VM itself keeps only the sums: models/vm.h) */
    int nthreads;
    sim_time (*state)[TS_COUNT];
    sim_time *since;
};

static inline void fx_obs_state(void *ctx, int thread, enum thread_state from, enum thread_state to,
                                sim_time now)
{
    struct fx_run_ctx *c = ctx;
    if (thread >= 0 && thread < c->nthreads) {
        if (from < TS_COUNT) c->state[thread][from] += now - c->since[thread];
        c->since[thread] = now;
    }
    if (c->inner.thread_state) c->inner.thread_state(c->inner.ctx, thread, from, to, now);
}

static inline void fx_obs_readyq(void *ctx, int ractor, int len, sim_time now)
{
    struct fx_run_ctx *c = ctx;
    c->inner.readyq(c->inner.ctx, ractor, len, now);
}

static inline void fx_obs_instant(void *ctx, const char *name, int thread, sim_time now)
{
    struct fx_run_ctx *c = ctx;
    c->inner.instant(c->inner.ctx, name, thread, now);
}

static inline void fx_obs_counter(void *ctx, const char *name, int64_t value, sim_time now)
{
    struct fx_run_ctx *c = ctx;
    c->inner.counter(c->inner.ctx, name, value, now);
}

/* Thread i's time in state s so far (in an inspect hook: the whole run). */
static inline sim_time fx_state_time(const struct vm *vm, int i, enum thread_state s)
{
    const struct fx_run_ctx *c = vm->obs.ctx;
    return c->state && i < c->nthreads ? c->state[i][s] : 0;
}

static inline int fx_setup(void *ctx, struct vm *vm, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    struct fx_run_ctx *c = ctx;
    if (c->h && c->h->setup) c->h->setup(vm, c->h->ctx);
    c->nthreads = vm->nthreads;
    c->state = calloc((size_t)vm->nthreads + 1, sizeof *c->state);
    c->since = calloc((size_t)vm->nthreads + 1, sizeof *c->since);
    if (!c->state || !c->since) return GV_ENOMEM;
    /* the fixture's observer first, then the test's */
    c->inner = vm->obs;
    vm->obs.ctx = c;
    vm->obs.thread_state = fx_obs_state;
    vm->obs.readyq = c->inner.readyq ? fx_obs_readyq : NULL;
    vm->obs.instant = c->inner.instant ? fx_obs_instant : NULL;
    vm->obs.counter = c->inner.counter ? fx_obs_counter : NULL;
    return GV_OK;
}

static inline int fx_finish(void *ctx, struct vm *vm, int run_rc, sim_time end, char *err,
                            size_t errlen)
{
    (void)end, (void)err, (void)errlen;
    struct fx_run_ctx *c = ctx;
    struct fx_result *r = c->r;
    r->rc = run_rc;
    r->nthreads = vm->nthreads;
    for (int i = 0; i < vm->nthreads; i++) {
        if (!vm->threads[i].mn) r->thread_vcsw += rb_own_nt(&vm->threads[i])->vcsw;
        if (i < 8) {
            r->wants[i] = c->state ? c->state[i][TS_WANTS_GVL] : 0;
            r->wasted[i] = vm->cold[i].wasted_wakes;
        }
    }
    if (c->h && c->h->inspect) c->h->inspect(vm, c->h->ctx);
    free(c->state);
    free(c->since);
    c->state = NULL;
    c->since = NULL;
    return GV_OK;
}

/* Simulate `s` on the native engine (up to an hour of simulated time):
 * counts its Ractors and threads, names it "test" unless it has a file. */
static inline void fx_run(struct scenario *s, const struct fx_hooks *h, struct fx_result *r)
{
    memset(r, 0, sizeof *r);
    if (!s->file) {
        s->file = "test.json";
        s->name = "test";
    }
    s->total_ractors = 0;
    s->total_threads = 0;
    for (int i = 0; i < s->nractors; i++) {
        s->total_ractors += s->ractors[i].count;
        for (int j = 0; j < s->ractors[i].nthreads; j++)
            s->total_threads += s->ractors[i].count * s->ractors[i].threads[j].count;
    }
    struct fx_run_ctx c = { .h = h, .r = r };
    struct simulate_opts so = { .engine = "native", .max_time = 3600 * SIM_S, .ctx = &c,
                                .setup = fx_setup, .finish = fx_finish };
    r->rc = simulate_run(s, &so, &r->m, r->err, sizeof r->err);
    free(r->m.ractor_ops);  /* the tests read per-Ractor counts in `inspect` */
    r->m.ractor_ops = NULL;
    r->m.nractor_ops = 0;
    free(r->m.fair_threads);  /* (the summary's lines by thread: no test here reads them) */
    r->m.fair_threads = NULL;
    r->m.nfair_threads = 0;
}

/* fx_run without hooks. */
static inline struct fx_result fx_simulate(struct scenario *s)
{
    struct fx_result r;
    fx_run(s, NULL, &r);
    return r;
}

#endif
