/*
 * old_marks.c — a refresh: the releases of the old commits, before and now
 *
 * load_releases.c finds this load's releases and marks the commits; a
 * refresh starts from the releases the previous load stored of its commits
 * (fixes_graph.releases, 1.2) when the new releases only add to the old
 * ones, and tells which old commits moved to another release: the rows of
 * fixes_commits, the edges and the counts that change (ld->refresh->moved,
 * old_mark, moved_bits, old_to_new_rank).
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "big_alloc.h"
#include "load_state.h"
#include "load_releases.h"
#include "refresh.h"
#include "release_marking.h"
#include "string_hash.h"

typedef struct RankEntry
{
	const char *name;			/* the key: a release's tag */
	int			rank;
} RankEntry;

/* this load's releases by tag name: one lookup per old release */
static HTAB *
new_ranks_by_name(FixesLoad *ld)
{
	HTAB	   *h = fixes_string_hash_create("fixes release ranks", Max(ld->releases->n, 16),
											 sizeof(RankEntry), CurrentMemoryContext);

	for (int q = 0; q < ld->releases->n; q++)
	{
		const char *name = ld->releases->tags[ld->releases->tag_of[q]].name;
		RankEntry  *e = hash_search(h, &name, HASH_ENTER, NULL);

		e->rank = q + 1;
	}
	return h;
}

/* old rank -> rank of the same tag now (same name, same release), 0 if gone */
static int *
old_ranks_now(FixesLoad *ld)
{
	int		   *old_rank = palloc0(sizeof(int) * (ld->refresh->n_old_releases + 1));
	HTAB	   *rank_of = new_ranks_by_name(ld);

	for (int r = 0; r < ld->refresh->n_old_releases; r++)
	{
		RankEntry  *e;

		CHECK_FOR_INTERRUPTS();
		e = hash_search(rank_of, &ld->refresh->old_releases[r].tag, HASH_FIND, NULL);
		if (e != NULL)
			old_rank[r + 1] = e->rank;
	}
	hash_destroy(rank_of);
	return old_rank;
}

/*
 * The releases of the previous load on the old commits, as it stored them
 *, or else marked again (commits cannot gain ancestors, so this is
 * exactly what that load found), to find the old commits whose release
 * this load changes.
 */
static void
find_moved(FixesLoad *ld, uint32 *stack)
{
	FixesGraph *g = ld->graph;
	int32	   *old_mark;
	int		   *old_rank = old_ranks_now(ld);

	if (ld->refresh->stored.mark != NULL)
		old_mark = ld->refresh->stored.mark;
	else
	{
		uint32	   *old_commit = palloc(sizeof(uint32) * Max(ld->refresh->n_old_releases, 1));

		for (int r = 0; r < ld->refresh->n_old_releases; r++)
			old_commit[r] = ld->refresh->old_releases[r].commit;
		/* the old commits form a closed graph: parents of old commits are old */
		old_mark = fixes_palloc_big(sizeof(int32) * Max(ld->n_old, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		fixes_mark_releases(ld->n_old, g->par_start, g->par_end, g->parents,
							old_commit, ld->refresh->n_old_releases, old_mark, stack);
		pfree(old_commit);
	}

	ld->refresh->moved = fixes_palloc_big(sizeof(uint32) * Max(ld->n_old, 1), MCXT_ALLOC_HUGE);
	ld->refresh->nmoved = 0;
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
			ld->refresh->moved[ld->refresh->nmoved++] = i;
	}
	/* kept for the per-release trailer counts (load_trailer_counts.c) */
	ld->refresh->old_mark = old_mark;
	ld->refresh->old_to_new_rank = old_rank;
}

/*
 * The releases only add to the old ones: the stored releases become this
 * load's marks in place (no other array of 4 bytes a commit to touch), and
 * the marking from the new releases stops
 * at them.  Only unreleased old commits can move, each from no release;
 * fixes_old_mark() tells their old release by the moved bits.
 */
static void
mark_appended(FixesLoad *ld, uint32 *stack)
{
	FixesGraph *g = ld->graph;

	ld->mark = ld->refresh->stored.mark;
	ld->refresh->stored.mark = NULL;
	memset(ld->mark + ld->n_old, 0, sizeof(int32) * (g->n - ld->n_old));
	fixes_mark_releases(g->n, g->par_start, g->par_end, g->parents,
						ld->releases->commit, ld->releases->n, ld->mark, stack);
	ld->refresh->moved = palloc(sizeof(uint32) * Max(ld->refresh->stored.nunreleased, 1));
	ld->refresh->nmoved = 0;
	ld->refresh->moved_bits = fixes_palloc_big(ld->n_old / 8 + 1, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (uint32 u = 0; u < ld->refresh->stored.nunreleased; u++)
	{
		uint32		i = ld->refresh->stored.unreleased[u];

		if (ld->mark[i] == 0)
			continue;
		ld->refresh->moved[ld->refresh->nmoved++] = i;
		ld->refresh->moved_bits[i / 8] |= (uint8) (1 << (i % 8));
	}
	ld->refresh->old_mark = NULL;
	ld->refresh->old_to_new_rank = old_ranks_now(ld);
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
		ok = ld->refresh->stored.mark[i] >= 0 && ld->refresh->stored.mark[i] <= ld->refresh->n_old_releases;
	}
	for (int r = 0; ok && r < ld->refresh->n_old_releases; r++)
		ok = ld->refresh->old_releases[r].commit < ld->n_old &&
			ld->refresh->stored.mark[ld->refresh->old_releases[r].commit] == r + 1;
	if (!ok)
	{
		elog(DEBUG1, "fixes_load %s: the stored releases of the old commits disagree with the old releases",
			 ld->args.name);
		ld->refresh->stored.mark = NULL;
	}
}

/*
 * After the releases are found: whether they only add to the old ones
 * (ld->refresh->stored.appended): every old release is still one, at the
 * same commit, and every new one comes after them.  Then an old commit
 * keeps its release, or gains one if it had none, and only the new commits
 * and the unreleased ones are marked; otherwise every commit is, through
 * the parents of every old commit (fixes_load_read_parents_rest()).
 */
void
fixes_refresh_releases_appended(FixesLoad *ld)
{
	ld->refresh->stored.appended = false;
	if (ld->refresh->stored.mark == NULL)
		return;
	check_stored(ld);
	if (ld->refresh->stored.mark == NULL || ld->releases->n < ld->refresh->n_old_releases)
		return;
	for (int r = 0; r < ld->refresh->n_old_releases; r++)
		if (ld->releases->commit[r] != ld->refresh->old_releases[r].commit ||
			strcmp(ld->releases->tags[ld->releases->tag_of[r]].name, ld->refresh->old_releases[r].tag) != 0)
			return;
	ld->refresh->stored.appended = true;
}

/*
 * A refresh's marking: the release of every commit into ld->mark, and the
 * old commits whose release changed.  When the releases only add to the
 * old ones, the old commits start with their stored releases, at which the
 * marking stops: it walks the new commits and the unreleased old ones only.
 */
void
fixes_refresh_mark(FixesLoad *ld, uint32 *stack)
{
	FixesGraph *g = ld->graph;
	bool		appended = ld->refresh->stored.appended;

	if (appended && g->n <= ld->refresh->stored.cap)
	{
		mark_appended(ld, stack);
		return;
	}
	Assert(appended || !ld->refresh->parents_some);
	/* the releases off the ref of release_tags 'all' are a full load's */
	Assert(ld->releases->entry_start == NULL);
	fixes_load_marks_alloc(ld);
	if (appended)
		memcpy(ld->mark, ld->refresh->stored.mark, sizeof(int32) * ld->n_old);
	fixes_mark_releases(g->n, g->par_start, g->par_end, g->parents,
						ld->releases->commit, ld->releases->n, ld->mark, stack);
	find_moved(ld, stack);
}
