/*
 * load_backports.h — backports: the rows of fixes_backport_overrides, the lines by subject and by override (load_backports.c)
 */
#ifndef FIXES_LOAD_BACKPORTS_H
#define FIXES_LOAD_BACKPORTS_H

#include "load_state.h"

/* a row of fixes_backport_overrides for the repository being loaded */
typedef struct FixesBackportOverride
{
	FixesOid	stable;
	FixesOid	upstream;
} FixesBackportOverride;

/* the rows of fixes_backport_overrides of the repository (fixes_backport_overrides_init()) */
typedef struct FixesBackportOverrides
{
	FixesBackportOverride *rows;
	int			n;
} FixesBackportOverrides;

extern void fixes_backport_overrides_init(FixesLoad *ld);

extern void fixes_load_read_backport_overrides(FixesLoad *ld);
extern uint64 fixes_backport_overrides_hash(FixesLoad *ld, uint64 h);
extern void fixes_load_backports_by_subject(FixesLoad *ld, FixesBackportList *bl);
extern void fixes_load_apply_backport_overrides(FixesLoad *ld, FixesBackportList *bl);

#endif							/* FIXES_LOAD_BACKPORTS_H */
