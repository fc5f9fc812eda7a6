/*
 * old_ids.c — a refresh: the ids of the old commits it needs, by probe
 *
 * A refresh's graph (graph_read.c) holds every commit of the previous load
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
 * Which old commits the new ones name comes from the refresh's own reader,
 * which walks `HEAD ^OLD`: asked with --list (at most
 * fixes.refresh_list_limit: 64 MB, about 29 bytes a new commit), it first
 * walks without sending and sends one 'L' record (reader/walk.c,
 * walk_hidden_list()): the commits it will send, with their committer
 * times, and their parents that it will not send.  Those parents are
 * looked up, with the listed commits that are not newer than every commit
 * of the previous load (fixes_repositories.last_committed_at): where clock
 * skew misleads it, the reader sends an old commit (it stops before it
 * reads the old one that reaches it), which the walk skips, as before.
 * The backend goes on reading the commits as they come, while the reader
 * compares their trees (with files).  When the list is longer than that
 * limit, or there are more ids to look up than reading them all would cost
 * (one per 128 old commits, and at least 1024), or the reader was not
 * kept, or the previous head is not among the commits found, every id is
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
#include "load_overrides.h"
#include "load_releases.h"
#include "refresh.h"
#include "reader_proc.h"
#include "spi_call.h"

/* the graph may be read without the ids of the previous load's commits */
bool
fixes_load_ids_may_be_sparse(const FixesLoad *ld)
{
	return ld->has.graph_releases && ld->known && ld->args.stable_re == NULL &&
		ld->prev.head != NULL && strlen(ld->prev.head) == FIXES_OID_HEXSZ;
}

/* ids to look up, each once */
typedef struct Wanted
{
	FixesGraph *set;			/* a graph used as a set of ids */
	const FixesGraph *have;		/* ... less those the load's graph knows */
} Wanted;

static void
want(Wanted *w, const FixesOid *oid)
{
	bool		found;

	if (fixes_graph_lookup(w->have, oid) == FIXES_NO_IDX)
		(void) fixes_graph_add(w->set, oid, &found);
}

/*
 * From the 'L' record: the parents the walk will not send, and the commits
 * it will send that are not newer than every commit of the previous load
 */
static void
want_listed(FixesLoad *ld, Wanted *w, const WireList *l)
{
	for (uint32 i = 0; i < l->m; i++)
		want(w, (const FixesOid *) (l->parents + (size_t) i * FIXES_OID_RAWSZ));
	for (uint32 i = 0; i < l->n; i++)
	{
		FixesOid	oid;
		int			has_time;
		int64		time;
		TimestampTz at;

		if ((i & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		wire_list_entry(l, i, &oid, &has_time, &time);
		if (!has_time || !fixes_time_to_timestamptz(time, &at) ||
			(ld->prev.newest_set && at <= ld->prev.newest_at))
			want(w, &oid);
	}
}

/* the refresh reader is asked for the 'L' record */
static bool
list_asked(const FixesLoad *ld)
{
	return fixes_load_ids_may_be_sparse(ld) && fixes_refresh_list_limit != 0;
}

/* the refresh reader's option for the 'L' record (main.c of the reader), NULL: none */
const char *
fixes_load_ids_list_option(const FixesLoad *ld)
{
	if (!list_asked(ld))
		return NULL;
	return psprintf("--list=%llu", (unsigned long long) fixes_refresh_list_limit * 1024);
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

		if (DatumGetInt32(SPI_getbinval(tup, desc, 3, &isnull)) != ld->repository_id)
			continue;
		/* stored state is input; from sparse_below on: the stable scope's rows */
		if (idx < 0)
			fixes_load_stored_bad(ld, "fixes_commits", "commit_idx is %d.", idx);
		if ((uint32) idx >= g->sparse_below)
			continue;
		hex = TextDatumGetCString(SPI_getbinval(tup, desc, 2, &isnull));
		if (!fixes_oid_parse_full(&oid, hex))
			fixes_load_stored_bad(ld, "fixes_commits", "Commit %d has a malformed id.", idx);
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
							   "(SELECT commit_idx, commit_id, repository_id FROM ONLY %s.fixes_commits "
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
	const unsigned char *payload;
	uint32		len;
	WireList	list;
	bool		many;

	if (g->sparse_below == 0)
		return;
	if (ld->ahead.reader == NULL || !list_asked(ld) ||
		!fixes_oid_parse_full(&old_head, ld->prev.head))
	{
		fixes_load_read_ids(ld);
		return;
	}
	fixes_reader_expect(ld->ahead.reader, WIRE_LIST, &payload, &len);
	if (wire_decode_list(payload, len, &list) != 0)
		fixes_reader_protocol_error(ld->ahead.reader, "The list record is malformed.");
	if (list.over)
	{
		elog(DEBUG1, "fixes_load %s: the list of the new commits is longer than fixes.refresh_list_limit (%d kB)",
			 ld->args.name, fixes_refresh_list_limit);
		fixes_load_read_ids(ld);
		return;
	}
	cxt = AllocSetContextCreate(CurrentMemoryContext, "fixes_load old ids", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	w.set = fixes_graph_create(cxt);
	w.have = g;
	want_listed(ld, &w, &list);
	/*
	 * The previous load's releases name their commits' ids, when every
	 * release is on the ref.  With release_tags 'all', a release off the ref
	 * stored its tag's commit (on a release branch, not in the graph) beside
	 * the commit_idx of an entry point into the ref's history: that id is not
	 * the entry point's, and put here it would resolve an abbreviation of the
	 * tag's commit to the entry point (the refresh fuzzer's seed 24).  The
	 * ids of the release tags' commits are looked up below like any other.
	 */
	for (int i = 0; !ld->releases->all && i < ld->refresh->n_old_releases; i++)
		if (ld->refresh->old_releases[i].id_valid && ld->refresh->old_releases[i].commit < g->n)
			fixes_graph_put(g, &ld->refresh->old_releases[i].id, ld->refresh->old_releases[i].commit);
	want(&w, &old_head);
	want(&w, &ld->head);
	for (int t = 0; t < ld->releases->ntags; t++)
		if (fixes_load_is_release(ld, ld->releases->tags[t].name))
			want(&w, &ld->releases->tags[t].commit);
	for (int o = 0; o < ld->edge_overrides->n; o++)
	{
		want(&w, &ld->edge_overrides->rows[o].fixing);
		if (ld->edge_overrides->rows[o].has_target)
			want(&w, &ld->edge_overrides->rows[o].target);
	}
	/*
	 * One probe costs what reading 128 stored ids does: past that many, every id
	 * is read (a rewritten history, or a merge of many commits dated before
	 * the previous load's newest)
	 */
	many = w.set->n > Max(1024, g->sparse_below / 128);
	if (!many)
		probe_ids(ld, w.set);
	elog(DEBUG1, "fixes_load %s: %u new commits listed, %u ids %s, %u of the previous load's commits known",
		 ld->args.name, list.n, w.set->n, many ? "to look up: too many" : "looked up", g->nhashed);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	/* the walk hides the previous head: without it, the walk would need every id */
	if (many || fixes_load_old_head(ld) == FIXES_NO_IDX)
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
								   "(SELECT commit_idx, commit_id, repository_id FROM ONLY %s.fixes_commits "
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
	idx = fixes_palloc_big(sizeof(uint32) * Max(2 * ld->edge_list.n, 1), MCXT_ALLOC_HUGE);
	for (int64 k = 0; k < ld->edge_list.n; k++)
	{
		const FixesEdge *e = &ld->edge_list.edges[k];

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
			fixes_load_stored_bad(ld, "fixes_commits", "Commit %u has no row.", idx);
	}
	return &g->oids[idx];
}
