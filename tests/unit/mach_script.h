/* mach_script.h - drive machine tasks with small scripts (burst, block,
 * wake another task, mark the time, yield, exit) on a fresh engine: the harness of
 * test_machine.c and test_machine_sleepers.c.  The machine: context switch
 * 2, idle-core wake 10, busy-core wake 3, time slice 1000 (engine units). */
#ifndef GV_MACH_SCRIPT_H
#define GV_MACH_SCRIPT_H

#include "../../common/err.h"
#include "../../sim/engine_heap.h"
#include "../../sim/machine.h"
#include "test.h"

enum ms_act { A_BURST, A_BLOCK, A_WAKE, A_MARK, A_YIELD, A_CLOCK, A_PCLOCK, A_EXIT };
struct ms_step { enum ms_act a; sim_time d; int target; };

#define MS_MAX_TASKS 4
#define MS_MAX_MARKS 8

struct ms_task {
    struct mach_task t;
    struct machine *m;
    const struct ms_step *s;
    int pc;
    sim_time marks[MS_MAX_MARKS];
    int nmarks;
    sim_time left[MS_MAX_MARKS];  /* burst_left seen at each continuation */
    int nleft;
    int woke[MS_MAX_MARKS];       /* what each A_WAKE's mach_wake returned */
    sim_time ipi[MS_MAX_MARKS];   /* ... and mach_wake_ipi_extra after it */
    sim_time waking[MS_MAX_MARKS]; /* ... and mach_wake_waking_cost */
    int nwoke;
    sim_sum clocks[MS_MAX_MARKS]; /* what each A_PCLOCK read (mach_cpu_clock_read) */
    int nclocks;
    struct ms_task *all;
};

/* The continuation of every scripted task: runs its steps up to the next
 * burst, block or exit. */
static inline void ms_go(struct mach_task *t, void *ctx)
{
    struct ms_task *x = ctx;
    if (x->nleft < MS_MAX_MARKS) x->left[x->nleft++] = t->burst_left;
    for (;;) {
        const struct ms_step *st = &x->s[x->pc++];
        switch (st->a) {
        case A_BURST: mach_burst(x->m, t, st->d, ms_go, x); return;
        case A_BLOCK: mach_block(x->m, t, ms_go, x); return;
        case A_WAKE: {
            int r = mach_wake(x->m, &x->all[st->target].t, t);
            if (x->nwoke < MS_MAX_MARKS) {
                x->ipi[x->nwoke] = mach_wake_ipi_extra(x->m);
                x->waking[x->nwoke] = mach_wake_waking_cost(x->m);
                x->woke[x->nwoke++] = r;
            }
            continue;
        }
        case A_MARK: if (x->nmarks < MS_MAX_MARKS) x->marks[x->nmarks++] = sim_now(x->m->eng); continue;
        case A_YIELD: mach_yield(x->m, t, ms_go, x); return;
        case A_CLOCK: mach_cpu_clock_read(x->m, t); continue;
        case A_PCLOCK:
            if (x->nclocks < MS_MAX_MARKS) x->clocks[x->nclocks++] = mach_cpu_clock_read(x->m, t);
            continue;
        case A_EXIT: mach_exit(x->m, t); return;
        }
    }
}

struct ms_world {
    struct sim_engine *e;
    struct machine m;
    struct ms_task t[MS_MAX_TASKS];
};

/* The harness's machine: `cores` cores under scheduler `sched` (tick 100
 * for the fair classes). */
static inline struct mach_params ms_params(int cores, enum mach_sched sched)
{
    struct mach_params p = { .cores = cores, .context_switch = 2, .wake_idle_core = 10,
                             .wake_busy_core = 3, .os_timeslice = 1000, .sched = sched, .os_tick = 100 };
    return p;
}

/* `n` tasks with their scripts on the machine `p`; none started yet. */
static inline void ms_setup_params(struct ms_world *w, const struct mach_params *p,
                                   const struct ms_step *const *scripts, int n)
{
    char err[128];
    w->e = sim_heap_create();
    ASSERT(w->e);
    ASSERT_EQ(mach_init(&w->m, w->e, p, err, sizeof err), GV_OK);
    for (int i = 0; i < n; i++) {
        mach_task_init(&w->m, &w->t[i].t, "t");
        w->t[i].m = &w->m;
        w->t[i].s = scripts[i];
        w->t[i].pc = 0;
        w->t[i].nmarks = 0;
        w->t[i].nleft = 0;
        w->t[i].nwoke = 0;
        w->t[i].nclocks = 0;
        w->t[i].all = w->t;
    }
}

/* `n` tasks with their scripts on `cores` cores under scheduler `sched`. */
static inline void ms_setup_sched(struct ms_world *w, int cores, const struct ms_step *const *scripts, int n,
                                  enum mach_sched sched)
{
    struct mach_params p = ms_params(cores, sched);
    ms_setup_params(w, &p, scripts, n);
}

/* The FIFO machine. */
static inline void ms_setup(struct ms_world *w, int cores, const struct ms_step *const *scripts, int n)
{
    ms_setup_sched(w, cores, scripts, n, MACH_SCHED_FIFO);
}

static inline void ms_start(struct ms_world *w, int i)
{
    mach_start(&w->m, &w->t[i].t, ms_go, &w->t[i]);
}

/* Run to the end: no engine error, no protocol violation; the cores'
 * time accounts closed. */
static inline void ms_run(struct ms_world *w)
{
    char err[128];
    ASSERT_EQ(sim_run(w->e, SIM_TIME_MAX, err, sizeof err), GV_OK);
    ASSERT_STREQ(w->m.error, "");
    mach_finish(&w->m, sim_now(w->m.eng));
}

static inline void ms_teardown(struct ms_world *w)
{
    mach_free(&w->m);
    sim_destroy(w->e);
}

#endif
