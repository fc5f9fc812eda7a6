/* backport.c — finds the lines that name the upstream commit of a backport */
#include "backport.h"
#include "hex.h"
#include "lines.h"

#include <string.h>

#define HEX_MIN 7
#define HEX_MAX 40

static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static unsigned char to_lower(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? (unsigned char) (c + ('a' - 'A')) : c;
}

static size_t skip_blanks(const unsigned char *s, size_t p, size_t end)
{
	while (p < end && is_blank(s[p]))
		p++;
	return p;
}

/* Case-insensitive match of the lower-case ASCII text at s[*p..end); on a
 * match, advances *p past it. */
static bool take_word(const unsigned char *s, size_t *p, size_t end, const char *word)
{
	size_t n = strlen(word), i;

	if (end - *p < n)
		return false;
	for (i = 0; i < n; i++)
		if (to_lower(s[*p + i]) != (unsigned char) word[i])
			return false;
	*p += n;
	return true;
}

/* One or more blanks at *p (\s+); advances past them. */
static bool take_blanks(const unsigned char *s, size_t *p, size_t end)
{
	size_t q = skip_blanks(s, *p, end);

	if (q == *p)
		return false;
	*p = q;
	return true;
}

/* 7..40 hex digits at *p, not followed by another hex digit. */
static bool take_hex(const unsigned char *s, size_t *p, size_t end, size_t *hex_off,
					 size_t *hex_len)
{
	size_t h = *p;

	while (h < end && fixes_is_hex(s[h]) && h - *p <= HEX_MAX)
		h++;
	if (h - *p < HEX_MIN || h - *p > HEX_MAX)
		return false;
	*hex_off = *p;
	*hex_len = h - *p;
	*p = h;
	return true;
}

/* Matches the line s[start..end) against the three forms. */
static bool match_backport(const unsigned char *s, size_t start, size_t end,
						   fixes_backport *out)
{
	size_t p = skip_blanks(s, start, end);

	if (p == end)
		return false;
	if (to_lower(s[p]) == 'c')
	{
		/* commit <hex> upstream. */
		if (!take_word(s, &p, end, "commit") || !take_blanks(s, &p, end) ||
			!take_hex(s, &p, end, &out->hex_off, &out->hex_len) ||
			!take_blanks(s, &p, end) || !take_word(s, &p, end, "upstream"))
			return false;
		if (p < end && s[p] == '.')
			p++;
		out->form = FIXES_BACKPORT_UPSTREAM;
	}
	else if (s[p] == '[')
	{
		/* [ upstream commit <hex> ] */
		p = skip_blanks(s, p + 1, end);
		if (!take_word(s, &p, end, "upstream") || !take_blanks(s, &p, end) ||
			!take_word(s, &p, end, "commit") || !take_blanks(s, &p, end) ||
			!take_hex(s, &p, end, &out->hex_off, &out->hex_len))
			return false;
		p = skip_blanks(s, p, end);
		if (p == end || s[p] != ']')
			return false;
		p++;
		out->form = FIXES_BACKPORT_BRACKETED;
	}
	else if (s[p] == '(')
	{
		/* (cherry picked from commit <hex>) */
		p++;
		if (!take_word(s, &p, end, "cherry picked from commit") || !take_blanks(s, &p, end) ||
			!take_hex(s, &p, end, &out->hex_off, &out->hex_len) || p == end || s[p] != ')')
			return false;
		p++;
		out->form = FIXES_BACKPORT_CHERRY_PICK;
	}
	else
		return false;
	return skip_blanks(s, p, end) == end;
}

bool fixes_backport_next(const char *msg, size_t len, fixes_backport_cursor *cur,
						 fixes_backport *out)
{
	const unsigned char *s = (const unsigned char *) msg;
	size_t start, end;

	while (fixes_next_line(s, len, &cur->pos, &cur->line, &start, &end))
	{
		if (!match_backport(s, start, end, out))
			continue;
		out->line = cur->line;
		out->raw_off = start;
		out->raw_len = end - start;
		if (out->raw_len > 0 && s[end - 1] == '\r')
			out->raw_len--;
		return true;
	}
	return false;
}
