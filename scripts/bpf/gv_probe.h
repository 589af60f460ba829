/* gv_probe.h - what the probes share (BPF target, after vmlinux.h and the
 * bpf headers): which tasks they record, and the buffer they record into. */
#ifndef GV_PROBE_H
#define GV_PROBE_H

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

/* the buffer's size: a power of two of whole pages (build.sh's
 * GV_RB_BYTES; a small one is how tests/e2e/bpf_record.sh loses records) */
#ifndef GV_RB_BYTES
#define GV_RB_BYTES (64 << 20)
#endif
struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, GV_RB_BYTES);
} rb SEC(".maps");

/* records lost to a full buffer: bpf_record reports them and fails */
struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, int);
    __type(value, long long);
} drops SEC(".maps");

/* a cleared record of that kind, or NULL (counted in drops) */
static __always_inline struct gv_rec *gv_reserve(int kind)
{
    struct gv_rec *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);
    if (!r) {
        int k = 0;
        long long *d = bpf_map_lookup_elem(&drops, &k);
        if (d) __sync_fetch_and_add(d, 1);
        return 0;
    }
    __builtin_memset(r, 0, sizeof(*r));
    r->v[0] = kind;
    return r;
}

/* no wake-up of the reader per record: it drains the buffer on a timer,
 * so that recording does not add a wake to every traced one */
static __always_inline void gv_emit(struct gv_rec *r, int n)
{
    r->n = n;
    bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
}

#endif
