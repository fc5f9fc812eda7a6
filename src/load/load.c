/*
 * load.c — fixes_load(path, ref, release_pattern, name, stable_branches,
 *          files, maintainers): a repository into the tables
 *
 * The C function serves both SQL definitions: 1.0's four arguments, and
 * 1.1's seven, 1.3's eight (it reads its arguments by PG_NARGS(); load_files.c and
 * load_stable.c write the tables of 1.1 only when they are there).
 *
 * One transaction: take the repository's lock, read the previous load's
 * row, and decide what the load is (refresh/decide.c, asked again as more
 * is known): unchanged (nothing is read but the head and the refs), a full
 * load, or a refresh.  A refresh's reader starts first and walks ahead,
 * buffering its records, while the backend reads back what the new commits
 * do not change: the graph, the old edges, the groups of the old commits;
 * it walks only the commits the graph does not hold (in reader processes,
 * stopped in PG_FINALLY: see reader_proc.c).  When its walk shows that the
 * previous load's commits are not all reachable any more (a rewritten
 * history, another ref), or with release_tags 'all' that a release tag is
 * off the ref, the refresh falls back to a full load; so does one whose
 * stored state does not read back (run_load_checked()).  Each kind is one
 * straight sequence: read_refresh(), read_full().  Then releases are
 * assigned, the rows that need it corrected, the Fixes lines resolved, and
 * what changed written.  A second load of the same name waits for the
 * first to commit; loads of different names run in parallel.
 *
 * With stable_branches, the commits of the matching branches
 * that the ref does not reach are read after the mainline is written, and
 * written, with their releases, backports and edges, by load_stable.c;
 * every row of the stable scope is written again by each load that is not
 * a no-op, so a refresh equals a fresh load.
 */
#include "postgres.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/timestamp.h"

#include "extension_schema.h"
#include "load_count.h"
#include "load_state.h"
#include "load_analyze.h"
#include "load_backports.h"
#include "load_clear.h"
#include "load_files.h"
#include "load_maintainers.h"
#include "load_overrides.h"
#include "load_read.h"
#include "load_releases.h"
#include "load_resolve.h"
#include "load_schema.h"
#include "load_stable.h"
#include "load_subsystem_counts.h"
#include "load_trailer_counts.h"
#include "load_walk.h"
#include "load_write_commits.h"
#include "load_write_edges.h"
#include "load_write_releases.h"
#include "load_write_repository.h"
#include "refresh.h"
#include "repository_lock.h"
#include "spi_call.h"
#include "walk.h"

PG_FUNCTION_INFO_V1(fixes_load);

#define LOAD_COLS 6

/*
 * A load mallocs and frees hundreds of megabytes in large blocks.  glibc
 * raises its mmap threshold each time such a block is freed, so the next
 * ones come from the heap and, once freed, stay resident: after a series of
 * loads (or cancelled loads) the backend would keep their peak as RSS.
 * Hand the free memory back when the transaction of a load ends, however
 * it ends.
 */
static bool trim_at_end = false;

static void
trim_after_load(XactEvent event, void *arg)
{
	if (!trim_at_end || (event != XACT_EVENT_COMMIT && event != XACT_EVENT_ABORT &&
						 event != XACT_EVENT_PARALLEL_COMMIT && event != XACT_EVENT_PARALLEL_ABORT))
		return;
	trim_at_end = false;
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

static void
trim_when_done(void)
{
	static bool registered = false;

	if (!registered)
	{
		RegisterXactCallback(trim_after_load, NULL);
		registered = true;
	}
	trim_at_end = true;
}

/*
 * The default name of a repository: the last component of its path without
 * ".git" ("/srv/git/linux.git" and "/home/me/linux/.git" are "linux").
 */
static char *
default_name(const char *path)
{
	char	   *p = pstrdup(path);
	char	   *base;
	size_t		len;

	for (;;)
	{
		len = strlen(p);
		while (len > 1 && p[len - 1] == '/')
			p[--len] = '\0';
		base = strrchr(p, '/');
		base = base ? base + 1 : p;
		if (strcmp(base, ".git") != 0 || base == p)
			break;
		base[-1] = '\0';		/* "x/.git": take x */
	}
	len = strlen(base);
	if (len > 4 && strcmp(base + len - 4, ".git") == 0)
		base[len - 4] = '\0';
	if (base[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot derive a repository name from path \"%s\"", path),
				 errhint("Pass a name: fixes_load(path, name => '...').")));
	return pstrdup(base);
}

/*
 * A path as the default name reads it: no trailing '/', no trailing "/.git"
 * component ("/home/me/linux/.git/" is "/home/me/linux").
 */
static char *
path_key(const char *path)
{
	char	   *p = pstrdup(path);
	size_t		len = strlen(p);

	for (;;)
	{
		while (len > 1 && p[len - 1] == '/')
			p[--len] = '\0';
		if (len > 5 && strcmp(p + len - 5, "/.git") == 0)
			p[len -= 5] = '\0';
		else
			break;
	}
	return p;
}

/* Do two paths name one repository: the same text, or the same directory? */
static bool
same_repository_path(const char *a, const char *b)
{
	char	   *ka = path_key(a);
	char	   *kb = path_key(b);
	char	   *ra;
	char	   *rb;
	bool		same;

	if (strcmp(ka, kb) == 0)
		return true;
	/* a symbolic link, "..": what the file system resolves (only when both exist) */
	ra = realpath(ka, NULL);
	rb = ra ? realpath(kb, NULL) : NULL;
	same = ra != NULL && rb != NULL && strcmp(ra, rb) == 0;
	free(ra);
	free(rb);
	return same;
}

/*
 * A load without a name takes the last component of its path:
 * two repositories whose paths end alike ("/mirror/a/repo", "/mirror/b/repo")
 * get the same name, and the second load would replace the first one's rows
 * as a rewritten history.  Refuse it, under the repository's lock: a name
 * passed explicitly (a moved repository) and a reload of the same path load
 * as before.
 */
static void
check_default_name(FixesLoad *ld, const char *stored)
{
	if (stored == NULL || same_repository_path(stored, ld->args.path))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_DUPLICATE_OBJECT),
			 errmsg("repository \"%s\" was loaded from \"%s\", not from \"%s\"",
					ld->args.name, stored, ld->args.path),
			 errdetail("Without a name, a load is named by the last component of its path, and loading \"%s\" under that name would replace the rows of the repository loaded from \"%s\".",
					   ld->args.path, stored),
			 errhint("Pass another name to load both, fixes_load(%s, name => '...'); or, if the repository moved, name => %s to load it in place of the old one.",
					 quote_literal_cstr(ld->args.path), quote_literal_cstr(ld->args.name))));
}

/*
 * The id of the repository called name, its row created if needed; sets
 * ld->known when the row was there already.  default_name: the name is the
 * path's, and a row of another path is refused (check_default_name()).
 */
static int32
repository_id(FixesLoad *ld, bool default_name)
{
	char	   *find = psprintf("SELECT repository_id, path FROM ONLY %s.fixes_repositories WHERE name = $1",
								ld->schema);
	char	   *sql = psprintf("INSERT INTO %s.fixes_repositories AS r (name, path, ref, loaded_at) "
							   "VALUES ($1, $2, $3, now()) "
							   "ON CONFLICT (name) DO UPDATE SET name = r.name "
							   "RETURNING repository_id, xmax <> 0",
							   ld->schema);
	Oid			argtypes[3] = {TEXTOID, TEXTOID, TEXTOID};
	Datum		args[3];
	bool		isnull;

	args[0] = CStringGetTextDatum(ld->args.name);
	args[1] = CStringGetTextDatum(ld->args.path);
	args[2] = CStringGetTextDatum(ld->args.ref);

	/*
	 * A load of a known name finds its row (the repository's lock is held:
	 * no other load or unload of it runs), so that it draws no number from
	 * the sequence of ids: INSERT ... ON CONFLICT draws one each time, and a
	 * server's range of ids would run out by refreshes.
	 */
	if (fixes_spi_execute(find, 1, argtypes, args, NULL, 1, SPI_OK_SELECT) == 1)
	{
		Datum		id = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);

		if (default_name)
			check_default_name(ld, SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2));

		if (!isnull)
		{
			ld->known = true;
			return DatumGetInt32(id);
		}
	}
	if (fixes_spi_execute(sql, 3, argtypes, args, NULL, 1, SPI_OK_INSERT_RETURNING) != 1)
		elog(ERROR, "could not register repository \"%s\"", ld->args.name);
	ld->known = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
	return DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
}

/*
 * A load writes its tables in bulk (bulk_insert.c), below the executor's
 * privilege checks and row-level security: check the privileges here,
 * before anything is written, and refuse tables with row-level security,
 * whose policies the bulk path would not apply.  fixes_overrides and
 * fixes_backport_overrides are the users' tables: a load only reads them.
 */
static void
check_write_privileges(void)
{
	const char *sql =
		"SELECT c.relname::text, c.relrowsecurity, "
		"       has_table_privilege(c.oid, 'INSERT') AND has_table_privilege(c.oid, 'UPDATE') "
		"       AND has_table_privilege(c.oid, 'DELETE') "
		"  FROM pg_catalog.pg_class c "
		"  JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass "
		"       AND d.objid = c.oid AND d.deptype = 'e' "
		"  JOIN pg_catalog.pg_extension e ON d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass "
		"       AND d.refobjid = e.oid AND e.extname = 'fixes' "
		" WHERE c.relkind = 'r' AND c.relname NOT IN ('fixes_overrides', 'fixes_backport_overrides', "
		"                                                  'fixes_repository_id_range', 'fixes_shards') "
		" ORDER BY c.relname";

	fixes_spi_execute(sql, 0, NULL, NULL, NULL, 0, SPI_OK_SELECT);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		char	   *name = SPI_getvalue(tup, desc, 1);
		bool		isnull;

		if (DatumGetBool(SPI_getbinval(tup, desc, 2, &isnull)))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("row-level security is enabled on table \"%s\", which fixes_load() writes", name),
					 errdetail("fixes_load() writes its tables in bulk, which would not apply the table's policies."),
					 errhint("Disable it: ALTER TABLE %s DISABLE ROW LEVEL SECURITY, and grant readers what they may see with views instead.",
							 quote_identifier(name))));
		if (!DatumGetBool(SPI_getbinval(tup, desc, 3, &isnull)))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied for table %s", name),
					 errdetail("fixes_load() needs INSERT, UPDATE and DELETE on every table of extension fixes but fixes_overrides and fixes_backport_overrides."),
					 errhint("Grant them: GRANT INSERT, UPDATE, DELETE ON %s TO the role that loads.",
							 quote_identifier(name))));
	}
}

/*
 * The reader of the head and the tags.  After a load that read a head
 * (refresh), it is a refresh's reader: it goes on to walk the new commits,
 * without those of the previous head, while the backend reads the previous
 * load back.  That walk is kept in ld->ahead.reader for fixes_load_read(), which
 * takes it if the refresh does walk from that head.
 */
static FixesReader *
start_head_reader(FixesLoad *ld, bool refresh, bool *maintainers)
{
	const char *args[6] = {ld->args.ref, ld->prev.head, ld->paths->maintainers};
	const char *refs;
	const char *list;
	int			nargs;

	*maintainers = false;
	/* the hash of the refs, compared by a refresh's reader (refresh/refs_hash.c) */
	refs = fixes_load_refs_option(ld, refresh);
	if (!refresh)
	{
		/* only the release tags peeled (fixes_load_answer_tags()) */
		args[1] = "--ask-tags";
		args[2] = refs;
		return fixes_reader_start_args("head", ld->args.path, args, refs ? 3 : 2, true);
	}
	ld->ahead.files = ld->paths->files;
	/* it sends the MAINTAINERS file too, rather than a reader of its own */
	*maintainers = ld->has.file_tables && ld->paths->maintainers != NULL;
	nargs = *maintainers ? 3 : 2;
	/* the list of what it will walk, for the old commits' ids (refresh/old_ids.c) */
	list = fixes_load_ids_list_option(ld);
	if (list != NULL)
		args[nargs++] = list;
	args[nargs++] = "--ask-tags";
	if (refs != NULL)
		args[nargs++] = refs;
	return fixes_reader_start_args(ld->paths->files ? "refresh-files" : "refresh", ld->args.path,
								   args, nargs, true);
}

/*
 * The tags are read (the tags hash computed, the stable branches picked),
 * unless the reader found the refs of the previous load (refresh/refs_hash.c)
 */
static void
tags_read(FixesLoad *ld)
{
	if (ld->refs.unchanged)
		return;
	fixes_load_stable_branches(ld);
	ld->tags_hash = fixes_overrides_hash(ld, fixes_tags_hash(ld));
}

/*
 * A refresh: the previous load's rows it keeps, then the new commits.
 * Returns FIXES_LOAD_REFRESH_TO_FULL when the walk shows that the previous
 * load is no base: the caller then loads in full.
 */
static FixesLoadKind
read_refresh(FixesLoad *ld)
{
	if (ld->ahead.reader != NULL)
		fixes_refresh_read_kept_rows(ld);
	fixes_load_clear_stable(ld);
	fixes_load_old_ids(ld);
	fixes_load_phase(ld, "old commits looked up");
	fixes_load_read(ld);
	fixes_load_phase(ld, "history read");
	return fixes_refresh_decide(ld, FIXES_DECIDE_HISTORY_READ);
}

/* A full load: every commit; after a refresh's walk, what it read is dropped. */
static void
read_full(FixesLoad *ld)
{
	fixes_load_walk_end(ld);
	fixes_load_start_full(ld);
	fixes_load_clear(ld);
	fixes_load_read(ld);
	fixes_load_phase(ld, "history read");
}

/*
 * Read what changed since the previous load (all of it for a full load) and
 * assign releases; the reader processes live only here.  What the load is
 * is decided at each point where more is known (refresh/decide.c), and each
 * kind goes its own way.
 */
static void
read_repository(FixesLoad *ld)
{
	FixesReader *volatile reader = NULL;

	PG_TRY();
	{
		const unsigned char *payload;
		uint32		len;
		WireHead	head;
		WireHead	old;
		WireRefs	refs;
		FixesLoadKind kind;
		bool		refresh;
		bool		maintainers;

		kind = fixes_refresh_decide(ld, FIXES_DECIDE_START);
		refresh = kind == FIXES_LOAD_REFRESH;
		fixes_progress_phase(&ld->progress, "opening the repository");
		reader = start_head_reader(ld, refresh, &maintainers);
		fixes_reader_expect(reader, WIRE_HEAD, &payload, &len);
		if (wire_decode_head(payload, len, &head) != 0)
			fixes_reader_protocol_error(reader, "The head record is malformed.");
		ld->empty = !head.found;
		ld->head = head.oid;
		fixes_load_answer_tags(ld, reader);
		fixes_load_phase(ld, "repository opened");

		/*
		 * The head moved: the previous graph is read whatever the tags are.
		 * Read it while the reader reads the tags.
		 */
		if (refresh && head.found && !fixes_refresh_head_unmoved(ld))
			(void) fixes_refresh_decide(ld, FIXES_DECIDE_HEAD_MOVED);
		ld->releases->tags = fixes_receive_tags_and_branches(reader, &ld->decoder, &ld->releases->ntags,
												   &ld->stable_branches->branches, &ld->stable_branches->n, refresh,
												   ld->has.refs_hash ? &refs : NULL);
		fixes_load_refs_received(ld, reader, ld->has.refs_hash ? &refs : NULL);
		if (!refresh)
			fixes_reader_finish(reader);
		tags_read(ld);
		fixes_load_phase(ld, "tags read");
		fixes_load_read_maintainers(ld, maintainers ? reader : NULL);
		if (ld->paths->subsys != NULL)
			fixes_load_phase(ld, "MAINTAINERS read");
		if (refresh)
		{
			fixes_reader_expect(reader, WIRE_HEAD, &payload, &len);
			if (wire_decode_head(payload, len, &old) != 0)
				fixes_reader_protocol_error(reader, "The head record of the previous load is malformed.");
			if (head.found && old.found)
			{
				/* it walks on: fixes_load_read() takes it, or it is stopped below */
				ld->ahead.reader = reader;
				reader = NULL;
			}
			else
				fixes_reader_finish(reader);
		}

		kind = fixes_refresh_decide(ld, FIXES_DECIDE_REFS_READ);
		ld->unchanged = kind == FIXES_LOAD_UNCHANGED;
		if (!ld->unchanged)
		{
			/* the refs spared reading the tags, but they are needed */
			if (ld->refs.unchanged)
			{
				fixes_load_read_tags(ld);
				tags_read(ld);
			}
			if (kind == FIXES_LOAD_REFRESH)
				kind = read_refresh(ld);
			/* a full load, or a refresh that falls back to one */
			if (kind != FIXES_LOAD_REFRESH)
				read_full(ld);
			fixes_load_find_releases(ld);
			if (ld->refresh != NULL && !ld->refresh->stored.appended)
				fixes_load_read_parents_rest(ld);
			fixes_load_releases(ld);
			fixes_load_phase(ld, "releases marked");
		}
	}
	PG_FINALLY();
	{
		fixes_reader_stop(reader);
		fixes_reader_stop(ld->ahead.reader);
		ld->ahead.reader = NULL;
		fixes_load_walk_end(ld);
	}
	PG_END_TRY();
}

/*
 * fixes_graph: every row of a full load; a refresh keeps the rows below
 * first (their commits below from), and writes again the releases of those
 * whose commits moved
 */
static void
write_graph(FixesLoad *ld)
{
	int32		first = 0;
	uint32		from = 0;

	if (ld->refresh != NULL)
	{
		fixes_refresh_graph_kept(ld, &first, &from);
		if (ld->has.graph_releases)
			fixes_refresh_write_moved_releases(ld, first);
	}
	fixes_load_write_graph(ld, first, from);
}

/* Write what changed; the resolution needs the new commits written first. */
static void
write_repository(FixesLoad *ld)
{
	bool		new_commits = ld->graph->n > ld->n_old;

	fixes_load_stable_begin(ld);
	fixes_load_write_commits(ld);
	fixes_load_phase(ld, "releases of commits corrected");
	fixes_load_write_files(ld);
	fixes_load_phase(ld, "files and subsystems written");
	/* with files, only the old edges it needs when the per-group counts need no others */
	if (ld->refresh != NULL && ld->refresh->edges_some && ld->paths->files &&
		!fixes_load_groups_by_difference(ld))
		fixes_load_old_edges_every(ld, "the per-group counts are computed again");
	fixes_load_old_edges_changeable(ld);
	fixes_load_phase(ld, "old edges read");

	/*
	 * The same commits in scope and the same overrides (folded into the tags
	 * hash): no edge can resolve differently.
	 */
	if (new_commits || ld->refresh == NULL || ld->tags_hash != ld->prev.tags_hash)
	{
		fixes_load_resolve(ld);
		fixes_load_apply_overrides(ld);
	}
	fixes_load_phase(ld, "edges resolved");
	fixes_load_old_edges_counted(ld);
	fixes_load_count_resolved(ld);
	fixes_load_phase(ld, "old edges of the releases counted read");
	fixes_load_fetch_edge_ids(ld);
	fixes_load_fetch_target_times(ld);
	fixes_load_write_edges(ld);
	fixes_load_phase(ld, "edges written");
	fixes_count_releases(ld);
	fixes_load_phase(ld, "per-release counts and lifetimes computed");
	fixes_load_subsystem_counts(ld);
	fixes_load_write_trailer_counts(ld);
	fixes_load_phase(ld, "trailer counts written");
	fixes_load_write_releases(ld);
	fixes_load_write_fixed_commits(ld);
	fixes_load_phase(ld, "releases and fixed commits written");
	/* and with 1.2 for the releases of its commits (fixes_graph.releases), which a tag moves */
	if (new_commits || ld->refresh == NULL || ld->has.graph_releases)
		write_graph(ld);
	fixes_load_phase(ld, "graph written");
	ld->n_mainline = ld->graph->n;
	if (ld->has.stable_scope)
		fixes_load_stable(ld);
}

/*
 * The load itself, once its repository's row is there and its lock taken:
 * what the previous load left, the repository, the rows.  full: the
 * previous load is not built on (a refresh found its stored state damaged).
 */
static void
run_load(FixesLoad *ld, bool full)
{
	fixes_decoder_init(&ld->decoder);
	fixes_progress_start(&ld->progress, ld->args.name);
	ld->graph = fixes_graph_create(ld->cxt);
	fixes_overrides_init(ld);
	fixes_stable_branches_init(ld);
	fixes_paths_init(ld);
	fixes_releases_init(ld);
	fixes_counts_init(ld);
	fixes_load_phase(ld, "started");
	fixes_load_read_previous(ld);
	if (full)
		fixes_load_previous_unusable(ld);
	fixes_load_read_previous_newest(ld);
	fixes_load_read_overrides(ld);
	fixes_load_settings(ld, ld->args.files_set, ld->args.files, ld->args.maintainers_set,
						ld->args.maintainers);
	fixes_load_stable_setting(ld, ld->args.stable_keep);
	fixes_load_stable_check(ld);
	fixes_load_release_tags_setting(ld, ld->args.release_tags);

	read_repository(ld);
	if (ld->unchanged)
	{
		/* what the previous load recorded is still true */
		ld->totals.edges = ld->prev.edges;
		ld->totals.resolved = ld->prev.resolved;
		ld->releases->n = ld->prev.nreleases;
	}
	else
	{
		write_repository(ld);
		fixes_load_analyze(ld);
		fixes_load_phase(ld, "statistics of the changed tables");
	}
}

/* a load of the same arguments, for run_load() again */
static FixesLoad *
copy_arguments(const FixesLoad *from, MemoryContext callcxt)
{
	FixesLoad  *ld = palloc0(sizeof(FixesLoad));

	ld->args = from->args;
	ld->nsp = from->nsp;
	ld->schema = from->schema;
	ld->has = from->has;
	ld->repository_id = from->repository_id;
	ld->known = from->known;
	ld->cxt = AllocSetContextCreate(callcxt, "fixes_load", ALLOCSET_DEFAULT_SIZES);
	return ld;
}

/*
 * run_load() in a subtransaction.  The tables of a previous load are input
 * like the repository (a role that may write them may have changed them):
 * what a refresh reads back is checked, and a check that fails raises
 * XX001 (fixes_load_stored_bad(), which sets ld->stored_bad; a damaged
 * repository's XX001 is not caught).  The refresh is then rolled back to its
 * start and the repository loaded in full, with a NOTICE: the result is
 * that of a first load, whatever the tables held.  A full load reads
 * nothing back, so its errors are the caller's.  Returns the load that
 * wrote the rows.
 */
static FixesLoad *
run_load_checked(FixesLoad *ld, MemoryContext callcxt)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	FixesLoad  *volatile again = NULL;

	if (!ld->known)
	{
		run_load(ld, false);
		return ld;
	}
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		run_load(ld, false);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(callcxt);
		edata = CopyErrorData();
		FlushErrorState();
		/* the subtransaction goes first, whatever the error (as PL/pgSQL does) */
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(callcxt);
		CurrentResourceOwner = owner;
		if (edata->sqlerrcode != ERRCODE_DATA_CORRUPTED || !ld->stored_bad)
			ReThrowError(edata);
		ereport(NOTICE,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("the stored state of repository \"%s\" does not read back: loading it in full",
						ld->args.name),
				 errdetail("%s%s%s", edata->message,
						   edata->detail ? ": " : "", edata->detail ? edata->detail : ""),
				 errhint("A role that may write the tables of extension fixes changed them, or they are damaged.")));
		FreeErrorData(edata);
		again = copy_arguments(ld, callcxt);
		MemoryContextDelete(ld->cxt);
	}
	PG_END_TRY();
	if (again == NULL)
		return ld;
	MemoryContextSwitchTo(again->cxt);
	run_load(again, true);
	return again;
}

Datum
fixes_load(PG_FUNCTION_ARGS)
{
	TimestampTz start = GetCurrentTimestamp();
	FixesLoad  *ld;
	TupleDesc	tupdesc;
	MemoryContext callcxt = CurrentMemoryContext;
	MemoryContext old;
	Datum		values[LOAD_COLS];
	bool		nulls[LOAD_COLS] = {0};
	long		secs;
	int			usecs;
	double		seconds;
	int			i = 0;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("repository path must not be null")));
	fixes_check_read_privilege();
	if (IsolationUsesXactSnapshot())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("fixes_load() must run in a READ COMMITTED transaction"),
				 errdetail("A load waits for another load of the same repository and then builds on what that load committed, which a transaction snapshot would not show."),
				 errhint("Call it outside an explicit transaction, or SET TRANSACTION ISOLATION LEVEL READ COMMITTED.")));
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	trim_when_done();
	ld = palloc0(sizeof(FixesLoad));
	ld->args.path = text_to_cstring(PG_GETARG_TEXT_PP(0));
	ld->args.ref = PG_ARGISNULL(1) ? pstrdup("HEAD") : text_to_cstring(PG_GETARG_TEXT_PP(1));
	ld->args.pattern = PG_ARGISNULL(2) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(2));
	ld->args.name = PG_ARGISNULL(3) ? default_name(ld->args.path) : text_to_cstring(PG_GETARG_TEXT_PP(3));
	/*
	 * The 1.0 definition has four arguments.  1.2's stable_branches defaults
	 * to FIXES_STABLE_KEEP, the repository's setting; NULL turns it off.
	 */
	ld->args.stable_re = PG_NARGS() > 4 && !PG_ARGISNULL(4) ? text_to_cstring(PG_GETARG_TEXT_PP(4)) : NULL;
	if (ld->args.stable_re != NULL && strcmp(ld->args.stable_re, FIXES_STABLE_KEEP) == 0)
	{
		ld->args.stable_keep = true;
		ld->args.stable_re = NULL;
	}
	/* fixes_load(path, ref, release_pattern, name, stable_branches, files, maintainers) */
	if (PG_NARGS() >= 7)
	{
		ld->args.files_set = !PG_ARGISNULL(5);
		ld->args.files = !PG_ARGISNULL(5) && PG_GETARG_BOOL(5);
		ld->args.maintainers_set = !PG_ARGISNULL(6);
		ld->args.maintainers = PG_ARGISNULL(6) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(6));
	}
	/* release_tags (NULL keeps the repository's setting) */
	ld->args.release_tags = PG_NARGS() >= 8 && !PG_ARGISNULL(7) ?
		text_to_cstring(PG_GETARG_TEXT_PP(7)) : NULL;
	if (ld->args.name[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("repository name must not be empty"),
				 errhint("Pass a name, or NULL for the last component of the path.")));
	ld->nsp = fixes_extension_schema(fcinfo, &ld->schema, NULL);
	ld->cxt = AllocSetContextCreate(callcxt, "fixes_load", ALLOCSET_DEFAULT_SIZES);
	fixes_load_schema(ld);
	fixes_load_check_pattern(ld);

	SPI_connect();
	check_write_privileges();
	old = MemoryContextSwitchTo(ld->cxt);
	fixes_lock_repository(ld->args.name);
	ld->repository_id = repository_id(ld, PG_ARGISNULL(3));
	ld = run_load_checked(ld, callcxt);

	TimestampDifference(start, GetCurrentTimestamp(), &secs, &usecs);
	seconds = secs + usecs / 1000000.0;
	fixes_load_write_repository(ld, seconds);
	MemoryContextSwitchTo(old);
	SPI_finish();
	fixes_progress_end(&ld->progress);

	fixes_decoder_report(&ld->decoder, ld->args.path);
	fixes_load_files_report(ld);
	if (ld->empty)
		ereport(NOTICE,
				(errmsg("repository \"%s\" has no commits", ld->args.path)));

	values[i++] = CStringGetTextDatum(ld->args.name);
	values[i++] = Int64GetDatum(ld->unchanged ? ld->prev.commits : (int64) ld->n_mainline);
	values[i++] = Int32GetDatum(ld->releases->n);
	values[i++] = Int64GetDatum(ld->totals.edges);
	values[i++] = Int64GetDatum(ld->totals.resolved);
	values[i++] = Float8GetDatum(seconds);
	Assert(i == LOAD_COLS);
	MemoryContextDelete(ld->cxt);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
