/*
 * load_count.c — fixes_load(): the counting module, every count the loader stores
 *
 * load_count.h has the map: per mainline release (fixes_releases, with the
 * lifetimes), per commit that resolved edges point at (fixes_fixed_commits),
 * per release and trailer key (fixes_release_trailers), per MAINTAINERS
 * section and path prefix (fixes_subsystem_counts, fixes_path_prefix_counts)
 * and per stable release (its backports, and from the series rows of
 * fixes_affected its bugs fixed, regressions and known bugs).  Each is
 * computed from the edges in memory and the release of each commit (the
 * stable ones: from the backport lines and the series rows load_stable.c
 * finds), by the rules of load_count.h, and handed to its writer.  The definitions (README, "Semantics") count
 * resolved edges only.  Every count of 1.0 is a count of Fixes edges (kind
 * 'fixes'); revert edges count in reverts and reverted_introduced only, and
 * an edge that fixes_overrides ignores counts nowhere.
 *
 * Lifetimes: the committer date of the fixing commit minus that of the
 * commit it names, in days, exactly as SQL's percentile_cont over
 * EXTRACT(epoch FROM fixed_at - introduced_at) / 86400 gives them, to the
 * last bit (lifetime_days.c).  Aggregating every edge at query time takes
 * seconds at a million commits, so each load stores them.
 */
#include "postgres.h"

#include <math.h>
#include <stddef.h>

#include "datatype/timestamp.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#include "lifetime_days.h"
#include "load_count.h"
#include "load_releases.h"
#include "load_trailer_keys.h"
#include "refresh.h"

/* ---- per mainline release ---- */

/* what the per-release counts note of a commit */
#define FIXING			0x01	/* it has a resolved Fixes edge */
#define INTRODUCED		0x02	/* one points at it from a later release, or unreleased */
#define TAGGED			0x04	/* it has a Fixes line that counts */
#define FIXING_EARLIER	0x08	/* one of its resolved edges points at an earlier release */

/* the windows of found_within_365d and found_within_730d, in microseconds */
#define WITHIN_365D ((int64) 365 * USECS_PER_DAY)
#define WITHIN_730D ((int64) 730 * USECS_PER_DAY)

bool
fixes_edge_lifetime(const FixesLoad *ld, const FixesEdge *e, int64 *usecs)
{
	uint32		t = e->now.target;
	bool		t_null;
	TimestampTz t_at;

	/* the date stored with an old edge whose target did not change, else the commit's */
	if (e->old && t == e->before.target)
	{
		t_null = e->introduced_null;
		t_at = e->introduced_at;
	}
	else
	{
		t_null = ld->by_commit.committed_null[t];
		t_at = ld->by_commit.committed_at[t];
	}
	if (t_null || e->fixed_at_null)
		return false;
	*usecs = e->fixed_at - t_at;
	return true;
}

/*
 * The commits that resolved Fixes edges point at, from the keys
 * (target << 32 | edge) of those edges, sorted: one entry per target, in
 * index order.  Sparse (about a tenth of the commits of a kernel-shaped
 * history), where arrays by index took 24 bytes for every commit, and a
 * refresh zeroed them all.
 */
static void
fixed_commits(FixesLoad *ld, uint64 *keys, int64 nkeys)
{
	int64		n = 0;

	fixes_sort_uint64(keys, nkeys);
	ld->counts->fixed = fixes_palloc_big(sizeof(FixesFixedCommit) * Max(nkeys, 1), MCXT_ALLOC_HUGE);
	for (int64 p = 0; p < nkeys; p++)
	{
		uint32		t = (uint32) (keys[p] >> 32);
		const FixesEdge *e = &ld->edge_list.edges[keys[p] & PG_UINT32_MAX];
		FixesFixedCommit *c;

		if ((p & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (n > 0 && ld->counts->fixed[n - 1].commit == t)
			c = &ld->counts->fixed[n - 1];
		else
		{
			c = &ld->counts->fixed[n++];
			c->commit = t;
			c->fixes = 0;
			c->dated = false;
		}
		c->fixes++;
		if (e->fixed_at_null)
			continue;
		if (!c->dated || e->fixed_at < c->first)
			c->first = e->fixed_at;
		if (!c->dated || e->fixed_at > c->last)
			c->last = e->fixed_at;
		c->dated = true;
	}
	ld->counts->nfixed = n;
}

static int
fixed_commit_cmp(const void *a, const void *b)
{
	uint32		x = *(const uint32 *) a;
	uint32		y = ((const FixesFixedCommit *) b)->commit;

	return x < y ? -1 : x > y;
}

/* the entry of commit t among ld->counts->fixed, NULL if no resolved edge points at it */
const FixesFixedCommit *
fixes_load_fixed_commit(const FixesLoad *ld, uint32 t)
{
	return bsearch(&t, ld->counts->fixed, ld->counts->nfixed, sizeof(FixesFixedCommit), fixed_commit_cmp);
}

/* for each rank: the percentiles of its group of v (sorted), into ld->counts->stats */
static void
lifetimes_per_release(FixesLoad *ld, FixesLifetime *v, int64 n, bool fixed)
{
	int64		i = 0;

	fixes_lifetime_sort(v, n, (uint32) ld->releases->n + 1);
	while (i < n)
	{
		int64		j = i;
		FixesReleaseStats *st = &ld->counts->stats[v[i].group];

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

#define STAT(field, days, version) {#field, offsetof(FixesReleaseStats, field), days, version}
const FixesStatColumn fixes_release_stat_columns[] = {
	STAT(fixing_commits, false, 10),
	STAT(bugs_fixed, false, 10),
	STAT(commits_fixed, false, 10),
	STAT(bugs_introduced, false, 10),
	STAT(buggy_commits_introduced, false, 10),
	STAT(fixed_same_release, false, 10),
	STAT(tagged_commits, false, 11),
	STAT(fixing_earlier_commits, false, 11),
	STAT(reverts, false, 11),
	STAT(reverted_introduced, false, 11),
	STAT(fixed_median_days, true, 11),
	STAT(fixed_p90_days, true, 11),
	STAT(introduced_median_days, true, 11),
	STAT(stable_cc_commits, false, 12),
	STAT(stable_cc_fixing_commits, false, 12),
	STAT(found_within_365d, false, 12),
	STAT(found_within_730d, false, 12),
};
#undef STAT
const int	fixes_release_nstat_columns = lengthof(fixes_release_stat_columns);

/*
 * After the edges are resolved and the dates of their targets fetched
 * (fixes_load_fetch_target_times): the counts of fixes_per_release and the
 * lifetimes of fixes_lifetime_per_release into ld->counts->stats (by rank; [0] is
 * the unreleased tail), and the commits resolved edges point at into
 * ld->counts->fixed.  A refresh computes only the releases that it changes
 * (releases_to_count()) and keeps the stored counts of the others; the
 * edges and commits are counted by the same rules either way, those of the
 * releases kept into a scratch row that is thrown away.
 */
void
fixes_count_releases(FixesLoad *ld)
{
	uint32		n = ld->graph->n;
	int32	   *mark = ld->mark;
	/* per commit: FIXING, INTRODUCED, TAGGED, FIXING_EARLIER */
	uint8	   *flags = fixes_palloc_big(Max(n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	uint64	   *fixed_pairs = fixes_palloc_big(sizeof(uint64) * Max(ld->edge_list.n, 1), MCXT_ALLOC_HUGE);
	uint64	   *target_keys = fixes_palloc_big(sizeof(uint64) * Max(ld->edge_list.n, 1), MCXT_ALLOC_HUGE);
	FixesLifetime *life_fixed = NULL;
	FixesLifetime *life_introduced = NULL;
	int64		nlife_fixed = 0,
				nlife_introduced = 0;
	int64		npairs = 0;
	int64		nkeys = 0;
	bool		lifetimes = ld->has.release_lifetimes;
	const bool *count = fixes_count_releases_needed(ld);
	FixesReleaseStats scratch;

/* the counts of release r, or the scratch row when r keeps its stored ones */
#define STATS(r) (count == NULL || count[r] ? &ld->counts->stats[r] : &scratch)
#define COUNTED(r) (count == NULL || count[r])

	/* an edge's position goes in the low half of its key */
	if (ld->edge_list.n > (int64) PG_UINT32_MAX)
		elog(ERROR, "too many Fixes lines in repository \"%s\"", ld->args.name);
	ld->counts->stats = palloc0(sizeof(FixesReleaseStats) * (ld->releases->n + 1));
	for (int r = 0; r <= ld->releases->n; r++)
	{
		ld->counts->stats[r].fixed_median_days = NAN;
		ld->counts->stats[r].fixed_p90_days = NAN;
		ld->counts->stats[r].introduced_median_days = NAN;
	}
	if (lifetimes)
	{
		life_fixed = fixes_palloc_big(sizeof(FixesLifetime) * Max(ld->edge_list.n, 1), MCXT_ALLOC_HUGE);
		life_introduced = fixes_palloc_big(sizeof(FixesLifetime) * Max(ld->edge_list.n, 1), MCXT_ALLOC_HUGE);
	}

	for (int64 k = 0; k < ld->edge_list.n; k++)
	{
		FixesEdge  *e = &ld->edge_list.edges[k];
		uint32		f = e->fixing;
		uint32		t = e->now.target;
		int32		fr,
					tr;
		int64		usecs;
		double		days;

		if ((k & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (e->now.status == EDGE_IGNORED)
			continue;			/* counts nowhere */
		fr = mark[f];
		if (e->kind == KIND_FIXES)
			flags[f] |= TAGGED;
		if (e->now.status != EDGE_RESOLVED)
			continue;
		tr = mark[t];
		if (e->kind == KIND_REVERT)
		{
			/* reverts count in their own two columns only */
			if (fr > 0)
				STATS(fr)->reverts++;
			if (fixes_rule_introduced(fr, tr))
				STATS(tr)->reverted_introduced++;
			continue;
		}
		flags[f] |= FIXING;
		target_keys[nkeys++] = ((uint64) t << 32) | (uint64) k;
		if (fixes_rule_fixed_earlier(fr, tr))
		{
			STATS(fr)->bugs_fixed++;
			if (COUNTED(fr))
				fixed_pairs[npairs++] = ((uint64) fr << 32) | t;
			flags[f] |= FIXING_EARLIER;
		}
		if (fixes_rule_same_release(fr, tr))
			STATS(fr)->fixed_same_release++;
		if (!fixes_rule_introduced(fr, tr))
			continue;
		STATS(tr)->bugs_introduced++;
		flags[t] |= INTRODUCED;
		/* lifetimes: of the bugs fixed in R and of those introduced in R */
		if (!lifetimes || !(COUNTED(fr) || COUNTED(tr)) || !fixes_edge_lifetime(ld, e, &usecs))
			continue;
		days = fixes_sql_days(usecs);
		if (fr != 0 && COUNTED(fr))
		{
			life_fixed[nlife_fixed].group = fr;
			life_fixed[nlife_fixed++].days = days;
		}
		if (!COUNTED(tr))
			continue;
		life_introduced[nlife_introduced].group = tr;
		life_introduced[nlife_introduced++].days = days;
		/* the bugs of R found within a year, and two (NULL in the view until observable) */
		if (usecs <= WITHIN_365D)
			ld->counts->stats[tr].found_within_365d++;
		if (usecs <= WITHIN_730D)
			ld->counts->stats[tr].found_within_730d++;
	}
	for (uint32 i = 0; i < n; i++)
	{
		int32		r = mark[i];

		if ((i & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (r == 0 || !COUNTED(r))
			continue;
		/* the commits of a release with a Cc: stable line, and of those the fixing ones */
		if (ld->by_commit.stable_cc[i])
		{
			ld->counts->stats[r].stable_cc_commits++;
			if (flags[i] & FIXING)
				ld->counts->stats[r].stable_cc_fixing_commits++;
		}
		if (flags[i] == 0)
			continue;
		if (flags[i] & FIXING)
			ld->counts->stats[r].fixing_commits++;
		if (flags[i] & INTRODUCED)
			ld->counts->stats[r].buggy_commits_introduced++;
		if (flags[i] & TAGGED)
			ld->counts->stats[r].tagged_commits++;
		if (flags[i] & FIXING_EARLIER)
			ld->counts->stats[r].fixing_earlier_commits++;
	}
	/* commits_fixed: distinct (release, target) among the bugs fixed */
	fixes_sort_uint64(fixed_pairs, npairs);
	for (int64 p = 0; p < npairs; p++)
		if (p == 0 || fixed_pairs[p] != fixed_pairs[p - 1])
			ld->counts->stats[fixed_pairs[p] >> 32].commits_fixed++;
	if (lifetimes)
	{
		lifetimes_per_release(ld, life_fixed, nlife_fixed, true);
		lifetimes_per_release(ld, life_introduced, nlife_introduced, false);
		pfree(life_fixed);
		pfree(life_introduced);
	}
	/* the releases kept: as stored */
	if (count != NULL)
		fixes_refresh_kept_counts(ld, count);
#undef STATS
#undef COUNTED

	pfree(fixed_pairs);
	pfree(flags);
	fixed_commits(ld, target_keys, nkeys);
	pfree(target_keys);
}

/* ---- per release and trailer key ---- */

/* by commit index: has a resolved Fixes edge, now (before = false) or before this load */
bool *
fixes_count_fixing_commits(FixesLoad *ld, bool before)
{
	bool	   *fixing = fixes_palloc_big(Max(ld->graph->n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	for (int64 k = 0; k < ld->edge_list.n; k++)
	{
		FixesEdge  *e = &ld->edge_list.edges[k];
		FixesResolution *r = before ? &e->before : &e->now;

		if ((k & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (e->kind == KIND_FIXES && (!before || e->old) && r->status == EDGE_RESOLVED)
			fixing[e->fixing] = true;
	}
	return fixing;
}

/* add (commits, fixing) to the count of every key of a commit in tag id tag */
static void
count_keys(HTAB *counts, uint32 tag, const uint32 *ids, uint32 n, int64 commits, int64 fixing)
{
	for (uint32 i = 0; i < n; i++)
	{
		uint64		key = (uint64) tag << 32 | ids[i];
		bool		found;
		FixesTrailerCount *c = hash_search(counts, &key, HASH_ENTER, &found);

		if (!found)
			c->commits = c->fixing = 0;
		c->commits += commits;
		c->fixing += fixing;
	}
}

/*
 * Per release and trailer key (lower-cased): the commits of the release
 * with at least one trailer of that key, and how many of them have a
 * resolved Fixes edge; tag ids are 1..nreleases for this load's ranks,
 * nreleases + w for the previous load's release of rank w that is no
 * release any more.  A full load (changed NULL): every count, from the
 * keys read.  A refresh: the changes to the stored counts, the new commits
 * added, and each changed old commit's old contribution taken away and its
 * new one added.
 */
HTAB *
fixes_count_trailers(FixesLoad *ld, FixesTrailerKeys *k, const bool *changed,
					 const bool *fixing_before, const bool *fixing_now)
{
	HASHCTL		ctl;
	HTAB	   *counts;
	int32	   *mark = ld->mark;

	ctl.keysize = sizeof(uint64);
	ctl.entrysize = sizeof(FixesTrailerCount);
	ctl.hcxt = CurrentMemoryContext;
	counts = hash_create("fixes trailer counts", 1024, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	/* the commits this load read: added */
	for (uint32 i = ld->n_old; i < ld->graph->n; i++)
	{
		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		if (mark[i] > 0 && i < k->cap && k->cnt[i] > 0)
			count_keys(counts, (uint32) mark[i], k->ids + k->off[i], k->cnt[i], 1, fixing_now[i]);
	}
	if (changed == NULL)
		return counts;
	for (uint32 i = 0; i < ld->n_old; i++)
	{
		uint32		was;

		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		if (!changed[i] || i >= k->cap || k->cnt[i] == 0)
			continue;
		was = fixes_count_old_tag(ld, i);
		if (was != 0)
			count_keys(counts, was, k->ids + k->off[i], k->cnt[i], -1, -(int64) fixing_before[i]);
		if (mark[i] > 0)
			count_keys(counts, (uint32) mark[i], k->ids + k->off[i], k->cnt[i], 1, fixing_now[i]);
	}
	return counts;
}

/* ---- per group: MAINTAINERS sections and path prefixes ---- */

/* the groups a commit counts in: its own, and with prefixes the shorter ones */
typedef struct Expander
{
	const FixesGroups *g;
	const uint32 *anc;			/* NULL: sections */
	int			depths;
	uint32	   *stamp;			/* by group: the visit that saw it */
	uint32		visit;
	uint32	   *out;
	uint32		nout;
} Expander;

static void
expander_init(Expander *x, const FixesGroups *g, const uint32 *anc, int depths)
{
	x->g = g;
	x->anc = anc;
	x->depths = depths;
	x->stamp = fixes_palloc_big(sizeof(uint32) * Max(g->ngroups, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	x->visit = 0;
	x->out = fixes_palloc_big(sizeof(uint32) * Max(g->ngroups, 1), MCXT_ALLOC_HUGE);
}

static void
expander_free(Expander *x)
{
	pfree(x->stamp);
	pfree(x->out);
}

static void
expand(Expander *x, uint32 c)
{
	x->visit++;
	x->nout = 0;
	for (uint64 k = x->g->off[c]; k < x->g->off[c + 1]; k++)
	{
		uint32		id = x->g->ids[k];

		for (int d = 0; d < (x->anc ? x->depths : 1); d++)
		{
			uint32		grp = x->anc ? x->anc[id * x->depths + d] : id;

			if (x->stamp[grp] != x->visit)
			{
				x->stamp[grp] = x->visit;
				x->out[x->nout++] = grp;
			}
		}
	}
}

/*
 * sel[0 .. n) (edge indexes below 2^32) in order of by[edge], then of the
 * edge: as numbers, each a commit index above an edge index
 */
static void
sort_edges(int64 *sel, int64 n, const uint32 *by)
{
	uint64	   *keys = fixes_palloc_big(sizeof(uint64) * Max(n, 1), MCXT_ALLOC_HUGE);

	if (n > 0 && sel[n - 1] > (int64) PG_UINT32_MAX)	/* sel ascends */
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many Fixes edges to count per group")));
	for (int64 i = 0; i < n; i++)
		keys[i] = ((uint64) by[sel[i]] << 32) | (uint64) sel[i];
	fixes_sort_uint64(keys, n);
	for (int64 i = 0; i < n; i++)
		sel[i] = (int64) (keys[i] & PG_UINT32_MAX);
	pfree(keys);
}

/*
 * The run of sel (sorted by sort_edges() on key) that starts at i, the
 * edges of one commit: its end, with the groups of that commit in x
 */
static int64
expand_run(Expander *x, const int64 *sel, int64 nsel, const uint32 *key, int64 i)
{
	uint32		c = key[sel[i]];
	int64		j = i;

	while (j < nsel && key[sel[j]] == c)
		j++;
	expand(x, c);
	return j;
}

/*
 * A run of edges (expand_run()) counted in the groups of its commit, in x:
 * into its target (bugs_introduced, buggy_commits) or out of its fixing
 * commit (bugs_fixed, fixing_commits)
 */
static void
count_run(FixesGroupCounts *cnt, const Expander *x, int64 edges, bool into_target)
{
	for (uint32 k = 0; k < x->nout; k++)
	{
		FixesGroupCounts *c = &cnt[x->out[k]];

		if (into_target)
		{
			c->bugs_introduced += edges;
			c->buggy_commits++;
		}
		else
		{
			c->bugs_fixed += edges;
			c->fixing_commits++;
		}
	}
}

/* life with room for need lifetimes (it grows by doubling, at least 4096 more) */
static FixesLifetime *
lifetimes_room(FixesLifetime *life, int64 need, int64 *cap)
{
	if (need <= *cap)
		return life;
	*cap = Max(*cap * 2, need + 4096);
	return life == NULL
		? fixes_palloc_big(sizeof(FixesLifetime) * *cap, MCXT_ALLOC_HUGE)
		: repalloc_huge(life, sizeof(FixesLifetime) * *cap);
}

/*
 * The lifetimes of each group from life[0..nlife), sorted, and their median
 * (as fixes_percentile_cont computes it): cnt[].days point into one array
 * of them all; life is freed
 */
static void
group_lifetimes(FixesGroupCounts *cnt, FixesLifetime *life, int64 nlife, uint32 ngroups)
{
	double	   *all;

	if (nlife == 0)
		return;
	fixes_lifetime_sort(life, nlife, ngroups);
	all = fixes_palloc_big(sizeof(double) * nlife, MCXT_ALLOC_HUGE);
	for (int64 i = 0; i < nlife; i++)
		all[i] = life[i].days;
	for (int64 i = 0; i < nlife;)
	{
		int64		j = i;

		while (j < nlife && life[j].group == life[i].group)
			j++;
		cnt[life[i].group].days = &all[i];
		cnt[life[i].group].ndays = j - i;
		cnt[life[i].group].median = fixes_percentile_cont_days(&all[i], j - i, 0.5);
		i = j;
	}
	pfree(life);
}

/*
 * The counts of every group from the resolved Fixes edges of the mainline
 * (all of ld->edge_list.edges before the stable phase: fixing and target commits are
 * mainline) and the groups of each commit; anc (prefixes): group id *
 * depths + d - 1 -> its prefix at depth d, NULL for sections.
 */
FixesGroupCounts *
fixes_count_groups(FixesLoad *ld, const FixesGroups *g, const uint32 *anc, int depths)
{
	FixesGroupCounts *cnt = fixes_palloc_big(sizeof(FixesGroupCounts) * Max(g->ngroups, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	Expander	x;
	int64	   *sel = fixes_palloc_big(sizeof(int64) * Max(ld->edge_list.n, 1), MCXT_ALLOC_HUGE);
	uint32	   *fixing = fixes_palloc_big(sizeof(uint32) * Max(ld->edge_list.n, 1), MCXT_ALLOC_HUGE);
	uint32	   *target = fixes_palloc_big(sizeof(uint32) * Max(ld->edge_list.n, 1), MCXT_ALLOC_HUGE);
	int64		nsel = 0;
	FixesLifetime *life = NULL;
	int64		nlife = 0,
				life_cap = 0;

	expander_init(&x, g, anc, depths);

	for (uint32 c = 0; c < g->n; c++)
	{
		if ((c & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		expand(&x, c);
		for (uint32 k = 0; k < x.nout; k++)
			cnt[x.out[k]].commits++;
	}

	for (int64 k = 0; k < ld->edge_list.n; k++)
	{
		FixesEdge  *e = &ld->edge_list.edges[k];

		fixing[k] = e->fixing;
		target[k] = e->now.target;
		if (e->kind == KIND_FIXES && e->now.status == EDGE_RESOLVED &&
			e->fixing < g->n && e->now.target < g->n)
			sel[nsel++] = k;
	}

	/* into the targets: bugs_introduced, buggy_commits, lifetimes */
	sort_edges(sel, nsel, target);
	for (int64 i = 0, j; i < nsel; i = j)
	{
		j = expand_run(&x, sel, nsel, target, i);
		count_run(cnt, &x, j - i, true);
		for (int64 q = i; q < j; q++)
		{
			int64		usecs;
			double		days;

			if (!fixes_edge_lifetime(ld, &ld->edge_list.edges[sel[q]], &usecs))
				continue;		/* NULL: percentile_cont skips it */
			days = fixes_sql_days(usecs);
			life = lifetimes_room(life, nlife + x.nout, &life_cap);
			for (uint32 k = 0; k < x.nout; k++)
			{
				life[nlife].group = x.out[k];
				life[nlife++].days = days;
			}
		}
		CHECK_FOR_INTERRUPTS();
	}

	/* out of the fixing commits: bugs_fixed, fixing_commits */
	sort_edges(sel, nsel, fixing);
	for (int64 i = 0, j; i < nsel; i = j)
	{
		j = expand_run(&x, sel, nsel, fixing, i);
		count_run(cnt, &x, j - i, false);
	}

	for (uint32 k = 0; k < g->ngroups; k++)
		cnt[k].median = NAN;
	group_lifetimes(cnt, life, nlife, g->ngroups);
	pfree(sel);
	pfree(fixing);
	pfree(target);
	expander_free(&x);
	return cnt;
}

/* the edges that count per group: resolved Fixes edges between commits of g */
static inline bool
group_edge(const FixesGroups *g, const FixesEdge *e, const FixesResolution *r)
{
	return e->kind == KIND_FIXES && r->status == EDGE_RESOLVED &&
		e->fixing < g->n && r->target < g->n;
}

/* a commit of an edge that changed, with its resolved edges in and out, now and as stored */
typedef struct ChangedCommit
{
	uint32		c;
	int32		in_now,
				in_before,
				out_now,
				out_before;
} ChangedCommit;

static int
changed_commit_cmp(const void *a, const void *b)
{
	const ChangedCommit *x = a;
	const ChangedCommit *y = b;

	return x->c < y->c ? -1 : x->c > y->c;
}

/* commit c in v[0 .. n) (sorted, unique), or NULL */
static ChangedCommit *
changed_find(ChangedCommit *v, int64 n, uint32 c)
{
	ChangedCommit key = {.c = c};

	return bsearch(&key, v, n, sizeof(ChangedCommit), changed_commit_cmp);
}

/*
 * The commits of the edges that changed (its fixing commit, its targets now
 * and before) that count per group, sorted and each once, with the resolved
 * edges into and out of each now and as stored; *n how many.  Sparse: a
 * refresh changes the edges of a few thousand commits, and arrays of four
 * counts for every commit cost a large history 20 MB of zeroed pages.
 */
static ChangedCommit *
changed_commits(FixesLoad *ld, const FixesGroups *g, int64 *n)
{
	ChangedCommit *v = NULL;
	int64		nv = 0,
				cap = 0,
				u = 0;

	for (int64 k = 0; k < ld->edge_list.n; k++)
	{
		FixesEdge  *e = &ld->edge_list.edges[k];
		bool		now,
					before;

		if ((k & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (e->old && fixes_resolution_equal(&e->now, &e->before))
			continue;
		now = group_edge(g, e, &e->now);
		before = e->old && group_edge(g, e, &e->before);
		if (!now && !before)
			continue;
		if (nv + 3 > cap)
		{
			cap = Max(cap * 2, 1024);
			v = v == NULL ? fixes_palloc_big(sizeof(ChangedCommit) * cap, MCXT_ALLOC_HUGE)
				: repalloc_huge(v, sizeof(ChangedCommit) * cap);
		}
		v[nv++] = (ChangedCommit) {.c = e->fixing};
		if (now)
			v[nv++] = (ChangedCommit) {.c = e->now.target};
		if (before)
			v[nv++] = (ChangedCommit) {.c = e->before.target};
	}
	if (nv > 0)
		qsort(v, nv, sizeof(ChangedCommit), changed_commit_cmp);
	for (int64 i = 0; i < nv; i++)
		if (u == 0 || v[u - 1].c != v[i].c)
			v[u++] = v[i];
	*n = u;
	if (u == 0)
		return v;

	/* their edges, now and as stored */
	for (int64 k = 0; k < ld->edge_list.n; k++)
	{
		FixesEdge  *e = &ld->edge_list.edges[k];
		ChangedCommit *x;

		if ((k & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (group_edge(g, e, &e->now))
		{
			if ((x = changed_find(v, u, e->now.target)) != NULL)
				x->in_now++;
			if ((x = changed_find(v, u, e->fixing)) != NULL)
				x->out_now++;
		}
		if (e->old && group_edge(g, e, &e->before))
		{
			if ((x = changed_find(v, u, e->before.target)) != NULL)
				x->in_before++;
			if ((x = changed_find(v, u, e->fixing)) != NULL)
				x->out_before++;
		}
	}
	return v;
}

/* the lifetime of an old edge as the previous load counted it (fixes_edge_lifetime() then) */
static bool
edge_lifetime_before(const FixesEdge *e, int64 *usecs)
{
	if (!e->old || e->introduced_null || e->fixed_at_null)
		return false;
	*usecs = e->fixed_at - e->introduced_at;
	return true;
}

/* days, in each of x->out[0 .. nout) (c's groups), into *v */
static void
lifetimes_add(FixesLifetime **v, int64 *n, int64 *cap, const Expander *x, double days)
{
	*v = lifetimes_room(*v, *n + x->nout, cap);
	for (uint32 q = 0; q < x->nout; q++)
	{
		(*v)[*n].group = x->out[q];
		(*v)[(*n)++].days = days;
	}
}

/*
 * A refresh whose old commits keep their groups: the counts of every group
 * from those the previous load stored (old[0 .. nstored), each computed
 * from the edges as stored, e->before) and what changed, the same as
 * fixes_count_groups() gives.  The new commits add to the commits of their
 * groups; a commit whose resolved edges in or out changed in number (an
 * edge that is new or resolves otherwise) changes the edge counts of its
 * groups by the difference.  The lifetimes of the edges that changed go
 * into *life: as stored (dropped from the groups of the target before) and
 * now (added to those of the target now); fixes_count_group_lifetimes()
 * applies them to the stored lifetimes, so that no other edge is read.
 * Releases do not enter these counts.  changed[id]: the row of the group
 * differs from the stored one (or is new: id >= nstored), its counts or its
 * lifetimes.
 */
FixesGroupCounts *
fixes_count_groups_delta(FixesLoad *ld, const FixesGroups *g, const uint32 *anc, int depths,
						 const FixesGroupCounts *old, uint32 nstored, bool *changed,
						 FixesGroupLifetimes *life)
{
	uint32		n = g->n;
	FixesGroupCounts *cnt = fixes_palloc_big(sizeof(FixesGroupCounts) * Max(g->ngroups, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	ChangedCommit *cc;
	int64		ncc;
	Expander	x;
	int64		add_cap = 0,
				drop_cap = 0;

	expander_init(&x, g, anc, depths);
	memset(life, 0, sizeof(*life));

	for (uint32 id = 0; id < g->ngroups; id++)
	{
		if (id < nstored)
			cnt[id] = old[id];
		else
		{
			cnt[id].median = NAN;
			changed[id] = true;
		}
		cnt[id].days = NULL;	/* fixes_count_group_lifetimes() takes them */
		cnt[id].ndays = 0;
	}

	/* the new commits */
	for (uint32 c = Min(ld->n_old, n); c < n; c++)
	{
		expand(&x, c);
		for (uint32 k = 0; k < x.nout; k++)
		{
			cnt[x.out[k]].commits++;
			changed[x.out[k]] = true;
		}
	}

	/* the commits of the edges that changed: the difference of each */
	cc = changed_commits(ld, g, &ncc);
	for (int64 i = 0; i < ncc; i++)
	{
		const ChangedCommit *c = &cc[i];
		int64		d_in = (int64) c->in_now - c->in_before;
		int64		d_buggy = (int64) (c->in_now > 0) - (c->in_before > 0);
		int64		d_out = (int64) c->out_now - c->out_before;
		int64		d_fixing = (int64) (c->out_now > 0) - (c->out_before > 0);

		if (!d_in && !d_buggy && !d_out && !d_fixing)
			continue;
		expand(&x, c->c);
		for (uint32 q = 0; q < x.nout; q++)
		{
			FixesGroupCounts *gc = &cnt[x.out[q]];

			gc->bugs_introduced += d_in;
			gc->buggy_commits += d_buggy;
			gc->bugs_fixed += d_out;
			gc->fixing_commits += d_fixing;
			changed[x.out[q]] = true;
		}
	}
	if (cc != NULL)
		pfree(cc);

	/* the lifetimes of the edges that changed, as stored and now */
	for (int64 k = 0; k < ld->edge_list.n; k++)
	{
		FixesEdge  *e = &ld->edge_list.edges[k];
		int64		usecs;

		if ((k & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (e->old && fixes_resolution_equal(&e->now, &e->before))
			continue;
		if (e->old && group_edge(g, e, &e->before) && edge_lifetime_before(e, &usecs))
		{
			expand(&x, e->before.target);
			lifetimes_add(&life->drop, &life->ndrop, &drop_cap, &x, fixes_sql_days(usecs));
		}
		if (group_edge(g, e, &e->now) && fixes_edge_lifetime(ld, e, &usecs))
		{
			expand(&x, e->now.target);
			lifetimes_add(&life->add, &life->nadd, &add_cap, &x, fixes_sql_days(usecs));
		}
	}
	fixes_lifetime_sort(life->drop, life->ndrop, g->ngroups);
	fixes_lifetime_sort(life->add, life->nadd, g->ngroups);
	for (int64 i = 0; i < life->ndrop; i++)
		changed[life->drop[i].group] = true;
	for (int64 i = 0; i < life->nadd; i++)
		changed[life->add[i].group] = true;
	expander_free(&x);
	return cnt;
}

/*
 * The lifetimes of the groups that *life changes, and their medians: each
 * group's (cnt[].days, the stored ones, ascending) less its dropped ones
 * plus its added ones, in order, into new arrays.  False, with *bad the
 * group, when the stored ones are not in order or lack one to drop: they
 * are not those of the stored edges.
 */
bool
fixes_count_group_lifetimes(FixesGroupCounts *cnt, uint32 ngroups,
							const FixesGroupLifetimes *life, uint32 *bad)
{
	int64		a = 0,
				d = 0;

	while (a < life->nadd || d < life->ndrop)
	{
		uint32		grp = Min(a < life->nadd ? life->add[a].group : PG_UINT32_MAX,
							  d < life->ndrop ? life->drop[d].group : PG_UINT32_MAX);
		FixesGroupCounts *gc = &cnt[grp];
		int64		a_end = a,
					d_end = d,
					s = 0,
					m = 0;
		double	   *out;

		CHECK_FOR_INTERRUPTS();
		Assert(grp < ngroups);
		while (a_end < life->nadd && life->add[a_end].group == grp)
			a_end++;
		while (d_end < life->ndrop && life->drop[d_end].group == grp)
			d_end++;
		if (d_end - d > gc->ndays)
		{
			*bad = grp;
			return false;
		}
		out = fixes_palloc_big(sizeof(double) * Max(gc->ndays - (d_end - d) + (a_end - a), 1),
							   MCXT_ALLOC_HUGE);
		/* the stored ones less those dropped (both ascending), merged with those added */
		while (s < gc->ndays || a < a_end)
		{
			if (s < gc->ndays)
			{
				double		v = gc->days[s];

				if (s > 0 && v < gc->days[s - 1])
				{
					*bad = grp;
					return false;
				}
				if (d < d_end && life->drop[d].days < v)
				{
					*bad = grp;		/* one to drop that is not there */
					return false;
				}
				if (d < d_end && life->drop[d].days == v)
				{
					d++;
					s++;
					continue;
				}
				if (a < a_end && life->add[a].days < v)
					out[m++] = life->add[a++].days;
				else
				{
					out[m++] = v;
					s++;
				}
			}
			else
				out[m++] = life->add[a++].days;
		}
		if (d < d_end)
		{
			*bad = grp;
			return false;
		}
		gc->days = out;
		gc->ndays = m;
		gc->median = m > 0 ? fixes_percentile_cont_days(out, m, 0.5) : NAN;
	}
	return true;
}

/* ---- per stable release ---- */

/*
 * Per stable release k (rank nmain + k + 1): its commits with a resolved
 * row of fixes_backports (by id, subject or override; not those an
 * override superseded), into backports[k].
 */
void
fixes_count_backports(FixesLoad *ld, const FixesBackportList *bl, int nmain, int64 *backports)
{
	uint32		nstable = ld->graph->n - ld->n_mainline;
	bool	   *counted = palloc0(sizeof(bool) * Max(nstable, 1));

	for (int64 k = 0; k < bl->n; k++)
	{
		FixesBackportLine *bp = &bl->lines[k];
		int32		rank = ld->mark[bp->commit];

		if ((k & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (bp->status != EDGE_RESOLVED || bp->superseded ||
			counted[bp->commit - ld->n_mainline])
			continue;
		counted[bp->commit - ld->n_mainline] = true;
		/* release_tags 'all': a backport shipped in its series' own (mainline) release counts in none */
		if (rank > nmain)
			backports[rank - nmain - 1]++;
	}
	pfree(counted);
}

/*
 * The counts of the stable releases that the series rows of fixes_affected
 * give (README, "Stable branches": fixes_per_stable_release), by the rules of
 * load_count.h: bugs_fixed at the row's fixed_in, regressions_introduced at
 * its introduced_in when that is a stable release (a backport brought the
 * bug in), known_bugs in every release of the row's series that holds the
 * bug (fixes_rule_known).  Those releases are consecutive in the series'
 * version order, so a row adds one at the first and takes one away after
 * the last, and a sum over the series gives known_bugs.
 */
struct FixesStableCounter
{
	const FixesLoad *ld;
	int			nmain;
	int			n;
	FixesStableSeries series;
	int64	   *bugs_fixed;		/* by k = rank - nmain - 1 */
	int64	   *regressions;
	int64	   *known_bugs;
	int64	   *known;			/* by place in series.rel, + 1: differences */
};

/* a release's position in version order (its tag's), + 1; 0 for rank 0 */
static inline int32
version_pos(const FixesLoad *ld, int32 rank)
{
	return rank > 0 ? ld->releases->tag_of[rank - 1] + 1 : 0;
}

/* in the current memory context, which keeps the counts until they are written */
FixesStableCounter *
fixes_count_stable_begin(const FixesLoad *ld, int nmain, int n, const FixesStableSeries *series)
{
	FixesStableCounter *c = palloc0(sizeof(FixesStableCounter));

	c->ld = ld;
	c->nmain = nmain;
	c->n = n;
	c->series = *series;
	c->bugs_fixed = palloc0(sizeof(int64) * Max(n, 1));
	c->regressions = palloc0(sizeof(int64) * Max(n, 1));
	c->known_bugs = palloc0(sizeof(int64) * Max(n, 1));
	c->known = palloc0(sizeof(int64) * (series->first[series->n] + 1));
	return c;
}

/* the position of the release at place j of the series' list */
static inline int32
place_pos(const FixesStableCounter *c, int j)
{
	return version_pos(c->ld, c->nmain + c->series.rel[j] + 1);
}

/* the first place of rel[lo .. hi) whose release is at or after position pos */
static int
first_at_or_after(const FixesStableCounter *c, int lo, int hi, int32 pos)
{
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (place_pos(c, mid) < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * One series row: the bug shipped in series s from release introduced (the
 * series' mainline release, or the stable release that imported it) and is
 * fixed in stable release fixed, of the same series (0: no release holds
 * the fix); load_stable.c writes no row whose fix is not after introduced.
 */
void
fixes_count_stable_row(FixesStableCounter *c, int s, int32 introduced, int32 fixed)
{
	int32		intro = version_pos(c->ld, introduced);
	int32		fix = version_pos(c->ld, fixed);
	int			first = c->series.first[s];
	int			end = c->series.first[s + 1];
	int			lo,
				hi;

	if (fixed > c->nmain)
		c->bugs_fixed[fixed - c->nmain - 1]++;
	if (introduced > c->nmain)
		c->regressions[introduced - c->nmain - 1]++;

	/*
	 * The releases of the series that hold the bug, places lo .. hi - 1: from
	 * the first at or after introduced, and from there as long as the rule
	 * holds (the series' releases ascend in version order: it holds on one
	 * run of them)
	 */
	lo = first_at_or_after(c, first, end, intro);
	hi = end;
	for (int a = lo; a < hi;)
	{
		int			mid = a + (hi - a) / 2;

		if (fixes_rule_known(intro, fix, place_pos(c, mid)))
			a = mid + 1;
		else
			hi = mid;
	}
	c->known[lo]++;
	c->known[hi]--;
}

/* the counts of every stable release, into out (whose nmain, n, series and backports are set) */
void
fixes_count_stable_releases(FixesStableCounter *c, FixesStableCounts *out)
{
	int64		sum = 0;

	for (int j = 0; j < c->series.first[c->series.n]; j++)
	{
		sum += c->known[j];
		c->known_bugs[c->series.rel[j]] = sum;
	}
	out->bugs_fixed = c->bugs_fixed;
	out->regressions = c->regressions;
	out->known_bugs = c->known_bugs;
	pfree(c->known);
}

/*
 * The mainline's counts this file owns (load_count.h).
 * Allocated in ld->cxt, zeroed, before the load's first phase (run_load()).
 */
void
fixes_counts_init(FixesLoad *ld)
{
	ld->counts = MemoryContextAllocZero(ld->cxt, sizeof(FixesCounts));
}
