/* trace.h - a simulated run as Chrome trace-event JSON, for ui.perfetto.dev.
 *
 * One process (pid 1) is the run.  Its tracks (tids), in this order:
 *   1..T      one per Ruby thread, named as in the scenario ("main",
 *             "worker#3", "r#1/worker"): one `X` slice per state interval,
 *             named by thread_state_name() (running, wants_gvl, blocking,
 *             parked, sleeping, barrier_init, barrier_join, vmlock_wait,
 *             wants_snt);
 *   T+1       "timer thread": `X` slices "on_cpu" while it runs on a core;
 *   T+2+c     "core c": `X` slices named after the task running on it, or
 *             "switch" (context switch in) / "wake" (idle exit), args.task;
 * `C` counters: "readyq" (one series per Ractor: its GVL ready queue
 * length), "cores" (series "busy": cores not idle), and every
 * run_observer.counter name (series "value"); `i` instants from
 * run_observer.instant (thread-scoped when a thread is given).
 *
 * A slice is written when its state ends, so the slices of one track are
 * consecutive and never overlap; zero-length states are left out.  Times
 * are microseconds with six decimals: exact for integer picoseconds.
 *
 * Size cap: at most `max_events` events are written.  Room is kept to
 * close every open slice, so when the cap is reached the trace is cut
 * cleanly at that time t (open slices end at t, an instant
 * "trace_truncated" marks t) and every later event is counted, not
 * written; the count is in the trailing "metadata" object
 * (dropped_events, truncated_at_us) and in trace_stats().
 * A real run (run_layout.backend: `gvlsim exec --trace`) has the thread
 * tracks alone, fed after the run from the executor's record.
 * The file (".gz" = gzip) is written atomically: only trace_commit puts it
 * in place, after trace_prepare has written it all out.  The format is
 * documented in docs/output.md. */
#ifndef OUTPUT_TRACE_H
#define OUTPUT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/observer.h"
#include "../common/time.h"

struct trace;
struct mach_observer;
struct mach_task;

struct trace_stats {
    uint64_t written;     /* events in the file */
    uint64_t dropped;     /* events counted after the cap was reached */
    uint64_t max_events;
    bool truncated;
    sim_time cut_at;      /* when the cap was reached (if truncated) */
};

/* Open PATH (gzip if it ends in ".gz") and write the header and the track
 * names of a run shaped as `lay`.  Returns GV_OK, GV_EIO or GV_ENOMEM
 * (message in err). */
int trace_open(struct trace **out, const char *path, uint64_t max_events,
               const struct run_layout *lay, char *err, size_t errlen);
/* Install the trace as the run's observers (before the run starts);
 * `timer` is the timer thread's native task, drawn on its own track. */
void trace_observe(struct trace *t, struct run_observer *obs, struct mach_observer *mobs,
                   const struct mach_task *timer);
/* A real run's thread entered its current state (the observer's last
 * thread_state for it) on CPU `cpu`: its slice gets "args":{"cpu":N}.
 * A simulated run's slices have none (its cores have their own tracks). */
void trace_thread_cpu(struct trace *t, int thread, int cpu);
/* Close every open slice at `end` (the run's end, or the time it failed). */
void trace_end(struct trace *t, sim_time end);
/* Cut the trace at `at` as the cap does, for a record that ends there (a
 * real run's, exec/exec_tlog.h), `dropped` more events counted as dropped:
 * open slices end at `at`, the instant "trace_truncated" marks it, and
 * later events are counted, not written. */
void trace_cut(struct trace *t, sim_time at, uint64_t dropped);
/* Write the trailer and the whole file out to its temporary name (the
 * first phase of a commit: see common/afile.h), detaching the observers.
 * GV_OK, or GV_EIO with nothing left on disk; t stays to be committed or
 * aborted either way. */
int trace_prepare(struct trace *t, struct trace_stats *st, char *err, size_t errlen);
/* Prepare if not yet done, then put the file in place; frees t.  GV_OK
 * or GV_EIO. */
int trace_commit(struct trace *t, struct trace_stats *st, char *err, size_t errlen);
/* Discard the file; frees t and detaches the observers. */
void trace_abort(struct trace *t);
void trace_get_stats(const struct trace *t, struct trace_stats *st);

/* "12.345678": picoseconds as microseconds with six decimals. */
void trace_format_us(char *buf, size_t len, sim_time ps);

#endif
