/* import.h - a recorded GVL trace -> a gvlsim scenario (`gvlsim import`).
 *
 * Three steps, each its own file:
 *   imp_read.c      the trace file (plain or gzip) -> per-thread state
 *                   segments, validated event by event: a gvl-tracing trace
 *                   (ivoanjo/gvl-tracing: Chrome trace-event B/E pairs,
 *                   imp_gvlt.c) or a trace written by `gvlsim run --trace`
 *                   (X slices, imp_gvlsim.c);
 *   imp_classify.c  what each segment becomes: Ractors inferred from
 *                   overlapping GVL ownership, every `waiting` segment
 *                   classified (I/O of a fixed length, a wait ended by
 *                   another thread, a join, a quantum yield), the thread
 *                   that spawned or woke another found in the timeline;
 *   imp_emit.c      the scenario as cJSON, which the normal loader then
 *                   validates like any file.
 * docs/import.md explains the rules and what an open-loop replay cannot
 * capture.  Times are sim_time picoseconds from the trace's first event.
 */
#ifndef INPUT_IMPORT_H
#define INPUT_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "../common/curve.h"
#include "../common/diag.h"
#include "../common/time.h"

/* The largest trace read, decompressed (cJSON keeps the whole tree). */
#define IMP_MAX_BYTES (256u << 20)

enum imp_form {
    IMP_FORM_GVL_TRACING,  /* B/E events, gvl-tracing's state names */
    IMP_FORM_GVLSIM        /* X slices of category "thread" (gvlsim run --trace) */
};

/* A thread's state during one segment of its timeline. */
enum imp_state {
    IMP_RUNNING,     /* holds the GVL, runs Ruby code (gvl-tracing's started_tracing too) */
    IMP_GC,          /* holds the GVL, runs the garbage collector */
    IMP_WANTS_GVL,   /* ready for the GVL: what the simulator predicts, never copied */
    IMP_WAITING,     /* released the GVL: I/O, or parked until another thread acts */
    IMP_SLEEPING,    /* Kernel#sleep */
    IMP_STARTED,     /* created, not yet asking for the GVL */
    IMP_DIED,        /* the thread's end */
    IMP_STOPPED,     /* stopped_tracing: the trace's end */
    IMP_OTHER,       /* gvlsim: barrier_*, vmlock_wait, wants_snt: predicted, not copied */
    IMP_STATE_COUNT
};

/* How a segment is replayed. */
enum imp_class {
    IMP_CLS_NONE,    /* not a waiting segment */
    IMP_CLS_IO,      /* a fixed-length GVL-releasing wait (I/O, a timer) */
    IMP_CLS_SYNC,    /* parked until another thread woke it (queue, mutex, condvar) */
    IMP_CLS_JOIN,    /* parked until another thread ended */
    IMP_CLS_YIELD,   /* the GVL quantum's hand-over: predicted, not copied */
    IMP_CLS_END,     /* still waiting when the trace ended: the thread ends here */
    IMP_CLS_EXIT,    /* the thread's own exit (3.3+ releases the GVL before EXITED) */
    IMP_CLS_COUNT
};

/* Why a class was chosen (see docs/import.md). */
enum imp_rule {
    IMP_RULE_NONE,
    IMP_RULE_KNOWN,       /* the trace names it (gvlsim: blocking / parked) */
    IMP_RULE_OVERRIDE,    /* --classify */
    IMP_RULE_OPEN_END,    /* never ended */
    IMP_RULE_AFTER_DEATH, /* ended within the window after another thread died */
    IMP_RULE_RELEASE,     /* ended within the window of another thread's GVL release */
    IMP_RULE_YIELD,       /* short, after a quantum of running, someone was waiting */
    IMP_RULE_ALONE,       /* no other thread acted near its end: I/O */
    IMP_RULE_EXIT,        /* short, the thread's last state before it died */
    IMP_RULE_COUNT
};

struct imp_seg {
    enum imp_state st;
    sim_time t0, t1;         /* [t0, t1) */
    int event;               /* index in the trace's events of the event that began it */
    /* waiting segments */
    int wait_index;          /* among the thread's waiting segments, from 0 */
    enum imp_class cls;
    enum imp_rule rule;
    int waker;               /* thread index that woke it (SYNC, JOIN), else -1 */
    sim_time wake_at;        /* when the waker acted, in the waker's timeline: the end of its hold */
    sim_time wake_from;      /* the start of that hold of the waker (SYNC) */
    sim_time wake_next;      /* the start of the waker's next hold, around the end, or -1 */
    sim_time gap;            /* |end - the waker's act or release| (SYNC, JOIN) */
    enum imp_class known;    /* the trace's own classification (gvlsim form), else NONE */
    bool oncpu;              /* an io wait spent on a CPU (a system call), not asleep */
    sim_time cpu;            /* gvlsim: CPU time within the segment (-1: not known); of an
                                off-CPU wait, its length before the thread's wake-up */
};

/* gvl-tracing does not say whether a thread released the GVL to sleep in
 * the kernel or to run a system call: shorter waits than this are replayed
 * as system calls on the CPU, longer ones as off-CPU waits. */
#define IMP_ONCPU_MAX (50 * SIM_US)

/* A scenario's op lengths and start times are at most a day: a trace
 * whose states reach further is refused, naming the first event beyond. */
#define IMP_SPAN_MAX (86400 * SIM_S)

struct imp_thread {
    int64_t tid;
    char *name;              /* unique in the trace */
    struct imp_seg *segs;
    int nsegs, cap;
    int ractor;              /* inferred Ractor, 0 = the main one */
    bool is_main;
    bool created;            /* its first state is `started`: created while tracing */
    int spawner;             /* thread that created it (-1: starts by time) */
    sim_time start;          /* its first event */
    sim_time spawn_at;       /* when the spawner created it, as the trace shows it */
    sim_time spawn_from;     /* the start of the spawner's hold around spawn_at */
    bool died;
};

struct imp_trace {
    char *file;
    enum imp_form form;
    char *ruby;              /* "3.3.5" from gvl-tracing's process_name, else NULL */
    sim_time quantum;        /* ", 50ms" (RUBY_THREAD_TIMESLICE) in process_name, else 0 */
    sim_time end;            /* the last event's time */
    int nevents;
    /* gvl-tracing: flush[i] when event i is a B whose hook wrote the
     * tracer's stdio buffer out (IMP_TRACER_BUF), else NULL */
    bool *flush;
    struct imp_thread *threads;
    int nthreads;
    int nractors;
    /* what the reader dropped, each said in the import's summary */
    int trailing_commas, os_view_events, other_events, after_death, merged, zero_length;
};

/* Read and validate a trace.  GV_OK; GV_EINVAL (malformed: every message in
 * diags is "FILE[:LINE:COL]: event N ...: what"), GV_EIO (unreadable) or
 * GV_ENOMEM.  Positions in a .gz file are in its decompressed text. */
int imp_read(const char *file, struct imp_trace *out, struct diag_list *diags);
/* The same from memory (`name` labels messages; gzip is recognised by its
 * magic bytes). */
int imp_read_mem(const char *name, const void *data, size_t len, struct imp_trace *out,
                 struct diag_list *diags);
void imp_trace_free(struct imp_trace *t);

const char *imp_state_name(enum imp_state s);
const char *imp_class_name(enum imp_class c);
const char *imp_rule_text(enum imp_rule r);

/* ---- classification ---------------------------------------------------- */

/* A user's classification of waits: THREAD:INDEX=CLASS, INDEX a waiting
 * index or -1 for every waiting segment of the thread. */
#define IMP_NAME_MAX 256
struct imp_override {
    char thread[IMP_NAME_MAX]; /* name, or tid as decimal */
    int index;
    enum imp_class cls;      /* IMP_CLS_IO or IMP_CLS_SYNC */
};

struct imp_classify_opts {
    sim_time window;         /* how close to another thread's act a wait must end (0: 100us) */
    sim_time quantum;        /* the GVL quantum (0: the trace's, else 100ms) */
    const struct imp_override *overrides;
    int noverrides;
};

/* Parse "THREAD:INDEX=io|sync" (INDEX a number or *).  0, or -1 with a
 * message in err. */
int imp_override_parse(const char *spec, struct imp_override *out, char *err, size_t errlen);

/* Infer Ractors, spawners and every waiting segment's class.  GV_OK, or
 * GV_EINVAL with a message when an override names no thread or segment or
 * asks for a wake no thread can have made. */
int imp_classify(struct imp_trace *t, const struct imp_classify_opts *o, char *err, size_t errlen);

/* ---- the scenario ------------------------------------------------------ */

struct imp_emit_opts {
    const char *name;        /* scenario name */
    const char *machine;     /* machine profile name or path, or NULL */
    const char *ruby;        /* the Ruby version to record (NULL: none) */
    /* how much earlier than the recorded `started` the spawn comes (not
     * before spawn_from), and than the end of a sync wait its waker's push
     * (in the hold from wake_from to wake_at, or in the one from wake_next
     * when it gets there): imp_start_lead */
    sim_time start_lead;
    /* runtime.event_hook*: the tracer's READY hook (hook 0: none written),
     * from hook_samples uncontended acquisitions, hook_flushes of which
     * wrote the tracer's buffer out (imp_event_hook) */
    struct imp_hook { sim_time hook, flush; int every; } hook;
    int hook_samples, hook_flushes;
    /* the replay machine's wake-up of a thread on an idle core
     * (machine.wake_idle_core, 0: none taken out) and its growth with the
     * core's idle time (machine.wake_idle_extra; NULL: none): taken out of
     * every recorded sleep and off-CPU wait that holds its wake-up
     * (imp_wake_of) */
    sim_time wake;
    const struct gv_curve *wake_extra;
};

/* A thread that slept (Kernel#sleep) or waited off the CPU (a
 * GVL-releasing system call) fires READY, where its recorded `sleeping` or
 * `waiting` ends, itself once it runs again (THREAD_BLOCKING_END and
 * BLOCKING_REGION's end call thread_sched_to_running in every version), so
 * the recorded length holds the OS's wake-up of the thread after its timer
 * or its I/O ended; the replay's machine adds its own on top.  Of a
 * recorded length `len`, the part the replay's machine would take to wake
 * the thread on a core left idle while it slept: o->wake plus
 * o->wake_extra at the idle time, len less o->wake; at most len.  A gvlsim
 * trace whose core tracks show the wake-up (imp_seg.cpu >= 0) has it
 * taken out already and is not passed here. */
sim_time imp_wake_of(const struct imp_emit_opts *o, sim_time len);
/* How many segments of t hold their wake-up (a sleep or an off-CPU I/O
 * wait that no core track cuts before it). */
int imp_holds_wake(const struct imp_trace *t);

/* The lead of a created thread's `started` event over its creation, and
 * of a woken thread's READY (the end of its `waiting`) over its wake, in a
 * trace of Ruby `ruby` (NULL: unknown), for a replay whose threads run
 * `startup` after their spawn or wake: CRuby up to 3.2 fires both events
 * in the thread itself once it runs (thread_start_func_1; native_sleep's
 * THREAD_BLOCKING_END: thread_sched_to_running), so the act came one
 * start-up earlier; 3.3 fires STARTED in the creator before pthread_create
 * (native_thread_create) and READY in the waker (ubf_waiting:
 * thread_sched_to_ready_common); a gvlsim trace records both at the act.
 * Unknown versions: 0. */
sim_time imp_start_lead(const struct imp_trace *t, const char *ruby, sim_time startup);

/* The scenario as a cJSON tree (NULL when out of memory). */
cJSON *imp_emit(const struct imp_trace *t, const struct imp_emit_opts *o);
/* Its text: JSON with one op per line (malloc'd; NULL when out of memory). */
char *imp_print(const cJSON *root);

/* Totals of a trace, in the CSV's units: per state summed over threads. */
struct imp_totals {
    sim_time wall;
    sim_time running, gc, wants_gvl, waiting, sleeping;
    int threads, waits, cls[IMP_CLS_COUNT];
};
void imp_totals(const struct imp_trace *t, struct imp_totals *out);

/* The bins of a hand-off's quiet time (struct imp_latency): [0, 100us),
 * [100us, 1ms), [1ms, 10ms), [10ms, ...); their names in --stats
 * (handoffs_NAME, handoff_NAME_s, handoff_NAME_quiet_s). */
#define IMP_QUIET_BINS 4
sim_time imp_quiet_bin_from(int i);   /* i = IMP_QUIET_BINS: the end of time */
const char *imp_quiet_bin_name(int i);

/* What a trace measured of its machine (and runtime), for a profile:
 * a hand-off is a thread ready for the GVL when a thread of its Ractor
 * released it into a wait, a sleep or its death, then running (latency:
 * from the release to its running); an uncontended acquisition is a
 * wants_gvl during which no other thread of its Ractor held the GVL. */
struct imp_latency {
    int handoffs, acquires;
    sim_time handoff_median, acquire_median;
    /* the acquisitions whose READY hook wrote the tracer's buffer out
     * (imp_trace.flush), and the medians of those and of the others */
    int flushes;
    sim_time flush_median, plain_median;
    /* at a thread's death (its last hold's end, the release): the joiners
     * woken by it (class join), from that release to their READY (the end
     * of their wait), and the hand-offs from it to a thread that was
     * waiting for the GVL, to its RESUMED; the medians of each */
    int joins, death_handoffs;
    sim_time join_median, death_handoff_median;
    /* the hand-offs other than at a death, by how long no thread but the
     * releaser had changed state before the release (bin i: from
     * imp_quiet_bin_from(i) to imp_quiet_bin_from(i + 1)): how many, their
     * median latency and median quiet time.  Every state change is an
     * event fired on a CPU, so the other CPUs ran no traced thread for at
     * most that long, and an idle CPU wakes more slowly the longer it
     * idled (machine.wake_idle_extra; docs/import.md).  At a death the
     * queue's head is woken onto the dying thread's CPU, with no idle
     * CPU's wake-up (docs/import.md, `gc`): left out. */
    int quiet[IMP_QUIET_BINS];
    sim_time quiet_median[IMP_QUIET_BINS], quiet_time[IMP_QUIET_BINS];
};
/* GV_OK or GV_ENOMEM. */
int imp_latencies(const struct imp_trace *t, struct imp_latency *out);

/* The thread-event hook of the tracer that recorded t, for
 * runtime.event_hook, event_hook_flush and event_hook_flush_every:
 * gvl-tracing stamps READY, then formats its events before the thread goes
 * on to take the GVL, so an acquisition of a free GVL lasts that hook (plus
 * the acquisition's own lock section, which the replay charges itself: tens
 * of ns, left in).  hook: the median over the trace's uncontended
 * acquisitions (lat) whose hook only formatted; flush: how much longer
 * those that also wrote the tracer's buffer out took (median less median),
 * every: one in how many did (rounded), when they were slower, else 0 (and
 * hook the median of all).  All 0 for a gvlsim trace (no tracer) or one
 * with no acquisition of a free GVL. */
struct imp_hook imp_event_hook(const struct imp_trace *t, const struct imp_latency *lat);

#endif
