/* call_after_sleep.c - does a system call run slower right after its
 * thread slept?  In the executor's 2-thread mtime loop of the 3.1 GVL a
 * stat(2) took 2.1-2.3 us (median) against 1.7 us in a 1-thread run and
 * calibrate's 1.61 us (docs/validate.md, "The 3.1 loop's regime"); this
 * separates what a sleep does from what the other CPU does.
 *
 *   cc -O2 -pthread -o call_after_sleep scripts/call_after_sleep.c
 *   ./call_after_sleep [ROUNDS [FILE]]
 *
 * Two threads, one per CPU, hand a token back and forth; the holder makes
 * the same call four times in a row, each timed, then passes the token.
 * The waiter either spins on the token (no sleep) or sleeps in FUTEX_WAIT
 * until the holder's FUTEX_WAKE (a sleep each turn, like a GVL waiter's).
 * Prints, for stat(2) of FILE (default: this probe's source as a stand-in
 * for the scenario file), getppid(2) and a 300-iteration user loop, the
 * median (10th - 90th percentile) of each of the four calls: the first
 * after a futex sleep against the later ones is what the sleep costs. */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe.h"

enum { CALLS = 4 };
enum what { STAT, GETPPID, LOOP, NWHAT };
static const char *const what_name[NWHAT] = { "stat", "getppid", "user loop" };

struct run {
    enum what what;
    int sleep;            /* the waiter sleeps in FUTEX_WAIT (else spins) */
    int rounds;
    const char *file;
    _Atomic int turn;     /* the token: whose turn */
    long long *t[CALLS];  /* thread 0's timings, per call of a turn */
};

struct arg {
    struct run *r;
    int me;
};

static void call(const struct run *r)
{
    struct stat st;
    switch (r->what) {
    case STAT: (void)stat(r->file, &st); break;
    case GETPPID: (void)syscall(SYS_getppid); break;
    case LOOP:
        for (volatile int i = 0; i < 300; i++) {}
        break;
    case NWHAT: break;
    }
}

static void *player(void *p)
{
    struct arg *a = p;
    struct run *r = a->r;
    allow(a->me, -1);
    for (int i = 0; i < r->rounds; i++) {
        while (atomic_load(&r->turn) != a->me)
            if (r->sleep) syscall(SYS_futex, &r->turn, FUTEX_WAIT_PRIVATE, 1 - a->me, NULL, NULL, 0);
        for (int k = 0; k < CALLS; k++) {
            long long t0 = now_ns();
            call(r);
            if (a->me == 0) r->t[k][i] = now_ns() - t0;
        }
        atomic_store(&r->turn, 1 - a->me);
        if (r->sleep) syscall(SYS_futex, &r->turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
    return NULL;
}

static int run_one(struct run *r)
{
    struct arg a[2] = { { r, 0 }, { r, 1 } };
    atomic_store(&r->turn, 0);
    if (run_two(player, &a[0], &a[1]) != 0) return -1;
    printf("%-9s %-5s", what_name[r->what], r->sleep ? "futex" : "spin");
    for (int k = 0; k < CALLS; k++) {
        long long *v = r->t[k];
        qsort(v, (size_t)r->rounds, sizeof *v, cmp_ll);
        printf("  #%d %5lld (%lld-%lld)", k + 1, v[r->rounds / 2], v[r->rounds / 10], v[r->rounds * 9 / 10]);
    }
    printf("\n");
    return 0;
}

int main(int argc, char **argv)
{
    struct run r = { .rounds = argc > 1 ? atoi(argv[1]) : 50000, .file = argc > 2 ? argv[2] : __FILE__ };
    if (r.rounds < 10) {
        fprintf(stderr, "usage: call_after_sleep [ROUNDS >= 10 [FILE]]\n");
        return 2;
    }
    for (int k = 0; k < CALLS; k++) {
        r.t[k] = malloc((size_t)r.rounds * sizeof *r.t[k]);
        if (!r.t[k]) {
            perror("call_after_sleep");
            return 1;
        }
    }
    printf("median (10th-90th percentile) ns of each of the four calls of a turn; %d turns\n", r.rounds);
    for (int w = 0; w < NWHAT; w++)
        for (int s = 0; s < 2; s++) {
            r.what = (enum what)w;
            r.sleep = s;
            if (run_one(&r) != 0) {
                perror("call_after_sleep: pthread_create");
                return 1;
            }
        }
    for (int k = 0; k < CALLS; k++) free(r.t[k]);
    return 0;
}
