/*
 * spi_call.c — every SQL statement of a load (and of fixes_unload), through one door
 *
 * SPI returns from each call in its own procedure context, not in the
 * caller's: these wrappers switch back, so that what a load allocates after
 * a statement stays in the load's memory context.  A statement whose result
 * is not the one expected is an internal error naming the statement: the
 * tables are the extension's own, so it means they were altered.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/plancache.h"

#include "spi_call.h"

static void
unexpected(int rc, int expected, const char *sql)
{
	ereport(ERROR,
			(errcode(ERRCODE_INTERNAL_ERROR),
			 errmsg("a statement of extension fixes returned %s instead of %s",
					SPI_result_code_string(rc), SPI_result_code_string(expected)),
			 errdetail("The statement was: %s", sql),
			 errhint("The extension's tables may have been altered: DROP EXTENSION fixes; CREATE EXTENSION fixes.")));
}

/*
 * Run sql with its arguments ($1 ...); its result must be expected.
 * Returns the number of rows it processed (SPI_tuptable holds them).
 */
uint64
fixes_spi_execute(const char *sql, int nargs, Oid *types, Datum *values, const char *nulls,
				  long count, int expected)
{
	MemoryContext cxt = CurrentMemoryContext;
	int			rc = SPI_execute_with_args(sql, nargs, types, values, nulls, false, count);

	MemoryContextSwitchTo(cxt);
	if (rc != expected)
		unexpected(rc, expected, sql);
	return SPI_processed;
}

static SPIPlanPtr
prepare(const char *sql, int nargs, Oid *types, int options)
{
	MemoryContext cxt = CurrentMemoryContext;
	SPIPlanPtr	plan = SPI_prepare_cursor(sql, nargs, types, options);

	MemoryContextSwitchTo(cxt);
	if (plan == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not prepare a statement of extension fixes: %s",
						SPI_result_code_string(SPI_result)),
				 errdetail("The statement was: %s", sql)));
	return plan;
}

SPIPlanPtr
fixes_spi_prepare(const char *sql, int nargs, Oid *types)
{
	return prepare(sql, nargs, types, 0);
}

/*
 * A statement whose plan must not depend on the values it is given (a
 * custom plan for an array of thousands of row ids can be a sequential scan)
 */
SPIPlanPtr
fixes_spi_prepare_generic(const char *sql, int nargs, Oid *types)
{
	return prepare(sql, nargs, types, CURSOR_OPT_GENERIC_PLAN);
}

uint64
fixes_spi_execute_plan(SPIPlanPtr plan, Datum *values, const char *nulls, int expected)
{
	MemoryContext cxt = CurrentMemoryContext;
	int			rc = SPI_execute_plan(plan, values, nulls, false, 0);

	MemoryContextSwitchTo(cxt);
	if (rc != expected)
	{
		List	   *sources = SPI_plan_get_plan_sources(plan);
		const char *sql = sources != NIL ?
			((CachedPlanSource *) linitial(sources))->query_string : "(unknown)";

		unexpected(rc, expected, sql);
	}
	return SPI_processed;
}

/*
 * An int4[] argument of n commit indexes (or other non-negative counts) for
 * "= ANY ($k)" (INT4ARRAYOID)
 */
Datum
fixes_spi_int4_array(const uint32 *values, int64 n)
{
	Datum	   *elems = palloc_extended(sizeof(Datum) * Max(n, 1), MCXT_ALLOC_HUGE);
	ArrayType  *a;

	for (int64 i = 0; i < n; i++)
		elems[i] = Int32GetDatum((int32) values[i]);
	a = construct_array(elems, (int) n, INT4OID, sizeof(int32), true, TYPALIGN_INT);
	pfree(elems);
	return PointerGetDatum(a);
}

/* DELETE every row of one repository from schema.table (both quoted) */
uint64
fixes_spi_delete_rows(const char *schema, const char *table, int32 repository_id)
{
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(repository_id)};

	return fixes_spi_execute(psprintf("DELETE FROM ONLY %s.%s WHERE repository_id = $1", schema, table),
							 1, argtypes, args, NULL, 0, SPI_OK_DELETE);
}

/*
 * A cursor over sql (seeing what this load wrote), for results too large to hold at once: fetch
 * batches with fixes_spi_cursor_fetch until it returns 0 (each batch in
 * SPI_tuptable), then fixes_spi_cursor_close.
 */
Portal
fixes_spi_cursor_open(const char *sql, int nargs, Oid *types, Datum *values)
{
	MemoryContext cxt = CurrentMemoryContext;
	Portal		portal = SPI_cursor_open_with_args(NULL, sql, nargs, types, values, NULL, false, 0);

	MemoryContextSwitchTo(cxt);
	if (portal == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not open a cursor of extension fixes: %s",
						SPI_result_code_string(SPI_result)),
				 errdetail("The statement was: %s", sql)));
	return portal;
}

uint64
fixes_spi_cursor_fetch(Portal portal, long count)
{
	MemoryContext cxt = CurrentMemoryContext;

	SPI_cursor_fetch(portal, true, count);
	MemoryContextSwitchTo(cxt);
	return SPI_processed;
}

void
fixes_spi_cursor_close(Portal portal)
{
	MemoryContext cxt = CurrentMemoryContext;

	SPI_cursor_close(portal);
	MemoryContextSwitchTo(cxt);
}

/*
 * An UPDATE of table's rows of a repository by row id, a group at a time:
 * "UPDATE schema.table SET set WHERE ctid = ANY ($2) AND $1 IS NOT NULL",
 * $1 the repository, $2 the row ids, the other parameters set's.  A TID
 * scan whatever the statistics say: no "AND repository_id = $1", which would
 * be planned as an index scan of the repository, and a generic plan, since
 * a plan for thousands of row ids of a small table is a sequential scan.
 */
SPIPlanPtr
fixes_spi_prepare_row_id_update(const char *schema, const char *table, const char *set,
								int nargs, Oid *types)
{
	Assert(nargs >= 2 && types[0] == INT4OID && types[1] == TIDARRAYOID);
	return fixes_spi_prepare_generic(psprintf("UPDATE ONLY %s.%s SET %s WHERE ctid = ANY ($2) AND $1 IS NOT NULL",
											  schema, table, set),
									 nargs, types);
}

/*
 * Run such a plan for the n row ids that row_ids point at (args[1] is set
 * here), and check that it updated each of them.
 */
void
fixes_spi_update_row_ids(SPIPlanPtr plan, Datum *args, const char *nulls, Datum *row_ids, int n,
						 const char *table, int32 repository_id)
{
	args[0] = Int32GetDatum(repository_id);
	args[1] = PointerGetDatum(construct_array(row_ids, n, TIDOID, sizeof(ItemPointerData),
											  false, TYPALIGN_SHORT));
	fixes_spi_execute_plan(plan, args, nulls, SPI_OK_UPDATE);
	if (SPI_processed != (uint64) n)
		elog(ERROR, "updated %llu of %d rows of %s of repository %d",
			 (unsigned long long) SPI_processed, n, table, repository_id);
	pfree(DatumGetPointer(args[1]));
}
