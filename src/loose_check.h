/*
 * loose_check.h — check loose objects before libgit2 reads them
 */
#ifndef FIXES_LOOSE_CHECK_H
#define FIXES_LOOSE_CHECK_H

#include "git_util.h"

extern void fixes_loose_scan(FixesGit *git);
extern void fixes_loose_check(FixesGit *git, const git_oid *oid);

#endif							/* FIXES_LOOSE_CHECK_H */
