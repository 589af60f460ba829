/* sweep_jobs.h - `gvlsim sweep --emit-jobs`: a sweep as shard jobs for
 * existing distributed tooling (GNU parallel, Slurm), not a home-made one. */
#ifndef CLI_SWEEP_JOBS_H
#define CLI_SWEEP_JOBS_H

#include <stdint.h>

#include "args.h"

/* "parallel", "slurm", NULL: the values of --emit-jobs. */
extern const char *const sweep_job_kinds[];

/* Print the jobs on stdout: for `kind` 0 (parallel) one command line per
 * shard, for 1 (slurm) a job-array script; each job is the sweep of the
 * parsed command line `a` with --shard K/N, --resume and -o OUT.K-of-N.EXT,
 * every path made absolute (and $GVLSIM_MACHINES carried over), so that it
 * runs from any directory of a machine that sees the same files.  --resume
 * makes a job run again (a re-submitted array, `parallel --resume-failed`)
 * continue from its shard's journal (OUT.K-of-N.EXT.journal) where an
 * interrupted run left one, and start afresh where there is none.  A note
 * on stderr gives the merge command.  Returns an exit code. */
int sweep_emit_jobs(const struct args *a, int kind, uint64_t shards, uint64_t points, int seeds);

#endif
