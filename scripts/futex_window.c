/* futex_window.c - how long is a FUTEX_WAIT's way in?  From the call until
 * the kernel compares the futex word (after which a change of the word no
 * longer stops the sleep), a wake that changes the word makes the wait
 * return at once (EAGAIN) instead of sleeping.  `gvlsim calibrate` now
 * measures that window the same way (machine.futex_wait_window,
 * exec/calib_race.c), with an untimed wait; this probe's wait has a 2 ms
 * timeout (a lost wake cannot hang it), which arms an hrtimer on the way
 * in: 100-150 ns more window on the AMD EPYC guest of 2026-12-04
 * (docs/validate.md, "The 2-CPU ping-pong of the 3.1 GVL", "The race on
 * the GVL's native lock").
 *
 *   cc -O2 -pthread -o futex_window scripts/futex_window.c
 *   ./futex_window [ROUNDS]
 *
 * Thread A (CPU 0) and thread B (CPU 1) agree on a start time 20 us ahead
 * and spin to it; A then calls FUTEX_WAIT(word, 1), B spins d ns more,
 * stores 0 to the word and calls FUTEX_WAKE.  Prints, for each d (taken
 * in turn, round by round), the share of waits that returned EAGAIN: near
 * 100% while B's store comes before A's check, near 0 after.  The store
 * reaches A's CPU one cache-line transfer after B makes it, so the d where
 * the share falls is the window plus that transfer less A's start-up. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe.h"

static const long long delays[] = { 0, 200, 400, 600, 700, 800, 850, 900, 950, 1000, 1050, 1100, 1200, 1500, 2000 };
#define NDELAYS (int)(sizeof delays / sizeof delays[0])

static _Atomic int word;
static _Atomic long long b_at;  /* when B stores */
static _Atomic int round_no, b_done;

static void *waker(void *arg)
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
        atomic_store(&word, 0);
        syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        atomic_store(&b_done, r);
    }
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 300;
    if (rounds < 1) {
        fprintf(stderr, "usage: futex_window [ROUNDS]\n");
        return 2;
    }
    pthread_t b;
    if (pthread_create(&b, NULL, waker, NULL) != 0) {
        perror("pthread_create");
        return 1;
    }
    allow(0, -1);
    int eagain[NDELAYS] = { 0 }, r = 0;
    for (int k = 0; k < rounds; k++) {
        for (int i = 0; i < NDELAYS; i++) {
            atomic_store(&word, 1);
            long long t0 = now_ns() + 20000;
            atomic_store(&b_at, t0 + delays[i]);
            atomic_store(&round_no, ++r);
            while (now_ns() < t0) {}
            struct timespec limit = { 0, 2000000 };  /* a lost wake ends after 2 ms */
            long rc = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, &limit, NULL, 0);
            if (rc == -1 && errno == EAGAIN) eagain[i]++;
            while (atomic_load(&b_done) != r) {}
        }
    }
    atomic_store(&round_no, -1);
    pthread_join(b, NULL);
    printf("store after   EAGAIN (of %d)\n", rounds);
    for (int i = 0; i < NDELAYS; i++) printf("%6lld ns    %5.1f%%\n", delays[i], 100.0 * eagain[i] / rounds);
    return 0;
}
