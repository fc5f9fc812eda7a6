/*
 * parse_srf.c — what the SQL wrappers of the pure parsers share
 * (parse_fixes.c, parse_backports.c, parse_trailers.c): the message they
 * are given and the rows they return, and an abbreviation as text
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"

#include "parse_srf.h"

/*
 * The message of the first argument, as bytes at *msg, *len of them; and
 * the tuplestore the rows go into
 */
ReturnSetInfo *
fixes_parse_srf_begin(FunctionCallInfo fcinfo, const char **msg, size_t *len)
{
	text	   *message = PG_GETARG_TEXT_PP(0);

	*msg = VARDATA_ANY(message);
	*len = VARSIZE_ANY_EXHDR(message);
	InitMaterializedSRF(fcinfo, 0);
	return (ReturnSetInfo *) fcinfo->resultinfo;
}

/* The abbrev as written, lower-cased: hex digits are ASCII. */
text *
fixes_abbrev_text(const char *hex, size_t len)
{
	text	   *t = (text *) palloc(VARHDRSZ + len);
	char	   *p = VARDATA(t);

	SET_VARSIZE(t, VARHDRSZ + len);
	for (size_t i = 0; i < len; i++)
		p[i] = (hex[i] >= 'A' && hex[i] <= 'F') ? hex[i] - 'A' + 'a' : hex[i];
	return t;
}
