/*
 * load_overrides.h — the users' corrections: the rows of fixes_overrides
 * and fixes_backport_overrides, read, hashed, and those of fixes_overrides
 * applied (load_overrides.c; load_backports.c applies the others)
 */
#ifndef FIXES_LOAD_OVERRIDES_H
#define FIXES_LOAD_OVERRIDES_H

#include "load_state.h"

/* a row of fixes_overrides for the repository being loaded */
typedef struct FixesOverride
{
	FixesOid	fixing;
	char		abbrev[41];		/* NUL-terminated, lower case */
	uint8		abbrev_len;
	bool		has_target;		/* false: the edge is ignored */
	FixesOid	target;
	uint32		fixing_idx;		/* FIXES_NO_IDX: not in scope */
	int64		matched;		/* edges it applied to */
} FixesOverride;

/* the rows of fixes_overrides of the repository (fixes_overrides_init()) */
typedef struct FixesEdgeOverrides
{
	FixesOverride *rows;
	int			n;
} FixesEdgeOverrides;

/* a row of fixes_backport_overrides for the repository being loaded */
typedef struct FixesBackportOverride
{
	FixesOid	stable;
	FixesOid	upstream;
} FixesBackportOverride;

/* the rows of fixes_backport_overrides of the repository (fixes_overrides_init()) */
typedef struct FixesBackportOverrides
{
	FixesBackportOverride *rows;
	int			n;
} FixesBackportOverrides;

extern void fixes_overrides_init(FixesLoad *ld);

extern void fixes_load_read_overrides(FixesLoad *ld);
extern int64 fixes_overrides_hash(FixesLoad *ld, int64 tags_hash);
extern void fixes_load_apply_overrides(FixesLoad *ld);

#endif							/* FIXES_LOAD_OVERRIDES_H */
