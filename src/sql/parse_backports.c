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
#include "parse_srf.h"

PG_FUNCTION_INFO_V1(fixes_parse_backports);

#define PARSE_COLS 3

Datum
fixes_parse_backports(PG_FUNCTION_ARGS)
{
	const char *msg;
	size_t		len;
	ReturnSetInfo *rsinfo = fixes_parse_srf_begin(fcinfo, &msg, &len);
	fixes_backport_cursor cur = {0, 0};
	fixes_backport bp;

	while (fixes_backport_next(msg, len, &cur, &bp))
	{
		Datum		values[PARSE_COLS];
		bool		nulls[PARSE_COLS] = {0};
		int			i = 0;

		values[i++] = Int32GetDatum(bp.line);
		/* lower-cased as fixes_parse_fixes does */
		values[i++] = PointerGetDatum(fixes_abbrev_text(msg + bp.hex_off, bp.hex_len));
		values[i++] = PointerGetDatum(cstring_to_text_with_len(msg + bp.raw_off, bp.raw_len));
		Assert(i == PARSE_COLS);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
