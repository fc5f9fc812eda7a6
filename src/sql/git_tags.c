/*
 * git_tags.c — fixes_git_tags(path): the tags that peel to a commit
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "commit_fields.h"
#include "tags.h"

PG_FUNCTION_INFO_V1(fixes_git_tags);

#define TAGS_COLS 5

Datum
fixes_git_tags(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *path = text_to_cstring(PG_GETARG_TEXT_PP(0));
	FixesReader *volatile reader = NULL;
	FixesDecoder decoder;
	FixesTag   *tags = NULL;
	int			ntags = 0;

	fixes_check_read_privilege();
	InitMaterializedSRF(fcinfo, 0);
	fixes_decoder_init(&decoder);

	PG_TRY();
	{
		reader = fixes_reader_start("tags", path, NULL, false);
		tags = fixes_receive_tags(reader, &decoder, &ntags);
		fixes_reader_finish(reader);
	}
	PG_FINALLY();
	{
		fixes_reader_stop(reader);
	}
	PG_END_TRY();

	for (int t = 0; t < ntags; t++)
	{
		Datum		values[TAGS_COLS];
		bool		nulls[TAGS_COLS] = {0};
		TimestampTz ts;
		int			i = 0;

		values[i++] = CStringGetTextDatum(tags[t].name);
		values[i++] = PointerGetDatum(fixes_oid_text(&tags[t].commit));
		values[i++] = BoolGetDatum(tags[t].annotated);
		nulls[i] = !fixes_time_to_timestamptz(tags[t].time, &ts);
		values[i++] = TimestampTzGetDatum(ts);
		nulls[i] = tags[t].tagger == NULL;
		values[i++] = tags[t].tagger ? CStringGetTextDatum(tags[t].tagger) : (Datum) 0;
		Assert(i == TAGS_COLS);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	fixes_decoder_report(&decoder, path);
	return (Datum) 0;
}
