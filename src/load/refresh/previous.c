/*
 * previous.c — fixes_load(): what the previous load of this name left
 *
 * The repository's row (its settings, head, counts and tag hash), its
 * releases (to tell which moved) and, for a refresh, its edges: every edge
 * is resolved again against the grown history, and only those whose
 * resolution changed are written back.  The commit graph itself is read by
 * graph_read.c.
 */
#include "postgres.h"

#include <math.h>

#include "access/genam.h"
#include "access/skey.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "hex.h"
#include "input_limits.h"
#include "load_count.h"
#include "load_state.h"
#include "refresh.h"
#include "spi_call.h"
#include "table_columns.h"

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

	ld->prev.usable = false;
	if (!ld->known)
		return;
	sql = psprintf("SELECT missing_parents, edges, resolved, commits, releases, head_commit, tags_hash%s "
				   "FROM ONLY %s.fixes_repositories WHERE repository_id = $1",
				   ld->has.file_tables ? ", files, maintainers, maintainers_hash, missing_blobs, missing_trees" : "",
				   ld->schema);
	if (fixes_spi_execute(sql, 1, argtypes, args, NULL, 1, SPI_OK_SELECT) != 1)
		elog(ERROR, "repository %d vanished", ld->repository_id);
	tup = SPI_tuptable->vals[0];
	desc = SPI_tuptable->tupdesc;
	ld->prev.usable = DatumGetInt64(SPI_getbinval(tup, desc, 1, &isnull)) == 0;
	ld->prev.edges = DatumGetInt64(SPI_getbinval(tup, desc, 2, &isnull));
	ld->prev.resolved = DatumGetInt64(SPI_getbinval(tup, desc, 3, &isnull));
	ld->prev.commits = DatumGetInt64(SPI_getbinval(tup, desc, 4, &isnull));
	ld->prev.nreleases = DatumGetInt32(SPI_getbinval(tup, desc, 5, &isnull));
	d = SPI_getbinval(tup, desc, 6, &isnull);
	ld->prev.head = isnull ? NULL : TextDatumGetCString(d);
	d = SPI_getbinval(tup, desc, 7, &isnull);
	ld->prev.tags_hash = isnull ? 0 : DatumGetInt64(d);
	if (isnull)
		ld->prev.usable = false;
	if (ld->has.file_tables)
	{
		ld->prev.files = DatumGetBool(SPI_getbinval(tup, desc, 8, &isnull));
		d = SPI_getbinval(tup, desc, 9, &isnull);
		ld->prev.maintainers = isnull ? NULL : MemoryContextStrdup(ld->cxt, TextDatumGetCString(d));
		d = SPI_getbinval(tup, desc, 10, &isnull);
		ld->prev.maint_hash_null = isnull;
		ld->prev.maint_hash = isnull ? 0 : DatumGetInt64(d);
		ld->prev.missing_blobs = DatumGetInt64(SPI_getbinval(tup, desc, 11, &isnull));
		ld->prev.missing_trees = DatumGetInt64(SPI_getbinval(tup, desc, 12, &isnull));
	}
	SPI_freetuptable(SPI_tuptable);
	/* stored state is input: a head that is no full id is none (a full load) */
	if (ld->prev.head != NULL && fixes_lower_hex_span(ld->prev.head) != strlen(ld->prev.head))
	{
		ereport(NOTICE,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("the stored head of repository \"%s\" is not a commit id; loading it in full",
						ld->args.name)));
		ld->prev.head = NULL;
	}
	/* counts that no load wrote are no base for a refresh */
	if (ld->prev.usable &&
		(ld->prev.edges < 0 || ld->prev.resolved < 0 || ld->prev.resolved > ld->prev.edges ||
		 ld->prev.commits < 0 || ld->prev.commits >= PG_INT32_MAX || ld->prev.nreleases < 0 ||
		 ld->prev.edges > ld->prev.commits * (int64) Max(fixes_max_edges_per_commit, 1)))
	{
		ereport(NOTICE,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("the stored counts of repository \"%s\" are unusable; loading it in full",
						ld->args.name),
				 errdetail("fixes_repositories holds " INT64_FORMAT " commits, " INT64_FORMAT " edges, " INT64_FORMAT " resolved, %d releases.",
						   ld->prev.commits, ld->prev.edges, ld->prev.resolved, ld->prev.nreleases)));
		ld->prev.usable = false;
	}
}

/*
 * The previous load is not built on: this load is a full one (another
 * setting of files or MAINTAINERS, a stored hash missing, or a refresh
 * whose stored state did not read back)
 */
void
fixes_load_previous_unusable(FixesLoad *ld)
{
	ld->prev.usable = false;
}

/*
 * A refresh: the surrogate keys of the rows it does not read are in range
 * (stored state is input, src/README.md).  A row with an index out of
 * range is one that no read by range finds, and that the refresh would
 * keep: fixes_commits.commit_idx from 0 to the last old commit, and
 * fixes_edges' fixing_idx and (by its index) target_idx among the
 * commits.  Five probes of the primary keys' and target_idx's indexes.
 */
void
fixes_load_check_stored_keys(FixesLoad *ld)
{
	Oid			argtypes[2] = {INT4OID, INT4OID};
	Datum		args[2] = {Int32GetDatum(ld->repository_id), Int32GetDatum((int32) ld->n_old)};
	bool		v12 = ld->has.graph_releases;
	HeapTuple	tup;
	TupleDesc	desc;
	bool		isnull;
	int32		min_commit,
				max_commit;
	Datum		d;

	if (ld->n_old == 0)
		return;
	fixes_spi_execute(psprintf("SELECT (SELECT min(commit_idx) FROM ONLY %1$s.fixes_commits WHERE repository_id = $1), "
							   "(SELECT max(commit_idx) FROM ONLY %1$s.fixes_commits WHERE repository_id = $1), "
							   "EXISTS (SELECT FROM ONLY %1$s.fixes_commits WHERE repository_id = $1 AND commit_idx = $2 - 1), "
							   "(SELECT min(fixing_idx) FROM ONLY %1$s.fixes_edges WHERE repository_id = $1), "
							   "%2$s",
							   ld->schema,
							   v12 ? psprintf("(SELECT min(target_idx) FROM ONLY %1$s.fixes_edges WHERE repository_id = $1), "
											  "(SELECT max(target_idx) FROM ONLY %1$s.fixes_edges WHERE repository_id = $1)",
											  ld->schema) : "NULL::int, NULL::int"),
					  2, argtypes, args, NULL, 1, SPI_OK_SELECT);
	tup = SPI_tuptable->vals[0];
	desc = SPI_tuptable->tupdesc;
	min_commit = DatumGetInt32(SPI_getbinval(tup, desc, 1, &isnull));
	if (isnull || min_commit != 0)
		fixes_load_stored_bad(ld, "fixes_commits", "The least commit_idx is %d.", isnull ? -1 : min_commit);
	max_commit = DatumGetInt32(SPI_getbinval(tup, desc, 2, &isnull));
	if (!DatumGetBool(SPI_getbinval(tup, desc, 3, &isnull)))
		fixes_load_stored_bad(ld, "fixes_commits", "No row has commit_idx %u.", ld->n_old - 1);
	d = SPI_getbinval(tup, desc, 4, &isnull);
	if (!isnull && DatumGetInt32(d) < 0)
		fixes_load_stored_bad(ld, "fixes_edges", "An edge has fixing_idx %d.", DatumGetInt32(d));
	d = SPI_getbinval(tup, desc, 5, &isnull);
	if (!isnull && DatumGetInt32(d) < 0)
		fixes_load_stored_bad(ld, "fixes_edges", "An edge has target_idx %d.", DatumGetInt32(d));
	d = SPI_getbinval(tup, desc, 6, &isnull);
	if (!isnull && DatumGetInt32(d) > max_commit)
		fixes_load_stored_bad(ld, "fixes_edges", "An edge has target_idx %d, past the last commit (%d).",
							  DatumGetInt32(d), max_commit);
	SPI_freetuptable(SPI_tuptable);
}

/* the newest committer date of the previous load's mainline commits */
void
fixes_load_read_previous_newest(FixesLoad *ld)
{
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};
	bool		isnull;
	Datum		d;

	ld->prev.newest_set = false;
	if (!ld->known || !ld->has.last_committed_at)
		return;
	if (fixes_spi_execute(psprintf("SELECT last_committed_at FROM ONLY %s.fixes_repositories "
								   "WHERE repository_id = $1", ld->schema),
						  1, argtypes, args, NULL, 1, SPI_OK_SELECT) != 1)
		elog(ERROR, "repository %d vanished", ld->repository_id);
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	ld->prev.newest_set = !isnull;
	if (!isnull)
		ld->prev.newest_at = DatumGetTimestampTz(d);
	SPI_freetuptable(SPI_tuptable);
}

/*
 * The counts of a release row of fixes_releases, from column 4 on (the
 * columns of fixes_release_stat_columns); false if a count is NULL.  A
 * lifetime is NULL when there is none (NaN).
 */
static bool
old_counts(FixesLoad *ld, HeapTuple tup, TupleDesc desc, FixesReleaseStats *st)
{
	for (int c = 0; c < fixes_release_nstat_columns; c++)
	{
		const FixesStatColumn *col = &fixes_release_stat_columns[c];
		bool		isnull;
		Datum		d = SPI_getbinval(tup, desc, 4 + c, &isnull);
		char	   *field = (char *) st + col->offset;

		if (col->days)
			*(double *) field = isnull ? NAN :
				fixes_load_stored_float(ld, DatumGetFloat8(d), "fixes_releases", col->name);
		else if (isnull)
			return false;
		else if ((*(int64 *) field = DatumGetInt64(d)) < 0)
			fixes_load_stored_bad(ld, "fixes_releases", "%s of a release is " INT64_FORMAT ".",
								  col->name, *(int64 *) field);
	}
	return true;
}

/* a refresh: the mainline releases of the previous load, to tell which moved */
void
fixes_load_read_old_releases(FixesLoad *ld)
{
	/*
	 * and their counts, which a refresh keeps for the releases it does not
	 * change: when the tables hold every count
	 */
	bool		counts = ld->has.release_cc_counts;
	StringInfoData cols;
	char	   *sql;
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};

	for (int c = 0; c < fixes_release_nstat_columns; c++)
		counts = counts && ld->has.version >= fixes_release_stat_columns[c].version;
	initStringInfo(&cols);
	for (int c = 0; counts && c < fixes_release_nstat_columns; c++)
		appendStringInfo(&cols, ", %s", fixes_release_stat_columns[c].name);
	sql = psprintf("SELECT tag, commit_idx, commit_id%s FROM ONLY %s.fixes_releases "
				   "WHERE repository_id = $1%s ORDER BY release_rank",
				   cols.data, ld->schema, ld->has.stable_scope ? " AND mainline" : "");

	fixes_spi_execute(sql, 1, argtypes, args, NULL, 0, SPI_OK_SELECT);
	ld->refresh->n_old_releases = (int) SPI_processed;
	ld->refresh->old_releases = palloc(sizeof(FixesOldRelease) * Max(ld->refresh->n_old_releases, 1));
	ld->refresh->old_stats = counts ? palloc0(sizeof(FixesReleaseStats) * (ld->refresh->n_old_releases + 1)) : NULL;
	for (int i = 0; i < ld->refresh->n_old_releases; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		bool		isnull;

		Datum		d = SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &isnull);

		if (isnull)
			fixes_load_stored_bad(ld, "fixes_releases", "A release has no tag.");
		ld->refresh->old_releases[i].tag = TextDatumGetCString(d);
		d = SPI_getbinval(tup, SPI_tuptable->tupdesc, 2, &isnull);
		/* an index into the graph (read before this) */
		ld->refresh->old_releases[i].commit = isnull ? FIXES_NO_IDX :
			fixes_load_stored_idx(ld, DatumGetInt32(d), ld->n_old, "fixes_releases", "commit_idx");
		if (isnull)
			fixes_load_stored_bad(ld, "fixes_releases", "Release %s has no commit_idx.",
								  ld->refresh->old_releases[i].tag);
		d = SPI_getbinval(tup, SPI_tuptable->tupdesc, 3, &isnull);
		if (isnull)
			fixes_load_stored_bad(ld, "fixes_releases", "Release %s has no commit_id.",
								  ld->refresh->old_releases[i].tag);
		ld->refresh->old_releases[i].id_valid =
			fixes_oid_parse_full(&ld->refresh->old_releases[i].id, TextDatumGetCString(d));
		if (ld->refresh->old_stats != NULL && !old_counts(ld, tup, SPI_tuptable->tupdesc, &ld->refresh->old_stats[i + 1]))
			ld->refresh->old_stats = NULL;	/* not all there: the counts are computed again */
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
status_code(FixesLoad *ld, Datum d, bool isnull)
{
	for (uint8 c = 0; !isnull && c < lengthof(fixes_edge_status_names); c++)
		if (text_is(d, fixes_edge_status_names[c]))
			return c;
	fixes_load_stored_bad(ld, "fixes_edges", "An edge has an unknown status.");
}

static uint8
method_code(FixesLoad *ld, Datum d, bool isnull)
{
	if (isnull)
		return METHOD_NONE;
	for (uint8 c = METHOD_HASH; c < lengthof(fixes_edge_method_names); c++)
		if (text_is(d, fixes_edge_method_names[c]))
			return c;
	fixes_load_stored_bad(ld, "fixes_edges", "An edge has an unknown method.");
}

/* the 0-based positions of the columns of fixes_edges a refresh reads back */
typedef struct EdgeCols
{
	int			fixing_idx;
	int			line;
	int			abbrev;
	int			quoted_subject;
	int			status;
	int			method;
	int			target_idx;
	int			candidates;
	int			fixed_at;
	int			kind;			/* -1 in 1.0 */
	int			introduced_at;	/* -1 in 1.0 */
} EdgeCols;

/* one row of fixes_edges into the load's edges */
static void
add_old_edge(FixesLoad *ld, const EdgeCols *c, const Datum *v, const bool *isnull,
			 ItemPointer tid)
{
	FixesEdge  *e = fixes_load_add_edge(ld);
	text	   *t;

	e->old = true;
	e->tid = *tid;
	/* stored state is input: indexes into the graph read back (src/README.md) */
	if (isnull[c->fixing_idx] || isnull[c->line] || isnull[c->abbrev] || isnull[c->candidates])
		fixes_load_stored_bad(ld, "fixes_edges", "An edge has a NULL fixing_idx, line, abbrev or candidates.");
	e->fixing = fixes_load_stored_idx(ld, DatumGetInt32(v[c->fixing_idx]), ld->n_old,
									  "fixes_edges", "fixing_idx");
	e->line = DatumGetInt32(v[c->line]);
	if (e->line < 0)
		fixes_load_stored_bad(ld, "fixes_edges", "An edge has line %d.", e->line);
	t = DatumGetTextPP(v[c->abbrev]);
	e->abbrev_len = (uint8) Min(VARSIZE_ANY_EXHDR(t), 40);
	e->abbrev_off = fixes_arena_add(&ld->edge_list.text, VARDATA_ANY(t), e->abbrev_len);
	if (!isnull[c->quoted_subject])
	{
		t = DatumGetTextPP(v[c->quoted_subject]);
		e->subj_len = VARSIZE_ANY_EXHDR(t);
		e->subj_off = fixes_arena_add(&ld->edge_list.text, VARDATA_ANY(t), e->subj_len);
	}
	e->before.status = status_code(ld, v[c->status], isnull[c->status]);
	e->before.method = method_code(ld, v[c->method], isnull[c->method]);
	/* a resolved edge has a target among the old commits, another none */
	if (e->before.status == EDGE_RESOLVED)
		e->before.target = isnull[c->target_idx] ? FIXES_NO_IDX :
			fixes_load_stored_idx(ld, DatumGetInt32(v[c->target_idx]), ld->n_old,
								  "fixes_edges", "target_idx");
	else
		e->before.target = isnull[c->target_idx] ? FIXES_NO_IDX : PG_UINT32_MAX - 1;
	if ((e->before.status == EDGE_RESOLVED) != (e->before.target != FIXES_NO_IDX))
		fixes_load_stored_bad(ld, "fixes_edges", "An edge of commit %u is %s with%s a target_idx.",
							  e->fixing, fixes_edge_status_names[e->before.status],
							  e->before.status == EDGE_RESOLVED ? "out" : "");
	e->before.candidates = DatumGetInt32(v[c->candidates]);
	if (e->before.candidates < 0)
		fixes_load_stored_bad(ld, "fixes_edges", "An edge has %d candidates.", e->before.candidates);
	e->now = e->before;			/* until resolved again */
	e->fixed_at_null = isnull[c->fixed_at];
	e->fixed_at = e->fixed_at_null ? 0 : DatumGetTimestampTz(v[c->fixed_at]);
	e->kind = c->kind >= 0 && text_is(v[c->kind], "revert") ? KIND_REVERT : KIND_FIXES;
	e->introduced_null = c->introduced_at < 0 || isnull[c->introduced_at];
	e->introduced_at = e->introduced_null ? 0 : DatumGetTimestampTz(v[c->introduced_at]);
}

/* the primary key of fixes_edges when it starts (repository_id, fixing_idx), else NULL */
static Relation
open_edges_pkey(Relation rel)
{
	TupleDesc	desc = RelationGetDescr(rel);
	Oid			pkey_oid = RelationGetPrimaryKeyIndex(rel);
	Relation	pkey;

	if (!OidIsValid(pkey_oid))
		return NULL;
	pkey = index_open(pkey_oid, AccessShareLock);
	if (pkey->rd_index->indnkeyatts < 2 ||
		pkey->rd_index->indkey.values[0] != fixes_attnum(desc, "repository_id") + 1 ||
		pkey->rd_index->indkey.values[1] != fixes_attnum(desc, "fixing_idx") + 1)
	{
		index_close(pkey, AccessShareLock);
		return NULL;
	}
	return pkey;
}

/* fixes_edges can be read by ranges of fixing_idx (its primary key is there) */
bool
fixes_load_old_edges_by_range(FixesLoad *ld)
{
	Relation	rel = table_open(fixes_table_oid(ld->nsp, "fixes_edges"), AccessShareLock);
	Relation	pkey = open_edges_pkey(rel);

	if (pkey != NULL)
		index_close(pkey, AccessShareLock);
	table_close(rel, AccessShareLock);
	return pkey != NULL;
}

/*
 * The edges of the previous load, to resolve again with the new commits:
 * every row of the repository in fixes_edges (ranges NULL), or those whose
 * fixing_idx is in one of the nranges ranges [lo, hi] (sorted, apart), read
 * with a scan of the table rather than through SPI, which would copy each
 * row and look up its columns one by one (a refresh at 1.3M commits reads
 * 130,000 of them).  The scan is of the repository's key range in the
 * primary key (its first column is repository_id, its second fixing_idx),
 * not of the whole table: another repository's size costs this one nothing
 *.  Reading by ranges needs that key
 * (fixes_load_old_edges_by_range()).
 */
void
fixes_load_read_old_edges_in(FixesLoad *ld, const FixesIdxRange *ranges, int64 nranges)
{
	Relation	rel = table_open(fixes_table_oid(ld->nsp, "fixes_edges"), AccessShareLock);
	TupleDesc	desc = RelationGetDescr(rel);
	EdgeCols	c;
	ScanKeyData keys[3];
	Snapshot	snap;
	Relation	pkey = open_edges_pkey(rel);
	TableScanDesc scan = NULL;
	IndexScanDesc iscan = NULL;
	TupleTableSlot *slot;
	MemoryContext rowcxt = AllocSetContextCreate(CurrentMemoryContext, "fixes_load old edge",
												 ALLOCSET_DEFAULT_SIZES);
	uint64		n = 0;
	int64		room;
	int			natts;
	int64		r = 0;
	bool		in_range = false;

	c.fixing_idx = fixes_attnum(desc, "fixing_idx");
	c.line = fixes_attnum(desc, "line");
	c.abbrev = fixes_attnum(desc, "abbrev");
	c.quoted_subject = fixes_attnum(desc, "quoted_subject");
	c.status = fixes_attnum(desc, "status");
	c.method = fixes_attnum(desc, "method");
	c.target_idx = fixes_attnum(desc, "target_idx");
	c.candidates = fixes_attnum(desc, "candidates");
	c.fixed_at = fixes_attnum(desc, "fixed_at");
	c.kind = ld->has.revert_edges ? fixes_attnum(desc, "kind") : -1;
	c.introduced_at = ld->has.revert_edges ? fixes_attnum(desc, "introduced_at") : -1;

	Assert(ranges == NULL || nranges > 0);
	if (ranges != NULL && pkey == NULL)
		elog(ERROR, "fixes_edges has no primary key on (repository_id, fixing_idx, ...)");
	if (ld->edge_list.text.data == NULL)
		fixes_arena_init(&ld->edge_list.text, ld->cxt);
	/* and room for the new commits' edges, when they are read after these */
	/* (a hint: fixes_repositories.edges is stored state, bounded by the commits) */
	room = ranges != NULL ? 0 : Min(Max(ld->prev.edges, 0), (int64) ld->n_old * 8);
	room += room / 16 + 1024;
	fixes_load_reserve_edges(ld, room);
	/* their abbrevs and quoted subjects: 48 bytes an edge, a hint */
	fixes_arena_reserve(&ld->edge_list.text, (Size) Min(room, (int64) 1 << 24) * 48);
	/* the columns read are the first natts */
	natts = Max(Max(Max(c.fixing_idx, c.line), Max(c.abbrev, c.quoted_subject)),
				Max(Max(Max(c.status, c.method), Max(c.target_idx, c.candidates)),
					Max(Max(c.fixed_at, c.kind), c.introduced_at))) + 1;
	/* what this load wrote so far is visible, as to an SPI query */
	CommandCounterIncrement();
	snap = RegisterSnapshot(GetTransactionSnapshot());
	slot = table_slot_create(rel, NULL);
	ScanKeyInit(&keys[0], 1, BTEqualStrategyNumber, F_INT4EQ, Int32GetDatum(ld->repository_id));
	ScanKeyInit(&keys[1], 2, BTGreaterEqualStrategyNumber, F_INT4GE, Int32GetDatum(0));
	ScanKeyInit(&keys[2], 2, BTLessEqualStrategyNumber, F_INT4LE, Int32GetDatum(0));
	if (pkey != NULL)
	{
		iscan = index_beginscan(rel, pkey, snap, ranges != NULL ? 3 : 1, 0);
		if (ranges == NULL)
			index_rescan(iscan, keys, 1, NULL, 0);
	}
	else
	{
		/* no primary key (an administrator dropped it): the whole table */
		ScanKeyInit(&keys[0], fixes_attnum(desc, "repository_id") + 1, BTEqualStrategyNumber, F_INT4EQ,
					Int32GetDatum(ld->repository_id));
		scan = table_beginscan(rel, snap, 1, keys);
	}
	for (;;)
	{
		MemoryContext old;

		if (ranges != NULL)
		{
			/* the next range, when this one is done (and first) */
			if (!in_range || !index_getnext_slot(iscan, ForwardScanDirection, slot))
			{
				if (r == nranges)
					break;
				if ((r & 0x3ff) == 0x3ff)
					CHECK_FOR_INTERRUPTS();
				keys[1].sk_argument = Int32GetDatum((int32) ranges[r].lo);
				keys[2].sk_argument = Int32GetDatum((int32) ranges[r].hi);
				r++;
				index_rescan(iscan, keys, 3, NULL, 0);
				in_range = true;
				continue;
			}
		}
		else if (!(pkey != NULL ? index_getnext_slot(iscan, ForwardScanDirection, slot)
				   : table_scan_getnextslot(scan, ForwardScanDirection, slot)))
			break;
		old = MemoryContextSwitchTo(rowcxt);
		slot_getsomeattrs(slot, natts);
		/* the stable scope's rows go before the refresh writes (load_clear.c) */
		if (!ld->has.stable_scope || DatumGetInt32(slot->tts_values[c.fixing_idx]) < ld->prev.commits)
			add_old_edge(ld, &c, slot->tts_values, slot->tts_isnull, &slot->tts_tid);
		MemoryContextSwitchTo(old);
		if ((++n & 0x3ff) == 0)
		{
			MemoryContextReset(rowcxt);
			CHECK_FOR_INTERRUPTS();
		}
	}
	ExecDropSingleTupleTableSlot(slot);
	if (pkey != NULL)
	{
		index_endscan(iscan);
		index_close(pkey, AccessShareLock);
	}
	else
		table_endscan(scan);
	UnregisterSnapshot(snap);
	table_close(rel, AccessShareLock);
	MemoryContextDelete(rowcxt);
}

/* every old edge */
void
fixes_load_read_old_edges(FixesLoad *ld)
{
	fixes_load_read_old_edges_in(ld, NULL, 0);
}
