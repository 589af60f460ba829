/* exec_affinity.h - machine.cores = k: run on k CPUs (sched_setaffinity). */
#ifndef EXEC_EXEC_AFFINITY_H
#define EXEC_EXEC_AFFINITY_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

struct exec_affinity {
    cpu_set_t saved;   /* the calling thread's mask before pinning */
    bool pinned;
    int available;     /* CPUs the process may use */
};

/* Pin the calling thread (and so every thread it creates afterwards) to the
 * first `cores` CPUs it may use.  GV_EINVAL naming both numbers if the host
 * has fewer. */
int exec_affinity_pin(struct exec_affinity *a, int cores, char *err, size_t errlen);
/* Give the calling thread its previous mask back. */
void exec_affinity_restore(struct exec_affinity *a);

#endif
