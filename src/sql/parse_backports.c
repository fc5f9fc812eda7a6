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

Datum
fixes_parse_backports(PG_FUNCTION_ARGS)
{
	FixesParseSrf srf = fixes_parse_srf_begin(fcinfo);
	const char *msg = srf.msg;
	fixes_backport_cursor cur = {0, 0};
	fixes_backport bp;

	/* line, abbrev (lower-cased as fixes_parse_fixes does), raw */
	while (fixes_backport_next(msg, srf.len, &cur, &bp))
		fixes_parse_srf_row(srf.rsinfo, bp.line, fixes_abbrev_text(msg + bp.hex_off, bp.hex_len),
							cstring_to_text_with_len(msg + bp.raw_off, bp.raw_len));
	return (Datum) 0;
}
