/*
 * load_write_releases.h — fixes_releases and fixes_fixed_commits (load_write_releases.c)
 */
#ifndef FIXES_LOAD_WRITE_RELEASES_H
#define FIXES_LOAD_WRITE_RELEASES_H

#include "load_state.h"

extern void fixes_load_write_releases(FixesLoad *ld);
extern void fixes_load_write_fixed_commits(FixesLoad *ld);

#endif							/* FIXES_LOAD_WRITE_RELEASES_H */
