/*
 * input_limits.h — bounds on what one repository can make the backend do
 *
 * Each limit is a GUC (fixes.max_*, input_limits.c).  Past a limit, the load goes
 * on without the excess and says so in a WARNING that names the commit and
 * the limit (the first FIXES_LIMIT_WARNINGS commits of each limit in a
 * load; then one WARNING that further ones go unreported).
 */
#ifndef FIXES_INPUT_LIMITS_H
#define FIXES_INPUT_LIMITS_H

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
extern int	fixes_refresh_list_limit;	/* kB, refresh/old_ids.c */

extern void fixes_limits_define_gucs(void);
extern void fixes_limit_warn(FixesLimitHits *h, FixesLimit which, const FixesOid *commit,
							 long long seen);
extern size_t fixes_limit_message(FixesLimitHits *h, const FixesOid *commit,
								  const char *msg, size_t len);

#endif							/* FIXES_INPUT_LIMITS_H */
