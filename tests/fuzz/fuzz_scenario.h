/* fuzz_scenario.h - the input of the scenario targets (fuzz_load.c,
 * fuzz_run.c), loaded as `gvlsim run` would load it.
 *
 * An input is the scenario text, then up to four --set arguments, each
 * after a NUL byte (argv cannot hold a NUL, so nothing is lost).  Machine
 * profiles named by the scenario resolve in scenarios/machines (run from
 * the repository root).  A header of static functions: each target is
 * built from its one file (the Makefile's fuzz and replay rules). */
#ifndef TESTS_FUZZ_SCENARIO_H
#define TESTS_FUZZ_SCENARIO_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/diag.h"
#include "../../common/err.h"
#include "../../input/load.h"

/* Load the input into *s (diagnostics in *d, initialised here: the
 * caller frees it); returns the loader's status, or GV_ENOMEM with no
 * diagnostic if the input could not be copied. */
static int fuzz_scenario_load(const uint8_t *data, size_t size, struct scenario *s, struct diag_list *d)
{
    diag_init(d);
    const char *sets[4];
    int nsets = 0;
    size_t len = 0;
    while (len < size && data[len]) len++;
    /* the --set arguments: NUL-terminated copies (the last may be unterminated) */
    char *copy = malloc(size + 1);
    if (!copy) return GV_ENOMEM;
    memcpy(copy, data, size);
    copy[size] = '\0';
    for (size_t i = len; i < size && nsets < 4; i++)
        if (copy[i] == '\0') sets[nsets++] = copy + i + 1;
    static const char *const machines[] = { "scenarios/machines" };
    struct load_opts o = { .sets = sets, .nsets = nsets, .machines_dirs = machines, .nmachines_dirs = 1 };
    int rc = scn_load_text("fuzz.json", (const char *)data, len, &o, s, d);
    free(copy);
    return rc;
}

#endif
