/* estimate.h - how many engine events a run will take, before running it.
 *
 * A run that would take hours is refused up front (simulate_run, unless
 * forced): the decision must be the same on every machine, so it rests on
 * a count derived from the scenario alone, never on host time.  The count
 * walks each thread template's program: every op costs the events its
 * model schedules (a compute burst ends; a GVL-releasing syscall enters
 * and leaves a blocking region and usually hands the GVL over; a park is
 * a block and a wake-up), times how often it runs: loop counts, the
 * instance's share of a times_total, and for a `forever` loop, the time
 * left until stop.time (or --max-time) divided by the simulated time one
 * iteration takes (the mean of each duration; at least
 * ESTIMATE_OP_FLOOR per op, what the cheapest hand-off costs); plus the
 * timer thread's ticks.  It is an estimate, within a small factor of the
 * events the golden runs count (tests/unit/test_estimate.c checks it). */
#ifndef MODELS_ESTIMATE_H
#define MODELS_ESTIMATE_H

#include "../common/time.h"
#include "../input/scenario.h"

/* A run beyond this many events is refused unless forced: about six
 * minutes at ESTIMATE_EVENTS_PER_S. */
#define ESTIMATE_MAX_EVENTS 5e9
/* Host speed for the rough time in the message: what `make bench` measures
 * for the native engine on the 2-core 1M-message ping-pong (17.8M events
 * in about 1.2 s on the development guest). */
#define ESTIMATE_EVENTS_PER_S 15e6
/* Simulated time an op takes at least in the estimate. */
#define ESTIMATE_OP_FLOOR (100 * SIM_NS)

/* Engine events of `scn` run until `max_time` (or its stop.time). */
double estimate_events(const struct scenario *scn, sim_time max_time);

#endif
