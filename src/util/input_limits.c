/*
 * input_limits.c — bounds on what one repository can make the backend do:
 * the GUCs fixes.max_*, and the WARNING past each
 *
 * The reader process is bounded by fixes.reader_memory_limit and
 * fixes.reader_cpu_limit; these bound what the backend makes of what it
 * sends.  Every loop of the backend is linear in its input (src/README.md);
 * these bound the input, so that one message cannot turn into millions of
 * rows.  Past a limit, the load goes on without the excess: the message is
 * cut (its first max_record_bytes bytes, then its first max_message_lines
 * lines, are what is stored and parsed), the lines and trailers past the
 * limit of a commit are left out, a quoted subject matched by more commits
 * than the limit is not resolved by subject; and a WARNING names the commit
 * and the limit.
 */
#include "postgres.h"

#include <limits.h>

#include "utils/guc.h"

#include "input_limits.h"

int			fixes_max_record_bytes = 16 * 1024;	/* kB */
int			fixes_max_message_lines = 100000;
int			fixes_max_edges_per_commit = 10000;
int			fixes_max_trailers_per_commit = 10000;
int			fixes_max_subject_candidates = 16;
int			fixes_refresh_list_limit = 64 * 1024;	/* kB */

static const char *const limit_names[FIXES_NLIMITS] = {
	"fixes.max_record_bytes",
	"fixes.max_message_lines",
	"fixes.max_edges_per_commit",
	"fixes.max_trailers_per_commit",
	"fixes.max_subject_candidates",
};

static const char *const limit_what[FIXES_NLIMITS] = {
	"Its message was cut to its first %lld bytes.",
	"Its message was cut to its first %lld lines.",
	"Its Fixes:, revert or backport lines past the first %lld were left out.",
	"Its trailers past the first %lld were left out.",
	"%lld of its lines quote a subject that more commits have than the limit: they were not resolved by subject.",
};

void
fixes_limits_define_gucs(void)
{
	DefineCustomIntVariable("fixes.max_record_bytes",
							"Bytes of a commit's message that a load stores and parses; the rest is cut.",
							NULL,
							&fixes_max_record_bytes,
							16 * 1024, 64, 512 * 1024,
							PGC_USERSET, GUC_UNIT_KB,
							NULL, NULL, NULL);
	DefineCustomIntVariable("fixes.max_message_lines",
							"Lines of a commit's message that a load stores and parses; the rest is cut.",
							NULL,
							&fixes_max_message_lines,
							100000, 100, INT_MAX,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("fixes.max_edges_per_commit",
							"Fixes:, revert and backport lines read from one commit; the rest are left out.",
							NULL,
							&fixes_max_edges_per_commit,
							10000, 1, INT_MAX,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("fixes.max_trailers_per_commit",
							"Trailers of one commit recorded in fixes_trailers; the rest are left out.",
							NULL,
							&fixes_max_trailers_per_commit,
							10000, 1, INT_MAX,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("fixes.max_subject_candidates",
							"Commits compared with one quoted subject of a Fixes: line; past it, the line is not resolved by subject.",
							NULL,
							&fixes_max_subject_candidates,
							16, 2, 1000000,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("fixes.refresh_list_limit",
							"Bytes of the list of its new commits that a refresh reads first, to look up the old commits they name; past it, or at 0, the refresh reads every old commit's id.",
							NULL,
							&fixes_refresh_list_limit,
							64 * 1024, 0, 1024 * 1024,
							PGC_USERSET, GUC_UNIT_KB,
							NULL, NULL, NULL);
}

/*
 * Commit commit_hex went past limit which (seen: the value the limit cut
 * at, or a count): a WARNING, for the first FIXES_LIMIT_WARNINGS commits
 * of each limit in a load.
 */
void
fixes_limit_warn(FixesLimitHits *h, FixesLimit which, const FixesOid *commit, long long seen)
{
	int64		n = ++h->hits[which];
	char		hex[FIXES_OID_HEXSZ + 1];

	if (n > FIXES_LIMIT_WARNINGS)
		return;
	fixes_format_oid(hex, commit);
	ereport(WARNING,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("commit %s exceeds %s", hex, limit_names[which]),
			 errdetail_internal(limit_what[which], seen),
			 n == FIXES_LIMIT_WARNINGS
			 ? errhint("Further commits past %s are not reported in this load; raise it to load them in full.",
					   limit_names[which])
			 : errhint("Raise %s to load it in full.", limit_names[which])));
}

/*
 * The length of a commit's message within fixes.max_record_bytes and
 * fixes.max_message_lines (a WARNING when it is cut): one pass over at most
 * the bytes kept, none when the message has fewer bytes than the lines
 * allowed.
 */
size_t
fixes_limit_message(FixesLimitHits *h, const FixesOid *commit, const char *msg, size_t len)
{
	size_t		max_bytes = (size_t) fixes_max_record_bytes * 1024;
	const char *p = msg;
	const char *end;
	int64		lines = 0;

	if (len > max_bytes)
	{
		fixes_limit_warn(h, FIXES_LIMIT_RECORD_BYTES, commit, (long long) max_bytes);
		len = max_bytes;
	}
	/* no more lines than bytes: a message this short is within the lines */
	if (len <= (size_t) fixes_max_message_lines)
		return len;
	end = msg + len;
	while (p < end && (p = memchr(p, '\n', end - p)) != NULL)
	{
		p++;
		if (++lines == fixes_max_message_lines && p < end)
		{
			fixes_limit_warn(h, FIXES_LIMIT_MESSAGE_LINES, commit,
							 (long long) fixes_max_message_lines);
			return p - msg;
		}
	}
	return len;
}
