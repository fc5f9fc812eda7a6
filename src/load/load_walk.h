/*
 * load_walk.h — the walk loop of a load, its per-commit hooks, the writer of
 * fixes_commits, and the edge lists that the helpers fill, resolve and write
 *
 * Helpers of the loader's phases (load_state.h has the map): the read
 * phase (load_read.c) and the stable phase (load_stable.c) each walk their
 * scope with fixes_load_walk(), giving it the heads, where the rows of
 * fixes_commits go (load_commit_rows.c) and the list of hooks they own; the
 * loop calls the hooks in order for every commit.  Both phases then resolve
 * (load_resolve.c) and write (load_write_edges.c) an edge list of their
 * own through the same helpers.
 */
#ifndef FIXES_LOAD_WALK_H
#define FIXES_LOAD_WALK_H

#include "load_state.h"
#include "commit_fields.h"
#include "load_commit_rows.h"
#include "walk.h"

/* one commit of the walk, as the hooks see it */
typedef struct FixesWalkCommit
{
	const FixesCommit *c;		/* its raw fields: valid until the files are read */
	FixesWalk  *walk;			/* the files hook reads the commit's files from it */
	const FixesCommitFields *f; /* as PostgreSQL values */
	const FixesCommitCols *cols;
	Datum	   *values;			/* its row of fixes_commits, written after the hooks */
	bool	   *nulls;
	text	  **paths;			/* the paths it changed, once the files hook read them */
	int			npaths;
} FixesWalkCommit;

/*
 * What the walk calls for every commit, registered by the phase that owns
 * it: begin before the first commit (even when there is none), commit for
 * each in the order of the list, end after the last.  Any may be NULL.
 */
typedef struct FixesWalkHook
{
	void		(*begin) (FixesLoad *ld, void *arg, const FixesCommitRows *rows);
	void		(*commit) (FixesLoad *ld, void *arg, FixesWalkCommit *wc);
	void		(*end) (FixesLoad *ld, void *arg);
	void	   *arg;
} FixesWalkHook;

/* at most this many hooks in one walk */
#define FIXES_MAX_WALK_HOOKS 16

/* what one walk reads, and what it calls */
typedef struct FixesWalkScope
{
	const FixesOid *heads;		/* the start points */
	int			nheads;
	bool		many;			/* several, given on the reader's stdin (the
								 * stable scope); else heads[0] alone */
	bool		mainline;		/* fixes_commits.mainline of its rows */
	bool		files;			/* the reader sends each commit's files */
	const FixesOid *hide;		/* a refresh: the previous head (and its
								 * ancestors) is not walked; NULL: none */
	FixesReader **ahead;		/* where a reader that walks that scope already
								 * waits (the driver stops it on an error until
								 * the walk takes it), or NULL */
	bool		ahead_files;	/* it sends the files */
	FixesWalk  *begun;			/* a walk of heads (many) whose reader was
								 * started before (fixes_walk_begin_many()),
								 * which this walk takes; or NULL */
	FixesCommitRows *rows;		/* where the rows go */
	FixesWalkHook hooks[FIXES_MAX_WALK_HOOKS];
	int			nhooks;
} FixesWalkScope;

extern void fixes_walk_scope_hook(FixesWalkScope *scope, FixesWalkHook hook);
extern void fixes_load_walk(FixesLoad *ld, FixesWalkScope *scope);
extern void fixes_load_walk_end(FixesLoad *ld);
extern bool fixes_walk_line_counted(FixesLoad *ld, uint32 idx, int *n);


/*
 * The hooks, each registered by the phase that owns it (the read phase,
 * load_read.c: all but the backports; the stable phase, load_stable.c: Cc:
 * stable, the backport lines and the edges).
 */
extern FixesWalkHook fixes_stable_cc_hook(void);	/* load_walk.c */
extern FixesWalkHook fixes_trailers_hook(void); /* load_trailers.c */
extern FixesWalkHook fixes_trailer_keys_hook(void); /* load_trailer_keys.c */
extern FixesWalkHook fixes_files_hook(void);	/* load_files.c */
extern FixesWalkHook fixes_path_prefixes_hook(void);	/* load_files.c, for
														 * load_subsystem_counts.c */
extern FixesWalkHook fixes_maintainers_paths_hook(void);	/* load_files.c, for
															 * load_maintainers.c */
extern FixesWalkHook fixes_backports_hook(FixesBackportList *bl);	/* load_backports.c */
extern FixesWalkHook fixes_edges_hook(FixesEdgeSink *sink); /* load_walk.c */

/* the edges that resolution and the edge writer work on */
typedef struct FixesEdgeSet
{
	FixesEdge  *edges;
	int64		n;
	const char *text;			/* the base of the offsets of the edges */
} FixesEdgeSet;

static inline FixesEdgeSet
fixes_edge_set(FixesEdgeSink *sink)
{
	FixesEdgeSet s = {*sink->edges, *sink->n, sink->text->data};

	return s;
}

/* load_resolve.c: refresh: only the edges the new commits can change */
extern void fixes_resolve_edges(FixesLoad *ld, FixesEdgeSet *es, bool refresh);

/* load_write_edges.c */
extern void fixes_fetch_target_times(FixesLoad *ld, const FixesEdgeSet *es);
extern void fixes_write_edges(FixesLoad *ld, const FixesEdgeSet *es);

#endif							/* FIXES_LOAD_WALK_H */
