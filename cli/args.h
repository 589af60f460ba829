/* args.h - one command-line parser for every gvlsim command (after tmux's
 * args_parse).
 *
 * A command declares its options as a table of struct args_opt and its
 * operands (SCENARIO, CSV, ...) in a struct args_spec; args_parse() checks
 * argv against it and converts every value once, so a value such as --seed
 * or --max-time has one syntax, one range and one error message wherever it
 * is accepted.  The same tables print each command's help, the man page and
 * the bash completion (cli/cmd_help.c), so none of them can drift.
 *
 * Accepted forms, for every command:
 *   --name VALUE, --name=VALUE    a long option with a value; a value that
 *                                 starts with '-' must use the '=' form
 *                                 (--ruby-opt=--yjit), except numbers
 *   -o VALUE, -oVALUE             a short option with a value
 *   -q, -qV                       short flags, alone or clustered
 *   --                            the end of the options: what follows is
 *                                 an operand even if it starts with '-'
 *   -                             an operand (stdin / stdout)
 *   -h, --help                    the command's help (handled here)
 * Options and operands may come in any order.  A flag may be repeated; an
 * option with a value may be given once, unless it is ARGS_REPEAT (then
 * every value is kept, in order).  Every failure is a usage error with one
 * line of text naming the option and the value.
 *
 * Adding an option to a command = one table line, e.g.
 *     { .name = "ruby", .kind = ARGS_PATH, .metavar = "PATH",
 *       .help = "the Ruby to run (default: ruby on PATH)" },
 *     { .name = "ruby-opt", .kind = ARGS_STRING, .flags = ARGS_REPEAT, .metavar = "OPT",
 *       .help = "pass OPT to Ruby, e.g. --ruby-opt=--yjit" },
 * then read it in the command's exec: args_str(a, "ruby", "ruby"),
 * args_strs(a, "ruby-opt") / args_count(a, "ruby-opt").  Options shared by
 * several commands (--seed, -o, --format, ...) are macros in cli/options.h.
 * Adding a command: see cli/cli.h.
 */
#ifndef CLI_ARGS_H
#define CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum args_kind {
    ARGS_FLAG,     /* no value: --quiet */
    ARGS_STRING,   /* any text, "" included: --title T */
    ARGS_PATH,     /* a file name: not empty ("-" is a name too: stdout/stdin) */
    ARGS_DIR,      /* a directory name: not empty */
    ARGS_INT,      /* a decimal integer in [min, max] (int64) */
    ARGS_SECONDS,  /* a time: plain seconds ("2.5", "1e3") or a duration with a
                      unit ("500ms", "10us"), exact to the picosecond, in
                      [min, max] picoseconds */
    ARGS_ENUM,     /* one of values[] (ARGS_LIST: a comma-separated list of them) */
    ARGS_KV        /* KEY=VALUE with a non-empty KEY */
};

#define ARGS_REPEAT 1u    /* may be given several times; all values kept in order */
#define ARGS_REQUIRED 2u  /* must be given */
#define ARGS_LIST 4u      /* ARGS_ENUM: a comma-separated list, each one of values[] */
#define ARGS_KEYPATH 8u   /* ARGS_KV, ARGS_STRING: KEY is a scenario path as --set takes
                             it (machine.cores); the completion offers the schema's keys */

struct args_opt {
    const char *name;          /* long name without "--" ("seed"); NULL ends a table */
    char short_name;           /* 'o' for -o, or 0 */
    enum args_kind kind;
    unsigned flags;            /* ARGS_REPEAT, ARGS_REQUIRED, ARGS_LIST, ARGS_KEYPATH */
    const char *metavar;       /* the value in help texts ("N", "FILE"); a default per kind */
    int64_t min, max;          /* ARGS_INT: range; ARGS_SECONDS: range in ps */
    const char *const *values; /* ARGS_ENUM: NULL-terminated, or NULL and names: */
    const char *(*names)(size_t i); /* ARGS_ENUM: the i-th value, NULL past the last
                                       (a registry such as sim/engines.h) */
    /* Further checks of one value (e.g. a name looked up in a registry):
     * 0, or -1 with a message (without the option's name) in err. */
    int (*check)(const char *value, char *err, size_t errlen);
    const char *help;          /* what it does; '\n' starts a new help line */
};

struct args_spec {
    const struct args_opt *opts;   /* table ended by an entry whose name is NULL */
    const char *operand;           /* the operands' name for messages: "SCENARIO" */
    int min_operands, max_operands; /* max_operands -1: no limit */
};

/* What args_parse found. */
struct args {
    const struct args_spec *spec;
    int argc;                   /* the command line as given (argv[0]: the command) */
    char **argv;
    bool help;                  /* -h / --help was given: print help, nothing else */
    const char **operands;      /* in order */
    int noperands;
    /* per option of the table (same index): values in the order given */
    int *count;
    const char **strs;          /* every value, grouped by option */
    int64_t *nums;              /* ARGS_INT: the value; ARGS_SECONDS: ps;
                                   ARGS_ENUM: index (ARGS_LIST: bit mask) */
    int *first;                 /* index into strs/nums of each option's first value */
};

/* Parse argv[1..argc) (argv[0] is the command's name) against `spec`.
 * Returns GV_OK (out filled; free with args_free), GV_EUSAGE with a
 * one-line message in err (out holds nothing), or GV_ENOMEM. */
int args_parse(const struct args_spec *spec, int argc, char **argv, struct args *out,
               char *err, size_t errlen);
void args_free(struct args *a);

/* Readers.  `name` is the long name of an option of the spec's table (a
 * name that is not there is a programming error: assert). */
bool args_has(const struct args *a, const char *name);     /* given at least once */
int args_count(const struct args *a, const char *name);
/* The value (of the last occurrence), or def when not given. */
const char *args_str(const struct args *a, const char *name, const char *def);
/* ARGS_INT value, ARGS_SECONDS picoseconds, ARGS_ENUM index or mask; def if not given. */
int64_t args_num(const struct args *a, const char *name, int64_t def);
/* Every value in order (args_count of them). */
const char *const *args_strs(const struct args *a, const char *name);

/* The option's table entry (for help texts), or NULL. */
const struct args_opt *args_find(const struct args_spec *spec, const char *name);
/* The i-th value of an ARGS_ENUM option, NULL past the last. */
const char *args_enum_value(const struct args_opt *o, size_t i);
/* The value's placeholder in help texts: o->metavar, else "a|b|c" for an
 * enum, else one derived from the kind ("N", "SECS", "FILE", ...). */
void args_metavar(const struct args_opt *o, char *buf, size_t len);
/* "-o, --output FILE", "--quiet": the option as help texts show it. */
void args_opt_label(const struct args_opt *o, char *buf, size_t len);

#endif
