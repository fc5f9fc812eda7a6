/*
 * refresh_state.h — what a load knows of the previous one, and the state
 * of a refresh (src/load/refresh/)
 *
 * FixesPrevious is the previous load's row of fixes_repositories
 * (previous.c reads it for every load of a known name: its settings carry
 * over to a full load too); FixesRefs the hash of the refs the reader
 * read (refs_hash.c).  FixesRefresh is a refresh's own: allocated by
 * fixes_refresh_create() when the previous graph is about to be read
 * (decide.c), and ld->refresh is NULL for a full load, which has none of
 * it.
 */
#ifndef FIXES_REFRESH_STATE_H
#define FIXES_REFRESH_STATE_H

#include "datatype/timestamp.h"

#include "oid.h"

struct FixesLoad;
struct FixesOldRelease;
struct FixesReleaseStats;

/* the previous load, as fixes_repositories records it (previous.c) */
typedef struct FixesPrevious
{
	char	   *head;			/* hex, NULL if none */
	int64		tags_hash;
	int64		commits;
	int32		nreleases;
	bool		usable;			/* loaded, and missed no parents: a base for a refresh */
	int64		edges;			/* edges and resolved edges */
	int64		resolved;
	/* its settings (load_files.c), and what it read of MAINTAINERS */
	bool		files;
	char	   *maintainers;
	bool		maint_hash_null;
	int64		maint_hash;
	int64		missing_blobs;
	int64		missing_trees;
	/* the newest committer date of its mainline commits */
	bool		newest_set;
	TimestampTz newest_at;
	bool		read;			/* its graph read, or found no base (decide.c) */
} FixesPrevious;

/* the refs the reader read (refs_hash.c) */
typedef struct FixesRefs
{
	bool		compared;		/* the reader was given old_hash */
	FixesOid	old_hash;		/* the previous load's */
	bool		unchanged;		/* the previous load's: no tag read, its tags_hash */
	bool		hash_set;		/* hash is known (no ref skipped) */
	FixesOid	hash;			/* fixes_repositories.refs_hash */
} FixesRefs;

/* a refresh's own state: ld->refresh, NULL for a full load */
typedef struct FixesRefresh
{
	/* the previous load's releases (previous.c) */
	struct FixesOldRelease *old_releases;
	int			n_old_releases;
	struct FixesReleaseStats *old_stats;	/* by old rank: their counts as
											 * stored, NULL: unknown */

	/* the rows of fixes_graph read (graph_read.c) */
	uint32		subj_from;		/* subj_hash holds no hashes of the previous load's
								 * commits below this yet */
	int32		subj_rows;		/* ... which are in the fixes_graph rows below this */
	uint32	   *graph_rows;		/* the commits of each fixes_graph row read */
	int32		graph_nrows;
	bool	   *graph_row_parents;	/* by row: its parents read (all unless parents_some) */
	bool		parents_some;	/* only some rows' parents read: those with an
								 * unreleased commit, and the last rows short of
								 * 65536; the rest on demand,
								 * fixes_load_read_parents_rest() */
	/* the releases of the old commits as the previous load stored them */
	struct
	{
		int32	   *mark;		/* by index < n_old: the release rank each old
								 * commit had (fixes_graph.releases); NULL: not
								 * stored; room for cap commits */
		uint32		cap;
		uint32	   *unreleased; /* the old commits it leaves unreleased */
		uint32		nunreleased;
		bool		appended;	/* the old releases are the first ones now, at
								 * the same commits, and mark holds their
								 * commits: only the unreleased are marked */
	}			stored;

	/* the old commits whose release changed (old_marks.c) */
	uint32	   *moved;
	int64		nmoved;
	int32	   *old_mark;		/* by index < n_old: old release rank, 0 = unreleased;
								 * NULL when mark holds them but for the moved
								 * commits, which had none (fixes_old_mark()) */
	uint8	   *moved_bits;		/* then: a bit per old commit, set if it moved
								 * (NULL otherwise) */
	int		   *old_to_new_rank;	/* old rank -> rank of the same tag now, 0 if gone */

	/* the old edges it reads (old_edges.c) */
	bool		old_edges_read; /* its old edges read before the walk's records */
	bool		edges_some;		/* only the old edges it needs are read */
	uint8	   *edges_of;		/* ... by old commit: its edges (as the fixing commit) are read */
	bool	   *count_needed;	/* by rank: the releases whose counts it computes
								 * (fixes_count_releases_needed()), NULL: all */
	bool		count_needed_set;
} FixesRefresh;

extern FixesRefresh *fixes_refresh_create(struct FixesLoad *ld);

#endif							/* FIXES_REFRESH_STATE_H */
