/* vm.c - build the simulated VM from a scenario, run it, report.
 *
 * Every Ruby thread starts at time 0 on its own native thread (the 1:1
 * "dedicated native thread" of the main Ractor), in scenario order, and
 * asks for its Ractor's GVL - unless its template says "start" (it starts
 * then) or "spawned" (a spawn op starts it); the timer thread starts
 * beside them.  Threads
 * of other Ractors are M:N instead: they wait for a shared native thread
 * (mn_pool.c).  The run
 * ends when the last thread ends, at stop.time, or fails: a deadlock (no
 * event left while threads still wait) is reported thread by thread.
 */
#include "vm.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bigmem.h"
#include "../common/err.h"
#include "../core/expand.h"
#include "../core/measure.h"
#include "../core/policy.h"
#include "counter.h"
#include "gvl.h"
#include "mn_pool.h"
#include "thread.h"
#include "timer.h"
#include "vm_lock.h"

void vm_fail(struct vm *vm, const char *fmt, ...)
{
    if (vm->status == GV_OK) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(vm->error, sizeof vm->error, fmt, ap);
        va_end(ap);
        vm->status = GV_ERUN;
    }
    sim_stop(vm->eng);
}

sim_time vm_futex_draw(struct rb_thread *th, const struct scn_durs *d)
{
    return d->v[rng_uniform(&th->core.rng, 0, d->n - 1)];
}

void vm_instant(struct rb_thread *th, const char *name)
{
    struct vm *vm = th->vm;
    if (vm->obs.instant) vm->obs.instant(vm->obs.ctx, name, th->core.id, sim_now(vm->eng));
}

static struct core_ractor *vm_ractor_at(void *ctx, int i)
{
    return &((struct vm *)ctx)->ractors[i].core;
}

static struct core_thread *vm_thread_at(void *ctx, int i)
{
    return &((struct vm *)ctx)->threads[i].core;
}

_Static_assert((int)OS_SCHED_FIFO == (int)MACH_SCHED_FIFO && (int)OS_SCHED_CFS == (int)MACH_SCHED_CFS &&
                   (int)OS_SCHED_EEVDF == (int)MACH_SCHED_EEVDF &&
                   (int)OS_SCHED_EEVDF_DELAY == (int)MACH_SCHED_EEVDF_DELAY &&
                   (int)OS_SCHED_COUNT == (int)MACH_SCHED_COUNT,
               "os_scheduler names the machine's schedulers in order");

int vm_init(struct vm *vm, const struct scenario *scn, struct sim_engine *eng, char *err,
            unsigned errlen)
{
    memset(vm, 0, sizeof *vm);
    vm->scn = scn;
    vm->eng = eng;
    vm->policy = core_policy_get(scn->runtime.gvl_policy);
    if (!vm->policy)
        return gv_fail(err, errlen, GV_EUNSUP, "%s: gvl_policy \"%s\" is not implemented by the simulator",
                       scn->file, scn_policy_name(scn->runtime.gvl_policy));
    vm->sections_timed = scn->machine.cores > 1 && scn->machine.cond_wait_section.n > 0 && !vm->policy->barging;

    struct mach_params mp = {
        .cores = scn->machine.cores,
        .context_switch = scn->machine.context_switch,
        .wake_idle_core = scn->machine.wake_idle_core,
        .wake_idle_cpu = scn->machine.wake_idle_cpu,
        .wake_busy_core = scn->machine.wake_busy_core,
        .wake_jitter = scn->machine.wake_jitter,
        .os_timeslice = scn->machine.os_timeslice,
        .sched = (enum mach_sched)scn->machine.os_scheduler,
        .os_tick = scn->machine.os_tick,
        .corun_slowdown = scn->machine.corun_slowdown,
        .wake_pack = scn->machine.wake_pack,
        .wake_pack_sleep = scn->machine.wake_pack_sleep,
        .wake_pack_util = scn->machine.wake_pack_util,
        .wake_idle_extra = &scn->machine.wake_idle_extra,
        .wake_ipi_extra = &scn->machine.wake_ipi_extra,
        .wake_waking = scn->machine.wake_waking.v,
        .wake_waking_n = scn->machine.wake_waking.n,
        .wake_prehalt_window = scn->machine.wake_prehalt_window,
        .wake_prehalt_share = scn->machine.wake_prehalt_share,
        .wake_prehalt_return = scn->machine.wake_prehalt_return,
        .wake_prehalt_cost = scn->machine.futex_wake,
        .steal_rate = scn->machine.hidden_steal_rate,
        .steal_len = scn->machine.hidden_steal_len.v,
        .steal_nlen = scn->machine.hidden_steal_len.n,
        .expiry_stalls = scn->machine.timer_stall != SCN_DUR_UNSET && scn->machine.timer_stall > 0,
        .wake_return = vm_chain_wait(&scn->machine),
        .mark_after_idle = vm_after_idle_charged(&scn->machine),
        .seed = scn->seed,
        .speed_f = scn->machine.speed_levels,
        .speed_dwell = scn->machine.speed_dwell.v,
        .speed_n = scn->machine.speed_dwell.n,
        .speed_wake_share = scn->machine.speed_wake_share,
    };
    int rc = mach_init(&vm->mach, eng, &mp, err, errlen);
    if (rc != GV_OK) return rc;

    vm->nractors = scn->total_ractors;
    vm->nthreads = core_thread_count(scn);
    vm->nqueues = scn->nqueues;
    vm->nmutexes = scn->nmutexes;
    vm->ncondvars = scn->ncondvars;
    vm->nmeasures = scn->nmeasures;
    vm->ractors = calloc((size_t)vm->nractors, sizeof *vm->ractors);
    /* the threads, then their native threads, in one mapping (rounded up
     * to huge pages once) */
    vm->threads = bigmem_calloc((size_t)vm->nthreads, sizeof *vm->threads + sizeof *vm->nts);
    if (vm->threads) vm->nts = (struct mach_task *)(void *)(vm->threads + vm->nthreads);
    vm->cold = bigmem_calloc_sparse((size_t)vm->nthreads, sizeof *vm->cold);
    vm->queues = calloc((size_t)(vm->nqueues ? vm->nqueues : 1), sizeof *vm->queues);
    vm->mutexes = calloc((size_t)(vm->nmutexes ? vm->nmutexes : 1), sizeof *vm->mutexes);
    vm->condvars = calloc((size_t)(vm->ncondvars ? vm->ncondvars : 1), sizeof *vm->condvars);
    for (int l = 0; l < CORE_OBJSPACE_LINES; l++) {
        vm->objspace_owner[l] = -1;
        vm->objspace_ready[l] = 0;
    }
    int n;
    const struct core_objspace_access *a = core_objspace_object(&n);
    vm->os_object_nlines = core_objspace_lines(a, n, vm->os_object_lines);
    a = core_objspace_escape(&n);
    vm->os_escape_nlines = core_objspace_lines(a, n, vm->os_escape_lines);
    vm->bodies_now = calloc((size_t)scn->machine.cores, sizeof *vm->bodies_now);
    vm->bodies_garbage = calloc((size_t)scn->machine.cores, sizeof *vm->bodies_garbage);
    if (!vm->ractors || !vm->threads || !vm->cold || !vm->nts || !vm->queues || !vm->mutexes || !vm->condvars || !vm->bodies_now ||
        !vm->bodies_garbage)
        goto oom;

    for (int q = 0; q < scn->nqueues; q++) {
        core_queue_init(&vm->queues[q], scn->queues[q].name, scn->queues[q].initial);
    }
    for (int m = 0; m < vm->nmutexes; m++) core_mutex_init(&vm->mutexes[m], scn->mutexes[m].name);
    for (int c = 0; c < vm->ncondvars; c++) core_condvar_init(&vm->condvars[c], scn->condvars[c].name);
    core_heap_init(&vm->heap, (uint64_t)scn->runtime.gc_heap_init_slots, scn->runtime.gc_heap_growth_factor,
                   scn->total_ractors);
    core_heap_boot(&vm->heap, (uint64_t)scn->runtime.gc_boot_objects);

    if (core_expand(scn, vm_ractor_at, vm_thread_at, vm) != GV_OK) goto oom;
    for (int r = 0; r < vm->nractors; r++) vm->ractors[r].vm = vm;
    for (int i = 0; i < vm->nthreads; i++) {
        struct rb_thread *th = &vm->threads[i];
        th->vm = vm;
        th->mn = mn_thread_rule(th);
        if (!th->mn) {  /* (an M:N thread runs on a shared one: mn_pool.c) */
            mach_task_init(&vm->mach, rb_own_nt(th), th->core.name);
            th->nt = rb_own_nt(th);
            rb_ractor_of(th)->prefetch_nt = true;
        }
        th->ts = TS_COUNT;
        if (th->core.start_at >= 0) vm->alive++;
        if (vm->nmeasures > 0) {
            th->core.cur.samples = calloc((size_t)vm->nmeasures, sizeof *th->core.cur.samples);
            if (!th->core.cur.samples) goto oom;
        }
    }
    timer_init(vm);
    /* M:N pool, instruction counter, VM lock and barrier (mn_pool.c,
     * counter.c, vm_lock.c) */
    if ((rc = mn_init(vm, err, errlen)) != GV_OK || (rc = counter_init(vm, err, errlen)) != GV_OK ||
        (rc = vm_sync_init(vm, err, errlen)) != GV_OK) {
        vm_free(vm);
        return rc;
    }
    /* every Ractor's scheduler and the policy's state (gvl.c) */
    for (int r = 0; r < vm->nractors; r++) {
        int prc = gvl_init(&vm->ractors[r], err, errlen);
        if (prc != GV_OK) {
            vm_free(vm);
            return prc;
        }
    }
    return GV_OK;

oom:
    vm_free(vm);
    return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory building %d threads", scn->file,
                   scn->total_threads);
}

static void deadlock_report(struct vm *vm, char *err, unsigned errlen)
{
    size_t off = 0;
    char units[64];
    double t = (double)sim_now(vm->eng) / (double)SIM_S;
    snprintf(units, sizeof units, "%.9f s", t);
    off += (size_t)snprintf(err + off, errlen - off,
                            "%s: deadlock at %s: %d thread%s blocked and nothing left to happen:",
                            vm->scn->file, units, vm->alive, vm->alive == 1 ? "" : "s");
    for (int i = 0; i < vm->nthreads && off + 2 < errlen; i++) {
        const struct rb_thread *th = &vm->threads[i];
        if (th->dead || !th->core.started) continue;
        char what[512];
        th_describe_wait(th, what, sizeof what);
        off += (size_t)snprintf(err + off, errlen - off, "\n  thread %s: %s", th->core.name, what);
    }
}

static void start_later(void *obj, uint64_t arg)
{
    (void)arg;
    th_start(obj);
}

int vm_run(struct vm *vm, sim_time max_time, char *err, unsigned errlen)
{
    for (int i = 0; i < vm->nthreads; i++) {
        struct rb_thread *th = &vm->threads[i];
        if (th->core.start_at == 0) th_start(th);
        else if (th->core.start_at > 0) sim_at(vm->eng, th->core.start_at, start_later, th, 0);
    }
    timer_start(vm);
    /* stop.time is the engine's horizon, not an event: a scenario that
     * deadlocks before it still runs out of events and is reported. */
    sim_time stop = vm->scn->stop_time;
    sim_time until = stop > 0 && stop < max_time ? stop : max_time;

    int rc = sim_run(vm->eng, until, err, errlen);
    if (rc != GV_OK) return rc;
    if (vm->status != GV_OK) return gv_fail(err, errlen, vm->status, "%s: %s", vm->scn->file, vm->error);
    if (vm->mach.oom) return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory in the machine model (a rated burst, a fair entity)", vm->scn->file);
    if (vm->mach.error[0]) return gv_fail(err, errlen, GV_ERUN, "internal error: %s", vm->mach.error);
    if (!vm->finished && vm->eng->pending > 0 && until == stop) {
        vm->stopped = true;
        vm->end_time = stop;
    }
    if (!vm->finished && !vm->stopped) {
        if (vm->eng->pending == 0) {
            deadlock_report(vm, err, errlen);
            return GV_ERUN;
        }
        return gv_fail(err, errlen, GV_ERUN,
                       "%s: simulated time limit of %.3f s reached with %d thread%s still running "
                       "(raise it with --max-time, or give the scenario a stop.time)",
                       vm->scn->file, (double)max_time / (double)SIM_S, vm->alive,
                       vm->alive == 1 ? "" : "s");
    }
    /* close the books at the end time */
    for (int i = 0; i < vm->nthreads; i++) {
        struct rb_thread *th = &vm->threads[i];
        if (th->ts < TS_COUNT) vm_set_state_at(th, TS_COUNT, vm->end_time);
    }
    mach_finish(&vm->mach, vm->end_time);
    return GV_OK;
}

static struct core_samples *vm_samples_of(void *ctx, int i)
{
    return ((struct vm *)ctx)->threads[i].core.cur.samples;
}

/* The fair class's counts of one task, as thread `name` of the summary's
 * lines by thread, if the class woke it or put it to sleep. */
static void fair_thread_add(struct run_metrics *m, const struct mach_task *t, const char *name)
{
    if (!t->se || m->nfair_threads >= RUN_FAIR_THREADS) return;
    const struct fair_counts *k = &t->se->counts;
    uint64_t sleeps = 0;
    for (int i = 0; i < FAIR_SLEEP_KINDS; i++) sleeps += k->sleeps[i];
    if (!k->wake_checks && !sleeps) return;
    struct run_fair_thread *o = &m->fair_threads[m->nfair_threads++];
    snprintf(o->name, sizeof o->name, "%s", name ? name : "?");
    o->woken = k->wake_checks;
    o->woken_preempts = k->wake_preempts;
    o->woken_delayed = k->delayed_checks;
    o->woken_delayed_preempts = k->delayed_preempts;
    o->sleeps_delayed = k->sleeps[FAIR_SLEEP_DELAYED];
    o->sleeps_lag_pos = k->sleeps[FAIR_SLEEP_LAG_POS];
    o->sleeps_lag_zero = k->sleeps[FAIR_SLEEP_LAG_ZERO];
    o->sleeps_lag_neg = k->sleeps[FAIR_SLEEP_LAG_NEG];
    const struct fair_lead *l = &t->se->lead;
    o->waker_eligible = l->waker_eligible;
    o->lead_near = l->near;
    o->lead_steps = l->steps;
    o->lead_moved = l->moved;
}

/* ... for the first RUN_FAIR_THREADS Ruby threads with a native thread of
 * their own (an M:N thread's runs on its Ractor's shared ones), then the
 * timer thread. */
static int fair_threads_collect(const struct vm *vm, struct run_metrics *m)
{
    if (!fair_on(&vm->mach)) return GV_OK;
    m->fair_threads = calloc(RUN_FAIR_THREADS, sizeof *m->fair_threads);
    if (!m->fair_threads) return GV_ENOMEM;
    for (int i = 0; i < vm->nthreads; i++)
        if (!vm->threads[i].mn) fair_thread_add(m, rb_own_nt(&vm->threads[i]), vm->threads[i].core.name);
    fair_thread_add(m, &vm->timer.nt, "timer thread");
    return GV_OK;
}

int vm_collect(struct vm *vm, struct run_metrics *m)
{
    uint64_t *ractor_ops = calloc((size_t)(vm->nractors ? vm->nractors : 1), sizeof *ractor_ops);
    if (!ractor_ops) return GV_ENOMEM;
    const struct scenario *scn = vm->scn;
    scn_metrics_describe(scn, m);
    if (vm->nmeasures > 0) {
        m->measures = calloc((size_t)vm->nmeasures, sizeof *m->measures);
        if (!m->measures) {
            free(ractor_ops);
            return GV_ENOMEM;
        }
        m->nmeasures = vm->nmeasures;
        for (int k = 0; k < vm->nmeasures; k++) {
            m->measures[k].name = scn->measures[k].name;
            if (core_measure_collect(vm_samples_of, vm, vm->nthreads, k, &m->measures[k]) != GV_OK) {
                free(ractor_ops);
                return GV_ENOMEM;
            }
        }
    }
    m->backend = "sim";
    m->engine = vm->eng->ops->name;
    m->ractors = vm->nractors;
    m->threads = vm->started;
    m->work_scale = scn->machine.work_scale;
    m->wall = vm->end_time;
    m->cpu = mach_cpu_time(&vm->mach);
    for (int i = 0; i < vm->nthreads; i++) {
        const struct rb_thread *th = &vm->threads[i];
        if (!th->mn) {
            m->vol_switches += rb_own_nt(th)->vcsw;
            m->invol_switches += rb_own_nt(th)->ivcsw;
        }
        ractor_ops[th->core.ractor->id] += th->core.cur.ops;
    }
    for (int s = 0; s < TS_COUNT; s++) m->state_time[s] += vm->state_time[s];
    m->syscalls += vm->syscalls;
    m->vol_switches += vm->timer.nt.vcsw;
    m->invol_switches += vm->timer.nt.ivcsw;
    m->main_vol_switches = vm->nthreads > 0 ? rb_own_nt(&vm->threads[0])->vcsw : 0;
    m->wakeups = vm->wakeups;
    m->wasted_wakes = vm->wasted_wakes;
    m->timer_ticks = vm->timer.ticks;
    m->timer_wakes = vm->timer.wakes;
    m->timer_timed_waits = vm->timer.timed_waits;
    m->timer_lock_waits = vm->timer.sched_lock.sleeps;
    m->fair_wake_checks = vm->mach.fair.wake_checks;
    m->fair_wake_preempts = vm->mach.fair.wake_preempts;
    m->fair_delayed_checks = vm->mach.fair.delayed_checks;
    m->fair_delayed_preempts = vm->mach.fair.delayed_preempts;
    m->fair_sleeps_delayed = vm->mach.fair.sleeps[FAIR_SLEEP_DELAYED];
    m->fair_sleeps_lag_pos = vm->mach.fair.sleeps[FAIR_SLEEP_LAG_POS];
    m->fair_sleeps_lag_zero = vm->mach.fair.sleeps[FAIR_SLEEP_LAG_ZERO];
    m->fair_sleeps_lag_neg = vm->mach.fair.sleeps[FAIR_SLEEP_LAG_NEG];
    m->fair_wakes_unscanned = vm->mach.wakes_unscanned;
    if (fair_threads_collect(vm, m) != GV_OK) {
        free(ractor_ops);
        return GV_ENOMEM;
    }
    m->barriers = vm->barriers;
    m->gc_count = vm->heap.minor + vm->heap.major;
    m->gc_major = vm->heap.major;
    m->gc_sweeps = vm->heap.sweeps;
    m->gc_clock = vm->gc_clock_cpu;
    for (int k = 0; k < vm->nmutexes; k++) m->mutex_waits += vm->mutexes[k].waits;
    m->timeouts = vm->timeouts;
    m->spawned = vm->spawned;
    m->vmlock_acquires = vm->vmlock_acquires;
    m->vmlock_waits = vm->vmlock_waits;
    for (int r = 0; r < vm->nractors; r++) m->ops += ractor_ops[r];
    m->ractor_ops = ractor_ops;
    m->nractor_ops = vm->nractors;
    mn_collect(vm, m);       /* native_threads, SNT switches */
    counter_collect(vm, m);  /* line_transfers: the instruction counter's ... */
    m->line_transfers += vm->objspace_transfers + vm->lock_line_moves;  /* ... the objspace's, the locks' */
    for (int r = 0; r < vm->nractors; r++) gvl_collect(&vm->ractors[r], m);  /* hand-offs, helpers */
    m->engine_events = vm->eng->fired;
    return GV_OK;
}

void vm_free(struct vm *vm)
{
    if (vm->threads)
        for (int i = 0; i < vm->nthreads; i++) core_samples_free(vm->threads[i].core.cur.samples, vm->nmeasures);
    if (vm->queues)
        for (int q = 0; q < vm->nqueues; q++) core_queue_destroy(&vm->queues[q]);
    if (vm->ractors)
        for (int r = 0; r < vm->nractors; r++) {
            gvl_free(&vm->ractors[r]);
            core_ractor_free(&vm->ractors[r].core);
        }
    bigmem_free(vm->threads);
    bigmem_free(vm->cold);
    free(vm->bodies_now);
    free(vm->bodies_garbage);
    free(vm->ractors);
    free(vm->queues);
    free(vm->mutexes);
    free(vm->condvars);
    mn_free(vm);
    counter_free(vm);
    vm_sync_free(vm);
    mach_free(&vm->mach);
    memset(vm, 0, sizeof *vm);
}
