/* nlock.h - a native lock (glibc's default pthread mutex) held through a
 * section by whoever made a wake inside it, with the tasks that wanted it
 * meanwhile asleep on it in FIFO order.
 *
 * The model's scheduler-lock sections are instants, but for one rule:
 * who wakes a thread onto its own core while holding a lock keeps the lock
 * until it has paid that wake, and a woken thread that preempted it gets
 * there first and must sleep on the lock (models/gvl.c: the Ractor's
 * sched->lock_ after a hand-off's signal; models/timer.c: the global
 * vm->ractor.sched.lock after the timer's eventfd write).  glibc's lock
 * does not spin (__lll_lock_wait: FUTEX_WAIT after one failed exchange),
 * and an unlock with the word at 2 wakes one sleeper (FUTEX_WAKE of 1),
 * which, when its own section ends, wakes the next (nlock_pass): the
 * sleepers are woken one after another.  The 3.1 GVL's gvl->lock, the VM
 * lock and the barrier's locks are models/vm_lock.c's vml_mutex, whose
 * sections are timed: it keeps its holder and sleepers in an nlock too
 * (nlock_enqueue, nlock_dequeue).
 *
 *   nlock_hold(l, who)       take l (or take it over) for `who`
 *   nlock_taken(l, who)      held by someone other than `who`
 *   nlock_sleep(...)         t sleeps on it until an unlock wakes it
 *   nlock_enqueue(...)       t registers on it first, on the way into its
 *                            FUTEX_WAIT (nlock_sleep then, if still queued)
 *   nlock_unlock(l, who, by) `who` lets go; wakes the first sleeper
 *   nlock_pass(l, by)        a woken sleeper's own unlock: wakes the next
 * The unlocks return what mach_wake returned (MACH_WAKE_NONE: nobody was
 * woken), for the caller to charge the waker the futex wake, or
 * NLOCK_WAKE_RACE: the first waiter was registered and on its way into
 * its FUTEX_WAIT (nlock_enqueue, not yet nlock_sleep): the kernel finds
 * nobody to wake (the waker pays a wake of nobody), the waiter's wait
 * returns at once (its owner finds it no longer queued), and l->raced
 * names it (its owner's context) until the next unlock.
 */
#ifndef MODELS_NLOCK_H
#define MODELS_NLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../sim/machine.h"

/* A task asleep on an nlock (kept by the task's owner). */
struct nlock_waiter {
    struct nlock_waiter *next;
    struct mach_task *nt;
    void *who;                            /* its owner (the sleeper's context) */
    bool *asleep;                         /* its owner's "only this lock wakes it" flag, or NULL */
    bool queued;                          /* in the FIFO (an unlock's dequeue clears it) */
    bool sleeping;                        /* asleep (nlock_sleep), not on its way in */
};

/* An unlock's wake that met its waiter on the way in (beyond mach_wake's
 * MACH_WAKE_* kinds). */
#define NLOCK_WAKE_RACE 4

struct nlock {
    const void *holder;                   /* who holds it (identity only); NULL: free */
    struct nlock_waiter *head, *tail;     /* asleep on it, FIFO */
    uint64_t sleeps;                      /* sleeps on it (each needs an unlock's wake) */
    void *raced;                          /* NLOCK_WAKE_RACE: the waiter met, else NULL */
};

static inline bool nlock_taken(const struct nlock *l, const void *who)
{
    return l->holder != NULL && l->holder != who;
}

static inline void nlock_hold(struct nlock *l, const void *who)
{
    l->holder = who;
}

/* The FIFO alone, for a lock whose sleepers register before they pay
 * their way to the futex wait (models/vm_lock.c: a wake in between must
 * not be lost); its caller wakes the one it dequeues. */
void nlock_enqueue(struct nlock *l, struct nlock_waiter *w, struct mach_task *t, void *who);
struct nlock_waiter *nlock_dequeue(struct nlock *l);

/* t (running) sleeps on l: mach_block with k(t, ctx) once an unlock or a
 * pass wakes it; *asleep (if not NULL) is true meanwhile.  A waiter that
 * registered on its way in (nlock_enqueue) and is still queued keeps its
 * place. */
void nlock_sleep(struct nlock *l, struct machine *m, struct nlock_waiter *w, struct mach_task *t,
                 bool *asleep, mach_cont k, void *ctx);
/* `who` lets l go (nothing if it does not hold it: false); the first
 * sleeper, if any, is woken by `by` (*woke: mach_wake's result). */
bool nlock_unlock_held(struct nlock *l, struct machine *m, const struct mach_task *by, int *woke);
/* (Inline: most unlocks are asked of a lock the caller does not hold -
 * every section's end, the timer's after every wake-up - and do nothing.) */
static inline bool nlock_unlock(struct nlock *l, const void *who, struct machine *m, const struct mach_task *by,
                                int *woke)
{
    *woke = MACH_WAKE_NONE;
    if (l->holder == NULL || l->holder != who) return false;
    return nlock_unlock_held(l, m, by, woke);
}
/* A woken sleeper's section is over (the word stays 2): if l is free,
 * wake the next sleeper; returns mach_wake's result. */
int nlock_pass(struct nlock *l, struct machine *m, const struct mach_task *by);

#endif
