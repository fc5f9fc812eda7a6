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
 *
 * A huge page covers an aligned 2 MB of one mapping.  An array that starts
 * anywhere gets its middle on huge pages but its first and last 2 MB on
 * small ones: up to 1,024 faults for an array of 5 MB.  So an array of 2 MB
 * or more is asked of palloc a little larger (big_request()): its whole
 * block then takes a multiple of 2 MB, which malloc maps on its own (above
 * its mmap threshold) and the kernel (6.7 and later) places on a 2-MB
 * boundary.  The padding at the end is never touched and costs no memory.
 * The arrays stay palloc memory in their memory context: pfree(), repalloc()
 * and the context's reset free them as any other.
 */
#include "postgres.h"

#include <sys/mman.h>

#include "utils/memutils.h"

#include "big_alloc.h"

#define HUGE_PAGE ((uintptr_t) 2 * 1024 * 1024)

/*
 * What palloc and malloc put before an allocation in the same block (an
 * AllocSet block header and chunk header, malloc's chunk header): less than
 * this, and less than a 4-kB page.
 */
#define HEADERS_ROOM 1024

/* the size to ask palloc for an array of size bytes */
static Size
big_request(Size size)
{
	if (size < HUGE_PAGE)
		return size;
	return TYPEALIGN(HUGE_PAGE, size + HEADERS_ROOM) - HEADERS_ROOM;
}

/*
 * Advise the 2 MB pages of [p, p + len) to huge pages, and, when p lies in
 * the first 4 kB after a 2-MB boundary (a block big_request() sized, mapped
 * on that boundary: its headers take the rest), the 2 MB pages of the whole
 * block, from that boundary to its end.
 */
static void
advise(void *p, Size len, Size block)
{
#if defined(MADV_HUGEPAGE)
	uintptr_t	start = TYPEALIGN_DOWN(HUGE_PAGE, (uintptr_t) p);
	uintptr_t	end;

	if ((uintptr_t) p - start < 4096 && block > len)
		end = start + TYPEALIGN(HUGE_PAGE, block + HEADERS_ROOM);
	else
	{
		start = TYPEALIGN(HUGE_PAGE, (uintptr_t) p);
		end = TYPEALIGN_DOWN(HUGE_PAGE, (uintptr_t) p + len);
	}
	if (len >= HUGE_PAGE && end > start)
		(void) madvise((void *) start, end - start, MADV_HUGEPAGE);
#endif
}

/*
 * An array of size bytes in cxt (flags as MemoryContextAllocExtended():
 * MCXT_ALLOC_HUGE and the like), on huge pages from its first byte to its
 * last where the kernel gives them; zeroed with MCXT_ALLOC_ZERO.
 */
void *
fixes_alloc_big(MemoryContext cxt, Size size, int flags)
{
	Size		block = big_request(size);
	void	   *p = MemoryContextAllocExtended(cxt, block, flags & ~MCXT_ALLOC_ZERO);

	if (p != NULL)
	{
		advise(p, size, block);
		if (flags & MCXT_ALLOC_ZERO)
			memset(p, 0, size);
	}
	return p;
}

/* fixes_alloc_big() in CurrentMemoryContext */
void *
fixes_palloc_big(Size size, int flags)
{
	return fixes_alloc_big(CurrentMemoryContext, size, flags);
}

/*
 * An array of old_size bytes at p in cxt (or none yet: p NULL), grown (or
 * shrunk) to size, as repalloc_huge() would, but placed as fixes_alloc_big()
 * places a new one: a new array, with p's bytes copied and p freed.
 */
void *
fixes_repalloc_big(MemoryContext cxt, void *p, Size old_size, Size size)
{
	void	   *q = fixes_alloc_big(cxt, size, MCXT_ALLOC_HUGE);

	if (p != NULL)
	{
		Assert(GetMemoryChunkContext(p) == cxt);
		memcpy(q, p, Min(old_size, size));
		pfree(p);
	}
	return q;
}
