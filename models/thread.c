/* thread.c - the program interpreter of a simulated Ruby thread.
 *
 * One op at a time, stepped by the program cursor (core/cursor.c), in the
 * order of CRuby's own code paths:
 * - compute: Ruby work holding the GVL, cut at a safe point when an
 *   interrupt arrives (a timer tick, a barrier);
 * - syscall with releases_gvl: BLOCKING_REGION (thread.c): the GVL's
 *   blocking_enter (models/gvl.c), the call itself (on the CPU, or asleep
 *   for io_wait), blocking_exit, then RUBY_VM_CHECK_INTS_BLOCKING;
 * - queue_pop on an empty queue, mutex_lock of a taken mutex, cv_wait,
 *   join: models/sync.c (native_sleep), the op retried on wake;
 * - alloc: models/gc.c; spawn: another instance starts (Thread.new);
 * - a generator's arrival: sleep until it, then push an item stamped with
 *   it;
 * - blocks (loop, measure, branch, synchronize): the cursor's frames, a
 *   measured block's end a sample (core/cursor.h);
 * - sleep: native_cond_sleep between THREAD_BLOCKING_BEGIN/END, which
 *   release the GVL at once (yield_immediately);
 * - the end of the program: thread_sched_to_dead.
 * Interrupts are executed as rb_threadptr_execute_interrupts does: a TIMER
 * interrupt credits one tick to running_time and yields once the quantum
 * is used up (rb_thread_schedule_limits).
 */
#include "thread.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../core/cursor.h"
#include "../core/heap.h"
#include "../core/policy.h"
#include "barrier.h"
#include "counter.h"
#include "gc.h"
#include "gvl.h"
#include "invariant.h"
#include "mn_pool.h"
#include "sync.h"
#include "vm_lock.h"

/* Ops a thread may run back to back without simulated time passing before
 * the run is declared hung (a loop whose body takes no time). */
#define TH_ZERO_TIME_LIMIT UINT64_C(10000000)

/* ---- CPU and kernel sleeps ---------------------------------------------- */

static void section_paid(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    gvl_section_end(th);  /* (its unlock may owe a futex wake more) */
    th_burst(th, th->section_d, th->section_k);
}

/* th_burst without a sched lock held: the CPU th owes (pending_cost, as
 * mach_owed_work has it on its core) and then d */
static inline __attribute__((always_inline)) void burst_owed(struct rb_thread *th, sim_time d, mach_cont k)
{
    sim_time total = d;
    if (th->pending_cost != 0) {
        total += mach_owed_work(&th->vm->mach, th->nt->core, th->pending_cost);
        th->pending_cost = 0;
    }
    th->wrote_timer = false;  /* (the write is paid here) */
    /* only a burst that takes time is progress: a loop of bursts of no
     * time (a forever loop of `compute` 0) fires its events at one instant
     * without end, and th_step's guard must count them */
    if (total > 0) th->zero_time_ops = 0;
    mach_burst(&th->vm->mach, th->nt, total, k, th);
}

/* th_burst holding a sched lock (gvl.c, "the waiter's own section"): the
 * section's CPU first, then the unlock (section_paid), then the rest */
static __attribute__((noinline)) void burst_locked(struct rb_thread *th, sim_time d, mach_cont k)
{
    if (th->pending_cost > 0) {
        sim_time section = mach_owed_work(&th->vm->mach, th->nt->core, th->pending_cost);
        th->pending_cost = 0;
        th->section_d = d;
        th->section_k = k;
        if (section > 0) th->zero_time_ops = 0;
        mach_burst(&th->vm->mach, th->nt, section, section_paid, th);
        return;
    }
    gvl_section_end(th);
    burst_owed(th, d, k);
}

void th_burst(struct rb_thread *th, sim_time d, mach_cont k)
{
    if (__builtin_expect(th->holds_sched_lock, 0)) {
        burst_locked(th, d, k);
        return;
    }
    burst_owed(th, d, k);
}

static void kernel_wake(void *obj, uint64_t arg)
{
    (void)arg;
    struct rb_thread *th = obj;
    if (!th->vml_asleep) mach_wake(&th->vm->mach, th->nt, NULL);
}

static void block_now(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    th->zero_time_ops = 0;
    if (th->block_timeout >= 0) sim_after(th->vm->eng, th->block_timeout, kernel_wake, th, 0);
    mach_block(&th->vm->mach, th->nt, th->block_k, th);
}

void th_block_timeout(struct rb_thread *th, sim_time timeout, mach_cont k)
{
    th->block_k = k;
    th->block_timeout = timeout;
    th_settle(th, block_now);
}

void th_block(struct rb_thread *th, mach_cont k)
{
    th_block_timeout(th, -1, k);
}

void th_interrupt(struct rb_thread *th, unsigned bits)
{
    th_interrupt_at(th, bits, rb_machine_of(th)->safepoint_gap);
}

void th_interrupt_at(struct rb_thread *th, unsigned bits, sim_time safepoint_in)
{
    th->interrupts |= bits;
    if (th->in_compute) mach_interrupt(&th->vm->mach, th->nt, safepoint_in);
}

/* ---- program counter ---------------------------------------------------- */

static const struct scn_op *next_op(struct rb_thread *th)
{
    const struct scn_op *op;
    for (;;) {
        switch (core_cursor_next(&th->core, &op)) {
        case CORE_NEXT_OP: return op;
        case CORE_NEXT_ITERATION: continue;
        case CORE_NEXT_SAMPLE:
            if (!core_cursor_sample(&th->core, sim_now(th->vm->eng)))
                vm_fail(th->vm, "out of memory for the samples of thread %s", th->core.name);
            continue;
        case CORE_NEXT_END: return NULL;
        }
    }
}

static void enter_block(struct rb_thread *th, const struct scn_op *op)
{
    if (!core_cursor_enter(&th->core, op, sim_now(th->vm->eng)))  /* the loader limits nesting */
        vm_fail(th->vm, "thread %s: blocks nested too deep at %s", th->core.name, op->path);
}

/* ---- ops ---------------------------------------------------------------- */

static void compute_done(struct mach_task *t, void *ctx)
{
    struct rb_thread *th = ctx;
    th->in_compute = false;
    th->compute_left = t->burst_left;  /* > 0 if cut at a safe point */
    th_step(th);
}

/* Work right after an idle CPU runs cold.  A thread that arrives on a
 * core that was idle finds there little of what its work had in the
 * caches: on the Intel Xeon guest (Firecracker, Ruby 3.1.2, 2026-12-06) a
 * File.write of /dev/null took 5.2-5.5 us right after a Thread::Queue
 * hand-off from a thread on the same CPU and 8.3-9.1 us after one from a
 * thread on the other CPU (its own CPU idle meanwhile), and one thread
 * alone 2-3 us more after a sleep than after a busy wait as long; a C
 * loop of the same calls, 0.1 us (docs/validate.md, "Work after an idle CPU
 * runs cold").  The machine marks each arrival on an idle core
 * (mach_task.after_idle, all bits set); the thread's first work of each
 * kind after it pays that kind's figure as measured by gvlsim calibrate,
 * once: Ruby code (a compute) machine.compute_after_idle, a Ruby method of
 * the machine's ("method_work": "machine") machine.method_after_idle by
 * the call that begins it - File.mtime's stat, File.write's open of its
 * open/write/close triple.  A method's figure holds the interpreter's own:
 * it clears that kind too, or pays less by it when Ruby code paid it first;
 * a thread that arrives in the middle of a method (back from its open,
 * say) finds the method begun and pays the interpreter's figure for the
 * rest of it. */
enum { AFTER_IDLE_COMPUTE = 1u, AFTER_IDLE_MTIME = 2u, AFTER_IDLE_WRITE = 4u };

/* The Ruby method a call belongs to (its bit), none for a bare call. */
static const uint8_t after_idle_method[CALL_COUNT] = {
    [CALL_STAT] = AFTER_IDLE_MTIME,
    [CALL_OPEN_DEVNULL] = AFTER_IDLE_WRITE,
    [CALL_WRITE_DEVNULL] = AFTER_IDLE_WRITE,
    [CALL_CLOSE] = AFTER_IDLE_WRITE,
};

static sim_time compute_after_idle(struct rb_thread *th)
{
    if (!(th->nt->after_idle & AFTER_IDLE_COMPUTE)) return 0;
    th->nt->after_idle &= (uint8_t)~AFTER_IDLE_COMPUTE;
    return rb_machine_of(th)->compute_after_idle;
}

static sim_time method_after_idle(struct rb_thread *th, const struct scn_op *op)
{
    uint8_t bit = after_idle_method[op->u.syscall.call];
    if (!op->u.syscall.method_work_machine || !bit) return 0;  /* not the machine's Ruby method */
    sim_time x = rb_machine_of(th)->method_after_idle_cost[op->u.syscall.call];
    if (!(th->nt->after_idle & bit) || x <= 0) {
        /* the method begun before (or without a figure of its own): the
         * interpreter's, for what is left of it */
        th->nt->after_idle &= (uint8_t)~bit;
        return compute_after_idle(th);
    }
    /* the interpreter's part, if its own work paid it since the arrival */
    sim_time paid = th->nt->after_idle & AFTER_IDLE_COMPUTE ? 0 : rb_machine_of(th)->compute_after_idle;
    th->nt->after_idle &= (uint8_t)~(bit | AFTER_IDLE_COMPUTE);
    return x > paid ? x - paid : 0;
}

static void run_compute(struct rb_thread *th, sim_time d)
{
    th->in_compute = true;
    if (counter_rated(th)) {  /* shared instruction counter (counter.c) */
        counter_compute(th, d, compute_done);
        return;
    }
    th_burst(th, d, compute_done);
}

/* After a syscall op's call and its method's work after it: the objects
 * its Ruby method allocates then (syscall "allocates": File.mtime's Time),
 * as the op's second step, or the next op. */
static void syscall_after_work_done(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    if (th->op->u.syscall.allocates == 0) {
        th_step(th);
        return;
    }
    th->sys_alloc = true;
    th_retry(th);
}

/* The end of a syscall op's call, holding the GVL: the work its Ruby
 * method does after the call (syscall "method_work_after": File.mtime's
 * Time, what File.write does after its close), C code with no interrupt
 * check, then its allocations or the next op. */
static void syscall_end(struct rb_thread *th)
{
    sim_time w = core_method_work_after(th->op, rb_machine_of(th)->work_scale);
    if (th->nt->after_idle) w += compute_after_idle(th);  /* woken for the GVL after the call */
    if (w > 0) {
        th_burst(th, w, syscall_after_work_done);
        return;
    }
    syscall_after_work_done(th->nt, th);
}

static void after_blocking(struct rb_thread *th)
{
    /* RUBY_VM_CHECK_INTS_BLOCKING happens in th_step */
    th_step(th);
}

static void syscall_done(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    th->vm->syscalls++;
    th->blocking = false;
    vm_set_state(th, TS_WANTS_GVL);
    mn_blocking_end(th);  /* M:N: unpin the SNT */
    gvl_blocking_exit(th, syscall_end);
}

static void syscall_holding_gvl_done(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    th->vm->syscalls++;
    syscall_end(th);
}

/* A scaled duration that lasts beyond the simulator's time range (work_scale
 * times a long op, core_scale_work) fails the run, as too many instructions
 * do, instead of wrapping around. */
bool th_dur_in_range(struct rb_thread *th, const struct scn_op *op, sim_time d)
{
    if (d < SIM_TIME_MAX) return true;
    vm_fail(th->vm, "thread %s: %s at %s (line %d), times machine.work_scale %g, lasts beyond the "
            "simulator's time range (about 106 days)", th->core.name, scn_op_name(op->kind), op->path,
            op->line, rb_machine_of(th)->work_scale);
    return false;
}

/* the call itself, the GVL released */
static void syscall_run(struct rb_thread *th)
{
    if (th->op->u.syscall.io_wait) th_block_timeout(th, th->region_dur, syscall_done);
    else th_burst(th, th->region_dur, syscall_done);
}

static void run_call(struct rb_thread *th, const struct scn_op *op)
{
    sim_time d = core_syscall_dur(&th->core, op, rb_machine_of(th)->work_scale);
    if (!th_dur_in_range(th, op, d)) return;
    if (!op->u.syscall.releases_gvl) {
        /* the call runs holding the GVL: no interrupt can cut it */
        th_burst(th, d, syscall_holding_gvl_done);
        return;
    }
    th->blocking = true;
    th->region_dur = d;
    vm_set_state(th, TS_BLOCKING);
    mn_blocking_begin(th);  /* M:N: pin the SNT */
    gvl_blocking_enter(th, false, syscall_run);
}

static void method_work_done(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    run_call(th, th->op);
}

/* A syscall op: the work its Ruby method does holding the GVL before the
 * call (syscall "method_work": File.write's argument checks, its File
 * object, rb_sysopen's setup), C code with no interrupt check, then the
 * call.  The interrupt check before it is the op's own (th_step), where
 * Ruby makes it: as the Ruby code that calls the method returns from its
 * previous call (`leave`), not inside the C method. */
static void run_syscall(struct rb_thread *th, const struct scn_op *op)
{
    sim_time w = core_method_work(op, rb_machine_of(th)->work_scale);
    if (th->nt->after_idle) w += method_after_idle(th, op);
    if (w > 0) {
        th_burst(th, w, method_work_done);
        return;
    }
    run_call(th, op);
}

void th_retry(struct rb_thread *th)
{
    th->redo_op = true;
    th_step(th);
}

static void sleep_done(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    th->blocking = false;
    vm_set_state(th, TS_WANTS_GVL);
    mn_blocking_end(th);  /* M:N: unpin the SNT */
    gvl_blocking_exit(th, rb_cold(th)->sleep_k);
}

static void sleep_now(struct rb_thread *th)
{
    /* the sleep's length as it happens: Kernel#sleep(d) is a timed wait
     * late by the slack (vm.h), but a recorded sleep (gvlsim import)
     * holds it already, so the op's `dur` is taken as the real length */
    th_block_timeout(th, th->region_dur, sleep_done);
}

/* Kernel#sleep for d, then k (holding the GVL again) */
static void sleep_for(struct rb_thread *th, sim_time d, th_cont k)
{
    rb_cold(th)->sleep_k = k;
    th->blocking = true;
    th->region_dur = d;
    vm_set_state(th, TS_SLEEPING);
    mn_blocking_begin(th);  /* M:N: pin the SNT */
    gvl_blocking_enter(th, true, sleep_now);  /* THREAD_BLOCKING_BEGIN */
}

static void run_sleep(struct rb_thread *th, const struct scn_op *op)
{
    sleep_for(th, core_sleep_dur(&th->core, op), after_blocking);
}

/* A generator's arrival (op_phase 0: draw it and sleep until it; 1: push
 * an item stamped with it).  An arrival already due is pushed at once: a
 * generator that fell behind catches up with a burst of pushes. */
static bool run_arrive(struct rb_thread *th, const struct scn_op *op)
{
    struct vm *vm = th->vm;
    const struct scn_generator *g = &vm->scn->generators[op->u.arrive.gen];
    if (th->core.op_phase == 0) {
        sim_time t = core_next_arrival(&th->core, g), now = sim_now(vm->eng);
        th->core.op_phase = 1;
        if (t > now) {
            sleep_for(th, t - now, th_retry);
            return false;
        }
    }
    th->core.op_phase = 0;
    return sync_queue_push(th, g->queue, th->core.arrival);
}

/* Thread.new: the next slot of a "spawned" template starts. */
static bool run_spawn(struct rb_thread *th, const struct scn_op *op)
{
    struct vm *vm = th->vm;
    for (int i = 0; i < vm->nthreads; i++) {
        struct rb_thread *t = &vm->threads[i];
        if (t->core.tmpl != op->u.spawn.tmpl || t->core.started) continue;
        th->pending_cost += rb_machine_of(th)->thread_create;
        vm->spawned++;
        vm->alive++;
        mn_thread_created(t);
        th_start(t);
        vm_instant(th, "spawn");
        return true;
    }
    const struct scn_thread *tt = vm->scn->tmpls ? vm->scn->tmpls[op->u.spawn.tmpl].thread : NULL;
    vm_fail(vm, "thread %s: spawn at %s (line %d): every instance of thread template \"%s\" is already "
            "spawned (its \"count\", %d, is the most that can run; raise it)", th->core.name, op->path, op->line,
            tt ? tt->name : "?", tt ? tt->count : 0);
    return false;
}

static void thread_exit_now(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct vm *vm = th->vm;
    if (mn_thread_p(th)) mn_thread_exit(th);  /* M:N: the SNT goes on (mn_pool.c) */
    else mach_exit(&vm->mach, th->nt);
    if (vm->alive == 0) {
        vm->finished = true;
        vm->end_time = sim_now(vm->eng);
        sim_stop(vm->eng);
    }
}

static void thread_released(struct rb_thread *th)
{
    th_settle(th, thread_exit_now);
}

static void thread_finish(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    th->dead = true;
    th->core.finished = true;
    vm->alive--;
    rb_ractor_of(th)->dead++;
    vm_set_state(th, TS_COUNT);
    sync_thread_end(th);  /* joiners, then the mutexes it holds */
    gvl_dead(th, thread_released);
}


/* ---- interrupts --------------------------------------------------------- */

/* rb_threadptr_execute_interrupts; returns true if the thread gave up the
 * CPU or the GVL (and will continue from a continuation). */
static bool execute_interrupts(struct rb_thread *th)
{
    unsigned bits = th->interrupts;
    th->interrupts = 0;
    if (bits & CORE_INT_VM_BARRIER) {
        /* RB_VM_LOCKING() {}: join the barrier (models/barrier.c); the
         * other bits are handled after it, in CRuby's order */
        th->interrupts = bits & ~(unsigned)CORE_INT_VM_BARRIER;
        barrier_interrupt(th, th_step);
        return true;
    }
    if (bits & CORE_INT_TIMER) {
        const struct scn_runtime *rt = &th->vm->scn->runtime;
        /* one tick's credit (3.3+); a whole quantum under CRuby <= 3.2 */
        if (core_thread_tick(&th->core, rt) &&
            core_tick_yields(core_sched_of(&th->core), rb_ractor_living(rb_ractor_of(th)))) {
            gvl_yield(th, th_step);
            return true;
        }
    }
    return false;
}

/* ---- the interpreter loop ----------------------------------------------- */

static void step_paid(struct mach_task *t, void *ctx)
{
    (void)t;
    th_step(ctx);
}

void th_step(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    for (;;) {
        if (vm->status != 0) return;
        if (th->wrote_timer) {
            /* the timer's eventfd write (models/timer.c) is over before
             * the thread's next op decides anything */
            th_burst(th, 0, step_paid);
            return;
        }
        if (th->interrupts && execute_interrupts(th)) return;
        if (th->compute_left > 0) {
            sim_time left = th->compute_left;
            th->compute_left = 0;
            run_compute(th, left);
            return;
        }
        const struct scn_op *op;
        if (th->redo_op) {
            th->redo_op = false;
            op = th->op;
        } else {
            op = next_op(th);
            th->op = op;
        }
        if (!op) {
            thread_finish(th);
            return;
        }
        if (++th->zero_time_ops > TH_ZERO_TIME_LIMIT) {
            vm_fail(vm, "thread %s makes no progress: %" PRIu32 " ops without simulated time "
                    "passing (last at %s, line %d): a loop whose body takes no time?",
                    th->core.name, th->zero_time_ops, op->path, op->line);
            return;
        }
        switch (op->kind) {
        case OP_COMPUTE:
            if (op->u.compute.has_insns) {
                bool overflow;
                sim_time w = counter_work(th, op->u.compute.insns, &overflow);
                if (overflow) {
                    vm_fail(vm, "thread %s: compute of %" PRIu64 " insns at %s lasts beyond the "
                            "simulator's time range (about 106 days)", th->core.name,
                            op->u.compute.insns, op->path);
                    return;
                }
                if (th->nt->after_idle) w += compute_after_idle(th);
                run_compute(th, w);
            } else {
                sim_time d = core_compute_dur(&th->core, op, rb_machine_of(th)->work_scale);
                if (th->nt->after_idle) d += compute_after_idle(th);
                if (th_dur_in_range(th, op, d)) run_compute(th, d);
            }
            return;
        case OP_SYSCALL:
            if (th->sys_alloc) {  /* the call is done: its method's objects */
                if (!gc_alloc_objects(th, op->u.syscall.allocates, 0.0, false)) return;
                th->sys_alloc = false;
                continue;
            }
            run_syscall(th, op);
            return;
        case OP_SLEEP:
            run_sleep(th, op);
            return;
        case OP_QUEUE_PUSH:
            if (sync_queue_push(th, op->u.queue.queue, sim_now(vm->eng))) continue;
            return;
        case OP_QUEUE_POP:
            if (sync_queue_pop(th, op)) continue;
            return;
        case OP_LOOP:
        case OP_MEASURE:
        case OP_BRANCH:
            enter_block(th, op);
            continue;
        case OP_SYNCHRONIZE:
            if (!sync_mutex_lock(th, op->u.mutex.mutex)) return;
            enter_block(th, op);
            continue;
        case OP_MUTEX_LOCK:
            if (sync_mutex_lock(th, op->u.mutex.mutex)) continue;
            return;
        case OP_MUTEX_UNLOCK:
            if (sync_mutex_unlock(th, op->u.mutex.mutex)) continue;
            return;
        case OP_CV_WAIT:
            if (sync_cv_wait(th, op)) continue;
            return;
        case OP_CV_SIGNAL:
        case OP_CV_BROADCAST:
            sync_cv_signal(th, op);
            continue;
        case OP_SPAWN:
            if (run_spawn(th, op)) continue;
            return;
        case OP_ALLOC:
            if (gc_alloc(th, op)) continue;
            return;
        case OP_GC:
            if (gc_op(th, op)) continue;
            return;
        case OP_ARRIVE:
            if (run_arrive(th, op)) continue;
            return;
        case OP_ENV_ESCAPE:
            /* its own CPU, vm_make_env_each's environment and
             * rb_proc_alloc's Proc (models/gc.c), then the JIT's invariant
             * check (models/invariant.c) */
            if (!gc_escape(th)) return;
            if (invariant_env_escape(th, op)) continue;
            return;
        case OP_JOIN:
            if (sync_join(th, op)) continue;
            return;
        case OP_KIND_COUNT:
            break;
        }
        vm_fail(vm, "thread %s: unknown op kind %d", th->core.name, (int)op->kind);
        return;
    }
}

static void started(struct rb_thread *th)
{
    th_step(th);
}

static void nt_started(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    gvl_start(th, started);
}

void th_start(struct rb_thread *th)
{
    th->core.started = true;
    th->vm->started++;
    rb_ractor_of(th)->started++;
    if (mn_thread_p(th)) {  /* M:N: no native thread of its own (mn_pool.c) */
        mn_thread_start(th, started);
        return;
    }
    vm_set_state(th, TS_WANTS_GVL);
    mach_start(&th->vm->mach, th->nt, nt_started, th);
}

void th_describe_wait(const struct rb_thread *th, char *buf, unsigned len)
{
    const struct vm *vm = th->vm;
    const char *where = th->op ? th->op->path : "(start)";
    int line = th->op ? th->op->line : 0;
    /* the VM lock, the sched lock and the barrier's condvars (models/vm_lock.c) */
    if (vm_lock_describe_wait(th, buf, len)) return;
    if (th->core.parked_queue >= 0) {
        snprintf(buf, len, "parked in queue_pop on queue \"%s\" (empty) at %s (line %d)%s",
                 vm->queues[th->core.parked_queue].name, where, line, vm_lock_held_note(th));
    } else if (th->core.parked_mutex >= 0) {
        const struct core_mutex *m = &vm->mutexes[th->core.parked_mutex];
        const struct rb_thread *owner = rb_thread_of(m->owner);
        snprintf(buf, len, "waiting to lock mutex \"%s\" (held by %s) at %s (line %d)", m->name,
                 owner ? owner->core.name : "nobody", where, line);
    } else if (th->core.parked_cv >= 0) {
        snprintf(buf, len, "waiting on condition variable \"%s\" (nobody left to signal it) at %s (line %d)",
                 vm->condvars[th->core.parked_cv].name, where, line);
    } else if (th->core.join_target) {
        snprintf(buf, len, "in join, waiting for thread %s to finish, at %s (line %d)",
                 th->core.join_target->name, where, line);
    } else if (th->core.joining) {
        snprintf(buf, len, "in join, waiting for %d other thread%s to finish, at %s (line %d)%s",
                 vm->alive - 1, vm->alive - 1 == 1 ? "" : "s", where, line, vm_lock_held_note(th));
    } else if (th->ts == TS_WANTS_SNT) {  /* M:N (mn_pool.c) */
        snprintf(buf, len, "waiting for a shared native thread (Ractor %s in the global run queue) "
                 "at %s (line %d)", th->core.ractor->name, where, line);
    } else if (th->ts == TS_WANTS_GVL) {
        const struct rb_thread *owner = rb_thread_of(core_sched_of(&th->core)->running);
        snprintf(buf, len, "waiting for the GVL of Ractor %s (held by %s) at %s (line %d)",
                 th->core.ractor->name, owner ? owner->core.name : "nobody", where, line);
    } else {
        snprintf(buf, len, "in state %s at %s (line %d)", thread_state_name(th->ts), where, line);
    }
}
