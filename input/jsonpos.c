/* jsonpos.c - a cJSON-compatible scanner and the node -> position table. */
#include "jsonpos.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bigmem.h"
#include "../common/err.h"

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
    size_t nvalues;      /* values parsed into the table's documents */
    size_t max_values;   /* their bound: JPOS_MAX_VALUES unless set */
};

int jpos_new(struct jpos_table **out)
{
    *out = calloc(1, sizeof **out);
    if (!*out) return GV_ENOMEM;
    (*out)->max_values = JPOS_MAX_VALUES;
    return GV_OK;
}

void jpos_set_max_values(struct jpos_table *t, size_t n)
{
    t->max_values = n;
}

void jpos_free(struct jpos_table *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->ndocs; i++) {
        free(t->docs[i].name);
        free(t->docs[i].text);
    }
    free(t->docs);
    bigmem_free(t->ents);
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

/* A node's home slot: its 4 KiB block of addresses chosen by Fibonacci
 * hashing (the product's top bits, which spread consecutive blocks evenly),
 * plus its 16-byte offset in the block.  malloc mostly hands the parser its
 * nodes in address order, so the nodes of one block land in one stretch of
 * the table: a long document's insertions walk the table a block at a time
 * instead of touching a random slot (a cache and TLB miss, and under ASan a
 * shadow miss) each.  The 2.4M-value trace of tests/e2e/import_cmd.sh:
 * 2.3-3.5 -> 1.9-2.7 s to import (3 interleaved pairs), about 20 -> 6.7 s
 * under ASan, 1.3 probes a look-up (1.7 with a hash of the whole address). */
static size_t slot_of(const struct jpos_table *t, const cJSON *node)
{
    uint64_t a = (uint64_t)(uintptr_t)node;
    uint64_t block = (a >> 12) * 0x9E3779B97F4A7C15ULL;
    return (size_t)((block >> (64 - __builtin_ctzll(t->cap))) + ((a >> 4) & 0xFF)) & (t->cap - 1);
}

static struct jpos_ent *find(const struct jpos_table *t, const cJSON *node)
{
    if (!t->cap) return NULL;
    for (size_t i = slot_of(t, node);; i = (i + 1) & (t->cap - 1)) {
        if (t->ents[i].node == node) return &t->ents[i];
        if (!t->ents[i].node) return NULL;
    }
}

/* Would `count` entries fill a table of `cap` slots past 70% (linear
 * probing's runs grow fast beyond)? */
static bool too_full(size_t count, size_t cap)
{
    return count * 10 >= cap * 7;
}

/* The table on huge pages once it is large (common/bigmem.h): every node
 * lands on a random slot, so with small pages nearly every insertion is
 * a TLB miss and every first touch of a page a fault. */
static int grow_to(struct jpos_table *t, size_t cap)
{
    struct jpos_ent *e = bigmem_calloc(cap, sizeof *e);
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
    bigmem_free(old);
    return GV_OK;
}

static int grow(struct jpos_table *t)
{
    return grow_to(t, t->cap ? t->cap * 2 : 256);
}

int jpos_reserve(struct jpos_table *t, size_t n)
{
    if (n > SIZE_MAX / 2 / sizeof(struct jpos_ent)) return GV_ENOMEM;  /* also keeps (n + 1) * 10 in range */
    size_t cap = t->cap ? t->cap : 256;
    while (too_full(n + 1, cap)) {
        if (cap > SIZE_MAX / 2 / sizeof(struct jpos_ent)) return GV_ENOMEM;
        cap *= 2;
    }
    return cap > t->cap ? grow_to(t, cap) : GV_OK;
}

static int table_put(struct jpos_table *t, const struct jpos_ent *ent)
{
    struct jpos_ent *e = find(t, ent->node);
    if (e) { *e = *ent; return GV_OK; }
    if (too_full(t->count + 1, t->cap) && grow(t) != GV_OK) return GV_ENOMEM;
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

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* Length of the RFC 8259 number at s (NUL-terminated text):
 * -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?  If it is not one, 0, and
 * *bad = the offset of the first wrong byte and *why = what is wrong. */
static size_t number_len(const unsigned char *s, size_t *bad, const char **why)
{
    size_t i = s[0] == '-';
    if (s[i] == '0') {
        i++;
        if (is_digit(s[i])) { *bad = 0; *why = "a number cannot have a leading zero"; return 0; }
    } else if (is_digit(s[i])) {
        while (is_digit(s[i])) i++;
    } else {
        *bad = i;
        *why = "a number needs a digit after '-'";
        return 0;
    }
    if (s[i] == '.') {
        i++;
        if (!is_digit(s[i])) { *bad = i; *why = "a number needs a digit after its decimal point"; return 0; }
        while (is_digit(s[i])) i++;
    }
    if (s[i] == 'e' || s[i] == 'E') {
        i++;
        if (s[i] == '+' || s[i] == '-') i++;
        if (!is_digit(s[i])) { *bad = i; *why = "a number needs a digit in its exponent"; return 0; }
        while (is_digit(s[i])) i++;
    }
    return i;
}

const char *jpos_number_text(const struct jpos_table *t, const cJSON *node, size_t *len)
{
    struct jpos p;
    if (!jpos_get(t, node, &p) || !p.text) return NULL;
    size_t bad;
    const char *why;
    if (*p.text != '-' && !is_digit((unsigned char)*p.text)) return NULL;
    *len = number_len((const unsigned char *)p.text, &bad, &why);
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

/* ---- the parser ------------------------------------------------------------
 * Recursive descent over RFC 8259, building cJSON nodes with cJSON's own
 * constructors and recording each node's position as it is made (in text
 * order, so line and column are counted once, incrementally).  Depth is
 * bounded by JPOS_MAX_DEPTH, so the recursion is too. */

struct parser {
    struct jpos_table *t;
    int doc, col0;
    const unsigned char *s;
    size_t len, off;     /* s[len] is the NUL after the text */
    size_t lc_off;       /* line/col below are those of s[lc_off] */
    int line, col;
    int depth;
    int seen_json;       /* a complete string, number or literal was read */
    char *buf;           /* decoded string scratch */
    size_t bufcap;
    int rc;              /* GV_OK, or the first failure */
    size_t err_off;
    char msg[160];
};

static void fail_at(struct parser *p, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail_at(struct parser *p, size_t off, const char *fmt, ...)
{
    if (p->rc != GV_OK) return;
    p->rc = GV_EINVAL;
    p->err_off = off;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->msg, sizeof p->msg, fmt, ap);
    va_end(ap);
}

static void fail_nomem(struct parser *p)
{
    if (p->rc == GV_OK) p->rc = GV_ENOMEM;
}

/* Bytes of the valid UTF-8 sequence at s (1 to 4), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;  /* range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;        /* overlong */
        if (c == 0xED) hi = 0x9F;        /* UTF-16 surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;        /* overlong */
        if (c == 0xF4) hi = 0x8F;        /* beyond U+10FFFF */
    } else {
        return 0;
    }
    if (avail < n || s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    return n;
}

/* A byte that cannot start a value or continue the text. */
static void fail_unexpected(struct parser *p, size_t off)
{
    const unsigned char *s = p->s;
    while (off < p->len && (s[off] == ' ' || s[off] == '\t' || s[off] == '\r')) off++;
    if (off >= p->len) { fail_at(p, p->len, "syntax error at end of input"); return; }
    unsigned char c = s[off];
    if (c == '\0') { fail_at(p, off, "NUL byte in the text (is this a JSON file?)"); return; }
    if (c >= 0x80 && !utf8_len(s + off, p->len - off)) {
        fail_at(p, off, "invalid UTF-8 (byte 0x%02X)", c);
        return;
    }
    if (!p->seen_json) {
        /* Nothing so far was JSON: quote only JSON's own punctuation. */
        if (c && strchr("{}[]:,\"", c)) fail_at(p, off, "syntax error near '%c'", c);
        else fail_at(p, off, "syntax error: this is not JSON (its text is not quoted)");
        return;
    }
    char near[96];
    size_t n = 0;
    for (size_t i = off, chars = 0; i < p->len && s[i] != '\n' && s[i] != '\r' && n + 5 < sizeof near;
         i++) {
        if ((s[i] & 0xC0) != 0x80 && ++chars > 20) break;
        near[n++] = s[i] < 32 ? '?' : (char)s[i];
    }
    near[n] = '\0';
    fail_at(p, off, "syntax error near '%s'", near);
}

static void skip_ws(struct parser *p)
{
    while (p->off < p->len) {
        unsigned char c = p->s[p->off];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        p->off++;
    }
}

static void sync_to(struct parser *p, size_t off, int *line, int *col)
{
    for (; p->lc_off < off; p->lc_off++) {
        unsigned char b = p->s[p->lc_off];
        if (b == '\n') { p->line++; p->col = 1; }
        else if ((b & 0xC0) != 0x80) p->col++;
    }
    *line = p->line;
    *col = p->col + (p->line == 1 ? p->col0 : 0);
}

/* Count a value about to be made at p->off; 0 once the budget is spent. */
static int count_value(struct parser *p)
{
    if (p->t->nvalues >= p->t->max_values) {
        fail_at(p, p->off,
                "more than %zu JSON values: the loader stops here, to bound the memory it takes",
                p->t->max_values);
        return 0;
    }
    p->t->nvalues++;
    return 1;
}

/* Record a new node made from the text at `off`; key_off is its member
 * key's offset or SIZE_MAX.  Frees the node and returns NULL on failure. */
static cJSON *parse_record(struct parser *p, cJSON *node, size_t off, size_t key_off)
{
    if (!node) { fail_nomem(p); return NULL; }
    struct jpos_ent e = { node, 0, 0, 0, 0, (uint32_t)p->doc, (uint32_t)off };
    if (key_off != SIZE_MAX) sync_to(p, key_off, &e.key_line, &e.key_col);
    sync_to(p, off, &e.line, &e.col);
    if (table_put(p->t, &e) != GV_OK) {
        cJSON_Delete(node);
        fail_nomem(p);
        return NULL;
    }
    return node;
}

static int buf_put(struct parser *p, size_t *n, const unsigned char *b, size_t k)
{
    if (*n + k + 1 > p->bufcap) {
        size_t cap = p->bufcap ? p->bufcap : 64;
        while (cap < *n + k + 1) cap *= 2;
        char *nb = realloc(p->buf, cap);
        if (!nb) { fail_nomem(p); return 0; }
        p->buf = nb;
        p->bufcap = cap;
    }
    memcpy(p->buf + *n, b, k);
    *n += k;
    p->buf[*n] = '\0';
    return 1;
}

/* Four hex digits at s, or -1. */
static long hex4(const unsigned char *s)
{
    long h = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = s[i];
        if (is_digit(c)) h = h * 16 + (c - '0');
        else if (c >= 'A' && c <= 'F') h = h * 16 + 10 + (c - 'A');
        else if (c >= 'a' && c <= 'f') h = h * 16 + 10 + (c - 'a');
        else return -1;
    }
    return h;
}

/* The \uXXXX escape(s) at s[off] ('\\'), as UTF-8 into the buffer; returns
 * the bytes of text consumed, 0 on error. */
static size_t unicode_escape(struct parser *p, size_t off, size_t *n)
{
    const unsigned char *s = p->s;
    long cp = off + 6 <= p->len ? hex4(s + off + 2) : -1;
    if (cp < 0) { fail_at(p, off, "invalid \\u escape: four hex digits expected"); return 0; }
    size_t used = 6;
    if (cp == 0) {
        fail_at(p, off, "\\u0000 is not allowed in a string (it would cut the string short)");
        return 0;
    }
    if (cp >= 0xDC00 && cp <= 0xDFFF) {
        fail_at(p, off, "invalid \\u escape: \\u%04lX is the second half of a surrogate pair", cp);
        return 0;
    }
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        long lo = off + 12 <= p->len && s[off + 6] == '\\' && s[off + 7] == 'u' ? hex4(s + off + 8) : -1;
        if (lo < 0xDC00 || lo > 0xDFFF) {
            fail_at(p, off, "invalid \\u escape: \\u%04lX must be followed by a low surrogate \\uDC00..\\uDFFF", cp);
            return 0;
        }
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        used = 12;
    }
    unsigned char u[4];
    size_t k;
    if (cp < 0x80) { u[0] = (unsigned char)cp; k = 1; }
    else if (cp < 0x800) { u[0] = (unsigned char)(0xC0 | (cp >> 6)); u[1] = (unsigned char)(0x80 | (cp & 0x3F)); k = 2; }
    else if (cp < 0x10000) {
        u[0] = (unsigned char)(0xE0 | (cp >> 12));
        u[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (unsigned char)(0x80 | (cp & 0x3F));
        k = 3;
    } else {
        u[0] = (unsigned char)(0xF0 | (cp >> 18));
        u[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (unsigned char)(0x80 | (cp & 0x3F));
        k = 4;
    }
    return buf_put(p, n, u, k) ? used : 0;
}

/* The string at p->off (a '"'), decoded into p->buf; 1 if valid. */
static int parse_string(struct parser *p)
{
    const unsigned char *s = p->s;
    size_t start = p->off, i = start + 1, n = 0;
    if (!buf_put(p, &n, s, 0)) return 0;
    for (;;) {
        if (i >= p->len) {
            fail_at(p, start, "unterminated string");
            return 0;
        }
        unsigned char c = s[i];
        if (c == '"') break;
        if (c == '\\') {
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            const char *e = i + 1 < p->len && s[i + 1] ? strchr(from, s[i + 1]) : NULL;
            if (e) {
                if (!buf_put(p, &n, (const unsigned char *)&to[e - from], 1)) return 0;
                i += 2;
            } else if (i + 1 < p->len && s[i + 1] == 'u') {
                size_t used = unicode_escape(p, i, &n);
                if (!used) return 0;
                i += used;
            } else if (i + 1 < p->len && s[i + 1] >= 0x20 && s[i + 1] < 0x7F) {
                fail_at(p, i, "invalid escape '\\%c' in a string", s[i + 1]);
                return 0;
            } else {
                fail_at(p, i, "invalid escape in a string");
                return 0;
            }
            continue;
        }
        if (c < 0x20) {
            if (c == '\0') fail_at(p, i, "NUL byte in the text (is this a JSON file?)");
            else if (c == '\n') fail_at(p, i, "line break inside a string (a missing closing quote?)");
            else fail_at(p, i, "raw control character U+%04X in a string (write it as \\u%04X)", c, c);
            return 0;
        }
        size_t k = utf8_len(s + i, p->len - i);
        if (!k) { fail_at(p, i, "invalid UTF-8 (byte 0x%02X)", c); return 0; }
        if (!buf_put(p, &n, s + i, k)) return 0;
        i += k;
    }
    p->off = i + 1;
    p->seen_json = 1;
    return 1;
}

static cJSON *parse_value(struct parser *p, size_t key_off);

static int enter(struct parser *p)
{
    if (++p->depth > JPOS_MAX_DEPTH) {
        fail_at(p, p->off, "nesting deeper than %d levels", JPOS_MAX_DEPTH);
        return 0;
    }
    return 1;
}

/* The '[' or '{' at p->off: the container's node, and whether it is empty
 * (then already closed).  NULL on failure. */
static cJSON *open_container(struct parser *p, size_t key_off, bool object, bool *empty)
{
    size_t start = p->off;
    if (!enter(p) || !count_value(p)) return NULL;
    cJSON *node = parse_record(p, object ? cJSON_CreateObject() : cJSON_CreateArray(), start, key_off);
    if (!node) return NULL;
    p->off++;
    skip_ws(p);
    *empty = p->off < p->len && p->s[p->off] == (object ? '}' : ']');
    if (*empty) {
        p->off++;
        p->depth--;
    }
    return node;
}

/* After a member: 1 if a ',' announces another, 0 if `close` ends the
 * container (consumed), -1 on a syntax error. */
static int next_member(struct parser *p, char close)
{
    skip_ws(p);
    if (p->off < p->len && p->s[p->off] == ',') {
        p->off++;
        return 1;
    }
    if (p->off < p->len && p->s[p->off] == close) {
        p->off++;
        p->depth--;
        return 0;
    }
    fail_unexpected(p, p->off);
    return -1;
}

static cJSON *parse_array(struct parser *p, size_t key_off)
{
    bool empty;
    cJSON *arr = open_container(p, key_off, false, &empty);
    if (!arr || empty) return arr;
    for (int more = 1; more > 0;) {
        cJSON *v = parse_value(p, SIZE_MAX);
        if (!v) break;
        cJSON_AddItemToArray(arr, v);
        if ((more = next_member(p, ']')) == 0) return arr;
    }
    cJSON_Delete(arr);
    return NULL;
}

static cJSON *parse_object(struct parser *p, size_t key_off)
{
    bool empty;
    cJSON *obj = open_container(p, key_off, true, &empty);
    if (!obj || empty) return obj;
    for (int more = 1; more > 0;) {
        skip_ws(p);
        size_t k = p->off;
        if (k >= p->len || p->s[k] != '"') { fail_unexpected(p, k); break; }
        if (!parse_string(p)) break;
        char *key = strdup(p->buf);
        if (!key) { fail_nomem(p); break; }
        skip_ws(p);
        if (p->off >= p->len || p->s[p->off] != ':') {
            free(key);
            fail_unexpected(p, p->off);
            break;
        }
        p->off++;
        cJSON *v = parse_value(p, k);
        if (!v) { free(key); break; }
        v->string = key;  /* a duplicate key stays a member of its own, as cJSON parses it */
        cJSON_AddItemToArray(obj, v);
        if ((more = next_member(p, '}')) == 0) return obj;
    }
    cJSON_Delete(obj);
    return NULL;
}

static cJSON *parse_number(struct parser *p, size_t key_off)
{
    size_t start = p->off, bad;
    const char *why;
    size_t n = number_len(p->s + start, &bad, &why);
    if (!n) { fail_at(p, start + bad, "%s", why); return NULL; }
    size_t used = 0;
    if (!buf_put(p, &used, p->s + start, n) || !count_value(p)) return NULL;
    cJSON *v = parse_record(p, cJSON_CreateNumber(strtod(p->buf, NULL)), start, key_off);
    p->off = start + n;
    p->seen_json = 1;
    return v;
}

static cJSON *parse_value(struct parser *p, size_t key_off)
{
    skip_ws(p);
    size_t start = p->off;
    if (start >= p->len) { fail_at(p, p->len, "syntax error at end of input"); return NULL; }
    const char *w = (const char *)p->s + start;
    switch (p->s[start]) {
    case '{': return parse_object(p, key_off);
    case '[': return parse_array(p, key_off);
    case '"': {
        if (!parse_string(p) || !count_value(p)) return NULL;
        return parse_record(p, cJSON_CreateString(p->buf), start, key_off);
    }
    case 't': case 'f': case 'n': {
        static const char *const lit[] = { "true", "false", "null" };
        int i = w[0] == 't' ? 0 : w[0] == 'f' ? 1 : 2;
        size_t n = strlen(lit[i]);
        if (p->len - start < n || strncmp(w, lit[i], n) != 0) break;
        if (!count_value(p)) return NULL;
        p->off += n;
        p->seen_json = 1;
        cJSON *v = i == 0 ? cJSON_CreateTrue() : i == 1 ? cJSON_CreateFalse() : cJSON_CreateNull();
        return parse_record(p, v, start, key_off);
    }
    default:
        if (w[0] == '-' || is_digit((unsigned char)w[0])) return parse_number(p, key_off);
        break;
    }
    fail_unexpected(p, start);
    return NULL;
}

int jpos_parse(struct jpos_table *t, int doc, int col0, cJSON **out, struct diag_list *diags)
{
    const struct jpos_doc *d = &t->docs[doc];
    *out = NULL;
    struct parser p;
    memset(&p, 0, sizeof p);
    p.t = t;
    p.doc = doc;
    p.col0 = col0;
    p.s = (const unsigned char *)d->text;
    p.len = d->len;
    p.line = p.col = 1;
    if (p.len >= 3 && !memcmp(p.s, "\xEF\xBB\xBF", 3)) p.off = p.lc_off = 3;  /* a BOM is no column */
    size_t values_before = t->nvalues;
    cJSON *root = parse_value(&p, SIZE_MAX);
    if (root) {
        skip_ws(&p);
        if (p.off < p.len) fail_unexpected(&p, p.off);
    }
    free(p.buf);
    if (p.rc == GV_OK) {
        *out = root;
        return GV_OK;
    }
    cJSON_Delete(root);
    t->nvalues = values_before;  /* those nodes are gone */
    if (p.rc == GV_EINVAL) {
        int line, col;
        jpos_linecol(d->text, p.err_off, &line, &col);
        diag_at(diags, d->name, line, col + (line == 1 ? col0 : 0), NULL, "%s", p.msg);
    }
    return p.rc;
}
