/* bigmem.c - zeroed arrays on transparent huge pages (bigmem.h). */
#include "bigmem.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

/* Before the array: how it was obtained (its mapping's start and length;
 * length 0: calloc).  Its size keeps the array as aligned as malloc's. */
struct bigmem_head {
    void *base;
    size_t mapped;
    char pad[64 - sizeof(void *) - sizeof(size_t)];
};

static void *bigmem_map(size_t n, size_t size, bool sparse)
{
    const size_t head = sizeof(struct bigmem_head);
    if (size != 0 && n > SIZE_MAX / size) return NULL;
    size_t bytes = n * size;
    if (bytes > SIZE_MAX - head - HUGE_PAGE) return NULL;
    struct bigmem_head *h;
    if (bytes < BIGMEM_MIN) {
        h = calloc(1, head + bytes);
        if (!h) return NULL;
        h->base = h;
        h->mapped = 0;
        return h + 1;
    }
    /* a mapping 2 MiB-aligned (THP backs aligned 2 MiB ranges): map a huge
     * page more than needed and give back the ends */
    size_t len = (head + bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    char *raw = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    char *base = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (base > raw) munmap(raw, (size_t)(base - raw));
    if (raw + len + HUGE_PAGE > base + len) munmap(base + len, (size_t)(raw + len + HUGE_PAGE - (base + len)));
    /* advice: its failure changes nothing */
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
    madvise(base, len, sparse ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
#endif
    h = (struct bigmem_head *)(void *)base;
    h->base = base;
    h->mapped = len;
    return h + 1;
}

void *bigmem_calloc(size_t n, size_t size)
{
    return bigmem_map(n, size, false);
}

void *bigmem_calloc_sparse(size_t n, size_t size)
{
    return bigmem_map(n, size, true);
}

void bigmem_free(void *p)
{
    if (!p) return;
    struct bigmem_head *h = (struct bigmem_head *)p - 1;
    if (h->mapped) munmap(h->base, h->mapped);
    else free(h->base);
}
