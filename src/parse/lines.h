/*
 * lines.h — the lines of a message, one at a time, for the parsers that
 * look at each line alone (trailer.c, backport.c)
 */
#ifndef FIXES_LINES_H
#define FIXES_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/*
 * The line of s[0..len) that starts at *pos: [*start, *end), without its
 * '\n'; *pos moves past it and *line counts it.  False at the end.
 */
static inline bool
fixes_next_line(const unsigned char *s, size_t len, size_t *pos, int *line, size_t *start,
				size_t *end)
{
	const unsigned char *nl;

	if (*pos >= len)
		return false;
	*start = *pos;
	nl = memchr(s + *start, '\n', len - *start);
	*end = nl ? (size_t) (nl - s) : len;
	*pos = nl ? *end + 1 : len;
	(*line)++;
	return true;
}

#endif							/* FIXES_LINES_H */
