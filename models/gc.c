/* gc.c - the alloc and gc ops and the garbage collector (gc.c of CRuby) in
 * simulated time.  When and how much the GC works is core/heap.c's; here
 * the allocating thread does it, holding its GVL throughout (no interrupt
 * is checked inside: the work is one burst), in state `gc`:
 *
 * - a GC start marks for gc_mark_base + gc_mark_per_page per heap page +
 *   gc_mark_per_thread per living thread + gc_mark_per_object per object
 *   marked, and pays gc_cold at its gap since the GC start before
 *   (what it reads went cold meanwhile); a lazy-sweep step costs gc_sweep_per_slot per slot and
 *   gc_free_body per malloc'd body it frees (core/heap.h core_gc_step_cost);
 * - the other threads of its Ractor cannot run Ruby code meanwhile (they
 *   wait for the GVL); threads in blocking regions go on until they want
 *   the GVL back;
 * - in a multi-Ractor process every step takes the VM lock (gc_enter:
 *   RB_VM_LOCK_ENTER_LEV), and a GC start - and on 3.3+ every lazy-sweep
 *   step, gc_enter's "continue" event - a stop-the-world barrier
 *   (rb_vm_barrier), which stops the running thread of every other Ractor
 *   at its next safe point (models/barrier.c).  runtime.gvl_policy
 *   `barging` stands for CRuby <= 3.2 here too.
 * Each Ractor allocates from its newobj cache, the free slots of one heap
 * page, with no lock (gc.c newobj_of0: ractor_cached_free_region).  When
 * the cache is empty it takes the next free page (newobj_slowpath ->
 * ractor_cache_slots -> heap_next_freepage), holding the VM lock
 * (RB_VM_LOCK_ENTER_CR_LEV) in a multi-Ractor process; with no free page,
 * heap_prepare sweeps a step or starts a GC inside that lock (gc_enter
 * nests in it), so a Ractor whose cache runs out while another sweeps or
 * collects waits for the VM lock.  A GC start empties every Ractor's
 * cache (gc_sweep_start: rb_gc_ractor_newobj_cache_clear).  With one
 * Ractor the lock is a no-op and the page changes nothing but where a GC
 * falls within a page, so the thread allocates object by object.  The gc op is a GC start whose length is given
 * instead of computed from the heap (GC.start, or a pause that gvlsim
 * import read in a trace): the same lock, barrier and state.
 *
 * Every step reads the process's CPU clock as it starts and as it ends:
 * GC.measure_total_time is on by default since 3.1 (349a179782, "support
 * GC.stat(:time)"; v3_1_2 gc.c gc_enter_clock / gc_exit_clock ->
 * current_process_time -> clock_gettime(CLOCK_PROCESS_CPUTIME_ID) for the
 * events start, mark_continue, sweep_continue and rest).  Linux brings the
 * running task's runtime up to date on that call, so a thread whose time
 * slice is over is switched out there instead of at the next tick
 * (mach_cpu_clock_read).  Measured with Ruby 3.1.2 on one CPU of this
 * repository's guest (docs/validate.md): the mtime loop's workers made
 * 174 such calls in a run of 200K File.mtime, and the run's voluntary
 * switches fell from 175-192 to 112-116 with GC.measure_total_time =
 * false.  (3.0 has no such call; the model makes it for every version.)
 */
#include "gc.h"

#include <math.h>

#include "../core/cursor.h"
#include "../core/heap.h"
#include "../core/policy.h"
#include "barrier.h"
#include "thread.h"
#include "vm_lock.h"

/* gc_enter_clock, gc_exit_clock: current_process_time, and what Ruby's
 * GC.stat(:time) sums from it - the process's CPU between the two reads,
 * every thread's (the other Ractors' too until a barrier stops them, and
 * through a 3.1 lazy-sweep step, which stops nobody), as Linux accounts
 * it: another CPU's running thread up to its last tick, switch or own
 * read (sim/machine.h mach_cpu_clock_read), so a window in which it
 * stops counts what it ran since before the window.  One step at a time:
 * the GVL or the VM lock is held from one read to the other. */
static void gc_clock_enter(struct rb_thread *th)
{
    th->vm->gc_clock_from = mach_cpu_clock_read(&th->vm->mach, th->nt);
}

static void gc_clock_exit(struct rb_thread *th)
{
    th->vm->gc_clock_cpu += mach_cpu_clock_read(&th->vm->mach, th->nt) - th->vm->gc_clock_from;
}

static void gc_done(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    gc_clock_exit(th);
    vm_set_state(th, TS_RUNNING);
    vm_lock_leave(th);  /* ends the barrier; a no-op with one Ractor */
    th_retry(th);
}

static void gc_work_then(struct rb_thread *th, mach_cont done)
{
    vm_set_state(th, TS_GC);
    th_burst(th, rb_cold(th)->gc_cost, done);
}

static void gc_work(struct rb_thread *th)
{
    gc_work_then(th, gc_done);
}

/* gc_sweep_start: rb_gc_ractor_newobj_cache_clear of every Ractor (the
 * slots left in the caches are swept with the rest) */
static void caches_empty(struct vm *vm)
{
    for (int i = 0; i < vm->nractors; i++) vm->ractors[i].newobj_cache = 0;
}

/* The sweep's frees of other Ractors' malloc'd bodies.  obj_free frees an
 * environment's or a Proc's body (ruby_sized_xfree -> free), and glibc
 * returns a chunk to the arena of the thread that allocated it (malloc.c
 * _int_free: arena_for_chunk, then the fastbin's compare-and-swap or the
 * arena's lock), which that thread allocates from on its own core at the
 * same time: each such free costs `free_remote` more (measured by
 * `gvlsim calibrate` on two CPUs: 121 ns a chunk on this repository's
 * guest, where freeing one's own costs 25 ns).  A sweep step visits its
 * share of the slots the GC start left to sweep; the bodies in them that
 * other cores allocated since the GC before are the remote ones.  On one
 * core, or with one Ractor allocating, there are none.  Measured on real
 * Ruby 3.1.2 (docs/validate.md): two Ractors allocating on two CPUs make a
 * GC cost several times more than on one. */
static void bodies_gc_start(struct vm *vm)
{
    for (int c = 0; c < vm->scn->machine.cores; c++) {
        vm->bodies_garbage[c] = vm->bodies_now[c];
        vm->bodies_now[c] = 0;
    }
}

/* what a GC start resets: the Ractors' caches, the bodies to sweep */
static void gc_start_reset(struct vm *vm)
{
    caches_empty(vm);
    bodies_gc_start(vm);
}

static sim_time sweep_remote_frees(struct rb_thread *th, uint64_t swept)
{
    struct vm *vm = th->vm;
    int core = th->nt->core;
    sim_time cost = rb_machine_of(th)->free_remote;
    /* the slots the GC start left to sweep: the heap's sweep_total */
    if (!vm->sync->multi || core < 0 || cost == 0 || vm->heap.sweep_total == 0) return 0;
    uint64_t remote = 0;
    for (int c = 0; c < vm->scn->machine.cores; c++)
        if (c != core) remote += vm->bodies_garbage[c];
    double share = (double)swept / (double)vm->heap.sweep_total;
    return sim_round((double)remote * share * (double)cost);
}

/* The threads a GC start marks: every Ractor's living ones (started, not
 * dead), blocked or not - their stacks are roots. */
static uint64_t living_threads(const struct vm *vm)
{
    uint64_t n = 0;
    for (int r = 0; r < vm->nractors; r++) n += (uint64_t)rb_ractor_living(&vm->ractors[r]);
    return n;
}

/* the cost of a step heap_prepare or gc_start found to do (a sweep step
 * or a GC start), on this thread */
static sim_time gc_step_cost(struct rb_thread *th, struct core_gc_step *st)
{
    if (st->kind == CORE_GC_SWEEP) return core_gc_step_cost(rb_machine_of(th), st) + sweep_remote_frees(th, st->swept);
    st->threads = living_threads(th->vm);
    core_gc_gap(&th->vm->heap, st, sim_now(th->vm->eng));
    gc_start_reset(th->vm);
    return core_gc_step_cost(rb_machine_of(th), st);
}

/* gc_enter: the VM lock is held; decide now (another Ractor's thread may
 * have collected while this one waited for the lock) */
static void gc_locked(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    struct core_gc_step st = core_heap_alloc(&vm->heap, &rb_cold(th)->alloc_left, rb_cold(th)->alloc_survive);
    if (st.kind == CORE_GC_NONE) {
        th->core.op_phase = 0;
        vm_lock_leave(th);
        th_step(th);
        return;
    }
    rb_cold(th)->gc_cost = gc_step_cost(th, &st);
    vm_instant(th, st.kind == CORE_GC_SWEEP ? "gc_sweep_step" : "gc_start");
    gc_clock_enter(th);  /* gc_enter: the clock, then the barrier */
    if (core_gc_step_barrier(&st, vm->policy->barging)) barrier_vm_barrier(th, gc_work);
    else gc_work(th);
}

static void refill_locked(struct rb_thread *th);

/* gc_exit of a step heap_prepare ran inside newobj_slowpath: leave the
 * nested level (ending the barrier), then take a page, still locked */
static void refill_gc_done(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    gc_clock_exit(th);
    vm_set_state(th, TS_RUNNING);
    vm_lock_leave(th);
    refill_locked(th);
}

static void refill_gc_work(struct rb_thread *th)
{
    gc_work_then(th, refill_gc_done);
}

/* gc_enter nested in newobj_slowpath's lock: the barrier of a GC start */
static void refill_gc_locked(struct rb_thread *th)
{
    gc_clock_enter(th);
    if (rb_cold(th)->gc_barrier) barrier_vm_barrier(th, refill_gc_work);
    else refill_gc_work(th);
}

/* newobj_slowpath, the VM lock held: take the next free page, sweeping or
 * collecting first when there is none (heap_prepare) */
static void refill_locked(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    uint64_t got;
    struct core_gc_step st = core_heap_take_page(&vm->heap, &got);
    if (st.kind == CORE_GC_NONE) {
        rb_ractor_of(th)->newobj_cache += got;
        vm_lock_leave(th);
        th_retry(th);
        return;
    }
    rb_cold(th)->gc_cost = gc_step_cost(th, &st);
    rb_cold(th)->gc_barrier = core_gc_step_barrier(&st, vm->policy->barging);
    vm_instant(th, st.kind == CORE_GC_SWEEP ? "gc_sweep_step" : "gc_start");
    vm_lock_enter(th, refill_gc_locked);
}

/* gc_enter of the gc op: the VM lock is held */
static void gc_op_locked(struct rb_thread *th)
{
    core_heap_count_gc(&th->vm->heap);
    gc_start_reset(th->vm);
    vm_instant(th, "gc_start");
    gc_clock_enter(th);
    barrier_vm_barrier(th, gc_work);   /* a GC start: with one Ractor, no barrier */
}

bool gc_op(struct rb_thread *th, const struct scn_op *op)
{
    if (th->core.op_phase == 1) {   /* re-run after the work (gc_done) */
        th->core.op_phase = 0;
        return true;
    }
    sim_time d = core_op_dur(&th->core, op, rb_machine_of(th)->work_scale);
    if (!th_dur_in_range(th, op, d)) return false;
    rb_cold(th)->gc_cost = d;
    th->core.op_phase = 1;
    vm_lock_enter(th, gc_op_locked);
    return false;
}

/* The accesses an allocation makes to rb_objspace's shared cache lines,
 * in a multi-Ractor process where the Ractors allocate on several cores
 * at once, each a cache-line event in program order (core/heap.c lists
 * them with their gc.c and vm.c sites): per object newobj_of0 reads the
 * flags and newobj_init does a plain `total_allocated_objects++` ("TODO:
 * make it atomic, or ractor local"), both on the line that starts the
 * struct; a malloc'd body (an environment's ALLOC_N, a Proc's
 * TypedData_Make_Struct) adds objspace_malloc_gc_stress's read of the
 * flags, objspace_malloc_increase_body's two atomic adds (malloc_increase
 * on that line, rgengc.oldmalloc_increase on another) and its compare
 * with malloc_limit; the Proc's three write barriers read the flags.
 *
 * An access to a line that another core accessed last has to fetch it.
 * The core does not make an op's accesses one after another, each waiting
 * for its line: with no work between them (the path's own work between
 * the sites is in the op's compute, before them), the out-of-order core
 * has the requests for both lines out at once and makes the accesses as
 * the lines arrive.  So the thread stalls once, until the last line it
 * does not hold has come: `remote_rmw` (calibrate's line_fetch_ns: a
 * locked add on a line the other CPU stored to; a load costs as much, and
 * the add after a load nothing more, scripts/line_load_then_add.c) after
 * any transfer of that line still in flight to the other core has arrived
 * there.  An access to a line this core holds costs nothing and takes no
 * time; each line moves at most once an op, and the other core's requests
 * during the stall take it after this op's accesses.  Measured on an AMD
 * EPYC guest (scripts/objspace_pair.c, docs/validate.md): the fifteen
 * accesses of an env_escape after 167 ns of work, as the executor makes
 * them, cost 180 ns an op more on two CPUs at once than on one, 1.2
 * fetches of 150 ns; made one at a time (each access between lfences)
 * they found their line gone 4.2 times an op and cost 670 ns more: what
 * this model charged before, a stall for each change of line (up to five
 * an op).  Real Ruby spreads the sites over its op (two newobj_of, two
 * objspace_xmalloc0, the write barriers, tens of ns apart): the probe with
 * 40 ns of work before each site cost 1.6 fetches an op, and Ruby's
 * profile on an Intel guest put about 190 ns an op on the two lines (3.0
 * moves at that guest's 64 ns ball ping-pong); the model, which has the
 * sites together, charges one fetch.
 * With one Ractor one
 * thread runs Ruby at a time and the lines move at most once per GVL
 * hand-off; not charged.  Ruby 4.0 keeps the counts per Ractor and thread
 * (runtime.alloc_counters `local`: cb772247e7, a773bbf0cc): nothing
 * moves. */
static void op_goes_on(struct mach_task *t, void *ctx)
{
    (void)t;
    th_retry(ctx);  /* the op goes on where it stopped (its op_phase) */
}

static bool objspace_charged(const struct rb_thread *th)
{
    const struct vm *vm = th->vm;
    return vm->scn->runtime.alloc_counters == ALLOC_COUNTERS_SHARED && vm->sync->multi &&
           th->nt->core >= 0;
}

/* Make th's accesses (from os_next on); true when they are made, false
 * while it stalls for the lines (op_goes_on re-runs the op). */
static bool objspace_access(struct rb_thread *th)
{
    struct vm *vm = th->vm;
    struct rb_thread_cold *c = rb_cold(th);
    if (c->os_next == 0 && c->os_count > 0 && th->pending_cost > 0) {
        th_burst(th, 0, op_goes_on);  /* the work before the first access */
        return false;
    }
    sim_time now = sim_now(vm->eng);
    if (c->os_next >= c->os_count) return true;
    int core = th->nt->core;
    sim_time ready = now;
    bool wait = false;
    for (int i = c->os_next; i < c->os_count; i++) {
        int l = c->os_lines[i];
        int last = vm->objspace_owner[l];
        if (last == core) continue;
        vm->objspace_owner[l] = core;
        if (last < 0) continue;
        sim_time start = vm->objspace_ready[l] > now ? vm->objspace_ready[l] : now;
        sim_time r = start + rb_machine_of(th)->remote_rmw;
        vm->objspace_ready[l] = r;
        vm->objspace_transfers++;
        if (r > ready) ready = r;
        wait = true;
    }
    c->os_next = c->os_count;
    if (wait) {
        th_burst(th, ready - now, op_goes_on);
        return false;
    }
    return true;
}

bool gc_alloc_objects(struct rb_thread *th, uint64_t objects, double survive, bool malloced)
{
    struct core_heap *h = &th->vm->heap;
    if (th->core.op_phase == 0) {
        rb_cold(th)->os_next = rb_cold(th)->os_count = 0;
        if (objects > 0 && objspace_charged(th)) {
            /* an alloc op's objects: the first one's accesses may move the
             * lines, the rest follow at once on the lines now held */
            struct vm *vm = th->vm;
            rb_cold(th)->os_lines = malloced ? vm->os_escape_lines : vm->os_object_lines;
            rb_cold(th)->os_count = malloced ? vm->os_escape_nlines : vm->os_object_nlines;
        }
        th->core.op_phase = 2;
    }
    if (th->core.op_phase == 2) {
        if (!objspace_access(th)) return false;
        if (malloced) {
            core_heap_bodies(&th->vm->heap, objects);
            if (th->nt->core >= 0) th->vm->bodies_now[th->nt->core] += objects;
        }
        rb_cold(th)->alloc_left = objects;
        rb_cold(th)->alloc_survive = survive;
        th->core.op_phase = 1;
    }
    if (!th->vm->sync->multi) {
        if (h->free >= rb_cold(th)->alloc_left) {  /* the freelist: no lock */
            core_heap_alloc(h, &rb_cold(th)->alloc_left, rb_cold(th)->alloc_survive);
            th->core.op_phase = 0;
            return true;
        }
        vm_lock_enter(th, gc_locked);
        return false;
    }
    struct rb_ractor *r = rb_ractor_of(th);  /* ractor_cached_free_region */
    uint64_t n = r->newobj_cache < rb_cold(th)->alloc_left ? r->newobj_cache : rb_cold(th)->alloc_left;
    r->newobj_cache -= n;
    rb_cold(th)->alloc_left -= n;
    core_heap_allocated(h, n, rb_cold(th)->alloc_survive);
    if (rb_cold(th)->alloc_left == 0) {
        th->core.op_phase = 0;
        return true;
    }
    vm_lock_enter(th, refill_locked);  /* newobj_slowpath */
    return false;
}

/* An op's own CPU first (`work`, paid once however often the op runs again
 * while it waits for the heap; not at all unless `pay`), then its objects'
 * slots (gc_alloc_objects). */
static bool work_then_objects(struct rb_thread *th, bool pay, sim_time work, uint64_t objects, double survive,
                              bool malloced)
{
    if (th->core.op_phase == 0 && pay && !rb_cold(th)->alloc_paid) {
        rb_cold(th)->alloc_paid = true;
        th_burst(th, work, op_goes_on);
        return false;
    }
    if (!gc_alloc_objects(th, objects, survive, malloced)) return false;
    rb_cold(th)->alloc_paid = false;
    return true;
}

/* An alloc op: its objects' own CPU first (machine.alloc_object each: what
 * the Ruby backend's `N.times { Object.new }` costs, holding the GVL), then
 * the heap's slots.  A syscall's `allocates` have theirs in the method's
 * work, an env_escape's in env_escape_work (gc_escape, below). */
bool gc_alloc(struct rb_thread *th, const struct scn_op *op)
{
    sim_time per = rb_machine_of(th)->alloc_object;
    return work_then_objects(th, per > 0, (sim_time)op->u.alloc.objects * per, op->u.alloc.objects,
                             op->u.alloc.survive, false);
}

/* An env_escape op's objects, vm_make_env_each's environment and
 * rb_proc_alloc's Proc: first the op's own CPU (machine.env_escape_work:
 * what the Ruby backend's escape method, `x = N; -> { x }`, costs a call,
 * the two slots taken from the free list included), then the heap's
 * slots; the JIT's invariant check comes after (models/invariant.c). */
bool gc_escape(struct rb_thread *th)
{
    sim_time work = rb_machine_of(th)->env_escape_work;
    return work_then_objects(th, work > 0, work, CORE_ESCAPE_OBJECTS, 0.0, true);
}
