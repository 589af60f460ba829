/* exec_syscall.c - real system calls for `syscall` ops.
 *
 * call "stat"          stat(2) of a file (File.mtime(__FILE__)): the
 *                      scenario file itself, or "/" if it cannot be stat'ed;
 * call "write_devnull" write(2) of one byte to /dev/null: to the fd of the
 *                      thread's last open_devnull if it is open, else to a
 *                      descriptor the thread opened at its start;
 * call "open_devnull"  open(2) of /dev/null for writing; the thread keeps
 *                      the fd (an fd a previous open_devnull left open is
 *                      closed first, so a scenario cannot exhaust fds);
 * call "close"         close(2) of that fd (of -1, failing with EBADF after
 *                      entering the kernel, if none is open);
 * call "getpid"        getppid(2), which glibc never caches;
 * call "nanosleep"     nanosleep(2) for the op's duration.
 * Ruby's File.write is open + write + close, three blocking regions: the
 * scenarios model it as three syscall ops.
 *
 * The op's `dur` is the simulator's estimate of the call.  The real call is
 * made once and takes what it takes; it is repeated only while another
 * call still fits within `dur` (measured with CLOCK_MONOTONIC), so a
 * sweep to long durations (e.g. a 20 ms "stat") keeps the thread in the
 * kernel for about `dur` without overshooting short ones; a `"dur":
 * "machine"` (the profile's cost of this very call) comes here as 0: the
 * call is made exactly once (exec_thread.c).  With io_wait
 * the op waits off the CPU: the call (unless it is nanosleep itself) is
 * made once, then the thread sleeps for `dur`.
 */
#include "exec_syscall.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "exec_clock.h"

void exec_sleep_ns(int64_t ns)
{
    if (ns <= 0) return;
    struct timespec req = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) }, rem;
    while (nanosleep(&req, &rem) != 0 && errno == EINTR) req = rem;
}

static void call_once(struct exec_syscall_ctx *ctx, enum scn_syscall_call call, int64_t dur_ns)
{
    switch (call) {
    case CALL_STAT: {
        struct stat st;
        (void)stat(ctx->stat_path, &st);
        break;
    }
    case CALL_WRITE_DEVNULL: {
        ssize_t n = write(ctx->opened_fd >= 0 ? ctx->opened_fd : ctx->devnull_fd, "0", 1);
        (void)n;
        break;
    }
    case CALL_OPEN_DEVNULL:
        if (ctx->opened_fd >= 0) close(ctx->opened_fd);
        ctx->opened_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
        break;
    case CALL_CLOSE:
        (void)close(ctx->opened_fd);
        ctx->opened_fd = -1;
        break;
    case CALL_GETPID:
        (void)getppid();
        break;
    case CALL_NANOSLEEP:
        exec_sleep_ns(dur_ns);
        break;
    case CALL_COUNT:
        break;
    }
}

void exec_syscall_run(struct exec_syscall_ctx *ctx, enum scn_syscall_call call, bool io_wait,
                      int64_t dur_ns)
{
    if (call == CALL_NANOSLEEP) {
        exec_sleep_ns(dur_ns);
        return;
    }
    if (io_wait) {
        call_once(ctx, call, dur_ns);
        exec_sleep_ns(dur_ns);
        return;
    }
    if (dur_ns <= 0) {  /* "dur": "machine": the call once, without the clock reads that
                            * would time it (two vDSO reads, 35 ns each on a Xeon guest:
                            * work a Ruby making the call does not do) */
        call_once(ctx, call, dur_ns);
        return;
    }
    int64_t t0 = exec_now_ns();
    call_once(ctx, call, dur_ns);
    int64_t t1 = exec_now_ns(), one = t1 - t0;
    if (one < 1) one = 1;
    while (t1 - t0 + one <= dur_ns) {
        call_once(ctx, call, dur_ns);
        t1 = exec_now_ns();
    }
}
