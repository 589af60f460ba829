/* llc_util.c - does a wakee whose previous CPU is its busy waker's still
 * look for the idle CPU when the other CPU was busy before?  Linux 6.0+
 * scans the last-level cache for an idle CPU only while the cache's CPUs
 * are not too busy on average (select_idle_cpu, SIS_UTIL: no scan at all
 * once their mean utilization passes about 60% on two CPUs), and leaves
 * the wakee behind its waker otherwise (sim/machine.c, llc_idle_scan;
 * docs/validate.md, "The cache too busy to look").
 *
 *   cc -O2 -pthread -o llc_util scripts/llc_util.c
 *   ./llc_util [ROUNDS [WAKER_BUSY]]
 *
 * The waker runs on CPU 0, a background thread on CPU 1, the wakee may run
 * on both.  Per sample the wakee runs on CPU 0 (pinned there, then allowed
 * both) and sleeps on a futex; for 100 ms the waker keeps CPU 0 busy the
 * share WAKER_BUSY (default 1) of each millisecond and the background
 * thread keeps CPU 1 busy a share b of each, napping the rest; then the
 * background thread stops (CPU 1 idles), the waker spins 100 us, wakes
 * the wakee, spins 20 us more and naps until the wakee reports the CPU it
 * ran on; 2 ms of rest follow.  Prints, for each b (taken in turn, round
 * by round), how many wakes ran on the waker's CPU.  Linux's load tracking
 * (PELT) halves a CPU's utilization every 32 ms: 100 ms brings each CPU's
 * near its share. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "probe.h"

static const double other[] = { 0, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 1.0 };
#define NOTHER (int)(sizeof other / sizeof other[0])
#define WINDOW_MS 100

static struct place_ctl ctl;
static _Atomic int bg_cmd, bg_done;
static _Atomic long long bg_busy;

/* busy `busy` ns of each millisecond for WINDOW_MS */
static void load(long long busy)
{
    for (int ms = 0; ms < WINDOW_MS; ms++) {
        if (busy > 0) spin_ns(busy);
        if (busy < 1000000) nap_ns(1000000 - busy);
    }
}

static void *background(void *arg)
{
    (void)arg;
    allow(1, -1);
    for (int n = 1;; n++) {
        int c;
        while ((c = atomic_load(&bg_cmd)) != n) {
            if (c < 0) return NULL;
            nap_ns(20000);
        }
        load(atomic_load(&bg_busy));
        atomic_store(&bg_done, n);
    }
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    double waker_busy = argc > 2 ? atof(argv[2]) : 1.0;
    if (rounds < 1 || waker_busy < 0 || waker_busy > 1) {
        fprintf(stderr, "usage: llc_util [ROUNDS [WAKER_BUSY (0..1)]]\n");
        return 2;
    }
    allow(0, -1);
    pthread_t t, b;
    if (pthread_create(&t, NULL, place_wakee, &ctl) != 0 || pthread_create(&b, NULL, background, NULL) != 0) {
        perror("pthread_create");
        return 1;
    }
    int kept[NOTHER] = { 0 }, n = 0;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < NOTHER; i++) {
            place_arm(&ctl, ++n);
            atomic_store(&bg_busy, (long long)(other[i] * 1e6));
            atomic_store(&bg_cmd, n);
            load((long long)(waker_busy * 1e6));
            while (atomic_load(&bg_done) != n) spin_ns(1000);
            spin_ns(100000);
            kept[i] += place_wake(&ctl, n) == 0;
            nap_ns(2000000);
        }
    atomic_store(&bg_cmd, -1);
    pthread_join(b, NULL);
    place_stop(&ctl, t);
    printf("waker's CPU busy %.0f%%; the other CPU busy over the %d ms before   wakes kept on the waker's CPU (of %d)\n",
           waker_busy * 100, WINDOW_MS, rounds);
    for (int i = 0; i < NOTHER; i++) printf("%5.0f%%   %d\n", other[i] * 100, kept[i]);
    return 0;
}
