/*
 * load_stats.c — fixes_load(): the counts behind fixes_per_release and
 * fixes_buggiest_commits
 *
 * Computed once per load from every edge in memory (old and new) and
 * stored, so that the views read a few rows instead of aggregating every
 * edge: per release, in fixes_releases (written by load_write.c); per
 * commit that resolved edges point at, in fixes_fixed_commits.  The
 * definitions (README, "Semantics") count resolved edges only, and an
 * unreleased fixing commit counts as later than every release.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "bulk_insert.h"
#include "commit_fields.h"
#include "load.h"
#include "spi_call.h"

static int
uint64_cmp(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a;
	uint64		y = *(const uint64 *) b;

	return x < y ? -1 : x > y;
}

void
fixes_load_stats(FixesLoad *ld)
{
	uint32		n = ld->graph->n;
	int32	   *mark = ld->mark;
	bool	   *fixing = palloc_extended(Max(n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	bool	   *introduced = palloc_extended(Max(n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	uint64	   *fixed_pairs = palloc_extended(sizeof(uint64) * Max(ld->nedges, 1), MCXT_ALLOC_HUGE);
	int64		npairs = 0;

	ld->stats = palloc0(sizeof(FixesReleaseStats) * (ld->nreleases + 1));
	ld->fixes = palloc_extended(sizeof(int32) * Max(n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	ld->first_fixed = palloc_extended(sizeof(TimestampTz) * Max(n, 1), MCXT_ALLOC_HUGE);
	ld->last_fixed = palloc_extended(sizeof(TimestampTz) * Max(n, 1), MCXT_ALLOC_HUGE);
	ld->fixed_dates = palloc_extended(Max(n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	for (int64 k = 0; k < ld->nedges; k++)
	{
		FixesEdge  *e = &ld->edges[k];
		uint32		f = e->fixing;
		uint32		t = e->now.target;
		int32		fr,
					tr;

		if (e->now.status != EDGE_RESOLVED)
			continue;
		fr = mark[f];
		tr = mark[t];
		fixing[f] = true;
		ld->fixes[t]++;
		if (!e->fixed_at_null)
		{
			if (!ld->fixed_dates[t] || e->fixed_at < ld->first_fixed[t])
				ld->first_fixed[t] = e->fixed_at;
			if (!ld->fixed_dates[t] || e->fixed_at > ld->last_fixed[t])
				ld->last_fixed[t] = e->fixed_at;
			ld->fixed_dates[t] = true;
		}
		if (fr > 0 && tr > 0 && tr < fr)
		{
			ld->stats[fr].bugs_fixed++;
			fixed_pairs[npairs++] = ((uint64) fr << 32) | t;
		}
		if (tr > 0 && (fr == 0 || fr > tr))
		{
			ld->stats[tr].bugs_introduced++;
			introduced[t] = true;
		}
		if (fr > 0 && fr == tr)
			ld->stats[fr].fixed_same_release++;
	}
	for (uint32 i = 0; i < n; i++)
	{
		if (fixing[i] && mark[i] > 0)
			ld->stats[mark[i]].fixing_commits++;
		if (introduced[i])
			ld->stats[mark[i]].buggy_commits_introduced++;
	}
	/* commits_fixed: distinct (release, target) among the bugs fixed */
	qsort(fixed_pairs, npairs, sizeof(uint64), uint64_cmp);
	for (int64 p = 0; p < npairs; p++)
		if (p == 0 || fixed_pairs[p] != fixed_pairs[p - 1])
			ld->stats[fixed_pairs[p] >> 32].commits_fixed++;

	pfree(fixed_pairs);
	pfree(introduced);
	pfree(fixing);
}

static void
fixed_commit_values(FixesLoad *ld, uint32 t, Datum *values, char *nulls)
{
	values[0] = Int32GetDatum(ld->repository_id);
	values[1] = Int32GetDatum((int32) t);
	values[2] = PointerGetDatum(fixes_oid_text(&ld->graph->oids[t]));
	values[3] = Int64GetDatum(ld->fixes[t]);
	values[4] = TimestampTzGetDatum(ld->first_fixed[t]);
	values[5] = TimestampTzGetDatum(ld->last_fixed[t]);
	memset(nulls, ' ', 6);
	nulls[4] = nulls[5] = ld->fixed_dates[t] ? ' ' : 'n';
}

/* a full load: every row */
static void
insert_all(FixesLoad *ld)
{
	FixesBulk  *b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_fixed_commits"));
	TupleDesc	desc = RelationGetDescr(b->rel);
	int			col[6];
	static const char *const names[6] = {"repository_id", "commit_idx", "commit_id", "fixes",
	"first_fixed_at", "last_fixed_at"};
	Datum	   *values = palloc0(sizeof(Datum) * desc->natts);
	bool	   *isnull = palloc(sizeof(bool) * desc->natts);
	MemoryContext rowcxt = AllocSetContextCreate(CurrentMemoryContext, "fixes fixed commit row",
												 ALLOCSET_SMALL_SIZES);

	for (int c = 0; c < 6; c++)
		col[c] = fixes_attnum(desc, names[c]);
	for (uint32 t = 0; t < ld->graph->n; t++)
	{
		Datum		v[6];
		char		nl[6];
		MemoryContext old;

		if (ld->fixes[t] == 0)
			continue;
		old = MemoryContextSwitchTo(rowcxt);
		fixed_commit_values(ld, t, v, nl);
		memset(isnull, true, sizeof(bool) * desc->natts);
		for (int c = 0; c < 6; c++)
		{
			values[col[c]] = v[c];
			isnull[col[c]] = nl[c] == 'n';
		}
		fixes_bulk_insert(b, values, isnull, 128);
		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
	}
	MemoryContextDelete(rowcxt);
	fixes_bulk_end(b);
}

/* a refresh: the rows of the commits whose edges changed, by primary key */
static void
update_affected(FixesLoad *ld)
{
	uint32		n = ld->graph->n;
	bool	   *affected = palloc_extended(Max(n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	const char *nsp = ld->schema;
	Oid			types[6] = {INT4OID, INT4OID, TEXTOID, INT8OID, TIMESTAMPTZOID, TIMESTAMPTZOID};
	SPIPlanPtr	upsert = NULL;
	SPIPlanPtr	delete = NULL;

	for (int64 k = 0; k < ld->nedges; k++)
	{
		FixesEdge  *e = &ld->edges[k];

		if (e->old && fixes_resolution_equal(&e->now, &e->before))
			continue;
		if (e->now.status == EDGE_RESOLVED)
			affected[e->now.target] = true;
		if (e->old && e->before.status == EDGE_RESOLVED && e->before.target < n)
			affected[e->before.target] = true;
	}
	for (uint32 t = 0; t < n; t++)
	{
		Datum		values[6];
		char		nulls[6];

		if (!affected[t])
			continue;
		CHECK_FOR_INTERRUPTS();
		fixed_commit_values(ld, t, values, nulls);
		if (ld->fixes[t] > 0)
		{
			if (upsert == NULL)
				upsert = fixes_spi_prepare(psprintf("INSERT INTO %s.fixes_fixed_commits AS f "
											  "(repository_id, commit_idx, commit_id, fixes, first_fixed_at, last_fixed_at) "
											  "VALUES ($1, $2, $3, $4, $5, $6) "
											  "ON CONFLICT (repository_id, commit_idx) DO UPDATE "
											  "SET fixes = EXCLUDED.fixes, first_fixed_at = EXCLUDED.first_fixed_at, "
											  "last_fixed_at = EXCLUDED.last_fixed_at", nsp), 6, types);
			fixes_spi_execute_plan(upsert, values, nulls, SPI_OK_INSERT);
		}
		else
		{
			if (delete == NULL)
				delete = fixes_spi_prepare(psprintf("DELETE FROM %s.fixes_fixed_commits "
											  "WHERE repository_id = $1 AND commit_idx = $2", nsp), 2, types);
			fixes_spi_execute_plan(delete, values, nulls, SPI_OK_DELETE);
		}
	}
	pfree(affected);
}

void
fixes_load_write_fixed_commits(FixesLoad *ld)
{
	if (ld->incremental)
		update_affected(ld);
	else
		insert_all(ld);
	CommandCounterIncrement();
}
