/* thread.c - the program interpreter of a simulated Ruby thread.
 *
 * One op at a time, stepped by the program cursor (core/cursor.c), in the
 * order of CRuby's own code paths:
 * - compute: Ruby work holding the GVL, cut at a safe point when an
 *   interrupt arrives (a timer tick, a barrier);
 * - syscall with releases_gvl: BLOCKING_REGION (thread.c): the GVL's
 *   blocking_enter (models/gvl.c), the call itself (on the CPU, or asleep
 *   for io_wait), blocking_exit, then RUBY_VM_CHECK_INTS_BLOCKING;
 * - queue_pop on an empty queue: queue_sleep -> native_sleep ->
 *   thread_sched_to_waiting_until_wakeup (gvl_park), retried on wake;
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
#include "../core/policy.h"
#include "barrier.h"
#include "counter.h"
#include "gvl.h"
#include "invariant.h"
#include "mn_pool.h"
#include "queue.h"
#include "vm_lock.h"

/* Ops a thread may run back to back without simulated time passing before
 * the run is declared hung (a loop whose body takes no time). */
#define TH_ZERO_TIME_LIMIT UINT64_C(10000000)

/* ---- CPU and kernel sleeps ---------------------------------------------- */

void th_burst(struct rb_thread *th, sim_time d, mach_cont k)
{
    sim_time total = d + th->pending_cost;
    th->pending_cost = 0;
    th->zero_time_ops = 0;
    mach_burst(&th->vm->mach, th->nt, total, k, th);
}

static void kernel_wake(void *obj, uint64_t arg)
{
    (void)arg;
    struct rb_thread *th = obj;
    mach_wake(&th->vm->mach, th->nt, NULL);
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
    if (th->pending_cost > 0) th_burst(th, 0, block_now);
    else block_now(th->nt, th);
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
    enum core_next n;
    while ((n = core_cursor_next(&th->core, &op)) == CORE_NEXT_ITERATION) continue;
    return n == CORE_NEXT_OP ? op : NULL;
}

static void enter_loop(struct rb_thread *th, const struct scn_op *op)
{
    if (!core_cursor_enter(&th->core, op))  /* the loader limits nesting */
        vm_fail(th->vm, "thread %s: loops nested too deep at %s", th->core.name, op->path);
}

/* ---- ops ---------------------------------------------------------------- */

static void compute_done(struct mach_task *t, void *ctx)
{
    struct rb_thread *th = ctx;
    th->in_compute = false;
    th->compute_left = t->burst_left;  /* > 0 if cut at a safe point */
    th_step(th);
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

static void after_blocking(struct rb_thread *th)
{
    /* RUBY_VM_CHECK_INTS_BLOCKING happens in th_step */
    th_step(th);
}

static void syscall_done(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    th->syscalls++;
    th->blocking = false;
    vm_set_state(th, TS_WANTS_GVL);
    mn_blocking_end(th);  /* M:N: unpin the SNT */
    gvl_blocking_exit(th, after_blocking);
}

static void syscall_holding_gvl_done(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    th->syscalls++;
    th_step(th);
}

/* A scaled duration that lasts beyond the simulator's time range (work_scale
 * times a long op, core_scale_work) fails the run, as too many instructions
 * do, instead of wrapping around. */
static bool dur_in_range(struct rb_thread *th, const struct scn_op *op, sim_time d)
{
    if (d < SIM_TIME_MAX) return true;
    vm_fail(th->vm, "thread %s: %s at %s (line %d), times machine.work_scale %g, lasts beyond the "
            "simulator's time range (about 106 days)", th->core.name, scn_op_name(op->kind), op->path,
            op->line, rb_machine_of(th)->work_scale);
    return false;
}

static void run_syscall(struct rb_thread *th, const struct scn_op *op)
{
    sim_time d = core_op_dur(&th->core, op, rb_machine_of(th)->work_scale);
    if (!dur_in_range(th, op, d)) return;
    if (!op->u.syscall.releases_gvl) {
        /* the call runs holding the GVL: no interrupt can cut it */
        th_burst(th, d, syscall_holding_gvl_done);
        return;
    }
    th->blocking = true;
    vm_set_state(th, TS_BLOCKING);
    mn_blocking_begin(th);  /* M:N: pin the SNT */
    gvl_blocking_enter(th, false);
    if (op->u.syscall.io_wait) th_block_timeout(th, d, syscall_done);
    else th_burst(th, d, syscall_done);
}

static void sleep_done(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    th->blocking = false;
    vm_set_state(th, TS_WANTS_GVL);
    mn_blocking_end(th);  /* M:N: unpin the SNT */
    gvl_blocking_exit(th, after_blocking);
}

static void run_sleep(struct rb_thread *th, const struct scn_op *op)
{
    sim_time d = core_op_dur(&th->core, op, rb_machine_of(th)->work_scale);
    th->blocking = true;
    vm_set_state(th, TS_SLEEPING);
    mn_blocking_begin(th);  /* M:N: pin the SNT */
    gvl_blocking_enter(th, true);  /* THREAD_BLOCKING_BEGIN */
    th_block_timeout(th, d, sleep_done);
}

static void retry_op(struct rb_thread *th)
{
    th->redo_op = true;
    th_step(th);
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

static void wake_joiner(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    /* a joiner waits until it is the only thread left */
    if (vm->alive != 1) return;
    for (struct core_thread *c = vm->joiners; c; c = c->wait_next) {
        struct rb_thread *j = rb_thread_of(c);
        if (j->dead || !c->joining) continue;
        c->joining = false;
        vm_set_state(j, TS_WANTS_GVL);
        gvl_ready(th, j);
    }
}

static void thread_finish(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    th->dead = true;
    vm->alive--;
    rb_ractor_of(th)->dead++;
    vm_set_state(th, TS_COUNT);
    wake_joiner(th);
    gvl_dead(th);
    if (th->pending_cost > 0) th_burst(th, 0, thread_exit_now);
    else thread_exit_now(th->nt, th);
}

static bool run_join(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    if (vm->alive == 1) return true;
    th->core.joining = true;
    th->core.wait_next = vm->joiners;
    vm->joiners = &th->core;
    vm_set_state(th, TS_PARKED);
    gvl_park(th, retry_op);
    return false;
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
        if (core_thread_tick(&th->core, rt) && core_sched_of(&th->core)->rq_head) {
            gvl_yield(th, th_step);
            return true;
        }
    }
    return false;
}

/* ---- the interpreter loop ----------------------------------------------- */

void th_step(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    for (;;) {
        if (vm->status != 0) return;
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
            vm_fail(vm, "thread %s makes no progress: %" PRIu64 " ops without simulated time "
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
                run_compute(th, w);
            } else {
                sim_time d = core_op_dur(&th->core, op, rb_machine_of(th)->work_scale);
                if (dur_in_range(th, op, d)) run_compute(th, d);
            }
            return;
        case OP_SYSCALL:
            run_syscall(th, op);
            return;
        case OP_SLEEP:
            run_sleep(th, op);
            return;
        case OP_QUEUE_PUSH:
            queue_push(th, &vm->queues[op->u.queue.queue]);
            continue;
        case OP_QUEUE_POP:
            if (queue_try_pop(th, &vm->queues[op->u.queue.queue])) continue;
            vm_set_state(th, TS_PARKED);
            gvl_park(th, retry_op);
            return;
        case OP_LOOP:
            enter_loop(th, op);
            continue;
        case OP_ENV_ESCAPE:
            /* vm_make_env_each -> the JIT's invariant check (models/invariant.c) */
            if (invariant_env_escape(th, op)) continue;
            return;
        case OP_JOIN:
            if (run_join(th)) continue;
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
