/* bpf_record - load one of scripts/bpf's probes, run a command and write
 * what the probe records about the command's process tree, one line per
 * record (gv_bpf.h's kinds; docs/bpf.md).
 *
 *   bpf_record PROBE.bpf.o OUT.txt COMMAND [ARG]...
 *
 * The command starts only once the probe is attached; its exit status is
 * bpf_record's (127 if it could not be run).  Exit 2: usage; 3: the probe
 * could not be opened, loaded or attached (not root, no BTF, a kernel
 * whose scheduler lacks a field the probe reads); 4: records were lost
 * (the probe's buffer was full; OUT is written, incomplete, and a message
 * says how many); 5: OUT not writable.  OUT is written to OUT.tmp and
 * renamed when complete. */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gv_bpf.h"

static int on_rec(void *ctx, void *data, size_t size)
{
    FILE *out = ctx;
    const struct gv_rec *r = data;
    if (size < sizeof *r || r->n < 1 || r->n > GV_REC_MAX) return 0;
    for (int i = 0; i < r->n; i++) fprintf(out, i ? " %lld" : "%lld", r->v[i]);
    fputc('\n', out);
    return 0;
}

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
    return level == LIBBPF_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

/* the probe's `target_tgid` (its only read-only global) */
static int set_target(struct bpf_object *obj, int pid)
{
    struct bpf_map *m;
    bpf_object__for_each_map(m, obj) {
        const char *name = bpf_map__name(m);
        size_t n = strlen(name);
        if (n >= 7 && strcmp(name + n - 7, ".rodata") == 0)
            return bpf_map__set_initial_value(m, &pid, sizeof pid);
    }
    return -ENOENT;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bpf_record PROBE.bpf.o OUT.txt COMMAND [ARG]...\n");
        return 2;
    }
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]) >= (int)sizeof tmp) {
        fprintf(stderr, "bpf_record: %s: name too long\n", argv[2]);
        return 2;
    }
    FILE *out = fopen(tmp, "w");
    if (!out) {
        fprintf(stderr, "bpf_record: %s: %s\n", tmp, strerror(errno));
        return 5;
    }
    libbpf_set_print(quiet_print);
    int gate[2];
    if (pipe(gate) != 0) {
        perror("bpf_record: pipe");
        return 3;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("bpf_record: fork");
        return 3;
    }
    if (pid == 0) {  /* waits for the probe, then becomes the command */
        char c;
        close(gate[1]);
        if (read(gate[0], &c, 1) != 1) _exit(126);
        execvp(argv[3], argv + 3);
        fprintf(stderr, "bpf_record: %s: %s\n", argv[3], strerror(errno));
        _exit(127);
    }
    close(gate[0]);
    struct bpf_object *obj = bpf_object__open_file(argv[1], NULL);
    struct ring_buffer *rb = NULL;
    int err = libbpf_get_error(obj) ? -1 : 0;
    if (!err) err = set_target(obj, pid);
    if (!err) err = bpf_object__load(obj);
    struct bpf_program *prog;
    if (!err) {
        bpf_object__for_each_program(prog, obj) {
            if (libbpf_get_error(bpf_program__attach(prog))) {
                err = -1;
                break;
            }
        }
    }
    struct bpf_map *map = err ? NULL : bpf_object__find_map_by_name(obj, "rb");
    if (map) rb = ring_buffer__new(bpf_map__fd(map), on_rec, out, NULL);
    if (err || !rb) {
        fprintf(stderr, "bpf_record: %s: could not load and attach the probe (root, a kernel with BTF and "
                        "the fields it reads are needed)\n", argv[1]);
        /* a probe on tracepoints (futex_calls) finds their ids in tracefs,
         * which a fresh guest may not have mounted (the AMD EPYC guest of
         * 2026-12-07 had not, until perf mounted it) */
        if (access("/sys/kernel/tracing/events", F_OK) != 0 && access("/sys/kernel/debug/tracing/events", F_OK) != 0)
            fprintf(stderr, "bpf_record: tracefs is not mounted (no /sys/kernel/tracing/events): "
                            "mount -t tracefs nodev /sys/kernel/tracing, and run again\n");
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        fclose(out);
        unlink(tmp);
        return 3;
    }
    if (write(gate[1], "g", 1) != 1) perror("bpf_record: start");
    close(gate[1]);
    int status = 0;
    for (;;) {
        usleep(20000);  /* the probes do not wake us: drain on a timer */
        ring_buffer__consume(rb);
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR)) break;
    }
    ring_buffer__consume(rb);
    ring_buffer__free(rb);
    long long lost = 0;
    int zero = 0;
    struct bpf_map *dm = bpf_object__find_map_by_name(obj, "drops");
    if (dm && bpf_map_lookup_elem(bpf_map__fd(dm), &zero, &lost) != 0) lost = 0;
    bpf_object__close(obj);
    int werr = ferror(out);  /* a record that failed to write (a full disk) */
    if (fclose(out) != 0 || werr || rename(tmp, argv[2]) != 0) {
        fprintf(stderr, "bpf_record: %s: %s\n", argv[2], strerror(errno));
        unlink(tmp);
        return 5;
    }
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    if (lost > 0) {
        fprintf(stderr, "bpf_record: %lld records lost (the probe's buffer was full): %s is incomplete\n",
                lost, argv[2]);
        if (rc == 0) rc = 4;
    }
    return rc;
}
