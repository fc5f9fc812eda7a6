/*
 * fixes.c — module entry: PG_MODULE_MAGIC and libgit2 set-up
 *
 * libgit2 is initialised once per backend.  Its options are process-wide:
 * - no object cache: every load reads each commit once, and a cache would
 *   only hold memory (the walk keeps what it needs);
 * - no strict hash verification: objects are still inflated and checked by
 *   zlib, but not hashed again on every read;
 * - a bounded pack window, so the memory mapped for pack files stays under
 *   FIXES_MAPPED_LIMIT whatever the size of the repository;
 * - no owner validation (git's safe.directory): the server's OS user rarely
 *   owns the repositories it reads, and only superusers and members of
 *   pg_read_server_files may name a path at all, so the check would refuse
 *   exactly the reads the privilege exists to allow.
 */
#include "postgres.h"

#include <git2.h>

#include "fmgr.h"

PG_MODULE_MAGIC;

#define FIXES_MWINDOW_SIZE		((size_t) 32 * 1024 * 1024)
#define FIXES_MAPPED_LIMIT		((size_t) 256 * 1024 * 1024)

void		_PG_init(void);

void
_PG_init(void)
{
	if (git_libgit2_init() < 0)
		ereport(ERROR,
				(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
				 errmsg("could not initialize libgit2")));
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, FIXES_MWINDOW_SIZE);
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, FIXES_MAPPED_LIMIT);
	git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
}
