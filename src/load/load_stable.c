/*
 * load_stable.c — fixes_load(), the stable scope: stable branches, their
 * releases, backports and the places that shipped each bug
 *
 * Runs after the mainline is written (load.c, write_repository), so that
 * nothing of the mainline depends on it.  The stable scope is the commits
 * reachable from the branches that stable_branches matches and not from
 * the ref; they are appended to the graph after the mainline (indexes
 * n_mainline ..), walked by one reader given every branch head and, as
 * known, every mainline id.  Every load that is not a no-op deletes the
 * stable rows of the previous load first (load_clear.c) and
 * writes them all again: the stable scope is small beside the mainline,
 * and a refresh then equals a fresh load by construction.
 *
 * What is computed here, in the order of the README's "## Stable
 * branches": the stable releases (tags of stable commits that the release
 * rule accepts, in version order, ranked after the mainline releases) and
 * their series; the release of each stable commit (the one-pass marking,
 * stopped at mainline commits); the backport lines, resolved against the
 * mainline by unique prefix (then by fixes_backport_overrides and by
 * subject, load_backports.c); the Fixes lines of stable commits, resolved
 * against both scopes (load_resolve.c); the series rows of fixes_affected.
 * The counters of fixes_per_stable_release are the counting module's
 * (load_count.c): the backports from the backport lines, and bugs_fixed,
 * regressions_introduced and known_bugs from the series rows, each handed
 * to it as it is written; this phase hands the counts to the writer of
 * fixes_releases (load_write_releases.c).  A backport on a branch after the
 * branch's newest release is queued: its series row names it
 * (fix_backport_idxs) with no fixed release, and no release counts it fixed.
 *
 * A phase of its own: it walks its scope with the walk loop of the
 * mainline (load_walk.c), with hooks of its own (Cc: stable, the backport
 * lines, the Fixes and revert lines), and keeps what it reads in its own
 * struct (StableScope: its rows of fixes_commits, held until their releases
 * are known, its edges and its backport lines); its edges are resolved and
 * written by the helpers the mainline's phases use (load_resolve.c,
 * load_write_edges.c), its rows by the one writer of fixes_commits
 * (load_commit_rows.c).  Of the mainline it reads the graph, the releases
 * and the resolved pairs of its edges, which it frees once it has those.
 *
 * stable_branches is a setting of the repository, kept by a load that does
 * not give it (fixes_load_stable_setting).
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "bulk_insert.h"
#include "commit_fields.h"
#include "load_backports.h"
#include "load_count.h"
#include "load_releases.h"
#include "load_stable.h"
#include "load_state.h"
#include "load_walk.h"
#include "oid_prefix.h"
#include "release_marking.h"
#include "sort_cmp.h"
#include "spi_call.h"

/* the heads of the stable walk: the commits of the branches kept */
struct FixesStableHeads
{
	FixesOid   *heads;
	int			n;
};

/* a pair of the mainline: F fixes T */
typedef struct Pair
{
	uint32		fixing;
	uint32		target;
} Pair;

/* a released backport of a mainline commit in one series */
typedef struct Shipped
{
	uint32		upstream;
	int32		rank;			/* the stable release of the backport */
	int			pos;			/* its position in version order */
	int			series;			/* the series of that release (SeriesList) */
	uint32		commit;			/* the backport */
} Shipped;

/* the stable releases and their series (what is counted of them: load_count.c) */
typedef struct Stable
{
	int			nmain;			/* mainline releases: ranks 1 .. nmain */
	int			n;				/* stable releases: ranks nmain + 1 .. nmain + n */
	int32	   *series;			/* by k = rank - nmain - 1: mainline rank, 0 = none */
	int32	   *head_series;	/* by stable head: its series' mainline rank, 0 = none */
	/*
	 * release_tags 'all': by stable commit (index less n_mainline), the
	 * newest mainline release tagged on it (a release of the mainline whose
	 * tag is on a release branch: v2.0.0 on branch-2.0), 0 for none; NULL
	 * when there is none
	 */
	int32	   *main_at;
} Stable;

/* what the stable phase reads, and owns: its rows, edges and backport lines */
typedef struct StableScope
{
	FixesCommitRows *rows;		/* of fixes_commits, held until their releases */
	FixesEdge  *edges;			/* the Fixes and revert lines of stable commits */
	int64		nedges;
	int64		edges_cap;
	FixesArena	edge_text;
	FixesEdgeSink sink;			/* the walk's way to them */
	FixesBackportList backports;
} StableScope;


static bool
branch_matches(const FixesLoad *ld, const char *name)
{
	return DatumGetBool(DirectFunctionCall2Coll(textregexeq, C_COLLATION_OID,
												CStringGetTextDatum(name),
												CStringGetTextDatum(ld->args.stable_re)));
}

/*
 * stable_branches is remembered per repository (fixes_repositories.
 * stable_branches), like files and maintainers: with 1.2's default
 * (FIXES_STABLE_KEEP) a load keeps the previous load's expression; a value,
 * or NULL (none), replaces it, with a NOTICE when it changes.  A database
 * at 1.1 SQL has no such default: there, no stable_branches is none.
 */
void
fixes_load_stable_setting(FixesLoad *ld, bool keep)
{
	char	   *old = NULL;
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};

	if (ld->known && ld->has.stable_scope)
	{
		char	   *sql = psprintf("SELECT stable_branches FROM ONLY %s.fixes_repositories "
								   "WHERE repository_id = $1", ld->schema);

		if (fixes_spi_execute(sql, 1, argtypes, args, NULL, 1, SPI_OK_SELECT) == 1)
		{
			char	   *v = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

			old = v ? MemoryContextStrdup(ld->cxt, v) : NULL;
		}
		SPI_freetuptable(SPI_tuptable);
	}
	if (keep)
	{
		ld->args.stable_re = old;
		return;
	}
	if (ld->args.stable_re != NULL && ld->has.stable_scope)
		(void) branch_matches(ld, "");	/* an invalid expression fails before the NOTICE */
	if (ld->known && (old == NULL) != (ld->args.stable_re == NULL))
		ereport(NOTICE,
				(errmsg(old == NULL ? "repository \"%s\" gains a stable scope"
						: "the stable scope of repository \"%s\" is dropped", ld->args.name),
				 old == NULL ? errdetail("stable_branches is now \"%s\"; the previous load had none.",
										 ld->args.stable_re)
				 : errdetail("stable_branches was \"%s\"; stable_branches => NULL removes it.", old)));
	else if (ld->known && old != NULL && strcmp(old, ld->args.stable_re) != 0)
		ereport(NOTICE,
				(errmsg("the stable branches of repository \"%s\" change", ld->args.name),
				 errdetail("stable_branches was \"%s\" and is now \"%s\".", old, ld->args.stable_re)));
}

/*
 * Before anything is read: is this database at version 1.1 (the stable
 * tables exist), and does stable_branches compile?
 */
void
fixes_load_stable_check(FixesLoad *ld)
{
	if (ld->args.stable_re == NULL)
		return;
	if (!ld->has.stable_scope)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("stable_branches needs version 1.1 of extension fixes"),
				 errhint("Update the extension: ALTER EXTENSION fixes UPDATE.")));
	(void) branch_matches(ld, "");	/* an invalid expression fails here */
}

/*
 * Keep the branches that stable_branches matches (none without it); their
 * commits are the heads of the stable walk.
 */
void
fixes_load_stable_branches(FixesLoad *ld)
{
	int			kept = 0;

	if (ld->args.stable_re == NULL)
	{
		ld->stable_branches->n = 0;
		return;
	}
	for (int b = 0; b < ld->stable_branches->n; b++)
	{
		CHECK_FOR_INTERRUPTS();
		if (branch_matches(ld, ld->stable_branches->branches[b].name))
			ld->stable_branches->branches[kept++] = ld->stable_branches->branches[b];
	}
	ld->stable_branches->n = kept;
	ld->stable_branches->heads = palloc0(sizeof(FixesStableHeads));
	ld->stable_branches->heads->heads = palloc(sizeof(FixesOid) * Max(kept, 1));
	ld->stable_branches->heads->n = kept;
	for (int b = 0; b < kept; b++)
		ld->stable_branches->heads->heads[b] = ld->stable_branches->branches[b].commit;
	if (kept == 0)
		ereport(NOTICE,
				(errmsg("no branch of repository \"%s\" matches stable_branches \"%s\"",
						ld->args.path, ld->args.stable_re),
				 errdetail("The expression is matched against full ref names, such as \"refs/heads/stable-1.0\" or \"refs/remotes/origin/linux-6.1.y\"."),
				 errhint("Only the mainline is loaded.")));
}

static int
pair_cmp(const void *a, const void *b)
{
	return FIXES_CMP_BY2((const Pair *) a, (const Pair *) b, fixing, target);
}

/* the distinct resolved pairs of the mainline Fixes edges (not the reverts) */
static Pair *
mainline_pairs(FixesLoad *ld, int64 *npairs)
{
	Pair	   *pairs = fixes_palloc_big(sizeof(Pair) * Max(ld->edge_list.n, 1), MCXT_ALLOC_HUGE);
	int64		n = 0;
	int64		kept = 0;

	for (int64 k = 0; k < ld->edge_list.n; k++)
		if (ld->edge_list.edges[k].now.status == EDGE_RESOLVED && ld->edge_list.edges[k].kind == KIND_FIXES)
		{
			pairs[n].fixing = ld->edge_list.edges[k].fixing;
			pairs[n].target = ld->edge_list.edges[k].now.target;
			n++;
		}
	qsort(pairs, n, sizeof(Pair), pair_cmp);
	for (int64 k = 0; k < n; k++)
		if (kept == 0 || pair_cmp(&pairs[kept - 1], &pairs[k]) != 0)
			pairs[kept++] = pairs[k];
	*npairs = kept;
	return pairs;
}

/*
 * The stable releases: tags of stable commits that the release rule
 * accepts, in version order (the tags are), ranked after the mainline's
 * (ranks nmain + 1 .. nmain + n; ld->releases->n stays the mainline's).
 * ld's release arrays have room for every tag.
 */
static void
find_stable_releases(FixesLoad *ld, Stable *st)
{
	FixesGraph *g = ld->graph;
	int			r = ld->releases->n;

	bool	   *mainline_tag = palloc0(sizeof(bool) * Max(ld->releases->ntags, 1));

	st->nmain = ld->releases->n;
	/* release_tags 'all': a tag of a stable commit may be a mainline release */
	for (int q = 0; q < st->nmain; q++)
		mainline_tag[ld->releases->tag_of[q]] = true;
	for (int t = 0; t < ld->releases->ntags; t++)
	{
		uint32		idx = fixes_graph_lookup(g, &ld->releases->tags[t].commit);

		if (idx == FIXES_NO_IDX || idx < ld->n_mainline || mainline_tag[t] ||
			!fixes_load_is_release(ld, ld->releases->tags[t].name))
			continue;
		ld->releases->tag_of[r] = t;
		ld->releases->commit[r] = idx;
		ld->releases->size[r] = 0;
		r++;
	}
	pfree(mainline_tag);
	st->n = r - st->nmain;
	ld->releases->name = repalloc(ld->releases->name, sizeof(Datum) * (r + 1));
	for (int k = st->nmain; k < r; k++)
		ld->releases->name[k + 1] = CStringGetTextDatum(ld->releases->tags[ld->releases->tag_of[k]].name);
	st->series = palloc0(sizeof(int32) * Max(st->n, 1));
}

/*
 * The release of each stable commit: the first stable release, in version
 * order, that has it as an ancestor.  The marking walks stop at mainline
 * commits, which are pre-marked -1.
 */
static void
mark_stable(FixesLoad *ld, Stable *st)
{
	FixesGraph *g = ld->graph;
	int32	   *tmp = fixes_palloc_big(sizeof(int32) * Max(g->n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	uint32	   *stack = fixes_palloc_big(sizeof(uint32) * Max(g->n, 1), MCXT_ALLOC_HUGE);
	/*
	 * The releases that mark stable commits, in version order: the stable
	 * ones and (release_tags 'all') the mainline releases tagged on a
	 * stable commit, so that a backport merged on branch-2.0 before v2.0.0
	 * ships in v2.0.0, the series' own release
	 */
	uint32	   *commit = palloc(sizeof(uint32) * (st->nmain + st->n + 1));
	int32	   *rank = palloc(sizeof(int32) * (st->nmain + st->n + 1));
	int			n = 0;
	int			k = 0;

	st->main_at = NULL;
	for (int q = 0; q < st->nmain; q++)
	{
		uint32		idx;

		if (ld->releases->off_ref == NULL || !ld->releases->off_ref[q])
			continue;
		idx = fixes_graph_lookup(g, &ld->releases->tags[ld->releases->tag_of[q]].commit);
		if (idx == FIXES_NO_IDX || idx < ld->n_mainline)
			continue;
		if (st->main_at == NULL)
			st->main_at = palloc0(sizeof(int32) * Max(g->n - ld->n_mainline, 1));
		st->main_at[idx - ld->n_mainline] = Max(st->main_at[idx - ld->n_mainline], q + 1);
		/* merged with the stable releases by tag position (version order) */
		while (k < st->n && ld->releases->tag_of[st->nmain + k] < ld->releases->tag_of[q])
		{
			commit[n] = ld->releases->commit[st->nmain + k];
			rank[n++] = st->nmain + k + 1;
			k++;
		}
		commit[n] = idx;
		rank[n++] = q + 1;
	}
	for (; k < st->n; k++)
	{
		commit[n] = ld->releases->commit[st->nmain + k];
		rank[n++] = st->nmain + k + 1;
	}

	for (uint32 i = 0; i < ld->n_mainline; i++)
		tmp[i] = -1;
	fixes_mark_releases(g->n, g->par_start, g->par_end, g->parents, commit, n, tmp, stack);
	fixes_load_marks_grow(ld);
	for (uint32 i = ld->n_mainline; i < g->n; i++)
	{
		int32		r = tmp[i] > 0 ? rank[tmp[i] - 1] : 0;

		ld->mark[i] = r;
		/* fixes_releases.commits of a mainline release counts mainline commits */
		if (r > st->nmain)
			ld->releases->size[r - 1]++;
	}
	pfree(rank);
	pfree(commit);
	pfree(stack);
	pfree(tmp);
}

/*
 * Each mainline commit in an order where every commit comes after all its
 * children (Kahn's order over the parent links).
 */
static uint32 *
children_first(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;
	uint32		n = ld->n_mainline;
	uint32	   *children = fixes_palloc_big(sizeof(uint32) * Max(n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	uint32	   *order = fixes_palloc_big(sizeof(uint32) * Max(n, 1), MCXT_ALLOC_HUGE);
	uint32		head = 0;
	uint32		tail = 0;

	for (uint32 c = 0; c < n; c++)
		for (uint32 p = g->par_start[c]; p < g->par_end[c]; p++)
			children[g->parents[p]]++;
	for (uint32 c = 0; c < n; c++)
		if (children[c] == 0)
			order[tail++] = c;
	while (head < tail)
	{
		uint32		c = order[head++];

		if ((head & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		for (uint32 p = g->par_start[c]; p < g->par_end[c]; p++)
			if (--children[g->parents[p]] == 0)
				order[tail++] = g->parents[p];
	}
	Assert(tail == n);			/* a history has no cycle */
	pfree(children);
	return order;
}

/*
 * best[c], for each mainline commit c: the highest rank (the newest in
 * version order) of the mainline releases whose commit is c or one of its
 * ancestors, 0 for none.  In one pass over the mainline with parents before
 * children (Kahn's order over the parent links, reversed), O(commits +
 * parent links), whatever the number of fork points.
 */
static int32 *
best_release_below(FixesLoad *ld, int nmainrel)
{
	FixesGraph *g = ld->graph;
	uint32		n = ld->n_mainline;
	int32	   *best = fixes_palloc_big(sizeof(int32) * Max(n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	uint32	   *order = children_first(ld);

	for (int r = 1; r <= nmainrel; r++)
	{
		/* a release tagged off the ref is no ancestor of a mainline commit */
		if (ld->releases->off_ref != NULL && ld->releases->off_ref[r - 1])
			continue;
		best[ld->releases->commit[r - 1]] = Max(best[ld->releases->commit[r - 1]], r);
	}
	/* parents first */
	for (uint32 i = n; i-- > 0;)
	{
		uint32		c = order[i];

		for (uint32 p = g->par_start[c]; p < g->par_end[c]; p++)
			best[c] = Max(best[c], best[g->parents[p]]);
	}
	pfree(order);
	return best;
}

/*
 * The newest mainline release, in version order (the highest rank), whose
 * commit is an ancestor of stable commit start: the best below the mainline
 * parents met walking down the stable scope from it (its fork points).
 * stamp[] marks the commits met in this round.
 */
static int32
series_below(FixesLoad *ld, const Stable *st, const int32 *best, uint32 *stamp, uint32 *stack,
			 uint32 round, uint32 start)
{
	FixesGraph *g = ld->graph;
	uint32		nmain = ld->n_mainline;
	uint32		top = 0;
	int32		b = 0;

	stack[top++] = start;
	stamp[start] = round;
	if (st->main_at != NULL && start >= nmain)
		b = st->main_at[start - nmain];
	while (top > 0)
	{
		uint32		c = stack[--top];

		for (uint32 p = g->par_start[c]; p < g->par_end[c]; p++)
		{
			uint32		q = g->parents[p];

			if (stamp[q] == round)
				continue;
			stamp[q] = round;
			if (q >= nmain)
			{
				stack[top++] = q;	/* stable: walk on */
				/* release_tags 'all': a mainline release tagged on it */
				if (st->main_at != NULL)
					b = Max(b, st->main_at[q - nmain]);
			}
			else
				b = Max(b, best[q]);	/* a fork point */
		}
	}
	return b;
}

/* at most this many commits walked to tell whether a series holds several branches */
#define SERIES_CHECK_WORK ((int64) 50 * 1000 * 1000)

/*
 * What the series leave unsaid, in a NOTICE each: stable releases
 * that get no series (no mainline release is their ancestor: OVN's, whose
 * releases are all on release branches, loaded with 'ref'), and a series
 * whose stable releases sit on several branches (the newest of them, in
 * version order, does not reach another: every Open vSwitch release in the
 * series "v1.0.1" with 'ref').  The second walks the stable scope from the
 * newest release of each series with two or more, at most SERIES_CHECK_WORK
 * commits in all (then it is not checked, DEBUG1).
 */
static void
say_series(FixesLoad *ld, const Stable *st, uint32 *stamp, uint32 *stack, uint32 round)
{
	FixesGraph *g = ld->graph;
	uint32		nmain = ld->n_mainline;
	int			none = 0;
	int			first_none = -1;
	int			mixed = 0;
	int			mixed_series = 0;
	int			mixed_a = -1;
	int			mixed_b = -1;
	int			nseries = 0;
	int		   *newest = palloc(sizeof(int) * (st->nmain + 1));
	const char *hint = ld->releases->all ? NULL :
		"When the project tags its releases on release branches (Open vSwitch's v3.5.0 on branch-3.5), load it with release_tags => 'all'.";

	for (int b = 0; b <= st->nmain; b++)
		newest[b] = -1;
	for (int k = 0; k < st->n; k++)
	{
		if (st->series[k] == 0)
		{
			none++;
			if (first_none < 0)
				first_none = k;
			continue;
		}
		/* stable ranks ascend in version order */
		if (newest[st->series[k]] < 0)
			nseries++;
		newest[st->series[k]] = k;
	}
	if ((int64) nseries * (g->n - nmain) > SERIES_CHECK_WORK)
		elog(DEBUG1, "fixes_load %s: whether a series holds several branches is not checked (%d series, %u stable commits)",
			 ld->args.name, nseries, g->n - nmain);
	else
	{
		for (int32 b = 1; b <= st->nmain; b++)
		{
			uint32		start;
			uint32		top = 0;

			if (newest[b] < 0)
				continue;
			CHECK_FOR_INTERRUPTS();
			start = ld->releases->commit[st->nmain + newest[b]];
			stamp[start] = ++round;
			stack[top++] = start;
			while (top > 0)
			{
				uint32		c = stack[--top];

				for (uint32 p = g->par_start[c]; p < g->par_end[c]; p++)
				{
					uint32		q = g->parents[p];

					if (q < nmain || stamp[q] == round)
						continue;
					stamp[q] = round;
					stack[top++] = q;
				}
			}
			for (int k = 0; k < st->n; k++)
				if (st->series[k] == b && stamp[ld->releases->commit[st->nmain + k]] != round)
				{
					if (mixed_a < 0)
					{
						mixed_a = newest[b];
						mixed_b = k;
						mixed_series = b;
					}
					mixed++;
					break;
				}
		}
	}
	if (none > 0)
		ereport(NOTICE,
				(errmsg_plural("%d stable release of repository \"%s\" has no series",
							   "%d stable releases of repository \"%s\" have no series",
							   none, none, ld->args.name),
				 errdetail("No mainline release is an ancestor of \"%s\": fixes_affected has no series rows for it, and no bug counts in it.",
						   ld->releases->tags[ld->releases->tag_of[st->nmain + first_none]].name),
				 hint ? errhint("%s", hint) : 0));
	if (mixed > 0)
		ereport(NOTICE,
				(errmsg_plural("%d series of repository \"%s\" holds the releases of several branches",
							   "%d series of repository \"%s\" hold the releases of several branches",
							   mixed, mixed, ld->args.name),
				 errdetail("Series \"%s\" holds \"%s\" and \"%s\", which does not reach it: their rows of fixes_affected and counts mix the branches.",
						   ld->releases->tags[ld->releases->tag_of[mixed_series - 1]].name,
						   ld->releases->tags[ld->releases->tag_of[st->nmain + mixed_b]].name,
						   ld->releases->tags[ld->releases->tag_of[st->nmain + mixed_a]].name),
				 hint ? errhint("%s", hint) : 0));
	pfree(newest);
}

/*
 * The series of each stable release (series_below its commit), and of each
 * stable branch head, for the queued backports (queued_series()).
 */
static void
find_series(FixesLoad *ld, Stable *st)
{
	FixesGraph *g = ld->graph;
	uint32	   *stamp;
	uint32	   *stack;
	int32	   *best;
	uint32		round = 0;

	st->head_series = palloc0(sizeof(int32) * Max(ld->stable_branches->heads->n, 1));
	if (st->n == 0)
		return;
	best = best_release_below(ld, st->nmain);
	stamp = fixes_palloc_big(sizeof(uint32) * Max(g->n, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	stack = fixes_palloc_big(sizeof(uint32) * Max(g->n, 1), MCXT_ALLOC_HUGE);
	for (int k = 0; k < st->n; k++)
	{
		CHECK_FOR_INTERRUPTS();
		st->series[k] = series_below(ld, st, best, stamp, stack, ++round,
									 ld->releases->commit[st->nmain + k]);
	}
	for (int h = 0; h < ld->stable_branches->heads->n; h++)
	{
		uint32		idx = fixes_graph_lookup(g, &ld->stable_branches->heads->heads[h]);

		CHECK_FOR_INTERRUPTS();
		if (idx != FIXES_NO_IDX && idx >= ld->n_mainline)
			st->head_series[h] = series_below(ld, st, best, stamp, stack, ++round, idx);
	}
	say_series(ld, st, stamp, stack, round);
	pfree(stack);
	pfree(stamp);
	pfree(best);
}

/* resolve each backport line against the mainline, by unique prefix */
static void
resolve_backports(FixesLoad *ld, FixesBackportList *bl)
{
	FixesGraph *g = ld->graph;
	uint32		n = ld->n_mainline;
	fixes_prefix_entry *entries;
	fixes_prefix_entry *tmp;

	if (bl->n == 0)
		return;
	entries = fixes_palloc_big(sizeof(fixes_prefix_entry) * Max(n, 1), MCXT_ALLOC_HUGE);
	tmp = fixes_palloc_big(sizeof(fixes_prefix_entry) * Max(n, 1), MCXT_ALLOC_HUGE);
	for (uint32 i = 0; i < n; i++)
	{
		entries[i].key = fixes_prefix_key(g->oids[i].id);
		entries[i].idx = i;
	}
	fixes_prefix_sort(entries, tmp, n);
	pfree(tmp);
	for (int64 k = 0; k < bl->n; k++)
	{
		FixesBackportLine *b = &bl->lines[k];
		const char *hex = bl->text.data + b->abbrev_off;
		size_t		first;
		size_t		range = fixes_prefix_range(entries, n, hex, b->abbrev_len, &first);
		int			candidates = 0;

		if ((k & 0xfff) == 0)
			CHECK_FOR_INTERRUPTS();
		for (size_t j = first; j < first + range; j++)
		{
			uint32		idx = entries[j].idx;

			if (b->abbrev_len > 16 && !fixes_hex_prefix_matches(g->oids[idx].id, hex, b->abbrev_len))
				continue;
			candidates++;
			b->upstream = idx;
		}
		b->status = candidates == 1 ? EDGE_RESOLVED :
			candidates > 1 ? EDGE_AMBIGUOUS : EDGE_NOT_FOUND;
		b->method = candidates == 1 ? BACKPORT_ID : BACKPORT_NONE;
		if (candidates != 1)
			b->upstream = FIXES_NO_IDX;
	}
	pfree(entries);
}

static void
write_backports(FixesLoad *ld, const FixesBackportList *bl)
{
	FixesBulk  *b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_backports"));
	TupleDesc	desc = RelationGetDescr(b->rel);
	int			c_repo = fixes_attnum(desc, "repository_id");
	int			c_idx = fixes_attnum(desc, "commit_idx");
	int			c_line = fixes_attnum(desc, "line");
	int			c_up = fixes_attnum(desc, "upstream_idx");
	int			c_status = fixes_attnum(desc, "status");
	int			c_abbrev = fixes_attnum(desc, "abbrev");
	int			c_raw = fixes_attnum(desc, "raw");
	int			c_method = ld->has.backport_method ? fixes_attnum(desc, "method") : -1;
	Datum	   *values = palloc0(sizeof(Datum) * desc->natts);
	bool	   *nulls = palloc(sizeof(bool) * desc->natts);
	/* the row's text, and what a flush allocates, freed after each row */
	MemoryContext rowcxt = AllocSetContextCreate(CurrentMemoryContext, "fixes backport row",
												 ALLOCSET_DEFAULT_SIZES);

	for (int64 k = 0; k < bl->n; k++)
	{
		FixesBackportLine *bp = &bl->lines[k];
		const char *base = bl->text.data;
		MemoryContext old = MemoryContextSwitchTo(rowcxt);

		if ((k & 0xfff) == 0)
			CHECK_FOR_INTERRUPTS();
		memset(nulls, true, sizeof(bool) * desc->natts);
#define SET(col, datum) (values[col] = (datum), nulls[col] = false)
		SET(c_repo, Int32GetDatum(ld->repository_id));
		SET(c_idx, Int32GetDatum((int32) bp->commit));
		SET(c_line, Int32GetDatum(bp->line));
		if (bp->status == EDGE_RESOLVED)
			SET(c_up, Int32GetDatum((int32) bp->upstream));
		SET(c_status, CStringGetTextDatum(fixes_edge_status_names[bp->status]));
		/* a row of no line (line 0): abbrev and raw '' */
		SET(c_abbrev, PointerGetDatum(bp->line == 0 ? cstring_to_text("") :
									  cstring_to_text_with_len(base + bp->abbrev_off, bp->abbrev_len)));
		SET(c_raw, PointerGetDatum(bp->line == 0 ? cstring_to_text("") :
								   cstring_to_text_with_len(base + bp->raw_off, bp->raw_len)));
		if (c_method >= 0 && bp->method != BACKPORT_NONE)
			SET(c_method, CStringGetTextDatum(fixes_backport_method_names[bp->method]));
#undef SET
		fixes_bulk_insert(b, values, nulls, 128 + bp->raw_len);
		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
	}
	fixes_bulk_end(b);
	MemoryContextDelete(rowcxt);
}

/* version order of releases of both scopes: the position of the tag */
static inline int
release_pos(const FixesLoad *ld, int32 rank)
{
	return ld->releases->tag_of[rank - 1];
}

static int
shipped_cmp(const void *a, const void *b, void *arg)
{
	const Shipped *x = a;
	const Shipped *y = b;
	const FixesLoad *ld = arg;

	if (x->upstream != y->upstream)
		return x->upstream < y->upstream ? -1 : 1;
	if (x->series != y->series)
		return x->series < y->series ? -1 : 1;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	/* the same release: the backport with the smallest id */
	return memcmp(ld->graph->oids[x->commit].id, ld->graph->oids[y->commit].id, FIXES_OID_RAWSZ);
}

/* the released backports of upstream: sh[*lo .. return value) */
static int64
find_shipped(const Shipped *sh, int64 n, uint32 upstream, int64 *lo_out)
{
	int64		lo = 0;
	int64		hi = n;
	int64		end;

	while (lo < hi)
	{
		int64		mid = (lo + hi) / 2;

		if (sh[mid].upstream < upstream)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < n && sh[end].upstream == upstream; end++)
		;
	*lo_out = lo;
	return end;
}

/*
 * The series that have at least one stable release, in rank order, and
 * their stable releases, in version order, in one flat list.
 */
typedef struct SeriesList
{
	int			n;
	int32	   *rank;			/* by series: its mainline release's rank */
	int		   *first;			/* by series: its releases are rel[first .. first + count) */
	int		   *count;
	int		   *rel;			/* k (rank - nmain - 1) of each stable release */
	int		   *of;				/* by k: the series, -1 for none */
	int32	   *index;			/* by mainline rank: the series, -1 for none */
} SeriesList;

static void
series_list(FixesLoad *ld, Stable *st, SeriesList *sl)
{
	int32	   *index = palloc(sizeof(int32) * (st->nmain + 1));
	int			placed = 0;

	memset(index, -1, sizeof(int32) * (st->nmain + 1));
	sl->n = 0;
	sl->rank = palloc(sizeof(int32) * Max(st->n, 1));
	sl->first = palloc(sizeof(int) * (Max(st->n, 1) + 1));
	sl->count = palloc0(sizeof(int) * Max(st->n, 1));
	sl->rel = palloc(sizeof(int) * Max(st->n, 1));
	sl->of = palloc(sizeof(int) * Max(st->n, 1));
	/* the series in rank order: the order of the primary key */
	for (int32 b = 1; b <= st->nmain; b++)
		for (int k = 0; k < st->n; k++)
			if (st->series[k] == b)
			{
				index[b] = sl->n;
				sl->rank[sl->n++] = b;
				break;
			}
	for (int k = 0; k < st->n; k++)
	{
		sl->of[k] = st->series[k] > 0 ? index[st->series[k]] : -1;
		if (sl->of[k] >= 0)
			sl->count[sl->of[k]]++;
	}
	for (int s = 0; s < sl->n; s++)
	{
		sl->first[s] = placed;
		placed += sl->count[s];
		sl->count[s] = 0;
	}
	sl->first[sl->n] = placed;
	/* k ascending is version order (stable ranks follow the tags) */
	for (int k = 0; k < st->n; k++)
		if (sl->of[k] >= 0)
		{
			int			s = sl->of[k];

			sl->rel[sl->first[s] + sl->count[s]++] = k;
		}
	sl->index = index;
}

/*
 * The queued backports: by stable commit (index less n_mainline), the
 * series of a commit that no stable release contains yet, -1 for none or a
 * released commit.  Such a commit is on a branch after the branch's newest
 * release; its series is the branch head's.  The walk from each head stops
 * at mainline commits and at released ones (whose ancestors are released).
 */
static int *
queued_series(FixesLoad *ld, Stable *st, const SeriesList *sl)
{
	FixesGraph *g = ld->graph;
	uint32		nmain = ld->n_mainline;
	uint32		nstable = g->n - nmain;
	int		   *of = fixes_palloc_big(sizeof(int) * Max(nstable, 1), MCXT_ALLOC_HUGE);
	uint32	   *stack = fixes_palloc_big(sizeof(uint32) * Max(nstable, 1), MCXT_ALLOC_HUGE);
	bool	   *seen = fixes_palloc_big(sizeof(bool) * Max(nstable, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	memset(of, -1, sizeof(int) * Max(nstable, 1));
	for (int h = 0; h < ld->stable_branches->heads->n; h++)
	{
		uint32		idx = fixes_graph_lookup(g, &ld->stable_branches->heads->heads[h]);
		int32		b = st->head_series[h];
		int			s = b > 0 ? sl->index[b] : -1;
		uint32		top = 0;

		CHECK_FOR_INTERRUPTS();
		if (s < 0 || idx == FIXES_NO_IDX || idx < nmain || ld->mark[idx] != 0 || seen[idx - nmain])
			continue;
		seen[idx - nmain] = true;
		stack[top++] = idx;
		while (top > 0)
		{
			uint32		c = stack[--top];

			of[c - nmain] = s;
			for (uint32 p = g->par_start[c]; p < g->par_end[c]; p++)
			{
				uint32		q = g->parents[p];

				if (q < nmain || ld->mark[q] != 0 || seen[q - nmain])
					continue;
				seen[q - nmain] = true;
				stack[top++] = q;
			}
		}
	}
	pfree(seen);
	pfree(stack);
	return of;
}

/*
 * The series rows of one pair, gathered into the four arrays of its row of
 * fixes_affected_series (series, introduced_in, fixed_in and the backport
 * of the fix; the last two NULL where the series has no fix yet).  One row
 * per pair instead of one per pair and series: a kernel-sized history has
 * millions of series rows, and each row and index entry costs more to write
 * than the view costs to unnest.
 */
typedef struct AffectedRow
{
	int			n;
	Datum	   *elems[4];
	bool	   *nulls[4];
} AffectedRow;

static void
affected_add(AffectedRow *row, int32 series, int32 intro, const Shipped *fix)
{
	int			i = row->n++;

	row->elems[0][i] = Int32GetDatum(series);
	row->elems[1][i] = Int32GetDatum(intro);
	row->elems[2][i] = Int32GetDatum(fix ? fix->rank : 0);
	row->elems[3][i] = Int32GetDatum(fix ? (int32) fix->commit : 0);
	row->nulls[0][i] = row->nulls[1][i] = false;
	/* a queued fix: its backport, no release yet */
	row->nulls[2][i] = (fix == NULL || fix->rank == 0);
	row->nulls[3][i] = (fix == NULL);
}

static Datum
affected_array(const AffectedRow *row, int a)
{
	int			dims[1] = {row->n};
	int			lbs[1] = {1};

	return PointerGetDatum(construct_md_array(row->elems[a], row->nulls[a], 1, dims, lbs,
											  INT4OID, sizeof(int32), true, TYPALIGN_INT));
}

/*
 * The bit of a series whose mainline release is tagged off the ref
 * (release_tags 'all'), at the mainline commits its tag reaches first
 * from the stable scope: the fork points met walking down the stable
 * scope from its tag (its branch is a stable one: the series has stable
 * releases, which descend from it), from which the pass over the mainline
 * carries it to their ancestors.
 */
static void
series_fork_bits(FixesLoad *ld, int32 rank, uint64 *anc, int words, int bit)
{
	FixesGraph *g = ld->graph;
	uint32		nmain = ld->n_mainline;
	uint32		start = fixes_graph_lookup(g, &ld->releases->tags[ld->releases->tag_of[rank - 1]].commit);
	uint32		nstable = g->n - nmain;
	bool	   *seen;
	uint32	   *stack;
	uint32		top = 0;

	if (start == FIXES_NO_IDX || start < nmain)
		return;
	seen = fixes_palloc_big(sizeof(bool) * Max(nstable, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	stack = fixes_palloc_big(sizeof(uint32) * Max(nstable, 1), MCXT_ALLOC_HUGE);
	seen[start - nmain] = true;
	stack[top++] = start;
	while (top > 0)
	{
		uint32		c = stack[--top];

		CHECK_FOR_INTERRUPTS();
		for (uint32 p = g->par_start[c]; p < g->par_end[c]; p++)
		{
			uint32		q = g->parents[p];

			if (q < nmain)
				anc[(Size) q * words + bit / 64] |= UINT64CONST(1) << (bit % 64);
			else if (!seen[q - nmain])
			{
				seen[q - nmain] = true;
				stack[top++] = q;
			}
		}
	}
	pfree(stack);
	pfree(seen);
}

/* at most this much for the ancestry bits of one pass over the pairs */
#define ANCESTRY_BYTES ((Size) 64 * 1024 * 1024)

/*
 * The series rows of fixes_affected, streamed into the table in the order
 * of its primary key (pair, then series), each also handed to the counting
 * module (fixes_count_stable_row()) for the counts of the stable releases.
 *
 * Whether a mainline commit is an ancestor of the commit of series B is one
 * bit per commit and series, set at B's commit and carried to the parents in
 * one pass over the mainline (children first): O(commits × series / 64).
 * With more series than ANCESTRY_BYTES holds at once, they are taken in
 * groups, one pass over the pairs each.
 */
static void
write_affected(FixesLoad *ld, Stable *st, const SeriesList *sl, const FixesBackportList *bl,
			   const Pair *pairs, int64 npairs, FixesStableCounter *counter)
{
	FixesGraph *g = ld->graph;
	uint32		nmain = ld->n_mainline;
	Shipped    *sh;
	int64		nsh = 0;
	int		   *queued;
	uint32	   *order;
	uint64	   *anc;
	int			words;
	FixesBulk  *b;
	TupleDesc	desc;
	int			c_repo,
				c_fixing,
				c_target,
				c_series,
				c_intro,
				c_fixed,
				c_backport;
	Datum	   *values;
	bool	   *nulls;
	AffectedRow row;
	MemoryContext rowcxt;
	int			per_pass;

	if (sl->n == 0 || npairs == 0)
		return;
	queued = queued_series(ld, st, sl);

	/*
	 * The backports of each mainline commit, by series and version: the
	 * released ones, then the queued ones (rank 0, after every release).
	 */
	sh = fixes_palloc_big(sizeof(Shipped) * Max(bl->n, 1), MCXT_ALLOC_HUGE);
	for (int64 k = 0; k < bl->n; k++)
	{
		FixesBackportLine *bp = &bl->lines[k];
		int32		rank = ld->mark[bp->commit];
		/*
		 * a stable release, or (release_tags 'all') the series' own release,
		 * which a backport merged before its tag ships in
		 */
		int			s = rank > st->nmain ? sl->of[rank - st->nmain - 1] :
			rank > 0 ? sl->index[rank] : queued[bp->commit - ld->n_mainline];

		if (bp->status != EDGE_RESOLVED || bp->superseded || s < 0)
			continue;
		sh[nsh].upstream = bp->upstream;
		sh[nsh].rank = rank;
		sh[nsh].pos = rank > 0 ? release_pos(ld, rank) : INT_MAX;
		sh[nsh].series = s;
		sh[nsh].commit = bp->commit;
		nsh++;
	}
	pfree(queued);
	qsort_arg(sh, nsh, sizeof(Shipped), shipped_cmp, ld);

	order = children_first(ld);
	words = (int) Min((sl->n + 63) / 64,
					  Max(ANCESTRY_BYTES / (sizeof(uint64) * Max(nmain, 1)), 1));
	anc = fixes_palloc_big(sizeof(uint64) * words * Max(nmain, 1), MCXT_ALLOC_HUGE);
	per_pass = 64 * words;

	b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_affected_series"));
	desc = RelationGetDescr(b->rel);
	c_repo = fixes_attnum(desc, "repository_id");
	c_fixing = fixes_attnum(desc, "fixing_idx");
	c_target = fixes_attnum(desc, "target_idx");
	c_series = fixes_attnum(desc, "series_ranks");
	c_intro = fixes_attnum(desc, "introduced_ranks");
	c_fixed = fixes_attnum(desc, "fixed_ranks");
	c_backport = fixes_attnum(desc, "fix_backport_idxs");
	values = palloc0(sizeof(Datum) * desc->natts);
	nulls = palloc(sizeof(bool) * desc->natts);
	for (int a = 0; a < 4; a++)
	{
		row.elems[a] = palloc(sizeof(Datum) * sl->n);
		row.nulls[a] = palloc(sizeof(bool) * sl->n);
	}
	/* what a flush allocates, freed after each row */
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "fixes affected row",
								   ALLOCSET_DEFAULT_SIZES);

	for (int s0 = 0; s0 < sl->n; s0 += per_pass)
	{
		int			s1 = Min(sl->n, s0 + per_pass);

		/* the bits of the series s0 .. s1 - 1: B's commit and its ancestors */
		memset(anc, 0, sizeof(uint64) * words * Max(nmain, 1));
		for (int s = s0; s < s1; s++)
		{
			uint32		c = ld->releases->commit[sl->rank[s] - 1];

			if (ld->releases->off_ref != NULL && ld->releases->off_ref[sl->rank[s] - 1])
				series_fork_bits(ld, sl->rank[s], anc, words, s - s0);
			else
				anc[(Size) c * words + (s - s0) / 64] |= UINT64CONST(1) << ((s - s0) % 64);
		}
		for (uint32 i = 0; i < nmain; i++)
		{
			uint32		c = order[i];
			const uint64 *from = &anc[(Size) c * words];

			if ((i & 0xffff) == 0)
				CHECK_FOR_INTERRUPTS();
			for (uint32 p = g->par_start[c]; p < g->par_end[c]; p++)
			{
				uint64	   *to = &anc[(Size) g->parents[p] * words];

				for (int w = 0; w < words; w++)
					to[w] |= from[w];
			}
		}

		for (int64 k = 0; k < npairs; k++)
		{
			const Pair *pr = &pairs[k];
			const uint64 *fa = &anc[(Size) pr->fixing * words];
			const uint64 *ta = &anc[(Size) pr->target * words];
			int64		ti,
						tend,
						fi,
						fend;

			if ((k & 0xffff) == 0)
				CHECK_FOR_INTERRUPTS();
			tend = find_shipped(sh, nsh, pr->target, &ti);
			fend = find_shipped(sh, nsh, pr->fixing, &fi);
			row.n = 0;
			for (int s = s0; s < s1; s++)
			{
				int			w = (s - s0) / 64;
				uint64		bit = UINT64CONST(1) << ((s - s0) % 64);
				const Shipped *t = NULL;
				const Shipped *f = NULL;
				int32		intro;
				int			intro_pos;

				while (ti < tend && sh[ti].series < s)
					ti++;
				while (fi < fend && sh[fi].series < s)
					fi++;
				if (fa[w] & bit)
					continue;	/* fixed before the series forked */
				if (!(ta[w] & bit))
				{
					if (ti < tend && sh[ti].series == s && sh[ti].rank > 0)
						t = &sh[ti];	/* a regression the series imported */
					else
						continue;	/* the bug never shipped in B */
				}
				intro = t ? t->rank : sl->rank[s];
				intro_pos = release_pos(ld, intro);
				if (fi < fend && sh[fi].series == s)
					f = &sh[fi];
				if (f != NULL && f->pos <= intro_pos)
					continue;	/* fixed no later than it came in */

				affected_add(&row, sl->rank[s], intro, f);
				fixes_count_stable_row(counter, s, intro, f ? f->rank : 0);
			}
			if (row.n == 0)
				continue;
			memset(nulls, true, sizeof(bool) * desc->natts);
#define SET(col, datum) (values[col] = (datum), nulls[col] = false)
			{
				MemoryContext old = MemoryContextSwitchTo(rowcxt);

				SET(c_repo, Int32GetDatum(ld->repository_id));
				SET(c_fixing, Int32GetDatum((int32) pr->fixing));
				SET(c_target, Int32GetDatum((int32) pr->target));
				SET(c_series, affected_array(&row, 0));
				SET(c_intro, affected_array(&row, 1));
				SET(c_fixed, affected_array(&row, 2));
				SET(c_backport, affected_array(&row, 3));
				fixes_bulk_insert(b, values, nulls, 64 + 16 * row.n);
				MemoryContextSwitchTo(old);
				MemoryContextReset(rowcxt);
			}
#undef SET
		}
	}
	fixes_bulk_end(b);
	MemoryContextDelete(rowcxt);

	pfree(anc);
	pfree(order);
	pfree(sh);
}

/*
 * The walk of the stable scope: the commits of the stable heads that the
 * graph does not hold (the mainline's are known to the reader), appended to
 * the graph; their rows held until their releases are known, their Fixes
 * and revert lines and their backport lines into sc.
 */
static void
read_stable(FixesLoad *ld, StableScope *sc)
{
	FixesWalkScope scope = {0};

	sc->sink.edges = &sc->edges;
	sc->sink.n = &sc->nedges;
	sc->sink.cap = &sc->edges_cap;
	sc->sink.text = &sc->edge_text;
	scope.heads = ld->stable_branches->heads->heads;
	scope.nheads = ld->stable_branches->heads->n;
	scope.many = true;
	scope.mainline = false;
	scope.files = false;		/* the stable scope's files are not recorded */
	scope.rows = sc->rows = fixes_commit_rows_begin(ld, true);
	scope.begun = ld->stable_branches->begun;
	ld->stable_branches->begun = NULL;
	fixes_walk_scope_hook(&scope, fixes_stable_cc_hook());
	fixes_walk_scope_hook(&scope, fixes_backports_hook(&sc->backports));
	fixes_walk_scope_hook(&scope, fixes_edges_hook(&sc->sink));
	PG_TRY();
	{
		fixes_load_walk(ld, &scope);
	}
	PG_FINALLY();
	{
		fixes_load_walk_end(ld);
	}
	PG_END_TRY();
}

/*
 * Start the stable scope's reader now, while the backend writes the
 * mainline (a cold load: the graph holds the whole mainline, and nothing
 * adds to it until the stable phase): it reads ahead on the second core,
 * which the mainline's phases after the walk leave idle, and read_stable()
 * takes its walk.  At 1.3M commits with 6 stable series, the stable scope
 * read in 0.91 s after the mainline's phases, 0.36 s of it the backend's
 * (bench/README.md, session 29).  A refresh reads its stable scope as
 * before (its graph may be sparse).  A reader not taken is stopped at the
 * end of the stable phase, or with the transaction.
 */
void
fixes_load_stable_begin(FixesLoad *ld)
{
	FixesWalk  *w;
	MemoryContext old;

	if (ld->refresh != NULL || ld->empty || !ld->has.stable_scope || ld->args.stable_re == NULL ||
		ld->stable_branches->heads == NULL || ld->stable_branches->heads->n == 0)
		return;
	old = MemoryContextSwitchTo(ld->cxt);
	w = fixes_walk_create(ld->args.path, ld->graph, true);
	w->files = false;			/* as read_stable()'s scope */
	if (fixes_walk_begin_many(w, ld->stable_branches->heads->heads, ld->stable_branches->heads->n, true))
		ld->stable_branches->begun = w;
	MemoryContextSwitchTo(old);
}

/*
 * The stable phase of a load (see the header comment): it reads its scope
 * and computes and writes its results with the helpers the mainline's
 * phases use (the walk, resolution, the writers of fixes_commits and
 * fixes_edges), on edges and rows of its own.  What the load reports is the
 * mainline's.
 */
void
fixes_load_stable(FixesLoad *ld)
{
	Pair	   *pairs;
	int64		npairs;
	Stable		st = {0};
	StableScope sc = {0};
	FixesEdgeSet es;
	SeriesList	sl;
	FixesStableSeries series;
	FixesStableCounter *counter;
	FixesStableCounts counts = {0};
	int64	   *backports;
	MemoryContext old;

	if (ld->args.stable_re == NULL || ld->stable_branches->heads == NULL || ld->stable_branches->heads->n == 0)
		return;
	/* what lives for the whole phase: in the load's context, not SPI's */
	old = MemoryContextSwitchTo(ld->cxt);
	pairs = mainline_pairs(ld, &npairs);
	/* the mainline's edges are written, and their pairs kept */
	fixes_load_free_edges(ld);

	read_stable(ld, &sc);
	fixes_load_phase(ld, "stable scope read");
	if (ld->graph->n == ld->n_mainline)
		ereport(NOTICE,
				(errmsg("the branches of repository \"%s\" that match stable_branches hold no commit that \"%s\" does not reach",
						ld->args.path, ld->args.ref),
				 errhint("Only the mainline is loaded.")));

	find_stable_releases(ld, &st);
	mark_stable(ld, &st);
	find_series(ld, &st);
	fixes_load_phase(ld, "stable releases and their series found");
	fixes_commit_rows_write_held(ld, sc.rows);
	MemoryContextSwitchTo(ld->cxt);
	fixes_load_phase(ld, "stable commits written");
	es = fixes_edge_set(&sc.sink);
	fixes_resolve_edges(ld, &es, false);
	MemoryContextSwitchTo(ld->cxt);
	fixes_fetch_target_times(ld, &es);	/* introduced_at of mainline targets a refresh did not read */
	fixes_write_edges(ld, &es);
	MemoryContextSwitchTo(ld->cxt);
	fixes_load_phase(ld, "stable edges resolved and written");
	resolve_backports(ld, &sc.backports);
	fixes_load_apply_backport_overrides(ld, &sc.backports);
	fixes_load_backports_by_subject(ld, &sc.backports);
	write_backports(ld, &sc.backports);
	MemoryContextSwitchTo(ld->cxt);
	fixes_load_phase(ld, "backports resolved and written");

	/* the series rows of fixes_affected, and what the counting module counts */
	backports = palloc0(sizeof(int64) * Max(st.n, 1));
	fixes_count_backports(ld, &sc.backports, st.nmain, backports);
	series_list(ld, &st, &sl);
	series.n = sl.n;
	series.first = sl.first;
	series.rel = sl.rel;
	counter = fixes_count_stable_begin(ld, st.nmain, st.n, &series);
	write_affected(ld, &st, &sl, &sc.backports, pairs, npairs, counter);
	fixes_load_phase(ld, "affected series written");
	counts.nmain = st.nmain;
	counts.n = st.n;
	counts.series = st.series;
	counts.backports = backports;
	fixes_count_stable_releases(counter, &counts);
	fixes_load_write_stable_releases(ld, &counts);
	CommandCounterIncrement();
	fixes_load_phase(ld, "stable releases written");
	MemoryContextSwitchTo(old);
}

/*
 * The stable branches this file owns (load_stable.h).
 * Allocated in ld->cxt, zeroed, before the load's first phase (run_load()).
 */
void
fixes_stable_branches_init(FixesLoad *ld)
{
	ld->stable_branches = MemoryContextAllocZero(ld->cxt, sizeof(FixesStableBranches));
}
