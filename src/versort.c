/* versort.c — version sort comparison of tag names (like v:refname) */
#include "versort.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* Length of the run starting at s: all digits or all non-digits. */
static size_t run_length(const unsigned char *s)
{
	bool digits = is_digit(s[0]);
	size_t n = 0;

	while (s[n] != '\0' && is_digit(s[n]) == digits)
		n++;
	return n;
}

static int sign_of(int v)
{
	return (v > 0) - (v < 0);
}

/* Compares two digit runs as numbers of any length. */
static int compare_numbers(const unsigned char *a, size_t alen,
						   const unsigned char *b, size_t blen)
{
	while (alen > 0 && *a == '0')
		a++, alen--;
	while (blen > 0 && *b == '0')
		b++, blen--;
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return sign_of(memcmp(a, b, alen));
}

/* Compares two runs bytewise: common length first, then the shorter first. */
static int compare_bytes(const unsigned char *a, size_t alen,
						 const unsigned char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c != 0)
		return sign_of(c);
	return (alen > blen) - (alen < blen);
}

int fixes_version_cmp(const char *a, const char *b)
{
	const unsigned char *pa = (const unsigned char *) a;
	const unsigned char *pb = (const unsigned char *) b;

	while (*pa != '\0' && *pb != '\0')
	{
		size_t alen = run_length(pa);
		size_t blen = run_length(pb);
		int c;

		if (is_digit(*pa) && is_digit(*pb))
			c = compare_numbers(pa, alen, pb, blen);
		else
			c = compare_bytes(pa, alen, pb, blen);
		if (c != 0)
			return c;
		pa += alen;
		pb += blen;
	}
	if (*pa != '\0' || *pb != '\0')
		return *pa != '\0' ? 1 : -1;
	return sign_of(strcmp(a, b));
}
