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

#include "access/table.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "bulk_insert.h"
#include "load.h"

static bool
has_column(Oid nsp, const char *relname, const char *column)
{
	Oid			relid = fixes_table_oid(nsp, relname);

	return get_attnum(relid, column) != InvalidAttrNumber;
}

void
fixes_load_schema(FixesLoad *ld)
{
	ld->has.edge_kind = has_column(ld->nsp, "fixes_edges", "kind");
	ld->has.edge_introduced_at = has_column(ld->nsp, "fixes_edges", "introduced_at");
	ld->has.release_v11 = has_column(ld->nsp, "fixes_releases", "tagged_commits");
	ld->has.trailers = OidIsValid(fixes_table_oid_if_exists(ld->nsp, "fixes_trailers")) &&
		OidIsValid(fixes_table_oid_if_exists(ld->nsp, "fixes_trailer_keys"));
	ld->has.overrides = OidIsValid(fixes_table_oid_if_exists(ld->nsp, "fixes_overrides"));
	/* files and subsystems (load_files.c) */
	ld->v11 = OidIsValid(fixes_table_oid_if_exists(ld->nsp, "fixes_commit_files"));
}
