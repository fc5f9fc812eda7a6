/*
 * load_backports.h — backports: the lines by subject and by override (load_backports.c; the rows of fixes_backport_overrides are read by load_overrides.c)
 */
#ifndef FIXES_LOAD_BACKPORTS_H
#define FIXES_LOAD_BACKPORTS_H

#include "load_state.h"

extern void fixes_load_backports_by_subject(FixesLoad *ld, FixesBackportList *bl);
extern void fixes_load_apply_backport_overrides(FixesLoad *ld, FixesBackportList *bl);

#endif							/* FIXES_LOAD_BACKPORTS_H */
