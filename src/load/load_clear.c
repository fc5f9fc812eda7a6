/*
 * load_clear.c — fixes_load(): the previous load's rows that this load
 * replaces, deleted in one place before the history is read
 *
 * The driver (load.c) calls fixes_load_clear() or, in a refresh,
 * fixes_load_clear_stable() right before each read of the mainline: a full
 * load removes every row of the repository that it
 * writes again (fixes_releases is replaced by every load anyway, by its
 * writer, and fixes_repositories keeps its row; fixes_trailers and
 * fixes_release_trailers are cleared by load_trailers.c before the walk); a
 * refresh keeps the mainline's rows and removes the previous stable scope,
 * which every load writes whole again (load_stable.c).
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"

#include "load_clear.h"
#include "load_state.h"
#include "spi_call.h"

static void
delete_where(FixesLoad *ld, const char *table, const char *cond, int64 from)
{
	char	   *sql = psprintf("DELETE FROM ONLY %s.%s WHERE repository_id = $1%s",
							   ld->schema, table, cond);
	Oid			argtypes[2] = {INT4OID, INT8OID};
	Datum		args[2] = {Int32GetDatum(ld->repository_id), Int64GetDatum(from)};

	(void) fixes_spi_execute(sql, strchr(cond, '$') ? 2 : 1, argtypes, args, NULL, 0, SPI_OK_DELETE);
}

/* a full load: every row of the repository that the load writes again */
static void
delete_all(FixesLoad *ld)
{
	fixes_spi_delete_rows(ld->schema, "fixes_edges", ld->repository_id);
	fixes_spi_delete_rows(ld->schema, "fixes_fixed_commits", ld->repository_id);
	fixes_spi_delete_rows(ld->schema, "fixes_commits", ld->repository_id);
	fixes_spi_delete_rows(ld->schema, "fixes_graph", ld->repository_id);
	if (ld->has.file_tables)
	{
		/* the files, subsystems and their stored answers (load_files.c) */
		fixes_spi_delete_rows(ld->schema, "fixes_commit_files", ld->repository_id);
		fixes_spi_delete_rows(ld->schema, "fixes_commit_subsystems", ld->repository_id);
		fixes_spi_delete_rows(ld->schema, "fixes_subsystems", ld->repository_id);
		fixes_spi_delete_rows(ld->schema, "fixes_subsystem_counts", ld->repository_id);
		fixes_spi_delete_rows(ld->schema, "fixes_path_prefix_counts", ld->repository_id);
		fixes_spi_delete_rows(ld->schema, "fixes_commit_groups", ld->repository_id);
	}
	if (ld->has.stable_scope)
	{
		fixes_spi_delete_rows(ld->schema, "fixes_backports", ld->repository_id);
		fixes_spi_delete_rows(ld->schema, "fixes_affected_series", ld->repository_id);
	}
}

/*
 * A refresh: the rows of the previous load's stable scope.  Its stable
 * commits are those after its mainline (commit_idx >= its commit count).
 */
static void
delete_stable(FixesLoad *ld)
{
	if (!ld->has.stable_scope)
		return;
	delete_where(ld, "fixes_edges", " AND fixing_idx >= $2", ld->prev.commits);
	delete_where(ld, "fixes_commits", " AND commit_idx >= $2", ld->prev.commits);
	delete_where(ld, "fixes_backports", "", 0);
	delete_where(ld, "fixes_affected_series", "", 0);
}

/* a full load: every row it writes again */
void
fixes_load_clear(FixesLoad *ld)
{
	if (!ld->known)
		return;
	delete_all(ld);
	CommandCounterIncrement();
}

/* a refresh: the previous stable scope */
void
fixes_load_clear_stable(FixesLoad *ld)
{
	if (!ld->known)
		return;
	delete_stable(ld);
	CommandCounterIncrement();
}
