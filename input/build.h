/* build.h - a validated JSON tree -> struct scenario.
 *
 * Runs only after sch_validate() found nothing: every value is known to be
 * well-formed, so the only failure left is running out of memory.  Absent
 * keys take the defaults of the schema tables (schema.c). */
#ifndef INPUT_BUILD_H
#define INPUT_BUILD_H

#include "scenario.h"
#include "schema.h"

/* Fill *out from d.  `file` is the scenario path (its base name is the
 * default "name"); `profile_name` the machine profile it named, or NULL
 * (the default machine "name").  GV_OK or GV_ENOMEM (then *out is empty). */
int bld_scenario(const struct sch_doc *d, const char *file, const char *profile_name,
                 struct scenario *out);

#endif
