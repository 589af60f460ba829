/* fair.c - CFS and EEVDF on the machine's cores (the rules are in fair.h).
 *
 * Names follow kernel/sched/fair.c of Linux 6.12: place_entity,
 * update_entity_lag, update_curr/update_deadline, pick_eevdf,
 * check_preempt_wakeup_fair, requeue_delayed_entity,
 * finish_delayed_dequeue_entity.  All weights are equal (nice 0), so a
 * virtual runtime advances at the rate of real time and V is the plain
 * average of the v of the tasks on a core's run queue.  V and eligibility
 * are computed exactly, from a 128-bit sum of the v.
 */
#include "fair.h"

#include <stddef.h>

#include "machine.h"

static bool is_eevdf(const struct machine *m)
{
    return m->p.sched == MACH_SCHED_EEVDF || m->p.sched == MACH_SCHED_EEVDF_DELAY;
}

static sim_time now_of(const struct machine *m) { return sim_now(m->eng); }

/* CFS's tunables from the minimum granularity (os_timeslice): the kernel's
 * defaults are latency 6 ms, min_granularity 0.75 ms, wakeup_granularity
 * 1 ms, each x (1 + ilog2(min(CPUs, 8))). */
static sim_time cfs_latency(const struct machine *m) { return 8 * m->p.os_timeslice; }
static sim_time cfs_wakeup_gran(const struct machine *m) { return m->p.os_timeslice * 4 / 3; }

static sim_time tick_ceil(const struct machine *m, sim_time t) { return mach_tick_ceil(&m->p, t); }

static sim_time floor_div(__int128 a, int n)
{
    __int128 q = a / n;
    if ((a % n) != 0 && a < 0) q--;
    return (sim_time)q;
}

/* c's running task, if it runs now (its v grows). */
static struct mach_task *running(const struct mach_core *c)
{
    return c->state == CORE_BUSY && c->cur && c->cur->state == MT_RUNNING ? c->cur : NULL;
}

/* update_deadline at the ticks in (from, to] while its task ran all along:
 * at the first tick where v >= deadline the deadline becomes v + slice,
 * and again every ceil(slice / tick) ticks after. */
static void tick_deadlines(const struct machine *m, struct fair_se *se, sim_time from, sim_time to)
{
    sim_time s = m->p.os_timeslice, T = m->p.os_tick > 0 ? m->p.os_tick : 1;
    sim_time reach = from + (se->deadline > se->v ? se->deadline - se->v : 0);
    sim_time first = tick_ceil(m, reach > from ? reach : from + 1);
    if (first > to) return;
    sim_time period = tick_ceil(m, s > 0 ? s : 1);
    if (period < T) period = T;
    sim_time last = first + (to - first) / period * period;
    se->deadline = se->v + (last - from) + s;
    se->protect = false;
}

/* update_curr: bring the running task's v to now (and, EEVDF, renew its
 * deadline where ticks or now find it passed).  Returns true if the
 * deadline was renewed now (update_deadline asks for a resched). */
static bool update_curr_at(struct machine *m, struct mach_core *c, sim_time now)
{
    struct mach_task *t = running(c);
    if (!t || now <= t->se->exec_start) return false;
    sim_time dv = now - t->se->exec_start;
    bool renewed = false;
    if (is_eevdf(m)) {
        tick_deadlines(m, t->se, t->se->exec_start, now - 1);  /* ticks strictly before now */
    }
    t->se->v += dv;
    c->frq.sum += dv;
    t->se->exec_start = now;
    if (is_eevdf(m) && t->se->v >= t->se->deadline) {
        t->se->deadline = t->se->v + m->p.os_timeslice;
        t->se->protect = false;
        renewed = true;
    }
    return renewed;
}

static bool update_curr(struct machine *m, struct mach_core *c) { return update_curr_at(m, c, now_of(m)); }

/* avg_vruntime: V of c (floored), or its base when the queue is empty. */
static sim_time avg_v(const struct mach_core *c)
{
    if (c->frq.nr <= 0) return c->frq.vbase;
    return floor_div(c->frq.sum, c->frq.nr);
}

/* entity_eligible: V >= v, exactly: sum >= v * nr. */
static bool eligible(const struct mach_core *c, const struct mach_task *t)
{
    return c->frq.sum >= (__int128)t->se->v * c->frq.nr;
}

static sim_time clamp_lag(const struct machine *m, sim_time lag)
{
    sim_time lim = 2 * m->p.os_timeslice;
    if (lim < m->p.os_tick) lim = m->p.os_tick;
    return lag > lim ? lim : lag < -lim ? -lim : lag;
}

static void rq_add(struct mach_core *c, struct mach_task *t)
{
    t->se->on_rq = true;
    t->se->rq_core = c->id;
    c->frq.sum += t->se->v;
    c->frq.nr++;
}

static void rq_sub(struct mach_core *c, struct mach_task *t)
{
    if (!t->se->on_rq) return;
    c->frq.sum -= t->se->v;
    c->frq.nr--;
    t->se->on_rq = false;
    t->se->rq_core = -1;
    if (c->frq.nr == 0) {
        c->frq.vbase = t->se->v;  /* the queue's time goes on from its last task */
        c->frq.sum = 0;
    }
}

/* CFS: min_vruntime, monotonic. */
static sim_time min_vruntime(struct mach_core *c)
{
    bool any = false;
    sim_time mn = 0;
    for (struct mach_task *q = c->rq_head; q; q = q->rq_next)
        if (q->se->on_rq && (!any || q->se->v < mn)) { mn = q->se->v; any = true; }
    if (c->cur && c->cur->se->on_rq && (!any || c->cur->se->v < mn)) { mn = c->cur->se->v; any = true; }
    if (any && mn > c->frq.vbase) c->frq.vbase = mn;
    return c->frq.vbase;
}

static void delayed_remove(struct mach_core *c, struct mach_task *t)
{
    struct mach_task **pp = &c->frq.delayed;
    while (*pp && *pp != t) pp = &(*pp)->se->dnext;
    if (*pp) {
        *pp = t->se->dnext;
        c->frq.ndelayed--;
    }
    t->se->dnext = NULL;
    t->se->delayed = false;
}

/* The summary's counts, the machine's and the task's own (fair.h). */
static void count_wake(struct fair_counts *k, bool preempt, bool delayed)
{
    k->wake_checks++;
    k->wake_preempts += preempt;
    k->delayed_checks += delayed;
    k->delayed_preempts += delayed && preempt;
}

/* The wakee's view of a wake onto a running task (EEVDF): was the waker
 * eligible, and its vruntime lead over the wakee, placed - how a chain's
 * wakes move toward the one that finds the waker eligible (and, protected,
 * not preempted): the figures of sched_wakes.awk's section 6. */
static void count_lead(struct fair_lead *l, sim_time lead, bool waker_eligible)
{
    l->waker_eligible += waker_eligible;
    bool near = lead > -FAIR_LEAD_NEAR && lead < FAIR_LEAD_NEAR;
    if (near) {
        l->near++;
        if (l->last_near) {
            l->steps++;
            l->moved += lead - l->last;
        }
        l->last = lead;
    }
    l->last_near = near;
}

static void count_sleep(struct machine *m, struct mach_task *t, int kind)
{
    m->fair.sleeps[kind]++;
    t->se->counts.sleeps[kind]++;
}

/* ---- enqueue, dequeue ---------------------------------------------------- */

void fair_enqueue(struct machine *m, struct mach_core *c, struct mach_task *t, bool initial)
{
    if (!fair_on(m) || t->se->on_rq) return;
    update_curr(m, c);
    struct fair_se *se = t->se;
    if (is_eevdf(m)) {
        /* place_entity: PLACE_LAG only with tasks on the queue; the lag is
         * inflated by (W + w) / W so that adding t moves V by its share */
        sim_time V = avg_v(c), lag = 0;
        int n = c->frq.nr;
        if (!initial && n > 0) lag = (sim_time)((__int128)se->vlag * (n + 1) / n);
        se->v = V - lag;
        /* PLACE_DEADLINE_INITIAL: a new task starts with half a slice */
        se->deadline = se->v + (initial ? m->p.os_timeslice / 2 : m->p.os_timeslice);
    } else {
        sim_time base = min_vruntime(c);
        if (initial) {
            se->v = base;
        } else {
            if (se->left_core >= 0 && se->left_core != c->id)  /* into c's frame */
                se->v += base - min_vruntime(&m->cores[se->left_core]);
            sim_time floor_v = base - cfs_latency(m) / 2;
            if (se->v < floor_v) se->v = floor_v;  /* GENTLE_FAIR_SLEEPERS */
        }
    }
    se->protect = false;
    rq_add(c, t);
}

/* finish_delayed_dequeue_entity: a delayed task leaves c; DELAY_ZERO keeps
 * no positive lag. */
static void finish_delayed(struct machine *m, struct mach_core *c, struct mach_task *t)
{
    sim_time lag = clamp_lag(m, avg_v(c) - t->se->v);
    delayed_remove(c, t);
    rq_sub(c, t);
    t->se->vlag = lag > 0 ? 0 : lag;
}

void fair_requeue_delayed(struct machine *m, struct mach_core *c, struct mach_task *t)
{
    /* No update_curr here: ttwu_runnable -> enqueue_task_fair
     * (ENQUEUE_DELAYED) -> requeue_delayed_entity -> update_entity_lag
     * reads avg_vruntime with the running task's vruntime as its last
     * update left it (152e11f6df29, "sched/fair: Implement delayed
     * dequeue", 6.12; unchanged to 6.18): an enqueue, a switch or the
     * tick, whichever came last.  The wakeup_preempt that follows brings it
     * to now, so a curr that ran since then is found right of the wakee
     * (DELAY_ZERO placed it at the stale V, or its v was already below
     * curr's): it is no longer eligible and the wakee preempts it. */
    sim_time T = m->p.os_tick > 0 ? m->p.os_tick : 1;
    update_curr_at(m, c, now_of(m) / T * T);
    delayed_remove(c, t);
    sim_time lag = avg_v(c) - t->se->v;
    if (lag > 0) {  /* DELAY_ZERO: re-placed at V with no lag */
        rq_sub(c, t);
        t->se->vlag = 0;
        sim_time V = avg_v(c);
        t->se->v = V;
        t->se->deadline = V + m->p.os_timeslice;
        rq_add(c, t);
    }
    t->se->protect = false;
}

bool fair_wake_delayed_dequeue(struct machine *m, struct mach_core *c, struct mach_task *t)
{
    if (c->frq.nr <= 1 || m->ncores <= 1) return false;
    update_curr(m, c);
    finish_delayed(m, c, t);
    return true;
}

void fair_dequeue_sleep(struct machine *m, struct mach_core *c, struct mach_task *t)
{
    if (!fair_on(m)) return;
    update_curr(m, c);
    if (is_eevdf(m)) {
        sim_time lag = avg_v(c) - t->se->v;
        if (m->p.sched == MACH_SCHED_EEVDF_DELAY && !eligible(c, t)) {
            count_sleep(m, t, FAIR_SLEEP_DELAYED);
            t->se->delayed = true;  /* DELAY_DEQUEUE: it stays, counted in V */
            t->se->dnext = c->frq.delayed;
            c->frq.delayed = t;
            c->frq.ndelayed++;
            return;
        }
        count_sleep(m, t, lag > 0 ? FAIR_SLEEP_LAG_POS : lag == 0 ? FAIR_SLEEP_LAG_ZERO : FAIR_SLEEP_LAG_NEG);
        t->se->vlag = clamp_lag(m, lag);
    } else {
        min_vruntime(c);
        t->se->left_core = c->id;
    }
    rq_sub(c, t);
}

void fair_dequeue(struct machine *m, struct mach_core *c, struct mach_task *t, bool keep_lag)
{
    if (!fair_on(m) || !t->se->on_rq) return;
    update_curr(m, c);
    if (t->se->delayed) delayed_remove(c, t);
    if (keep_lag && is_eevdf(m)) t->se->vlag = clamp_lag(m, avg_v(c) - t->se->v);
    if (keep_lag && !is_eevdf(m)) {
        min_vruntime(c);
        t->se->left_core = c->id;
    }
    rq_sub(c, t);
}

void fair_picked(struct machine *m, struct mach_task *t)
{
    t->se->picked_at = now_of(m);
}

void fair_curr_start(struct machine *m, struct mach_core *c, struct mach_task *t)
{
    (void)c;
    if (!fair_on(m)) return;
    /* set_next_entity -> update_stats_curr_start set exec_start when the
     * task was picked, before context_switch: the switch's time, up to
     * now, belongs to its run (update_curr charges it from there) */
    t->se->exec_start = t->se->picked_at >= 0 ? t->se->picked_at : now_of(m);
    t->se->picked_at = -1;
    t->se->protect = true;  /* set_next_entity: RUN_TO_PARITY's mark */
}

void fair_curr_stop(struct machine *m, struct mach_core *c, struct mach_task *t)
{
    if (!fair_on(m) || running(c) != t) return;
    update_curr(m, c);
}

/* ---- picking ------------------------------------------------------------- */

/* __pick_eevdf over c's queued and delayed tasks and (if not NULL) its
 * running one: the eligible task with the earliest deadline, the running
 * one first while RUN_TO_PARITY protects it.  Changes nothing. */
static struct mach_task *peek_eevdf(const struct mach_core *c, struct mach_task *curr)
{
    if (curr && !eligible(c, curr)) curr = NULL;
    if (curr && curr->se->protect) return curr;  /* RUN_TO_PARITY */
    struct mach_task *best = NULL;
    for (struct mach_task *q = c->rq_head; q; q = q->rq_next)
        if (eligible(c, q) && (!best || q->se->deadline < best->se->deadline)) best = q;
    for (struct mach_task *q = c->frq.delayed; q; q = q->se->dnext)
        if (eligible(c, q) && (!best || q->se->deadline < best->se->deadline)) best = q;
    if (curr && (!best || curr->se->deadline <= best->se->deadline)) return curr;
    if (!best) {
        /* nothing eligible but an ineligible curr: the queued task with
         * the smallest v (V always has one at or above it) */
        for (struct mach_task *q = c->rq_head; q; q = q->rq_next)
            if (!best || q->se->v < best->se->v) best = q;
    }
    return best;
}

/* pick_next_entity: a delayed task picked leaves the queue (with no
 * positive lag) and the pick goes on. */
static struct mach_task *pick_eevdf(struct machine *m, struct mach_core *c, struct mach_task *curr)
{
    for (;;) {
        struct mach_task *best = peek_eevdf(c, curr);
        if (!best || !best->se->delayed) return best;
        finish_delayed(m, c, best);
    }
}

static struct mach_task *pick_cfs(struct mach_core *c, struct mach_task *curr)
{
    struct mach_task *best = curr;
    for (struct mach_task *q = c->rq_head; q; q = q->rq_next)
        if (!best || q->se->v < best->se->v) best = q;
    return best;
}

struct mach_task *fair_pick(struct machine *m, struct mach_core *c, bool with_curr)
{
    update_curr(m, c);
    struct mach_task *curr = with_curr ? running(c) : NULL;
    struct mach_task *t = is_eevdf(m) ? pick_eevdf(m, c, curr) : pick_cfs(c, curr);
    if (!t && is_eevdf(m))
        while (c->frq.delayed) finish_delayed(m, c, c->frq.delayed);  /* the core idles */
    return t;
}

struct mach_task *fair_yield(struct machine *m, struct mach_core *c, struct mach_task *t)
{
    update_curr(m, c);
    struct mach_task *next;
    if (is_eevdf(m)) {
        /* "Forfeit the remaining vruntime, only if the entity is eligible"
         * (79104becf42b, 6.17, and its stable backports): v jumps to the
         * deadline, the deadline a slice further; an ineligible yielder
         * keeps both (the commit moved the deadline's advance, which was
         * unconditional before, into the eligible case) */
        if (eligible(c, t)) {
            c->frq.sum += t->se->deadline - t->se->v;
            t->se->v = t->se->deadline;
            t->se->deadline += m->p.os_timeslice;
        }
        t->se->protect = false;
        next = pick_eevdf(m, c, t);
    } else {
        next = pick_cfs(c, NULL);
    }
    return next == t ? NULL : next;
}

bool fair_wakeup_preempt(struct machine *m, struct mach_core *c, struct mach_task *t, bool delayed)
{
    struct mach_task *curr = running(c);
    if (!curr) return false;
    bool renewed = update_curr(m, c);
    bool preempt = is_eevdf(m) ? renewed || peek_eevdf(c, curr) == t  /* renewed: update_deadline rescheds */
                               : curr->se->v - t->se->v > cfs_wakeup_gran(m);  /* wakeup_preempt_entity */
    count_wake(&m->fair, preempt, delayed);
    count_wake(&t->se->counts, preempt, delayed);
    if (is_eevdf(m)) count_lead(&t->se->lead, curr->se->v - t->se->v, eligible(c, curr));
    return preempt;
}

sim_time fair_resched_time(struct machine *m, struct mach_core *c)
{
    struct mach_task *t = running(c);
    if (!t) return 0;
    sim_time now = now_of(m);
    if (is_eevdf(m)) {
        /* the deadline the ticks before now left (without changing t), and
         * the first tick at or after which v reaches it */
        struct fair_se se = *t->se;
        tick_deadlines(m, &se, se.exec_start, now - 1);
        sim_time v = t->se->v + (now - se.exec_start), d = se.deadline;
        if (v >= d) return now;  /* update_curr now renews it */
        return tick_ceil(m, now + (d - v));
    }
    /* CFS: the ideal slice (latency / nr_running, at least the minimum
     * granularity) since it was picked, noticed at a tick */
    sim_time ideal = cfs_latency(m) / (c->frq.nr > 0 ? c->frq.nr : 1);
    if (ideal < m->p.os_timeslice) ideal = m->p.os_timeslice;
    sim_time due = c->slice_start + ideal;
    return tick_ceil(m, due > now ? due : now + 1);
}

bool fair_tick(struct machine *m, struct mach_core *c)
{
    struct mach_task *curr = running(c);
    if (!curr) return false;
    if (is_eevdf(m)) return update_curr(m, c);  /* update_deadline: resched */
    update_curr(m, c);
    return pick_cfs(c, curr) != curr;
}
