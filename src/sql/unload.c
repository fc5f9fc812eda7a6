/*
 * unload.c — fixes_unload(name): remove every row of one loaded repository
 *
 * In 1.0 this was a PL/pgSQL function whose body named the extension's schema
 * as it was at CREATE EXTENSION: after ALTER SCHEMA ... RENAME it failed, and
 * a new schema of the old name would have received its DELETEs.  Here, as in
 * fixes_load, the schema is the one the function itself lives in, looked up
 * at each call (fixes_extension_schema()).  The tables are found the same way: every table of the
 * extension in that schema with a repository_id column, so a table that a
 * later version adds is unloaded without a change here.
 *
 * It takes the advisory lock fixes_load takes on the name
 * (repository_lock.c), so it waits for a load of the same repository to end,
 * and a load waits for it.  The DELETEs run through SPI as the caller, with
 * the caller's privileges: whoever may DELETE from the tables may unload,
 * exactly as with 1.0's SQL function (no check of its own, no SECURITY
 * DEFINER).
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "extension_schema.h"
#include "repository_lock.h"
#include "spi_call.h"

PG_FUNCTION_INFO_V1(fixes_unload);

/*
 * Delete the repository's row of fixes_repositories; its id, or -1 when
 * there is no repository of that name.
 */
static int32
delete_repository(const char *schema, text *name)
{
	char	   *sql = psprintf("DELETE FROM ONLY %s.fixes_repositories WHERE name = $1 "
							   "RETURNING repository_id", schema);
	Oid			argtypes[1] = {TEXTOID};
	Datum		args[1] = {PointerGetDatum(name)};
	bool		isnull;

	if (fixes_spi_execute(sql, 1, argtypes, args, NULL, 0, SPI_OK_DELETE_RETURNING) == 0)
		return -1;
	return DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
}

/*
 * The other tables that hold rows of a repository: the extension's tables in
 * its schema with a repository_id column, by name.
 */
static List *
repository_tables(Oid extension, Oid nsp)
{
	const char *sql =
		"SELECT c.relname::pg_catalog.text "
		"  FROM pg_catalog.pg_depend d "
		"  JOIN pg_catalog.pg_class c ON c.oid = d.objid "
		" WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass "
		"   AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass "
		"   AND d.refobjid = $1 AND d.deptype = 'e' "
		"   AND c.relkind = 'r' AND c.relnamespace = $2 "
		"   AND c.relname <> 'fixes_repositories' "
		"   AND EXISTS (SELECT FROM pg_catalog.pg_attribute a "
		"                WHERE a.attrelid = c.oid AND a.attname = 'repository_id' "
		"                  AND a.attnum > 0 AND NOT a.attisdropped) "
		" ORDER BY c.relname";
	Oid			argtypes[2] = {OIDOID, OIDOID};
	Datum		args[2] = {ObjectIdGetDatum(extension), ObjectIdGetDatum(nsp)};
	List	   *tables = NIL;

	fixes_spi_execute(sql, 2, argtypes, args, NULL, 0, SPI_OK_SELECT);
	for (uint64 r = 0; r < SPI_processed; r++)
		tables = lappend(tables, SPI_getvalue(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1));
	return tables;
}

Datum
fixes_unload(PG_FUNCTION_ARGS)
{
	Oid			nsp;
	Oid			extension;
	const char *schema;
	char	   *name;
	int32		id;
	ListCell   *lc;

	/* as 1.0's SQL function: no repository is called NULL */
	if (PG_ARGISNULL(0))
		PG_RETURN_BOOL(false);
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));

	nsp = fixes_extension_schema(fcinfo, &schema, &extension);

	fixes_lock_repository(name);
	SPI_connect();
	id = delete_repository(schema, PG_GETARG_TEXT_PP(0));
	if (id >= 0)
	{
		foreach(lc, repository_tables(extension, nsp))
			(void) fixes_spi_delete_rows(schema, quote_identifier((const char *) lfirst(lc)), id);
	}
	SPI_finish();
	PG_RETURN_BOOL(id >= 0);
}
