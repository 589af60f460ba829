/* cmd_calibrate.c - `gvlsim calibrate`: measure this machine on real
 * threads (exec/calib*.c) and write a machine profile that `run` accepts as
 * is, with the measurements and each key's derivation in its
 * "calibration" section. */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/afile.h"
#include "../common/err.h"
#include "../exec/calib.h"
#include "../exec/calib_host.h"
#include "../exec/calib_map.h"
#include "cli.h"
#include "options.h"

static int calibrate_exec(const struct args *a);

/* --max-spread: a number in (0, 10] */
static int check_spread(const char *v, char *err, size_t errlen)
{
    char *end;
    double x = strtod(v, &end);
    if (*end || end == v || !(x > 0 && x <= 10)) {
        snprintf(err, errlen, "\"%s\" is not a number in (0, 10]", v);
        return -1;
    }
    return 0;
}

static const char *const only_names[] = { "cache", "ruby", "speed", NULL };

static const struct args_opt calibrate_opts[] = {
    CLI_OPT_OUTPUT_H("FILE", "the profile (default: stdout), atomically; use it with\n"
                             "gvlsim run SCENARIO --set machine=FILE"),
    { .name = "quick", .kind = ARGS_FLAG, .help = "shorter budgets: about 15 s instead of about 60 s" },
    { .name = "name", .kind = ARGS_STRING, .metavar = "NAME",
      .help = "the profile's name (default: FILE's name without .json,\nor \"calibrated\")" },
    { .name = "max-spread", .kind = ARGS_STRING, .metavar = "F", .check = check_spread,
      .help = "a measurement is stable when the interquartile range of its\n"
              "round medians is at most F of their median (default 0.10);\n"
              "unstable ones are flagged with a warning" },
    { .name = "ruby", .kind = ARGS_PATH, .metavar = "PATH",
      .help = "the Ruby whose VM instruction insn_time measures\n(default: ruby on PATH; none found: skipped)" },
    { .name = "no-ruby", .kind = ARGS_FLAG,
      .help = "do not measure a Ruby VM instruction (insn_time keeps\nthe default)" },
    { .name = "only", .kind = ARGS_ENUM, .values = only_names, .metavar = "GROUP",
      .help = "run only a group of measurements, write only its keys:\n"
              "cache = the cache-regime probe, then mutex_uncontended,\n"
              "line_transfer, lock_line, remote_rmw, free_remote,\n"
              "sched_lock_cs, line_store_batch, then the probe again\n"
              "(about 10 s);\n"
              "ruby = the Ruby's (--ruby PATH) insn_time and method_work,\n"
              "for a Ruby other than the profile's (about 10 s);\n"
              "speed = the CPUs' speed levels, speed_levels and\n"
              "speed_dwell (none written when the windows show one\n"
              "speed; about 8 s, --quick 1 s)" },
    CLI_OPT_QUIET_H("no progress lines"),
    CLI_OPT_END,
};

const struct cli_command cli_cmd_calibrate = {
    .name = "calibrate",
    .usage = "[-o PROFILE.json] [--quick] [--only cache|ruby|speed] [--name NAME] [--max-spread F] [--ruby PATH | --no-ruby] "
             "[-q]",
    .summary = "measure this machine on real threads and write a machine profile",
    .args = { calibrate_opts, "ARGUMENT", 0, 0 },
    .description =
        "Microbenchmarks, each repeated in rounds until stable: wake latency of a\n"
        "sleeping thread onto an idle and a busy CPU, the waker's cost and the\n"
        "sleeper's own CPU time in its wait, futex ping-pongs on one and two CPUs\n"
        "and, beside the one-CPU one, an eventfd + ppoll ping-pong (CRuby 3.1/3.2's\n"
        "ppoll sleep), a context switch, how often a woken thread preempts its waker\n"
        "on one CPU, whether the kernel keeps a woken thread on its waker's busy CPU\n"
        "with the other one idle, mutexes, stat/write system calls, a cache line\n"
        "moving between CPUs against a thread-local increment, the busy loop, the\n"
        "kernel's tick and time slice; with a Ruby (--ruby, default the ruby on\n"
        "PATH), the time of one of its VM instructions and the CPU its File.mtime and\n"
        "File.write spend beyond their system calls (--only ruby: those keys alone,\n"
        "for another Ruby than the profile's).  The profile records the host (CPU\n"
        "model, CPUs, kernel, C library) and the date; docs/calibrate.md says how\n"
        "each key is derived.  Measure on a quiet machine: other load widens the\n"
        "spreads (and is warned about).  A probe (a locked add on a line the other\n"
        "CPU stored to) runs before and after the cache measurements: cache_probe\n"
        "records the cache regime their keys were measured in, with a warning when\n"
        "the two probes differ by more than 1.5x (the keys then mix two regimes).",
    .exit_status =
        "0 ok (also with warnings), 2 usage, 4 a benchmark thread could not be\n"
        "created or pinned, or the Ruby of --only ruby could not be run, 5 the\n"
        "profile cannot be written, 6 out of memory.",
    .exec = calibrate_exec,
};

struct cal_opts {
    const char *output;
    const char *name;
    const char *ruby;
    bool quick, quiet, no_ruby;
    enum calib_group only;  /* CALIB_ALL, or the group of --only */
    double max_spread;
};

/* Value with a unit for the progress lines. */
static void fmt_value(const struct calib_desc *d, double v, char *buf, size_t n)
{
    if (!strcmp(d->unit, "fraction")) snprintf(buf, n, "%.2f", v);
    else if (strcmp(d->unit, "ns")) snprintf(buf, n, "%.4g %s", v, d->unit);  /* "per s" */
    else if (v >= 1e6) snprintf(buf, n, "%.3g ms", v / 1e6);
    else if (v >= 1e3) snprintf(buf, n, "%.3g us", v / 1e3);
    else snprintf(buf, n, "%.3g ns", v);
}

struct progress {
    bool quiet;
    double max_spread;
    int warnings;
};

static void on_progress(void *ctx, enum calib_id id, const struct calib_stat *st)
{
    struct progress *p = ctx;
    const struct calib_desc *d = calib_describe(id);
    char m[32], a[32], b[32];
    if (!st->measured) {
        if (!p->quiet) fprintf(stderr, "  %-30s skipped: %s\n", d->name, st->note);
        return;
    }
    fmt_value(d, st->median, m, sizeof m);
    fmt_value(d, st->q1, a, sizeof a);
    fmt_value(d, st->q3, b, sizeof b);
    if (!p->quiet)
        fprintf(stderr, "  %-30s %-10s (q1 %s, q3 %s; %d samples, %d round%s)  %s\n", d->name, m, a, b,
                st->samples, st->rounds, st->rounds == 1 ? "" : "s", d->what);
    if (st->unstable) {
        p->warnings++;
        fprintf(stderr,
                "gvlsim calibrate: warning: %s: the medians of %d rounds spread by %.0f%% "
                "(limit %.0f%%); is the machine busy?\n",
                d->name, st->rounds, 100.0 * st->round_spread, 100.0 * p->max_spread);
    }
}

/* ---- the profile as JSON ------------------------------------------------- */

static void put_str(FILE *f, const char *s)
{
    cJSON *item = cJSON_CreateString(s ? s : "");
    char *txt = item ? cJSON_PrintUnformatted(item) : NULL;
    fputs(txt ? txt : "\"\"", f);
    free(txt);
    cJSON_Delete(item);
}

static void put_num(FILE *f, double v)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.6g", v);
    fputs(buf, f);
}

/* `SEP"key": "value"` and `SEP"key": number` */
static void kv_str(FILE *f, const char *sep, const char *key, const char *val)
{
    fprintf(f, "%s\"%s\": ", sep, key);
    put_str(f, val);
}

static void kv_num(FILE *f, const char *sep, const char *key, double v)
{
    fprintf(f, "%s\"%s\": ", sep, key);
    put_num(f, v);
}

/* "hw/m4.json" -> "m4" */
static void name_from_path(const char *path, char *buf, size_t n)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t l = strlen(base);
    if (l > 5 && !strcmp(base + l - 5, ".json")) l -= 5;
    snprintf(buf, n, "%.*s", (int)l, base);
}

/* The command line as the profile records it: a --ruby PATH of more than
 * three components shortened to ".../" and its last three (a Ruby built
 * under some prefix: ".../3.3.11/bin/ruby"), in place - the rest of the
 * path names the host's own directories, and a profile is meant to be
 * committed and shared. */
static void hide_dirs(char *cmd, const char *path)
{
    char *at = strstr(cmd, path);
    const char *keep = path + strlen(path);
    for (int slashes = 0; keep > path && slashes < 3; )
        if (*--keep == '/') slashes++;
    if (!at || keep <= path || *keep != '/') return;  /* three components or fewer: as given */
    char *dst = at;
    memcpy(dst, "...", 3);
    dst += 3;
    memmove(dst, at + (keep - path), strlen(at + (keep - path)) + 1);
}

static void write_profile(FILE *f, const struct cal_opts *o, const char *command, const struct calib_host *h,
                          const struct calib_result *r, const struct calib_profile *p, int warnings)
{
    char name[128], desc[512], val[512];
    if (o->name) snprintf(name, sizeof name, "%s", o->name);
    else if (strcmp(o->output, "-")) name_from_path(o->output, name, sizeof name);
    else snprintf(name, sizeof name, "calibrated");
    snprintf(desc, sizeof desc, "Measured by gvlsim calibrate%s%s on %s, %d CPUs (%d online), Linux %s, %s, %s.",
             o->quick ? " --quick" : "", o->only == CALIB_ONLY_CACHE ? " --only cache (the cache keys only)"
             : o->only == CALIB_ONLY_RUBY ? " --only ruby (the keys of one Ruby only)"
             : o->only == CALIB_ONLY_SPEED ? " --only speed (the speed levels only)" : "", h->cpu_model, h->cpus_allowed, h->cpus_online, h->kernel, h->libc,
             h->date);
    fprintf(f, "{");
    kv_str(f, "\n  ", "name", name);
    kv_str(f, ",\n  ", "description", desc);
    fprintf(f, ",\n  \"source\": ");
    /* every key's derivation, in one line each */
    size_t cap = 256;
    for (int i = 0; i < p->n; i++) cap += strlen(p->k[i].name) + strlen(p->k[i].how) + 96;
    char *src = malloc(cap);
    if (src) {
        size_t used = (size_t)snprintf(src, cap, "Derived by gvlsim calibrate (docs/calibrate.md) from the "
                                                 "medians in \"calibration\". ");
        for (int i = 0; i < p->n && used < cap; i++) {
            calib_key_value(&p->k[i], val, sizeof val);
            used += (size_t)snprintf(src + used, cap - used, "%s = %s: %s. ", p->k[i].name, val, p->k[i].how);
        }
        put_str(f, src);
        free(src);
    } else {
        put_str(f, "Derived by gvlsim calibrate.");
    }
    for (int i = 0; i < p->n; i++) {
        const struct calib_key *k = &p->k[i];
        /* "syscalls.stat": a key of the object "syscalls", whose keys come one after another */
        const char *dot = strchr(k->name, '.'), *prev = i ? strchr(p->k[i - 1].name, '.') : NULL;
        const char *next = i + 1 < p->n ? strchr(p->k[i + 1].name, '.') : NULL;
        size_t olen = dot ? (size_t)(dot - k->name) : 0;
        bool opens = dot && !(prev && prev - p->k[i - 1].name == (ptrdiff_t)olen &&
                              !strncmp(p->k[i - 1].name, k->name, olen));
        bool closes = dot && !(next && next - p->k[i + 1].name == (ptrdiff_t)olen &&
                               !strncmp(p->k[i + 1].name, k->name, olen));
        if (opens) fprintf(f, ",\n  \"%.*s\": {\n    \"%s\": ", (int)olen, k->name, dot + 1);
        else if (dot) fprintf(f, ",\n    \"%s\": ", dot + 1);
        else fprintf(f, ",\n  \"%s\": ", k->name);
        calib_key_value(k, val, sizeof val);
        if (k->kind == CK_DUR || k->kind == CK_STR) put_str(f, val);
        else fputs(val, f);
        if (closes) fprintf(f, "\n  }");
    }
    const char *hs = ",\n      ";
    fprintf(f, ",\n  \"calibration\": {\n    \"host\": {");
    kv_str(f, "\n      ", "cpu", h->cpu_model);
    fprintf(f, "%s\"cpus_online\": %d%s\"cpus_allowed\": %d", hs, h->cpus_online, hs, h->cpus_allowed);
    kv_str(f, hs, "kernel", h->kernel);
    kv_str(f, hs, "kernel_version", h->kernel_version);
    kv_str(f, hs, "arch", h->arch);
    kv_str(f, hs, "libc", h->libc);
    fprintf(f, "%s\"config_hz\": %d", hs, h->config_hz);
    kv_str(f, hs, "date", h->date);
    kv_str(f, hs, "command", command);
    fprintf(f, "%s\"quick\": %s", hs, o->quick ? "true" : "false");
    kv_num(f, hs, "seconds", r->seconds);
    fprintf(f, "\n    },\n    \"warnings\": %d,\n    \"measurements\": [", warnings);
    for (int i = 0; i < CALIB_COUNT; i++) {
        const struct calib_stat *st = &r->m[i];
        const struct calib_desc *d = calib_describe((enum calib_id)i);
        kv_str(f, i ? ",\n      { " : "\n      { ", "name", d->name);
        kv_str(f, ", ", "unit", d->unit);
        kv_str(f, ", ", "what", d->what);
        if (st->measured) {
            kv_num(f, ", ", "median", st->median);
            kv_num(f, ", ", "q1", st->q1);
            kv_num(f, ", ", "q3", st->q3);
            fprintf(f, ", \"samples\": %d, \"rounds\": %d", st->samples, st->rounds);
            kv_num(f, ", ", "round_spread", st->round_spread);
            if (st->within_spread > 0) kv_num(f, ", ", "within_spread", st->within_spread);
            fprintf(f, ", \"stable\": %s", st->unstable ? "false" : "true");
        }
        if (st->note[0]) kv_str(f, ", ", "note", st->note);
        fprintf(f, " }");
    }
    fprintf(f, "\n    ],\n    \"keys\": [");
    for (int i = 0; i < p->n; i++) {
        const struct calib_key *k = &p->k[i];
        calib_key_value(k, val, sizeof val);
        kv_str(f, i ? ",\n      { " : "\n      { ", "key", k->name);
        kv_str(f, ", ", "value", val);
        fprintf(f, ", \"measured\": %s", k->measured ? "true" : "false");
        kv_str(f, ", ", "derivation", k->how);
        fprintf(f, " }");
    }
    fprintf(f, "\n    ]\n  }\n}\n");
}

static int calibrate_exec(const struct args *a)
{
    const char *spread = args_str(a, "max-spread", NULL);
    struct cal_opts o = {
        .output = args_str(a, "output", "-"), .name = args_str(a, "name", NULL),
        .quick = args_has(a, "quick"), .quiet = args_has(a, "quiet"),
        .ruby = args_str(a, "ruby", NULL), .no_ruby = args_has(a, "no-ruby"),
        .max_spread = spread ? strtod(spread, NULL) : 0.10,
        .only = CALIB_ALL,
    };
    /* --only NAME: the group of that name (args checked it is one of only_names) */
    const char *only = args_str(a, "only", NULL);
    for (enum calib_group g = CALIB_ONLY_CACHE; only && g <= CALIB_ONLY_SPEED; g++)
        if (!strcmp(only, calib_group_name(g))) o.only = g;
    char err[GV_ERRLEN];
    /* open the output first: a path that cannot be written fails before a minute of measuring */
    struct afile af;
    int rc = afile_open(&af, o.output, err, sizeof err);
    if (rc != GV_OK) {
        fprintf(stderr, "gvlsim calibrate: %s\n", err);
        return gv_exit_code(rc);
    }
    struct calib_host h;
    calib_host_read(&h);
    if (!o.quiet)
        fprintf(stderr, "gvlsim calibrate: %s, %d CPUs (%d online), Linux %s; %s run, about %d s\n", h.cpu_model,
                h.cpus_allowed, h.cpus_online, h.kernel,
                o.only != CALIB_ALL ? calib_group_name(o.only) : o.quick ? "quick" : "full",
                o.only != CALIB_ALL ? 10 : o.quick ? 15 : 60);
    struct progress pr = { o.quiet, o.max_spread, 0 };
    if (o.no_ruby && (o.ruby || o.only == CALIB_ONLY_RUBY)) {
        afile_abort(&af);
        fprintf(stderr, "gvlsim calibrate: --no-ruby excludes %s\n", o.ruby ? "--ruby" : "--only ruby");
        return GV_EXIT_USAGE;
    }
    struct calib_opts co = { .quick = o.quick, .max_spread = o.max_spread, .progress = on_progress,
                             .progress_ctx = &pr, .ruby = o.ruby, .no_ruby = o.no_ruby,
                             .only = o.only };
    struct calib_result r;
    rc = calib_run(&co, &r, err, sizeof err);
    if (rc != GV_OK) {
        afile_abort(&af);
        fprintf(stderr, "gvlsim calibrate: %s\n", err);
        return gv_exit_code(rc);
    }
    if (o.only == CALIB_ONLY_RUBY && !r.m[CALIB_RUBY_INSN].measured) {
        /* the one thing asked for could not be measured: no profile */
        afile_abort(&af);
        fprintf(stderr, "gvlsim calibrate: --only ruby: %s\n", r.m[CALIB_RUBY_INSN].note);
        return GV_EXIT_RUN;
    }
    struct calib_profile p;
    calib_map(&r, &h, &p);
    if (o.only != CALIB_ALL) {  /* the group's keys only: the others would be defaults, not measurements */
        int n = 0;
        for (int i = 0; i < p.n; i++)
            if (o.only == CALIB_ONLY_CACHE   ? calib_is_cache_key(p.k[i].name)
                : o.only == CALIB_ONLY_SPEED ? calib_is_speed_key(p.k[i].name)
                                             : calib_is_ruby_key(p.k[i].name))
                p.k[n++] = p.k[i];
        p.n = n;
    }
    const struct calib_stat *pa = &r.m[CALIB_LINE_PROBE], *pb = &r.m[CALIB_LINE_PROBE_END];
    if (pa->measured && pb->measured && calib_probe_moved(pa->median, pb->median)) {
        pr.warnings++;
        char keys[160];
        fprintf(stderr,
                "gvlsim calibrate: warning: the cache probe moved from %.3g ns to %.3g ns during the cache "
                "measurements (more than %.2gx): %s mix two cache regimes; measure them again (--only cache)\n",
                pa->median, pb->median, CALIB_PROBE_FACTOR, calib_cache_keys(" and ", keys, sizeof keys));
    }
    char *cmd = cli_command_line(a);
    if (cmd && o.ruby) hide_dirs(cmd, o.ruby);
    write_profile(af.f, &o, cmd ? cmd : "gvlsim calibrate", &h, &r, &p, pr.warnings);
    free(cmd);
    rc = afile_commit(&af, err, sizeof err);
    if (rc != GV_OK) {
        fprintf(stderr, "gvlsim calibrate: %s\n", err);
        return gv_exit_code(rc);
    }
    if (!o.quiet) {
        fprintf(stderr, "gvlsim calibrate: %.1f s, %d warning%s; profile keys:\n", r.seconds, pr.warnings,
                pr.warnings == 1 ? "" : "s");
        for (int i = 0; i < p.n; i++) {
            char val[512];
            calib_key_value(&p.k[i], val, sizeof val);
            fprintf(stderr, "  %-22s %-20s %s\n", p.k[i].name, val, p.k[i].how);
        }
        if (strcmp(o.output, "-"))
            fprintf(stderr, "gvlsim calibrate: wrote %s (use: gvlsim run SCENARIO --set machine=%s)\n", o.output,
                    o.output);
    }
    return GV_EXIT_OK;
}
