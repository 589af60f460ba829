/* exec_build.c - the executor's VM from a scenario (exec_build.h): what
 * the executor relies on is checked first; the instances are expanded by
 * core/expand.c; then every lock, condvar and queue is created. */
#include "exec_build.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/err.h"
#include "../core/expand.h"
#include "../core/measure.h"
#include "../core/policy.h"
#include "exec_queue.h"
#include "exec_sched.h"
#include "exec_vmlock.h"
#include "exec_wait.h"

/* Most threads a run may create (each is a real pthread with its stack). */
#define EXEC_MAX_THREADS 4096

/* Check a program for what the executor relies on; find the largest iseq. */
static int check_prog(const struct scenario *scn, const struct scn_prog *p, int depth, int *max_iseq,
                      char *err, size_t errlen)
{
    if (depth > SCN_MAX_LOOP_DEPTH)
        return gv_fail(err, errlen, GV_EINVAL, "%s: loops nested deeper than %d", scn->file,
                       SCN_MAX_LOOP_DEPTH);
    for (int i = 0; i < p->nops; i++) {
        const struct scn_op *op = &p->ops[i];
        const char *where = op->path ? op->path : "(op)";
        switch (op->kind) {
        case OP_QUEUE_PUSH:
        case OP_QUEUE_POP:
            if (op->u.queue.queue < 0 || op->u.queue.queue >= scn->nqueues)
                return gv_fail(err, errlen, GV_EINVAL, "%s: %s: queue index %d out of range", scn->file,
                               where, op->u.queue.queue);
            break;
        case OP_LOOP:
            if (!op->u.loop.body)
                return gv_fail(err, errlen, GV_EINVAL, "%s: %s: loop without a body", scn->file, where);
            if (op->u.loop.mode == LOOP_FOREVER && scn->stop_time == 0)
                return gv_fail(err, errlen, GV_EINVAL,
                               "%s: %s: a forever loop needs stop.time to end", scn->file, where);
            if (op->u.loop.mid < 0 || op->u.loop.mid > scn->nmeasures)
                return gv_fail(err, errlen, GV_EINVAL, "%s: %s: measure index out of range", scn->file, where);
            {
                int rc = check_prog(scn, op->u.loop.body, depth + 1, max_iseq, err, errlen);
                if (rc != GV_OK) return rc;
            }
            break;
        case OP_MEASURE:
        case OP_BRANCH:
        case OP_SYNCHRONIZE: {
            const struct scn_prog *bodies[2] = { NULL, NULL };
            if (op->kind == OP_MEASURE) bodies[0] = op->u.measure.body;
            if (op->kind == OP_BRANCH) {
                bodies[0] = op->u.branch.then_body;
                bodies[1] = op->u.branch.else_body;
            }
            if (op->kind == OP_SYNCHRONIZE) bodies[0] = op->u.mutex.body;
            if (!bodies[0] || (op->kind == OP_BRANCH && !bodies[1]) ||
                (op->kind == OP_SYNCHRONIZE && !op->u.mutex.unlock))
                return gv_fail(err, errlen, GV_EINVAL, "%s: %s: %s without a body", scn->file, where,
                               scn_op_name(op->kind));
            if ((op->kind == OP_MEASURE && (op->u.measure.mid < 1 || op->u.measure.mid > scn->nmeasures)) ||
                (op->kind == OP_SYNCHRONIZE && (op->u.mutex.mutex < 0 || op->u.mutex.mutex >= scn->nmutexes)))
                return gv_fail(err, errlen, GV_EINVAL, "%s: %s: index out of range", scn->file, where);
            for (int b = 0; b < 2; b++) {
                if (!bodies[b]) continue;
                int rc = check_prog(scn, bodies[b], depth + 1, max_iseq, err, errlen);
                if (rc != GV_OK) return rc;
            }
            break;
        }
        case OP_MUTEX_LOCK:
        case OP_MUTEX_UNLOCK:
            if (op->u.mutex.mutex < 0 || op->u.mutex.mutex >= scn->nmutexes)
                return gv_fail(err, errlen, GV_EINVAL, "%s: %s: mutex index out of range", scn->file, where);
            break;
        case OP_CV_WAIT:
        case OP_CV_SIGNAL:
        case OP_CV_BROADCAST:
            if (op->u.cv.cv < 0 || op->u.cv.cv >= scn->ncondvars ||
                (op->kind == OP_CV_WAIT && (op->u.cv.mutex < 0 || op->u.cv.mutex >= scn->nmutexes)) ||
                op->u.cv.while_empty < 0 || op->u.cv.while_empty > scn->nqueues)
                return gv_fail(err, errlen, GV_EINVAL, "%s: %s: index out of range", scn->file, where);
            break;
        case OP_SPAWN:
            if (op->u.spawn.tmpl < 0 || op->u.spawn.tmpl >= scn->ntmpls)
                return gv_fail(err, errlen, GV_EINVAL, "%s: %s: thread template out of range", scn->file, where);
            break;
        case OP_JOIN:
            if (op->u.join.tmpl < 0 || op->u.join.tmpl > scn->ntmpls)
                return gv_fail(err, errlen, GV_EINVAL, "%s: %s: thread template out of range", scn->file, where);
            break;
        case OP_ARRIVE:
            if (op->u.arrive.gen < 0 || op->u.arrive.gen >= scn->ngenerators)
                return gv_fail(err, errlen, GV_EINVAL, "%s: %s: generator out of range", scn->file, where);
            break;
        case OP_ENV_ESCAPE:
            if (op->u.env_escape.iseq < 0 || op->u.env_escape.iseq > 1000000)
                return gv_fail(err, errlen, GV_EINVAL, "%s: %s: iseq %d out of range", scn->file, where,
                               op->u.env_escape.iseq);
            if (op->u.env_escape.iseq > *max_iseq) *max_iseq = op->u.env_escape.iseq;
            break;
        case OP_COMPUTE:
        case OP_SYSCALL:
        case OP_SLEEP:
        case OP_ALLOC:
        case OP_GC:
            break;
        case OP_KIND_COUNT:
        default:
            return gv_fail(err, errlen, GV_EINVAL, "%s: %s: unknown op kind %d", scn->file, where,
                           (int)op->kind);
        }
    }
    return GV_OK;
}

/* Ractor and thread instances of the scenario (64-bit: counts are the
 * loader's, at most 10^5 x 10^6); -1 for a count below 1. */
static int count_threads(const struct scenario *scn, int64_t *nractors, int64_t *nthreads)
{
    int64_t r = 0, t = 0;
    for (int i = 0; i < scn->nractors; i++) {
        const struct scn_ractor *sr = &scn->ractors[i];
        if (sr->count < 1) return -1;
        r += sr->count;
        for (int j = 0; j < sr->nthreads; j++) {
            if (sr->threads[j].count < 1) return -1;
            t += (int64_t)sr->count * sr->threads[j].count;
        }
    }
    *nractors = r;
    *nthreads = t;
    return 0;
}

void exec_vm_free(struct exec_vm *vm)
{
    for (int i = 0; i < vm->nthreads_built; i++) {
        pthread_cond_destroy(&vm->threads[i].cond);
        if (vm->threads[i].park_efd_open) close(vm->threads[i].park_efd);
    }
    if (vm->idle_efd_open) close(vm->idle_efd);
    for (int r = 0; r < vm->nractors; r++) {
        core_ractor_free(&vm->ractors[r].core);
        if (r < vm->nractors_built) exec_sched_destroy(&vm->ractors[r]);
    }
    for (int q = 0; q < vm->nqueues; q++) exec_queue_destroy(&vm->queues[q]);
    for (int i = 0; i < vm->nthreads && vm->threads; i++)
        core_samples_free(vm->threads[i].core.cur.samples, vm->nmeasures);
    free(vm->mutexes);
    free(vm->condvars);
    pthread_mutex_destroy(&vm->rsync_lock);
    pthread_mutex_destroy(&vm->gc.lock);
    free(vm->threads);
    free(vm->ractors);
    free(vm->queues);
    free(vm->iseq_recorded);
    free(vm->iseq_seen);
    free(vm->shared_counter);
    free(vm->objspace_line);
    exec_tlog_free(&vm->tlog);
    exec_vmlock_destroy(vm);
    pthread_mutex_destroy(&vm->sched_lock);
    pthread_mutex_destroy(&vm->life_lock);
    pthread_cond_destroy(&vm->barrier_complete_cond);
    pthread_cond_destroy(&vm->barrier_release_cond);
    pthread_cond_destroy(&vm->timer_cond);
    pthread_cond_destroy(&vm->life_cond);
    free(vm);
}

static struct core_ractor *exec_ractor_at(void *ctx, int i)
{
    return &((struct exec_vm *)ctx)->ractors[i].core;
}

static struct core_thread *exec_thread_at(void *ctx, int i)
{
    return &((struct exec_vm *)ctx)->threads[i].core;
}

int exec_vm_build(const struct scenario *scn, const struct exec_opts *opts, struct exec_vm **out,
                    char *err, size_t errlen)
{
    int64_t nr = 0, nt = 0;
    int max_iseq = -1;
    if (count_threads(scn, &nr, &nt) != 0 || nt < 1 || nt > EXEC_MAX_THREADS || nr > EXEC_MAX_THREADS)
        return gv_fail(err, errlen, GV_EINVAL,
                       "%s: gvlsim exec runs 1 to %d threads (one pthread each); this scenario has %lld",
                       scn->file, EXEC_MAX_THREADS, (long long)nt);
    int nractors = (int)nr, nthreads = (int)nt;
    if (scn->nqueues < 0 || (scn->nqueues > 0 && !scn->queues))
        return gv_fail(err, errlen, GV_EINVAL, "%s: bad queue table", scn->file);
    for (int i = 0; i < scn->nractors; i++)
        for (int j = 0; j < scn->ractors[i].nthreads; j++) {
            int rc = check_prog(scn, &scn->ractors[i].threads[j].prog, 0, &max_iseq, err, errlen);
            if (rc != GV_OK) return rc;
        }
    for (int g = 0; g < scn->ngenerators; g++) {
        int rc = check_prog(scn, &scn->generators[g].prog, 0, &max_iseq, err, errlen);
        if (rc != GV_OK) return rc;
    }
    nthreads += scn->ngenerators;
    if (nthreads > EXEC_MAX_THREADS)
        return gv_fail(err, errlen, GV_EINVAL,
                       "%s: gvlsim exec runs 1 to %d threads (one pthread each); this scenario has %d",
                       scn->file, EXEC_MAX_THREADS, nthreads);
    const struct core_policy *policy = core_policy_get(scn->runtime.gvl_policy);
    if (!policy)
        return gv_fail(err, errlen, GV_EINVAL, "%s: unknown gvl_policy %d", scn->file,
                       (int)scn->runtime.gvl_policy);
    if (scn->runtime.quantum <= 0 || scn->runtime.timer_tick <= 0)
        return gv_fail(err, errlen, GV_EINVAL, "%s: runtime.quantum and runtime.timer_tick must be > 0",
                       scn->file);
    if (scn->runtime.event_hook > 0)
        return gv_fail(err, errlen, GV_EUNSUP,
                       "%s: runtime.event_hook = %.3f us: gvlsim exec runs no thread-event hook (a tracer's cost, "
                       "simulated only); run it with --set runtime.event_hook=0",
                       scn->file, (double)scn->runtime.event_hook / (double)SIM_US);

    struct exec_vm *vm = calloc(1, sizeof *vm);
    if (!vm) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    vm->scn = scn;
    vm->policy = policy;
    vm->nractors = nractors;
    vm->nthreads = nthreads;
    vm->nqueues = scn->nqueues;
    vm->nmutexes = scn->nmutexes;
    vm->ncondvars = scn->ncondvars;
    vm->nmeasures = scn->nmeasures;
    vm->multi_ractor = nractors > 1;
    vm->niseqs = max_iseq + 1;
    /* every sync object is created before anything can fail: vm_free destroys them all */
    bool sync_ok = pthread_mutex_init(&vm->sched_lock, NULL) == 0 &&
                   pthread_mutex_init(&vm->life_lock, NULL) == 0 &&
                   exec_cond_init(&vm->barrier_complete_cond) == 0 &&
                   exec_cond_init(&vm->barrier_release_cond) == 0 &&
                   exec_cond_init(&vm->timer_cond) == 0 && exec_cond_init(&vm->life_cond) == 0 &&
                   exec_vmlock_init(vm) == 0 && pthread_mutex_init(&vm->rsync_lock, NULL) == 0 &&
                   pthread_mutex_init(&vm->gc.lock, NULL) == 0;
    vm->ractors = calloc((size_t)nractors, sizeof *vm->ractors);
    vm->threads = calloc((size_t)nthreads, sizeof *vm->threads);
    vm->queues = calloc((size_t)(vm->nqueues ? vm->nqueues : 1), sizeof *vm->queues);
    vm->iseq_recorded = calloc((size_t)(vm->niseqs ? vm->niseqs : 1), sizeof *vm->iseq_recorded);
    vm->iseq_seen = calloc((size_t)(vm->niseqs ? vm->niseqs : 1), 1);
    vm->shared_counter = aligned_alloc(64, sizeof *vm->shared_counter);
    vm->objspace_line = aligned_alloc(64, 2 * sizeof *vm->objspace_line);
    vm->mutexes = calloc((size_t)(vm->nmutexes ? vm->nmutexes : 1), sizeof *vm->mutexes);
    vm->condvars = calloc((size_t)(vm->ncondvars ? vm->ncondvars : 1), sizeof *vm->condvars);
    int built_q = 0;
    if (!sync_ok || !vm->ractors || !vm->threads || !vm->queues || !vm->iseq_recorded ||
        !vm->iseq_seen || !vm->shared_counter || !vm->objspace_line || !vm->mutexes || !vm->condvars)
        goto oom;
    for (int m = 0; m < vm->nmutexes; m++) core_mutex_init(&vm->mutexes[m], scn->mutexes[m].name);
    for (int c = 0; c < vm->ncondvars; c++) core_condvar_init(&vm->condvars[c], scn->condvars[c].name);
    core_heap_init(&vm->gc.heap, (uint64_t)scn->runtime.gc_heap_init_slots, scn->runtime.gc_heap_growth_factor,
                   scn->total_ractors);
    core_heap_boot(&vm->gc.heap, (uint64_t)scn->runtime.gc_boot_objects);
    memset(vm->shared_counter, 0, sizeof *vm->shared_counter);
    atomic_init(&vm->objspace_line[0].value, 0);
    atomic_init(&vm->objspace_line[1].value, 0);
    for (int i = 0; i < vm->niseqs; i++) atomic_init(&vm->iseq_recorded[i], 0);
    atomic_init(&vm->aborting, false);
    atomic_init(&vm->stopping, false);
    atomic_init(&vm->gvl_violations, 0);
    atomic_init(&vm->timer_state, 0);  /* RTIMER_DISARM */
    atomic_init(&vm->sigchld_hit, 0);

    /* the file stat(2)ed by File.mtime: the scenario itself if possible, by
     * its absolute path as the Ruby backend names it (exec/ruby_run.c) and
     * `gvlsim calibrate` measures it: a stat's cost grows with the
     * directories its path walks */
    struct stat st;
    if (opts && opts->stat_path) vm->stat_path = opts->stat_path;
    else if (scn->file && strlen(scn->file) < sizeof vm->stat_real && realpath(scn->file, vm->stat_real) &&
             stat(vm->stat_real, &st) == 0)
        vm->stat_path = vm->stat_real;
    else vm->stat_path = "/";

    for (; built_q < scn->nqueues; built_q++)
        if (exec_queue_init(&vm->queues[built_q], scn->queues[built_q].name ? scn->queues[built_q].name : "?",
                            scn->queues[built_q].initial) != 0)
            goto oom;

    if (core_expand(scn, exec_ractor_at, exec_thread_at, vm) != GV_OK) goto oom;
    for (; vm->nractors_built < nractors; vm->nractors_built++) {
        struct exec_ractor *r = &vm->ractors[vm->nractors_built];
        r->vm = vm;
        if (exec_sched_init(r) != 0) goto oom;
    }
    for (; vm->nthreads_built < nthreads; vm->nthreads_built++) {
        struct exec_thread *th = &vm->threads[vm->nthreads_built];
        th->vm = vm;
        if (exec_cond_init(&th->cond) != 0) goto oom;
        th->sys.devnull_fd = th->sys.opened_fd = -1;
        th->ts = TS_COUNT;
        atomic_init(&th->interrupts, 0);
        atomic_init(&th->pub_state, TS_COUNT);
        atomic_init(&th->pub_op, NULL);
        if (th->core.start_at >= 0) vm->alive++;  /* spawned slots count once spawned */
        if (vm->nmeasures > 0) {
            th->core.cur.samples = calloc((size_t)vm->nmeasures, sizeof *th->core.cur.samples);
            if (!th->core.cur.samples) goto oom;
        }
    }
    if (opts && opts->trace_max_events > 0 && exec_tlog_init(&vm->tlog, opts->trace_max_events, nthreads) != GV_OK) {
        exec_vm_free(vm);
        return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory for a record of %" PRIu64 " state changes "
                       "(--trace-max-events: 16 bytes each)", scn->file, opts->trace_max_events);
    }
    *out = vm;
    return GV_OK;

oom:
    vm->nqueues = built_q;
    exec_vm_free(vm);
    return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory (or out of sync objects) building %d threads",
                   scn->file, nthreads);
}
