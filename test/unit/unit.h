/* unit.h — tiny check helper shared by the unit tests (one main per test) */
#ifndef FIXES_UNIT_H
#define FIXES_UNIT_H

#include <stdio.h>
#include <stdint.h>
#include <string.h>

typedef struct unit_counts {
	int checks;
	int failures;
} unit_counts;

/* Counts one check; on failure prints where, the condition and a message. */
#define CHECK(u, cond, ...) \
	do { \
		(u)->checks++; \
		if (!(cond)) \
		{ \
			(u)->failures++; \
			fprintf(stderr, "%s:%d: FAILED: %s\n    ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
		} \
	} while (0)

/* Prints "name: N checks passed" (or the failures) and gives the exit code. */
static inline int unit_report(const char *name, const unit_counts *u)
{
	if (u->failures == 0)
		printf("%s: %d checks passed\n", name, u->checks);
	else
		printf("%s: %d of %d checks FAILED\n", name, u->failures, u->checks);
	return u->failures == 0 ? 0 : 1;
}

/* Writes s[0..len) into buf (size n) with C escapes for non-printables. */
static inline const char *unit_escape(const char *s, size_t len, char *buf, size_t n)
{
	size_t o = 0, i;

	for (i = 0; i < len && o + 5 < n; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if (c == '\n')
			o += (size_t) snprintf(buf + o, n - o, "\\n");
		else if (c == '\r')
			o += (size_t) snprintf(buf + o, n - o, "\\r");
		else if (c == '\t')
			o += (size_t) snprintf(buf + o, n - o, "\\t");
		else if (c == '\\')
			o += (size_t) snprintf(buf + o, n - o, "\\\\");
		else if (c < 0x20 || c >= 0x7f)
			o += (size_t) snprintf(buf + o, n - o, "\\x%02x", c);
		else
			buf[o++] = (char) c;
	}
	buf[o] = '\0';
	return buf;
}

/* The randomized differential tests: a xorshift64 generator (deterministic from its seed),
 * a pick in [0, n) and an append that never writes past cap. */
static inline uint64_t unit_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

static inline size_t unit_pick(uint64_t *state, size_t n)
{
	return (size_t) (unit_random(state) % n);
}

static inline void unit_append(char *buf, size_t *n, size_t cap, const char *s)
{
	size_t l = strlen(s);

	if (*n + l < cap)
	{
		memcpy(buf + *n, s, l);
		*n += l;
	}
}

/* The span of line number line (1-based) of msg: its offset and length without
 * its '\n' or "\r\n", computed independently of the parsers under test. */
static inline void unit_line_span(const char *msg, size_t len, int line, size_t *off, size_t *n)
{
	size_t start = 0, end;
	int l;

	for (l = 1; l < line; l++)
		start = (size_t) ((const char *) memchr(msg + start, '\n', len - start) - msg) + 1;
	for (end = start; end < len && msg[end] != '\n'; end++)
		;
	if (end > start && msg[end - 1] == '\r')
		end--;
	*off = start;
	*n = end - start;
}

#endif /* FIXES_UNIT_H */
