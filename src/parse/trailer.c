/* trailer.c — finds Linux-style "Fixes: <hex> ("subject")" trailer lines and revert lines */
#include "trailer.h"
#include "hex.h"
#include "lines.h"

#include <string.h>

#define HEX_MIN 6
#define HEX_MAX 40
#define REVERT_HEX_MIN 7

/* The quote pairs taken off a subject in parentheses, tried in this order. */
static const struct {
	const char *open, *close;
} quote_pairs[] = {
	{"\"", "\""},
	{"\xe2\x80\x9c", "\xe2\x80\x9d"},	/* U+201C ... U+201D */
	{"\xe2\x80\x9c", "\xe2\x80\x9c"},	/* U+201C ... U+201C */
	{"'", "'"},
};

static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
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
	for (h = p; h < end && fixes_is_hex(s[h]) && h - p <= HEX_MAX; h++)
		;
	if (h - p < HEX_MIN || h - p > HEX_MAX || (h < end && is_word(s[h])))
		return false;
	*hex_off = p;
	*hex_len = h - p;
	return true;
}

/* Matches the revert prefix on line s[start..end); sets the hex range. */
static bool match_revert(const unsigned char *s, size_t start, size_t end,
						 size_t *hex_off, size_t *hex_len)
{
	size_t p = skip_blanks(s, start, end);
	size_t q, h;

	if (p == end || to_lower(s[p]) != 't' || !has_word_ci(s, p, end, "this reverts commit", 19))
		return false;
	q = skip_blanks(s, p + 19, end);
	if (q == p + 19)
		return false;
	for (h = q; h < end && fixes_is_hex(s[h]) && h - q <= HEX_MAX; h++)
		;
	if (h - q < REVERT_HEX_MIN || h - q > HEX_MAX)
		return false;
	*hex_off = q;
	*hex_len = h - q;
	return true;
}

static bool has_bytes(const unsigned char *s, size_t p, size_t end, const char *bytes)
{
	size_t n = strlen(bytes);

	return end - p >= n && memcmp(s + p, bytes, n) == 0;
}

/* Whether s[from..end) holds something besides quote marks (each quote mark
 * closes one of the pairs). */
static bool more_than_quotes(const unsigned char *s, size_t from, size_t end)
{
	size_t p = from, i;

	while (p < end)
	{
		for (i = 0; i < sizeof(quote_pairs) / sizeof(quote_pairs[0]); i++)
			if (has_bytes(s, p, end, quote_pairs[i].close))
				break;
		if (i == sizeof(quote_pairs) / sizeof(quote_pairs[0]))
			return true;
		p += strlen(quote_pairs[i].close);
	}
	return false;
}

/*
 * The subject in parentheses without '("': from the first '(' in
 * s[from..end) to the last ')' of the line, trimmed, less one pair of
 * surrounding quotes.
 */
static bool paren_subject(const unsigned char *s, size_t from, size_t end,
						  size_t *subj_off, size_t *subj_len)
{
	const unsigned char *open = memchr(s + from, '(', end - from);
	size_t a, b, i;

	if (open == NULL)
		return false;
	a = (size_t) (open - s) + 1;
	for (b = end; b > a && s[b - 1] != ')'; b--)
		;
	if (b == a)
		return false;
	b--;						/* the last ')' */
	a = skip_blanks(s, a, b);
	while (b > a && is_blank(s[b - 1]))
		b--;
	for (i = 0; i < sizeof(quote_pairs) / sizeof(quote_pairs[0]); i++)
	{
		size_t o = strlen(quote_pairs[i].open), c = strlen(quote_pairs[i].close);

		if (b - a >= o + c && has_bytes(s, a, b, quote_pairs[i].open) &&
			has_bytes(s, b - c, b, quote_pairs[i].close))
		{
			a += o;
			b -= c;
			break;
		}
	}
	if (!more_than_quotes(s, a, b))
		return false;
	*subj_off = a;
	*subj_len = b - a;
	return true;
}

bool fixes_trailer_next(const char *msg, size_t len, fixes_trailer_cursor *cur,
						fixes_trailer *out)
{
	const unsigned char *s = (const unsigned char *) msg;
	size_t start, end;

	while (fixes_next_line(s, len, &cur->pos, &cur->line, &start, &end))
	{
		size_t hex_off, hex_len, open, close, first;

		if (end > start && s[end - 1] == '\r')
			end--;
		/* most lines start with neither word: one look at their first letter */
		first = skip_blanks(s, start, end);
		if (first == end || (to_lower(s[first]) != 'f' && to_lower(s[first]) != 't'))
			continue;
		if (match_fixes(s, start, end, &hex_off, &hex_len))
			out->kind = FIXES_TRAILER_FIXES;
		else if (match_revert(s, start, end, &hex_off, &hex_len))
			out->kind = FIXES_TRAILER_REVERT;
		else
			continue;

		out->line = cur->line;
		out->raw_off = start;
		out->raw_len = end - start;
		out->hex_off = hex_off;
		out->hex_len = hex_len;
		out->has_subject = false;
		out->subj_off = out->subj_len = 0;
		if (out->kind == FIXES_TRAILER_REVERT)
			return true;
		/* the prefix holds no '(' or '"', so searching after it is the same
		 * as searching the whole line */
		open = find_open_quote(s, hex_off + hex_len, end);
		close = find_close_quote(s, hex_off + hex_len, end);
		if (open < end && close < end && close >= open + 2)
		{
			out->has_subject = true;
			out->subj_off = open + 2;
			out->subj_len = close - (open + 2);
		}
		else
			out->has_subject = paren_subject(s, hex_off + hex_len, end, &out->subj_off,
											 &out->subj_len);
		return true;
	}
	return false;
}

bool fixes_revert_subject(const char *subject, size_t len, size_t *off, size_t *sublen)
{
	const unsigned char *s = (const unsigned char *) subject;
	size_t last;

	if (len < 8 || !has_word_ci(s, 0, len, "revert \"", 8))
		return false;
	for (last = len - 1; last > 7 && s[last] != '"'; last--)
		;
	if (last <= 8)
		return false;			/* one quote only, or nothing between the two */
	*off = 8;
	*sublen = last - 8;
	return true;
}
