/* load.c - scn_load: read, parse, override, resolve the profile, validate, build. */
#include "load.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/err.h"
#include "../common/rfile.h"
#include "build.h"
#include "jsonpos.h"
#include "override.h"
#include "schema.h"

#define LOAD_MAX_BYTES (64u << 20)
#define LOAD_BYTES_PER_VALUE 16

static int read_file(const char *path, const char *what, char **out, size_t *len,
                     struct diag_list *diags)
{
    return rfile_read(path, what, LOAD_MAX_BYTES, out, len, diags);
}

static char *str_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *str_printf(const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (s) vsnprintf(s, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return s;
}

/* The directory of a path: "a/b.json" -> "a", "b.json" -> ".". */
static char *dir_of(const char *file)
{
    const char *slash = strrchr(file, '/');
    if (!slash) return strdup(".");
    if (slash == file) return strdup("/");
    return strndup(file, (size_t)(slash - file));
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;  /* a directory is "found", then fails to read: clearer */
}

struct profile {
    cJSON *root;
    char *name;   /* the name it was resolved from ("desktop"; "m4" for "hw/m4.json") */
    char *path;   /* the file found */
};

static void at_node(struct diag_list *diags, const struct jpos_table *pos, const cJSON *node,
                    const char *file, const char *ptr, const char *msg)
{
    struct jpos p;
    jpos_get(pos, node, &p);
    diag_at(diags, p.file ? p.file : file, p.line, p.col, ptr, "%s", msg);
}

/* Find, read and parse the profile named by "machine" or "machine.profile". */
static int resolve_profile(const char *file, const cJSON *root, const struct load_opts *opts,
                           struct jpos_table *pos, struct profile *out, struct diag_list *diags)
{
    const cJSON *m = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "machine") : NULL;
    const cJSON *node = NULL;
    const char *ptr = "/machine";
    if (cJSON_IsString(m)) node = m;
    else if (cJSON_IsObject(m)) {
        node = cJSON_GetObjectItemCaseSensitive(m, "profile");
        ptr = "/machine/profile";
    }
    if (!cJSON_IsString(node)) return GV_OK;  /* none, or a type error the schema reports */
    const char *name = node->valuestring;
    if (!*name) {
        at_node(diags, pos, node, file, ptr, "empty machine profile name");
        return GV_EINVAL;
    }

    char *sdir = dir_of(file), *path = NULL, *looked = NULL;
    int rc = GV_OK;
    if (!sdir) return GV_ENOMEM;
    size_t nlen = strlen(name);
    int is_path = strchr(name, '/') || (nlen > 5 && !strcmp(name + nlen - 5, ".json"));
    if (is_path) {
        /* a relative path given with --set is relative to the working
         * directory (as any path on a command line), one in a file to the
         * file's directory; each falls back on the other */
        struct jpos np;
        bool from_set = jpos_get(pos, node, &np) && ovr_is_set_doc(np.file);
        char *beside = name[0] == '/' ? strdup(name) : str_printf("%s/%s", sdir, name);
        char *cwd = strdup(name);
        if (!beside || !cwd) {
            free(beside);
            free(cwd);
            rc = GV_ENOMEM;
            goto done;
        }
        char *first = from_set ? cwd : beside, *second = from_set ? beside : cwd;
        if (is_file(first)) {
            path = first;
            free(second);
        } else if (is_file(second)) {
            path = second;
            free(first);
        } else {
            char *msg = !strcmp(first, second)
                      ? str_printf("no machine profile \"%s\" (looked for: %s)", name, first)
                      : str_printf("no machine profile \"%s\" (looked for: %s, %s)", name, first, second);
            free(first);
            free(second);
            if (!msg) { rc = GV_ENOMEM; goto done; }
            at_node(diags, pos, node, file, ptr, msg);
            free(msg);
            rc = GV_EINVAL;
            goto done;
        }
    } else {
        /* opts->machines_dirs, <scenario dir>/machines, then $GVLSIM_MACHINES. */
        const char *env = getenv("GVLSIM_MACHINES");
        char *envcopy = strdup(env ? env : "");
        char *mdir = str_printf("%s/machines", sdir);
        looked = strdup("");
        if (!envcopy || !mdir || !looked) {
            free(envcopy);
            free(mdir);
            rc = GV_ENOMEM;
            goto done;
        }
        int nopt = opts && opts->machines_dirs ? opts->nmachines_dirs : 0;
        const char **dirs = calloc((size_t)nopt + 1 + 64, sizeof *dirs);
        if (!dirs) {
            free(envcopy);
            free(mdir);
            rc = GV_ENOMEM;
            goto done;
        }
        int nd = 0;
        for (int i = 0; i < nopt; i++)
            if (opts->machines_dirs[i] && *opts->machines_dirs[i]) dirs[nd++] = opts->machines_dirs[i];
        dirs[nd++] = mdir;
        int nenv = 0;
        for (char *save = NULL, *tok = strtok_r(envcopy, ":", &save); tok && nenv < 64;
             tok = strtok_r(NULL, ":", &save), nenv++)
            dirs[nd++] = tok;
        for (int i = 0; i < nd && !path; i++) {
            char *cand = str_printf("%s/%s.json", dirs[i], name);
            char *l2 = str_printf("%s%s%s", looked, *looked ? ", " : "", dirs[i]);
            if (!cand || !l2) {
                free(cand);
                free(l2);
                rc = GV_ENOMEM;
                break;
            }
            free(looked);
            looked = l2;
            if (is_file(cand)) path = cand;
            else free(cand);
        }
        if (rc == GV_OK && !path) {
            char *msg = str_printf("no machine profile \"%s\" (looked in: %s)", name, looked);
            if (!msg) rc = GV_ENOMEM;
            else {
                at_node(diags, pos, node, file, ptr, msg);
                free(msg);
                rc = GV_EINVAL;
            }
        }
        free(dirs);
        free(envcopy);
        free(mdir);
        if (rc != GV_OK) goto done;
    }

    char *text;
    size_t len;
    int doc;
    rc = read_file(path, "machine profile", &text, &len, diags);
    if (rc != GV_OK) goto done;
    rc = jpos_add_doc(pos, path, text, len, &doc);
    if (rc != GV_OK) goto done;
    rc = jpos_parse(pos, doc, 0, &out->root, diags);
    if (rc != GV_OK) goto done;
    if (is_path) {  /* "hw/m4.json" is named "m4" */
        const char *base = strrchr(name, '/');
        base = base ? base + 1 : name;
        size_t bl = strlen(base);
        out->name = strndup(base, bl > 5 && !strcmp(base + bl - 5, ".json") ? bl - 5 : bl);
    } else {
        out->name = strdup(name);
    }
    if (!out->name) rc = GV_ENOMEM;
    out->path = path;
    path = NULL;
done:
    free(sdir);
    free(path);
    free(looked);
    return rc;
}

/* The worse of two outcomes: out of memory, then I/O, then invalid. */
static int worse(int a, int b)
{
    static const int order[] = { GV_OK, GV_EINVAL, GV_EIO, GV_ENOMEM };
    int ia = 0, ib = 0;
    for (int i = 0; i < 4; i++) {
        if (order[i] == a) ia = i;
        if (order[i] == b) ib = i;
    }
    return ia >= ib ? a : b;
}

/* Load from `text` (owned: freed in every case), named `file`. */
static int load_text(const char *file, char *text, size_t len, const struct load_opts *opts,
                     struct scenario *out, struct diag_list *diags)
{
    struct jpos_table *pos = NULL;
    struct profile prof = { NULL, NULL, NULL };
    cJSON *root = NULL;
    int doc, rc;

    if ((rc = jpos_new(&pos)) != GV_OK) {
        free(text);
        goto out;
    }
    /* A large file may hold more values (a scenario imported from a long
     * trace: about 23 bytes per value), but never more than one per
     * LOAD_BYTES_PER_VALUE bytes: a file of "0," stays bounded. */
    if (len / LOAD_BYTES_PER_VALUE > JPOS_MAX_VALUES) jpos_set_max_values(pos, len / LOAD_BYTES_PER_VALUE);
    if ((rc = jpos_add_doc(pos, file, text, len, &doc)) != GV_OK) goto out;
    if ((rc = jpos_parse(pos, doc, 0, &root, diags)) != GV_OK) goto out;

    /* From here on every problem is collected before giving up. */
    for (int i = 0; opts && i < opts->nsets; i++) {
        int r = ovr_apply(root, opts->sets[i], i + 1, pos, diags);
        rc = worse(rc, r);
        if (r == GV_ENOMEM) goto out;
    }
    int r = resolve_profile(file, root, opts, pos, &prof, diags);
    rc = worse(rc, r);
    if (r == GV_ENOMEM || r == GV_EIO) goto out;

    struct sch_doc d = { root, prof.root, pos, file };
    rc = worse(rc, sch_validate(&d, diags));
    if (rc != GV_OK) goto out;
    rc = bld_scenario(&d, file, prof.name, out);
    if (rc == GV_OK) {
        out->machine.file = prof.path;
        prof.path = NULL;
    }
out:
    if (rc == GV_EINVAL && diags->oom) rc = GV_ENOMEM;  /* a lost message must not look like success */
    cJSON_Delete(root);
    cJSON_Delete(prof.root);
    free(prof.name);
    free(prof.path);
    jpos_free(pos);
    return rc;
}

int scn_read_file(const char *file, char **text, size_t *len, struct diag_list *diags)
{
    int rc = read_file(file, "scenario", text, len, diags);
    return rc == GV_EINVAL && diags->oom ? GV_ENOMEM : rc;
}

int scn_load(const char *file, const struct load_opts *opts, struct scenario *out,
             struct diag_list *diags)
{
    char *text;
    size_t len;
    memset(out, 0, sizeof *out);
    int rc = read_file(file, "scenario", &text, &len, diags);
    if (rc != GV_OK) return rc == GV_EINVAL && diags->oom ? GV_ENOMEM : rc;
    return load_text(file, text, len, opts, out, diags);
}

int scn_load_text(const char *name, const char *text, size_t len, const struct load_opts *opts,
                  struct scenario *out, struct diag_list *diags)
{
    memset(out, 0, sizeof *out);
    if (len > LOAD_MAX_BYTES) {
        diag_at(diags, name, 0, 0, NULL, "scenario is too large (%zu bytes; the limit is 64 MiB)", len);
        return diags->oom ? GV_ENOMEM : GV_EINVAL;
    }
    char *copy = malloc(len + 1);
    if (!copy) return GV_ENOMEM;
    memcpy(copy, text, len);
    copy[len] = '\0';
    return load_text(name, copy, len, opts, out, diags);
}
