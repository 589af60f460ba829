/* exec_thread.c - the program interpreter of a real Ruby thread.
 *
 * The same ops as the simulator's models/thread.c, stepped by the same
 * cursor (core/cursor.c), in the order of CRuby's own code paths, but
 * executed:
 * - compute: the calibrated busy loop (or the instruction loop for insns)
 *   in chunks of about 2 us, with a safe point between chunks, as CRuby
 *   checks interrupts on backward branches;
 * - syscall with releases_gvl: BLOCKING_REGION: the GVL's blocking_enter
 *   (exec_gvl.c), the real call (exec_syscall.c), blocking_exit, then
 *   RUBY_VM_CHECK_INTS_BLOCKING (a safe point); without releases_gvl the
 *   call is made holding the GVL;
 * - queue_pop on an empty queue: park through the GVL, retry on wake (with
 *   a timeout: a timed wait, exec_sync.c); mutex_lock, cv_wait, join of a
 *   template: exec_sync.c; alloc: exec_gc.c;
 * - spawn: release the next pre-created slot of a "spawned" template
 *   (Thread.new; its pthread exists already and waits at its start gate);
 * - a generator's arrival: sleep until it, push an item stamped with it;
 * - sleep: THREAD_BLOCKING_BEGIN (yield_immediately) around a timed wait
 *   on the thread's condvar (native_sleep);
 * - env_escape: exec_vmlock.c; join: park until every other thread ended.
 * Safe points (between ops, between loop iterations, between compute
 * chunks) run rb_threadptr_execute_interrupts: VM_BARRIER joins the
 * barrier; TIMER credits one tick (3.2 barging: a whole quantum) to
 * running_time and yields once the quantum is used up
 * (rb_thread_schedule_limits); TERMINATE (stop.time) ends the thread.
 *
 * Every state change is stamped with CLOCK_MONOTONIC by the thread itself;
 * a thread made ready by another gets the waker's timestamp for the end of
 * its parked time.
 */
#include "exec_thread.h"

#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "../core/cursor.h"
#include "../core/heap.h"
#include "../core/policy.h"
#include "exec_gc.h"
#include "exec_gvl.h"
#include "exec_queue.h"
#include "exec_sync.h"
#include "exec_syscall.h"
#include "exec_vmlock.h"
#include "exec_work.h"
#include "exec_wait.h"

/* Iterations per compute chunk are derived from this duration. */
#define COMPUTE_CHUNK_NS 2000
#define INSNS_CHUNK 2048
/* Durations run as written: this machine does the work, so the profile's
 * work_scale (a simulated machine's speed against the reference one) does
 * not apply. */
#define EXEC_WORK_SCALE 1.0

/* ---- safe points ----------------------------------------------------------- */

/* rb_threadptr_execute_interrupts.  Returns true if the thread must end. */
static bool exec_safepoint(struct exec_thread *th)
{
    unsigned bits = atomic_load_explicit(&th->interrupts, memory_order_relaxed);
    if (!bits) return false;
    if (bits & CORE_INT_TERMINATE) return true;
    bits = atomic_fetch_and(&th->interrupts, ~(unsigned)(CORE_INT_TIMER | CORE_INT_VM_BARRIER));
    struct exec_vm *vm = th->vm;
    if (bits & CORE_INT_VM_BARRIER) exec_barrier_safepoint(th);
    if (bits & CORE_INT_TIMER) {
        /* one tick's credit (3.3+); a whole quantum under CRuby <= 3.2 */
        if (core_thread_tick(&th->core, &vm->scn->runtime) && exec_gvl_tick_yields(th)) {
            exec_state_set(th, TS_WANTS_GVL);
            exec_gvl_yield(th);
            exec_state_set(th, TS_RUNNING);
        }
    }
    return (atomic_load_explicit(&th->interrupts, memory_order_relaxed) & CORE_INT_TERMINATE) != 0;
}

/* ---- ops ----------------------------------------------------------------- */

/* Busy-loop for d picoseconds of calibrated work; false if told to end.
 * Ruby code (`safe`) takes its interrupts between chunks (safe points); C
 * code of a Ruby method takes none, and only the end of the run (the
 * watchdog, stop.time) cuts it short. */
static bool exec_busy(struct exec_thread *th, sim_time d, bool safe)
{
    double ps_per_iter = th->vm->calib.ps_per_iter;
    double want = (double)d / ps_per_iter + th->compute_carry;
    uint64_t iters = want > 0 ? (uint64_t)want : 0;
    th->compute_carry = want - (double)iters;
    uint64_t chunk = (uint64_t)((double)COMPUTE_CHUNK_NS * 1000.0 / ps_per_iter);
    if (chunk < 1) chunk = 1;
    uint64_t x = (uint64_t)th->core.id + 1;
    while (iters > 0) {
        uint64_t n = iters < chunk ? iters : chunk;
        x = exec_spin(n, x);
        iters -= n;
        if (iters > 0 && (safe ? exec_safepoint(th)
                               : (atomic_load_explicit(&th->interrupts, memory_order_relaxed) & CORE_INT_TERMINATE))) {
            exec_consume(x);
            return false;
        }
    }
    exec_consume(x);
    return true;
}

static bool exec_run_compute(struct exec_thread *th, sim_time d) { return exec_busy(th, d, true); }

static bool exec_run_insns(struct exec_thread *th, uint64_t n)
{
    struct exec_vm *vm = th->vm;
    enum scn_insn_counter kind = vm->scn->runtime.insn_counter;
    uint64_t x = (uint64_t)th->core.id + 1;
    while (n > 0) {
        uint64_t k = n < INSNS_CHUNK ? n : INSNS_CHUNK;
        x = exec_insns(kind, vm->shared_counter, k, x);
        th->c.insns += k;
        n -= k;
        if (n > 0 && exec_safepoint(th)) {
            exec_consume(x);
            return false;
        }
    }
    exec_consume(x);
    return true;
}

/* A syscall op: its Ruby method's work before the call (syscall
 * "method_work", models/thread.c run_syscall), the call, then the
 * method's work after it (syscall "method_work_after"), both spun holding
 * the GVL. */
static void exec_run_syscall(struct exec_thread *th, const struct scn_op *op)
{
    struct exec_syscall_ctx *ctx = &th->sys;
    if (op->u.syscall.method_work > 0) exec_busy(th, core_method_work(op, EXEC_WORK_SCALE), false);
    /* "dur": "machine" is the real call's own cost: make it once (a dur of 0) */
    int64_t dur = op->u.syscall.dur_machine ? 0 : exec_ps_to_ns(core_op_dur(&th->core, op, EXEC_WORK_SCALE));
    if (!op->u.syscall.releases_gvl) {
        exec_syscall_run(ctx, op->u.syscall.call, op->u.syscall.io_wait, dur);
        th->c.syscalls++;
    } else {
        exec_state_set(th, TS_BLOCKING);
        exec_gvl_blocking_enter(th, false);
        exec_syscall_run(ctx, op->u.syscall.call, op->u.syscall.io_wait, dur);
        th->c.syscalls++;
        exec_state_set(th, TS_WANTS_GVL);
        exec_gvl_blocking_exit(th);
        exec_state_set(th, TS_RUNNING);
    }
    if (op->u.syscall.method_work_after > 0) exec_busy(th, core_method_work_after(op, EXEC_WORK_SCALE), false);
}

/* Kernel#sleep for dur ns */
static void exec_kernel_sleep(struct exec_thread *th, int64_t dur)
{
    exec_state_set(th, TS_SLEEPING);
    exec_gvl_blocking_enter(th, true);
    /* native_sleep: a timed wait on the thread's own condvar (which the
     * watchdog and stop.time can interrupt), not a nanosleep */
    struct exec_sched *s = &exec_ractor_of(th)->sched;
    int64_t deadline = exec_now_ns() + dur;
    pthread_mutex_lock(&s->lock);
    while (exec_now_ns() < deadline &&
           !(atomic_load_explicit(&th->interrupts, memory_order_relaxed) & CORE_INT_TERMINATE))
        exec_cond_timedwait(th, &th->cond, &s->lock, deadline);
    pthread_mutex_unlock(&s->lock);
    exec_state_set(th, TS_WANTS_GVL);
    exec_gvl_blocking_exit(th);
    exec_state_set(th, TS_RUNNING);
}

static void exec_run_sleep(struct exec_thread *th, const struct scn_op *op)
{
    exec_kernel_sleep(th, exec_ps_to_ns(core_op_dur(&th->core, op, EXEC_WORK_SCALE)));
}

/* Park until made ready, then hold the GVL again. */
static void exec_park(struct exec_thread *th)
{
    /* the state is already TS_PARKED (set when it registered as a waiter) */
    exec_gvl_park(th);
    exec_state_set_at(th, TS_WANTS_GVL, th->ready_at_ns);
    exec_state_set(th, TS_RUNNING);
}

/* queue_pop / join: false if the thread must end (stop.time). */
static bool exec_run_wait_op(struct exec_thread *th, const struct scn_op *op)
{
    if (op->kind == OP_QUEUE_POP && op->u.queue.has_timeout)
        return exec_queue_pop_timed(th, &th->vm->queues[op->u.queue.queue], op->u.queue.timeout) ==
               EXEC_WAIT_DONE;
    if (op->kind == OP_JOIN && op->u.join.tmpl) return exec_join_tmpl(th, op->u.join.tmpl - 1);
    for (;;) {
        enum exec_wait_result r = op->kind == OP_QUEUE_POP
                                      ? exec_queue_try_pop(th, &th->vm->queues[op->u.queue.queue])
                                      : exec_join_try(th);
        if (r == EXEC_WAIT_DONE) return true;
        if (r == EXEC_WAIT_STOPPING) return false;
        exec_park(th);
        if (atomic_load_explicit(&th->interrupts, memory_order_relaxed) & CORE_INT_TERMINATE)
            return false;
    }
}

/* A generator's arrival: sleep until it (the next one drawn from the
 * thread's stream, on the run's clock), then push an item stamped with it;
 * one already due is pushed at once. */
static bool exec_run_arrive(struct exec_thread *th, const struct scn_op *op)
{
    struct exec_vm *vm = th->vm;
    const struct scn_generator *g = &vm->scn->generators[op->u.arrive.gen];
    sim_time t = core_next_arrival(&th->core, g), now = exec_run_ps(vm);
    if (t > now) exec_kernel_sleep(th, exec_ps_to_ns(t - now));
    if (atomic_load_explicit(&th->interrupts, memory_order_relaxed) & CORE_INT_TERMINATE) return false;
    return exec_queue_push(th, &vm->queues[g->queue], t);
}

/* Thread.new: the next slot of a "spawned" template may start. */
static bool exec_run_spawn(struct exec_thread *th, const struct scn_op *op)
{
    struct exec_vm *vm = th->vm;
    pthread_mutex_lock(&vm->life_lock);
    for (int i = 0; i < vm->nthreads; i++) {
        struct exec_thread *t = &vm->threads[i];
        if (t->core.tmpl != op->u.spawn.tmpl || t->spawn_go) continue;
        t->spawn_go = true;
        vm->alive++;
        th->c.spawned++;
        pthread_cond_broadcast(&vm->life_cond);
        pthread_mutex_unlock(&vm->life_lock);
        return true;
    }
    pthread_mutex_unlock(&vm->life_lock);
    const struct scn_thread *tt = vm->scn->tmpls ? vm->scn->tmpls[op->u.spawn.tmpl].thread : NULL;
    exec_fail(vm, "thread %s: spawn at %s (line %d): every instance of thread template \"%s\" is already "
              "spawned (its \"count\", %d, is the most that can run; raise it)", th->core.name, op->path,
              op->line, tt ? tt->name : "?", tt ? tt->count : 0);
    return false;
}

/* ---- program counter ------------------------------------------------------- */

/* The next op, or NULL at the end of the program (or when told to end at
 * the safe point between two loop iterations). */
static const struct scn_op *exec_next_op(struct exec_thread *th)
{
    const struct scn_op *op;
    for (;;) {
        switch (core_cursor_next(&th->core, &op)) {
        case CORE_NEXT_OP: return op;
        case CORE_NEXT_ITERATION:
            if (exec_safepoint(th)) return NULL;
            continue;
        case CORE_NEXT_SAMPLE:
            if (!core_cursor_sample(&th->core, exec_run_ps(th->vm))) {
                exec_fail(th->vm, "out of memory for the samples of thread %s", th->core.name);
                return NULL;
            }
            continue;
        case CORE_NEXT_END: return NULL;
        }
    }
}

static void exec_run_program(struct exec_thread *th)
{
    struct exec_vm *vm = th->vm;
    for (;;) {
        if (exec_safepoint(th)) return;
        const struct scn_op *op = exec_next_op(th);
        if (!op) return;
        atomic_store_explicit(&th->pub_op, op, memory_order_relaxed);
        switch (op->kind) {
        case OP_COMPUTE: {
            bool go = op->u.compute.has_insns ? exec_run_insns(th, op->u.compute.insns)
                                              : exec_run_compute(th, core_op_dur(&th->core, op, EXEC_WORK_SCALE));
            if (!go) return;
            break;
        }
        case OP_SYSCALL:
            exec_run_syscall(th, op);
            /* the objects the call's Ruby method allocates (File.mtime's Time) */
            if (op->u.syscall.allocates) exec_alloc_objects(th, op->u.syscall.allocates, 0.0, false);
            break;
        case OP_SLEEP:
            exec_run_sleep(th, op);
            break;
        case OP_QUEUE_PUSH:
            if (!exec_queue_push(th, &vm->queues[op->u.queue.queue], exec_run_ps(vm))) return;
            break;
        case OP_QUEUE_POP:
        case OP_JOIN:
            if (!exec_run_wait_op(th, op)) return;
            break;
        case OP_SYNCHRONIZE:
            if (!exec_mutex_lock(th, op->u.mutex.mutex)) return;
            __attribute__((fallthrough));  /* enter its body */
        case OP_LOOP:
        case OP_MEASURE:
        case OP_BRANCH:
            /* the loader limits nesting; exec_build checks it */
            core_cursor_enter(&th->core, op, core_block_timed(&th->core.cur, op) ? exec_run_ps(vm) : 0);
            break;
        case OP_ENV_ESCAPE:  /* its own CPU, the environment and the Proc, then the invariant check */
            if (vm->scn->machine.env_escape_work > 0) exec_busy(th, vm->scn->machine.env_escape_work, false);
            exec_alloc_objects(th, CORE_ESCAPE_OBJECTS, 0.0, true);
            exec_env_escape(th, op->u.env_escape.iseq);
            break;
        case OP_MUTEX_LOCK:
            if (!exec_mutex_lock(th, op->u.mutex.mutex)) return;
            break;
        case OP_MUTEX_UNLOCK:
            if (!exec_mutex_unlock(th, op->u.mutex.mutex)) return;
            break;
        case OP_CV_WAIT:
            if (!exec_cv_wait(th, op)) return;
            break;
        case OP_CV_SIGNAL:
        case OP_CV_BROADCAST:
            exec_cv_signal(th, op);
            break;
        case OP_SPAWN:
            if (!exec_run_spawn(th, op)) return;
            break;
        case OP_ALLOC: {
            sim_time own = exec_alloc_work(th, op);  /* its objects' own CPU first, as models/gc.c gc_alloc */
            if (own > 0) exec_busy(th, own, false);
            exec_alloc(th, op);
            break;
        }
        case OP_GC:
            exec_gc_op(th, core_op_dur(&th->core, op, EXEC_WORK_SCALE));
            break;
        case OP_ARRIVE:
            if (!exec_run_arrive(th, op)) return;
            break;
        case OP_KIND_COUNT:
            break;
        }
    }
}

/* A thread that does not start with the run waits for its "start" or its
 * spawn; false if the run ends first. */
static bool exec_start_gate(struct exec_thread *th)
{
    struct exec_vm *vm = th->vm;
    if (th->core.start_at == 0) return true;
    bool go;
    pthread_mutex_lock(&vm->life_lock);
    int64_t at = vm->t_start_ns + exec_ps_to_ns(th->core.start_at);
    for (;;) {
        go = th->core.start_at > 0 ? exec_now_ns() >= at : th->spawn_go;
        if (go || vm->all_done || vm->failed || atomic_load(&vm->stopping)) break;
        if (th->core.start_at > 0) exec_cond_timedwait(th, &vm->life_cond, &vm->life_lock, at);
        else exec_cond_wait(th, &vm->life_cond, &vm->life_lock);
    }
    if (go && atomic_load(&vm->stopping)) go = false;
    if (!go && (th->core.start_at > 0 || th->spawn_go)) {  /* counted alive: it ends unstarted */
        vm->alive--;
        if (vm->alive == 0) {
            vm->all_done = true;
            vm->t_end_ns = vm->t_end_ns ? vm->t_end_ns : exec_now_ns();
            pthread_cond_broadcast(&vm->life_cond);
        }
    }
    pthread_mutex_unlock(&vm->life_lock);
    return go;
}

void *exec_thread_main(void *arg)
{
    struct exec_thread *th = arg;
    struct exec_vm *vm = th->vm;
    pthread_mutex_lock(&vm->life_lock);
    while (!vm->gate_open) exec_cond_wait(th, &vm->life_cond, &vm->life_lock);
    pthread_mutex_unlock(&vm->life_lock);
    exec_check_abort(th, NULL);
    if (!exec_start_gate(th)) return NULL;
    pthread_mutex_lock(&vm->life_lock);
    th->core.started = true;
    vm->started++;
    atomic_fetch_add_explicit(&vm->living, 1, memory_order_relaxed);
    pthread_mutex_unlock(&vm->life_lock);
    exec_check_abort(th, NULL);
    getrusage(RUSAGE_THREAD, &th->ru_start);
    th->sys.stat_path = vm->stat_path;
    th->sys.devnull_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    th->sys.opened_fd = -1;

    th->ts = TS_COUNT;
    exec_state_set_at(th, TS_WANTS_GVL, th->core.start_at == 0 ? vm->t_start_ns : exec_now_ns());
    exec_gvl_start(th);
    exec_state_set(th, TS_RUNNING);
    exec_run_program(th);
    /* exec_thread_exited may record the end of the run: close the books first */
    exec_state_set(th, TS_COUNT);
    /* the mutexes it holds: CRuby unlocks them after waking the joiners;
     * here first, so that their waiters never count as parked for the
     * deadlock check once the thread is gone (both before the GVL goes) */
    exec_sync_thread_end(th);
    exec_thread_exited(th);
    exec_gvl_dead(th);

    getrusage(RUSAGE_THREAD, &th->ru_end);
    if (th->sys.devnull_fd >= 0) close(th->sys.devnull_fd);
    if (th->sys.opened_fd >= 0) close(th->sys.opened_fd);
    th->sys.devnull_fd = th->sys.opened_fd = -1;
    return NULL;
}
