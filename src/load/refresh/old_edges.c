/*
 * old_edges.c — a refresh: which edges of the previous load it reads
 *
 * A refresh needs an old edge when the new commits can change it, or when a
 * count it computes again reads it; the others (nearly all, in a daily
 * refresh) stay as stored, and reading all of them was most of what a
 * daily refresh at 1.3M commits spent (133,000 rows, 43 MB of fixes_edges
 * touched).  Edges are read by fixing commit, all the edges of a commit
 * together (its "fixing" flag for the trailer counts is then exact), in two
 * steps:
 *
 * Before the resolution (fixes_load_old_edges_changeable()), the edges of
 *   - the commits whose release changed (ld->refresh->moved), and of the commits
 *     with an edge into one of them (fixes_edges_target_idx_idx): their
 *     releases are written again;
 *   - the commits with an edge settled by hash (resolved by hash or
 *     hash+subject) whose abbrev is a prefix of a new commit's id: another
 *     candidate.  Its target_commit starts with its abbrev, of 6 digits at
 *     least (trailer.c), so the index on target_commit finds it by the new
 *     id's first 6;
 *   - the commits with an edge not settled by hash (not resolved, resolved
 *     by subject or by an override) that a new commit can change: a new id
 *     with its abbrev (fixes_edges_unsettled_idx, a range of abbrevs from
 *     the new id's first 6 digits to the whole id), a new commit with its
 *     quoted subject (fixes_edges_unsettled_subject_idx), or decided by
 *     fixes_overrides, which may have changed since (fixes_edges_overridden_idx);
 *     reading each of them (1,190 at 1.3M commits) touched a page each;
 *   - the commits that fixes_overrides names.
 * These are every edge that load_resolve.c's edges_to_resolve() can resolve
 * otherwise, and every edge whose commits moved: what decides which
 * releases' counts are computed again (load_count.c, releases_to_count()).
 *
 * After it (fixes_load_old_edges_counted()), the edges of the commits of
 * those releases, and of the commits with an edge into them or into a
 * commit whose row of fixes_fixed_commits is written again: every edge that
 * those counts read.  What the counts of the other releases and commits
 * read is stored, and does not change.
 *
 * Only a refresh of a database at 1.2 SQL (its indexes) without
 * stable_branches does this; with files, only when the per-group counts come
 * from the stored ones (fixes_load_groups_by_difference(), decided by load.c
 * before these reads: each group's stored lifetimes stand for the edges into
 * it, and the commits of the edges that changed are read whole, as above).
 * When the commits to read are more than a quarter of the old ones (and
 * 1024), or every release is counted again, the rest is read too, as before.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_am.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_index.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "storage/bufmgr.h"
#include "utils/snapmgr.h"

#include "big_alloc.h"
#include "commit_fields.h"
#include "load_count.h"
#include "load_state.h"
#include "load_overrides.h"
#include "refresh.h"
#include "spi_call.h"
#include "table_columns.h"

/* a set of old commits, by index */
typedef struct CommitSet
{
	uint8	   *has;
	uint32		n;
	int64		count;
} CommitSet;

static void
set_init(CommitSet *s, uint32 n)
{
	s->has = fixes_palloc_big(Max(n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	s->n = n;
	s->count = 0;
}

static inline void
set_add(CommitSet *s, uint32 i)
{
	if (i < s->n && !s->has[i])
	{
		s->has[i] = 1;
		s->count++;
	}
}

/*
 * The first j in [i, n) with has[j] != 0, n if none: eight bytes at a time
 * over the zeros (a refresh's sets hold a few thousand of the old commits,
 * and each was scanned a byte at a time, 1.3M bytes a scan)
 */
static inline uint32
next_in(const uint8 *has, uint32 i, uint32 n)
{
	while (i < n && (i & 7) != 0)
	{
		if (has[i] != 0)
			return i;
		i++;
	}
	while ((uint64) i + 8 <= n)
	{
		uint64		w;

		memcpy(&w, has + i, sizeof(w));
		if (w != 0)
			break;
		i += 8;
	}
	while (i < n && has[i] == 0)
		i++;
	return i;
}

/* the ranges of the commits i < n with (has[i] != 0) == in, sorted */
static FixesIdxRange *
ranges_of(const uint8 *has, uint32 n, bool in, int64 *nranges)
{
	FixesIdxRange *r = NULL;
	int64		nr = 0;
	int64		cap = 0;
	uint32		checked = 0;

	for (uint32 i = in ? next_in(has, 0, n) : 0; i < n; i = in ? next_in(has, i + 1, n) : i + 1)
	{
		if (i - checked >= 0xffff)
		{
			CHECK_FOR_INTERRUPTS();
			checked = i;
		}
		if ((has[i] != 0) != in)
			continue;
		if (nr > 0 && r[nr - 1].hi + 1 == i)
		{
			r[nr - 1].hi = i;
			continue;
		}
		if (nr == cap)
		{
			cap = cap ? cap * 2 : 256;
			r = r ? repalloc_huge(r, sizeof(FixesIdxRange) * cap)
				: fixes_palloc_big(sizeof(FixesIdxRange) * cap, MCXT_ALLOC_HUGE);
		}
		r[nr].lo = r[nr].hi = i;
		nr++;
	}
	*nranges = nr;
	return r;
}

/* the first column (an int4 commit index) of each row of sql into s */
static void
add_rows(FixesLoad *ld, CommitSet *s, const char *sql, int nargs, Oid *types, Datum *args)
{
	uint64		rows = fixes_spi_execute(sql, nargs, types, args, NULL, 0, SPI_OK_SELECT);

	for (uint64 r = 0; r < rows; r++)
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1, &isnull);

		if ((r & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (!isnull)
			set_add(s, (uint32) DatumGetInt32(d));
	}
	SPI_freetuptable(SPI_tuptable);
}

/* into s: the fixing commits of the edges into a commit of the ranges */
static void
add_fixing_of_targets(FixesLoad *ld, CommitSet *s, const FixesIdxRange *ranges, int64 nranges)
{
	Datum	   *lo;
	Datum	   *hi;
	Oid			types[3] = {INT4OID, INT4ARRAYOID, INT4ARRAYOID};
	Datum		args[3];

	if (nranges == 0)
		return;
	if (nranges > (int64) MaxAllocSize / sizeof(Datum))
		elog(ERROR, "too many ranges of commits: %lld", (long long) nranges);
	lo = palloc(sizeof(Datum) * nranges);
	hi = palloc(sizeof(Datum) * nranges);
	for (int64 r = 0; r < nranges; r++)
	{
		lo[r] = Int32GetDatum((int32) ranges[r].lo);
		hi[r] = Int32GetDatum((int32) ranges[r].hi);
	}
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = PointerGetDatum(construct_array(lo, (int) nranges, INT4OID, sizeof(int32), true, TYPALIGN_INT));
	args[2] = PointerGetDatum(construct_array(hi, (int) nranges, INT4OID, sizeof(int32), true, TYPALIGN_INT));
	/* one range scan of fixes_edges_target_idx_idx each, whatever the statistics say */
	add_rows(ld, s,
			 psprintf("SELECT e.fixing_idx FROM unnest($2, $3) AS u(lo, hi) CROSS JOIN LATERAL "
					  "(SELECT fixing_idx FROM ONLY %s.fixes_edges WHERE repository_id = $1 "
					  "AND target_idx BETWEEN u.lo AND u.hi OFFSET 0) AS e", ld->schema),
			 3, types, args);
	pfree(lo);
	pfree(hi);
}

/* the condition of the partial indexes of the edges not settled by hash */
#define UNSETTLED "(status <> 'resolved' OR method NOT IN ('hash', 'hash+subject'))"

/* into s: the fixing commits of the edges fixes_overrides decided, which may have changed since */
static void
add_overridden(FixesLoad *ld, CommitSet *s)
{
	Oid			types[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};

	add_rows(ld, s,
			 psprintf("SELECT fixing_idx FROM ONLY %s.fixes_edges WHERE repository_id = $1 "
					  "AND (status = 'ignored' OR method = 'override')", ld->schema),
			 1, types, args);
}

/*
 * into s: the fixing commits of the edges not settled by hash that a new
 * commit can change (an id with their abbrev, a subject equal to their
 * quoted subject), one probe of fixes_edges_unsettled_idx and of
 * fixes_edges_unsettled_subject_idx per new commit
 */
static void
add_unsettled_probed(FixesLoad *ld, CommitSet *s, Datum new_ids)
{
	Oid			types[3] = {INT4OID, INT4OID, TEXTARRAYOID};
	Datum		args[3] = {Int32GetDatum(ld->repository_id), Int32GetDatum((int32) ld->n_old), new_ids};

	add_rows(ld, s,
			 psprintf("SELECT e.fixing_idx FROM unnest($3) AS u(id) CROSS JOIN LATERAL "
					  "(SELECT fixing_idx, abbrev FROM ONLY %1$s.fixes_edges "
					  "WHERE repository_id = $1 AND " UNSETTLED " "
					  "AND abbrev >= (left(u.id, 6) COLLATE \"C\") AND abbrev <= (u.id COLLATE \"C\") "
					  "OFFSET 0) AS e "
					  "WHERE left(u.id, length(e.abbrev)) = (e.abbrev COLLATE \"C\") "
					  "UNION ALL "
					  "SELECT e.fixing_idx FROM ONLY %1$s.fixes_commits c CROSS JOIN LATERAL "
					  "(SELECT fixing_idx, repository_id FROM ONLY %1$s.fixes_edges "
					  "WHERE quoted_subject = c.subject AND " UNSETTLED " OFFSET 0) AS e "
					  "WHERE c.repository_id = $1 AND c.commit_idx >= $2 AND e.repository_id = $1",
					  ld->schema),
			 3, types, args);
}

static int
hex_id_cmp(const void *a, const void *b)
{
	return memcmp(a, b, FIXES_OID_HEXSZ);
}

/* the new commits' ids in hex, FIXES_OID_HEXSZ bytes each, sorted */
static char *
sorted_new_ids(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;
	uint32		nnew = g->n - ld->n_old;
	char	   *ids = fixes_palloc_big((Size) Max(nnew, 1) * FIXES_OID_HEXSZ, MCXT_ALLOC_HUGE);

	for (uint32 i = 0; i < nnew; i++)
		fixes_oid_fmt(ids + (Size) i * FIXES_OID_HEXSZ, &g->oids[ld->n_old + i]);
	qsort(ids, nnew, FIXES_OID_HEXSZ, hex_id_cmp);
	return ids;
}

/* abbrev (len bytes) is a prefix, of 6 digits or more, of one of the n sorted hex ids */
static bool
prefix_of_one(const char *abbrev, int len, const char *ids, uint32 n)
{
	uint32		lo = 0;
	uint32		hi = n;

	if (len < 6 || len > FIXES_OID_HEXSZ)
		return false;
	/* the first id not below abbrev: the ids it begins come first there */
	while (lo < hi)
	{
		uint32		mid = lo + (hi - lo) / 2;
		int			c = memcmp(ids + (Size) mid * FIXES_OID_HEXSZ, abbrev, len);

		/* an id whose first len bytes equal abbrev is not below it */
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && memcmp(ids + (Size) lo * FIXES_OID_HEXSZ, abbrev, len) == 0;
}

/* the text column col of slot is not NULL and equals one of the n words */
static bool
text_is(TupleTableSlot *slot, int col, const char *const *words, int n, bool *isnull)
{
	Datum		d = slot_getattr(slot, col, isnull);
	text	   *t;

	if (*isnull)
		return false;
	t = DatumGetTextPP(d);
	for (int i = 0; i < n; i++)
		if (VARSIZE_ANY_EXHDR(t) == strlen(words[i]) &&
			memcmp(VARDATA_ANY(t), words[i], strlen(words[i])) == 0)
			return true;
	return false;
}

/*
 * The row of slot is not settled by hash: UNSETTLED, the index's condition,
 * true as SQL has it (a NULL operand makes its side unknown, not true)
 */
static bool
unsettled(TupleTableSlot *slot, int c_status, int c_method)
{
	static const char *const resolved[] = {"resolved"};
	static const char *const by_hash[] = {"hash", "hash+subject"};
	bool		null_status;
	bool		null_method;

	if (!text_is(slot, c_status, resolved, 1, &null_status) && !null_status)
		return true;
	return !text_is(slot, c_method, by_hash, 2, &null_method) && !null_method;
}

/*
 * An index scan of fixes_edges for the two passes below: the table and the
 * index opened (edge_scan_open(); false when the index does not exist),
 * then each pass checks that the index is the extension's, and the scan
 * begun with a snapshot that sees what this load wrote so far
 * (edge_scan_begin()); edge_scan_close() ends whatever was begun.
 */
typedef struct EdgeScan
{
	Relation	rel;
	Relation	idx;
	TupleDesc	desc;
	Snapshot	snap;
	IndexScanDesc scan;
	TupleTableSlot *slot;
} EdgeScan;

static bool
edge_scan_open(FixesLoad *ld, const char *index_name, EdgeScan *es)
{
	Oid			idx_oid = fixes_table_oid_if_exists(ld->nsp, index_name);

	memset(es, 0, sizeof(*es));
	if (!OidIsValid(idx_oid))
		return false;
	es->rel = table_open(fixes_table_oid(ld->nsp, "fixes_edges"), AccessShareLock);
	es->desc = RelationGetDescr(es->rel);
	es->idx = index_open(idx_oid, AccessShareLock);
	return true;
}

static void
edge_scan_begin(EdgeScan *es, int nkeys)
{
	/* what this load wrote so far is visible, as to an SPI query */
	CommandCounterIncrement();
	es->snap = RegisterSnapshot(GetTransactionSnapshot());
	es->slot = table_slot_create(es->rel, NULL);
	es->scan = index_beginscan(es->rel, es->idx, es->snap, nkeys, 0);
}

static void
edge_scan_close(EdgeScan *es)
{
	if (es->scan != NULL)
	{
		index_endscan(es->scan);
		ExecDropSingleTupleTableSlot(es->slot);
		UnregisterSnapshot(es->snap);
	}
	index_close(es->idx, AccessShareLock);
	table_close(es->rel, AccessShareLock);
}

/*
 * The same set, or more, read the other way round when the new commits are
 * many: every edge of the repository not settled by hash, in one scan of
 * fixes_edges_unsettled_idx (1,190 of them at 1.3M commits, against 13,000
 * probes of each index for a refresh of 1%), each matched in memory: its
 * abbrev against the new ids (a prefix of one, as the probe's condition
 * says), its quoted subject against the new commits' subject hashes
 * (ld->by_commit.subj_hash, what the walk computed from the subjects it
 * wrote).  A hash that collides only adds a commit whose edges are read for
 * nothing: every edge read is resolved again, as when all of them are.
 */
static bool
add_unsettled_scanned(FixesLoad *ld, CommitSet *s)
{
	FixesGraph *g = ld->graph;
	uint32		nnew = g->n - ld->n_old;
	EdgeScan	es;
	char	   *ids;
	uint64	   *hashes;
	TupleDesc	desc;
	int			c_fixing;
	int			c_abbrev;
	int			c_subject;
	int			c_status;
	int			c_method;
	ScanKeyData key;
	TupleTableSlot *slot;
	uint64		rows = 0;

	/* the index as the extension makes it: on fixes_edges, repository_id first, partial */
	if (!edge_scan_open(ld, "fixes_edges_unsettled_idx", &es))
		return false;
	desc = es.desc;
	if (es.idx->rd_index->indrelid != RelationGetRelid(es.rel) || es.idx->rd_rel->relam != BTREE_AM_OID ||
		es.idx->rd_index->indkey.values[0] != fixes_attnum(desc, "repository_id") + 1 ||
		heap_attisnull(es.idx->rd_indextuple, Anum_pg_index_indpred, NULL))
	{
		edge_scan_close(&es);
		return false;
	}
	ids = sorted_new_ids(ld);
	hashes = fixes_palloc_big(sizeof(uint64) * Max(nnew, 1), MCXT_ALLOC_HUGE);
	memcpy(hashes, ld->by_commit.subj_hash + ld->n_old, sizeof(uint64) * nnew);
	qsort(hashes, nnew, sizeof(uint64), fixes_uint64_cmp);

	c_fixing = fixes_attnum(desc, "fixing_idx") + 1;
	c_abbrev = fixes_attnum(desc, "abbrev") + 1;
	c_subject = fixes_attnum(desc, "quoted_subject") + 1;
	c_status = fixes_attnum(desc, "status") + 1;
	c_method = fixes_attnum(desc, "method") + 1;
	edge_scan_begin(&es, 1);
	slot = es.slot;
	ScanKeyInit(&key, 1, BTEqualStrategyNumber, F_INT4EQ, Int32GetDatum(ld->repository_id));
	index_rescan(es.scan, &key, 1, NULL, 0);
	while (index_getnext_slot(es.scan, ForwardScanDirection, slot))
	{
		bool		isnull;
		Datum		fixing = slot_getattr(slot, c_fixing, &isnull);
		Datum		d;
		bool		match = false;

		if ((++rows & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
		if (isnull || !unsettled(slot, c_status, c_method))
			continue;
		d = slot_getattr(slot, c_abbrev, &isnull);
		if (!isnull)
		{
			text	   *t = DatumGetTextPP(d);

			match = prefix_of_one(VARDATA_ANY(t), (int) VARSIZE_ANY_EXHDR(t), ids, nnew);
		}
		d = slot_getattr(slot, c_subject, &isnull);
		if (!match && !isnull && nnew > 0)
		{
			text	   *t = DatumGetTextPP(d);
			uint64		h = fixes_subject_hash(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));

			match = bsearch(&h, hashes, nnew, sizeof(uint64), fixes_uint64_cmp) != NULL;
		}
		if (match)
			set_add(s, (uint32) DatumGetInt32(fixing));
	}
	edge_scan_close(&es);
	pfree(ids);
	pfree(hashes);
	return true;
}

/*
 * into s: the fixing commits of the edges not settled by hash that a new
 * commit can change (fixes_edges_unsettled_idx,
 * fixes_edges_unsettled_subject_idx), and of those fixes_overrides decided
 * (fixes_edges_overridden_idx).  Probed per new commit, or the unsettled
 * edges read whole when they are likely fewer than four times the new
 * commits (fixes_repositories.edges less .resolved: those not resolved; a
 * hint, either way gives the same set or more).
 */
static void
add_unsettled(FixesLoad *ld, CommitSet *s, Datum new_ids)
{
	int64		nnew = ld->graph->n - ld->n_old;

	if (ld->prev.edges - ld->prev.resolved > 4 * nnew || !add_unsettled_scanned(ld, s))
		add_unsettled_probed(ld, s, new_ids);
	add_overridden(ld, s);
}

/*
 * into s: the fixing commits of the settled edges whose abbrev is a prefix
 * of a new commit's id: their target_commit has the new id's first 6 digits
 * (an abbrev has 6 at least, trailer.c)
 */
static void
add_prefixes_of_new(FixesLoad *ld, CommitSet *s, Datum new_ids)
{
	Oid			types[2] = {INT4OID, TEXTARRAYOID};
	Datum		args[2] = {Int32GetDatum(ld->repository_id), new_ids};

	/* the rows of other repositories are dropped after the probe (load_resolve.c) */
	add_rows(ld, s,
			 psprintf("SELECT e.fixing_idx FROM unnest($2) AS u(id) CROSS JOIN LATERAL "
					  "(SELECT fixing_idx, abbrev, repository_id FROM ONLY %s.fixes_edges "
					  "WHERE target_commit >= (left(u.id, 6) COLLATE \"C\") "
					  "AND target_commit < (left(u.id, 6) || 'g' COLLATE \"C\") OFFSET 0) AS e "
					  "WHERE e.repository_id = $1 "
					  "AND left(u.id, length(e.abbrev)) = (e.abbrev COLLATE \"C\")",
					  ld->schema),
			 2, types, args);
}

/*
 * The same set read the other way round when the new commits are many
 * against the index (a page of fixes_edges_target_commit_idx, about 160
 * entries, costs about what three probes from its root cost): one pass over
 * the index in key order, merged with the new ids sorted, and only the
 * entries that begin with a new id's first 6 digits fetched from the table
 * (at 1.3M commits + 13,000: 817 pages instead of 13,000 probes).  The
 * probe's conditions, in C: the key begins with those 6 digits and, if
 * longer, goes on below 'g'; the row is the repository's, and its abbrev
 * (at most 40 bytes) begins such a new id.  False when the index is not on
 * target_commit alone in the "C" collation, or too large: then the probes.
 */
static bool
add_prefixes_scanned(FixesLoad *ld, CommitSet *s)
{
	FixesGraph *g = ld->graph;
	uint32		nnew = g->n - ld->n_old;
	EdgeScan	es;
	Relation	idx;
	TupleDesc	desc;
	char	   *ids;
	uint32		j = 0;
	int			c_repo;
	int			c_fixing;
	int			c_abbrev;
	IndexScanDesc scan;
	TupleTableSlot *slot;
	ItemPointer tid;
	uint64		seen = 0;

	if (nnew == 0 || !edge_scan_open(ld, "fixes_edges_target_commit_idx", &es))
		return false;
	desc = es.desc;
	idx = es.idx;
	if (idx->rd_index->indrelid != RelationGetRelid(es.rel) || idx->rd_rel->relam != BTREE_AM_OID ||
		idx->rd_index->indnkeyatts != 1 ||
		idx->rd_index->indkey.values[0] != fixes_attnum(desc, "target_commit") + 1 ||
		idx->rd_indcollation[0] != C_COLLATION_OID ||
		!heap_attisnull(idx->rd_indextuple, Anum_pg_index_indpred, NULL) ||
		RelationGetNumberOfBlocks(idx) > nnew / 4)
	{
		edge_scan_close(&es);
		return false;
	}
	ids = sorted_new_ids(ld);
	c_repo = fixes_attnum(desc, "repository_id") + 1;
	c_fixing = fixes_attnum(desc, "fixing_idx") + 1;
	c_abbrev = fixes_attnum(desc, "abbrev") + 1;
	edge_scan_begin(&es, 0);
	scan = es.scan;
	slot = es.slot;
	scan->xs_want_itup = true;
	index_rescan(scan, NULL, 0, NULL, 0);
	while ((tid = index_getnext_tid(scan, ForwardScanDirection)) != NULL)
	{
		bool		isnull;
		Datum		d;
		text	   *key;
		const char *k;
		int			klen;

		if ((++seen & 0xfff) == 0)
			CHECK_FOR_INTERRUPTS();
		d = index_getattr(scan->xs_itup, 1, scan->xs_itupdesc, &isnull);
		if (isnull)
			continue;
		key = DatumGetTextPP(d);
		k = VARDATA_ANY(key);
		klen = (int) VARSIZE_ANY_EXHDR(key);
		/* keys in byte order ("C"): their first 6 bytes never go down */
		if (klen < 6)
			continue;
		while (j < nnew && memcmp(ids + (Size) j * FIXES_OID_HEXSZ, k, 6) < 0)
			j++;
		if (j == nnew)
			break;
		if (memcmp(ids + (Size) j * FIXES_OID_HEXSZ, k, 6) != 0 ||
			(klen > 6 && (unsigned char) k[6] >= (unsigned char) 'g'))
			continue;
		if (!index_fetch_heap(scan, slot))
			continue;
		d = slot_getattr(slot, c_repo, &isnull);
		if (isnull || DatumGetInt32(d) != ld->repository_id)
			continue;
		d = slot_getattr(slot, c_abbrev, &isnull);
		if (isnull)
			continue;
		{
			text	   *a = DatumGetTextPP(d);
			int			alen = (int) VARSIZE_ANY_EXHDR(a);
			bool		match = false;

			/* every new id with those 6 digits */
			for (uint32 m = j; m < nnew && !match &&
				 memcmp(ids + (Size) m * FIXES_OID_HEXSZ, k, 6) == 0; m++)
				match = alen <= FIXES_OID_HEXSZ &&
					memcmp(ids + (Size) m * FIXES_OID_HEXSZ, VARDATA_ANY(a), alen) == 0;
			if (!match)
				continue;
		}
		d = slot_getattr(slot, c_fixing, &isnull);
		if (!isnull)
			set_add(s, (uint32) DatumGetInt32(d));
	}
	edge_scan_close(&es);
	pfree(ids);
	return true;
}

/* the ids of the new commits, as a text[] */
static Datum
new_ids_array(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;
	uint32		nnew = g->n - ld->n_old;
	Datum	   *ids = palloc(sizeof(Datum) * Max(nnew, 1));

	for (uint32 i = 0; i < nnew; i++)
		ids[i] = PointerGetDatum(fixes_oid_text(&g->oids[ld->n_old + i]));
	return PointerGetDatum(construct_array(ids, (int) nnew, TEXTOID, -1, false, TYPALIGN_INT));
}

/*
 * The refresh reads only the old edges it needs: decided when it knows it
 * builds on the previous load, before the walk
 */
bool
fixes_load_old_edges_some(FixesLoad *ld)
{
	return ld->refresh != NULL && ld->has.graph_releases && ld->args.stable_re == NULL &&
		ld->n_old > 0 && fixes_load_old_edges_by_range(ld);
}

/* too many to read apart: a quarter of the old commits (and more than 1024) */
static bool
too_many(const FixesLoad *ld, int64 count)
{
	return count > Max((int64) ld->n_old / 4, 1024);
}

/* every old edge is read after all, not only those the refresh needs (why: the DEBUG1 line) */
void
fixes_load_old_edges_every(FixesLoad *ld, const char *why)
{
	elog(DEBUG1, "fixes_load %s: old edges: every one read (%s)", ld->args.name, why);
	ld->refresh->edges_some = false;
}

/* the edges of every old commit not read yet */
static void
read_rest(FixesLoad *ld, const char *why)
{
	FixesIdxRange *ranges;
	int64		nranges;

	fixes_load_old_edges_every(ld, why);
	ranges = ranges_of(ld->refresh->edges_of, ld->n_old, false, &nranges);
	if (nranges > 0)
		fixes_load_read_old_edges_in(ld, ranges, nranges);
	memset(ld->refresh->edges_of, 1, ld->n_old);
	if (ranges != NULL)
		pfree(ranges);
}

/* the edges of the commits of s not read yet */
static void
read_set(FixesLoad *ld, CommitSet *s)
{
	FixesIdxRange *ranges;
	int64		nranges;
	int64		before = ld->edge_list.n;

	for (uint32 i = next_in(s->has, 0, ld->n_old); i < ld->n_old; i = next_in(s->has, i + 1, ld->n_old))
		if (ld->refresh->edges_of[i])
		{
			s->has[i] = 0;
			s->count--;
		}
	ranges = ranges_of(s->has, ld->n_old, true, &nranges);
	if (nranges > 0)
		fixes_load_read_old_edges_in(ld, ranges, nranges);
	for (uint32 i = next_in(s->has, 0, ld->n_old); i < ld->n_old; i = next_in(s->has, i + 1, ld->n_old))
		ld->refresh->edges_of[i] = 1;
	elog(DEBUG1, "fixes_load %s: old edges: %lld more read, of %lld commits in %lld ranges",
		 ld->args.name, (long long) (ld->edge_list.n - before), (long long) s->count, (long long) nranges);
	if (ranges != NULL)
		pfree(ranges);
}

/*
 * Before the resolution: the old edges that the new commits or this load's
 * releases can change (every one unless ld->refresh->edges_some)
 */
void
fixes_load_old_edges_changeable(FixesLoad *ld)
{
	CommitSet	s;
	FixesIdxRange *ranges;
	int64		nranges;

	if (ld->refresh == NULL || ld->refresh->old_edges_read)
		return;
	ld->refresh->old_edges_read = true;
	if (!ld->refresh->edges_some)
	{
		fixes_load_read_old_edges(ld);
		return;
	}
	ld->refresh->edges_of = fixes_palloc_big(Max(ld->n_old, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	set_init(&s, ld->n_old);
	/* the commits that moved, as fixing commits and as targets */
	for (int64 m = 0; m < ld->refresh->nmoved; m++)
		set_add(&s, ld->refresh->moved[m]);
	if (!too_many(ld, s.count))
	{
		ranges = ranges_of(s.has, ld->n_old, true, &nranges);
		add_fixing_of_targets(ld, &s, ranges, nranges);
		if (ranges != NULL)
			pfree(ranges);
	}
	if (!too_many(ld, s.count))
	{
		Datum		new_ids = new_ids_array(ld);

		add_unsettled(ld, &s, new_ids);
		if (!too_many(ld, s.count) && !add_prefixes_scanned(ld, &s))
			add_prefixes_of_new(ld, &s, new_ids);
	}
	for (int o = 0; o < ld->edge_overrides->n; o++)
		set_add(&s, fixes_graph_lookup(ld->graph, &ld->edge_overrides->rows[o].fixing));
	if (too_many(ld, s.count))
		read_rest(ld, "more than a quarter of the commits changed");
	else
		read_set(ld, &s);
	pfree(s.has);
}

/*
 * After the resolution: the old edges that the counts computed again read
 * (fixes_count_releases_needed()), those of the commits of the releases
 * counted, and those into them or into a commit whose count of fixes may
 * have changed
 */
void
fixes_load_old_edges_counted(FixesLoad *ld)
{
	const bool *count;
	CommitSet	t;
	FixesIdxRange *ranges;
	int64		nranges;

	if (ld->refresh == NULL || !ld->refresh->edges_some)
		return;
	count = fixes_count_releases_needed(ld);
	if (count == NULL)
	{
		read_rest(ld, "every release counted again");
		return;
	}
	set_init(&t, ld->n_old);
	for (uint32 i = 0; i < ld->n_old; i++)
	{
		if ((i & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		/* [0], the unreleased tail, is not stored */
		if (ld->mark[i] > 0 && count[ld->mark[i]])
			set_add(&t, i);
	}
	/* the targets of the edges that changed, before and now (fixes_fixed_commits) */
	for (int64 k = 0; k < ld->edge_list.n; k++)
	{
		const FixesEdge *e = &ld->edge_list.edges[k];

		if (e->old && fixes_resolution_equal(&e->now, &e->before))
			continue;
		if (e->now.status == EDGE_RESOLVED)
			set_add(&t, e->now.target);
		if (e->old && e->before.status == EDGE_RESOLVED)
			set_add(&t, e->before.target);
	}
	if (too_many(ld, t.count))
	{
		pfree(t.has);
		read_rest(ld, "more than a quarter of the commits counted again");
		return;
	}
	/* those commits as fixing commits, and the fixing commits of the edges into them */
	ranges = ranges_of(t.has, ld->n_old, true, &nranges);
	add_fixing_of_targets(ld, &t, ranges, nranges);
	if (ranges != NULL)
		pfree(ranges);
	if (too_many(ld, t.count))
		read_rest(ld, "more than a quarter of the commits counted again");
	else
		read_set(ld, &t);
	pfree(t.has);
}
