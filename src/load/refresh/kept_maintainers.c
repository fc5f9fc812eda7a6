/*
 * kept_maintainers.c — a refresh: which attributions by MAINTAINERS it keeps
 *
 * load_maintainers.c attributes each commit by the MAINTAINERS of its
 * release.  A full load attributes every commit; a refresh the new ones and
 * the old ones whose version of the file changed, or all of them again
 * when it cannot tell: these are its decisions.
 */
#include "postgres.h"

#include "miscadmin.h"

#include "big_alloc.h"
#include "load_files.h"
#include "load_state.h"
#include "load_releases.h"
#include "refresh.h"

/* a new commit in a release: the refresh needs the releases' files */
static bool
new_released(FixesLoad *ld)
{
	for (uint32 i = ld->n_old; i < ld->graph->n; i++)
	{
		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		if (ld->mark[i] != 0)
			return true;
	}
	return false;
}

/*
 * A release that the previous load did not have: its sections are listed
 * (fixes_subsystems) even when it holds no commit (a new tag on a commit
 * that an older release holds), as a full load lists them
 */
static bool
new_release(FixesLoad *ld)
{
	return ld->releases->n > ld->refresh->n_old_releases;
}

/*
 * A refresh that may keep the attributions of the old commits, before the
 * releases' files are read: false when every commit must be attributed
 * again.  A previous release is gone (a section name may be in use no
 * more, and whether it had the file is not known) or on another commit, or
 * a release older than the previous load's oldest came (a release without
 * the file may take another one's now).  Otherwise the releases' versions
 * only grow, and those of the old releases are the same.
 */
bool
fixes_refresh_can_keep(FixesLoad *ld)
{
	for (int r = 0; r < ld->refresh->n_old_releases; r++)
	{
		int			nr = ld->refresh->old_to_new_rank ? ld->refresh->old_to_new_rank[r + 1] : 0;

		if (nr == 0 || ld->releases->commit[nr - 1] != ld->refresh->old_releases[r].commit)
			return false;
	}
	return ld->refresh->n_old_releases == 0 || ld->refresh->old_to_new_rank[1] == 1;
}

/*
 * The releases whose file a refresh that keeps the old attributions needs:
 * those of its new commits, those of the old commits that moved, before and
 * now (and, if one of them lacks the file, the oldest: load_maintainers.c's read_fallback()).
 */
bool *
fixes_refresh_wanted_releases(FixesLoad *ld)
{
	bool	   *want = palloc0(sizeof(bool) * (ld->releases->n + 1));

	/* the new releases (fixes_refresh_can_keep(): the old ones are all there, at the same ranks or not) */
	for (int r = 1; r <= ld->releases->n; r++)
		want[r] = true;
	for (int r = 1; r <= ld->refresh->n_old_releases; r++)
		if (ld->refresh->old_to_new_rank[r] > 0)
			want[ld->refresh->old_to_new_rank[r]] = false;
	for (uint32 i = ld->n_old; i < ld->graph->n; i++)
	{
		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		want[ld->mark[i]] = true;
	}
	for (int64 m = 0; m < ld->refresh->nmoved; m++)
	{
		uint32		i = ld->refresh->moved[m];
		int32		was = fixes_old_mark(ld, i);

		if ((m & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		want[ld->mark[i]] = true;
		if (was > 0)
			want[ld->refresh->old_to_new_rank[was]] = true;
	}
	return want;
}

/*
 * The old commits whose version changed (moved to another release with
 * another file), into *out (sorted); false when every commit must be
 * attributed again: a release lacks the file, the tags changed, and the
 * previous load's oldest release with the file is not the oldest now.
 */
bool
fixes_refresh_changed_commits(FixesLoad *ld, const FixesReleaseFiles *ss, uint32 **out, int64 *nout)
{
	*out = NULL;
	*nout = 0;
	if (ss->any_missing && ld->tags_hash != ld->prev.tags_hash && !ss->rank_has[1])
	{
		int			old_first = 0;

		for (int r = 0; r < ld->refresh->n_old_releases; r++)
		{
			int			nr = ld->refresh->old_to_new_rank[r + 1];

			if (!ss->rank_read[nr])
				return false;
			if (ss->rank_has[nr])
			{
				old_first = nr;
				break;
			}
		}
		if (old_first != ss->first_with)
			return false;
	}
	if (ld->refresh->nmoved > 0)
	{
		*out = fixes_palloc_big(sizeof(uint32) * ld->refresh->nmoved, MCXT_ALLOC_HUGE);
		for (int64 m = 0; m < ld->refresh->nmoved; m++)
		{
			uint32		i = ld->refresh->moved[m];
			int32		was = fixes_old_mark(ld, i);
			int			before = was == 0 ? ss->ref_ver : ss->rank_ver[ld->refresh->old_to_new_rank[was]];

			if ((m & 0xffff) == 0)
				CHECK_FOR_INTERRUPTS();

			if (before != ss->rank_ver[ld->mark[i]])
				(*out)[(*nout)++] = i;
		}
		qsort(*out, *nout, sizeof(uint32), fixes_uint32_cmp);
	}
	return true;
}

/*
 * Every commit attributed again: MAINTAINERS changed at the ref, or no
 * release is left of the previous ones (every commit is the ref's now)
 */
bool
fixes_refresh_attribute_all(FixesLoad *ld)
{
	return ld->paths->reattribute ||
		(ld->has.maintainers_by_release && ld->releases->n == 0 && ld->refresh->n_old_releases > 0);
}

/*
 * The releases' files are needed: commits are released or moved, a release
 * is new, or one is gone or moved
 */
bool
fixes_refresh_release_files_needed(FixesLoad *ld)
{
	return ld->refresh->nmoved > 0 || new_released(ld) || new_release(ld) ||
		!fixes_refresh_can_keep(ld);
}
