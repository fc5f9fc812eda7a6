/*
 * load_write_releases.c — fixes_load(): write the counts and the summary
 *
 * fixes_releases is replaced whole by every load (a few hundred rows, with
 * the per-release counts of load_count.c), its mainline releases first and
 * its stable ones after the stable scope; fixes_fixed_commits gets the
 * per-commit counts behind fixes_buggiest_commits; the repository's row of
 * fixes_repositories records what the next refresh builds on.
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "bulk_insert.h"
#include "commit_fields.h"
#include "load_count.h"
#include "load_state.h"
#include "load_releases.h"
#include "load_write_releases.h"
#include "refresh.h"
#include "spi_call.h"

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
				c_series = -1;
	int		   *c_stat = palloc(sizeof(int) * fixes_release_nstat_columns);
	Datum	   *values;
	bool	   *nulls;

	fixes_spi_delete_rows(ld->schema, "fixes_releases", ld->repository_id);
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
	/* the counts of load_count.c that the installed SQL version has: -1 where not */
	for (int c = 0; c < fixes_release_nstat_columns; c++)
	{
		const FixesStatColumn *col = &fixes_release_stat_columns[c];

		c_stat[c] = -1;
		if (ld->has.version >= col->version)
			c_stat[c] = col->days ? fixes_attnum_if_exists(desc, col->name)
				: fixes_attnum(desc, col->name);
	}
	if (ld->has.stable_scope)
	{
		c_mainline = fixes_attnum(desc, "mainline");
		c_series = fixes_attnum(desc, "series");
	}
	values = palloc0(sizeof(Datum) * desc->natts);
	nulls = palloc(sizeof(bool) * desc->natts);

	for (int r = 0; r < ld->releases->n; r++)
	{
		FixesTag   *tag = &ld->releases->tags[ld->releases->tag_of[r]];
		TimestampTz at;

		memset(nulls, true, sizeof(bool) * desc->natts);
		values[c_repo] = Int32GetDatum(ld->repository_id);
		values[c_rank] = Int32GetDatum(r + 1);
		values[c_tag] = CStringGetTextDatum(tag->name);
		values[c_idx] = Int32GetDatum((int32) ld->releases->commit[r]);
		values[c_id] = PointerGetDatum(fixes_oid_text(&tag->commit));
		values[c_annotated] = BoolGetDatum(tag->annotated);
		values[c_commits] = Int64GetDatum(ld->releases->size[r]);
		for (int c = 0; c < fixes_release_nstat_columns; c++)
		{
			const FixesStatColumn *col = &fixes_release_stat_columns[c];
			const char *field = (const char *) &ld->counts->stats[r + 1] + col->offset;

			if (c_stat[c] < 0)
				continue;
			if (!col->days)
			{
				values[c_stat[c]] = Int64GetDatum(*(const int64 *) field);
				nulls[c_stat[c]] = false;
			}
			else if (!isnan(*(const double *) field))
			{
				/* lifetimes: NULL where there is none */
				values[c_stat[c]] = Float8GetDatum(*(const double *) field);
				nulls[c_stat[c]] = false;
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

/*
 * The rows of the stable releases in fixes_releases (the mainline's are
 * written), with what load_count.c counted for them (load_stable.c has
 * their releases and series)
 */
void
fixes_load_write_stable_releases(FixesLoad *ld, const FixesStableCounts *st)
{
	FixesBulk  *b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_releases"));
	TupleDesc	desc = RelationGetDescr(b->rel);
	int			c_repo = fixes_attnum(desc, "repository_id");
	int			c_rank = fixes_attnum(desc, "release_rank");
	int			c_tag = fixes_attnum(desc, "tag");
	int			c_idx = fixes_attnum(desc, "commit_idx");
	int			c_id = fixes_attnum(desc, "commit_id");
	int			c_annotated = fixes_attnum(desc, "annotated");
	int			c_at = fixes_attnum(desc, "released_at");
	int			c_commits = fixes_attnum(desc, "commits");
	int			c_mainline = fixes_attnum(desc, "mainline");
	int			c_series = fixes_attnum(desc, "series");
	int			c_backports = fixes_attnum(desc, "backports");
	int			c_fixed = fixes_attnum(desc, "bugs_fixed");
	int			c_regressions = fixes_attnum(desc, "regressions_introduced");
	int			c_known = fixes_attnum(desc, "known_bugs");
	int			c_v11[4] = {fixes_attnum_if_exists(desc, "tagged_commits"),
		fixes_attnum_if_exists(desc, "fixing_earlier_commits"),
		fixes_attnum_if_exists(desc, "reverts"),
	fixes_attnum_if_exists(desc, "reverted_introduced")};
	Datum	   *values = palloc0(sizeof(Datum) * desc->natts);
	bool	   *nulls = palloc(sizeof(bool) * desc->natts);

	for (int k = 0; k < st->n; k++)
	{
		int			r = st->nmain + k;
		FixesTag   *tag = &ld->releases->tags[ld->releases->tag_of[r]];
		TimestampTz at;

		memset(nulls, true, sizeof(bool) * desc->natts);
#define SET(col, datum) (values[col] = (datum), nulls[col] = false)
		SET(c_repo, Int32GetDatum(ld->repository_id));
		SET(c_rank, Int32GetDatum(r + 1));
		SET(c_tag, ld->releases->name[r + 1]);
		SET(c_idx, Int32GetDatum((int32) ld->releases->commit[r]));
		SET(c_id, PointerGetDatum(fixes_oid_text(&tag->commit)));
		SET(c_annotated, BoolGetDatum(tag->annotated));
		SET(c_commits, Int64GetDatum(ld->releases->size[r]));
		SET(c_mainline, BoolGetDatum(false));
		if (st->series[k] > 0)
			SET(c_series, ld->releases->name[st->series[k]]);
		SET(c_backports, Int64GetDatum(st->backports[k]));
		SET(c_fixed, Int64GetDatum(st->bugs_fixed[k]));
		SET(c_regressions, Int64GetDatum(st->regressions[k]));
		SET(c_known, Int64GetDatum(st->known_bugs[k]));
		if (fixes_time_to_timestamptz(tag->time, &at))
			SET(c_at, TimestampTzGetDatum(at));
		/*
		 * The counters of fixes_per_release are the mainline's: NULL here,
		 * but NOT NULL columns in a database still at 1.1 SQL, which gets 0
		 * (the update to 1.2 makes them NULL).
		 */
		for (int c = 0; c < lengthof(c_v11); c++)
			if (c_v11[c] >= 0 && TupleDescAttr(desc, c_v11[c])->attnotnull)
				SET(c_v11[c], Int64GetDatum(0));
#undef SET
		fixes_bulk_insert(b, values, nulls, 256);
	}
	fixes_bulk_end(b);
}

static void
fixed_commit_values(FixesLoad *ld, const FixesFixedCommit *c, Datum *values, char *nulls)
{
	values[0] = Int32GetDatum(ld->repository_id);
	values[1] = Int32GetDatum((int32) c->commit);
	values[2] = PointerGetDatum(fixes_oid_text(fixes_load_oid(ld, c->commit)));
	values[3] = Int64GetDatum(c->fixes);
	values[4] = TimestampTzGetDatum(c->first);
	values[5] = TimestampTzGetDatum(c->last);
	memset(nulls, ' ', 6);
	nulls[4] = nulls[5] = c->dated ? ' ' : 'n';
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

	fixes_bulk_sort_index(b, "fixes_fixed_commits_rank_idx");	/* by fixes: random order */
	for (int c = 0; c < 6; c++)
		col[c] = fixes_attnum(desc, names[c]);
	for (int64 f = 0; f < ld->counts->nfixed; f++)
	{
		Datum		v[6];
		char		nl[6];
		MemoryContext old;

		old = MemoryContextSwitchTo(rowcxt);
		fixed_commit_values(ld, &ld->counts->fixed[f], v, nl);
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
	bool	   *affected = fixes_palloc_big(Max(n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	const char *nsp = ld->schema;
	Oid			types[6] = {INT4OID, INT4OID, TEXTOID, INT8OID, TIMESTAMPTZOID, TIMESTAMPTZOID};
	SPIPlanPtr	upsert = NULL;
	SPIPlanPtr	delete = NULL;

	for (int64 k = 0; k < ld->edge_list.n; k++)
	{
		FixesEdge  *e = &ld->edge_list.edges[k];

		if (e->kind != KIND_FIXES || (e->old && fixes_resolution_equal(&e->now, &e->before)))
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
		const FixesFixedCommit *c;

		if (!affected[t])
			continue;
		CHECK_FOR_INTERRUPTS();
		c = fixes_load_fixed_commit(ld, t);
		if (c != NULL)
		{
			fixed_commit_values(ld, c, values, nulls);
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
			values[0] = Int32GetDatum(ld->repository_id);
			values[1] = Int32GetDatum((int32) t);
			memset(nulls, ' ', 2);
			if (delete == NULL)
				delete = fixes_spi_prepare(psprintf("DELETE FROM ONLY %s.fixes_fixed_commits "
											  "WHERE repository_id = $1 AND commit_idx = $2", nsp), 2, types);
			fixes_spi_execute_plan(delete, values, nulls, SPI_OK_DELETE);
		}
	}
	pfree(affected);
}

void
fixes_load_write_fixed_commits(FixesLoad *ld)
{
	if (ld->refresh != NULL)
		update_affected(ld);
	else
		insert_all(ld);
	CommandCounterIncrement();
}
