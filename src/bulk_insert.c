/*
 * bulk_insert.c — batched inserts into a table, with its indexes
 *
 * What COPY FROM does for a plain table: tuples are buffered in slots and
 * written with table_multi_insert() through a BulkInsertState (one WAL
 * record per page, not per row), then each is added to every index of the
 * table.  Only the loader writes these tables, so no triggers or
 * constraints other than the indexes' (unique keys) are checked.
 */
#include "postgres.h"

#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "executor/tuptable.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "bulk_insert.h"

FixesBulk *
fixes_bulk_begin(Oid relid)
{
	FixesBulk  *b = palloc0(sizeof(FixesBulk));

	b->cxt = CurrentMemoryContext;
	b->rel = table_open(relid, RowExclusiveLock);
	b->estate = CreateExecutorState();
	b->rri = makeNode(ResultRelInfo);
	InitResultRelInfo(b->rri, b->rel, 1, NULL, 0);
	ExecOpenIndices(b->rri, false);
	b->bis = GetBulkInsertState();
	b->cid = GetCurrentCommandId(true);
	return b;
}

static void
flush(FixesBulk *b)
{
	if (b->nused == 0)
		return;
	table_multi_insert(b->rel, b->slots, b->nused, b->cid, 0, b->bis);
	if (b->rri->ri_NumIndices > 0)
	{
		for (int i = 0; i < b->nused; i++)
		{
			List	   *recheck;

			ResetPerTupleExprContext(b->estate);
			recheck = ExecInsertIndexTuples(b->rri, b->slots[i], b->estate,
											false, false, NULL, NIL);
			list_free(recheck);
		}
	}
	for (int i = 0; i < b->nused; i++)
		ExecClearTuple(b->slots[i]);
	b->inserted += b->nused;
	b->nused = 0;
	b->bytes = 0;
}

/*
 * Queue one row; values are copied, so the caller may free them at once.
 * bytes is the caller's estimate of the row's size, to bound the batch.
 */
void
fixes_bulk_insert(FixesBulk *b, const Datum *values, const bool *nulls, Size bytes)
{
	TupleTableSlot *slot;
	int			natts = RelationGetDescr(b->rel)->natts;

	if (b->nused == b->nslots)
	{
		MemoryContext old = MemoryContextSwitchTo(b->cxt);

		b->slots[b->nslots++] = table_slot_create(b->rel, NULL);
		MemoryContextSwitchTo(old);
	}
	slot = b->slots[b->nused++];
	ExecClearTuple(slot);
	memcpy(slot->tts_values, values, sizeof(Datum) * natts);
	memcpy(slot->tts_isnull, nulls, sizeof(bool) * natts);
	ExecStoreVirtualTuple(slot);
	ExecMaterializeSlot(slot);
	b->bytes += bytes;
	if (b->nused == FIXES_BULK_MAX_TUPLES || b->bytes >= FIXES_BULK_MAX_BYTES)
		flush(b);
}

void
fixes_bulk_end(FixesBulk *b)
{
	flush(b);
	FreeBulkInsertState(b->bis);
	ExecCloseIndices(b->rri);
	for (int i = 0; i < b->nslots; i++)
		ExecDropSingleTupleTableSlot(b->slots[i]);
	FreeExecutorState(b->estate);
	table_close(b->rel, NoLock);
}
