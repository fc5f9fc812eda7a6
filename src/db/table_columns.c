/*
 * table_columns.c — the extension's tables and their columns, by name
 *
 * Rows are built by column name, never by position, so a column that an
 * administrator added is left NULL instead of shifting the others.  The
 * _if_exists forms serve a database whose SQL is still at 1.0
 * (load_schema.c); the others make a missing table or column an error that
 * says how to repair the installation.
 */
#include "postgres.h"

#include "utils/lsyscache.h"

#include "table_columns.h"

Oid
fixes_table_oid(Oid nsp, const char *relname)
{
	Oid			relid = get_relname_relid(relname, nsp);

	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("table \"%s.%s\" of extension fixes is missing",
						get_namespace_name(nsp), relname),
				 errhint("Reinstall the extension: DROP EXTENSION fixes; CREATE EXTENSION fixes.")));
	return relid;
}

/* the 0-based position of column name in desc; a missing one is an error */
int
fixes_attnum(TupleDesc desc, const char *name)
{
	int			att = fixes_attnum_if_exists(desc, name);

	if (att < 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of a fixes table is missing", name),
				 errhint("Reinstall the extension: DROP EXTENSION fixes; CREATE EXTENSION fixes.")));
	return att;
}

/* the table's oid, or InvalidOid when the schema has no such table */
Oid
fixes_table_oid_if_exists(Oid nsp, const char *relname)
{
	return get_relname_relid(relname, nsp);
}

/* the 0-based position of column name in desc, or -1 when there is none */
int
fixes_attnum_if_exists(TupleDesc desc, const char *name)
{
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
			return i;
	}
	return -1;
}
