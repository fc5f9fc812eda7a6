/*
 * load_schema.c — what the installed SQL of the extension has
 *
 * The library serves a database whose SQL is older than its own (before
 * ALTER EXTENSION fixes UPDATE), as PostgreSQL's convention wants: the
 * loader writes the tables and columns of a version only when the installed
 * version has them.  This file decides once what they are (FixesSchema,
 * ld->has in load_state.h); the phases ask those flags.  A database at 1.0
 * SQL is loaded exactly as 1.0 loaded it: no revert edges, no trailers, no
 * overrides.
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

/*
 * What this database's tables have, decided once: the phases ask these
 * flags, not the version (which only the table of the counts of
 * fixes_releases, fixes_release_stat_columns, compares with the version
 * that has each column).
 */
void
fixes_load_schema(FixesLoad *ld)
{
	FixesSchema *has = &ld->has;
	int			v = extension_version();

	has->version = v;
	has->stable_scope = v >= 11;
	has->file_tables = v >= 11;
	has->trailer_tables = v >= 11;
	has->overrides = v >= 11;
	has->revert_edges = v >= 11;
	has->release_lifetimes = v >= 11;
	has->release_cc_counts = v >= 12;
	has->commit_stable_cc = v >= 12;
	has->backport_overrides = v >= 12;
	has->backport_method = v >= 12;
	has->graph_releases = v >= 12;
	has->maintainers_by_release = v >= 12;
	has->refs_hash = v >= 12;
	has->last_committed_at = v >= 12;
	has->release_tags = v >= 13;
}
