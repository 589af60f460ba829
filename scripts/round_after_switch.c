/* round_after_switch.c - does a thread's whole round of work run slower
 * right after it was switched in on its CPU?  On the one-CPU `eager`
 * ping-pong the executor's chain rounds (a thread switched in, its
 * File.write's calls and compute, a hand-off) take 20-30% longer than the
 * model charges, while the same calls inside a stretch (no switch) cost
 * what it charges (docs/validate.md, "The one-CPU eager ping-pong's
 * stretches"); call_after_sleep.c found one call after a sleep only
 * 0.33 us slower.  This times a round of several calls.
 *
 *   cc -O2 -pthread -o round_after_switch scripts/round_after_switch.c
 *   ./round_after_switch [ROUNDS [CPU]]
 *
 * Both threads are pinned to one CPU (CPU, default 0), or in the cross mode
 * to CPU and the next.  A round is open("/dev/null") + write(1 byte) +
 * close, then a user loop over a 8 KiB buffer of the thread's own and one
 * over a 8 KiB buffer both threads' rounds work on (a fixed number of
 * iterations each, not a timed spin: its time is what a cold cache
 * costs).  Modes:
 *   alone   thread A makes its rounds back to back, B asleep all along;
 *   switch  A and B take turns through a futex token on the one CPU: each
 *           makes a round, passes the token (FUTEX_WAKE) and sleeps until
 *           it is back (FUTEX_WAIT), as the chain's threads do; the other
 *           thread's round touches TOUCH bytes of its own between (0,
 *           64 KiB, 1 MiB: what the other thread's work evicts);
 *   cross   the same turns with A and B on two CPUs: each CPU idles while
 *           the other's thread makes its round (the 2-CPU loops' case).
 * Prints A's round, its calls, its own loop and the shared loop: median
 * (10th-90th percentile) ns; switch minus alone is what being switched in
 * costs a round, cross minus switch what a round costs more after an idle
 * CPU (on the Intel Xeon guest of 2026-12-06: the calls 0.3-0.9 us, the
 * loops within noise - where Ruby's File.write took 3 us more:
 * docs/validate.md, "Work after an idle CPU runs cold"). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe.h"

enum { OWN = 8192, SHARED = 8192, LOOP = 2000 };

struct run {
    int rounds, cpu, alone, cross;
    size_t touch;               /* bytes the other thread touches a round */
    _Atomic int turn;
    unsigned char *shared;      /* SHARED bytes both threads' rounds work on */
    long long *round, *calls, *loop, *sloop;  /* thread 0's, per round */
};

struct arg {
    struct run *r;
    int me;
};

static unsigned char *mem(size_t n)
{
    unsigned char *p = malloc(n ? n : 1);
    if (p) memset(p, 1, n ? n : 1);
    return p;
}

/* The round's calls: File.write's open, write and close. */
static void calls(void)
{
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
        (void)!write(fd, "x", 1);
        close(fd);
    }
}

/* The round's user work: LOOP reads and writes over the thread's own
 * buffer, a stride a line apart (an interpreter's loop touches its frame,
 * its objects, its code). */
static unsigned work(unsigned char *own, size_t n, unsigned seed)
{
    unsigned x = seed;
    for (int i = 0; i < LOOP; i++) {
        size_t at = ((size_t)i * 64) % n;
        x = x * 31 + own[at];
        own[at] = (unsigned char)x;
    }
    return x;
}

static void *player(void *p)
{
    struct arg *a = p;
    struct run *r = a->r;
    allow(r->cross ? r->cpu + a->me : r->cpu, -1);
    unsigned char *own = mem(OWN), *other = mem(r->touch);
    unsigned sink = 0;
    if (!own || !other) return NULL;
    if (a->me == 1 && r->alone) return NULL;
    for (int i = 0; i < r->rounds; i++) {
        if (!r->alone)
            while (atomic_load(&r->turn) != a->me)
                syscall(SYS_futex, &r->turn, FUTEX_WAIT_PRIVATE, 1 - a->me, NULL, NULL, 0);
        long long t0 = now_ns();
        calls();
        long long t1 = now_ns();
        sink += work(own, OWN, (unsigned)i);
        long long t2 = now_ns();
        sink += work(r->shared, SHARED, (unsigned)i);
        long long t3 = now_ns();
        if (a->me == 1)
            for (size_t at = 0; at < r->touch; at += 64) other[at] = (unsigned char)(other[at] + 1);
        if (a->me == 0) {
            r->round[i] = t3 - t0;
            r->calls[i] = t1 - t0;
            r->loop[i] = t2 - t1;
            r->sloop[i] = t3 - t2;
        }
        if (!r->alone) {
            atomic_store(&r->turn, 1 - a->me);
            syscall(SYS_futex, &r->turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        }
    }
    free(own);
    free(other);
    return (void *)(size_t)(sink & 1);
}

static void show(const char *what, long long *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_ll);
    printf("  %s %6lld (%lld-%lld)", what, v[n / 2], v[n / 10], v[n * 9 / 10]);
}

static int run_one(struct run *r)
{
    struct arg a[2] = { { r, 0 }, { r, 1 } };
    atomic_store(&r->turn, 0);
    if (run_two(player, &a[0], &a[1]) != 0) return -1;
    if (r->alone) printf("alone                ");
    else if (r->cross) printf("cross, CPUs %d and %d  ", r->cpu, r->cpu + 1);
    else printf("switch, other %4zu KiB", r->touch / 1024);
    show("round", r->round, r->rounds);
    show("calls", r->calls, r->rounds);
    show("loop", r->loop, r->rounds);
    show("shared loop", r->sloop, r->rounds);
    printf("\n");
    return 0;
}

int main(int argc, char **argv)
{
    struct run r = { .rounds = argc > 1 ? atoi(argv[1]) : 20000, .cpu = argc > 2 ? atoi(argv[2]) : 0 };
    if (r.rounds < 10) {
        fprintf(stderr, "usage: round_after_switch [ROUNDS >= 10 [CPU]]\n");
        return 2;
    }
    r.round = malloc((size_t)r.rounds * sizeof *r.round);
    r.calls = malloc((size_t)r.rounds * sizeof *r.calls);
    r.loop = malloc((size_t)r.rounds * sizeof *r.loop);
    r.sloop = malloc((size_t)r.rounds * sizeof *r.sloop);
    r.shared = mem(SHARED);
    if (!r.round || !r.calls || !r.loop || !r.sloop || !r.shared) {
        perror("round_after_switch");
        return 1;
    }
    printf("thread A's round on CPU %d: median (10th-90th percentile) ns; %d rounds\n", r.cpu, r.rounds);
    static const size_t touch[] = { 0, 64 << 10, 1 << 20, 0 };
    /* alone, switched and crossed interleaved, twice */
    for (int rep = 0; rep < 2; rep++)
        for (int m = 0; m < 5; m++) {
            r.alone = m == 0;
            r.cross = m == 4;
            r.touch = m == 0 ? 0 : touch[m - 1];
            if (run_one(&r) != 0) {
                perror("round_after_switch: pthread_create");
                return 1;
            }
        }
    free(r.round);
    free(r.calls);
    free(r.loop);
    free(r.sloop);
    free(r.shared);
    return 0;
}
