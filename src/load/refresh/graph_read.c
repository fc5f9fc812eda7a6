/*
 * graph_read.c — a refresh: fixes_graph, the commit graph of the previous
 * load, read back (load_graph.c writes it)
 *
 * A refresh must know every commit already loaded (to stop the walk
 * there), their parents (to assign releases and to notice a rewritten
 * history) and their subjects (to resolve Fixes lines by subject).  Reading
 * that back from fixes_commits would scan the messages too, so the graph is
 * also kept compact in fixes_graph (its layout: load_graph.c).  A refresh
 * reads the rows without the ids of the commits when old_ids.c can look
 * them up, and the parents of only the rows that hold an unreleased commit
 * when the releases are stored; the rest on demand.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "graph_rows.h"
#include "load_state.h"
#include "refresh.h"
#include "spi_call.h"
#include "release_marking.h"
#include "toast_copy.h"

/* the Cc: stable bits of a chunk row's commits, from first on */
static void
read_stable_cc(FixesLoad *ld, HeapTuple tup, TupleDesc desc, uint32 first, uint32 commits)
{
	bool		isnull;
	Datum		d = SPI_getbinval(tup, desc, 8, &isnull);
	bytea	   *bits = DatumGetByteaPP(d);
	const uint8 *b = (const uint8 *) VARDATA_ANY(bits);

	Assert(!isnull && VARSIZE_ANY_EXHDR(bits) == (commits + 7) / 8);
	for (uint32 i = 0; i < commits; i++)
		ld->by_commit.stable_cc[first + i] = (b[i / 8] >> (i % 8)) & 1;
	if ((Pointer) bits != DatumGetPointer(d))
		pfree(bits);
}

/*
 * The parents of the rows tt->vals[rows[k]] (chunk chunks[k] of fixes_graph,
 * parent counts in column counts_col, parents in parents_col) into the
 * graph, all at once (toast_copy.c); false if a row's counts do not add up
 * to its parents or a parent is not an old commit.
 */
static bool
read_parents(FixesLoad *ld, SPITupleTable *tt, int counts_col, int parents_col,
			 const uint32 *rows, const uint32 *chunks, int nrows)
{
	FixesGraph *g = ld->graph;
	TupleDesc	desc = tt->tupdesc;
	uint32	   *first = palloc(sizeof(uint32) * (ld->refresh->graph_nrows + 1));
	uint64		ncommits = 0;
	uint64		nparents = 0;
	uint32	   *counts;
	uint32	   *parents;
	FixesToastCopy *copies = palloc(sizeof(FixesToastCopy) * 2 * Max(nrows, 1));
	int			ncopies = 0;
	uint64		c = 0;
	uint64		p = 0;
	bool		ok = true;

	first[0] = 0;
	for (int32 r = 0; r < ld->refresh->graph_nrows; r++)
		first[r + 1] = first[r] + ld->refresh->graph_rows[r];
	for (int k = 0; k < nrows; k++)
	{
		ncommits += ld->refresh->graph_rows[chunks[k]];
		nparents += fixes_chunk_length(tt->vals[rows[k]], desc, parents_col) / sizeof(uint32);
	}
	if (nparents >= PG_UINT32_MAX - g->npar)
		return false;
	counts = fixes_palloc_big(sizeof(uint32) * Max(ncommits, 1), MCXT_ALLOC_HUGE);
	parents = fixes_graph_parents_room(g, nparents);
	for (int k = 0; k < nrows; k++)
	{
		HeapTuple	tup = tt->vals[rows[k]];
		uint32		commits = ld->refresh->graph_rows[chunks[k]];
		Size		parents_len = fixes_chunk_length(tup, desc, parents_col);

		if (fixes_chunk_length(tup, desc, counts_col) != (Size) commits * sizeof(uint32) ||
			parents_len % sizeof(uint32) != 0)
			return false;
		fixes_chunk_copy_to(&copies[ncopies++], tup, desc, counts_col, counts + c, (Size) commits * sizeof(uint32));
		fixes_chunk_copy_to(&copies[ncopies++], tup, desc, parents_col, parents + p, parents_len);
		c += commits;
		p += parents_len / sizeof(uint32);
	}
	fixes_toast_copy(copies, ncopies);

	/* each row's parent counts must add up to its parent links, each an old commit */
	c = p = 0;
	for (int k = 0; ok && k < nrows; k++)
	{
		uint32		commits = ld->refresh->graph_rows[chunks[k]];
		uint64		total = 0;

		CHECK_FOR_INTERRUPTS();
		for (uint32 i = 0; i < commits; i++)
			total += counts[c + i];
		ok = total * sizeof(uint32) == fixes_chunk_length(tt->vals[rows[k]], desc, parents_col);
		for (uint64 q = p; ok && q < p + total; q++)
			ok = parents[q] < first[ld->refresh->graph_nrows];
		if (ok)
			fixes_graph_append_parents(g, first[chunks[k]], counts + c, NULL, commits);
		ld->refresh->graph_row_parents[chunks[k]] = ok;
		c += commits;
		p += total;
	}
	pfree(counts);
	pfree(copies);
	pfree(first);
	return ok;
}

/*
 * Which rows' parents a refresh reads: all of them, unless the previous
 * load stored the release of each commit and nothing but the release
 * marking reads the parents of old commits: no stable scope, whose marking
 * walks the whole graph, and a previous head to tell a rewritten history
 * by (fixes_load_graph_covers_scope(), which reads the rest without one).
 * Then the rows with an unreleased commit, which a new release may reach,
 * and the last rows short of CHUNK_COMMITS, which the refresh writes again:
 * 2 rows of 20 for a daily refresh of make-history at 1.3M commits.  The
 * rest is read (fixes_load_read_parents_rest()) when a release came before
 * an old one, or an old one moved.  With the stored releases, the
 * unreleased old commits are listed (ld->refresh->stored.unreleased).
 */
static int
rows_with_parents(FixesLoad *ld, bool marks, int32 tail, uint32 *rows)
{
	int			n = 0;
	uint32		lo = 0;
	uint32		cap = 0;

	ld->refresh->parents_some = marks && ld->args.stable_re == NULL && ld->prev.head != NULL;
	ld->refresh->stored.nunreleased = 0;
	for (int32 r = 0; r < ld->refresh->graph_nrows; r++)
	{
		uint32		hi = lo + ld->refresh->graph_rows[r];
		bool		want = !ld->refresh->parents_some || r >= tail;

		CHECK_FOR_INTERRUPTS();
		/* the unreleased old commits, the only ones a new release can move */
		for (uint32 i = lo; marks && i < hi; i++)
		{
			if (ld->refresh->stored.mark[i] != 0)
				continue;
			if (ld->refresh->stored.nunreleased == cap)
			{
				cap = Max(cap * 2, 1024);
				ld->refresh->stored.unreleased = ld->refresh->stored.unreleased == NULL ?
					palloc_extended(sizeof(uint32) * cap, MCXT_ALLOC_HUGE) :
					repalloc_huge(ld->refresh->stored.unreleased, sizeof(uint32) * cap);
			}
			ld->refresh->stored.unreleased[ld->refresh->stored.nunreleased++] = i;
			want = true;
		}
		if (want)
			rows[n++] = r;
		lo = hi;
	}
	return n;
}

/*
 * The chunk rows into the graph; false if they do not fit together.  Their
 * columns are copied straight into the arrays where they go (ids, subject
 * hashes, releases, parents), all at once (toast_copy.c): at 1.3M commits
 * they are 48 MB stored out of line, most of their TOAST table.
 */
static bool
read_chunks(FixesLoad *ld, SPITupleTable *tt, uint64 nrows, bool sparse)
{
	FixesGraph *g = ld->graph;
	TupleDesc	desc = tt->tupdesc;
	uint64		ncommits = 0;
	FixesToastCopy *copies;
	uint64		c = 0;
	int			ncopies = 0;
	uint64		tail;
	bool		marks = ld->has.graph_releases;
	uint32	   *rows;
	int			nwant;

	Assert(g->n == 0);
	/* the rows in order, and their columns of the sizes their commits make */
	for (uint64 r = 0; r < nrows; r++)
	{
		HeapTuple	tup = tt->vals[r];
		bool		isnull;
		int32		format = DatumGetInt32(SPI_getbinval(tup, desc, 1, &isnull));
		int32		chunk = DatumGetInt32(SPI_getbinval(tup, desc, 2, &isnull));
		int32		commits = DatumGetInt32(SPI_getbinval(tup, desc, 3, &isnull));

		if (format != SNAPSHOT_FORMAT || chunk != (int32) r || commits <= 0 ||
			commits > CHUNK_COMMITS ||
			fixes_chunk_length(tup, desc, 4) != (Size) commits * FIXES_OID_RAWSZ ||
			fixes_chunk_length(tup, desc, 5) != (Size) commits * sizeof(uint64))
			return false;
		/* a graph written before 1.2 has no bitmap: the next load is a full one */
		if (ld->has.graph_releases && fixes_chunk_length(tup, desc, 8) != ((Size) commits + 7) / 8)
			return false;
		/* the releases of its commits: written by every load since this column came */
		if (marks && fixes_chunk_length(tup, desc, 9) != (Size) commits * sizeof(int32))
			marks = false;
		ncommits += commits;
	}
	if (ncommits >= PG_UINT32_MAX / 4)
		return false;

	/*
	 * The commits of each row, and the last rows short of CHUNK_COMMITS: a
	 * refresh may write those again, so their subject hashes are read now
	 */
	ld->refresh->graph_rows = palloc(sizeof(uint32) * Max(nrows, 1));
	ld->refresh->graph_nrows = (int32) nrows;
	ld->refresh->graph_row_parents = palloc0(sizeof(bool) * Max(nrows, 1));
	for (uint64 r = 0; r < nrows; r++)
	{
		bool		isnull;

		ld->refresh->graph_rows[r] = (uint32) DatumGetInt32(SPI_getbinval(tt->vals[r], desc, 3, &isnull));
	}
	tail = nrows;
	while (tail > 0 && ld->refresh->graph_rows[tail - 1] < CHUNK_COMMITS)
		tail--;
	ld->refresh->subj_from = (uint32) ncommits;
	ld->refresh->subj_rows = (int32) nrows;

	if (sparse)
		fixes_graph_reserve_room(g, (uint32) ncommits, true);
	else
		fixes_graph_reserve(g, (uint32) ncommits);
	fixes_load_ensure_room(ld, (uint32) ncommits - 1);
	if (marks)
	{
		/* as much room as the graph has, for the new commits' marks (load_releases.c) */
		ld->refresh->stored.cap = g->cap;
		ld->refresh->stored.mark = fixes_palloc_big(sizeof(int32) * ld->refresh->stored.cap, MCXT_ALLOC_HUGE);
	}
	copies = palloc(sizeof(FixesToastCopy) * 3 * Max(nrows, 1));
	for (uint64 r = 0; r < nrows; r++)
	{
		HeapTuple	tup = tt->vals[r];
		uint32		commits = ld->refresh->graph_rows[r];

		if (!sparse)
			fixes_chunk_copy_to(&copies[ncopies++], tup, desc, 4, g->oids + c, (Size) commits * FIXES_OID_RAWSZ);
		/* the subject hashes of the rows a refresh may write again */
		if (r == tail)
		{
			ld->refresh->subj_from = (uint32) c;
			ld->refresh->subj_rows = (int32) r;
		}
		if (r >= tail)
			fixes_chunk_copy_to(&copies[ncopies++], tup, desc, 5, &ld->by_commit.subj_hash[c], (Size) commits * sizeof(uint64));
		if (marks)
			fixes_chunk_copy_to(&copies[ncopies++], tup, desc, 9, ld->refresh->stored.mark + c, (Size) commits * sizeof(int32));
		c += commits;
	}
	fixes_toast_copy(copies, ncopies);
	pfree(copies);

	/* the commits, each row's Cc: stable bits, then the parents of the rows that need them */
	c = 0;
	for (uint64 r = 0; r < nrows; r++)
	{
		uint32		commits = ld->refresh->graph_rows[r];

		if ((r & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (ld->has.graph_releases)
			read_stable_cc(ld, tt->vals[r], desc, (uint32) c, commits);
		if (sparse)
			fixes_graph_append_unhashed(g, commits);
		else
			fixes_graph_append_unique(g, (const unsigned char *) (g->oids + g->n), commits);
		c += commits;
	}
	/*
	 * The parent lists of the rows not read are left unset, not zeroed:
	 * touching that much new memory is costly in a large history.  Nothing
	 * reads them: their commits are all released, so the marking stops at
	 * them (fixes_load_releases()); covers_scope() reads the new commits'
	 * parents; the rows written again are read; the stable scope and every
	 * other marking read every row (fixes_load_read_parents_rest()).
	 */
	rows = palloc(sizeof(uint32) * Max(nrows, 1));
	nwant = rows_with_parents(ld, marks, (int32) tail, rows);
	if (!read_parents(ld, tt, 6, 7, rows, rows, nwant))
		return false;
	if (ld->refresh->parents_some)
		elog(DEBUG1, "fixes_load %s: parents of %d of %d fixes_graph rows read",
			 ld->args.name, nwant, (int) nrows);
	pfree(rows);
	return true;
}

/*
 * Load the graph of the previous load into ld->graph.  Returns false (and
 * leaves a graph to be thrown away) when there is none to build on: a first
 * load, a load that missed parents (a shallow clone, which may since have
 * been deepened), or a snapshot that does not read back whole.  sparse:
 * without the ids of its commits, which the caller looks up (old_ids.c).
 */
bool
fixes_load_read_graph(FixesLoad *ld, bool sparse)
{
	char	   *sql;
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};
	FixesGraph *g = ld->graph;
	bool		ok = true;

	if (!ld->prev.usable)
		return false;

	sql = psprintf("SELECT format, chunk, commits, ids, subject_hashes, parent_counts, parents%s "
				   "FROM ONLY %s.fixes_graph WHERE repository_id = $1 ORDER BY chunk",
				   ld->has.graph_releases ? ", stable_cc, releases" : "", ld->schema);
	fixes_spi_execute(sql, 1, argtypes, args, NULL, 0, SPI_OK_SELECT);
	if (SPI_processed == 0)
		ok = false;
	else
	{
		/* the previous load's commits, and room for a few more */
		MemoryContext old = MemoryContextSwitchTo(ld->cxt);
		/* as many as the rows can hold at most (old_commits is stored state too) */
		int64		most = Min(ld->prev.commits, (int64) SPI_processed * CHUNK_COMMITS);
		uint32		n = (uint32) Min(most + most / 16 + 1024, PG_UINT32_MAX / 4);

		if (sparse)
			fixes_graph_reserve_room(g, n, true);
		else
			fixes_graph_reserve(g, n);
		fixes_load_ensure_room(ld, n - 1);
		MemoryContextSwitchTo(old);
	}
	if (ok)
	{
		MemoryContext old = MemoryContextSwitchTo(ld->cxt);

		ok = read_chunks(ld, SPI_tuptable, SPI_processed, sparse);
		MemoryContextSwitchTo(old);
	}
	SPI_freetuptable(SPI_tuptable);

	/* the graph holds the previous load's mainline commits (fixes_repositories.commits) */
	if (ok && g->n != (uint32) ld->prev.commits)
		ok = false;
	if (!ok)
	{
		ereport(NOTICE,
				(errmsg("the stored graph of repository \"%s\" is unusable; loading it in full",
						ld->args.name)));
		return false;
	}
	ld->n_old = g->n;
	return true;
}

/*
 * The parents of the rows that fixes_load_read_graph() left unread (it
 * reads only some when the releases are stored): for a marking of every
 * release, when the releases of the old commits may change otherwise than
 * by a new release reaching unreleased ones.
 */
void
fixes_load_read_parents_rest(FixesLoad *ld)
{
	uint32	   *chunks;
	int			n = 0;
	Datum		args[2];
	Oid			argtypes[2] = {INT4OID, INT4ARRAYOID};
	uint32	   *rows;
	bool		ok;
	MemoryContext old;

	if (ld->refresh == NULL || !ld->refresh->parents_some)
		return;
	ld->refresh->parents_some = false;
	chunks = palloc(sizeof(uint32) * Max(ld->refresh->graph_nrows, 1));
	for (int32 r = 0; r < ld->refresh->graph_nrows; r++)
		if (!ld->refresh->graph_row_parents[r])
			chunks[n++] = r;
	elog(DEBUG1, "fixes_load %s: parents of the other %d fixes_graph rows read", ld->args.name, n);
	if (n == 0)
		return;
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = fixes_spi_int4_array(chunks, n);
	fixes_spi_execute(psprintf("SELECT chunk, commits, parent_counts, parents FROM ONLY %s.fixes_graph "
							   "WHERE repository_id = $1 AND chunk = ANY ($2) ORDER BY chunk",
							   ld->schema),
					  2, argtypes, args, NULL, 0, SPI_OK_SELECT);
	ok = SPI_processed == (uint64) n;
	rows = palloc(sizeof(uint32) * Max(n, 1));
	for (int k = 0; ok && k < n; k++)
	{
		bool		isnull;
		HeapTuple	tup = SPI_tuptable->vals[k];

		rows[k] = k;
		ok = DatumGetInt32(SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &isnull)) == (int32) chunks[k] &&
			DatumGetInt32(SPI_getbinval(tup, SPI_tuptable->tupdesc, 2, &isnull)) ==
			(int32) ld->refresh->graph_rows[chunks[k]];
	}
	old = MemoryContextSwitchTo(ld->cxt);
	if (ok)
		ok = read_parents(ld, SPI_tuptable, 3, 4, rows, chunks, n);
	MemoryContextSwitchTo(old);
	if (!ok)
		fixes_load_stored_bad(ld, "fixes_graph", "Its rows do not read back as they did at the start of the load.");
	SPI_freetuptable(SPI_tuptable);
	pfree(rows);
	pfree(chunks);
}

/*
 * Column col (width bytes a commit) of the fixes_graph rows lo_row ..
 * hi_row - 1 that fixes_load_read_graph() read, into dest, an array by
 * commit index: the commits of those rows up to limit.  Those rows are as
 * read before (a load rewrites the graph from the last rows on).  Returns
 * the first commit of row lo_row.
 */
static uint32
read_graph_column(FixesLoad *ld, const char *col, Size width, int32 lo_row, int32 hi_row,
				  char *dest, uint32 limit)
{
	Oid			argtypes[3] = {INT4OID, INT4OID, INT4OID};
	Datum		args[3];
	FixesToastCopy *copies;
	SPITupleTable *tt;
	uint32		first = 0;
	uint64		c;
	MemoryContext old;

	for (int32 r = 0; r < lo_row; r++)
		first += ld->refresh->graph_rows[r];
	c = first;
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = Int32GetDatum(lo_row);
	args[2] = Int32GetDatum(hi_row);
	fixes_spi_execute(psprintf("SELECT chunk, commits, %s FROM ONLY %s.fixes_graph "
							   "WHERE repository_id = $1 AND chunk >= $2 AND chunk < $3 ORDER BY chunk",
							   col, ld->schema),
					  3, argtypes, args, NULL, 0, SPI_OK_SELECT);
	tt = SPI_tuptable;
	old = MemoryContextSwitchTo(ld->cxt);
	copies = palloc(sizeof(FixesToastCopy) * Max(SPI_processed, 1));
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		bool		isnull;
		int32		chunk = DatumGetInt32(SPI_getbinval(tt->vals[r], tt->tupdesc, 1, &isnull));
		int32		commits = DatumGetInt32(SPI_getbinval(tt->vals[r], tt->tupdesc, 2, &isnull));

		if (chunk != lo_row + (int32) r || commits <= 0 ||
			commits != (int32) ld->refresh->graph_rows[chunk] || c + (uint64) commits > limit ||
			fixes_chunk_length(tt->vals[r], tt->tupdesc, 3) != (Size) commits * width)
			fixes_load_stored_bad(ld, "fixes_graph", "Its rows do not read back as they did at the start of the load.");
		fixes_chunk_copy_to(&copies[r], tt->vals[r], tt->tupdesc, 3, dest + c * width,
							(Size) commits * width);
		c += commits;
	}
	if (SPI_processed != (uint64) (hi_row - lo_row))
		fixes_load_stored_bad(ld, "fixes_graph", "Its rows do not read back as they did at the start of the load.");
	fixes_toast_copy(copies, (int) SPI_processed);
	MemoryContextSwitchTo(old);
	pfree(copies);
	SPI_freetuptable(tt);
	return first;
}

/*
 * The subject hashes of the previous load's commits that
 * fixes_load_read_graph() left in fixes_graph (those of every row but the
 * last).  Only a Fixes line whose abbrev names several commits, or none,
 * compares them: most refreshes never read them.
 */
void
fixes_load_read_subject_hashes(FixesLoad *ld)
{
	if (ld->refresh == NULL || ld->refresh->subj_from == 0)
		return;
	elog(DEBUG1, "fixes_load %s: subject hashes of %u commits read", ld->args.name, ld->refresh->subj_from);
	(void) read_graph_column(ld, "subject_hashes", sizeof(uint64), 0, ld->refresh->subj_rows,
							 (char *) ld->by_commit.subj_hash, ld->refresh->subj_from);
	ld->refresh->subj_from = 0;
}

/*
 * The ids of the commits of fixes_graph rows lo_row .. hi_row - 1 of a
 * sparse graph (fixes_load_read_graph() reads none), into the id map
 * (hashed all at once when they are every row)
 */
void
fixes_load_read_ids_rows(FixesLoad *ld, int32 lo_row, int32 hi_row)
{
	FixesGraph *g = ld->graph;
	uint32		first = read_graph_column(ld, "ids", FIXES_OID_RAWSZ, lo_row, hi_row,
										  (char *) g->oids, g->sparse_below);
	uint32		end = first;

	for (int32 r = lo_row; r < hi_row; r++)
		end += ld->refresh->graph_rows[r];
	if (lo_row == 0 && hi_row == ld->refresh->graph_nrows && g->n == g->sparse_below)
		fixes_graph_hash_all(g);
	else
	{
		/* put() skips the ids it knows, which the copy wrote again, the same */
		for (uint32 i = first; i < end; i++)
		{
			FixesOid	oid = g->oids[i];

			if ((i & 0xffff) == 0xffff)
				CHECK_FOR_INTERRUPTS();
			fixes_graph_put(g, &oid, i);
		}
	}
}

/*
 * Every id of a sparse graph, read after all: a refresh that cannot tell
 * which it needs (old_ids.c)
 */
void
fixes_load_read_ids(FixesLoad *ld)
{
	if (ld->graph->sparse_below == 0)
		return;
	elog(DEBUG1, "fixes_load %s: ids of %u commits read", ld->args.name, ld->graph->sparse_below);
	fixes_load_read_ids_rows(ld, 0, ld->refresh->graph_nrows);
}

/*
 * The graph index of the previous load's head, FIXES_NO_IDX if it has none:
 * the previous load walked that head's history, and the graph holds exactly
 * that history.
 */
uint32
fixes_load_old_head(FixesLoad *ld)
{
	FixesOid	old;
	uint32		idx;

	if (ld->prev.head == NULL || !fixes_oid_parse(&old, ld->prev.head))
		return FIXES_NO_IDX;
	idx = fixes_graph_lookup(ld->graph, &old);
	return idx < ld->n_old ? idx : FIXES_NO_IDX;
}

/*
 * The commit a refresh's walk hides (the reader finds the old commits the
 * walk meets): the previous head, NULL when the graph does not hold it
 */
const FixesOid *
fixes_refresh_walk_hide(FixesLoad *ld)
{
	uint32		old_head = fixes_load_old_head(ld);
	FixesOid   *hide;

	if (old_head == FIXES_NO_IDX)
		return NULL;
	hide = palloc(sizeof(FixesOid));
	*hide = ld->graph->oids[old_head];
	return hide;
}

/*
 * Are all commits of the previous load still reachable from the new head?
 * If not, the history was rewritten (or the ref changed) and the caller
 * loads in full.  They are when the previous head is reachable, which all
 * of them are from; and a path from the new head to the previous one runs
 * through new commits only (an old commit reaches no descendant of the
 * previous head), so it is the new head, or the parent of a new commit.
 */
bool
fixes_load_graph_covers_scope(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;
	int32	   *mark;
	uint32	   *stack;
	uint32		head;
	uint32		old_head = fixes_load_old_head(ld);
	bool		covered = true;

	if (ld->n_old == 0)
		return true;
	if (ld->empty)
		return false;
	head = fixes_graph_lookup(g, &ld->head);
	if (old_head != FIXES_NO_IDX)
	{
		if (head == old_head)
			return true;
		for (uint32 i = ld->n_old; i < g->n; i++)
			for (uint32 k = g->par_start[i]; k < g->par_end[i]; k++)
				if (g->parents[k] == old_head)
					return true;
		return false;
	}
	/* no previous head to go by: is every old commit reachable? */
	fixes_load_read_parents_rest(ld);
	mark = fixes_palloc_big(sizeof(int32) * g->n, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	stack = fixes_palloc_big(sizeof(uint32) * g->n, MCXT_ALLOC_HUGE);
	fixes_mark_releases(g->n, g->par_start, g->par_end, g->parents, &head, 1, mark, stack);
	for (uint32 i = 0; covered && i < ld->n_old; i++)
		covered = mark[i] != 0;
	pfree(stack);
	pfree(mark);
	return covered;
}

