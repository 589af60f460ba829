/* scenario.c - enum names, loop shares, instance names and freeing a scenario. */
#include "scenario.h"

#include "../common/metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const scn_policy_names[GVL_POLICY_COUNT + 1] = {
    "eager", "hot_steal", "delayed", "threshold", "barging", NULL,
};
const char *const scn_invariant_names[INVARIANT_COUNT + 1] = {
    "none", "lock_barrier", "lockless", NULL,
};
const char *const scn_counter_names[COUNTER_COUNT + 1] = {
    "none", "shared", "thread_local", NULL,
};
const char *const scn_alloc_counters_names[ALLOC_COUNTERS_COUNT + 1] = { "local", "shared", NULL };
const char *const scn_counter_model_names[COUNTER_MODEL_COUNT + 1] = { "line", "penalty", NULL };
const char *const scn_snt_cap_names[SNT_CAP_COUNT + 1] = { "exact", "minus_one", NULL };
const char *const scn_mutex_impl_names[MUTEX_IMPL_COUNT + 1] = { "glibc", "darwin", NULL };
const char *const scn_os_scheduler_names[OS_SCHED_COUNT + 1] = {
    "fifo", "cfs", "eevdf", "eevdf_delay_dequeue", NULL,
};
const char *const scn_op_names[OP_KIND_COUNT + 1] = {
    "compute", "syscall", "queue_push", "queue_pop", "sleep", "loop", "env_escape", "join",
    "measure", "branch", "mutex_lock", "mutex_unlock", "synchronize", "cv_wait", "cv_signal",
    "cv_broadcast", "spawn", "alloc", "gc", NULL,
};
const char *const scn_call_names[CALL_COUNT + 1] = {
    "stat", "write_devnull", "getpid", "nanosleep", "open_devnull", "close", NULL,
};
const char *const scn_rt_key_names[RT_KEY_COUNT + 1] = {
    "gvl_policy", "quantum", "timer_tick", "threshold", "invariant_check", "insn_counter",
    "counter_model", "max_cpu", "snt_cap", "mn_main", "yjit", "alloc_counters", "event_hook", NULL,
};
const char *const scn_dist_names[DIST_KIND_COUNT + 1] = {
    "const", "uniform", "exp", "lognormal", "empirical", NULL,
};
const char *const scn_process_names[PROCESS_COUNT + 1] = { "poisson", "constant", NULL };

static const char *name_of(const char *const *names, int n, int i)
{
    return i >= 0 && i < n ? names[i] : "?";
}

const char *scn_policy_name(enum scn_gvl_policy p)
{
    return name_of(scn_policy_names, GVL_POLICY_COUNT, (int)p);
}
const char *scn_invariant_name(enum scn_invariant_check c)
{
    return name_of(scn_invariant_names, INVARIANT_COUNT, (int)c);
}
const char *scn_counter_name(enum scn_insn_counter c)
{
    return name_of(scn_counter_names, COUNTER_COUNT, (int)c);
}
const char *scn_alloc_counters_name(enum scn_alloc_counters c)
{
    return name_of(scn_alloc_counters_names, ALLOC_COUNTERS_COUNT, (int)c);
}
const char *scn_counter_model_name(enum scn_counter_model m)
{
    return name_of(scn_counter_model_names, COUNTER_MODEL_COUNT, (int)m);
}
const char *scn_snt_cap_name(enum scn_snt_cap c)
{
    return name_of(scn_snt_cap_names, SNT_CAP_COUNT, (int)c);
}

const char *scn_mutex_impl_name(enum scn_mutex_impl m)
{
    return name_of(scn_mutex_impl_names, MUTEX_IMPL_COUNT, (int)m);
}
const char *scn_os_scheduler_name(enum scn_os_scheduler s)
{
    return name_of(scn_os_scheduler_names, OS_SCHED_COUNT, (int)s);
}
const char *scn_op_name(enum scn_op_kind k)
{
    return k == OP_ARRIVE ? "arrive" : name_of(scn_op_names, OP_KIND_COUNT, (int)k);
}
const char *scn_call_name(enum scn_syscall_call c) { return name_of(scn_call_names, CALL_COUNT, (int)c); }
const char *scn_dist_name(enum scn_dist_kind k) { return name_of(scn_dist_names, DIST_KIND_COUNT, (int)k); }
const char *scn_process_name(enum scn_process p) { return name_of(scn_process_names, PROCESS_COUNT, (int)p); }

static void prog_reads(const struct scn_prog *p, struct scn_reads *r)
{
    if (!p) return;
    for (int i = 0; i < p->nops; i++) {
        const struct scn_op *op = &p->ops[i];
        switch (op->kind) {
        case OP_SYSCALL:
            if (op->u.syscall.dur_machine) r->syscall[op->u.syscall.call] = true;
            if (op->u.syscall.method_work_machine) r->method_work[op->u.syscall.call] = true;
            if (op->u.syscall.method_work_after_machine) r->method_work_after[op->u.syscall.call] = true;
            if (op->u.syscall.allocates > 0) r->gc = true;
            break;
        case OP_ALLOC: case OP_ENV_ESCAPE: case OP_GC: r->gc = true; break;
        case OP_LOOP: prog_reads(op->u.loop.body, r); break;
        case OP_MEASURE: prog_reads(op->u.measure.body, r); break;
        case OP_BRANCH:
            prog_reads(op->u.branch.then_body, r);
            prog_reads(op->u.branch.else_body, r);
            break;
        case OP_SYNCHRONIZE: prog_reads(op->u.mutex.body, r); break;
        default: break;
        }
    }
}

void scn_machine_reads(const struct scenario *s, struct scn_reads *r)
{
    for (int t = 0; t < s->ntmpls; t++) prog_reads(&s->tmpls[t].thread->prog, r);
}

uint64_t scn_loop_times(const struct scn_op *op, int instance, int ninstances)
{
    if (op->kind != OP_LOOP) return 0;
    switch (op->u.loop.mode) {
    case LOOP_TIMES: return op->u.loop.times;
    case LOOP_FOREVER: return UINT64_MAX;
    case LOOP_TIMES_TOTAL: break;
    }
    if (ninstances < 1) ninstances = 1;
    uint64_t n = op->u.loop.times, k = (uint64_t)ninstances;
    return n / k + ((uint64_t)instance < n % k ? 1 : 0);
}

static void dist_free(struct scn_dist *d)
{
    free(d->values);
    free(d->cum);
    d->values = NULL;
    d->cum = NULL;
}

static void prog_free(struct scn_prog *p);

static void body_free(struct scn_prog *body)
{
    if (!body) return;
    prog_free(body);
    free(body);
}

static void prog_free(struct scn_prog *p)
{
    for (int i = 0; i < p->nops; i++) {
        struct scn_op *op = &p->ops[i];
        free(op->path);
        switch (op->kind) {  /* the union: what each kind owns */
        case OP_LOOP: body_free(op->u.loop.body); break;
        case OP_MEASURE: body_free(op->u.measure.body); break;
        case OP_BRANCH:
            body_free(op->u.branch.then_body);
            body_free(op->u.branch.else_body);
            break;
        case OP_SYNCHRONIZE:
            body_free(op->u.mutex.body);
            if (op->u.mutex.unlock) free(op->u.mutex.unlock->path);
            free(op->u.mutex.unlock);
            break;
        case OP_COMPUTE: dist_free(&op->u.compute.dur); break;
        case OP_SYSCALL: dist_free(&op->u.syscall.dur); break;
        case OP_SLEEP: dist_free(&op->u.sleep.dur); break;
        case OP_GC: dist_free(&op->u.gc.dur); break;
        default: break;
        }
    }
    free(p->ops);
    p->ops = NULL;
    p->nops = 0;
}

static void named_free(struct scn_named *v, int n)
{
    for (int i = 0; i < n; i++) free(v[i].name);
    free(v);
}

void scenario_free(struct scenario *s)
{
    if (!s) return;
    free(s->file);
    free(s->name);
    free(s->description);
    free(s->machine.name);
    free(s->machine.file);
    free(s->machine.source);
    free(s->runtime.ruby);
    for (int i = 0; i < s->nqueues; i++) free(s->queues[i].name);
    free(s->queues);
    for (int i = 0; i < s->nractors; i++) {
        struct scn_ractor *r = &s->ractors[i];
        free(r->name);
        for (int j = 0; j < r->nthreads; j++) {
            free(r->threads[j].name);
            prog_free(&r->threads[j].prog);
        }
        free(r->threads);
    }
    free(s->ractors);
    named_free(s->mutexes, s->nmutexes);
    named_free(s->condvars, s->ncondvars);
    named_free(s->measures, s->nmeasures);
    for (int i = 0; i < s->ngenerators; i++) {
        free(s->generators[i].name);
        prog_free(&s->generators[i].prog);
    }
    free(s->generators);
    free(s->tmpls);
    memset(s, 0, sizeof *s);
}

void scn_metrics_describe(const struct scenario *s, struct run_metrics *m)
{
    m->scenario = s->name;
    m->policy = scn_policy_name(s->runtime.gvl_policy);
    m->invariant_check = scn_invariant_name(s->runtime.invariant_check);
    m->insn_counter = scn_counter_name(s->runtime.insn_counter);
    m->cores = s->machine.cores;
    m->seed = s->seed;
    m->work_scale = s->machine.work_scale;
    m->warmup = s->warmup;
}
