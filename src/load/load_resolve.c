/*
 * load_resolve.c — fixes_load(): resolve each Fixes line to a commit
 *
 * A revert line ("This reverts commit <id>", 1.1) resolves the same way;
 * its subject is the one inside Revert "..." of the reverting commit's own
 * subject (load_read.c), NULL when that subject has another form.
 *
 * Against the commits in scope: a unique commit whose id starts with the
 * abbrev → resolved by hash; several → the one whose subject equals the
 * quoted subject, if exactly one → resolved by hash+subject, else
 * ambiguous; none → if the quoted subject equals the subject of exactly one
 * commit → resolved by subject, else not_found.
 *
 * Prefixes are looked up in one radix-sorted array of id keys
 * (oid_prefix.c).  Subjects are compared by a 64-bit hash kept per commit;
 * every hash match is then checked against the subject's text, fetched
 * from fixes_commits in one query, so the answer is exact.
 *
 * A refresh resolves again only the edges whose answer the new commits can
 * change (edges_to_resolve) and finds their candidates with the commit_id
 * index of fixes_commits instead of sorting every id; the caller writes only
 * the edges whose answer changed.
 *
 * The work is bounded: a line is compared with the subjects of at
 * most fixes.max_subject_candidates commits whose subject has its quoted
 * subject's hash (past that, it is not resolved by subject: more than one
 * commit has that subject, barring hash collisions, and a WARNING names
 * the commit), so the pairs to compare are at most that many per line;
 * every sort checks for interrupts (qsort_interruptible).
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "load_resolve.h"
#include "load_walk.h"
#include "refresh.h"
#include "spi_call.h"
#include "oid_prefix.h"

/* a quoted subject to look for among all commits: edges whose abbrev matched nothing */
typedef struct Wanted
{
	uint64		hash;
	int64		edge;
} Wanted;

/* an edge and a commit whose subject hash equals the edge's quoted subject's */
typedef struct Pair
{
	int64		edge;
	uint32		idx;
} Pair;

/* the text of a subject fetched from fixes_commits */
typedef struct Fetched
{
	uint32		idx;
	int32		len;
	char	   *s;
} Fetched;

typedef struct PairList
{
	Pair	   *pairs;
	int64		n;
	int64		cap;
} PairList;

static void
add_pair(PairList *pl, int64 edge, uint32 idx)
{
	if (pl->n == pl->cap)
	{
		pl->cap = pl->cap ? pl->cap * 2 : 1024;
		pl->pairs = pl->pairs ? repalloc_huge(pl->pairs, sizeof(Pair) * pl->cap)
			: fixes_palloc_big(sizeof(Pair) * pl->cap, MCXT_ALLOC_HUGE);
	}
	pl->pairs[pl->n].edge = edge;
	pl->pairs[pl->n].idx = idx;
	pl->n++;
}

static int
wanted_cmp(const void *a, const void *b, void *arg)
{
	uint64		x = ((const Wanted *) a)->hash;
	uint64		y = ((const Wanted *) b)->hash;

	return x < y ? -1 : x > y;
}

static int
fetched_cmp(const void *a, const void *b)
{
	uint32		x = ((const Fetched *) a)->idx;
	uint32		y = ((const Fetched *) b)->idx;

	return x < y ? -1 : x > y;
}

static int
fetched_cmp_arg(const void *a, const void *b, void *arg)
{
	return fetched_cmp(a, b);
}

static int
uint32_cmp_arg(const void *a, const void *b, void *arg)
{
	uint32		x = *(const uint32 *) a;
	uint32		y = *(const uint32 *) b;

	return x < y ? -1 : x > y;
}

static inline const char *
edge_subject(const FixesEdgeSet *es, const FixesEdge *e)
{
	return es->text + e->subj_off;
}

/* the commits lo .. hi - 1 of the graph, sorted by the first 8 bytes of their ids */
static fixes_prefix_entry *
sorted_prefixes(const FixesGraph *g, uint32 lo, uint32 hi)
{
	uint32		n = hi - lo;
	fixes_prefix_entry *entries = fixes_palloc_big(sizeof(fixes_prefix_entry) * Max(n, 1), MCXT_ALLOC_HUGE);
	fixes_prefix_entry *tmp = fixes_palloc_big(sizeof(fixes_prefix_entry) * Max(n, 1), MCXT_ALLOC_HUGE);

	for (uint32 i = 0; i < n; i++)
	{
		entries[i].key = fixes_prefix_key(g->oids[lo + i].id);
		entries[i].idx = lo + i;
	}
	fixes_prefix_sort(entries, tmp, n);
	pfree(tmp);
	return entries;
}

/*
 * A refresh: the edges to resolve again, and the candidates of each (the
 * commits whose id starts with its abbrev), from the index of commit ids.
 */
typedef struct Candidates
{
	bool	   *sel;			/* by edge: resolve it again */
	int64		nsel;
	int64	   *first;			/* by edge, + 1: its candidates are idx[first[k] .. first[k + 1]) */
	uint32	   *idx;
} Candidates;

/*
 * Which edges a refresh resolves again: the new ones, and each old one whose
 * answer the new commits can change, that is when a new commit's id starts
 * with its abbrev (another candidate) or a new commit's subject has the hash
 * of its quoted subject (another subject match).  Otherwise the old answer
 * stands: the commits it was decided among are all still in scope and
 * unchanged.  An edge that fixes_overrides decided is resolved again too, as
 * the overrides may have changed since (load_overrides.c applies them after).
 * NULL: resolve every edge (a full load, the stable scope: not refresh).
 */
static bool *
edges_to_resolve(FixesLoad *ld, const FixesEdgeSet *es, bool refresh, int64 *nsel)
{
	FixesGraph *g = ld->graph;
	uint32		nnew;
	fixes_prefix_entry *entries;
	uint64	   *hashes;
	bool	   *sel;

	*nsel = es->n;
	if (!refresh || ld->n_old == 0 || ld->n_old > g->n)
		return NULL;
	nnew = g->n - ld->n_old;
	entries = sorted_prefixes(g, ld->n_old, g->n);
	hashes = fixes_palloc_big(sizeof(uint64) * Max(nnew, 1), MCXT_ALLOC_HUGE);
	memcpy(hashes, ld->by_commit.subj_hash + ld->n_old, sizeof(uint64) * nnew);
	qsort(hashes, nnew, sizeof(uint64), fixes_uint64_cmp);

	sel = fixes_palloc_big(sizeof(bool) * Max(es->n, 1), MCXT_ALLOC_HUGE);
	*nsel = 0;
	for (int64 k = 0; k < es->n; k++)
	{
		FixesEdge  *e = &es->edges[k];
		size_t		first;

		sel[k] = !e->old ||
			e->before.status == EDGE_IGNORED || e->before.method == METHOD_OVERRIDE ||
			fixes_prefix_range(entries, nnew, es->text + e->abbrev_off,
							   e->abbrev_len, &first) > 0;
		if (!sel[k] && e->subj_len >= 0)
		{
			uint64		h = fixes_subject_hash(edge_subject(es, e), e->subj_len);

			sel[k] = bsearch(&h, hashes, nnew, sizeof(uint64), fixes_uint64_cmp) != NULL;
		}
		*nsel += sel[k];
	}
	pfree(entries);
	pfree(hashes);
	return sel;
}

/*
 * The candidates of the selected edges, from fixes_commits, which holds
 * every commit in scope by now (the new ones are written before edges are
 * resolved, the stable scope of the previous load is deleted): one range
 * scan of its index on commit_id per abbrev, [abbrev, abbrev || 'g') in
 * collation "C" (ids and abbrevs are lower-case hex), instead of sorting the
 * ids of every commit.  The rows of other repositories are dropped here, not
 * in SQL: before the table has statistics, a condition on repository_id is
 * planned as a scan of the primary key ANDed with each probe.
 */
static void
probe_candidates(FixesLoad *ld, const FixesEdgeSet *es, Candidates *c)
{
	Datum	   *abbrevs = palloc(sizeof(Datum) * Max(c->nsel, 1));
	Datum	   *edges = palloc(sizeof(Datum) * Max(c->nsel, 1));
	Oid			argtypes[2] = {TEXTARRAYOID, INT8ARRAYOID};
	Datum		args[2];
	int			n = 0;
	uint64		rows;
	int64		r = 0;
	int64		nc = 0;
	char	   *sql;

	for (int64 k = 0; k < es->n; k++)
		if (c->sel[k])
		{
			abbrevs[n] = PointerGetDatum(cstring_to_text_with_len(es->text + es->edges[k].abbrev_off,
																  es->edges[k].abbrev_len));
			edges[n++] = Int64GetDatum(k);
		}
	args[0] = PointerGetDatum(construct_array(abbrevs, n, TEXTOID, -1, false, TYPALIGN_INT));
	args[1] = PointerGetDatum(construct_array(edges, n, INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	sql = psprintf("SELECT u.k, c.commit_idx, c.repository_id FROM unnest($1, $2) AS u(a, k) "
				   "CROSS JOIN LATERAL (SELECT commit_idx, repository_id FROM ONLY %s.fixes_commits "
				   "WHERE commit_id >= (u.a COLLATE \"C\") AND commit_id < (u.a || 'g' COLLATE \"C\") "
				   "OFFSET 0) AS c ORDER BY u.k, c.commit_idx",
				   ld->schema);
	rows = fixes_spi_execute(sql, 2, argtypes, args, NULL, 0, SPI_OK_SELECT);
	c->first = fixes_palloc_big(sizeof(int64) * (es->n + 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	c->idx = fixes_palloc_big(sizeof(uint32) * Max(rows, 1), MCXT_ALLOC_HUGE);
	for (int64 k = 0; k < es->n; k++)
	{
		c->first[k] = nc;
		while (r < (int64) rows)
		{
			bool		isnull;
			HeapTuple	tup = SPI_tuptable->vals[r];
			TupleDesc	desc = SPI_tuptable->tupdesc;
			uint32		idx;

			if (DatumGetInt64(SPI_getbinval(tup, desc, 1, &isnull)) != k)
				break;
			r++;
			if (DatumGetInt32(SPI_getbinval(tup, desc, 3, &isnull)) != ld->repository_id)
				continue;
			idx = (uint32) DatumGetInt32(SPI_getbinval(tup, desc, 2, &isnull));
			if (idx >= ld->graph->n)
				fixes_load_stored_bad(ld, "fixes_commits", "commit_idx is %d, not in the graph.", (int32) idx);
			c->idx[nc++] = idx;
		}
	}
	c->first[es->n] = nc;
	SPI_freetuptable(SPI_tuptable);
	if (r != (int64) rows)
		elog(ERROR, "the candidates of %lld edges came out of order", (long long) c->nsel);
	pfree(abbrevs);
	pfree(edges);
}

/*
 * Pass 1: the commits whose id starts with each abbrev.  One candidate
 * settles the edge; for several, or none, remember which commits' subjects
 * must be compared with the quoted subject.
 */
static void
match_prefixes(FixesLoad *ld, const FixesEdgeSet *es, const Candidates *cand, PairList *pairs, Wanted *wanted, int64 *nwanted,
			   bool *over)
{
	FixesGraph *g = ld->graph;
	fixes_prefix_entry *entries = NULL;

	if (cand == NULL)
		entries = sorted_prefixes(g, 0, g->n);

	*nwanted = 0;
	for (int64 k = 0; k < es->n; k++)
	{
		FixesEdge  *e = &es->edges[k];
		const char *hex = es->text + e->abbrev_off;
		uint64		h;
		size_t		first;
		size_t		range;

		if ((k & 0xfff) == 0)
			CHECK_FOR_INTERRUPTS();
		if (cand != NULL && !cand->sel[k])
			continue;			/* keeps the answer it had */
		h = e->subj_len >= 0 ? fixes_subject_hash(edge_subject(es, e), e->subj_len) : 0;
		if (cand != NULL)
		{
			first = (size_t) cand->first[k];
			range = (size_t) (cand->first[k + 1] - cand->first[k]);
		}
		else
			range = fixes_prefix_range(entries, g->n, hex, e->abbrev_len, &first);
		e->now.candidates = 0;
		e->now.target = FIXES_NO_IDX;
		for (int pass = 0; pass < 2; pass++)
		{
			int			npairs = 0;

			for (size_t j = first; j < first + range; j++)
			{
				uint32		idx = cand != NULL ? cand->idx[j] : entries[j].idx;

				if ((j & 0xffff) == 0xffff)
					CHECK_FOR_INTERRUPTS();
				/* a probe's candidates start with the whole abbrev (probe_candidates()) */
				if (cand == NULL && e->abbrev_len > 16 &&
					!fixes_hex_prefix_matches(g->oids[idx].id, hex, e->abbrev_len))
					continue;
				if (pass == 1)
				{
					if (ld->by_commit.subj_hash[idx] != h)
						continue;
					if (npairs++ == fixes_max_subject_candidates)
					{
						over[k] = true;
						break;
					}
					add_pair(pairs, k, idx);
					continue;
				}
				e->now.candidates++;
				e->now.target = idx;
			}

			/*
			 * Several candidates: those whose subject has the quoted one's
			 * hash are compared (pass 3), with the hashes of every old
			 * commit read first.
			 */
			if (pass == 1 || e->now.candidates <= 1 || e->subj_len < 0)
				break;
			fixes_load_read_subject_hashes(ld);
		}
		if (e->now.candidates == 1)
		{
			e->now.status = EDGE_RESOLVED;
			e->now.method = METHOD_HASH;
			continue;
		}
		e->now.target = FIXES_NO_IDX;
		e->now.method = METHOD_NONE;
		e->now.status = e->now.candidates > 1 ? EDGE_AMBIGUOUS : EDGE_NOT_FOUND;
		if (e->now.candidates == 0 && e->subj_len >= 0)
		{
			wanted[*nwanted].hash = h;
			wanted[*nwanted].edge = k;
			(*nwanted)++;
		}
	}
	if (entries != NULL)
		pfree(entries);
}

/*
 * Pass 2: for edges whose abbrev matched nothing, every commit in scope with
 * the quoted subject's hash.
 */
static void
match_subjects(FixesLoad *ld, PairList *pairs, Wanted *wanted, int64 nwanted, bool *over)
{
	int32	   *seen;			/* by the first wanted of a hash: its commits so far */

	if (nwanted == 0)
		return;
	fixes_load_read_subject_hashes(ld);
	qsort_interruptible(wanted, nwanted, sizeof(Wanted), wanted_cmp, NULL);
	seen = fixes_palloc_big(sizeof(int32) * nwanted, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (uint32 i = 0; i < ld->graph->n; i++)
	{
		uint64		h = ld->by_commit.subj_hash[i];
		int64		a;

		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		a = fixes_subject_lower_bound(wanted, nwanted, sizeof(Wanted), h);
		if (a == nwanted || wanted[a].hash != h)
			continue;
		/* past the limit, the lines of this hash are not resolved by subject */
		if (seen[a]++ == fixes_max_subject_candidates)
		{
			for (; a < nwanted && wanted[a].hash == h; a++)
				over[wanted[a].edge] = true;
			continue;
		}
		if (seen[a] > fixes_max_subject_candidates)
			continue;
		for (; a < nwanted && wanted[a].hash == h; a++)
		{
			if ((a & 0xffff) == 0xffff)
				CHECK_FOR_INTERRUPTS();
			add_pair(pairs, wanted[a].edge, i);
		}
	}
	pfree(seen);
}

/*
 * Pass 3: the subjects of the commits named in pairs, from fixes_commits
 * (the new commits are written before edges are resolved).
 */
static Fetched *
fetch_subjects(FixesLoad *ld, PairList *pairs, int *nfetched)
{
	uint32	   *ids = fixes_palloc_big(sizeof(uint32) * Max(pairs->n, 1), MCXT_ALLOC_HUGE);
	Datum	   *elems;
	int			n = 0;
	Fetched    *out;
	char	   *sql;
	Oid			argtypes[2] = {INT4OID, INT4ARRAYOID};
	Datum		args[2];

	*nfetched = 0;
	if (pairs->n == 0)
		return NULL;
	for (int64 p = 0; p < pairs->n; p++)
		ids[p] = pairs->pairs[p].idx;
	qsort_interruptible(ids, pairs->n, sizeof(uint32), uint32_cmp_arg, NULL);
	for (int64 p = 0; p < pairs->n; p++)
		if (n == 0 || ids[n - 1] != ids[p])
			ids[n++] = ids[p];

	elems = palloc(sizeof(Datum) * n);
	for (int i = 0; i < n; i++)
		elems[i] = Int32GetDatum((int32) ids[i]);
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = PointerGetDatum(construct_array(elems, n, INT4OID, sizeof(int32), true, TYPALIGN_INT));
	/*
	 * One primary key probe per id, whatever the statistics say: a plain
	 * "commit_idx = ANY ($2)" may be planned as a filter over every commit
	 * of the repository, and a join may put fixes_commits outside.
	 */
	sql = psprintf("SELECT c.commit_idx, c.subject FROM unnest($2) AS u(idx) CROSS JOIN LATERAL "
				   "(SELECT commit_idx, subject FROM ONLY %s.fixes_commits "
				   "WHERE repository_id = $1 AND commit_idx = u.idx OFFSET 0) AS c",
				   ld->schema);
	fixes_spi_execute(sql, 2, argtypes, args, NULL, 0, SPI_OK_SELECT);

	out = palloc(sizeof(Fetched) * Max(SPI_processed, 1));
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		bool		isnull;
		HeapTuple	tup = SPI_tuptable->vals[r];
		text	   *t = DatumGetTextPP(SPI_getbinval(tup, SPI_tuptable->tupdesc, 2, &isnull));

		out[r].idx = (uint32) DatumGetInt32(SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &isnull));
		out[r].len = VARSIZE_ANY_EXHDR(t);
		out[r].s = pnstrdup(VARDATA_ANY(t), out[r].len);
	}
	*nfetched = (int) SPI_processed;
	SPI_freetuptable(SPI_tuptable);
	if ((int) *nfetched != n)
		fixes_load_stored_bad(ld, "fixes_commits", "%d of the rows of %d commits found.", *nfetched, n);
	qsort_interruptible(out, *nfetched, sizeof(Fetched), fetched_cmp_arg, NULL);
	pfree(ids);
	return out;
}

/*
 * Pass 4: decide the edges that depend on a subject, counting the commits
 * whose subject really equals the quoted one.
 */
static void
decide_by_subject(FixesLoad *ld, const FixesEdgeSet *es, PairList *pairs, Fetched *fetched, int nfetched, const bool *over)
{
	int32	   *matches = fixes_palloc_big(sizeof(int32) * Max(es->n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	uint32	   *match = fixes_palloc_big(sizeof(uint32) * Max(es->n, 1), MCXT_ALLOC_HUGE);

	for (int64 p = 0; p < pairs->n; p++)
	{
		FixesEdge  *e = &es->edges[pairs->pairs[p].edge];
		Fetched		key = {.idx = pairs->pairs[p].idx};
		Fetched    *f;

		if ((p & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		f = bsearch(&key, fetched, nfetched, sizeof(Fetched), fetched_cmp);
		if (f != NULL && f->len == e->subj_len &&
			memcmp(f->s, edge_subject(es, e), f->len) == 0)
		{
			matches[pairs->pairs[p].edge]++;
			match[pairs->pairs[p].edge] = f->idx;
		}
	}
	for (int64 k = 0; k < es->n; k++)
	{
		FixesEdge  *e = &es->edges[k];

		if (e->now.status == EDGE_RESOLVED || matches[k] != 1 || over[k])
			continue;			/* an edge kept as it was has no pair */
		e->now.status = EDGE_RESOLVED;
		e->now.method = e->now.candidates > 1 ? METHOD_HASH_SUBJECT : METHOD_SUBJECT;
		e->now.target = match[k];
	}
	pfree(matches);
	pfree(match);
}

/*
 * A WARNING for each commit with lines matched by more commits than
 * fixes.max_subject_candidates (a commit's edges are next to each other).
 */
static void
warn_over(FixesLoad *ld, const FixesEdgeSet *es, const bool *over)
{
	int64		n = 0;

	for (int64 k = 0; k < es->n; k++)
	{
		if ((k & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		n += over[k];
		if (n > 0 && (k + 1 == es->n || es->edges[k + 1].fixing != es->edges[k].fixing))
		{
			fixes_limit_warn(&ld->limit_hits, FIXES_LIMIT_SUBJECT_CANDIDATES,
							 fixes_load_oid(ld, es->edges[k].fixing), (long long) n);
			n = 0;
		}
	}
}

/*
 * Resolve the edges of es (a helper of the read phase's resolution below
 * and of the stable phase, load_stable.c), against every commit of the
 * graph.  refresh: only the edges whose answer the new commits can change
 * (the mainline of a refresh); the others keep theirs.
 */
void
fixes_resolve_edges(FixesLoad *ld, FixesEdgeSet *es, bool refresh)
{
	PairList	pairs = {0};
	Wanted	   *wanted = fixes_palloc_big(sizeof(Wanted) * Max(es->n, 1), MCXT_ALLOC_HUGE);
	int64		nwanted;
	Fetched    *fetched;
	int			nfetched;
	Candidates	cand = {0};
	bool	   *over = fixes_palloc_big(sizeof(bool) * Max(es->n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	cand.sel = edges_to_resolve(ld, es, refresh, &cand.nsel);
	if (cand.sel != NULL)
		probe_candidates(ld, es, &cand);
	match_prefixes(ld, es, cand.sel ? &cand : NULL, &pairs, wanted, &nwanted, over);
	match_subjects(ld, &pairs, wanted, nwanted, over);
	warn_over(ld, es, over);
	fetched = fetch_subjects(ld, &pairs, &nfetched);
	elog(DEBUG1, "fixes_load %s: %lld edges, %lld resolved again, %lld abbrevs matching nothing with a subject, %lld subject comparisons, %d subjects fetched",
		 ld->args.name, (long long) es->n, (long long) cand.nsel, (long long) nwanted,
		 (long long) pairs.n, nfetched);
	decide_by_subject(ld, es, &pairs, fetched, nfetched, over);
	pfree(wanted);
	pfree(over);
	if (cand.sel != NULL)
	{
		pfree(cand.sel);
		pfree(cand.first);
		pfree(cand.idx);
	}
}


/* the resolve phase: the mainline's edges */
void
fixes_load_resolve(FixesLoad *ld)
{
	FixesEdgeSet es = {ld->edge_list.edges, ld->edge_list.n, ld->edge_list.text.data};

	fixes_resolve_edges(ld, &es, ld->refresh != NULL);
}

/*
 * The counts fixes_load returns and fixes_repositories keeps: the Fixes
 * edges (not the revert edges, not those fixes_overrides ignores), and the
 * resolved ones among them.
 */
void
fixes_load_count_resolved(FixesLoad *ld)
{
	/*
	 * A refresh that read only some old edges (refresh/old_edges.c): the
	 * previous load's counts, less what the old edges read counted then,
	 * plus what every edge read counts now
	 */
	bool		some = ld->refresh != NULL && ld->refresh->edges_some;

	ld->totals.edges = some ? ld->prev.edges : 0;
	ld->totals.resolved = some ? ld->prev.resolved : 0;
	for (int64 k = 0; k < ld->edge_list.n; k++)
	{
		FixesEdge  *e = &ld->edge_list.edges[k];

		if (e->kind != KIND_FIXES)
			continue;
		if (some && e->old && e->before.status != EDGE_IGNORED)
		{
			ld->totals.edges--;
			ld->totals.resolved -= e->before.status == EDGE_RESOLVED;
		}
		if (e->now.status == EDGE_IGNORED)
			continue;
		ld->totals.edges++;
		ld->totals.resolved += e->now.status == EDGE_RESOLVED;
	}
}
