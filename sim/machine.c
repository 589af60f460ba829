/* machine.c - cores, run queues, wake placement and preemption.
 *
 * The rules are listed in machine.h.  Everything here happens in event
 * handlers or in the calls models make from their continuations; the
 * machine never calls a model continuation synchronously from a model call,
 * only from its own events, so models never re-enter themselves.
 */
#include "machine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"

/* A rated burst's state: work is counted in units, each costing
 * rate_num/rate_den ps; the rate may change mid-burst. */
struct mach_rated {
    sim_time work_left;      /* units not done at seg_start */
    sim_time seg_start;      /* start of the current constant-rate segment */
    uint64_t rate_num, rate_den;
    sim_time burst_ev_at;    /* time burst_ev fires */
    const struct mach_rate_hook *hook;
};

/* Handed out to tasks in chunks, freed with the machine. */
#define RATED_CHUNK 64
struct mach_rated_pool {
    struct mach_rated_pool *next;
    int used;
    struct mach_rated r[RATED_CHUNK];
};

/* Fair entities, handed out likewise. */
#define SE_CHUNK 1024
struct mach_se_pool {
    struct mach_se_pool *next;
    int used;
    struct fair_se se[SE_CHUNK];
};

static void ev_arrive(void *obj, uint64_t arg);
static void ev_slice(void *obj, uint64_t arg);
static void ev_enqueue(void *obj, uint64_t arg);
static void ev_wake_preempt(void *obj, uint64_t arg);
static void ev_resched(void *obj, uint64_t arg);
static void ev_nohz_kick(void *obj, uint64_t arg);
static inline sim_time idle_wake_latency(struct machine *m, const struct mach_core *c);
static void steal_arm(struct machine *m, struct mach_core *c);
static void speed_start(struct machine *m);
static void speed_arm(struct machine *m, struct mach_core *c);
static bool stalled(struct machine *m, struct mach_core *c, sim_handler fn, sim_event_id *id);
static void rated_start(struct machine *m, struct mach_task *t);
static sim_time wake_spread(sim_time mean, double jitter);
static void rated_arm(struct machine *m, struct mach_task *t);
static void rated_tell(struct mach_task *t, bool running);
static sim_time rated_done(const struct mach_task *t, sim_time now);

static sim_time mach_now_of(const struct machine *m) { return sim_now(m->eng); }

static void protocol_error(struct machine *m, const struct mach_task *t, const char *what)
{
    if (!m->error[0])
        snprintf(m->error, sizeof m->error, "machine: task %s: %s", t->name ? t->name : "?", what);
    sim_stop(m->eng);
}

/* ---- core indexes --------------------------------------------------------
 * Placement and idle balance would otherwise scan every core on every wake
 * and block, which dominates at hundreds of cores.  Three indexes, kept up
 * to date where a core's state or run queue changes:
 * - nrq_total: idle balance has nothing to pull when it is 0;
 * - idle: a bitmap of the CORE_IDLE cores (the lowest idle core is the
 *   first set bit);
 * - rq_min: a tournament tree over the run-queue lengths.  Leaf L+i holds
 *   core i's key nrq << 32 | i (L = rq_leaves; UINT64_MAX pads), inner node
 *   k the smaller key of its children 2k and 2k+1, so the root (node 1)
 *   names the lowest-index core with the shortest queue.  Up to
 *   RQ_SCAN_CORES cores a scan is cheaper than keeping the tree (queues
 *   change more often than a wake finds no idle core): rq_min is NULL. */

#define RQ_SCAN_CORES 16

static inline uint64_t rq_key(const struct mach_core *c)
{
    return (uint64_t)c->nrq << 32 | (uint32_t)c->id;
}

/* Core c's run queue changed length by `delta`. */
static inline void rq_count(struct machine *m, struct mach_core *c, int delta)
{
    c->nrq += delta;
    m->nrq_total += delta;
    uint64_t *tree = m->rq_min;
    if (!tree) return;
    int k = m->rq_leaves + c->id;
    tree[k] = rq_key(c);
    for (k /= 2; k >= 1; k /= 2) {
        uint64_t a = tree[2 * k], b = tree[2 * k + 1], v = a < b ? a : b;
        if (tree[k] == v) break;  /* unchanged here: unchanged above */
        tree[k] = v;
    }
}

/* The lowest-index core with the shortest run queue. */
static int shortest_rq(const struct machine *m)
{
    if (m->rq_min) return (int)(uint32_t)m->rq_min[1];
    int best = 0;
    for (int i = 1; i < m->ncores; i++)
        if (m->cores[i].nrq < m->cores[best].nrq) best = i;
    return best;
}

static inline void idle_mark(struct machine *m, const struct mach_core *c, bool idle)
{
    unsigned id = (unsigned)c->id;
    uint64_t bit = UINT64_C(1) << (id % 64);
    if (idle) m->idle[id / 64] |= bit;
    else m->idle[id / 64] &= ~bit;
}

/* Is core i CORE_IDLE?  (Its bit: one word, where its state is in a
 * struct of its own.) */
static inline bool core_idle(const struct machine *m, int i)
{
    return m->idle[(unsigned)i / 64] >> ((unsigned)i % 64) & 1;
}

static int first_idle_core(const struct machine *m)
{
    if (m->idle[0]) return __builtin_ctzll(m->idle[0]);  /* (up to 64 cores: one word) */
    for (int w = 1; w * 64 < m->ncores; w++)
        if (m->idle[w]) return w * 64 + __builtin_ctzll(m->idle[w]);
    return -1;
}

int mach_init(struct machine *m, struct sim_engine *eng, const struct mach_params *p,
              char *err, unsigned errlen)
{
    memset(m, 0, sizeof *m);
    if (p->cores < 1) return gv_fail(err, errlen, GV_EINVAL, "machine needs at least one core");
    m->eng = eng;
    m->p = *p;
    m->ncores = p->cores;
    m->cores = calloc((size_t)p->cores, sizeof *m->cores);
    m->rq_leaves = 1;
    while (m->rq_leaves < p->cores) m->rq_leaves *= 2;
    m->idle = calloc((size_t)(p->cores + 63) / 64, sizeof *m->idle);
    if (p->cores > RQ_SCAN_CORES) m->rq_min = malloc(2 * (size_t)m->rq_leaves * sizeof *m->rq_min);
    if (!m->cores || !m->idle || (p->cores > RQ_SCAN_CORES && !m->rq_min)) {
        mach_free(m);
        return gv_fail(err, errlen, GV_ENOMEM, "out of memory allocating %d cores", p->cores);
    }
    for (int i = 0; i < p->cores; i++) {
        m->cores[i].id = i;  /* CORE_IDLE, empty run queue */
        m->idle[i / 64] |= UINT64_C(1) << (i % 64);
    }
    for (int i = 0; m->rq_min && i < m->rq_leaves; i++)
        m->rq_min[m->rq_leaves + i] = i < p->cores ? rq_key(&m->cores[i]) : UINT64_MAX;
    for (int k = m->rq_leaves - 1; m->rq_min && k >= 1; k--)
        m->rq_min[k] = m->rq_min[2 * k] < m->rq_min[2 * k + 1] ? m->rq_min[2 * k] : m->rq_min[2 * k + 1];
    m->corun = p->corun_slowdown > 1.0 && p->cores > 1;
    m->corun_f = 1.0;  /* no core busy yet */
    for (int i = 0; i < p->cores; i++) m->cores[i].speed_f = 1.0;
    if (p->speed_n >= 2 && p->speed_f && p->speed_dwell) {
        m->speed_on = true;
        m->speed_n = p->speed_n < MACH_SPEED_LEVELS ? p->speed_n : MACH_SPEED_LEVELS;
        for (int i = 0; i < m->speed_n; i++) {
            m->speed_f[i] = p->speed_f[i];
            m->speed_dwell[i] = p->speed_dwell[i];
        }
        rng_seed(&m->speed_rng, p->seed, UINT64_C(0x7370656564));  /* "speed" */
    }
    m->scaled = m->corun || m->speed_on;
    if (m->speed_on) speed_start(m);
    m->p.speed_f = NULL;
    m->p.speed_dwell = NULL;
    rng_seed(&m->rng, p->seed, UINT64_C(0x6d616368696e65));  /* "machine" stream */
    m->idle_spread = wake_spread(p->wake_idle_core, p->wake_jitter);
    m->busy_spread = wake_spread(p->wake_busy_core, p->wake_jitter);
    if (p->wake_idle_extra) m->idle_extra = *p->wake_idle_extra;
    m->p.wake_idle_extra = NULL;  /* the copy above is the machine's */
    if (p->wake_ipi_extra) m->ipi_extra = *p->wake_ipi_extra;
    m->p.wake_ipi_extra = NULL;
    for (int i = 0; p->wake_waking && i < p->wake_waking_n && i < MACH_WAKING_COSTS; i++)
        m->waking_cost[m->nwaking++] = p->wake_waking[i];
    m->p.wake_waking = NULL;
    m->last_waking_cost = -1;
    m->p.steal_len = NULL;  /* (copied below) */
    if (p->steal_rate > 0 && p->steal_len && p->steal_nlen > 0) {
        int n = p->steal_nlen < MACH_STEAL_LENS ? p->steal_nlen : MACH_STEAL_LENS;
        memcpy(m->steal_len, p->steal_len, (size_t)n * sizeof *m->steal_len);
        m->p.steal_nlen = n;
        double mean = 1e12 / p->steal_rate;  /* ps between gaps */
        m->steal_mean_gap = mean >= (double)SIM_TIME_MAX ? SIM_TIME_MAX : mean < 1 ? 1 : (sim_time)llround(mean);
        m->steal_on = true;
        m->stalls_on = true;
        rng_seed(&m->steal_rng, p->seed, UINT64_C(0x737465616c));  /* "steal" stream */
    } else {
        m->p.steal_nlen = 0;
    }
    if (p->expiry_stalls) m->stalls_on = true;
    m->busy_hooks = m->corun || m->steal_on || m->speed_on;
    m->util_on = p->wake_pack_util > 0 && p->wake_pack > 0 && p->sched != MACH_SCHED_FIFO;
    m->sis_util = (p->sched == MACH_SCHED_EEVDF || p->sched == MACH_SCHED_EEVDF_DELAY) && p->cores > 1;
    if (p->wake_pack > 0 && p->wake_pack < 1)  /* 2^64 x p, exact enough for a share */
        m->pack_below = (uint64_t)(p->wake_pack * 18446744073709551616.0);
    if (p->wake_prehalt_share <= 0) m->p.wake_prehalt_window = 0;  /* no wake is one */
    if (p->wake_prehalt_share > 0 && p->wake_prehalt_share < 1)
        m->prehalt_below = (uint64_t)(p->wake_prehalt_share * 18446744073709551616.0);
    return GV_OK;
}

void mach_free(struct machine *m)
{
    while (m->rated) {
        struct mach_rated_pool *p = m->rated;
        m->rated = p->next;
        free(p);
    }
    while (m->se_pool) {
        struct mach_se_pool *p = m->se_pool;
        m->se_pool = p->next;
        free(p);
    }
    free(m->cores);
    free(m->idle);
    free(m->rq_min);
    m->cores = NULL;
    m->idle = NULL;
    m->rq_min = NULL;
}

void mach_task_init(struct machine *m, struct mach_task *t, const char *name)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    t->state = MT_NEW;
    t->core = -1;
    t->last_core = -1;
    t->burst_f = 1.0;
    if (!fair_on(m)) return;
    struct mach_se_pool *p = m->se_pool;
    if (!p || p->used == SE_CHUNK) {
        p = calloc(1, sizeof *p);
        if (!p) {  /* the run stops and fails (GV_ENOMEM), the task on a stand-in */
            m->oom = true;
            sim_stop(m->eng);
            t->se = &m->se_spare;
            return;
        }
        p->next = m->se_pool;
        m->se_pool = p;
    }
    t->se = &p->se[p->used++];
    t->se->rq_core = -1;
    t->se->left_core = -1;
    t->se->picked_at = -1;
}

/* ---- co-running cores -------------------------------------------------- */

/* f(b) of machine.h, for the cores busy now: kept in m->corun_f, computed
 * when b changes (core_busy_hooks) rather than at every burst and again
 * for every core's re-plan (a division less per burst: 3% less time for a
 * 2-core ping-pong under a calibrated profile, whose corun_slowdown is
 * above 1; 8 interleaved runs). */
static double corun_factor_of(const struct machine *m)
{
    if (!m->corun || m->nbusy <= 1) return 1.0;
    return 1.0 + (m->p.corun_slowdown - 1.0) * (double)(m->nbusy - 1) / (double)(m->ncores - 1);
}

/* Work (uncontended time) -> time at factor f, and back. */
/* The time `d` after `now`: the end of time rather than an overflow (a
 * duration near the range's end, scaled work), and never before now. */
static sim_time mach_end_of(sim_time now, sim_time d)
{
    if (d <= 0) return now;
    return d > SIM_TIME_MAX - now ? SIM_TIME_MAX : now + d;
}

static sim_time corun_time(sim_time work, double f)
{
    if (f == 1.0 || work <= 0) return work;
    double t = (double)work * f;
    return t >= (double)SIM_TIME_MAX ? SIM_TIME_MAX : sim_round(t);
}

static sim_time corun_work(sim_time time, double f)
{
    if (f == 1.0 || time <= 0) return time;
    return sim_round((double)time / f);
}

static void rated_replan(struct machine *m, struct mach_task *t);

/* Core i's burst, if one runs there, re-timed at the core's factor now
 * (b changed, or the core's speed level): the work left is kept. */
static void corun_replan_core(struct machine *m, int i)
{
    sim_time now = mach_now_of(m);
    double f = mach_burst_factor(m, i);
    struct mach_task *t = m->cores[i].cur;
    if (m->cores[i].state != CORE_BUSY || !t || t->state != MT_RUNNING || !t->in_burst || t->burst_f == f) return;
    if (t->rated) {
        rated_replan(m, t);
        return;
    }
    sim_time left = t->burst_end > now ? t->burst_end - now : 0;
    t->burst_end = mach_end_of(now, corun_time(corun_work(left, t->burst_f), f));
    t->burst_f = f;
    sim_time at = t->burst_cut && t->burst_cut < t->burst_end ? t->burst_cut : t->burst_end;
    sim_cancel(m->eng, t->burst_ev);
    t->burst_ev = sim_at(m->eng, at, mach_ev_burst_end, t, (uint64_t)(uintptr_t)m);
}

/* b changed: every burst running on a core is re-timed at the new factor. */
static void corun_replan(struct machine *m)
{
    for (int i = 0; i < m->ncores; i++) corun_replan_core(m, i);
}

/* ---- speed levels --------------------------------------------------------- */

/* The level after c's: another one, drawn evenly, for an exponential time
 * of its mean dwell from `from`. */
static void speed_next(struct machine *m, struct mach_core *c, sim_time from)
{
    int next = (int)rng_uniform(&m->speed_rng, 0, (sim_time)m->speed_n - 2);
    if (next >= c->speed_level) next++;
    c->speed_level = next;
    c->speed_f = m->speed_f[next];
    c->speed_until = mach_end_of(from, rng_exp(&m->speed_rng, m->speed_dwell[next]));
}

/* A level's end on a busy core: the next level, the core's burst re-timed,
 * the end of the next one armed while the core stays busy (an idle core's
 * levels are caught up when it is busy again: speed_arm). */
static void ev_speed(void *obj, uint64_t arg)
{
    struct machine *m = obj;
    struct mach_core *c = &m->cores[arg];
    c->speed_ev = 0;
    speed_next(m, c, c->speed_until);
    corun_replan_core(m, c->id);
    if (c->state == CORE_BUSY) c->speed_ev = sim_at(m->eng, c->speed_until, ev_speed, m, arg);
}

/* Core c becomes busy: its levels up to now (those that passed while it
 * was idle, in the order they would have come), then the end of the
 * current one armed. */
static void speed_arm(struct machine *m, struct mach_core *c)
{
    sim_time now = mach_now_of(m);
    while (c->speed_until <= now) speed_next(m, c, c->speed_until);
    if (!c->speed_ev) c->speed_ev = sim_at(m->eng, c->speed_until, ev_speed, m, (uint64_t)c->id);
}

/* Each core's first level, drawn in proportion to the mean dwells (the
 * share of time each level takes), and its end. */
static void speed_start(struct machine *m)
{
    double total = 0;
    for (int i = 0; i < m->speed_n; i++) total += (double)m->speed_dwell[i];
    for (int k = 0; k < m->ncores; k++) {
        struct mach_core *c = &m->cores[k];
        double x = rng_unit(&m->speed_rng) * total;
        int l = 0;
        while (l < m->speed_n - 1 && x >= (double)m->speed_dwell[l]) x -= (double)m->speed_dwell[l++];
        c->speed_level = l;
        c->speed_f = m->speed_f[l];
        c->speed_until = mach_end_of(0, rng_exp(&m->speed_rng, m->speed_dwell[l]));
    }
}

/* ---- per-core accounting ------------------------------------------------ */

/* (The idle bitmap is kept by dispatch and begin_arrival, the one way
 * into CORE_IDLE and the one way out of it.) */
/* What follows a core's start or stop of being busy, when the machine
 * has any of it: the co-running rates, the steal and speed timers. */
static __attribute__((noinline)) void core_busy_hooks(struct machine *m, struct mach_core *c, bool was_busy)
{
    if (m->corun) {
        m->corun_f = corun_factor_of(m);
        corun_replan(m);
    }
    if (m->steal_on && !was_busy) steal_arm(m, c);
    if (m->speed_on && !was_busy) speed_arm(m, c);
}

/* t's utilization at `now` (under a fair class, with wake_pack_util):
 * the running average of the share of time it ran, as Linux's PELT keeps
 * a task's util_avg (kernel/sched/pelt.c; continuous here rather than by
 * 1 ms periods): decayed by 2^(-dt / MACH_UTIL_HALF) since se->util_at,
 * with what it ran meanwhile if it is running (task_util_run), where a
 * task's run time goes with it from core to core. */
static double task_util(const struct mach_task *t, sim_time now)
{
    const struct fair_se *se = t->se;
    double d = exp2(-(double)(now - se->util_at) / (double)MACH_UTIL_HALF);
    return se->util * d + (t->state == MT_RUNNING ? 1 - d : 0);
}

/* t starts running at `now` (its state already MT_RUNNING), having run
 * se->util_charged more in its wait's way out (the CPU the guest charges
 * a wakee on an idle vCPU, wake_idle_cpu: its own run time as the guest's
 * kernel counts it); or stops. */
static __attribute__((noinline)) void task_util_run(struct mach_task *t, sim_time now)
{
    struct fair_se *se = t->se;
    sim_time before = se->util_charged;
    se->util_charged = 0;
    sim_time idle = now - before - se->util_at;
    /* (a decay over no time multiplies by exp2(-0.0), exactly 1: skipped) */
    if (idle > 0) se->util *= exp2(-(double)idle / (double)MACH_UTIL_HALF);
    if (before > 0) {
        double d = exp2(-(double)before / (double)MACH_UTIL_HALF);
        se->util = se->util * d + (1 - d);
    }
    se->util_at = now;
}

static __attribute__((noinline)) void task_util_stop(struct mach_task *t, sim_time now)
{
    t->se->util = task_util(t, now);
    t->se->util_at = now;
}

/* The integral of nbusy over time brought up to now (llc_idle_scan reads
 * it; while the machine scans by it, sis_util, a core's busy change adds
 * to it). */
static inline __attribute__((always_inline)) sim_sum busy_area_to(struct machine *m, sim_time now)
{
    m->busy_area += (sim_sum)m->nbusy * (now - m->busy_area_at);
    m->busy_area_at = now;
    return m->busy_area;
}

/* (Inline in its few callers: several times per event.) */
static inline __attribute__((always_inline)) void core_set_at(struct machine *m, struct mach_core *c,
                                                              enum mach_core_state st, struct mach_task *t,
                                                              sim_time now)
{
    bool was_busy = c->state == CORE_BUSY;
    c->state_time[c->state] += now - c->state_since;
    c->state = st;
    c->state_since = now;
    c->cur = t;
    if (m->obs.core_change) m->obs.core_change(m->obs.ctx, c->id, st, t, now);
    if (was_busy != (st == CORE_BUSY)) {
        if (m->sis_util) busy_area_to(m, now);  /* (only llc_idle_scan reads it) */
        m->nbusy += was_busy ? -1 : 1;
        if (m->busy_hooks) core_busy_hooks(m, c, was_busy);
    }
}

static inline __attribute__((always_inline)) void core_set(struct machine *m, struct mach_core *c,
                                                           enum mach_core_state st, struct mach_task *t)
{
    core_set_at(m, c, st, t, mach_now_of(m));
}

void mach_finish(struct machine *m, sim_time end)
{
    for (int i = 0; i < m->ncores; i++) {
        struct mach_core *c = &m->cores[i];
        core_set_at(m, c, c->state, c->cur, end);
    }
}

sim_sum mach_cpu_time(const struct machine *m)
{
    sim_sum t = 0;
    for (int i = 0; i < m->ncores; i++)
        t += m->cores[i].busy_time + m->cores[i].switch_time + m->cores[i].wake_cpu_time;
    return t;
}

/* ---- run queues --------------------------------------------------------- */

static void rq_push_tail(struct machine *m, struct mach_core *c, struct mach_task *t)
{
    t->rq_next = NULL;
    if (c->rq_tail) c->rq_tail->rq_next = t;
    else c->rq_head = t;
    c->rq_tail = t;
    rq_count(m, c, 1);
}

static void rq_push_head(struct machine *m, struct mach_core *c, struct mach_task *t)
{
    t->rq_next = c->rq_head;
    c->rq_head = t;
    if (!c->rq_tail) c->rq_tail = t;
    rq_count(m, c, 1);
}

/* A task preempted by a woken sleeper resumes right after it - but after
 * any other woken sleeper (wakeup_preempt) already waiting at the head: in
 * CFS those have the smaller vruntime.  Pushing the preempted task in front
 * of them starved e.g. the timer thread whenever another sleeper (the
 * threshold policy's helper) preempted the core again before it ran. */
static void rq_push_after_sleepers(struct machine *m, struct mach_core *c, struct mach_task *t)
{
    struct mach_task *prev = NULL;
    for (struct mach_task *q = c->rq_head; q && q->wakeup_preempt; q = q->rq_next) prev = q;
    if (!prev) {
        rq_push_head(m, c, t);
        return;
    }
    t->rq_next = prev->rq_next;
    prev->rq_next = t;
    if (c->rq_tail == prev) c->rq_tail = t;
    rq_count(m, c, 1);
}

/* Take t out of c's run queue, wherever it is (the fair classes pick any). */
static void rq_remove(struct machine *m, struct mach_core *c, struct mach_task *t)
{
    struct mach_task *prev = NULL, *q = c->rq_head;
    while (q && q != t) {
        prev = q;
        q = q->rq_next;
    }
    if (!q) return;
    if (prev) prev->rq_next = t->rq_next;
    else c->rq_head = t->rq_next;
    if (c->rq_tail == t) c->rq_tail = prev;
    t->rq_next = NULL;
    rq_count(m, c, -1);
}

/* (Inline: a block's dispatch pops its core's queue, often.) */
static inline struct mach_task *rq_pop(struct machine *m, struct mach_core *c)
{
    struct mach_task *t = c->rq_head;
    if (!t) return NULL;
    c->rq_head = t->rq_next;
    if (!c->rq_head) c->rq_tail = NULL;
    t->rq_next = NULL;
    rq_count(m, c, -1);
    return t;
}

/* At most one slice event per core is pending, never cancelled: when it
 * fires it re-checks the core (which may have switched tasks meanwhile) and
 * re-arms for the current slice.  Cancelling on every switch would leave
 * one dead heap entry per switch for a whole time slice. */
static __attribute__((noinline)) void arm_slice_now(struct machine *m, struct mach_core *c)
{
    sim_time at = fair_on(m) ? fair_resched_time(m, c) : c->slice_start + m->p.os_timeslice;
    c->slice_ev = sim_at(m->eng, at, ev_slice, m, (uint64_t)c->id);
}

/* (The test inline: asked at every arrival and enqueue, true rarely.) */
static inline void arm_slice(struct machine *m, struct mach_core *c)
{
    if (c->slice_ev || c->state != CORE_BUSY || c->nrq == 0) return;
    arm_slice_now(m, c);
}

/* fair: the core re-picks at once (need_resched; an event, so that no
 * model continuation runs inside the call that asked). */
static void ask_resched(struct machine *m, struct mach_core *c, sim_time delay)
{
    if (!c->resched_ev) c->resched_ev = sim_after(m->eng, delay, ev_resched, m, (uint64_t)c->id);
}

/* Core c starts bringing task t in, taking `cost` (context switch or idle exit). */
static inline __attribute__((always_inline)) void begin_arrival(struct machine *m, struct mach_core *c, struct mach_task *t,
                          enum mach_core_state how, sim_time cost)
{
    if (how == CORE_WAKING && m->p.mark_after_idle) t->after_idle = UINT8_MAX;
    idle_mark(m, c, false);
    core_set(m, c, how, t);
    t->state = MT_ARRIVING;
    t->core = c->id;
    if (how == CORE_SWITCHING && fair_on(m)) fair_picked(m, t);  /* its run starts at the pick */
    if (m->p.wake_return > 0 && t->wake_return > 0) {  /* its FUTEX_WAIT returns (mach_wake) */
        cost += t->wake_return;
        t->wake_return = 0;
    }
    sim_event_id e = sim_after(m->eng, cost, ev_arrive, t, (uint64_t)(uintptr_t)m);
    if (m->stalls_on) {  /* a gap delays it (ev_steal, mach_stall_core) */
        c->arrive_ev = e;
        c->arrive_at = mach_end_of(mach_now_of(m), cost);
    }
}

/* Move task t, queued on src, to core dst (a balance); returns it,
 * READY, for dst to run. */
static struct mach_task *migrate_queued(struct machine *m, struct mach_core *src, struct mach_core *dst,
                                        struct mach_task *t)
{
    rq_remove(m, src, t);  /* (the head, mostly: found at once) */
    m->migrations++;
    fair_dequeue(m, src, t, true);  /* its lag goes along */
    fair_enqueue(m, dst, t, false);
    return t;
}

/* ---- the tick's kick of an idle core (nohz idle balance) -----------------
 *
 * A core that goes idle pulls a waiting task at once (dispatch, newidle
 * balance), but a core already idle is asleep: with nothing to do it takes
 * no tick (NO_HZ) and balances nothing.  When a wake queues a task behind
 * its busy waker although a core is idle (wake_pack), Linux has the busy
 * core's tick notice it: sched_tick -> sched_balance_trigger ->
 * nohz_balancer_kick sees two runnable tasks (rq->nr_running >= 2) and an
 * idle CPU and kicks that CPU (kick_ilb, an IPI), which runs the idle
 * balance for the idle CPUs (_nohz_idle_balance -> sched_balance_rq) and
 * pulls a task from the busiest queue (kernel/sched/fair.c, Linux 6.12;
 * trigger_load_balance before 6.10), one idle wake-up later.  A task that
 * ran less than sched_migration_cost ago (500 us, Linux's default) is
 * cache-hot (task_hot) and stays unless the domain's balance failed more
 * than cache_nice_tries times in a row (1 for CPUs sharing a last-level
 * cache, sd_init; can_migrate_task): it moves at the third tick.  The
 * model counts the failures per busy core.  Without this the
 * two threads of a 2-thread loop could share one core of two for the whole
 * run.  Not modelled: the kick's throttle (nohz.next_balance, about one
 * balance interval, a tick or two). */
#define NOHZ_MIGRATION_COST ((sim_time)500 * SIM_US)
#define NOHZ_CACHE_NICE_TRIES 1

/* task_hot's test: t ran less than sched_migration_cost ago.  Under the fair
 * class from se.exec_start, which update_curr brought to its last switch-out
 * (a preemption as well as a sleep: rq_clock_task - exec_start); under the
 * simplified `fifo` OS, which keeps no such clock, from the end of its last
 * sleep's run. */
static bool task_hot(const struct machine *m, const struct mach_task *t)
{
    sim_time ran = fair_on(m) ? t->se->exec_start : t->blocked_at;
    return mach_now_of(m) - ran < NOHZ_MIGRATION_COST;
}

static void nohz_arm(struct machine *m, struct mach_core *c)
{
    if (c->nohz_ev || m->p.os_tick <= 0) return;
    c->nohz_ev = sim_at(m->eng, mach_tick_ceil(&m->p, mach_now_of(m) + 1), ev_nohz_kick, m, (uint64_t)c->id);  /* the next tick */
}

static void ev_nohz_kick(void *obj, uint64_t arg)
{
    struct machine *m = obj;
    struct mach_core *c = &m->cores[arg];
    c->nohz_ev = 0;
    if (c->state == CORE_IDLE || c->nrq == 0) return;
    if (stalled(m, c, ev_nohz_kick, &c->nohz_ev)) return;  /* its tick comes after the gap */
    int i = first_idle_core(m);
    if (i < 0) return;
    if (task_hot(m, c->rq_head) && c->nohz_failed++ <= NOHZ_CACHE_NICE_TRIES) {
        nohz_arm(m, c);  /* cache-hot: the next tick tries again */
        return;
    }
    c->nohz_failed = 0;
    struct mach_core *dst = &m->cores[i];
    struct mach_task *t = migrate_queued(m, c, dst, c->rq_head);
    begin_arrival(m, dst, t, CORE_WAKING, idle_wake_latency(m, dst));
    if (c->nrq > 0) nohz_arm(m, c);  /* the next tick kicks another */
}

/* ---- a newly idle core's pull (newidle balance) --------------------------
 *
 * A core left with nothing to run balances at once (sched_balance_newidle ->
 * sched_balance_rq with CPU_NEWLY_IDLE, kernel/sched/fair.c), and pulls a
 * task from the busiest queue only if can_migrate_task lets it go: under
 * the fair class a task that ran less than sched_migration_cost ago
 * (task_hot: rq_clock_task - se.exec_start < 500 us) stays where its cache
 * is, unless that domain's periodic balance has failed more than
 * cache_nice_tries times in a row.  A newidle balance that moves nothing
 * does not count as a failure ("Increment the failure counter only on
 * periodic balance.  We do not want newidle balance, which can be very
 * frequent, pollute the failure counter causing excessive cache_hot
 * migrations", sched_balance_rq; commit 58b26c4c0257, 2010), so a queue
 * of hot tasks waits for the busy core's tick to kick the idle one
 * (nohz_arm above); and one that moved a task, like any balance that did,
 * resets the count (sched_balance_rq: `sd->nr_balance_failed = 0` when
 * ld_moved), so that after the failed kicks have let one hot task go, the
 * next hot one waits for failed kicks of its own.  (Without that reset the
 * model let every later newly idle core pull hot tasks at once: in the
 * 8-thread mtime loop on the Intel guest of 2026-12-06, 98% of about 5,000
 * pulls a run, each a GVL waiter woken behind the holder and moved within
 * 1 us, where the kernel moved 72 of 774, after 224 us at the median -
 * docs/validate.md, "The failures a pull forgets".)  detach_tasks looks at
 * no more than sysctl_sched_nr_migrate (32) of the queue's tasks.  Read from the kernel of the AMD EPYC guest with
 * scripts/bpf (docs/validate.md, session 30): a woken thread queued behind its
 * waker while the other CPU idled ran on the waker's CPU 458-642 times a run
 * of the 8-thread loop and went to the other CPU 49-72 times (after about a
 * millisecond), where the model, pulling every such thread at once, moved
 * 401-454 of them within 5 us.  The simplified `fifo` OS pulls any task. */
#define NEWIDLE_NR_MIGRATE 32
static struct mach_task *newidle_pick(const struct machine *m, const struct mach_core *src)
{
    if (!fair_on(m) || src->nohz_failed > NOHZ_CACHE_NICE_TRIES) return src->rq_head;
    int n = 0;
    for (struct mach_task *t = src->rq_head; t && n < NEWIDLE_NR_MIGRATE; t = t->rq_next, n++)
        if (!task_hot(m, t)) return t;
    return NULL;
}

/* The core's task left (blocked, exited, preempted): pick the next one. */
static inline __attribute__((always_inline)) void dispatch(struct machine *m, struct mach_core *c)
{
    struct mach_task *t;
    if (fair_on(m)) {
        t = fair_pick(m, c, false);
        if (t) rq_remove(m, c, t);
    } else {
        t = rq_pop(m, c);
    }
    if (!t && m->nrq_total > 0) {
        /* newidle balance: pull from the busiest queue its longest-waiting task that may go (newidle_pick) */
        struct mach_core *src = NULL;
        for (int i = 0; i < m->ncores; i++) {
            struct mach_core *o = &m->cores[i];
            if (o != c && o->nrq > 0 && (!src || o->nrq > src->nrq)) src = o;
        }
        if (src) {
            struct mach_task *p = newidle_pick(m, src);
            if (p) {
                t = migrate_queued(m, src, c, p);
                src->nohz_failed = 0;  /* a balance that moved a task (ld_moved) resets the failures */
            } else {
                nohz_arm(m, src);  /* all cache-hot: the busy core's tick kicks this one */
            }
        }
    }
    if (t) {
        begin_arrival(m, c, t, CORE_SWITCHING, m->p.context_switch);
        return;
    }
    core_set(m, c, CORE_IDLE, NULL);
    c->idle_at = mach_now_of(m);
    idle_mark(m, c, true);
}

/* Take task t (RUNNING on its core) off the core. */
static void leave_core(struct machine *m, struct mach_task *t)
{
    if (fair_on(m)) {
        fair_curr_stop(m, &m->cores[t->core], t);
        if (m->util_on) task_util_stop(t, mach_now_of(m));  /* (util_on: a fair class) */
    }
    t->last_core = t->core;
}

static void preempt(struct machine *m, struct mach_core *c, int to_head)
{
    struct mach_task *t = c->cur;
    if (t->in_burst) {
        sim_time now = mach_now_of(m);
        sim_cancel(m->eng, t->burst_ev);
        t->burst_ev = 0;
        if (t->rated) {  /* rated: bank the work done so far */
            t->rt->work_left -= rated_done(t, now);
            t->rt->seg_start = now;
        } else {
            t->burst_left = t->burst_end - now;
            if (m->scaled) t->burst_left = corun_work(t->burst_left, t->burst_f);
        }
        if (t->burst_cut) {  /* a requested cut survives the preemption */
            t->interrupt_pending = true;
            t->interrupt_delay = t->burst_cut > now ? t->burst_cut - now : 0;
            t->burst_cut = 0;
        }
    }
    leave_core(m, t);
    t->ivcsw++;
    t->state = MT_READY;
    /* preempted by a woken sleeper: it keeps the part of its time slice
     * already used (CFS: its vruntime goes on), or a stream of short
     * sleeper wake-ups would hand it a fresh slice each time and starve
     * the tasks queued behind it */
    if (to_head && !fair_on(m)) {
        t->slice_used = mach_now_of(m) - c->slice_start;
        rq_push_after_sleepers(m, c, t);
    } else {
        rq_push_tail(m, c, t);  /* fair classes pick by v, not by position */
    }
    if (t->in_burst && t->rated) rated_tell(t, false);
}

/* ---- events ------------------------------------------------------------- */

static void check_protocol(struct machine *m, struct mach_task *t)
{
    if (t->state == MT_RUNNING && !t->in_burst)
        protocol_error(m, t, "continuation ended without mach_burst, mach_block or mach_exit");
}

static void start_burst_timer(struct machine *m, struct mach_task *t)
{
    sim_time now = mach_now_of(m), end = t->burst_end;
    t->burst_cut = 0;
    if (t->interrupt_pending) {
        sim_time cut = now + t->interrupt_delay;
        if (cut < end) { end = cut; t->burst_cut = cut; }
        t->interrupt_pending = false;
    }
    /* (end is never before now: mach_end_of's, or now plus a delay >= 0) */
    t->burst_ev = sim_at_checked(m->eng, end, mach_ev_burst_end, t, (uint64_t)(uintptr_t)m);
}

static void ev_arrive(void *obj, uint64_t arg)
{
    struct mach_task *t = obj;
    struct machine *m = (struct machine *)(uintptr_t)arg;
    struct mach_core *c = &m->cores[t->core];
    core_set(m, c, CORE_BUSY, t);
    t->state = MT_RUNNING;
    c->slice_start = mach_now_of(m) - t->slice_used;
    t->slice_used = 0;
    if (fair_on(m)) {
        fair_curr_start(m, c, t);
        if (m->util_on) task_util_run(t, mach_now_of(m));  /* (util_on: a fair class) */
    }
    arm_slice(m, c);
    if (t->in_burst && t->rated) {  /* resume a rated burst */
        rated_start(m, t);
        return;
    }
    if (t->in_burst) {  /* resume a burst paused by preemption */
        if (m->scaled) t->burst_f = mach_burst_factor(m, t->core);
        t->burst_end = mach_end_of(mach_now_of(m), m->scaled ? corun_time(t->burst_left, t->burst_f) : t->burst_left);
        start_burst_timer(m, t);
        return;
    }
    mach_cont k = t->resume_k;
    t->resume_k = NULL;
    if (!k) { protocol_error(m, t, "arrived on a core with nothing to do"); return; }
    k(t, t->resume_ctx);
    check_protocol(m, t);
}

/* A rated burst's end event (out of line): its natural end or the cut
 * (rated_arm arms nothing else), with the units not done. */
static __attribute__((noinline)) void rated_end(struct mach_task *t, sim_time now)
{
    t->burst_left = t->rt->work_left - rated_done(t, now);  /* units, for a rated burst */
    t->rated = false;
    t->burst_cut = 0;
    t->in_burst = false;
    rated_tell(t, false);
}

void mach_ev_burst_end(void *obj, uint64_t arg)
{
    struct mach_task *t = obj;
    struct machine *m = (struct machine *)(uintptr_t)arg;
    sim_time now = mach_now_of(m);
    t->burst_ev = 0;
    if (__builtin_expect(t->rated, 0)) {
        rated_end(t, now);
    } else {
        t->burst_left = t->burst_end > now ? t->burst_end - now : 0;
        if (m->scaled) t->burst_left = corun_work(t->burst_left, t->burst_f);
        t->burst_cut = 0;
        t->in_burst = false;
    }
    t->burst_k(t, t->burst_ctx);
    check_protocol(m, t);
}

static void ev_slice(void *obj, uint64_t arg)
{
    struct machine *m = obj;
    struct mach_core *c = &m->cores[arg];
    c->slice_ev = 0;
    if (c->state != CORE_BUSY || c->nrq == 0) return;
    if (stalled(m, c, ev_slice, &c->slice_ev)) return;
    if (fair_on(m)) {
        if (!fair_tick(m, c)) { arm_slice(m, c); return; }
        struct mach_task *t = fair_pick(m, c, true);
        if (!t || t == c->cur) { arm_slice(m, c); return; }
        rq_remove(m, c, t);
        preempt(m, c, 0);
        begin_arrival(m, c, t, CORE_SWITCHING, m->p.context_switch);
        return;
    }
    if (mach_now_of(m) - c->slice_start < m->p.os_timeslice) { arm_slice(m, c); return; }
    preempt(m, c, 0);
    dispatch(m, c);
}

/* fair: a woken task (or an expired deadline) asked the core to re-pick. */
static void ev_resched(void *obj, uint64_t arg)
{
    struct machine *m = obj;
    struct mach_core *c = &m->cores[arg];
    c->resched_ev = 0;
    if (c->state != CORE_BUSY) return;
    if (stalled(m, c, ev_resched, &c->resched_ev)) return;
    struct mach_task *t = fair_pick(m, c, true);
    if (!t || t == c->cur) return;
    rq_remove(m, c, t);
    preempt(m, c, 0);
    begin_arrival(m, c, t, CORE_SWITCHING, m->p.context_switch);
}

/* update_curr for the reader: a fair class renews a passed deadline
 * whoever waits; it reschedules only with another task queued
 * (update_curr: nr_queued > 1) */
static void clock_update_curr(struct machine *m, struct mach_task *t)
{
    if (!fair_on(m) || t->state != MT_RUNNING || t->core < 0) return;
    struct mach_core *c = &m->cores[t->core];
    if (c->cur != t || c->state != CORE_BUSY) return;
    if (fair_tick(m, c) && c->nrq > 0) ask_resched(m, c, 0);
}

sim_sum mach_cpu_clock_read(struct machine *m, struct mach_task *t)
{
    clock_update_curr(m, t);
    sim_sum cpu = mach_cpu_time(m);
    sim_time now = mach_now_of(m);
    sim_time tick = m->p.os_tick > 0 ? now / m->p.os_tick * m->p.os_tick : now;  /* the last tick */
    for (int i = 0; i < m->ncores; i++) {
        struct mach_core *c = &m->cores[i];
        if (c->state != CORE_BUSY && c->state != CORE_SWITCHING) continue;
        if (i == t->core) {
            cpu += now - c->state_since;
            c->clock_synced = now;
            continue;
        }
        sim_time upto = tick;  /* the last update of its runtime: a tick, its own read, its switch */
        if (c->clock_synced > upto) upto = c->clock_synced;
        if (upto > c->state_since) cpu += upto - c->state_since;
    }
    return cpu;
}

/* fair: t joins busy core c's run queue (woken or arrived after the IPI)
 * and the core decides whether it preempts. */
static void fair_join(struct machine *m, struct mach_core *c, struct mach_task *t)
{
    t->state = MT_READY;
    t->core = c->id;
    rq_push_tail(m, c, t);
    fair_enqueue(m, c, t, false);
    if (fair_wakeup_preempt(m, c, t, false)) ask_resched(m, c, 0);
    arm_slice(m, c);
}

/* A task woken onto a busy remote core reaches its run queue (after the IPI). */
static void ev_enqueue(void *obj, uint64_t arg)
{
    struct mach_task *t = obj;
    struct machine *m = (struct machine *)(uintptr_t)arg;
    struct mach_core *c = &m->cores[t->core];
    if (c->state == CORE_IDLE) {  /* went idle meanwhile */
        if (fair_on(m)) fair_enqueue(m, c, t, false);
        begin_arrival(m, c, t, CORE_SWITCHING, m->p.context_switch);
        return;
    }
    if (fair_on(m)) {
        fair_join(m, c, t);
        return;
    }
    rq_push_tail(m, c, t);
    arm_slice(m, c);
}

static void ev_wake_preempt(void *obj, uint64_t arg)
{
    struct machine *m = obj;
    struct mach_core *c = &m->cores[arg];
    if (c->state != CORE_BUSY || !c->rq_head || !c->rq_head->wakeup_preempt) return;
    if (stalled(m, c, ev_wake_preempt, NULL)) return;
    struct mach_task *t = rq_pop(m, c);
    preempt(m, c, 1);
    begin_arrival(m, c, t, CORE_SWITCHING, m->p.context_switch);
}

/* ---- hidden steal (machine.h) ------------------------------------------- */

static void ev_steal(void *obj, uint64_t arg);

/* The machine's next gap, a Poisson process's next point from now.  Armed
 * when a core starts running a task and none had a gap pending; a gap that
 * falls while no core runs a task is dropped and the next busy start arms
 * again (the process has no memory, so this is the process thinned to the
 * time some core is busy). */
static void steal_arm(struct machine *m, struct mach_core *c)
{
    (void)c;
    if (m->steal_ev) return;
    sim_time at = mach_end_of(mach_now_of(m), rng_exp(&m->steal_rng, m->steal_mean_gap));
    m->steal_ev = sim_at(m->eng, at, ev_steal, m, 0);
}

/* Is core c inside a gap?  Then a reschedule waits for its end: the event
 * is posted again there (returns true). */
static bool stalled(struct machine *m, struct mach_core *c, sim_handler fn, sim_event_id *id)
{
    if (!m->stalls_on || mach_now_of(m) >= c->stall_until) return false;
    sim_event_id e = sim_at(m->eng, c->stall_until, fn, m, (uint64_t)c->id);
    if (id) *id = e;
    return true;
}

/* A gap of length g on a core whose task t runs a burst: the burst ends g
 * later (a requested cut too); t's virtual runtime takes the gap as the
 * clock goes on (fair.c reads wall time). */
static void stall_burst(struct machine *m, struct mach_task *t, sim_time g)
{
    sim_time now = mach_now_of(m);
    if (t->burst_cut) t->burst_cut = mach_end_of(t->burst_cut, g);
    if (t->rated) {  /* bank the work done, the rest from the gap's end */
        t->rt->work_left -= rated_done(t, now);
        t->rt->seg_start = mach_end_of(now, g);
        t->burst_end = mach_end_of(t->burst_end, g);
        rated_arm(m, t);
        return;
    }
    t->burst_end = mach_end_of(t->burst_end, g);
    sim_time at = t->burst_cut && t->burst_cut < t->burst_end ? t->burst_cut : t->burst_end;
    sim_cancel(m->eng, t->burst_ev);
    t->burst_ev = sim_at(m->eng, at, mach_ev_burst_end, t, (uint64_t)(uintptr_t)m);
}

/* Core c stops for g from now: a task arriving arrives g later, a running
 * burst ends g later (stall_burst); until then the core does not
 * reschedule (stalled).  True when it stopped a running task. */
static bool stall_core(struct machine *m, struct mach_core *c, sim_time now, sim_time g)
{
    struct mach_task *t = c->cur;
    sim_time until = mach_end_of(now, g);
    if ((c->state == CORE_SWITCHING || c->state == CORE_WAKING) && t && c->arrive_at > now) {
        /* a task arriving: its switch (or the core's wake-up) ends g later */
        sim_cancel(m->eng, c->arrive_ev);
        c->arrive_at = mach_end_of(c->arrive_at, g);
        c->arrive_ev = sim_at(m->eng, c->arrive_at, ev_arrive, t, (uint64_t)(uintptr_t)m);
        c->stall_until = until;
        return false;
    }
    if (c->state != CORE_BUSY || !t || t->state != MT_RUNNING || !t->in_burst) return false;
    stall_burst(m, t, g);
    c->stall_until = until;
    return true;
}

sim_time mach_stall_core(struct machine *m, int core, sim_time g)
{
    if (core < 0 || core >= m->ncores || g <= 0 || !m->stalls_on) return 0;
    struct mach_core *c = &m->cores[core];
    sim_time now = mach_now_of(m);
    /* inside a gap already: this one follows it (the vCPU is not running) */
    if (c->stall_until > now) g += c->stall_until - now;
    bool arriving = (c->state == CORE_SWITCHING || c->state == CORE_WAKING) && c->cur && c->arrive_at > now;
    if (!arriving && c->state != CORE_BUSY) return 0;
    sim_time rest = c->stall_until > now ? c->stall_until - now : 0;
    /* the task's burst (or arrival) has the gap under way in it already */
    if (stall_core(m, c, now, g - rest) || arriving) {
        c->stall_until = mach_end_of(now, g);
        return g;
    }
    return 0;
}

/* A gap: every core running a task loses it at once, and a core bringing a
 * task in (a switch, an idle core's wake-up) finishes g later (on the AMD
 * EPYC guest 93-97% of one vCPU's gaps overlapped a gap of the other while
 * both ran: the host stops the whole guest, not one vCPU). */
static void ev_steal(void *obj, uint64_t arg)
{
    (void)arg;
    struct machine *m = obj;
    m->steal_ev = 0;
    if (m->nbusy == 0) return;  /* the next busy start arms again */
    sim_time g = m->steal_len[rng_uniform(&m->steal_rng, 0, m->p.steal_nlen - 1)];
    sim_time now = mach_now_of(m), until = mach_end_of(now, g);
    if (g > 0) {
        for (int i = 0; i < m->ncores; i++) {
            if (!stall_core(m, &m->cores[i], now, g)) continue;
            m->steals++;
            m->stolen += g;
            if (m->obs.steal) m->obs.steal(m->obs.ctx, i, m->cores[i].cur, now, g);
        }
    }
    /* the next gap: from this one's end */
    m->steal_ev = sim_at(m->eng, mach_end_of(until, rng_exp(&m->steal_rng, m->steal_mean_gap)), ev_steal, m, 0);
}

/* ---- placement ---------------------------------------------------------- */

/* A latency's spread, +-jitter of its mean (0: no draw). */
static sim_time wake_spread(sim_time mean, double jitter)
{
    if (jitter <= 0 || mean <= 0) return 0;
    return (sim_time)((double)mean * jitter);
}

static sim_time wake_latency(struct machine *m, sim_time mean, sim_time spread)
{
    if (spread <= 0) return mean;  /* (a zero spread would draw nothing either) */
    return rng_uniform(&m->rng, mean - spread, mean + spread);
}


/* Waking idle core c: wake_idle_core (drawn), and the more the longer c
 * has been idle (wake_idle_extra, machine.h).  Linux's cpuidle governors
 * (menu, teo) pick a deeper idle state the longer a CPU is expected to
 * stay idle, and a deeper state takes longer to leave (intel_idle.c gives
 * each state an exit latency beside its target residency); a KVM guest's
 * vCPU idle past the host's halt_poll_ns is descheduled and must be woken
 * by the host (Documentation/virt/kvm/halt-polling.rst).  Measured per
 * machine (`gvlsim calibrate`: wake_after_idle_*, docs/validate.md); a
 * trace shows it in its hand-offs by quiet time (`gvlsim import`). */
static __attribute__((noinline)) sim_time idle_extra_at(const struct machine *m, const struct mach_core *c)
{
    return gv_curve_at(&m->idle_extra, mach_now_of(m) - c->idle_at);
}

/* A wake onto idle core c, made by a running waker on another core, before
 * c's vCPU halted: c went idle less than wake_prehalt_window ago and (a
 * share wake_prehalt_share of such wakes; a draw below 1) the wakee is
 * still on its way into its FUTEX_WAIT there.  The waker sends no IPI (it
 * pays wake_prehalt_cost, the model's futex_wake: mach_wake_waking_cost,
 * models/vm.h vm_wake_cost), and
 * the wakee, back out of its wait, runs wake_prehalt_return after c went
 * idle - whenever the wake came - instead of wake_idle_core after the
 * wake.  On the 2-vCPU Intel Xeon guest of Linux 6.18.44-fc-v1300
 * (2026-12-08; scripts/wake_after_sleep.c) a wake 1-6 us after the
 * sleeper's FUTEX_WAIT cost its waker 0.7 us in 68-98% of the wakes, and
 * the sleeper was back 16-18 us after its call; from 9 us on nearly every
 * wake cost 9-10 us (the IPI to a halted vCPU) and took 25 us.  In the
 * pthread executor's and Debian Ruby 3.1.2's 2-thread mtime loops there a
 * wake that woke someone cost its waker a mean 4.2 and 3.7 us: most of the
 * hand-offs came before the halt (docs/validate.md, "A wake before the
 * vCPU halts").  *lat gets the latency; false: an ordinary idle wake. */
static __attribute__((noinline)) bool prehalt_wake(struct machine *m, const struct mach_core *c, sim_time *lat)
{
    sim_time idle = mach_now_of(m) - c->idle_at;
    if (idle >= m->p.wake_prehalt_window) return false;
    if (m->prehalt_below > 0 && rng_next(&m->rng) >= m->prehalt_below) return false;
    *lat = m->p.wake_prehalt_return > idle ? m->p.wake_prehalt_return - idle : 0;
    return true;
}

/* (Inline, the curve out of line: about every other wake is one.) */
static inline sim_time idle_wake_latency(struct machine *m, const struct mach_core *c)
{
    sim_time d = wake_latency(m, m->p.wake_idle_core, m->idle_spread);
    if (m->idle_extra.n > 0) d += idle_extra_at(m, c);
    return d;
}

/* ---- the idle-core search and the cache's utilization (SIS_UTIL) --------
 *
 * A wakee whose previous CPU is busy looks for an idle one in the
 * last-level cache only if that cache is not too busy: select_idle_cpu
 * (kernel/sched/fair.c) scans at most nr_idle_scan CPUs and, at 0,
 * none ("overloaded LLC is unlikely to have idle cpu/core"), leaving the
 * wakee on its target, the waker's CPU (or its previous one), behind the
 * task running there, although another CPU idles.  update_idle_cpu_scan
 * sets nr_idle_scan = llc_weight x (1 - (x x imbalance_pct / 100)^2),
 * floored and never below 0, where x is the mean utilization of the
 * cache's CPUs and imbalance_pct 117 for a cache-sharing domain (sd_init):
 * on 2 CPUs no scan at all once the CPUs are busy 60.4% of the time
 * on average ("sched/fair: Introduce SIS_UTIL to search idle CPU based on
 * sum of util_avg", Chen Yu, Linux 6.0; the default since).  Measured on
 * the Intel guest of 2026-12-06 (docs/validate.md, "The cache too busy to
 * look"): a wakee whose previous CPU is its waker's, which spins, with the
 * other CPU idle, ran on the other CPU after a window in which that one
 * was busy 0-20% of the time and stayed behind the waker after 30-100%.
 *
 * The model keeps one utilization for all cores (the sum of the CPUs'
 * util_avg is the decayed CPU time of the tasks, wherever they ran): the
 * share of time the cores were busy, averaged as PELT does (halving over
 * MACH_UTIL_HALF), brought up to date at each such wake with the busy time
 * since the last one taken as spread evenly over it.  Not modelled: that
 * Linux refreshes nr_idle_scan only at a periodic load balance (tens of
 * milliseconds apart on a busy CPU); util_est; a scan shorter than the
 * cache (any idle core is found while nr_idle_scan > 0); the wakee's
 * recent_used_cpu, tried before the scan.  The `cfs` scheduler (before
 * 6.6) spans SIS_PROP and SIS_UTIL kernels: neither is modelled there. */
#define SIS_UTIL_IMBALANCE_PCT 117

static int llc_idle_scan(struct machine *m)
{
    sim_time now = mach_now_of(m);
    sim_time dt = now - m->llc_util_at;
    if (dt > 0) {
        sim_sum area = busy_area_to(m, now);
        double busy = (double)(area - m->llc_area_at) / ((double)dt * m->ncores);
        double d = exp2(-(double)dt / (double)MACH_UTIL_HALF);
        m->llc_util = m->llc_util * d + busy * (1 - d);
        m->llc_util_at = now;
        m->llc_area_at = area;
    }
    double x = m->llc_util * SIS_UTIL_IMBALANCE_PCT / 100.0;
    return x >= 1 ? 0 : (int)(m->ncores * (1 - x * x));
}

/* The least loaded core when none is idle, so that every core's load is
 * 1 + its queue length; ties go to the wakee's previous core (`last`), then
 * the waker's (`wcore`), then the lowest index.  One core may count one
 * less (`light`): a waker that sleeps most of the time (wakeup_preempt: the
 * timer thread, a policy helper) adds next to nothing to its core's load
 * average, so Linux's wake_affine_weight favours that core and the wakee
 * runs there as soon as the waker goes back to sleep.  (Counting it as a
 * full task sent the wakee behind a busy core's long burst while the
 * waker's core went idle.)  The rq_min tree's root is the lowest-index
 * core with the shortest queue; only `light` can beat or tie it otherwise. */
static int least_loaded(const struct machine *m, int last, int wcore, int light)
{
#define LOAD(i) (1 + m->cores[i].nrq - ((i) == light))
    int shortest = shortest_rq(m);
    int min = LOAD(shortest);
    if (light >= 0 && LOAD(light) < min) min = LOAD(light);
    if (last >= 0 && LOAD(last) == min) return last;
    if (wcore >= 0 && LOAD(wcore) == min) return wcore;
    if (light >= 0 && LOAD(light) == min && (LOAD(shortest) != min || light < shortest)) return light;
    return shortest;
#undef LOAD
}

/* Does a wakee whose previous core is its running waker's stay there,
 * behind the waker, although another core is idle?  Only after a sleep
 * shorter than wake_pack_sleep (0: any sleep); then with the share
 * wake_pack p: always at 1, never at 0 (mainline select_idle_sibling, and
 * no draw, so such a machine's runs are as before), else a draw from the
 * machine's stream (the same seed gives the same choices).  Measured by
 * `gvlsim calibrate` (wake_pack_short, wake_pack_sleep_ns): in a
 * micro-benchmark this repository's 2-vCPU guest keeps almost every such
 * wake after a sleep of up to about 300 us on the waker's vCPU (waking the
 * idle, halted vCPU would take the host) and sends almost every one after
 * 0.5 ms or more to the idle vCPU; in Ruby's own runs it kept long sleepers
 * too (docs/validate.md).  And, under a fair class, only while the
 * waker's and the wakee's utilizations (task_util) sum below
 * wake_pack_util (when > 0): on the AMD EPYC guest of 2026-12-04 a wakee
 * stayed behind its waker every time when the waker's CPU had been busy
 * 70% of the 100 ms before, never at 75%, and the wakee's own recent
 * running counted too (scripts/pack_util.c;
 * docs/validate.md, "Where the threads ran"): the benchmark's pair, idle
 * most of the time, is packed, a ping-pong whose threads keep their CPUs
 * busy is not. */
static bool pack_draw(struct machine *m, const struct mach_task *t, const struct mach_task *waker)
{
    if (m->p.wake_pack <= 0) return false;
    if (m->p.wake_pack_sleep > 0 && mach_now_of(m) - t->blocked_at >= m->p.wake_pack_sleep) return false;
    if (m->util_on && task_util(waker, mach_now_of(m)) + task_util(t, mach_now_of(m)) >= m->p.wake_pack_util)
        return false;
    if (m->p.wake_pack >= 1) return true;
    return rng_next(&m->rng) < m->pack_below;
}

/* What waking t onto core c was for a waker running on core wcore (-1:
 * none): REMOTE on another core; on the waker's own, a hand-off chain if t
 * last ran there and the core has not been idle since t went to sleep,
 * else a plain local wake.  The chain's wake costs the waker
 * futex_wake_chain (calibrate: the one-CPU futex ping-pong's hand-off -
 * context_switch); futex_wake is measured after a pause with the CPU idle,
 * and on the development guest cost several times more (docs/validate.md). */
static int wake_kind(const struct mach_core *c, const struct mach_task *t, int wcore)
{
    if (wcore < 0) return MACH_WAKE_LOCAL;
    if (c->id != wcore) return MACH_WAKE_REMOTE;
    return t->last_core == c->id && c->idle_at < t->blocked_at ? MACH_WAKE_CHAIN : MACH_WAKE_LOCAL;
}

/* Returns MACH_WAKE_REMOTE if the task goes to a core other than the
 * waker's (the waker sends an IPI), else MACH_WAKE_CHAIN or
 * MACH_WAKE_LOCAL (wake_kind; LOCAL without a waker). */
static inline __attribute__((always_inline)) int place(struct machine *m, struct mach_task *t, const struct mach_task *waker,
                                                        bool own_timer)
{
    int wcore = waker && waker->state == MT_RUNNING ? waker->core : -1;
    bool initial = t->state == MT_NEW;
    if (fair_on(m) && t->se->delayed && !fair_wake_delayed_dequeue(m, &m->cores[t->se->rq_core], t)) {
        /* 6.12 ttwu_runnable: still on its core's run queue (delayed) and
         * alone there (or pinned): put back there by the waker, who takes
         * that core's lock; a remote core notices a preemption after the
         * IPI.  (With other tasks on that queue it was dequeued and is
         * placed below like any woken task.) */
        struct mach_core *c = &m->cores[t->se->rq_core];
        fair_requeue_delayed(m, c, t);
        t->state = MT_READY;
        t->core = c->id;
        rq_push_tail(m, c, t);
        if (fair_wakeup_preempt(m, c, t, true))
            ask_resched(m, c, c->id == wcore || wcore < 0 ? 0 : wake_latency(m, m->p.wake_busy_core, m->busy_spread));
        arm_slice(m, c);
        return wake_kind(c, t, wcore);
    }
    /* 1. an idle core: the previous one first (cache affinity), else the
     * lowest - unless the machine packs (below) */
    int target = -1;
    if (t->last_core >= 0 && core_idle(m, t->last_core)) target = t->last_core;
    if (target < 0) target = first_idle_core(m);
    bool unscanned = target >= 0 && target != t->last_core && t->last_core >= 0 && m->sis_util &&
                     llc_idle_scan(m) == 0;
    if (target >= 0 && !unscanned && !(t->last_core == wcore && wcore >= 0 && pack_draw(m, t, waker))) {
        if (fair_on(m)) fair_enqueue(m, &m->cores[target], t, initial);
        /* a timer of the wakee's own idle core wakes that core itself:
         * no IPI, and the machine's timer_wake (charged by the model)
         * holds the expiry's latency (mach_wake_timer) */
        bool timer_own = own_timer && target == t->last_core;
        sim_time lat = timer_own ? 0 : idle_wake_latency(m, &m->cores[target]);
        if (m->p.wake_prehalt_window > 0 && wcore >= 0 && !timer_own && prehalt_wake(m, &m->cores[target], &lat))
            m->last_waking_cost = m->p.wake_prehalt_cost;
        /* of a running waker's wake, what the guest charges the wakee: its
         * FUTEX_WAIT's way in and out around the halted vCPU (calibrate's
         * wake_idle_cpu_ns: 9-13 us of a 24-30 us wake on an AMD EPYC guest,
         * docs/validate.md, "Where the threads ran"); CPU time, not idle
         * time, with the same timing.  (A thread's start or a wake without
         * a waker is no FUTEX_WAIT's return: not measured, not charged.) */
        sim_time charged = wcore >= 0 ? (m->p.wake_idle_cpu < lat ? m->p.wake_idle_cpu : lat) : 0;
        m->cores[target].wake_cpu_time += charged;
        if (m->util_on) t->se->util_charged = charged;
        if (wcore >= 0 && m->ipi_extra.n > 0)
            m->last_ipi_extra = gv_curve_at(&m->ipi_extra, mach_now_of(m) - m->cores[target].idle_at);
        begin_arrival(m, &m->cores[target], t, CORE_WAKING, lat);
        return wcore >= 0 ? MACH_WAKE_REMOTE : MACH_WAKE_LOCAL;
    }
    /* 2. no idle core: the least loaded run queue; packed: the waker's core,
     * whose next tick kicks the idle one (nohz_arm); not scanned for
     * (llc_idle_scan): the waker's core or the wakee's previous one,
     * whichever has the shorter queue (the previous one on a tie:
     * wake_affine_weight's bias), its tick kicking the idle one as well */
    bool packed = target >= 0;
    if (unscanned) {
        m->wakes_unscanned++;
        target = wcore >= 0 && m->cores[wcore].nrq < m->cores[t->last_core].nrq ? wcore : t->last_core;
    } else {
        target = packed ? wcore : least_loaded(m, t->last_core, wcore, waker && waker->wakeup_preempt ? wcore : -1);
    }
    struct mach_core *c = &m->cores[target];
    if (packed) nohz_arm(m, c);
    if (fair_on(m) && (waker == NULL || target == wcore)) {
        if (initial) {
            t->state = MT_READY;
            t->core = target;
            rq_push_tail(m, c, t);
            fair_enqueue(m, c, t, true);
            arm_slice(m, c);
        } else {
            fair_join(m, c, t);
        }
        return wake_kind(c, t, wcore);  /* c is the waker's core, or no waker */
    }
    t->state = MT_READY;
    t->core = target;
    /* a remote core still waking up for another wake (its arrival under
     * way): a wake onto it costs the waker what wake_waking says, drawn
     * (vm_wake_cost) - on the Intel Xeon guest such a second FUTEX_WAKE,
     * made while the vCPU is still coming out of halt, cost its waker more
     * and more unevenly than the first (calib_wake.c) */
    if (m->nwaking > 0 && wcore >= 0 && target != wcore && c->state == CORE_WAKING)
        m->last_waking_cost = m->waking_cost[rng_uniform(&m->rng, 0, m->nwaking - 1)];
    if (fair_on(m)) {
        /* remote busy core: it joins the queue after the IPI (ev_enqueue) */
        sim_after(m->eng, wake_latency(m, m->p.wake_busy_core, m->busy_spread), ev_enqueue, t, (uint64_t)(uintptr_t)m);
    } else if (t->wakeup_preempt) {
        rq_push_head(m, c, t);
        sim_at(m->eng, mach_now_of(m), ev_wake_preempt, m, (uint64_t)target);
    } else if (waker == NULL || target == wcore) {
        rq_push_tail(m, c, t);  /* the core's own timer interrupt, or the waker's core */
        arm_slice(m, c);
    } else {
        sim_after(m->eng, wake_latency(m, m->p.wake_busy_core, m->busy_spread), ev_enqueue, t, (uint64_t)(uintptr_t)m);
    }
    return wake_kind(c, t, wcore);
}

/* ---- the model-facing calls --------------------------------------------- */

void mach_start(struct machine *m, struct mach_task *t, mach_cont k, void *ctx)
{
    if (t->state != MT_NEW) { protocol_error(m, t, "started twice"); return; }
    t->resume_k = k;
    t->resume_ctx = ctx;
    place(m, t, NULL, false);
}

/* mach_burst's general case (machine.h: the common one is inline there) */
void mach_burst_general(struct machine *m, struct mach_task *t, sim_time d, mach_cont k, void *ctx)
{
    if (t->state != MT_RUNNING || t->in_burst) {
        protocol_error(m, t, "mach_burst while not running or already in a burst");
        return;
    }
    t->in_burst = true;
    t->burst_k = k;
    t->burst_ctx = ctx;
    if (m->scaled) t->burst_f = mach_burst_factor(m, t->core);
    t->burst_end = mach_end_of(mach_now_of(m), m->scaled ? corun_time(d, t->burst_f) : d);
    t->interrupt_pending = false;
    start_burst_timer(m, t);
}

/* ---- rated bursts ------------------------------------------------------- */

static struct mach_rated *rated_new(struct machine *m)
{
    struct mach_rated_pool *p = m->rated;
    if (!p || p->used == RATED_CHUNK) {
        p = calloc(1, sizeof *p);
        if (!p) return NULL;
        p->next = m->rated;
        m->rated = p;
    }
    return &p->r[p->used++];
}

sim_time mach_work_time(sim_time work, uint64_t num, uint64_t den)
{
    if (work <= 0) return 0;
    if (den == 0) return SIM_TIME_MAX;
    unsigned __int128 x = (unsigned __int128)(uint64_t)work * num + den / 2;
    x /= den;
    return x > (unsigned __int128)SIM_TIME_MAX ? SIM_TIME_MAX : (sim_time)x;
}

/* Units done since seg_start: the planned segment's work in proportion to
 * the time elapsed, floored; all of it once the planned end is reached. */
static sim_time rated_done(const struct mach_task *t, sim_time now)
{
    sim_time span = t->burst_end - t->rt->seg_start, el = now - t->rt->seg_start;
    if (el <= 0) return 0;
    if (el >= span) return t->rt->work_left;
    return (sim_time)((unsigned __int128)(uint64_t)t->rt->work_left * (uint64_t)el / (uint64_t)span);
}

static void rated_plan(struct machine *m, struct mach_task *t)
{
    sim_time now = mach_now_of(m), d = mach_work_time(t->rt->work_left, t->rt->rate_num, t->rt->rate_den);
    if (m->scaled) {
        t->burst_f = mach_burst_factor(m, t->core);
        d = corun_time(d, t->burst_f);
    }
    t->rt->seg_start = now;
    t->burst_end = mach_end_of(now, d);
}

/* (Re)arm the end event at the natural end or the cut, whichever is first.
 * Rates change often (every time a core starts or stops contending), and
 * each change cancels the armed end and arms another: the engine drops
 * such dead entries once they outnumber the live ones (engine_heap.c,
 * compact), so an end planned seconds ahead costs nothing while it waits. */
static void rated_arm(struct machine *m, struct mach_task *t)
{
    sim_time at = t->burst_end;
    if (t->burst_cut && t->burst_cut < at) at = t->burst_cut;
    if (t->burst_ev && t->rt->burst_ev_at == at) return;
    sim_cancel(m->eng, t->burst_ev);
    t->rt->burst_ev_at = at;
    t->burst_ev = sim_at(m->eng, at, mach_ev_burst_end, t, (uint64_t)(uintptr_t)m);
}

static void rated_tell(struct mach_task *t, bool running)
{
    const struct mach_rate_hook *h = t->rt->hook;
    if (h && h->on_cpu) h->on_cpu(h->ctx, t, running);
}

/* The burst (new, or resumed after a preemption) executes from now on. */
static void rated_start(struct machine *m, struct mach_task *t)
{
    rated_plan(m, t);
    t->burst_cut = 0;
    if (t->interrupt_pending) {
        t->burst_cut = mach_now_of(m) + t->interrupt_delay;
        t->interrupt_pending = false;
    }
    t->burst_ev = 0;
    rated_arm(m, t);
    rated_tell(t, true);
}

void mach_burst_rated(struct machine *m, struct mach_task *t, sim_time work, uint64_t rate_num,
                      uint64_t rate_den, const struct mach_rate_hook *hook, mach_cont k, void *ctx)
{
    if (t->state != MT_RUNNING || t->in_burst) {
        protocol_error(m, t, "mach_burst_rated while not running or already in a burst");
        return;
    }
    if (rate_num == 0 || rate_den == 0) {
        protocol_error(m, t, "mach_burst_rated with a zero rate term");
        return;
    }
    if (!t->rt && !(t->rt = rated_new(m))) {
        m->oom = true;
        sim_stop(m->eng);
        return;
    }
    t->in_burst = true;
    t->rated = true;
    t->burst_k = k;
    t->burst_ctx = ctx;
    t->rt->work_left = work > 0 ? work : 0;
    t->rt->rate_num = rate_num;
    t->rt->rate_den = rate_den;
    t->rt->hook = hook;
    t->interrupt_pending = false;
    rated_start(m, t);
}

/* A running rated burst: bank the work done, plan the rest at today's rates. */
static void rated_replan(struct machine *m, struct mach_task *t)
{
    t->rt->work_left -= rated_done(t, mach_now_of(m));
    rated_plan(m, t);
    rated_arm(m, t);
}

void mach_burst_set_rate(struct machine *m, struct mach_task *t, uint64_t rate_num,
                         uint64_t rate_den)
{
    if (!t->in_burst || !t->rated || rate_num == 0 || rate_den == 0) return;
    if (rate_num == t->rt->rate_num && rate_den == t->rt->rate_den) return;
    if (t->state == MT_RUNNING) {
        t->rt->work_left -= rated_done(t, mach_now_of(m));
        t->rt->rate_num = rate_num;
        t->rt->rate_den = rate_den;
        rated_plan(m, t);
        rated_arm(m, t);
    } else {  /* paused: the new rate applies when it runs again */
        t->rt->rate_num = rate_num;
        t->rt->rate_den = rate_den;
    }
}

int mach_interrupt(struct machine *m, struct mach_task *t, sim_time delay)
{
    if (!t->in_burst) return 0;
    if (delay < 0) delay = 0;
    if (t->state != MT_RUNNING) {  /* paused by preemption or arriving */
        if (!t->interrupt_pending || delay < t->interrupt_delay) t->interrupt_delay = delay;
        t->interrupt_pending = true;
        return 1;
    }
    sim_time cut = mach_now_of(m) + delay;
    if (t->rated) {  /* its end may still move: remember the cut whatever it is */
        if (t->burst_cut && t->burst_cut <= cut) return 1;
        t->burst_cut = cut;
        rated_arm(m, t);
        return 1;
    }
    if (cut >= t->burst_end) return 1;          /* ends before the safe point anyway */
    if (t->burst_cut && t->burst_cut <= cut) return 1;
    sim_cancel(m->eng, t->burst_ev);
    t->burst_cut = cut;
    t->burst_ev = sim_at(m->eng, cut, mach_ev_burst_end, t, (uint64_t)(uintptr_t)m);
    return 1;
}

void mach_block(struct machine *m, struct mach_task *t, mach_cont k, void *ctx)
{
    if (t->state != MT_RUNNING || t->in_burst) {
        protocol_error(m, t, "mach_block while not running or in a burst");
        return;
    }
    struct mach_core *c = &m->cores[t->core];
    leave_core(m, t);
    if (fair_on(m)) fair_dequeue_sleep(m, c, t);
    t->vcsw++;
    t->state = MT_BLOCKED;
    t->blocked_at = mach_now_of(m);
    t->resume_k = k;
    t->resume_ctx = ctx;
    t->core = -1;
    dispatch(m, c);
}

int mach_wake(struct machine *m, struct mach_task *t, const struct mach_task *waker)
{
    m->last_ipi_extra = 0;
    m->last_waking_cost = -1;
    if (t->state != MT_BLOCKED) return 0;
    int kind = place(m, t, waker, false);
    /* A hand-off chain on one core: the sleeper's FUTEX_WAIT (its way back
     * out of the kernel, and in, which nothing could interrupt on one
     * core) is its own CPU, not its waker's; it pays it once switched back
     * in (begin_arrival), before its code runs.  Where that time lands
     * decides whose virtual runtime it raises, and so which thread a
     * hidden-steal gap hits and whether the next wake preempts
     * (docs/validate.md, "the sleeper's own FUTEX_WAIT"). */
    if (kind == MACH_WAKE_CHAIN) t->wake_return = m->p.wake_return;
    return kind;
}

sim_time mach_wake_draw(struct machine *m, sim_time mean)
{
    return wake_latency(m, mean, wake_spread(mean, m->p.wake_jitter));
}

int mach_wake_timer(struct machine *m, struct mach_task *t)
{
    if (t->state != MT_BLOCKED) return 0;
    return place(m, t, NULL, true);
}

void mach_exit(struct machine *m, struct mach_task *t)
{
    if (t->state != MT_RUNNING || t->in_burst) {
        protocol_error(m, t, "mach_exit while not running or in a burst");
        return;
    }
    struct mach_core *c = &m->cores[t->core];
    leave_core(m, t);
    if (fair_on(m)) fair_dequeue(m, c, t, false);
    t->state = MT_DEAD;
    t->core = -1;
    dispatch(m, c);
}

void mach_yield(struct machine *m, struct mach_task *t, mach_cont k, void *ctx)
{
    if (t->state != MT_RUNNING || t->in_burst) {
        protocol_error(m, t, "mach_yield while not running or in a burst");
        return;
    }
    struct mach_core *c = &m->cores[t->core];
    struct mach_task *next = NULL;
    if (c->nrq > 0) next = fair_on(m) ? fair_yield(m, c, t) : c->rq_head;
    if (!next) {
        k(t, ctx);
        return;
    }
    t->resume_k = k;
    t->resume_ctx = ctx;
    rq_remove(m, c, next);
    preempt(m, c, 0);
    begin_arrival(m, c, next, CORE_SWITCHING, m->p.context_switch);
}
