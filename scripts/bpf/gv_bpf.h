/* gv_bpf.h - the record the BPF probes of scripts/bpf write and
 * bpf_record prints: a kind and up to GV_REC_MAX - 1 signed 64-bit
 * values, one text line each (the awk reports read them).  Shared by the
 * probes (built for the BPF target) and the loader. */
#ifndef GV_BPF_H
#define GV_BPF_H

#define GV_REC_MAX 24

/* what each kind's values are (after the kind), in order */
enum gv_kind {
    /* sched_waking, in the waker's context: ts cpu tgid wakee waker
     * wakee_prev_cpu wakee_vruntime wakee_deadline wakee_vlag wakee_slice
     * wakee_sched_delayed wakee_on_rq wakee_util_avg wakee_util_est
     * waker_cpu_util_avg waker_cpu_nr_running */
    GV_WAKING = 1,
    /* sched_wakeup, after placement and wakeup_preempt: ts cpu tgid wakee
     * curr target_cpu wakee_vruntime wakee_deadline curr_vruntime
     * curr_deadline curr_vprot sum_w_vruntime sum_weight zero_vruntime
     * nr_queued curr_is_cfs_curr wakee_sched_delayed wakee_slice curr_slice */
    GV_WAKEUP = 2,
    /* sched_switch: ts cpu tgid prev next prev_state preempt */
    GV_SWITCH = 3,
    /* sched_migrate_task: ts tgid pid from to on_rq sched_delayed
     * exec_start clock_task (of the task's runqueue); on_rq is 0 for a
     * wake-up's placement, 2 (TASK_ON_RQ_MIGRATING) for a queued task a
     * balance moves */
    GV_MIGRATE = 4,
    /* a CPU left idle by one of the threads (sched_switch to the idle
     * task): ts cpu tgid prev avg_idle max_newidle_lb_cost overloaded
     * other_cpu_h_nr_runnable */
    GV_IDLE = 5,
    /* a futex call's return: ts(entry) dur tgid tid cpu op timed ret */
    GV_FUTEX = 10,
};

struct gv_rec {
    long long v[GV_REC_MAX];  /* v[0]: the kind; then its values */
    int n;                    /* values used, the kind included */
    int pad;
};

#endif
