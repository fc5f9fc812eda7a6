/*
 * reach.h — where heads outside a history enter it (fixes-reader reach)
 */
#ifndef FIXES_REACH_H
#define FIXES_REACH_H

#include "oid.h"

/*
 * Called for each 'X' record: head (an index into the heads given) is the
 * first of them to reach the commits ids[0 .. n) of the history from
 * outside it.
 */
typedef void (*FixesReachFn) (void *arg, uint32 head, const FixesOid *ids, uint32 n);

extern void fixes_reach_entries(const char *path, const FixesOid *heads, uint32 nheads,
								const FixesOid *known, uint32 nknown, bool lenient,
								FixesReachFn fn, void *arg);

#endif							/* FIXES_REACH_H */
