/* wake_pull.c - is a sleeper whose last CPU is idle pulled onto its busy
 * waker's CPU?  By wake path (a futex, as a thread waiting for CRuby's GVL
 * sleeps, or an eventfd read through epoll, as the 3.3 timer thread sleeps)
 * and by how busy the sleeper is (docs/validate.md, "The eager timer on two
 * CPUs").
 *
 *   cc -O2 -pthread -o wake_pull scripts/wake_pull.c
 *   ./wake_pull PATH RUN_US SLEEP_US SAMPLES     PATH: 0 futex, 1 eventfd+epoll
 *
 * The waker spins on CPU 0 throughout.  Before each sample the sleeper runs
 * RUN_US on CPU 1 (its affinity that CPU alone, then both again) and goes to
 * sleep; SLEEP_US later the waker wakes it and spins on until the sleeper
 * has noted sched_getcpu().  Prints how many wakes ran on the waker's CPU
 * (the first 20 samples are not counted). */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"

#define WARMUP 20

static atomic_int fut, asleep, last_round, result;
static int efd, ep, path;
static long run_us, sleep_us;

static void *sleeper(void *arg)
{
    (void)arg;
    for (;;) {
        allow(1, -1);
        spin_ns(run_us * 1000);
        allow(0, 1);
        atomic_store(&asleep, 1);
        if (path == 0) {
            while (atomic_load(&fut) == 0) syscall(SYS_futex, &fut, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
            atomic_store(&fut, 0);
        } else {
            struct epoll_event ev;
            uint64_t v;
            epoll_wait(ep, &ev, 1, -1);
            if (read(efd, &v, sizeof v) != sizeof v) return NULL;
        }
        atomic_store(&result, sched_getcpu() + 1);
        if (atomic_load(&last_round)) return NULL;
    }
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: wake_pull PATH(0 futex, 1 eventfd+epoll) RUN_US SLEEP_US SAMPLES\n");
        return 2;
    }
    path = atoi(argv[1]);
    run_us = atol(argv[2]);
    sleep_us = atol(argv[3]);
    int n = atoi(argv[4]);
    efd = eventfd(0, 0);
    ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN };
    epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
    allow(0, -1);
    pthread_t t;
    pthread_create(&t, NULL, sleeper, NULL);
    int pulled = 0;
    for (int i = 0; i < n + WARMUP; i++) {
        while (!atomic_load(&asleep)) {}
        atomic_store(&asleep, 0);
        spin_ns(sleep_us * 1000);
        atomic_store(&result, 0);
        if (i == n + WARMUP - 1) atomic_store(&last_round, 1);
        if (path == 0) {
            atomic_store(&fut, 1);
            syscall(SYS_futex, &fut, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        } else {
            uint64_t v = 1;
            if (write(efd, &v, sizeof v) != sizeof v) return 1;
        }
        while (!atomic_load(&result)) {}
        if (i >= WARMUP && atomic_load(&result) == 1) pulled++;
    }
    pthread_join(t, NULL);
    printf("%s, run %ld us, sleep %ld us: on the waker's CPU %d of %d\n", path ? "eventfd+epoll" : "futex",
           run_us, sleep_us, pulled, n);
    return 0;
}
