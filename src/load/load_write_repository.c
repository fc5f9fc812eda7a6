/*
 * load_write_repository.c — the repository's row of fixes_repositories, the
 * one writer of it at the end of a load
 *
 * load.c registers the row before anything else (its id keys every other
 * table) and this writer records the load in one UPDATE when it is done:
 * what was loaded and how, the settings of files, MAINTAINERS and
 * stable branches and the partial-clone counts, the newest committer
 * date of the mainline and the hash of the refs read.  Each column is written only by a database
 * whose SQL version has it.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "commit_fields.h"
#include "load_files.h"
#include "load_releases.h"
#include "load_state.h"
#include "load_write_repository.h"
#include "spi_call.h"

#define MAX_COLS 24

typedef struct RowUpdate
{
	StringInfoData set;
	int			n;
	Oid			types[MAX_COLS];
	Datum		values[MAX_COLS];
	char		nulls[MAX_COLS];
} RowUpdate;

/* column = $n, with its value (or NULL) */
static void
set_col(RowUpdate *u, const char *col, Oid type, Datum value, bool isnull)
{
	Assert(u->n < MAX_COLS);
	u->types[u->n] = type;
	u->values[u->n] = isnull ? (Datum) 0 : value;
	u->nulls[u->n] = isnull ? 'n' : ' ';
	u->n++;
	appendStringInfo(&u->set, "%s%s = $%d", u->n > 2 ? ", " : "", col, u->n);
}

static void
set_text(RowUpdate *u, const char *col, const char *s)
{
	set_col(u, col, TEXTOID, s ? CStringGetTextDatum(s) : (Datum) 0, s == NULL);
}

static void
set_int8(RowUpdate *u, const char *col, int64 v)
{
	set_col(u, col, INT8OID, Int64GetDatum(v), false);
}

/*
 * The newest committer date of the mainline commits, from which
 * fixes_lifetime_per_release measures how long each release has been
 * observed.  A refresh keeps the previous load's commits, so it is the
 * later of theirs and the new commits'; a full load reads them all.
 */
static void
set_newest(FixesLoad *ld, RowUpdate *u)
{
	bool		set = ld->newest.set;
	TimestampTz at = ld->newest.at;

	if (ld->refresh != NULL && ld->prev.newest_set && (!set || ld->prev.newest_at > at))
	{
		at = ld->prev.newest_at;
		set = true;
	}
	set_col(u, "last_committed_at", TIMESTAMPTZOID, TimestampTzGetDatum(at), !set);
}

/* the settings of files and MAINTAINERS and the partial-clone counts */
static void
set_files(FixesLoad *ld, RowUpdate *u)
{
	bool		keep = ld->unchanged || ld->refresh != NULL;

	set_col(u, "files", BOOLOID, BoolGetDatum(ld->paths->files), false);
	set_text(u, "maintainers", ld->paths->maintainers);
	set_col(u, "maintainers_hash", INT8OID, Int64GetDatum(ld->paths->maint_hash), ld->paths->subsys == NULL);
	set_int8(u, "missing_blobs", ld->paths->missing_blobs + (keep ? ld->prev.missing_blobs : 0));
	set_int8(u, "missing_trees", ld->paths->missing_trees + (keep ? ld->prev.missing_trees : 0));
}

/* Record the load, which took seconds, in the repository's row. */
void
fixes_load_write_repository(FixesLoad *ld, double seconds)
{
	RowUpdate	u = {0};

	initStringInfo(&u.set);
	/* $1: the repository */
	u.types[0] = INT4OID;
	u.values[0] = Int32GetDatum(ld->repository_id);
	u.nulls[0] = ' ';
	u.n = 1;

	set_text(&u, "path", ld->args.path);
	set_text(&u, "ref", ld->args.ref);
	set_text(&u, "release_pattern", ld->args.pattern);
	set_col(&u, "head_commit", TEXTOID,
			ld->empty ? (Datum) 0 : PointerGetDatum(fixes_oid_text(&ld->head)), ld->empty);
	set_col(&u, "load_seconds", FLOAT8OID, Float8GetDatum(seconds), false);
	set_int8(&u, "commits", ld->unchanged ? ld->prev.commits : (int64) ld->n_mainline);
	set_col(&u, "releases", INT4OID, Int32GetDatum(ld->releases->n), false);
	set_int8(&u, "edges", ld->totals.edges);
	set_int8(&u, "resolved", ld->totals.resolved);
	set_int8(&u, "missing_parents", ld->missing_parents);
	set_int8(&u, "tags_hash", ld->tags_hash);
	if (ld->has.file_tables)
		set_files(ld, &u);
	/* the stable phase ran: its setting, remembered for the next load */
	if (ld->has.stable_scope && !ld->unchanged)
		set_text(&u, "stable_branches", ld->args.stable_re);
	if (ld->has.last_committed_at && !ld->unchanged)
		set_newest(ld, &u);
	/* release_tags, remembered for the next load */
	if (ld->has.release_tags)
		set_text(&u, "release_tags", ld->releases->all ? "all" : "ref");
	/* the refs this load read (refresh/refs_hash.c), for the next load to compare */
	if (ld->has.refs_hash)
		set_col(&u, "refs_hash", TEXTOID,
				ld->refs.hash_set ? PointerGetDatum(fixes_oid_text(&ld->refs.hash)) : (Datum) 0,
				!ld->refs.hash_set);

	fixes_spi_execute(psprintf("UPDATE ONLY %s.fixes_repositories SET loaded_at = now(), %s "
							   "WHERE repository_id = $1", ld->schema, u.set.data),
					  u.n, u.types, u.values, u.nulls, 0, SPI_OK_UPDATE);
}
