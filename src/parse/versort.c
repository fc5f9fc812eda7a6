/*
 * versort.c — version order of tag names, as `git tag --sort=v:refname`
 *
 * git compares two names with versioncmp() (glibc's strverscmp) and no
 * versionsort.suffix set: the result is decided at the first byte where
 * the names differ, by what surrounds it.  The common prefix may end in a
 * run of ASCII digits that the differing bytes extend; that run is
 *
 *   absent    the differing bytes compare as unsigned bytes, except that two
 *             digits 1-9 start two numbers: the longer digit run is greater,
 *             equal lengths compare by those first digits;
 *   integral  (it starts with 1-9) a digit beats a non-digit, since that
 *             number goes on; two digits compare as the rest of the numbers:
 *             the longer remaining digit run, then the bytes;
 *   zeros     (only 0s so far) the name whose run ends is the greater one,
 *             since more leading zeros sort first; otherwise bytes;
 *   fraction  (leading 0s, then other digits) plain bytes.
 *
 * Only identical names compare equal, so the order is total.  Nothing is
 * converted to a number: digit runs of any length are only measured.
 */
#include "versort.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum digit_context
{
	CONTEXT_NONE,				/* no digit right before the difference */
	CONTEXT_INTEGRAL,			/* a digit run that starts with 1-9 */
	CONTEXT_ZEROS,				/* a run of 0s only */
	CONTEXT_FRACTION			/* a run of 0s followed by other digits */
} digit_context;

static bool
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int
compare_bytes(unsigned char a, unsigned char b)
{
	return (a > b) - (a < b);
}

/*
 * Compares two digit runs that start at the first difference, a[0] != b[0]
 * both digits: the run with more digits is greater, else the first bytes
 * decide.
 */
static int
compare_digit_runs(const unsigned char *a, const unsigned char *b)
{
	size_t		i = 1;

	while (is_digit(a[i]) && is_digit(b[i]))
		i++;
	if (is_digit(a[i]))
		return 1;
	if (is_digit(b[i]))
		return -1;
	return compare_bytes(a[0], b[0]);
}

int
fixes_version_cmp(const char *a, const char *b)
{
	const unsigned char *pa = (const unsigned char *) a;
	const unsigned char *pb = (const unsigned char *) b;
	digit_context context = CONTEXT_NONE;
	size_t		off = 0;
	bool		da,
				db;

	/* Walk the common prefix, keeping the state of its last digit run. */
	while (pa[off] == pb[off])
	{
		unsigned char c = pa[off];

		if (c == '\0')
			return 0;
		if (!is_digit(c))
			context = CONTEXT_NONE;
		else if (context == CONTEXT_NONE)
			context = c == '0' ? CONTEXT_ZEROS : CONTEXT_INTEGRAL;
		else if (context == CONTEXT_ZEROS && c != '0')
			context = CONTEXT_FRACTION;
		off++;
	}

	pa += off;
	pb += off;
	da = is_digit(*pa);
	db = is_digit(*pb);
	switch (context)
	{
		case CONTEXT_NONE:
			if (da && db && *pa != '0' && *pb != '0')
				return compare_digit_runs(pa, pb);
			break;
		case CONTEXT_INTEGRAL:
			if (da && db)
				return compare_digit_runs(pa, pb);
			if (da != db)
				return da ? 1 : -1;
			break;
		case CONTEXT_ZEROS:
			if (da != db)
				return da ? -1 : 1;
			break;
		case CONTEXT_FRACTION:
			break;
	}
	return compare_bytes(*pa, *pb);
}
