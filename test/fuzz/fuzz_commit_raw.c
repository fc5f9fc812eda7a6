/* fuzz_commit_raw.c — libFuzzer harness: raw commit parser invariants */
#include "commit_raw.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

static int is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* p[0..n) lies inside buf[0..len); NULL only with n == 0. */
static int inside(const char *p, size_t n, const char *buf, size_t len)
{
	if (p == NULL)
		return n == 0;
	return p >= buf && p <= buf + len && n <= (size_t) (buf + len - p);
}

static void check_oid(const char *p, const char *buf, size_t len)
{
	int i;

	REQUIRE(inside(p, FIXES_OID_HEXSZ, buf, len));
	for (i = 0; i < FIXES_OID_HEXSZ; i++)
		REQUIRE(is_hex((unsigned char) p[i]));
}

static void check_signature(const fixes_signature *s, const char *buf, size_t len)
{
	REQUIRE(inside(s->name, s->name_len, buf, len));
	REQUIRE(inside(s->email, s->email_len, buf, len));
	REQUIRE(s->name_len == 0 || (s->name[0] != ' ' && s->name[s->name_len - 1] != ' '));
	REQUIRE(s->email_len == 0 || memchr(s->email, '\n', s->email_len) == NULL);
	REQUIRE(s->tz_minutes > -100 * 60 && s->tz_minutes < 100 * 60);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);	/* exact size: ASan sees over-reads */
	fixes_raw_commit c;
	int i, rc;

	if (size)
		memcpy(buf, data, size);
	rc = fixes_raw_commit_parse(buf, size, &c);
	REQUIRE(rc == 0 || rc == -1);
	if (rc == 0)
	{
		REQUIRE(c.tree_hex == buf + 5);
		check_oid(c.tree_hex, buf, size);
		REQUIRE(c.nparents >= 0 && (c.nparents == 0) == (c.parents == NULL));
		for (i = 0; i < c.nparents; i++)
		{
			const char *p = fixes_raw_commit_parent(&c, i);

			check_oid(p, buf, size);
			REQUIRE(memcmp(p - 7, "parent ", 7) == 0 && p[FIXES_OID_HEXSZ] == '\n');
		}
		REQUIRE(fixes_raw_commit_parent(&c, c.nparents) == NULL);
		REQUIRE(fixes_raw_commit_parent(&c, -1) == NULL);
		check_signature(&c.author, buf, size);
		check_signature(&c.committer, buf, size);
		REQUIRE(inside(c.encoding, c.encoding_len, buf, size));
		REQUIRE(inside(c.message, c.message_len, buf, size));
		REQUIRE(c.message + c.message_len == buf + size);
		REQUIRE(c.message == buf + size || c.message[-1] == '\n');
	}
	free(buf);
	return 0;
}
