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
 * The message of the first argument, as bytes at msg, len of them; and
 * the tuplestore the rows go into
 */
FixesParseSrf
fixes_parse_srf_begin(FunctionCallInfo fcinfo)
{
	text	   *message = PG_GETARG_TEXT_PP(0);
	FixesParseSrf s;

	s.msg = VARDATA_ANY(message);
	s.len = VARSIZE_ANY_EXHDR(message);
	InitMaterializedSRF(fcinfo, 0);
	s.rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	return s;
}

/*
 * A row (line or position, a, b) into the tuplestore: the rows of
 * fixes_parse_backports and fixes_parse_trailers
 */
void
fixes_parse_srf_row(ReturnSetInfo *rsinfo, int32 line, text *a, text *b)
{
	Datum		values[3] = {Int32GetDatum(line), PointerGetDatum(a), PointerGetDatum(b)};
	bool		nulls[3] = {false, false, false};

	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
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
