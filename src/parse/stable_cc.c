/*
 * stable_cc.c — the "Cc: stable@..." line of a commit message (stable_cc.h)
 *
 * Pure C, no PostgreSQL: unit-tested (test/unit/test_stable_cc.c), fuzzed
 * (test/fuzz/fuzz_stable_cc.c) and checked against a regular expression
 * over git log (test/oracles/crosscheck.py).
 */
#include "stable_cc.h"

#include <string.h>

static bool
is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static bool
is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* a byte that can be part of an address's local part (RFC 5322 atext, '.', UTF-8) */
static bool
is_local(unsigned char c)
{
	return is_alnum(c) || c >= 0x80 || (c != 0 && strchr(".!#$%&'*+-/=?^_`{|}~", c) != NULL);
}

bool
fixes_stable_cc_line(const char *line, size_t len)
{
	static const char word[] = "stable@";
	const size_t wlen = sizeof(word) - 1;
	size_t		i = 0;
	size_t		start;
	size_t		end;

	while (i < len && is_blank((unsigned char) line[i]))
		i++;
	if (len - i < 3 || (line[i] | 0x20) != 'c' || (line[i + 1] | 0x20) != 'c' || line[i + 2] != ':')
		return false;
	start = i + 3;
	/* the value ends at the first '#' */
	end = start;
	while (end < len && line[end] != '#')
		end++;
	for (size_t p = start; p + wlen < end; p++)
	{
		size_t		k;

		if (p > start && is_local((unsigned char) line[p - 1]))
			continue;
		for (k = 0; k < wlen; k++)
			if ((line[p + k] | (k < wlen - 1 ? 0x20 : 0)) != word[k])
				break;
		if (k == wlen && is_alnum((unsigned char) line[p + wlen]))
			return true;
	}
	return false;
}

/*
 * The lines of a message are not read one by one: a Cc line holds "cc:", so
 * only the colons are looked at (memchr), and the line of a colon that
 * follows "cc" and blanks back to the start of its line is tested whole.
 * Most messages hold a handful of colons, where they hold dozens of lines.
 */
bool
fixes_stable_cc(const char *msg, size_t len)
{
	size_t		pos = 0;

	while (pos < len)
	{
		const char *colon = memchr(msg + pos, ':', len - pos);
		size_t		c;
		size_t		start;
		const char *nl;
		size_t		end;

		if (colon == NULL)
			break;
		c = (size_t) (colon - msg);
		pos = c + 1;
		if (c < 2 || (msg[c - 1] | 0x20) != 'c' || (msg[c - 2] | 0x20) != 'c')
			continue;
		start = c - 2;
		while (start > 0 && is_blank((unsigned char) msg[start - 1]))
			start--;
		if (start > 0 && msg[start - 1] != '\n')
			continue;
		nl = memchr(msg + c, '\n', len - c);
		end = nl ? (size_t) (nl - msg) : len;
		if (fixes_stable_cc_line(msg + start, end - start))
			return true;
		pos = end;
	}
	return false;
}
