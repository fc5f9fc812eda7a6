/*
 * delta.c — git's delta format applied to a base: the object a pack stores
 * as the difference from another
 *
 * A delta (git's Documentation/gitformat-pack.txt, "Deltified
 * representation") is the base's size and the result's size, each a
 * little-endian base-128 number, then instructions until its end: a byte
 * with the high bit set copies from the base (its low four bits say which
 * of four offset bytes follow, the next three which of three size bytes; a
 * size of 0 is 0x10000), a byte 1..127 inserts that many bytes that follow,
 * and a byte 0 is reserved (an error).  The pack's bytes are input like the
 * rest of a repository: every read of the delta and of the base is
 * checked, the result must be exactly the size the delta declares, and a
 * size above max is not attempted.  pack_read.c calls it; test/unit/
 * test_delta.c and test/fuzz/fuzz_delta.c check it.  No libgit2 here.
 */
#include "delta.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static size_t
delta_varint(const unsigned char **d, const unsigned char *end, bool *ok)
{
	size_t		v = 0;
	int			shift = 0;
	unsigned char c;

	do
	{
		if (*d >= end || shift > 56)
		{
			*ok = false;
			return 0;
		}
		c = *(*d)++;
		v |= (size_t) (c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	return v;
}

unsigned char *
delta_apply(const unsigned char *base, size_t base_size, const unsigned char *delta,
			size_t delta_size, size_t max, size_t *out_size)
{
	const unsigned char *d = delta;
	const unsigned char *end = delta + delta_size;
	bool		ok = true;
	size_t		src = delta_varint(&d, end, &ok);
	size_t		dst = delta_varint(&d, end, &ok);
	unsigned char *out,
			   *o;
	size_t		left;

	if (!ok || src != base_size || dst > max)
		return NULL;
	out = malloc(dst + 1);
	if (out == NULL)
		return NULL;
	o = out;
	left = dst;
	while (d < end)
	{
		unsigned char cmd = *d++;

		if (cmd & 0x80)
		{
			size_t		off = 0,
						n = 0;

			for (int i = 0; i < 4; i++)
				if (cmd & (1 << i))
				{
					if (d >= end)
						goto fail;
					off |= (size_t) *d++ << (8 * i);
				}
			for (int i = 0; i < 3; i++)
				if (cmd & (0x10 << i))
				{
					if (d >= end)
						goto fail;
					n |= (size_t) *d++ << (8 * i);
				}
			if (n == 0)
				n = 0x10000;
			if (off > base_size || n > base_size - off || n > left)
				goto fail;
			memcpy(o, base + off, n);
			o += n;
			left -= n;
		}
		else if (cmd != 0)
		{
			if (cmd > left || (size_t) (end - d) < cmd)
				goto fail;
			memcpy(o, d, cmd);
			o += cmd;
			d += cmd;
			left -= cmd;
		}
		else
			goto fail;
	}
	if (left != 0)
		goto fail;
	out[dst] = '\0';
	*out_size = dst;
	return out;
fail:
	free(out);
	return NULL;
}
