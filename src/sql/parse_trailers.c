/*
 * parse_trailers.c — fixes_parse_trailers(message): git's trailers of a message
 *
 * A thin SQL wrapper of the pure parser in trailers.c: the trailers that
 * `git log --format='%(trailers:only,unfold)'` prints for a commit with
 * this message, in order, with their keys as written and their values
 * unfolded and trimmed.  The loader applies the same parser to a commit's
 * raw bytes (load_trailers.c), which can differ from the stored message in
 * one way only: git's message ends at a NUL byte, which text cannot hold
 * (the stored message shows it replaced).
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "parse_srf.h"
#include "trailers.h"

PG_FUNCTION_INFO_V1(fixes_parse_trailers);

Datum
fixes_parse_trailers(PG_FUNCTION_ARGS)
{
	FixesParseSrf srf = fixes_parse_srf_begin(fcinfo);
	const char *msg = srf.msg;
	fixes_trailers_iter it;
	fixes_git_trailer tr;
	char	   *value = NULL;
	size_t		cap = 0;

	fixes_trailers_begin(&it, msg, srf.len);
	while (fixes_trailers_next(&it, &tr))
	{
		size_t		n;

		if (tr.unfolded_len > cap)
		{
			if (value != NULL)
				pfree(value);
			cap = Max(tr.unfolded_len, 256);
			value = palloc(cap);
		}
		n = fixes_trailer_unfold(msg, &tr, value);
		/* position, key, value */
		fixes_parse_srf_row(srf.rsinfo, tr.position, cstring_to_text_with_len(msg + tr.key_off, tr.key_len),
							cstring_to_text_with_len(value, n));
		if ((tr.position & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	return (Datum) 0;
}
