/*
 * load_lifetimes.c — fixes_load(): the lifetimes behind fixes_lifetime_per_release (1.1)
 *
 * The lifetime of a bug is the committer date of the commit that fixed it
 * minus that of the commit it names (a resolved Fixes edge), in days.  Per
 * release R: the median and the 90th percentile of the lifetimes of the
 * edges from commits of R into earlier releases (those bugs_fixed counts),
 * and the median of those into commits of R from later releases or
 * unreleased commits (those bugs_introduced counts).  Aggregating every edge
 * at query time takes seconds at a million commits, so each load computes
 * them from the edges it holds and stores them in fixes_releases, exactly as
 * SQL's percentile_cont and EXTRACT(epoch FROM fixed_at - introduced_at) /
 * 86400 would give them, to the last bit (lifetime_days.c).  With 1.2, per
 * release R, the edges into R that the median counts whose lifetime is at
 * most 365 (730) days: the view shows them once the newest commit is that
 * many days past R's release, when every such fix can have been made.
 */
#include "postgres.h"

#include <math.h>

#include "datatype/timestamp.h"
#include "miscadmin.h"

#include "lifetime_days.h"
#include "load_state.h"

/* the windows of found_within_365d and found_within_730d, in microseconds */
#define WITHIN_365D ((int64) 365 * USECS_PER_DAY)
#define WITHIN_730D ((int64) 730 * USECS_PER_DAY)

/* for each rank: the percentiles of its group of v (sorted), into ld->stats */
static void
per_release(FixesLoad *ld, FixesLifetime *v, int64 n, bool fixed)
{
	int64		i = 0;

	fixes_lifetime_sort(v, n, (uint32) ld->nreleases + 1);
	while (i < n)
	{
		int64		j = i;
		FixesReleaseStats *st = &ld->stats[v[i].group];

		while (j < n && v[j].group == v[i].group)
			j++;
		if (fixed)
		{
			st->fixed_median_days = fixes_percentile_cont(&v[i], j - i, 0.5);
			st->fixed_p90_days = fixes_percentile_cont(&v[i], j - i, 0.9);
		}
		else
			st->introduced_median_days = fixes_percentile_cont(&v[i], j - i, 0.5);
		i = j;
	}
}

/*
 * After fixes_load_stats: the lifetimes per release.  The date of a target
 * is the one stored with an old edge whose target did not change, else the
 * commit's (read by this load, or fetched by fixes_load_fetch_target_times).
 */
void
fixes_load_lifetimes(FixesLoad *ld)
{
	FixesLifetime *fixed = fixes_palloc_big(sizeof(FixesLifetime) * Max(ld->nedges, 1), MCXT_ALLOC_HUGE);
	FixesLifetime *introduced = fixes_palloc_big(sizeof(FixesLifetime) * Max(ld->nedges, 1), MCXT_ALLOC_HUGE);
	int64		nfixed = 0,
				nintroduced = 0;

	for (int r = 0; r <= ld->nreleases; r++)
	{
		ld->stats[r].fixed_median_days = NAN;
		ld->stats[r].fixed_p90_days = NAN;
		ld->stats[r].introduced_median_days = NAN;
	}
	if (!fixes_has_v11(ld))
		return;
	for (int64 k = 0; k < ld->nedges; k++)
	{
		FixesEdge  *e = &ld->edges[k];
		uint32		t = e->now.target;
		int32		fr,
					tr;
		bool		t_null;
		TimestampTz t_at;
		double		days;

		if ((k & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (e->kind != KIND_FIXES || e->now.status != EDGE_RESOLVED || e->fixed_at_null)
			continue;
		fr = ld->mark[e->fixing];
		tr = ld->mark[t];
		if (tr == 0 || (fr != 0 && fr <= tr))
			continue;			/* neither fixed in a later release nor introduced in R */
		if (e->old && t == e->before.target)
		{
			t_null = e->introduced_null;
			t_at = e->introduced_at;
		}
		else
		{
			t_null = ld->committed_null[t];
			t_at = ld->committed_at[t];
		}
		if (t_null)
			continue;
		days = fixes_sql_days(e->fixed_at - t_at);
		if (fr != 0)
		{
			fixed[nfixed].group = fr;
			fixed[nfixed++].days = days;
		}
		introduced[nintroduced].group = tr;
		introduced[nintroduced++].days = days;
		/* 1.2: the bugs of R found within a year, and two (NULL in the view until observable) */
		if (e->fixed_at - t_at <= WITHIN_365D)
			ld->stats[tr].found_within_365d++;
		if (e->fixed_at - t_at <= WITHIN_730D)
			ld->stats[tr].found_within_730d++;
	}
	per_release(ld, fixed, nfixed, true);
	per_release(ld, introduced, nintroduced, false);
	pfree(fixed);
	pfree(introduced);
}
