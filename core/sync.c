/* sync.c - Mutex, ConditionVariable and join decisions (sync.h). */
#include "sync.h"

void core_mutex_init(struct core_mutex *m, const char *name)
{
    m->name = name;
    m->owner = NULL;
    m->waiters.head = m->waiters.tail = NULL;
    m->waits = 0;
}

void core_condvar_init(struct core_condvar *cv, const char *name)
{
    cv->name = name;
    cv->waiters.head = cv->waiters.tail = NULL;
}

enum core_lock core_mutex_lock(struct core_mutex *m, struct core_thread *th, int idx)
{
    if (m->owner == th) return CORE_LOCK_RECURSIVE;
    if (!m->owner) {  /* rb_mutex_trylock: protected by the GVL, no atomics */
        m->owner = th;
        return CORE_LOCK_TAKEN;
    }
    m->waits++;
    th->parked_mutex = idx;
    core_waitq_push(&m->waiters, th);
    return CORE_LOCK_WAIT;
}

enum core_unlock core_mutex_unlock(struct core_mutex *m, struct core_thread *th, struct core_thread **wake)
{
    *wake = NULL;
    if (!m->owner) return CORE_UNLOCK_NOT_LOCKED;
    if (m->owner != th) return CORE_UNLOCK_NOT_OWNER;
    m->owner = NULL;
    struct core_thread *w = core_waitq_pop(&m->waiters);
    if (w) w->parked_mutex = -1;
    *wake = w;
    return CORE_UNLOCK_OK;
}

const char *core_unlock_error(enum core_unlock e)
{
    switch (e) {
    case CORE_UNLOCK_NOT_LOCKED: return "Attempt to unlock a mutex which is not locked";
    case CORE_UNLOCK_NOT_OWNER: return "Attempt to unlock a mutex which is locked by another thread";
    case CORE_UNLOCK_OK: break;
    }
    return "ok";
}

void core_cv_wait(struct core_condvar *cv, struct core_thread *th, int idx)
{
    th->parked_cv = idx;
    core_waitq_push(&cv->waiters, th);
}

struct core_thread *core_cv_signal(struct core_condvar *cv)
{
    struct core_thread *w = core_waitq_pop(&cv->waiters);
    if (w) w->parked_cv = -1;
    return w;
}

struct core_thread *core_cv_broadcast(struct core_condvar *cv)
{
    struct core_thread *list = core_waitq_take_all(&cv->waiters);
    for (struct core_thread *w = list; w; w = w->wait_next) w->parked_cv = -1;
    return list;
}

bool core_cv_timed_out(struct core_condvar *cv, struct core_thread *th)
{
    if (!core_waitq_remove(&cv->waiters, th)) return false;
    th->parked_cv = -1;
    return true;
}

void core_join_wait(struct core_thread *target, struct core_thread *th)
{
    th->join_target = target;
    th->joining = true;
    th->wait_next = target->joiners;
    target->joiners = th;
}

struct core_thread *core_join_wakeup(struct core_thread *target)
{
    struct core_thread *list = target->joiners;
    target->joiners = NULL;
    for (struct core_thread *j = list; j; j = j->wait_next) {
        j->joining = false;
        j->join_target = NULL;
    }
    return list;
}
