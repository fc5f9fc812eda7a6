/*
 * parse_fixes.c — fixes_parse_fixes(message): the Fixes: trailer lines of a message
 *
 * A thin SQL wrapper of the pure parser in trailer.c.
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "trailer.h"

PG_FUNCTION_INFO_V1(fixes_parse_fixes);

#define PARSE_COLS 4

/* The abbrev as written, lower-cased: hex digits are ASCII. */
static text *
fixes_abbrev_text(const char *hex, size_t len)
{
	text	   *t = (text *) palloc(VARHDRSZ + len);
	char	   *p = VARDATA(t);

	SET_VARSIZE(t, VARHDRSZ + len);
	for (size_t i = 0; i < len; i++)
		p[i] = (hex[i] >= 'A' && hex[i] <= 'F') ? hex[i] - 'A' + 'a' : hex[i];
	return t;
}

Datum
fixes_parse_fixes(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	text	   *message = PG_GETARG_TEXT_PP(0);
	const char *msg = VARDATA_ANY(message);
	size_t		len = VARSIZE_ANY_EXHDR(message);
	fixes_trailer_cursor cur = {0, 0};
	fixes_trailer tr;

	InitMaterializedSRF(fcinfo, 0);
	while (fixes_trailer_next(msg, len, &cur, &tr))
	{
		Datum		values[PARSE_COLS];
		bool		nulls[PARSE_COLS] = {0};
		int			i = 0;

		if (tr.kind != FIXES_TRAILER_FIXES)
			continue;			/* revert edges come with version 1.1 */

		values[i++] = Int32GetDatum(tr.line);
		values[i++] = PointerGetDatum(fixes_abbrev_text(msg + tr.hex_off, tr.hex_len));
		nulls[i] = !tr.has_subject;
		values[i++] = tr.has_subject ?
			PointerGetDatum(cstring_to_text_with_len(msg + tr.subj_off, tr.subj_len)) : (Datum) 0;
		values[i++] = PointerGetDatum(cstring_to_text_with_len(msg + tr.raw_off, tr.raw_len));
		Assert(i == PARSE_COLS);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
