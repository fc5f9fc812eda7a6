/*
 * test_wire.c — src/common/wire.c: every record the reader writes, encoded
 * then decoded, gives back what was encoded; the length each encoder returns
 * is the size it announced; and the payload one byte short does not decode
 */
#include "wire.h"
#include "unit.h"

#include <stdlib.h>

static unit_counts u;
static unsigned char buf[4096];

static void
set_oid(FixesOid *oid, int seed)
{
	for (int i = 0; i < FIXES_OID_RAWSZ; i++)
		oid->id[i] = (unsigned char) (seed * 31 + i * 7);
}

static int
str_eq(WireStr a, const char *s, size_t len)
{
	return a.len == len && memcmp(a.s, s, len) == 0;
}

/* the payload one byte short is malformed */
#define SHORT_FAILS(name, decode, len, out) \
	CHECK(&u, decode(buf, (len) - 1, out) != 0, "%s: a payload one byte short decodes", name)

static void
test_head(void)
{
	for (int found = 0; found <= 1; found++)
		for (int shallow = 0; shallow <= 1; shallow++)
		{
			WireHead	in, out;
			size_t		len;

			in.found = found;
			in.shallow = shallow;
			set_oid(&in.oid, found * 2 + shallow);
			len = wire_encode_head(buf, &in);
			CHECK(&u, len == WIRE_HEAD_SIZE, "head: %zu bytes", len);
			CHECK(&u, wire_decode_head(buf, len, &out) == 0, "head: decodes");
			CHECK(&u, out.found == found && out.shallow == shallow && fixes_oid_equal(&out.oid, &in.oid),
				  "head: found %d shallow %d", out.found, out.shallow);
			SHORT_FAILS("head", wire_decode_head, len, &out);
		}
}

static void
test_tag(void)
{
	const char *names[] = {"v1.0", "", "a\0b"};
	const size_t name_lens[] = {4, 0, 3};
	const char *tagger = "Max Maintainer <max@example.org>";

	for (int k = 0; k < 3; k++)
	{
		WireTag		in, out;
		size_t		len;

		memset(&in, 0, sizeof(in));
		set_oid(&in.commit, k);
		in.annotated = k != 1;
		in.has_time = k != 2;
		in.time = k == 0 ? INT64_MIN : k == 1 ? -1 : (int64_t) 1700000000;
		in.name.s = names[k];
		in.name.len = (uint32_t) name_lens[k];
		in.tagger.s = k == 1 ? "" : tagger;
		in.tagger.len = (uint32_t) strlen(in.tagger.s);
		len = wire_encode_tag(buf, &in);
		CHECK(&u, len == wire_size_tag(&in), "tag %d: %zu bytes, size %zu", k, len, wire_size_tag(&in));
		CHECK(&u, wire_decode_tag(buf, len, &out) == 0, "tag %d: decodes", k);
		CHECK(&u, fixes_oid_equal(&out.commit, &in.commit) && out.annotated == in.annotated &&
			  out.has_time == in.has_time && out.time == in.time, "tag %d: fields", k);
		CHECK(&u, str_eq(out.name, names[k], name_lens[k]) && str_eq(out.tagger, in.tagger.s, in.tagger.len),
			  "tag %d: name and tagger", k);
		SHORT_FAILS("tag", wire_decode_tag, len, &out);
	}
}

static void
test_branch(void)
{
	WireBranch	in, out;
	size_t		len;

	set_oid(&in.commit, 5);
	in.name.s = "refs/remotes/origin/stable-1.1";
	in.name.len = (uint32_t) strlen(in.name.s);
	len = wire_encode_branch(buf, &in);
	CHECK(&u, len == wire_size_branch(&in), "branch: %zu bytes", len);
	CHECK(&u, wire_decode_branch(buf, len, &out) == 0, "branch: decodes");
	CHECK(&u, fixes_oid_equal(&out.commit, &in.commit) && str_eq(out.name, in.name.s, in.name.len),
		  "branch: fields");
	SHORT_FAILS("branch", wire_decode_branch, len, &out);
}

static void
test_refs(void)
{
	const int	states[] = {REFS_READ, REFS_UNCHANGED, REFS_UNREADABLE};

	for (int k = 0; k < 3; k++)
	{
		WireRefs	in, out;
		size_t		len;

		in.state = states[k];
		set_oid(&in.hash, 10 + k);
		len = wire_encode_refs(buf, &in);
		CHECK(&u, len == WIRE_REFS_SIZE, "refs: %zu bytes", len);
		CHECK(&u, wire_decode_refs(buf, len, &out) == 0, "refs %d: decodes", k);
		CHECK(&u, out.state == in.state && fixes_oid_equal(&out.hash, &in.hash), "refs %d: fields", k);
		SHORT_FAILS("refs", wire_decode_refs, len, &out);
	}
}

static void
test_name_ask(void)
{
	WireStr		in = {"drivers/net/ethernet", 20}, out;
	uint32_t	n = 0;
	size_t		len = wire_encode_name(buf, &in);

	CHECK(&u, len == wire_size_name(&in), "name: %zu bytes", len);
	CHECK(&u, wire_decode_name(buf, len, &out) == 0 && str_eq(out, in.s, in.len), "name: round trip");
	SHORT_FAILS("name", wire_decode_name, len, &out);

	len = wire_encode_ask(buf, 4000000000u);
	CHECK(&u, len == WIRE_ASK_SIZE, "ask: %zu bytes", len);
	CHECK(&u, wire_decode_ask(buf, len, &n) == 0 && n == 4000000000u, "ask: %u", n);
	SHORT_FAILS("ask", wire_decode_ask, len, &n);
}

static void
test_commit(void)
{
	const char	raw[] = "tree 0123456789012345678901234567890123456789\nauthor A <a@b> 1 +0000\n\nmsg\n";
	const unsigned char present[3] = {1, 0, 1};

	for (uint32_t nflags = 0; nflags <= 3; nflags++)
	{
		WireCommit	in, out;
		unsigned char *flags;
		size_t		len;

		set_oid(&in.oid, 20 + (int) nflags);
		in.nflags = nflags;
		in.present = present;
		in.raw = raw;
		in.raw_len = strlen(raw);
		len = wire_encode_commit(buf, &in);
		CHECK(&u, len == wire_size_commit(nflags, in.raw_len), "commit: %zu bytes", len);
		CHECK(&u, wire_decode_commit(buf, len, &out) == 0, "commit %u: decodes", nflags);
		CHECK(&u, fixes_oid_equal(&out.oid, &in.oid) && out.nflags == nflags &&
			  memcmp(out.present, present, nflags) == 0 &&
			  out.raw_len == in.raw_len && memcmp(out.raw, raw, in.raw_len) == 0, "commit %u: fields", nflags);
		/* built in place, as the reader does: the same bytes */
		memset(buf + 2048, 0xee, 1024);
		flags = wire_encode_commit_begin(buf + 2048, &in.oid, nflags);
		memcpy(flags, present, nflags);
		memcpy(flags + nflags, raw, in.raw_len);
		CHECK(&u, memcmp(buf, buf + 2048, len) == 0, "commit %u: begin then the rest", nflags);
		/* the raw object runs to the end: only a payload short of the flags fails */
		CHECK(&u, wire_decode_commit(buf, wire_size_commit(nflags, 0) - 1, &out) != 0,
			  "commit %u: short of its flags decodes", nflags);
	}
}

static void
test_list(void)
{
	unsigned char commits[3 * WIRE_LIST_ENTRY];
	unsigned char parents[2 * FIXES_OID_RAWSZ];
	FixesOid	oids[3];
	const int	has_time[3] = {1, 0, 1};
	const int64_t times[3] = {1700000000, 99, -5};
	WireList	in, out;
	size_t		len;

	for (int i = 0; i < 3; i++)
	{
		set_oid(&oids[i], 40 + i);
		wire_encode_list_entry(commits + i * WIRE_LIST_ENTRY, &oids[i], has_time[i], times[i]);
	}
	for (int i = 0; i < 2 * FIXES_OID_RAWSZ; i++)
		parents[i] = (unsigned char) (200 + i);
	memset(&in, 0, sizeof(in));
	in.n = 3;
	in.commits = commits;
	in.m = 2;
	in.parents = parents;
	len = wire_encode_list(buf, &in);
	CHECK(&u, len == wire_size_list(3, 2), "list: %zu bytes", len);
	CHECK(&u, wire_decode_list(buf, len, &out) == 0, "list: decodes");
	CHECK(&u, !out.over && out.n == 3 && out.m == 2 &&
		  memcmp(out.parents, parents, sizeof(parents)) == 0, "list: counts and parents");
	for (uint32_t i = 0; i < 3 && out.n == 3; i++)
	{
		FixesOid	oid;
		int			ht;
		int64_t		t;

		wire_list_entry(&out, i, &oid, &ht, &t);
		CHECK(&u, fixes_oid_equal(&oid, &oids[i]) && ht == has_time[i] && t == (has_time[i] ? times[i] : 0),
			  "list entry %u: has_time %d time %lld", i, ht, (long long) t);
	}
	SHORT_FAILS("list", wire_decode_list, len, &out);

	len = wire_encode_list_over(buf);
	CHECK(&u, len == WIRE_LIST_OVER_SIZE, "list over: %zu bytes", len);
	CHECK(&u, wire_decode_list(buf, len, &out) == 0 && out.over == 1 && out.n == 0, "list over: round trip");
	SHORT_FAILS("list over", wire_decode_list, len, &out);
	in.over = 1;
	CHECK(&u, wire_encode_list(buf, &in) == WIRE_LIST_OVER_SIZE, "list with over set: the over record");
}

static void
test_files(void)
{
	const WireFileRow rows[3] = {
		{FILE_TEXT, 12, 4000000000u, {"src/a.c", 7}},
		{FILE_BINARY, 0, 0, {"img/logo.png", 12}},
		{FILE_MISSING, 0, 0, {"x", 1}},
	};
	WireFiles	out;
	WireFileRow row;
	size_t		len = WIRE_FILES_HEAD_SIZE;
	uint32_t	got = 0;

	wire_encode_files_head(buf, FILES_DIFFED, 3);
	for (int i = 0; i < 3; i++)
	{
		size_t		n = wire_encode_file_row(buf + len, &rows[i]);

		CHECK(&u, n == wire_size_file_row(rows[i].path.len), "file row %d: %zu bytes", i, n);
		len += n;
	}
	CHECK(&u, wire_decode_files(buf, len, &out) == 0 && out.state == FILES_DIFFED && out.n == 3,
		  "files: decodes");
	while (wire_files_next(&out, &row))
	{
		const WireFileRow *r = &rows[got < 3 ? got : 2];

		CHECK(&u, row.kind == r->kind && row.added == r->added && row.deleted == r->deleted &&
			  str_eq(row.path, r->path.s, r->path.len), "file row %u", got);
		got++;
	}
	CHECK(&u, got == 3, "files: %u rows", got);
	SHORT_FAILS("files", wire_decode_files, len, &out);

	/* a row built in place */
	{
		unsigned char *path = wire_encode_file_row_begin(buf + 2048, rows[0].kind, rows[0].added,
														 rows[0].deleted, rows[0].path.len);

		memcpy(path, rows[0].path.s, rows[0].path.len);
		CHECK(&u, memcmp(buf + WIRE_FILES_HEAD_SIZE, buf + 2048, wire_size_file_row(7)) == 0,
			  "file row: begin then the path");
	}
	for (int state = FILES_MERGE; state <= FILES_TREE_MISSING; state++)
	{
		wire_encode_files_head(buf, state, 0);
		CHECK(&u, wire_decode_files(buf, WIRE_FILES_HEAD_SIZE, &out) == 0 && out.state == state &&
			  out.n == 0, "files state %d: round trip", state);
	}
}

static void
test_blob(void)
{
	const WireBlob cases[3] = {{0, 0, NULL, 0}, {1, 1, NULL, 0}, {1, 0, "N: Name\nF: src/\n", 17}};

	for (int k = 0; k < 3; k++)
	{
		WireBlob	out;
		size_t		len = wire_encode_blob(buf, &cases[k]);

		CHECK(&u, len == wire_size_blob(cases[k].len), "blob %d: %zu bytes", k, len);
		CHECK(&u, wire_decode_blob(buf, len, &out) == 0 && out.found == cases[k].found &&
			  out.is_tree == cases[k].is_tree && out.len == cases[k].len &&
			  (out.len == 0 || memcmp(out.data, cases[k].data, out.len) == 0), "blob %d: round trip", k);
		CHECK(&u, wire_decode_blob(buf, 1, &out) != 0, "blob %d: one byte decodes", k);
	}
}

static void
test_reach(void)
{
	unsigned char ids[3 * FIXES_OID_RAWSZ];
	WireReach	in = {7, 3, ids}, out;
	unsigned char *at;
	size_t		len;

	for (size_t i = 0; i < sizeof(ids); i++)
		ids[i] = (unsigned char) i;
	len = wire_encode_reach(buf, &in);
	CHECK(&u, len == wire_size_reach(3), "reach: %zu bytes", len);
	CHECK(&u, wire_decode_reach(buf, len, &out) == 0 && out.head == 7 && out.n == 3 &&
		  memcmp(out.ids, ids, sizeof(ids)) == 0, "reach: round trip");
	SHORT_FAILS("reach", wire_decode_reach, len, &out);
	at = wire_encode_reach_begin(buf + 2048, 7, 3);
	memcpy(at, ids, sizeof(ids));
	CHECK(&u, memcmp(buf, buf + 2048, len) == 0, "reach: begin then the ids");
}

static void
test_message(void)
{
	const char	levels[4] = {'W', 'N', 'E', 'D'};

	for (int k = 0; k < 4; k++)
	{
		WireMessage in, out;
		size_t		len;

		memset(&in, 0, sizeof(in));
		in.level = levels[k];
		memcpy(in.sqlstate, k == 2 ? "XX001" : "01000", 6);
		in.message.s = "tag \"v1\" points at a missing object, skipped";
		in.message.len = (uint32_t) strlen(in.message.s);
		in.detail.s = k == 1 ? "" : "libgit2: object not found";
		in.detail.len = (uint32_t) strlen(in.detail.s);
		in.hint.s = k == 2 ? "Run \"git fsck\"." : "";
		in.hint.len = (uint32_t) strlen(in.hint.s);
		len = wire_encode_message(buf, &in);
		CHECK(&u, len == wire_size_message(&in), "message %d: %zu bytes", k, len);
		CHECK(&u, wire_decode_message(buf, len, &out) == 0, "message %d: decodes", k);
		CHECK(&u, out.level == in.level && strcmp(out.sqlstate, in.sqlstate) == 0 &&
			  str_eq(out.message, in.message.s, in.message.len) &&
			  str_eq(out.detail, in.detail.s, in.detail.len) && str_eq(out.hint, in.hint.s, in.hint.len),
			  "message %d: fields", k);
		SHORT_FAILS("message", wire_decode_message, len, &out);
	}
}

int
main(void)
{
	test_head();
	test_tag();
	test_branch();
	test_refs();
	test_name_ask();
	test_commit();
	test_list();
	test_files();
	test_blob();
	test_reach();
	test_message();
	return unit_report("test_wire", &u);
}
