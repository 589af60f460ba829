/* objspace_pair.c - what the fifteen accesses of one proc_heavy op (an
 * env_escape: core/heap.c's list, gc.c of v3_1_2) cost on this CPU when two
 * cores make them at once, against one core making them while the other
 * stays away; and how many of them find their line on the other core.
 * (docs/validate.md, "proc_heavy's objspace lines on an AMD EPYC guest")
 *
 *   cc -O2 -pthread -o objspace_pair scripts/objspace_pair.c
 *   ./objspace_pair COMPUTE_NS GAP_NS ROUNDS
 *
 * Each op: COMPUTE_NS of spinning, then the accesses in gc.c's order:
 * objspace_xmalloc0 (a load of the flags, a locked add to malloc_increase
 * on the head line, a locked add to oldmalloc_increase on the other line,
 * a load of malloc_limit), newobj_of0 + newobj_init twice (a load of the
 * flags, a plain `total_allocated_objects++`), the xcalloc's four again,
 * then three write barriers' loads of the flags.  GAP_NS of spinning
 * before each of those five groups (the work between the sites: malloc,
 * the object's initialisation), so an op is COMPUTE_NS + 5 GAP_NS of work.
 *
 * A round: OPS ops on CPU 0 while CPU 1 spins on a line of its own
 * ("alone"), then OPS ops on each CPU at once ("both"), untimed and then
 * "timed" (every access timed with rdtsc between lfences; one of more than
 * MOVE_NS counts as a move: a load of a line this core holds takes ~30 ns
 * with the fences).  Both threads note when each op starts; an op of CPU 0
 * in a "both" phase counts only if CPU 1 was running ops all through it
 * (on a shared guest the other vCPU is often not running: without this the
 * figures mix one-CPU and two-CPU time).  An op of more than 2 us (an
 * interrupt, a preemption) counts in neither.  Prints the mean ns per op
 * alone and both, and the moves per op of each line with both at work, and
 * the share of CPU 0's ops that had CPU 1 beside them.  x86-64. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#include "probe.h"

#define OPS 20000
#define MOVE_NS 80.0
#define LONG_NS 2000.0

enum { H, O };
enum { LOAD, ADD, INC };
struct acc { int line, kind, gap; };
/* gap: spin GAP_NS before this access (the start of a group) */
static const struct acc seq[] = {
    { H, LOAD, 1 }, { H, ADD, 0 }, { O, ADD, 0 }, { H, LOAD, 0 }, /* xmalloc */
    { H, LOAD, 1 }, { H, INC, 0 },                                /* newobj */
    { H, LOAD, 1 }, { H, INC, 0 },                                /* newobj */
    { H, LOAD, 1 }, { H, ADD, 0 }, { O, ADD, 0 }, { H, LOAD, 0 }, /* xcalloc */
    { H, LOAD, 1 }, { H, LOAD, 0 }, { H, LOAD, 0 },               /* 3 WBs */
};
#define NSEQ (int)(sizeof seq / sizeof seq[0])

static _Alignas(64) _Atomic long lines[2][8];
static _Alignas(64) _Atomic long phase;  /* 0 spin, > 0 a "both" phase (timed if odd), -1 quit */
static _Alignas(64) _Atomic long done1;
static _Alignas(64) _Atomic long own1;
static double ghz;
static unsigned long compute_c, gap_c;

/* one side's ops of a phase: when each started (the TSC; one more at the
 * end), and its moves per line */
struct trace { unsigned long at[OPS + 1]; unsigned char mv[OPS][2]; };
static struct trace ta, tb;

static inline void spin_c(unsigned long c)
{
    unsigned long s = __rdtsc();
    while (__rdtsc() - s < c) {}
}

static inline long op(long x, int timed, unsigned char *mv)
{
    spin_c(compute_c);
    for (int i = 0; i < NSEQ; i++) {
        if (seq[i].gap) spin_c(gap_c);
        _Atomic long *v = &lines[seq[i].line][0];
        unsigned long s = 0;
        if (timed) { _mm_lfence(); s = __rdtsc(); _mm_lfence(); }
        switch (seq[i].kind) {
        case LOAD: x += atomic_load_explicit(v, memory_order_relaxed); break;
        case ADD: atomic_fetch_add_explicit(v, 1, memory_order_relaxed); break;
        default: atomic_store_explicit(v, atomic_load_explicit(v, memory_order_relaxed) + 1, memory_order_relaxed);
        }
        if (timed) {
            _mm_lfence();
            if ((double)(__rdtsc() - s) / ghz > MOVE_NS) mv[seq[i].line]++;
        }
    }
    return x;
}

static long run_ops(struct trace *t, int timed, long x)
{
    for (int i = 0; i < OPS; i++) {
        t->at[i] = __rdtsc();
        t->mv[i][0] = t->mv[i][1] = 0;
        x = op(x, timed, t->mv[i]);
    }
    t->at[OPS] = __rdtsc();
    return x;
}

static long sink;

static void *other(void *arg)
{
    (void)arg;
    allow(1, -1);
    long x = 0, seen = 0;
    for (;;) {
        long p = atomic_load(&phase);
        if (p < 0) break;
        if (p == 0 || p == seen) {
            atomic_fetch_add_explicit(&own1, 1, memory_order_relaxed);  /* busy, on its own line */
            continue;
        }
        x = run_ops(&tb, (int)(p & 1), x);
        seen = p;
        atomic_store(&done1, p);
    }
    sink += x;
    return NULL;
}

/* sums over a phase's ops of CPU 0: with `both`, only those during which
 * CPU 1 was running ops (no gap of over LONG_NS between its op starts) */
struct sums { double ns, moves[2]; long ops, all; };

static void tally(struct sums *s, const struct trace *a, const struct trace *b, int both)
{
    unsigned long lg = (unsigned long)(LONG_NS * ghz);
    int j = 0;
    for (int i = 0; i < OPS; i++) {
        unsigned long s0 = a->at[i], s1 = a->at[i + 1];
        if (s1 - s0 > lg) continue;
        s->all++;
        if (both) {
            /* b's ops around [s0, s1]: the last start at or before s0, then
             * every start up to past s1 less than LONG_NS apart */
            while (j < OPS && b->at[j + 1] <= s0) j++;
            if (j >= OPS || b->at[j] > s0) continue;
            int k = j, ok = 1;
            while (ok && k < OPS && b->at[k] < s1) {
                if (b->at[k + 1] - b->at[k] > lg) ok = 0;
                k++;
            }
            if (!ok || b->at[k] < s1) continue;
        }
        s->ns += (double)(s1 - s0) / ghz;
        s->moves[0] += a->mv[i][0];
        s->moves[1] += a->mv[i][1];
        s->ops++;
    }
}

int main(int argc, char **argv)
{
    double compute_ns = argc > 1 ? atof(argv[1]) : 167;
    double gap_ns = argc > 2 ? atof(argv[2]) : 0;
    int rounds = argc > 3 ? atoi(argv[3]) : 20;
    allow(0, -1);
    long long t0 = now_ns();
    unsigned long c0 = __rdtsc();
    spin_ns(20000000);
    ghz = (double)(__rdtsc() - c0) / (double)(now_ns() - t0);
    compute_c = (unsigned long)(compute_ns * ghz);
    gap_c = (unsigned long)(gap_ns * ghz);
    pthread_t t;
    if (pthread_create(&t, NULL, other, NULL) != 0) return 1;
    struct sums alone = { 0 }, both = { 0 }, alone_t = { 0 }, both_t = { 0 };
    long x = 0, gen = 0;
    for (int r = 0; r < rounds; r++) {
        for (int timed = 0; timed < 2; timed++) {
            atomic_store(&phase, 0);
            x = run_ops(&ta, timed, x);
            tally(timed ? &alone_t : &alone, &ta, NULL, 0);
            gen += 2;
            long p = gen + timed;
            atomic_store(&phase, p);
            x = run_ops(&ta, timed, x);
            while (atomic_load(&done1) != p) {}
            atomic_store(&phase, 0);
            tally(timed ? &both_t : &both, &ta, &tb, 1);
        }
    }
    atomic_store(&phase, -1);
    pthread_join(t, NULL);
    printf("compute %.0f ns + 5 x gap %.0f ns; %d rounds of %d ops a phase (TSC %.3f GHz)\n", compute_ns, gap_ns,
           rounds, OPS, ghz);
    printf("alone: %.1f ns/op (%ld ops)\n", alone.ns / (double)alone.ops, alone.ops);
    printf("both:  %.1f ns/op (%ld ops, %.0f%% of the phases' ops had the other CPU running beside them): "
           "extra %.1f ns/op\n",
           both.ns / (double)both.ops, both.ops, 100.0 * (double)both.ops / (double)both.all,
           both.ns / (double)both.ops - alone.ns / (double)alone.ops);
    printf("timed: alone %.1f ns/op, %.2f moves/op; both %.1f ns/op, %.2f moves/op (head %.2f, oldmalloc %.2f; "
           "%ld ops)\n",
           alone_t.ns / (double)alone_t.ops, (alone_t.moves[0] + alone_t.moves[1]) / (double)alone_t.ops,
           both_t.ns / (double)both_t.ops, (both_t.moves[0] + both_t.moves[1]) / (double)both_t.ops,
           both_t.moves[0] / (double)both_t.ops, both_t.moves[1] / (double)both_t.ops, both_t.ops);
    printf("(%ld)\n", (x + sink + atomic_load(&own1)) & 1);
    return 0;
}
