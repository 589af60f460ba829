/* rowsread.c - result rows from CSV, JSON or JSON Lines (see rowsread.h).
 *
 * The JSON reader is a small strict parser of the one shape gvlsim writes
 * (flat objects), not cJSON: it keeps numbers exactly as written (cJSON
 * turns them into doubles), so a row read back and written again is the
 * same bytes, and it needs no tree for a file of a million rows. */
#include "rowsread.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/sbuf.h"
#include "csv.h"

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n > m && strcmp(s + n - m, suf) == 0;
}

enum rows_format rowsr_format(const char *path, const char *text)
{
    if (path) {
        if (has_suffix(path, ".csv")) return ROWS_CSV;
        if (has_suffix(path, ".json")) return ROWS_JSON;
        if (has_suffix(path, ".jsonl") || has_suffix(path, ".ndjson")) return ROWS_JSONL;
    }
    if (text) {
        text += strspn(text, " \t\r\n");
        if (*text == '[') return ROWS_JSON;
        if (*text == '{') return ROWS_JSONL;
    }
    return ROWS_CSV;
}

/* ---- a growing array of strings and kinds -------------------------------- */

struct cellbuf {
    char **v;
    unsigned char *k;
    size_t n, cap;
};

static int cb_push(struct cellbuf *b, char *s, unsigned char kind)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        char **nv = realloc(b->v, cap * sizeof *nv);
        if (!nv) return -1;
        b->v = nv;
        unsigned char *nk = realloc(b->k, cap);
        if (!nk) return -1;
        b->k = nk;
        b->cap = cap;
    }
    b->v[b->n] = s;
    b->k[b->n] = kind;
    b->n++;
    return 0;
}

static void cb_free(struct cellbuf *b)
{
    for (size_t i = 0; i < b->n; i++) free(b->v[i]);
    free(b->v);
    free(b->k);
    memset(b, 0, sizeof *b);
}

/* ---- the JSON parser -------------------------------------------------------- */

struct jp {
    const char *p, *line_start;
    int line;
    const char *name;
    char *err;
    size_t errlen;
    int rc;          /* first error */
};

static int jp_fail(struct jp *j, const char *fmt, const char *what)
{
    if (j->rc == GV_OK) {
        char msg[256];
        snprintf(msg, sizeof msg, fmt, what);
        j->rc = gv_fail(j->err, j->errlen, GV_EINVAL, "%s:%d:%d: %s", j->name, j->line,
                        (int)(j->p - j->line_start) + 1, msg);
    }
    return -1;
}

static int jp_oom(struct jp *j)
{
    if (j->rc == GV_OK) j->rc = gv_fail(j->err, j->errlen, GV_ENOMEM, "%s: out of memory", j->name);
    return -1;
}

/* Skip white space; newlines too unless `stop_at_newline` (JSON Lines). */
static void jp_ws(struct jp *j, bool stop_at_newline)
{
    for (;;) {
        char c = *j->p;
        if (c == ' ' || c == '\t' || c == '\r') j->p++;
        else if (c == '\n' && !stop_at_newline) {
            j->p++;
            j->line++;
            j->line_start = j->p;
        } else return;
    }
}

static void put_utf8(struct sbuf *b, unsigned c)
{
    char u[4];
    size_t n;
    if (c < 0x80) { u[0] = (char)c; n = 1; }
    else if (c < 0x800) { u[0] = (char)(0xc0 | (c >> 6)); u[1] = (char)(0x80 | (c & 0x3f)); n = 2; }
    else if (c < 0x10000) {
        u[0] = (char)(0xe0 | (c >> 12)); u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
        u[2] = (char)(0x80 | (c & 0x3f)); n = 3;
    } else {
        u[0] = (char)(0xf0 | (c >> 18)); u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
        u[2] = (char)(0x80 | ((c >> 6) & 0x3f)); u[3] = (char)(0x80 | (c & 0x3f)); n = 4;
    }
    sbuf_putn(b, u, n);
}

static int hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

/* A string at j->p (on its '"'); the decoded text, malloc'ed, or NULL. */
static char *jp_string(struct jp *j)
{
    struct sbuf b = { 0 };
    j->p++;
    for (;;) {
        const char *run = j->p;
        while ((unsigned char)*j->p >= 0x20 && *j->p != '"' && *j->p != '\\') j->p++;
        sbuf_putn(&b, run, (size_t)(j->p - run));
        char c = *j->p;
        if (c == '"') {
            j->p++;
            break;
        }
        if (c == 0) {
            free(b.s);
            jp_fail(j, "%s", "unterminated string");
            return NULL;
        }
        if (c != '\\') {
            free(b.s);
            jp_fail(j, "%s", "a raw control character in a string (escape it)");
            return NULL;
        }
        char e = j->p[1];
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e && simple) {
            static const char out[] = "\"\\/\b\f\n\r\t";
            sbuf_putn(&b, &out[simple - "\"\\/bfnrt"], 1);
            j->p += 2;
            continue;
        }
        unsigned u;
        if (e != 'u' || hex4(j->p + 2, &u) != 0) {
            free(b.s);
            jp_fail(j, "%s", "an invalid escape in a string");
            return NULL;
        }
        j->p += 6;
        if (u >= 0xd800 && u <= 0xdbff) {  /* a surrogate pair */
            unsigned lo;
            if (j->p[0] != '\\' || j->p[1] != 'u' || hex4(j->p + 2, &lo) != 0 || lo < 0xdc00 ||
                lo > 0xdfff) {
                free(b.s);
                jp_fail(j, "%s", "an unpaired surrogate in a string");
                return NULL;
            }
            j->p += 6;
            u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
        } else if ((u >= 0xdc00 && u <= 0xdfff) || u == 0) {
            free(b.s);
            jp_fail(j, "%s", u ? "an unpaired surrogate in a string" : "\\u0000 in a string");
            return NULL;
        }
        put_utf8(&b, u);
    }
    char *s = sbuf_take(&b);
    if (!s) jp_oom(j);
    return s;
}

/* A number's lexeme at j->p, as written; NULL if there is none. */
static char *jp_number(struct jp *j)
{
    const char *s = j->p;
    size_t n = strspn(s, "-+0123456789.eE");
    if (n == 0 || !rows_json_number(s, n)) {
        jp_fail(j, "%s", "not a JSON value");
        return NULL;
    }
    j->p += n;
    char *v = strndup(s, n);
    if (!v) jp_oom(j);
    return v;
}

static bool jp_word(struct jp *j, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(j->p, w, n) != 0) return false;
    char c = j->p[n];
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return false;
    j->p += n;
    return true;
}

/* One value of a row: its text (malloc'ed) and kind. */
static char *jp_value(struct jp *j, bool jsonl, unsigned char *kind)
{
    char c = *j->p;
    if (c == '"') {
        *kind = ROW_TEXT;
        return jp_string(j);
    }
    if (c == '[') {  /* a list of numbers */
        struct sbuf b = { 0 };
        j->p++;
        jp_ws(j, jsonl);
        bool first = true;
        while (*j->p != ']') {
            if (!first) {
                if (*j->p != ',') {
                    free(b.s);
                    jp_fail(j, "%s", "expected ',' or ']' in an array");
                    return NULL;
                }
                j->p++;
                jp_ws(j, jsonl);
                sbuf_putn(&b, ";", 1);
            }
            if (*j->p == '{' || *j->p == '[' || *j->p == '"') {
                free(b.s);
                jp_fail(j, "%s", "a row's array holds numbers only");
                return NULL;
            }
            char *num = jp_number(j);
            if (!num) {
                free(b.s);
                return NULL;
            }
            sbuf_putn(&b, num, strlen(num));
            free(num);
            first = false;
            jp_ws(j, jsonl);
        }
        j->p++;
        *kind = ROW_LIST;
        char *s = sbuf_take(&b);
        if (!s) jp_oom(j);
        return s;
    }
    if (c == '{') {
        jp_fail(j, "%s", "a nested object: a row's values are strings, numbers, null or arrays");
        return NULL;
    }
    const char *word = jp_word(j, "null") ? "" : jp_word(j, "true") ? "true"
                                            : jp_word(j, "false") ? "false" : NULL;
    if (word) {
        *kind = *word ? ROW_TEXT : ROW_NULL;
        char *s = strdup(word);
        if (!s) jp_oom(j);
        return s;
    }
    *kind = ROW_NUM;
    return jp_number(j);
}

struct jtable {
    struct cellbuf header;   /* column names */
    struct cellbuf cells;    /* row-major */
    int *lines;
    size_t nrows, lcap;
};

/* One object at j->p (on its '{'): the first one defines the columns. */
static int jp_object(struct jp *j, struct jtable *t, bool jsonl)
{
    int line = j->line;
    bool first_row = t->header.n == 0 && t->nrows == 0;
    size_t ncols = t->header.n;
    char **vals = NULL;
    unsigned char *kinds = NULL;
    size_t nvals = 0, vcap = 0;
    if (!first_row) {
        vals = calloc(ncols ? ncols : 1, sizeof *vals);
        kinds = calloc(ncols ? ncols : 1, 1);
        if (!vals || !kinds) {
            free(vals);
            free(kinds);
            return jp_oom(j);
        }
    }
    j->p++;
    jp_ws(j, jsonl);
    int rc = 0;
    while (*j->p != '}') {
        if (nvals > 0) {
            if (*j->p != ',') {
                rc = jp_fail(j, "%s", "expected ',' or '}' in an object");
                break;
            }
            j->p++;
            jp_ws(j, jsonl);
        }
        if (*j->p != '"') {
            rc = jp_fail(j, "%s", "expected a key (a string)");
            break;
        }
        const char *key_at = j->p;
        char *key = jp_string(j);
        if (!key) {
            rc = -1;
            break;
        }
        jp_ws(j, jsonl);
        if (*j->p != ':') {
            free(key);
            rc = jp_fail(j, "%s", "expected ':' after a key");
            break;
        }
        j->p++;
        jp_ws(j, jsonl);
        unsigned char kind;
        char *v = jp_value(j, jsonl, &kind);
        if (!v) {
            free(key);
            rc = -1;
            break;
        }
        jp_ws(j, jsonl);
        if (first_row) {
            for (size_t i = 0; i < t->header.n && rc == 0; i++)
                if (strcmp(t->header.v[i], key) == 0) {
                    const char *at = j->p;
                    j->p = key_at;
                    rc = jp_fail(j, "key \"%s\" twice in one object", key);
                    j->p = at;
                }
            if (rc == 0 && nvals == vcap) {
                vcap = vcap ? 2 * vcap : 64;
                char **nv = realloc(vals, vcap * sizeof *nv);
                if (nv) vals = nv;
                unsigned char *nk = nv ? realloc(kinds, vcap) : NULL;
                if (nk) kinds = nk;
                if (!nv || !nk) rc = jp_oom(j);
            }
            if (rc == 0 && cb_push(&t->header, key, ROW_TEXT) != 0) rc = jp_oom(j);
            if (rc != 0) {
                if (t->header.n == 0 || t->header.v[t->header.n - 1] != key) free(key);
                free(v);
                break;
            }
            vals[nvals] = v;
            kinds[nvals] = kind;
        } else {
            size_t c = 0;
            while (c < ncols && strcmp(t->header.v[c], key) != 0) c++;
            const char *at = j->p;
            j->p = key_at;
            if (c == ncols) rc = jp_fail(j, "key \"%s\" is not a column of the first row", key);
            else if (vals[c]) rc = jp_fail(j, "key \"%s\" twice in one object", key);
            j->p = at;
            free(key);
            if (rc != 0) {
                free(v);
                break;
            }
            vals[c] = v;
            kinds[c] = kind;
        }
        nvals++;
    }
    if (rc == 0) {
        j->p++;
        if (first_row) ncols = nvals;
        for (size_t c = 0; c < ncols && rc == 0; c++)
            if (!vals[c]) rc = jp_fail(j, "key \"%s\" missing (every row has the first row's keys)",
                                       t->header.v[c]);
    }
    if (rc == 0 && ncols == 0) rc = jp_fail(j, "%s", "an empty object: no columns");
    if (rc == 0 && t->nrows == t->lcap) {
        t->lcap = t->lcap ? 2 * t->lcap : 64;
        int *nl = realloc(t->lines, t->lcap * sizeof *nl);
        if (!nl) rc = jp_oom(j);
        else t->lines = nl;
    }
    size_t c = 0;
    for (; rc == 0 && c < ncols; c++) {
        if (cb_push(&t->cells, vals[c], kinds[c]) != 0) {
            rc = jp_oom(j);
            break;
        }
    }
    /* whatever was not handed over */
    for (size_t i = c; i < (first_row ? nvals : ncols); i++) free(vals[i]);
    free(vals);
    free(kinds);
    if (rc != 0) return -1;
    t->lines[t->nrows++] = line;
    return 0;
}

static int jp_table(struct jp *j, enum rows_format fmt, struct jtable *t)
{
    bool jsonl = fmt == ROWS_JSONL;
    if (!jsonl) {
        jp_ws(j, false);
        if (*j->p != '[') return jp_fail(j, "%s", "expected '[': a JSON file of rows is an array of objects");
        j->p++;
        jp_ws(j, false);
        bool first = true;
        while (*j->p != ']') {
            if (!first) {
                if (*j->p != ',') return jp_fail(j, "%s", "expected ',' or ']' between rows");
                j->p++;
                jp_ws(j, false);
            }
            if (*j->p != '{') return jp_fail(j, "%s", "expected '{': each row is an object");
            if (jp_object(j, t, false) != 0) return -1;
            jp_ws(j, false);
            first = false;
        }
        j->p++;
        jp_ws(j, false);
        if (*j->p) return jp_fail(j, "%s", "text after the array");
        return 0;
    }
    while (*j->p) {
        jp_ws(j, true);
        if (*j->p != '{') return jp_fail(j, "%s", "expected '{': each line of JSON Lines is one object");
        if (jp_object(j, t, true) != 0) return -1;
        jp_ws(j, true);
        if (*j->p == '\n') {
            j->p++;
            j->line++;
            j->line_start = j->p;
        } else if (*j->p) {
            return jp_fail(j, "%s", "text after the object (one object per line)");
        }
    }
    return 0;
}

static int parse_json(const char *text, const char *name, enum rows_format fmt, struct csv_table *t,
                      char *err, size_t errlen)
{
    struct jp j = { .p = text, .line_start = text, .line = 1, .name = name, .err = err,
                    .errlen = errlen, .rc = GV_OK };
    struct jtable jt = { 0 };
    if (jp_table(&j, fmt, &jt) == 0 && jt.header.n == 0)
        j.rc = gv_fail(err, errlen, GV_EINVAL, "%s: no rows (the columns are the keys of the first row)",
                       name);
    if (j.rc != GV_OK) {
        cb_free(&jt.header);
        cb_free(&jt.cells);
        free(jt.lines);
        return j.rc;
    }
    /* one array: the header, then the cells (csvr_free's layout) */
    size_t ncells = jt.header.n + jt.cells.n;
    char **all = malloc(ncells * sizeof *all);
    unsigned char *kinds = jt.cells.n ? malloc(jt.cells.n) : NULL;
    if (!all || (jt.cells.n && !kinds)) {
        free(all);
        free(kinds);
        cb_free(&jt.header);
        cb_free(&jt.cells);
        free(jt.lines);
        return gv_fail(err, errlen, GV_ENOMEM, "%s: out of memory", name);
    }
    memcpy(all, jt.header.v, jt.header.n * sizeof *all);
    if (jt.cells.n) {
        memcpy(all + jt.header.n, jt.cells.v, jt.cells.n * sizeof *all);
        memcpy(kinds, jt.cells.k, jt.cells.n);
    }
    t->ncols = (int)jt.header.n;
    t->header = all;
    t->cells = all + jt.header.n;
    t->nrows = jt.nrows;
    t->lines = jt.lines;
    t->kinds = kinds;
    free(jt.header.v);
    free(jt.header.k);
    free(jt.cells.v);
    free(jt.cells.k);
    return GV_OK;
}

int rowsr_parse(const char *text, const char *name, enum rows_format fmt, struct csv_table *t,
                char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (fmt == ROWS_CSV) return csvr_parse(text, name, t, err, errlen);
    return parse_json(text, name, fmt, t, err, errlen);
}

int rowsr_read(const char *path, struct csv_table *t, enum rows_format *fmt, char *err,
               size_t errlen)
{
    char *text = NULL;
    memset(t, 0, sizeof *t);
    int rc = csvr_read_text(path, &text, err, errlen);
    if (rc != GV_OK) return rc;
    enum rows_format f = rowsr_format(path, text);
    if (fmt) *fmt = f;
    rc = rowsr_parse(text, path, f, t, err, errlen);
    free(text);
    return rc;
}

enum row_cell_kind rowsr_kind(const struct csv_table *t, size_t r, int c)
{
    if (t->kinds) return (enum row_cell_kind)t->kinds[r * (size_t)t->ncols + (size_t)c];
    const char *v = csvr_cell(t, r, c);
    int known = csv_column_kind(t->header[c]);
    if (known == ROW_TEXT || known == ROW_LIST) return (enum row_cell_kind)known;
    if (!*v) return ROW_NULL;
    if (known == ROW_NUM || rows_json_number(v, strlen(v))) return ROW_NUM;
    return ROW_TEXT;
}
