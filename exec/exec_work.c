/* exec_work.c - the busy loop, its calibration, and the instruction loop.
 *
 * Busy loop: one iteration is one step of a 64-bit LCG, x = x*a + c, with
 * an empty asm statement that makes x opaque to the compiler, so that it
 * can neither vectorise the loop nor replace it by its closed form; the
 * final value is returned and consumed by the caller.  The dependency chain
 * (a multiply and an add) makes an iteration a few cycles long and stable.
 *
 * Calibration (lessons of rt-app #86/#89/#90): measured in picoseconds per
 * iteration as a double (sub-ns resolution, no truncation), on the thread's
 * CPU-time clock (CLOCK_THREAD_CPUTIME_ID) so that a preemption during a
 * sample does not count; 15 samples of ~4 ms, the median taken, the
 * spread (interquartile range / median) reported; a calibration whose
 * spread exceeds the limit is repeated, up to 5 times, then refused.  A `compute` of d then runs d / ps_per_iter
 * iterations, the fractional rest carried to the thread's next compute.
 *
 * Instruction loop: the same step plus the counter increment.  The shared
 * counter is the deliberate data race of bug #20489 (d814722fb8): plain
 * load-add-store from every core into one cache line.  It is isolated in
 * insns_shared(), which ThreadSanitizer is told not to instrument.
 */
#include "exec_work.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../common/err.h"
#include "../common/stats.h"

#define LCG_A UINT64_C(6364136223846793005)
#define LCG_C UINT64_C(1442695040888963407)

__attribute__((noinline)) uint64_t exec_spin(uint64_t iters, uint64_t x)
{
    for (uint64_t i = 0; i < iters; i++) {
        x = x * LCG_A + LCG_C;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

static int64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#define CALIB_SAMPLES 15
#define CALIB_SAMPLE_NS 4000000
#define CALIB_ATTEMPTS 5

static void calibrate_once(struct exec_calibration *c)
{
    /* warm up (frequency ramp) and estimate the rate */
    uint64_t iters = 1u << 16;
    int64_t t0 = thread_cpu_ns();
    uint64_t x = 1;
    while (thread_cpu_ns() - t0 < 20000000) x = exec_spin(iters, x);
    int64_t t1 = thread_cpu_ns();
    x = exec_spin(iters, x);
    int64_t dt = thread_cpu_ns() - t1;
    if (dt < 1) dt = 1;
    uint64_t per_sample = (uint64_t)((double)iters * CALIB_SAMPLE_NS / (double)dt);
    if (per_sample < 1000) per_sample = 1000;

    double ps[CALIB_SAMPLES];
    for (int i = 0; i < CALIB_SAMPLES; i++) {
        int64_t a = thread_cpu_ns();
        x = exec_spin(per_sample, x);
        int64_t b = thread_cpu_ns();
        ps[i] = (double)(b - a) * 1000.0 / (double)per_sample;
    }
    exec_consume(x);  /* the loops' result is used */
    stats_sort(ps, CALIB_SAMPLES);
    c->samples = CALIB_SAMPLES;
    c->ps_per_iter = ps[CALIB_SAMPLES / 2];
    c->min_ps = ps[0];
    c->max_ps = ps[CALIB_SAMPLES - 1];
    /* interquartile range: a guest's thread CPU clock also counts the
     * hypervisor's steal time, so a sample or two may be far off */
    double p25 = ps[CALIB_SAMPLES / 4], p75 = ps[CALIB_SAMPLES - 1 - CALIB_SAMPLES / 4];
    c->spread = c->ps_per_iter > 0 ? (p75 - p25) / c->ps_per_iter : 1.0;
}

int exec_calibrate(struct exec_calibration *c, double max_spread, char *err, size_t errlen)
{
    for (int a = 1; a <= CALIB_ATTEMPTS; a++) {
        calibrate_once(c);
        c->attempts = a;
        if (c->ps_per_iter > 0 && c->spread <= max_spread) return GV_OK;
    }
    return gv_fail(err, errlen, GV_ERUN,
                   "busy-loop calibration is unstable: %.1f%% spread (interquartile range of %d samples; "
                   "median %.1f ps/iteration, min %.1f, max %.1f) after %d attempts, limit %.0f%%; "
                   "is the machine busy or its CPU frequency changing? (--max-spread PCT accepts more)",
                   100.0 * c->spread, c->samples, c->ps_per_iter, c->min_ps, c->max_ps,
                   CALIB_ATTEMPTS, 100.0 * max_spread);
}

/* ---- instructions --------------------------------------------------------- */

/* The thread-local counter of the #12549 fix: a real TLS variable, since
 * the cost of reaching it is part of what is measured.  Process-wide by
 * nature, one instance per thread, touched only by insns_tls(). */
static _Thread_local uint64_t insn_count_tls;

uint64_t exec_insns_tls_count(void)
{
    return insn_count_tls;
}

/* Deliberately racy (bug #20489): every core does a plain, non-atomic
 * increment of the same counter.  Not instrumented by ThreadSanitizer. */
__attribute__((noinline, no_sanitize("thread")))
static uint64_t insns_shared(struct exec_shared_counter *shared, uint64_t n, uint64_t x)
{
    volatile uint64_t *ctr = &shared->value;
    for (uint64_t i = 0; i < n; i++) {
        x = x * LCG_A + LCG_C;
        __asm__ volatile("" : "+r"(x));
        *ctr += 1;
    }
    return x;
}

__attribute__((noinline)) static uint64_t insns_tls(uint64_t n, uint64_t x)
{
    volatile uint64_t *ctr = &insn_count_tls;
    for (uint64_t i = 0; i < n; i++) {
        x = x * LCG_A + LCG_C;
        __asm__ volatile("" : "+r"(x));
        *ctr += 1;
    }
    return x;
}

__attribute__((noinline)) static uint64_t insns_none(uint64_t n, uint64_t x)
{
    for (uint64_t i = 0; i < n; i++) {
        x = x * LCG_A + LCG_C;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

uint64_t exec_insns(enum scn_insn_counter kind, struct exec_shared_counter *shared, uint64_t n,
                    uint64_t x)
{
    switch (kind) {
    case COUNTER_SHARED: return insns_shared(shared, n, x);
    case COUNTER_THREAD_LOCAL: return insns_tls(n, x);
    case COUNTER_NONE:
    case COUNTER_COUNT: break;
    }
    return insns_none(n, x);
}
