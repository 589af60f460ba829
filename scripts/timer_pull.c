/* timer_pull.c - which sleepers does this guest pull onto their busy
 * waker's CPU although their last CPU is idle?  A GVL-like hand-off of a
 * token between two threads (ga, gb), as in an eager 2-CPU ping-pong, and a
 * third thread (tmr) that sleeps until one of them wakes it, as CRuby 3.3's
 * timer thread sleeps until a GVL acquirer writes its eventfd
 * (docs/validate.md, "What pulls the timer").  scripts/wake_class.sh
 * runs it under perf and counts, per thread, the wakes whose last CPU was
 * the other, idle one that went to the waker's CPU.
 *
 *   cc -O2 -pthread -o timer_pull scripts/timer_pull.c
 *   ./timer_pull SECONDS HOLD_US OUTSIDE_US EVERY TMR_RUN_US MODE
 *
 * ga and gb start on CPU 0 and CPU 1; with PIN set in the environment
 * they stay there, else they may run on both after 1 ms.  OUTSIDE_B=US in
 * the environment gives gb an OUTSIDE_US of its own (a busier CPU for one).
 * Each takes the token
 * (a futex wait until it is its turn), every EVERY-th take wakes tmr if it
 * sleeps, spins HOLD_US, hands the token on (FUTEX_WAKE) and spins
 * OUTSIDE_US before waiting for it again.  tmr (allowed on both CPUs; it
 * starts on CPU 1) sleeps and, once woken, spins TMR_RUN_US.  MODE: how tmr
 * sleeps and what it does when woken:
 *   f  FUTEX_WAIT without a timeout
 *   t  FUTEX_WAIT with a 10 ms timeout (the timer's timed wait)
 *   e  epoll_wait on an eventfd the waker writes (CRuby 3.3's timer thread)
 *   w  as f, and once woken tmr wakes two helper threads in turn four times
 *      (h0 h1 h0 h1): four wakee flips a wake, so that its wakee_flips are
 *      several times its wakers' (mainline's wake_wide() then spreads)
 *   b  as f, and once woken tmr spins 30 us and wakes whichever of ga and gb
 *      waits for the token (a FUTEX_WAKE on the token word), so that tmr
 *      wakes its wakers back, as the two GVL threads wake each other
 * At the end it prints each thread's PELT utilization (se.avg.util_avg of
 * /proc/self/task/TID/sched, of 1024), averaged over the run after 0.3 s. */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"

static atomic_int token, tmr_word, tmr_asleep, stop, help_word[2], tids[3];
static long hold_us, outside_us, tmr_run_us;
static int every, efd, ep;
static char mode;

static void fwait(atomic_int *w, int v, const struct timespec *to)
{
    syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, v, to, NULL, 0);
}

static void fwake(atomic_int *w)
{
    syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void wake_tmr(void)
{
    if (mode == 'e') {
        uint64_t one = 1;
        if (write(efd, &one, sizeof one) != sizeof one) abort();
    } else {
        atomic_store(&tmr_word, 1);
        fwake(&tmr_word);
    }
}

static void *gvl_thread(void *arg)
{
    int me = (int)(intptr_t)arg;
    prctl(PR_SET_NAME, me ? "gb" : "ga");
    atomic_store(&tids[me], (int)gettid());
    allow(me, -1);
    usleep(1000);
    if (!getenv("PIN")) allow(0, 1);
    long outside = me && getenv("OUTSIDE_B") ? atol(getenv("OUTSIDE_B")) : outside_us;
    for (long takes = 1; !atomic_load(&stop); takes++) {
        while (atomic_load(&token) != me && !atomic_load(&stop)) fwait(&token, 1 - me, NULL);
        if (takes % every == 0 && atomic_exchange(&tmr_asleep, 0)) wake_tmr();
        spin_ns(hold_us * 1000LL);
        atomic_store(&token, 1 - me);
        fwake(&token);
        spin_ns(outside * 1000LL);
    }
    atomic_store(&token, 1 - me);
    fwake(&token);
    return NULL;
}

static void *helper(void *arg)
{
    atomic_int *w = arg;
    while (!atomic_load(&stop)) {
        while (!atomic_load(w) && !atomic_load(&stop)) fwait(w, 0, NULL);
        atomic_store(w, 0);
    }
    return NULL;
}

static void *tmr_thread(void *arg)
{
    (void)arg;
    prctl(PR_SET_NAME, "tmr");
    atomic_store(&tids[2], (int)gettid());
    allow(1, -1);
    usleep(1000);
    allow(0, 1);
    while (!atomic_load(&stop)) {
        const struct timespec to = { 0, 10000000 };
        atomic_store(&tmr_asleep, 1);
        if (mode == 'e') {
            struct epoll_event ev;
            uint64_t v;
            while (epoll_wait(ep, &ev, 1, -1) < 1) {}
            if (read(efd, &v, sizeof v) != sizeof v) abort();
        } else {
            while (atomic_load(&tmr_word) == 0 && !atomic_load(&stop))
                fwait(&tmr_word, 0, mode == 't' ? &to : NULL);
            atomic_store(&tmr_word, 0);
        }
        for (int i = 0; mode == 'w' && i < 4; i++) {
            atomic_store(&help_word[i & 1], 1);
            fwake(&help_word[i & 1]);
        }
        spin_ns(tmr_run_us * 1000LL);
        if (mode == 'b') {
            spin_ns(30000);
            fwake(&token);
        }
    }
    return NULL;
}

static long util_of(int tid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/self/task/%d/sched", tid);
    FILE *f = fopen(path, "r");
    long u = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "se.avg.util_avg", 15) == 0) u = atol(strchr(line, ':') + 1);
    fclose(f);
    return u;
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: timer_pull SECONDS HOLD_US OUTSIDE_US EVERY TMR_RUN_US f|t|e|w|b\n");
        return 2;
    }
    double secs = atof(argv[1]);
    hold_us = atol(argv[2]);
    outside_us = atol(argv[3]);
    every = atoi(argv[4]);
    tmr_run_us = atol(argv[5]);
    mode = argv[6][0];
    if (every < 1 || !strchr("ftewb", mode)) {
        fprintf(stderr, "timer_pull: EVERY >= 1, MODE one of f t e w b\n");
        return 2;
    }
    efd = eventfd(0, 0);
    ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN };
    epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
    pthread_t a, b, t, h[2];
    pthread_create(&t, NULL, tmr_thread, NULL);
    for (int i = 0; i < 2; i++) pthread_create(&h[i], NULL, helper, &help_word[i]);
    pthread_create(&a, NULL, gvl_thread, (void *)(intptr_t)0);
    pthread_create(&b, NULL, gvl_thread, (void *)(intptr_t)1);
    long sum[3] = { 0, 0, 0 };
    int n = 0;
    for (double el = 0; el < secs; el += 0.1) {
        usleep(100000);
        if (el < 0.3) continue;
        for (int i = 0; i < 3; i++) sum[i] += util_of(atomic_load(&tids[i]));
        n++;
    }
    atomic_store(&stop, 1);
    fwake(&token);
    fwake(&token);
    wake_tmr();
    for (int i = 0; i < 2; i++) {
        atomic_store(&help_word[i], 1);
        fwake(&help_word[i]);
    }
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(t, NULL);
    for (int i = 0; i < 2; i++) pthread_join(h[i], NULL);
    if (n) printf("util_avg (of 1024): ga %ld gb %ld tmr %ld\n", sum[0] / n, sum[1] / n, sum[2] / n);
    return 0;
}
