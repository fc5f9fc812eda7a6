/*
 * load_counts.c — fixes_load(): the counts behind fixes_per_release and
 * fixes_buggiest_commits
 *
 * Computed once per load from every edge in memory (old and new) and
 * stored, so that the views read a few rows instead of aggregating every
 * edge: per release, in fixes_releases; per commit that resolved edges
 * point at, in fixes_fixed_commits (both written by load_write_releases.c).  The
 * definitions (README, "Semantics") count resolved edges only, and an
 * unreleased fixing commit counts as later than every release.  Every count
 * of 1.0 is a count of Fixes edges (kind 'fixes'); revert edges count in
 * reverts and reverted_introduced only, and an edge that fixes_overrides
 * ignores counts nowhere.  The commits with a Cc: stable line (1.2) are
 * counted per release, and those of them with a resolved Fixes edge.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "bulk_insert.h"
#include "commit_fields.h"
#include "load_state.h"
#include "spi_call.h"

/* what fixes_load_stats notes of a commit */
#define FIXING			0x01	/* it has a resolved Fixes edge */
#define INTRODUCED		0x02	/* one points at it from a later release, or unreleased */
#define TAGGED			0x04	/* it has a Fixes line that counts */
#define FIXING_EARLIER	0x08	/* one of its resolved edges points at an earlier release */

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
	ld->fixed = fixes_palloc_big(sizeof(FixesFixedCommit) * Max(nkeys, 1), MCXT_ALLOC_HUGE);
	for (int64 p = 0; p < nkeys; p++)
	{
		uint32		t = (uint32) (keys[p] >> 32);
		const FixesEdge *e = &ld->edges[keys[p] & PG_UINT32_MAX];
		FixesFixedCommit *c;

		if ((p & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (n > 0 && ld->fixed[n - 1].commit == t)
			c = &ld->fixed[n - 1];
		else
		{
			c = &ld->fixed[n++];
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
	ld->nfixed = n;
}

static int
fixed_commit_cmp(const void *a, const void *b)
{
	uint32		x = *(const uint32 *) a;
	uint32		y = ((const FixesFixedCommit *) b)->commit;

	return x < y ? -1 : x > y;
}

/* the entry of commit t among ld->fixed, NULL if no resolved edge points at it */
const FixesFixedCommit *
fixes_load_fixed_commit(const FixesLoad *ld, uint32 t)
{
	return bsearch(&t, ld->fixed, ld->nfixed, sizeof(FixesFixedCommit), fixed_commit_cmp);
}

void
fixes_load_stats(FixesLoad *ld)
{
	uint32		n = ld->graph->n;
	int32	   *mark = ld->mark;
	/* per commit: FIXING, INTRODUCED, TAGGED, FIXING_EARLIER */
	uint8	   *flags = fixes_palloc_big(Max(n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	uint64	   *fixed_pairs = fixes_palloc_big(sizeof(uint64) * Max(ld->nedges, 1), MCXT_ALLOC_HUGE);
	uint64	   *target_keys = fixes_palloc_big(sizeof(uint64) * Max(ld->nedges, 1), MCXT_ALLOC_HUGE);
	int64		npairs = 0;
	int64		nkeys = 0;

	/* an edge's position goes in the low half of its key */
	if (ld->nedges > (int64) PG_UINT32_MAX)
		elog(ERROR, "too many Fixes lines in repository \"%s\"", ld->name);
	ld->stats = palloc0(sizeof(FixesReleaseStats) * (ld->nreleases + 1));

	for (int64 k = 0; k < ld->nedges; k++)
	{
		FixesEdge  *e = &ld->edges[k];
		uint32		f = e->fixing;
		uint32		t = e->now.target;
		int32		fr,
					tr;

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
				ld->stats[fr].reverts++;
			if (tr > 0 && (fr == 0 || fr > tr))
				ld->stats[tr].reverted_introduced++;
			continue;
		}
		flags[f] |= FIXING;
		target_keys[nkeys++] = ((uint64) t << 32) | (uint64) k;
		if (fr > 0 && tr > 0 && tr < fr)
		{
			ld->stats[fr].bugs_fixed++;
			fixed_pairs[npairs++] = ((uint64) fr << 32) | t;
			flags[f] |= FIXING_EARLIER;
		}
		if (tr > 0 && (fr == 0 || fr > tr))
		{
			ld->stats[tr].bugs_introduced++;
			flags[t] |= INTRODUCED;
		}
		if (fr > 0 && fr == tr)
			ld->stats[fr].fixed_same_release++;
	}
	for (uint32 i = 0; i < n; i++)
	{
		if ((i & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		/* 1.2: the commits of a release with a Cc: stable line, and of those the fixing ones */
		if (ld->stable_cc[i] && mark[i] > 0)
		{
			ld->stats[mark[i]].stable_cc_commits++;
			if (flags[i] & FIXING)
				ld->stats[mark[i]].stable_cc_fixing_commits++;
		}
		if (flags[i] == 0)
			continue;
		if ((flags[i] & FIXING) && mark[i] > 0)
			ld->stats[mark[i]].fixing_commits++;
		if (flags[i] & INTRODUCED)
			ld->stats[mark[i]].buggy_commits_introduced++;
		if ((flags[i] & TAGGED) && mark[i] > 0)
			ld->stats[mark[i]].tagged_commits++;
		if (flags[i] & FIXING_EARLIER)
			ld->stats[mark[i]].fixing_earlier_commits++;
	}
	/* commits_fixed: distinct (release, target) among the bugs fixed */
	fixes_sort_uint64(fixed_pairs, npairs);
	for (int64 p = 0; p < npairs; p++)
		if (p == 0 || fixed_pairs[p] != fixed_pairs[p - 1])
			ld->stats[fixed_pairs[p] >> 32].commits_fixed++;

	pfree(fixed_pairs);
	pfree(flags);
	fixed_commits(ld, target_keys, nkeys);
	pfree(target_keys);
}
