/*
 * fixes.c — module entry: PG_MODULE_MAGIC and the settings of the module
 *
 * libgit2 is not loaded in the backend: every read of a repository runs in
 * the reader process (reader_proc.c, reader/), under the limits that
 * fixes.reader_memory_limit and fixes.reader_cpu_limit set.
 */
#include "postgres.h"

#include "input_limits.h"

#include "fmgr.h"
#include "utils/guc.h"

#include "progress.h"
#include "reader_proc.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

void
_PG_init(void)
{
	fixes_reader_define_gucs();
	fixes_progress_define_gucs();
	fixes_limits_define_gucs();
	/*
	 * Last: reserving the prefix drops the placeholders of every fixes.*
	 * setting not defined yet, so a SET fixes.progress made before the
	 * library was loaded (or by ALTER DATABASE ... SET) would be lost.
	 */
	MarkGUCPrefixReserved("fixes");
}
