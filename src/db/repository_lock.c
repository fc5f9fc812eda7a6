/*
 * repository_lock.c — the lock that fixes_load and fixes_unload take on a repository's name
 *
 * A transaction-level advisory lock (class "fixe", the name's hash as
 * hashtext() computes it), documented in the README as
 * (1718188133, hashtext(name)): a load or unload of a name waits for
 * another one of the same name to end, and users can take it too.
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "fmgr.h"
#include "utils/builtins.h"

#include "repository_lock.h"

/* the first key of the advisory locks on repository names ("fixe") */
#define FIXES_LOCK_CLASS 0x66697865

void
fixes_lock_repository(const char *name)
{
	uint32		h = hash_bytes((const unsigned char *) name, strlen(name));

	DirectFunctionCall2(pg_advisory_xact_lock_int4,
						Int32GetDatum(FIXES_LOCK_CLASS), Int32GetDatum((int32) h));
}
