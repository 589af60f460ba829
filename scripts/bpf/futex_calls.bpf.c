/* futex_calls.bpf.c - every futex(2) call of one process tree: its
 * operation, whether it was a timed wait, its result and how long it took
 * (docs/bpf.md).  A wait that returns EAGAIN at once found its
 * word changed on its way in: the waker's store came before the sleep. */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "gv_bpf.h"
#include "gv_probe.h"

char LICENSE[] SEC("license") = "GPL";

struct start {
    long long ts, op, timed;
};

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 65536);
    __type(key, int);
    __type(value, struct start);
} calls SEC(".maps");

/* raw_syscalls would see every call; the futex tracepoints carry their
 * arguments (struct trace_event_raw_sys_enter: args[6]) */
SEC("tracepoint/syscalls/sys_enter_futex")
int on_enter(struct trace_event_raw_sys_enter *a)
{
    struct task_struct *t = bpf_get_current_task_btf();
    if (!ours(t)) return 0;
    int tid = t->pid;
    struct start s = {(long long)bpf_ktime_get_ns(), (long long)a->args[1], a->args[3] != 0};
    bpf_map_update_elem(&calls, &tid, &s, BPF_ANY);
    return 0;
}

SEC("tracepoint/syscalls/sys_exit_futex")
int on_exit(struct trace_event_raw_sys_exit *a)
{
    struct task_struct *t = bpf_get_current_task_btf();
    int tid = t->pid;
    struct start *s = bpf_map_lookup_elem(&calls, &tid);
    if (!s) return 0;
    struct gv_rec *r = gv_reserve(GV_FUTEX);
    if (r) {
        r->v[1] = s->ts;
        r->v[2] = (long long)bpf_ktime_get_ns() - s->ts;
        r->v[3] = t->tgid;
        r->v[4] = tid;
        r->v[5] = bpf_get_smp_processor_id();
        r->v[6] = s->op;
        r->v[7] = s->timed;
        r->v[8] = a->ret;
        gv_emit(r, 9);
    }
    bpf_map_delete_elem(&calls, &tid);
    return 0;
}
