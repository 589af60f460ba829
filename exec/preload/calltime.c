/* calltime.c - a preload library that times a Ruby's C library calls for
 * `gvlsim calibrate` (exec/calltime_rec.h says what and why).  Built on its
 * own as a shared object (no sanitizer: it runs inside the Ruby), and
 * carried in the gvlsim executable (exec/calltime_blob.c), which writes it
 * to a temporary file for the run.
 *
 * Each wrapper reads the clock, calls the C library's function (dlsym
 * RTLD_NEXT), reads the clock again and keeps a record; a process that was
 * not given GVLSIM_CALLTIME_OUT keeps none.  Every spelling of each call
 * is wrapped (open, open64, openat, openat64; stat, stat64, statx): which
 * one a Ruby calls depends on its version and the headers it was built
 * with. */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../calltime_rec.h"

#define MAX_RECS (1u << 20)

static struct calltime_rec *recs;
static unsigned nrecs;
static pthread_t marker_thread;
static int have_marker;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void keep(enum calltime_call c, int64_t a, int64_t b)
{
    if (!recs || nrecs >= MAX_RECS) return;
    if (c == CALLTIME_MARK && !have_marker) {
        marker_thread = pthread_self();
        have_marker = 1;
    }
    if (!have_marker || !pthread_equal(pthread_self(), marker_thread)) return;
    recs[nrecs].enter_ns = a;
    recs[nrecs].exit_ns = b;
    recs[nrecs].call = (uint32_t)c;
    recs[nrecs].pad = 0;
    nrecs++;
}

__attribute__((constructor)) static void calltime_start(void)
{
    if (!getenv(CALLTIME_ENV)) return;
    void *p = mmap(NULL, MAX_RECS * sizeof *recs, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) recs = p;
}

__attribute__((destructor)) static void calltime_end(void)
{
    const char *path = getenv(CALLTIME_ENV);
    if (!recs || !path) return;
    FILE *f = fopen(path, "wb");
    if (!f) return;
    uint64_t magic = CALLTIME_MAGIC;
    fwrite(&magic, sizeof magic, 1, f);
    fwrite(recs, sizeof *recs, nrecs, f);
    fclose(f);
}

/* the C library's function NAME, looked up once */
#define NEXT(name) \
    static __typeof__(&name) next_##name; \
    if (!next_##name) next_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

#define TIMED(call, expr) \
    int64_t a_ = now_ns(); \
    __typeof__(expr) r_ = expr; \
    keep(call, a_, now_ns()); \
    return r_

/* open's and open64's optional mode, read whatever the flags (as the C
 * library's own wrappers pass it on) */
#define MODE(flags) \
    va_list ap; \
    va_start(ap, flags); \
    mode_t mode = (mode_t)va_arg(ap, int); \
    va_end(ap)

int open(const char *path, int flags, ...)
{
    MODE(flags);
    NEXT(open);
    TIMED(CALLTIME_OPEN, next_open(path, flags, mode));
}

int open64(const char *path, int flags, ...)
{
    MODE(flags);
    NEXT(open64);
    TIMED(CALLTIME_OPEN, next_open64(path, flags, mode));
}

/* (a Ruby that opens relative to a directory: the same call) */
int openat(int dirfd, const char *path, int flags, ...)
{
    MODE(flags);
    NEXT(openat);
    TIMED(CALLTIME_OPEN, next_openat(dirfd, path, flags, mode));
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    MODE(flags);
    NEXT(openat64);
    TIMED(CALLTIME_OPEN, next_openat64(dirfd, path, flags, mode));
}

ssize_t write(int fd, const void *buf, size_t n)
{
    NEXT(write);
    TIMED(CALLTIME_WRITE, next_write(fd, buf, n));
}

int close(int fd)
{
    NEXT(close);
    TIMED(CALLTIME_CLOSE, next_close(fd));
}

int stat(const char *restrict path, struct stat *restrict st)
{
    NEXT(stat);
    TIMED(CALLTIME_STAT, next_stat(path, st));
}

int stat64(const char *restrict path, struct stat64 *restrict st)
{
    NEXT(stat64);
    TIMED(CALLTIME_STAT, next_stat64(path, st));
}

/* (a Ruby whose File.mtime asks statx) */
int statx(int dirfd, const char *restrict path, int flags, unsigned int mask, struct statx *restrict st)
{
    NEXT(statx);
    TIMED(CALLTIME_STAT, next_statx(dirfd, path, flags, mask, st));
}

pid_t getppid(void)
{
    NEXT(getppid);
    TIMED(CALLTIME_MARK, next_getppid());
}
