/*
 * git_commits.c — fixes_git_commits(path, ref): the commits reachable from ref
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/memutils.h"

#include "commit_fields.h"

PG_FUNCTION_INFO_V1(fixes_git_commits);

#define COMMITS_COLS 10

static void
put_commit_row(ReturnSetInfo *rsinfo, FixesDecoder *d, const FixesCommit *c)
{
	FixesCommitFields f;
	Datum		values[COMMITS_COLS];
	bool		nulls[COMMITS_COLS] = {0};
	int			i = 0;

	fixes_commit_fields(d, c, &f);
	values[i++] = PointerGetDatum(f.commit_id);
	values[i++] = PointerGetDatum(f.parent_ids);
	values[i++] = PointerGetDatum(f.author_name);
	values[i++] = PointerGetDatum(f.author_email);
	nulls[i] = f.authored_null;
	values[i++] = TimestampTzGetDatum(f.authored_at);
	values[i++] = PointerGetDatum(f.committer_name);
	values[i++] = PointerGetDatum(f.committer_email);
	nulls[i] = f.committed_null;
	values[i++] = TimestampTzGetDatum(f.committed_at);
	values[i++] = PointerGetDatum(f.subject);
	values[i++] = PointerGetDatum(f.message);
	Assert(i == COMMITS_COLS);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

Datum
fixes_git_commits(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *path = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *ref = text_to_cstring(PG_GETARG_TEXT_PP(1));
	FixesWalk  *volatile walk = NULL;
	FixesDecoder decoder;
	MemoryContext rowcxt;

	fixes_check_read_privilege();
	InitMaterializedSRF(fcinfo, 0);
	fixes_decoder_init(&decoder);
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "fixes_git_commits row",
								   ALLOCSET_DEFAULT_SIZES);

	PG_TRY();
	{
		walk = fixes_walk_create(path, fixes_graph_create(CurrentMemoryContext), false);
		if (fixes_walk_log(walk, ref))
		{
			FixesCommit c;

			while (fixes_walk_next(walk, &c))
			{
				MemoryContext old = MemoryContextSwitchTo(rowcxt);

				put_commit_row(rsinfo, &decoder, &c);
				MemoryContextSwitchTo(old);
				MemoryContextReset(rowcxt);
			}
			fixes_walk_report(walk);
		}
		else
			ereport(NOTICE,
					(errmsg("repository \"%s\" has no commits", path)));
	}
	PG_FINALLY();
	{
		fixes_walk_release(walk);
	}
	PG_END_TRY();

	fixes_decoder_report(&decoder, path);
	return (Datum) 0;
}
