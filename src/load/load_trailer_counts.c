/*
 * load_trailer_counts.c — fixes_load(): write fixes_release_trailers, the
 * counts behind fixes_trailers_per_release
 *
 * Per release and trailer key (lower-cased): the commits of the release
 * with at least one trailer of that key, and how many of them have a
 * resolved Fixes edge, counted by load_count.c.  Aggregating fixes_trailers
 * at query time reads every trailer and joins every commit (seconds at a
 * million commits), so each load stores the counts, keyed by the release's
 * tag.
 *
 * A full load inserts the counts of the keys it read (load_trailer_keys.c).
 * A refresh changes the stored counts by what changed
 * (refresh/kept_trailer_counts.c).
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
#include "refresh.h"
#include "spi_call.h"

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
		values[c_tag] = CStringGetTextDatum(ld->releases->tags[ld->releases->tag_of[(uint32) (c->key >> 32) - 1]].name);
		values[c_key] = CStringGetTextDatum(k->names[(uint32) c->key]);
		values[c_commits] = Int64GetDatum(c->commits);
		values[c_fixing] = Int64GetDatum(c->fixing);
		fixes_bulk_insert(b, values, nulls, 128 + strlen(k->names[(uint32) c->key]));
		pfree(DatumGetPointer(values[c_tag]));
		pfree(DatumGetPointer(values[c_key]));
	}
	fixes_bulk_end(b);
}

void
fixes_load_write_trailer_counts(FixesLoad *ld)
{
	FixesTrailerKeys *k;
	bool	   *fixing_now;
	HTAB	   *counts;

	if (!ld->has.trailer_tables)
		return;
	k = fixes_trailer_keys(ld);
	fixing_now = fixes_count_fixing_commits(ld, false);
	if (ld->refresh != NULL)
		counts = fixes_refresh_trailer_counts(ld, k, fixing_now);
	else
	{
		counts = fixes_count_trailers(ld, k, NULL, NULL, fixing_now);
		insert_all(ld, k, counts);
		fixes_trailer_keys_write(ld, 0, true);
	}
	hash_destroy(counts);
	pfree(fixing_now);
	CommandCounterIncrement();
}
