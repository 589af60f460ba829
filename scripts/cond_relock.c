/* cond_relock.c - what a glibc condvar adds to a one-CPU hand-off: two
 * threads on one CPU hand a turn back and forth, either with raw futexes
 * (FUTEX_WAIT on the turn word, FUTEX_WAKE after flipping it) or each
 * waiting on its own condvar under its own mutex (pthread_cond_wait, the
 * mutex otherwise unused) and signalled without that mutex
 * (pthread_cond_signal), as CRuby's threads wait on their
 * nt->cond.readyq.  glibc's pthread_cond_wait takes the mutex back with
 * the word at 2 (__pthread_mutex_cond_lock: lll_cond_lock, nptl), not
 * knowing whether others wait on it, so the next pthread_mutex_unlock
 * makes a FUTEX_WAKE system call even when nobody waits (strace -f shows
 * `futex(mutex, FUTEX_WAKE_PRIVATE, 1) = 0` after each woken wait).
 *
 *   cc -O2 -pthread -o cond_relock scripts/cond_relock.c
 *   ./cond_relock [CYCLES [CPU]]
 *
 * Runs the two kinds three times each, interleaved, and prints for each
 * run the latency of the hand-offs that woke a sleeper - from the waker's
 * clock read right before its FUTEX_WAKE or pthread_cond_signal to the
 * woken thread's right after its wait and unlock - at the 10th, 25th and
 * 50th percentiles (the lower of the two modes: the wakes that preempted
 * their waker), and the medians' difference: the condvar's own path
 * (the signal's bookkeeping, the waiter's epilogue, the re-lock and the
 * unlock's FUTEX_WAKE of nobody). */
#include "probe.h"

#include <stdio.h>

static int cycles = 100000, cpu, use_cond;
static _Atomic int turn;
static _Atomic long long sent;
static long long *late[2];
static pthread_mutex_t mx[2] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER };
static pthread_cond_t cv[2] = { PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER };

static void *player(void *arg)
{
    int me = (int)(long)arg;
    allow(cpu, -1);
    for (int i = 0; i < cycles; i++) {
        int slept = 0;
        if (use_cond) {
            pthread_mutex_lock(&mx[me]);
            while (atomic_load(&turn) != me) {
                pthread_cond_wait(&cv[me], &mx[me]);
                slept = 1;
            }
            pthread_mutex_unlock(&mx[me]);  /* a FUTEX_WAKE after a woken wait (the word at 2) */
        } else {
            while (atomic_load(&turn) != me) {
                syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, 1 - me, NULL, NULL, 0);
                slept = 1;
            }
        }
        late[me][i] = slept ? now_ns() - atomic_load(&sent) : -1;
        atomic_store(&turn, 1 - me);
        atomic_store(&sent, now_ns());
        if (use_cond)
            pthread_cond_signal(&cv[1 - me]);  /* without the waiter's mutex */
        else
            syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
    return NULL;
}

/* One run of the kind use_cond; the woken hand-offs' median latency in ns,
 * or -1. */
static long long one_run(void)
{
    atomic_store(&turn, 0);
    atomic_store(&sent, now_ns());
    if (run_two(player, (void *)0L, (void *)1L) != 0) return -1;
    int n;
    long long *w = woken_sorted(late, cycles, &n);
    if (!w) return -1;
    long long med = -1;
    if (n > 0) {
        med = w[n / 2];
        printf("%-6s %6d woken hand-offs: p10 %lld p25 %lld p50 %lld ns\n", use_cond ? "condvar" : "futex", n, w[n / 10],
               w[n / 4], med);
    }
    free(w);
    return med;
}

int main(int argc, char **argv)
{
    if (argc > 1) cycles = atoi(argv[1]);
    if (argc > 2) cpu = atoi(argv[2]);
    if (cycles < 100) cycles = 100;
    for (int k = 0; k < 2; k++)
        if (!(late[k] = malloc((size_t)cycles * sizeof *late[k]))) return 1;
    long long med[2][3];
    for (int r = 0; r < 3; r++)
        for (use_cond = 0; use_cond < 2; use_cond++)
            if ((med[use_cond][r] = one_run()) < 0) return 1;
    printf("condvar - futex, median against median: %lld %lld %lld ns\n", med[1][0] - med[0][0], med[1][1] - med[0][1],
           med[1][2] - med[0][2]);
    return 0;
}
