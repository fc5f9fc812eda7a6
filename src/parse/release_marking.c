/*
 * release_marking.c — the first release that contains each commit
 *
 * Pure C, no PostgreSQL.  Releases come in version order; release r (1-based)
 * marks every commit reachable from its tagged commit that no earlier release
 * marked.  A walk stops at marked commits, so each commit is pushed once and
 * the whole costs O(commits + parent links), whatever the number of releases.
 *
 * A release whose tag is off the ref (release_tags 'all') starts
 * at several commits, its entry points: fixes_mark_releases_from().
 */
#include "release_marking.h"

/*
 * n commits; parents of commit i are parents[par_start[i] .. par_end[i]);
 * release_commit[r - 1] is the commit index of release r.  mark[] (n
 * entries, zeroed by the caller, or holding marks that must stay) receives
 * the release rank of each commit, 0 for none; stack has room for n entries.
 */
static void
mark_from(uint32_t n, const uint32_t *par_start, const uint32_t *par_end,
		  const uint32_t *parents, uint32_t root, int32_t r, int32_t *mark, uint32_t *stack)
{
	uint32_t	top = 0;

	if (root >= n || mark[root] != 0)
		return;
	mark[root] = r;
	stack[top++] = root;
	while (top > 0)
	{
		uint32_t	c = stack[--top];

		for (uint32_t p = par_start[c]; p < par_end[c]; p++)
		{
			uint32_t	q = parents[p];

			if (mark[q] == 0)
			{
				mark[q] = r;
				stack[top++] = q;
			}
		}
	}
}

/*
 * The same, release r (1-based) starting at the commits starts[start_off[r
 * - 1] .. start_off[r]): it marks what they reach that no earlier release
 * marked.  start_off has nreleases + 1 entries.
 */
void
fixes_mark_releases_from(uint32_t n,
						 const uint32_t *par_start, const uint32_t *par_end,
						 const uint32_t *parents,
						 const uint32_t *starts, const uint32_t *start_off,
						 int32_t nreleases, int32_t *mark, uint32_t *stack)
{
	for (int32_t r = 1; r <= nreleases; r++)
		for (uint32_t k = start_off[r - 1]; k < start_off[r]; k++)
			mark_from(n, par_start, par_end, parents, starts[k], r, mark, stack);
}

void
fixes_mark_releases(uint32_t n,
					const uint32_t *par_start, const uint32_t *par_end,
					const uint32_t *parents,
					const uint32_t *release_commit, int32_t nreleases,
					int32_t *mark, uint32_t *stack)
{
	for (int32_t r = 1; r <= nreleases; r++)
		mark_from(n, par_start, par_end, parents, release_commit[r - 1], r, mark, stack);
}
