/*
 * parse_backports.c — fixes_parse_backports(message): the lines of a message
 * that name the upstream commit of a backport
 *
 * A thin SQL wrapper of the pure parser in backport.c.
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "backport.h"

PG_FUNCTION_INFO_V1(fixes_parse_backports);

#define PARSE_COLS 3

Datum
fixes_parse_backports(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	text	   *message = PG_GETARG_TEXT_PP(0);
	const char *msg = VARDATA_ANY(message);
	size_t		len = VARSIZE_ANY_EXHDR(message);
	fixes_backport_cursor cur = {0, 0};
	fixes_backport bp;

	InitMaterializedSRF(fcinfo, 0);
	while (fixes_backport_next(msg, len, &cur, &bp))
	{
		Datum		values[PARSE_COLS];
		bool		nulls[PARSE_COLS] = {0};
		char	   *abbrev = pnstrdup(msg + bp.hex_off, bp.hex_len);
		int			i = 0;

		/* hex digits are ASCII: lower-case them as fixes_parse_fixes does */
		for (size_t k = 0; k < bp.hex_len; k++)
			abbrev[k] = pg_ascii_tolower((unsigned char) abbrev[k]);
		values[i++] = Int32GetDatum(bp.line);
		values[i++] = CStringGetTextDatum(abbrev);
		values[i++] = PointerGetDatum(cstring_to_text_with_len(msg + bp.raw_off, bp.raw_len));
		Assert(i == PARSE_COLS);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
