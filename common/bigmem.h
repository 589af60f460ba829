/* bigmem.h - zeroed arrays of megabytes (the threads of a 100k-thread run)
 * on transparent huge pages.
 *
 * Each of thousands of threads is visited in turn, every visit on another
 * 4 KiB page: with small pages nearly every visit is a TLB miss and every
 * first touch a page fault.  On 2 MiB pages both are rare (a run of 100k
 * threads: a quarter less CPU time, docs/bench.md).  Linux gives them to
 * a region that asks (madvise MADV_HUGEPAGE) when THP is in "madvise"
 * mode, the default of many distributions.  The region is mapped straight
 * from the kernel (mmap), whose pages are zero, rather than cleared: a page
 * nothing writes is never touched, costs no memory and no page fault (a
 * struct's rarely used part kept in its own array, models/vm.h), and the
 * ones written are cleared once, by the kernel, not twice.  Smaller arrays
 * come from calloc. */
#ifndef GV_BIGMEM_H
#define GV_BIGMEM_H

#include <stddef.h>

/* calloc(n, size), on huge pages from BIGMEM_MIN bytes on.  NULL when out
 * of memory.  Freed with bigmem_free, never free(). */
void *bigmem_calloc(size_t n, size_t size);
/* The same for an array most of whose elements are never written (a
 * struct's cold part): on small pages (MADV_NOHUGEPAGE), so that the few
 * elements written cost 4 KiB each, not 2 MiB. */
void *bigmem_calloc_sparse(size_t n, size_t size);
/* Release what either returned (NULL: nothing). */
void bigmem_free(void *p);

#define BIGMEM_MIN ((size_t)4 << 20)

#endif
