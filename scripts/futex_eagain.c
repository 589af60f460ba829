/* futex_eagain.c - a FUTEX_WAIT that returns at once: the system call's
 * whole way in and out when the futex word already differs (EAGAIN), set
 * beside a bare system call (getpid) and a FUTEX_WAKE of nobody.  `gvlsim
 * calibrate` measures the way in alone (futex_wait_window_ns: how long
 * after the call a store still stops the sleep); what a FUTEX_WAIT that
 * returns at once costs beyond that is its way out, which a signalled
 * waiter pays before it re-locks its mutex (docs/validate.md, "The lock's
 * way in").
 *
 *   cc -O2 -pthread -o futex_eagain scripts/futex_eagain.c
 *   ./futex_eagain [ROUNDS]
 *
 * Pinned to CPU 0, as the other probes; per round, 100K calls of
 * each, timed together; prints ns per call of each, one line a round. */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe.h"

#define CALLS 100000

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1) rounds = 1;
    allow(0, -1);
    int word = 0;
    for (int r = 0; r < rounds; r++) {
        long long t0 = now_ns();
        for (int i = 0; i < CALLS; i++) syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
        long long t1 = now_ns();
        for (int i = 0; i < CALLS; i++) syscall(SYS_getpid);
        long long t2 = now_ns();
        for (int i = 0; i < CALLS; i++) syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        long long t3 = now_ns();
        printf("FUTEX_WAIT, EAGAIN %.1f ns   getpid %.1f ns   FUTEX_WAKE of nobody %.1f ns\n",
               (double)(t1 - t0) / CALLS, (double)(t2 - t1) / CALLS, (double)(t3 - t2) / CALLS);
    }
    return 0;
}
