/*
 * load_read.c — fixes_load(), the read phase: walk the mainline once
 *
 * Every commit reachable from the ref that the graph does not hold yet (all
 * of them for a full load) is read once, by the walk loop (load_walk.c).
 * Its row of fixes_commits is written at once, while the reader process
 * goes on (load_commit_rows.c), with the release the walk can tell (below);
 * its rows of fixes_trailers and fixes_commit_files too (load_trailers.c,
 * load_files.c).  Only the subject's hash, the commit time and the Fixes
 * and revert lines stay in memory, in flat arrays and arenas (ld->edge_list.edges).
 *
 * The hooks of the mainline's walk, in the order the loop calls them: the
 * walk's release, Cc: stable, the trailers and their keys (on the raw
 * message, so before the files), the files, their path prefixes, their
 * (commit, path) pairs for the MAINTAINERS attribution, the newest
 * committer date, the Fixes and revert lines.
 *
 * The release of a commit is the first release whose tag reaches it: the
 * first among its own tags and its children's releases.  The walk sends
 * commits newest first, so a commit's children come before it, and its
 * release is known when it comes, except where a child is older than its
 * parent (clock skew) or as old (the same second): then the child may come
 * after it.  load_releases.c marks every commit from the whole graph and
 * lists the rows that the walk got wrong, for load_write_commits.c to
 * correct (a handful, if any).
 */
#include "postgres.h"

#include "access/table.h"
#include "lib/qunique.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "load_files.h"
#include "load_read.h"
#include "load_releases.h"
#include "load_walk.h"
#include "refresh.h"

/* a release tag's commit and the tag's position in ld->releases->tags (+ 1) */
typedef struct FixesTagRelease
{
	FixesOid	commit;
	int32		pos;
} FixesTagRelease;

static int
tag_release_cmp(const void *a, const void *b)
{
	const FixesTagRelease *x = a;
	const FixesTagRelease *y = b;
	int			c = memcmp(x->commit.id, y->commit.id, FIXES_OID_RAWSZ);

	if (c != 0)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int
tag_commit_cmp(const void *a, const void *b)
{
	return memcmp(((const FixesTagRelease *) a)->commit.id,
				  ((const FixesTagRelease *) b)->commit.id, FIXES_OID_RAWSZ);
}

/* the state of the release hook: the release tags, and their names */
typedef struct WalkReleases
{
	FixesTagRelease *tags;		/* the releases' commits, sorted */
	int			ntags;
	Datum	   *names;			/* tag position + 1 -> its name as text */
} WalkReleases;

/*
 * The tags that are releases (their commits are in scope when the walk
 * reaches them), sorted by commit, the first in version order kept of
 * those on the same commit; and their names as text.
 */
static void
walk_releases_begin(FixesLoad *ld, WalkReleases *wr)
{
	FixesTagRelease *t = palloc(sizeof(FixesTagRelease) * Max(ld->releases->ntags, 1));
	int			n = 0;

	wr->names = palloc0(sizeof(Datum) * (ld->releases->ntags + 1));
	for (int i = 0; i < ld->releases->ntags; i++)
	{
		if (!fixes_load_is_release(ld, ld->releases->tags[i].name))
			continue;
		t[n].commit = ld->releases->tags[i].commit;
		t[n].pos = i + 1;
		wr->names[i + 1] = CStringGetTextDatum(ld->releases->tags[i].name);
		n++;
	}
	qsort(t, n, sizeof(FixesTagRelease), tag_release_cmp);
	wr->ntags = (int) qunique(t, n, sizeof(FixesTagRelease), tag_commit_cmp);
	wr->tags = t;
	ld->releases->walked = NULL;
	ld->releases->walked_cap = 0;
}

/*
 * The release of the commit just walked (tag position + 1, 0: none), passed
 * on to its parents that have not been walked.  ld->releases->walked holds,
 * for a commit waiting to be walked, the first release its walked children
 * gave it (>= 0); for a walked one, the release its row was written with,
 * as -1 - release (< 0), for load_releases.c to check.  By index less
 * ld->n_old: a refresh walks only the commits after the old ones.
 */
static int32
walk_release(FixesLoad *ld, const WalkReleases *wr, const FixesCommit *c)
{
	FixesGraph *g = ld->graph;
	FixesTagRelease key;
	FixesTagRelease *t;
	int32		rel;
	uint32		base = ld->n_old;

	Assert(c->idx >= base);
	if (g->n - base > ld->releases->walked_cap)
	{
		uint32		cap = Max(g->n - base, Max(ld->releases->walked_cap * 2, 1024));

		ld->releases->walked = fixes_repalloc_big(ld->cxt, ld->releases->walked,
											  sizeof(int32) * ld->releases->walked_cap, sizeof(int32) * cap);
		memset(ld->releases->walked + ld->releases->walked_cap, 0,
			   sizeof(int32) * (cap - ld->releases->walked_cap));
		ld->releases->walked_cap = cap;
	}
	rel = ld->releases->walked[c->idx - base];
	Assert(rel >= 0);
	key.commit = *c->oid;
	t = wr->ntags == 0 ? NULL :
		bsearch(&key, wr->tags, wr->ntags, sizeof(FixesTagRelease), tag_commit_cmp);
	if (t != NULL && (rel == 0 || t->pos < rel))
		rel = t->pos;
	ld->releases->walked[c->idx - base] = -1 - rel;
	if (rel != 0)
		for (uint32 p = g->par_start[c->idx]; p < g->par_end[c->idx]; p++)
		{
			int32	   *q;

			if (g->parents[p] < base)
				continue;		/* an old commit: not walked again */
			q = &ld->releases->walked[g->parents[p] - base];
			if (*q == 0 || (*q > 0 && rel < *q))
				*q = rel;
		}
	return rel;
}

/* the walk's release of each commit: into its row, and passed on to its parents */
static void
release_begin(FixesLoad *ld, void *arg, const FixesCommitRows *rows)
{
	walk_releases_begin(ld, arg);
}

static void
release_commit(FixesLoad *ld, void *arg, FixesWalkCommit *wc)
{
	const WalkReleases *wr = arg;
	int32		r = walk_release(ld, wr, wc->c);

	if (r != 0)
	{
		wc->values[wc->cols->release] = wr->names[r];
		wc->nulls[wc->cols->release] = false;
	}
}

/* the newest committer date of the new mainline commits */
static void
newest_commit(FixesLoad *ld, void *arg, FixesWalkCommit *wc)
{
	const FixesCommitFields *f = wc->f;

	if (!f->committed_null && (!ld->newest.set || f->committed_at > ld->newest.at))
	{
		ld->newest.at = f->committed_at;
		ld->newest.set = true;
	}
}

/*
 * Walk the commits reachable from the ref that the graph does not hold yet
 * (all of them for a full load), with the hooks of the mainline (see the
 * header comment).  A refresh's reader that walks already (ld->ahead.reader) is
 * taken when it fits, stopped otherwise.
 */
void
fixes_load_read(FixesLoad *ld)
{
	FixesWalkScope scope = {0};
	FixesWalkHook release = {release_begin, release_commit, NULL, palloc0(sizeof(WalkReleases))};
	FixesWalkHook newest = {NULL, newest_commit, NULL, NULL};
	FixesEdgeSink *edges = palloc(sizeof(FixesEdgeSink));

	edges->edges = &ld->edge_list.edges;
	edges->n = &ld->edge_list.n;
	edges->cap = &ld->edge_list.cap;
	edges->text = &ld->edge_list.text;
	scope.heads = &ld->head;
	scope.nheads = 1;
	scope.mainline = true;
	scope.files = ld->paths->files;
	scope.ahead = &ld->ahead.reader;
	scope.ahead_files = ld->ahead.files;
	/* a refresh: the reader finds the old commits the walk meets */
	if (ld->refresh != NULL)
		scope.hide = fixes_refresh_walk_hide(ld);
	scope.rows = fixes_commit_rows_begin(ld, false);
	fixes_walk_scope_hook(&scope, release);
	fixes_walk_scope_hook(&scope, fixes_stable_cc_hook());
	if (ld->has.trailer_tables)
	{
		fixes_walk_scope_hook(&scope, fixes_trailers_hook());
		fixes_walk_scope_hook(&scope, fixes_trailer_keys_hook());
	}
	if (scope.files)
	{
		fixes_walk_scope_hook(&scope, fixes_files_hook());
		fixes_walk_scope_hook(&scope, fixes_path_prefixes_hook());
		fixes_walk_scope_hook(&scope, fixes_maintainers_paths_hook());
	}
	fixes_walk_scope_hook(&scope, newest);
	fixes_walk_scope_hook(&scope, fixes_edges_hook(edges));
	fixes_load_walk(ld, &scope);
}
