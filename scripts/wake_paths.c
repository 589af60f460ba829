/* wake_paths.c - the wake-up of a thread sleeping on another, idle CPU: in
 * pthread_cond_wait (a futex, as a thread waiting for CRuby's GVL sleeps)
 * against in ppoll on an eventfd (as CRuby's main thread sleeps in a join or
 * a Queue pop up to 3.2: rb_sigwait_sleep, native_ppoll_sleep), alternating
 * round by round so that both see the same machine (docs/import.md, `gc`).
 *
 *   cc -O2 -pthread -o wake_paths scripts/wake_paths.c
 *   ./wake_paths [ROUNDS] [IDLE_US]
 *
 * The waker runs on CPU 0 and keeps running after the wake (as a dying Ruby
 * thread does); the sleeper on CPU 1, idle for IDLE_US before each wake.
 * Prints the min / p25 / median / p75 from the wake call to the sleeper's
 * return (for ppoll, after its read of the eventfd), in microseconds. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"

static int efd, rounds = 1000;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int flag;
static atomic_int asleep;
static atomic_llong t_ret;

static void *sleeper(void *arg)
{
    (void)arg;
    allow(1, -1);
    for (int i = 0; i < rounds; i++) {
        if (i % 2 == 0) {
            pthread_mutex_lock(&mu);
            atomic_store(&asleep, 1);
            while (!flag) pthread_cond_wait(&cv, &mu);
            flag = 0;
            pthread_mutex_unlock(&mu);
        } else {
            struct pollfd p = { efd, POLLIN, 0 };
            uint64_t v;
            atomic_store(&asleep, 1);
            ppoll(&p, 1, NULL, NULL);
            if (read(efd, &v, sizeof v) < 0) perror("read");
        }
        atomic_store(&t_ret, now_ns());
        atomic_store(&asleep, 0);
    }
    return NULL;
}

static void print(const char *what, long long *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_ll);
    printf("%-14s min %.1f p25 %.1f median %.1f p75 %.1f us\n", what, v[0] / 1e3, v[n / 4] / 1e3, v[n / 2] / 1e3,
           v[3 * n / 4] / 1e3);
}

int main(int argc, char **argv)
{
    if (argc > 1) rounds = 2 * (atoi(argv[1]) / 2);
    long idle_us = argc > 2 ? atol(argv[2]) : 1000;
    if (rounds < 4 || idle_us < 0) {
        fprintf(stderr, "usage: wake_paths [ROUNDS >= 4] [IDLE_US]\n");
        return 2;
    }
    efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    long long *futex = malloc(sizeof *futex * (size_t)rounds / 2), *epoll = malloc(sizeof *epoll * (size_t)rounds / 2);
    if (efd < 0 || !futex || !epoll) {
        perror("wake_paths");
        return 1;
    }
    allow(0, -1);
    pthread_t t;
    pthread_create(&t, NULL, sleeper, NULL);
    for (int i = 0; i < rounds; i++) {
        while (!atomic_load(&asleep)) {}
        struct timespec d = { idle_us / 1000000, (idle_us % 1000000) * 1000 };
        nanosleep(&d, NULL);   /* the sleeper is asleep: let its CPU go idle */
        atomic_store(&t_ret, 0);
        long long t0 = now_ns();
        if (i % 2 == 0) {
            pthread_mutex_lock(&mu);
            flag = 1;
            pthread_cond_signal(&cv);
            pthread_mutex_unlock(&mu);
        } else {
            uint64_t one = 1;
            if (write(efd, &one, sizeof one) < 0) perror("write");
        }
        while (!atomic_load(&t_ret)) {}   /* the waker keeps its CPU busy */
        (i % 2 == 0 ? futex : epoll)[i / 2] = atomic_load(&t_ret) - t0;
    }
    pthread_join(t, NULL);
    print("futex (cond)", futex, rounds / 2);
    print("eventfd+ppoll", epoll, rounds / 2);
    free(futex);
    free(epoll);
    return 0;
}
