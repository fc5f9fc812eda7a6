/*
 * load_schema.c — the installed SQL version of the extension
 *
 * The 1.2 library serves a database whose SQL is still at 1.0 or 1.1
 * (before ALTER EXTENSION fixes UPDATE), as PostgreSQL's convention wants:
 * the loader writes the tables and columns of a version only when the
 * installed version has them (fixes_has_v11(), fixes_has_v12() in
 * load_state.h).  A 1.0 database is loaded exactly as 1.0 loaded it: no
 * revert edges, no trailers, no overrides.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"

#include "load_schema.h"
#include "load_state.h"

/*
 * The installed SQL version of the extension as major * 10 + minor (10, 11,
 * 12): what ALTER EXTENSION fixes UPDATE last reached.  0 when the
 * extension is not installed (not reached from fixes_load()).
 */
static int
extension_version(void)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	int			version = 0;

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber,
				F_NAMEEQ, CStringGetDatum("fixes"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
	{
		bool		isnull;
		Datum		d = heap_getattr(tup, Anum_pg_extension_extversion,
									 RelationGetDescr(rel), &isnull);

		if (!isnull)
		{
			char	   *v = TextDatumGetCString(d);
			int			major = 0,
						minor = 0;

			if (sscanf(v, "%d.%d", &major, &minor) == 2)
				version = major * 10 + minor;
		}
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return version;
}

void
fixes_load_schema(FixesLoad *ld)
{
	ld->has.version = extension_version();
}
