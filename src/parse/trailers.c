/* trailers.c — git's trailers of a commit message, as "%(trailers:only,unfold)" prints them */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE				/* memrchr */
#endif
#include "trailers.h"

#include <string.h>

/*
 * Follows git 2.39: pretty.c (the message starts at the subject), commit.c
 * ignore_non_trailer and wt-status.c wt_status_locate_end (the end of the
 * message), trailer.c find_trailer_start, trailer_info_get, parse_trailer,
 * unfold_value and format_trailer_info.  Offsets inside the helpers are
 * relative to the subject; the iterator holds absolute ones.
 */

#define COMMENT_CHAR '#'

static const char cut_line[] = "# ------------------------ >8 ------------------------\n";
static const char conflicts[] = "Conflicts:\n";
static const char *const generated_prefixes[] = {
	"Signed-off-by: ",
	"(cherry picked from commit ",
};

/* git's isspace(): not '\f' or '\v' */
static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* Offset just past the line starting at p: after its '\n', or len. */
static size_t next_line(const char *s, size_t p, size_t len)
{
	const char *nl = memchr(s + p, '\n', len - p);

	return nl ? (size_t) (nl - s) + 1 : len;
}

/* Start of the line before offset end, which is a line start or len; git's
 * last_line(), where a final '\n' belongs to the last line.  False at 0. */
static bool prev_line(const char *s, size_t end, size_t *start)
{
	const char *nl;

	if (end == 0)
		return false;
	/* the last '\n' before the line's last byte */
	nl = end > 1 ? memrchr(s, '\n', end - 1) : NULL;
	*start = nl ? (size_t) (nl - s) + 1 : 0;
	return true;
}

static bool starts_with(const char *s, size_t p, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len - p >= n && memcmp(s + p, prefix, n) == 0;
}

/* The line at p holds only whitespace (git's trailer.c is_blank_line). */
static bool is_blank_line(const char *s, size_t p, size_t len)
{
	while (p < len && s[p] != '\n' && is_space((unsigned char) s[p]))
		p++;
	return p == len || s[p] == '\n';
}

/*
 * git's find_separator() >= 1: the offset of ':' from p when the line at p
 * reads [A-Za-z0-9-]+[ \t]*: and 0 when it does not (a line starting with
 * ':' is no trailer either).
 */
static size_t separator(const char *s, size_t p, size_t len)
{
	bool blank_seen = false;
	size_t c;

	for (c = p; c < len; c++)
	{
		unsigned char ch = (unsigned char) s[c];

		if (ch == ':')
			return c - p;
		if (!blank_seen && (is_alnum(ch) || ch == '-'))
			continue;
		if (c != p && (ch == ' ' || ch == '\t'))
		{
			blank_seen = true;
			continue;
		}
		break;
	}
	return 0;
}

/*
 * End of the log message proper: before the cut line of "git commit -v"
 * (wt_status_locate_end), then before trailing empty lines, comment lines
 * and an old "Conflicts:" block (git's ignore_non_trailer, including its
 * quirk that a run starting at offset 0 is not remembered).  One pass over
 * the lines, which also counts the '\n' before the end into *nls.
 */
static size_t end_of_message(const char *s, size_t len, size_t *nls)
{
	size_t boc = 0, bol = 0, n = 0, boc_n = 0;
	bool in_conflicts = false;

	while (bol < len)
	{
		const char *nl;
		size_t next;

		/* the first cut line ends the message: the lines after it do not count */
		if (s[bol] == COMMENT_CHAR && starts_with(s, bol, len, cut_line))
			break;
		nl = memchr(s + bol, '\n', len - bol);
		next = nl ? (size_t) (nl - s) + 1 : len;
		if (s[bol] == COMMENT_CHAR || s[bol] == '\n')
		{
			if (!boc)
			{
				boc = bol;
				boc_n = n;
			}
		}
		else if (s[bol] == conflicts[0] && starts_with(s, bol, len, conflicts))
		{
			in_conflicts = true;
			if (!boc)
			{
				boc = bol;
				boc_n = n;
			}
		}
		else if (in_conflicts && s[bol] == '\t')
			;					/* a path of the conflicts block */
		else if (boc)
		{
			boc = 0;
			in_conflicts = false;
		}
		if (nl != NULL)
			n++;
		bol = next;
	}
	*nls = boc ? boc_n : n;
	return boc ? boc : bol;
}

/* Start of the trailer block in s[0..len), or len when there is none. */
static size_t trailer_block_start(const char *s, size_t len)
{
	size_t end_of_title, l, end = len;
	size_t trailer_lines = 0, non_trailer_lines = 0, possible_continuations = 0;
	bool only_spaces = true, recognized_prefix = false;

	/* the first paragraph is the title and cannot be trailers (git skips
	 * comment lines here, but those are never blank anyway) */
	for (end_of_title = 0; end_of_title < len && !is_blank_line(s, end_of_title, len);
		 end_of_title = next_line(s, end_of_title, len))
		;

	/* from the last line up to a blank line */
	while (prev_line(s, end, &l) && l >= end_of_title)
	{
		size_t i;

		end = l;
		if (s[l] == COMMENT_CHAR)
		{
			non_trailer_lines += possible_continuations;
			possible_continuations = 0;
			continue;
		}
		if (is_blank_line(s, l, len))
		{
			if (only_spaces)
				continue;
			non_trailer_lines += possible_continuations;
			if ((recognized_prefix && trailer_lines * 3 >= non_trailer_lines) ||
				(trailer_lines > 0 && non_trailer_lines == 0))
				return next_line(s, l, len);
			return len;
		}
		only_spaces = false;

		for (i = 0; i < sizeof(generated_prefixes) / sizeof(generated_prefixes[0]); i++)
			if (starts_with(s, l, len, generated_prefixes[i]))
				break;
		if (i < sizeof(generated_prefixes) / sizeof(generated_prefixes[0]))
		{
			trailer_lines++;
			possible_continuations = 0;
			recognized_prefix = true;
		}
		else if (separator(s, l, len) > 0)
		{
			trailer_lines++;
			possible_continuations = 0;
		}
		else if (is_space((unsigned char) s[l]))
			possible_continuations++;
		else
		{
			non_trailer_lines += 1 + possible_continuations;
			possible_continuations = 0;
		}
	}
	return len;
}

void fixes_trailers_begin(fixes_trailers_iter *it, const char *msg, size_t len)
{
	const char *nul = memchr(msg, '\0', len);
	size_t base = 0, start, end, p, end_nls;
	int lines = 0;

	if (nul != NULL)
		len = (size_t) (nul - msg);
	/* the message starts at its subject (pretty.c skip_blank_lines) */
	while (base < len && is_blank_line(msg, base, len))
	{
		base = next_line(msg, base, len);
		if (msg[base - 1] == '\n')
			lines++;
	}

	end = end_of_message(msg + base, len - base, &end_nls);
	start = trailer_block_start(msg + base, end);

	/* the lines before the block: those before its end, less the block's */
	lines += (int) end_nls;
	for (p = base + start; p < base + end;)
	{
		const char *nl = memchr(msg + p, '\n', base + end - p);

		if (nl == NULL)
			break;
		lines--;
		p = (size_t) (nl - msg) + 1;
	}
	it->msg = msg;
	it->pos = base + start;
	it->end = base + end;
	it->line = lines;
	it->position = 0;
}

bool fixes_trailers_next(fixes_trailers_iter *it, fixes_git_trailer *out)
{
	const char *s = it->msg;

	while (it->pos < it->end)
	{
		size_t bol = it->pos;
		size_t sep = separator(s, bol, it->end);
		size_t v0, v1, i, n;

		it->pos = next_line(s, bol, it->end);
		it->line++;
		if (sep == 0)
			continue;			/* not a trailer, nor a continuation of one */

		/* lines starting with whitespace continue this trailer */
		out->line = it->line;
		while (it->pos < it->end && is_space((unsigned char) s[it->pos]))
		{
			it->pos = next_line(s, it->pos, it->end);
			it->line++;
		}

		out->position = ++it->position;
		out->key_off = bol;
		out->key_len = sep;
		while (out->key_len > 0 && is_space((unsigned char) s[bol + out->key_len - 1]))
			out->key_len--;

		v0 = bol + sep + 1;
		v1 = it->pos;
		while (v0 < v1 && is_space((unsigned char) s[v0]))
			v0++;
		while (v1 > v0 && is_space((unsigned char) s[v1 - 1]))
			v1--;
		out->val_off = v0;
		out->val_len = v1 - v0;

		/* a line break and the whitespace after it unfold into one space */
		for (i = v0, n = 0; i < v1; n++)
			if (s[i++] == '\n')
				while (i < v1 && is_space((unsigned char) s[i]))
					i++;
		out->unfolded_len = n;
		return true;
	}
	return false;
}

size_t fixes_trailer_unfold(const char *msg, const fixes_git_trailer *t, char *buf)
{
	size_t i = t->val_off, end = t->val_off + t->val_len, n = 0;

	while (i < end)
	{
		char c = msg[i++];

		if (c == '\n')
		{
			while (i < end && is_space((unsigned char) msg[i]))
				i++;
			c = ' ';
		}
		buf[n++] = c;
	}
	return n;
}
