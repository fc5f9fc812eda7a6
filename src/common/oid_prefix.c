/*
 * oid_prefix.c — find the commits whose id starts with an abbreviated hex id
 *
 * Pure C, no PostgreSQL.  The commits are indexed once by the first 8 bytes
 * of their binary id, sorted with an LSD radix sort (8 passes of 8 bits, no
 * comparisons); an abbreviation of up to 16 hex digits is then a key range
 * found by binary search, and longer ones are checked digit by digit on the
 * few candidates of that range.
 */
#include <string.h>

#include "oid.h"
#include "oid_prefix.h"

uint64_t
fixes_prefix_key(const unsigned char *raw_id)
{
	uint64_t	k = 0;

	for (int i = 0; i < 8; i++)
		k = (k << 8) | raw_id[i];
	return k;
}

/* sort entries[0..n) by key; tmp has room for n entries */
void
fixes_prefix_sort(fixes_prefix_entry *entries, fixes_prefix_entry *tmp, size_t n)
{
	fixes_prefix_entry *src = entries;
	fixes_prefix_entry *dst = tmp;

	for (int shift = 0; shift < 64; shift += 8)
	{
		size_t		count[257] = {0};
		fixes_prefix_entry *swap;

		for (size_t i = 0; i < n; i++)
			count[((src[i].key >> shift) & 0xff) + 1]++;
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i].key >> shift) & 0xff]++] = src[i];
		swap = src;
		src = dst;
		dst = swap;
	}
	/* an even number of passes leaves the result in entries */
}

/* does the hex abbreviation (any length up to 40) prefix the 20-byte id? */
int
fixes_hex_prefix_matches(const unsigned char *raw_id, const char *hex, size_t hex_len)
{
	for (size_t i = 0; i < hex_len && i < 40; i++)
	{
		int			nibble = (i % 2 == 0) ? raw_id[i / 2] >> 4 : raw_id[i / 2] & 0x0f;

		if (fixes_hex_digit(hex[i]) != nibble)
			return 0;
	}
	return hex_len <= 40;
}

/*
 * The entries whose key agrees with the first min(hex_len, 16) digits of hex:
 * returns their number and sets *first to the first of them.  Callers check
 * digits beyond the 16th with fixes_hex_prefix_matches().
 */
size_t
fixes_prefix_range(const fixes_prefix_entry *entries, size_t n,
				   const char *hex, size_t hex_len, size_t *first)
{
	size_t		digits = hex_len < 16 ? hex_len : 16;
	uint64_t	lo = 0;
	uint64_t	hi;
	size_t		a = 0;
	size_t		b = n;

	for (size_t i = 0; i < digits; i++)
	{
		int			v = fixes_hex_digit(hex[i]);

		if (v < 0)
		{
			*first = 0;
			return 0;
		}
		lo |= (uint64_t) v << (60 - 4 * i);
	}
	hi = digits == 16 ? lo : lo | ((~(uint64_t) 0) >> (4 * digits));

	while (a < b)
	{
		size_t		m = a + (b - a) / 2;

		if (entries[m].key < lo)
			a = m + 1;
		else
			b = m;
	}
	*first = a;
	b = a;
	while (b < n && entries[b].key <= hi)
		b++;
	return b - a;
}
