/*
 * kept_counts.c — a refresh: the counts by difference
 *
 * load_count.c counts every release of a full load.  A refresh computes
 * only the releases that it changes and keeps the counts the previous load
 * stored of the others (fixes_releases' counts, 1.2); the per-release
 * trailer counts change by the old commits that moved or whose fixing
 * changed (load_trailer_counts.c).
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/memutils.h"

#include "big_alloc.h"
#include "count_rules.h"
#include "load_state.h"
#include "load_count.h"
#include "load_releases.h"
#include "refresh.h"

/* the release an old commit had in the previous load, as this load's rank; 0: none or gone */
static inline int32
old_rank_now(const FixesLoad *ld, uint32 idx)
{
	int32		was = fixes_old_mark(ld, idx);

	return was == 0 ? 0 : ld->refresh->old_to_new_rank[was];
}

/*
 * A refresh: the releases whose counts it must compute, by rank (true), or
 * NULL to compute them all.  The others keep the counts the previous load
 * stored (ld->refresh->old_stats): none of their commits moved, and every edge from
 * or into them is as it was.  A release must be computed when it is new,
 * holds a commit that is new or moved, or is the release (now or before)
 * of the fixing commit or the target of an edge that is new, resolves
 * otherwise, or has a commit that moved; but where only the fixing commit
 * moved, the target's release only when the edge counts otherwise there
 * (a new tag that releases the unreleased tail moves the fixes in it, whose
 * targets are in every release: "fixed later" holds for them either way).
 */
static bool *
releases_to_count(FixesLoad *ld, int *ncount)
{
	uint32		n = ld->graph->n;
	bool	   *count;
	uint8	   *moved;
	bool	   *kept;

	*ncount = ld->releases->n;
	if (ld->refresh == NULL || ld->refresh->old_stats == NULL ||
		(ld->refresh->old_mark == NULL && ld->refresh->moved_bits == NULL) ||
		ld->refresh->old_to_new_rank == NULL)
		return NULL;
	count = palloc0(sizeof(bool) * (ld->releases->n + 1));
	kept = palloc0(sizeof(bool) * (ld->releases->n + 1));
	/* the releases of the previous load that are still releases */
	for (int w = 1; w <= ld->refresh->n_old_releases; w++)
		if (ld->refresh->old_to_new_rank[w] != 0)
			kept[ld->refresh->old_to_new_rank[w]] = true;
	for (int r = 1; r <= ld->releases->n; r++)
		count[r] = !kept[r];
	pfree(kept);
	/* the commits that are new or moved, and their releases */
	moved = fixes_palloc_big(Max(n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int64 m = 0; m < ld->refresh->nmoved; m++)
	{
		uint32		i = ld->refresh->moved[m];

		moved[i] = 1;
		count[ld->mark[i]] = true;
		count[old_rank_now(ld, i)] = true;
	}
	for (uint32 i = ld->n_old; i < n; i++)
	{
		moved[i] = 1;
		count[ld->mark[i]] = true;
	}
	/* the edges that changed */
	for (int64 k = 0; k < ld->edge_list.n; k++)
	{
		FixesEdge  *e = &ld->edge_list.edges[k];
		bool		now_resolved = e->now.status == EDGE_RESOLVED;
		bool		before_resolved = e->old && e->before.status == EDGE_RESOLVED;

		if ((k & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (e->old && fixes_resolution_equal(&e->now, &e->before) &&
			!(now_resolved && moved[e->now.target]))
		{
			if (!moved[e->fixing])
				continue;
			/*
			 * Only the fixing commit moved (e.g. a fix in the unreleased tail
			 * that a new tag releases): its releases, before and now, count
			 * again; the target's release only if the edge counts otherwise
			 * there ("introduced in R and fixed later" is the one rule of
			 * the target's release that reads the fixing commit's release).
			 * A fixing commit whose old release is gone: the rule below.
			 */
			if (e->fixing < ld->n_old &&
				(fixes_old_mark(ld, e->fixing) == 0 || old_rank_now(ld, e->fixing) != 0))
			{
				int32		before = old_rank_now(ld, e->fixing);
				int32		now = ld->mark[e->fixing];

				count[before] = true;
				count[now] = true;
				if (now_resolved &&
					fixes_rule_introduced(before, ld->mark[e->now.target]) !=
					fixes_rule_introduced(now, ld->mark[e->now.target]))
					count[ld->mark[e->now.target]] = true;
				continue;
			}
		}
		count[ld->mark[e->fixing]] = true;
		if (now_resolved)
			count[ld->mark[e->now.target]] = true;
		if (e->old && e->fixing < ld->n_old)
			count[old_rank_now(ld, e->fixing)] = true;
		if (before_resolved && e->before.target < ld->n_old)
			count[old_rank_now(ld, e->before.target)] = true;
	}
	pfree(moved);
	*ncount = 0;
	for (int r = 1; r <= ld->releases->n; r++)
		*ncount += count[r];
	return count;
}

/*
 * The releases a refresh computes the counts of (releases_to_count()), by
 * rank, once: a refresh that reads only some old edges (old_edges.c)
 * reads those of these releases' commits; NULL: every release.  Only the
 * edges that changed (resolved otherwise, or whose commits moved) decide
 * it, and those are in memory by then.
 */
const bool *
fixes_count_releases_needed(FixesLoad *ld)
{
	int			ncount;

	if (ld->refresh == NULL)
		return NULL;
	if (!ld->refresh->count_needed_set)
	{
		MemoryContext old = MemoryContextSwitchTo(ld->cxt);

		ld->refresh->count_needed = releases_to_count(ld, &ncount);
		ld->refresh->count_needed_set = true;
		MemoryContextSwitchTo(old);
		if (ld->refresh->count_needed != NULL)
			elog(DEBUG1, "fixes_load %s: counts of %d of %d releases computed, the others kept",
				 ld->args.name, ncount, ld->releases->n);
	}
	return ld->refresh->count_needed;
}

/* the releases that count does not compute: their counts as stored */
void
fixes_refresh_kept_counts(FixesLoad *ld, const bool *count)
{
	for (int w = 1; w <= ld->refresh->n_old_releases; w++)
	{
		int			r = ld->refresh->old_to_new_rank[w];

		if (r != 0 && !count[r])
			ld->counts->stats[r] = ld->refresh->old_stats[w];
	}
}

/* a refresh: the old commits whose release or whose fixing changed */
bool *
fixes_count_trailers_changed(FixesLoad *ld, const bool *fixing_before, const bool *fixing_now)
{
	bool	   *changed = fixes_palloc_big(Max(ld->n_old, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	for (int64 m = 0; m < ld->refresh->nmoved; m++)
		changed[ld->refresh->moved[m]] = true;
	for (uint32 i = 0; i < ld->n_old; i++)
		if (fixing_before[i] != fixing_now[i])
			changed[i] = true;
	return changed;
}

/* the tag id of an old commit's release in the previous load; 0: unreleased */
uint32
fixes_count_old_tag(const FixesLoad *ld, uint32 idx)
{
	int32		was = fixes_old_mark(ld, idx);

	if (was == 0)
		return 0;
	if (ld->refresh->old_to_new_rank[was] != 0)
		return (uint32) ld->refresh->old_to_new_rank[was];
	return (uint32) (ld->releases->n + was);
}
