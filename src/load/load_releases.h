/*
 * load_releases.h — the releases, and the release of every commit (load_releases.c)
 */
#ifndef FIXES_LOAD_RELEASES_H
#define FIXES_LOAD_RELEASES_H

#include "load_state.h"

/*
 * The releases (fixes_releases_init()): the tags read, the releases among
 * them by rank (1 .. n; rank 0 is the unreleased tail), and what ld->mark,
 * the release rank of each commit, was computed from.
 */
typedef struct FixesReleases
{
	FixesTag   *tags;
	int			ntags;
	bool		all;			/* release_tags 'all': releases off the ref too */
	bool		all_changed;	/* not the previous load's setting: a full load */
	int			n;				/* releases */
	int		   *tag_of;			/* rank - 1 -> index in tags */
	uint32	   *commit;			/* rank - 1 -> commit index */
	int64	   *size;			/* rank - 1 -> commits */
	Datum	   *name;			/* rank -> tag as text; [0] unused */
	/*
	 * With all: the releases whose tag the ref does not reach start at their
	 * entry points, entries[entry_start[rank - 1] .. entry_start[rank])
	 * (commit indexes); those whose tag it reaches at commit.  NULL when
	 * every release is on the ref.  commit of a release off the ref is an
	 * entry point it marks.
	 */
	uint32	   *entry_start;
	uint32	   *entries;
	bool	   *off_ref;		/* by rank - 1; NULL: none */
	/* the release the walk gave each new commit's row (load_read.c) */
	int32	   *walked;			/* by index less n_old: tag position + 1 (0:
								 * none), as -1 - that once walked */
	uint32		walked_cap;
	uint32	   *corrected;		/* new commits whose row needs another release */
	int64		ncorrected;
} FixesReleases;

extern void fixes_releases_init(FixesLoad *ld);

/* the release of commit idx as text, or NULL (after load_releases.c) */
static inline Datum
fixes_release_of(const FixesLoad *ld, uint32 idx, bool *isnull)
{
	int32		rank = ld->mark[idx];

	*isnull = rank == 0;
	return ld->releases->name[rank];
}


extern void fixes_load_check_pattern(FixesLoad *ld);
extern bool fixes_load_is_release(const FixesLoad *ld, const char *name);
extern void fixes_load_find_releases(FixesLoad *ld);
extern void fixes_load_release_tags_setting(FixesLoad *ld, const char *arg);
extern bool fixes_load_release_tags_off_ref(FixesLoad *ld);
extern void fixes_load_releases(FixesLoad *ld);
extern int64 fixes_tags_hash(FixesLoad *ld);

#endif							/* FIXES_LOAD_RELEASES_H */
