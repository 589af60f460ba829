/* invariant.c - YJIT's "EP is BP" invariant on environment escapes (bug
 * #22224).
 *
 * Whenever a Ruby frame's environment moves to the heap (a Proc or lambda
 * capturing a local, `binding`, an escaping block handler), vm.c
 * vm_make_env_each tells the JITs that the iseq's EP no longer equals its
 * BP.  runtime.invariant_check says what that costs:
 *
 * - none: YJIT is off; rb_yjit_invalidate_ep_is_bp returns at once.
 * - lock_barrier: YJIT before PR 18176.  rb_yjit_invalidate_ep_is_bp
 *   (yjit/src/invariants.rs) runs with_vm_lock (yjit/src/cruby.rs), i.e.
 *   rb_jit_vm_lock_then_barrier (jit.c): rb_vm_lock_enter + rb_vm_barrier,
 *   on EVERY escape, then looks the iseq up in no_ep_escape_iseqs
 *   (escape_check_cs) and leaves the lock.  Only the first escape per iseq
 *   finds blocks to invalidate; every later one pays the lock and a
 *   stop-the-world barrier to iterate an empty set.  In single-Ractor mode
 *   the lock and the barrier are no-ops and only the lookup remains.
 * - lockless: PR 18176.  vm_make_env_each first loads the iseq's
 *   jit_ep_escape_recorded byte without a lock (lockless_check); only if it
 *   is clear does it call the JIT, which sets it inside its locked section.
 *   Threads that read the flag before the first one set it all take the
 *   lock, as the real race allows.
 */
#include "invariant.h"

#include "barrier.h"
#include "thread.h"
#include "vm_lock.h"

static void escape_done(struct mach_task *t, void *ctx)
{
    (void)t;
    struct rb_thread *th = ctx;
    struct vm_sync *sy = th->vm->sync;
    /* rb_jit_set_ep_escape_recorded, inside the locked section (PR 18176) */
    if (sy->ep_escape_recorded) sy->ep_escape_recorded[th_sync_of(th)->escape_iseq] = 1;
    vm_lock_leave(th);  /* with_vm_lock's rb_jit_vm_unlock: ends the barrier */
    th_step(th);
}

static void escape_stopped_the_world(struct rb_thread *th)
{
    /* no_ep_escape_iseqs lookup (and, the first time, the invalidation) */
    th_burst(th, rb_machine_of(th)->escape_check_cs, escape_done);
}

static void escape_locked(struct rb_thread *th)
{
    barrier_vm_barrier(th, escape_stopped_the_world);  /* rb_vm_barrier */
}

bool invariant_env_escape(struct rb_thread *th, const struct scn_op *op)
{
    struct vm_sync *sy = th->vm->sync;
    int iseq = op->u.env_escape.iseq;
    switch (th->vm->scn->runtime.invariant_check) {
    case INVARIANT_NONE:
        return true;
    case INVARIANT_LOCKLESS:
        th->pending_cost += rb_machine_of(th)->lockless_check;
        if (sy->ep_escape_recorded[iseq]) return true;
        break;
    case INVARIANT_LOCK_BARRIER:
    case INVARIANT_COUNT:
        break;
    }
    if (!vm_sync_threads(th->vm)) return false;
    th_sync_of(th)->escape_iseq = iseq;
    vm_lock_enter(th, escape_locked);  /* rb_jit_vm_lock_then_barrier */
    return false;
}
