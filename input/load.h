/* load.h - scenario file -> struct scenario.
 *
 * Steps, in order: read the file; parse it with cJSON (syntax errors carry
 * line:col); apply every --set override to the JSON tree; resolve the
 * machine profile named by machine.profile (in each --machines directory,
 * in order, then machines/NAME.json next to the scenario, then each
 * directory of $GVLSIM_MACHINES; a path is relative to the working
 * directory when given with --set, to the scenario's directory when
 * written in it, each falling back on the other) and lay
 * the scenario's own machine keys over it; validate the whole tree against
 * the schema (unknown keys, duplicate keys, wrong types, out-of-range
 * values, unknown queue names, ...), collecting every problem; and only if
 * there is none, build the structs.
 *
 * Every diagnostic has the form "file:line:col: /json/pointer: message";
 * values set with --set are reported as "--set[N]:1:col".
 */
#ifndef INPUT_LOAD_H
#define INPUT_LOAD_H

#include "../common/diag.h"
#include "scenario.h"

struct load_opts {
    const char *const *sets;  /* "key.path=value" strings from --set */
    int nsets;
    const char *const *machines_dirs; /* profile directories searched first, in order */
    int nmachines_dirs;
};

/* Returns GV_OK, GV_EINVAL (problems in `diags`), GV_EIO (file unreadable,
 * message in `diags`) or GV_ENOMEM.  On failure `out` holds nothing to free. */
int scn_load(const char *file, const struct load_opts *opts,
             struct scenario *out, struct diag_list *diags);
/* Read a scenario file as scn_load does (a FIFO without a writer is
 * refused, the size limited), for a caller that loads it several times
 * with scn_load_text (a sweep: a pipe can be read only once).  *text is
 * NUL-terminated, the caller frees it.  GV_OK, GV_EIO, GV_EINVAL (too
 * large) or GV_ENOMEM, with a message in diags. */
int scn_read_file(const char *file, char **text, size_t *len, struct diag_list *diags);
/* The same for a scenario already in memory (len bytes, any content),
 * named `name` in messages; a machine profile named by a relative path is
 * looked up relative to the directory of `name`. */
int scn_load_text(const char *name, const char *text, size_t len, const struct load_opts *opts,
                  struct scenario *out, struct diag_list *diags);

#endif
