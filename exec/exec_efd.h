/* exec_efd.h - CRuby's eventfd wake-up, as the executor's ppoll sleepers
 * (exec_gvl_barging.c) and calibrate's ppoll benchmark (calib_wake.c) use
 * it: a write of a uint64_t 1 (rb_thread_wakeup_timer_thread_fd), and the
 * sleeper's one read of the counter (consume_communication_pipe: with
 * USE_EVENTFD the first successful read returns). */
#ifndef EXEC_EXEC_EFD_H
#define EXEC_EXEC_EFD_H

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

static inline void exec_efd_write(int fd)
{
    const uint64_t one = 1;
    while (write(fd, &one, sizeof one) < 0 && errno == EINTR) {
    }
}

static inline void exec_efd_read(int fd)
{
    uint64_t v;
    while (read(fd, &v, sizeof v) < 0 && errno == EINTR) {
    }
}

#endif
