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

/* A thread's part in the VM lock and barrier protocol (models/vm_lock.c,
 * models/barrier.c, models/invariant.c).  One continuation per protocol
 * level, because the levels nest: an env escape takes the VM lock, whose
 * enter may join a barrier, whose join re-locks two mutexes.  Kept
 * outside the thread (vm_sync.threads, th_sync_of), allocated for all
 * threads when the VM lock is first entered: most runs never take it, and
 * its 184 bytes would be cold ballast in every thread. */
struct th_sync {
    /* a native mutex or condvar wait (vml_mutex_lock, vml_cond_wait) */
    struct rb_thread *wait_next;      /* in the wait list of `cond` */
    struct nlock_waiter mutex_wait;   /* in the wait list of `mutex` */
    struct vml_mutex *mutex;          /* mutex it sleeps on or re-locks, or NULL */
    struct vml_cond *cond;            /* condvar it sleeps on, or NULL */
    struct vml_cond *woken_from;      /* the condvar of its last wait, for the way back (lock_line) */
    bool in_mutex_queue;              /* registered in mutex's wait list */
    bool pre_sleep;                   /* registered, still paying its way to the futex wait */
    bool wake_pending;                /* woken in that window: FUTEX_WAIT returns at once */
    bool slept;                       /* the current mutex_lock had to sleep */
    bool relock;                      /* the current mutex_lock is pthread_cond_wait's re-lock */
    bool timed_out;                   /* the last vml_cond_timedwait ended by its timeout */
    sim_event_id timeout_ev;          /* its timeout, while it waits */
    enum thread_state wait_state;     /* state while asleep in the current wait */
    enum thread_state resume_state;   /* state to return to once the mutex is ours */
    th_cont lock_k;                   /* once the mutex is ours */
    th_cont cond_k;                   /* once woken from the condvar and the mutex re-locked */
    th_cont wake_k;                   /* what a wake-up from the kernel runs */
    /* the VM lock (vm_lock_enter) and the barrier */
    th_cont enter_k;                  /* once vm_lock_enter returns */
    enum thread_state enter_state;    /* the state vm_lock_enter was called in */
    bool enter_waited;                /* the VM mutex made this enter sleep */
    th_cont join_k;                   /* once rb_ractor_sched_barrier_join returns */
    unsigned join_serial;             /* barrier_serial when it joined */
    bool joined;                      /* counted in barrier_waiting_cnt, not yet released */
    th_cont barrier_k;                /* once rb_ractor_sched_barrier_start returns */
    enum thread_state barrier_state;  /* the state rb_vm_barrier was called in */
    th_cont intr_k;                   /* after the VM_BARRIER interrupt's RB_VM_LOCKING() */
    th_cont switch_k;                 /* a switch-in waiting for the sched lock */
    void (*switch_resume)(struct rb_thread *th, th_cont k);
    int escape_iseq;                  /* iseq of the env escape in progress */
};

/* A pthread mutex with no spinning and no hand-off (see vm_lock.c). */
struct vml_mutex {
    const char *name;                         /* for reports: "the VM lock" */
    const char *counter;                      /* observer counter of its sleepers, or NULL */
    /* its native owner (a struct rb_thread, NULL if free) and the threads
     * asleep in pthread_mutex_lock, FIFO (models/nlock.h) */
    struct nlock nl;
    bool contended;                           /* glibc: the futex word is 2 (taken contended) */
    int nwaiters;
    /* locks taken; tries that found it taken (each queues and goes into
     * FUTEX_WAIT); of those, the waits that slept (each needs a wake: the
     * others met the unlock on their way in, models/vm_lock.c sync_sleep) */
    uint64_t acquires, sleeps, slept;
    int line_core;                            /* the core that touched its word's line last, + 1 (0: none) */
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
    /* each thread's part in the protocol, indexed by thread id; NULL until
     * a thread first enters the VM lock (vm_sync_threads) */
    struct th_sync *threads;
};

/* m's native owner, or NULL */
static inline const struct rb_thread *vml_holder(const struct vml_mutex *m)
{
    return m->nl.holder;
}

/* Thread th's part in the protocol (vm_sync_threads made it). */
static inline struct th_sync *th_sync_of(const struct rb_thread *th)
{
    return &th->vm->sync->threads[th->core.id];
}

/* Allocate every thread's part, if not done yet: false (and the run
 * failed, vm_fail) when out of memory. */
bool vm_sync_threads(struct vm *vm);

/* Build vm->sync once the Ractors exist.  GV_OK or GV_ENOMEM. */
int vm_sync_init(struct vm *vm, char *err, unsigned errlen);
void vm_sync_free(struct vm *vm);

/* pthread_mutex_lock: k runs once th holds m (synchronously if m is free).
 * While asleep th is in wait_state; afterwards back in its previous state. */
void vml_mutex_lock(struct rb_thread *th, struct vml_mutex *m, enum thread_state wait_state,
                    th_cont k);
/* pthread_mutex_trylock, for a section the caller times itself (it ends
 * it with vml_mutex_unlock): takes m if it is free, charging th
 * mutex_uncontended; false if m is held. */
bool vml_mutex_trylock(struct rb_thread *th, struct vml_mutex *m);

/* A locked read-modify-write by th on a word whose cache line (*line_core:
 * the core that wrote it last, + 1; 0 untouched) another core may hold:
 * the CPU it costs th (machine.lock_line when the line moves, counted in
 * line_transfers), the line th's from then on. */
sim_time vml_line_rmw(struct rb_thread *th, int *line_core);

/* pthread_mutex_unlock: wakes one sleeper, which must lock again. */
void vml_mutex_unlock(struct rb_thread *th, struct vml_mutex *m);

/* pthread_cond_wait(c, m): th holds m; k runs once woken and m re-locked.
 * Callers re-check their predicate in k, as every cond_wait loop does. */
void vml_cond_wait(struct rb_thread *th, struct vml_cond *c, struct vml_mutex *m,
                   enum thread_state wait_state, th_cont k);
/* pthread_cond_timedwait(c, m, abs): the same, ended at the absolute time
 * `abs` if no signal came first (at once if abs has passed); k then finds
 * th_sync_of(th)->timed_out set (ETIMEDOUT). */
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
