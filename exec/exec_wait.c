/* exec_wait.c - condvar waits that an aborted run's threads leave
 * (exec_wait.h). */
#include "exec_wait.h"

#include <stdatomic.h>
#include <time.h>

int exec_cond_init(pthread_cond_t *c)
{
    pthread_condattr_t a;
    if (pthread_condattr_init(&a)) return -1;
    int rc = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    if (!rc) rc = pthread_cond_init(c, &a);
    pthread_condattr_destroy(&a);
    return rc ? -1 : 0;
}

void exec_check_abort(struct exec_thread *th, pthread_mutex_t *mu)
{
    if (!atomic_load_explicit(&th->vm->aborting, memory_order_acquire)) return;
    if (mu) pthread_mutex_unlock(mu);
    pthread_exit(NULL);
}

void exec_cond_wait(struct exec_thread *th, pthread_cond_t *c, pthread_mutex_t *mu)
{
    exec_check_abort(th, mu);
    pthread_cond_wait(c, mu);
    exec_check_abort(th, mu);
}

int exec_cond_timedwait(struct exec_thread *th, pthread_cond_t *c, pthread_mutex_t *mu,
                        int64_t deadline_ns)
{
    exec_check_abort(th, mu);
    struct timespec ts = exec_abstime(deadline_ns);
    int rc = pthread_cond_timedwait(c, mu, &ts);
    exec_check_abort(th, mu);
    return rc;
}
