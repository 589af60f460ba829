/* vm_lock.h - the VM lock (CRuby vm_sync.c / vm_sync.h) and the two native
 * primitives the lock and the barrier are built from: a mutex and a
 * condition variable with the semantics of the C library underneath.
 *
 * Every wait here is a real sleep of the thread's native thread (th->nt):
 * a contended lock or a condvar wait is a voluntary context switch, and a
 * wake-up costs the waker futex_wake and the wakee the machine's wake
 * latency (sim/machine.c).  A waiting Ruby thread keeps its GVL.
 */
#ifndef MODELS_VM_LOCK_H
#define MODELS_VM_LOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "vm.h"

/* A pthread mutex with no spinning and no hand-off (see vm_lock.c). */
struct vml_mutex {
    const char *name;                         /* for reports: "the VM lock" */
    const char *counter;                      /* observer counter of its sleepers, or NULL */
    struct rb_thread *holder;                 /* native owner, NULL if free */
    bool contended;                           /* glibc: the futex word is 2 (taken contended) */
    struct rb_thread *wait_head, *wait_tail;  /* asleep in pthread_mutex_lock, FIFO */
    int nwaiters;
    uint64_t acquires, sleeps;                /* locks taken; sleeps on it (each needs a wake) */
};

/* vm->ractor.sync (the VM lock) and the barrier half of vm->ractor.sched
 * (the global scheduler lock and barrier_*).  Names follow vm_core.h. */
struct vm_sync {
    bool multi;                    /* rb_multi_ractor_p(): a second Ractor exists */
    /* vm->ractor.sync */
    struct vml_mutex lock;         /* sync.lock */
    const struct core_ractor *lock_owner;  /* sync.lock_owner */
    unsigned lock_rec;             /* sync.lock_rec */
    /* vm->ractor.sched */
    struct vml_mutex sched_lock;   /* sched.lock: running_threads, barrier fields */
    bool barrier_waiting;
    int barrier_waiting_cnt;
    unsigned barrier_serial;
    const struct core_ractor *barrier_ractor;
    unsigned barrier_lock_rec;
    struct vml_cond barrier_complete_cond;
    struct vml_cond barrier_release_cond;
    struct rb_thread *barrier_initiator;  /* (reports, traces) */
    /* iseq->body->jit_ep_escape_recorded of PR 18176, indexed by iseq id
     * (models/invariant.c); NULL unless invariant_check is lockless */
    uint8_t *ep_escape_recorded;
    int niseqs;
};

/* Build vm->sync once the Ractors exist.  GV_OK or GV_ENOMEM. */
int vm_sync_init(struct vm *vm, char *err, unsigned errlen);
void vm_sync_free(struct vm *vm);

/* pthread_mutex_lock: k runs once th holds m (synchronously if m is free).
 * While asleep th is in wait_state; afterwards back in its previous state. */
void vml_mutex_lock(struct rb_thread *th, struct vml_mutex *m, enum thread_state wait_state,
                    th_cont k);
/* pthread_mutex_unlock: wakes one sleeper, which must lock again. */
void vml_mutex_unlock(struct rb_thread *th, struct vml_mutex *m);

/* pthread_cond_wait(c, m): th holds m; k runs once woken and m re-locked.
 * Callers re-check their predicate in k, as every cond_wait loop does. */
void vml_cond_wait(struct rb_thread *th, struct vml_cond *c, struct vml_mutex *m,
                   enum thread_state wait_state, th_cont k);
/* pthread_cond_timedwait(c, m, abs): the same, ended at the absolute time
 * `abs` if no signal came first (at once if abs has passed); k then finds
 * th->sync.timed_out set (ETIMEDOUT). */
void vml_cond_timedwait(struct rb_thread *th, struct vml_cond *c, struct vml_mutex *m,
                        enum thread_state wait_state, sim_time abs, th_cont k);
/* pthread_cond_signal / _broadcast by `by` (who pays the wakes; NULL: the
 * kernel). */
void vml_cond_signal(struct rb_thread *by, struct vml_cond *c);
void vml_cond_broadcast(struct rb_thread *by, struct vml_cond *c);
/* pthread_cond_signal by any actor (a Ruby thread, the timer thread). */
void vml_cond_signal_as(struct gvl_actor by, struct vml_cond *c);

/* RB_VM_LOCK_ENTER (vm_lock_enter): a no-op in single-Ractor mode,
 * recursive per Ractor; taking the mutex during a barrier joins it.  k runs
 * once th's Ractor owns the VM lock. */
void vm_lock_enter(struct rb_thread *th, th_cont k);
/* RB_VM_LOCK_LEAVE (vm_lock_leave): ends th's barrier at its lock level. */
void vm_lock_leave(struct rb_thread *th);

/* Describe th's wait on a VM-lock primitive for a deadlock report; returns
 * false if th waits on none of them. */
bool vm_lock_describe_wait(const struct rb_thread *th, char *buf, unsigned len);
/* " while holding the VM lock" if th's native thread holds it, else "". */
const char *vm_lock_held_note(const struct rb_thread *th);

#endif
