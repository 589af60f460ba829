/* wake_scope.c - whether the slow "speed levels" that `gvlsim calibrate`
 * finds in its stat(2) windows also slow a FUTEX_WAKE of a sleeper on the
 * other, idle vCPU: the waker's time in the call (futex_wake + wake_ipi)
 * and the wake's latency (wake_idle_core).  docs/validate.md, "What the
 * levels slow": the levels slow work beyond the core's L2 (a `stat`, a
 * chase of 8 MB), not work in registers; the model's levels scale every
 * burst, the waker's wake cost included.
 *
 *   cc -O2 -pthread -o wake_scope scripts/wake_scope.c
 *   ./wake_scope PATH [WINDOWS]
 *
 * One round, the mtime loop's hand-off as the executor makes it: a thread
 * on CPU 1 sleeps in FUTEX_WAIT (its CPU idle 15 us), the waker on CPU 0
 * wakes it (timed: the call), then calls stat(PATH) (timed); the sleeper
 * notes when it runs (the latency).  A window is WROUNDS rounds (about
 * 1 ms); WINDOWS of them (2000).  A window is "slow" when its median
 * stat is over 1.15x the windows' 10th percentile, as speed_scope.c
 * counts.  Prints the medians of the windows' medians of the three
 * timings in the slow and in the other windows, and their ratio: a level
 * that slows the wake as it slows the stat gives the same ratio for the
 * three. */
#include "probe.h"

#include <linux/futex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { WROUNDS = 40, IDLE_NS = 15000 };

static atomic_int word, asleep, quit;
static atomic_llong ran_at;

static void *sleeper(void *arg)
{
    (void)arg;
    allow(1, -1);
    while (!atomic_load(&quit)) {
        atomic_store(&asleep, 1);
        while (atomic_load(&word) == 0 && !atomic_load(&quit))
            syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
        atomic_store(&ran_at, now_ns());
        atomic_store(&word, 0);
        /* the waker reads ran_at, then sets asleep to 0 again */
        while (atomic_load(&asleep) == 1 && !atomic_load(&quit)) {}
    }
    return NULL;
}

static long long median(long long *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_ll);
    return v[n / 2];
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: wake_scope PATH [WINDOWS]\n");
        return 2;
    }
    const char *path = argv[1];
    int nwin = argc > 2 ? atoi(argv[2]) : 2000;
    if (nwin < 20) {
        fprintf(stderr, "wake_scope: at least 20 windows\n");
        return 2;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 2;
    }
    /* per window: the medians of the waker's call, the latency, the stat */
    long long *wk = malloc((size_t)nwin * sizeof *wk), *lat = malloc((size_t)nwin * sizeof *lat),
              *sc = malloc((size_t)nwin * sizeof *sc);
    if (!wk || !lat || !sc) return 1;
    allow(0, -1);
    pthread_t t;
    if (pthread_create(&t, NULL, sleeper, NULL) != 0) return 1;
    long long rw[WROUNDS], rl[WROUNDS], rs[WROUNDS];
    for (int w = -2; w < nwin; w++) {  /* two windows of warm-up */
        for (int r = 0; r < WROUNDS; r++) {
            while (atomic_load(&asleep) != 1) {}
            spin_ns(IDLE_NS);
            long long t0 = now_ns();
            atomic_store(&word, 1);
            syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
            long long t1 = now_ns();
            stat(path, &st);
            long long t2 = now_ns();
            while (atomic_load(&word) != 0) {}
            rw[r] = t1 - t0;
            rs[r] = t2 - t1;
            rl[r] = atomic_load(&ran_at) - t0;
            atomic_store(&asleep, 0);
        }
        if (w < 0) continue;
        wk[w] = median(rw, WROUNDS);
        lat[w] = median(rl, WROUNDS);
        sc[w] = median(rs, WROUNDS);
    }
    atomic_store(&quit, 1);
    atomic_store(&word, 1);
    syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    pthread_join(t, NULL);

    long long *tmp = malloc((size_t)nwin * sizeof *tmp);
    if (!tmp) return 1;
    memcpy(tmp, sc, (size_t)nwin * sizeof *tmp);
    long long p10 = (qsort(tmp, (size_t)nwin, sizeof *tmp, cmp_ll), tmp[nwin / 10]);
    const char *name[3] = { "waker's FUTEX_WAKE", "wake latency", "stat" };
    long long *col[3] = { wk, lat, sc };
    int nslow = 0;
    for (int w = 0; w < nwin; w++) nslow += (double)sc[w] > 1.15 * (double)p10;
    printf("%d windows of %d rounds; stat's p10 %.2f us; slow windows (stat > 1.15x p10): %d (%.1f%%)\n", nwin,
           WROUNDS, (double)p10 / 1e3, nslow, 100.0 * nslow / nwin);
    for (int k = 0; k < 3; k++) {
        long long *s = malloc((size_t)nwin * sizeof *s), *f = malloc((size_t)nwin * sizeof *f);
        if (!s || !f) return 1;
        int ns = 0, nf = 0;
        for (int w = 0; w < nwin; w++) {
            if ((double)sc[w] > 1.15 * (double)p10) s[ns++] = col[k][w];
            else f[nf++] = col[k][w];
        }
        double ms = ns ? (double)median(s, ns) / 1e3 : 0, mf = nf ? (double)median(f, nf) / 1e3 : 0;
        printf("  %-20s fast windows %6.2f us, slow windows %6.2f us, slow / fast %.2f\n", name[k], mf, ms,
               ns && nf ? ms / mf : 0.0);
        free(s);
        free(f);
    }
    return 0;
}
