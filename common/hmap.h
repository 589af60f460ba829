/* hmap.h - an open-addressing hash map from 64-bit keys to int32_t values
 * (linear probing, grown to stay at most half full): the trace importer's
 * thread ids and the engines' event log's objects (pointers) share it. */
#ifndef COMMON_HMAP_H
#define COMMON_HMAP_H

#include <stddef.h>
#include <stdint.h>

#define HMAP_NONE (-1)  /* the value of an empty slot: never stored */

struct hmap {
    uint64_t *keys;
    int32_t *vals;  /* HMAP_NONE where a slot is empty */
    size_t cap, count;
};

/* An empty map (no allocation until the first hmap_slot). */
void hmap_init(struct hmap *m);
void hmap_free(struct hmap *m);

/* The value slot of key: holding its value, or HMAP_NONE if key was absent,
 * in which case the slot is key's and the caller stores its value (other
 * than HMAP_NONE) at once.  NULL when out of memory (the map unchanged). */
int32_t *hmap_slot(struct hmap *m, uint64_t key);

#endif
