/* sweep.c - the parameter grid of `gvlsim sweep` (see sweep.h). */
#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../input/load.h"

#define SWEEP_MAX_RUNS 10000000u

void sweep_grid_init(struct sweep_grid *g)
{
    memset(g, 0, sizeof *g);
    g->npoints = 1;
    g->nseeds = 1;
}

void sweep_grid_free(struct sweep_grid *g)
{
    for (int i = 0; i < g->nparams; i++) {
        free(g->params[i].key);
        for (int v = 0; v < g->params[i].nvalues; v++) free(g->params[i].values[v]);
        free(g->params[i].values);
    }
    free(g->params);
    sweep_grid_init(g);
}

/* Length of the next value of s: up to a comma at depth 0 outside a
 * string.  Returns -1 if brackets or quotes are unbalanced. */
static long value_len(const char *s)
{
    int depth = 0, in_str = 0;
    const char *p = s;
    for (; *p; p++) {
        char c = *p;
        if (in_str) {
            if (c == '\\' && p[1]) p++;
            else if (c == '"') in_str = 0;
            continue;
        }
        if (c == '"') in_str = 1;
        else if (c == '[' || c == '{') depth++;
        else if (c == ']' || c == '}') {
            if (--depth < 0) return -1;
        } else if (c == ',' && depth == 0) {
            break;
        }
    }
    if (in_str || depth != 0) return -1;
    return (long)(p - s);
}

int sweep_grid_add(struct sweep_grid *g, const char *spec, char *err, size_t errlen)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec) {
        snprintf(err, errlen, "--param needs KEY=V1,V2,..., got \"%s\"", spec);
        return -1;
    }
    size_t klen = (size_t)(eq - spec);
    for (int i = 0; i < g->nparams; i++) {
        if (strlen(g->params[i].key) == klen && !strncmp(g->params[i].key, spec, klen)) {
            snprintf(err, errlen, "--param %.*s given twice (list all its values in one --param)",
                     (int)klen, spec);
            return -1;
        }
    }
    /* count and check the values first */
    int n = 0;
    for (const char *p = eq + 1;; n++) {
        long len = value_len(p);
        if (len < 0) {
            snprintf(err, errlen, "--param %.*s: unbalanced brackets or quotes in \"%s\"", (int)klen,
                     spec, eq + 1);
            return -1;
        }
        if (len == 0) {
            snprintf(err, errlen, "--param %.*s: empty value in \"%s\"", (int)klen, spec, eq + 1);
            return -1;
        }
        if (p[len] == 0) {
            n++;
            break;
        }
        p += len + 1;
    }
    uint64_t runs = g->npoints * (uint64_t)n * (uint64_t)g->nseeds;
    if (runs > SWEEP_MAX_RUNS) {
        snprintf(err, errlen, "the sweep would make more than %u runs", SWEEP_MAX_RUNS);
        return -1;
    }
    struct sweep_param *np = realloc(g->params, (size_t)(g->nparams + 1) * sizeof *np);
    if (!np) goto oom;
    g->params = np;
    struct sweep_param *sp = &g->params[g->nparams];
    memset(sp, 0, sizeof *sp);
    sp->key = strndup(spec, klen);
    sp->values = calloc((size_t)n, sizeof *sp->values);
    if (!sp->key || !sp->values) {
        free(sp->key);
        free(sp->values);
        goto oom;
    }
    g->nparams++;
    const char *p = eq + 1;
    for (int i = 0; i < n; i++) {
        long len = value_len(p);
        sp->values[i] = strndup(p, (size_t)len);
        if (!sp->values[i]) goto oom;
        sp->nvalues++;
        p += len + 1;
    }
    g->npoints *= (uint64_t)n;
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

uint64_t sweep_runs(const struct sweep_grid *g)
{
    return g->npoints * (uint64_t)g->nseeds;
}

int sweep_value_index(const struct sweep_grid *g, uint64_t point, int param)
{
    /* mixed radix, the last --param varying fastest */
    for (int i = g->nparams - 1; i > param; i--) point /= (uint64_t)g->params[i].nvalues;
    return (int)(point % (uint64_t)g->params[param].nvalues);
}

char *sweep_set_string(const struct sweep_grid *g, uint64_t point, int param)
{
    const struct sweep_param *sp = &g->params[param];
    const char *v = sp->values[sweep_value_index(g, point, param)];
    size_t n = strlen(sp->key) + strlen(v) + 2;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s=%s", sp->key, v);
    return s;
}

uint64_t sweep_seed(uint64_t base, int rep)
{
    if (rep == 0) return base;
    /* SplitMix64 (Steele, Lea, Flood 2014) of base + rep * golden gamma */
    uint64_t z = base + (uint64_t)rep * UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return z & ((UINT64_C(1) << 53) - 1);  /* --seed accepts up to 2^53 */
}

int sweep_shard_parse(const char *s, struct sweep_shard *sh, char *err, size_t errlen)
{
    char *end;
    unsigned long long k = strtoull(s, &end, 10);
    if (end != s && *end == '/' && s[0] != '-' && s[0] != '+') {
        const char *ns = end + 1;
        unsigned long long n = strtoull(ns, &end, 10);
        if (end != ns && *end == 0 && ns[0] != '-' && ns[0] != '+' && n >= 1 && n <= SWEEP_MAX_RUNS &&
            k >= 1 && k <= n) {
            sh->k = k;
            sh->n = n;
            return 0;
        }
    }
    snprintf(err, errlen, "\"%s\" is not K/N with 1 <= K <= N <= %u (e.g. 2/8: the second of 8 shares)",
             s, SWEEP_MAX_RUNS);
    return -1;
}

uint64_t sweep_shard_runs(const struct sweep_shard *sh, uint64_t runs)
{
    return runs >= sh->k ? (runs - sh->k) / sh->n + 1 : 0;
}

uint64_t sweep_shard_run(const struct sweep_shard *sh, uint64_t j)
{
    return sh->k - 1 + j * sh->n;
}

void sweep_interleave(const struct sweep_shard *sh, uint64_t nslots, int seeds, uint64_t *order)
{
    uint64_t k = 0;
    for (uint64_t rep = 0; rep < (uint64_t)seeds; rep++)
        for (uint64_t j = 0; j < nslots; j++)
            if (sweep_shard_run(sh, j) % (uint64_t)seeds == rep) order[k++] = j;
}

int sweep_load_point(const struct sweep_grid *g, uint64_t point, const char *name, const char *text, size_t len,
                     const struct load_opts *base, struct scenario *out, struct diag_list *d)
{
    int nsets = base->nsets + g->nparams;
    const char **sets = calloc((size_t)nsets + 1, sizeof *sets);
    char **mine = calloc((size_t)g->nparams + 1, sizeof *mine);
    int rc = sets && mine ? GV_OK : GV_ENOMEM;
    if (rc == GV_OK && base->nsets) memcpy(sets, base->sets, (size_t)base->nsets * sizeof *sets);
    for (int i = 0; i < g->nparams && rc == GV_OK; i++) {
        if (!(mine[i] = sweep_set_string(g, point, i))) rc = GV_ENOMEM;
        sets[base->nsets + i] = mine[i];
    }
    if (rc == GV_OK) {
        struct load_opts lo = *base;
        lo.sets = sets;
        lo.nsets = nsets;
        rc = text ? scn_load_text(name, text, len, &lo, out, d) : scn_load(name, &lo, out, d);
    }
    if (mine)
        for (int i = 0; i < g->nparams; i++) free(mine[i]);
    free(mine);
    free(sets);
    return rc;
}
