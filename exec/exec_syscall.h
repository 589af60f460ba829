/* exec_syscall.h - the real system calls behind `syscall` and `sleep` ops. */
#ifndef EXEC_EXEC_SYSCALL_H
#define EXEC_EXEC_SYSCALL_H

#include <stdbool.h>
#include <stdint.h>

#include "../input/scenario.h"

struct exec_syscall_ctx {
    const char *stat_path;  /* file for CALL_STAT */
    int devnull_fd;         /* /dev/null, opened for writing by the thread at its start */
    int opened_fd;          /* the fd of the last open_devnull, -1 once closed */
};

/* Make the call `call` for an op of duration dur_ns (see exec_syscall.c
 * for how dur is honoured).  io_wait: the op waits off the CPU for dur. */
void exec_syscall_run(struct exec_syscall_ctx *ctx, enum scn_syscall_call call, bool io_wait,
                      int64_t dur_ns);

/* nanosleep for ns, resumed after signals. */
void exec_sleep_ns(int64_t ns);

#endif
