/* summary.c - what happened, on stderr: the wall time, where the threads
 * spent it, and the switch and hand-off counts that explain it; with
 * Ractors the VM lock and its barriers; for a simulation the engine's
 * events and host time.  README.md shows what it prints (generated). */
#include "summary.h"

#include <inttypes.h>

static void human_count(char *buf, size_t len, uint64_t n)
{
    if (n >= 10000000) snprintf(buf, len, "%.1fM", (double)n / 1e6);
    else if (n >= 10000) snprintf(buf, len, "%.1fk", (double)n / 1e3);
    else snprintf(buf, len, "%" PRIu64, n);
}

/* A latency: "850 us", "12.3 ms", "1.20 s" (three significant digits). */
static void human_time(char *buf, size_t len, sim_time t)
{
    double us = (double)t / (double)SIM_US;
    if (us < 1000) snprintf(buf, len, "%.*f us", us < 10 ? 2 : us < 100 ? 1 : 0, us);
    else if (us < 1e6) snprintf(buf, len, "%.*f ms", us < 1e4 ? 2 : us < 1e5 ? 1 : 0, us / 1e3);
    else snprintf(buf, len, "%.2f s", us / 1e6);
}

/* The named measures: one line each. */
static void measures_write(FILE *f, const struct run_metrics *m)
{
    sim_time win = m->wall > m->warmup ? m->wall - m->warmup : 0;
    if (!metrics_measured(m, MET_MEASURES)) return;
    for (int k = 0; k < m->nmeasures; k++) {
        const struct run_measure *x = &m->measures[k];
        char c[32];
        human_count(c, sizeof c, x->count);
        fprintf(f, "  %s: %s done (%.1f/s)", x->name, c,
                win > 0 ? (double)x->count * (double)SIM_S / (double)win : 0.0);
        if (x->count) {
            char v[5][24];
            const sim_time t[5] = { x->mean, x->p50, x->p90, x->p99, x->max };
            for (int i = 0; i < 5; i++) human_time(v[i], sizeof v[i], t[i]);
            fprintf(f, "; latency mean %s, p50 %s, p90 %s, p99 %s, max %s", v[0], v[1], v[2], v[3], v[4]);
        }
        fputc('\n', f);
    }
}

/* n of all as a percentage, rounded ("0%" of nothing) */
static double pct(uint64_t n, uint64_t all) { return all ? 100.0 * (double)n / (double)all : 0.0; }

/* The OS model's fair class: how often a wake-up preempted the task it
 * found running, and the lag its threads slept with (EEVDF) - the
 * figures scripts/bpf/sched_wakes.awk reads from a real kernel
 * (docs/bpf.md). */
static void fair_write(FILE *f, const struct run_metrics *m)
{
    uint64_t sleeps = m->fair_sleeps_delayed + m->fair_sleeps_lag_pos + m->fair_sleeps_lag_zero + m->fair_sleeps_lag_neg;
    if (!m->fair_wake_checks && !sleeps) return;
    char w[32], p[32], s[32];
    human_count(w, sizeof w, m->fair_wake_checks);
    human_count(p, sizeof p, m->fair_wake_preempts);
    fprintf(f, "  fair class: %s wake-ups onto a running task, %s preempting it (%.0f%%)", w, p,
            pct(m->fair_wake_preempts, m->fair_wake_checks));
    if (m->fair_delayed_checks) {
        human_count(w, sizeof w, m->fair_delayed_checks);
        fprintf(f, " (of a delayed sleeper: %s, %.0f%% preempting)", w,
                pct(m->fair_delayed_preempts, m->fair_delayed_checks));
    }
    if (sleeps) {
        human_count(s, sizeof s, sleeps);
        fprintf(f, "; %s sleeps: %.0f%% delayed, %.0f%% with positive lag, %.0f%% with none, %.0f%% negative", s,
                pct(m->fair_sleeps_delayed, sleeps), pct(m->fair_sleeps_lag_pos, sleeps),
                pct(m->fair_sleeps_lag_zero, sleeps), pct(m->fair_sleeps_lag_neg, sleeps));
    }
    if (m->fair_wakes_unscanned) {
        human_count(w, sizeof w, m->fair_wakes_unscanned);
        fprintf(f, "; %s wake-ups left behind a busy core, the cores too busy to look for an idle one", w);
    }
    fputc('\n', f);
    /* thread by thread (sched_wakes.awk's section 6) */
    for (int i = 0; i < m->nfair_threads; i++) {
        const struct run_fair_thread *t = &m->fair_threads[i];
        uint64_t ts = t->sleeps_delayed + t->sleeps_lag_pos + t->sleeps_lag_zero + t->sleeps_lag_neg;
        human_count(w, sizeof w, t->woken);
        fprintf(f, "    %s: woken onto a running task %s, %.0f%% preempting", t->name, w,
                pct(t->woken_preempts, t->woken));
        if (t->woken_delayed) {
            human_count(w, sizeof w, t->woken_delayed);
            fprintf(f, " (as a delayed sleeper %s, %.0f%%)", w, pct(t->woken_delayed_preempts, t->woken_delayed));
        }
        if (t->lead_near) {
            /* the waker's vruntime lead (sched_wakes.awk's section 6) */
            human_count(w, sizeof w, t->lead_near);
            fprintf(f, ", the waker's lead within %d us at %s", RUN_FAIR_LEAD_NEAR_US, w);
            if (t->lead_steps)
                fprintf(f, " (moving %+.3f us a wake)", (double)t->lead_moved / (double)t->lead_steps / (double)SIM_US);
            human_count(w, sizeof w, t->waker_eligible);
            fprintf(f, ", the waker eligible at %s", w);
        }
        if (ts) {
            human_count(s, sizeof s, ts);
            fprintf(f, "; %s sleeps: %.0f%% delayed, %.0f%% with positive lag, %.0f%% with none, %.0f%% negative", s,
                    pct(t->sleeps_delayed, ts), pct(t->sleeps_lag_pos, ts), pct(t->sleeps_lag_zero, ts),
                    pct(t->sleeps_lag_neg, ts));
        }
        fputc('\n', f);
    }
}

/* A count, or "n/a" when the backend does not measure it. */
static void count_of(const struct run_metrics *m, enum metric_id id, char *buf, size_t len, uint64_t n)
{
    if (metrics_measured(m, id)) human_count(buf, len, n);
    else snprintf(buf, len, "n/a");
}

void summary_write(FILE *f, const struct run_metrics *m)
{
    double wall = (double)m->wall / (double)SIM_S;
    fprintf(f, "%s [%s/%s] %s, %d core%s, %d ractor%s, %d thread%s: wall %.6f s, cpu %.6f s",
            m->scenario, m->backend, m->engine, m->policy, m->cores, m->cores == 1 ? "" : "s",
            m->ractors, m->ractors == 1 ? "" : "s", m->threads, m->threads == 1 ? "" : "s", wall,
            (double)m->cpu / (double)SIM_S);
    if (m->work_scale != 1.0) fprintf(f, "; durations x%g (machine.work_scale)", m->work_scale);
    fputc('\n', f);
    if (m->warmup > 0) {
        char w[24];
        human_time(w, sizeof w, m->warmup);
        fprintf(f, "  warm-up: the first %s not measured (ops and measures; rates per second after it)\n", w);
    }
    sim_sum total = 0;
    for (int s = 0; s < TS_COUNT; s++) total += m->state_time[s];
    fprintf(f, "  thread time:");
    /* a backend without the thread states (Ruby) may still give the GC's
     * time, which is no share of anything then: its own lines say it */
    bool states = metrics_measured(m, MET_STATE_TIME + TS_RUNNING);
    if (!states) fprintf(f, " not measured by this backend");
    for (int s = 0; states && s < TS_COUNT; s++) {
        if (!m->state_time[s]) continue;
        fprintf(f, " %s %.1f%%", thread_state_name((enum thread_state)s),
                total ? 100.0 * (double)m->state_time[s] / (double)total : 0.0);
    }
    fputc('\n', f);
    char v[32], mv[32], iv[32], h[32], w[32], ww[32], ev[32];
    count_of(m, MET_VOL_SWITCHES, v, sizeof v, m->vol_switches);
    count_of(m, MET_MAIN_VOL_SWITCHES, mv, sizeof mv, m->main_vol_switches);
    count_of(m, MET_INVOL_SWITCHES, iv, sizeof iv, m->invol_switches);
    count_of(m, MET_GVL_HANDOFFS, h, sizeof h, m->gvl_handoffs);
    count_of(m, MET_WAKEUPS, w, sizeof w, m->wakeups);
    count_of(m, MET_WASTED_WAKES, ww, sizeof ww, m->wasted_wakes);
    count_of(m, MET_ENGINE_EVENTS, ev, sizeof ev, m->engine_events);
    fprintf(f, "  switches: %s voluntary (main thread %s), %s involuntary; GVL hand-offs %s, "
               "futex wakes %s, wasted wakes %s",
            v, mv, iv, h, w, ww);
    if (m->syscalls && metrics_measured(m, MET_VOL_SWITCHES)) fprintf(f, "; %.2f vol. switches per syscall", (double)m->vol_switches / (double)m->syscalls);
    fputc('\n', f);
    if (m->vmlock_acquires || m->barriers) {
        /* the VM lock and barrier (models/vm_lock.c, models/barrier.c) */
        char a[32], wt[32], b[32];
        human_count(a, sizeof a, m->vmlock_acquires);
        human_count(wt, sizeof wt, m->vmlock_waits);
        human_count(b, sizeof b, m->barriers);
        fprintf(f, "  VM lock: %s acquisitions (%s slept); %s barriers", a, wt, b);
        if (m->barriers && m->wall > 0)
            fprintf(f, ", one per %.2f us", (double)m->wall / (double)m->barriers / (double)SIM_US);
        fputc('\n', f);
    }
    if (m->gvl_lock_sections) {
        /* the 2.x GVL's native mutex (models/gvl_barging.c) */
        char a[32], wt[32], sl[32];
        human_count(a, sizeof a, m->gvl_lock_sections);
        human_count(wt, sizeof wt, m->gvl_lock_waits);
        human_count(sl, sizeof sl, m->gvl_lock_slept);
        fprintf(f, "  GVL lock (gvl->lock): %s sections, %s found it taken, %s slept on it", a, wt, sl);
        if (m->intr_lock_waits) {
            human_count(wt, sizeof wt, m->intr_lock_waits);
            fprintf(f, "; %s sleeps on a woken thread's interrupt_lock", wt);
        }
        if (m->timer_ticks) {  /* no timer thread: do_gvl_timer's "Timeslice" (timer_ticks) */
            human_count(wt, sizeof wt, m->timer_ticks);
            fprintf(f, "; the designated timer set %s TIMER interrupts", wt);
        }
        fputc('\n', f);
    }
    if (m->sched_lock_waits || m->timer_lock_waits) {
        /* the 3.3+ sched locks held through a hand-off's wake (models/gvl.c, models/timer.c) */
        char a[32], b[32];
        human_count(a, sizeof a, m->sched_lock_waits);
        human_count(b, sizeof b, m->timer_lock_waits);
        fprintf(f, "  sched locks: %s sleeps of threads on a Ractor's lock, %s of the timer on the global one\n", a, b);
    }
    fair_write(f, m);
    if (m->timer_wakes || m->timer_timed_waits) {
        /* the 3.3+ timer thread (models/timer.c, exec/exec_timer.c) */
        char tw[32], tt[32], tk[32];
        human_count(tw, sizeof tw, m->timer_wakes);
        human_count(tt, sizeof tt, m->timer_timed_waits);
        human_count(tk, sizeof tk, m->timer_ticks);
        fprintf(f, "  timer thread: %s eventfd wake-ups", tw);
        if (m->ops) fprintf(f, " (%.3f per op)", (double)m->timer_wakes / (double)m->ops);
        fprintf(f, ", %s timed waits, %s ticks\n", tt, tk);
    }
    if ((m->gc_count || m->gc_sweeps) && states) {  /* (Ruby's GC line is rrun_summary_write's) */
        char g[32], mj[32], sw[32];
        human_count(g, sizeof g, m->gc_count);
        human_count(mj, sizeof mj, m->gc_major);
        human_count(sw, sizeof sw, m->gc_sweeps);
        fprintf(f, "  GC: %s collections (%s major), %s lazy-sweep steps; %.6f s in gc", g, mj, sw,
                (double)m->state_time[TS_GC] / (double)SIM_S);
        if (m->gc_clock > 0)
            fprintf(f, ", %.6f s of the process's CPU in its clock windows (what GC.stat(:time) reads)",
                    (double)m->gc_clock / (double)SIM_S);
        fputc('\n', f);
    }
    if (m->mutex_waits || m->timeouts || m->spawned) {
        char mw[32], to[32], sp[32];
        count_of(m, MET_MUTEX_WAITS, mw, sizeof mw, m->mutex_waits);
        count_of(m, MET_TIMEOUTS, to, sizeof to, m->timeouts);
        human_count(sp, sizeof sp, m->spawned);
        fprintf(f, "  sync: %s mutex waits, %s timeouts, %s threads spawned\n", mw, to, sp);
    }
    measures_write(f, m);
    if (m->backend[0] == 's')
        fprintf(f, "  engine: %s events in %.3f s host time\n", ev, m->host_seconds);
}
