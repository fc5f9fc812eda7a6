/* commit_raw.c — parser of a raw git commit object buffer */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE				/* memrchr */
#endif
#include "commit_raw.h"
#include "hex.h"

#include <stdbool.h>
#include <string.h>

#define TREE_LINE_LEN   (5 + FIXES_OID_HEXSZ + 1)	/* "tree " hex "\n" */
#define PARENT_LINE_LEN (7 + FIXES_OID_HEXSZ + 1)	/* "parent " hex "\n" */

static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

/* True when s[0..len) is exactly prefix, 40 hex digits and '\n'. */
static bool is_oid_line(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	unsigned char all = 0x20;
	size_t i;

	if (len < n + FIXES_OID_HEXSZ + 1 || memcmp(s, prefix, n) != 0)
		return false;
	/* every digit looked up, without a branch each */
	for (i = n; i < n + FIXES_OID_HEXSZ; i++)
		all &= fixes_hex_value[(unsigned char) s[i]];
	return all != 0 && s[n + FIXES_OID_HEXSZ] == '\n';
}

/* Length of the line at s, including its '\n' when there is one. */
static size_t line_length(const char *s, size_t len)
{
	const char *nl = memchr(s, '\n', len);

	return nl ? (size_t) (nl - s) + 1 : len;
}

static void trim_blanks(const char **s, size_t *len)
{
	while (*len > 0 && is_blank((unsigned char) (*s)[0]))
		(*s)++, (*len)--;
	while (*len > 0 && is_blank((unsigned char) (*s)[*len - 1]))
		(*len)--;
}

/* Parses "[-]digits" followed by a blank or the end; 0 when garbled. */
static int64_t parse_time(const char *s, size_t len, size_t *used)
{
	size_t i = 0;
	bool negative = false;
	int64_t v = 0;

	*used = 0;
	if (i < len && s[i] == '-')
		negative = true, i++;
	if (i == len || !is_digit((unsigned char) s[i]))
		return 0;
	for (; i < len && is_digit((unsigned char) s[i]); i++)
	{
		int d = s[i] - '0';

		if (v >= INT64_MAX / 10 && v > (INT64_MAX - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	if (i < len && !is_blank((unsigned char) s[i]))
		return 0;
	*used = i;
	return negative ? -v : v;
}

/* Parses "+hhmm" or "-hhmm" followed by a blank or the end; 0 when odd. */
static int parse_tz(const char *s, size_t len)
{
	int i, hh, mm;

	if (len < 5 || (s[0] != '+' && s[0] != '-'))
		return 0;
	for (i = 1; i < 5; i++)
		if (!is_digit((unsigned char) s[i]))
			return 0;
	if (len > 5 && !is_blank((unsigned char) s[5]))
		return 0;
	hh = (s[1] - '0') * 10 + (s[2] - '0');
	mm = (s[3] - '0') * 10 + (s[4] - '0');
	if (mm >= 60)
		return 0;
	return (s[0] == '-' ? -1 : 1) * (hh * 60 + mm);
}

/* Reads time and time zone from the text after the last '>'. */
static void parse_date(const char *s, size_t len, fixes_signature *sig)
{
	size_t p = 0, used;

	while (p < len && is_blank((unsigned char) s[p]))
		p++;
	sig->time = parse_time(s + p, len - p, &used);
	if (used == 0)
		return;
	sig->has_time = 1;
	p += used;
	while (p < len && is_blank((unsigned char) s[p]))
		p++;
	sig->tz_minutes = parse_tz(s + p, len - p);
}

/* Splits the value of an author/committer header (without its '\n'). */
static void parse_signature(const char *s, size_t len, fixes_signature *sig)
{
	const char *lt = memchr(s, '<', len);
	const char *gt = lt ? memchr(lt + 1, '>', len - (size_t) (lt + 1 - s)) : NULL;
	const char *last_gt;

	memset(sig, 0, sizeof(*sig));
	sig->name = s;
	sig->name_len = len;
	sig->email = s + len;
	if (gt == NULL)
	{
		trim_blanks(&sig->name, &sig->name_len);
		return;
	}
	sig->name_len = (size_t) (lt - s);
	trim_blanks(&sig->name, &sig->name_len);
	sig->email = lt + 1;
	sig->email_len = (size_t) (gt - (lt + 1));
	last_gt = memrchr(s, '>', len);	/* gt is one */
	parse_date(last_gt + 1, (size_t) (s + len - (last_gt + 1)), sig);
}

/* Handles one header line after the tree/parent block; -1 if malformed. */
static int parse_header(const char *s, size_t n, fixes_raw_commit *out,
						bool *seen_author, bool *seen_committer)
{
	size_t vlen = (n > 0 && s[n - 1] == '\n') ? n - 1 : n;

	if (starts_with(s, vlen, "parent "))
		return -1;
	if (!*seen_author && starts_with(s, vlen, "author "))
	{
		parse_signature(s + 7, vlen - 7, &out->author);
		*seen_author = true;
	}
	else if (!*seen_committer && starts_with(s, vlen, "committer "))
	{
		parse_signature(s + 10, vlen - 10, &out->committer);
		*seen_committer = true;
	}
	else if (out->encoding == NULL && starts_with(s, vlen, "encoding "))
	{
		out->encoding = s + 9;
		out->encoding_len = vlen - 9;
	}
	return 0;
}

int fixes_raw_commit_parse(const char *buf, size_t len, fixes_raw_commit *out)
{
	size_t pos = TREE_LINE_LEN;
	bool seen_author = false, seen_committer = false;

	memset(out, 0, sizeof(*out));
	out->message = buf + len;
	if (!is_oid_line(buf, len, "tree "))
		return -1;
	out->tree_hex = buf + 5;

	while (pos < len && starts_with(buf + pos, len - pos, "parent "))
	{
		if (!is_oid_line(buf + pos, len - pos, "parent "))
			return -1;
		if (out->parents == NULL)
			out->parents = buf + pos;
		out->nparents++;
		pos += PARENT_LINE_LEN;
	}

	while (pos < len)
	{
		size_t n = line_length(buf + pos, len - pos);

		if (buf[pos] == '\n')
		{
			out->message = buf + pos + 1;
			out->message_len = len - (pos + 1);
			return 0;
		}
		if (parse_header(buf + pos, n, out, &seen_author, &seen_committer) < 0)
			return -1;
		pos += n;
	}
	return 0;
}

const char *fixes_raw_commit_parent(const fixes_raw_commit *c, int i)
{
	if (c->parents == NULL || i < 0 || i >= c->nparents)
		return NULL;
	return c->parents + (size_t) i * PARENT_LINE_LEN + 7;
}
