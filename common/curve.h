/* curve.h - a cost that grows with a duration, as a few measured points.
 *
 * A curve is up to GV_CURVE_MAX points (x_i, y_i) with 0 < x_1 < x_2 < ...,
 * and y >= 0: y(x) is 0 below x_1, y_n from x_n on, and in between linear
 * in log x (the costs it describes - the wake-up of a core by how long it
 * has been idle - grow by steps per decade, not per microsecond).  Used by
 * the machine model (sim/machine.c: wake_idle_extra) and written by the
 * scenario builder and `gvlsim calibrate`. */
#ifndef COMMON_CURVE_H
#define COMMON_CURVE_H

#include "time.h"

#define GV_CURVE_MAX 16

struct gv_curve {
    int n;                      /* points; 0: no curve (y = 0 everywhere) */
    sim_time x[GV_CURVE_MAX];   /* strictly increasing, > 0 */
    sim_time y[GV_CURVE_MAX];   /* >= 0 */
};

/* y(x), rounded to the nearest picosecond. */
sim_time gv_curve_at(const struct gv_curve *c, sim_time x);

#endif
