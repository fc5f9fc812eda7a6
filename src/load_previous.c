/*
 * load_previous.c — fixes_load(): what the previous load of this name left
 *
 * The repository's row (its settings, head, counts and tag hash), its
 * releases (to tell which moved) and, for a refresh, its edges: every edge
 * is resolved again against the grown history, and only those whose
 * resolution changed are written back.  The commit graph itself is read by
 * load_graph.c.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "load.h"
#include "spi_call.h"

/*
 * What the previous load of this name recorded, and with version 1.1 its
 * settings of files and maintainers (load_files.c).  It can be built on when
 * it read the whole history: a load that missed parents (a shallow clone,
 * which may have been deepened since) cannot.
 */
void
fixes_load_read_previous(FixesLoad *ld)
{
	char	   *sql;
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};
	bool		isnull;
	HeapTuple	tup;
	TupleDesc	desc;
	Datum		d;

	ld->old_usable = false;
	if (!ld->known)
		return;
	sql = psprintf("SELECT missing_parents, edges, resolved, commits, releases, head_commit, tags_hash%s "
				   "FROM %s.fixes_repositories WHERE repository_id = $1",
				   ld->v11 ? ", files, maintainers, maintainers_hash, missing_blobs, missing_trees" : "",
				   ld->schema);
	if (fixes_spi_execute(sql, 1, argtypes, args, NULL, 1, SPI_OK_SELECT) != 1)
		elog(ERROR, "repository %d vanished", ld->repository_id);
	tup = SPI_tuptable->vals[0];
	desc = SPI_tuptable->tupdesc;
	ld->old_usable = DatumGetInt64(SPI_getbinval(tup, desc, 1, &isnull)) == 0;
	ld->old_edges = DatumGetInt64(SPI_getbinval(tup, desc, 2, &isnull));
	ld->old_resolved = DatumGetInt64(SPI_getbinval(tup, desc, 3, &isnull));
	ld->old_commits = DatumGetInt64(SPI_getbinval(tup, desc, 4, &isnull));
	ld->old_nreleases = DatumGetInt32(SPI_getbinval(tup, desc, 5, &isnull));
	d = SPI_getbinval(tup, desc, 6, &isnull);
	ld->old_head = isnull ? NULL : TextDatumGetCString(d);
	d = SPI_getbinval(tup, desc, 7, &isnull);
	ld->old_tags_hash = isnull ? 0 : DatumGetInt64(d);
	if (isnull)
		ld->old_usable = false;
	if (ld->v11)
	{
		ld->old_files = DatumGetBool(SPI_getbinval(tup, desc, 8, &isnull));
		d = SPI_getbinval(tup, desc, 9, &isnull);
		ld->old_maintainers = isnull ? NULL : MemoryContextStrdup(ld->cxt, TextDatumGetCString(d));
		d = SPI_getbinval(tup, desc, 10, &isnull);
		ld->old_maint_hash_null = isnull;
		ld->old_maint_hash = isnull ? 0 : DatumGetInt64(d);
		ld->old_missing_blobs = DatumGetInt64(SPI_getbinval(tup, desc, 11, &isnull));
		ld->old_missing_trees = DatumGetInt64(SPI_getbinval(tup, desc, 12, &isnull));
	}
	SPI_freetuptable(SPI_tuptable);
}

/* a refresh: the mainline releases of the previous load, to tell which moved */
void
fixes_load_read_old_releases(FixesLoad *ld)
{
	char	   *sql = psprintf("SELECT tag, commit_idx FROM %s.fixes_releases "
							   "WHERE repository_id = $1%s ORDER BY release_rank",
							   ld->schema, ld->has_stable ? " AND mainline" : "");
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};

	fixes_spi_execute(sql, 1, argtypes, args, NULL, 0, SPI_OK_SELECT);
	ld->n_old_releases = (int) SPI_processed;
	ld->old_releases = palloc(sizeof(FixesOldRelease) * Max(ld->n_old_releases, 1));
	for (int i = 0; i < ld->n_old_releases; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		bool		isnull;

		ld->old_releases[i].tag = TextDatumGetCString(SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &isnull));
		ld->old_releases[i].commit =
			(uint32) DatumGetInt32(SPI_getbinval(tup, SPI_tuptable->tupdesc, 2, &isnull));
	}
	SPI_freetuptable(SPI_tuptable);
}

static bool
text_is(Datum d, const char *s)
{
	text	   *t = DatumGetTextPP(d);

	return VARSIZE_ANY_EXHDR(t) == strlen(s) && memcmp(VARDATA_ANY(t), s, strlen(s)) == 0;
}

static uint8
status_code(Datum d)
{
	for (uint8 c = 0; c < lengthof(fixes_edge_status_names); c++)
		if (text_is(d, fixes_edge_status_names[c]))
			return c;
	elog(ERROR, "unknown edge status in fixes_edges");
	return EDGE_NOT_FOUND;		/* keep compiler quiet */
}

static uint8
method_code(Datum d, bool isnull)
{
	if (isnull)
		return METHOD_NONE;
	for (uint8 c = METHOD_HASH; c < lengthof(fixes_edge_method_names); c++)
		if (text_is(d, fixes_edge_method_names[c]))
			return c;
	elog(ERROR, "unknown edge method in fixes_edges");
	return METHOD_NONE;			/* keep compiler quiet */
}

/*
 * The edges of the previous load, to resolve again with the new commits.
 */
void
fixes_load_read_old_edges(FixesLoad *ld)
{
	char	   *sql = psprintf("SELECT fixing_idx, line, abbrev, quoted_subject, status, method, "
							   "target_idx, candidates, fixed_at, %s, %s FROM %s.fixes_edges WHERE repository_id = $1",
							   ld->has.edge_kind ? "kind = 'revert'" : "false",
							   ld->has.edge_introduced_at ? "introduced_at" : "NULL::timestamptz",
							   ld->schema);
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};
	Portal		portal = fixes_spi_cursor_open(sql, 1, argtypes, args);

	fixes_load_reserve_edges(ld, ld->old_edges);
	while (fixes_spi_cursor_fetch(portal, 10000) > 0)
	{
		for (uint64 r = 0; r < SPI_processed; r++)
		{
			HeapTuple	tup = SPI_tuptable->vals[r];
			TupleDesc	desc = SPI_tuptable->tupdesc;
			FixesEdge  *e;
			bool		isnull;
			text	   *t;
			Datum		d;

			e = fixes_load_add_edge(ld);
			e->old = true;
			e->fixing = (uint32) DatumGetInt32(SPI_getbinval(tup, desc, 1, &isnull));
			e->line = DatumGetInt32(SPI_getbinval(tup, desc, 2, &isnull));
			t = DatumGetTextPP(SPI_getbinval(tup, desc, 3, &isnull));
			e->abbrev_len = (uint8) Min(VARSIZE_ANY_EXHDR(t), 40);
			e->abbrev_off = fixes_arena_add(&ld->edge_text, VARDATA_ANY(t), e->abbrev_len);
			d = SPI_getbinval(tup, desc, 4, &isnull);
			if (!isnull)
			{
				t = DatumGetTextPP(d);
				e->subj_len = VARSIZE_ANY_EXHDR(t);
				e->subj_off = fixes_arena_add(&ld->edge_text, VARDATA_ANY(t), e->subj_len);
			}
			e->before.status = status_code(SPI_getbinval(tup, desc, 5, &isnull));
			d = SPI_getbinval(tup, desc, 6, &isnull);
			e->before.method = method_code(d, isnull);
			d = SPI_getbinval(tup, desc, 7, &isnull);
			e->before.target = isnull ? FIXES_NO_IDX : (uint32) DatumGetInt32(d);
			e->before.candidates = DatumGetInt32(SPI_getbinval(tup, desc, 8, &isnull));
			e->now = e->before;	/* until resolved again */
			d = SPI_getbinval(tup, desc, 9, &e->fixed_at_null);
			e->fixed_at = e->fixed_at_null ? 0 : DatumGetTimestampTz(d);
			e->kind = DatumGetBool(SPI_getbinval(tup, desc, 10, &isnull)) ? KIND_REVERT : KIND_FIXES;
			d = SPI_getbinval(tup, desc, 11, &e->introduced_null);
			e->introduced_at = e->introduced_null ? 0 : DatumGetTimestampTz(d);
		}
		SPI_freetuptable(SPI_tuptable);
		CHECK_FOR_INTERRUPTS();
	}
	fixes_spi_cursor_close(portal);
}
