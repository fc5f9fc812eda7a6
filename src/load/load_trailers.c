/*
 * load_trailers.c — fixes_load(): the rows of fixes_trailers
 *
 * The trailers of each new commit are git's, exactly as
 * `git log --format='%(trailers:only,unfold)'` prints them (trailers.c).
 * They are parsed on the commit's raw bytes, as git parses them: the
 * message ends at its first NUL byte, which the stored message (text, in
 * the database encoding) cannot show.  Each key and unfolded value is then
 * converted from the commit's encoding like the rest of its text
 * (text_decode.c; the sequences replaced were already counted with the
 * message).
 *
 * A trailer needs no release, so its row is written during the walk, with
 * a batched multi-insert: nothing waits in memory or in a temporary file.
 * A full load of a known repository deletes the repository's trailers (and
 * fixes_release_trailers and fixes_trailer_keys) before its walk; a refresh only adds
 * the trailers of the new commits, since those of a commit never change.
 * When a refresh finds the history rewritten and walks again in full, that
 * second walk deletes what the first one wrote.
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/rel.h"

#include "bulk_insert.h"
#include "load_trailer_keys.h"
#include "load_walk.h"
#include "spi_call.h"
#include "trailers.h"

typedef struct FixesTrailerRows
{
	FixesBulk  *bulk;
	int			natts;
	int			c_repo,
				c_idx,
				c_position,
				c_key,
				c_value;
	Datum	   *values;
	bool	   *nulls;
	char	   *unfold;			/* room for the longest value so far */
	size_t		unfold_cap;
	text	   *key;			/* room for the longest key so far, as text */
	size_t		key_cap;
} FixesTrailerRows;

static void
trailers_begin(FixesLoad *ld, void *arg, const FixesCommitRows *rows)
{
	FixesTrailerRows *t = arg;
	TupleDesc	desc;

	if (ld->refresh == NULL && ld->known)
	{
		fixes_spi_delete_rows(ld->schema, "fixes_trailers", ld->repository_id);
		fixes_spi_delete_rows(ld->schema, "fixes_release_trailers", ld->repository_id);
		fixes_spi_delete_rows(ld->schema, "fixes_trailer_keys", ld->repository_id);
		CommandCounterIncrement();
	}
	t->bulk = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_trailers"));
	desc = RelationGetDescr(t->bulk->rel);
	t->natts = desc->natts;
	t->c_repo = fixes_attnum(desc, "repository_id");
	t->c_idx = fixes_attnum(desc, "commit_idx");
	t->c_position = fixes_attnum(desc, "position");
	t->c_key = fixes_attnum(desc, "key");
	t->c_value = fixes_attnum(desc, "value");
	t->values = palloc0(sizeof(Datum) * t->natts);
	t->nulls = palloc(sizeof(bool) * t->natts);
	memset(t->nulls, true, sizeof(bool) * t->natts);
	t->nulls[t->c_repo] = t->nulls[t->c_idx] = t->nulls[t->c_position] = false;
	t->nulls[t->c_key] = t->nulls[t->c_value] = false;
	t->values[t->c_repo] = Int32GetDatum(ld->repository_id);
}

/* the walk is over: write what is left */
static void
trailers_end(FixesLoad *ld, void *arg)
{
	fixes_bulk_finish(&((FixesTrailerRows *) arg)->bulk);
}

/*
 * The trailers of the commit just walked, from its raw object (before its
 * files are read); called in the walk's per-commit memory context.  Each
 * key goes to load_trailer_keys.c, whose hook comes next.
 */
/* buf with room for need bytes (and least at the least): the old one, or a new one in cxt */
static void *
room(MemoryContext cxt, void *buf, size_t *cap, size_t need, size_t least)
{
	if (need <= *cap)
		return buf;
	if (buf != NULL)
		pfree(buf);
	*cap = Max(need, least);
	return MemoryContextAllocHuge(cxt, *cap);
}

static void
trailers_commit(FixesLoad *ld, void *arg, FixesWalkCommit *wc)
{
	FixesTrailerRows *t = arg;
	uint32		idx = wc->c->idx;
	const fixes_raw_commit *raw = &wc->c->raw;
	int			enc = fixes_decoder_encoding(&ld->decoder, raw->encoding, raw->encoding_len);
	fixes_trailers_iter it;
	fixes_git_trailer tr;

	fixes_trailers_begin(&it, raw->message, raw->message_len);
	while (fixes_trailers_next(&it, &tr))
	{
		size_t		n;
		text	   *key;
		text	   *value;

		if (tr.position > fixes_max_trailers_per_commit)
		{
			fixes_limit_warn(&ld->limit_hits, FIXES_LIMIT_TRAILERS, &ld->graph->oids[idx],
							 fixes_max_trailers_per_commit);
			break;
		}
		t->unfold = room(ld->cxt, t->unfold, &t->unfold_cap, VARHDRSZ + tr.unfolded_len, 256);
		/* the value unfolded after room for a text's header */
		n = fixes_trailer_unfold(raw->message, &tr, t->unfold + VARHDRSZ);
		if (wc->f->message_verbatim)
		{
			/*
			 * The message was valid database text as it is, so are its
			 * pieces: cut before or after ASCII bytes, which a server
			 * encoding never holds inside a character, and unfolded by
			 * ASCII.  Each is a text formed in place, copied by the insert.
			 */
			t->key = room(ld->cxt, t->key, &t->key_cap, VARHDRSZ + tr.key_len, 64);
			memcpy(VARDATA(t->key), raw->message + tr.key_off, tr.key_len);
			SET_VARSIZE(t->key, VARHDRSZ + tr.key_len);
			key = t->key;
			value = (text *) t->unfold;
			SET_VARSIZE(value, VARHDRSZ + n);
		}
		else
		{
			key = fixes_decode_text_uncounted(&ld->decoder, raw->message + tr.key_off,
											  tr.key_len, enc);
			value = fixes_decode_text_uncounted(&ld->decoder, t->unfold + VARHDRSZ, n, enc);
		}
		t->values[t->c_idx] = Int32GetDatum((int32) idx);
		t->values[t->c_position] = Int32GetDatum(tr.position);
		t->values[t->c_key] = PointerGetDatum(key);
		t->values[t->c_value] = PointerGetDatum(value);
		fixes_bulk_insert(t->bulk, t->values, t->nulls, 64 + VARSIZE(key) + VARSIZE(value));
		fixes_trailer_keys_add(ld, raw->message + tr.key_off, tr.key_len);
		if ((tr.position & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
	}
}

/* the hook of the mainline's walk (load_read.c); its state is its own */
FixesWalkHook
fixes_trailers_hook(void)
{
	return (FixesWalkHook) {trailers_begin, trailers_commit, trailers_end,
		palloc0(sizeof(FixesTrailerRows))};
}
