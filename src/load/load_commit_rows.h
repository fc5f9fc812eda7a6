/*
 * load_commit_rows.h — the one writer of fixes_commits (load_commit_rows.c),
 * for the walks of both scopes (load_walk.c)
 */
#ifndef FIXES_LOAD_COMMIT_ROWS_H
#define FIXES_LOAD_COMMIT_ROWS_H

#include "load_state.h"

/* the positions of the columns of fixes_commits (-1: not in this SQL version) */
typedef struct FixesCommitCols
{
	int			repository_id,
				commit_idx,
				authored_at,
				committed_at,
				commit_id,
				parent_ids,
				author_name,
				author_email,
				committer_name,
				committer_email,
				release,
				subject,
				message,
				mainline,		/* 1.1 */
				stable_cc,		/* 1.2 */
				files,			/* 1.1 */
				added,
				deleted;
} FixesCommitCols;

/*
 * load_commit_rows.c: the one writer of fixes_commits.  The mainline's rows
 * go in at once (their release is the walk's, corrected later by
 * load_write_commits.c); the stable scope's wait in a tuplestore, which
 * spills to disk beyond work_mem, until their releases are known.
 */
typedef struct FixesCommitRows FixesCommitRows;

extern FixesCommitRows *fixes_commit_rows_begin(FixesLoad *ld, bool hold);
extern TupleDesc fixes_commit_rows_desc(const FixesCommitRows *rows);
extern const FixesCommitCols *fixes_commit_rows_cols(const FixesCommitRows *rows);
extern void fixes_commit_rows_put(FixesCommitRows *rows, Datum *values, bool *nulls);
extern bool fixes_commit_rows_idle(void *arg);
extern void fixes_commit_rows_end(FixesCommitRows *rows);
extern void fixes_commit_rows_write_held(FixesLoad *ld, FixesCommitRows *rows);

#endif							/* FIXES_LOAD_COMMIT_ROWS_H */
