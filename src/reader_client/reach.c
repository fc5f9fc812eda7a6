/*
 * reach.c — where heads outside a history enter it
 *
 * The reader (reader/reach.c) is given the heads, in order (the commits of
 * release tags the ref does not reach, in version order), and the ids of
 * the history (the ref's, which the graph holds); it sends, for each head,
 * the commits of the history it is the first of the heads to reach: its
 * entry points.  Each record is checked (a head it was given, ids that fit
 * the record) before the caller sees it.
 */
#include "postgres.h"

#include "miscadmin.h"

#include "reach.h"
#include "reader_proc.h"

void
fixes_reach_entries(const char *path, const FixesOid *heads, uint32 nheads,
					const FixesOid *known, uint32 nknown, bool lenient, FixesReachFn fn, void *arg)
{
	FixesReader *volatile reader = NULL;

	PG_TRY();
	{
		unsigned char count[4];
		const uint32 per = 16384;
		const unsigned char *payload;
		uint32		len;
		char		type;
		int64		last = -1;

		const char *lenient_arg = "lenient";

		reader = fixes_reader_start_args("reach", path, &lenient_arg, lenient ? 1 : 0, true);
		wire_put_u32(count, nheads);
		fixes_reader_write(reader, count, sizeof(count));
		fixes_reader_write(reader, heads, (Size) nheads * sizeof(FixesOid));
		wire_put_u32(count, nknown);
		fixes_reader_write(reader, count, sizeof(count));
		for (uint32 i = 0; i < nknown; i += per)
		{
			uint32		k = Min(per, nknown - i);

			CHECK_FOR_INTERRUPTS();
			fixes_reader_write(reader, known + i, (Size) k * sizeof(FixesOid));
		}
		fixes_reader_close_input(reader);
		while ((type = fixes_reader_next(reader, &payload, &len)) == WIRE_REACH)
		{
			WireReach	x;

			CHECK_FOR_INTERRUPTS();
			if (wire_decode_reach(payload, len, &x) != 0 || x.head >= nheads ||
				(int64) x.head < last)
				fixes_reader_protocol_error(reader, "A reach record is malformed.");
			last = x.head;
			fn(arg, x.head, (const FixesOid *) x.ids, x.n);
		}
		if (!reader->ended)
			fixes_reader_protocol_error(reader, "A reach record was expected.");
		fixes_reader_finish(reader);
	}
	PG_FINALLY();
	{
		fixes_reader_stop(reader);
	}
	PG_END_TRY();
}
