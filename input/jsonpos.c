/* jsonpos.c - a cJSON-compatible scanner and the node -> position table. */
#include "jsonpos.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "units.h"

/* ---- the table ----------------------------------------------------------- */

struct jpos_doc {
    char *name;
    char *text;
    size_t len;
};

/* 32 bytes a node: a 64 MiB file can hold tens of millions of values. */
struct jpos_ent {
    const cJSON *node;   /* NULL = empty slot */
    int32_t line, col, key_line, key_col;
    uint32_t doc;
    uint32_t off;        /* value's byte offset in the doc; NO_TEXT if none */
};
#define NO_TEXT UINT32_MAX

struct jpos_table {
    struct jpos_doc *docs;
    size_t ndocs, capdocs;
    struct jpos_ent *ents;
    size_t count, cap;   /* cap is 0 or a power of two */
};

int jpos_new(struct jpos_table **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? GV_OK : GV_ENOMEM;
}

void jpos_free(struct jpos_table *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->ndocs; i++) {
        free(t->docs[i].name);
        free(t->docs[i].text);
    }
    free(t->docs);
    free(t->ents);
    free(t);
}

int jpos_add_doc(struct jpos_table *t, const char *name, char *text, size_t len, int *doc)
{
    if (t->ndocs == t->capdocs) {
        size_t cap = t->capdocs ? t->capdocs * 2 : 4;
        struct jpos_doc *d = realloc(t->docs, cap * sizeof *d);
        if (!d) { free(text); return GV_ENOMEM; }
        t->docs = d;
        t->capdocs = cap;
    }
    char *nm = strdup(name);
    if (!nm) { free(text); return GV_ENOMEM; }
    t->docs[t->ndocs] = (struct jpos_doc){ nm, text, len };
    *doc = (int)t->ndocs++;
    return GV_OK;
}

const char *jpos_doc_name(const struct jpos_table *t, int doc)
{
    return doc >= 0 && (size_t)doc < t->ndocs ? t->docs[doc].name : "<input>";
}

static size_t slot_of(const struct jpos_table *t, const cJSON *node)
{
    uint64_t h = (uint64_t)(uintptr_t)node;
    h ^= h >> 29;
    h *= 0x9E3779B97F4A7C15ULL;
    return (size_t)(h >> 20) & (t->cap - 1);
}

static struct jpos_ent *find(const struct jpos_table *t, const cJSON *node)
{
    if (!t->cap) return NULL;
    for (size_t i = slot_of(t, node);; i = (i + 1) & (t->cap - 1)) {
        if (t->ents[i].node == node) return &t->ents[i];
        if (!t->ents[i].node) return NULL;
    }
}

static int grow(struct jpos_table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 256;
    struct jpos_ent *e = calloc(cap, sizeof *e);
    if (!e) return GV_ENOMEM;
    struct jpos_ent *old = t->ents;
    size_t oldcap = t->cap;
    t->ents = e;
    t->cap = cap;
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i].node) continue;
        size_t j = slot_of(t, old[i].node);
        while (e[j].node) j = (j + 1) & (cap - 1);
        e[j] = old[i];
    }
    free(old);
    return GV_OK;
}

static int table_put(struct jpos_table *t, const struct jpos_ent *ent)
{
    struct jpos_ent *e = find(t, ent->node);
    if (e) { *e = *ent; return GV_OK; }
    if ((t->count + 1) * 10 >= t->cap * 7 && grow(t) != GV_OK) return GV_ENOMEM;
    size_t j = slot_of(t, ent->node);
    while (t->ents[j].node) j = (j + 1) & (t->cap - 1);
    t->ents[j] = *ent;
    t->count++;
    return GV_OK;
}

int jpos_put(struct jpos_table *t, const cJSON *node, int doc, int line, int col,
             int key_line, int key_col)
{
    struct jpos_ent e = { node, line, col, key_line, key_col, (uint32_t)doc, NO_TEXT };
    return table_put(t, &e);
}

int jpos_set_key(struct jpos_table *t, const cJSON *node, int key_line, int key_col)
{
    struct jpos_ent *e = find(t, node);
    if (e) {
        e->key_line = key_line;
        e->key_col = key_col;
    }
    return GV_OK;
}

int jpos_get(const struct jpos_table *t, const cJSON *node, struct jpos *out)
{
    const struct jpos_ent *e = find(t, node);
    memset(out, 0, sizeof *out);
    out->doc = -1;
    if (!e) return 0;
    out->doc = (int)e->doc;
    out->file = jpos_doc_name(t, (int)e->doc);
    out->line = e->line;
    out->col = e->col;
    out->key_line = e->key_line;
    out->key_col = e->key_col;
    if (e->off != NO_TEXT && e->doc < t->ndocs) out->text = t->docs[e->doc].text + e->off;
    return 1;
}

/* Length of the run of [0-9+-.eE] at s: what cJSON hands to strtod. */
static size_t number_run(const char *s, size_t cap)
{
    size_t n = 0;
    while ((cap == 0 || n < cap) && s[n] && strchr("0123456789+-eE.", s[n])) n++;
    return n;
}

const char *jpos_number_text(const struct jpos_table *t, const cJSON *node, size_t *len)
{
    struct jpos p;
    if (!jpos_get(t, node, &p) || !p.text) return NULL;
    *len = units_number_len(p.text, number_run(p.text, 0));
    return *len ? p.text : NULL;
}

void jpos_linecol(const char *text, size_t off, int *line, int *col)
{
    int l = 1, c = 1;
    size_t i = strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;  /* a byte order mark is no column */
    for (; i < off && text[i]; i++) {
        unsigned char b = (unsigned char)text[i];
        if (b == '\n') { l++; c = 1; }
        else if ((b & 0xC0) != 0x80) c++;
    }
    *line = l;
    *col = c;
}

/* ---- the scanner: cJSON 1.7's grammar, quirks included ----------------------
 * Each step mirrors cJSON.c (parse_value, parse_string, parse_number,
 * parse_array, parse_object, buffer_skip_whitespace): whitespace is any byte
 * <= 32, "\uZZZZ" is accepted (parse_hex4 returns 0), a number is what
 * strtod reads of the run of [0-9+-.eE], and `len` includes the NUL.
 * cJSON up to 1.7.18 copies at most 63 characters of that run (a longer
 * number is a syntax error); 1.7.19, and distributions that backported the
 * fix for CVE-2023-26819, take any length: `numcap` is 63 or 0. */

struct iter {            /* pre-order walk of a cJSON tree, explicit stack */
    const cJSON *stack[2 * JPOS_MAX_DEPTH + 8];
    int sp;
};

struct scan {
    const unsigned char *s;
    size_t len;          /* text length + 1 (the NUL), as cJSON's buffer_length */
    size_t off;
    size_t numcap;       /* 0: numbers of any length; 63: cJSON <= 1.7.18 */
    /* zip state (NULL table: validation only) */
    struct jpos_table *t;
    int doc, col0;
    struct iter it;
    size_t lc_off;       /* line/col below are those of s[lc_off] */
    int line, col;
    int bad;             /* 1: tree and text disagree, 2: out of memory */
};

static const cJSON *iter_next(struct iter *it)
{
    if (it->sp == 0) return NULL;
    const cJSON *n = it->stack[--it->sp];
    const int cap = (int)(sizeof it->stack / sizeof it->stack[0]);
    /* Depth is limited by the pre-pass; a full stack shows up as a mismatch. */
    if (n->next && it->sp < cap) it->stack[it->sp++] = n->next;
    if (n->child && it->sp < cap) it->stack[it->sp++] = n->child;
    return n;
}

static void sync_to(struct scan *sc, size_t off, int *line, int *col)
{
    for (; sc->lc_off < off; sc->lc_off++) {
        unsigned char b = sc->s[sc->lc_off];
        if (b == '\n') { sc->line++; sc->col = 1; }
        else if ((b & 0xC0) != 0x80) sc->col++;
    }
    *line = sc->line;
    *col = sc->col + (sc->line == 1 ? sc->col0 : 0);
}

static int type_matches(const cJSON *n, unsigned char c)
{
    switch (c) {
    case '{': return cJSON_IsObject(n);
    case '[': return cJSON_IsArray(n);
    case '"': return cJSON_IsString(n);
    case 'n': return cJSON_IsNull(n);
    case 't': return cJSON_IsTrue(n);
    case 'f': return cJSON_IsFalse(n);
    default: return cJSON_IsNumber(n);
    }
}

/* A value starts at sc->off; key_off is its member key's offset or SIZE_MAX. */
static void scan_record(struct scan *sc, size_t key_off)
{
    if (!sc->t || sc->bad) return;
    const cJSON *n = iter_next(&sc->it);
    if (!n || (key_off != SIZE_MAX) != (n->string != NULL) || !type_matches(n, sc->s[sc->off])) {
        sc->bad = 1;
        return;
    }
    struct jpos_ent e = { n, 0, 0, 0, 0, (uint32_t)sc->doc, (uint32_t)sc->off };
    if (key_off != SIZE_MAX) sync_to(sc, key_off, &e.key_line, &e.key_col);
    sync_to(sc, sc->off, &e.line, &e.col);
    if (table_put(sc->t, &e) != GV_OK) sc->bad = 2;
}

static int can_read(const struct scan *sc, size_t n) { return sc->off + n <= sc->len; }
static int can_at(const struct scan *sc, size_t i) { return sc->off + i < sc->len; }

static void skip_ws(struct scan *sc)
{
    if (!can_at(sc, 0)) return;
    while (can_at(sc, 0) && sc->s[sc->off] <= 32) sc->off++;
    if (sc->off == sc->len) sc->off--;
}

static unsigned hex4(const unsigned char *p)
{
    unsigned h = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p[i];
        if (c >= '0' && c <= '9') h = h * 16 + (unsigned)(c - '0');
        else if (c >= 'A' && c <= 'F') h = h * 16 + 10u + (unsigned)(c - 'A');
        else if (c >= 'a' && c <= 'f') h = h * 16 + 10u + (unsigned)(c - 'a');
        else return 0;
    }
    return h;
}

static int scan_string(struct scan *sc)
{
    const unsigned char *s = sc->s;
    if (s[sc->off] != '"') return 0;
    size_t end = sc->off + 1;
    while (end < sc->len && s[end] != '"') {
        if (s[end] == '\\') {
            if (end + 1 >= sc->len) return 0;
            end++;
        }
        end++;
    }
    if (end >= sc->len || s[end] != '"') return 0;
    for (size_t p = sc->off + 1; p < end;) {
        if (s[p] != '\\') { p++; continue; }
        size_t seq = 2;
        switch (s[p + 1]) {
        case 'b': case 'f': case 'n': case 'r': case 't': case '"': case '\\': case '/':
            break;
        case 'u': {
            if (end - p < 6) return 0;
            unsigned first = hex4(s + p + 2);
            if (first >= 0xDC00 && first <= 0xDFFF) return 0;
            seq = 6;
            if (first >= 0xD800 && first <= 0xDBFF) {
                size_t q = p + 6;
                if (end - q < 6 || s[q] != '\\' || s[q + 1] != 'u') return 0;
                unsigned second = hex4(s + q + 2);
                if (second < 0xDC00 || second > 0xDFFF) return 0;
                seq = 12;
            }
            break;
        }
        default:
            return 0;
        }
        p += seq;
    }
    sc->off = end + 1;
    return 1;
}

static int scan_value(struct scan *sc, size_t key_off, int depth);

static int scan_array(struct scan *sc, int depth)
{
    sc->off++;
    skip_ws(sc);
    if (can_at(sc, 0) && sc->s[sc->off] == ']') { sc->off++; return 1; }
    if (!can_at(sc, 0)) return 0;
    sc->off--;
    do {
        sc->off++;
        skip_ws(sc);
        if (!scan_value(sc, SIZE_MAX, depth + 1)) return 0;
        skip_ws(sc);
    } while (can_at(sc, 0) && sc->s[sc->off] == ',');
    if (!can_at(sc, 0) || sc->s[sc->off] != ']') return 0;
    sc->off++;
    return 1;
}

static int scan_object(struct scan *sc, int depth)
{
    sc->off++;
    skip_ws(sc);
    if (can_at(sc, 0) && sc->s[sc->off] == '}') { sc->off++; return 1; }
    if (!can_at(sc, 0)) return 0;
    sc->off--;
    do {
        sc->off++;
        skip_ws(sc);
        size_t key_off = sc->off;
        if (!can_at(sc, 0) || !scan_string(sc)) return 0;
        skip_ws(sc);
        if (!can_at(sc, 0) || sc->s[sc->off] != ':') return 0;
        sc->off++;
        skip_ws(sc);
        if (!scan_value(sc, key_off, depth + 1)) return 0;
        skip_ws(sc);
    } while (can_at(sc, 0) && sc->s[sc->off] == ',');
    if (!can_at(sc, 0) || sc->s[sc->off] != '}') return 0;
    sc->off++;
    return 1;
}

static int scan_value(struct scan *sc, size_t key_off, int depth)
{
    const char *p = (const char *)sc->s + sc->off;
    if (depth > JPOS_MAX_DEPTH + 1) return 0;  /* never: the pre-pass limits depth */
    if (can_read(sc, 4) && !strncmp(p, "null", 4)) { scan_record(sc, key_off); sc->off += 4; return 1; }
    if (can_read(sc, 5) && !strncmp(p, "false", 5)) { scan_record(sc, key_off); sc->off += 5; return 1; }
    if (can_read(sc, 4) && !strncmp(p, "true", 4)) { scan_record(sc, key_off); sc->off += 4; return 1; }
    if (!can_at(sc, 0)) return 0;
    unsigned char c = sc->s[sc->off];
    if (c == '"') {
        scan_record(sc, key_off);
        return scan_string(sc);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        size_t n = units_number_len(p, number_run(p, sc->numcap));
        if (!n) return 0;
        scan_record(sc, key_off);
        sc->off += n;
        return 1;
    }
    if (c == '[') { scan_record(sc, key_off); return scan_array(sc, depth); }
    if (c == '{') { scan_record(sc, key_off); return scan_object(sc, depth); }
    return 0;
}

static int scan_doc(struct scan *sc)
{
    if (sc->len == 0) return 0;
    if (can_at(sc, 4) && !strncmp((const char *)sc->s, "\xEF\xBB\xBF", 3)) {
        sc->off = 3;
        sc->lc_off = 3;  /* a byte order mark is not a column */
    }
    skip_ws(sc);
    if (!scan_value(sc, SIZE_MAX, 1)) return 0;
    skip_ws(sc);
    return can_at(sc, 0) && sc->s[sc->off] == '\0';
}

/* 1 if valid; else 0 and *fail = where the scanner stopped. */
static int validate(const char *text, size_t len, size_t numcap, size_t *fail)
{
    struct scan sc;
    memset(&sc, 0, sizeof sc);
    sc.s = (const unsigned char *)text;
    sc.len = len + 1;
    sc.numcap = numcap;
    int ok = scan_doc(&sc);
    *fail = sc.off;
    return ok;
}

/* ---- parsing ------------------------------------------------------------- */

/* NUL bytes and nesting depth, checked before cJSON sees the text: cJSON's
 * own limit is 1000 levels and a NUL would end the text early. */
static int prepass(const char *name, const char *s, size_t len, int col0, struct diag_list *diags)
{
    int depth = 0, in_str = 0, esc = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        int line, col;
        if (c == '\0') {
            jpos_linecol(s, i, &line, &col);
            diag_at(diags, name, line, col + (line == 1 ? col0 : 0), NULL,
                    "NUL byte in the text (is this a JSON file?)");
            return GV_EINVAL;
        }
        if (in_str) {
            if (esc) esc = 0;
            else if (c == '\\') esc = 1;
            else if (c == '"') in_str = 0;
        } else if (c == '"') {
            in_str = 1;
        } else if (c == '[' || c == '{') {
            if (++depth > JPOS_MAX_DEPTH) {
                jpos_linecol(s, i, &line, &col);
                diag_at(diags, name, line, col + (line == 1 ? col0 : 0), NULL,
                        "nesting deeper than %d levels", JPOS_MAX_DEPTH);
                return GV_EINVAL;
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return GV_OK;
}

static void syntax_error(const char *name, const char *text, size_t len, size_t off, int col0,
                         struct diag_list *diags)
{
    int line, col;
    jpos_linecol(text, off, &line, &col);
    col += line == 1 ? col0 : 0;
    size_t i = off;
    while (i < len && (unsigned char)text[i] <= 32 && text[i] != '\n') i++;
    if (i >= len) {
        diag_at(diags, name, line, col, NULL, "syntax error at end of input");
        return;
    }
    char near[96];
    size_t n = 0;
    for (int chars = 0; i < len && text[i] != '\n' && text[i] != '\r' && n + 5 < sizeof near; i++) {
        unsigned char b = (unsigned char)text[i];
        if ((b & 0xC0) != 0x80 && ++chars > 20) break;
        near[n++] = b < 32 ? '?' : (char)b;
    }
    near[n] = '\0';
    diag_at(diags, name, line, col, NULL, "syntax error near '%s'", near);
}

int jpos_parse(struct jpos_table *t, int doc, int col0, cJSON **out, struct diag_list *diags)
{
    const struct jpos_doc *d = &t->docs[doc];
    *out = NULL;
    int rc = prepass(d->name, d->text, d->len, col0, diags);
    if (rc != GV_OK) return rc;

    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(d->text, d->len + 1, &end, 1);
    if (!root) {
        /* cJSON returns NULL for a failed malloc too: ask the scanner, with
         * the old number limit so that it fails where any cJSON would.  (A
         * new cJSON that runs out of memory after a >63-character number is
         * then reported as a syntax error: rare, and still an error.) */
        size_t fail;
        if (validate(d->text, d->len, 63, &fail)) return GV_ENOMEM;
        size_t off = end && end >= d->text ? (size_t)(end - d->text) : 0;
        /* Where a key should start but no string does, cJSON's parse_string
         * reports one byte past it ("{ "a": 1, }" points after the '}'). */
        if (fail + 1 == off) off = fail;
        /* cJSON stops at the first error; stopping before it means malloc failed. */
        if (off < fail) return GV_ENOMEM;
        syntax_error(d->name, d->text, d->len, off > d->len ? d->len : off, col0, diags);
        return GV_EINVAL;
    }

    struct scan sc;
    memset(&sc, 0, sizeof sc);
    sc.s = (const unsigned char *)d->text;
    sc.len = d->len + 1;
    sc.t = t;
    sc.doc = doc;
    sc.col0 = col0;
    sc.line = sc.col = 1;
    sc.it.stack[sc.it.sp++] = root;
    int ok = scan_doc(&sc);
    if (sc.bad == 2) { cJSON_Delete(root); return GV_ENOMEM; }
    if (!ok || sc.bad || sc.it.sp != 0) {
        cJSON_Delete(root);
        diag_at(diags, d->name, 0, 0, NULL,
                "internal error: the position scanner disagrees with cJSON on this file");
        return GV_EINVAL;
    }
    *out = root;
    return GV_OK;
}
