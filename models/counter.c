/* counter.c - the shared instruction counter of CRuby 3.3-3.4 as a fluid
 * model of one contended cache line (bug #20489).
 *
 * What CRuby does.  d814722fb8 (#8064, in 3.3.0 and every 3.4.x) defines
 * JIT_COLLECT_USAGE_INSN(insn) as `rb_vm_insns_count++` (vm_insnhelper.h),
 * executed at the entry of every interpreted instruction, on one global
 * uint64_t (vm_exec.c), non-atomically ("allowing inaccuracy on Ractors").
 * 50c2c4bdde (#12549) made it RB_THREAD_LOCAL_SPECIFIER; 8cafa5b8ce kept it
 * only in YJIT stats builds.
 *
 * The line model (counter_model "line", the default).  The counter's cache
 * line is one server.  A core must own the line to commit its counter
 * stores; while it waits for the line, its stores pile up in the store
 * buffer (the load half of `++` is forwarded from there) until the buffer
 * is full and the core stalls.  When the line arrives the core commits the
 * stores it has buffered, `line_store_batch` (B) of them, and the line
 * moves on to the next core that wants it, which takes `line_transfer`
 * (T).  Cores that write at the same time therefore queue for the line in
 * turn, and with k >= 2 cores executing:
 *     per-core instruction rate = min(1/insn_time, B / (k T))
 * (the line serves 1/T transfers per second, B instructions per transfer,
 * shared by k cores).  With k = 1 the line
 * never leaves the core: no transfer, no slowdown.  Above saturation the
 * aggregate rate B/T is independent of k, so each core's rate falls as
 * 1/k.  Only the product B/T is identified by the one measured point (8
 * Ractors: 10x, scenarios/machines/x86_20489.json); the rest is prediction.
 *
 * The penalty model (counter_model "penalty"), for comparison: every
 * instruction pays its own miss with probability (k-1)/k (the last writer
 * was another core), with no batching and no queueing:
 *     time per instruction = insn_time + (k-1)/k x line_transfer.
 *
 * Assumptions (both models): k counts the cores that are executing counted
 * instructions right now (a thread preempted by the OS, switching, or
 * doing anything else does not contend); cores are symmetric (one transfer
 * cost, no socket/CCD topology); the line is fair (round robin); the
 * counter line is the only shared line (no false sharing beyond it); only
 * `compute` ops given in `insns` execute counted instructions; the transfer
 * that brings the line back to a core after a change of k is not charged
 * (a fluid model, exact in the long run).
 *
 * Fluid execution.  A shared-counter compute is one rated burst on the
 * machine (sim/machine.h) whose work is its uncontended duration (insns x
 * insn_time) and whose rate is the cost ratio for the current k.  The
 * machine tells this module when such a burst starts or stops executing on
 * a core (on_cpu); when k changes, every executing burst gets the new rate
 * and the machine re-plans its end.  Changes within one instant (a burst
 * cut at a safe point and restarted at once) are coalesced by one flush
 * event at that instant.  Rates are exact ratios of integers; the single
 * rounding of a rate into a time is mach_work_time.  line_transfers is the
 * integral of the transfer rate over time.
 */
#include "counter.h"

#include <math.h>
#include <stdlib.h>

#include "../common/err.h"
#include "thread.h"

struct counter {
    struct vm *vm;
    struct mach_rate_hook hook;
    struct mach_task **exec;   /* tasks executing a shared-counter burst on a core */
    int k;                     /* how many */
    int k_applied;             /* k of the rates in force */
    sim_time since;            /* ... since this time */
    sim_event_id flush_ev;
    double transfers;          /* line transfers so far (up to `since`) */
    /* per k = 0..cores: the cost ratio and the transfer rate */
    uint64_t *num, *den;
    double *xfer_per_ps;
};

/* ---- the models ---------------------------------------------------------- */

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

void counter_cost_ratio(enum scn_counter_model model, sim_time insn_time, sim_time line_transfer,
                        int store_batch, int k, uint64_t *num, uint64_t *den)
{
    *num = *den = 1;
    if (k < 2 || line_transfer <= 0 || insn_time <= 0) return;
    unsigned __int128 n, d;
    if (model == COUNTER_MODEL_PENALTY) {
        /* (t + (k-1)/k T) / t = (k t + (k-1) T) / (k t) */
        n = (unsigned __int128)k * (uint64_t)insn_time + (unsigned __int128)(k - 1) * (uint64_t)line_transfer;
        d = (unsigned __int128)k * (uint64_t)insn_time;
    } else {
        /* min(1/t, B/(kT)) per core: time ratio max(1, kT / (B t)) */
        n = (unsigned __int128)k * (uint64_t)line_transfer;
        d = (unsigned __int128)(store_batch > 0 ? store_batch : 1) * (uint64_t)insn_time;
        if (n <= d) return;  /* the line keeps up: no slowdown */
    }
    while (n > UINT64_MAX || d > UINT64_MAX) {  /* only for absurd inputs */
        n >>= 1;
        d >>= 1;
    }
    uint64_t g = gcd_u64((uint64_t)n, (uint64_t)d);
    *num = (uint64_t)n / g;
    *den = (uint64_t)d / g;
    if (*den == 0) *den = 1;
}

double counter_transfers_per_ps(enum scn_counter_model model, sim_time insn_time,
                                sim_time line_transfer, int store_batch, int k)
{
    if (k < 2 || insn_time <= 0) return 0.0;
    uint64_t num, den;
    counter_cost_ratio(model, insn_time, line_transfer, store_batch, k, &num, &den);
    /* instructions per ps of one core */
    double per_core = (double)den / ((double)num * (double)insn_time);
    if (model == COUNTER_MODEL_PENALTY) return (double)(k - 1) * per_core;
    return (double)k * per_core / (double)(store_batch > 0 ? store_batch : 1);
}

/* ---- k and the rates --------------------------------------------------- */

static void ratio_for(const struct counter *c, int k, uint64_t *num, uint64_t *den)
{
    *num = c->num[k];
    *den = c->den[k];
}

/* Add the transfers of [since, now] at the rates in force. */
static void accrue(struct counter *c, sim_time now)
{
    if (now <= c->since) return;
    c->transfers += (double)(now - c->since) * c->xfer_per_ps[c->k_applied];
    c->since = now;
}

static void flush(void *obj, uint64_t arg)
{
    (void)arg;
    struct counter *c = obj;
    c->flush_ev = 0;
    accrue(c, sim_now(c->vm->eng));
    c->k_applied = c->k;
    uint64_t num, den;
    ratio_for(c, c->k, &num, &den);
    for (int i = 0; i < c->k; i++) mach_burst_set_rate(&c->vm->mach, c->exec[i], num, den);
}

static void on_cpu(void *ctx, struct mach_task *t, bool running)
{
    struct counter *c = ctx;
    if (running) {
        c->exec[c->k++] = t;
        uint64_t num, den;
        ratio_for(c, c->k, &num, &den);
        mach_burst_set_rate(&c->vm->mach, t, num, den);
    } else {
        for (int i = 0; i < c->k; i++) {
            if (c->exec[i] != t) continue;
            c->exec[i] = c->exec[--c->k];
            break;
        }
    }
    if (!c->flush_ev) c->flush_ev = sim_after(c->vm->eng, 0, flush, c, 0);
}

/* ---- the model-facing calls --------------------------------------------- */

int counter_init(struct vm *vm, char *err, unsigned errlen)
{
    const struct scn_machine *m = &vm->scn->machine;
    size_t n = (size_t)m->cores + 1;
    struct counter *c = calloc(1, sizeof *c);
    if (c) {
        c->exec = calloc(n, sizeof *c->exec);
        c->num = calloc(n, sizeof *c->num);
        c->den = calloc(n, sizeof *c->den);
        c->xfer_per_ps = calloc(n, sizeof *c->xfer_per_ps);
    }
    if (!c || !c->exec || !c->num || !c->den || !c->xfer_per_ps) {
        if (c) {
            free(c->exec);
            free(c->num);
            free(c->den);
            free(c->xfer_per_ps);
        }
        free(c);
        return gv_fail(err, errlen, GV_ENOMEM, "out of memory for the counter model");
    }
    enum scn_counter_model model = vm->scn->runtime.counter_model;
    for (int k = 0; k < (int)n; k++) {
        counter_cost_ratio(model, m->insn_time, m->line_transfer, m->line_store_batch, k,
                           &c->num[k], &c->den[k]);
        c->xfer_per_ps[k] = counter_transfers_per_ps(model, m->insn_time, m->line_transfer,
                                                     m->line_store_batch, k);
    }
    c->vm = vm;
    c->hook.on_cpu = on_cpu;
    c->hook.ctx = c;
    vm->counter = c;
    return GV_OK;
}

void counter_free(struct vm *vm)
{
    if (!vm->counter) return;
    free(vm->counter->exec);
    free(vm->counter->num);
    free(vm->counter->den);
    free(vm->counter->xfer_per_ps);
    free(vm->counter);
    vm->counter = NULL;
}

sim_time counter_work(const struct rb_thread *th, uint64_t insns, bool *overflow)
{
    const struct scenario *scn = th->vm->scn;
    uint64_t per = (uint64_t)scn->machine.insn_time;
    if (scn->runtime.insn_counter == COUNTER_THREAD_LOCAL) per += (uint64_t)scn->machine.tls_insn_overhead;
    unsigned __int128 w = (unsigned __int128)insns * per;
    *overflow = w > (unsigned __int128)SIM_TIME_MAX;
    return *overflow ? SIM_TIME_MAX : (sim_time)w;
}

static void pending_paid(struct mach_task *t, void *ctx)
{
    (void)t;
    th_step(ctx);  /* resumes the compute from compute_left */
}

void counter_compute(struct rb_thread *th, sim_time work, mach_cont k)
{
    struct counter *c = th->vm->counter;
    if (th->pending_cost > 0) {
        /* scheduler work (futex wakes, lock sections) is not interpreted
         * code: pay it at full speed first, then th_step resumes */
        th->in_compute = false;
        th->compute_left = work;
        th_burst(th, 0, pending_paid);
        return;
    }
    if (work > 0) th->zero_time_ops = 0;
    uint64_t num, den;
    ratio_for(c, c->k + 1, &num, &den);  /* what on_cpu will find */
    mach_burst_rated(&th->vm->mach, th->nt, work, num, den, &c->hook, k, th);
}

void counter_collect(struct vm *vm, struct run_metrics *m)
{
    struct counter *c = vm->counter;
    accrue(c, vm->end_time);
    m->line_transfers = (uint64_t)llround(c->transfers);
}
