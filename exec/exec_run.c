/* exec_run.c - the executor's driver: run a scenario's VM (exec_build.c)
 * on real threads, watch it, and fill the metrics.
 *
 * Order of a run: build the VM, validating what the executor needs; pin
 * the process to machine.cores CPUs; calibrate the busy loop on them;
 * create one pthread per Ruby thread (each waits at a start gate), the
 * timer thread and the threshold helpers; queue the threads on their GVLs
 * in scenario order (the first of each Ractor owns it, as if each had
 * asked in turn); open the gate and start the clock.
 *
 * The calling thread is the controller.  It sleeps on vm->life_cond until
 * the last thread ends, stop.time comes (it then sets TERMINATE in every
 * thread and makes the parked ones ready, and the threads end at their next
 * safe point), a deadlock is detected (every living thread parked and no
 * stop.time), or the watchdog (--timeout) fires.  In the last two cases it
 * writes a report of what each thread waits on, then aborts the run: every
 * wait in the executor checks vm->aborting, and every condvar is
 * broadcast, so the threads leave (pthread_exit) and can be joined and
 * freed.  A thread that does not come back within a grace period (stuck in
 * a long system call) is left behind and the VM is not freed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../core/measure.h"
#include "../core/policy.h"
#include "exec.h"
#include "exec_affinity.h"
#include "exec_build.h"
#include "exec_gvl_barging.h"
#include "exec_gvl.h"
#include "exec_queue.h"
#include "exec_thread.h"
#include "exec_threshold.h"
#include "exec_timer.h"
#include "exec_work.h"

/* Largest spread of the busy-loop calibration accepted. */
#define EXEC_MAX_CALIB_SPREAD 0.10
/* How long aborted threads get to leave before they are left behind. */
#define EXEC_ABORT_GRACE_NS INT64_C(3000000000)

/* ---- reports ------------------------------------------------------------------ */

/* What a parked thread waits for, read under the locks its writers hold
 * (after a failure the other threads still run: an ending one unlocks its
 * mutexes, wakes its joiners).  Each lock taken alone, never nested. */
struct parked_view {
    bool on_cv;              /* parked in a cv_wait's wait, not relocking */
    const char *owner;       /* the mutex's holder ("nobody") */
    const char *join_target; /* the thread a template join waits for ("?") */
};

static void parked_view(const struct exec_vm *vm, const struct exec_thread *th, const struct scn_op *op,
                        struct parked_view *pv)
{
    struct exec_vm *v = (struct exec_vm *)vm;
    pv->on_cv = false;
    pv->owner = "nobody";
    pv->join_target = "?";
    if (op->kind == OP_MUTEX_LOCK || op->kind == OP_SYNCHRONIZE || op->kind == OP_CV_WAIT) {
        int m = op->kind == OP_CV_WAIT ? op->u.cv.mutex : op->u.mutex.mutex;
        pthread_mutex_lock(&v->rsync_lock);
        pv->on_cv = op->kind == OP_CV_WAIT && th->core.parked_cv >= 0;
        const struct exec_thread *owner = exec_thread_of(vm->mutexes[m].owner);
        if (owner) pv->owner = owner->core.name;
        pthread_mutex_unlock(&v->rsync_lock);
    } else if (op->kind == OP_JOIN && op->u.join.tmpl) {
        pthread_mutex_lock(&v->life_lock);
        const struct core_thread *t = th->core.join_target;
        if (t) pv->join_target = t->name;
        pthread_mutex_unlock(&v->life_lock);
    }
}

static void describe_thread(const struct exec_vm *vm, const struct exec_thread *th, char *buf, size_t len)
{
    enum thread_state st = (enum thread_state)atomic_load(&((struct exec_thread *)th)->pub_state);
    const struct scn_op *op = atomic_load(&((struct exec_thread *)th)->pub_op);
    const char *where = op && op->path ? op->path : "(start)";
    int line = op ? op->line : 0;
    struct parked_view pv = { false, "nobody", "?" };
    if (st == TS_PARKED && op) parked_view(vm, th, op, &pv);
    if (st == TS_PARKED && op && op->kind == OP_QUEUE_POP) {
        snprintf(buf, len, "parked in queue_pop on queue \"%s\" at %s (line %d)",
                 vm->queues[op->u.queue.queue].core.name, where, line);
    } else if (st == TS_PARKED && op &&
               (op->kind == OP_MUTEX_LOCK || op->kind == OP_SYNCHRONIZE || (op->kind == OP_CV_WAIT && !pv.on_cv))) {
        int m = op->kind == OP_CV_WAIT ? op->u.cv.mutex : op->u.mutex.mutex;
        snprintf(buf, len, "waiting to lock mutex \"%s\" (held by %s) at %s (line %d)", vm->mutexes[m].name,
                 pv.owner, where, line);
    } else if (st == TS_PARKED && op && op->kind == OP_CV_WAIT) {
        snprintf(buf, len, "waiting on condition variable \"%s\" (nobody left to signal it) at %s (line %d)",
                 vm->condvars[op->u.cv.cv].name, where, line);
    } else if (st == TS_PARKED && op && op->kind == OP_JOIN && op->u.join.tmpl) {
        snprintf(buf, len, "in join, waiting for thread %s to finish, at %s (line %d)", pv.join_target, where,
                 line);
    } else if (st == TS_PARKED && op && op->kind == OP_JOIN) {
        snprintf(buf, len, "in join, waiting for the other threads to finish, at %s (line %d)", where, line);
    } else if (st == TS_WANTS_GVL) {
        snprintf(buf, len, "waiting for the GVL of Ractor %s at %s (line %d)", th->core.ractor->name, where, line);
    } else if (st == TS_COUNT) {
        snprintf(buf, len, "%s", op ? "finished" : th->core.start_at < 0 ? "not spawned" : "not started");
    } else {
        snprintf(buf, len, "%s at %s (line %d)", thread_state_name(st), where, line);
    }
}

static void thread_report(const struct exec_vm *vm, char *err, size_t errlen)
{
    size_t off = strlen(err);
    for (int i = 0; i < vm->nthreads && off + 2 < errlen; i++) {
        const struct exec_thread *th = &vm->threads[i];
        char what[512];
        describe_thread(vm, th, what, sizeof what);
        int n = snprintf(err + off, errlen - off, "\n  thread %s: %s", th->core.name, what);
        if (n < 0) break;
        off += (size_t)n;
        if (off >= errlen) break;
    }
}

/* ---- running --------------------------------------------------------------------- */

/* Make every wait of the run return and every thread leave. */
static void abort_run(struct exec_vm *vm)
{
    atomic_store_explicit(&vm->aborting, true, memory_order_release);
    for (int i = 0; i < vm->nthreads; i++) atomic_fetch_or(&vm->threads[i].interrupts, CORE_INT_TERMINATE);
    for (int r = 0; r < vm->nractors; r++) {
        struct exec_sched *s = &vm->ractors[r].sched;
        pthread_mutex_lock(&s->lock);
        for (int i = 0; i < vm->nthreads; i++)
            if (vm->threads[i].core.ractor == &vm->ractors[r].core) {
                pthread_cond_broadcast(&vm->threads[i].cond);
                if (vm->threads[i].park_ppolling) exec_gvl32_ppoll_wake(&vm->threads[i]);
            }
        pthread_cond_broadcast(&s->switch_cond);
        pthread_cond_broadcast(&s->switch_wait_cond);
        pthread_mutex_unlock(&s->lock);
    }
    pthread_mutex_lock(&vm->sched_lock);
    pthread_cond_broadcast(&vm->barrier_complete_cond);
    pthread_cond_broadcast(&vm->barrier_release_cond);
    pthread_mutex_unlock(&vm->sched_lock);
    pthread_mutex_lock(&vm->life_lock);
    vm->gate_open = true;
    pthread_cond_broadcast(&vm->life_cond);
    pthread_mutex_unlock(&vm->life_lock);
}

/* Join the created threads; false if one did not come back in time. */
static bool join_threads(struct exec_vm *vm, int created, bool with_grace)
{
    bool all = true;
    int64_t deadline = exec_now_ns() + EXEC_ABORT_GRACE_NS;
    for (int i = 0; i < created; i++) {
        struct exec_thread *th = &vm->threads[i];
        if (!th->created) continue;
        if (with_grace) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            int64_t left = deadline - exec_now_ns();
            if (left < 0) left = 0;
            ts.tv_sec += (time_t)(left / 1000000000);
            ts.tv_nsec += (long)(left % 1000000000);
            if (ts.tv_nsec >= 1000000000) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000;
            }
            if (pthread_timedjoin_np(th->pt, NULL, &ts) != 0) {
                all = false;
                continue;
            }
        } else {
            pthread_join(th->pt, NULL);
        }
        th->created = false;
    }
    return all;
}

static void add_counts(struct exec_actor_counts *sum, const struct exec_actor_counts *c)
{
    sum->wakeups += c->wakeups;
}

static sim_time ns_to_ps(int64_t ns)
{
    return (sim_time)ns * 1000;
}

static double tv_s(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

/* A timeval in whole microseconds, getrusage's resolution: the CPU time
 * kept exact, so that its cpu_s cell reads back as the same number
 * (gvlsim validate --measured gives the table the live runs gave). */
static int64_t tv_us(struct timeval tv)
{
    return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

static struct core_samples *exec_samples_of(void *ctx, int i)
{
    return ((struct exec_vm *)ctx)->threads[i].core.cur.samples;
}

/* The named measures' distributions; GV_OK or GV_ENOMEM. */
static int collect_measures(struct exec_vm *vm, struct run_metrics *m)
{
    if (vm->nmeasures == 0) return GV_OK;
    m->measures = calloc((size_t)vm->nmeasures, sizeof *m->measures);
    if (!m->measures) return GV_ENOMEM;
    m->nmeasures = vm->nmeasures;
    for (int k = 0; k < vm->nmeasures; k++) {
        m->measures[k].name = vm->scn->measures[k].name;
        int rc = core_measure_collect(exec_samples_of, vm, vm->nthreads, k, &m->measures[k]);
        if (rc != GV_OK) return rc;
    }
    return GV_OK;
}

/* --trace: the recorded state changes, in time order, and the names of
 * the threads and Ractors (the VM goes with the run).  GV_OK or GV_ENOMEM. */
static int collect_trace(struct exec_vm *vm, struct exec_trace *tr)
{
    tr->start_ns = vm->t_start_ns;
    tr->end_ns = vm->t_end_ns > 0 ? vm->t_end_ns : exec_now_ns();  /* a failed run: now */
    int rc = exec_tlog_sorted(&vm->tlog, &tr->states, &tr->nstates, &tr->cut_ns, &tr->dropped);
    if (rc != GV_OK) return rc;
    for (int i = 0; i < vm->nthreads; i++) tr->dropped += vm->threads[i].tlog.dropped;
    tr->thread_names = calloc((size_t)vm->nthreads + 1, sizeof *tr->thread_names);
    tr->ractor_names = calloc((size_t)vm->nractors + 1, sizeof *tr->ractor_names);
    if (!tr->thread_names || !tr->ractor_names) return GV_ENOMEM;
    for (; tr->nthreads < vm->nthreads; tr->nthreads++)
        if (!(tr->thread_names[tr->nthreads] = strdup(vm->threads[tr->nthreads].core.name))) return GV_ENOMEM;
    for (; tr->nractors < vm->nractors; tr->nractors++)
        if (!(tr->ractor_names[tr->nractors] = strdup(vm->ractors[tr->nractors].core.name))) return GV_ENOMEM;
    return GV_OK;
}

static void collect(struct exec_vm *vm, const struct rusage *ru0, const struct rusage *ru1,
                    struct exec_report *rep)
{
    const struct scenario *scn = vm->scn;
    struct run_metrics *m = &rep->m;
    scn_metrics_describe(scn, m);
    m->backend = "pthread";
    m->engine = "pthread";
    m->work_scale = 1.0;  /* durations run as written (exec_thread.c) */
    m->ractors = vm->nractors;
    m->threads = vm->started;
    m->gc_count = vm->gc.heap.minor + vm->gc.heap.major;
    m->gc_clock = (sim_sum)atomic_load(&vm->gc.clock_ns) * SIM_NS;
    m->gc_major = vm->gc.heap.major;
    m->gc_sweeps = vm->gc.heap.sweeps;
    for (int k = 0; k < vm->nmutexes; k++) m->mutex_waits += vm->mutexes[k].waits;
    m->wall = ns_to_ps(vm->t_end_ns - vm->t_start_ns);
    m->cpu = ns_to_ps(1000 * (tv_us(ru1->ru_utime) - tv_us(ru0->ru_utime) + tv_us(ru1->ru_stime) - tv_us(ru0->ru_stime)));
    struct exec_actor_counts ac = vm->controller_counts;
    add_counts(&ac, &vm->timer_counts);
    for (int i = 0; i < vm->nthreads; i++) {
        const struct exec_thread *th = &vm->threads[i];
        for (int s = 0; s < TS_COUNT; s++) m->state_time[s] += ns_to_ps(th->ts_ns[s]);
        m->vol_switches += (uint64_t)(th->ru_end.ru_nvcsw - th->ru_start.ru_nvcsw);
        m->invol_switches += (uint64_t)(th->ru_end.ru_nivcsw - th->ru_start.ru_nivcsw);
        m->syscalls += th->c.syscalls;
        m->ops += th->core.cur.ops;
        m->wasted_wakes += th->c.wasted_wakes;
        m->barriers += th->c.barriers;
        m->vmlock_acquires += th->c.vmlock_acquires;
        m->vmlock_waits += th->c.vmlock_waits;
        m->timeouts += th->c.timeouts;
        m->spawned += th->c.spawned;
        rep->barrier_joins += th->c.barrier_joins;
        rep->insns += th->c.insns;
        rep->ractor_ops_buf[th->core.ractor->id] += th->core.cur.ops;
        add_counts(&ac, &th->ac);
    }
    m->main_vol_switches = (uint64_t)(vm->threads[0].ru_end.ru_nvcsw - vm->threads[0].ru_start.ru_nvcsw);
    m->vol_switches += (uint64_t)vm->timer_ru.ru_nvcsw;
    m->invol_switches += (uint64_t)vm->timer_ru.ru_nivcsw;
    bool helpers = vm->policy->defer == CORE_DEFER_HELPER;
    uint64_t native = (uint64_t)vm->nthreads + (vm->policy->uses_timer_thread ? 1 : 0);
    m->timer_ticks = vm->timer_ticks;
    m->timer_wakes = vm->timer_wakes;
    m->timer_timed_waits = vm->timer_timed_waits;
    for (int r = 0; r < vm->nractors; r++) {
        const struct exec_sched *s = &vm->ractors[r].sched;
        add_counts(&ac, &s->helper_counts);
        m->vol_switches += (uint64_t)s->helper_ru.ru_nvcsw;
        m->invol_switches += (uint64_t)s->helper_ru.ru_nivcsw;
        if (helpers) native++;
    }
    for (int r = 0; r < vm->nractors; r++) {
        m->gvl_handoffs += vm->ractors[r].core.sched.handoffs;
        m->timer_ticks += vm->ractors[r].core.sched.barging.timer_fires;  /* (barging: its TIMER interrupts) */
    }
    m->wakeups = ac.wakeups;
    m->native_threads = native;
    metrics_set_unmeasured(m, MET_LINE_TRANSFERS);  /* needs perf counters on real hardware */
    m->ractor_ops = rep->ractor_ops_buf;
    m->nractor_ops = vm->nractors;
    metrics_set_unmeasured(m, MET_ENGINE_EVENTS);   /* no simulation engine */
    rep->gvl_violations = atomic_load(&vm->gvl_violations);
    rep->shared_counter = vm->shared_counter->value;
    rep->proc_vol_switches = (uint64_t)(ru1->ru_nvcsw - ru0->ru_nvcsw);
    rep->proc_invol_switches = (uint64_t)(ru1->ru_nivcsw - ru0->ru_nivcsw);
    rep->proc_user_s = tv_s(ru1->ru_utime) - tv_s(ru0->ru_utime);
    rep->proc_sys_s = tv_s(ru1->ru_stime) - tv_s(ru0->ru_stime);
    rep->calib = vm->calib;
}

/* The controller's wait.  Returns GV_OK when the run ended (or stopped). */
static int supervise(struct exec_vm *vm, double timeout_s, bool *stopped, char *err, size_t errlen)
{
    const struct scenario *scn = vm->scn;
    int64_t watchdog = vm->t_start_ns + (int64_t)(timeout_s * 1e9);
    int64_t stop_at = scn->stop_time > 0 ? vm->t_start_ns + exec_ps_to_ns(scn->stop_time) : INT64_MAX;
    pthread_mutex_lock(&vm->life_lock);
    for (;;) {
        if (vm->failed) {  /* before all_done: the failing thread may have been the last */
            vm->t_end_ns = exec_now_ns();  /* (a trace of the run ends here) */
            int64_t t = vm->t_end_ns - vm->t_start_ns;
            pthread_mutex_unlock(&vm->life_lock);
            gv_fail(err, errlen, GV_ERUN, "%s: the run failed after %.6f s: %s. Threads:", scn->file,
                    (double)t * 1e-9, vm->fail_msg);
            thread_report(vm, err, errlen);
            return GV_ERUN;
        }
        if (vm->all_done) break;
        if (vm->deadlock) {
            vm->t_end_ns = exec_now_ns();  /* (a trace of the run ends here) */
            int64_t t = vm->t_end_ns - vm->t_start_ns;
            pthread_mutex_unlock(&vm->life_lock);
            gv_fail(err, errlen, GV_ERUN,
                    "%s: deadlock after %.6f s: every living thread is parked and nothing can wake it:",
                    scn->file, (double)t * 1e-9);
            thread_report(vm, err, errlen);
            return GV_ERUN;
        }
        int64_t now = exec_now_ns();
        if (now >= watchdog) {
            vm->t_end_ns = now;
            pthread_mutex_unlock(&vm->life_lock);
            gv_fail(err, errlen, GV_ERUN,
                    "%s: watchdog: the run did not finish within %g s (--timeout); stopped it. Threads:",
                    scn->file, timeout_s);
            thread_report(vm, err, errlen);
            return GV_ERUN;
        }
        if (now >= stop_at && !*stopped) {
            /* stop.time: end every thread at its next safe point */
            *stopped = true;
            vm->t_end_ns = now;
            pthread_mutex_unlock(&vm->life_lock);
            atomic_store(&vm->stopping, true);
            for (int i = 0; i < vm->nthreads; i++)
                atomic_fetch_or(&vm->threads[i].interrupts, CORE_INT_TERMINATE);
            exec_wake_all_parked(vm);
            pthread_mutex_lock(&vm->life_lock);
            continue;
        }
        int64_t until = watchdog;
        if (!*stopped && stop_at < until) until = stop_at;
        struct timespec ts = exec_abstime(until);
        pthread_cond_timedwait(&vm->life_cond, &vm->life_lock, &ts);
    }
    if (*stopped) vm->t_end_ns = vm->t_end_ns ? vm->t_end_ns : exec_now_ns();
    pthread_mutex_unlock(&vm->life_lock);
    return GV_OK;
}

static int start_threads(struct exec_vm *vm, int *created, char *err, size_t errlen)
{
    for (int i = 0; i < vm->nthreads; i++) {
        struct exec_thread *th = &vm->threads[i];
        int rc = pthread_create(&th->pt, NULL, exec_thread_main, th);
        if (rc)
            return gv_fail(err, errlen, GV_ERUN, "cannot create thread %d of %d (%s): %s", i + 1,
                           vm->nthreads, th->core.name, strerror(rc));
        th->created = true;
        *created = i + 1;
    }
    return GV_OK;
}

int exec_run(const struct scenario *scn, const struct exec_opts *opts, struct exec_report *rep,
             char *err, size_t errlen)
{
    memset(rep, 0, sizeof *rep);
    struct exec_vm *vm = NULL;
    int rc = exec_vm_build(scn, opts, &vm, err, errlen);
    if (rc != GV_OK) return rc;
    rep->ractor_ops_buf = calloc((size_t)vm->nractors, sizeof *rep->ractor_ops_buf);
    if (!rep->ractor_ops_buf) {
        exec_vm_free(vm);
        return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    }

    struct exec_affinity aff;
    rc = exec_affinity_pin(&aff, scn->machine.cores, err, errlen);
    if (rc != GV_OK) {
        exec_vm_free(vm);
        return rc;
    }
    if (opts && opts->calibration && opts->calibration->ps_per_iter > 0)
        vm->calib = *opts->calibration;
    else
        rc = exec_calibrate(&vm->calib, opts && opts->max_spread > 0 ? opts->max_spread : EXEC_MAX_CALIB_SPREAD,
                            err, errlen);
    rep->calib = vm->calib;
    if (rc != GV_OK) {
        exec_affinity_restore(&aff);
        exec_vm_free(vm);
        return rc;
    }

    int created = 0;
    bool stopped = false;
    rc = start_threads(vm, &created, err, errlen);
    if (rc == GV_OK && vm->policy->uses_timer_thread) rc = exec_timer_start(vm, err, errlen);
    if (rc == GV_OK && vm->policy->defer == CORE_DEFER_HELPER) rc = exec_threshold_start(vm, err, errlen);
    struct rusage ru0, ru1;
    if (rc == GV_OK) {
        /* queue every thread on its GVL in scenario order, then open the gate */
        for (int i = 0; i < vm->nthreads; i++) {
            struct exec_thread *th = &vm->threads[i];
            if (th->core.start_at != 0) continue;  /* starts later (exec_thread.c) */
            pthread_mutex_lock(&exec_ractor_of(th)->sched.lock);
            exec_gvl_prefill(th);
            pthread_mutex_unlock(&exec_ractor_of(th)->sched.lock);
        }
        getrusage(RUSAGE_SELF, &ru0);
        pthread_mutex_lock(&vm->life_lock);
        vm->t_start_ns = exec_now_ns();
        vm->gate_open = true;
        pthread_cond_broadcast(&vm->life_cond);
        pthread_mutex_unlock(&vm->life_lock);
        double timeout = opts && opts->timeout_s > 0 ? opts->timeout_s : 600.0;
        rc = supervise(vm, timeout, &stopped, err, errlen);
    }

    bool joined;
    if (rc == GV_OK) {
        joined = join_threads(vm, created, false);
        getrusage(RUSAGE_SELF, &ru1);
    } else {
        abort_run(vm);
        joined = join_threads(vm, created, true);
    }
    exec_threshold_stop(vm);
    exec_timer_stop(vm);
    exec_affinity_restore(&aff);
    if (rc == GV_OK) {
        collect(vm, &ru0, &ru1, rep);
        rep->stopped_at_time = stopped;
        if (collect_measures(vm, &rep->m) != GV_OK)
            rc = gv_fail(err, errlen, GV_ENOMEM, "out of memory for the samples of the measures");
    }
    /* the record of a run that failed too, up to the failure (every thread left) */
    if (joined && vm->tlog.mem && vm->t_start_ns > 0 && collect_trace(vm, &rep->trace) != GV_OK && rc == GV_OK)
        rc = gv_fail(err, errlen, GV_ENOMEM, "out of memory for the trace");
    if (!joined) {
        /* a thread is stuck in a long call: its memory must outlive it */
        size_t off = strlen(err);
        snprintf(err + off, errlen - off,
                 "\n  (some threads did not leave within %d s and were left running)",
                 (int)(EXEC_ABORT_GRACE_NS / 1000000000));
        return rc;
    }
    exec_vm_free(vm);
    return rc;
}

void exec_report_free(struct exec_report *rep)
{
    free(rep->ractor_ops_buf);
    rep->ractor_ops_buf = NULL;
    rep->m.ractor_ops = NULL;
    free(rep->m.measures);
    rep->m.measures = NULL;
    rep->m.nmeasures = 0;
    struct exec_trace *tr = &rep->trace;
    for (int i = 0; tr->thread_names && i < tr->nthreads; i++) free(tr->thread_names[i]);
    for (int r = 0; tr->ractor_names && r < tr->nractors; r++) free(tr->ractor_names[r]);
    free(tr->thread_names);
    free(tr->ractor_names);
    free(tr->states);
    memset(tr, 0, sizeof *tr);
}

void exec_summary_write(FILE *f, const struct exec_report *rep)
{
    const struct exec_calibration *c = &rep->calib;
    fprintf(f, "  busy loop: %.1f ps/iteration (min %.1f, max %.1f, spread %.1f%% over %d samples, "
               "%d attempt%s)\n",
            c->ps_per_iter, c->min_ps, c->max_ps, 100.0 * c->spread, c->samples, c->attempts,
            c->attempts == 1 ? "" : "s");
    fprintf(f, "  process: %" PRIu64 " voluntary, %" PRIu64 " involuntary switches; "
               "user %.3f s, sys %.3f s\n",
            rep->proc_vol_switches, rep->proc_invol_switches, rep->proc_user_s, rep->proc_sys_s);
    if (rep->m.barriers || rep->barrier_joins)
        fprintf(f, "  barriers: %" PRIu64 " completed, %" PRIu64 " joins\n", rep->m.barriers,
                rep->barrier_joins);
    if (rep->insns)
        fprintf(f, "  instructions: %" PRIu64 " executed; shared counter %" PRIu64 "%s\n", rep->insns,
                rep->shared_counter,
                rep->shared_counter && rep->shared_counter < rep->insns ? " (lost updates: plain increments race)" : "");
    fprintf(f, "  GVL exclusion check: %s\n", rep->gvl_violations ? "VIOLATED" : "ok");
    if (rep->stopped_at_time) fprintf(f, "  stopped at stop.time\n");
}
