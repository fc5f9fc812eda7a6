/*
 * load_write_commits.h — the release of the rows of fixes_commits that need another one (load_write_commits.c)
 */
#ifndef FIXES_LOAD_WRITE_COMMITS_H
#define FIXES_LOAD_WRITE_COMMITS_H

#include "load_state.h"

extern void fixes_load_write_commits(FixesLoad *ld);

#endif							/* FIXES_LOAD_WRITE_COMMITS_H */
