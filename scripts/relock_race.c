/* relock_race.c - does a signalled condvar waiter sleep on the mutex its
 * signaller still holds?  The race behind the 3.1 GVL's sleeps on
 * gvl->lock (docs/validate.md, "The race on the GVL's native lock"), on
 * glibc's own pthread_cond_wait and mutex.
 *
 *   cc -O2 -pthread -o relock_race scripts/relock_race.c
 *   ./relock_race [ROUNDS]
 *
 * Thread A (CPU 0) holds the mutex and calls pthread_cond_wait at an
 * agreed start; thread B (CPU 1), d ns after the start, locks the mutex,
 * signals and unlocks, timing the signal and reading the mutex word before
 * its unlock.  B's signal longer than 2 us woke A from a sleep on the
 * condvar (a FUTEX_WAKE of a sleeper on an idle vCPU); a word of 2 at the
 * unlock means A was re-locking meanwhile, and B's unlock longer than
 * 2 us woke A from a sleep on the mutex.  Prints, for each d, the share of
 * rounds in which A slept on the condvar, was re-locking at B's unlock,
 * and slept on the mutex - the last also as a share of the rounds in which
 * it did not sleep on the condvar (the signal met it on its way in).  A
 * 2 us threshold tells a sleeper's wake (5-10 us there) from a wake of
 * nobody (0.2-0.5 us) on the AMD EPYC guest of 2026-12-04; a vCPU woken
 * within the host's halt polling may wake faster, and the shares are then
 * lower bounds. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "probe.h"

static const long long delays[] = { 0, 200, 400, 600, 800, 1000, 1500, 3000 };
#define NDELAYS (int)(sizeof delays / sizeof delays[0])

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int signalled;                       /* under m */
static _Atomic int round_no, b_done, b_word;
static _Atomic long long b_at, b_signal_ns, b_unlock_ns;

static void *signaller(void *arg)
{
    (void)arg;
    allow(1, -1);
    for (int seen = 0;;) {
        int r;
        while ((r = atomic_load(&round_no)) == seen) {}
        if (r < 0) return NULL;
        seen = r;
        long long at = atomic_load(&b_at);
        while (now_ns() < at) {}
        pthread_mutex_lock(&m);
        signalled = 1;
        long long t0 = now_ns();
        pthread_cond_signal(&cv);
        long long t1 = now_ns();
        int word = m.__data.__lock;  /* glibc: 2 once a contender has swapped it in */
        pthread_mutex_unlock(&m);
        long long t2 = now_ns();
        atomic_store(&b_signal_ns, t1 - t0);
        atomic_store(&b_unlock_ns, t2 - t1);
        atomic_store(&b_word, word);
        atomic_store(&b_done, r);
    }
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 300;
    if (rounds < 1) {
        fprintf(stderr, "usage: relock_race [ROUNDS]\n");
        return 2;
    }
    pthread_t b;
    if (pthread_create(&b, NULL, signaller, NULL) != 0) {
        perror("pthread_create");
        return 1;
    }
    allow(0, -1);
    int cond_slept[NDELAYS] = { 0 }, relocking[NDELAYS] = { 0 }, lock_slept[NDELAYS] = { 0 };
    int lock_slept_met[NDELAYS] = { 0 }, r = 0;
    for (int k = 0; k < rounds; k++)
        for (int i = 0; i < NDELAYS; i++) {
            pthread_mutex_lock(&m);
            signalled = 0;
            long long t0 = now_ns() + 20000;
            atomic_store(&b_at, t0 + delays[i]);
            atomic_store(&round_no, ++r);
            while (now_ns() < t0) {}
            while (!signalled) pthread_cond_wait(&cv, &m);
            pthread_mutex_unlock(&m);
            while (atomic_load(&b_done) != r) {}
            int cs = atomic_load(&b_signal_ns) > 2000;
            int re = atomic_load(&b_word) == 2;
            int ls = re && atomic_load(&b_unlock_ns) > 2000;
            cond_slept[i] += cs;
            relocking[i] += re;
            lock_slept[i] += ls;
            lock_slept_met[i] += ls && !cs;
        }
    atomic_store(&round_no, -1);
    pthread_join(b, NULL);
    printf("signal after  slept on cond  re-locking  slept on mutex  (of the rounds the signal met it on its way in)\n");
    for (int i = 0; i < NDELAYS; i++) {
        int met = rounds - cond_slept[i];
        printf("%6lld ns    %6.1f%%      %6.1f%%     %6.1f%%         (%5.1f%% of %d)\n", delays[i],
               100.0 * cond_slept[i] / rounds, 100.0 * relocking[i] / rounds, 100.0 * lock_slept[i] / rounds,
               met ? 100.0 * lock_slept_met[i] / met : 0.0, met);
    }
    return 0;
}
