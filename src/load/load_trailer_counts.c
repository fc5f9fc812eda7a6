/*
 * load_trailer_counts.c — fixes_load(): write fixes_release_trailers, the
 * counts behind fixes_trailers_per_release (1.1)
 *
 * Per release and trailer key (lower-cased): the commits of the release
 * with at least one trailer of that key, and how many of them have a
 * resolved Fixes edge, counted by load_count.c.  Aggregating fixes_trailers
 * at query time reads every trailer and joins every commit (seconds at a
 * million commits), so each load stores the counts, keyed by the release's
 * tag.
 *
 * A full load inserts the counts of the keys it read (load_trailer_keys.c).
 * A refresh changes the stored counts by what changed: the new commits,
 * and the old commits whose release or whose "has a resolved Fixes edge"
 * changed (their keys read back here); rows that reach zero are deleted.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "bulk_insert.h"
#include "load_count.h"
#include "load_releases.h"
#include "load_state.h"
#include "load_trailer_counts.h"
#include "load_trailer_keys.h"
#include "spi_call.h"

/*
 * The tag of a tag id: 1..nreleases are this load's ranks, nreleases + w the
 * previous load's release of rank w (one that is no release any more).
 */
static const char *
tag_name(FixesLoad *ld, uint32 tag)
{
	if (tag <= (uint32) ld->releases->n)
		return ld->releases->tags[ld->releases->tag_of[tag - 1]].name;
	return ld->old_releases[tag - ld->releases->n - 1].tag;
}

/* a full load: every row, from the keys read */
static void
insert_all(FixesLoad *ld, FixesTrailerKeys *k, HTAB *counts)
{
	FixesBulk  *b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_release_trailers"));
	TupleDesc	desc = RelationGetDescr(b->rel);
	int			c_repo = fixes_attnum(desc, "repository_id");
	int			c_tag = fixes_attnum(desc, "tag");
	int			c_key = fixes_attnum(desc, "key");
	int			c_commits = fixes_attnum(desc, "commits");
	int			c_fixing = fixes_attnum(desc, "fixing_commits");
	Datum	   *values = palloc0(sizeof(Datum) * desc->natts);
	bool	   *nulls = palloc(sizeof(bool) * desc->natts);
	HASH_SEQ_STATUS seq;
	FixesTrailerCount *c;

	memset(nulls, true, sizeof(bool) * desc->natts);
	nulls[c_repo] = nulls[c_tag] = nulls[c_key] = nulls[c_commits] = nulls[c_fixing] = false;
	hash_seq_init(&seq, counts);
	while ((c = hash_seq_search(&seq)) != NULL)
	{
		values[c_repo] = Int32GetDatum(ld->repository_id);
		values[c_tag] = CStringGetTextDatum(tag_name(ld, (uint32) (c->key >> 32)));
		values[c_key] = CStringGetTextDatum(k->names[(uint32) c->key]);
		values[c_commits] = Int64GetDatum(c->commits);
		values[c_fixing] = Int64GetDatum(c->fixing);
		fixes_bulk_insert(b, values, nulls, 128 + strlen(k->names[(uint32) c->key]));
		pfree(DatumGetPointer(values[c_tag]));
		pfree(DatumGetPointer(values[c_key]));
	}
	fixes_bulk_end(b);
}

/* a refresh: add each change to its row, then drop the rows that reach zero */
static void
apply_changes(FixesLoad *ld, FixesTrailerKeys *k, HTAB *changes)
{
	Oid			types[5] = {INT4OID, TEXTOID, TEXTOID, INT8OID, INT8OID};
	SPIPlanPtr	plan = NULL;
	HASH_SEQ_STATUS seq;
	FixesTrailerCount *c;
	bool		removed = false;

	hash_seq_init(&seq, changes);
	while ((c = hash_seq_search(&seq)) != NULL)
	{
		Datum		args[5];

		if (c->commits == 0 && c->fixing == 0)
			continue;
		if (plan == NULL)
		{
			plan = fixes_spi_prepare(psprintf("INSERT INTO %s.fixes_release_trailers AS t "
											  "(repository_id, tag, key, commits, fixing_commits) "
											  "VALUES ($1, $2, $3, $4, $5) "
											  "ON CONFLICT (repository_id, tag, pg_catalog.md5(key)) DO UPDATE "
											  "SET commits = t.commits + EXCLUDED.commits, "
											  "fixing_commits = t.fixing_commits + EXCLUDED.fixing_commits",
											  ld->schema), 5, types);
		}
		CHECK_FOR_INTERRUPTS();
		args[0] = Int32GetDatum(ld->repository_id);
		args[1] = CStringGetTextDatum(tag_name(ld, (uint32) (c->key >> 32)));
		args[2] = CStringGetTextDatum(k->names[(uint32) c->key]);
		args[3] = Int64GetDatum(c->commits);
		args[4] = Int64GetDatum(c->fixing);
		fixes_spi_execute_plan(plan, args, NULL, SPI_OK_INSERT);
		removed |= c->commits < 0;
	}
	if (plan != NULL)
		SPI_freeplan(plan);
	if (removed)
	{
		Oid			argtypes[1] = {INT4OID};
		Datum		args[1] = {Int32GetDatum(ld->repository_id)};

		fixes_spi_execute(psprintf("DELETE FROM ONLY %s.fixes_release_trailers "
								   "WHERE repository_id = $1 AND commits <= 0", ld->schema),
						  1, argtypes, args, NULL, 0, SPI_OK_DELETE);
	}
}

void
fixes_load_write_trailer_counts(FixesLoad *ld)
{
	FixesTrailerKeys *k;
	bool	   *fixing_now;
	HTAB	   *counts;
	bool		new_commits = ld->graph->n > ld->n_old;

	if (!ld->has.trailer_tables)
		return;
	k = fixes_trailer_keys(ld);
	fixing_now = fixes_count_fixing_commits(ld, false);
	if (!ld->incremental)
	{
		counts = fixes_count_trailers(ld, k, NULL, NULL, fixing_now);
		insert_all(ld, k, counts);
		fixes_trailer_keys_write(ld, 0, true);
	}
	else
	{
		bool	   *fixing_before = fixes_count_fixing_commits(ld, true);
		bool	   *changed = fixes_count_trailers_changed(ld, fixing_before, fixing_now);
		int32		first = (int32) (ld->n_old / KEYS_CHUNK);
		bool		all_read = false;	/* the keys of every old commit are known */

		/* the keys of the changed old commits */
		if (!fixes_trailer_keys_read(ld, changed, new_commits))
		{
			bool	   *all = fixes_palloc_big(Max(ld->n_old, 1), MCXT_ALLOC_HUGE);

			ereport(NOTICE,
					(errmsg("the stored trailer keys of repository \"%s\" are unusable; reading them from fixes_trailers",
							ld->args.name)));
			memset(all, true, Max(ld->n_old, 1));
			fixes_trailer_keys_fetch(ld, all);
			first = 0;
			all_read = true;
			pfree(all);
		}
		counts = fixes_count_trailers(ld, k, changed, fixing_before, fixing_now);
		apply_changes(ld, k, counts);
		/*
		 * The chunks from the last old one on (fixes_trailer_keys_read() read
		 * it whole), when new commits continue it; all of them, when the keys
		 * came from fixes_trailers.  Not chunk 0 because it is the first: the
		 * keys of the old commits that did not change are not known here.
		 */
		if (new_commits || all_read)
			fixes_trailer_keys_write(ld, first, all_read || k->nnames > k->nstored);
		pfree(changed);
		pfree(fixing_before);
	}
	hash_destroy(counts);
	pfree(fixing_now);
	CommandCounterIncrement();
}
