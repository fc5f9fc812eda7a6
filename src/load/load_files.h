/*
 * load_files.h — the files and maintainers settings, and the state of files and subsystems (load_files.c)
 */
#ifndef FIXES_LOAD_FILES_H
#define FIXES_LOAD_FILES_H

#include "load_state.h"

/*
 * Files and subsystems (fixes_paths_init()): the settings (load_files.c),
 * MAINTAINERS and the subsystems of each commit (load_maintainers.c), the
 * path prefixes (load_subsystem_counts.c).
 */
typedef struct FixesPaths
{
	bool		files;			/* record the changed files */
	char	   *maintainers;	/* MAINTAINERS in the ref's tree, NULL: none */
	struct FixesSubsystems *subsys; /* NULL: no MAINTAINERS (load_maintainers.c) */
	struct FixesBulk *subsys_bulk;	/* and of fixes_commit_subsystems */
	int64		missing_blobs;	/* of this load's read */
	int64		missing_trees;
	uint32	   *cs_pairs;		/* (commit_idx, subsystem index) pairs */
	int64		ncs;
	int64		cs_cap;
	struct FixesPrefixes *prefixes; /* load_subsystem_counts.c */
	int64		maint_hash;		/* of the MAINTAINERS files used (load_maintainers.c) */
	bool		reattribute;	/* a refresh attributes every commit again */
	bool		reattribute_some;	/* a refresh attributes some old commits again */
	struct FixesKeptGroups *kept_groups;	/* the groups of the old commits (a
											 * refresh reads them while the reader
											 * walks; load_subsystem_counts.c) */
} FixesPaths;

extern void fixes_paths_init(FixesLoad *ld);

extern void fixes_load_settings(FixesLoad *ld, bool files_given, bool files,
								bool maint_given, const char *maintainers);
extern void fixes_load_files_report(FixesLoad *ld);

#endif							/* FIXES_LOAD_FILES_H */
