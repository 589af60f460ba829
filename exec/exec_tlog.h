/* exec_tlog.h - the executor's record of its threads' state changes
 * (running, wants_gvl, blocking, ...), for `gvlsim exec --trace`: the
 * same timeline the simulator's trace draws (output/trace.h), from a real
 * run.
 *
 * Recording must not disturb what it records: a state change is one store
 * into the thread's own block of entries, no lock, no allocation.  The
 * entries come from one pool allocated and touched before the run starts
 * (a page's first touch costs 20 us on some guests: none during the run);
 * each thread's first block is its own (block `thread`), and a thread
 * takes a fresh one with one atomic add when its block is full: blocks of
 * EXEC_TLOG_BLOCK entries, smaller when the pool is small for its threads
 * (a quarter of a thread's share, at least 16), and at least one a
 * thread.  When the pool is exhausted, the first thread that finds it so
 * notes the time: the record is complete up to that time only
 * (exec_tlog_sorted cuts every thread's entries there, as the simulator's
 * trace is cut at its event cap).  A thread's first change never finds it
 * so: that change may be timed back at the start gate (a thread queued on
 * its GVL there that first runs later), which would cut the whole record. */
#ifndef EXEC_EXEC_TLOG_H
#define EXEC_EXEC_TLOG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXEC_TLOG_BLOCK 1024
#define EXEC_TLOG_BLOCK_MIN 16

#define EXEC_TLOG_NO_CPU UINT16_MAX

struct exec_tlog_entry {
    int64_t t_ns;     /* CLOCK_MONOTONIC */
    uint32_t thread;  /* index in scenario order */
    uint8_t to;       /* enum thread_state (TS_COUNT: ended) */
    uint8_t used;     /* written (a block's tail may be unused) */
    uint16_t cpu;     /* the CPU the thread made the change on (EXEC_TLOG_NO_CPU: unknown) */
};

/* The pool, shared by the run's threads. */
struct exec_tlog {
    struct exec_tlog_entry *mem;  /* nblocks * block entries; NULL: not recording */
    uint32_t nblocks, block;
    uint32_t nown;                /* blocks 0 .. nown - 1: thread k's first is block k */
    atomic_uint next;             /* the next block to hand out (from nown) */
    atomic_llong full_at_ns;      /* the earliest change that found the pool empty (INT64_MAX: none) */
};

/* A thread's place in its current block (the thread's own). */
struct exec_tlog_cursor {
    struct exec_tlog_entry *at, *end;  /* NULL: no block yet (its own first is next) */
    bool full;         /* the pool had no block left for it */
    uint64_t dropped;  /* changes not recorded since */
};

/* A pool of at least max_entries entries (whole blocks) for nthreads
 * threads, zeroed and touched.  GV_OK or GV_ENOMEM. */
int exec_tlog_init(struct exec_tlog *l, uint64_t max_entries, int nthreads);
void exec_tlog_free(struct exec_tlog *l);

/* c's next block (thread `thread`'s own first, then the pool's); false
 * (and the time noted) when none is left. */
bool exec_tlog_grab(struct exec_tlog *l, struct exec_tlog_cursor *c, uint32_t thread, int64_t t_ns);

/* Record that thread `thread` entered state `to` at t_ns on CPU `cpu`
 * (the thread itself, its changes in time order; cpu < 0: unknown). */
static inline void exec_tlog_add(struct exec_tlog *l, struct exec_tlog_cursor *c, uint32_t thread, int to,
                                 int64_t t_ns, int cpu)
{
    if (c->at == c->end && (c->full || !exec_tlog_grab(l, c, thread, t_ns))) {
        c->dropped++;
        return;
    }
    *c->at++ = (struct exec_tlog_entry){ .t_ns = t_ns, .thread = thread, .to = (uint8_t)to, .used = 1,
                                         .cpu = cpu >= 0 && cpu < EXEC_TLOG_NO_CPU ? (uint16_t)cpu
                                                                                 : EXEC_TLOG_NO_CPU };
}

/* After the run: every entry up to the cut, in time order (ties: by
 * thread, then in the thread's order), into a new array *out of *n
 * entries (free()); the cut (INT64_MAX: the record is complete) and how
 * many recorded entries lie beyond it.  GV_OK or GV_ENOMEM. */
int exec_tlog_sorted(const struct exec_tlog *l, struct exec_tlog_entry **out, size_t *n, int64_t *cut_ns,
                     uint64_t *beyond);

#endif
