/* vruntime_sample.c - the kernel's own view of two threads on one CPU:
 * se.vruntime, se.sum_exec_runtime and the switch counts of both, read from
 * /proc/PID/task/TID/sched as fast as a loop on another CPU can, one line per
 * change, until either thread exits (docs/validate.md, "What starts a
 * stretch").  A sleeping thread's vruntime is the one it slept with (Linux
 * places it again at its wake-up).
 *
 *   cc -O2 -o vruntime_sample scripts/vruntime_sample.c
 *   taskset -c 1 ./vruntime_sample PID TID_A TID_B > samples.txt
 *
 * Columns: CLOCK_MONOTONIC s, vruntime A, vruntime B (ms), CPU time A, B
 * (ms), voluntary and involuntary switches of A, of B. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct sample {
    double vruntime, sum_exec;
    long vol, invol;
};

static double field(const char *text, const char *name)
{
    const char *p = strstr(text, name);
    if (!p || !(p = strchr(p, ':'))) return 0;
    return atof(p + 1);
}

static int read_sched(const char *path, struct sample *s)
{
    char buf[8192];
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = '\0';
    s->vruntime = field(buf, "se.vruntime");
    s->sum_exec = field(buf, "se.sum_exec_runtime");
    s->vol = (long)field(buf, "nr_voluntary_switches");
    s->invol = (long)field(buf, "nr_involuntary_switches");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: vruntime_sample PID TID_A TID_B\n");
        return 2;
    }
    char pa[128], pb[128];
    snprintf(pa, sizeof pa, "/proc/%s/task/%s/sched", argv[1], argv[2]);
    snprintf(pb, sizeof pb, "/proc/%s/task/%s/sched", argv[1], argv[3]);
    struct sample a, b;
    double last_a = -1, last_b = -1;
    while (read_sched(pa, &a) == 0 && read_sched(pb, &b) == 0) {
        if (a.vruntime == last_a && b.vruntime == last_b) continue;
        last_a = a.vruntime;
        last_b = b.vruntime;
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        printf("%lld.%09ld %.6f %.6f %.6f %.6f %ld %ld %ld %ld\n", (long long)t.tv_sec, t.tv_nsec, a.vruntime,
               b.vruntime, a.sum_exec, b.sum_exec, a.vol, a.invol, b.vol, b.invol);
    }
    return 0;
}
