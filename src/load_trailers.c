/*
 * load_trailers.c — fixes_load(): the rows of fixes_trailers (1.1)
 *
 * The trailers of each new commit are git's, exactly as
 * `git log --format='%(trailers:only,unfold)'` prints them (trailers.c).
 * They are parsed on the commit's raw bytes, as git parses them: the
 * message ends at its first NUL byte, which the stored message (text, in
 * the database encoding) cannot show.  Each key and unfolded value is then
 * converted from the commit's encoding like the rest of its text
 * (text_decode.c; the sequences replaced were already counted with the
 * message).  Rows wait in a tuplestore, which spills to a temporary file
 * beyond work_mem, until the commits are written; a refresh writes those of
 * the new commits only, since the trailers of a commit never change.
 */
#include "postgres.h"

#include "access/table.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "utils/tuplestore.h"

#include "bulk_insert.h"
#include "load.h"
#include "trailers.h"

typedef struct FixesTrailerRows
{
	Tuplestorestate *rows;
	TupleDesc	desc;
	int			c_repo,
				c_idx,
				c_position,
				c_key,
				c_value;
	Datum	   *values;
	bool	   *nulls;
	char	   *unfold;			/* room for the longest value so far */
	size_t		unfold_cap;
} FixesTrailerRows;

void
fixes_load_trailers_begin(FixesLoad *ld)
{
	FixesTrailerRows *t = palloc0(sizeof(FixesTrailerRows));
	Relation	rel;

	rel = table_open(fixes_table_oid(ld->nsp, "fixes_trailers"), AccessShareLock);
	t->desc = CreateTupleDescCopy(RelationGetDescr(rel));
	table_close(rel, AccessShareLock);
	t->c_repo = fixes_attnum(t->desc, "repository_id");
	t->c_idx = fixes_attnum(t->desc, "commit_idx");
	t->c_position = fixes_attnum(t->desc, "position");
	t->c_key = fixes_attnum(t->desc, "key");
	t->c_value = fixes_attnum(t->desc, "value");
	t->values = palloc0(sizeof(Datum) * t->desc->natts);
	t->nulls = palloc(sizeof(bool) * t->desc->natts);
	memset(t->nulls, true, sizeof(bool) * t->desc->natts);
	t->rows = tuplestore_begin_heap(false, false, work_mem);
	ld->trailers = t;
}

/* forget the rows of an interrupted walk */
void
fixes_load_trailers_end(FixesLoad *ld)
{
	if (ld->trailers == NULL)
		return;
	tuplestore_end(ld->trailers->rows);
	ld->trailers = NULL;
}

/*
 * The trailers of commit idx, whose raw object the walk returned; called in
 * the walk's per-commit memory context.
 */
void
fixes_load_add_trailers(FixesLoad *ld, uint32 idx, const fixes_raw_commit *raw)
{
	FixesTrailerRows *t = ld->trailers;
	int			enc = fixes_decoder_encoding(&ld->decoder, raw->encoding, raw->encoding_len);
	fixes_trailers_iter it;
	fixes_git_trailer tr;

	fixes_trailers_begin(&it, raw->message, raw->message_len);
	while (fixes_trailers_next(&it, &tr))
	{
		size_t		n;

		if (tr.unfolded_len > t->unfold_cap)
		{
			if (t->unfold != NULL)
				pfree(t->unfold);
			t->unfold_cap = Max(tr.unfolded_len, 256);
			t->unfold = MemoryContextAllocHuge(ld->cxt, t->unfold_cap);
		}
		n = fixes_trailer_unfold(raw->message, &tr, t->unfold);
		t->values[t->c_repo] = Int32GetDatum(ld->repository_id);
		t->values[t->c_idx] = Int32GetDatum((int32) idx);
		t->values[t->c_position] = Int32GetDatum(tr.position);
		t->values[t->c_key] = PointerGetDatum(fixes_decode_text_uncounted(&ld->decoder,
																		 raw->message + tr.key_off,
																		 tr.key_len, enc));
		t->values[t->c_value] = PointerGetDatum(fixes_decode_text_uncounted(&ld->decoder,
																		   t->unfold, n, enc));
		t->nulls[t->c_repo] = t->nulls[t->c_idx] = t->nulls[t->c_position] = false;
		t->nulls[t->c_key] = t->nulls[t->c_value] = false;
		tuplestore_putvalues(t->rows, t->desc, t->values, t->nulls);
		fixes_trailer_keys_add(ld, raw->message + tr.key_off, tr.key_len);
		if ((tr.position & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	fixes_trailer_keys_commit(ld, idx);
}

/* insert the rows of the commits this load read (after fixes_commits) */
void
fixes_load_write_trailers(FixesLoad *ld)
{
	FixesTrailerRows *t = ld->trailers;
	FixesBulk  *b;
	TupleTableSlot *slot;
	int64		n = 0;

	if (t == NULL)
		return;
	b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_trailers"));
	if (RelationGetDescr(b->rel)->natts != t->desc->natts)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table fixes_trailers changed during the load")));
	slot = MakeSingleTupleTableSlot(t->desc, &TTSOpsMinimalTuple);
	while (tuplestore_gettupleslot(t->rows, true, false, slot))
	{
		if ((++n & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
		slot_getallattrs(slot);
		fixes_bulk_insert(b, slot->tts_values, slot->tts_isnull,
						  64 + VARSIZE_ANY(DatumGetPointer(slot->tts_values[t->c_key])) +
						  VARSIZE_ANY(DatumGetPointer(slot->tts_values[t->c_value])));
	}
	ExecDropSingleTupleTableSlot(slot);
	fixes_load_trailers_end(ld);
	fixes_bulk_end(b);
	CommandCounterIncrement();
}
