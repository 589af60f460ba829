/* speed_scope.c - which work a vCPU's speed levels slow, and whether the
 * two vCPUs slow together (docs/validate.md, "What the levels slow").
 *
 *   cc -O2 -pthread -o speed_scope scripts/speed_scope.c
 *   ./speed_scope KIND PLACEMENT [WINDOWS]
 *
 * KIND: spin (an LCG step in registers, the executor's compute loop), chase
 * KB (a random pointer chase over KB kilobytes), stat PATH (stat(2) of
 * PATH, what `gvlsim calibrate` times for its speed levels).  PLACEMENT:
 * alone (windows on CPU 0 then CPU 1 in turn, the other idle, as calibrate
 * measures) or both (CPU 0 and CPU 1 at once).  A window is the work of
 * about 1 ms (timed after a warm-up), WINDOWS of them per CPU (3000).
 *
 * Prints, per CPU, the windows' 10th/50th/90th percentiles and the share
 * of "slow" windows (over 1.15x the CPU's 10th percentile) with the runs
 * they form; with `both`, the share of CPU 0's windows slow on both CPUs
 * at their midpoint against the product of the two shares (what
 * independent levels would give). */
#include "probe.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

enum kind { SPIN, CHASE, STAT };

struct cfg {
    enum kind kind;
    const char *path;
    uint32_t *ring;
    long per;      /* operations per window */
    int nwin;
};

static volatile uint64_t sink_out;

struct win {
    long long start, dur;
};

struct lane {
    const struct cfg *cfg;
    int cpu;
    struct win *w;
    uint64_t sink;
};

static void pin(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    if (pthread_setaffinity_np(pthread_self(), sizeof s, &s) != 0) {
        fprintf(stderr, "speed_scope: cannot run on CPU %d\n", cpu);
        exit(1);
    }
}

static uint64_t work(const struct cfg *c, long n, uint64_t x)
{
    struct stat st;
    switch (c->kind) {
    case SPIN:
        for (long i = 0; i < n; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            __asm__ volatile("" : "+r"(x));
        }
        break;
    case CHASE:
        for (long i = 0; i < n; i++) x = c->ring[x];
        break;
    case STAT:
        for (long i = 0; i < n; i++) x += (uint64_t)stat(c->path, &st);
        break;
    }
    return x;
}

static void one_window(struct lane *l, int i)
{
    long long t = now_ns();
    l->sink = work(l->cfg, l->cfg->per, l->sink);
    l->w[i].start = t;
    l->w[i].dur = now_ns() - t;
}

static void *run_lane(void *arg)
{
    struct lane *l = arg;
    pin(l->cpu);
    for (int i = 0; i < l->cfg->nwin; i++) one_window(l, i);
    return NULL;
}

/* CPU's 10th percentile; prints its line; marks slow[i]. */
static long long report_cpu(const struct lane *l, char *slow)
{
    int n = l->cfg->nwin;
    long long *d = malloc((size_t)n * sizeof *d);
    if (!d) exit(1);
    for (int i = 0; i < n; i++) d[i] = l->w[i].dur;
    qsort(d, (size_t)n, sizeof *d, cmp_ll);
    long long p10 = d[n / 10], p50 = d[n / 2], p90 = d[9 * n / 10];
    free(d);
    int nslow = 0, runs = 0, run = 0, longest = 0;
    for (int i = 0; i < n; i++) {
        slow[i] = (double)l->w[i].dur > 1.15 * (double)p10;
        nslow += slow[i];
        if (slow[i]) {
            if (++run > longest) longest = run;
        } else if (run) {
            runs++;
            run = 0;
        }
    }
    if (run) runs++;
    printf("cpu %d: %d windows, p10 %.0f us, p50 %.0f us, p90 %.0f us (p90/p10 %.2f); slow %.1f%% in %d runs "
           "(mean %.1f windows, longest %d)\n",
           l->cpu, n, (double)p10 / 1e3, (double)p50 / 1e3, (double)p90 / 1e3, (double)p90 / (double)p10,
           100.0 * nslow / n, runs, runs ? (double)nslow / runs : 0.0, longest);
    return p10;
}

int main(int argc, char **argv)
{
    struct cfg c = { 0 };
    int a = 1;
    if (argc < 3) goto usage;
    if (!strcmp(argv[a], "spin")) {
        c.kind = SPIN;
        a++;
    } else if (!strcmp(argv[a], "chase") && argc > a + 1) {
        c.kind = CHASE;
        long kb = atol(argv[a + 1]);
        if (kb < 4) goto usage;
        long n = kb * 1024 / 4;
        c.ring = malloc((size_t)n * sizeof *c.ring);
        if (!c.ring) return 1;
        /* one cycle through every slot, in random order (Sattolo) */
        for (long i = 0; i < n; i++) c.ring[i] = (uint32_t)i;
        srand(1);
        for (long i = n - 1; i > 0; i--) {
            long j = rand() % i;
            uint32_t t = c.ring[i];
            c.ring[i] = c.ring[j];
            c.ring[j] = t;
        }
        a += 2;
    } else if (!strcmp(argv[a], "stat") && argc > a + 1) {
        c.kind = STAT;
        c.path = argv[a + 1];
        a += 2;
    } else {
        goto usage;
    }
    if (a >= argc) goto usage;
    int both = !strcmp(argv[a], "both");
    if (!both && strcmp(argv[a], "alone")) goto usage;
    c.nwin = a + 1 < argc ? atoi(argv[a + 1]) : 3000;
    if (c.nwin < 10) goto usage;

    /* about 1 ms a window: warm up on CPU 0, then scale */
    pin(0);
    uint64_t x = 0;
    long n = 256;
    long long d;
    for (;;) {
        long long t = now_ns();
        x = work(&c, n, x);
        d = now_ns() - t;
        if (d > 2000000 || n > (1L << 40)) break;
        n *= 2;
    }
    c.per = (long)((double)n * 1e6 / (double)d);
    if (c.per < 1) c.per = 1;

    struct lane l[2];
    for (int k = 0; k < 2; k++) {
        l[k] = (struct lane){ &c, k, calloc((size_t)c.nwin, sizeof(struct win)), x };
        if (!l[k].w) return 1;
    }
    if (both) {
        pthread_t t[2];
        for (int k = 0; k < 2; k++) pthread_create(&t[k], NULL, run_lane, &l[k]);
        for (int k = 0; k < 2; k++) pthread_join(t[k], NULL);
    } else {
        for (int i = 0; i < c.nwin; i++)
            for (int k = 0; k < 2; k++) {
                pin(k);
                one_window(&l[k], i);
            }
    }
    char *slow[2];
    for (int k = 0; k < 2; k++) {
        slow[k] = malloc((size_t)c.nwin);
        if (!slow[k]) return 1;
        report_cpu(&l[k], slow[k]);
    }
    if (both) {
        /* CPU 0's windows against CPU 1's window at their midpoint */
        int paired = 0, s0 = 0, s1 = 0, s01 = 0, j = 0;
        for (int i = 0; i < c.nwin; i++) {
            long long mid = l[0].w[i].start + l[0].w[i].dur / 2;
            while (j + 1 < c.nwin && l[1].w[j + 1].start <= mid) j++;
            if (l[1].w[j].start > mid || l[1].w[j].start + l[1].w[j].dur < mid) continue;
            paired++;
            s0 += slow[0][i];
            s1 += slow[1][j];
            s01 += slow[0][i] && slow[1][j];
        }
        if (paired)
            printf("both CPUs slow at once: %.1f%% of %d paired windows; independent levels would give %.1f%%\n",
                   100.0 * s01 / paired, paired, 100.0 * ((double)s0 / paired) * ((double)s1 / paired));
    }
    for (int k = 0; k < 2; k++) {
        free(slow[k]);
        free(l[k].w);
        x += l[k].sink;
    }
    free(c.ring);
    sink_out = x;  /* (the work is used) */
    return 0;

usage:
    fprintf(stderr, "usage: speed_scope spin|chase KB|stat PATH alone|both [WINDOWS]\n");
    return 2;
}
