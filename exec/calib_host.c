/* calib_host.c - CPU model, CPU counts, kernel, C library, date, and the
 * kernel's tick rate and scheduler features where the system lets us read
 * them (the kernel's config: /proc/config.gz or /boot/config-RELEASE; the
 * scheduler's debugfs files, usually only for root with debugfs mounted). */
#include "calib_host.h"

#include <gnu/libc-version.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

static void copy(char *dst, size_t n, const char *src)
{
    /* (truncation is meant: a field holds what fits) */
    size_t l = (size_t)snprintf(dst, n, "%s", src);
    if (l >= n) l = n - 1;
    while (l && (dst[l - 1] == '\n' || dst[l - 1] == ' ')) dst[--l] = '\0';
}

static void read_cpu_model(struct calib_host *h)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) && strncmp(line, "Hardware", 8)) continue;
            const char *colon = strchr(line, ':');
            if (!colon) continue;
            colon++;
            while (*colon == ' ' || *colon == '\t') colon++;
            copy(h->cpu_model, sizeof h->cpu_model, colon);
            break;
        }
        fclose(f);
    }
    if (!h->cpu_model[0]) copy(h->cpu_model, sizeof h->cpu_model, h->arch);
}

int calib_host_parse_kernel(const char *release, int *major, int *minor)
{
    *major = *minor = 0;
    char *end;
    long a = strtol(release, &end, 10);
    if (end == release || *end != '.') return 0;
    const char *p = end + 1;
    long b = strtol(p, &end, 10);
    if (end == p || a <= 0 || a > 1000 || b < 0 || b > 1000) return 0;
    *major = (int)a;
    *minor = (int)b;
    return 1;
}

/* CONFIG_HZ=N from a kernel config, plain or gzip (zlib reads both). */
static int config_hz_from(const char *path)
{
    gzFile g = gzopen(path, "rb");
    if (!g) return 0;
    char line[256];
    int hz = 0;
    while (gzgets(g, line, sizeof line))
        if (!strncmp(line, "CONFIG_HZ=", 10)) {
            hz = atoi(line + 10);
            break;
        }
    gzclose(g);
    return hz > 0 && hz <= 10000 ? hz : 0;
}

long long calib_host_parse_se_slice(const char *text)
{
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, "se.slice", 8) != 0 || (p[8] != ' ' && p[8] != ':')) continue;
        const char *colon = strchr(p, ':'), *eol = strchr(p, '\n');
        if (!colon || (eol && colon > eol)) return 0;
        long long v = atoll(colon + 1);
        return v > 0 ? v : 0;
    }
    return 0;
}

/* This task's slice (a plain task has the base slice). */
static void read_se_slice(struct calib_host *h)
{
    FILE *f = fopen("/proc/self/sched", "r");
    if (!f) return;
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    h->se_slice_ns = calib_host_parse_se_slice(buf);
}

static void read_debugfs(struct calib_host *h)
{
    FILE *f = fopen("/sys/kernel/debug/sched/base_slice_ns", "r");
    if (f) {
        long long v;
        if (fscanf(f, "%lld", &v) == 1 && v > 0) h->base_slice_ns = v;
        fclose(f);
    }
    h->delay_dequeue = -1;
    f = fopen("/sys/kernel/debug/sched/features", "r");
    if (f) {
        char word[64];
        while (fscanf(f, "%63s", word) == 1) {
            if (!strcmp(word, "DELAY_DEQUEUE")) h->delay_dequeue = 1;
            if (!strcmp(word, "NO_DELAY_DEQUEUE")) h->delay_dequeue = 0;
        }
        fclose(f);
    }
}

void calib_host_read(struct calib_host *h)
{
    memset(h, 0, sizeof *h);
    struct utsname u;
    if (uname(&u) == 0) {
        copy(h->kernel, sizeof h->kernel, u.release);
        copy(h->kernel_version, sizeof h->kernel_version, u.version);
        copy(h->arch, sizeof h->arch, u.machine);
    }
    calib_host_parse_kernel(h->kernel, &h->kmajor, &h->kminor);
    read_cpu_model(h);
    long on = sysconf(_SC_NPROCESSORS_ONLN);
    h->cpus_online = on > 0 ? (int)on : 1;
    cpu_set_t set;
    h->cpus_allowed = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : h->cpus_online;
    snprintf(h->libc, sizeof h->libc, "glibc %s", gnu_get_libc_version());
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(h->date, sizeof h->date, "%Y-%m-%dT%H:%M:%SZ", &tm);

    char boot[200];
    snprintf(boot, sizeof boot, "/boot/config-%s", h->kernel);
    const char *paths[] = { "/proc/config.gz", boot };
    for (int i = 0; i < 2 && !h->config_hz; i++) {
        h->config_hz = config_hz_from(paths[i]);
        if (h->config_hz) copy(h->config_from, sizeof h->config_from, paths[i]);
    }
    read_debugfs(h);
    read_se_slice(h);
}

const char *calib_host_scheduler(const struct calib_host *h, const char **why)
{
    if (h->delay_dequeue == 1) {
        *why = "the scheduler's features file lists DELAY_DEQUEUE";
        return "eevdf_delay_dequeue";
    }
    if (!h->kmajor) {
        *why = "the kernel's version could not be read: taken as the newest";
        return "eevdf_delay_dequeue";
    }
    int v = h->kmajor * 1000 + h->kminor;
    if (v < 6006) {
        *why = "Linux before 6.6 schedules with CFS";
        return "cfs";
    }
    if (h->delay_dequeue == 0) {
        *why = "EEVDF (Linux 6.6+), and the features file lists NO_DELAY_DEQUEUE";
        return "eevdf";
    }
    if (v < 6012) {
        *why = "Linux 6.6 to 6.11 schedules with EEVDF, without DELAY_DEQUEUE";
        return "eevdf";
    }
    *why = "Linux 6.12+ schedules with EEVDF and DELAY_DEQUEUE (on by default)";
    return "eevdf_delay_dequeue";
}

const char *calib_host_base_slice_from(const struct calib_host *h)
{
    if (h->base_slice_ns > 0) return " (debugfs)";
    if (h->se_slice_ns > 0) return " (se.slice in /proc/self/sched)";
    return ", 0.75 ms x (1 + log2(min(CPUs, 8)))";
}

long long calib_host_base_slice_ns(const struct calib_host *h)
{
    if (h->base_slice_ns > 0) return h->base_slice_ns;
    if (h->se_slice_ns > 0) return h->se_slice_ns;
    int n = h->cpus_online < 8 ? h->cpus_online : 8, log = 0;
    while (n > 1) {
        n >>= 1;
        log++;
    }
    return 750000LL * (1 + log);
}
