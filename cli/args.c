/* args.c - the command-line parser of every command (see args.h). */
#include "args.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/time.h"
#include "../input/schema.h"
#include "../input/units.h"

static size_t count_opts(const struct args_spec *spec)
{
    size_t n = 0;
    while (spec->opts && spec->opts[n].name) n++;
    return n;
}

const char *args_enum_value(const struct args_opt *o, size_t i)
{
    if (o->values) {
        for (size_t k = 0; k <= i; k++)
            if (!o->values[k]) return NULL;
        return o->values[i];
    }
    return o->names ? o->names(i) : NULL;
}

/* "a, b or c" into buf */
static void join_values(const struct args_opt *o, const char *sep, const char *last, char *buf,
                        size_t len)
{
    size_t off = 0, n = 0;
    while (args_enum_value(o, n)) n++;
    buf[0] = 0;
    for (size_t i = 0; i < n && off < len; i++) {
        const char *s = i == 0 ? "" : i + 1 == n ? last : sep;
        int w = snprintf(buf + off, len - off, "%s%s", s, args_enum_value(o, i));
        if (w < 0) break;
        off += (size_t)w;
    }
}

void args_metavar(const struct args_opt *o, char *buf, size_t len)
{
    if (o->metavar) {
        snprintf(buf, len, "%s", o->metavar);
        return;
    }
    switch (o->kind) {
    case ARGS_FLAG: buf[0] = 0; break;
    case ARGS_STRING: snprintf(buf, len, "TEXT"); break;
    case ARGS_PATH: snprintf(buf, len, "FILE"); break;
    case ARGS_DIR: snprintf(buf, len, "DIR"); break;
    case ARGS_INT: snprintf(buf, len, "N"); break;
    case ARGS_SECONDS: snprintf(buf, len, "SECS"); break;
    case ARGS_KV: snprintf(buf, len, "KEY=VALUE"); break;
    case ARGS_ENUM:
        join_values(o, (o->flags & ARGS_LIST) ? "," : "|", (o->flags & ARGS_LIST) ? "," : "|", buf,
                    len);
        break;
    }
}

void args_opt_label(const struct args_opt *o, char *buf, size_t len)
{
    char mv[128];
    args_metavar(o, mv, sizeof mv);
    if (o->short_name)
        snprintf(buf, len, "-%c, --%s%s%s", o->short_name, o->name, *mv ? " " : "", mv);
    else
        snprintf(buf, len, "--%s%s%s", o->name, *mv ? " " : "", mv);
}

const struct args_opt *args_find(const struct args_spec *spec, const char *name)
{
    for (const struct args_opt *o = spec->opts; o && o->name; o++)
        if (strcmp(o->name, name) == 0) return o;
    return NULL;
}

/* ---- values ----------------------------------------------------------- */

/* "2^53", "1e9" or the plain number, for range messages */
static void fmt_bound(int64_t v, char *buf, size_t len)
{
    if (v >= (INT64_C(1) << 20) && (v & (v - 1)) == 0) {
        int k = 0;
        while ((INT64_C(1) << k) != v) k++;
        snprintf(buf, len, "2^%d", k);
        return;
    }
    int64_t p = v;
    int zeros = 0;
    while (p >= 10 && p % 10 == 0) { p /= 10; zeros++; }
    if (zeros >= 6) snprintf(buf, len, "%" PRId64 "e%d", p, zeros);
    else snprintf(buf, len, "%" PRId64, v);
}

/* "9e6 s" for whole seconds, else "1.5us" */
static void fmt_time(int64_t ps, char *buf, size_t len)
{
    if (ps >= SIM_S && ps % SIM_S == 0) {
        char n[32];
        fmt_bound(ps / SIM_S, n, sizeof n);
        snprintf(buf, len, "%s s", n);
    } else {
        units_format(ps, buf, len);
    }
}

static int bad(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return GV_EUSAGE;
}

static int parse_int(const struct args_opt *o, const char *shown, const char *v, int64_t *out,
                     char *err, size_t errlen)
{
    char lo[32], hi[32];
    fmt_bound(o->min, lo, sizeof lo);
    fmt_bound(o->max, hi, sizeof hi);
    errno = 0;
    char *end;
    long long n = strtoll(v, &end, 10);
    bool digits = (v[0] >= '0' && v[0] <= '9') || (v[0] == '-' && v[1] >= '0' && v[1] <= '9');
    if (!digits || *end || errno || n < o->min || n > o->max)
        return bad(err, errlen, "%s needs an integer %s..%s, got \"%s\"", shown, lo, hi, v);
    *out = n;
    return GV_OK;
}

static int parse_seconds(const struct args_opt *o, const char *shown, const char *v, int64_t *out,
                         char *err, size_t errlen)
{
    size_t len = strlen(v);
    sim_time t = 0;
    int rc;
    char why[128] = "";
    if (len > 0 && units_number_len(v, len) == len) rc = units_exact(v, len, 12, &t);
    else rc = units_parse(v, &t, why, sizeof why);
    char lo[48], hi[48];
    fmt_time(o->min, lo, sizeof lo);
    fmt_time(o->max, hi, sizeof hi);
    char range[128];
    if (o->min <= 1) snprintf(range, sizeof range, "> 0 and at most %s", hi);
    else snprintf(range, sizeof range, "from %s to %s", lo, hi);
    if (rc == UNITS_ESYNTAX || rc == UNITS_EUNIT || rc == UNITS_ENOUNIT)
        return bad(err, errlen,
                   "%s needs seconds (e.g. 2.5) or a duration with a unit (%s; e.g. 500ms), "
                   "got \"%s\"", shown, UNITS_LIST, v);
    if (rc == UNITS_EPRECISION)
        return bad(err, errlen, "%s: \"%s\" is finer than a picosecond", shown, v);
    if (rc != UNITS_OK || t < o->min || t > o->max || v[0] == '-')
        return bad(err, errlen, "%s needs a time %s, got \"%s\"", shown, range, v);
    *out = t;
    return GV_OK;
}

static int enum_index(const struct args_opt *o, const char *v, size_t len)
{
    for (size_t i = 0; args_enum_value(o, i); i++) {
        const char *s = args_enum_value(o, i);
        if (strlen(s) == len && strncmp(s, v, len) == 0) return (int)i;
    }
    return -1;
}

static int unknown_value(const struct args_opt *o, const char *shown, const char *v, size_t len,
                         char *err, size_t errlen)
{
    const char *names[64];
    size_t n = 0;
    while (n < 64 && args_enum_value(o, n)) {
        names[n] = args_enum_value(o, n);
        n++;
    }
    char *given = strndup(v, len);
    if (!given) return GV_ENOMEM;
    const char *s = sch_suggest(given, names, n, sizeof *names);
    char list[512];
    join_values(o, ", ", " or ", list, sizeof list);
    if (s) bad(err, errlen, "%s: unknown value \"%s\" (did you mean \"%s\"?)", shown, given, s);
    else bad(err, errlen, "%s: unknown value \"%s\" (one of: %s)", shown, given, list);
    free(given);
    return GV_EUSAGE;
}

static int parse_enum(const struct args_opt *o, const char *shown, const char *v, int64_t *out,
                      char *err, size_t errlen)
{
    if (!(o->flags & ARGS_LIST)) {
        int i = enum_index(o, v, strlen(v));
        if (i < 0) return unknown_value(o, shown, v, strlen(v), err, errlen);
        *out = i;
        return GV_OK;
    }
    uint64_t mask = 0;
    for (const char *p = v;;) {
        size_t n = strcspn(p, ",");
        if (n == 0) return bad(err, errlen, "%s: empty item in \"%s\"", shown, v);
        int i = enum_index(o, p, n);
        if (i < 0) return unknown_value(o, shown, p, n, err, errlen);
        if (i >= 64) return bad(err, errlen, "%s: too many values", shown);
        if (mask & (UINT64_C(1) << i))
            return bad(err, errlen, "%s: \"%.*s\" given twice in \"%s\"", shown, (int)n, p, v);
        mask |= UINT64_C(1) << i;
        if (!p[n]) break;
        p += n + 1;
    }
    *out = (int64_t)mask;
    return GV_OK;
}

/* Check and convert one value of option o, given as `shown`. */
static int convert(const struct args_opt *o, const char *shown, const char *v, int64_t *num,
                   char *err, size_t errlen)
{
    int rc = GV_OK;
    *num = 0;
    switch (o->kind) {
    case ARGS_FLAG:
    case ARGS_STRING:
        break;
    case ARGS_PATH:
    case ARGS_DIR:
        if (!*v)
            rc = bad(err, errlen, "%s needs a %s name, got \"\"", shown,
                     o->kind == ARGS_DIR ? "directory" : "file");
        break;
    case ARGS_INT: rc = parse_int(o, shown, v, num, err, errlen); break;
    case ARGS_SECONDS: rc = parse_seconds(o, shown, v, num, err, errlen); break;
    case ARGS_ENUM: rc = parse_enum(o, shown, v, num, err, errlen); break;
    case ARGS_KV:
        if (!strchr(v, '=') || v[0] == '=')
            rc = bad(err, errlen, "%s needs KEY=VALUE, got \"%s\"", shown, v);
        break;
    }
    if (rc == GV_OK && o->check) {
        char why[512] = "";
        if (o->check(v, why, sizeof why) != 0) rc = bad(err, errlen, "%s: %s", shown, why);
    }
    return rc;
}

/* ---- parsing ---------------------------------------------------------- */

struct pstate {
    const struct args_spec *spec;
    size_t nopts;
    int nitems;
    int *item_opt;
    const char **item_str;
    int64_t *item_num;
    int *seen;
};

static int record(struct pstate *ps, const struct args_opt *o, const char *shown, const char *v,
                  char *err, size_t errlen)
{
    int idx = (int)(o - ps->spec->opts);
    if (ps->seen[idx] && o->kind != ARGS_FLAG && !(o->flags & ARGS_REPEAT))
        return bad(err, errlen, "option %s given twice (it takes one value)", shown);
    int64_t num = 0;
    int rc = convert(o, shown, v ? v : "", &num, err, errlen);
    if (rc != GV_OK) return rc;
    ps->seen[idx]++;
    ps->item_opt[ps->nitems] = idx;
    ps->item_str[ps->nitems] = v;
    ps->item_num[ps->nitems] = num;
    ps->nitems++;
    return GV_OK;
}

static bool numeric_kind(const struct args_opt *o)
{
    return o->kind == ARGS_INT || o->kind == ARGS_SECONDS;
}

/* The value of option o from the next argument (argv[*i + 1]). */
static int next_value(const struct args_opt *o, const char *shown, int argc, char **argv, int *i,
                      const char **v, char *err, size_t errlen)
{
    if (*i + 1 >= argc) return bad(err, errlen, "option %s needs a value", shown);
    const char *n = argv[*i + 1];
    bool dashed = n[0] == '-' && n[1] != 0;
    bool number = n[0] == '-' && ((n[1] >= '0' && n[1] <= '9') || n[1] == '.');
    if (dashed && !(numeric_kind(o) && number))
        return bad(err, errlen,
                   "option %s needs a value (for a value that starts with '-', write --%s=%s)",
                   shown, o->name, n);
    *v = n;
    ++*i;
    return GV_OK;
}

static int unknown_option(const struct pstate *ps, const char *a, size_t len, char *err,
                          size_t errlen)
{
    char *given = strndup(a, len);
    if (!given) return GV_ENOMEM;
    const char *s = NULL;
    if (given[1] == '-' && given[2])
        s = sch_suggest(given + 2, ps->spec->opts, ps->nopts, sizeof *ps->spec->opts);
    if (s) bad(err, errlen, "unknown option \"%s\" (did you mean \"--%s\"?)", given, s);
    else bad(err, errlen, "unknown option \"%s\"", given);
    free(given);
    return GV_EUSAGE;
}

static int parse_long(struct pstate *ps, int argc, char **argv, int *i, bool *help, char *err,
                      size_t errlen)
{
    const char *a = argv[*i], *name = a + 2, *eq = strchr(name, '=');
    size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
    if (!eq && strcmp(name, "help") == 0) {
        *help = true;
        return GV_OK;
    }
    const struct args_opt *o = NULL;
    for (size_t k = 0; k < ps->nopts && nlen; k++)
        if (strlen(ps->spec->opts[k].name) == nlen && !strncmp(ps->spec->opts[k].name, name, nlen))
            o = &ps->spec->opts[k];
    if (!o) return unknown_option(ps, a, eq ? (size_t)(eq - a) : strlen(a), err, errlen);
    char shown[80];
    snprintf(shown, sizeof shown, "--%s", o->name);
    if (o->kind == ARGS_FLAG) {
        if (eq) return bad(err, errlen, "option %s takes no value (got \"%s\")", shown, a);
        return record(ps, o, shown, NULL, err, errlen);
    }
    const char *v = eq ? eq + 1 : NULL;
    if (!v) {
        int rc = next_value(o, shown, argc, argv, i, &v, err, errlen);
        if (rc != GV_OK) return rc;
    }
    return record(ps, o, shown, v, err, errlen);
}

static int parse_short(struct pstate *ps, int argc, char **argv, int *i, bool *help, char *err,
                       size_t errlen)
{
    const char *a = argv[*i];
    for (size_t j = 1; a[j]; j++) {
        char shown[3] = { '-', a[j], 0 };
        if (a[j] == 'h') {
            *help = true;
            return GV_OK;
        }
        const struct args_opt *o = NULL;
        for (size_t k = 0; k < ps->nopts; k++)
            if (ps->spec->opts[k].short_name == a[j]) o = &ps->spec->opts[k];
        if (!o) return unknown_option(ps, shown, 2, err, errlen);
        if (o->kind == ARGS_FLAG) {
            int rc = record(ps, o, shown, NULL, err, errlen);
            if (rc != GV_OK) return rc;
            continue;
        }
        const char *v = a[j + 1] ? a + j + 1 : NULL;  /* -j4 */
        if (!v) {
            int rc = next_value(o, shown, argc, argv, i, &v, err, errlen);
            if (rc != GV_OK) return rc;
        }
        return record(ps, o, shown, v, err, errlen);
    }
    return GV_OK;
}

static int finish(struct pstate *ps, struct args *out, char *err, size_t errlen)
{
    const struct args_spec *spec = ps->spec;
    for (size_t k = 0; k < ps->nopts; k++)
        if ((spec->opts[k].flags & ARGS_REQUIRED) && !ps->seen[k])
            return bad(err, errlen, "option --%s is required", spec->opts[k].name);
    const char *what = spec->operand ? spec->operand : "ARGUMENT";
    for (int k = 0; k < out->noperands; k++)
        if (!out->operands[k][0]) return bad(err, errlen, "an empty %s (\"\") was given", what);
    if (out->noperands < spec->min_operands) return bad(err, errlen, "missing %s", what);
    if (spec->max_operands >= 0 && out->noperands > spec->max_operands) {
        if (spec->max_operands == 0)
            return bad(err, errlen, "unexpected argument \"%s\"", out->operands[0]);
        if (spec->max_operands == 1)
            return bad(err, errlen, "only one %s (got \"%s\" and \"%s\")", what, out->operands[0],
                       out->operands[1]);
        return bad(err, errlen, "at most %d %s arguments (got %d)", spec->max_operands, what,
                   out->noperands);
    }
    /* group the values by option, in the order given */
    for (int k = 0; k < ps->nitems; k++) out->count[ps->item_opt[k]]++;
    int off = 0;
    for (size_t k = 0; k < ps->nopts; k++) {
        out->first[k] = off;
        off += out->count[k];
    }
    int *fill = calloc(ps->nopts ? ps->nopts : 1, sizeof *fill);
    if (!fill) return GV_ENOMEM;
    for (int k = 0; k < ps->nitems; k++) {
        int o = ps->item_opt[k];
        int at = out->first[o] + fill[o]++;
        out->strs[at] = ps->item_str[k];
        out->nums[at] = ps->item_num[k];
    }
    free(fill);
    return GV_OK;
}

int args_parse(const struct args_spec *spec, int argc, char **argv, struct args *out, char *err,
               size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->spec = spec;
    out->argc = argc;
    out->argv = argv;
    struct pstate ps = { .spec = spec, .nopts = count_opts(spec) };
    size_t n = (size_t)(argc > 0 ? argc : 1), no = ps.nopts ? ps.nopts : 1;
    ps.item_opt = calloc(n, sizeof *ps.item_opt);
    ps.item_str = calloc(n, sizeof *ps.item_str);
    ps.item_num = calloc(n, sizeof *ps.item_num);
    ps.seen = calloc(no, sizeof *ps.seen);
    out->operands = calloc(n, sizeof *out->operands);
    out->count = calloc(no, sizeof *out->count);
    out->first = calloc(no, sizeof *out->first);
    out->strs = calloc(n, sizeof *out->strs);
    out->nums = calloc(n, sizeof *out->nums);
    int rc = GV_OK;
    if (!ps.item_opt || !ps.item_str || !ps.item_num || !ps.seen || !out->operands ||
        !out->count || !out->first || !out->strs || !out->nums) {
        rc = gv_fail(err, errlen, GV_ENOMEM, "out of memory");
        goto done;
    }
    bool only_operands = false;
    for (int i = 1; i < argc && rc == GV_OK && !out->help; i++) {
        const char *a = argv[i];
        if (only_operands || a[0] != '-' || a[1] == 0) out->operands[out->noperands++] = a;
        else if (strcmp(a, "--") == 0) only_operands = true;
        else if (a[1] == '-') rc = parse_long(&ps, argc, argv, &i, &out->help, err, errlen);
        else rc = parse_short(&ps, argc, argv, &i, &out->help, err, errlen);
    }
    if (rc == GV_OK && !out->help) rc = finish(&ps, out, err, errlen);
    if (rc == GV_ENOMEM) gv_fail(err, errlen, GV_ENOMEM, "out of memory");
done:
    free(ps.item_opt);
    free(ps.item_str);
    free(ps.item_num);
    free(ps.seen);
    if (rc != GV_OK) args_free(out);
    return rc;
}

void args_free(struct args *a)
{
    free(a->operands);
    free(a->count);
    free(a->first);
    free(a->strs);
    free(a->nums);
    const struct args_spec *spec = a->spec;
    memset(a, 0, sizeof *a);
    a->spec = spec;
}

/* ---- readers ---------------------------------------------------------- */

static int index_of(const struct args *a, const char *name)
{
    const struct args_opt *o = args_find(a->spec, name);
    assert(o && "args: option not in the command's table");
    return o ? (int)(o - a->spec->opts) : -1;
}

int args_count(const struct args *a, const char *name)
{
    int k = index_of(a, name);
    return k < 0 || !a->count ? 0 : a->count[k];
}

bool args_has(const struct args *a, const char *name)
{
    return args_count(a, name) > 0;
}

const char *args_str(const struct args *a, const char *name, const char *def)
{
    int k = index_of(a, name), n = args_count(a, name);
    return n ? a->strs[a->first[k] + n - 1] : def;
}

int64_t args_num(const struct args *a, const char *name, int64_t def)
{
    int k = index_of(a, name), n = args_count(a, name);
    return n ? a->nums[a->first[k] + n - 1] : def;
}

const char *const *args_strs(const struct args *a, const char *name)
{
    int k = index_of(a, name);
    return k < 0 || !a->strs ? NULL : a->strs + a->first[k];
}
