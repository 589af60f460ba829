/* pack_util.c - does the kernel keep a wakee on its waker's busy CPU
 * whatever that CPU's recent load?  `gvlsim calibrate`'s wake_pack
 * benchmark (exec/calib_pack.c) reads a share of wakes; on the AMD EPYC
 * guest of 2026-12-04 it read 1 while the eager ping-pong's wakes left
 * the waker's CPU (docs/validate.md, "Where the threads ran").  This
 * varies the waker CPU's load over the time before the wake.
 *
 *   cc -O2 -pthread -o pack_util scripts/pack_util.c
 *   ./pack_util [ROUNDS [WINDOW_MS]]
 *
 * The waker runs on CPU 0; the wakee may run on CPUs 0 and 1.  Per sample
 * the wakee runs on CPU 0 (pinned there, then allowed both) and sleeps on
 * a futex; the waker then loads its CPU for WINDOW_MS (default 100) in
 * 1 ms periods, busy a share d of each and napping the rest, spins 100 us,
 * wakes the wakee, spins 20 us more and naps until the wakee reports the
 * CPU it ran on.  2 ms of rest follow each sample.  Prints, for each d
 * (taken in turn, round by round), how many wakes ran on the waker's CPU.
 * Linux's load tracking (PELT) halves a CPU's utilization every 32 ms:
 * a window of 100 ms brings it near d. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "probe.h"

static const double duty[] = { 0, 0.25, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 1.0 };
#define NDUTY (int)(sizeof duty / sizeof duty[0])

static struct place_ctl ctl;

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 10, window_ms = argc > 2 ? atoi(argv[2]) : 100;
    if (rounds < 1 || window_ms < 1) {
        fprintf(stderr, "usage: pack_util [ROUNDS [WINDOW_MS]]\n");
        return 2;
    }
    allow(0, -1);
    pthread_t t;
    if (pthread_create(&t, NULL, place_wakee, &ctl) != 0) {
        perror("pthread_create");
        return 1;
    }
    int packed[NDUTY] = { 0 }, n = 0;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < NDUTY; i++) {
            place_arm(&ctl, ++n);
            long long busy = (long long)(duty[i] * 1e6);
            for (int ms = 0; ms < window_ms; ms++) {
                if (busy > 0) spin_ns(busy);
                if (busy < 1000000) nap_ns(1000000 - busy);
            }
            spin_ns(100000);
            packed[i] += place_wake(&ctl, n) == 0;
            nap_ns(2000000);
        }
    place_stop(&ctl, t);
    printf("waker's CPU busy over the %d ms before   wakes kept on it (of %d)\n", window_ms, rounds);
    for (int i = 0; i < NDUTY; i++) printf("%5.0f%%                                   %d\n", duty[i] * 100, packed[i]);
    return 0;
}
