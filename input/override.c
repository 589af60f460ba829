/* override.c - --set key.path=value on the cJSON tree. */
#include "override.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "jptr.h"

/* Columns count characters, as in jsonpos. */
static int col_of(const char *s, size_t off)
{
    int line, col;
    jpos_linecol(s, off, &line, &col);
    return col;
}

static const char *kind_name(const cJSON *v)
{
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsBool(v)) return "a boolean";
    if (cJSON_IsNull(v)) return "null";
    return "a value";
}

/* Replace `old` (a member of object `parent`) by `val`, keeping the key. */
static void replace_member(cJSON *parent, cJSON *old, cJSON *val)
{
    /* Move the key over: it was allocated by cJSON, so cJSON frees it. */
    val->string = old->string;
    val->type &= ~cJSON_StringIsConst;
    old->string = NULL;
    cJSON_ReplaceItemViaPointer(parent, old, val);
}

/* "machine": "name" -> "machine": {"profile": "name"} at the same place. */
static int machine_to_object(cJSON *root, cJSON *m, struct jpos_table *pos)
{
    cJSON *obj = cJSON_CreateObject();
    cJSON *prof = cJSON_CreateString(m->valuestring);
    if (!obj || !prof || !cJSON_AddItemToObject(obj, "profile", prof)) {
        cJSON_Delete(obj);   /* prof is not attached when the add failed */
        cJSON_Delete(prof);
        return GV_ENOMEM;
    }
    struct jpos p;
    jpos_get(pos, m, &p);
    if (jpos_put(pos, obj, p.doc, p.line, p.col, p.key_line, p.key_col) != GV_OK ||
        jpos_put(pos, prof, p.doc, p.line, p.col, p.line, p.col) != GV_OK) {
        cJSON_Delete(obj);
        return GV_ENOMEM;
    }
    replace_member(root, m, obj);
    return GV_OK;
}

/* --set machine=... replaces the whole machine.  A machine.* key an earlier
 * --set put there would be dropped without a word (`--set machine.cores=1
 * --set machine=host.json` ran on the profile's cores), so that is an error
 * that says how to keep it; keys from the scenario file are replaced as
 * documented. */
static int check_machine_kept(const cJSON *m, const char *name, int col,
                              const struct jpos_table *pos, struct diag_list *diags)
{
    if (!cJSON_IsObject(m)) return GV_OK;
    for (const cJSON *k = m->child; k; k = k->next) {
        struct jpos p;
        if (!strcmp(k->string, "profile") || !jpos_get(pos, k, &p) || !ovr_is_set_doc(p.file))
            continue;  /* a profile chosen before is what this one replaces */
        diag_at(diags, name, 1, col, "/machine",
                "this replaces the whole machine, dropping machine.%s set by %s: give "
                "--set machine=PROFILE before the machine.* keys, or use --set machine.profile=PROFILE "
                "to keep them", k->string, p.file);
        return GV_EINVAL;
    }
    return GV_OK;
}

static int parse_index(const char *s, int *out)
{
    size_t n = strlen(s);
    if (n == 0 || n > 9) return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return 0;
    *out = atoi(s);
    return 1;
}

/* Walk the path and attach `val` (owned by the caller until attached). */
static int attach(cJSON *root, char **segs, const int *cols, int nseg, cJSON **valp, int doc,
                  const char *name, struct jpos_table *pos, struct jptr *path,
                  struct diag_list *diags)
{
    cJSON *cur = root;
    if (!cJSON_IsObject(root)) {
        diag_at(diags, name, 1, cols[0], NULL, "cannot apply: the scenario is not a JSON object");
        return GV_EINVAL;
    }
    for (int i = 0; i < nseg; i++) {
        const char *seg = segs[i];
        int last = i == nseg - 1, col = cols[i];
        if (cJSON_IsObject(cur)) {
            cJSON *child = cJSON_GetObjectItemCaseSensitive(cur, seg);
            if (cur == root && !last && child && cJSON_IsString(child) && !strcmp(seg, "machine")) {
                if (machine_to_object(root, child, pos) != GV_OK) return GV_ENOMEM;
                child = cJSON_GetObjectItemCaseSensitive(cur, seg);
            }
            if (last) {
                cJSON *val = *valp;
                if (cur == root && child && !strcmp(seg, "machine")) {
                    int rc = check_machine_kept(child, name, col, pos, diags);
                    if (rc != GV_OK) return rc;
                }
                if (child) replace_member(cur, child, val);
                else if (!cJSON_AddItemToObject(cur, seg, val)) return GV_ENOMEM;
                *valp = NULL;
                return jpos_set_key(pos, val, 1, col);
            }
            if (!child) {
                child = cJSON_CreateObject();
                if (!child) return GV_ENOMEM;
                if (!cJSON_AddItemToObject(cur, seg, child)) {
                    cJSON_Delete(child);
                    return GV_ENOMEM;
                }
                if (jpos_put(pos, child, doc, 1, col, 1, col) != GV_OK) return GV_ENOMEM;
            }
            jptr_push_key(path, seg);
            cur = child;
        } else if (cJSON_IsArray(cur)) {
            int idx, size = cJSON_GetArraySize(cur);
            if (!parse_index(seg, &idx)) {
                diag_at(diags, name, 1, col, jptr_str(path),
                        "\"%s\" is not an array index (this is an array of %d element%s)", seg,
                        size, size == 1 ? "" : "s");
                return GV_EINVAL;
            }
            if (idx >= size) {
                diag_at(diags, name, 1, col, jptr_str(path),
                        "index %d is past the end (%d element%s)", idx, size, size == 1 ? "" : "s");
                return GV_EINVAL;
            }
            cJSON *child = cJSON_GetArrayItem(cur, idx);
            if (last) {
                cJSON_ReplaceItemViaPointer(cur, child, *valp);
                *valp = NULL;
                return GV_OK;
            }
            jptr_push_index(path, (size_t)idx);
            cur = child;
        } else {
            diag_at(diags, name, 1, col, jptr_str(path), "cannot set \"%s\" inside %s", seg,
                    kind_name(cur));
            return GV_EINVAL;
        }
    }
    return GV_OK;  /* not reached: the last segment returns */
}

/* The value: JSON if it parses as JSON, else the text as a string. */
static int make_value(const char *value, int valcol, const char *name, struct jpos_table *pos,
                      int *doc, cJSON **out, struct diag_list *diags)
{
    char *text = strdup(value);
    if (!text) return GV_ENOMEM;
    int rc = jpos_add_doc(pos, name, text, strlen(value), doc);
    if (rc != GV_OK) return rc;
    struct diag_list tmp;
    diag_init(&tmp);
    rc = jpos_parse(pos, *doc, valcol - 1, out, &tmp);
    if (rc == GV_EINVAL) {
        const char *v = value;
        while (*v == ' ' || *v == '\t') v++;
        if (*v == '{' || *v == '[' || *v == '"') {
            /* Meant as JSON: a plain string here would only hide the typo. */
            for (size_t i = 0; i < tmp.n; i++) diag_add(diags, "%s", tmp.msgs[i]);
        } else {
            rc = GV_OK;
            *out = cJSON_CreateString(value);
            if (!*out || jpos_put(pos, *out, *doc, 1, valcol, 0, 0) != GV_OK) rc = GV_ENOMEM;
        }
    }
    if (tmp.oom) rc = GV_ENOMEM;
    diag_free(&tmp);
    return rc;
}

bool ovr_is_set_doc(const char *file)
{
    return file && !strncmp(file, "--set[", 6);
}

int ovr_apply(cJSON *root, const char *set, int n, struct jpos_table *pos,
              struct diag_list *diags)
{
    char name[32];
    snprintf(name, sizeof name, "--set[%d]", n);
    const char *eq = strchr(set, '=');
    if (!eq) {
        diag_at(diags, name, 1, 1, NULL, "missing '=' in \"%s\" (expected key.path=value)", set);
        return GV_EINVAL;
    }
    size_t klen = (size_t)(eq - set);
    if (klen == 0) {
        diag_at(diags, name, 1, 1, NULL, "empty key before '=' (expected key.path=value)");
        return GV_EINVAL;
    }

    /* Split the key at dots, remembering each segment's column. */
    int nseg = 1;
    for (size_t i = 0; i < klen; i++) nseg += set[i] == '.';
    char *keys = malloc(klen + 1);
    char **segs = malloc((size_t)nseg * sizeof *segs);
    int *cols = malloc((size_t)nseg * sizeof *cols);
    int rc = GV_OK;
    if (!keys || !segs || !cols) { rc = GV_ENOMEM; goto out; }
    memcpy(keys, set, klen);
    keys[klen] = '\0';
    for (size_t i = 0, s = 0, k = 0; i <= klen; i++) {
        if (i < klen && keys[i] != '.') continue;
        keys[i] = '\0';
        segs[k] = keys + s;
        cols[k] = col_of(set, s);
        if (i == s) {
            diag_at(diags, name, 1, cols[k], NULL, "empty segment in key path \"%.*s\"",
                    (int)klen, set);
            rc = GV_EINVAL;
            goto out;
        }
        k++;
        s = i + 1;
    }

    int doc;
    cJSON *val = NULL;
    rc = make_value(eq + 1, col_of(set, klen + 1), name, pos, &doc, &val, diags);
    if (rc == GV_OK) {
        struct jptr path;
        jptr_init(&path);
        rc = attach(root, segs, cols, nseg, &val, doc, name, pos, &path, diags);
        if (rc == GV_OK && path.oom) rc = GV_ENOMEM;
        jptr_free(&path);
    }
    cJSON_Delete(val);  /* NULL once attached */
out:
    free(keys);
    free(segs);
    free(cols);
    return rc;
}
