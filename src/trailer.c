/* trailer.c — finds Linux-style "Fixes: <hex> ("subject")" trailer lines */
#include "trailer.h"

#include <string.h>

#define HEX_MIN 6
#define HEX_MAX 40

static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

static bool is_word(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
		c == '_';
}

static unsigned char to_lower(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? (unsigned char) (c + ('a' - 'A')) : c;
}

/* Case-insensitive match of the lower-case ASCII word at s[p..]; p <= end. */
static bool has_word_ci(const unsigned char *s, size_t p, size_t end,
						const char *word, size_t wlen)
{
	size_t i;

	if (end - p < wlen)
		return false;
	for (i = 0; i < wlen; i++)
		if (to_lower(s[p + i]) != (unsigned char) word[i])
			return false;
	return true;
}

static size_t skip_blanks(const unsigned char *s, size_t p, size_t end)
{
	while (p < end && is_blank(s[p]))
		p++;
	return p;
}

/* Offset of the first '("' in s[from..end), or end when absent. */
static size_t find_open_quote(const unsigned char *s, size_t from, size_t end)
{
	size_t p;

	for (p = from; p + 1 < end; p++)
		if (s[p] == '(' && s[p + 1] == '"')
			return p;
	return end;
}

/* Offset of the last '")' in s[from..end), or end when absent. */
static size_t find_close_quote(const unsigned char *s, size_t from, size_t end)
{
	size_t p;

	for (p = end; p >= from + 2; p--)
		if (s[p - 2] == '"' && s[p - 1] == ')')
			return p - 2;
	return end;
}

/* Matches the Fixes prefix on line s[start..end); sets the hex range. */
static bool match_fixes(const unsigned char *s, size_t start, size_t end,
						size_t *hex_off, size_t *hex_len)
{
	size_t p = skip_blanks(s, start, end);
	size_t h;

	/* the first test rejects almost every line of a message at once */
	if (p == end || to_lower(s[p]) != 'f' || !has_word_ci(s, p, end, "fixes:", 6))
		return false;
	p = skip_blanks(s, p + 6, end);
	if (p < end && has_word_ci(s, p, end, "commit", 6))
	{
		/* 'c' is hex but "co" never is: commit must be followed by \s+ */
		size_t q = skip_blanks(s, p + 6, end);

		if (q == p + 6)
			return false;
		p = q;
	}
	for (h = p; h < end && is_hex(s[h]) && h - p <= HEX_MAX; h++)
		;
	if (h - p < HEX_MIN || h - p > HEX_MAX || (h < end && is_word(s[h])))
		return false;
	*hex_off = p;
	*hex_len = h - p;
	return true;
}

bool fixes_trailer_next(const char *msg, size_t len, fixes_trailer_cursor *cur,
						fixes_trailer *out)
{
	const unsigned char *s = (const unsigned char *) msg;

	while (cur->pos < len)
	{
		size_t start = cur->pos;
		const unsigned char *nl = memchr(s + start, '\n', len - start);
		size_t end = nl ? (size_t) (nl - s) : len;
		size_t hex_off, hex_len, open, close;

		cur->pos = nl ? end + 1 : len;
		cur->line++;
		if (end > start && s[end - 1] == '\r')
			end--;
		if (!match_fixes(s, start, end, &hex_off, &hex_len))
			continue;

		out->line = cur->line;
		out->raw_off = start;
		out->raw_len = end - start;
		out->hex_off = hex_off;
		out->hex_len = hex_len;
		/* the prefix holds no '(' or '"', so searching after it is the same
		 * as searching the whole line */
		open = find_open_quote(s, hex_off + hex_len, end);
		close = find_close_quote(s, hex_off + hex_len, end);
		out->has_subject = open < end && close < end && close >= open + 2;
		out->subj_off = out->has_subject ? open + 2 : 0;
		out->subj_len = out->has_subject ? close - (open + 2) : 0;
		return true;
	}
	return false;
}
