/*
 * load_ids.c — a refresh: the ids of the old commits it needs, by probe
 *
 * A refresh's graph (load_graph.c) holds every commit of the previous load
 * with its parents, but the ids of only those of the rows it may write
 * again: at 1.3M commits, reading and hashing the other 26 MB of ids was
 * half of what a daily refresh spent reading the graph.  The refresh needs
 * the index of a few old commits by id (the parents of its new commits,
 * the commits of the new release tags (fixes_releases has the old ones'
 * ids) and of fixes_overrides, the previous and the new head) and the id
 * of a few by index (the targets of the edges it
 * writes, the rows of fixes_fixed_commits it writes): each set is looked
 * up in fixes_commits in one query, through fixes_commits_commit_id_idx
 * and the primary key, and put into the graph's id map
 * (fixes_graph_put()).
 *
 * The parents come from the refresh's own reader, which walks `HEAD ^OLD`
 * already: the rest of its stream is read ahead into the backend's buffer
 * (fixes_reader_peek_rest(), at most fixes.refresh_read_ahead: 64 MB), and the parents
 * its commit records name that it does not send are looked up, with the
 * commits it sends that are not newer than every commit of the previous
 * load (fixes_repositories.last_committed_at): where clock skew misleads
 * it, it sends an old commit, which the walk skips, as before.  When the stream is longer than that, or the
 * reader was not kept, or the previous head is not among them, every id is
 * read as before (fixes_load_read_ids()): the graph is then whole.
 *
 * Only the mainline of a database at 1.2 SQL (the index on commit_id of
 * 1.1, last_committed_at), without stable_branches, is read this way: the stable scope
 * looks up mainline commits by id throughout.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "commit_fields.h"
#include "commit_raw.h"
#include "load_state.h"
#include "reader_proc.h"
#include "spi_call.h"

/* the graph may be read without the ids of the previous load's commits */
bool
fixes_load_ids_may_be_sparse(const FixesLoad *ld)
{
	return fixes_has_v12(ld) && ld->known && ld->stable_re == NULL &&
		ld->old_head != NULL && strlen(ld->old_head) == FIXES_OID_HEXSZ;
}

/* ids to look up, each once */
typedef struct Wanted
{
	FixesGraph *set;			/* a graph used as a set of ids */
	FixesGraph *sent;			/* the commits of the stream */
	FixesGraph *parents;		/* ... and their parents */
	const FixesGraph *have;		/* ... less those the load's graph knows */
	bool		old_newest_set;	/* the newest committer date of the */
	TimestampTz old_newest_at;	/* previous load's commits (1.2) */
} Wanted;

static void
want(Wanted *w, const FixesOid *oid)
{
	bool		found;

	if (fixes_graph_lookup(w->have, oid) == FIXES_NO_IDX)
		(void) fixes_graph_add(w->set, oid, &found);
}

/*
 * A 'C' record of the stream read ahead: its commit, and its parents
 * (those that are not sent, after it, are old).  The commit itself is
 * looked up unless it is newer than every commit of the previous load: an
 * old commit is sent where clock skew misleads the reader (walk_hidden() in
 * reader/walk.c), and then only one of that date or older.
 */
static void
want_record(char type, const unsigned char *payload, uint32 len, void *arg)
{
	Wanted	   *w = arg;
	WireCommit	c;
	fixes_raw_commit raw;
	bool		found;
	TimestampTz at;

	if (type != WIRE_COMMIT || wire_decode_commit(payload, len, &c) != 0)
		return;					/* the walk reports what is malformed */
	(void) fixes_graph_add(w->sent, &c.oid, &found);
	if (fixes_raw_commit_parse(c.raw, c.raw_len, &raw) != 0 || (uint32) raw.nparents != c.nflags)
	{
		want(w, &c.oid);
		return;
	}
	if (!raw.committer.has_time || !fixes_time_to_timestamptz(raw.committer.time, &at) ||
		(w->old_newest_set && at <= w->old_newest_at))
		want(w, &c.oid);
	for (int i = 0; i < raw.nparents; i++)
	{
		FixesOid	poid;

		if (c.present[i] && fixes_oid_parse(&poid, fixes_raw_commit_parent(&raw, i)))
			(void) fixes_graph_add(w->parents, &poid, &found);
	}
}

/*
 * The rows of fixes_commits of this repository named in the query's result
 * (commit_idx, commit_id, repository_id) into the graph: those of the
 * previous load's mainline whose ids it lacks
 */
static void
put_found(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;

	for (uint64 r = 0; r < SPI_processed; r++)
	{
		HeapTuple	tup = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		int32		idx = DatumGetInt32(SPI_getbinval(tup, desc, 1, &isnull));
		char	   *hex;
		FixesOid	oid;

		if (DatumGetInt32(SPI_getbinval(tup, desc, 3, &isnull)) != ld->repository_id ||
			idx < 0 || (uint32) idx >= g->sparse_below)
			continue;
		hex = TextDatumGetCString(SPI_getbinval(tup, desc, 2, &isnull));
		if (!fixes_oid_parse_full(&oid, hex))
			elog(ERROR, "commit %d of repository \"%s\" has a malformed id", idx, ld->name);
		fixes_graph_put(g, &oid, (uint32) idx);
	}
	SPI_freetuptable(SPI_tuptable);
}

/* the old commits of the ids in set, by fixes_commits_commit_id_idx */
static void
probe_ids(FixesLoad *ld, const FixesGraph *set)
{
	Datum	   *elems;
	Oid			argtypes[1] = {TEXTARRAYOID};
	Datum		args[1];

	if (set->n == 0)
		return;
	elems = fixes_palloc_big(sizeof(Datum) * set->n, MCXT_ALLOC_HUGE);
	for (uint32 i = 0; i < set->n; i++)
		elems[i] = PointerGetDatum(fixes_oid_text(&set->oids[i]));
	args[0] = PointerGetDatum(construct_array(elems, (int) set->n, TEXTOID, -1, false, TYPALIGN_INT));
	/*
	 * one probe per id, whatever the statistics say; the rows of other
	 * repositories are dropped in put_found() (as in load_resolve.c)
	 */
	fixes_spi_execute(psprintf("SELECT c.commit_idx, c.commit_id, c.repository_id "
							   "FROM unnest($1) AS u(id) CROSS JOIN LATERAL "
							   "(SELECT commit_idx, commit_id, repository_id FROM %s.fixes_commits "
							   "WHERE commit_id = u.id OFFSET 0) AS c",
							   ld->schema),
					  1, argtypes, args, NULL, 0, SPI_OK_SELECT);
	put_found(ld);
}

/*
 * Before a refresh walks: the old commits it meets by id, into a sparse
 * graph, or every id when it cannot tell which (see the header comment)
 */
void
fixes_load_old_ids(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;
	Wanted		w;
	FixesOid	old_head;
	MemoryContext cxt;
	MemoryContext old;
	bool		whole;

	if (g->sparse_below == 0)
		return;
	if (ld->ahead == NULL || fixes_refresh_read_ahead == 0 ||
		!fixes_oid_parse_full(&old_head, ld->old_head))
	{
		fixes_load_read_ids(ld);
		return;
	}
	cxt = AllocSetContextCreate(CurrentMemoryContext, "fixes_load old ids", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	w.set = fixes_graph_create(cxt);
	w.sent = fixes_graph_create(cxt);
	w.parents = fixes_graph_create(cxt);
	w.have = g;
	w.old_newest_set = ld->old_newest_set;
	w.old_newest_at = ld->old_newest_at;
	whole = fixes_reader_peek_rest(ld->ahead, (size_t) fixes_refresh_read_ahead * 1024,
								   want_record, &w);
	if (whole)
	{
		for (uint32 i = 0; i < w.parents->n; i++)
			if (fixes_graph_lookup(w.sent, &w.parents->oids[i]) == FIXES_NO_IDX)
				want(&w, &w.parents->oids[i]);
		/* the previous load's releases name their commits' ids */
		for (int i = 0; i < ld->n_old_releases; i++)
			if (ld->old_releases[i].id_valid && ld->old_releases[i].commit < g->n)
				fixes_graph_put(g, &ld->old_releases[i].id, ld->old_releases[i].commit);
		want(&w, &old_head);
		want(&w, &ld->head);
		for (int t = 0; t < ld->ntags; t++)
			if (fixes_load_is_release(ld, ld->tags[t].name))
				want(&w, &ld->tags[t].commit);
		for (int o = 0; o < ld->noverrides; o++)
		{
			want(&w, &ld->overrides[o].fixing);
			if (ld->overrides[o].has_target)
				want(&w, &ld->overrides[o].target);
		}
		probe_ids(ld, w.set);
		elog(DEBUG1, "fixes_load %s: %u ids looked up, %u of the previous load's commits known",
			 ld->name, w.set->n, g->nhashed);
	}
	else
		elog(DEBUG1, "fixes_load %s: the new commits take more than fixes.refresh_read_ahead (%d kB)",
			 ld->name, fixes_refresh_read_ahead);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	/* the walk hides the previous head: without it, the walk would need every id */
	if (!whole || fixes_load_old_head(ld) == FIXES_NO_IDX)
		fixes_load_read_ids(ld);
}

/* the ids of the old commits idx[0 .. n - 1] that the graph lacks, by primary key */
static void
fetch_ids(FixesLoad *ld, const uint32 *idx, int64 n)
{
	Datum	   *elems = fixes_palloc_big(sizeof(Datum) * Max(n, 1), MCXT_ALLOC_HUGE);
	int64		m = 0;
	Oid			argtypes[2] = {INT4OID, INT4ARRAYOID};
	Datum		args[2];

	for (int64 i = 0; i < n; i++)
		if (!fixes_graph_known(ld->graph, idx[i]))
			elems[m++] = Int32GetDatum((int32) idx[i]);
	if (m > 0)
	{
		args[0] = Int32GetDatum(ld->repository_id);
		args[1] = PointerGetDatum(construct_array(elems, (int) m, INT4OID, sizeof(int32), true, TYPALIGN_INT));
		fixes_spi_execute(psprintf("SELECT c.commit_idx, c.commit_id, c.repository_id "
								   "FROM (SELECT DISTINCT idx FROM unnest($2) AS u(idx)) u CROSS JOIN LATERAL "
								   "(SELECT commit_idx, commit_id, repository_id FROM %s.fixes_commits "
								   "WHERE repository_id = $1 AND commit_idx = u.idx OFFSET 0) AS c",
								   ld->schema),
						  2, argtypes, args, NULL, 0, SPI_OK_SELECT);
		put_found(ld);
	}
	pfree(elems);
}

/*
 * Before the edges are written: the ids of the old commits that the rows
 * written name, the targets (before and now) of every edge that is new or
 * resolved differently (load_write_edges.c, and fixes_fixed_commits in
 * load_write_releases.c)
 */
void
fixes_load_fetch_edge_ids(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;
	uint32	   *idx;
	int64		n = 0;

	if (g->sparse_below == 0)
		return;
	idx = fixes_palloc_big(sizeof(uint32) * Max(2 * ld->nedges, 1), MCXT_ALLOC_HUGE);
	for (int64 k = 0; k < ld->nedges; k++)
	{
		const FixesEdge *e = &ld->edges[k];

		if (e->old && fixes_resolution_equal(&e->now, &e->before))
			continue;
		if (e->now.status == EDGE_RESOLVED && e->now.target < g->sparse_below)
			idx[n++] = e->now.target;
		if (e->old && e->before.status == EDGE_RESOLVED && e->before.target < g->sparse_below)
			idx[n++] = e->before.target;
	}
	fetch_ids(ld, idx, n);
	pfree(idx);
}

/* the id of commit idx, looked up if the graph lacks it */
const FixesOid *
fixes_load_oid(FixesLoad *ld, uint32 idx)
{
	FixesGraph *g = ld->graph;

	if (!fixes_graph_known(g, idx))
	{
		fetch_ids(ld, &idx, 1);
		if (!fixes_graph_known(g, idx))
			elog(ERROR, "commit %u of repository \"%s\" is not in fixes_commits", idx, ld->name);
	}
	return &g->oids[idx];
}
