/* sched_wakes.bpf.c - what Linux's fair class sees at each wake-up, switch
 * and migration of one process tree's threads (docs/bpf.md).
 *
 * At sched_wakeup the wakee is placed (place_entity) and wakeup_preempt has
 * run (ttwu_do_activate: activate_task, then wakeup_preempt, then
 * ttwu_do_wakeup's tracepoint), so the record holds what EEVDF decided
 * from: the wakee's vruntime and deadline, the running task's, its
 * RUN_TO_PARITY mark (se.vprot, Linux 6.17+), and the run queue's sums
 * for V (cfs_rq sum_w_vruntime, sum_weight, zero_vruntime; avg_vruntime).
 * Field names are those of Linux 6.18 (struct sched_entity, struct
 * cfs_rq); on another kernel the program may not load (CO-RE relocation
 * of a missing field), which bpf_record reports. */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "gv_bpf.h"
#include "gv_probe.h"

char LICENSE[] SEC("license") = "GPL";

static __always_inline struct gv_rec *rec(int kind)
{
    struct gv_rec *r = gv_reserve(kind);
    if (r) r->v[1] = (long long)bpf_ktime_get_ns();
    return r;
}

/* what both wake records begin with: this CPU, the wakee's process and id,
 * the running task's id, the wakee's CPU (its previous one at sched_waking,
 * the chosen one at sched_wakeup), its vruntime and deadline */
static __always_inline void wake_head(struct gv_rec *r, struct task_struct *p, struct task_struct *c)
{
    r->v[2] = bpf_get_smp_processor_id();
    r->v[3] = p->tgid;
    r->v[4] = p->pid;
    r->v[5] = c->pid;
    r->v[6] = BPF_CORE_READ(p, thread_info.cpu);
    r->v[7] = BPF_CORE_READ(p, se.vruntime);
    r->v[8] = BPF_CORE_READ(p, se.deadline);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(on_waking, struct task_struct *p)
{
    if (!ours(p)) return 0;
    struct gv_rec *r = rec(GV_WAKING);
    if (!r) return 0;
    struct task_struct *c = bpf_get_current_task_btf();
    wake_head(r, p, c);
    r->v[9] = BPF_CORE_READ(p, se.vlag);  /* off the queue: the lag it slept with */
    r->v[10] = BPF_CORE_READ(p, se.slice);
    r->v[11] = BPF_CORE_READ(p, se.sched_delayed);
    r->v[12] = BPF_CORE_READ(p, se.on_rq);
    /* what a placement by utilization reads: the wakee's PELT utilization
     * and estimate, the waker's CPU's (blocked tasks' decaying share
     * included) and how many tasks that CPU runs */
    struct rq *rq = BPF_CORE_READ(c, se.cfs_rq, rq);
    r->v[13] = BPF_CORE_READ(p, se.avg.util_avg);
    r->v[14] = BPF_CORE_READ(p, se.avg.util_est) & 0x7fffffff;  /* less UTIL_AVG_UNCHANGED */
    r->v[15] = rq ? (long long)BPF_CORE_READ(rq, cfs.avg.util_avg) : -1;
    r->v[16] = rq ? (long long)BPF_CORE_READ(rq, nr_running) : -1;
    gv_emit(r, 17);
    return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(on_wakeup, struct task_struct *p)
{
    if (!ours(p)) return 0;
    struct gv_rec *r = rec(GV_WAKEUP);
    if (!r) return 0;
    struct task_struct *c = bpf_get_current_task_btf();
    struct cfs_rq *q = BPF_CORE_READ(p, se.cfs_rq);
    struct sched_entity *cse = BPF_CORE_READ(q, curr);
    wake_head(r, p, c);
    r->v[9] = BPF_CORE_READ(c, se.vruntime);
    r->v[10] = BPF_CORE_READ(c, se.deadline);
    r->v[11] = BPF_CORE_READ(c, se.vprot);  /* the running task: its protection */
    r->v[12] = BPF_CORE_READ(q, sum_w_vruntime);
    r->v[13] = BPF_CORE_READ(q, sum_weight);
    r->v[14] = BPF_CORE_READ(q, zero_vruntime);
    r->v[15] = BPF_CORE_READ(q, nr_queued);
    r->v[16] = cse == &c->se;  /* the running task is this queue's curr */
    r->v[17] = BPF_CORE_READ(p, se.sched_delayed);
    r->v[18] = BPF_CORE_READ(p, se.slice);
    r->v[19] = BPF_CORE_READ(c, se.slice);
    gv_emit(r, 20);
    return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next, unsigned int prev_state)
{
    int from_ours = ours(prev);
    if (!from_ours && !ours(next)) return 0;
    int cpu = bpf_get_smp_processor_id();
    struct gv_rec *r = rec(GV_SWITCH);
    if (!r) return 0;
    r->v[2] = cpu;
    r->v[3] = from_ours ? prev->tgid : next->tgid;
    r->v[4] = prev->pid;
    r->v[5] = next->pid;
    r->v[6] = prev_state;
    r->v[7] = preempt;
    gv_emit(r, 8);
    if (!from_ours || next->pid != 0) return 0;
    /* the CPU goes idle: sched_balance_newidle's gates (it ran before
     * this switch) and what the other CPU of a pair had queued */
    struct cfs_rq *q = BPF_CORE_READ(prev, se.cfs_rq);
    struct rq *rq = BPF_CORE_READ(q, rq);
    struct task_group *tg = BPF_CORE_READ(q, tg);
    struct cfs_rq **per_cpu = tg ? BPF_CORE_READ(tg, cfs_rq) : 0;
    struct cfs_rq *oq = 0;
    if (per_cpu) bpf_probe_read_kernel(&oq, sizeof oq, per_cpu + (cpu ^ 1));
    struct rq *orq = oq ? BPF_CORE_READ(oq, rq) : 0;
    struct sched_domain *sd = rq ? BPF_CORE_READ(rq, sd) : 0;
    struct root_domain *rd = rq ? BPF_CORE_READ(rq, rd) : 0;
    struct gv_rec *i = rec(GV_IDLE);
    if (!i) return 0;
    i->v[2] = cpu;
    i->v[3] = prev->tgid;
    i->v[4] = prev->pid;
    i->v[5] = rq ? BPF_CORE_READ(rq, avg_idle) : -1;
    i->v[6] = sd ? BPF_CORE_READ(sd, max_newidle_lb_cost) : -1;
    i->v[7] = rd ? BPF_CORE_READ(rd, overloaded) : -1;
    i->v[8] = orq ? BPF_CORE_READ(orq, cfs.h_nr_runnable) : -1;
    gv_emit(i, 9);
    return 0;
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(on_migrate, struct task_struct *p, int dest_cpu)
{
    if (!ours(p)) return 0;
    struct gv_rec *r = rec(GV_MIGRATE);
    if (!r) return 0;
    struct cfs_rq *q = BPF_CORE_READ(p, se.cfs_rq);
    struct rq *rq = BPF_CORE_READ(q, rq);
    r->v[2] = p->tgid;
    r->v[3] = p->pid;
    r->v[4] = BPF_CORE_READ(p, thread_info.cpu);
    r->v[5] = dest_cpu;
    r->v[6] = BPF_CORE_READ(p, on_rq);  /* 2: moved by a balance, 0: at a wake-up */
    r->v[7] = BPF_CORE_READ(p, se.sched_delayed);
    r->v[8] = BPF_CORE_READ(p, se.exec_start);
    r->v[9] = rq ? BPF_CORE_READ(rq, clock_task) : 0;
    gv_emit(r, 10);
    return 0;
}
