/*
 * load_releases.c — fixes_load(): releases and the release of each commit
 *
 * A release is a tag whose commit is in scope and whose name matches the
 * release pattern (a PostgreSQL regular expression); without a pattern,
 * every tag but pre-releases, i.e. names matching (rc|pre|alpha|beta|dev)[0-9]*$
 * case-insensitively.  Releases are in version order (the tags already
 * are); the release of a commit is the first release whose commit is it or
 * has it as an ancestor (see release_marking.c).
 */
#include "postgres.h"

#include "catalog/pg_collation.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "load_state.h"
#include "release_marking.h"

#define PRERELEASE_PATTERN "(rc|pre|alpha|beta|dev)[0-9]*$"

bool
fixes_load_is_release(const FixesLoad *ld, const char *name)
{
	Datum		tag = CStringGetTextDatum(name);

	if (ld->pattern != NULL)
		return DatumGetBool(DirectFunctionCall2Coll(textregexeq, C_COLLATION_OID, tag,
													CStringGetTextDatum(ld->pattern)));
	return !DatumGetBool(DirectFunctionCall2Coll(texticregexeq, C_COLLATION_OID, tag,
												 CStringGetTextDatum(PRERELEASE_PATTERN)));
}

/* Fail early, before any reading, on a pattern that does not compile. */
void
fixes_load_check_pattern(FixesLoad *ld)
{
	(void) fixes_load_is_release(ld, "");
}

typedef struct RankEntry
{
	const char *name;			/* the key: a release's tag */
	int			rank;
} RankEntry;

/* this load's releases by tag name: one lookup per old release */
static HTAB *
new_ranks_by_name(FixesLoad *ld)
{
	HASHCTL		ctl;
	HTAB	   *h;

	ctl.keysize = sizeof(char *);
	ctl.entrysize = sizeof(RankEntry);
	ctl.hash = fixes_string_ptr_hash;
	ctl.match = fixes_string_ptr_match;
	ctl.hcxt = CurrentMemoryContext;
	h = hash_create("fixes release ranks", Max(ld->nreleases, 16), &ctl,
					HASH_ELEM | HASH_FUNCTION | HASH_COMPARE | HASH_CONTEXT);
	for (int q = 0; q < ld->nreleases; q++)
	{
		const char *name = ld->tags[ld->release_tag[q]].name;
		RankEntry  *e = hash_search(h, &name, HASH_ENTER, NULL);

		e->rank = q + 1;
	}
	return h;
}

/* old rank -> rank of the same tag now (same name, same release), 0 if gone */
static int *
old_ranks_now(FixesLoad *ld)
{
	int		   *old_rank = palloc0(sizeof(int) * (ld->n_old_releases + 1));
	HTAB	   *rank_of = new_ranks_by_name(ld);

	for (int r = 0; r < ld->n_old_releases; r++)
	{
		RankEntry  *e;

		CHECK_FOR_INTERRUPTS();
		e = hash_search(rank_of, &ld->old_releases[r].tag, HASH_FIND, NULL);
		if (e != NULL)
			old_rank[r + 1] = e->rank;
	}
	hash_destroy(rank_of);
	return old_rank;
}

/*
 * The releases of the previous load on the old commits, as it stored them
 * (1.2), or else marked again (commits cannot gain ancestors, so this is
 * exactly what that load found), to find the old commits whose release
 * this load changes.
 */
static void
find_moved(FixesLoad *ld, uint32 *stack)
{
	FixesGraph *g = ld->graph;
	int32	   *old_mark;
	int		   *old_rank = old_ranks_now(ld);

	if (ld->stored.mark != NULL)
		old_mark = ld->stored.mark;
	else
	{
		uint32	   *old_commit = palloc(sizeof(uint32) * Max(ld->n_old_releases, 1));

		for (int r = 0; r < ld->n_old_releases; r++)
			old_commit[r] = ld->old_releases[r].commit;
		/* the old commits form a closed graph: parents of old commits are old */
		old_mark = fixes_palloc_big(sizeof(int32) * Max(ld->n_old, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		fixes_mark_releases(ld->n_old, g->par_start, g->par_end, g->parents,
							old_commit, ld->n_old_releases, old_mark, stack);
		pfree(old_commit);
	}

	ld->moved = fixes_palloc_big(sizeof(uint32) * Max(ld->n_old, 1), MCXT_ALLOC_HUGE);
	ld->nmoved = 0;
	for (uint32 i = 0; i < ld->n_old; i++)
	{
		int32		was = old_mark[i];

		if ((i & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		/*
		 * Same tag name = same release, whatever its rank now.  A release
		 * that is gone (old_rank 0) moves its commits even when they are
		 * unreleased now (mark 0).
		 */
		if (was == 0 ? ld->mark[i] != 0 : (old_rank[was] == 0 || old_rank[was] != ld->mark[i]))
			ld->moved[ld->nmoved++] = i;
	}
	/* kept for the per-release trailer counts (load_trailer_counts.c) */
	ld->old_mark = old_mark;
	ld->old_to_new_rank = old_rank;
}

/*
 * The releases only add to the old ones: the stored releases become this
 * load's marks in place (no other array of 4 bytes a commit: touching one
 * costs 20 ms at 1.3M commits), and the marking from the new releases stops
 * at them.  Only unreleased old commits can move, each from no release;
 * fixes_old_mark() tells their old release by the moved bits.
 */
static void
mark_appended(FixesLoad *ld, uint32 *stack)
{
	FixesGraph *g = ld->graph;

	ld->mark = ld->stored.mark;
	ld->stored.mark = NULL;
	memset(ld->mark + ld->n_old, 0, sizeof(int32) * (g->n - ld->n_old));
	fixes_mark_releases(g->n, g->par_start, g->par_end, g->parents,
						ld->release_commit, ld->nreleases, ld->mark, stack);
	ld->moved = palloc(sizeof(uint32) * Max(ld->stored.nunreleased, 1));
	ld->nmoved = 0;
	ld->moved_bits = fixes_palloc_big(ld->n_old / 8 + 1, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (uint32 u = 0; u < ld->stored.nunreleased; u++)
	{
		uint32		i = ld->stored.unreleased[u];

		if (ld->mark[i] == 0)
			continue;
		ld->moved[ld->nmoved++] = i;
		ld->moved_bits[i / 8] |= (uint8) (1 << (i % 8));
	}
	ld->old_mark = NULL;
	ld->old_to_new_rank = old_ranks_now(ld);
}

/*
 * The new commits whose row the walk wrote with another release than the
 * whole graph gives them (load_read.c: walk_release holds -1 - what it
 * wrote): across clock skew, or commits of the same second.
 */
static void
find_corrected(FixesLoad *ld)
{
	ld->corrected = NULL;
	ld->ncorrected = 0;
	if (ld->walk_release == NULL)
		return;
	for (uint32 i = ld->n_old; i < ld->graph->n; i++)
	{
		int32		now = ld->mark[i] == 0 ? 0 : ld->release_tag[ld->mark[i] - 1] + 1;

		if ((i & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (i - ld->n_old < ld->walk_release_cap &&
			ld->walk_release[i - ld->n_old] == -1 - now)
			continue;
		if (ld->corrected == NULL)
			ld->corrected = fixes_palloc_big(sizeof(uint32) * (ld->graph->n - ld->n_old),
											 MCXT_ALLOC_HUGE);
		ld->corrected[ld->ncorrected++] = i;
	}
	if (ld->ncorrected > 0)
		elog(DEBUG1, "fixes_load %s: %lld commits were walked before a release reached them",
			 ld->name, (long long) ld->ncorrected);
}

/*
 * The stored releases of the old commits (fixes_graph.releases, 1.2), if
 * they agree with the old releases: ranks 1 .. n_old_releases, each old
 * release's own commit in it.  Otherwise forgotten.
 */
static void
check_stored(FixesLoad *ld)
{
	bool		ok = true;

	for (uint32 i = 0; ok && i < ld->n_old; i++)
	{
		if ((i & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		ok = ld->stored.mark[i] >= 0 && ld->stored.mark[i] <= ld->n_old_releases;
	}
	for (int r = 0; ok && r < ld->n_old_releases; r++)
		ok = ld->old_releases[r].commit < ld->n_old &&
			ld->stored.mark[ld->old_releases[r].commit] == r + 1;
	if (!ok)
	{
		elog(DEBUG1, "fixes_load %s: the stored releases of the old commits disagree with the old releases",
			 ld->name);
		ld->stored.mark = NULL;
	}
}

/*
 * The releases: the tags in scope that the pattern takes, in version order.
 * On a refresh, whether they only add to the old ones
 * (ld->stored.appended): every old release is still one, at the same
 * commit, and every new one comes after them.  Then an old commit keeps its
 * release, or gains one if it had none, and only the new commits and the
 * unreleased ones are marked; otherwise every commit is, through the
 * parents of every old commit (fixes_load_read_parents_rest()).
 */
void
fixes_load_find_releases(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;

	ld->release_tag = palloc(sizeof(int) * Max(ld->ntags, 1));
	ld->release_commit = palloc(sizeof(uint32) * Max(ld->ntags, 1));
	ld->release_size = palloc0(sizeof(int64) * Max(ld->ntags, 1));
	ld->nreleases = 0;
	for (int t = 0; t < ld->ntags; t++)
	{
		uint32		idx = fixes_graph_lookup(g, &ld->tags[t].commit);

		if (idx == FIXES_NO_IDX || !fixes_load_is_release(ld, ld->tags[t].name))
			continue;
		ld->release_tag[ld->nreleases] = t;
		ld->release_commit[ld->nreleases] = idx;
		ld->nreleases++;
	}
	ld->release_name = palloc0(sizeof(Datum) * (ld->nreleases + 1));
	for (int r = 0; r < ld->nreleases; r++)
		ld->release_name[r + 1] = CStringGetTextDatum(ld->tags[ld->release_tag[r]].name);

	ld->stored.appended = false;
	if (!ld->incremental || ld->stored.mark == NULL)
		return;
	check_stored(ld);
	if (ld->stored.mark == NULL || ld->nreleases < ld->n_old_releases)
		return;
	for (int r = 0; r < ld->n_old_releases; r++)
		if (ld->release_commit[r] != ld->old_releases[r].commit ||
			strcmp(ld->tags[ld->release_tag[r]].name, ld->old_releases[r].tag) != 0)
			return;
	ld->stored.appended = true;
}

/*
 * The release of every commit, and on a refresh the old commits whose
 * release changed.  When the releases only add to the old ones, the old
 * commits start with their stored releases, at which the marking stops:
 * it walks the new commits and the unreleased old ones only.
 */
void
fixes_load_releases(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;
	uint32	   *stack;

	stack = fixes_palloc_big(sizeof(uint32) * Max(g->n, 1), MCXT_ALLOC_HUGE);
	if (ld->stored.appended && g->n <= ld->stored.cap)
		mark_appended(ld, stack);
	else
	{
		Assert(ld->stored.appended || !ld->parents_some);
		ld->mark = fixes_palloc_big(sizeof(int32) * Max(g->n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		if (ld->stored.appended)
			memcpy(ld->mark, ld->stored.mark, sizeof(int32) * ld->n_old);
		fixes_mark_releases(g->n, g->par_start, g->par_end, g->parents,
							ld->release_commit, ld->nreleases, ld->mark, stack);
		if (ld->incremental)
			find_moved(ld, stack);
	}
	pfree(stack);

	for (uint32 i = 0; i < g->n; i++)
		if (ld->mark[i] > 0)
			ld->release_size[ld->mark[i] - 1]++;
	find_corrected(ld);

	if (ld->nreleases == 0 && g->n > 0)
		ereport(NOTICE,
				(errmsg("no tag of repository \"%s\" is a release: every commit is unreleased",
						ld->path),
				 ld->pattern ?
				 errdetail("No tag reachable from \"%s\" matches the release pattern \"%s\".",
						   ld->ref, ld->pattern) :
				 errdetail("No tag reachable from \"%s\" other than pre-releases was found.",
						   ld->ref)));
}

/*
 * A hash of what decides the releases besides the commits: every release
 * tag (name, commit, and whether annotated and its time: every field a
 * release row takes from it; the reader peels no other tag,
 * fixes_load_answer_tags()) and the release pattern; with stable branches, also the
 * expression and the matching branches (name and commit).  The same head and the same hash
 * mean a load would change nothing.
 */
int64
fixes_tags_hash(FixesLoad *ld)
{
	uint64		h = hash_bytes_extended((const unsigned char *) (ld->pattern ? ld->pattern : ""),
										ld->pattern ? (int) strlen(ld->pattern) : 0,
										ld->pattern ? 1 : 2);

	for (int t = 0; t < ld->ntags; t++)
	{
		if (!fixes_load_is_release(ld, ld->tags[t].name))
			continue;
		h = hash_bytes_extended((const unsigned char *) ld->tags[t].name,
								(int) strlen(ld->tags[t].name), h);
		h = hash_bytes_extended(ld->tags[t].commit.id, FIXES_OID_RAWSZ, h);
		/*
		 * and every other field of the tag a release row stores: a tag
		 * made again on the same commit (a lightweight one replaced by an
		 * annotated one) changes annotated and released_at (issue 28)
		 */
		h = hash_bytes_extended((const unsigned char *) &ld->tags[t].annotated,
								sizeof(ld->tags[t].annotated), h);
		h = hash_bytes_extended((const unsigned char *) &ld->tags[t].time,
								sizeof(ld->tags[t].time), h);
	}
	/* and the stable scope: the expression and the branches it matches */
	if (ld->stable_re != NULL)
	{
		h = hash_bytes_extended((const unsigned char *) ld->stable_re,
								(int) strlen(ld->stable_re), h ^ 3);
		for (int b = 0; b < ld->nbranches; b++)
		{
			h = hash_bytes_extended((const unsigned char *) ld->branches[b].name,
									(int) strlen(ld->branches[b].name), h);
			h = hash_bytes_extended(ld->branches[b].commit.id, FIXES_OID_RAWSZ, h);
		}
	}
	return (int64) h;
}
