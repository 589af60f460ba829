/* release_signal.c - what the 3.1 GVL's release costs its releaser on two
 * CPUs: gvl_release_common's pthread_cond_signal of the waitq's head, made
 * holding gvl->lock, when that waiter (on the other CPU) wakes, finds the
 * GVL taken again and waits at once (docs/validate.md, "The speed drift":
 * the executor's release sections averaged 770-870 ns on two CPUs, 29 ns on
 * one, where the model charges futex_wake_none, or futex_wake + wake_ipi).
 *
 *   cc -O2 -pthread -o release_signal scripts/release_signal.c
 *   ./release_signal [ROUNDS]
 *
 * Thread W (the second CPU) holds the mutex except inside
 * pthread_cond_wait: woken, it clears the flag and waits again at once.
 * Thread R (the first CPU) spins `gap` ns (a stat's time, or more), then
 * locks, sets the flag, signals and unlocks, timing the signal (t1 - t0)
 * and the whole section from its lock call (the lock may wait for W's
 * re-lock).  For each gap, taken in turn round by round: the signal's and
 * the section's median and quartiles, and the share of sections longer
 * than 300 ns (a FUTEX_WAIT's way in: a contender then sleeps); "none" is
 * the same section with no waiter. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "probe.h"

#define NGAPS 5
static const long long gaps[NGAPS] = { 1000, 3000, 10000, 30000, -1 };  /* -1: no waiter */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int flag;
static atomic_int stop, waiting;

static void *waiter(void *arg)
{
    (void)arg;
    allow(1, -1);
    pthread_mutex_lock(&lock);
    atomic_store(&waiting, 1);
    while (!atomic_load(&stop)) {
        while (!flag && !atomic_load(&stop)) pthread_cond_wait(&cond, &lock);
        flag = 0;  /* found the GVL taken: wait again */
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void summary(const char *what, long long *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_ll);
    int over = 0;
    for (int i = 0; i < n; i++) over += v[i] > 300;
    printf("  %-8s q1 %6lld  median %6lld  q3 %6lld  p90 %6lld ns   over 300 ns %5.1f%%\n", what, v[n / 4],
           v[n / 2], v[3 * n / 4], v[9 * n / 10], 100.0 * over / n);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 2000;
    if (rounds < 10) rounds = 10;
    long long *sig = malloc((size_t)rounds * NGAPS * sizeof *sig);
    long long *sec = malloc((size_t)rounds * NGAPS * sizeof *sec);
    if (!sig || !sec) return 1;
    allow(0, -1);
    for (int g = 0; g < NGAPS; g++) {
        pthread_t w;
        atomic_store(&stop, 0);
        atomic_store(&waiting, 0);
        flag = 0;
        if (gaps[g] >= 0) {
            pthread_create(&w, NULL, waiter, NULL);
            while (!atomic_load(&waiting)) {}
        }
        for (int r = 0; r < rounds; r++) {
            spin_ns(gaps[g] >= 0 ? gaps[g] : 3000);
            long long t = now_ns();
            pthread_mutex_lock(&lock);
            long long t0 = now_ns();
            flag = 1;
            pthread_cond_signal(&cond);
            long long t1 = now_ns();
            pthread_mutex_unlock(&lock);
            sig[g * rounds + r] = t1 - t0;
            sec[g * rounds + r] = t1 - t;
        }
        if (gaps[g] >= 0) {
            pthread_mutex_lock(&lock);
            atomic_store(&stop, 1);
            pthread_cond_signal(&cond);
            pthread_mutex_unlock(&lock);
            pthread_join(w, NULL);
        }
        if (gaps[g] >= 0) printf("gap %lld ns, a waiter on the other CPU that waits again at once:\n", gaps[g]);
        else printf("no waiter:\n");
        summary("signal", sig + g * rounds, rounds);
        summary("section", sec + g * rounds, rounds);
    }
    free(sig);
    free(sec);
    return 0;
}
