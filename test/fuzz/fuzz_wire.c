/* fuzz_wire.c — libFuzzer harness: the decoders of the reader's stream (wire.c)
 *
 * The first byte chooses the record type (head, tag, commit, files, blob,
 * directory or tag name, branch, refs, list, ask, message), the rest is the payload.  A decoder
 * must accept or refuse without reading outside the payload (ASan), and what it
 * accepts must lie inside the payload. */
#include "wire.h"

#include <stdlib.h>
#include <string.h>

#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

static int inside(const void *p, size_t n, const unsigned char *buf, size_t len)
{
	const unsigned char *q = p;

	return q >= buf && q <= buf + len && n <= (size_t) (buf + len - q);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	unsigned char *p;
	size_t len;

	if (size == 0)
		return 0;
	len = size - 1;
	p = malloc(len ? len : 1);	/* an exact copy: ASan sees any overread */
	memcpy(p, data + 1, len);
	switch (data[0] % 13)
	{
		case 0:
			{
				WireHead h;

				if (wire_decode_head(p, len, &h) == 0)
					REQUIRE(len == 2 + FIXES_OID_RAWSZ && h.found <= 1 && h.shallow <= 1);
				break;
			}
		case 1:
			{
				WireTag t;

				if (wire_decode_tag(p, len, &t) == 0)
				{
					REQUIRE(inside(t.name.s, t.name.len, p, len));
					REQUIRE(inside(t.tagger.s, t.tagger.len, p, len));
				}
				break;
			}
		case 2:
			{
				WireCommit c;

				if (wire_decode_commit(p, len, &c) == 0)
				{
					REQUIRE(inside(c.present, c.nflags, p, len));
					REQUIRE(inside(c.raw, c.raw_len, p, len));
					for (uint32_t i = 0; i < c.nflags; i++)
						REQUIRE(c.present[i] <= 1);
				}
				break;
			}
		case 4:
			{
				WireFiles f;
				WireFileRow row;
				uint32_t n = 0, want;

				if (wire_decode_files(p, len, &f) == 0)
				{
					REQUIRE(f.state <= FILES_TREE_MISSING);
					want = f.n;
					REQUIRE(f.state == FILES_DIFFED || want == 0);
					while (wire_files_next(&f, &row))
					{
						REQUIRE(inside(row.path.s, row.path.len, p, len));
						REQUIRE(row.path.len > 0 && row.kind <= FILE_MISSING);
						REQUIRE(row.kind == FILE_TEXT || (row.added == 0 && row.deleted == 0));
						n++;
					}
					REQUIRE(n == want);
				}
				break;
			}
		case 5:
			{
				WireBlob b;

				if (wire_decode_blob(p, len, &b) == 0)
				{
					REQUIRE(inside(b.data, b.len, p, len));
					REQUIRE(b.found <= 1 && b.is_tree <= 1);
				}
				break;
			}
		case 6:
			{
				WireStr d;

				if (wire_decode_name(p, len, &d) == 0)
				{
					REQUIRE(inside(d.s, d.len, p, len));
					REQUIRE(memchr(d.s, 0, d.len) == NULL);
				}
				break;
			}
		case 7:
			{
				WireBranch b;

				if (wire_decode_branch(p, len, &b) == 0)
				{
					REQUIRE(len == FIXES_OID_RAWSZ + 4 + (size_t) b.name.len);
					REQUIRE(inside(b.name.s, b.name.len, p, len));
				}
				break;
			}
		case 8:
			{
				WireRefs	rf;

				if (wire_decode_refs(p, len, &rf) == 0)
				{
					REQUIRE(len == 1 + FIXES_OID_RAWSZ);
					REQUIRE(rf.state == REFS_READ || rf.state == REFS_UNCHANGED ||
							rf.state == REFS_UNREADABLE);
				}
				break;
			}
		case 9:
			{
				WireList	l;

				if (wire_decode_list(p, len, &l) == 0)
				{
					if (l.over)
						REQUIRE(len == 9);
					else
					{
						REQUIRE(len == 9 + (size_t) l.n * WIRE_LIST_ENTRY + (size_t) l.m * FIXES_OID_RAWSZ);
						REQUIRE(inside(l.commits, (size_t) l.n * WIRE_LIST_ENTRY, p, len));
						REQUIRE(inside(l.parents, (size_t) l.m * FIXES_OID_RAWSZ, p, len));
						for (uint32_t i = 0; i < l.n; i++)
						{
							FixesOid	oid;
							int			has_time;
							int64_t		t;

							wire_list_entry(&l, i, &oid, &has_time, &t);
							REQUIRE(has_time == 0 || has_time == 1);
						}
					}
				}
				break;
			}
		case 10:
			{
				uint32_t	n;

				if (wire_decode_ask(p, len, &n) == 0)
					REQUIRE(len == 4);
				break;
			}
		case 11:
			{
				WireReach	x;

				if (wire_decode_reach(p, len, &x) == 0)
				{
					REQUIRE(len == 8 + (size_t) x.n * FIXES_OID_RAWSZ);
					REQUIRE(x.n == 0 || inside((const char *) x.ids, x.n * FIXES_OID_RAWSZ, p, len));
				}
				break;
			}
		default:
			{
				WireMessage m;

				if (wire_decode_message(p, len, &m) == 0)
				{
					REQUIRE(strlen(m.sqlstate) == 5);
					REQUIRE(m.level == 'E' || m.level == 'W' || m.level == 'N' || m.level == 'D');
					REQUIRE(inside(m.message.s, m.message.len, p, len));
					REQUIRE(inside(m.detail.s, m.detail.len, p, len));
					REQUIRE(inside(m.hint.s, m.hint.len, p, len));
				}
				break;
			}
	}
	free(p);
	return 0;
}
