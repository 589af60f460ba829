/* sim_fixture.h - build small scenarios in C and simulate them (the
 * helpers of test_gvl.c, shared so that other model tests can use them).
 * Times are exact: the test machine has no wake-latency jitter. */
#ifndef GV_SIM_FIXTURE_H
#define GV_SIM_FIXTURE_H

#include <string.h>

#include "../../common/err.h"
#include "../../models/vm.h"
#include "../../sim/engine_heap.h"

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
    m.insn_time = 7 * SIM_NS;
    return m;
}

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

static inline struct scn_op fx_compute(sim_time d)
{
    struct scn_op o;
    memset(&o, 0, sizeof o);
    o.kind = OP_COMPUTE;
    o.path = "/compute";
    o.u.compute.dur.a = d;
    return o;
}

static inline struct scn_op fx_syscall(sim_time d, bool io_wait)
{
    struct scn_op o;
    memset(&o, 0, sizeof o);
    o.kind = OP_SYSCALL;
    o.path = "/syscall";
    o.u.syscall.dur.a = d;
    o.u.syscall.releases_gvl = true;
    o.u.syscall.io_wait = io_wait;
    return o;
}

static inline struct scn_op fx_sleep(sim_time d)
{
    struct scn_op o;
    memset(&o, 0, sizeof o);
    o.kind = OP_SLEEP;
    o.path = "/sleep";
    o.u.sleep.dur.a = d;
    return o;
}

static inline struct scn_op fx_queue(enum scn_op_kind k, int q)
{
    struct scn_op o;
    memset(&o, 0, sizeof o);
    o.kind = k;
    o.path = k == OP_QUEUE_POP ? "/pop" : "/push";
    o.u.queue.queue = q;
    return o;
}

/* times == 0: forever */
static inline struct scn_op fx_loop(uint64_t times, struct scn_prog *body, bool measure)
{
    struct scn_op o;
    memset(&o, 0, sizeof o);
    o.kind = OP_LOOP;
    o.path = "/loop";
    o.u.loop.mode = times ? LOOP_TIMES : LOOP_FOREVER;
    o.u.loop.times = times;
    o.u.loop.measure = measure;
    o.u.loop.body = body;
    return o;
}

struct fx_result {
    int rc;
    char err[2048];
    struct run_metrics m;
    uint64_t thread_vcsw;     /* voluntary switches of the Ruby threads alone */
    sim_time wants[8];        /* wants_gvl time of the first 8 threads */
    uint64_t wasted[8];       /* their wasted wakes */
};

static inline struct fx_result fx_simulate(struct scenario *s)
{
    struct fx_result r;
    memset(&r, 0, sizeof r);
    s->file = "test.json";
    s->name = "test";
    s->total_ractors = 0;
    s->total_threads = 0;
    for (int i = 0; i < s->nractors; i++) {
        s->total_ractors += s->ractors[i].count;
        for (int j = 0; j < s->ractors[i].nthreads; j++)
            s->total_threads += s->ractors[i].count * s->ractors[i].threads[j].count;
    }
    struct sim_engine *e = sim_heap_create();
    struct vm vm;
    r.rc = vm_init(&vm, s, e, r.err, sizeof r.err);
    if (r.rc == GV_OK) {
        r.rc = vm_run(&vm, 3600 * SIM_S, r.err, sizeof r.err);
        if (r.rc == GV_OK) vm_collect(&vm, &r.m);
        for (int i = 0; i < vm.nthreads; i++) {
            r.thread_vcsw += vm.threads[i].own_nt.vcsw;
            if (i < 8) {
                r.wants[i] = vm.threads[i].ts_time[TS_WANTS_GVL];
                r.wasted[i] = vm.threads[i].wasted_wakes;
            }
        }
        vm_free(&vm);
    }
    sim_destroy(e);
    return r;
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
    struct scenario s;
    memset(&s, 0, sizeof s);
    s.seed = 1;
    s.machine = fx_machine(cores);
    s.runtime = fx_runtime(p);
    s.ractors = r;
    s.nractors = 1;
    return s;
}

#endif
