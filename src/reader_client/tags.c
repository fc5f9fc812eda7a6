/*
 * tags.c — the tags of a repository that peel to a commit
 *
 * The reader process sends them (reader/tags.c); here their names and
 * taggers are converted to the database encoding and sorted in version
 * order.  Two names that differ only in bytes invalid in the database
 * encoding (v3.\xff, v3.\xfe) become equal once converted: the first in
 * the reader's order is kept, the others are skipped with a WARNING.
 *
 * A reader told --ask-tags names every tag before it peels any, and peels
 * only those that fixes_answer_tags() asks for (reader/tags.c): a load
 * asks for the tags its release pattern takes, whose objects are all it
 * reads.
 */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "miscadmin.h"

#include "tags.h"
#include "versort.h"

static int
tag_cmp(const void *a, const void *b)
{
	return fixes_version_cmp(((const FixesTag *) a)->name, ((const FixesTag *) b)->name);
}

/*
 * The tag records up to the end of the stream, in version order.
 */
FixesTag *
fixes_receive_tags(FixesReader *r, FixesDecoder *d, int *ntags)
{
	return fixes_receive_tags_and_branches(r, d, ntags, NULL, NULL, false, NULL);
}

/*
 * A reader told --ask-tags: its tag names ('N') and question ('Q'), and the
 * answer on its standard input, the indexes of the names that wanted(name,
 * arg) takes, in the database encoding.  Nothing is asked when the first
 * record is another (a refresh's reader that found the refs unchanged): it
 * is read again by the next fixes_reader_next().  Holds 4 bytes per tag
 * asked for.
 */
void
fixes_answer_tags(FixesReader *r, bool (*wanted) (const char *name, void *arg), void *arg)
{
	/* names decoded for the question only: not counted in the NOTICE */
	FixesDecoder d;
	StringInfoData answer;
	uint32		n = 0;
	uint32		k = 0;
	uint32		asked;
	const unsigned char *payload;
	uint32		len;
	char		type;

	fixes_decoder_init(&d);
	initStringInfo(&answer);
	appendBinaryStringInfo(&answer, "\0\0\0\0", 4);
	while ((type = fixes_reader_next(r, &payload, &len)) == WIRE_TAG_NAME)
	{
		WireStr		name;
		char	   *s;

		CHECK_FOR_INTERRUPTS();
		if (wire_decode_name(payload, len, &name) != 0 || n == PG_UINT32_MAX)
			fixes_reader_protocol_error(r, "A tag name record is malformed.");
		s = fixes_decode_cstring(&d, name.s, name.len, PG_UTF8);
		if (wanted(s, arg))
		{
			unsigned char idx[4];

			wire_put_u32(idx, n);
			appendBinaryStringInfo(&answer, (const char *) idx, 4);
			k++;
		}
		pfree(s);
		n++;
	}
	if (type != WIRE_ASK)
	{
		if (n > 0)
			fixes_reader_protocol_error(r, "A tag name record was not followed by the question.");
		if (!r->ended)
			fixes_reader_unread(r);
		pfree(answer.data);
		return;
	}
	if (wire_decode_ask(payload, len, &asked) != 0 || asked != n)
		fixes_reader_protocol_error(r, "The question about the tags is malformed.");
	wire_put_u32((unsigned char *) answer.data, k);
	fixes_reader_write(r, answer.data, answer.len);
	fixes_reader_close_input(r);
	pfree(answer.data);
	pfree(d.scratch.data);
}

/*
 * The tag records, in version order, and the branch records after them (in
 * the reader's order), up to the end of the stream; or, with more (a
 * refresh's reader), up to the first record of what follows, which the
 * next fixes_reader_next() returns again.  Without branches, a branch
 * record is a protocol error.  With refs (a reader told --refs), the
 * refs record that follows them, or comes instead of them when the reader
 * found the refs of the previous load (REFS_UNCHANGED), into *refs.
 */
FixesTag *
fixes_receive_tags_and_branches(FixesReader *r, FixesDecoder *d, int *ntags,
								FixesBranch **branches, int *nbranches, bool more,
								WireRefs *refs)
{
	int			bcap = 16;
	int			nb = 0;
	FixesBranch *br = NULL;
	char		type;
	int			cap = 64;
	FixesTag   *tags = palloc(sizeof(FixesTag) * cap);
	int			n = 0;
	int			kept = 0;
	const unsigned char *payload;
	uint32		len;

	while ((type = fixes_reader_next(r, &payload, &len)) == WIRE_TAG ||
		   (type == WIRE_BRANCH && branches != NULL))
	{
		WireTag		t;
		FixesTag   *tag;

		CHECK_FOR_INTERRUPTS();
		if (type == WIRE_BRANCH)
		{
			WireBranch	b;

			if (wire_decode_branch(payload, len, &b) != 0)
				fixes_reader_protocol_error(r, "A branch record is malformed.");
			if (br == NULL)
				br = palloc(sizeof(FixesBranch) * bcap);
			else if (nb == bcap)
			{
				bcap *= 2;
				br = repalloc_huge(br, sizeof(FixesBranch) * bcap);
			}
			br[nb].name = fixes_decode_cstring(d, b.name.s, b.name.len, PG_UTF8);
			br[nb].commit = b.commit;
			nb++;
			continue;
		}
		if (nb > 0)
			fixes_reader_protocol_error(r, "A tag record came after a branch record.");
		if (wire_decode_tag(payload, len, &t) != 0)
			fixes_reader_protocol_error(r, "A tag record is malformed.");
		if (n == cap)
		{
			cap *= 2;
			tags = repalloc_huge(tags, sizeof(FixesTag) * cap);
		}
		tag = &tags[n++];
		fixes_decoder_next_item(d, FIXES_ITEM_TAG);
		tag->name = fixes_decode_cstring(d, t.name.s, t.name.len, PG_UTF8);
		tag->commit = t.commit;
		tag->annotated = t.annotated;
		tag->time = t.time;
		tag->tagger = t.annotated ? fixes_decode_cstring(d, t.tagger.s, t.tagger.len, PG_UTF8) : NULL;
	}
	if (refs != NULL)
	{
		if (type != WIRE_REFS)
			fixes_reader_protocol_error(r, "The refs record is missing.");
		if (wire_decode_refs(payload, len, refs) != 0)
			fixes_reader_protocol_error(r, "The refs record is malformed.");
		if (refs->state == REFS_UNCHANGED && (n > 0 || nb > 0))
			fixes_reader_protocol_error(r, "A refs record says the refs are unchanged after tags were sent.");
		(void) fixes_reader_next(r, &payload, &len);
	}
	if (more && !r->ended)
		fixes_reader_unread(r);
	else if (!r->ended)
		fixes_reader_protocol_error(r, "A tag record was expected.");

	/* a total order: equal names are neighbours */
	qsort(tags, n, sizeof(FixesTag), tag_cmp);
	for (int i = 0; i < n; i++)
	{
		if (kept > 0 && strcmp(tags[kept - 1].name, tags[i].name) == 0)
		{
			ereport(WARNING,
					(errcode(ERRCODE_UNIQUE_VIOLATION),
					 errmsg("tag \"%s\" of repository \"%s\" is skipped: another tag has the same name in the database encoding",
							tags[i].name, r->path),
					 errdetail("The names differ only in bytes that are not valid in the database encoding.")));
			continue;
		}
		tags[kept++] = tags[i];
	}
	*ntags = kept;
	if (branches != NULL)
	{
		*branches = br;
		*nbranches = nb;
	}
	return tags;
}
