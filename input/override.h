/* override.h - apply one `--set key.path=value` to a parsed scenario.
 *
 * The path is dotted; a numeric segment indexes an array.  The value is
 * parsed as JSON if it is a JSON value (number, true/false/null, "quoted",
 * {...}, [...]), else taken as a plain string, so both
 * `--set runtime.quantum=50` (50 ns) and `--set runtime.gvl_policy=hot_steal`
 * work.  Missing object keys are created (the schema then checks them like
 * any key).  If "machine" is a profile name (a string) and the path goes
 * below it, it first becomes {"profile": "<name>"}.
 *
 * Nodes made here are placed at "--set[N]:1:COL": COL is the column of the
 * value within the key=value string (for a key, of its path segment).
 */
#ifndef INPUT_OVERRIDE_H
#define INPUT_OVERRIDE_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "../common/diag.h"
#include "jsonpos.h"

/* Whether a position's document name is one of --set's ("--set[N]"). */
bool ovr_is_set_doc(const char *file);

/* Apply `set` (the n-th --set, 1-based) to root.  Returns GV_OK, GV_EINVAL
 * (a diagnostic was added; root is unchanged) or GV_ENOMEM. */
int ovr_apply(cJSON *root, const char *set, int n, struct jpos_table *pos,
              struct diag_list *diags);

#endif
