/* fuzz_trailer.c — libFuzzer harness: Fixes/revert line scan (and subject) invariants */
#include "summary.h"
#include "trailer.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

static int is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

static int count_lines(const char *msg, size_t len)
{
	int lines = 0;
	size_t i;

	for (i = 0; i < len; i++)
		lines += msg[i] == '\n';
	return lines + (len > 0 && msg[len - 1] != '\n');
}

static void check_trailer(const char *msg, size_t len, size_t from, const fixes_trailer *t)
{
	size_t raw_end = t->raw_off + t->raw_len, i;

	REQUIRE(t->raw_off >= from && t->raw_off <= len && t->raw_len <= len - t->raw_off);
	REQUIRE(t->raw_off == 0 || msg[t->raw_off - 1] == '\n');
	REQUIRE(memchr(msg + t->raw_off, '\n', t->raw_len) == NULL);
	REQUIRE(raw_end == len || msg[raw_end] == '\n' || msg[raw_end] == '\r');
	REQUIRE(t->kind == FIXES_TRAILER_FIXES || t->kind == FIXES_TRAILER_REVERT);
	REQUIRE(t->hex_len >= (t->kind == FIXES_TRAILER_REVERT ? 7 : 6) && t->hex_len <= 40);
	REQUIRE(t->hex_off >= t->raw_off && t->hex_off + t->hex_len <= raw_end);
	for (i = 0; i < t->hex_len; i++)
		REQUIRE(is_hex((unsigned char) msg[t->hex_off + i]));
	REQUIRE(t->hex_off + t->hex_len == len ||
			!is_hex((unsigned char) msg[t->hex_off + t->hex_len]));
	REQUIRE(t->kind == FIXES_TRAILER_FIXES || !t->has_subject);
	if (t->has_subject)
	{
		REQUIRE(t->subj_off >= t->hex_off + t->hex_len + 1);
		REQUIRE(t->subj_off + t->subj_len + 1 <= raw_end);
		/* either the ("...") form, or the parenthesized one */
		if (!(t->subj_off >= t->hex_off + t->hex_len + 2 &&
			  memcmp(msg + t->subj_off - 2, "(\"", 2) == 0 &&
			  memcmp(msg + t->subj_off + t->subj_len, "\")", 2) == 0))
		{
			/* the parenthesized form: a '(' before, a ')' after, some text */
			REQUIRE(memchr(msg + t->hex_off + t->hex_len, '(',
						   t->subj_off - (t->hex_off + t->hex_len)) != NULL);
			REQUIRE(memchr(msg + t->subj_off + t->subj_len, ')',
						   raw_end - (t->subj_off + t->subj_len)) != NULL);
			REQUIRE(t->subj_len > 0);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *msg = malloc(size ? size : 1);	/* exact size: ASan sees over-reads */
	char *subject = malloc(size + 1);
	fixes_trailer_cursor cur = {0, 0};
	fixes_trailer t;
	size_t prev_pos = 0, n;
	int prev_line = 0;

	if (size)
		memcpy(msg, data, size);
	while (fixes_trailer_next(msg, size, &cur, &t))
	{
		check_trailer(msg, size, prev_pos, &t);
		REQUIRE(t.line > prev_line && t.line == cur.line);
		REQUIRE(cur.pos > prev_pos && cur.pos <= size);
		REQUIRE(cur.pos > t.raw_off + t.raw_len || cur.pos == size);
		prev_pos = cur.pos;
		prev_line = t.line;
	}
	REQUIRE(cur.pos == size && cur.line == count_lines(msg, size));

	n = fixes_summary(msg, size, subject);
	REQUIRE(n <= size && subject[n] == '\0' && memchr(subject, '\n', n) == NULL);
	{
		size_t off, sublen;

		if (fixes_revert_subject(msg, size, &off, &sublen))
			REQUIRE(off == 8 && sublen > 0 && off + sublen < size && msg[off - 1] == '"' &&
					msg[off + sublen] == '"');
	}
	free(subject);
	free(msg);
	return 0;
}
