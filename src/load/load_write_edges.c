/*
 * load_write_edges.c — fixes_load(): write fixes_edges, the one writer of
 * that table (the mainline's edges and, through fixes_write_edges(), the
 * stable scope's)
 *
 * After the resolution (load_resolve.c): the edges read from new commits'
 * messages are inserted in batches (bulk_insert.c); the old edges that the
 * refresh resolved differently, or whose commits moved to another release,
 * are updated one by one.  The committer dates of the targets come from
 * fixes_commits for targets that this load did not read.
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "bulk_insert.h"
#include "commit_fields.h"
#include "load_walk.h"
#include "load_releases.h"
#include "load_write_edges.h"
#include "refresh.h"
#include "spi_call.h"

/* the edges this load read from messages: one new row each */
static void
insert_new_edges(FixesLoad *ld, const FixesEdgeSet *es)
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
	int			c_kind = ld->has.revert_edges ? fixes_attnum(desc, "kind") : -1;
	int			c_introduced_at = ld->has.revert_edges ? fixes_attnum(desc, "introduced_at") : -1;
	Datum	   *values = palloc0(sizeof(Datum) * desc->natts);
	bool	   *nulls = palloc(sizeof(bool) * desc->natts);
	Datum		status_text[lengthof(fixes_edge_status_names)];
	Datum		method_text[lengthof(fixes_edge_method_names)];
	Datum		kind_text[lengthof(fixes_edge_kind_names)];
	MemoryContext rowcxt = AllocSetContextCreate(CurrentMemoryContext, "fixes edge row",
												 ALLOCSET_DEFAULT_SIZES);

	/* commit ids: keys in random order */
	fixes_bulk_sort_index(b, "fixes_edges_fixing_commit_idx");
	fixes_bulk_sort_index(b, "fixes_edges_target_commit_idx");
	/* target indexes, in random order too (refresh/old_edges.c) */
	fixes_bulk_sort_index(b, "fixes_edges_target_idx_idx");
	for (int i = 0; i < lengthof(fixes_edge_status_names); i++)
		status_text[i] = CStringGetTextDatum(fixes_edge_status_names[i]);
	for (int i = 1; i < lengthof(fixes_edge_method_names); i++)
		method_text[i] = CStringGetTextDatum(fixes_edge_method_names[i]);
	for (int i = 0; i < lengthof(fixes_edge_kind_names); i++)
		kind_text[i] = CStringGetTextDatum(fixes_edge_kind_names[i]);

	/*
	 * The edges of an unreleased commit, fixing or fixed, come last, on pages
	 * of their own: a new tag will set their release, and their updates are
	 * then HOT (bulk_insert.c, fixes_bulk_keep_room()).
	 */
	fixes_bulk_keep_room(b);
	for (int64 k = 0; k < 2 * es->n; k++)
	{
		FixesEdge  *e = &es->edges[k % Max(es->n, 1)];
		const char *text_base = es->text;
		bool		resolved = e->now.status == EDGE_RESOLVED;
		bool		unreleased = ld->mark[e->fixing] == 0 || (resolved && ld->mark[e->now.target] == 0);
		MemoryContext old;

		if (e->old || unreleased != (k >= es->n))
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
		SET(c_fixing_commit, PointerGetDatum(fixes_oid_text(fixes_load_oid(ld, e->fixing))));
		SET(c_abbrev, PointerGetDatum(cstring_to_text_with_len(text_base + e->abbrev_off,
															   e->abbrev_len)));
		SET(c_raw, PointerGetDatum(cstring_to_text_with_len(text_base + e->raw_off, e->raw_len)));
		if (e->subj_len >= 0)
			SET(c_subject, PointerGetDatum(cstring_to_text_with_len(text_base + e->subj_off,
																	e->subj_len)));
		if (!ld->by_commit.committed_null[e->fixing])
			SET(c_fixed_at, TimestampTzGetDatum(ld->by_commit.committed_at[e->fixing]));
		values[c_fixing_release] = fixes_release_of(ld, e->fixing, &nulls[c_fixing_release]);
		if (c_kind >= 0)
			SET(c_kind, kind_text[e->kind]);
		if (e->now.status == EDGE_RESOLVED)
		{
			SET(c_target, Int32GetDatum((int32) e->now.target));
			SET(c_method, method_text[e->now.method]);
			SET(c_target_commit, PointerGetDatum(fixes_oid_text(fixes_load_oid(ld, e->now.target))));
			values[c_target_release] = fixes_release_of(ld, e->now.target, &nulls[c_target_release]);
			if (c_introduced_at >= 0 && !ld->by_commit.committed_null[e->now.target])
				SET(c_introduced_at, TimestampTzGetDatum(ld->by_commit.committed_at[e->now.target]));
		}
#undef SET
		if (unreleased)
			fixes_bulk_insert_roomy(b, values, nulls);
		else
			fixes_bulk_insert(b, values, nulls, 256 + e->raw_len + Max(e->subj_len, 0));
		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
	}
	MemoryContextDelete(rowcxt);
	fixes_bulk_end(b);
}

/* the releases an old edge gets when only they change: its fixing commit's, its target's */
static inline int64
release_pair(const FixesLoad *ld, const FixesEdge *e)
{
	int32		t = e->now.status == EDGE_RESOLVED ? ld->mark[e->now.target] : -1;

	return ((int64) ld->mark[e->fixing] << 32) | (uint32) t;
}

/* the load and the edges whose releases release_pair_cmp compares */
typedef struct PairArg
{
	const FixesLoad *ld;
	const FixesEdgeSet *es;
} PairArg;

static int
release_pair_cmp(const void *a, const void *b, void *arg)
{
	const PairArg *pa = arg;
	int64		x = release_pair(pa->ld, &pa->es->edges[*(const int64 *) a]);
	int64		y = release_pair(pa->ld, &pa->es->edges[*(const int64 *) b]);

	return x < y ? -1 : x > y;
}

/*
 * The old edges resolved as before whose commits moved to another release
 * (a new tag reached the unreleased tail: thousands of them), by row id,
 * one statement per pair of new releases (a TID scan, whatever the
 * statistics say).  The row ids are those fixes_load_read_old_edges() read:
 * nothing has updated the rows since.
 */
static void
update_moved_edges(FixesLoad *ld, const FixesEdgeSet *es, int64 *list, int64 n)
{
	Oid			types[4] = {INT4OID, TIDARRAYOID, TEXTOID, TEXTOID};
	SPIPlanPtr	plan;
	Datum	   *elems;
	PairArg		pa = {ld, es};

	if (n == 0)
		return;
	elems = palloc(sizeof(Datum) * n);
	qsort_arg(list, n, sizeof(int64), release_pair_cmp, &pa);
	plan = fixes_spi_prepare_row_id_update(ld->schema, "fixes_edges",
										   "fixing_release = $3, target_release = $4", 4, types);
	for (int64 i = 0, j; i < n; i = j)
	{
		const FixesEdge *first = &es->edges[list[i]];
		int64		pair = release_pair(ld, first);
		Datum		args[4];
		char		nulls[4] = {' ', ' ', ' ', ' '};
		bool		isnull;

		CHECK_FOR_INTERRUPTS();
		for (j = i; j < n && release_pair(ld, &es->edges[list[j]]) == pair; j++)
			elems[j - i] = PointerGetDatum(&es->edges[list[j]].tid);
		args[2] = fixes_release_of(ld, first->fixing, &isnull);
		nulls[2] = isnull ? 'n' : ' ';
		args[3] = (Datum) 0;
		nulls[3] = 'n';
		if (first->now.status == EDGE_RESOLVED)
		{
			args[3] = fixes_release_of(ld, first->now.target, &isnull);
			nulls[3] = isnull ? 'n' : ' ';
		}
		fixes_spi_update_row_ids(plan, args, nulls, elems, (int) (j - i), "fixes_edges", ld->repository_id);
	}
	SPI_freeplan(plan);
	pfree(elems);
}

/*
 * The old edges this load changed: resolved differently, or whose fixing or
 * target commit is in another release now.  Those resolved as before are
 * updated by row id together (update_moved_edges()); the others with one
 * statement each, which names its whole primary key: an index probe
 * whatever the statistics say (an UPDATE ... FROM unnest(...) join can be
 * planned as a scan of every edge of the repository).
 */
static void
update_old_edges(FixesLoad *ld, const FixesEdgeSet *es)
{
	Oid			types[12] = {INT4OID, INT4OID, INT4OID, TEXTOID, TEXTOID, INT4OID, INT4OID,
	TEXTOID, TEXTOID, TEXTOID, BOOLOID, TIMESTAMPTZOID};
	SPIPlanPtr	plan = NULL;
	bool	   *moved = palloc0(sizeof(bool) * Max(ld->n_old, 1));
	int64	   *only_moved = fixes_palloc_big(sizeof(int64) * Max(es->n, 1), MCXT_ALLOC_HUGE);
	int64		nonly_moved = 0;
	int			nargs = ld->has.revert_edges ? 12 : 10;

	for (int64 i = 0; ld->refresh != NULL && i < ld->refresh->nmoved; i++)
		moved[ld->refresh->moved[i]] = true;
	for (int64 k = 0; k < es->n; k++)
	{
		FixesEdge  *e = &es->edges[k];
		bool		resolved = e->now.status == EDGE_RESOLVED;
		Datum		args[12];
		char		nulls[12];
		bool		isnull;

		if (!e->old)
			continue;
		if (!moved[e->fixing] && !(resolved && e->now.target < ld->n_old && moved[e->now.target]))
		{
			if (fixes_resolution_equal(&e->now, &e->before))
				continue;
		}
		else if (fixes_resolution_equal(&e->now, &e->before))
		{
			only_moved[nonly_moved++] = k;
			continue;
		}
		if (plan == NULL)
			plan = fixes_spi_prepare(psprintf("UPDATE ONLY %s.fixes_edges SET status = $4, method = $5, "
											  "target_idx = $6, candidates = $7, target_commit = $8, "
											  "fixing_release = $9, target_release = $10%s "
											  "WHERE repository_id = $1 AND fixing_idx = $2 AND line = $3",
											  ld->schema,
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
		args[7] = resolved ? PointerGetDatum(fixes_oid_text(fixes_load_oid(ld, e->now.target))) : (Datum) 0;
		nulls[7] = resolved ? ' ' : 'n';
		args[8] = fixes_release_of(ld, e->fixing, &isnull);
		nulls[8] = isnull ? 'n' : ' ';
		args[9] = resolved ? fixes_release_of(ld, e->now.target, &isnull) : (Datum) 0;
		nulls[9] = (!resolved || isnull) ? 'n' : ' ';
		/* the target's date, when the target changed (fixes_fetch_target_times) */
		args[10] = BoolGetDatum(e->now.target != e->before.target);
		args[11] = (Datum) 0;
		nulls[11] = 'n';
		if (resolved && e->now.target != e->before.target && !ld->by_commit.committed_null[e->now.target])
		{
			args[11] = TimestampTzGetDatum(ld->by_commit.committed_at[e->now.target]);
			nulls[11] = ' ';
		}
		fixes_spi_execute_plan(plan, args, nulls, SPI_OK_UPDATE);
	}
	if (plan != NULL)
		SPI_freeplan(plan);
	pfree(moved);
	update_moved_edges(ld, es, only_moved, nonly_moved);
	pfree(only_moved);
}

/*
 * fixes_edges.introduced_at is the committer date of the edge's target.  A
 * refresh knows the dates of the commits it read; those of the old commits
 * that a written edge now points at (a new fix of an old bug, an override)
 * come from fixes_commits, one primary-key probe each.  They go into
 * ld->by_commit.committed_at, which holds the new commits' dates already.
 */
void
fixes_fetch_target_times(FixesLoad *ld, const FixesEdgeSet *es)
{
	uint32	   *ids;
	int64		n = 0;
	Oid			argtypes[2] = {INT4OID, INT4ARRAYOID};
	Datum		args[2];
	char	   *sql;

	if (!ld->has.revert_edges || ld->n_old == 0)
		return;
	ids = fixes_palloc_big(sizeof(uint32) * Max(es->n, 1), MCXT_ALLOC_HUGE);
	for (int64 k = 0; k < es->n; k++)
	{
		FixesEdge  *e = &es->edges[k];

		if (e->now.status == EDGE_RESOLVED && e->now.target < ld->n_old &&
			(!e->old || e->now.target != e->before.target))
			ids[n++] = e->now.target;
	}
	if (n == 0)
		return;
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = fixes_spi_int4_array(ids, n);
	/* one probe per distinct id, whatever the statistics say (as fetch_subjects) */
	sql = psprintf("SELECT c.commit_idx, c.committed_at FROM (SELECT DISTINCT idx FROM unnest($2) AS u(idx)) u "
				   "CROSS JOIN LATERAL (SELECT commit_idx, committed_at FROM ONLY %s.fixes_commits "
				   "WHERE repository_id = $1 AND commit_idx = u.idx OFFSET 0) AS c",
				   ld->schema);
	fixes_spi_execute(sql, 2, argtypes, args, NULL, 0, SPI_OK_SELECT);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		HeapTuple	tup = SPI_tuptable->vals[r];
		bool		isnull;
		uint32		idx = (uint32) DatumGetInt32(SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &isnull));
		Datum		d = SPI_getbinval(tup, SPI_tuptable->tupdesc, 2, &isnull);

		ld->by_commit.committed_null[idx] = isnull;
		ld->by_commit.committed_at[idx] = isnull ? 0 : DatumGetTimestampTz(d);
	}
	SPI_freetuptable(SPI_tuptable);
	pfree(ids);
}

/*
 * Write the edges of es (a helper of the write phase below and of the stable
 * phase, load_stable.c): new ones inserted, old ones updated where this load
 * resolved them differently.
 */
void
fixes_write_edges(FixesLoad *ld, const FixesEdgeSet *es)
{
	insert_new_edges(ld, es);
	update_old_edges(ld, es);
	CommandCounterIncrement();
}

/* the write phase of the edges: the mainline's */
void
fixes_load_fetch_target_times(FixesLoad *ld)
{
	FixesEdgeSet es = {ld->edge_list.edges, ld->edge_list.n, ld->edge_list.text.data};

	fixes_fetch_target_times(ld, &es);
}

void
fixes_load_write_edges(FixesLoad *ld)
{
	FixesEdgeSet es = {ld->edge_list.edges, ld->edge_list.n, ld->edge_list.text.data};

	fixes_write_edges(ld, &es);
}
