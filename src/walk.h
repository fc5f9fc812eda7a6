/*
 * walk.h — read every commit reachable from some start points, newest first
 */
#ifndef FIXES_WALK_H
#define FIXES_WALK_H

#include "commit_raw.h"
#include "git_util.h"
#include "graph.h"

/* one commit as the walk returns it; valid until the next fixes_walk_next() */
typedef struct FixesCommit
{
	uint32		idx;			/* index in the graph */
	const git_oid *oid;
	fixes_raw_commit raw;		/* points into the object read from the odb */
} FixesCommit;

typedef struct FixesWalkNode
{
	git_odb_object *obj;
	fixes_raw_commit raw;
	int64		time;			/* committer time: the heap's key */
	uint64		seq;			/* discovery order breaks ties */
	uint32		idx;
} FixesWalkNode;

typedef struct FixesWalk
{
	FixesGit   *git;
	FixesGraph *graph;
	bool		record_parents; /* fill the graph's parent lists */
	FixesWalkNode *heap;
	int			heap_len;
	int			heap_cap;
	git_odb_object *current;
	uint64		seq;
	uint32	   *pbuf;
	int			pbuf_cap;
	bool		shallow;
	int64		missing_parents;	/* parents absent from a shallow clone */
	FixesGraph *missing;		/* their ids, to count each once */
} FixesWalk;

extern FixesWalk *fixes_walk_create(FixesGit *git, FixesGraph *graph, bool record_parents);
extern bool fixes_walk_push(FixesWalk *w, const git_oid *oid);
extern bool fixes_walk_next(FixesWalk *w, FixesCommit *out);
extern void fixes_walk_release(FixesWalk *w);
extern void fixes_walk_report(FixesWalk *w);

#endif							/* FIXES_WALK_H */
