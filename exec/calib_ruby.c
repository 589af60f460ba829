/* calib_ruby.c - what the Ruby the Ruby backend runs costs on this machine.
 *
 * ruby_insn_ns: a Ruby VM instruction, the model's `insn_time` (the time of
 * one instruction of a `compute` given in insns).  It depends on the CPU as
 * much as on CRuby, so it is measured on that Ruby (its counted loop,
 * exec/ruby_prelude.c gv_loop), pinned to the first CPU like every other
 * benchmark.  Each round is one run of that Ruby (15 samples of about 4 ms;
 * the round's value is their median), so that the rounds' agreement also
 * covers start-up effects such as where the interpreter landed in memory.
 *
 * ruby_file_mtime_extra_ns, ruby_file_write_extra_ns: the CPU the Ruby
 * methods the Ruby backend runs for a syscall op (File.mtime for a stat,
 * File.write for an open/write/close of /dev/null; exec/ruby_gen.c) spend
 * beyond their system calls: the machine's `method_work` (a syscall op's
 * "method_work": "machine").  A round is one run of the Ruby timing the
 * method (15 samples of about 4 ms, the loop around it subtracted, the GC
 * off: its steps are the model's `allocates`), then the same system calls
 * from C (exec/calib_cpu.c, 15 samples), back to back: the round's value is
 * the difference of their medians.  Back to back, because this guest's
 * system calls cost 1.5x more in one minute than in another, and a
 * difference of two figures measured a minute apart would carry that.  The
 * extra is the method's C and Ruby code, and what the system calls cost the
 * code after them (a page-table switch per call flushes the TLB that
 * Ruby's code and objects then refill, where the C loop has little to
 * refill), all of it CPU the real method uses holding the GVL.
 *
 * ruby_sweep_body_ns, ruby_sweep_slot_ns, ruby_mark_base_ns,
 * ruby_mark_page_ns, ruby_mark_thread_ns, ruby_mark_object_ns: what the GC
 * costs in that Ruby on this machine - the machine's gc_free_body (the
 * sweep's free of a dead environment's or Proc's malloc'd body, what an
 * env_escape allocates), gc_sweep_per_slot (the sweep of a slot),
 * gc_mark_base, gc_mark_per_page, gc_mark_per_thread and gc_mark_per_object
 * (a minor GC's marking: its fixed part, its part per heap page and per
 * living thread, each young survivor's).  The model's heap is full when a
 * GC starts (it starts one when no slot is left, as CRuby does once the
 * lazy sweep is done), so the slots a sweep visits hold dead objects: the
 * per-slot figure is a dead object's - a free slot's visit plus the dead
 * object's extra, each measured - not a heap of mostly free slots divided
 * by its size (scripts/gc_costs.rb's 4.8 ns on the AMD EPYC guest, the
 * free slot's alone, against 7.1-7.7 ns).  A round is two runs of the Ruby
 * (the large heap's and the boot heap's), GC_SAMPLES samples of the six
 * figures, of ruby_alloc_ns (an Object.new's own CPU, the alloc op's:
 * the machine's alloc_object) and of ruby_escape_ns (a call of the escape
 * method the Ruby backend writes for an env_escape op, the machine's
 * env_escape_work) (3 with --quick; exec/ruby_run.c rrun_gc_costs_ns, about 0.1 s a
 * sample); the rounds go on while the body's figure, the one proc_heavy's
 * collections turn on, has not settled. */
#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "calib_int.h"
#include "calltime.h"
#include "ruby_run.h"

#define SAMPLES 15
#define GC_SAMPLES 5
#define C_SAMPLE_NS 4000000LL

static int insn_round(struct calib_ctx *c, void *ctx, double *v)
{
    const struct rrun_opts *o = ctx;
    double s[SAMPLES];
    int rc = rrun_insn_ns(o, s, SAMPLES, c->err, c->errlen);
    if (rc != GV_OK) return rc;
    double q1, q3;
    return calib_summarise(s, SAMPLES, v, &q1, &q3);
}

struct method_ctx {
    struct rrun_opts o;
    enum scn_syscall_call call;
};

static int method_round(struct calib_ctx *c, void *ctx, double *v)
{
    const struct method_ctx *m = ctx;
    double s[SAMPLES], ruby, q1, q3;
    int rc = rrun_method_ns(&m->o, m->call, s, SAMPLES, c->err, c->errlen);
    if (rc == GV_OK) rc = calib_summarise(s, SAMPLES, &ruby, &q1, &q3);
    if (rc != GV_OK) return rc;
    double sys = calib_syscall_sample_ns(c, m->call == CALL_STAT, SAMPLES, C_SAMPLE_NS);
    /* a method cheaper than its calls (noise on a tiny extra): none */
    *v = ruby > sys ? ruby - sys : 0;
    return GV_OK;
}

static void gc_costs(struct calib_ctx *c, const struct rrun_opts *o)
{
    static const enum calib_id ids[] = { CALIB_RUBY_SWEEP_BODY, CALIB_RUBY_SWEEP_SLOT, CALIB_RUBY_MARK_BASE,
                                         CALIB_RUBY_MARK_PAGE, CALIB_RUBY_MARK_THREAD, CALIB_RUBY_MARK_OBJECT,
                                         CALIB_RUBY_ALLOC, CALIB_RUBY_ESCAPE };
    struct rrun_gc_costs s[GC_SAMPLES];
    int n = c->o->quick ? 3 : GC_SAMPLES;  /* (--quick: within its 15 s) */
    struct calib_kinds k;
    calib_kinds_start(&k, c, ids, 8, 0, 4.0, c->min_rounds);
    int rc;
    do {
        rc = rrun_gc_costs_ns(o, s, n, c->err, c->errlen);
        for (int i = 0; rc == GV_OK && i < n; i++) {
            calib_kinds_add(&k, 0, s[i].sweep_body);
            calib_kinds_add(&k, 1, s[i].sweep_slot);
            calib_kinds_add(&k, 2, s[i].mark_base);
            calib_kinds_add(&k, 3, s[i].mark_page);
            calib_kinds_add(&k, 4, s[i].mark_thread);
            calib_kinds_add(&k, 5, s[i].mark_object);
            calib_kinds_add(&k, 6, s[i].alloc_object);
            calib_kinds_add(&k, 7, s[i].escape);
        }
    } while (rc == GV_OK && calib_kinds_round_end(&k));
    calib_kinds_finish(&k, c, rc);
}

/* ruby_gc_gap_*_ns: a collection after a longer gap costs more - on the
 * AMD EPYC guest (2026-12-03, Ruby 3.1.2, a 110-page heap, 60 samples
 * each) a minor GC swept at once took a median 99 us right after the
 * objects were allocated, 117 us 2 ms later, 162 us 5 ms, 193 us 10 ms and
 * 209 us 30 ms, the thread spinning (a sleep the same): what the
 * collection reads was evicted in between, by nothing the thread did.  A
 * round is one run of the Ruby, GAP_SAMPLES samples of each gap (5 with
 * --quick; 44 ms a sample); the rounds go on while the longest gap's
 * figure, the largest, has not settled.  The machine's gc_cold. */
#define GAP_SAMPLES 15
static void gc_gaps(struct calib_ctx *c, const struct rrun_opts *o)
{
    static const enum calib_id ids[CALIB_GC_GAPS] = { CALIB_RUBY_GC_GAP_1MS, CALIB_RUBY_GC_GAP_3MS,
                                                       CALIB_RUBY_GC_GAP_10MS, CALIB_RUBY_GC_GAP_30MS };
    double s[GAP_SAMPLES * CALIB_GC_GAPS];
    int n = c->o->quick ? 5 : GAP_SAMPLES;
    struct calib_kinds k;
    calib_kinds_start(&k, c, ids, CALIB_GC_GAPS, CALIB_GC_GAPS - 1, 3.0, c->min_rounds);
    int rc;
    do {
        rc = rrun_gc_gap_ns(o, calib_gc_gap_ns, CALIB_GC_GAPS, s, n, c->err, c->errlen);
        for (int i = 0; rc == GV_OK && i < n; i++)
            for (int g = 0; g < CALIB_GC_GAPS; g++) calib_kinds_add(&k, g, s[i * CALIB_GC_GAPS + g]);
    } while (rc == GV_OK && calib_kinds_round_end(&k));
    calib_kinds_finish(&k, c, rc);
}

/* ruby_marker_loop_ns .. ruby_file_write_after_ns: where File.mtime's and
 * File.write's CPU falls between their system calls, timed inside the Ruby
 * by the call-timing preload library (exec/calltime.h): a round is one run
 * of the Ruby (its three loops of 12,000 iterations), SPLIT_SAMPLES samples
 * of each gap (the medians of consecutive chunks of its cycles).  The
 * machine's method_work and method_work_after split the methods' extra
 * (above) in these proportions (exec/calib_map.c).  A Ruby the library
 * cannot time (a static C library, a /tmp mounted noexec, other calls)
 * leaves them unmeasured, and the extra goes before the first call as it
 * did before they existed. */
#define SPLIT_SAMPLES 15
static void method_gaps(struct calib_ctx *c, const struct rrun_opts *o)
{
    static const enum calib_id ids[CALLTIME_NGAPS] = {
        CALIB_RUBY_LOOP_GAP,     CALIB_RUBY_MTIME_BEFORE,     CALIB_RUBY_MTIME_AFTER,       CALIB_RUBY_WRITE_BEFORE,
        CALIB_RUBY_WRITE_OPEN_WRITE, CALIB_RUBY_WRITE_WRITE_CLOSE, CALIB_RUBY_WRITE_AFTER,
    };
    _Static_assert(CALIB_RUBY_WRITE_AFTER - CALIB_RUBY_LOOP_GAP == CALLTIME_NGAPS - 1, "calltime.h's order");
    double s[SPLIT_SAMPLES * CALLTIME_NGAPS];
    int n = c->o->quick ? 5 : SPLIT_SAMPLES;
    struct calib_kinds k;
    calib_kinds_start(&k, c, ids, CALLTIME_NGAPS, CALLTIME_GAP_WRITE_BEFORE, 2.0, c->min_rounds);
    int rc;
    do {
        rc = rrun_method_gaps(o, s, n, c->err, c->errlen);
        for (int g = 0; rc == GV_OK && g < CALLTIME_NGAPS; g++)
            for (int i = 0; i < n; i++) calib_kinds_add(&k, g, s[g * n + i]);
    } while (rc == GV_OK && calib_kinds_round_end(&k));
    calib_kinds_finish(&k, c, rc);
}

/* ruby_cross_compute_ns, ruby_cross_mtime_ns, ruby_cross_write_ns: what a
 * Ruby thread's work costs more when it runs right after the GVL came to it
 * from a thread on the other CPU - its CPU idle in between.  On the Intel
 * Xeon guest (Firecracker, Linux 6.18.44-fc-v1272, Ruby 3.1.2, 2026-12-06)
 * a File.write of /dev/null timed right after a Queue hand-off took 5.2-5.5
 * us with both threads on one CPU and 8.3-9.1 us across two, a File.mtime
 * 1.9-2.2 against 3.4-3.6, a minimal step ([1, 1]) 0.31 against 0.53-0.58;
 * one thread alone on one CPU shows most of it after a sleep (the CPU idle)
 * against a busy wait of that length (File.write +2-3 us): what the work
 * had in the CPU's caches went cold while the virtual CPU was halted, more
 * than the other CPU's writes cost (docs/validate.md, "Work after an idle
 * CPU runs cold").  The model charges it to a thread's first such work
 * after it arrives on an idle core (machine keys compute_after_idle,
 * method_after_idle).  A round is two runs of the Ruby
 * (rrun_handoff_work_ns), on the first CPU and then on the first two, back
 * to back; a sample is a two-CPU sample less the one-CPU run's median. */
#define CROSS_SAMPLES 9
static void handoff_cross(struct calib_ctx *c, const struct rrun_opts *o)
{
    static const enum calib_id ids[RRUN_WORKS] = { CALIB_RUBY_CROSS_COMPUTE, CALIB_RUBY_CROSS_MTIME,
                                                    CALIB_RUBY_CROSS_WRITE };
    if (c->cpu1 < 0) {
        calib_skip_ids(c, ids, RRUN_WORKS, "one CPU in the affinity mask: no other CPU to hand off from");
        return;
    }
    double one[CROSS_SAMPLES * RRUN_WORKS], two[CROSS_SAMPLES * RRUN_WORKS];
    /* (--quick: one round of 3 samples, about 0.3 s of its 15 s) */
    int n = c->o->quick ? 3 : CROSS_SAMPLES;
    struct calib_kinds k;
    calib_kinds_start(&k, c, ids, RRUN_WORKS, RRUN_WORK_WRITE, 3.0, c->o->quick ? 1 : c->min_rounds);
    int rc;
    do {
        rc = rrun_handoff_work_ns(o, one, n, c->err, c->errlen);
        if (rc == GV_OK) rc = calib_pin_self_pair(c);
        if (rc == GV_OK) {
            rc = rrun_handoff_work_ns(o, two, n, c->err, c->errlen);
            int back = calib_pin_self(c, c->cpu0);
            if (rc == GV_OK) rc = back;
        }
        for (int w = 0; rc == GV_OK && w < RRUN_WORKS; w++) {
            double s[CROSS_SAMPLES], base, q1, q3;
            for (int i = 0; i < n; i++) s[i] = one[i * RRUN_WORKS + w];
            rc = calib_summarise(s, n, &base, &q1, &q3);
            for (int i = 0; rc == GV_OK && i < n; i++) calib_kinds_add(&k, w, two[i * RRUN_WORKS + w] - base);
        }
    } while (rc == GV_OK && calib_kinds_round_end(&k));
    calib_kinds_finish(&k, c, rc);
}

void calib_bench_ruby(struct calib_ctx *c)
{
    static const enum calib_id ids[] = { CALIB_RUBY_INSN, CALIB_RUBY_FILE_MTIME_EXTRA, CALIB_RUBY_FILE_WRITE_EXTRA,
                                         CALIB_RUBY_LOOP_GAP, CALIB_RUBY_MTIME_BEFORE, CALIB_RUBY_MTIME_AFTER,
                                         CALIB_RUBY_WRITE_BEFORE, CALIB_RUBY_WRITE_OPEN_WRITE,
                                         CALIB_RUBY_WRITE_WRITE_CLOSE, CALIB_RUBY_WRITE_AFTER,
                                         CALIB_RUBY_SWEEP_BODY, CALIB_RUBY_SWEEP_SLOT, CALIB_RUBY_MARK_BASE,
                                         CALIB_RUBY_MARK_PAGE, CALIB_RUBY_MARK_THREAD, CALIB_RUBY_MARK_OBJECT,
                                         CALIB_RUBY_ALLOC, CALIB_RUBY_ESCAPE, CALIB_RUBY_GC_GAP_1MS, CALIB_RUBY_GC_GAP_3MS,
                                         CALIB_RUBY_GC_GAP_10MS, CALIB_RUBY_GC_GAP_30MS, CALIB_RUBY_CROSS_COMPUTE,
                                         CALIB_RUBY_CROSS_MTIME, CALIB_RUBY_CROSS_WRITE };
    const int nids = (int)(sizeof ids / sizeof *ids);
    if (c->o->no_ruby) {
        calib_skip_ids(c, ids, nids, "--no-ruby");
        return;
    }
    struct rrun_opts o = { .ruby = c->o->ruby, .stat_path = c->o->stat_path };
    int rc = calib_rounds(c, CALIB_RUBY_INSN, 2.0, insn_round, &o);
    calib_done(c, CALIB_RUBY_INSN);
    if (rc != GV_OK) {
        /* no Ruby to run: the methods cannot be measured either */
        calib_skip_ids(c, ids + 1, nids - 1, c->r->m[CALIB_RUBY_INSN].note);
        return;
    }
    struct method_ctx m = { .o = o, .call = CALL_STAT };
    calib_rounds(c, CALIB_RUBY_FILE_MTIME_EXTRA, 3.0, method_round, &m);
    calib_done(c, CALIB_RUBY_FILE_MTIME_EXTRA);
    m.call = CALL_OPEN_DEVNULL;
    calib_rounds(c, CALIB_RUBY_FILE_WRITE_EXTRA, 3.0, method_round, &m);
    calib_done(c, CALIB_RUBY_FILE_WRITE_EXTRA);
    method_gaps(c, &o);
    gc_costs(c, &o);
    gc_gaps(c, &o);
    handoff_cross(c, &o);
}
