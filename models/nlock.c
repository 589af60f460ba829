/* nlock.c - a native lock held through a section, FIFO sleepers (nlock.h). */
#include "nlock.h"

void nlock_enqueue(struct nlock *l, struct nlock_waiter *w, struct mach_task *t, void *who)
{
    w->next = NULL;
    w->nt = t;
    w->who = who;
    w->asleep = NULL;
    w->queued = true;
    w->sleeping = false;
    if (l->tail) l->tail->next = w;
    else l->head = w;
    l->tail = w;
}

struct nlock_waiter *nlock_dequeue(struct nlock *l)
{
    struct nlock_waiter *w = l->head;
    if (!w) return NULL;
    l->head = w->next;
    if (!l->head) l->tail = NULL;
    w->next = NULL;
    w->queued = false;
    return w;
}

void nlock_sleep(struct nlock *l, struct machine *m, struct nlock_waiter *w, struct mach_task *t,
                 bool *asleep, mach_cont k, void *ctx)
{
    if (!w->queued) nlock_enqueue(l, w, t, ctx);  /* (else registered on its way in) */
    w->sleeping = true;
    w->asleep = asleep;
    if (asleep) *asleep = true;
    l->sleeps++;
    mach_block(m, t, k, ctx);
}

/* FUTEX_WAKE of the first sleeper */
static int wake_first(struct nlock *l, struct machine *m, const struct mach_task *by)
{
    struct nlock_waiter *w = nlock_dequeue(l);
    l->raced = NULL;
    if (!w) return MACH_WAKE_NONE;
    if (!w->sleeping) {  /* on its way in: its FUTEX_WAIT will return at once */
        l->raced = w->who;
        return NLOCK_WAKE_RACE;
    }
    w->sleeping = false;
    if (w->asleep) *w->asleep = false;
    return mach_wake(m, w->nt, by);
}

bool nlock_unlock_held(struct nlock *l, struct machine *m, const struct mach_task *by, int *woke)
{
    l->holder = NULL;
    *woke = wake_first(l, m, by);
    return true;
}

int nlock_pass(struct nlock *l, struct machine *m, const struct mach_task *by)
{
    if (l->holder != NULL) return MACH_WAKE_NONE;
    return wake_first(l, m, by);
}
