/* calib_ruby.c - what a Ruby VM instruction costs on this machine: the
 * model's `insn_time`, the time of one instruction of a `compute` given in
 * insns.  It depends on the CPU as much as on CRuby, so it is measured on
 * the Ruby the Ruby backend would run (its counted loop, exec/ruby_prelude.c
 * gv_loop), pinned to the first CPU like every other benchmark.  Each round
 * is one run of that Ruby (15 samples of about 4 ms; the round's value is
 * their median), so that the rounds' agreement also covers start-up effects
 * such as where the interpreter landed in memory. */
#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "calib_int.h"
#include "ruby_run.h"

#define SAMPLES 15

static int insn_round(struct calib_ctx *c, void *ctx, double *v)
{
    const struct rrun_opts *o = ctx;
    double s[SAMPLES];
    int rc = rrun_insn_ns(o, s, SAMPLES, c->err, c->errlen);
    if (rc != GV_OK) return rc;
    double q1, q3;
    return calib_summarise(s, SAMPLES, v, &q1, &q3);
}

void calib_bench_ruby(struct calib_ctx *c)
{
    struct calib_stat *st = &c->r->m[CALIB_RUBY_INSN];
    if (c->o->no_ruby) {
        calib_skip(st, "--no-ruby");
    } else {
        struct rrun_opts o = { .ruby = c->o->ruby };
        calib_rounds(c, CALIB_RUBY_INSN, 2.0, insn_round, &o);
    }
    calib_done(c, CALIB_RUBY_INSN);
}
