/*
 * parse_fixes.c — fixes_parse_fixes(message): the Fixes: and revert lines of a message
 *
 * A thin SQL wrapper of the pure parser in trailer.c.  Two C symbols serve
 * the two SQL signatures: fixes_parse_fixes is 1.0's (Fixes: lines only,
 * four columns), which a database keeps until ALTER EXTENSION fixes UPDATE;
 * fixes_parse_fixes_v11 is 1.1's, with the revert lines and a fifth column,
 * kind.  The quoted subject of a revert line is the one the loader resolves
 * it by: the text inside Revert "..." of the message's own subject.
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "parse_srf.h"
#include "summary.h"
#include "trailer.h"

PG_FUNCTION_INFO_V1(fixes_parse_fixes);
PG_FUNCTION_INFO_V1(fixes_parse_fixes_v11);

#define PARSE_COLS_10 4
#define PARSE_COLS_11 5

static void
parse_fixes(FunctionCallInfo fcinfo, bool v11)
{
	FixesParseSrf srf = fixes_parse_srf_begin(fcinfo);
	const char *msg = srf.msg;
	fixes_trailer_cursor cur = {0, 0};
	fixes_trailer tr;
	char	   *subject = NULL;
	size_t		subject_len = 0;

	while (fixes_trailer_next(msg, srf.len, &cur, &tr))
	{
		Datum		values[PARSE_COLS_11];
		bool		nulls[PARSE_COLS_11] = {0};
		int			i = 0;
		bool		revert = tr.kind == FIXES_TRAILER_REVERT;
		size_t		off,
					sublen;

		if (revert && !v11)
			continue;			/* 1.0 has no revert lines */

		values[i++] = Int32GetDatum(tr.line);
		values[i++] = PointerGetDatum(fixes_abbrev_text(msg + tr.hex_off, tr.hex_len));
		if (revert)
		{
			if (subject == NULL)
			{
				subject = palloc(srf.len + 1);
				subject_len = fixes_summary(msg, srf.len, subject);
			}
			if (fixes_revert_subject(subject, subject_len, &off, &sublen))
				values[i] = PointerGetDatum(cstring_to_text_with_len(subject + off, sublen));
			else
				nulls[i] = true;
			i++;
		}
		else
		{
			nulls[i] = !tr.has_subject;
			values[i++] = tr.has_subject ?
				PointerGetDatum(cstring_to_text_with_len(msg + tr.subj_off, tr.subj_len)) : (Datum) 0;
		}
		values[i++] = PointerGetDatum(cstring_to_text_with_len(msg + tr.raw_off, tr.raw_len));
		if (v11)
			values[i++] = CStringGetTextDatum(revert ? "revert" : "fixes");
		Assert(i == (v11 ? PARSE_COLS_11 : PARSE_COLS_10));
		tuplestore_putvalues(srf.rsinfo->setResult, srf.rsinfo->setDesc, values, nulls);
	}
}

/* fixes_parse_fixes: line, abbrev, quoted_subject, raw of each Fixes: line */
Datum
fixes_parse_fixes(PG_FUNCTION_ARGS)
{
	parse_fixes(fcinfo, false);
	return (Datum) 0;
}

/* fixes_parse_fixes_v11: the same for each Fixes: and revert line, and its kind */
Datum
fixes_parse_fixes_v11(PG_FUNCTION_ARGS)
{
	parse_fixes(fcinfo, true);
	return (Datum) 0;
}
