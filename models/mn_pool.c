/* mn_pool.c - the M:N scheduler of CRuby 3.3+ (thread_pthread_mn.c and
 * the M:N parts of thread_pthread.c), as the simulator needs it.
 *
 * Modelled:
 * - Which threads are M:N (mn_thread_p): native_thread_create gives a
 *   dedicated NT (DNT) to threads of Ractors without enable_mn_threads,
 *   i.e. the main Ractor unless RUBY_MN_THREADS=1; the main thread always
 *   keeps the process's NT.
 * - The pool: native_thread_check_and_create_shared creates one SNT at a
 *   time when the pool is short, on every thread creation and every timer
 *   timeout.  "Short" is, after #14280 (7ac16eff31, Bug #20146),
 *   snt_cnt < min(schedulable Ractors, max_cpu), schedulable = ractor.cnt
 *   minus the main Ractor unless it is M:N; in 3.3/3.4 (runtime.snt_cap
 *   "minus_one") the main Ractor was discounted by adding 1 to snt_cnt
 *   instead, so snt_cnt stops at max_cpu - 1 (7 by default).  SNTs never
 *   retire (SNT_KEEP_SECONDS is 0).
 * - nt_start: an SNT pops the head of the global run queue (grq,
 *   ractor_sched_deq) and coroutine-switches to that Ractor's `running`
 *   thread (thread_sched_switch0); with nothing queued it waits on
 *   vm->ractor.sched.cond (a kernel sleep), signalled by ractor_sched_enq.
 * - A Ractor enters the grq when its `running` thread has no NT
 *   (thread_sched_wakeup_running_thread).  Its running thread is then in
 *   state wants_snt.  No preemption between Ractors: a CPU-bound Ractor
 *   keeps its SNT until its thread parks, blocks or ends; the OS still
 *   time-slices SNTs on cores (sim/machine.c).
 * - Within a Ractor, park / quantum yield / thread end switch directly to
 *   the next ready thread on the same NT (thread_sched_switch, the
 *   will_switch path), a coroutine switch costing machine.coroutine_switch
 *   and no kernel involvement; returning to the nt_start loop and switching
 *   to another Ractor costs one coroutine switch each way plus the global
 *   sched lock (sched_lock_cs).
 * - Blocking regions pin the SNT (native_thread_dedicated_inc: snt_cnt--):
 *   the thread keeps it for the call while its Ractor's next thread needs
 *   another SNT; the next timer timeout tops the pool up, and snt_cnt++ at
 *   the end of the region has no cap (the ratchet fixed by #18314).
 * - native_threads = DNTs + SNTs ever created + the timer thread, which
 *   only the 3.3+ scheduler has: before it (`barging`) the GVL's first
 *   waiter times the quantum, and on Linux the unblocking timer is a POSIX
 *   timer, not a thread (thread_pthread.c of v3_1_0: UBF_TIMER_POSIX).
 *
 * Known gaps (not needed by the issues so far):
 * - Kernel#sleep and fd waits of an M:N thread release the NT in CRuby
 *   (thread_sched_wait_events via the timer thread's epoll); here they pin
 *   it like a blocking region.
 * - 3.4's co_start switched to the next thread only when the grq was empty
 *   (else the next thread was left unqueued); this models the later code
 *   (no grq condition).
 * - ractor.cnt counts a Ractor from the start of its first thread to the
 *   end of its last one; Ractor creation costs (pthread_create, stacks) and
 *   the main Ractor's own Ractor.new calls are not modelled.
 */
#include "mn_pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "gvl.h"
#include "thread.h"

/* One shared native thread. */
struct mn_snt {
    struct mach_task nt;      /* first member: th->nt points here */
    struct mn_pool *pool;
    struct rb_thread *th;     /* nt->running_thread, NULL in the nt_start loop */
    struct rb_ractor *from;   /* Ractor of the thread that just left this NT */
    int dedicated;            /* > 0 while pinned by a blocking region */
    struct mn_snt *idle_next; /* waiting on vm->ractor.sched.cond */
    char name[24];
};

struct mn_pool {
    struct vm *vm;
    struct mn_snt **snt;      /* every SNT created */
    int nsnt, snt_alloc;
    int snt_cnt;              /* vm->ractor.sched.snt_cnt: SNTs not pinned */
    int ractor_cnt;           /* vm->ractor.cnt: living Ractors, main included */
    bool *counted;            /* per Ractor: in ractor_cnt */
    int *alive;               /* per Ractor: threads not dead */
    struct rb_ractor **grq;   /* ring of nractors (a Ractor is queued at most once) */
    bool *in_grq;
    int grq_head, grq_cnt;
    struct mn_snt *idle_head, *idle_tail;
    sim_time nobody_cost;     /* CPU of wake-ups issued at thread creation (not modelled) */
    int dnt_used;             /* Ruby threads on a dedicated NT */
};

static struct mn_snt *snt_of(const struct rb_thread *th)
{
    if (!th->nt || !th->mn) return NULL;  /* (a 1:1 thread's nt is its own) */
    return (struct mn_snt *)(void *)th->nt;
}

static const struct scn_machine *mach_of(const struct mn_pool *p)
{
    return &p->vm->scn->machine;
}

/* ---- the global run queue (vm->ractor.sched.grq) ------------------------- */

static void grq_push(struct mn_pool *p, struct rb_ractor *r)
{
    int n = p->vm->nractors;
    p->grq[(p->grq_head + p->grq_cnt) % n] = r;
    p->grq_cnt++;
    p->in_grq[r->core.id] = true;
    if (p->vm->obs.counter) p->vm->obs.counter(p->vm->obs.ctx, "grq", p->grq_cnt, sim_now(p->vm->eng));
}

static struct rb_ractor *grq_pop(struct mn_pool *p)
{
    if (p->grq_cnt == 0) return NULL;
    struct rb_ractor *r = p->grq[p->grq_head];
    p->grq_head = (p->grq_head + 1) % p->vm->nractors;
    p->grq_cnt--;
    p->in_grq[r->core.id] = false;
    if (p->vm->obs.counter) p->vm->obs.counter(p->vm->obs.ctx, "grq", p->grq_cnt, sim_now(p->vm->eng));
    return r;
}

int mn_pool_grq_cnt(const struct mn_pool *p)
{
    return p->grq_cnt;
}

/* ---- idle SNTs (waiting on vm->ractor.sched.cond) ------------------------ */

static void idle_push(struct mn_pool *p, struct mn_snt *s)
{
    s->idle_next = NULL;
    if (p->idle_tail) p->idle_tail->idle_next = s;
    else p->idle_head = s;
    p->idle_tail = s;
}

static struct mn_snt *idle_pop(struct mn_pool *p)
{
    struct mn_snt *s = p->idle_head;
    if (!s) return NULL;
    p->idle_head = s->idle_next;
    if (!p->idle_head) p->idle_tail = NULL;
    s->idle_next = NULL;
    return s;
}

/* rb_native_cond_signal(&vm->ractor.sched.cond): wake one idle SNT. */
static int cond_signal(struct mn_pool *p, struct gvl_actor by)
{
    struct mn_snt *s = idle_pop(p);
    if (!s) return 0;
    int woke = mach_wake(&p->vm->mach, &s->nt, by.nt);
    if (!woke) return 0;
    p->vm->wakeups++;
    *by.cost += vm_wake_cost(p->vm, woke);
    return 1;
}

/* ractor_sched_enq */
static int ractor_sched_enq(struct mn_pool *p, struct rb_ractor *r, struct gvl_actor by)
{
    grq_push(p, r);
    struct rb_thread *th = rb_thread_of(r->core.sched.running);
    if (th && th->ts == TS_WANTS_GVL) vm_set_state(th, TS_WANTS_SNT);
    *by.cost += mach_of(p)->sched_lock_cs;  /* ractor_sched_lock */
    return cond_signal(p, by);
}

/* ---- the SNTs ------------------------------------------------------------ */

static void nt_loop(struct mn_snt *s);

static void nt_start(struct mach_task *t, void *ctx)
{
    (void)t;
    nt_loop(ctx);
}

static void nt_woken(struct mach_task *t, void *ctx)
{
    (void)t;
    struct mn_snt *s = ctx;
    if (s->pool->grq_cnt == 0) {  /* another SNT took the Ractor first */
        s->pool->vm->wasted_wakes++;
    }
    nt_loop(s);
}

static void switched_in(struct mach_task *t, void *ctx)
{
    (void)t;
    struct mn_snt *s = ctx;
    gvl_turn_resume(s->th);
}

/* thread_sched_switch0: the NT runs `next` (after `cost` of CPU). */
static void switch_to(struct mn_snt *s, struct rb_thread *next, sim_time cost)
{
    next->nt = &s->nt;
    s->th = next;
    if (cost > 0) mach_burst(&s->pool->vm->mach, &s->nt, cost, switched_in, s);
    else gvl_turn_resume(next);
}

/* nt_start's loop: ractor_sched_deq, then switch to the Ractor's thread. */
static void nt_loop(struct mn_snt *s)
{
    struct mn_pool *p = s->pool;
    for (;;) {
        struct rb_ractor *r = grq_pop(p);
        if (!r) {
            idle_push(p, s);
            mach_block(&p->vm->mach, &s->nt, nt_woken, s);
            return;
        }
        struct rb_thread *next = rb_thread_of(r->core.sched.running);
        if (next && !next->nt) {
            switch_to(s, next, mach_of(p)->sched_lock_cs + mach_of(p)->coroutine_switch);
            return;
        }
        /* "no schedulable threads": look again */
    }
}

/* native_thread_check_and_create_shared */
static void check_and_create_shared(struct mn_pool *p)
{
    const struct scn_runtime *rt = &p->vm->scn->runtime;
    bool shortage;
    if (rt->snt_cap == SNT_CAP_MINUS_ONE) {
        /* 3.3/3.4: "if (!main ractor M:N) snt_cnt++; // do not need snt for main ractor" */
        int snt = p->snt_cnt + (rt->mn_main ? 0 : 1);
        shortage = snt < p->ractor_cnt && snt < rt->max_cpu;
    } else {
        /* 7ac16eff31: schedulable_ractor_cnt */
        int schedulable = p->ractor_cnt - (rt->mn_main ? 0 : 1);
        shortage = p->snt_cnt < schedulable && p->snt_cnt < rt->max_cpu;
    }
    if (!shortage) return;
    if (p->nsnt == p->snt_alloc) {
        int n = p->snt_alloc ? 2 * p->snt_alloc : 8;
        struct mn_snt **a = realloc(p->snt, (size_t)n * sizeof *a);
        if (!a) {
            vm_fail(p->vm, "out of memory creating shared native thread %d", p->nsnt);
            return;
        }
        p->snt = a;
        p->snt_alloc = n;
    }
    struct mn_snt *s = calloc(1, sizeof *s);
    if (!s) {
        vm_fail(p->vm, "out of memory creating shared native thread %d", p->nsnt);
        return;
    }
    s->pool = p;
    snprintf(s->name, sizeof s->name, "snt#%d", p->nsnt);
    mach_task_init(&p->vm->mach, &s->nt, s->name);
    p->snt[p->nsnt++] = s;
    p->snt_cnt++;
    mach_start(&p->vm->mach, &s->nt, nt_start, s);
}

/* ---- hooks for gvl.c and thread.c ------------------------------------------ */

void mn_thread_start(struct rb_thread *th, th_cont k)
{
    struct mn_pool *p = th->vm->mn;
    struct rb_ractor *r = rb_ractor_of(th);
    if (!p->counted[r->core.id]) {  /* Ractor.new: vm_insert_ractor */
        p->counted[r->core.id] = true;
        p->ractor_cnt++;
    }
    vm_set_state(th, TS_WANTS_GVL);
    th->gvl_k = k;
    gvl_to_ready(th, true, (struct gvl_actor){ NULL, &p->nobody_cost, NULL });
    check_and_create_shared(p);
}

int mn_signal(struct rb_thread *next, struct gvl_actor by)
{
    struct mn_pool *p = next->vm->mn;
    if (next->nt) return 0;                 /* "already running" */
    if (p->in_grq[next->core.ractor->id]) return 0;
    return ractor_sched_enq(p, rb_ractor_of(next), by);
}

bool mn_snt_will_switch(const struct rb_thread *th, const struct rb_thread *next)
{
    const struct mn_snt *s = snt_of(th);
    return s && s->dedicated == 0 && !th->blocking && next && mn_thread_p(next) && !next->nt;
}

/* The NT left by a thread: switch directly to its Ractor's next thread if
 * nobody else will (not queued), else back to the nt_start loop. */
static void released(struct mach_task *t, void *ctx)
{
    (void)t;
    struct mn_snt *s = ctx;
    struct rb_ractor *r = s->from;
    s->from = NULL;
    struct rb_thread *next = rb_thread_of(r->core.sched.running);
    if (next && mn_thread_p(next) && !next->nt && !s->pool->in_grq[r->core.id]) {
        switch_to(s, next, 0);  /* the coroutine switch was paid by the leaving thread */
        return;
    }
    nt_loop(s);
}

static void leave_nt(struct rb_thread *th, struct mn_snt *s, sim_time cost)
{
    th->nt = NULL;
    s->th = NULL;
    s->from = rb_ractor_of(th);
    mach_burst(&th->vm->mach, &s->nt, cost, released, s);
}

void mn_thread_wait(struct rb_thread *th)
{
    struct mn_snt *s = snt_of(th);
    if (!s) {
        vm_fail(th->vm, "thread %s: M:N wait without a shared native thread", th->core.name);
        return;
    }
    sim_time cost = th->pending_cost + mach_of(s->pool)->coroutine_switch;
    th->pending_cost = 0;
    leave_nt(th, s, cost);
}

void mn_thread_exit(struct rb_thread *th)
{
    struct mn_pool *p = th->vm->mn;
    struct mn_snt *s = snt_of(th);
    struct rb_ractor *r = rb_ractor_of(th);
    if (--p->alive[r->core.id] == 0 && r->core.id != 0) p->ractor_cnt--;  /* vm_remove_ractor */
    if (!s) {
        vm_fail(th->vm, "thread %s: M:N exit without a shared native thread", th->core.name);
        return;
    }
    leave_nt(th, s, mach_of(p)->coroutine_switch);
}

void mn_snt_pin(struct rb_thread *th)
{
    struct mn_snt *s = snt_of(th);
    if (s && s->dedicated++ == 0) th->vm->mn->snt_cnt--;
}

void mn_snt_unpin(struct rb_thread *th)
{
    struct mn_snt *s = snt_of(th);
    if (s && s->dedicated > 0 && --s->dedicated == 0) th->vm->mn->snt_cnt++;
}

void mn_timer_tick(struct vm *vm)
{
    struct mn_pool *p = vm->mn;
    /* (1-4) lazy grq deq */
    if (p->grq_cnt > 0) cond_signal(p, (struct gvl_actor){ &vm->timer.nt, &vm->timer.pending_cost, NULL });
    /* (1-2) */
    check_and_create_shared(p);
}

/* ---- life cycle ------------------------------------------------------------ */

int mn_init(struct vm *vm, char *err, unsigned errlen)
{
    struct mn_pool *p = calloc(1, sizeof *p);
    size_t nr = (size_t)vm->nractors;
    if (p) {
        p->counted = calloc(nr, sizeof *p->counted);
        p->alive = calloc(nr, sizeof *p->alive);
        p->grq = calloc(nr, sizeof *p->grq);
        p->in_grq = calloc(nr, sizeof *p->in_grq);
    }
    if (!p || !p->counted || !p->alive || !p->grq || !p->in_grq) {
        if (p) {
            free(p->counted);
            free(p->alive);
            free(p->grq);
            free(p->in_grq);
        }
        free(p);
        return gv_fail(err, errlen, GV_ENOMEM, "out of memory for the M:N scheduler (%d Ractors)",
                       vm->nractors);
    }
    p->vm = vm;
    vm->mn = p;
    if (vm->nractors > 0) p->counted[0] = true;  /* the main Ractor exists from the start */
    p->ractor_cnt = 1;
    for (int i = 0; i < vm->nthreads; i++) {
        struct rb_thread *th = &vm->threads[i];
        if (mn_thread_p(th)) th->nt = NULL;
        if (th->core.start_at >= 0) mn_thread_created(th);  /* spawned ones: when spawned */
    }
    return GV_OK;
}

void mn_thread_created(struct rb_thread *th)
{
    struct mn_pool *p = th->vm->mn;
    p->alive[th->core.ractor->id]++;
    if (!mn_thread_p(th)) p->dnt_used++;
}

void mn_free(struct vm *vm)
{
    struct mn_pool *p = vm->mn;
    if (!p) return;
    for (int i = 0; i < p->nsnt; i++) free(p->snt[i]);
    free(p->snt);
    free(p->counted);
    free(p->alive);
    free(p->grq);
    free(p->in_grq);
    free(p);
    vm->mn = NULL;
}

void mn_collect(struct vm *vm, struct run_metrics *m)
{
    struct mn_pool *p = vm->mn;
    for (int i = 0; i < p->nsnt; i++) {
        m->vol_switches += p->snt[i]->nt.vcsw;
        m->invol_switches += p->snt[i]->nt.ivcsw;
    }
    m->native_threads = (uint64_t)p->dnt_used + (uint64_t)p->nsnt + (vm->policy->uses_timer_thread ? 1 : 0);
}
