/*
 * load_stable.h — the stable branches and the stable scope (load_stable.c)
 */
#ifndef FIXES_LOAD_STABLE_H
#define FIXES_LOAD_STABLE_H

#include "load_state.h"
#include "walk.h"

/* stable_branches' default: keep the repository's setting (an invalid expression) */
#define FIXES_STABLE_KEEP "*keep*"

/* the branches that stable_branches matches (fixes_stable_branches_init()) */
typedef struct FixesStableBranches
{
	FixesBranch *branches;
	int			n;
	FixesStableHeads *heads;	/* their commits, the heads of the stable walk;
								 * NULL: none */
	FixesWalk  *begun;			/* the stable walk's reader, started while the
								 * mainline is written (fixes_load_stable_begin());
								 * NULL: not started */
} FixesStableBranches;

extern void fixes_stable_branches_init(FixesLoad *ld);

extern void fixes_load_stable_setting(FixesLoad *ld, bool keep);
extern void fixes_load_stable_check(FixesLoad *ld);
extern void fixes_load_stable_branches(FixesLoad *ld);
extern void fixes_load_stable_begin(FixesLoad *ld);
extern void fixes_load_stable(FixesLoad *ld);

#endif							/* FIXES_LOAD_STABLE_H */
