/* test_calib.c - the calibration's arithmetic, without timing anything:
 * quantiles, the repeat-until-stable loop, the tick estimator on synthetic
 * switch times, the kernel -> scheduler table, and the mapping of
 * measurements to profile keys (each key from the measurements the docs
 * name, a missing one falling back on the schema's default); and the two
 * probes `gvlsim validate` runs, a few ms of real threads each. */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../exec/calib.h"
#include "../../exec/calib_int.h"
#include "../../exec/calltime.h"
#include "../../exec/calib_host.h"
#include "../../exec/calib_map.h"
#include "../../exec/ruby_run.h"
#include "../../input/units.h"
#include "test.h"

static void test_quantiles(void)
{
    double v[] = { 5, 1, 4, 2, 3 };
    double med, q1, q3;
    ASSERT_EQ(calib_summarise(v, 5, &med, &q1, &q3), 0);
    ASSERT(med == 3 && q1 == 2 && q3 == 4);
    double w[] = { 10, 20, 30, 40 };
    ASSERT_EQ(calib_summarise(w, 4, &med, &q1, &q3), 0);
    ASSERT(med == 25 && q1 == 17.5 && q3 == 32.5);   /* linear interpolation */
    ASSERT(v[0] == 5);                                  /* the input is not sorted in place */
    double s[] = { 1, 2 };
    ASSERT(calib_quantile(s, 2, 0) == 1 && calib_quantile(s, 2, 1) == 2);
    ASSERT(calib_quantile(s, 0, 0.5) == 0);
}

static void test_loop_stops_when_stable(void)
{
    struct calib_loop l;
    calib_loop_start(&l, 100.0, 5, 50, 0.10);
    int rounds = 0;
    while (calib_loop_more(&l, 100.0 + (rounds % 2))) rounds++;  /* 100, 101, ...: 1% apart */
    struct calib_stat st;
    memset(&st, 0, sizeof st);
    calib_loop_end(&l, &st);
    ASSERT_EQ(st.rounds, 5);   /* the minimum, then stable */
    ASSERT(!st.unstable);
    ASSERT(st.round_spread < 0.02);
}

static void test_loop_flags_unstable(void)
{
    struct calib_loop l;
    calib_loop_start(&l, 100.0, 3, 12, 0.10);
    int i = 0;
    while (calib_loop_more(&l, (i++ % 2) ? 100.0 : 200.0)) {
    }
    struct calib_stat st;
    memset(&st, 0, sizeof st);
    calib_loop_end(&l, &st);
    ASSERT_EQ(st.rounds, 12);  /* max_rounds */
    ASSERT(st.unstable);
    /* an exhausted budget stops after the minimum too */
    calib_loop_start(&l, 0.0, 3, 1000, 0.10);
    i = 0;
    while (calib_loop_more(&l, (i++ % 2) ? 100.0 : 200.0)) {
    }
    calib_loop_end(&l, &st);
    ASSERT_EQ(st.rounds, 3);
    ASSERT(st.unstable);
}

static double lcg01(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* Rounds whose medians drift 7.5 -> 10.5 us, each round's wakes within
 * +-2% of its median: all samples together spread by about a third, each
 * over its own round's median by 2-3%. */
static void test_within_spread(void)
{
    struct calib_series all = { 0 }, round = { 0 }, rel = { 0 };
    static const double dev[5] = { 0.98, 0.99, 1.0, 1.01, 1.02 };
    for (int r = 0; r < 12; r++) {
        round.n = 0;
        double level = 7500 + 3000.0 * r / 11;
        for (int i = 0; i < 5; i++) {
            calib_series_add(&round, level * dev[(i + r) % 5]);
            calib_series_add(&all, level * dev[(i + r) % 5]);
        }
        double med, q1, q3;
        ASSERT_EQ(calib_summarise(round.v, round.n, &med, &q1, &q3), 0);
        ASSERT(fabs(med - level) < 1e-6);
        calib_series_add_relative(&rel, &round, med);
    }
    ASSERT_EQ(rel.n, 60);
    struct calib_stat st;
    memset(&st, 0, sizeof st);
    calib_series_stat(&all, &st);
    ASSERT((st.q3 - st.q1) / st.median > 0.15);
    calib_stat_within(&st, &rel);
    ASSERT(st.within_spread > 0.015 && st.within_spread < 0.025);
    /* too few samples: not taken */
    struct calib_series few = { 0 };
    calib_series_add_relative(&few, &round, 10500);
    calib_stat_within(&st, &few);
    ASSERT(st.within_spread == 0);
    /* a round whose median is 0 adds nothing */
    round.n = 0;
    calib_series_add(&round, 0);
    calib_series_add_relative(&few, &round, 0);
    ASSERT_EQ(few.n, 5);
    calib_series_free(&all);
    calib_series_free(&round);
    calib_series_free(&rel);
    calib_series_free(&few);
}

/* Switch-outs on tick boundaries (HZ 250, some runs 1 tick, some 2) plus
 * a few at random times; 1000 Hz ticks with runs of 3 ticks; nothing
 * periodic. */
static void test_tick_estimate(void)
{
    long long at[400];
    unsigned long long seed = 42;
    int n = 0;
    long long t = 123456789;
    for (int i = 0; i < 300; i++) {
        t += (lcg01(&seed) < 0.7 ? 1 : 2) * 4000000LL;
        at[n++] = t + (long long)(lcg01(&seed) * 2000);   /* within 2 us of the tick */
    }
    for (int i = 0; i < 30; i++) at[n++] = 100000000 + (long long)(lcg01(&seed) * 1.2e9);
    double p = calib_tick_estimate(at, n);
    ASSERT(fabs(p - 4e6) < 1e3);

    n = 0;
    t = 5;
    for (int i = 0; i < 200; i++) {
        t += (lcg01(&seed) < 0.5 ? 3 : 4) * 1000000LL;
        at[n++] = t;
    }
    p = calib_tick_estimate(at, n);
    ASSERT(fabs(p - 1e6) < 1e3);

    n = 0;
    for (int i = 0; i < 200; i++) at[n++] = (long long)(lcg01(&seed) * 1e9);
    ASSERT(calib_tick_estimate(at, n) == 0);
    ASSERT(calib_tick_estimate(at, 3) == 0);   /* too few */
}

/* The free benchmark's batches count only with both threads at work: this
 * one on its CPU for 90% of the batch, the other through half its chunks
 * (a batch is 2,000 mallocs and 2,000 frees) */
static void test_free_both_at_work(void)
{
    ASSERT(calib_free_both_at_work(95000, 100000, 2000, 2000));
    ASSERT(calib_free_both_at_work(90000, 100000, 2000, 2000));
    ASSERT(!calib_free_both_at_work(89000, 100000, 4000, 2000));  /* preempted a tenth of it */
    ASSERT(!calib_free_both_at_work(100000, 100000, 1999, 2000)); /* the other one waited or slept */
    ASSERT(!calib_free_both_at_work(0, 0, 4000, 2000));
}

static void test_busy_loop_plausible(void)
{
    struct calib_stat solo = { .measured = true, .median = 1.17 }, pair = { .measured = true, .median = 1.21 };
    ASSERT(calib_busy_loop_plausible(&solo, &pair));
    solo.median = 1.25 * 1.21;  /* the limit itself */
    ASSERT(calib_busy_loop_plausible(&solo, &pair));
    solo.median = 33.7;  /* the AMD EPYC guest's throttled first run */
    ASSERT(!calib_busy_loop_plausible(&solo, &pair));
    pair.measured = false;  /* nothing to compare */
    ASSERT(calib_busy_loop_plausible(&solo, &pair));
}

static void test_kernel_to_scheduler(void)
{
    struct calib_host h;
    memset(&h, 0, sizeof h);
    int a, b;
    ASSERT(calib_host_parse_kernel("6.18.44-fc-v769", &a, &b) && a == 6 && b == 18);
    ASSERT(calib_host_parse_kernel("5.15.0-91-generic", &a, &b) && a == 5 && b == 15);
    ASSERT(!calib_host_parse_kernel("weird", &a, &b));
    const char *why;
    h.delay_dequeue = -1;
    h.kmajor = 5, h.kminor = 15;
    ASSERT_STREQ(calib_host_scheduler(&h, &why), "cfs");
    h.kmajor = 6, h.kminor = 8;   /* ko1's Ubuntu 24.04 */
    ASSERT_STREQ(calib_host_scheduler(&h, &why), "eevdf");
    h.kminor = 12;
    ASSERT_STREQ(calib_host_scheduler(&h, &why), "eevdf_delay_dequeue");
    h.delay_dequeue = 0;          /* the features file says NO_DELAY_DEQUEUE */
    ASSERT_STREQ(calib_host_scheduler(&h, &why), "eevdf");
    h.kminor = 8;
    h.delay_dequeue = 1;
    ASSERT_STREQ(calib_host_scheduler(&h, &why), "eevdf_delay_dequeue");
    /* base slice: 0.75 ms x (1 + ilog2(min(ncpu, 8))) */
    h.cpus_online = 1;
    ASSERT_EQ(calib_host_base_slice_ns(&h), 750000);
    h.cpus_online = 2;
    ASSERT_EQ(calib_host_base_slice_ns(&h), 1500000);
    h.cpus_online = 20;
    ASSERT_EQ(calib_host_base_slice_ns(&h), 3000000);
    h.se_slice_ns = 1400000;      /* debugfs locked down: the task's own slice */
    ASSERT_EQ(calib_host_base_slice_ns(&h), 1400000);
    ASSERT_STREQ(calib_host_base_slice_from(&h), " (se.slice in /proc/self/sched)");
    h.base_slice_ns = 2800000;
    ASSERT_EQ(calib_host_base_slice_ns(&h), 2800000);
    ASSERT_STREQ(calib_host_base_slice_from(&h), " (debugfs)");
    /* /proc/PID/sched as Linux 6.18 prints it */
    ASSERT_EQ(calib_host_parse_se_slice("cat (1600, #threads: 1)\n"
                                        "-------------------------------------------------------------------\n"
                                        "se.exec_start                                :      55976585.406847\n"
                                        "se.slice                                     :              1400000\n"
                                        "policy                                       :                    0\n"), 1400000);
    ASSERT_EQ(calib_host_parse_se_slice("se.sum_exec_runtime : 5\nse.slicex : 7\n"), 0);
    ASSERT_EQ(calib_host_parse_se_slice(""), 0);
}

static void set(struct calib_result *r, enum calib_id id, double med, double q1, double q3)
{
    r->m[id].measured = true;
    r->m[id].median = med;
    r->m[id].q1 = q1;
    r->m[id].q3 = q3;
    r->m[id].samples = 10;
}

/* The development guest: 2 CPUs, Linux 6.18, HZ 250, no debugfs. */
static struct calib_host dev_host(void)
{
    struct calib_host h;
    memset(&h, 0, sizeof h);
    h.cpus_online = 2;
    h.kmajor = 6, h.kminor = 18;
    h.delay_dequeue = -1;
    h.config_hz = 250;
    return h;
}

static sim_time dur(const struct calib_profile *p, const char *key)
{
    const struct calib_key *k = calib_profile_key(p, key);
    ASSERT(k && k->kind == CK_DUR);
    return k->dur;
}

static void test_map(void)
{
    struct calib_result r;
    memset(&r, 0, sizeof r);
    r.ncpus_allowed = 2;
    set(&r, CALIB_YIELD_SWITCH, 975, 900, 1000);
    set(&r, CALIB_SYSCALL_GETPID, 75, 74, 76);
    set(&r, CALIB_FUTEX_WAKE, 950, 900, 1000);
    set(&r, CALIB_FUTEX_WAKE_REMOTE, 11500, 11000, 12000);
    set(&r, CALIB_FUTEX_WAKE_NONE, 1170, 1160, 1180);
    set(&r, CALIB_HANDOFF_CROSS, 58800, 58000, 60000);
    set(&r, CALIB_HANDOFF_SAME, 1340, 1300, 1400);
    set(&r, CALIB_HANDOFF_PPOLL_EXTRA, 590, 500, 700);
    set(&r, CALIB_EVENTFD_WAKE_EXTRA, 210, 100, 300);
    set(&r, CALIB_WAKE_BUSY, 17400, 17000, 18000);
    set(&r, CALIB_WAKE_IDLE, 25000, 21000, 26500);
    set(&r, CALIB_MUTEX_UNCONTENDED, 2.5, 2.4, 2.6);
    set(&r, CALIB_LINE_TRANSFER, 62.5, 62, 63);
    set(&r, CALIB_LINE_FETCH, 88.4, 88, 89);
    set(&r, CALIB_INCR_SHARED, 40, 39, 41);
    set(&r, CALIB_BUSY_LOOP, 0.98, 0.97, 0.99);
    set(&r, CALIB_BUSY_LOOP_PAIR, 1.47, 1.4, 1.5);
    set(&r, CALIB_INCR_LOCAL, 1.2, 1.1, 1.3);
    set(&r, CALIB_TIMER_WAKE_CPU, 16200, 15000, 17000);
    set(&r, CALIB_FREE_OWN, 25.4, 25, 26);
    set(&r, CALIB_FREE_REMOTE, 146.9, 135, 149);
    set(&r, CALIB_TIMESLICE, 3.97e6, 3.9e6, 4e6);
    set(&r, CALIB_RUBY_INSN, 1.19, 1.1, 1.3);
    set(&r, CALIB_WAKE_PACK_SHORT, 0.926, 0.9, 0.95);
    set(&r, CALIB_WAKE_PACK_LONG, 0.05, 0, 0.1);
    set(&r, CALIB_WAKE_PACK_SLEEP, 380555, 320000, 453000);
    set(&r, CALIB_WAKE_PACK_OTHER, 0.1, 0.05, 0.15);
    struct calib_host h = dev_host();
    struct calib_profile p;
    calib_map(&r, &h, &p);
    ASSERT_EQ(calib_profile_key(&p, "cores")->i, 2);
    ASSERT_EQ(dur(&p, "context_switch"), 900 * SIM_NS);          /* 975 - 75 */
    ASSERT_EQ(dur(&p, "futex_wake"), 950 * SIM_NS);
    ASSERT_EQ(dur(&p, "futex_wake_none"), 1170 * SIM_NS);
    ASSERT(calib_profile_key(&p, "futex_wake_none")->measured);
    ASSERT_EQ(dur(&p, "wake_ipi"), 10600 * SIM_NS);               /* 10550, 3 digits */
    ASSERT_EQ(dur(&p, "futex_wake_chain"), 440 * SIM_NS);         /* 1340 - 900 */
    ASSERT(calib_profile_key(&p, "futex_wake_chain")->measured);
    ASSERT_EQ(dur(&p, "wake_idle_core"), 58800 * SIM_NS);
    ASSERT_EQ(dur(&p, "ppoll_wake_extra"), 210 * SIM_NS);
    ASSERT_EQ(dur(&p, "ppoll_return"), 380 * SIM_NS);            /* 590 - 210 */
    ASSERT(calib_profile_key(&p, "ppoll_return")->measured);
    r.m[CALIB_HANDOFF_PPOLL_EXTRA].measured = false;  /* -> the default, said so */
    calib_map(&r, &h, &p);
    ASSERT(dur(&p, "ppoll_return") == 0 && !calib_profile_key(&p, "ppoll_return")->measured);
    ASSERT(strstr(calib_profile_key(&p, "ppoll_return")->how, "handoff_ppoll_extra_ns"));
    set(&r, CALIB_HANDOFF_PPOLL_EXTRA, 590, 500, 700);
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "wake_busy_core"), 16500 * SIM_NS);         /* 17400 - 900 */
    ASSERT(calib_profile_key(&p, "wake_ipi_extra") == NULL);      /* not measured: no curve */
    /* the IPI's rise with the idle time from the wakes after an idle time */
    static const double ipi_ns[CALIB_IDLE_LEVELS] = { 7000, 9000, 33100, 33200, 33700, 33800, 34100, 6000 };
    for (int i = 0; i < CALIB_IDLE_LEVELS; i++)
        set(&r, (enum calib_id)(CALIB_WAKE_IPI_AFTER_IDLE_10US + i), ipi_ns[i], ipi_ns[i] - 100, ipi_ns[i] + 100);
    calib_map(&r, &h, &p);
    const struct calib_key *ke = calib_profile_key(&p, "wake_ipi_extra");
    ASSERT(ke && ke->measured && ke->curve.n == CALIB_IDLE_LEVELS - 1);  /* from 30 us on */
    ASSERT_EQ(ke->curve.x[0], 30 * SIM_US);
    ASSERT_EQ(ke->curve.y[0], 2000 * SIM_NS);                     /* 9000 - 7000 */
    ASSERT_EQ(ke->curve.y[1], 26100 * SIM_NS);                    /* 33100 - 7000 */
    ASSERT_EQ(ke->curve.x[6], 30 * SIM_MS);
    ASSERT_EQ(ke->curve.y[6], 0);                                 /* below the base: floored */
    for (int i = 0; i < CALIB_IDLE_LEVELS; i++)
        r.m[CALIB_WAKE_IPI_AFTER_IDLE_10US + i].measured = false;
    calib_map(&r, &h, &p);
    ASSERT(calib_profile_key(&p, "wake_ipi_extra") == NULL);
    ASSERT(fabs(calib_profile_key(&p, "wake_jitter")->num - 0.22) < 1e-9);  /* 5500 / 25000 */
    ASSERT(fabs(calib_profile_key(&p, "wake_pack")->num - 0.93) < 1e-9);  /* 0.926, 2 digits */
    ASSERT(calib_profile_key(&p, "wake_pack")->measured);
    ASSERT_EQ(dur(&p, "wake_pack_sleep"), 381 * SIM_US);          /* 380.555 us, 3 digits */
    ASSERT(calib_profile_key(&p, "wake_pack_sleep")->measured);
    /* packed after long sleeps as well: no dependence on the sleep, 0 (any) */
    set(&r, CALIB_WAKE_PACK_LONG, 0.9, 0.8, 1);
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "wake_pack_sleep"), 0);
    ASSERT(strstr(calib_profile_key(&p, "wake_pack_sleep")->how, "no dependence"));
    set(&r, CALIB_WAKE_PACK_LONG, 0.05, 0, 0.1);
    ASSERT_STREQ(calib_profile_key(&p, "os_scheduler")->str, "eevdf_delay_dequeue");
    ASSERT_EQ(dur(&p, "os_tick"), 4 * SIM_MS);
    ASSERT_EQ(dur(&p, "os_timeslice"), 1500 * SIM_US);            /* EEVDF base slice, 2 CPUs */
    ASSERT_EQ(dur(&p, "timer_tick_cost"), 16200 * SIM_NS);
    ASSERT_EQ(dur(&p, "sched_lock_cs"), 90900);                   /* 2.5 + 88.4 ns (line_fetch) */
    ASSERT_EQ(dur(&p, "lock_line"), 88400);                       /* line_fetch_ns, as remote_rmw */
    ASSERT(calib_profile_key(&p, "lock_line")->measured);
    /* one fetch of a line the other CPU wrote, not the ping-pong's move */
    ASSERT_EQ(dur(&p, "remote_rmw"), 88400);
    ASSERT(calib_profile_key(&p, "remote_rmw")->measured);
    ASSERT_EQ(dur(&p, "free_remote"), 122 * SIM_NS);              /* 146.9 - 25.4, 3 digits */
    ASSERT(calib_profile_key(&p, "free_remote")->measured);
    ASSERT_EQ(calib_profile_key(&p, "line_store_batch")->i, 3);   /* 2 x 62.5 / 40 */
    ASSERT_EQ(dur(&p, "tls_insn_overhead"), 220);                 /* 0.22 ns */
    ASSERT(fabs(calib_profile_key(&p, "corun_slowdown")->num - 1.5) < 1e-9);  /* 1.47 / 0.98 */
    ASSERT_EQ(dur(&p, "insn_time"), 1190);                        /* 1.19 ns */
    ASSERT(calib_profile_key(&p, "insn_time")->measured);
    /* the timed waits not measured: Linux's default slack, said so; no
     * timer_wake (all of timer_tick_cost before the helper's code) */
    ASSERT(dur(&p, "timer_slack") == 50 * SIM_US && !calib_profile_key(&p, "timer_slack")->measured);
    ASSERT(strstr(calib_profile_key(&p, "timer_slack")->how, "timer_late_100us_ns"));
    ASSERT(!calib_profile_key(&p, "timer_wake"));
    ASSERT(!calib_profile_key(&p, "timer_stall"));  /* not measured: no stall */
    /* measured: the development guest's quick calibrate of 06:05 UTC
     * (us): with the default slack 67.1, 68.8, 73.2; with 1 ns 17.1, 18.5,
     * 18.6; each key the middle of three */
    static const double late_us[2][CALIB_TIMER_SIZES] = { { 67.1, 68.8, 73.2 }, { 17.1, 18.5, 18.6 } };
    for (int i = 0; i < CALIB_TIMER_SIZES; i++) {
        set(&r, (enum calib_id)(CALIB_TIMER_LATE_100US + i), late_us[0][i] * 1000, 0, 0);
        set(&r, (enum calib_id)(CALIB_TIMER_LATE_1NS_100US + i), late_us[1][i] * 1000, 0, 0);
    }
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "timer_slack"), 50300 * SIM_NS);   /* 50.0, 50.3, 54.6 */
    ASSERT(calib_profile_key(&p, "timer_slack")->measured);
    ASSERT_EQ(dur(&p, "timer_wake"), 18500 * SIM_NS);
    ASSERT(calib_profile_key(&p, "timer_wake")->measured);
    ASSERT(!calib_profile_key(&p, "timer_stall"));
    /* the AMD EPYC guest's 17:08 UTC calibrate: the busy CPU stopped 37.3 us */
    set(&r, CALIB_TIMER_STALL, 37281, 34165, 45435);
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "timer_stall"), 37300 * SIM_NS);
    ASSERT(strstr(calib_profile_key(&p, "timer_stall")->how, "timer_stall_ns"));
    set(&r, CALIB_TIMER_LATE_1MS, 10000, 0, 0);  /* earlier than with 1 ns: floored at 0 */
    set(&r, CALIB_TIMER_LATE_300US, 10000, 0, 0);
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "timer_slack"), 0);
    ASSERT(!calib_profile_key(&p, "wake_idle_extra"));  /* not measured: not written (no extra) */
    /* the wake after an idle time: the lead's probe of 03:08 UTC on the
     * development guest, its first run's medians (us) */
    static const double after_idle_us[CALIB_IDLE_LEVELS] = { 40.4, 38.8, 40.9, 40.7, 53.9, 59.4, 69.9, 77.5 };
    for (int i = 0; i < CALIB_IDLE_LEVELS; i++)
        set(&r, (enum calib_id)(CALIB_WAKE_AFTER_IDLE_10US + i), after_idle_us[i] * 1000, 0, 0);
    calib_map(&r, &h, &p);
    const struct calib_key *ie = calib_profile_key(&p, "wake_idle_extra");
    ASSERT(ie && ie->kind == CK_CURVE && ie->measured);
    ASSERT_EQ(ie->curve.n, 8);  /* (10 us, 0) and 30 us .. 30 ms, each minus the 10 us level */
    ASSERT_EQ(ie->curve.x[0], 10 * SIM_US);
    ASSERT_EQ(ie->curve.y[0], 0);
    ASSERT_EQ(ie->curve.x[1], 30 * SIM_US);
    ASSERT_EQ(ie->curve.y[1], 0);                 /* 38.8 - 40.4: floored at 0 */
    ASSERT_EQ(ie->curve.x[3], 300 * SIM_US);
    ASSERT_EQ(ie->curve.y[3], 300 * SIM_NS);      /* 40.7 - 40.4 */
    ASSERT_EQ(ie->curve.x[7], 30 * SIM_MS);
    ASSERT_EQ(ie->curve.y[7], 37100 * SIM_NS);    /* 77.5 - 40.4 */
    /* wake_jitter: the spread of wake_idle_core's own measurement, the
     * wake after 10 us (no quartiles set here: 0), no longer the long
     * pause's 0.22 */
    ASSERT(fabs(calib_profile_key(&p, "wake_jitter")->num) < 1e-9);
    ASSERT(strstr(calib_profile_key(&p, "wake_jitter")->how, "wake_after_idle_10us_ns"));
    set(&r, CALIB_WAKE_AFTER_IDLE_10US, 40400, 39400, 40600);
    calib_map(&r, &h, &p);
    ASSERT(fabs(calib_profile_key(&p, "wake_jitter")->num - 0.03) < 1e-9);  /* 1200 / 40400 */
    /* measured in rounds: the spread within them, not the rounds' drift */
    r.m[CALIB_WAKE_AFTER_IDLE_10US].within_spread = 0.061;
    calib_map(&r, &h, &p);
    ASSERT(fabs(calib_profile_key(&p, "wake_jitter")->num - 0.06) < 1e-9);
    ASSERT(strstr(calib_profile_key(&p, "wake_jitter")->how, "each over its round's median"));
    r.m[CALIB_WAKE_AFTER_IDLE_10US].within_spread = 0;
    char cv[320];
    calib_key_value(ie, cv, sizeof cv);
    ASSERT_STREQ(cv, "[[\"10us\", \"0s\"], [\"30us\", \"0s\"], [\"100us\", \"500ns\"], [\"300us\", \"300ns\"], "
                     "[\"1ms\", \"13.5us\"], [\"3ms\", \"19us\"], [\"10ms\", \"29.5us\"], [\"30ms\", \"37.1us\"]]");
    ASSERT_EQ(dur(&p, "wake_idle_core"), 40400 * SIM_NS);  /* the 10 us level, not the ping-pong */
    set(&r, CALIB_WAKE_AFTER_IDLE_300US, 39000, 0, 0);  /* faster than the base: floored at 0 */
    calib_map(&r, &h, &p);
    ASSERT_EQ(calib_profile_key(&p, "wake_idle_extra")->curve.y[3], 0);
    for (int i = 0; i < p.n; i++) ASSERT(p.k[i].how[0]);
    ASSERT(calib_profile_key(&p, "context_switch")->measured);
    /* machine.syscalls: each call as measured (getpid's is the context
     * switch's bare call too); a call not measured is not written */
    ASSERT_EQ(dur(&p, "syscalls.getpid"), 75 * SIM_NS);
    ASSERT(!calib_profile_key(&p, "syscalls.stat") && !calib_profile_key(&p, "syscalls.close"));
    set(&r, CALIB_SYSCALL_STAT, 1316.16, 1314, 1323);   /* the AMD EPYC guest, 10:06 UTC */
    set(&r, CALIB_SYSCALL_WRITE, 1136.96, 1135, 1317);
    set(&r, CALIB_SYSCALL_OPEN, 1943.38, 1935, 1954);    /* 10:29 UTC */
    set(&r, CALIB_SYSCALL_CLOSE, 1228.89, 1223, 1235);
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "syscalls.stat"), 1320 * SIM_NS);   /* 3 digits */
    ASSERT_EQ(dur(&p, "syscalls.write_devnull"), 1140 * SIM_NS);
    ASSERT_EQ(dur(&p, "syscalls.open_devnull"), 1940 * SIM_NS);
    ASSERT_EQ(dur(&p, "syscalls.close"), 1230 * SIM_NS);
    ASSERT(calib_profile_key(&p, "syscalls.stat")->measured);
    ASSERT_STREQ(calib_profile_key(&p, "syscalls.stat")->how, "syscall_stat_ns 1316 ns");
    snprintf(r.stat_path, sizeof r.stat_path, "/srv/gvlsim/scenarios/mtime_loop.json");
    calib_map(&r, &h, &p);
    ASSERT_STREQ(calib_profile_key(&p, "syscalls.stat")->how,
                 "syscall_stat_ns 1316 ns (of a path of 4 components, .../scenarios/mtime_loop.json)");
    /* machine.method_work: each Ruby method's extra as measured; not
     * measured (no Ruby, --no-ruby): not written */
    ASSERT(!calib_profile_key(&p, "method_work.stat") && !calib_profile_key(&p, "method_work.open_devnull"));
    set(&r, CALIB_RUBY_FILE_MTIME_EXTRA, 1856.01, 1712.81, 1953.08);   /* the AMD EPYC guest, 14:09 UTC */
    set(&r, CALIB_RUBY_FILE_WRITE_EXTRA, 4352.85, 4212.93, 4639.66);
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "method_work.stat"), 1860 * SIM_NS);           /* 3 digits */
    ASSERT_EQ(dur(&p, "method_work.open_devnull"), 4350 * SIM_NS);
    ASSERT(calib_profile_key(&p, "method_work.stat")->measured);
    ASSERT(strstr(calib_profile_key(&p, "method_work.stat")->how, "ruby_file_mtime_extra_ns 1856 ns"));
    ASSERT(strstr(calib_profile_key(&p, "method_work.open_devnull")->how, "File.write"));
    /* the gaps between the calls not timed: all of it before the first
     * call, the other parts 0, said so */
    ASSERT_EQ(dur(&p, "method_work_after.stat"), 0);
    ASSERT_EQ(dur(&p, "method_work.write_devnull"), 0);
    ASSERT_EQ(dur(&p, "method_work.close"), 0);
    ASSERT_EQ(dur(&p, "method_work_after.close"), 0);
    ASSERT(strstr(calib_profile_key(&p, "method_work.open_devnull")->how, "not timed"));
    ASSERT(strstr(calib_profile_key(&p, "method_work_after.close")->how, "not timed"));
    r.m[CALIB_RUBY_FILE_WRITE_EXTRA].measured = false;
    calib_map(&r, &h, &p);
    ASSERT(calib_profile_key(&p, "method_work.stat") && !calib_profile_key(&p, "method_work.open_devnull") &&
           !calib_profile_key(&p, "method_work_after.close"));
    set(&r, CALIB_RUBY_FILE_WRITE_EXTRA, 4352.85, 4212.93, 4639.66);
    /* timed: the extra split in the gaps' proportions, each edge less half
     * the marker loop's gap (the AMD EPYC guest, v1272, 17:36 UTC) */
    set(&r, CALIB_RUBY_FILE_MTIME_EXTRA, 914, 904, 924);
    set(&r, CALIB_RUBY_FILE_WRITE_EXTRA, 3853, 3800, 3880);
    set(&r, CALIB_RUBY_LOOP_GAP, 240, 231, 251);
    set(&r, CALIB_RUBY_MTIME_BEFORE, 541, 532, 572);
    set(&r, CALIB_RUBY_MTIME_AFTER, 551, 541, 564);
    set(&r, CALIB_RUBY_WRITE_BEFORE, 1171, 1140, 1190);
    set(&r, CALIB_RUBY_WRITE_OPEN_WRITE, 1874, 1860, 1890);
    set(&r, CALIB_RUBY_WRITE_WRITE_CLOSE, 370, 361, 380);
    set(&r, CALIB_RUBY_WRITE_AFTER, 591, 582, 601);
    calib_map(&r, &h, &p);
    /* mtime: 421 and 431 of 852 ns; write: 1051, 1874, 370, 471 of 3766 */
    ASSERT_EQ(dur(&p, "method_work.stat"), 452 * SIM_NS);
    ASSERT_EQ(dur(&p, "method_work_after.stat"), 462 * SIM_NS);
    ASSERT_EQ(dur(&p, "method_work.open_devnull"), 1080 * SIM_NS);
    ASSERT_EQ(dur(&p, "method_work.write_devnull"), 1920 * SIM_NS);
    ASSERT_EQ(dur(&p, "method_work.close"), 379 * SIM_NS);
    ASSERT_EQ(dur(&p, "method_work_after.close"), 482 * SIM_NS);
    ASSERT(strstr(calib_profile_key(&p, "method_work.write_devnull")->how, "ruby_file_write_open_write_ns 1874 ns"));
    ASSERT(strstr(calib_profile_key(&p, "method_work_after.close")->how, "less half ruby_marker_loop_ns"));
    /* a gap missing: as untimed */
    r.m[CALIB_RUBY_WRITE_AFTER].measured = false;
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "method_work.open_devnull"), 3850 * SIM_NS);
    ASSERT_EQ(dur(&p, "method_work_after.close"), 0);
    ASSERT_EQ(dur(&p, "method_work_after.stat"), 462 * SIM_NS);
    set(&r, CALIB_RUBY_WRITE_AFTER, 591, 582, 601);
    /* compute_after_idle and method_after_idle: the work after a hand-off
     * from the other CPU less on one CPU, as measured (a negative figure,
     * noise on a small one, floored at 0); not measured (no Ruby, one CPU):
     * not written, and a Ruby-only profile holds them */
    ASSERT(!calib_profile_key(&p, "compute_after_idle") && !calib_profile_key(&p, "method_after_idle.stat") &&
           !calib_profile_key(&p, "method_after_idle.open_devnull"));
    set(&r, CALIB_RUBY_CROSS_COMPUTE, 339.5, 299, 384);   /* the Intel Xeon guest, 2026-12-06 */
    set(&r, CALIB_RUBY_CROSS_MTIME, 1230, 1050, 1440);
    set(&r, CALIB_RUBY_CROSS_WRITE, 2849, 2480, 3390);
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "compute_after_idle"), 340 * SIM_NS);   /* 3 digits */
    ASSERT_EQ(dur(&p, "method_after_idle.stat"), 1230 * SIM_NS);
    ASSERT_EQ(dur(&p, "method_after_idle.open_devnull"), 2850 * SIM_NS);
    ASSERT(!calib_profile_key(&p, "method_after_idle.write_devnull"));
    ASSERT(calib_profile_key(&p, "method_after_idle.stat")->measured);
    ASSERT(strstr(calib_profile_key(&p, "method_after_idle.open_devnull")->how, "ruby_cross_write_ns 2849 ns"));
    ASSERT(calib_is_ruby_key("compute_after_idle") && calib_is_ruby_key("method_after_idle.stat"));
    set(&r, CALIB_RUBY_CROSS_COMPUTE, -12, -40, 20);
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "compute_after_idle"), 0);
    r.m[CALIB_RUBY_CROSS_COMPUTE].measured = r.m[CALIB_RUBY_CROSS_MTIME].measured = false;
    r.m[CALIB_RUBY_CROSS_WRITE].measured = false;
    calib_map(&r, &h, &p);
    ASSERT(!calib_profile_key(&p, "compute_after_idle") && !calib_profile_key(&p, "method_after_idle.open_devnull"));
    /* gc_free_body: the sweep's extra per dead env or Proc, as measured;
     * not measured: 0 (the schema's default), said so */
    set(&r, CALIB_RUBY_SWEEP_BODY, 22.3582, 20.6605, 22.5042);  /* the v1147 guest, 14:59 UTC */
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "gc_free_body"), 22400);
    ASSERT_STREQ(calib_profile_key(&p, "gc_free_body")->how, "ruby_sweep_body_ns 22.36 ns");
    r.m[CALIB_RUBY_SWEEP_BODY].measured = false;
    calib_map(&r, &h, &p);
    ASSERT(!calib_profile_key(&p, "gc_free_body")->measured && dur(&p, "gc_free_body") == 0);
    set(&r, CALIB_RUBY_SWEEP_BODY, 22.3582, 20.6605, 22.5042);
    /* the sweep of a dead plain object and a minor GC's marking, as
     * measured (3 digits; a difference below 0 on noise: none); not
     * measured: the schema's defaults, said so */
    set(&r, CALIB_RUBY_SWEEP_SLOT, 4.613, 3.84, 5.44);     /* the v1147 guest, 16:10 UTC (prototype) */
    set(&r, CALIB_RUBY_MARK_BASE, 58677.2, 55342, 60790);
    set(&r, CALIB_RUBY_MARK_OBJECT, -0.4, -1.2, 20.1);
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "gc_sweep_per_slot"), 4610);
    ASSERT_EQ(dur(&p, "gc_mark_base"), 58700 * SIM_NS);
    ASSERT_EQ(dur(&p, "gc_mark_per_object"), 0);
    ASSERT_STREQ(calib_profile_key(&p, "gc_mark_base")->how, "ruby_mark_base_ns 5.868e+04 ns");
    ASSERT(calib_profile_key(&p, "gc_mark_per_object")->measured);
    r.m[CALIB_RUBY_SWEEP_SLOT].measured = false;
    r.m[CALIB_RUBY_MARK_BASE].measured = false;
    calib_map(&r, &h, &p);
    ASSERT(!calib_profile_key(&p, "gc_sweep_per_slot")->measured && dur(&p, "gc_sweep_per_slot") == 16 * SIM_NS);
    ASSERT(!calib_profile_key(&p, "gc_mark_base")->measured && dur(&p, "gc_mark_base") == 43000 * SIM_NS);
    set(&r, CALIB_RUBY_MARK_OBJECT, 19.53, 18.6, 20.8);
    set(&r, CALIB_RUBY_MARK_THREAD, 1292.4, 1210, 1820);  /* the v1147 guest, 17:12 UTC */
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "gc_mark_per_object"), 19500);
    ASSERT_EQ(dur(&p, "gc_mark_per_thread"), 1290 * SIM_NS);
    ASSERT_STREQ(calib_profile_key(&p, "gc_mark_per_thread")->how, "ruby_mark_thread_ns 1292 ns");
    /* alloc_object: an Object.new's own CPU; not measured: 0 */
    ASSERT(!calib_profile_key(&p, "alloc_object")->measured && dur(&p, "alloc_object") == 0);
    set(&r, CALIB_RUBY_ALLOC, 84.37, 80.2, 91.5);
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "alloc_object"), 84400);
    /* env_escape_work: a call of the Ruby backend's escape method; not
     * measured: 0 (the AMD EPYC guest, 2026-12-07: 89-91 ns) */
    ASSERT(!calib_profile_key(&p, "env_escape_work")->measured && dur(&p, "env_escape_work") == 0);
    set(&r, CALIB_RUBY_ESCAPE, 89.64, 88.9, 90.8);
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "env_escape_work"), 89600);
    ASSERT(calib_is_ruby_key("env_escape_work"));
    /* gc_cold: only with all four gaps; (1 ms, 0) and each longer
     * gap's rise over the 1 ms one, floored at 0 (the v1147 guest, 19:44) */
    ASSERT(!calib_profile_key(&p, "gc_cold"));
    set(&r, CALIB_RUBY_GC_GAP_1MS, 2008, 1600, 2470);
    set(&r, CALIB_RUBY_GC_GAP_3MS, 1900, 1890, 2770);
    set(&r, CALIB_RUBY_GC_GAP_10MS, 3726, 2940, 4220);
    calib_map(&r, &h, &p);
    ASSERT(!calib_profile_key(&p, "gc_cold"));
    set(&r, CALIB_RUBY_GC_GAP_30MS, 4198, 3190, 4490);
    calib_map(&r, &h, &p);
    const struct calib_key *cold = calib_profile_key(&p, "gc_cold");
    ASSERT(cold && cold->measured && cold->curve.n == 4);
    ASSERT(cold->curve.x[0] == SIM_MS && cold->curve.y[0] == 0);
    ASSERT(cold->curve.x[1] == 3 * SIM_MS && cold->curve.y[1] == 0);  /* below the 1 ms level: 0 */
    ASSERT(cold->curve.x[3] == 30 * SIM_MS && cold->curve.y[3] == 2190 * SIM_NS);
    ASSERT(strstr(cold->how, "ruby_gc_gap_3ms_ns..ruby_gc_gap_30ms_ns minus the first, 2008 ns"));
    char buf[64];
    calib_key_value(calib_profile_key(&p, "wake_ipi"), buf, sizeof buf);
    ASSERT_STREQ(buf, "10.6us");  /* no wake after 10 us idle timed: after a pause */
    /* the AMD EPYC guest's calibrate of 11:12 UTC (2026-12-02): the waker's
     * CPU in FUTEX_WAKE 7.22 us onto a CPU idle 10 us, 34 us after a pause */
    set(&r, CALIB_WAKE_IPI_AFTER_IDLE_10US, 7224, 7082, 7496);
    calib_map(&r, &h, &p);
    calib_key_value(calib_profile_key(&p, "wake_ipi"), buf, sizeof buf);
    ASSERT_STREQ(buf, "6.27us");  /* 7224 - futex_wake 950 */
    ASSERT(strstr(calib_profile_key(&p, "wake_ipi")->how, "wake_ipi_after_idle_10us_ns"));

    /* one CPU: the cross-CPU measurements are missing -> defaults, said so;
     * CFS: the measured run length is the slice; no config: the measured tick */
    r.m[CALIB_HANDOFF_CROSS].measured = false;
    snprintf(r.m[CALIB_HANDOFF_CROSS].note, sizeof r.m[0].note, "needs two CPUs");
    r.m[CALIB_FUTEX_WAKE_REMOTE].measured = false;
    for (int i = 0; i < CALIB_IDLE_LEVELS; i++) {
        r.m[CALIB_WAKE_AFTER_IDLE_10US + i].measured = false;
        r.m[CALIB_WAKE_IPI_AFTER_IDLE_10US + i].measured = false;
    }
    r.m[CALIB_WAKE_PACK_SHORT].measured = false;
    snprintf(r.m[CALIB_WAKE_PACK_SHORT].note, sizeof r.m[0].note, "needs two CPUs");
    r.m[CALIB_BUSY_LOOP_PAIR].measured = false;
    r.m[CALIB_LINE_FETCH].measured = false;
    snprintf(r.m[CALIB_LINE_FETCH].note, sizeof r.m[0].note, "needs two CPUs");
    r.m[CALIB_RUBY_INSN].measured = false;
    snprintf(r.m[CALIB_RUBY_INSN].note, sizeof r.m[0].note, "--no-ruby");
    snprintf(r.m[CALIB_BUSY_LOOP_PAIR].note, sizeof r.m[0].note, "needs two CPUs");
    h.kminor = 1;
    h.config_hz = 0;
    set(&r, CALIB_TICK_PERIOD, 3.3331e6, 3.33e6, 3.34e6);   /* HZ 300 */
    calib_map(&r, &h, &p);
    ASSERT_EQ(dur(&p, "wake_idle_core"), 25 * SIM_US);            /* the schema default */
    ASSERT(!calib_profile_key(&p, "wake_idle_core")->measured);
    ASSERT(strstr(calib_profile_key(&p, "wake_idle_core")->how, "needs two CPUs"));
    ASSERT_EQ(dur(&p, "wake_ipi"), 0);
    ASSERT_EQ(dur(&p, "lock_line"), 0);  /* no line moves: not modelled, said so */
    ASSERT(!calib_profile_key(&p, "lock_line")->measured);
    ASSERT(strstr(calib_profile_key(&p, "lock_line")->how, "needs two CPUs"));
    r.m[CALIB_HANDOFF_SAME].measured = false;  /* -> 0: every local wake costs futex_wake */
    r.m[CALIB_FUTEX_WAKE_NONE].measured = false;  /* -> 0: not modelled */
    calib_map(&r, &h, &p);
    ASSERT(dur(&p, "futex_wake_none") == 0 && !calib_profile_key(&p, "futex_wake_none")->measured);
    ASSERT(dur(&p, "futex_wake_chain") == 0 && !calib_profile_key(&p, "futex_wake_chain")->measured);
    ASSERT(strstr(calib_profile_key(&p, "futex_wake_chain")->how, "handoff_same_cpu_ns"));
    ASSERT(calib_profile_key(&p, "wake_pack")->num == 0 && !calib_profile_key(&p, "wake_pack")->measured);
    ASSERT(strstr(calib_profile_key(&p, "wake_pack")->how, "needs two CPUs"));
    ASSERT(dur(&p, "wake_pack_sleep") == 0 && !calib_profile_key(&p, "wake_pack_sleep")->measured);
    ASSERT_STREQ(calib_profile_key(&p, "os_scheduler")->str, "cfs");
    ASSERT_EQ(dur(&p, "os_timeslice"), 3970 * SIM_US);
    ASSERT_EQ(dur(&p, "os_tick"), 3330 * SIM_US);
    ASSERT(calib_profile_key(&p, "corun_slowdown")->num == 1 && !calib_profile_key(&p, "corun_slowdown")->measured);
    ASSERT(strstr(calib_profile_key(&p, "corun_slowdown")->how, "needs two CPUs"));
    ASSERT_EQ(dur(&p, "insn_time"), 7 * SIM_NS);                  /* the schema default */
    ASSERT(!calib_profile_key(&p, "insn_time")->measured);
    ASSERT(strstr(calib_profile_key(&p, "insn_time")->how, "--no-ruby"));
    /* a pair faster than one loop alone (noise) is no speed-up */
    set(&r, CALIB_BUSY_LOOP_PAIR, 0.95, 0.9, 1.0);
    calib_map(&r, &h, &p);
    ASSERT(calib_profile_key(&p, "corun_slowdown")->num == 1);
}

/* The hidden steal's summary: the rate per second of kept time, the share
 * of it, and the gaps' quantiles at the middles of equal shares as the
 * equally likely lengths; and the keys calib_map writes from it. */
/* Speed levels (calib_speed.c): windows of 1.0 and 1.5 ms in runs, on two
 * CPUs; a lone window of the other kind takes its neighbours'. */
static void test_speed_summarise(void)
{
    double w[200];
    int cpu[200];
    for (int i = 0; i < 200; i++) {
        cpu[i] = i < 100 ? 0 : 1;
        int k = i % 100;  /* each CPU: 30 fast, 20 slow, 30 fast, 20 slow */
        w[i] = (k >= 30 && k < 50) || k >= 80 ? 1.5e6 : 1.0e6;
    }
    w[10] = 1.5e6;  /* a lone slow window among fast ones */
    struct calib_speed sp;
    ASSERT_EQ(calib_speed_summarise(w, cpu, 200, &sp), GV_OK);
    ASSERT(sp.measured);
    ASSERT_EQ(sp.nlev, 2);
    ASSERT(fabs(sp.factor[0] - 1.0) < 1e-9);   /* the majority's median is every window's */
    ASSERT(fabs(sp.factor[1] - 1.5) < 1e-9);
    ASSERT(fabs(sp.share[0] - 0.6) < 1e-9);    /* the lone window counted fast */
    /* runs: fast 30 ms twice per CPU (the lone window inside one), slow 20 x 1.5 ms */
    ASSERT(fabs(sp.dwell_ns[0] - 30.125e6) < 1);  /* (the lone window is 1.5 ms long) */
    ASSERT(fabs(sp.dwell_ns[1] - 30e6) < 1);
    ASSERT(fabs(sp.slow_cpu[0] - 0.4) < 1e-9 && fabs(sp.slow_cpu[1] - 0.4) < 1e-9);
    ASSERT(!calib_speed_per_cpu(&sp));
    /* a window of 20 sub-windows of 50 calls: 1,000 and 1,500 ns a stat(2) */
    calib_speed_set_calls(&sp, 50);
    ASSERT(fabs(sp.call_ns[0] - 1000) < 1e-6 && fabs(sp.call_ns[1] - 1500) < 1e-6);
    /* the fast level is 1, the slow one in proportion, whatever the stat */
    double f[2];
    calib_speed_anchor(&sp, f);
    ASSERT(fabs(f[0] - 1) < 1e-9 && fabs(f[1] - 1.5) < 1e-9);
    {
        struct calib_speed one = sp;
        one.nlev = 1;
        calib_speed_anchor(&one, f);  /* one level: no factors */
        ASSERT(f[0] == 1 && f[1] == 1);
    }
    /* the windows split about evenly: every window's median between the
     * levels, the stat cost at the fast one (the AMD EPYC guest of
     * 2026-12-05: x0.856 and x1.068 against the median) */
    double w3[200];
    for (int i = 0; i < 200; i++) w3[i] = (i / 10) % 2 ? 1.25e6 : 1.0e6;
    struct calib_speed sp3;
    ASSERT_EQ(calib_speed_summarise(w3, cpu, 200, &sp3), GV_OK);
    ASSERT_EQ(sp3.nlev, 2);
    /* 100 windows of each: against every window's median, neither level is 1 */
    ASSERT(fabs(sp3.factor[0] - 1.0 / 1.125) < 1e-9 && fabs(sp3.factor[1] - 1.25 / 1.125) < 1e-9);
    calib_speed_set_calls(&sp3, 50);
    {
        struct calib_result *r3 = calloc(1, sizeof *r3);
        struct calib_profile *p3 = malloc(sizeof *p3);
        ASSERT(r3 && p3);
        struct calib_host h3 = { 0 };
        r3->speed = sp3;
        /* (the Xeon guest of 2026-12-06: the stat nearer the slow level,
         * which made the fast one x0.724 under session 35's rule) */
        r3->m[CALIB_SYSCALL_STAT] = (struct calib_stat){ .measured = true, .median = 1200 };
        calib_map(r3, &h3, p3);
        const struct calib_key *k3 = calib_profile_key(p3, "speed_levels");
        char b3[128];
        ASSERT(k3 != NULL);
        calib_key_value(k3, b3, sizeof b3);
        ASSERT_STREQ(b3, "[1, 1.25]");
        ASSERT(strstr(k3->how, "the fast one is the machine the profile's costs describe (x1)"));
        ASSERT(strstr(k3->how, "of 1000 and 1250 ns a call: the fast one"));
        ASSERT(strstr(k3->how, "slow one in proportion (syscall_stat_ns 1200 ns)"));
        /* without the stat (--only speed): the same levels, no stat said */
        r3->m[CALIB_SYSCALL_STAT] = (struct calib_stat){ 0 };
        calib_map(r3, &h3, p3);
        k3 = calib_profile_key(p3, "speed_levels");
        ASSERT(k3 != NULL);
        calib_key_value(k3, b3, sizeof b3);
        ASSERT_STREQ(b3, "[1, 1.25]");
        ASSERT(strstr(k3->how, "of 1000 and 1250 ns a call: the fast one"));
        ASSERT(!strstr(k3->how, "syscall_stat_ns"));
        free(r3);
        free(p3);
    }
    /* CPU 1 slow through all its windows (timed after CPU 0's): two
     * "levels" as long as the CPUs' blocks, said so in the key */
    double w2[200];
    for (int i = 0; i < 200; i++) w2[i] = i < 100 ? 1.0e6 : 1.3e6;
    struct calib_speed sp2;
    ASSERT_EQ(calib_speed_summarise(w2, cpu, 200, &sp2), GV_OK);
    ASSERT_EQ(sp2.nlev, 2);
    ASSERT(sp2.slow_cpu[0] == 0 && sp2.slow_cpu[1] == 1 && calib_speed_per_cpu(&sp2));
    struct calib_result *r2 = calloc(1, sizeof *r2);
    struct calib_profile *p2 = malloc(sizeof *p2);
    ASSERT(r2 && p2);
    struct calib_host h2 = { 0 };
    r2->speed = sp2;
    calib_map(r2, &h2, p2);
    const struct calib_key *k2 = calib_profile_key(p2, "speed_levels");
    ASSERT(k2 && strstr(k2->how, "the slow windows are one CPU's (0% of CPU 0's, 100% of CPU 1's)"));
    free(r2);
    free(p2);
    /* one speed: within 10% between the 10th and 90th percentiles */
    for (int i = 0; i < 200; i++) w[i] = 1.0e6 + (i % 7) * 1e4;
    ASSERT_EQ(calib_speed_summarise(w, cpu, 200, &sp), GV_OK);
    ASSERT_EQ(sp.nlev, 1);
    ASSERT_EQ(calib_speed_summarise(w, cpu, 5, &sp), GV_EINVAL);
    /* the keys: two levels only */
    struct calib_result *r = calloc(1, sizeof *r);
    struct calib_profile *pr = malloc(sizeof *pr);
    ASSERT(r && pr);
    struct calib_host h = { 0 };
    r->speed = (struct calib_speed){ .measured = true, .windows = 200, .window_ns = 1e6, .nlev = 2,
                                     .factor = { 1.0, 1.304 }, .dwell_ns = { 26.1e6, 13.5e6 }, .share = { 0.7, 0.3 } };
    calib_map(r, &h, pr);
    const struct calib_key *k = calib_profile_key(pr, "speed_levels");
    ASSERT(k != NULL);
    char buf[128];
    calib_key_value(k, buf, sizeof buf);
    ASSERT_STREQ(buf, "[1, 1.304]");
    k = calib_profile_key(pr, "speed_dwell");
    ASSERT(k != NULL);
    calib_key_value(k, buf, sizeof buf);
    ASSERT_STREQ(buf, "[\"26.1ms\", \"13.5ms\"]");
    ASSERT(calib_profile_key(pr, "speed_wake_share") == NULL);  /* the wakes not measured */
    /* the wake's share of the levels: 100 windows at stat 2000 / wake 6000,
     * 50 at 2500 / 6750 (x1.25, x1.125): share 0.5 */
    double wk[150], sn[150];
    for (int i = 0; i < 150; i++) {
        bool slow = i % 3 == 2;
        sn[i] = slow ? 2500 + i % 7 : 2000 + i % 5;
        wk[i] = slow ? 6750 : 6000;
    }
    ASSERT_EQ(calib_speed_wake_summarise(wk, sn, 150, &r->speed), GV_OK);
    ASSERT(r->speed.wake_measured);
    ASSERT_EQ(r->speed.wake_slow, 50);
    ASSERT(fabs(r->speed.wake_ratio - 1.125) < 1e-9);
    ASSERT(fabs(r->speed.wake_share - 0.5) < 0.01);
    calib_map(r, &h, pr);
    k = calib_profile_key(pr, "speed_wake_share");
    ASSERT(k != NULL && k->measured);
    calib_key_value(k, buf, sizeof buf);
    ASSERT_STREQ(buf, "0.5");
    ASSERT(calib_is_speed_key("speed_wake_share"));
    /* a wake slower than the stat: the share kept within 2; one level in
     * the stats: not measured; fewer than 10 windows: an error */
    for (int i = 0; i < 150; i++) wk[i] = i % 3 == 2 ? 20000 : 6000;
    ASSERT_EQ(calib_speed_wake_summarise(wk, sn, 150, &r->speed), GV_OK);
    ASSERT(r->speed.wake_share == 2);
    for (int i = 0; i < 150; i++) sn[i] = 2000 + 300 * (i % 8) / 7;  /* a spread: the halves 1.07x apart */
    ASSERT_EQ(calib_speed_wake_summarise(wk, sn, 150, &r->speed), GV_OK);
    ASSERT(r->speed.wake_slow > 0 && r->speed.stat_ratio < 1.1 && !r->speed.wake_measured);
    for (int i = 0; i < 150; i++) sn[i] = 2000 + i % 5;
    ASSERT_EQ(calib_speed_wake_summarise(wk, sn, 150, &r->speed), GV_OK);
    ASSERT(!r->speed.wake_measured);
    calib_map(r, &h, pr);
    ASSERT(calib_profile_key(pr, "speed_wake_share") == NULL);
    ASSERT_EQ(calib_speed_wake_summarise(wk, sn, 9, &r->speed), GV_EINVAL);
    r->speed.nlev = 1;
    calib_map(r, &h, pr);
    ASSERT(calib_profile_key(pr, "speed_levels") == NULL);
    free(r);
    free(pr);
}

/* Nothing measured, no host: r and h zeroed, and p what calib_map makes of
 * them (the keys of a measurement are absent there). */
static void map_nothing(struct calib_result *r, struct calib_host *h, struct calib_profile *p)
{
    memset(r, 0, sizeof *r);
    memset(h, 0, sizeof *h);
    calib_map(r, h, p);
}

static void test_steal_summarise(void)
{
    double g[32];
    for (int i = 0; i < 32; i++) g[i] = (double)(32 - i) * 1000;  /* 32..1 us, unsorted */
    struct calib_steal s;
    ASSERT_EQ(calib_steal_summarise(g, 32, 0.5e9, &s), GV_OK);
    ASSERT(s.gaps == 32 && fabs(s.rate - 64) < 1e-9);              /* 32 in 0.5 s */
    ASSERT(fabs(s.share - 528000 / 0.5e9) < 1e-12);                /* 1+..+32 us */
    ASSERT_EQ(s.nlen, CALIB_STEAL_LENS);
    ASSERT(fabs(s.len_ns[0] - 1968.75) < 1e-9);   /* q(1/32) of 1..32 us: at 31/32 of the first step */
    ASSERT(fabs(s.len_ns[15] - 31031.25) < 1e-9); /* q(31/32): 30 + 1/32 steps in */
    for (int i = 1; i < s.nlen; i++) ASSERT(s.len_ns[i] > s.len_ns[i - 1]);
    ASSERT(g[0] == 32000);                       /* the input is not sorted in place */
    double few[] = { 40000, 20000, 60000 };
    ASSERT_EQ(calib_steal_summarise(few, 3, 1e9, &s), GV_OK);
    ASSERT(s.nlen == 3 && s.len_ns[0] == 20000 && s.len_ns[1] == 40000 && s.len_ns[2] == 60000);
    ASSERT_EQ(calib_steal_summarise(NULL, 0, 1e9, &s), GV_OK);
    ASSERT(s.rate == 0 && s.nlen == 0 && s.share == 0);
    ASSERT_EQ(calib_steal_summarise(few, 3, 0, &s), GV_EINVAL);

    /* the keys: none unmeasured; a rate and lengths; a rate of 0 alone */
    struct calib_result r;
    struct calib_host h;
    struct calib_profile p;
    map_nothing(&r, &h, &p);
    ASSERT(!calib_profile_key(&p, "hidden_steal_rate") && !calib_profile_key(&p, "hidden_steal_len"));
    double gaps[] = { 41000, 52000, 39000, 120000 };
    ASSERT_EQ(calib_steal_summarise(gaps, 4, 2e6, &r.steal), GV_OK);   /* 4 in 2 ms: 2000/s */
    r.steal.measured = true;
    r.steal.cpus = 2;
    calib_map(&r, &h, &p);
    const struct calib_key *k = calib_profile_key(&p, "hidden_steal_rate");
    ASSERT(k && k->measured && k->num == 2000);
    k = calib_profile_key(&p, "hidden_steal_len");
    ASSERT(k && k->kind == CK_DURS && k->curve.n == 4);
    ASSERT(k->curve.y[0] == 39 * SIM_US && k->curve.y[3] == 120 * SIM_US);
    char buf[256];
    calib_key_value(k, buf, sizeof buf);
    ASSERT(!strcmp(buf, "[\"39us\", \"41us\", \"52us\", \"120us\"]"));
    ASSERT_EQ(calib_steal_summarise(NULL, 0, 1e9, &r.steal), GV_OK);
    r.steal.measured = true;
    calib_map(&r, &h, &p);
    ASSERT(calib_profile_key(&p, "hidden_steal_rate")->num == 0 && !calib_profile_key(&p, "hidden_steal_len"));
}

/* A wake onto a CPU waking up: its costs' quantiles at (i + 1/2) / 8 (none
 * is GV_EINVAL); the key wake_waking written from them when measured,
 * absent otherwise. */
static void test_waking(void)
{
    double v[16];
    for (int i = 0; i < 16; i++) v[i] = 1000 + 200 * (15 - i);  /* 1.0-4.0 us, unsorted */
    struct calib_waking w;
    ASSERT_EQ(calib_waking_summarise(v, 16, &w), GV_OK);
    ASSERT(w.measured && w.n == CALIB_WAKING_LENS);
    ASSERT(fabs(w.cost_ns[0] - 1187.5) < 1e-9);   /* q(1/16) of 16: 15/16 of a step in */
    ASSERT(fabs(w.cost_ns[7] - 3812.5) < 1e-9);   /* q(15/16) */
    for (int i = 1; i < w.n; i++) ASSERT(w.cost_ns[i] > w.cost_ns[i - 1]);
    ASSERT(v[0] == 4000);                         /* the input is not sorted in place */
    ASSERT_EQ(calib_waking_summarise(v, 0, &w), GV_EINVAL);
    ASSERT(!w.measured);

    struct calib_result r;
    struct calib_host h;
    struct calib_profile p;
    map_nothing(&r, &h, &p);
    ASSERT(!calib_profile_key(&p, "wake_waking"));
    ASSERT_EQ(calib_waking_summarise(v, 16, &r.waking), GV_OK);
    r.m[CALIB_WAKE_WAKING].samples = 16;
    r.m[CALIB_WAKE_WAKING].median = 2500;
    calib_map(&r, &h, &p);
    const struct calib_key *k = calib_profile_key(&p, "wake_waking");
    ASSERT(k && k->kind == CK_DURS && k->measured && k->curve.n == CALIB_WAKING_LENS);
    char buf[256];
    calib_key_value(k, buf, sizeof buf);
    ASSERT(!strncmp(buf, "[\"1.19us\", ", 11) && strstr(buf, ", \"3.81us\"]"));
    ASSERT(strstr(k->how, "wake_waking_ns") && strstr(k->how, "16 wakes"));
}

/* A wake before the sleeper's vCPU halted (calib_prehalt_pass): the
 * share of wakes without the IPI by delay (1..6 us) falls from 0.9 to 0.3
 * between 3 and 4 us: the window 3 + (0.9 - 0.5) / (0.9 - 0.3) = 3.67 us,
 * the share the mean below it, the return the median of the wakes at 1-3
 * us only; below one half at every delay: no window; a dip below it at 1
 * us does not end the window; above it throughout: the grid's end.  And
 * the keys: written only with a window above 0. */
static void test_prehalt(void)
{
    double share[6] = { 0.8, 1.0, 0.9, 0.3, 0.1, 0 };
    double ret[5] = { 17000, 16000, 15000, 9000, 30000 };
    int at[5] = { 0, 1, 2, 3, 4 };
    double w, sh, r;
    calib_prehalt_pass(share, 6, ret, at, 5, &w, &sh, &r);
    ASSERT(fabs(w - 3666.6666667) < 1e-3);
    ASSERT(fabs(sh - 0.9) < 1e-9);
    ASSERT(fabs(r - 16000) < 1e-9);
    double low[3] = { 0.4, 0.2, 0.1 };
    calib_prehalt_pass(low, 3, ret, at, 3, &w, &sh, &r);
    ASSERT(w == 0 && sh == 0 && r == -1);
    double dip[4] = { 0.3, 0.9, 0.7, 0.2 };  /* a dip at 1 us: the window after 3 us */
    calib_prehalt_pass(dip, 4, ret, at, 4, &w, &sh, &r);
    ASSERT(fabs(w - 3400) < 1e-6 && fabs(sh - 1.9 / 3) < 1e-9 && r == 16000);
    double high[3] = { 0.9, 0.9, 0.8 };
    calib_prehalt_pass(high, 3, ret, at, 3, &w, &sh, &r);
    ASSERT(w == 3000 && fabs(sh - 2.6 / 3) < 1e-9 && r == 16000);
    calib_prehalt_pass(high, 3, ret, at, 0, &w, &sh, &r);
    ASSERT(w == 3000 && r == -1);  /* no return without such a wake */

    struct calib_result res;
    struct calib_host h;
    struct calib_profile p;
    map_nothing(&res, &h, &p);
    ASSERT(!calib_profile_key(&p, "wake_prehalt_window"));
    set(&res, CALIB_WAKE_PREHALT_WINDOW, 0, 0, 3000);  /* no window in most passes */
    set(&res, CALIB_WAKE_PREHALT_SHARE, 0, 0, 0.8);
    set(&res, CALIB_WAKE_PREHALT_RETURN, 16000, 16000, 16000);
    calib_map(&res, &h, &p);
    ASSERT(!calib_profile_key(&p, "wake_prehalt_window") && !calib_profile_key(&p, "wake_prehalt_return"));
    set(&res, CALIB_WAKE_PREHALT_WINDOW, 6700, 6500, 6900);
    set(&res, CALIB_WAKE_PREHALT_SHARE, 0.8666, 0.8, 0.9);
    calib_map(&res, &h, &p);
    const struct calib_key *kw = calib_profile_key(&p, "wake_prehalt_window"),
                           *ks = calib_profile_key(&p, "wake_prehalt_share"),
                           *kr = calib_profile_key(&p, "wake_prehalt_return");
    ASSERT(kw && ks && kr && kw->measured && ks->measured && kr->measured);
    char buf[64];
    calib_key_value(kw, buf, sizeof buf);
    ASSERT_STREQ(buf, "6.7us");
    ASSERT(fabs(ks->num - 0.87) < 1e-9);
    calib_key_value(kr, buf, sizeof buf);
    ASSERT_STREQ(buf, "16us");
}

/* The FUTEX_WAIT window's quantiles from the shares of waits that
 * returned at once, by the delay of the other CPU's store: a share that
 * falls from 1 to 0 over two steps puts the median between them; a noisy
 * rise further on does not pull a quantile back (the shares are made
 * non-increasing); a grid that does not hold the median is GV_ERUN.  And
 * the keys: a measured race writes both lists, an unmeasured one neither. */
static void test_window_quantiles(void)
{
    /* delays 0, 100, ..., 700 ns; shares 1, 1, 1, 3/4, 1/4, 0, 1/8 (noise), 0 */
    int once[8] = { 8, 8, 8, 6, 2, 0, 1, 0 }, trials[8] = { 8, 8, 8, 8, 8, 8, 8, 8 };
    double q[4];
    ASSERT_EQ(calib_window_quantiles(once, trials, 8, 100, 1, q), GV_OK);
    ASSERT(fabs(q[0] - 350) < 1e-9);  /* 1/2 is crossed half way from 300 (3/4) to 400 (1/4) */
    ASSERT_EQ(calib_window_quantiles(once, trials, 8, 100, 2, q), GV_OK);
    ASSERT(fabs(q[0] - 300) < 1e-9);  /* 1/4: the window outlasts it with chance 3/4 */
    ASSERT(fabs(q[1] - 400) < 1e-9);  /* 3/4: the share at 400 is 1/4 */
    ASSERT_EQ(calib_window_quantiles(once, trials, 8, 100, 4, q), GV_OK);
    for (int i = 1; i < 4; i++) ASSERT(q[i] > q[i - 1]);
    /* 7/8: made non-increasing, the share at 500 is 1/8 (the noise at 600
     * lifts it), so the window outlasts 500 with chance 1/8: 500, not 450 */
    ASSERT(fabs(q[3] - 500) < 1e-9);
    int late[3] = { 8, 8, 8 }, early[3] = { 2, 0, 0 }, t3[3] = { 8, 8, 8 };
    ASSERT_EQ(calib_window_quantiles(late, t3, 3, 100, 1, q), GV_ERUN);
    ASSERT_EQ(calib_window_quantiles(early, t3, 3, 100, 1, q), GV_ERUN);
    ASSERT_EQ(calib_window_quantiles(once, trials, 1, 100, 1, q), GV_EINVAL);
    ASSERT_EQ(calib_window_quantiles(once, trials, 8, 0, 1, q), GV_EINVAL);
    /* the section's: taken over the peak (here 1/2, a B first half the
     * time), the shares before it lifted to it: the median is where the
     * share crosses 1/4 */
    int held[6] = { 0, 4, 4, 2, 0, 0 }, t6[6] = { 8, 8, 8, 8, 8, 8 };
    ASSERT_EQ(calib_section_quantiles(held, t6, 6, 100, 1, q), GV_OK);
    ASSERT(fabs(q[0] - 300) < 1e-9);
    ASSERT_EQ(calib_window_quantiles(held, t6, 6, 100, 1, q), GV_ERUN);  /* (never above 1/2) */
    int never[3] = { 0, 0, 0 }, beyond[3] = { 4, 4, 4 };
    ASSERT_EQ(calib_section_quantiles(never, t3, 3, 100, 1, q), GV_ERUN);
    ASSERT_EQ(calib_section_quantiles(beyond, t3, 3, 100, 1, q), GV_ERUN);
    ASSERT_EQ(calib_section_quantiles(held, t6, 1, 100, 1, q), GV_EINVAL);

    struct calib_result r;
    struct calib_host h;
    struct calib_profile p;
    map_nothing(&r, &h, &p);
    ASSERT(!calib_profile_key(&p, "futex_wait_window") && !calib_profile_key(&p, "futex_wake_race"));
    r.race.measured = true;
    r.race.n = CALIB_RACE_LENS;
    for (int i = 0; i < CALIB_RACE_LENS; i++) {
        r.race.window_ns[i] = 250 + 20 * i;
        r.race.wake_ns[i] = 300 + 30 * i;
    }
    calib_map(&r, &h, &p);
    const struct calib_key *k = calib_profile_key(&p, "futex_wait_window");
    ASSERT(k && k->kind == CK_DURS && k->measured && k->curve.n == CALIB_RACE_LENS);
    ASSERT(k->curve.y[0] == 250 * SIM_NS && k->curve.y[7] == 390 * SIM_NS);
    k = calib_profile_key(&p, "futex_wake_race");
    ASSERT(k && k->kind == CK_DURS && k->curve.n == CALIB_RACE_LENS);
    ASSERT(k->curve.y[0] == 300 * SIM_NS && k->curve.y[7] == 510 * SIM_NS);
    /* the condvar waiter's section: written only when measured */
    ASSERT(!calib_profile_key(&p, "cond_wait_section"));
    r.race.section_measured = true;
    for (int i = 0; i < CALIB_RACE_LENS; i++) r.race.section_ns[i] = 220 + 10 * i;
    calib_map(&r, &h, &p);
    k = calib_profile_key(&p, "cond_wait_section");
    ASSERT(k && k->kind == CK_DURS && k->measured && k->curve.n == CALIB_RACE_LENS);
    ASSERT(k->curve.y[0] == 220 * SIM_NS && k->curve.y[7] == 290 * SIM_NS);
    ASSERT_EQ(calib_list_source("cond_wait_section"), CALIB_COND_SECTION);
}

/* The lists that are one measurement's quantiles (calib_list_source):
 * with every list measured, each list key calib_map writes but
 * speed_dwell (a mean of runs) names one, whose name its derivation
 * gives; and such a list scaled (validate --sensitivity's move) is
 * rounded to 3 digits as calibrate rounds. */
static void test_list_sources(void)
{
    struct calib_result r;
    struct calib_host h;
    struct calib_profile p;
    map_nothing(&r, &h, &p);
    r.race.measured = true;
    r.race.n = CALIB_RACE_LENS;
    for (int i = 0; i < CALIB_RACE_LENS; i++)
        r.race.window_ns[i] = r.race.wake_ns[i] = r.race.section_ns[i] = 300 + 10 * i;
    r.race.section_measured = true;
    double v[16];
    for (int i = 0; i < 16; i++) v[i] = 1000 + 100 * i;
    ASSERT_EQ(calib_waking_summarise(v, 16, &r.waking), GV_OK);
    ASSERT_EQ(calib_steal_summarise(v, 16, 1e9, &r.steal), GV_OK);
    r.steal.measured = true;
    r.speed = (struct calib_speed){ .measured = true, .windows = 100, .window_ns = 1e6, .nlev = 2,
                                    .factor = { 1, 1.5 }, .dwell_ns = { 5e7, 1e8 }, .share = { 0.5, 0.5 } };
    calib_map(&r, &h, &p);
    int lists = 0, sourced = 0;
    for (int i = 0; i < p.n; i++) {
        const struct calib_key *k = &p.k[i];
        if (k->kind != CK_DURS) continue;
        lists++;
        int id = calib_list_source(k->name);
        if (id < 0) {
            ASSERT_STREQ(k->name, "speed_dwell");
            continue;
        }
        sourced++;
        ASSERT(strstr(k->how, calib_describe((enum calib_id)id)->name));
    }
    ASSERT_EQ(lists, 6);
    ASSERT_EQ(sourced, 5);
    ASSERT_EQ(calib_list_source("futex_wake"), -1);

    sim_time y[] = { 300 * SIM_NS, 1234 * SIM_NS, 99999 * SIM_NS };
    struct calib_key k;
    char buf[128];
    ASSERT(calib_list_scaled("futex_wait_window", y, 3, 0.75, &k));
    ASSERT(k.kind == CK_DURS && k.measured && !strcmp(k.name, "futex_wait_window"));
    calib_key_value(&k, buf, sizeof buf);
    ASSERT_STREQ(buf, "[\"225ns\", \"926ns\", \"75us\"]");
    ASSERT(!calib_list_scaled("speed_dwell", y, 3, 1, &k));
    ASSERT(!calib_list_scaled("wake_waking", y, 0, 1, &k));
    ASSERT(!calib_list_scaled("wake_waking", y, GV_CURVE_MAX + 1, 1, &k));
}

/* wake_pack_util: the measured load limit on a packing machine; no key
 * where nothing packs or nothing was measured (no limit). */
static void test_pack_util_key(void)
{
    struct calib_result r;
    struct calib_host h;
    struct calib_profile p;
    memset(&r, 0, sizeof r);
    memset(&h, 0, sizeof h);
    set(&r, CALIB_WAKE_PACK_SHORT, 1, 1, 1);
    calib_map(&r, &h, &p);
    ASSERT(!calib_profile_key(&p, "wake_pack_util"));
    set(&r, CALIB_WAKE_PACK_UTIL, 0.725, 0.7, 0.75);
    calib_map(&r, &h, &p);
    const struct calib_key *k = calib_profile_key(&p, "wake_pack_util");
    ASSERT(k && k->kind == CK_NUM && k->measured && fabs(k->num - 0.725) < 1e-9);
    set(&r, CALIB_WAKE_PACK_SHORT, 0, 0, 0);
    calib_map(&r, &h, &p);
    ASSERT(!calib_profile_key(&p, "wake_pack_util"));
}

/* The cache-regime probe: two probes more than 1.5x apart have moved;
 * cache_probe is the middle of the two, each cache key's derivation names
 * it, the derivation says when it moved; no probe, no key; one probe alone
 * stands for the regime.  calib_is_cache_key names what --only cache
 * writes.  And the probe itself, where two CPUs allow it: a positive
 * figure within its quartiles, on two CPUs. */
static void test_cache_probe(void)
{
    ASSERT(!calib_probe_moved(50, 60) && !calib_probe_moved(160, 150) && !calib_probe_moved(100, 150));
    ASSERT(calib_probe_moved(50, 170) && calib_probe_moved(170, 50) && calib_probe_moved(100, 151));
    ASSERT(!calib_probe_moved(0, 170) && !calib_probe_moved(50, -1) && !calib_probe_moved(NAN, 50));

    struct calib_result r;
    memset(&r, 0, sizeof r);
    r.ncpus_allowed = 2;
    for (int i = 0; i < CALIB_COUNT; i++) set(&r, (enum calib_id)i, 100 + i, 90 + i, 110 + i);
    set(&r, CALIB_LINE_PROBE, 52, 50, 55);
    set(&r, CALIB_LINE_PROBE_END, 58, 55, 60);
    struct calib_host h = dev_host();
    struct calib_profile p;
    calib_map(&r, &h, &p);
    const struct calib_key *k = calib_profile_key(&p, "cache_probe");
    ASSERT(k && k->measured && k->dur == 55000);
    ASSERT(strstr(k->how, "line_probe_ns 52 ns") && strstr(k->how, "line_probe_end_ns 58 ns"));
    ASSERT(!strstr(k->how, "MOVED"));
    ASSERT(strstr(k->how, ": the cache regime of line_transfer, lock_line, remote_rmw, free_remote, sched_lock_cs, "
                          "line_store_batch"));
    char keys[160];
    ASSERT_STREQ(calib_cache_keys(" and ", keys, sizeof keys),
                 "line_transfer, lock_line, remote_rmw, free_remote, sched_lock_cs and line_store_batch");
    ASSERT_STREQ(calib_cache_keys(" and ", keys, 20), "line_transfer, lock");  /* cut, terminated */
    static const char *const cache[] = { "line_transfer", "lock_line", "remote_rmw", "free_remote",
                                         "sched_lock_cs", "line_store_batch" };
    for (int i = 0; i < 6; i++) {
        ASSERT(calib_is_cache_key(cache[i]));
        ASSERT(strstr(calib_profile_key(&p, cache[i])->how, "(cache probe 55 ns)"));
    }
    ASSERT(calib_is_cache_key("cache_probe") && calib_is_cache_key("mutex_uncontended"));
    ASSERT(!calib_is_cache_key("context_switch") && !calib_is_cache_key("corun_slowdown"));
    ASSERT(!strstr(calib_profile_key(&p, "context_switch")->how, "cache probe"));

    set(&r, CALIB_LINE_PROBE_END, 170, 165, 175);   /* the regime moved */
    calib_map(&r, &h, &p);
    k = calib_profile_key(&p, "cache_probe");
    ASSERT(k && k->dur == 111000 && strstr(k->how, "MOVED"));

    r.m[CALIB_LINE_PROBE].measured = false;          /* one probe: it stands alone */
    calib_map(&r, &h, &p);
    k = calib_profile_key(&p, "cache_probe");
    ASSERT(k && k->dur == 170000 && strstr(k->how, "line_probe_end_ns 170 ns"));

    r.m[CALIB_LINE_PROBE_END].measured = false;      /* none (one CPU): no key */
    calib_map(&r, &h, &p);
    ASSERT(!calib_profile_key(&p, "cache_probe"));
    ASSERT(!strstr(calib_profile_key(&p, "line_transfer")->how, "cache probe"));

    char err[GV_ERRLEN];
    struct calib_probe pr;
    ASSERT_EQ(calib_line_probe(0, &pr, err, sizeof err), GV_EINVAL);
    ASSERT_EQ(calib_line_probe(1001, &pr, err, sizeof err), GV_EINVAL);
    /* under valgrind (scripts/valgrind.sh) one round: memcheck runs one
     * thread at a time, and each turn of the probe's two threads waits for
     * the spinner's time slice (about 11 s a round); this is the probe's
     * only memcheck, `gvlsim validate`'s there runs on one CPU */
    int rounds = getenv("GVLSIM_UNDER_VALGRIND") ? 1 : 3;
    int rc = calib_line_probe(rounds, &pr, err, sizeof err);
    if (rc == GV_EUNSUP) {
        ASSERT(strstr(err, "two CPUs") && !pr.measured);
    } else {
        ASSERT_EQ(rc, GV_OK);
        ASSERT(pr.measured && pr.rounds == rounds && pr.add_ns > 0 && pr.add_ns < 1e6 && pr.own_ns > 0);
        ASSERT(pr.q1 <= pr.add_ns && pr.add_ns <= pr.q3 && pr.cpus[0] != pr.cpus[1]);
    }
}

/* The wake probe of `gvlsim validate` (calib_wake_probe): its bounds, and
 * on two CPUs a latency and a cost of a plausible size from the recorded
 * wakes (a few ms of real threads). */
static void test_wake_probe(void)
{
    char err[GV_ERRLEN];
    struct calib_wake_probe wp;
    ASSERT_EQ(calib_wake_probe(0, &wp, err, sizeof err), GV_EINVAL);
    ASSERT_EQ(calib_wake_probe(1001, &wp, err, sizeof err), GV_EINVAL);
    ASSERT(!wp.measured);
    cpu_set_t before, after;
    ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
    int rc = calib_wake_probe(5, &wp, err, sizeof err);
    if (rc == GV_EUNSUP) {
        ASSERT(strstr(err, "two CPUs") && !wp.measured);
    } else {
        ASSERT_EQ(rc, GV_OK);
        ASSERT(wp.measured && wp.wakes >= 1 && wp.wakes <= 5 && wp.cpus[0] != wp.cpus[1]);
        /* under valgrind (scripts/valgrind.sh) threads run one at a time: a
         * wake waits for the waker's time slice, 0.3 s of it */
        double max_ns = getenv("GVLSIM_UNDER_VALGRIND") ? 1e10 : 1e8;
        ASSERT(wp.lat_ns > 0 && wp.lat_ns < max_ns && wp.cost_ns > 0 && wp.cost_ns < max_ns);
    }
    ASSERT_EQ(sched_getaffinity(0, sizeof after, &after), 0);
    ASSERT(CPU_EQUAL(&before, &after));  /* the caller's affinity restored */
}

/* The speed probe of `gvlsim validate` (calib_speed_probe): its bounds,
 * and on two CPUs a summary of its windows (a few tenths of a second of
 * stat calls) with the caller's affinity restored. */
static void test_speed_probe(void)
{
    char err[GV_ERRLEN];
    struct calib_speed sp;
    ASSERT_EQ(calib_speed_probe(9, &sp, err, sizeof err), GV_EINVAL);
    ASSERT_EQ(calib_speed_probe(10001, &sp, err, sizeof err), GV_EINVAL);
    ASSERT(!sp.measured);
    cpu_set_t before, after;
    ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
    int rc = calib_speed_probe(10, &sp, err, sizeof err);
    if (rc == GV_EUNSUP) {
        ASSERT(strstr(err, "two CPUs") && !sp.measured);
    } else {
        ASSERT_EQ(rc, GV_OK);
        ASSERT(sp.measured && sp.windows == 20 && sp.window_ns > 0 && sp.p10 <= sp.p90);
        ASSERT(sp.nlev == 1 || (sp.nlev == 2 && sp.share[0] + sp.share[1] > 0.999 && sp.share[1] > 0));
    }
    ASSERT_EQ(sched_getaffinity(0, sizeof after, &after), 0);
    ASSERT(CPU_EQUAL(&before, &after));  /* the caller's affinity restored */
}

/* docs/calibrate.md has a row for every key calib_map writes, naming each
 * measurement its derivation uses. */
static void test_docs_table(void)
{
    FILE *f = fopen("docs/calibrate.md", "r");
    ASSERT(f);
    static char doc[262144];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    ASSERT(feof(f));  /* the whole page read */
    fclose(f);
    doc[n] = '\0';
    struct calib_result r;
    memset(&r, 0, sizeof r);
    r.ncpus_allowed = 2;
    for (int i = 0; i < CALIB_COUNT; i++) set(&r, (enum calib_id)i, 100 + i, 90 + i, 110 + i);
    double gaps[] = { 40000, 50000 };  /* hidden steal: both its keys */
    ASSERT_EQ(calib_steal_summarise(gaps, 2, 1e9, &r.steal), GV_OK);
    r.steal.measured = true;
    r.race.measured = true;  /* the FUTEX_WAIT race: both its keys */
    r.race.n = 1;
    r.race.window_ns[0] = 300;
    r.race.wake_ns[0] = 350;
    double waking[] = { 2000, 2500 };  /* a wake onto a CPU waking up */
    ASSERT_EQ(calib_waking_summarise(waking, 2, &r.waking), GV_OK);
    /* two speed levels, and the wake's share of them */
    r.speed = (struct calib_speed){ .measured = true, .windows = 200, .window_ns = 1e6, .nlev = 2,
                                    .factor = { 1.0, 1.3 }, .dwell_ns = { 26e6, 13e6 }, .share = { 0.7, 0.3 },
                                    .wake_measured = true, .wake_windows = 100, .wake_slow = 20,
                                    .wake_ratio = 1.15, .stat_ratio = 1.25, .wake_share = 0.6 };
    struct calib_host h = dev_host();
    struct calib_profile p;
    calib_map(&r, &h, &p);
    ASSERT(calib_profile_key(&p, "hidden_steal_len"));
    ASSERT(calib_profile_key(&p, "speed_wake_share"));
    ASSERT(calib_profile_key(&p, "wake_waking"));
    ASSERT(!p.overflow && p.n < CALIB_MAX_KEYS);  /* every measurement there: the most keys a profile has */
    for (int i = 0; i < p.n; i++) {
        char head[64];
        snprintf(head, sizeof head, "\n| `%s` |", p.k[i].name);
        const char *row = strstr(doc, head);
        if (!row) fprintf(stderr, "docs/calibrate.md: no row for `%s`\n", p.k[i].name);
        ASSERT(row);
        const char *end = strchr(row + 1, '\n');
        for (int m = 0; m < CALIB_COUNT; m++) {
            const char *name = calib_describe((enum calib_id)m)->name;
            if (!strstr(p.k[i].how, name)) continue;
            char quoted[64];
            snprintf(quoted, sizeof quoted, "`%s`", name);
            const char *hit = strstr(row, quoted);
            if (!hit || hit > end)
                fprintf(stderr, "docs/calibrate.md: the row of `%s` does not name %s\n", p.k[i].name, quoted);
            ASSERT(hit && hit < end);
        }
    }
}

/* The Ruby VM instruction: a Ruby that does not exist is GV_EUNSUP; the
 * Ruby on PATH (installed for the tests) answers sane samples: more than a
 * C loop's iteration would take over ten instructions, less than a µs. */
static void test_ruby_insn(void)
{
    char err[GV_ERRLEN];
    double s[5];
    struct rrun_opts bad = { .ruby = "/nonexistent/ruby" };
    ASSERT_EQ(rrun_insn_ns(&bad, s, 5, err, sizeof err), GV_EUNSUP);
    ASSERT(strstr(err, "/nonexistent/ruby"));
    ASSERT_EQ(rrun_insn_ns(NULL, s, 0, err, sizeof err), GV_EINVAL);
    int rc = rrun_insn_ns(NULL, s, 5, err, sizeof err);
    if (rc != GV_OK) fprintf(stderr, "%s\n", err);
    ASSERT_EQ(rc, GV_OK);
    for (int i = 0; i < 5; i++) ASSERT(s[i] > 0.01 && s[i] < 1000);
}

/* A Ruby method's extra over its system calls: a Ruby that does not exist
 * is GV_EUNSUP, a call with no Ruby method GV_EINVAL; the Ruby on PATH
 * answers sane samples for File.mtime and File.write (more than a loop
 * iteration, less than a ms). */
static void test_ruby_method(void)
{
    char err[GV_ERRLEN];
    double s[3];
    struct rrun_opts bad = { .ruby = "/nonexistent/ruby" };
    ASSERT_EQ(rrun_method_ns(&bad, CALL_STAT, s, 3, err, sizeof err), GV_EUNSUP);
    ASSERT(strstr(err, "/nonexistent/ruby"));
    ASSERT_EQ(rrun_method_ns(NULL, CALL_GETPID, s, 3, err, sizeof err), GV_EINVAL);
    ASSERT_EQ(rrun_method_ns(NULL, CALL_STAT, s, 0, err, sizeof err), GV_EINVAL);
    struct rrun_opts o = { .stat_path = "docs/calibrate.md" };
    static const enum scn_syscall_call calls[2] = { CALL_STAT, CALL_OPEN_DEVNULL };
    for (int c = 0; c < 2; c++) {
        int rc = rrun_method_ns(&o, calls[c], s, 3, err, sizeof err);
        if (rc != GV_OK) fprintf(stderr, "%s\n", err);
        ASSERT_EQ(rc, GV_OK);
        for (int i = 0; i < 3; i++) ASSERT(s[i] > 5 && s[i] < 1e6);
    }
}

/* The work after a hand-off: a Ruby that does not exist is GV_EUNSUP, no
 * samples GV_EINVAL; the Ruby on PATH answers each kind in every sample,
 * more than a clock read and less than a ms, a File.write more than the
 * minimal step. */
static void test_ruby_handoff_work(void)
{
    char err[GV_ERRLEN];
    double s[2 * RRUN_WORKS];
    struct rrun_opts bad = { .ruby = "/nonexistent/ruby" };
    ASSERT_EQ(rrun_handoff_work_ns(&bad, s, 2, err, sizeof err), GV_EUNSUP);
    ASSERT_EQ(rrun_handoff_work_ns(NULL, s, 0, err, sizeof err), GV_EINVAL);
    struct rrun_opts o = { .stat_path = "docs/calibrate.md" };
    int rc = rrun_handoff_work_ns(&o, s, 2, err, sizeof err);
    if (rc != GV_OK) fprintf(stderr, "%s\n", err);
    ASSERT_EQ(rc, GV_OK);
    for (int i = 0; i < 2 * RRUN_WORKS; i++) ASSERT(s[i] > 10 && s[i] < 1e6);
    for (int k = 0; k < 2; k++) ASSERT(s[k * RRUN_WORKS + RRUN_WORK_WRITE] > s[k * RRUN_WORKS + RRUN_WORK_COMPUTE]);
}

/* Where the methods' CPU falls between their calls: the Ruby on PATH, with
 * the preload library, answers each gap in every sample, each more than a
 * few ns (a clock read) and less than 100 us; a Ruby that does not exist is
 * GV_EUNSUP, no samples GV_EINVAL. */
static void test_ruby_method_gaps(void)
{
    char err[GV_ERRLEN];
    double s[3 * CALLTIME_NGAPS];
    struct rrun_opts bad = { .ruby = "/nonexistent/ruby" };
    ASSERT_EQ(rrun_method_gaps(&bad, s, 3, err, sizeof err), GV_EUNSUP);
    ASSERT_EQ(rrun_method_gaps(NULL, s, 0, err, sizeof err), GV_EINVAL);
    struct rrun_opts o = { .stat_path = "docs/calibrate.md" };
    int rc = rrun_method_gaps(&o, s, 3, err, sizeof err);
    if (rc != GV_OK) fprintf(stderr, "%s\n", err);
    ASSERT_EQ(rc, GV_OK);
    for (int i = 0; i < 3 * CALLTIME_NGAPS; i++) ASSERT(s[i] > 10 && s[i] < 1e5);
}

/* The GC's costs in a Ruby: a Ruby that does not exist is GV_EUNSUP, no
 * samples GV_EINVAL; the Ruby on PATH answers two samples of four
 * plausible figures (the sweeps' are differences of two sweeps, which
 * noise may push below 0 on a busy host, never beyond a microsecond; a
 * minor GC's marking takes microseconds, not seconds). */
static void test_ruby_gc(void)
{
    char err[GV_ERRLEN];
    struct rrun_gc_costs s[2];
    struct rrun_opts bad = { .ruby = "/nonexistent/ruby" };
    ASSERT_EQ(rrun_gc_costs_ns(&bad, s, 2, err, sizeof err), GV_EUNSUP);
    ASSERT_EQ(rrun_gc_costs_ns(NULL, s, 0, err, sizeof err), GV_EINVAL);
    int rc = rrun_gc_costs_ns(NULL, s, 2, err, sizeof err);
    if (rc != GV_OK) fprintf(stderr, "%s\n", err);
    ASSERT_EQ(rc, GV_OK);
    for (int i = 0; i < 2; i++) {
        ASSERT(s[i].sweep_body > -1000 && s[i].sweep_body < 1000);
        ASSERT(s[i].sweep_slot > -1000 && s[i].sweep_slot < 1000);
        ASSERT(s[i].mark_base > 1000 && s[i].mark_base < 1e8);
        ASSERT(s[i].mark_object > -1000 && s[i].mark_object < 1000);
        ASSERT(s[i].mark_thread > -1e5 && s[i].mark_thread < 1e6);  /* a microsecond or so */
        ASSERT(s[i].alloc_object > 1 && s[i].alloc_object < 1e5);     /* tens of ns */
        ASSERT(s[i].escape > 1 && s[i].escape < 1e5);                 /* about a hundred ns */
    }
}

/* The groups of --only: each measurement in CALIB_ALL, the cache ones in
 * CALIB_ONLY_CACHE alone, the Ruby ones in CALIB_ONLY_RUBY alone; the keys
 * each group writes. */
static void test_groups(void)
{
    for (int i = 0; i < CALIB_COUNT; i++) ASSERT(calib_in_group(CALIB_ALL, (enum calib_id)i));
    static const enum calib_id cache[] = { CALIB_MUTEX_UNCONTENDED, CALIB_LINE_PROBE, CALIB_FREE_REMOTE,
                                           CALIB_LINE_PROBE_END };
    static const enum calib_id ruby[] = { CALIB_RUBY_INSN, CALIB_RUBY_FILE_MTIME_EXTRA, CALIB_RUBY_FILE_WRITE_EXTRA,
                                          CALIB_RUBY_SWEEP_BODY, CALIB_RUBY_SWEEP_SLOT, CALIB_RUBY_MARK_BASE,
                                          CALIB_RUBY_MARK_PAGE, CALIB_RUBY_MARK_THREAD, CALIB_RUBY_MARK_OBJECT,
                                          CALIB_RUBY_ALLOC, CALIB_RUBY_ESCAPE };
    for (int i = 0; i < 4; i++)
        ASSERT(calib_in_group(CALIB_ONLY_CACHE, cache[i]) && !calib_in_group(CALIB_ONLY_RUBY, cache[i]));
    for (int i = 0; i < 11; i++)
        ASSERT(calib_in_group(CALIB_ONLY_RUBY, ruby[i]) && !calib_in_group(CALIB_ONLY_CACHE, ruby[i]));
    ASSERT(!calib_in_group(CALIB_ONLY_CACHE, CALIB_FUTEX_WAKE) && !calib_in_group(CALIB_ONLY_RUBY, CALIB_FUTEX_WAKE));
    ASSERT(!strcmp(calib_group_name(CALIB_ONLY_CACHE), "cache") && !strcmp(calib_group_name(CALIB_ONLY_RUBY), "ruby"));
    ASSERT(!calib_group_name(CALIB_ALL));
    ASSERT(calib_is_ruby_key("insn_time") && calib_is_ruby_key("gc_free_body") && calib_is_ruby_key("method_work.stat") &&
           calib_is_ruby_key("method_work.open_devnull") && calib_is_ruby_key("gc_sweep_per_slot") &&
           calib_is_ruby_key("gc_mark_base") && calib_is_ruby_key("gc_mark_per_object") &&
           calib_is_ruby_key("gc_mark_per_thread") && calib_is_ruby_key("alloc_object"));
    ASSERT(!calib_is_ruby_key("method_work") && !calib_is_ruby_key("syscalls.stat") &&
           !calib_is_ruby_key("insn_timer") && !calib_is_ruby_key("cache_probe"));
    /* --only speed: the window series alone, and its two keys */
    ASSERT(calib_in_group(CALIB_ONLY_SPEED, CALIB_SPEED_WINDOW) && !calib_in_group(CALIB_ONLY_CACHE, CALIB_SPEED_WINDOW) &&
           !calib_in_group(CALIB_ONLY_RUBY, CALIB_SPEED_WINDOW) && !calib_in_group(CALIB_ONLY_SPEED, CALIB_RUBY_INSN) &&
           !calib_in_group(CALIB_ONLY_SPEED, CALIB_LINE_PROBE));
    ASSERT(!strcmp(calib_group_name(CALIB_ONLY_SPEED), "speed"));
    ASSERT(calib_is_speed_key("speed_levels") && calib_is_speed_key("speed_dwell") && !calib_is_speed_key("speed") &&
           !calib_is_ruby_key("speed_levels") && !calib_is_cache_key("speed_dwell"));
}

/* The CPU-time clock's share of an interval: taken off, never below 0;
 * measured here, a read costs something and less than 100 us. */
static void test_cpu_interval(void)
{
    struct calib_result *r = calloc(1, sizeof *r);
    ASSERT(r);
    struct calib_ctx c = { .r = r, .cpu_clock_ns = 1400 };
    ASSERT_EQ(calib_cpu_interval(&c, 1000, 6000), 3600);
    ASSERT_EQ(calib_cpu_interval(&c, 1000, 2000), 0);
    double v = calib_cpu_clock_cost(&c, false);
    ASSERT(v > 0 && v < 100000);
    free(r);
}

int main(void)
{
    RUN(test_groups);
    RUN(test_quantiles);
    RUN(test_loop_stops_when_stable);
    RUN(test_loop_flags_unstable);
    RUN(test_within_spread);
    RUN(test_tick_estimate);
    RUN(test_free_both_at_work);
    RUN(test_busy_loop_plausible);
    RUN(test_kernel_to_scheduler);
    RUN(test_map);
    RUN(test_steal_summarise);
    RUN(test_waking);
    RUN(test_prehalt);
    RUN(test_window_quantiles);
    RUN(test_pack_util_key);
    RUN(test_speed_summarise);
    RUN(test_cpu_interval);
    RUN(test_cache_probe);
    RUN(test_wake_probe);
    RUN(test_speed_probe);
    RUN(test_docs_table);
    RUN(test_ruby_insn);
    RUN(test_ruby_method);
    RUN(test_ruby_method_gaps);
    RUN(test_ruby_handoff_work);
    RUN(test_ruby_gc);
    RUN(test_list_sources);
    TEST_DONE();
}
