/*
 * big_alloc.c — the large arrays of a load, on huge pages where the kernel
 * gives them
 *
 * A load's per-commit arrays are hundreds of megabytes, each written once;
 * on virtual machines the first fault of every 4 kB page costs tens of
 * microseconds (a refresh at 1.3M commits took 30,000 of them to read the
 * graph back).  Advising such an array to transparent huge pages before it
 * is first written makes that 512 times fewer faults.  Only advice: the
 * memory is the same, and nothing changes where the kernel does not do it.
 */
#include "postgres.h"

#include <sys/mman.h>

#include "big_alloc.h"

/*
 * Ask the kernel to back the 2 MB-aligned middle of a large allocation with
 * huge pages, before it is first written: a load's arrays are hundreds of
 * megabytes written once, and on virtual machines each 4 kB page's first
 * fault costs tens of microseconds (a refresh at 1.3M commits took 30,000
 * of them to read the graph back).  Only advice: memory is the same, and
 * nothing changes where the kernel does not do it.  Returns p.
 */
void *
fixes_huge_pages(void *p, Size len)
{
#if defined(MADV_HUGEPAGE)
	const uintptr_t huge = (uintptr_t) 2 * 1024 * 1024;
	uintptr_t	start = TYPEALIGN(huge, (uintptr_t) p);
	uintptr_t	end = TYPEALIGN_DOWN(huge, (uintptr_t) p + len);

	if (len >= huge && end > start)
		(void) madvise((void *) start, end - start, MADV_HUGEPAGE);
#endif
	return p;
}

/*
 * palloc_extended() for arrays of a load (flags: MCXT_ALLOC_HUGE and the
 * like): a large one is advised to huge pages before it is zeroed or written
 */
void *
fixes_palloc_big(Size size, int flags)
{
	void	   *p = palloc_extended(size, flags & ~MCXT_ALLOC_ZERO);

	if (p != NULL)
	{
		fixes_huge_pages(p, size);
		if (flags & MCXT_ALLOC_ZERO)
			memset(p, 0, size);
	}
	return p;
}
