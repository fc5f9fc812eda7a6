/*
 * bulk_insert.c — batched inserts into a table, with its indexes
 *
 * What COPY FROM does for a plain table: tuples are buffered in slots and
 * written with table_multi_insert() through a BulkInsertState (one WAL
 * record per page, not per row), then each is added to every index of the
 * table.  Only the loader writes these tables, so no triggers are fired;
 * the table's constraints are checked as the executor checks them
 * (ExecConstraints): NOT NULL and CHECK on each row, the unique keys by the
 * indexes.  A row that breaks one is an ERROR, never a row that pg_restore
 * would refuse later.
 *
 * Indexes whose keys come in random order (commit ids: an id is a hash)
 * can instead be filled at the end, their entries sorted first as CREATE
 * INDEX sorts them (tuplesort, within maintenance_work_mem): inserted in
 * key order, each lands next to the last one, where random order touches
 * a random leaf page each time (for the ids of a cold load, most of the
 * time of their index).  Until fixes_bulk_end(), those indexes lack the new
 * rows, except those that idle time inserted: fixes_bulk_idle(), called
 * while the writer would otherwise wait (for the reader process), sorts the
 * entries queued so far once there are FIXES_BULK_IDLE_CHUNK of them and
 * inserts that chunk, in key order, a slice per call; the next entries
 * queue in a new sort (so two sorts at most per index, each within
 * maintenance_work_mem, beyond which tuplesort spills to temporary files).
 * A writer that never waits inserts one sorted run at the end, as before.
 *
 * Rows that a later UPDATE will rewrite (the release of an unreleased
 * commit, set when a new tag reaches it) can be kept on pages of their
 * own, filled to half at most (fixes_bulk_keep_room): each new version then
 * fits on its old version's page, and the update is HOT, with no new index
 * entries; on a full page, each would add an entry to every index (a
 * random leaf page of the commit-id index each).  Such a batch goes to a
 * new page, and the next batch to another one; the table's other batches
 * do not look for free space (they would take the room kept).
 *
 * Entries that arrive in key order at the right end of a btree (the
 * (repository_id, ...) keys of a new repository, the sorted commit ids of
 * a first load) each need no descent from the root: btree's own fastpath
 * takes a cached rightmost leaf, checks under the page's lock that it is
 * still the rightmost leaf, that the key goes there and that it fits, and
 * descends as usual otherwise.  It caches that leaf for trees of height 2
 * or more only, and not again after a split; the rightmost leaf is handed
 * to it here for every tree, found again after each split (an index whose
 * entries do not come in key order is left alone for a while after three
 * misses in a row).  Only a hint: what goes where is still btree's
 * decision, under its locks, so the rows and the index are the same as
 * without it.
 */
#include "postgres.h"

#include "access/table.h"
#include "access/tableam.h"
#include "access/genam.h"
#include "access/nbtree.h"
#include "access/xact.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "nodes/readfuncs.h"
#include "optimizer/optimizer.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/tuplesort.h"

#include "bulk_insert.h"

/* the NOT NULL columns and the CHECK constraints of b's table */
static void
prepare_constraints(FixesBulk *b)
{
	TupleDesc	desc = RelationGetDescr(b->rel);
	TupleConstr *constr = desc->constr;

	b->notnull = palloc(sizeof(AttrNumber) * Max(desc->natts, 1));
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (att->attnotnull && !att->attisdropped)
			b->notnull[b->nnotnull++] = (AttrNumber) i;
	}
	if (constr == NULL || constr->num_check == 0)
		return;
	b->checks = palloc(sizeof(ExprState *) * constr->num_check);
	b->check_names = palloc(sizeof(char *) * constr->num_check);
	for (int i = 0; i < constr->num_check; i++)
	{
		Expr	   *expr = (Expr *) stringToNode(constr->check[i].ccbin);

		/* as ExecRelCheck: evaluated in the per-tuple context of b->estate */
		b->checks[b->nchecks] = ExecPrepareExpr(expression_planner(expr), b->estate);
		b->check_names[b->nchecks] = pstrdup(constr->check[i].ccname);
		b->nchecks++;
	}
}

/*
 * The row in slot satisfies the table's NOT NULL and CHECK constraints, or
 * this is an ERROR with the executor's errcode and message.
 */
static void
check_constraints(FixesBulk *b, TupleTableSlot *slot)
{
	ExprContext *econtext;

	for (int i = 0; i < b->nnotnull; i++)
		if (slot->tts_isnull[b->notnull[i]])
			ereport(ERROR,
					(errcode(ERRCODE_NOT_NULL_VIOLATION),
					 errmsg("null value in column \"%s\" of relation \"%s\" violates not-null constraint",
							NameStr(TupleDescAttr(RelationGetDescr(b->rel), b->notnull[i])->attname),
							RelationGetRelationName(b->rel)),
					 errdetail("fixes_load() wrote this row in bulk; this is a bug of the loader."),
					 errtablecol(b->rel, b->notnull[i] + 1)));
	if (b->nchecks == 0)
		return;
	econtext = GetPerTupleExprContext(b->estate);
	econtext->ecxt_scantuple = slot;
	for (int i = 0; i < b->nchecks; i++)
		if (!ExecCheck(b->checks[i], econtext))
			ereport(ERROR,
					(errcode(ERRCODE_CHECK_VIOLATION),
					 errmsg("new row for relation \"%s\" violates check constraint \"%s\"",
							RelationGetRelationName(b->rel), b->check_names[i]),
					 errdetail("fixes_load() wrote this row in bulk; this is a bug of the loader."),
					 errtableconstraint(b->rel, b->check_names[i])));
	ResetPerTupleExprContext(b->estate);
}

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
	b->rightmost = palloc(sizeof(FixesRightmost) * Max(b->rri->ri_NumIndices, 1));
	for (int i = 0; i < b->rri->ri_NumIndices; i++)
	{
		b->rightmost[i].block = InvalidBlockNumber;
		b->rightmost[i].misses = 0;
		b->rightmost[i].pause = 0;
		b->rightmost[i].hinted = false;
	}
	b->bis = GetBulkInsertState();
	b->cid = GetCurrentCommandId(true);
	prepare_constraints(b);
	/* the index entries are formed here unless an index is an exclusion constraint's */
	b->own_entries = b->rri->ri_NumIndices <= 64;
	for (int i = 0; i < b->rri->ri_NumIndices; i++)
	{
		IndexInfo  *info = b->rri->ri_IndexRelationInfo[i];

		if (info->ii_ExclusionOps != NULL)
			b->own_entries = false;
		else if (info->ii_Predicate != NIL)
		{
			info->ii_PredicateState = ExecPrepareQual(info->ii_Predicate, b->estate);
			b->partial |= UINT64CONST(1) << i;
		}
	}
	return b;
}

/*
 * A row of the table's width, every column NULL, to be filled by column
 * name (fixes_attnum) and passed to fixes_bulk_insert(): a column that the
 * extension does not know (an administrator's ALTER TABLE ... ADD COLUMN)
 * stays NULL, however many there are.  A writer's arrays must never have a
 * fixed size.  The same arrays each time; the caller sets every column it
 * knows at each row.
 */
void
fixes_bulk_row(FixesBulk *b, Datum **values, bool **nulls)
{
	int			natts = RelationGetDescr(b->rel)->natts;

	if (b->row_values == NULL)
	{
		b->row_values = MemoryContextAllocZero(b->cxt, sizeof(Datum) * Max(natts, 1));
		b->row_nulls = MemoryContextAlloc(b->cxt, sizeof(bool) * Max(natts, 1));
	}
	memset(b->row_nulls, true, sizeof(bool) * natts);
	*values = b->row_values;
	*nulls = b->row_nulls;
}

/* a sort of the k-th sorted index's entries, in b's context */
static Tuplesortstate *
begin_sort(FixesBulk *b, int k)
{
	MemoryContext old = MemoryContextSwitchTo(b->cxt);
	Tuplesortstate *s = tuplesort_begin_index_btree(b->rel, b->sorted_index[k], false, false,
													maintenance_work_mem, NULL, TUPLESORT_NONE);

	MemoryContextSwitchTo(old);
	b->queued[k] = 0;
	return s;
}

/*
 * Fill the table's index called name (a non-unique btree index on
 * columns) at the end, in key order, rather than row by row.  Nothing
 * happens if there is no such index: a user may have dropped it.
 */
void
fixes_bulk_sort_index(FixesBulk *b, const char *name)
{
	ResultRelInfo *rri = b->rri;
	int			n = rri->ri_NumIndices;
	Oid			indexoid = get_relname_relid(name, RelationGetNamespace(b->rel));

	Assert(b->nused == 0 && b->inserted == 0 && b->nsorted < FIXES_BULK_MAX_SORTED);
	for (int i = 0; i < n; i++)
	{
		Relation	ind = rri->ri_IndexRelationDescs[i];
		IndexInfo  *info = rri->ri_IndexRelationInfo[i];
		int			k = b->nsorted;

		if (RelationGetRelid(ind) != indexoid || ind->rd_rel->relam != BTREE_AM_OID ||
			ind->rd_index->indisunique || !info->ii_ReadyForInserts ||
			info->ii_Expressions != NIL || info->ii_Predicate != NIL)
			continue;
		/* out of the indexes filled row by row: it goes last */
		rri->ri_IndexRelationDescs[i] = rri->ri_IndexRelationDescs[n - 1];
		rri->ri_IndexRelationInfo[i] = rri->ri_IndexRelationInfo[n - 1];
		if (b->partial & (UINT64CONST(1) << (n - 1)))
			b->partial = (b->partial & ~(UINT64CONST(1) << (n - 1))) | (UINT64CONST(1) << i);
		rri->ri_IndexRelationDescs[n - 1] = ind;
		rri->ri_IndexRelationInfo[n - 1] = info;
		rri->ri_NumIndices = n - 1;
		b->sorted_index[k] = ind;
		b->sorted_info[k] = info;
		b->sort[k] = begin_sort(b, k);
		b->nsorted++;
		return;
	}
}

/* the rightmost leaf of btree index ind, or InvalidBlockNumber (a one-page tree) */
static BlockNumber
find_rightmost_leaf(Relation ind)
{
	Buffer		buf = _bt_get_endpoint(ind, 0, true, NULL);
	BlockNumber block = InvalidBlockNumber;

	if (BufferIsValid(buf))
	{
		BTPageOpaque opaque = BTPageGetOpaque(BufferGetPage(buf));

		if (P_ISLEAF(opaque) && P_RIGHTMOST(opaque) && !P_ISROOT(opaque) && !P_IGNORE(opaque))
			block = BufferGetBlockNumber(buf);
		_bt_relbuf(ind, buf);
	}
	return block;
}

/* before an entry goes into the i-th index: where btree's fastpath may put it */
static inline void
hint_rightmost(FixesBulk *b, int i)
{
	Relation	ind = b->rri->ri_IndexRelationDescs[i];
	FixesRightmost *r = &b->rightmost[i];

	r->hinted = false;
	/* an index being built (CREATE INDEX CONCURRENTLY) may have no page yet */
	if (ind->rd_rel->relam != BTREE_AM_OID || !b->rri->ri_IndexRelationInfo[i]->ii_ReadyForInserts)
		return;
	if (r->pause > 0)
	{
		r->pause--;
		return;
	}
	if (r->block == InvalidBlockNumber)
	{
		r->block = find_rightmost_leaf(ind);
		if (r->block == InvalidBlockNumber)
		{
			r->pause = 64;		/* an empty or one-page tree: look again later */
			return;
		}
	}
	RelationSetTargetBlock(ind, r->block);
	r->hinted = true;
}

/*
 * After it: the fastpath keeps the block when it took it (and btree sets
 * it after an insert on the rightmost leaf of a tall tree); else the entry
 * went elsewhere (not the last key, or the leaf was full and split).
 */
static inline void
hinted_rightmost(FixesBulk *b, int i)
{
	Relation	ind = b->rri->ri_IndexRelationDescs[i];
	FixesRightmost *r = &b->rightmost[i];
	BlockNumber block;

	if (!r->hinted)
		return;
	block = RelationGetTargetBlock(ind);
	if (block != InvalidBlockNumber)
	{
		r->block = block;
		r->misses = 0;
		return;
	}
	r->block = InvalidBlockNumber;	/* found again before the next entry */
	if (++r->misses >= 3)
	{
		/* not in key order at the right end: try again much later */
		r->misses = 0;
		r->pause = 256;
	}
}

/* the sorted indexes' entries of the rows just written */
static void
sort_entries(FixesBulk *b)
{
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];

	for (int i = 0; i < b->nused; i++)
		for (int k = 0; k < b->nsorted; k++)
		{
			ResetPerTupleExprContext(b->estate);
			FormIndexDatum(b->sorted_info[k], b->slots[i], b->estate, values, isnull);
			tuplesort_putindextuplevalues(b->sort[k], b->sorted_index[k], &b->slots[i]->tts_tid,
										  values, isnull);
			b->queued[k]++;
		}
}

/* the place of the k-th sorted index in rri's arrays (after the others) */
static int
sorted_pos(FixesBulk *b, int k)
{
	int			pos = b->rri->ri_NumIndices;

	while (b->rri->ri_IndexRelationDescs[pos] != b->sorted_index[k])
		pos++;
	return pos;
}

/*
 * Up to max (all: -1) of the entries of the performed sort s of the k-th
 * sorted index into it, in key order: the tuples the sort holds, formed
 * from the rows' values as btinsert() would form them, go to btree as they
 * are.  False once s has no more.
 */
static bool
insert_sorted_entries(FixesBulk *b, int k, Tuplesortstate *s, int64 max)
{
	int			pos = sorted_pos(b, k);

	for (int64 n = 0; max < 0 || n < max; n++)
	{
		IndexTuple	itup = tuplesort_getindextuple(s, true);

		if (itup == NULL)
			return false;
		if (((n + 1) & 0xfff) == 0)
			CHECK_FOR_INTERRUPTS();
		if (max >= 0)
			b->idle_inserted++;
		hint_rightmost(b, pos);
		(void) _bt_doinsert(b->sorted_index[k], itup, UNIQUE_CHECK_NO, false, b->rel);
		hinted_rightmost(b, pos);
	}
	return true;
}

/* insert each sorted index's entries not inserted yet, in key order */
static void
insert_sorted(FixesBulk *b)
{
	for (int k = 0; k < b->nsorted; k++)
	{
		if (b->draining[k] != NULL)
		{
			(void) insert_sorted_entries(b, k, b->draining[k], -1);
			tuplesort_end(b->draining[k]);
			b->draining[k] = NULL;
		}
		tuplesort_performsort(b->sort[k]);
		(void) insert_sorted_entries(b, k, b->sort[k], -1);
		tuplesort_end(b->sort[k]);
	}
	b->rri->ri_NumIndices += b->nsorted;	/* for ExecCloseIndices */
	b->nsorted = 0;
}

/*
 * Work that the writer may do while it waits for its input: a slice of a
 * sorted chunk's entries into their index, or the chunk sorted.  False
 * when there is nothing to do (fewer than FIXES_BULK_IDLE_CHUNK entries
 * queued), and the caller should wait.
 */
bool
fixes_bulk_idle(FixesBulk *b)
{
	for (int k = 0; k < b->nsorted; k++)
		if (b->draining[k] != NULL)
		{
			if (!insert_sorted_entries(b, k, b->draining[k], FIXES_BULK_IDLE_SLICE))
			{
				tuplesort_end(b->draining[k]);
				b->draining[k] = NULL;
			}
			return true;
		}
	for (int k = 0; k < b->nsorted; k++)
		if (b->queued[k] >= FIXES_BULK_IDLE_CHUNK)
		{
			tuplesort_performsort(b->sort[k]);
			b->draining[k] = b->sort[k];
			b->sort[k] = begin_sort(b, k);
			return true;
		}
	return false;
}

/*
 * Make the relation's last page a new, empty one, where the next insert goes
 * (RelationGetBufferForTuple: with no current page and no free space map,
 * the last page, or a new one).  A load of another repository may extend
 * the table meanwhile: then the room kept is a matter of luck, not of
 * correctness.
 */
static void
fresh_page(FixesBulk *b)
{
	Buffer		buf;

	ReleaseBulkInsertStatePin(b->bis);
	RelationSetTargetBlock(b->rel, InvalidBlockNumber);
	LockRelationForExtension(b->rel, ExclusiveLock);
	buf = ReadBufferExtended(b->rel, MAIN_FORKNUM, P_NEW, RBM_NORMAL, NULL);
	UnlockRelationForExtension(b->rel, ExclusiveLock);
	ReleaseBuffer(buf);
	b->last_fresh = true;
}

/*
 * The entries of the rows just written in the indexes filled row by row, as
 * ExecInsertIndexTuples() adds them (no exclusion constraint here: see
 * fixes_bulk_begin), with the partial indexes' predicates evaluated already
 * (store()).  A deferrable unique index is checked at the end of the
 * statement, as before.
 */
static void
insert_entries(FixesBulk *b)
{
	int			nind = b->rri->ri_NumIndices;
	ExprContext *econtext = GetPerTupleExprContext(b->estate);
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];

	for (int i = 0; i < b->nused; i++)
	{
		TupleTableSlot *slot = b->slots[i];

		ResetPerTupleExprContext(b->estate);
		econtext->ecxt_scantuple = slot;
		for (int k = 0; k < nind; k++)
		{
			Relation	ind = b->rri->ri_IndexRelationDescs[k];
			IndexInfo  *info = b->rri->ri_IndexRelationInfo[k];
			uint64		bit = UINT64CONST(1) << k;

			if (!info->ii_ReadyForInserts || ((b->partial & bit) && !(b->in_partial[i] & bit)))
				continue;
			hint_rightmost(b, k);
			FormIndexDatum(info, slot, b->estate, values, isnull);
			(void) index_insert(ind, values, isnull, &slot->tts_tid, b->rel,
								!ind->rd_index->indisunique ? UNIQUE_CHECK_NO :
								ind->rd_index->indimmediate ? UNIQUE_CHECK_YES :
								UNIQUE_CHECK_PARTIAL,
								false, info);
			hinted_rightmost(b, k);
		}
	}
}

static void
flush(FixesBulk *b)
{
	if (b->nused == 0)
		return;
	if (b->roomy && !b->last_fresh)
		fresh_page(b);
	table_multi_insert(b->rel, b->slots, b->nused, b->cid,
					   b->keep_room ? TABLE_INSERT_SKIP_FSM : 0, b->bis);
	b->last_fresh = false;
	if (b->roomy)
		fresh_page(b);			/* for whatever comes next */
	if (b->rri->ri_NumIndices > 0 && b->own_entries)
		insert_entries(b);
	else if (b->rri->ri_NumIndices > 0)
	{
		int			nind = b->rri->ri_NumIndices;

		for (int i = 0; i < b->nused; i++)
		{
			List	   *recheck;

			ResetPerTupleExprContext(b->estate);
			for (int k = 0; k < nind; k++)
				hint_rightmost(b, k);
			recheck = ExecInsertIndexTuples(b->rri, b->slots[i], b->estate,
											false, false, NULL, NIL);
			for (int k = 0; k < nind; k++)
				hinted_rightmost(b, k);
			list_free(recheck);
		}
	}
	if (b->nsorted > 0)
		sort_entries(b);
	for (int i = 0; i < b->nused; i++)
		ExecClearTuple(b->slots[i]);
	b->inserted += b->nused;
	b->nused = 0;
	b->bytes = 0;
}

/* the row into the next slot of the batch (values are copied) */
static TupleTableSlot *
store(FixesBulk *b, const Datum *values, const bool *nulls)
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
	check_constraints(b, slot);
	b->in_partial[b->nused - 1] = 0;
	if (b->partial != 0 && b->own_entries)
	{
		/* the predicates on the values at hand: the tuple formed below is not read back */
		ExprContext *econtext = GetPerTupleExprContext(b->estate);

		econtext->ecxt_scantuple = slot;
		for (int k = 0; k < b->rri->ri_NumIndices; k++)
			if ((b->partial & (UINT64CONST(1) << k)) &&
				ExecQual(b->rri->ri_IndexRelationInfo[k]->ii_PredicateState, econtext))
				b->in_partial[b->nused - 1] |= UINT64CONST(1) << k;
		ResetPerTupleExprContext(b->estate);
	}
	ExecMaterializeSlot(slot);
	return slot;
}

/*
 * Queue one row; values are copied, so the caller may free them at once.
 * bytes is the caller's estimate of the row's size, to bound the batch.
 */
void
fixes_bulk_insert(FixesBulk *b, const Datum *values, const bool *nulls, Size bytes)
{
	if (b->roomy)
	{
		flush(b);
		b->roomy = false;
	}
	(void) store(b, values, nulls);
	b->bytes += bytes;
	if (b->nused == FIXES_BULK_MAX_TUPLES || b->bytes >= FIXES_BULK_MAX_BYTES)
		flush(b);
}

/* what the update of a row kept apart may add to it: a release's name */
#define ROOMY_GROWTH 24

/* the rows of this table will come with fixes_bulk_insert_roomy too */
void
fixes_bulk_keep_room(FixesBulk *b)
{
	b->keep_room = true;
}

/*
 * Queue one row that a later UPDATE will rewrite (after
 * fixes_bulk_keep_room): with the others queued so, on a page they fill to
 * half at most.
 */
void
fixes_bulk_insert_roomy(FixesBulk *b, const Datum *values, const bool *nulls)
{
	TupleTableSlot *slot;
	Size		size;

	Assert(b->keep_room);
	if (!b->roomy)
	{
		flush(b);
		b->roomy = true;
	}
	slot = store(b, values, nulls);
	/* its size on the page, and what its new version may add (a short text) */
	size = MAXALIGN(ExecFetchSlotHeapTuple(slot, false, NULL)->t_len) + sizeof(ItemIdData) +
		ROOMY_GROWTH;
	if (b->nused > 1 && b->bytes + size > (BLCKSZ - SizeOfPageHeaderData) / 2)
	{
		/* the others take their page: this row starts the next one */
		int			last = b->nused - 1;

		uint64		in_partial = b->in_partial[last];

		b->nused = last;
		flush(b);
		b->slots[last] = b->slots[0];
		b->slots[0] = slot;
		b->in_partial[0] = in_partial;
		b->nused = 1;
	}
	b->bytes += size;
}

void
fixes_bulk_end(FixesBulk *b)
{
	flush(b);
	if (b->nsorted > 0)
		insert_sorted(b);
	FreeBulkInsertState(b->bis);
	ExecCloseIndices(b->rri);
	for (int i = 0; i < b->nslots; i++)
		ExecDropSingleTupleTableSlot(b->slots[i]);
	FreeExecutorState(b->estate);
	table_close(b->rel, NoLock);
}

/*
 * The writer *b ended, its rows visible to the statements that follow
 * (CommandCounterIncrement), and *b cleared; nothing when *b is NULL (never
 * begun, or finished already): the end of a walk's hook, which may run
 * again when the walk starts again in full
 */
void
fixes_bulk_finish(FixesBulk **b)
{
	if (*b == NULL)
		return;
	fixes_bulk_end(*b);
	*b = NULL;
	CommandCounterIncrement();
}
