/* jptr.h - a growable JSON pointer (RFC 6901), "/ractors/0/threads/1".
 * Push a segment before descending, pop back to the returned mark after. */
#ifndef INPUT_JPTR_H
#define INPUT_JPTR_H

#include <stddef.h>

struct jptr {
    char *buf;
    size_t len, cap;
    int oom;  /* a push failed: the pointer is truncated, report GV_ENOMEM */
};

void jptr_init(struct jptr *p);
void jptr_free(struct jptr *p);
/* Append "/key" ('~' and '/' escaped) or "/index"; return the mark to pop to. */
size_t jptr_push_key(struct jptr *p, const char *key);
size_t jptr_push_index(struct jptr *p, size_t index);
void jptr_pop(struct jptr *p, size_t mark);
/* The pointer so far; "" is the document root. */
const char *jptr_str(const struct jptr *p);

#endif
