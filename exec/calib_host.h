/* calib_host.h - the facts of this host that a calibration records beside
 * its measurements, and what the kernel's version and configuration say
 * about its scheduler. */
#ifndef EXEC_CALIB_HOST_H
#define EXEC_CALIB_HOST_H

#include <stdbool.h>

struct calib_host {
    char cpu_model[128];     /* /proc/cpuinfo "model name" (or the architecture) */
    int cpus_online;         /* sysconf(_SC_NPROCESSORS_ONLN) */
    int cpus_allowed;        /* CPUs in the affinity mask */
    char kernel[128];        /* uname -r */
    char kernel_version[192];/* uname -v */
    char arch[32];           /* uname -m */
    char libc[32];           /* "glibc 2.36", or "" */
    char date[32];           /* UTC, ISO 8601 */
    int kmajor, kminor;      /* parsed from kernel, 0 if unparsable */
    int config_hz;           /* CONFIG_HZ from the kernel's config, 0 if not readable */
    char config_from[96];    /* where CONFIG_HZ was read */
    long long base_slice_ns; /* /sys/kernel/debug/sched/base_slice_ns, 0 if not readable */
    long long se_slice_ns;   /* this task's se.slice in /proc/self/sched, 0 if not there */
    int delay_dequeue;       /* from /sys/kernel/debug/sched/features: 1 on, 0 off, -1 unknown */
};

/* Fill h (never fails: what cannot be read stays empty or 0). */
void calib_host_read(struct calib_host *h);

/* The scheduler the kernel runs, as a machine profile's os_scheduler:
 * "cfs" before Linux 6.6, "eevdf" from 6.6 (commit 147f3efaa241, EEVDF
 * replaces CFS), "eevdf_delay_dequeue" from 6.12 (DELAY_DEQUEUE, on by
 * default); the features file, when readable, overrides the version.
 * *why gets a one-line reason. */
const char *calib_host_scheduler(const struct calib_host *h, const char **why);

/* The base slice EEVDF gives a task: base_slice_ns if readable, else the
 * slice the kernel gave this task (se_slice_ns: /proc/self/sched, readable
 * where debugfs is not, e.g. under lockdown; a task without a custom slice
 * has the base slice, update_deadline in kernel/sched/fair.c), else the
 * default 0.75 ms x (1 + ilog2(min(online CPUs, 8))) (kernel/sched/fair.c,
 * sysctl_sched_base_slice with SCHED_TUNABLESCALING_LOG; later kernels
 * default to 0.70 ms, which only the two readings show). */
long long calib_host_base_slice_ns(const struct calib_host *h);

/* Where calib_host_base_slice_ns took its value from, for a profile's
 * derivation: " (debugfs)", " (se.slice in /proc/self/sched)" or the rule. */
const char *calib_host_base_slice_from(const struct calib_host *h);

/* The se.slice line of a /proc/PID/sched text, in ns; 0 if absent. */
long long calib_host_parse_se_slice(const char *text);

/* Parse "6.18.44-fc-v769" -> 6, 18; 0 if not a version. */
int calib_host_parse_kernel(const char *release, int *major, int *minor);

#endif
