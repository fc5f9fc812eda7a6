/* summary.c — git's commit subject ("git log --format=%s") of a message */
#include "summary.h"

#include <stdbool.h>
#include <string.h>

static bool is_git_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* End of the line starting at p (offset of its '\n', or len). */
static size_t line_end(const char *msg, size_t p, size_t len)
{
	const char *nl = memchr(msg + p, '\n', len - p);

	return nl ? (size_t) (nl - msg) : len;
}

/* Length of msg[p..end) without trailing whitespace; 0 for a blank line. */
static size_t trimmed_length(const char *msg, size_t p, size_t end)
{
	while (end > p && is_git_space(msg[end - 1]))
		end--;
	return end - p;
}

size_t fixes_summary(const char *msg, size_t len, char *out)
{
	const char *nul = memchr(msg, '\0', len);
	size_t p = 0, n = 0;

	if (nul != NULL)
		len = (size_t) (nul - msg);

	/* skip leading blank lines */
	while (p < len)
	{
		size_t end = line_end(msg, p, len);

		if (trimmed_length(msg, p, end) != 0)
			break;
		p = end + 1;
	}

	/* join the lines of the first paragraph */
	while (p < len)
	{
		size_t end = line_end(msg, p, len);
		size_t linelen = trimmed_length(msg, p, end);

		if (linelen == 0)
			break;
		if (n > 0)
			out[n++] = ' ';
		memcpy(out + n, msg + p, linelen);
		n += linelen;
		p = end + 1;
	}
	out[n] = '\0';
	return n;
}
