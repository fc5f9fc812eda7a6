/*
 * load_write.c — fixes_load(), phase 4: replace the repository's rows
 *
 * The previous rows of the repository are deleted and the new ones written
 * with batched multi-inserts (bulk_insert.c), all in the caller's
 * transaction: readers see the old load until it commits, and an error
 * leaves the old load as it was.
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "bulk_insert.h"
#include "commit_fields.h"
#include "load.h"

static const char *const edge_status_names[] = {"resolved", "ambiguous", "not_found"};
static const char *const edge_method_names[] = {NULL, "hash", "hash+subject", "subject"};

static void
delete_rows(FixesLoad *ld, const char *table)
{
	char	   *sql = psprintf("DELETE FROM %s.%s WHERE repository_id = $1",
							   quote_identifier(get_namespace_name(ld->nsp)), table);
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};

	if (SPI_execute_with_args(sql, 1, argtypes, args, NULL, false, 0) != SPI_OK_DELETE)
		elog(ERROR, "could not delete the rows of %s", table);
}

static void
write_releases(FixesLoad *ld)
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
	Datum	   *values = palloc0(sizeof(Datum) * desc->natts);
	bool	   *nulls = palloc(sizeof(bool) * desc->natts);

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
		nulls[c_repo] = nulls[c_rank] = nulls[c_tag] = nulls[c_idx] = false;
		nulls[c_id] = nulls[c_annotated] = nulls[c_commits] = false;
		if (fixes_time_to_timestamptz(tag->time, &at))
		{
			values[c_at] = TimestampTzGetDatum(at);
			nulls[c_at] = false;
		}
		fixes_bulk_insert(b, values, nulls, 128);
	}
	fixes_bulk_end(b);
}

/* the release tag of each rank as a text datum; index 0 is unused */
static Datum *
release_names(FixesLoad *ld)
{
	Datum	   *names = palloc0(sizeof(Datum) * (ld->nreleases + 1));

	for (int r = 0; r < ld->nreleases; r++)
		names[r + 1] = CStringGetTextDatum(ld->tags[ld->release_tag[r]].name);
	return names;
}

static void
write_commits(FixesLoad *ld, Datum *names)
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
	while (tuplestore_gettupleslot(ld->commit_rows, true, false, slot))
	{
		int32		rank;

		if ((++n & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
		slot_getallattrs(slot);
		memcpy(values, slot->tts_values, sizeof(Datum) * natts);
		memcpy(nulls, slot->tts_isnull, sizeof(bool) * natts);
		rank = ld->mark[DatumGetInt32(values[c_idx])];
		values[ld->release_att] = names[rank];
		nulls[ld->release_att] = rank == 0;
		fixes_bulk_insert(b, values, nulls, 256 + VARSIZE_ANY(DatumGetPointer(values[c_message])));
	}
	ExecDropSingleTupleTableSlot(slot);
	tuplestore_end(ld->commit_rows);
	ld->commit_rows = NULL;
	fixes_bulk_end(b);
}

static void
write_edges(FixesLoad *ld, Datum *names)
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
	Datum	   *values = palloc0(sizeof(Datum) * desc->natts);
	bool	   *nulls = palloc(sizeof(bool) * desc->natts);
	Datum		status_text[3];
	Datum		method_text[4];
	MemoryContext rowcxt = AllocSetContextCreate(CurrentMemoryContext, "fixes edge row",
												 ALLOCSET_DEFAULT_SIZES);

	for (int i = 0; i < 3; i++)
		status_text[i] = CStringGetTextDatum(edge_status_names[i]);
	for (int i = 1; i < 4; i++)
		method_text[i] = CStringGetTextDatum(edge_method_names[i]);

	for (int64 k = 0; k < ld->nedges; k++)
	{
		FixesEdge  *e = &ld->edges[k];
		const char *text_base = ld->edge_text.data;
		bool		resolved = e->status == EDGE_RESOLVED;
		MemoryContext old;

		if ((k & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(rowcxt);
		memset(nulls, true, sizeof(bool) * desc->natts);
#define SET(col, datum) (values[col] = (datum), nulls[col] = false)
		SET(c_repo, Int32GetDatum(ld->repository_id));
		SET(c_fixing, Int32GetDatum((int32) e->fixing));
		SET(c_line, Int32GetDatum(e->line));
		SET(c_status, status_text[e->status]);
		SET(c_candidates, Int32GetDatum(e->candidates));
		SET(c_fixing_commit, PointerGetDatum(fixes_oid_text(&ld->graph->oids[e->fixing])));
		SET(c_abbrev, PointerGetDatum(cstring_to_text_with_len(text_base + e->abbrev_off,
															   e->abbrev_len)));
		SET(c_raw, PointerGetDatum(cstring_to_text_with_len(text_base + e->raw_off, e->raw_len)));
		if (e->subj_len >= 0)
			SET(c_subject, PointerGetDatum(cstring_to_text_with_len(text_base + e->subj_off,
																	e->subj_len)));
		if (!ld->committed_null[e->fixing])
			SET(c_fixed_at, TimestampTzGetDatum(ld->committed_at[e->fixing]));
		if (ld->mark[e->fixing] > 0)
			SET(c_fixing_release, names[ld->mark[e->fixing]]);
		if (resolved)
		{
			SET(c_target, Int32GetDatum((int32) e->target));
			SET(c_method, method_text[e->method]);
			SET(c_target_commit, PointerGetDatum(fixes_oid_text(&ld->graph->oids[e->target])));
			if (ld->mark[e->target] > 0)
				SET(c_target_release, names[ld->mark[e->target]]);
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
 * Record the load in the repository's row of fixes_repositories.
 */
void
fixes_load_finish(FixesLoad *ld, double seconds)
{
	char	   *sql = psprintf("UPDATE %s.fixes_repositories SET path = $2, ref = $3, "
							   "release_pattern = $4, head_commit = $5, loaded_at = now(), "
							   "load_seconds = $6, commits = $7, releases = $8, edges = $9, "
							   "resolved = $10 WHERE repository_id = $1",
							   quote_identifier(get_namespace_name(ld->nsp)));
	Oid			argtypes[10] = {INT4OID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, FLOAT8OID,
	INT8OID, INT4OID, INT8OID, INT8OID};
	Datum		args[10];
	char		nulls[10];

	memset(nulls, ' ', sizeof(nulls));
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = CStringGetTextDatum(ld->path);
	args[2] = CStringGetTextDatum(ld->ref);
	args[3] = ld->pattern ? CStringGetTextDatum(ld->pattern) : (Datum) 0;
	nulls[3] = ld->pattern ? ' ' : 'n';
	args[4] = ld->empty ? (Datum) 0 : PointerGetDatum(fixes_oid_text(&ld->head));
	nulls[4] = ld->empty ? 'n' : ' ';
	args[5] = Float8GetDatum(seconds);
	args[6] = Int64GetDatum((int64) ld->graph->n);
	args[7] = Int32GetDatum(ld->nreleases);
	args[8] = Int64GetDatum(ld->nedges);
	args[9] = Int64GetDatum(ld->resolved);
	if (SPI_execute_with_args(sql, 10, argtypes, args, nulls, false, 0) != SPI_OK_UPDATE)
		elog(ERROR, "could not update repository %d", ld->repository_id);
}

void
fixes_load_write(FixesLoad *ld)
{
	Datum	   *names = release_names(ld);

	delete_rows(ld, "fixes_edges");
	delete_rows(ld, "fixes_commits");
	delete_rows(ld, "fixes_releases");
	CommandCounterIncrement();
	write_releases(ld);
	write_commits(ld, names);
	write_edges(ld, names);
	CommandCounterIncrement();
}
