/*
 * load_resolve.h — each mainline edge to a commit (load_resolve.c)
 */
#ifndef FIXES_LOAD_RESOLVE_H
#define FIXES_LOAD_RESOLVE_H

#include "load_state.h"

extern void fixes_load_resolve(FixesLoad *ld);
extern void fixes_load_count_resolved(FixesLoad *ld);

#endif							/* FIXES_LOAD_RESOLVE_H */
