/* test_hmap.c - the open-addressing map of 64-bit keys: lookups after
 * growth, keys that collide in the low bits, a slot reused by its key. */
#include "../../common/hmap.h"
#include "test.h"

static void test_insert_find_grow(void)
{
    struct hmap m;
    hmap_init(&m);
    enum { N = 5000 };
    for (int i = 0; i < N; i++) {
        /* keys 4 KiB apart: equal low bits, as pointers of a pool */
        int32_t *v = hmap_slot(&m, (uint64_t)i << 12);
        ASSERT(v != NULL);
        ASSERT_EQ(*v, HMAP_NONE);
        *v = i;
    }
    ASSERT_EQ(m.count, (size_t)N);
    ASSERT(m.cap >= 2 * m.count);
    for (int i = 0; i < N; i++) {
        int32_t *v = hmap_slot(&m, (uint64_t)i << 12);
        ASSERT_EQ(*v, i);
    }
    ASSERT_EQ(m.count, (size_t)N);  /* lookups add nothing */
    int32_t *v = hmap_slot(&m, UINT64_MAX);
    ASSERT_EQ(*v, HMAP_NONE);
    *v = 7;
    ASSERT_EQ(*hmap_slot(&m, UINT64_MAX), 7);
    *hmap_slot(&m, 0) = 42;  /* a new value for a key already there */
    ASSERT_EQ(*hmap_slot(&m, 0), 42);
    ASSERT_EQ(m.count, (size_t)N + 1);
    hmap_free(&m);
    ASSERT(m.keys == NULL && m.cap == 0 && m.count == 0);
}

int main(void)
{
    RUN(test_insert_find_grow);
    TEST_DONE();
}
