/*
 * limits.h — bounds on what one repository can make the backend do
 *
 * Each limit is a GUC (fixes.max_*, limits.c).  Past a limit, the load goes
 * on without the excess and says so in a WARNING that names the commit and
 * the limit (the first FIXES_LIMIT_WARNINGS commits of each limit in a
 * load; then one WARNING that further ones go unreported).
 */
/*
 * This file has the C library's header's name, and src/ is on the include
 * path (PG_CPPFLAGS): an #include <limits.h> anywhere in the build comes
 * here first.  So it passes that on, and declares its own only once
 * PostgreSQL's c.h has defined int64 (INT64CONST comes after it).  The
 * extension's files include it as <limits.h> too: found on the include
 * path, #include_next goes on from there (clang warns when the file was
 * found relative to the includer instead).
 */
#include_next <limits.h>

#if !defined(FIXES_LIMITS_H) && defined(INT64CONST)
#define FIXES_LIMITS_H

#include "oid.h"

typedef enum FixesLimit
{
	FIXES_LIMIT_RECORD_BYTES,	/* bytes of a commit's message */
	FIXES_LIMIT_MESSAGE_LINES,	/* lines of a commit's message */
	FIXES_LIMIT_EDGES,			/* Fixes:, revert and backport lines of a commit */
	FIXES_LIMIT_TRAILERS,		/* trailers of a commit */
	FIXES_LIMIT_SUBJECT_CANDIDATES, /* commits compared with one quoted subject */
	FIXES_NLIMITS
} FixesLimit;

#define FIXES_LIMIT_WARNINGS 10

/* what a load counts: how many commits went past each limit */
typedef struct FixesLimitHits
{
	int64		hits[FIXES_NLIMITS];
} FixesLimitHits;

extern int	fixes_max_record_bytes;	/* kB */
extern int	fixes_max_message_lines;
extern int	fixes_max_edges_per_commit;
extern int	fixes_max_trailers_per_commit;
extern int	fixes_max_subject_candidates;

extern void fixes_limits_define_gucs(void);
extern void fixes_limit_warn(FixesLimitHits *h, FixesLimit which, const FixesOid *commit,
							 long long seen);
extern size_t fixes_limit_message(FixesLimitHits *h, const FixesOid *commit,
								  const char *msg, size_t len);

#endif							/* !FIXES_LIMITS_H && INT64CONST */
