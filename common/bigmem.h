/* bigmem.h - zeroed arrays of megabytes (the threads of a 100k-thread run)
 * on transparent huge pages.
 *
 * Each of thousands of threads is visited in turn, every visit on another
 * 4 KiB page: with small pages nearly every visit is a TLB miss and every
 * first touch a page fault.  On 2 MiB pages both are rare (a run of 100k
 * threads: a quarter less CPU time, docs/bench.md).  Linux gives them to
 * a region that asks (madvise MADV_HUGEPAGE) when THP is in "madvise"
 * mode, the default of many distributions.  Elsewhere this is calloc. */
#ifndef GV_BIGMEM_H
#define GV_BIGMEM_H

#include <stddef.h>

/* calloc(n, size), 2 MiB-aligned and on huge pages from BIGMEM_MIN bytes
 * on; freed with free().  NULL when out of memory. */
void *bigmem_calloc(size_t n, size_t size);

#define BIGMEM_MIN ((size_t)4 << 20)

#endif
