/* options.h - options shared by several commands, as table lines (one
 * definition each: name, kind, range, help), and what `run`, `exec` and
 * `sweep` make of them (struct run_options). */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/time.h"
#include "../output/rows.h"
#include "../sim/engines.h"
#include "cli.h"

/* Largest --seed: 2^53, the largest integer a JSON number holds exactly. */
#define CLI_SEED_MAX (INT64_C(1) << 53)
/* --max-time and --timeout: at most 9e6 s (int64 picoseconds reach 9.2e6 s). */
#define CLI_TIME_MAX (INT64_C(9000000) * SIM_S)

#define CLI_OPT_SET_H(help_) \
    { .name = "set", .kind = ARGS_KV, .flags = ARGS_REPEAT | ARGS_KEYPATH, .help = help_ }
#define CLI_OPT_SET CLI_OPT_SET_H("override a scenario value, e.g. --set machine.cores=2\n" \
                                  "--set ractors.0.threads.1.count=8; applied in order (give\n" \
                                  "--set machine=PROFILE before the machine.* keys: after\n" \
                                  "them it is an error, as it would drop them)")
#define CLI_OPT_PARAM_H(help_) \
    { .name = "param", .kind = ARGS_KV, .flags = ARGS_REPEAT | ARGS_KEYPATH, \
      .metavar = "KEY=V1,V2,...", .help = help_ }
#define CLI_OPT_SEED_H(help_) \
    { .name = "seed", .kind = ARGS_INT, .min = 0, .max = CLI_SEED_MAX, .help = help_ }
#define CLI_OPT_SEED CLI_OPT_SEED_H("random seed (overrides the scenario's \"seed\")")
#define CLI_OPT_MACHINES \
    { .name = "machines", .kind = ARGS_DIR, .flags = ARGS_REPEAT, \
      .help = "look for machine profiles (NAME.json) in DIR first; several\n" \
              "are searched in the order given" }
#define CLI_OPT_OUTPUT_H(meta_, help_) \
    { .name = "output", .short_name = 'o', .kind = ARGS_PATH, .metavar = meta_, .help = help_ }
#define CLI_OPT_ROWS_OUTPUT CLI_OPT_OUTPUT_H("FILE", \
    "write the rows to FILE (atomically; default: stdout); a\n" \
    ".csv, .json or .jsonl suffix chooses the format")
#define CLI_OPT_FORMAT \
    { .name = "format", .kind = ARGS_ENUM, .values = rows_format_names, \
      .help = "row encoding: CSV (the default), one JSON array of objects,\n" \
              "or JSON Lines (one object per line); numbers are JSON numbers,\n" \
              "empty columns null.  Must agree with the -o suffix" }
#define CLI_OPT_NO_HEADER \
    { .name = "no-header", .kind = ARGS_FLAG, .help = "leave out the CSV header line (CSV only)" }
#define CLI_OPT_REPRODUCIBLE_H(help_) \
    { .name = "reproducible", .kind = ARGS_FLAG, .help = help_ }
#define CLI_OPT_MAX_TIME_H(help_) \
    { .name = "max-time", .kind = ARGS_SECONDS, .min = 1, .max = CLI_TIME_MAX, .help = help_ }
#define CLI_OPT_ENGINE \
    { .name = "engine", .kind = ARGS_ENUM, .names = sim_engine_name, \
      .help = "event engine (default native)" }
#define CLI_OPT_QUIET_H(help_) \
    { .name = "quiet", .short_name = 'q', .kind = ARGS_FLAG, .help = help_ }
#define CLI_OPT_QUIET CLI_OPT_QUIET_H("no summary on stderr")
#define CLI_OPT_FORCE_H(help_) { .name = "force", .kind = ARGS_FLAG, .help = help_ }
#define CLI_OPT_TIMEOUT \
    { .name = "timeout", .kind = ARGS_SECONDS, .min = 1, .max = CLI_TIME_MAX, \
      .help = "watchdog: stop a run still going after SECS (default 600);\n" \
              "it is reported with what each thread waits on, exit 4, and\n" \
              "no output file is written" }
#define CLI_OPT_MAX_SPREAD \
    { .name = "max-spread", .kind = ARGS_STRING, .metavar = "PCT", .check = cli_check_spread, \
      .help = "largest accepted spread of the busy-loop calibration\n" \
              "(default 10): the executor's interquartile range / median,\n" \
              "Ruby's mean's uncertainty (twice its standard error / mean);\n" \
              "a run that cannot calibrate within it fails with exit 4" }
#define CLI_OPT_RUBY \
    { .name = "ruby", .kind = ARGS_PATH, .metavar = "PATH", \
      .help = "--backend ruby: the Ruby to run (default: ruby on PATH)" }
#define CLI_OPT_RUBY_OPT \
    { .name = "ruby-opt", .kind = ARGS_STRING, .flags = ARGS_REPEAT, .metavar = "OPT", \
      .help = "--backend ruby: pass OPT to Ruby, e.g. --ruby-opt=--yjit" }
#define CLI_OPT_END { .name = NULL }

/* --max-spread: a percentage > 0 (an args check: 0, or -1 with a message). */
int cli_check_spread(const char *v, char *err, size_t errlen);
/* --max-spread as a fraction (0.1 for 10), or 0 when not given (the
 * calibration's default). */
double cli_max_spread(const struct args *a);

/* The options of `run`, `exec` and `sweep`, read from the parsed command
 * line (an option a command does not have keeps its default). */
struct run_options {
    const char *scenario;
    const char *const *sets;     /* --set values, in order */
    int nsets;
    bool has_seed;
    uint64_t seed;
    const char *output;          /* "-" for stdout */
    enum rows_format format;     /* --format, or the output's suffix */
    const char *engine;
    const char *const *machines; /* --machines directories, in order */
    int nmachines;
    const char *trace;           /* --trace FILE, or NULL */
    long trace_max_events;
    bool no_header;
    bool reproducible;
    bool quiet;
    bool force;                  /* --force: run even if estimated to take very long */
    sim_time max_time;           /* --max-time */
    double timeout;              /* --timeout (exec watchdog), seconds */
};

/* Fill `o` from a parsed command line; checks what no single option can
 * (--format against the -o suffix, --no-header with JSON).  Returns
 * GV_EXIT_OK or GV_EXIT_USAGE (reported). */
int run_options_get(const struct cli_command *cmd, const struct args *a, struct run_options *o);

struct scenario;
/* Load the scenario named by the options (with their --set values and
 * --machines), print every diagnostic on stderr, apply --seed.  Returns an
 * exit code: GV_EXIT_OK, or the code of the failure (already reported). */
int run_options_load(const struct run_options *o, struct scenario *scn);

struct trace;
struct trace_stats;
/* --trace of `gvlsim CMD` (run, exec): put the prepared trace in place and
 * say on stderr, even with -q, if it was capped (st) or records a run
 * that failed.  GV_OK, or GV_EIO with the message printed. */
int run_options_trace_commit(const char *cmd, const struct run_options *o, struct trace *t,
                             const struct trace_stats *st, bool run_failed);

#endif
