/*
 * kept_trailer_counts.c — a refresh: fixes_release_trailers by difference
 *
 * A refresh changes the stored counts per release and trailer key by what
 * changed: the new commits, and the old commits whose release or whose
 * "has a resolved Fixes edge" changed (their keys read back by
 * load_trailer_keys.c); rows that reach zero are deleted.  A full load's
 * are load_trailer_counts.c's.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"

#include "big_alloc.h"
#include "load_count.h"
#include "load_state.h"
#include "load_trailer_keys.h"
#include "load_releases.h"
#include "refresh.h"
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
	return ld->refresh->old_releases[tag - ld->releases->n - 1].tag;
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

/*
 * The counts of the keys k of the commits that changed (fixing_now: by
 * commit, has a resolved Fixes edge now), applied to the stored rows;
 * returns them for the caller to free
 */
HTAB *
fixes_refresh_trailer_counts(FixesLoad *ld, FixesTrailerKeys *k, const bool *fixing_now)
{
	HTAB	   *counts;
	bool		new_commits = ld->graph->n > ld->n_old;
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
	return counts;
}
