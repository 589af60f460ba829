/* test_jsonpos.c - the parser accepts exactly RFC 8259 (edge cases with
 * their verdicts and messages), builds the tree cJSON builds from the same
 * text (random mutations), bounds what it loads, and records the positions
 * of values and keys. */
#include <stdlib.h>

#include "../../common/err.h"
#include "../../input/jsonpos.h"
#include "test.h"

/* Same tree: types, keys, strings, numbers and members in order (duplicate
 * keys included, which cJSON_Compare does not handle). */
static int same_tree(const cJSON *a, const cJSON *b)
{
    for (; a && b; a = a->next, b = b->next) {
        if ((a->type & 0xFF) != (b->type & 0xFF)) return 0;
        if ((a->string == NULL) != (b->string == NULL)) return 0;
        if (a->string && strcmp(a->string, b->string)) return 0;
        if (cJSON_IsString(a) && strcmp(a->valuestring, b->valuestring)) return 0;
        if (cJSON_IsNumber(a) && memcmp(&a->valuedouble, &b->valuedouble, sizeof(double))) return 0;
        if (!same_tree(a->child, b->child)) return 0;
    }
    return a == NULL && b == NULL;
}

/* The longest run of number characters: cJSON up to 1.7.18 reads at most 63. */
static size_t longest_number_run(const char *s, size_t len)
{
    size_t best = 0, run = 0;
    for (size_t i = 0; i < len; i++) {
        run = s[i] && strchr("0123456789+-eE.", s[i]) ? run + 1 : 0;
        if (run > best) best = run;
    }
    return best;
}

/* Parse through jpos_parse; returns its status and the one diagnostic (in
 * `msg`, if wanted).  What it accepts, cJSON accepts too, as the same tree
 * (jpos is the stricter of the two); what it rejects has one positioned
 * message. */
static int parse_one(const char *text, size_t len, char *msg, size_t msglen)
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
    if (rc == GV_OK) {
        ASSERT_EQ(d.n, 0);
        const char *end;
        cJSON *ref = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
        if (ref) ASSERT(same_tree(root, ref));
        else ASSERT(longest_number_run(text, len) > 63);
        cJSON_Delete(ref);
    } else {
        ASSERT_EQ(rc, GV_EINVAL);
        ASSERT_EQ(d.n, 1);
        ASSERT(!strncmp(d.msgs[0], "t.json:", 7));
        if (msg) snprintf(msg, msglen, "%s", d.msgs[0]);
    }
    cJSON_Delete(root);
    diag_free(&d);
    jpos_free(t);
    return rc;
}

/* RFC 8259, strictly: each case with its verdict. */
static void test_jsonpos_edge_cases(void)
{
    static const struct { const char *text; int valid; } cases[] = {
        { "{}", 1 }, { "[]", 1 }, { "0", 1 }, { "-0", 1 }, { "01", 0 }, { "-01", 0 }, { "012", 0 },
        { "1.", 0 }, { "-.5", 0 }, { "1e5", 1 }, { "1E+5", 1 }, { "1E05", 1 }, { "0.0e-0", 1 },
        { "1e", 0 }, { "1e+", 0 }, { "-", 0 }, { "--1", 0 }, { "+1", 0 }, { ".5", 0 }, { "1.5.3", 0 },
        { "0x10", 0 }, { "[1,]", 0 }, { "[,1]", 0 }, { "{\"a\":1,}", 0 }, { "{,}", 0 }, { "{\"a\" 1}", 0 },
        { "{\"a\":}", 0 }, { "{a:1}", 0 }, { "\"\\uZZZZ\"", 0 }, { "\"\\ud800\\udc00\"", 1 },
        { "\"\\udc00\"", 0 }, { "\"\\ud800\"", 0 }, { "\"\\ud800\\u0041\"", 0 }, { "\"\\x\"", 0 },
        { "\"\\", 0 }, { "\"abc", 0 }, { "nul", 0 }, { "null", 1 }, { "nullx", 0 }, { "true", 1 },
        { "tru", 0 }, { "false ", 1 }, { " \t\n[ 1 , 2 ]\r\n", 1 }, { "", 0 }, { "   ", 0 },
        { "[1] [2]", 0 }, { "\xEF\xBB\xBF{}", 1 }, { "\xEF\xBB\xBF", 0 }, { "{\"a\":\"\x01\"}", 0 },
        { "\"a\tb\"", 0 }, { "\"a\nb\"", 0 }, { "[1,\f2]", 0 }, { "[1]\v", 0 }, { "[\"\xff\xfe\"]", 0 },
        { "[\"\xc0\xaf\"]", 0 }, { "[\"\xed\xa0\x80\"]", 0 }, { "[\"\xf4\x90\x80\x80\"]", 0 },
        { "[\"\xe2\x82\xac\"]", 1 }, { "[\"\xe2\x82\"]", 0 }, { "[\"\xf0\x9f\x98\x80\"]", 1 },
        { "\"\\u00e9\\u001b\"", 1 }, { "\"a\\u0000b\"", 0 }, { "\"\\u0000\"", 0 },
        { "{\"a\":{\"b\":[1,{\"c\":null}]},\"a\":2}", 1 },
        { "[111111111111111111111111111111111111111111111111111111111111111111111111111111]", 1 },
        { "[1e999]", 1 }, { "[-1e-999]", 1 }, { "{\"\":0}", 1 }, { "[\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"]", 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char msg[256] = "";
        int rc = parse_one(cases[i].text, strlen(cases[i].text), msg, sizeof msg);
        if ((rc == GV_OK) != cases[i].valid)
            fprintf(stderr, "case %zu \"%s\": rc %d, expected %s: %s\n", i, cases[i].text, rc,
                    cases[i].valid ? "valid" : "invalid", msg);
        ASSERT_EQ(rc == GV_OK, cases[i].valid);
    }
}

/* What RFC 8259 forbids, each with its position and reason. */
static void test_jsonpos_messages(void)
{
    static const struct { const char *text; const char *msg; } cases[] = {
        { "01", "t.json:1:1: a number cannot have a leading zero" },
        { "[1, -012]", "t.json:1:5: a number cannot have a leading zero" },
        { "[1.]", "t.json:1:4: a number needs a digit after its decimal point" },
        { "{\"a\": 1e+}", "t.json:1:10: a number needs a digit in its exponent" },
        { "[-x]", "t.json:1:3: a number needs a digit after '-'" },
        { "{\"a\":\"x\x01\"}", "t.json:1:8: raw control character U+0001 in a string (write it as \\u0001)" },
        { "{\"a\":\n \"x\ny\"}", "t.json:2:4: line break inside a string (a missing closing quote?)" },
        { "[\"\xc3\xa9\xff\"]", "t.json:1:4: invalid UTF-8 (byte 0xFF)" },
        { "[\xff]", "t.json:1:2: invalid UTF-8 (byte 0xFF)" },
        { "{\"name\": \"report_m4\\u0000evil\"}",
          "t.json:1:20: \\u0000 is not allowed in a string (it would cut the string short)" },
        { "[\"\\ud800x\"]",
          "t.json:1:3: invalid \\u escape: \\uD800 must be followed by a low surrogate \\uDC00..\\uDFFF" },
        { "[\"\\q\"]", "t.json:1:3: invalid escape '\\q' in a string" },
        { "[\"abc", "t.json:1:2: unterminated string" },
        { "{\"a\": 1, oops}", "t.json:1:10: syntax error near 'oops}'" },
        { "{\"a\": 1,\n}", "t.json:2:1: syntax error near '}'" },
        { "[1 2]", "t.json:1:4: syntax error near '2]'" },
        { "{\"a\": 1", "t.json:1:8: syntax error at end of input" },
        { "{\n \0}", "t.json:2:2: NUL byte in the text (is this a JSON file?)" },
        /* Not JSON at all: nothing of the text is quoted (a profile path to /etc/shadow). */
        { "root:$6$Zk2Xr9$secrethash:19000:0:99999:7:::\n",
          "t.json:1:1: syntax error: this is not JSON (its text is not quoted)" },
        { "[global]\npassword = hunter2\n", "t.json:1:2: syntax error: this is not JSON (its text is not quoted)" },
        { "-----BEGIN OPENSSH PRIVATE KEY-----\n", "t.json:1:2: a number needs a digit after '-'" },
        { "{ ] secret", "t.json:1:3: syntax error near ']'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char msg[256] = "";
        size_t len = strlen(cases[i].text);
        if (i == 17) len = 5;  /* the NUL case */
        ASSERT_EQ(parse_one(cases[i].text, len, msg, sizeof msg), GV_EINVAL);
        ASSERT_STREQ(msg, cases[i].msg);
    }
}

/* At most JPOS_MAX_VALUES values in a table, then a positioned error:
 * loading memory is bounded whatever the file holds. */
static void test_jsonpos_value_limit(void)
{
    /* a document of a million values takes memcheck 20 s of the CI's
     * valgrind step; the ASan+UBSan build runs this case, and
     * test_jsonpos_set_max_values the same bound with a few values */
    if (getenv("GVLSIM_UNDER_VALGRIND")) return;
    size_t n = JPOS_MAX_VALUES;  /* the array and n - 1 zeros: exactly the limit */
    char *text = malloc(2 * n + 8);
    ASSERT(text);
    size_t len = 0;
    text[len++] = '[';
    for (size_t i = 0; i + 1 < n; i++) {
        text[len++] = '0';
        text[len++] = ',';
    }
    text[len - 1] = ']';
    text[len] = '\0';
    ASSERT_EQ(parse_one(text, len, NULL, 0), GV_OK);
    text[len - 1] = ',';
    text[len++] = '0';
    text[len++] = ']';
    text[len] = '\0';
    char msg[256], want[256];
    ASSERT_EQ(parse_one(text, len, msg, sizeof msg), GV_EINVAL);
    snprintf(want, sizeof want, "t.json:1:%zu: more than %d JSON values: the loader stops here, "
             "to bound the memory it takes", len - 1, JPOS_MAX_VALUES);
    ASSERT_STREQ(msg, want);

    /* The budget is the table's: a second document gets what the first left. */
    struct jpos_table *t;
    struct diag_list d;
    cJSON *a = NULL, *b = NULL;
    int da, db;
    ASSERT_EQ(jpos_new(&t), GV_OK);
    text[len - 3] = ']';  /* back to exactly the limit */
    ASSERT_EQ(jpos_add_doc(t, "a.json", strndup(text, len - 2), len - 2, &da), GV_OK);
    ASSERT_EQ(jpos_add_doc(t, "b.json", strdup("[1]"), 3, &db), GV_OK);
    diag_init(&d);
    ASSERT_EQ(jpos_parse(t, da, 0, &a, &d), GV_OK);
    ASSERT_EQ(jpos_parse(t, db, 0, &b, &d), GV_EINVAL);
    ASSERT_EQ(d.n, 1);
    ASSERT_CONTAINS(d.msgs[0], "b.json:1:1: more than");
    cJSON_Delete(a);
    diag_free(&d);
    jpos_free(t);
    free(text);
}

/* A loader of larger documents (a trace) sets its table's own bound:
 * both ways, and the message names it. */
static void test_jsonpos_set_max_values(void)
{
    struct jpos_table *t;
    struct diag_list d;
    cJSON *a = NULL;
    int da;
    for (size_t bound = 3; bound <= 4; bound++) {
        ASSERT_EQ(jpos_new(&t), GV_OK);
        jpos_set_max_values(t, bound);
        ASSERT_EQ(jpos_add_doc(t, "s.json", strdup("[1,2,3]"), 7, &da), GV_OK);  /* 4 values */
        diag_init(&d);
        int rc = jpos_parse(t, da, 0, &a, &d);
        if (bound == 4) {
            ASSERT_EQ(rc, GV_OK);
        } else {
            ASSERT_EQ(rc, GV_EINVAL);
            ASSERT_EQ(d.n, 1);
            ASSERT_STREQ(d.msgs[0], "s.json:1:6: more than 3 JSON values: the loader stops here, "
                         "to bound the memory it takes");
        }
        cJSON_Delete(a);
        a = NULL;
        diag_free(&d);
        jpos_free(t);
    }
}

/* Room reserved before parsing: the positions of every value as without
 * it (here 3,001 values in a table reserved for 2,000, then for more than
 * memory can hold: refused, the table kept). */
static void test_jsonpos_reserve(void)
{
    struct jpos_table *t;
    struct diag_list d;
    cJSON *a = NULL;
    int da;
    size_t cap = 20000, n = 0;
    char *text = malloc(cap);
    ASSERT(text);
    n += (size_t)snprintf(text + n, cap - n, "[");
    for (int i = 0; i < 3000; i++) n += (size_t)snprintf(text + n, cap - n, "%s%d%s", i ? "," : "", i, i % 10 == 9 ? "\n" : "");
    n += (size_t)snprintf(text + n, cap - n, "]");
    ASSERT_EQ(jpos_new(&t), GV_OK);
    ASSERT_EQ(jpos_reserve(t, 2000), GV_OK);
    ASSERT_EQ(jpos_reserve(t, (size_t)-1 / 8), GV_ENOMEM);
    ASSERT_EQ(jpos_add_doc(t, "r.json", text, n, &da), GV_OK);
    diag_init(&d);
    ASSERT_EQ(jpos_parse(t, da, 0, &a, &d), GV_OK);
    struct jpos p;
    ASSERT_EQ(cJSON_GetArraySize(a), 3000);
    ASSERT(jpos_get(t, a, &p));
    ASSERT_EQ(p.line, 1);
    ASSERT_EQ(p.col, 1);
    /* value 2,345 on line 235 (ten a line), after ",2340,...,2344," */
    ASSERT(jpos_get(t, cJSON_GetArrayItem(a, 2345), &p));
    ASSERT_EQ(p.line, 235);
    ASSERT_EQ(p.col, 27);
    cJSON_Delete(a);
    diag_free(&d);
    jpos_free(t);
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
                                        "-", "e", ".", "0", " ", "\n", "null", "tru", "1e5", "\xc3",
                                        "\t", "\x01", "\\u0000", "\xed\xa0\x80" };
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
        valid += parse_one(buf, len, NULL, 0) == GV_OK;
    }
    ASSERT(valid > 100);  /* some mutations stay valid: the tree comparison is exercised too */
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
    RUN(test_jsonpos_messages);
    RUN(test_jsonpos_value_limit);
    RUN(test_jsonpos_set_max_values);
    RUN(test_jsonpos_reserve);
    RUN(test_jsonpos_mutations);
    RUN(test_jsonpos_positions);
    TEST_DONE();
}
