/* sensitivity.c - a profile's measurements at their quartiles, as
 * variants of its keys (sensitivity.h). */
#include "sensitivity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../common/err.h"
#include "../common/rfile.h"
#include "../exec/calib.h"
#include "../exec/calib_host.h"
#include "../exec/calib_map.h"
#include "../input/jsonpos.h"
#include "../input/units.h"

#define SENS_MAX_BYTES (64u << 20)

struct reader {
    const char *file;
    struct jpos_table *pos;
    struct diag_list *d;
};

static int at(const struct reader *rd, const cJSON *node, const char *ptr, const char *msg)
{
    struct jpos p;
    jpos_get(rd->pos, node, &p);
    diag_at(rd->d, rd->file, p.line, p.col, ptr, "%s", msg);
    return rd->d->oom ? GV_ENOMEM : GV_EINVAL;
}

/* The calibration's host, as calib_map reads it (the scheduler's
 * derivation needs the kernel's version; the other host facts move no
 * key a measurement moves). */
static void read_host(const cJSON *host, struct calib_host *h)
{
    memset(h, 0, sizeof *h);
    const cJSON *x;
    if ((x = cJSON_GetObjectItemCaseSensitive(host, "kernel")) && cJSON_IsString(x)) {
        snprintf(h->kernel, sizeof h->kernel, "%s", x->valuestring);
        if (sscanf(h->kernel, "%d.%d", &h->kmajor, &h->kminor) != 2) h->kmajor = h->kminor = 0;
    }
    if ((x = cJSON_GetObjectItemCaseSensitive(host, "config_hz")) && cJSON_IsNumber(x)) h->config_hz = x->valueint;
    if ((x = cJSON_GetObjectItemCaseSensitive(host, "cpus_allowed")) && cJSON_IsNumber(x)) h->cpus_allowed = x->valueint;
    if ((x = cJSON_GetObjectItemCaseSensitive(host, "cpus_online")) && cJSON_IsNumber(x)) h->cpus_online = x->valueint;
    if ((x = cJSON_GetObjectItemCaseSensitive(host, "libc")) && cJSON_IsString(x))
        snprintf(h->libc, sizeof h->libc, "%s", x->valuestring);
    h->delay_dequeue = -1;
}

static int id_of(const char *name)
{
    for (int id = 0; id < CALIB_COUNT; id++)
        if (!strcmp(calib_describe((enum calib_id)id)->name, name)) return id;
    return -1;
}

/* The measurements into r (median and quartiles; a measurement without
 * both quartiles is kept at its median and not moved: *movable[id] false). */
static int read_measurements(const struct reader *rd, const cJSON *ms, struct calib_result *r, bool *movable,
                             int *nunknown)
{
    char ptr[64], msg[256];
    int i = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, ms) {
        snprintf(ptr, sizeof ptr, "/calibration/measurements/%d", i++);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(m, "name");
        const cJSON *med = cJSON_GetObjectItemCaseSensitive(m, "median");
        const cJSON *q1 = cJSON_GetObjectItemCaseSensitive(m, "q1");
        const cJSON *q3 = cJSON_GetObjectItemCaseSensitive(m, "q3");
        if (!cJSON_IsString(name)) continue;  /* the schema has said so */
        int id = id_of(name->valuestring);
        if (id < 0) {
            (*nunknown)++;  /* a measurement of another gvlsim: it derives nothing here */
            continue;
        }
        if (r->m[id].measured) {
            snprintf(msg, sizeof msg, "measurement \"%s\" named twice", name->valuestring);
            return at(rd, name, ptr, msg);
        }
        if (!cJSON_IsNumber(med)) {
            /* skipped by calibrate: its note says why, and no key was
             * derived from it ("one speed level: no share to measure") */
            if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(m, "note"))) continue;
            snprintf(msg, sizeof msg, "measurement \"%s\" has no median: the keys are derived from it",
                     name->valuestring);
            return at(rd, m, ptr, msg);
        }
        struct calib_stat *st = &r->m[id];
        st->measured = true;
        st->median = st->q1 = st->q3 = med->valuedouble;
        if (cJSON_IsNumber(q1) && cJSON_IsNumber(q3)) {
            if (q1->valuedouble > med->valuedouble || q3->valuedouble < med->valuedouble) {
                snprintf(msg, sizeof msg, "measurement \"%s\": q1 %.6g, median %.6g, q3 %.6g are not in order",
                         name->valuestring, q1->valuedouble, med->valuedouble, q3->valuedouble);
                return at(rd, cJSON_IsNumber(q1) && q1->valuedouble > med->valuedouble ? q1 : q3, ptr, msg);
            }
            st->q1 = q1->valuedouble;
            st->q3 = q3->valuedouble;
            movable[id] = true;
        }
        /* a spread within rounds (wake_jitter's) is the samples' own, which
         * moving the median across its quartiles leaves as it is */
        const cJSON *within = cJSON_GetObjectItemCaseSensitive(m, "within_spread");
        if (cJSON_IsNumber(within) && within->valuedouble > 0) st->within_spread = within->valuedouble;
    }
    return GV_OK;
}

/* The profile's value of KEY ("wake_ipi", "syscalls.stat"), or NULL. */
static const cJSON *profile_value(const cJSON *root, const char *key)
{
    const char *dot = strchr(key, '.');
    if (!dot) return cJSON_GetObjectItemCaseSensitive(root, key);
    char obj[64];
    snprintf(obj, sizeof obj, "%.*s", (int)(dot - key), key);
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, obj), dot + 1);
}

/* A value as compact JSON (malloc'ed; NULL: out of memory): the profile's
 * node, or calib_key_value's text (a bare duration such as 1.63us is a
 * JSON string). */
static char *compact_node(const cJSON *node)
{
    return cJSON_PrintUnformatted(node);
}

static char *compact_text(const char *text)
{
    cJSON *j = cJSON_ParseWithOpts(text, NULL, 1);  /* the whole text: "1.63us" is no number */
    if (!j) j = cJSON_CreateString(text);
    if (!j) return NULL;
    char *s = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return s;
}

/* NAME appended to the comma-separated list in buf, unless it is there
 * (a whole name: futex_wake is not futex_wake_race). */
static void name_once(char *buf, size_t cap, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = buf; *p;) {
        size_t k = strcspn(p, ",");
        if (k == len && !strncmp(p, name, len)) return;
        p += k;
        while (*p == ',' || *p == ' ') p++;
    }
    size_t n = strlen(buf);
    snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", name);
}

/* KEY=VALUE into v's sets and KEY into its names.  GV_OK or GV_ENOMEM. */
static int variant_set(struct sens_variant *v, const char *key, const char *value)
{
    char *set = NULL;
    if (asprintf(&set, "machine.%s=%s", key, value) < 0) return GV_ENOMEM;
    char **sets = realloc(v->sets, (size_t)(v->nsets + 1) * sizeof *sets);
    if (!sets) {
        free(set);
        return GV_ENOMEM;
    }
    v->sets = sets;
    v->sets[v->nsets++] = set;
    size_t n = strlen(v->keys);
    snprintf(v->keys + n, sizeof v->keys - n, "%s%s", n ? " " : "", key);
    return GV_OK;
}

/* The keys of `q` that differ from `base`, whose base value is the
 * profile's own, into v (sets and names).  *mismatch collects the keys the
 * profile holds otherwise.  GV_OK or GV_ENOMEM. */
static int diff_keys(const cJSON *root, const struct calib_profile *base, const struct calib_profile *q,
                     struct sens_variant *v, char *mismatch, size_t mlen)
{
    char bv[2048], qv[2048];
    for (int i = 0; i < q->n; i++) {
        const struct calib_key *kq = &q->k[i];
        const struct calib_key *kb = calib_profile_key(base, kq->name);
        calib_key_value(kq, qv, sizeof qv);
        if (kb) calib_key_value(kb, bv, sizeof bv);
        if (kb && !strcmp(bv, qv)) continue;
        if (!kb) continue;  /* a key only the moved measurement writes: the profile has none to move */
        const cJSON *pv = profile_value(root, kq->name);
        char *have = pv ? compact_node(pv) : NULL, *want = compact_text(bv);
        bool same = have && want && !strcmp(have, want);
        bool oom = (pv && !have) || !want;
        free(have);
        free(want);
        if (oom) return GV_ENOMEM;
        if (!same) {
            name_once(mismatch, mlen, kq->name);
            continue;
        }
        if (variant_set(v, kq->name, qv) != GV_OK) return GV_ENOMEM;
    }
    return GV_OK;
}

/* A list the calibration wrote as one measurement's quantiles
 * (calib_list_source), as the profile holds it: moved with that
 * measurement, every entry scaled as its median is. */
struct list_key {
    const char *name;  /* calib_list_source's key (in the profile's tree) */
    int from;          /* the measurement */
    sim_time y[GV_CURVE_MAX];
    int n;
};

/* The profile's value of a list key as durations into l; false if it is
 * not an array of 1..GV_CURVE_MAX duration strings. */
static bool list_read(const cJSON *node, struct list_key *l)
{
    if (!cJSON_IsArray(node)) return false;
    int n = cJSON_GetArraySize(node);
    if (n < 1 || n > GV_CURVE_MAX) return false;
    const cJSON *e;
    char err[128];
    l->n = 0;
    cJSON_ArrayForEach(e, node) {
        if (!cJSON_IsString(e) || units_parse(e->valuestring, &l->y[l->n], err, sizeof err) != UNITS_OK) return false;
        l->n++;
    }
    return true;
}

/* The lists the calibration section lists as measured (its "keys") that
 * the profile holds as the calibration wrote them, into lists (*n); a
 * list the profile holds otherwise is named in mismatch.  GV_OK or
 * GV_ENOMEM. */
static int read_lists(const cJSON *root, const cJSON *cal, struct list_key *lists, int *n, char *mismatch,
                      size_t mlen)
{
    const cJSON *e;
    *n = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(cal, "keys")) {
        const cJSON *key = cJSON_GetObjectItemCaseSensitive(e, "key");
        const cJSON *val = cJSON_GetObjectItemCaseSensitive(e, "value");
        if (!cJSON_IsString(key) || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "measured"))) continue;
        int from = calib_list_source(key->valuestring);
        const cJSON *pv = profile_value(root, key->valuestring);
        if (from < 0 || !pv || *n == CALIB_MAX_KEYS) continue;
        char *have = compact_node(pv), *want = cJSON_IsString(val) ? compact_text(val->valuestring) : NULL;
        bool oom = !have || (cJSON_IsString(val) && !want);
        bool same = have && want && !strcmp(have, want);
        free(have);
        free(want);
        if (oom) return GV_ENOMEM;
        struct list_key *l = &lists[*n];
        l->name = key->valuestring;
        l->from = from;
        if (same && list_read(pv, l)) (*n)++;
        else name_once(mismatch, mlen, key->valuestring);
    }
    return GV_OK;
}

/* Measurement `id` moved from `median` to `to`: its lists, scaled, into v.
 * GV_OK or GV_ENOMEM. */
static int move_lists(const struct list_key *lists, int n, int id, double median, double to,
                      struct sens_variant *v)
{
    char was[2048], now[2048];
    for (int i = 0; i < n; i++) {
        const struct list_key *l = &lists[i];
        struct calib_key k;
        if (l->from != id || !(median > 0) || !calib_list_scaled(l->name, l->y, l->n, 1.0, &k)) continue;
        calib_key_value(&k, was, sizeof was);
        calib_list_scaled(l->name, l->y, l->n, to / median, &k);
        calib_key_value(&k, now, sizeof now);
        if (strcmp(was, now) && variant_set(v, l->name, now) != GV_OK) return GV_ENOMEM;
    }
    return GV_OK;
}

/* The keys the calibration section lists as measured (its "keys") that
 * the medians alone do not derive (absent from base) and the profile has:
 * appended to notes ("; " after a note before them), comma-separated,
 * after their heading. */
static void underived_keys(const cJSON *root, const cJSON *cal, const struct calib_profile *base, char *notes,
                           size_t cap)
{
    static const char heading[] = "not varied (measured from samples, not a median): ";
    const cJSON *e;
    size_t n = strlen(notes);
    bool first = true;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(cal, "keys")) {
        const cJSON *key = cJSON_GetObjectItemCaseSensitive(e, "key");
        if (!cJSON_IsString(key) || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "measured"))) continue;
        if (calib_profile_key(base, key->valuestring) || calib_list_source(key->valuestring) >= 0 ||
            !profile_value(root, key->valuestring))
            continue;
        const char *sep = first ? (n ? "; " : "") : ", ";
        if (n < cap)
            n += (size_t)snprintf(notes + n, cap - n, "%s%s%s", sep, first ? heading : "", key->valuestring);
        first = false;
    }
}

static void variant_free(struct sens_variant *v)
{
    for (int i = 0; i < v->nsets; i++) free(v->sets[i]);
    free(v->sets);
    v->sets = NULL;
    v->nsets = 0;
}

int sens_plan_drop_unread(struct sens_plan *p, bool (*read)(const char *key, void *ctx), void *ctx, char *note,
                          size_t cap)
{
    int kept = 0, dropped = 0;
    size_t used = strlen(note);
    const char *last = NULL;  /* the measurement named last */
    for (int i = 0; i < p->nvar; i++) {
        struct sens_variant *v = &p->var[i];
        bool any = false;
        for (int j = 0; j < v->nsets && !any; j++) {
            char key[128];
            const char *s = v->sets[j] + strlen("machine.");
            snprintf(key, sizeof key, "%.*s", (int)strcspn(s, "="), s);
            any = read(key, ctx);
        }
        if (any) {
            p->var[kept++] = *v;
            continue;
        }
        /* a measurement's two moves are neighbours: named once */
        if (v->measurement != last && used < cap)
            used += (size_t)snprintf(note + used, cap - used, "%s%s", used ? " " : "", v->measurement);
        last = v->measurement;
        variant_free(v);
        dropped++;
    }
    p->nvar = kept;
    return dropped;
}

void sens_plan_free(struct sens_plan *p)
{
    for (int i = 0; i < p->nvar; i++) variant_free(&p->var[i]);
    free(p->var);
    memset(p, 0, sizeof *p);
}

static int plan(const struct reader *rd, const cJSON *root, struct sens_plan *out)
{
    const cJSON *cal = cJSON_GetObjectItemCaseSensitive(root, "calibration");
    if (!cJSON_IsObject(cal))
        return at(rd, root, "", "no \"calibration\" section: --sensitivity needs the measurements' quartiles "
                                "that `gvlsim calibrate` records beside the keys it derives");
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(cal, "measurements");
    if (!cJSON_IsArray(ms) || cJSON_GetArraySize(ms) == 0)
        return at(rd, ms ? ms : cal, "/calibration/measurements",
                  "no measurements: --sensitivity needs their quartiles");
    struct calib_result *base_r = calloc(1, sizeof *base_r), *q_r = malloc(sizeof *q_r);
    struct calib_profile *base = malloc(sizeof *base), *q = malloc(sizeof *q);
    struct list_key *lists = malloc(CALIB_MAX_KEYS * sizeof *lists);
    bool movable[CALIB_COUNT] = { false };
    int rc = GV_OK, nunknown = 0;
    if (!base_r || !q_r || !base || !q || !lists) {
        rc = GV_ENOMEM;
        goto done;
    }
    struct calib_host h;
    read_host(cJSON_GetObjectItemCaseSensitive(cal, "host"), &h);
    base_r->ncpus_allowed = h.cpus_allowed;
    rc = read_measurements(rd, ms, base_r, movable, &nunknown);
    if (rc != GV_OK) goto done;
    calib_map(base_r, &h, base);
    char mismatch[512] = "";
    int nlists;
    rc = read_lists(root, cal, lists, &nlists, mismatch, sizeof mismatch);
    for (int id = 0; id < CALIB_COUNT && rc == GV_OK; id++) {
        if (!movable[id]) continue;
        out->nmeasured++;
        for (int side = 0; side < 2 && rc == GV_OK; side++) {
            double to = side ? base_r->m[id].q3 : base_r->m[id].q1;
            if (to == base_r->m[id].median) continue;
            memcpy(q_r, base_r, sizeof *q_r);
            q_r->m[id].median = to;
            calib_map(q_r, &h, q);
            struct sens_variant v = { .measurement = calib_describe((enum calib_id)id)->name, .high = side == 1,
                                      .at = to };
            rc = diff_keys(root, base, q, &v, mismatch, sizeof mismatch);
            if (rc == GV_OK) rc = move_lists(lists, nlists, id, base_r->m[id].median, to, &v);
            if (rc == GV_OK && v.nsets > 0) {
                struct sens_variant *nv = realloc(out->var, (size_t)(out->nvar + 1) * sizeof *nv);
                if (!nv) rc = GV_ENOMEM;
                else {
                    out->var = nv;
                    out->var[out->nvar++] = v;
                    continue;
                }
            }
            variant_free(&v);
        }
    }
    if (rc == GV_OK) {
        size_t n = 0;
        if (mismatch[0])
            n += (size_t)snprintf(out->notes + n, sizeof out->notes - n,
                                  "not varied (the profile's value is not its calibration's derivation): %s", mismatch);
        if (nunknown && n < sizeof out->notes)
            snprintf(out->notes + n, sizeof out->notes - n, "%s%d measurement%s this gvlsim does not derive keys from",
                     n ? "; " : "", nunknown, nunknown == 1 ? "" : "s");
        underived_keys(root, cal, base, out->notes, sizeof out->notes);
    }
done:
    free(base_r);
    free(q_r);
    free(base);
    free(q);
    free(lists);
    if (rc != GV_OK) sens_plan_free(out);
    return rc;
}

int sens_plan_make(const char *file, struct sens_plan *out, struct diag_list *d)
{
    memset(out, 0, sizeof *out);
    char *text;
    size_t len;
    int rc = rfile_read(file, "machine profile", SENS_MAX_BYTES, &text, &len, d);
    if (rc != GV_OK) return rc == GV_EINVAL && d->oom ? GV_ENOMEM : rc;
    struct reader rd = { file, NULL, d };
    if ((rc = jpos_new(&rd.pos)) != GV_OK) {
        free(text);
        return rc;
    }
    int doc;
    cJSON *root = NULL;
    rc = jpos_add_doc(rd.pos, file, text, len, &doc);
    if (rc == GV_OK) rc = jpos_parse(rd.pos, doc, 0, &root, d);
    if (rc == GV_OK) rc = plan(&rd, root, out);
    cJSON_Delete(root);
    jpos_free(rd.pos);
    return rc;
}

int sens_plan_drop_key(struct sens_plan *p, const char *key)
{
    size_t klen = strlen(key);
    int kept = 0;
    for (int i = 0; i < p->nvar; i++) {
        struct sens_variant *v = &p->var[i];
        int n = 0;
        v->keys[0] = 0;
        for (int j = 0; j < v->nsets; j++) {
            const char *s = v->sets[j] + strlen("machine.");
            if (!strncmp(s, key, klen) && s[klen] == '=') {
                free(v->sets[j]);
                continue;
            }
            v->sets[n++] = v->sets[j];
            size_t used = strlen(v->keys);
            snprintf(v->keys + used, sizeof v->keys - used, "%s%.*s", used ? " " : "",
                     (int)strcspn(s, "="), s);
        }
        v->nsets = n;
        if (n == 0) variant_free(v);
        else p->var[kept++] = *v;
    }
    p->nvar = kept;
    return GV_OK;
}
