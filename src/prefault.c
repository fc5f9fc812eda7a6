/*
 * prefault.c — map this backend's view of the shared buffers in bulk
 *
 * Each backend maps the shared buffer pool page by page, on the first
 * access to each 4 kB page: a refresh at 1.3M commits touches some 40,000
 * of them (the graph's TOAST, the indexes of fixes_commits at random, the
 * old edges), and on virtual machines each such fault costs tens of
 * microseconds, about a second in all.  Before a load, the pages of the
 * buffers that already hold data are mapped with one madvise() per run of
 * such buffers: their memory is resident already (nothing is allocated,
 * nothing is read or written), only this process's page tables are filled.
 * Buffers not yet in use are left alone.  Where the kernel lacks
 * MADV_POPULATE_WRITE (Linux < 5.14) nothing happens.
 */
#include "postgres.h"

#include <sys/mman.h>

#include "storage/buf_internals.h"
#include "storage/bufmgr.h"

#include "load.h"

#ifdef MADV_POPULATE_WRITE
static bool
populate(char *start, char *end)
{
	uintptr_t	page = (uintptr_t) sysconf(_SC_PAGESIZE);
	uintptr_t	s = TYPEALIGN_DOWN(page, (uintptr_t) start);
	uintptr_t	e = TYPEALIGN(page, (uintptr_t) end);

	return madvise((void *) s, e - s, MADV_POPULATE_WRITE) == 0;
}
#endif

void
fixes_prefault_shared_buffers(void)
{
#ifdef MADV_POPULATE_WRITE
	int			run = -1;

	/* the descriptors: 64 bytes each, all of them */
	if (!populate((char *) BufferDescriptors, (char *) (BufferDescriptors + NBuffers)))
		return;
	for (int i = 0; i <= NBuffers; i++)
	{
		bool		valid = i < NBuffers &&
			(pg_atomic_read_u32(&GetBufferDescriptor(i)->state) & BM_VALID) != 0;

		if (valid && run < 0)
			run = i;
		else if (!valid && run >= 0)
		{
			if (!populate(BufferBlocks + (Size) run * BLCKSZ, BufferBlocks + (Size) i * BLCKSZ))
				return;
			run = -1;
		}
	}
#endif
}
