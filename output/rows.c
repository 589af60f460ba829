/* rows.c - result rows in CSV, JSON and JSON Lines (see rows.h). */
#include "rows.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const rows_format_names[] = { "csv", "json", "jsonl", NULL };

static const char *const format_titles[] = { "CSV", "JSON", "JSON Lines" };

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcmp(s + n - m, suffix) == 0;
}

int rows_format_choose(const char *given, const char *path, enum rows_format *out, char *err,
                       size_t errlen)
{
    int by_suffix = -1;
    if (path) {
        if (ends_with(path, ".csv")) by_suffix = ROWS_CSV;
        else if (ends_with(path, ".json")) by_suffix = ROWS_JSON;
        else if (ends_with(path, ".jsonl") || ends_with(path, ".ndjson")) by_suffix = ROWS_JSONL;
    }
    int by_option = -1;
    for (int i = 0; given && rows_format_names[i]; i++)
        if (strcmp(rows_format_names[i], given) == 0) by_option = i;
    if (given && by_option < 0) {
        snprintf(err, errlen, "unknown row format \"%s\" (csv, json or jsonl)", given);
        return -1;
    }
    if (by_option >= 0 && by_suffix >= 0 && by_option != by_suffix) {
        snprintf(err, errlen, "the output %s is named as %s, but --format %s was given", path,
                 format_titles[by_suffix], given);
        return -1;
    }
    *out = (enum rows_format)(by_option >= 0 ? by_option : by_suffix >= 0 ? by_suffix : ROWS_CSV);
    return 0;
}

/* ---- building rows ---------------------------------------------------- */

void row_init(struct row *r)
{
    memset(r, 0, sizeof *r);
}

void row_free(struct row *r)
{
    free(r->cells);
    free(r->text);
    row_init(r);
}

void row_clear(struct row *r)
{
    r->n = 0;
    r->len = 0;
    r->oom = false;
}

static bool reserve_text(struct row *r, size_t more)
{
    if (r->len + more + 1 <= r->tcap) return true;
    size_t cap = r->tcap ? r->tcap : 256;
    while (cap < r->len + more + 1) cap *= 2;
    char *t = realloc(r->text, cap);
    if (!t) {
        r->oom = true;
        return false;
    }
    r->text = t;
    r->tcap = cap;
    return true;
}

void row_cell(struct row *r, enum row_cell_kind kind)
{
    if (r->oom) return;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        struct row_cell *c = realloc(r->cells, cap * sizeof *c);
        if (!c) {
            r->oom = true;
            return;
        }
        r->cells = c;
        r->cap = cap;
    }
    if (!reserve_text(r, 1)) return;
    if (r->n > 0) r->len++;  /* keep the previous cell's NUL */
    r->text[r->len] = 0;
    r->cells[r->n].kind = kind;
    r->cells[r->n].off = r->len;
    r->n++;
}

void row_printf(struct row *r, const char *fmt, ...)
{
    if (r->oom || r->n == 0) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (w < 0 || !reserve_text(r, (size_t)w)) return;
    va_start(ap, fmt);
    vsnprintf(r->text + r->len, (size_t)w + 1, fmt, ap);
    va_end(ap);
    r->len += (size_t)w;
}

void row_text(struct row *r, const char *s)
{
    if (!s) {
        row_null(r);
        return;
    }
    row_cell(r, ROW_TEXT);
    row_printf(r, "%s", s);
}

void row_null(struct row *r)
{
    row_cell(r, ROW_NULL);
}

void row_guess(struct row *r, const char *s)
{
    row_cell(r, s && rows_json_number(s, strlen(s)) ? ROW_NUM : ROW_TEXT);
    row_printf(r, "%s", s ? s : "");
}

const char *row_get(const struct row *r, size_t i)
{
    return i < r->n ? r->text + r->cells[i].off : NULL;
}

bool rows_json_number(const char *s, size_t len)
{
    size_t i = 0;
    if (i < len && s[i] == '-') i++;
    if (i >= len) return false;
    if (s[i] == '0') i++;
    else if (s[i] >= '1' && s[i] <= '9')
        while (i < len && s[i] >= '0' && s[i] <= '9') i++;
    else return false;
    if (i < len && s[i] == '.') {
        i++;
        size_t d = i;
        while (i < len && s[i] >= '0' && s[i] <= '9') i++;
        if (i == d) return false;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-')) i++;
        size_t d = i;
        while (i < len && s[i] >= '0' && s[i] <= '9') i++;
        if (i == d) return false;
    }
    return i == len;
}

/* ---- encoders ---------------------------------------------------------- */

static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"') fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

/* Length of the UTF-8 sequence at s (1..4), or 0 if it is not valid
 * UTF-8 (overlong forms, surrogates and values past U+10FFFF included). */
static int utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80) return 1;
    int n;
    unsigned min;
    if ((c & 0xe0) == 0xc0) { n = 2; min = 0x80; c &= 0x1f; }
    else if ((c & 0xf0) == 0xe0) { n = 3; min = 0x800; c &= 0x0f; }
    else if ((c & 0xf8) == 0xf0) { n = 4; min = 0x10000; c &= 0x07; }
    else return 0;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        c = (c << 6) | (s[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return 0;
    return n;
}

static void json_string(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', f);
    while (*s) {
        unsigned c = *s;
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc((int)c, f);
            s++;
        } else if (c < 0x20 || c == 0x7f) {
            switch (c) {
            case '\n': fputs("\\n", f); break;
            case '\r': fputs("\\r", f); break;
            case '\t': fputs("\\t", f); break;
            default: fprintf(f, "\\u%04x", c); break;
            }
            s++;
        } else {
            int n = utf8_len(s);
            if (n == 0) {
                fputs("\\ufffd", f);
                s++;
            } else {
                fwrite(s, 1, (size_t)n, f);
                s += n;
            }
        }
    }
    fputc('"', f);
}

static void json_number(FILE *f, const char *s, size_t len)
{
    if (rows_json_number(s, len)) fwrite(s, 1, len, f);
    else fputs("null", f);
}

static void json_value(FILE *f, const struct row_cell *c, const char *t)
{
    switch (c->kind) {
    case ROW_NULL: fputs("null", f); break;
    case ROW_TEXT: json_string(f, t); break;
    case ROW_NUM: json_number(f, t, strlen(t)); break;
    case ROW_LIST:
        fputc('[', f);
        for (const char *p = t; *p;) {
            size_t n = strcspn(p, ";");
            if (p != t) fputc(',', f);
            json_number(f, p, n);
            p += n;
            if (*p) p++;
        }
        fputc(']', f);
        break;
    }
}

void rows_encode(FILE *f, enum rows_format fmt, const struct row *cols, const struct row *r)
{
    if (fmt == ROWS_CSV) {
        for (size_t i = 0; i < r->n; i++) {
            if (i) fputc(',', f);
            csv_field(f, row_get(r, i));
        }
        return;
    }
    fputc('{', f);
    for (size_t i = 0; i < r->n; i++) {
        if (i) fputc(',', f);
        const char *key = cols ? row_get(cols, i) : NULL;
        char fallback[32];
        if (!key) {
            snprintf(fallback, sizeof fallback, "column%zu", i + 1);
            key = fallback;
        }
        json_string(f, key);
        fputc(':', f);
        json_value(f, &r->cells[i], row_get(r, i));
    }
    fputc('}', f);
}

char *rows_encode_str(enum rows_format fmt, const struct row *cols, const struct row *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    rows_encode(f, fmt, cols, r);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- a sequence of rows ------------------------------------------------ */

void rows_begin(struct rows_writer *w, FILE *f, enum rows_format fmt, const struct row *cols,
                bool header)
{
    w->f = f;
    w->fmt = fmt;
    w->cols = cols;
    w->nrows = 0;
    if (fmt == ROWS_CSV && header) {
        rows_encode(f, ROWS_CSV, NULL, cols);
        fputc('\n', f);
    } else if (fmt == ROWS_JSON) {
        fputs("[\n", f);
    }
}

static void separate(struct rows_writer *w)
{
    if (w->fmt == ROWS_JSON && w->nrows > 0) fputs(",\n", w->f);
}

static void terminate(struct rows_writer *w)
{
    if (w->fmt != ROWS_JSON) fputc('\n', w->f);
    w->nrows++;
}

void rows_put(struct rows_writer *w, const struct row *r)
{
    separate(w);
    rows_encode(w->f, w->fmt, w->cols, r);
    terminate(w);
}

void rows_put_encoded(struct rows_writer *w, const char *encoded)
{
    separate(w);
    fputs(encoded, w->f);
    terminate(w);
}

void rows_end(struct rows_writer *w)
{
    if (w->fmt == ROWS_JSON) fputs(w->nrows ? "\n]\n" : "]\n", w->f);
}
