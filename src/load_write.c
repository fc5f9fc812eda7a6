/*
 * load_write.c — fixes_load(): write the rows of a load
 *
 * New rows are written with batched multi-inserts (bulk_insert.c); rows of
 * a previous load that a refresh changes (the release of commits that a
 * new tag now contains, edges that new commits resolve differently) are
 * updated by primary key or row id, never through joins whose plans depend
 * on statistics.  All of it happens in the
 * caller's transaction: readers see the previous load until it commits, and
 * an error leaves the previous load as it was.
 */
#include "postgres.h"

#include <math.h>

#include "access/table.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "storage/itemptr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "bulk_insert.h"
#include "commit_fields.h"
#include "load.h"
#include "spi_call.h"

static void
delete_rows(FixesLoad *ld, const char *table)
{
	char	   *sql = psprintf("DELETE FROM %s.%s WHERE repository_id = $1",
							   ld->schema, table);
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};

	fixes_spi_execute(sql, 1, argtypes, args, NULL, 0, SPI_OK_DELETE);
}

/*
 * Remove the rows of the repository before a full load; fixes_releases is
 * replaced by every load anyway (fixes_load_write_releases), and
 * fixes_repositories keeps its row.
 */
void
fixes_load_delete_all(FixesLoad *ld)
{
	delete_rows(ld, "fixes_edges");
	delete_rows(ld, "fixes_fixed_commits");
	delete_rows(ld, "fixes_commits");
	delete_rows(ld, "fixes_graph");
	fixes_load_delete_files(ld);
	if (ld->has_stable)
	{
		delete_rows(ld, "fixes_backports");
		delete_rows(ld, "fixes_affected_series");
	}
	/* fixes_trailers and fixes_release_trailers: before the walk (load_trailers.c) */
	CommandCounterIncrement();
}

/* replace the rows of fixes_releases (a few hundred at most) */
void
fixes_load_write_releases(FixesLoad *ld)
{
	FixesBulk  *b;
	TupleDesc	desc;
	int			c_repo,
				c_rank,
				c_tag,
				c_idx,
				c_id,
				c_annotated,
				c_at,
				c_commits,
				c_mainline = -1,
				c_series = -1,
				c_stat[10];
	static const char *const stat_names[10] = {"fixing_commits", "bugs_fixed", "commits_fixed",
		"bugs_introduced", "buggy_commits_introduced", "fixed_same_release",
	/* 1.1 */
	"tagged_commits", "fixing_earlier_commits", "reverts", "reverted_introduced"};
	int			nstats = ld->has.release_v11 ? 10 : 6;
	static const char *const days_names[3] = {"fixed_median_days", "fixed_p90_days",
	"introduced_median_days"};
	int			c_days[3] = {-1, -1, -1};
	Datum	   *values;
	bool	   *nulls;

	delete_rows(ld, "fixes_releases");
	CommandCounterIncrement();
	b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_releases"));
	desc = RelationGetDescr(b->rel);
	c_repo = fixes_attnum(desc, "repository_id");
	c_rank = fixes_attnum(desc, "release_rank");
	c_tag = fixes_attnum(desc, "tag");
	c_idx = fixes_attnum(desc, "commit_idx");
	c_id = fixes_attnum(desc, "commit_id");
	c_annotated = fixes_attnum(desc, "annotated");
	c_at = fixes_attnum(desc, "released_at");
	c_commits = fixes_attnum(desc, "commits");
	for (int c = 0; c < nstats; c++)
		c_stat[c] = fixes_attnum(desc, stat_names[c]);
	if (ld->has_stable)
	{
		c_mainline = fixes_attnum(desc, "mainline");
		c_series = fixes_attnum(desc, "series");
	}
	if (ld->has.release_v11)
		for (int c = 0; c < 3; c++)
			c_days[c] = fixes_attnum_if_exists(desc, days_names[c]);
	values = palloc0(sizeof(Datum) * desc->natts);
	nulls = palloc(sizeof(bool) * desc->natts);

	for (int r = 0; r < ld->nreleases; r++)
	{
		FixesTag   *tag = &ld->tags[ld->release_tag[r]];
		TimestampTz at;

		memset(nulls, true, sizeof(bool) * desc->natts);
		values[c_repo] = Int32GetDatum(ld->repository_id);
		values[c_rank] = Int32GetDatum(r + 1);
		values[c_tag] = CStringGetTextDatum(tag->name);
		values[c_idx] = Int32GetDatum((int32) ld->release_commit[r]);
		values[c_id] = PointerGetDatum(fixes_oid_text(&tag->commit));
		values[c_annotated] = BoolGetDatum(tag->annotated);
		values[c_commits] = Int64GetDatum(ld->release_size[r]);
		{
			FixesReleaseStats *st = &ld->stats[r + 1];
			int64		v[10] = {st->fixing_commits, st->bugs_fixed, st->commits_fixed,
				st->bugs_introduced, st->buggy_commits_introduced, st->fixed_same_release,
			st->tagged_commits, st->fixing_earlier_commits, st->reverts, st->reverted_introduced};

			double		days[3] = {st->fixed_median_days, st->fixed_p90_days,
			st->introduced_median_days};

			for (int c = 0; c < nstats; c++)
			{
				values[c_stat[c]] = Int64GetDatum(v[c]);
				nulls[c_stat[c]] = false;
			}
			/* lifetimes (1.1): NULL where there is none */
			for (int c = 0; c < 3; c++)
				if (c_days[c] >= 0 && !isnan(days[c]))
				{
					values[c_days[c]] = Float8GetDatum(days[c]);
					nulls[c_days[c]] = false;
				}
		}
		nulls[c_repo] = nulls[c_rank] = nulls[c_tag] = nulls[c_idx] = false;
		nulls[c_id] = nulls[c_annotated] = nulls[c_commits] = false;
		if (c_mainline >= 0)
		{
			/* a mainline release: its series is itself */
			values[c_mainline] = BoolGetDatum(true);
			values[c_series] = values[c_tag];
			nulls[c_mainline] = nulls[c_series] = false;
		}
		if (fixes_time_to_timestamptz(tag->time, &at))
		{
			values[c_at] = TimestampTzGetDatum(at);
			nulls[c_at] = false;
		}
		fixes_bulk_insert(b, values, nulls, 128);
	}
	fixes_bulk_end(b);
}

/* the release of commit idx as text, or NULL */
static inline Datum
release_of(FixesLoad *ld, uint32 idx, bool *isnull)
{
	int32		rank = ld->mark[idx];

	*isnull = rank == 0;
	return ld->release_name[rank];
}

/*
 * Run a prepared statement once per row.  Every statement here names a whole
 * primary key, so it is an index probe whatever the statistics say (an
 * UPDATE ... FROM unnest(...) join can be planned as a scan of every commit
 * of the repository).
 */
static SPIPlanPtr
prepare_update(FixesLoad *ld, const char *fmt, int nargs, Oid *types)
{
	return fixes_spi_prepare(psprintf(fmt, ld->schema), nargs, types);
}

static void
execute_update(SPIPlanPtr plan, Datum *args, const char *nulls)
{
	fixes_spi_execute_plan(plan, args, nulls, SPI_OK_UPDATE);
}

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
 * For a refresh: the new release of the old commits whose release changed
 * (a new tag moves the whole unreleased tail: thousands of rows).  Their
 * row ids are found with one primary-key probe each, then each group of
 * commits that moved to the same release is updated by row id in one
 * statement (a TID scan, whatever the statistics say).
 */
static void
update_moved_commits(FixesLoad *ld)
{
	const char *nsp = ld->schema;
	Oid			find_types[2] = {INT4OID, INT4ARRAYOID};
	Oid			set_types[3] = {INT4OID, TIDARRAYOID, TEXTOID};
	SPIPlanPtr	set_plan;
	Datum	   *elems;
	Datum		args[3];
	char		nulls[3] = {' ', ' ', ' '};
	ItemPointerData *tids;
	int64		i = 0;

	if (ld->nmoved == 0)
		return;
	/* group by new release */
	qsort_arg(ld->moved, ld->nmoved, sizeof(uint32), moved_cmp, ld->mark);
	elems = palloc_extended(sizeof(Datum) * ld->nmoved, MCXT_ALLOC_HUGE);
	for (int64 k = 0; k < ld->nmoved; k++)
		elems[k] = Int32GetDatum((int32) ld->moved[k]);
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = PointerGetDatum(construct_array(elems, (int) ld->nmoved, INT4OID, sizeof(int32),
											  true, TYPALIGN_INT));
	if (fixes_spi_execute(psprintf("SELECT c.commit_idx, c.ctid FROM unnest($2) WITH ORDINALITY AS u(idx, n) "
								   "CROSS JOIN LATERAL (SELECT commit_idx, ctid FROM %s.fixes_commits "
								   "WHERE repository_id = $1 AND commit_idx = u.idx OFFSET 0) AS c "
								   "ORDER BY u.n", nsp),
						  2, find_types, args, NULL, 0, SPI_OK_SELECT) != (uint64) ld->nmoved)
		elog(ERROR, "could not find the moved commits of repository %d", ld->repository_id);
	tids = palloc_extended(sizeof(ItemPointerData) * ld->nmoved, MCXT_ALLOC_HUGE);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		bool		isnull;

		tids[r] = *(ItemPointer) DatumGetPointer(SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 2, &isnull));
	}
	SPI_freetuptable(SPI_tuptable);

	/* no "AND repository_id = $1": it would be planned as an index scan of the repository */
	set_plan = prepare_update(ld, "UPDATE %s.fixes_commits SET release = $3 "
							  "WHERE ctid = ANY ($2) AND $1 IS NOT NULL", 3, set_types);
	while (i < ld->nmoved)
	{
		int32		rank = ld->mark[ld->moved[i]];
		int64		j = i;
		bool		isnull;

		while (j < ld->nmoved && ld->mark[ld->moved[j]] == rank)
		{
			elems[j - i] = PointerGetDatum(&tids[j]);
			j++;
		}
		args[1] = PointerGetDatum(construct_array(elems, (int) (j - i), TIDOID, sizeof(ItemPointerData),
												  false, TYPALIGN_SHORT));
		args[2] = release_of(ld, ld->moved[i], &isnull);
		nulls[2] = isnull ? 'n' : ' ';
		execute_update(set_plan, args, nulls);
		if (SPI_processed != (uint64) (j - i))
			elog(ERROR, "updated %llu of %lld commits of repository %d",
				 (unsigned long long) SPI_processed, (long long) (j - i), ld->repository_id);
		i = j;
	}
	SPI_freeplan(set_plan);
}

/*
 * Insert the rows of the commits this load read, with their release, and
 * update the release of old commits that changed.
 */
void
fixes_load_write_commits(FixesLoad *ld)
{
	FixesBulk  *b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_commits"));
	TupleDesc	desc = ld->commits_desc;
	int			natts = desc->natts;
	int			c_idx = fixes_attnum(desc, "commit_idx");
	int			c_message = fixes_attnum(desc, "message");
	TupleTableSlot *slot = MakeSingleTupleTableSlot(desc, &TTSOpsMinimalTuple);
	Datum	   *values = palloc(sizeof(Datum) * natts);
	bool	   *nulls = palloc(sizeof(bool) * natts);
	int64		n = 0;

	if (RelationGetDescr(b->rel)->natts != natts)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table fixes_commits changed during the load")));
	fixes_progress_phase(&ld->progress, "writing commits");
	while (tuplestore_gettupleslot(ld->commit_rows, true, false, slot))
	{
		fixes_progress_tick(&ld->progress);
		if ((++n & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
		slot_getallattrs(slot);
		memcpy(values, slot->tts_values, sizeof(Datum) * natts);
		memcpy(nulls, slot->tts_isnull, sizeof(bool) * natts);
		values[ld->release_att] = release_of(ld, (uint32) DatumGetInt32(values[c_idx]),
											 &nulls[ld->release_att]);
		fixes_bulk_insert(b, values, nulls, 256 + VARSIZE_ANY(DatumGetPointer(values[c_message])));
	}
	ExecDropSingleTupleTableSlot(slot);
	tuplestore_end(ld->commit_rows);
	ld->commit_rows = NULL;
	fixes_bulk_end(b);
	update_moved_commits(ld);
	CommandCounterIncrement();
}

/* the edges this load read from messages: one new row each */
static void
insert_new_edges(FixesLoad *ld)
{
	FixesBulk  *b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_edges"));
	TupleDesc	desc = RelationGetDescr(b->rel);
	int			c_repo = fixes_attnum(desc, "repository_id");
	int			c_fixing = fixes_attnum(desc, "fixing_idx");
	int			c_line = fixes_attnum(desc, "line");
	int			c_target = fixes_attnum(desc, "target_idx");
	int			c_status = fixes_attnum(desc, "status");
	int			c_method = fixes_attnum(desc, "method");
	int			c_candidates = fixes_attnum(desc, "candidates");
	int			c_fixed_at = fixes_attnum(desc, "fixed_at");
	int			c_fixing_release = fixes_attnum(desc, "fixing_release");
	int			c_target_release = fixes_attnum(desc, "target_release");
	int			c_fixing_commit = fixes_attnum(desc, "fixing_commit");
	int			c_target_commit = fixes_attnum(desc, "target_commit");
	int			c_abbrev = fixes_attnum(desc, "abbrev");
	int			c_subject = fixes_attnum(desc, "quoted_subject");
	int			c_raw = fixes_attnum(desc, "raw");
	int			c_kind = ld->has.edge_kind ? fixes_attnum(desc, "kind") : -1;
	int			c_introduced_at = ld->has.edge_introduced_at ? fixes_attnum(desc, "introduced_at") : -1;
	Datum	   *values = palloc0(sizeof(Datum) * desc->natts);
	bool	   *nulls = palloc(sizeof(bool) * desc->natts);
	Datum		status_text[lengthof(fixes_edge_status_names)];
	Datum		method_text[lengthof(fixes_edge_method_names)];
	Datum		kind_text[lengthof(fixes_edge_kind_names)];
	MemoryContext rowcxt = AllocSetContextCreate(CurrentMemoryContext, "fixes edge row",
												 ALLOCSET_DEFAULT_SIZES);

	for (int i = 0; i < lengthof(fixes_edge_status_names); i++)
		status_text[i] = CStringGetTextDatum(fixes_edge_status_names[i]);
	for (int i = 1; i < lengthof(fixes_edge_method_names); i++)
		method_text[i] = CStringGetTextDatum(fixes_edge_method_names[i]);
	for (int i = 0; i < lengthof(fixes_edge_kind_names); i++)
		kind_text[i] = CStringGetTextDatum(fixes_edge_kind_names[i]);

	for (int64 k = 0; k < ld->nedges; k++)
	{
		FixesEdge  *e = &ld->edges[k];
		const char *text_base = ld->edge_text.data;
		MemoryContext old;

		if (e->old)
			continue;
		if ((k & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(rowcxt);
		memset(nulls, true, sizeof(bool) * desc->natts);
#define SET(col, datum) (values[col] = (datum), nulls[col] = false)
		SET(c_repo, Int32GetDatum(ld->repository_id));
		SET(c_fixing, Int32GetDatum((int32) e->fixing));
		SET(c_line, Int32GetDatum(e->line));
		SET(c_status, status_text[e->now.status]);
		SET(c_candidates, Int32GetDatum(e->now.candidates));
		SET(c_fixing_commit, PointerGetDatum(fixes_oid_text(&ld->graph->oids[e->fixing])));
		SET(c_abbrev, PointerGetDatum(cstring_to_text_with_len(text_base + e->abbrev_off,
															   e->abbrev_len)));
		SET(c_raw, PointerGetDatum(cstring_to_text_with_len(text_base + e->raw_off, e->raw_len)));
		if (e->subj_len >= 0)
			SET(c_subject, PointerGetDatum(cstring_to_text_with_len(text_base + e->subj_off,
																	e->subj_len)));
		if (!ld->committed_null[e->fixing])
			SET(c_fixed_at, TimestampTzGetDatum(ld->committed_at[e->fixing]));
		values[c_fixing_release] = release_of(ld, e->fixing, &nulls[c_fixing_release]);
		if (c_kind >= 0)
			SET(c_kind, kind_text[e->kind]);
		if (e->now.status == EDGE_RESOLVED)
		{
			SET(c_target, Int32GetDatum((int32) e->now.target));
			SET(c_method, method_text[e->now.method]);
			SET(c_target_commit, PointerGetDatum(fixes_oid_text(&ld->graph->oids[e->now.target])));
			values[c_target_release] = release_of(ld, e->now.target, &nulls[c_target_release]);
			if (c_introduced_at >= 0 && !ld->committed_null[e->now.target])
				SET(c_introduced_at, TimestampTzGetDatum(ld->committed_at[e->now.target]));
		}
#undef SET
		fixes_bulk_insert(b, values, nulls, 256 + e->raw_len + Max(e->subj_len, 0));
		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
	}
	MemoryContextDelete(rowcxt);
	fixes_bulk_end(b);
}

/*
 * The old edges this load changed: resolved differently, or whose fixing or
 * target commit is in another release now.
 */
static void
update_old_edges(FixesLoad *ld)
{
	Oid			types[12] = {INT4OID, INT4OID, INT4OID, TEXTOID, TEXTOID, INT4OID, INT4OID,
	TEXTOID, TEXTOID, TEXTOID, BOOLOID, TIMESTAMPTZOID};
	SPIPlanPtr	plan = NULL;
	bool	   *moved = palloc0(sizeof(bool) * Max(ld->n_old, 1));
	int			nargs = ld->has.edge_introduced_at ? 12 : 10;

	for (int64 i = 0; i < ld->nmoved; i++)
		moved[ld->moved[i]] = true;
	for (int64 k = 0; k < ld->nedges; k++)
	{
		FixesEdge  *e = &ld->edges[k];
		bool		resolved = e->now.status == EDGE_RESOLVED;
		Datum		args[12];
		char		nulls[12];
		bool		isnull;

		if (!e->old)
			continue;
		if (fixes_resolution_equal(&e->now, &e->before) && !moved[e->fixing] &&
			!(resolved && e->now.target < ld->n_old && moved[e->now.target]))
			continue;
		if (plan == NULL)
			plan = prepare_update(ld, psprintf("UPDATE %%s.fixes_edges SET status = $4, method = $5, "
											   "target_idx = $6, candidates = $7, target_commit = $8, "
											   "fixing_release = $9, target_release = $10%s "
											   "WHERE repository_id = $1 AND fixing_idx = $2 AND line = $3",
											   nargs == 12 ? ", introduced_at = CASE WHEN $11 THEN $12 ELSE introduced_at END" : ""),
								  nargs, types);
		CHECK_FOR_INTERRUPTS();
		memset(nulls, ' ', sizeof(nulls));
		args[0] = Int32GetDatum(ld->repository_id);
		args[1] = Int32GetDatum((int32) e->fixing);
		args[2] = Int32GetDatum(e->line);
		args[3] = CStringGetTextDatum(fixes_edge_status_names[e->now.status]);
		args[4] = resolved ? CStringGetTextDatum(fixes_edge_method_names[e->now.method]) : (Datum) 0;
		nulls[4] = resolved ? ' ' : 'n';
		args[5] = Int32GetDatum(resolved ? (int32) e->now.target : 0);
		nulls[5] = resolved ? ' ' : 'n';
		args[6] = Int32GetDatum(e->now.candidates);
		args[7] = resolved ? PointerGetDatum(fixes_oid_text(&ld->graph->oids[e->now.target])) : (Datum) 0;
		nulls[7] = resolved ? ' ' : 'n';
		args[8] = release_of(ld, e->fixing, &isnull);
		nulls[8] = isnull ? 'n' : ' ';
		args[9] = resolved ? release_of(ld, e->now.target, &isnull) : (Datum) 0;
		nulls[9] = (!resolved || isnull) ? 'n' : ' ';
		/* the target's date, when the target changed (fixes_load_fetch_target_times) */
		args[10] = BoolGetDatum(e->now.target != e->before.target);
		args[11] = (Datum) 0;
		nulls[11] = 'n';
		if (resolved && e->now.target != e->before.target && !ld->committed_null[e->now.target])
		{
			args[11] = TimestampTzGetDatum(ld->committed_at[e->now.target]);
			nulls[11] = ' ';
		}
		execute_update(plan, args, nulls);
	}
	if (plan != NULL)
		SPI_freeplan(plan);
	pfree(moved);
}

/*
 * fixes_edges.introduced_at is the committer date of the edge's target.  A
 * refresh knows the dates of the commits it read; those of the old commits
 * that a written edge now points at (a new fix of an old bug, an override)
 * come from fixes_commits, one primary-key probe each.  They go into
 * ld->committed_at, which holds the new commits' dates already.
 */
void
fixes_load_fetch_target_times(FixesLoad *ld)
{
	uint32	   *ids;
	int64		n = 0;
	Datum	   *elems;
	Oid			argtypes[2] = {INT4OID, INT4ARRAYOID};
	Datum		args[2];
	char	   *sql;

	if (!ld->has.edge_introduced_at || ld->n_old == 0)
		return;
	ids = palloc_extended(sizeof(uint32) * Max(ld->nedges, 1), MCXT_ALLOC_HUGE);
	for (int64 k = 0; k < ld->nedges; k++)
	{
		FixesEdge  *e = &ld->edges[k];

		if (e->now.status == EDGE_RESOLVED && e->now.target < ld->n_old &&
			(!e->old || e->now.target != e->before.target))
			ids[n++] = e->now.target;
	}
	if (n == 0)
		return;
	elems = palloc_extended(sizeof(Datum) * n, MCXT_ALLOC_HUGE);
	for (int64 i = 0; i < n; i++)
		elems[i] = Int32GetDatum((int32) ids[i]);
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = PointerGetDatum(construct_array(elems, (int) n, INT4OID, sizeof(int32), true, TYPALIGN_INT));
	/* one probe per distinct id, whatever the statistics say (as fetch_subjects) */
	sql = psprintf("SELECT c.commit_idx, c.committed_at FROM (SELECT DISTINCT idx FROM unnest($2) AS u(idx)) u "
				   "CROSS JOIN LATERAL (SELECT commit_idx, committed_at FROM %s.fixes_commits "
				   "WHERE repository_id = $1 AND commit_idx = u.idx OFFSET 0) AS c",
				   ld->schema);
	fixes_spi_execute(sql, 2, argtypes, args, NULL, 0, SPI_OK_SELECT);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		HeapTuple	tup = SPI_tuptable->vals[r];
		bool		isnull;
		uint32		idx = (uint32) DatumGetInt32(SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &isnull));
		Datum		d = SPI_getbinval(tup, SPI_tuptable->tupdesc, 2, &isnull);

		ld->committed_null[idx] = isnull;
		ld->committed_at[idx] = isnull ? 0 : DatumGetTimestampTz(d);
	}
	SPI_freetuptable(SPI_tuptable);
	pfree(ids);
	pfree(elems);
}

/*
 * Write the edges: new ones inserted, old ones updated where this load
 * resolved them differently.
 */
void
fixes_load_write_edges(FixesLoad *ld)
{
	insert_new_edges(ld);
	update_old_edges(ld);
	CommandCounterIncrement();
}

/*
 * Record the load in the repository's row of fixes_repositories.
 */
void
fixes_load_finish(FixesLoad *ld, double seconds)
{
	char	   *sql = psprintf("UPDATE %s.fixes_repositories SET path = $2, ref = $3, "
							   "release_pattern = $4, head_commit = $5, loaded_at = now(), "
							   "load_seconds = $6, commits = $7, releases = $8, edges = $9, "
							   "resolved = $10, missing_parents = $11, tags_hash = $12 WHERE repository_id = $1",
							   ld->schema);
	Oid			argtypes[12] = {INT4OID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, FLOAT8OID,
	INT8OID, INT4OID, INT8OID, INT8OID, INT8OID, INT8OID};
	Datum		args[12];
	char		nulls[12];

	memset(nulls, ' ', sizeof(nulls));
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = CStringGetTextDatum(ld->path);
	args[2] = CStringGetTextDatum(ld->ref);
	args[3] = ld->pattern ? CStringGetTextDatum(ld->pattern) : (Datum) 0;
	nulls[3] = ld->pattern ? ' ' : 'n';
	args[4] = ld->empty ? (Datum) 0 : PointerGetDatum(fixes_oid_text(&ld->head));
	nulls[4] = ld->empty ? 'n' : ' ';
	args[5] = Float8GetDatum(seconds);
	args[6] = Int64GetDatum(ld->unchanged ? ld->old_commits : (int64) ld->n_mainline);
	args[7] = Int32GetDatum(ld->nreleases);
	args[8] = Int64GetDatum(ld->counted_edges);
	args[9] = Int64GetDatum(ld->resolved);
	args[10] = Int64GetDatum(ld->missing_parents);
	args[11] = Int64GetDatum(ld->tags_hash);
	fixes_spi_execute(sql, 12, argtypes, args, nulls, 0, SPI_OK_UPDATE);
}
