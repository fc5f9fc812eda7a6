/*
 * load_schema.c — what of version 1.1 the extension's tables hold
 *
 * The 1.1 library serves a database whose SQL is still at 1.0 (before
 * ALTER EXTENSION fixes UPDATE), as PostgreSQL's convention wants: the
 * loader looks up the tables and columns that 1.1 added and writes the new
 * data only where they exist.  A 1.0 database is loaded exactly as 1.0
 * loaded it: no revert edges, no trailers, no overrides.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "bulk_insert.h"
#include "load_state.h"

static bool
has_column(Oid nsp, const char *relname, const char *column)
{
	Oid			relid = fixes_table_oid(nsp, relname);

	return get_attnum(relid, column) != InvalidAttrNumber;
}

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
	ld->has.edge_kind = has_column(ld->nsp, "fixes_edges", "kind");
	ld->has.edge_introduced_at = has_column(ld->nsp, "fixes_edges", "introduced_at");
	ld->has.release_v11 = has_column(ld->nsp, "fixes_releases", "tagged_commits");
	ld->has.trailers = OidIsValid(fixes_table_oid_if_exists(ld->nsp, "fixes_trailers")) &&
		OidIsValid(fixes_table_oid_if_exists(ld->nsp, "fixes_trailer_keys"));
	ld->has.overrides = OidIsValid(fixes_table_oid_if_exists(ld->nsp, "fixes_overrides"));
	ld->has.backport_method = ld->has.version >= 12 &&
		OidIsValid(fixes_table_oid_if_exists(ld->nsp, "fixes_backports")) &&
		has_column(ld->nsp, "fixes_backports", "method") &&
		OidIsValid(fixes_table_oid_if_exists(ld->nsp, "fixes_backport_overrides"));
	/* files and subsystems (load_files.c) */
	ld->v11 = OidIsValid(fixes_table_oid_if_exists(ld->nsp, "fixes_commit_files"));
}
