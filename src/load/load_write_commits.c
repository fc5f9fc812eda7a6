/*
 * load_write_commits.c — fixes_load(): correct releases in fixes_commits
 *
 * The walk wrote the mainline's rows (load_read.c, through
 * load_commit_rows.c), after fixes_load_clear() (load_clear.c) cleared what
 * they replace.  The first of the writing phases (load_write_commits.c,
 * load_files.c, load_write_edges.c, load_write_releases.c, load_graph.c)
 * corrects the release of the rows that need another one: old commits that
 * a new tag now contains, new ones the walk reached before a release did.
 * They are updated by primary key or row id, never through joins whose plans
 * depend on statistics.  All of it happens in
 * the caller's transaction: readers see the previous load until it commits,
 * and an error leaves the previous load as it was.
 */
#include "postgres.h"

#include <math.h>

#include "access/genam.h"
#include "access/relscan.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "storage/itemptr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "bulk_insert.h"
#include "commit_fields.h"
#include "load_releases.h"
#include "load_state.h"
#include "load_write_commits.h"
#include "spi_call.h"

static int
moved_cmp(const void *a, const void *b, void *arg)
{
	const int32 *mark = arg;
	uint32		x = *(const uint32 *) a;
	uint32		y = *(const uint32 *) b;

	if (mark[x] != mark[y])
		return mark[x] < mark[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * The row ids of the n commits in list, one primary-key probe each, in the
 * order of list.
 */
static void
probe_row_ids(FixesLoad *ld, const uint32 *list, int64 n, ItemPointerData *tids)
{
	Oid			types[2] = {INT4OID, INT4ARRAYOID};
	Datum		args[2];
	Datum	   *elems = fixes_palloc_big(sizeof(Datum) * n, MCXT_ALLOC_HUGE);

	for (int64 k = 0; k < n; k++)
		elems[k] = Int32GetDatum((int32) list[k]);
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = PointerGetDatum(construct_array(elems, (int) n, INT4OID, sizeof(int32),
											  true, TYPALIGN_INT));
	if (fixes_spi_execute(psprintf("SELECT c.commit_idx, c.ctid FROM unnest($2) WITH ORDINALITY AS u(idx, n) "
								   "CROSS JOIN LATERAL (SELECT commit_idx, ctid FROM ONLY %s.fixes_commits "
								   "WHERE repository_id = $1 AND commit_idx = u.idx OFFSET 0) AS c "
								   "ORDER BY u.n", ld->schema),
						  2, types, args, NULL, 0, SPI_OK_SELECT) != (uint64) n)
		fixes_load_stored_bad(ld, "fixes_commits", "Rows of commits whose release changes are missing.");
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		bool		isnull;

		tids[r] = *(ItemPointer) DatumGetPointer(SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 2, &isnull));
	}
	SPI_freetuptable(SPI_tuptable);
	pfree(elems);
}

/*
 * The same when the commits of list are most of the range lo .. hi of
 * commit indexes (a refresh's unreleased tail, written together): one scan
 * of that range of the primary key, instead of a probe from its root for
 * each.
 */
static void
scan_row_ids(FixesLoad *ld, const uint32 *list, int64 n, uint32 lo, uint32 hi,
			 ItemPointerData *tids)
{
	Relation	rel = table_open(fixes_table_oid(ld->nsp, "fixes_commits"), AccessShareLock);
	Relation	pkey = index_open(RelationGetPrimaryKeyIndex(rel), AccessShareLock);
	int			c_idx = fixes_attnum(RelationGetDescr(rel), "commit_idx") + 1;
	int64	   *pos = fixes_palloc_big(sizeof(int64) * ((Size) hi - lo + 1), MCXT_ALLOC_HUGE);
	ScanKeyData keys[3];
	Snapshot	snap;
	IndexScanDesc scan;
	TupleTableSlot *slot;
	int64		found = 0;

	for (uint32 i = 0; i <= hi - lo; i++)
		pos[i] = -1;
	for (int64 k = 0; k < n; k++)
		pos[list[k] - lo] = k;
	ScanKeyInit(&keys[0], 1, BTEqualStrategyNumber, F_INT4EQ, Int32GetDatum(ld->repository_id));
	ScanKeyInit(&keys[1], 2, BTGreaterEqualStrategyNumber, F_INT4GE, Int32GetDatum((int32) lo));
	ScanKeyInit(&keys[2], 2, BTLessEqualStrategyNumber, F_INT4LE, Int32GetDatum((int32) hi));
	/* what this load wrote so far is visible, as to an SPI query */
	CommandCounterIncrement();
	snap = RegisterSnapshot(GetTransactionSnapshot());
	slot = table_slot_create(rel, NULL);
	scan = index_beginscan(rel, pkey, snap, 3, 0);
	index_rescan(scan, keys, 3, NULL, 0);
	while (index_getnext_slot(scan, ForwardScanDirection, slot))
	{
		bool		isnull;
		int32		idx = DatumGetInt32(slot_getattr(slot, c_idx, &isnull));

		if ((found & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
		if (isnull || idx < (int32) lo || idx > (int32) hi || pos[idx - lo] < 0)
			continue;
		tids[pos[idx - lo]] = slot->tts_tid;
		pos[idx - lo] = -1;
		found++;
	}
	index_endscan(scan);
	ExecDropSingleTupleTableSlot(slot);
	UnregisterSnapshot(snap);
	index_close(pkey, AccessShareLock);
	table_close(rel, AccessShareLock);
	pfree(pos);
	if (found != n)
		fixes_load_stored_bad(ld, "fixes_commits", "Rows of commits whose release changes are missing.");
}

/*
 * The new release of the n commits in list (sorted in place): for a
 * refresh, the old commits that a new tag moved (the whole unreleased tail:
 * thousands of rows); for any load, the new commits the walk got wrong.
 * Their row ids are found in the primary key (scan_row_ids(), or
 * probe_row_ids() when they are scattered), then each group of commits that
 * moved to the same release is updated by row id in one statement (a TID
 * scan, whatever the statistics say).
 */
static void
update_releases(FixesLoad *ld, uint32 *list, int64 n)
{
	Oid			set_types[3] = {INT4OID, TIDARRAYOID, TEXTOID};
	SPIPlanPtr	set_plan;
	Datum	   *elems;
	Datum		args[3];
	char		nulls[3] = {' ', ' ', ' '};
	ItemPointerData *tids;
	uint32		lo = PG_UINT32_MAX;
	uint32		hi = 0;
	int64		i = 0;

	if (n == 0)
		return;
	/* group by new release */
	qsort_arg(list, n, sizeof(uint32), moved_cmp, ld->mark);
	for (int64 k = 0; k < n; k++)
	{
		lo = Min(lo, list[k]);
		hi = Max(hi, list[k]);
	}
	tids = fixes_palloc_big(sizeof(ItemPointerData) * n, MCXT_ALLOC_HUGE);
	if ((uint64) hi - lo + 1 <= (uint64) 4 * n)
		scan_row_ids(ld, list, n, lo, hi, tids);
	else
		probe_row_ids(ld, list, n, tids);
	elems = fixes_palloc_big(sizeof(Datum) * n, MCXT_ALLOC_HUGE);
	set_plan = fixes_spi_prepare_row_id_update(ld->schema, "fixes_commits", "release = $3", 3, set_types);
	while (i < n)
	{
		int32		rank = ld->mark[list[i]];
		int64		j = i;
		bool		isnull;

		while (j < n && ld->mark[list[j]] == rank)
		{
			elems[j - i] = PointerGetDatum(&tids[j]);
			j++;
		}
		args[2] = fixes_release_of(ld, list[i], &isnull);
		nulls[2] = isnull ? 'n' : ' ';
		fixes_spi_update_row_ids(set_plan, args, nulls, elems, (int) (j - i), "fixes_commits",
								 ld->repository_id);
		i = j;
	}
	SPI_freeplan(set_plan);
}

/*
 * Correct the release of the rows that need another one (the rows
 * themselves are written by load_commit_rows.c).
 */
void
fixes_load_write_commits(FixesLoad *ld)
{
	fixes_progress_phase(&ld->progress, "writing commits");
	if (ld->refresh != NULL)
		update_releases(ld, ld->refresh->moved, ld->refresh->nmoved);
	update_releases(ld, ld->releases->corrected, ld->releases->ncorrected);
	CommandCounterIncrement();
}
