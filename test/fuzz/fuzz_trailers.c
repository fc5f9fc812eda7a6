/* fuzz_trailers.c — libFuzzer harness: invariants of the git trailer parser */
#include "trailers.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

static int is_git_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_key_char(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '-';
}

static void check_trailer(const char *msg, size_t len, const fixes_git_trailer *t, char *buf)
{
	size_t i, sep, n;

	/* key: at a line start, [A-Za-z0-9-]+ then blanks then ':' */
	REQUIRE(t->key_len > 0 && t->key_off + t->key_len < len);
	REQUIRE(t->key_off == 0 || msg[t->key_off - 1] == '\n');
	for (i = 0; i < t->key_len; i++)
		REQUIRE(is_key_char((unsigned char) msg[t->key_off + i]));
	for (sep = t->key_off + t->key_len; msg[sep] == ' ' || msg[sep] == '\t'; sep++)
		REQUIRE(sep + 1 < len);
	REQUIRE(msg[sep] == ':');

	/* value: after the separator, trimmed, never past the first NUL */
	REQUIRE(t->val_off > sep && t->val_off <= len && t->val_len <= len - t->val_off);
	REQUIRE(memchr(msg, '\0', t->val_off + t->val_len) == NULL);
	if (t->val_len > 0)
	{
		REQUIRE(!is_git_space((unsigned char) msg[t->val_off]));
		REQUIRE(!is_git_space((unsigned char) msg[t->val_off + t->val_len - 1]));
	}
	for (i = sep + 1; i < t->val_off; i++)
		REQUIRE(is_git_space((unsigned char) msg[i]));

	/* unfolded: the value's bytes, each line break and the whitespace
	 * after it one space, so no line break left */
	REQUIRE(t->unfolded_len <= t->val_len);
	n = fixes_trailer_unfold(msg, t, buf);
	REQUIRE(n == t->unfolded_len && memchr(buf, '\n', n) == NULL);
	REQUIRE(n == 0 || (buf[0] == msg[t->val_off] &&
					   buf[n - 1] == msg[t->val_off + t->val_len - 1]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *msg = malloc(size ? size : 1);	/* exact size: ASan sees over-reads */
	char *buf = malloc(size ? size : 1);
	fixes_trailers_iter it, again;
	fixes_git_trailer t, u;
	size_t prev_end = 0;
	int prev_line = 0;

	if (size)
		memcpy(msg, data, size);
	fixes_trailers_begin(&it, msg, size);
	fixes_trailers_begin(&again, msg, size);
	while (fixes_trailers_next(&it, &t))
	{
		check_trailer(msg, size, &t, buf);
		REQUIRE(t.position == it.position && t.line > prev_line);
		REQUIRE(t.key_off >= prev_end);
		/* deterministic: a second scan yields the same trailer */
		REQUIRE(fixes_trailers_next(&again, &u) && u.position == t.position &&
				u.line == t.line && u.key_off == t.key_off && u.key_len == t.key_len &&
				u.val_off == t.val_off && u.val_len == t.val_len &&
				u.unfolded_len == t.unfolded_len);
		prev_line = t.line;
		prev_end = t.val_off + t.val_len;
	}
	REQUIRE(!fixes_trailers_next(&again, &u) && !fixes_trailers_next(&it, &t));
	free(buf);
	free(msg);
	return 0;
}
