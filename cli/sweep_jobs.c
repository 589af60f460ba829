/* sweep_jobs.c - the sweep as shard jobs (see sweep_jobs.h). */
#include "sweep_jobs.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/err.h"
#include "cli.h"

const char *const sweep_job_kinds[] = { "parallel", "slurm", NULL };

/* The options of the sweep that the jobs do not repeat (every job has
 * --resume: see sweep_jobs.h). */
static const char *const not_repeated[] = { "output", "emit-jobs", "shards", "gvlsim", "shard", "resume" };

/* A name, absolute: realpath if it exists, else its directory's realpath
 * joined with its last component, else the working directory joined with
 * it.  malloc'ed. */
static char *absolute(const char *path)
{
    char buf[PATH_MAX];
    if (realpath(path, buf)) return strdup(buf);
    if (path[0] == '/') return strdup(path);
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
    if (!dir) return NULL;
    char *out = NULL;
    if (realpath(dir, buf)) {
        size_t n = strlen(buf) + strlen(path) + 2;
        out = malloc(n);
        if (out) snprintf(out, n, "%s/%s", buf, slash ? slash + 1 : path);
    } else if (getcwd(buf, sizeof buf)) {
        size_t n = strlen(buf) + strlen(path) + 2;
        out = malloc(n);
        if (out) snprintf(out, n, "%s/%s", buf, path);
    } else {
        out = strdup(path);
    }
    free(dir);
    return out;
}

/* s, quoted for a POSIX shell: 'it'\''s' */
static void put_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", f);
        else fputc(*s, f);
    }
    fputc('\'', f);
}

/* Where the suffix of "dir/sweep.csv" starts (.csv, .json, .jsonl or
 * .ndjson, which stays last so that a shard keeps the sweep's encoding),
 * or the end of the name. */
static size_t suffix_at(const char *out)
{
    static const char *const sufs[] = { ".csv", ".jsonl", ".ndjson", ".json" };
    size_t n = strlen(out);
    for (size_t i = 0; i < sizeof sufs / sizeof *sufs; i++) {
        size_t m = strlen(sufs[i]);
        if (n > m && strcmp(out + n - m, sufs[i]) == 0) return n - m;
    }
    return n;
}

/* 'dir/sweep'<mid>'.csv': the name of a shard's file for a shell, with
 * `mid` unquoted (".3-of-8", ".*-of-8", ".$task-of-8" inside "..."). */
static void put_shard_name(FILE *f, const char *out, const char *mid)
{
    size_t cut = suffix_at(out);
    char *base = strndup(out, cut);
    if (!base) return;
    put_quoted(f, base);
    fputs(mid, f);
    if (out[cut]) put_quoted(f, out + cut);
    free(base);
}

/* Everything of the job's command line but --shard and -o. */
static int put_command(FILE *f, const struct args *a, const char *gvlsim, const char *machines_env)
{
    if (machines_env) {
        fputs("GVLSIM_MACHINES=", f);
        put_quoted(f, machines_env);
        fputc(' ', f);
    }
    put_quoted(f, gvlsim);
    fputs(" sweep ", f);
    char *scn = absolute(a->operands[0]);
    if (!scn) return GV_ENOMEM;
    put_quoted(f, scn);
    free(scn);
    for (const struct args_opt *o = a->spec->opts; o->name; o++) {
        bool skip = false;
        for (size_t i = 0; i < sizeof not_repeated / sizeof *not_repeated; i++)
            skip |= strcmp(o->name, not_repeated[i]) == 0;
        if (skip || !args_has(a, o->name)) continue;
        if (o->kind == ARGS_FLAG) {
            fprintf(f, " --%s", o->name);
            continue;
        }
        const char *const *v = args_strs(a, o->name);
        for (int i = 0; i < args_count(a, o->name); i++) {
            char *val = o->kind == ARGS_PATH || o->kind == ARGS_DIR ? absolute(v[i]) : strdup(v[i]);
            if (!val) return GV_ENOMEM;
            size_t n = strlen(o->name) + strlen(val) + 4;
            char *tok = malloc(n);
            if (!tok) {
                free(val);
                return GV_ENOMEM;
            }
            snprintf(tok, n, "--%s=%s", o->name, val);
            fputc(' ', f);
            put_quoted(f, tok);
            free(tok);
            free(val);
        }
    }
    return GV_OK;
}

/* $GVLSIM_MACHINES with each directory made absolute, or NULL. */
static char *machines_env(void)
{
    const char *env = getenv("GVLSIM_MACHINES");
    if (!env || !*env) return NULL;
    size_t cap = strlen(env) * 2 + PATH_MAX, off = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    out[0] = 0;
    for (const char *p = env; *p;) {
        size_t n = strcspn(p, ":");
        char *dir = strndup(p, n), *abs = dir && n ? absolute(dir) : NULL;
        if (abs && off + strlen(abs) + 2 < cap)
            off += (size_t)snprintf(out + off, cap - off, "%s%s", off ? ":" : "", abs);
        free(dir);
        free(abs);
        p += n;
        if (*p) p++;
    }
    return out;
}

int sweep_emit_jobs(const struct args *a, int kind, uint64_t shards, uint64_t points, int seeds)
{
    char exe[PATH_MAX];
    const char *gvlsim = args_str(a, "gvlsim", NULL);
    char *gv_abs = NULL;
    if (gvlsim) {
        gv_abs = strchr(gvlsim, '/') ? absolute(gvlsim) : strdup(gvlsim);  /* "gvlsim": on PATH */
    } else {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) {
            fprintf(stderr, "gvlsim sweep: cannot tell this program's path: give --gvlsim PATH\n");
            return GV_EXIT_USAGE;
        }
        exe[n] = 0;
        gv_abs = strdup(exe);
    }
    char *out = absolute(args_str(a, "output", "-"));
    char *menv = machines_env();
    int rc = gv_abs && out ? GV_OK : GV_ENOMEM;
    uint64_t runs = points * (uint64_t)seeds;
    if (shards > runs && rc == GV_OK) {
        fprintf(stderr, "gvlsim sweep: %" PRIu64 " shards for %" PRIu64 " runs: some would be empty; "
                        "using %" PRIu64 "\n", shards, runs, runs);
        shards = runs;
    }
    char mid[64];
    if (rc == GV_OK && kind == 0) {  /* GNU parallel: one line per shard */
        for (uint64_t k = 1; k <= shards && rc == GV_OK; k++) {
            rc = put_command(stdout, a, gv_abs, menv);
            fprintf(stdout, " --shard=%" PRIu64 "/%" PRIu64 " --resume -o ", k, shards);
            snprintf(mid, sizeof mid, ".%" PRIu64 "-of-%" PRIu64, k, shards);
            put_shard_name(stdout, out, mid);
            fputc('\n', stdout);
        }
    } else if (rc == GV_OK) {  /* Slurm: one job array, a task per shard */
        size_t cut = suffix_at(out);
        printf("#!/bin/sh\n"
               "# gvlsim sweep in %" PRIu64 " shards as a Slurm job array (written by\n"
               "# `gvlsim sweep --emit-jobs slurm`).  Submit it with: sbatch THIS_FILE\n"
               "#SBATCH --job-name=gvlsim-sweep\n"
               "#SBATCH --array=1-%" PRIu64 "\n", shards, shards);
        if (args_has(a, "jobs")) printf("#SBATCH --cpus-per-task=%d\n", (int)args_num(a, "jobs", 1));
        printf("#SBATCH --output=%.*s.%%a-of-%" PRIu64 "%s.log\n", (int)cut, out, shards, out + cut);
        printf("set -eu\ntask=${SLURM_ARRAY_TASK_ID:?not a Slurm array task}\nexec ");
        rc = put_command(stdout, a, gv_abs, menv);
        printf(" --shard=\"$task/%" PRIu64 "\" --resume -o ", shards);
        snprintf(mid, sizeof mid, ".\"$task\"-of-%" PRIu64, shards);
        put_shard_name(stdout, out, mid);
        printf("\n# when every task is done:\n#   gvlsim merge --points %" PRIu64 " --seeds %d -o ",
               points, seeds);
        put_quoted(stdout, out);
        fputc(' ', stdout);
        snprintf(mid, sizeof mid, ".*-of-%" PRIu64, shards);
        put_shard_name(stdout, out, mid);
        fputc('\n', stdout);
    }
    if (rc == GV_OK && !args_has(a, "quiet")) {
        fprintf(stderr, "gvlsim sweep: %" PRIu64 " runs in %" PRIu64 " %s; when they are done:\n"
                        "  gvlsim merge --points %" PRIu64 " --seeds %d -o ",
                runs, shards, kind == 0 ? "jobs (one per line)" : "array tasks", points, seeds);
        put_quoted(stderr, out);
        fputc(' ', stderr);
        snprintf(mid, sizeof mid, ".*-of-%" PRIu64, shards);
        put_shard_name(stderr, out, mid);
        fputc('\n', stderr);
    }
    free(gv_abs);
    free(out);
    free(menv);
    if (rc != GV_OK) {
        fprintf(stderr, "gvlsim sweep: out of memory\n");
        return GV_EXIT_NOMEM;
    }
    return fflush(stdout) == 0 ? GV_EXIT_OK : GV_EXIT_IO;
}
