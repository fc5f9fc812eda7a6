/*
 * load_commit_rows.c — fixes_load(): the one writer of the rows of
 * fixes_commits, for both scopes
 *
 * The walk (load_walk.c) hands each commit's row here.  The mainline's rows
 * are inserted at once, with batched multi-inserts (bulk_insert.c), while
 * the reader process goes on; their release is the one the walk could tell
 * (load_read.c), corrected afterwards where it was wrong
 * (load_write_commits.c).  An unreleased commit's row goes on pages with
 * room, so that the update a new tag brings is HOT.  The stable scope's
 * rows are held in a tuplestore, which spills to a temporary file beyond
 * work_mem, and written once the stable releases are known
 * (fixes_commit_rows_write_held(), from load_stable.c).
 */
#include "postgres.h"

#include "access/table.h"
#include "access/xact.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/rel.h"
#include "utils/tuplestore.h"

#include "bulk_insert.h"
#include "load_commit_rows.h"
#include "load_releases.h"

struct FixesCommitRows
{
	TupleDesc	desc;			/* of fixes_commits when the walk began */
	FixesCommitCols cols;
	FixesBulk  *bulk;			/* the mainline: rows go in at once */
	Tuplestorestate *held;		/* the stable scope: rows wait for their release */
	Oid			nsp;
	MemoryContext cxt;			/* where the bulk insert's state lives */
};

static void
commit_cols(FixesLoad *ld, TupleDesc desc, FixesCommitCols *c)
{
	c->repository_id = fixes_attnum(desc, "repository_id");
	c->commit_idx = fixes_attnum(desc, "commit_idx");
	c->authored_at = fixes_attnum(desc, "authored_at");
	c->committed_at = fixes_attnum(desc, "committed_at");
	c->commit_id = fixes_attnum(desc, "commit_id");
	c->parent_ids = fixes_attnum(desc, "parent_ids");
	c->author_name = fixes_attnum(desc, "author_name");
	c->author_email = fixes_attnum(desc, "author_email");
	c->committer_name = fixes_attnum(desc, "committer_name");
	c->committer_email = fixes_attnum(desc, "committer_email");
	c->release = fixes_attnum(desc, "release");
	c->subject = fixes_attnum(desc, "subject");
	c->message = fixes_attnum(desc, "message");
	c->mainline = fixes_attnum_if_exists(desc, "mainline");
	c->stable_cc = ld->has.commit_stable_cc ? fixes_attnum_if_exists(desc, "stable_cc") : -1;
	c->files = c->added = c->deleted = -1;
	if (ld->has.file_tables)
	{
		c->files = fixes_attnum(desc, "files");
		c->added = fixes_attnum(desc, "added");
		c->deleted = fixes_attnum(desc, "deleted");
	}
}

/*
 * Where the rows of a walk go: into the table at once, or (hold) into a
 * tuplestore until fixes_commit_rows_write_held().
 */
FixesCommitRows *
fixes_commit_rows_begin(FixesLoad *ld, bool hold)
{
	FixesCommitRows *rows = palloc0(sizeof(FixesCommitRows));
	Relation	rel;

	rel = table_open(fixes_table_oid(ld->nsp, "fixes_commits"), AccessShareLock);
	rows->desc = CreateTupleDescCopy(RelationGetDescr(rel));
	table_close(rel, AccessShareLock);
	commit_cols(ld, rows->desc, &rows->cols);
	rows->nsp = ld->nsp;
	rows->cxt = CurrentMemoryContext;
	if (hold)
		rows->held = tuplestore_begin_heap(false, false, work_mem);
	return rows;
}

TupleDesc
fixes_commit_rows_desc(const FixesCommitRows *rows)
{
	return rows->desc;
}

const FixesCommitCols *
fixes_commit_rows_cols(const FixesCommitRows *rows)
{
	return &rows->cols;
}

/* the table, for the mainline's rows: commit ids sorted at the end, room kept */
static FixesBulk *
begin_bulk(Oid nsp, bool keep_room)
{
	FixesBulk  *b = fixes_bulk_begin(fixes_table_oid(nsp, "fixes_commits"));

	fixes_bulk_sort_index(b, "fixes_commits_commit_id_idx");
	if (keep_room)
		fixes_bulk_keep_room(b);
	return b;
}

/*
 * One commit's row.  Into the table: an unreleased commit's on pages with
 * room (a new tag will set its release), the others packed.
 */
void
fixes_commit_rows_put(FixesCommitRows *rows, Datum *values, bool *nulls)
{
	if (rows->held != NULL)
	{
		tuplestore_putvalues(rows->held, rows->desc, values, nulls);
		return;
	}
	if (rows->bulk == NULL)
	{
		/* the walk calls this in its per-commit context */
		MemoryContext old = MemoryContextSwitchTo(rows->cxt);

		rows->bulk = begin_bulk(rows->nsp, true);
		MemoryContextSwitchTo(old);
	}
	if (nulls[rows->cols.release])
		fixes_bulk_insert_roomy(rows->bulk, values, nulls);
	else
		fixes_bulk_insert(rows->bulk, values, nulls,
						  256 + VARSIZE_ANY(DatumGetPointer(values[rows->cols.message])));
}

/*
 * The walk's work while it waits for the reader (fixes_reader_set_idle): the
 * commit ids queued so far into their index, in sorted chunks
 * (fixes_bulk_idle).  False when there is nothing to do.
 */
bool
fixes_commit_rows_idle(void *arg)
{
	FixesCommitRows *rows = arg;

	return rows->bulk != NULL && fixes_bulk_idle(rows->bulk);
}

/* the walk is over: the rows inserted are visible from here on */
void
fixes_commit_rows_end(FixesCommitRows *rows)
{
	if (rows->bulk != NULL && rows->bulk->nsorted > 0)
		elog(DEBUG1, "fixes_load: %lld of %lld commit ids indexed while the walk waited for the reader",
			 (long long) rows->bulk->idle_inserted,
			 (long long) (rows->bulk->inserted + rows->bulk->nused));
	fixes_bulk_finish(&rows->bulk);
}

/* the held rows (the stable scope's), with the release of each (ld->mark) */
void
fixes_commit_rows_write_held(FixesLoad *ld, FixesCommitRows *rows)
{
	TupleDesc	desc = rows->desc;
	int			natts = desc->natts;
	int			c_idx = rows->cols.commit_idx;
	int			c_release = rows->cols.release;
	int			c_message = rows->cols.message;
	TupleTableSlot *slot;
	Datum	   *values;
	bool	   *nulls;
	FixesBulk  *b;
	int64		n = 0;

	Assert(rows->held != NULL);
	fixes_progress_phase(&ld->progress, "writing commits");
	b = begin_bulk(rows->nsp, false);
	if (RelationGetDescr(b->rel)->natts != natts)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table fixes_commits changed during the load")));
	slot = MakeSingleTupleTableSlot(desc, &TTSOpsMinimalTuple);
	values = palloc(sizeof(Datum) * natts);
	nulls = palloc(sizeof(bool) * natts);
	while (tuplestore_gettupleslot(rows->held, true, false, slot))
	{
		fixes_progress_tick(&ld->progress);
		if ((++n & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
		slot_getallattrs(slot);
		memcpy(values, slot->tts_values, sizeof(Datum) * natts);
		memcpy(nulls, slot->tts_isnull, sizeof(bool) * natts);
		values[c_release] = fixes_release_of(ld, (uint32) DatumGetInt32(values[c_idx]),
											 &nulls[c_release]);
		fixes_bulk_insert(b, values, nulls, 256 + VARSIZE_ANY(DatumGetPointer(values[c_message])));
	}
	ExecDropSingleTupleTableSlot(slot);
	tuplestore_end(rows->held);
	rows->held = NULL;
	fixes_bulk_end(b);
	CommandCounterIncrement();
}
