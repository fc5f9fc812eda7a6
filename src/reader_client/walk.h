/*
 * walk.h — the commits reachable from a start point, newest first, as the
 * reader process sends them
 */
#ifndef FIXES_WALK_H
#define FIXES_WALK_H

#include "commit_raw.h"
#include "graph.h"
#include "reader_proc.h"

/* one commit as the walk returns it; valid until the next fixes_walk_next() */
typedef struct FixesCommit
{
	uint32		idx;			/* index in the graph */
	const FixesOid *oid;
	fixes_raw_commit raw;		/* points into the reader's buffer */
} FixesCommit;

typedef struct FixesWalk
{
	const char *path;
	FixesGraph *graph;
	bool		record_parents; /* fill the graph's parent lists */
	bool		files;			/* each commit is followed by its files */
	FixesReader *reader;
	const FixesOid *hide;		/* a refresh: the previous head, or NULL */
	uint32		n_before;		/* commits the graph held when the walk began */
	uint32	   *pbuf;
	int			pbuf_cap;
	int64		missing_parents;	/* parents absent from a shallow clone */
	FixesGraph *missing;		/* their ids, to count each once */
} FixesWalk;

extern FixesWalk *fixes_walk_create(const char *path, FixesGraph *graph, bool record_parents);
extern bool fixes_walk_start(FixesWalk *w, const FixesOid *head);
extern bool fixes_walk_adopt(FixesWalk *w, FixesReader *reader, const FixesOid *head);
extern bool fixes_walk_start_many(FixesWalk *w, const FixesOid *heads, int nheads);
extern bool fixes_walk_begin_many(FixesWalk *w, const FixesOid *heads, int nheads, bool ahead);
extern bool fixes_walk_take_many(FixesWalk *w, const FixesOid *heads, int nheads);
extern bool fixes_walk_log(FixesWalk *w, const char *ref);
extern bool fixes_walk_next(FixesWalk *w, FixesCommit *out);
extern void fixes_walk_files(FixesWalk *w, WireFiles *out);
extern void fixes_walk_release(FixesWalk *w);
extern void fixes_walk_report(FixesWalk *w);

#endif							/* FIXES_WALK_H */
