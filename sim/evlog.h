/* evlog.h - a log of every fired event, taken at the engine interface.
 *
 * sim_evlog_wrap() puts an engine behind a thin wrapper engine that the
 * models use instead: each event it forwards fires through the wrapper,
 * which writes one line and then calls the model's handler.  An engine that
 * is not wrapped pays nothing.  `gvlsim run` wraps its engine when the
 * environment variable GVLSIM_EVENT_LOG names a file.
 *
 * One line per fired event, identical on every engine for the same run:
 *
 *   N TIME_PS HANDLER OBJ
 *
 * N counts fired events from 1; HANDLER is the handler's exported name or,
 * for a static function, "+0x" and its offset in the executable (resolve
 * it with `addr2line -f -e gvlsim OFFSET`); OBJ is "o" and the number of
 * the handler's object in order of first appearance, so that logs of two
 * processes compare although their addresses differ. */
#ifndef SIM_EVLOG_H
#define SIM_EVLOG_H

#include <stddef.h>

#include "engine.h"

/* Wrap `inner`, logging to `path` ("-" for stdout).  On success *out is
 * the wrapper, which owns `inner` (sim_destroy closes the log and destroys
 * both); on failure `inner` is left to the caller.  Returns GV_OK,
 * GV_EIO or GV_ENOMEM. */
int sim_evlog_wrap(struct sim_engine *inner, const char *path, struct sim_engine **out, char *err,
                   size_t errlen);

#endif
