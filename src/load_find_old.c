/*
 * load_find_old.c — a refresh finds the previous load's commits by id in
 * the index on fixes_commits.commit_id, not in a map of all of them
 *
 * A refresh reads the previous load's ids back (load_graph.c), but looks up
 * few of them: the parents of new commits that are old, the commits of the
 * tags, the previous head.  Putting every id in the graph's map took a
 * quarter of a second at 1.3M commits (and a 16-MB table, zeroed); the map
 * now holds the new commits and the old ones looked up, and a lookup that
 * misses probes the index (graph.c, find_unhashed).  Each new commit misses
 * once, so a refresh of 13,000 commits probes about 13,000 times, into the
 * leaf pages that the same ids are inserted into right after.
 *
 * A row found counts only when it is this repository's and one of the
 * previous load's mainline commits (index below n_unhashed), and the graph
 * checks that its id is the one looked up.  Without a usable index (a
 * database still at 1.0 SQL, an index dropped or replaced), every old
 * commit goes in the map as before.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/relscan.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/pg_am_d.h"
#include "executor/tuptable.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "load.h"
#include "table_columns.h"

typedef struct FixesFindOld
{
	Relation	heap;
	Relation	index;
	Snapshot	snapshot;
	IndexScanDesc scan;
	TupleTableSlot *slot;
	AttrNumber	repo_att;
	AttrNumber	idx_att;
	uint32		limit;			/* the previous load's commits: indexes below it */
	char		key[VARHDRSZ + FIXES_OID_HEXSZ];	/* a commit id as text */
} FixesFindOld;

static uint32
find_old(void *arg, const FixesOid *oid)
{
	FixesLoad  *ld = arg;
	FixesFindOld *f = ld->find_old;
	ScanKeyData sk;

	if (f == NULL)
		elog(ERROR, "fixes_load %s: a commit was looked up after the load's end", ld->name);
	fixes_oid_fmt(f->key + VARHDRSZ, oid);
	ScanKeyInit(&sk, 1, BTEqualStrategyNumber, F_TEXTEQ, PointerGetDatum(f->key));
	index_rescan(f->scan, &sk, 1, NULL, 0);
	while (index_getnext_slot(f->scan, ForwardScanDirection, f->slot))
	{
		bool		isnull;
		Datum		repo = slot_getattr(f->slot, f->repo_att, &isnull);
		int32		idx;

		if (isnull || DatumGetInt32(repo) != ld->repository_id)
			continue;			/* another repository's copy of the commit */
		idx = DatumGetInt32(slot_getattr(f->slot, f->idx_att, &isnull));
		if (!isnull && idx >= 0 && (uint32) idx < f->limit)
			return (uint32) idx;
	}
	return FIXES_NO_IDX;
}

/* a btree on commit_id alone, whole and valid, as fixes--1.1.sql makes it */
static bool
usable(Relation index, AttrNumber commit_att)
{
	Form_pg_index i = index->rd_index;

	return index->rd_rel->relam == BTREE_AM_OID && i->indisvalid && i->indisready &&
		i->indnkeyatts == 1 && i->indkey.values[0] == commit_att &&
		heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL) &&
		heap_attisnull(index->rd_indextuple, Anum_pg_index_indexprs, NULL);
}

/*
 * Let lookups in ld->graph that miss find the previous load's commits
 * (0 .. ld->graph->n - 1 now) through the index; false if it is not there
 * or not usable, and the caller puts them all in the map.
 */
bool
fixes_load_find_old_begin(FixesLoad *ld)
{
	Oid			index_oid = fixes_table_oid_if_exists(ld->nsp, "fixes_commits_commit_id_idx");
	FixesFindOld *f;
	Relation	heap;
	Relation	index;
	TupleDesc	desc;
	MemoryContext old;

	if (!OidIsValid(index_oid))
		return false;
	heap = table_open(fixes_table_oid(ld->nsp, "fixes_commits"), AccessShareLock);
	index = index_open(index_oid, AccessShareLock);
	desc = RelationGetDescr(heap);
	if (index->rd_index->indrelid != RelationGetRelid(heap) ||
		!usable(index, fixes_attnum(desc, "commit_id") + 1))
	{
		index_close(index, AccessShareLock);
		table_close(heap, AccessShareLock);
		return false;
	}
	old = MemoryContextSwitchTo(ld->cxt);
	f = palloc0(sizeof(FixesFindOld));
	f->heap = heap;
	f->index = index;
	f->repo_att = fixes_attnum(desc, "repository_id") + 1;
	f->idx_att = fixes_attnum(desc, "commit_idx") + 1;
	f->limit = ld->graph->n;
	SET_VARSIZE(f->key, sizeof(f->key));
	f->snapshot = RegisterSnapshot(GetLatestSnapshot());
	f->slot = table_slot_create(heap, NULL);
	f->scan = index_beginscan(heap, index, f->snapshot, 1, 0);
	MemoryContextSwitchTo(old);
	ld->find_old = f;
	ld->graph->find_unhashed = find_old;
	ld->graph->find_arg = ld;
	return true;
}

/* the end of the probes: at the end of the load (an error ends them too) */
void
fixes_load_find_old_end(FixesLoad *ld)
{
	FixesFindOld *f = ld->find_old;

	if (f == NULL)
		return;
	index_endscan(f->scan);
	ExecDropSingleTupleTableSlot(f->slot);
	UnregisterSnapshot(f->snapshot);
	index_close(f->index, AccessShareLock);
	table_close(f->heap, AccessShareLock);
	pfree(f);
	ld->find_old = NULL;
}
