/* exec_affinity.c - pin a run to machine.cores CPUs.
 *
 * The CPUs are the first `cores` of the calling thread's current affinity
 * mask (so a run started under taskset stays inside it).  Threads created
 * after the pinning inherit the mask: the Ruby threads, the timer thread
 * and the helpers all compete for those cores, as CRuby's would under
 * taskset.  The mask is restored when the run ends, so that one process
 * can run several scenarios (the unit tests do). */
#include "exec_affinity.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../common/err.h"

int exec_affinity_pin(struct exec_affinity *a, int cores, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    if (sched_getaffinity(0, sizeof a->saved, &a->saved) != 0)
        return gv_fail(err, errlen, GV_ERUN, "sched_getaffinity: %s", strerror(errno));
    a->available = CPU_COUNT(&a->saved);
    if (cores < 1)
        return gv_fail(err, errlen, GV_EINVAL, "machine.cores = %d: need at least 1 CPU", cores);
    if (cores > a->available) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        return gv_fail(err, errlen, GV_EINVAL,
                       "machine.cores = %d, but this host lets gvlsim exec use only %d CPU%s "
                       "(%ld online); run with --set machine.cores=%d or less",
                       cores, a->available, a->available == 1 ? "" : "s", online, a->available);
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    int taken = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && taken < cores; cpu++) {
        if (!CPU_ISSET(cpu, &a->saved)) continue;
        CPU_SET(cpu, &set);
        taken++;
    }
    if (sched_setaffinity(0, sizeof set, &set) != 0)
        return gv_fail(err, errlen, GV_ERUN, "sched_setaffinity to %d CPU%s: %s", cores,
                       cores == 1 ? "" : "s", strerror(errno));
    a->pinned = true;
    return GV_OK;
}

void exec_affinity_restore(struct exec_affinity *a)
{
    if (!a->pinned) return;
    (void)sched_setaffinity(0, sizeof a->saved, &a->saved);
    a->pinned = false;
}
