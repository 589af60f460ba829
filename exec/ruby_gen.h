/* ruby_gen.h - a scenario as a Ruby program (the Ruby backend's generator).
 *
 * The program does what the ops say with the real thing: a busy loop
 * calibrated at start-up for `compute`, the Ruby method a syscall op models
 * (File.mtime, File.write('/dev/null'), IO.select on a pipe for an I/O
 * wait), Thread::Queue, Thread::Mutex, Thread::ConditionVariable,
 * Kernel#sleep, Thread.new for spawn and generators, Object.new for alloc
 * (CRuby's own GC), Ractor.new, a lambda capturing a local for env_escape,
 * a loop whose instruction count is read from its own instruction sequence
 * for `insns`; named measures are clock samples taken by the threads.  It measures itself from inside and
 * writes one JSON object to the file named by its first argument; exec/
 * ruby_run.c runs it and reads that.  The program is version-agnostic
 * (3.0 and later): what differs between Ruby versions is decided when it
 * runs.  docs/ruby-backend.md describes the program part by part.
 *
 * Adding an op: one entry in op_kinds[] of ruby_gen.c (check, needs, emit).
 */
#ifndef EXEC_RUBY_GEN_H
#define EXEC_RUBY_GEN_H

#include <stddef.h>

#include "../input/scenario.h"

struct rgen_opts {
    const char *stat_path;   /* the file File.mtime reads (a `stat` op) */
    double max_spread;       /* the calibration's largest accepted uncertainty of its mean; <= 0: 0.10 */
};

/* Which op a line of the program runs (for error reports). */
struct rgen_line {
    int line;                /* 1-based line of the program */
    const struct scn_op *op;
};

struct rgen_program {
    char *text;
    size_t len;
    struct rgen_line *lines; /* in increasing line order */
    int nlines;
};

/* What the program exits with when its busy loop would not calibrate. */
#define RGEN_EXIT_CALIBRATION 3
/* What it exits with once it has printed where its threads are for the
 * watchdog (SIGUSR1): at once, without its `ensure` blocks. */
#define RGEN_EXIT_WATCHDOG 4

/* Everything the generator cannot express in Ruby: GV_OK, or GV_EUNSUP
 * with a message naming the op (its JSON pointer and line) and why. */
int rgen_check(const struct scenario *scn, char *err, size_t errlen);

/* The program for `scn` (rgen_check first).  GV_OK, GV_EUNSUP, GV_ENOMEM. */
int rgen_generate(const struct scenario *scn, const struct rgen_opts *o, struct rgen_program *p,
                  char *err, size_t errlen);
void rgen_program_free(struct rgen_program *p);

/* The op run at `line`, or NULL. */
const struct scn_op *rgen_op_at(const struct rgen_program *p, int line);

/* The Ruby text every generated program starts with (ruby_prelude.c): the
 * busy loop, the instruction loop, calibration, switch counts, the report. */
extern const char rgen_prelude[];

#endif
