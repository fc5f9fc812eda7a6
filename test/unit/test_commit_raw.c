/* test_commit_raw.c — tests of the raw commit object parser */
#include "commit_raw.h"
#include "unit.h"

#include <stdbool.h>
#include <stdlib.h>

#define TREE   "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n"
#define PARENT1 "parent 1c441e921201aa5b6bd8a4d7d5e1f1b1c1d1e1f1\n"
#define PARENT2 "parent 2222222222222222222222222222222222222222\n"
#define PARENT3 "parent 3333333333333333333333333333333333333333\n"
#define AUTHOR "author A U Thor <author@example.org> 1700000000 +0130\n"
#define COMMITTER "committer C O Mitter <committer@example.org> 1700000100 -0800\n"
#define MSG(s) s, sizeof(s) - 1

/* Parses an exactly-sized heap copy so that ASan sees any over-read. */
static int parse_copy(const char *s, size_t len, fixes_raw_commit *c, char **copy)
{
	*copy = malloc(len ? len : 1);
	memcpy(*copy, s, len);
	return fixes_raw_commit_parse(*copy, len, c);
}

static bool same(const char *p, size_t len, const char *want)
{
	return p != NULL && len == strlen(want) && memcmp(p, want, len) == 0;
}

static void check_signature(unit_counts *u, const char *what, const fixes_signature *s,
							const char *name, const char *email, long long time, int tz)
{
	CHECK(u, same(s->name, s->name_len, name), "%s: name \"%.*s\", expected \"%s\"",
		  what, (int) s->name_len, s->name ? s->name : "(null)", name);
	CHECK(u, same(s->email, s->email_len, email), "%s: email \"%.*s\", expected \"%s\"",
		  what, (int) s->email_len, s->email ? s->email : "(null)", email);
	CHECK(u, s->time == time, "%s: time %lld, expected %lld", what, (long long) s->time, time);
	CHECK(u, s->tz_minutes == tz, "%s: tz %d, expected %d", what, s->tz_minutes, tz);
}

static void check_empty_signature(unit_counts *u, const char *what, const fixes_signature *s)
{
	CHECK(u, s->name == NULL && s->name_len == 0 && s->email == NULL && s->email_len == 0 &&
		  s->time == 0 && s->has_time == 0 && s->tz_minutes == 0, "%s: signature not empty", what);
}

static void check_message(unit_counts *u, const char *what, const fixes_raw_commit *c,
						  const char *buf, size_t len, const char *want, size_t want_len)
{
	CHECK(u, c->message_len == want_len && c->message + c->message_len == buf + len &&
		  memcmp(c->message, want, want_len) == 0,
		  "%s: message of %zu bytes at offset %td, expected %zu bytes at the end", what,
		  c->message_len, c->message - buf, want_len);
}

static void test_normal(unit_counts *u)
{
	static const char raw[] = TREE PARENT1 AUTHOR COMMITTER "\n"
		"epoll: fix a race\n\nFixes: 1c441e921201 (\"epoll: use freezable blocking call\")\n";
	fixes_raw_commit c;
	char *b;
	int rc = parse_copy(MSG(raw), &c, &b);

	CHECK(u, rc == 0, "normal: rc %d", rc);
	CHECK(u, c.tree_hex == b + 5, "normal: tree_hex at %td", c.tree_hex - b);
	CHECK(u, c.nparents == 1 && c.parents == b + strlen(TREE), "normal: %d parents", c.nparents);
	CHECK(u, same(fixes_raw_commit_parent(&c, 0), 40, "1c441e921201aa5b6bd8a4d7d5e1f1b1c1d1e1f1"),
		  "normal: parent 0");
	CHECK(u, fixes_raw_commit_parent(&c, 1) == NULL && fixes_raw_commit_parent(&c, -1) == NULL,
		  "normal: parent out of range");
	check_signature(u, "normal author", &c.author, "A U Thor", "author@example.org",
					1700000000, 90);
	check_signature(u, "normal committer", &c.committer, "C O Mitter",
					"committer@example.org", 1700000100, -480);
	CHECK(u, c.encoding == NULL && c.encoding_len == 0, "normal: encoding set");
	check_message(u, "normal", &c, b, sizeof(raw) - 1,
				  MSG("epoll: fix a race\n\nFixes: 1c441e921201 (\"epoll: use freezable blocking call\")\n"));
	free(b);
}

static void test_root_and_merge(unit_counts *u)
{
	static const char root[] = TREE AUTHOR COMMITTER "\nInitial commit\n";
	static const char merge[] = TREE PARENT1 PARENT2 PARENT3 AUTHOR COMMITTER "\nMerge\n";
	static const char *const want[] = {"1c441e921201aa5b6bd8a4d7d5e1f1b1c1d1e1f1",
		"2222222222222222222222222222222222222222", "3333333333333333333333333333333333333333"};
	fixes_raw_commit c;
	char *b;
	int i, rc;

	rc = parse_copy(MSG(root), &c, &b);
	CHECK(u, rc == 0 && c.nparents == 0 && c.parents == NULL, "root: rc %d, %d parents", rc,
		  c.nparents);
	CHECK(u, fixes_raw_commit_parent(&c, 0) == NULL, "root: parent 0 not NULL");
	check_message(u, "root", &c, b, sizeof(root) - 1, MSG("Initial commit\n"));
	free(b);

	rc = parse_copy(MSG(merge), &c, &b);
	CHECK(u, rc == 0 && c.nparents == 3, "merge: rc %d, %d parents", rc, c.nparents);
	for (i = 0; i < 3; i++)
		CHECK(u, same(fixes_raw_commit_parent(&c, i), 40, want[i]), "merge: parent %d", i);
	CHECK(u, fixes_raw_commit_parent(&c, 3) == NULL, "merge: parent 3 not NULL");
	check_signature(u, "merge committer", &c.committer, "C O Mitter",
					"committer@example.org", 1700000100, -480);
	check_message(u, "merge", &c, b, sizeof(merge) - 1, MSG("Merge\n"));
	free(b);
}

static void test_extra_headers(unit_counts *u)
{
	static const char signed_raw[] = TREE PARENT1 AUTHOR COMMITTER
		"gpgsig -----BEGIN PGP SIGNATURE-----\n"
		" \n"
		" iQIzBAABCAAdFiEE\n"
		" parent 5555555555555555555555555555555555555555\n"
		" author Not Me <no@example.org> 1 +0000\n"
		" -----END PGP SIGNATURE-----\n"
		"\nSigned\n";
	static const char mergetag_raw[] = TREE PARENT1 PARENT2 AUTHOR COMMITTER
		"mergetag object 2222222222222222222222222222222222222222\n"
		" type commit\n"
		" tag v6.1\n"
		" tagger Linus Torvalds <torvalds@linux-foundation.org> 1670181061 -0800\n"
		" \n"
		" Linux 6.1\n"
		"encoding ISO-8859-1\n"
		"encoding UTF-8\n"
		"\nMerge tag 'v6.1'\n\n\xe9t\xe9\n";
	fixes_raw_commit c;
	char *b;
	int rc;

	rc = parse_copy(MSG(signed_raw), &c, &b);
	CHECK(u, rc == 0 && c.nparents == 1, "gpgsig: rc %d, %d parents", rc, c.nparents);
	check_signature(u, "gpgsig author", &c.author, "A U Thor", "author@example.org",
					1700000000, 90);
	check_message(u, "gpgsig", &c, b, sizeof(signed_raw) - 1, MSG("Signed\n"));
	free(b);

	rc = parse_copy(MSG(mergetag_raw), &c, &b);
	CHECK(u, rc == 0 && c.nparents == 2, "mergetag: rc %d, %d parents", rc, c.nparents);
	CHECK(u, same(c.encoding, c.encoding_len, "ISO-8859-1"), "mergetag: encoding \"%.*s\"",
		  (int) c.encoding_len, c.encoding ? c.encoding : "(null)");
	check_signature(u, "mergetag committer", &c.committer, "C O Mitter",
					"committer@example.org", 1700000100, -480);
	check_message(u, "mergetag", &c, b, sizeof(mergetag_raw) - 1,
				  MSG("Merge tag 'v6.1'\n\n\xe9t\xe9\n"));
	free(b);
}

static void test_message_edges(unit_counts *u)
{
	static const struct { const char *name, *raw; size_t len; const char *msg; size_t msg_len; } cases[] = {
		{"empty message", MSG(TREE AUTHOR COMMITTER "\n"), MSG("")},
		{"no blank line", MSG(TREE AUTHOR COMMITTER), MSG("")},
		{"last header without newline", MSG(TREE AUTHOR "committer C <c@x> 5 +0100"), MSG("")},
		{"tree only", MSG(TREE), MSG("")},
		{"blank line right after tree", MSG(TREE "\nmsg"), MSG("msg")},
		{"message keeps blank lines and NULs", MSG(TREE AUTHOR "\n\n\nx\0y\n\n"), MSG("\n\nx\0y\n\n")},
		{"parent-looking message line", MSG(TREE AUTHOR "\n" PARENT1), MSG(PARENT1)},
		{"CRLF header is not a blank line", MSG(TREE AUTHOR "\r\nx"), MSG("")},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		fixes_raw_commit c;
		char *b;
		int rc = parse_copy(cases[i].raw, cases[i].len, &c, &b);

		CHECK(u, rc == 0, "%s: rc %d", cases[i].name, rc);
		check_message(u, cases[i].name, &c, b, cases[i].len, cases[i].msg, cases[i].msg_len);
		free(b);
	}
}

static void test_missing_headers(unit_counts *u)
{
	static const char raw[] = TREE "Author X <x@y> 1 +0000\nauthorX <x@y> 1 +0000\n"
		"Committer Y <y@z> 1 +0000\nencoding\n\nmsg";
	fixes_raw_commit c;
	char *b;
	int rc = parse_copy(MSG(raw), &c, &b);

	CHECK(u, rc == 0, "missing headers: rc %d", rc);
	check_empty_signature(u, "missing author", &c.author);
	check_empty_signature(u, "missing committer", &c.committer);
	CHECK(u, c.encoding == NULL, "missing encoding: \"encoding\" without a blank matched");
	check_message(u, "missing headers", &c, b, sizeof(raw) - 1, MSG("msg"));
	free(b);
}

static void test_malformed(unit_counts *u)
{
	static const struct { const char *name, *raw; size_t len; } cases[] = {
		{"empty buffer", MSG("")},
		{"no tree", MSG(AUTHOR COMMITTER "\nmsg")},
		{"tree with 39 hex", MSG("tree 4b825dc642cb6eb9a060e54bf8d69288fbee490\n\nx")},
		{"tree with 41 hex", MSG("tree 4b825dc642cb6eb9a060e54bf8d69288fbee49041\n\nx")},
		{"tree with a non-hex", MSG("tree 4b825dc642cb6eb9a060e54bf8d69288fbee490g\n\nx")},
		{"tree without newline", MSG("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904")},
		{"tree with two blanks", MSG("tree  4b825dc642cb6eb9a060e54bf8d69288fbee4904\n")},
		{"Tree capitalised", MSG("Tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n")},
		{"tree not first", MSG("\n" TREE)},
		{"parent with 39 hex", MSG(TREE "parent 222222222222222222222222222222222222222\n" AUTHOR)},
		{"parent with trailing blank", MSG(TREE "parent 2222222222222222222222222222222222222222 \n")},
		{"parent without newline", MSG(TREE "parent 2222222222222222222222222222222222222222")},
		{"parent after author", MSG(TREE AUTHOR PARENT1 COMMITTER "\nx")},
		{"parent after a good parent and author", MSG(TREE PARENT1 AUTHOR PARENT2 "\nx")},
		{"parent after unknown header", MSG(TREE "x-header y\n" PARENT1 "\nx")},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		fixes_raw_commit c;
		char *b;
		int rc = parse_copy(cases[i].raw, cases[i].len, &c, &b);

		CHECK(u, rc == -1, "%s: rc %d, expected -1", cases[i].name, rc);
		free(b);
	}
}

static void test_signatures(unit_counts *u)
{
	static const struct { const char *value, *name, *email; long long time; int tz; int has_time; } cases[] = {
		{"A U Thor <a@b> 1700000000 +0130", "A U Thor", "a@b", 1700000000, 90, 1},
		{"A <a@b> 1 -0800", "A", "a@b", 1, -480, 1},
		{"A <a@b> 1 +0000", "A", "a@b", 1, 0, 1},
		{"A <a@b> 1 -0030", "A", "a@b", 1, -30, 1},
		{"A <a@b> 1 +1400", "A", "a@b", 1, 840, 1},
		{"<a@b> 1 +0000", "", "a@b", 1, 0, 1},
		{"A <> 0 +0000", "A", "", 0, 0, 1},
		{"  Name \t  <a@b>   123   -0130  ", "Name", "a@b", 123, -90, 1},
		{"Name\t<a@b>\t123\t+0100", "Name", "a@b", 123, 60, 1},
		{"Name a@b 123 +0000", "Name a@b 123 +0000", "", 0, 0, 0},
		{"Name <a@b 123 +0000", "Name <a@b 123 +0000", "", 0, 0, 0},
		{"Name a@b> 123 +0000", "Name a@b> 123 +0000", "", 0, 0, 0},
		{"Name <a@b> -1234 +0000", "Name", "a@b", -1234, 0, 1},
		{"Name <a@b> -1234 -0100", "Name", "a@b", -1234, -60, 1},
		{"Name <a@b>", "Name", "a@b", 0, 0, 0},
		{"Name <a@b> ", "Name", "a@b", 0, 0, 0},
		{"Name <a@b> abc +0100", "Name", "a@b", 0, 0, 0},
		{"Name <a@b> 123abc +0100", "Name", "a@b", 0, 0, 0},
		{"Name <a@b> - +0100", "Name", "a@b", 0, 0, 0},
		{"Name <a@b> 123", "Name", "a@b", 123, 0, 1},
		{"Name <a@b> 123 +01", "Name", "a@b", 123, 0, 1},
		{"Name <a@b> 123 +01000", "Name", "a@b", 123, 0, 1},
		{"Name <a@b> 123 +0160", "Name", "a@b", 123, 0, 1},
		{"Name <a@b> 123 0100", "Name", "a@b", 123, 0, 1},
		{"Name <a@b> 123 +01x0", "Name", "a@b", 123, 0, 1},
		{"Name <a@b> 123 +0100 trailing", "Name", "a@b", 123, 60, 1},
		{"Name <a@b> 9223372036854775807 +0000", "Name", "a@b", 9223372036854775807LL, 0, 1},
		{"Name <a@b> 9223372036854775808 +0000", "Name", "a@b", 0, 0, 0},
		{"Name <a@b> 99999999999999999999999 +0000", "Name", "a@b", 0, 0, 0},
		{"Name <a> b> 123 +0100", "Name", "a", 123, 60, 1},
		{"Name <<a@b>> 5 +0000", "Name", "<a@b", 5, 0, 1},
		{"Name <a@b> <c@d> 7 +0200", "Name", "a@b", 7, 120, 1},
		{"", "", "", 0, 0, 0},
		{"   ", "", "", 0, 0, 0},
		{"Name <a@b> 123 +0100\r", "Name", "a@b", 123, 0, 1},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		char raw[512], what[600];
		fixes_raw_commit c;
		char *b;
		int n = snprintf(raw, sizeof(raw), TREE "author %s\ncommitter %s\n\n", cases[i].value,
						 cases[i].value);
		int rc = parse_copy(raw, (size_t) n, &c, &b);

		CHECK(u, rc == 0, "signature \"%s\": rc %d", cases[i].value, rc);
		snprintf(what, sizeof(what), "author \"%s\"", cases[i].value);
		check_signature(u, what, &c.author, cases[i].name, cases[i].email, cases[i].time,
						cases[i].tz);
		CHECK(u, c.author.has_time == cases[i].has_time, "%s: has_time %d, expected %d", what,
			  c.author.has_time, cases[i].has_time);
		snprintf(what, sizeof(what), "committer \"%s\"", cases[i].value);
		check_signature(u, what, &c.committer, cases[i].name, cases[i].email, cases[i].time,
						cases[i].tz);
		free(b);
	}
}

static void test_first_header_wins(unit_counts *u)
{
	static const char raw[] = TREE "author First <1@x> 1 +0100\nauthor Second <2@x> 2 +0200\n"
		"committer C1 <c1@x> 3 +0300\ncommitter C2 <c2@x> 4 +0400\n\n";
	fixes_raw_commit c;
	char *b;
	int rc = parse_copy(MSG(raw), &c, &b);

	CHECK(u, rc == 0, "first header: rc %d", rc);
	check_signature(u, "first author", &c.author, "First", "1@x", 1, 60);
	check_signature(u, "first committer", &c.committer, "C1", "c1@x", 3, 180);
	free(b);
}

static bool inside(const char *p, size_t n, const char *b, size_t len)
{
	return p == NULL ? n == 0 : p >= b && n <= len && p - b <= (ptrdiff_t) (len - n);
}

/* Every prefix of a valid commit parses without over-reads, pointers inside. */
static void test_truncations(unit_counts *u)
{
	static const char *const raws[] = {
		TREE PARENT1 PARENT2 AUTHOR COMMITTER "encoding UTF-8\n"
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n"
		"\nsubject\n\nFixes: 1c441e921201 (\"x\")\n",
		TREE "author Odd <a@b> -12 +01\ncommitter <x@y>\n\n",
	};
	size_t r, len;

	for (r = 0; r < sizeof(raws) / sizeof(raws[0]); r++)
		for (len = 0; len <= strlen(raws[r]); len++)
		{
			fixes_raw_commit c;
			char *b;
			int rc = parse_copy(raws[r], len, &c, &b);
			bool ok = rc == -1 ||
				(rc == 0 && inside(c.tree_hex, 40, b, len) &&
				 inside(c.parents, (size_t) c.nparents * 48, b, len) &&
				 inside(c.author.name, c.author.name_len, b, len) &&
				 inside(c.author.email, c.author.email_len, b, len) &&
				 inside(c.committer.name, c.committer.name_len, b, len) &&
				 inside(c.committer.email, c.committer.email_len, b, len) &&
				 inside(c.encoding, c.encoding_len, b, len) &&
				 inside(c.message, c.message_len, b, len));

			CHECK(u, ok, "truncated commit %zu at %zu bytes: rc %d or pointers outside", r,
				  len, rc);
			CHECK(u, len < strlen(TREE) ? rc == -1 : len < strlen(raws[r]) || rc == 0,
				  "truncated commit %zu at %zu bytes: rc %d", r, len, rc);
			free(b);
		}
}

int main(void)
{
	unit_counts u = {0, 0};

	test_normal(&u);
	test_root_and_merge(&u);
	test_extra_headers(&u);
	test_message_edges(&u);
	test_missing_headers(&u);
	test_malformed(&u);
	test_signatures(&u);
	test_first_header_wins(&u);
	test_truncations(&u);
	return unit_report("test_commit_raw", &u);
}
