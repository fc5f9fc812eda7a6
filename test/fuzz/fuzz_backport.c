/* fuzz_backport.c — libFuzzer harness: backport line scan invariants */
#include "backport.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

static int is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

static int is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int count_lines(const char *msg, size_t len)
{
	int lines = 0;
	size_t i;

	for (i = 0; i < len; i++)
		lines += msg[i] == '\n';
	return lines + (len > 0 && msg[len - 1] != '\n');
}

static void check_backport(const char *msg, size_t len, size_t from, const fixes_backport *b)
{
	size_t raw_end = b->raw_off + b->raw_len, first, last, i;
	static const char opener[] = {'c', '[', '('};
	static const char closer[] = {'m', ']', ')'};

	REQUIRE(b->raw_off >= from && b->raw_off <= len && b->raw_len <= len - b->raw_off);
	REQUIRE(b->raw_off == 0 || msg[b->raw_off - 1] == '\n');
	REQUIRE(memchr(msg + b->raw_off, '\n', b->raw_len) == NULL);
	REQUIRE(raw_end == len || msg[raw_end] == '\n' || msg[raw_end] == '\r');
	REQUIRE(b->hex_len >= 7 && b->hex_len <= 40);
	REQUIRE(b->hex_off > b->raw_off && b->hex_off + b->hex_len < raw_end);
	for (i = 0; i < b->hex_len; i++)
		REQUIRE(is_hex((unsigned char) msg[b->hex_off + i]));
	REQUIRE(!is_hex((unsigned char) msg[b->hex_off - 1]));
	REQUIRE(!is_hex((unsigned char) msg[b->hex_off + b->hex_len]));

	/* the first and last non-blank bytes are those of the form */
	REQUIRE((int) b->form >= 0 && (int) b->form <= 2);
	for (first = b->raw_off; is_blank((unsigned char) msg[first]); first++)
		;
	for (last = raw_end; is_blank((unsigned char) msg[last - 1]); last--)
		;
	last--;
	if (b->form == FIXES_BACKPORT_UPSTREAM)
		REQUIRE((msg[first] | 0x20) == opener[0] &&
				((msg[last] | 0x20) == closer[0] || msg[last] == '.'));
	else
		REQUIRE(msg[first] == opener[b->form] && msg[last] == closer[b->form]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *msg = malloc(size ? size : 1);	/* exact size: ASan sees over-reads */
	fixes_backport_cursor cur = {0, 0};
	fixes_backport b;
	size_t prev_pos = 0;
	int prev_line = 0;

	if (size)
		memcpy(msg, data, size);
	while (fixes_backport_next(msg, size, &cur, &b))
	{
		check_backport(msg, size, prev_pos, &b);
		REQUIRE(b.line > prev_line && b.line == cur.line);
		REQUIRE(cur.pos > prev_pos && cur.pos <= size);
		REQUIRE(cur.pos > b.raw_off + b.raw_len || cur.pos == size);
		prev_pos = cur.pos;
		prev_line = b.line;
	}
	REQUIRE(cur.pos == size && cur.line == count_lines(msg, size));
	free(msg);
	return 0;
}
