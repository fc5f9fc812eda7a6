/*
 * load.h — the state of one fixes_load() call, shared by its phases
 *
 * read (load_read.c) → releases (load_releases.c) → resolve (load_resolve.c)
 * → write (load_write.c).  Per-commit facts are flat arrays indexed by the
 * graph's commit index; strings live in arenas.
 */
#ifndef FIXES_LOAD_H
#define FIXES_LOAD_H

#include "datatype/timestamp.h"
#include "utils/tuplestore.h"

#include "arena.h"
#include "git_util.h"
#include "graph.h"
#include "tags.h"
#include "text_decode.h"

typedef enum FixesEdgeStatus
{
	EDGE_RESOLVED,
	EDGE_AMBIGUOUS,
	EDGE_NOT_FOUND
} FixesEdgeStatus;

typedef enum FixesEdgeMethod
{
	METHOD_NONE,
	METHOD_HASH,
	METHOD_HASH_SUBJECT,
	METHOD_SUBJECT
} FixesEdgeMethod;

typedef struct FixesEdge
{
	uint32		fixing;			/* commit index */
	int32		line;
	uint32		target;			/* FIXES_NO_IDX unless resolved */
	uint8		status;			/* FixesEdgeStatus */
	uint8		method;			/* FixesEdgeMethod */
	uint8		abbrev_len;
	int32		candidates;		/* commits the abbrev matched */
	int32		subj_len;		/* -1: no quoted subject */
	uint32		raw_len;
	Size		abbrev_off;		/* in edge_text */
	Size		subj_off;
	Size		raw_off;
} FixesEdge;

typedef struct FixesLoad
{
	/* arguments */
	char	   *path;
	char	   *ref;
	char	   *pattern;		/* NULL: every tag but pre-releases */
	char	   *name;
	Oid			nsp;			/* the extension's schema */
	int32		repository_id;

	FixesGit   *git;
	FixesGraph *graph;
	FixesDecoder decoder;
	MemoryContext cxt;			/* everything of the load */
	bool		empty;			/* the repository has no commits */
	git_oid		head;

	/* phase read: commit rows (release still NULL) spill to disk */
	struct FixesWalk *walk;		/* freed by the caller in PG_FINALLY */
	TupleDesc	commits_desc;
	int			release_att;	/* position of fixes_commits.release */
	Tuplestorestate *commit_rows;
	TimestampTz *committed_at;	/* by index */
	bool	   *committed_null;
	Size	   *subj_off;		/* by index, in subjects */
	uint32	   *subj_len;
	FixesArena	subjects;
	FixesEdge  *edges;
	int64		nedges;
	int64		edges_cap;
	FixesArena	edge_text;

	/* phase releases */
	FixesTag   *tags;
	int			ntags;
	int		   *release_tag;	/* rank - 1 -> index in tags */
	uint32	   *release_commit; /* rank - 1 -> commit index */
	int64	   *release_size;	/* rank - 1 -> commits */
	int			nreleases;
	int32	   *mark;			/* by index: release rank, 0 = unreleased */

	/* phase resolve */
	int64		resolved;
} FixesLoad;

extern void fixes_load_read(FixesLoad *ld);
extern void fixes_load_check_pattern(FixesLoad *ld);
extern void fixes_load_releases(FixesLoad *ld);
extern void fixes_load_resolve(FixesLoad *ld);
extern void fixes_load_write(FixesLoad *ld);
extern void fixes_load_finish(FixesLoad *ld, double seconds);

#endif							/* FIXES_LOAD_H */
