/*
 * load_subsystem_counts.h — fixes_subsystem_counts and fixes_path_prefix_counts (load_subsystem_counts.c)
 */
#ifndef FIXES_LOAD_SUBSYSTEM_COUNTS_H
#define FIXES_LOAD_SUBSYSTEM_COUNTS_H

#include "load_state.h"

/* prefixes of 1 .. FIXES_PREFIX_DEPTHS components are stored */
#define FIXES_PREFIX_DEPTHS 4

extern void fixes_load_prefixes_begin(FixesLoad *ld);
extern void fixes_load_prefix_path(FixesLoad *ld, uint32 idx, const char *path, int len);
extern void fixes_load_read_kept_groups(FixesLoad *ld);
extern bool fixes_load_groups_by_difference(FixesLoad *ld);
extern void fixes_load_subsystem_counts(FixesLoad *ld);

#endif							/* FIXES_LOAD_SUBSYSTEM_COUNTS_H */
