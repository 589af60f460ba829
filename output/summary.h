/* summary.h - a short human summary of a run (for stderr). */
#ifndef OUTPUT_SUMMARY_H
#define OUTPUT_SUMMARY_H

#include <stdio.h>

#include "../common/metrics.h"

void summary_write(FILE *f, const struct run_metrics *m);

#endif
