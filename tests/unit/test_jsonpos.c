/* test_jsonpos.c - the position scanner agrees with the installed cJSON on
 * what is JSON (edge cases and random mutations), and the positions it
 * records are those of the values and keys. */
#include <stdlib.h>

#include "../../common/err.h"
#include "../../input/jsonpos.h"
#include "test.h"

/* Parse through jpos_parse and directly through cJSON: both must agree,
 * and jpos must never report that its scanner disagrees with cJSON. */
static int parse_both(const char *text, size_t len)
{
    struct jpos_table *t;
    struct diag_list d;
    cJSON *root = NULL;
    int doc;
    ASSERT_EQ(jpos_new(&t), GV_OK);
    char *copy = malloc(len + 1);
    ASSERT(copy);
    memcpy(copy, text, len);
    copy[len] = '\0';
    ASSERT_EQ(jpos_add_doc(t, "t.json", copy, len, &doc), GV_OK);
    diag_init(&d);
    int rc = jpos_parse(t, doc, 0, &root, &d);
    int has_nul = memchr(text, 0, len) != NULL;
    const char *end;
    cJSON *ref = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
    int deep = 0;
    for (size_t i = 0, depth = 0; i < len; i++)  /* rough: brackets, strings ignored */
        if (text[i] == '[' || text[i] == '{') deep |= ++depth > JPOS_MAX_DEPTH;
    if (!has_nul && !deep) {
        if ((rc == GV_OK) != (ref != NULL)) {
            fprintf(stderr, "disagree on %.*s: jpos rc %d, cJSON %s\n", (int)len, text, rc,
                    ref ? "ok" : "fail");
            for (size_t i = 0; i < d.n; i++) fprintf(stderr, "  %s\n", d.msgs[i]);
        }
        ASSERT_EQ(rc == GV_OK, ref != NULL);
    }
    for (size_t i = 0; i < d.n; i++) ASSERT(!strstr(d.msgs[i], "internal error"));
    cJSON_Delete(ref);
    cJSON_Delete(root);
    diag_free(&d);
    jpos_free(t);
    return rc;
}

static void test_jsonpos_edge_cases(void)
{
    static const char *const cases[] = {
        "{}", "[]", "0", "-0", "01", "1.", "-.5", "1e5", "1E+5", "1e", "1e+", "-", "--1", "+1", ".5",
        "1.5.3", "[1,]", "[,1]", "{\"a\":1,}", "{,}", "{\"a\" 1}", "{\"a\":}", "{a:1}", "\"\\uZZZZ\"",
        "\"\\ud800\\udc00\"", "\"\\udc00\"", "\"\\ud800\"", "\"\\ud800\\u0041\"", "\"\\x\"", "\"\\",
        "\"abc", "nul", "null", "nullx", "true", "tru", "false ", " \t\n[ 1 , 2 ]\r\n", "",
        "   ", "[1] [2]", "\xEF\xBB\xBF{}", "\xEF\xBB\xBF", "{\"a\":\"\x01\"}", "[\"\xff\xfe\"]",
        "{\"a\":{\"b\":[1,{\"c\":null}]},\"a\":2}", "[111111111111111111111111111111111111111111111111"
        "11111111111111111111111111111]", "[1e999]", "[-1e-999]", "{\"\":0}", "[\"\\/\\b\\f\\n\\r\\t\"]",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) parse_both(cases[i], strlen(cases[i]));
}

/* Deterministic random mutations of a scenario-like document. */
static void test_jsonpos_mutations(void)
{
    static const char base[] =
        "{\"name\": \"x\", \"seed\": 12, \"machine\": {\"cores\": 4, \"insn_time\": \"7ns\"},\n"
        " \"queues\": [{\"name\": \"q\"}], \"ractors\": [{\"threads\": [{\"program\": [\n"
        "  {\"op\": \"loop\", \"times\": 3, \"body\": [{\"op\": \"compute\", \"dur\": 1.5e3}]},\n"
        "  {\"op\": \"queue_pop\", \"queue\": \"q\\u00e9\"}, true, false, null, -0.0]}]}]}";
    static const char *const toks[] = { "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800",
                                        "-", "e", ".", "0", " ", "\n", "null", "tru", "1e5", "\xc3" };
    unsigned long long x = 88172645463325252ULL;  /* xorshift: the same cases every run */
    char buf[1024];
    int valid = 0;
    for (int iter = 0; iter < 4000; iter++) {
        size_t len = sizeof base - 1;
        memcpy(buf, base, len);
        int edits = 1 + (int)(x % 3);
        for (int e = 0; e < edits; e++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            size_t p = (size_t)(x % (len + 1));
            if (x % 5 < 2 && len > 2) {                   /* delete a few bytes */
                size_t n = 1 + (x >> 8) % 4;
                if (p + n > len) n = len - p;
                memmove(buf + p, buf + p + n, len - p - n);
                len -= n;
            } else {                                       /* insert a token */
                const char *t = toks[(x >> 16) % (sizeof toks / sizeof toks[0])];
                size_t n = strlen(t);
                if (len + n >= sizeof buf) continue;
                memmove(buf + p + n, buf + p, len - p);
                memcpy(buf + p, t, n);
                len += n;
            }
        }
        buf[len] = '\0';
        valid += parse_both(buf, len) == GV_OK;
    }
    ASSERT(valid > 100);  /* some mutations stay valid: the zip path is exercised too */
}

static void test_jsonpos_positions(void)
{
    /* Columns count characters: "é" is one. Duplicate keys keep their own positions. */
    const char text[] = "{\"d\": \"\xc3\xa9\", \"k\": [10,\n  {\"k\": true}], \"k\": -2.5e1}";
    struct jpos_table *t;
    struct diag_list d;
    cJSON *root;
    int doc;
    ASSERT_EQ(jpos_new(&t), GV_OK);
    ASSERT_EQ(jpos_add_doc(t, "p.json", strdup(text), sizeof text - 1, &doc), GV_OK);
    diag_init(&d);
    ASSERT_EQ(jpos_parse(t, doc, 0, &root, &d), GV_OK);
    struct jpos p;
    ASSERT(jpos_get(t, root, &p));
    ASSERT_STREQ(p.file, "p.json");
    ASSERT_EQ(p.line, 1);
    ASSERT_EQ(p.col, 1);
    ASSERT_EQ(p.key_line, 0);
    const cJSON *dv = root->child, *k1 = dv->next, *k2 = k1->next;
    ASSERT(jpos_get(t, dv, &p));
    ASSERT_EQ(p.key_col, 2);
    ASSERT_EQ(p.col, 7);
    ASSERT(jpos_get(t, k1, &p));
    ASSERT_EQ(p.key_col, 12);   /* "é" is one column */
    ASSERT_EQ(p.col, 17);
    ASSERT(jpos_get(t, k1->child->next, &p));  /* {"k": true} on line 2 */
    ASSERT_EQ(p.line, 2);
    ASSERT_EQ(p.col, 3);
    ASSERT(jpos_get(t, k1->child->next->child, &p));
    ASSERT_EQ(p.key_line, 2);
    ASSERT_EQ(p.key_col, 4);
    ASSERT_EQ(p.col, 9);
    ASSERT(jpos_get(t, k2, &p));
    ASSERT_EQ(p.key_line, 2);
    ASSERT_EQ(p.key_col, 17);
    size_t n;
    const char *num = jpos_number_text(t, k2, &n);
    ASSERT(num && n == 6 && !strncmp(num, "-2.5e1", 6));
    ASSERT(jpos_number_text(t, dv, &n) == NULL);
    /* A --set value: columns shifted by where the value starts. */
    int doc2;
    cJSON *v;
    ASSERT_EQ(jpos_add_doc(t, "--set[1]", strdup("[1, 2]"), 6, &doc2), GV_OK);
    ASSERT_EQ(jpos_parse(t, doc2, 10, &v, &d), GV_OK);
    ASSERT(jpos_get(t, v->child->next, &p));
    ASSERT_STREQ(p.file, "--set[1]");
    ASSERT_EQ(p.col, 15);
    ASSERT_EQ(d.n, 0);
    cJSON_Delete(v);
    cJSON_Delete(root);
    jpos_free(t);
}

int main(void)
{
    RUN(test_jsonpos_edge_cases);
    RUN(test_jsonpos_mutations);
    RUN(test_jsonpos_positions);
    TEST_DONE();
}
