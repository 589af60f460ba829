/* options.h - the options `run` and `exec` share (scenario, --set, --seed,
 * -o, ...), parsed once so both commands accept exactly the same forms. */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/time.h"
#include "cli.h"

struct run_options {
    const char *scenario;
    char **sets;           /* --set values, in order */
    int nsets;
    bool has_seed;
    uint64_t seed;
    const char *output;    /* "-" for stdout */
    const char *engine;
    const char *machines_dir;
    const char *trace;     /* --trace FILE, or NULL */
    long trace_max_events;
    bool no_header;
    bool reproducible;
    bool quiet;
    bool force;            /* --force: run even if estimated to take very long */
    sim_time max_time;     /* --max-time */
    double timeout;        /* --timeout (exec watchdog), seconds */
};

/* Parse argv (argv[0] = command name).  Returns GV_EXIT_OK or the exit code
 * of a usage error (already reported). */
int run_options_parse(const struct cli_command *cmd, int argc, char **argv,
                      struct run_options *o);
void run_options_free(struct run_options *o);

struct scenario;
/* Load the scenario named by the options (with their --set values and
 * --machines), print every diagnostic on stderr, apply --seed.  Returns an
 * exit code: GV_EXIT_OK, or the code of the failure (already reported). */
int run_options_load(const struct run_options *o, struct scenario *scn);

#endif
