/* hmap.c - see hmap.h. */
#include "hmap.h"

#include <stdlib.h>

void hmap_init(struct hmap *m)
{
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->count = 0;
}

void hmap_free(struct hmap *m)
{
    free(m->keys);
    free(m->vals);
    hmap_init(m);
}

/* MurmurHash3's 64-bit finalizer: pointers and thread ids vary in their
 * middle bits, the mask keeps the low ones */
static size_t hash(uint64_t x, size_t cap)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

static int grow(struct hmap *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    uint64_t *keys = malloc(cap * sizeof *keys);
    int32_t *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < cap; i++) vals[i] = HMAP_NONE;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->vals[i] == HMAP_NONE) continue;
        size_t j = hash(m->keys[i], cap);
        while (vals[j] != HMAP_NONE) j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

int32_t *hmap_slot(struct hmap *m, uint64_t key)
{
    if (2 * (m->count + 1) > m->cap && grow(m) != 0) return NULL;
    size_t j = hash(key, m->cap);
    while (m->vals[j] != HMAP_NONE && m->keys[j] != key) j = (j + 1) & (m->cap - 1);
    if (m->vals[j] == HMAP_NONE) {
        m->keys[j] = key;
        m->count++;
    }
    return &m->vals[j];
}
