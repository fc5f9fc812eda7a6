/*
 * extension_schema.c — the schema of extension fixes: the one mechanism by
 * which the extension's functions find their tables
 *
 * The schema is the one the SQL function being called lives in, looked up
 * at each call by the function's oid (fcinfo): the extension's functions
 * and tables are created in one schema, and stay together when it is
 * renamed (ALTER SCHEMA ... RENAME) or moved (ALTER EXTENSION ... SET
 * SCHEMA).  Neither the schema's name as it was at CREATE EXTENSION nor the
 * caller's search_path is consulted, so a schema that takes the old name, or
 * a look-alike table earlier in the search_path, is never read or written.
 *
 * The C functions ask it directly (fixes_load, fixes_unload); the PL/pgSQL
 * functions of the SQL scripts ask the SQL function fixes_extension_schema()
 * (src/sql/extension_schema.c), which is this, bound by oid where they are
 * called (fixes--1.2--1.3.sql).
 */
#include "postgres.h"

#include "catalog/dependency.h"
#include "catalog/pg_proc.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "extension_schema.h"

/*
 * The namespace of the calling SQL function; its name quoted as an
 * identifier into *quoted unless NULL.  With extension not NULL, the
 * function must be a member of an extension, which goes there (else an
 * ERROR: a copy of the function made by hand is not the extension's).
 */
Oid
fixes_extension_schema(FunctionCallInfo fcinfo, const char **quoted, Oid *extension)
{
	Oid			fn = fcinfo->flinfo->fn_oid;
	Oid			nsp = get_func_namespace(fn);

	if (extension != NULL)
	{
		*extension = getExtensionOfObject(ProcedureRelationId, fn);
		if (!OidIsValid(*extension))
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("function %s is not part of extension fixes", get_func_name(fn)),
					 errhint("Call the %s that CREATE EXTENSION fixes created.", get_func_name(fn))));
	}
	if (quoted != NULL)
		*quoted = quote_identifier(get_namespace_name(nsp));
	return nsp;
}
