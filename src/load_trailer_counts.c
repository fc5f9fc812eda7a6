/*
 * load_trailer_counts.c — fixes_load(): the counts behind fixes_trailers_per_release (1.1)
 *
 * Per release and trailer key (lower-cased): the commits of the release
 * with at least one trailer of that key, and how many of them have a
 * resolved Fixes edge.  Aggregating fixes_trailers at query time reads
 * every trailer and joins every commit (seconds at a million commits), so
 * each load stores the counts in fixes_release_trailers, keyed by the
 * release's tag.
 *
 * A full load counts from the keys it read (load_trailer_keys.c).  A
 * refresh changes the stored counts by what changed: it adds the new
 * commits, and for each old commit whose release or whose "has a resolved
 * Fixes edge" changed, it takes its old contribution away and adds the new
 * one; rows that reach zero are deleted.
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
#include "load_state.h"
#include "load_trailer_keys.h"
#include "spi_call.h"

/* a count being built: per (release, key) */
typedef struct CountEntry
{
	uint64		key;			/* tag id << 32 | key id */
	int64		commits;
	int64		fixing;
} CountEntry;

static HTAB *
new_counts(void)
{
	HASHCTL		ctl;

	ctl.keysize = sizeof(uint64);
	ctl.entrysize = sizeof(CountEntry);
	ctl.hcxt = CurrentMemoryContext;
	return hash_create("fixes trailer counts", 1024, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/* add (commits, fixing) to the count of every key of a commit in tag id tag */
static void
count_keys(HTAB *counts, uint32 tag, const uint32 *ids, uint32 n, int64 commits, int64 fixing)
{
	for (uint32 i = 0; i < n; i++)
	{
		uint64		key = (uint64) tag << 32 | ids[i];
		bool		found;
		CountEntry *c = hash_search(counts, &key, HASH_ENTER, &found);

		if (!found)
			c->commits = c->fixing = 0;
		c->commits += commits;
		c->fixing += fixing;
	}
}

/* by commit index: has a resolved Fixes edge, now (before = false) or before this load */
static bool *
fixing_commits(FixesLoad *ld, bool before)
{
	bool	   *fixing = fixes_palloc_big(Max(ld->graph->n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	for (int64 k = 0; k < ld->nedges; k++)
	{
		FixesEdge  *e = &ld->edges[k];
		FixesResolution *r = before ? &e->before : &e->now;

		if (e->kind == KIND_FIXES && (!before || e->old) && r->status == EDGE_RESOLVED)
			fixing[e->fixing] = true;
	}
	return fixing;
}

/*
 * The tag of a tag id: 1..nreleases are this load's ranks, nreleases + w the
 * previous load's release of rank w (one that is no release any more).
 */
static const char *
tag_name(FixesLoad *ld, uint32 tag)
{
	if (tag <= (uint32) ld->nreleases)
		return ld->tags[ld->release_tag[tag - 1]].name;
	return ld->old_releases[tag - ld->nreleases - 1].tag;
}

/* the tag id of an old commit's release in the previous load; 0: unreleased */
static uint32
old_tag(FixesLoad *ld, uint32 idx)
{
	int32		was = ld->old_mark[idx];

	if (was == 0)
		return 0;
	if (ld->old_to_new_rank[was] != 0)
		return (uint32) ld->old_to_new_rank[was];
	return (uint32) (ld->nreleases + was);
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
	CountEntry *c;

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
	CountEntry *c;
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

		fixes_spi_execute(psprintf("DELETE FROM %s.fixes_release_trailers "
								   "WHERE repository_id = $1 AND commits <= 0", ld->schema),
						  1, argtypes, args, NULL, 0, SPI_OK_DELETE);
	}
}

void
fixes_load_write_trailer_counts(FixesLoad *ld)
{
	FixesTrailerKeys *k;
	bool	   *fixing_now;
	HTAB	   *counts = new_counts();
	int32	   *mark = ld->mark;
	bool		new_commits = ld->graph->n > ld->n_old;

	if (!fixes_has_v11(ld))
		return;
	k = fixes_trailer_keys(ld);
	fixing_now = fixing_commits(ld, false);
	/* the commits this load read: added */
	for (uint32 i = ld->n_old; i < ld->graph->n; i++)
	{
		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		if (mark[i] > 0 && i < k->cap && k->cnt[i] > 0)
			count_keys(counts, (uint32) mark[i], k->ids + k->off[i], k->cnt[i], 1, fixing_now[i]);
	}
	if (!ld->incremental)
	{
		insert_all(ld, k, counts);
		fixes_trailer_keys_write(ld, 0, true);
	}
	else
	{
		bool	   *fixing_before = fixing_commits(ld, true);
		bool	   *changed = fixes_palloc_big(Max(ld->n_old, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		int32		first = (int32) (ld->n_old / KEYS_CHUNK);

		/* old commits whose release or whose fixing changed */
		for (int64 m = 0; m < ld->nmoved; m++)
			changed[ld->moved[m]] = true;
		for (uint32 i = 0; i < ld->n_old; i++)
			if (fixing_before[i] != fixing_now[i])
				changed[i] = true;
		if (!fixes_trailer_keys_read(ld, changed, new_commits))
		{
			bool	   *all = fixes_palloc_big(Max(ld->n_old, 1), MCXT_ALLOC_HUGE);

			ereport(NOTICE,
					(errmsg("the stored trailer keys of repository \"%s\" are unusable; reading them from fixes_trailers",
							ld->name)));
			memset(all, true, Max(ld->n_old, 1));
			fixes_trailer_keys_fetch(ld, all);
			first = 0;
			pfree(all);
		}
		for (uint32 i = 0; i < ld->n_old; i++)
		{
			uint32		was;

			if (!changed[i] || i >= k->cap || k->cnt[i] == 0)
				continue;
			was = old_tag(ld, i);
			if (was != 0)
				count_keys(counts, was, k->ids + k->off[i], k->cnt[i], -1, -(int64) fixing_before[i]);
			if (mark[i] > 0)
				count_keys(counts, (uint32) mark[i], k->ids + k->off[i], k->cnt[i], 1, fixing_now[i]);
		}
		apply_changes(ld, k, counts);
		if (new_commits || first == 0)
			fixes_trailer_keys_write(ld, first, first == 0 || k->nnames > k->nstored);
		pfree(changed);
		pfree(fixing_before);
	}
	hash_destroy(counts);
	pfree(fixing_now);
	CommandCounterIncrement();
}
