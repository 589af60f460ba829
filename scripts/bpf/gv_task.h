/* gv_task.h - for the probes (BPF target, after vmlinux.h): which tasks
 * they record. */
#ifndef GV_TASK_H
#define GV_TASK_H

/* the process whose tree is recorded (bpf_record sets it before loading) */
const volatile int target_tgid = 0;

/* t belongs to the recorded process or to a child or grandchild of it
 * (gvlsim exec --backend ruby runs the Ruby as its child) */
static __always_inline int ours(struct task_struct *t)
{
    if (t->tgid == target_tgid) return 1;
    struct task_struct *p = BPF_CORE_READ(t, real_parent);
    if (!p) return 0;
    if (BPF_CORE_READ(p, tgid) == target_tgid) return 1;
    p = BPF_CORE_READ(p, real_parent);
    return p && BPF_CORE_READ(p, tgid) == target_tgid;
}

#endif
