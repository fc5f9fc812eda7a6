/*
 * in.c — what the backend sends on the reader's standard input
 *
 * Two kinds of input, both read whole when the reader needs them: a walk's
 * ids (main.c: a u32 count and as many raw ids, in the start points, known
 * and hidden lists), and the answer to a tag question (tags.c: a u32
 * count and as many u32 indexes, ascending).  Anything short or out of
 * order fails the run: the backend sent it, but a reader started by hand
 * with a closed input must not go on with half of it.  Calls only out.c.
 */
#include "reader.h"

#include <errno.h>
#include <unistd.h>

static void
read_fully(void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len > 0)
	{
		ssize_t		n = read(STDIN_FILENO, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fail("08P01", NULL, NULL, "the reader's input ended early");
		p += n;
		len -= (size_t) n;
	}
}

static uint32_t
read_u32(void)
{
	unsigned char b[4];

	read_fully(b, 4);
	return wire_get_u32(b);
}

/* a u32 count, then as many raw ids, into one array (*n: the count) */
FixesOid *
in_ids(uint32_t *n)
{
	FixesOid   *ids;

	*n = read_u32();
	ids = xmalloc_huge((size_t) (*n > 0 ? *n : 1) * sizeof(FixesOid));
	read_fully(ids, (size_t) *n * sizeof(FixesOid));
	return ids;
}

/*
 * A u32 count k, then k u32 indexes below n, ascending: the indexes into
 * *k, at most n of them
 */
uint32_t *
in_indexes(uint32_t n, uint32_t *k)
{
	uint32_t   *idx;

	*k = read_u32();
	if (*k > n)
		fail("08P01", NULL, NULL, "the reader was asked for %u of %u tags", *k, n);
	idx = xmalloc((size_t) (*k > 0 ? *k : 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i < *k; i++)
	{
		idx[i] = read_u32();
		if (idx[i] >= n || (i > 0 && idx[i] <= idx[i - 1]))
			fail("08P01", NULL, NULL, "the reader was asked for tag %u of %u out of order", idx[i], n);
	}
	return idx;
}
