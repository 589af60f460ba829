/* test_sbuf.c - a string being built: appends, growth, the empty string,
 * and an allocation failure that turns every later append into a no-op. */
#include <stdlib.h>

#include "../../common/sbuf.h"
#include "test.h"

static void test_append(void)
{
    struct sbuf b = { 0 };
    for (int i = 0; i < 1000; i++) sbuf_putn(&b, "abc", i % 2 ? 3 : 1);  /* past several doublings */
    ASSERT_EQ(b.n, 2000);
    ASSERT_EQ(b.s[b.n], 0);
    ASSERT(!strncmp(b.s, "aabca", 5));
    sbuf_putn(&b, "x\0y", 3);                     /* NULs are data */
    ASSERT_EQ(b.n, 2003);
    ASSERT_EQ(b.s[2002], 'y');
    char *s = sbuf_take(&b);
    ASSERT(s && s[0] == 'a');
    free(s);
    struct sbuf e = { 0 };
    s = sbuf_take(&e);                            /* nothing appended: "" */
    ASSERT_STREQ(s, "");
    free(s);
}

static void test_oom(void)
{
    struct sbuf b = { 0 };
    sbuf_putn(&b, "ab", 2);
    b.oom = true;                                 /* as after a failed realloc */
    sbuf_putn(&b, "cd", 2);
    ASSERT_EQ(b.n, 2);
    ASSERT(sbuf_take(&b) == NULL);                /* and the text is freed */
    ASSERT(b.s == NULL);
}

int main(void)
{
    RUN(test_append);
    RUN(test_oom);
    TEST_DONE();
}
