/* exec_build.h - build and free the executor's VM for a scenario. */
#ifndef EXEC_EXEC_BUILD_H
#define EXEC_EXEC_BUILD_H

#include <stddef.h>

#include "exec.h"
#include "exec_vm.h"

/* Check that the executor can run `scn` (1 to 4096 threads, queue and
 * iseq indices, loop nesting, forever loops with a stop.time), then build
 * its VM: every Ractor and thread instance with its lock and condvar, the
 * queues, the VM lock and barrier, the counters.  GV_OK with *out set, or
 * GV_EINVAL / GV_ENOMEM with a message in err. */
int exec_vm_build(const struct scenario *scn, const struct exec_opts *opts, struct exec_vm **out,
                  char *err, size_t errlen);
/* Destroy what was built (also a partly built VM) and free it. */
void exec_vm_free(struct exec_vm *vm);

#endif
