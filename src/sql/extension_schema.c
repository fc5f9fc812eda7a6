/*
 * extension_schema.c — fixes_extension_schema(): the extension's schema for
 * the PL/pgSQL functions of the SQL scripts
 *
 * The same look-up as the C functions' (src/db/extension_schema.c): the
 * schema this function lives in, which is the extension's, by oid at each
 * call.  A PL/pgSQL body is text whose names are looked up when it runs, so
 * it cannot name this function after ALTER SCHEMA ... RENAME; a function of
 * SQL with a standard body (BEGIN ATOMIC) is bound to the functions it calls
 * by oid when it is created, and passes the schema to the PL/pgSQL one
 * (fixes--1.2--1.3.sql).
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "extension_schema.h"

PG_FUNCTION_INFO_V1(fixes_extension_schema_name);

Datum
fixes_extension_schema_name(PG_FUNCTION_ARGS)
{
	Oid			nsp = fixes_extension_schema(fcinfo, NULL, NULL);
	Name		result = (Name) palloc0(NAMEDATALEN);

	namestrcpy(result, get_namespace_name(nsp));
	PG_RETURN_NAME(result);
}
