/* exec_wait.h - the executor's waits on condition variables, which every
 * thread of an aborted run leaves (so that the controller can join the
 * threads and free the run). */
#ifndef EXEC_EXEC_WAIT_H
#define EXEC_EXEC_WAIT_H

#include <pthread.h>
#include <stdint.h>

#include "exec_vm.h"

/* Initialise a condvar on CLOCK_MONOTONIC (all timed waits use it). */
int exec_cond_init(pthread_cond_t *c);

/* Wait on a condvar; if the run is being aborted, release `mu` and end
 * the calling thread (pthread_exit): an aborted run's threads leave every
 * wait this way, so the controller can join them and free everything. */
void exec_cond_wait(struct exec_thread *th, pthread_cond_t *c, pthread_mutex_t *mu);
/* Same with a deadline; returns the pthread_cond_timedwait result. */
int exec_cond_timedwait(struct exec_thread *th, pthread_cond_t *c, pthread_mutex_t *mu,
                        int64_t deadline_ns);
/* Leave the thread if the run is being aborted (mu released first, may be NULL). */
void exec_check_abort(struct exec_thread *th, pthread_mutex_t *mu);

#endif
