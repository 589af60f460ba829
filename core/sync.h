/* sync.h - Thread::Mutex, Thread::ConditionVariable and Thread#join
 * (thread_sync.c, thread.c): their decisions, which both backends call
 * holding the GVL (the executor under its lock of the Ruby sync objects).
 *
 * A Mutex is an owner and a FIFO of waiters (do_mutex_lock appends at the
 * tail and sleeps with the GVL released).  Unlock (rb_mutex_unlock_th)
 * clears the owner and takes only the head waiter off the list, to be
 * interrupted: the mutex is not handed over.  The woken waiter competes
 * for it again once it holds the GVL, and requeues at the tail if another
 * thread locked it first - usually the unlocker, which still holds the GVL.
 * A ConditionVariable is a FIFO of waiters: wait (rb_condvar_wait) appends
 * and then Mutex#sleep unlocks, sleeps and re-locks; signal wakes the head,
 * broadcast every waiter in order.  join pushes the joiner at the head of
 * the target's join list (thread_join), so the target's end
 * (rb_threadptr_join_list_wakeup) wakes joiners newest first.
 */
#ifndef CORE_SYNC_H
#define CORE_SYNC_H

#include "queue.h"

struct core_mutex {
    const char *name;
    struct core_thread *owner;
    struct core_waitq waiters;
    uint64_t waits;              /* a lock had to sleep (the mutex was taken) */
};

struct core_condvar {
    const char *name;
    struct core_waitq waiters;
};

void core_mutex_init(struct core_mutex *m, const char *name);
void core_condvar_init(struct core_condvar *cv, const char *name);

enum core_lock {
    CORE_LOCK_TAKEN,      /* th owns the mutex now */
    CORE_LOCK_WAIT,       /* th is the tail waiter: sleep, then lock again */
    CORE_LOCK_RECURSIVE   /* th owns it already: ThreadError "deadlock; recursive locking" */
};
/* Mutex#lock by th; `idx` is the mutex's index (th->parked_mutex while it waits). */
enum core_lock core_mutex_lock(struct core_mutex *m, struct core_thread *th, int idx);

enum core_unlock {
    CORE_UNLOCK_OK,
    CORE_UNLOCK_NOT_LOCKED,  /* ThreadError: "Attempt to unlock a mutex which is not locked" */
    CORE_UNLOCK_NOT_OWNER    /* ThreadError: "... locked by another thread" */
};
/* Mutex#unlock by th: on CORE_UNLOCK_OK *wake is the head waiter (off the
 * list, no longer waiting for the mutex) to interrupt, or NULL. */
enum core_unlock core_mutex_unlock(struct core_mutex *m, struct core_thread *th, struct core_thread **wake);
const char *core_unlock_error(enum core_unlock e);

/* ConditionVariable#wait: th joins the tail of the waiters (`idx`: the
 * condvar's index, th->parked_cv); the caller then unlocks the mutex. */
void core_cv_wait(struct core_condvar *cv, struct core_thread *th, int idx);
/* #signal: the head waiter (off the list), or NULL. */
struct core_thread *core_cv_signal(struct core_condvar *cv);
/* #broadcast: every waiter, in order, linked through wait_next. */
struct core_thread *core_cv_broadcast(struct core_condvar *cv);
/* A timed wait ended: th leaves the list if it is still on it (its
 * timeout came first: true), else a signal took it off. */
bool core_cv_timed_out(struct core_condvar *cv, struct core_thread *th);

/* Thread#join of `target` by th, which must sleep: th becomes the head of
 * target's joiners. */
void core_join_wait(struct core_thread *target, struct core_thread *th);
/* target ended: its joiners, newest first, linked through wait_next. */
struct core_thread *core_join_wakeup(struct core_thread *target);

#endif
