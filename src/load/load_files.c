/*
 * load_files.c — fixes_load(files, maintainers): what each commit changed
 *
 * Settings: files and maintainers are kept per repository in
 * fixes_repositories; NULL keeps the current one.  A change of either makes
 * the load a full one, so that every commit is recorded the same way.  A
 * change of the MAINTAINERS file itself (its content, or the directories
 * its patterns name) does not: a refresh attributes the commits of the
 * previous load again from their recorded files (load_maintainers.c).
 *
 * Phase read: the reader sends each commit's files right after it
 * (reader/files.c); their rows go straight into fixes_commit_files (a full
 * load deletes the old ones first, as load_trailers.c does for trailers), so
 * that the backend writes them while the reader diffs the next commits; the
 * sums go into the commit's row, and the paths to load_maintainers.c, which
 * attributes them to subsystems once the releases are known.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "executor/spi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/rel.h"

#include "bulk_insert.h"
#include "load_files.h"
#include "load_maintainers.h"
#include "load_subsystem_counts.h"
#include "load_walk.h"
#include "refresh.h"
#include "spi_call.h"

/*
 * The settings: NULL arguments keep the repository's (false and none for a
 * new one).  maintainers => '' removes the MAINTAINERS setting.
 */
void
fixes_load_settings(FixesLoad *ld, bool files_given, bool files,
					bool maint_given, const char *maintainers)
{
	if (!ld->has.file_tables)
		return;
	/* the previous settings: refresh/previous.c read them */
	ld->paths->files = files_given ? files : ld->prev.files;
	if (maint_given)
		ld->paths->maintainers = maintainers[0] == '\0' ? NULL : MemoryContextStrdup(ld->cxt, maintainers);
	else
		ld->paths->maintainers = ld->prev.maintainers;
	if (ld->paths->maintainers != NULL && !ld->paths->files)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("maintainers needs files"),
				 errdetail(maint_given ? "Subsystems are attributed from the changed files of each commit."
						   : "Repository \"%s\" attributes subsystems from MAINTAINERS file \"%s\", which needs the changed files of each commit.",
						   ld->args.name, ld->paths->maintainers),
				 errhint("Pass files => true, or maintainers => '' to stop attributing subsystems.")));
	if (ld->known && ld->prev.files && !ld->paths->files)
		ereport(NOTICE,
				(errmsg("the changed files of repository \"%s\" are dropped", ld->args.name),
				 errdetail("files => false removes the rows of fixes_commit_files and the sizes of its commits.")));
	/* another setting: every commit is read again */
	if (ld->paths->files != ld->prev.files ||
		(ld->paths->maintainers == NULL) != (ld->prev.maintainers == NULL) ||
		(ld->paths->maintainers != NULL && strcmp(ld->paths->maintainers, ld->prev.maintainers) != 0))
		fixes_load_previous_unusable(ld);
}

/*
 * The hook of the mainline's walk: where the rows go (the old rows of a
 * full load are gone, load_clear.c).  The stable scope's files are not read.
 */
/* the state of the files hook: the rows of fixes_commit_files, during the walk */
typedef struct FileRows
{
	FixesBulk  *bulk;
} FileRows;

static void
files_begin(FixesLoad *ld, void *arg, const FixesCommitRows *rows)
{
	FileRows   *fr = arg;

	if (!ld->has.file_tables || !ld->paths->files)
		return;
	fr->bulk = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_commit_files"));
}

/* the walk is over (or starts again in full): write what is left */
static void
files_end(FixesLoad *ld, void *arg)
{
	fixes_bulk_finish(&((FileRows *) arg)->bulk);
}

/*
 * The files of the commit just walked (its 'F' record, which moves the
 * reader's buffer past the commit's raw fields): rows into
 * fixes_commit_files, sums into the commit's row, the paths into wc for the
 * hooks that follow (below).  Runs in the per-row memory context of the
 * walk.
 */
static void
files_commit(FixesLoad *ld, void *arg, FixesWalkCommit *wc)
{
	FileRows   *fr = arg;
	uint32		idx = wc->c->idx;
	const FixesCommitCols *cols = wc->cols;
	WireFiles	wfiles;
	WireFiles  *wf = &wfiles;
	TupleDesc	desc;
	int			c_repo,
				c_idx,
				c_path,
				c_added,
				c_deleted;
	Datum	   *fv;
	bool	   *fn;
	WireFileRow row;
	int64		nfiles = 0,
				added = 0,
				deleted = 0;
	int64		paths_cap = 0;

	if (fr->bulk == NULL)
		return;
	desc = RelationGetDescr(fr->bulk->rel);
	c_repo = fixes_attnum(desc, "repository_id");
	c_idx = fixes_attnum(desc, "commit_idx");
	c_path = fixes_attnum(desc, "path");
	c_added = fixes_attnum(desc, "added");
	c_deleted = fixes_attnum(desc, "deleted");
	fixes_walk_files(wc->walk, wf);
	if (wf->state == FILES_TREE_MISSING)
		ld->paths->missing_trees++;
	if (wf->state != FILES_DIFFED)
		return;					/* sums stay NULL */
	fixes_bulk_row(fr->bulk, &fv, &fn);
	fv[c_repo] = Int32GetDatum(ld->repository_id);
	fv[c_idx] = Int32GetDatum((int32) idx);
	fn[c_repo] = fn[c_idx] = fn[c_path] = false;
	while (wire_files_next(wf, &row))
	{
		text	   *path = fixes_decode_text(&ld->decoder, row.path.s, row.path.len, PG_UTF8);

		fv[c_path] = PointerGetDatum(path);
		fn[c_added] = fn[c_deleted] = row.kind != FILE_TEXT;
		fv[c_added] = Int32GetDatum((int32) Min(row.added, PG_INT32_MAX));
		fv[c_deleted] = Int32GetDatum((int32) Min(row.deleted, PG_INT32_MAX));
		fixes_bulk_insert(fr->bulk, fv, fn, 64 + VARSIZE(path));
		nfiles++;
		added += row.added;
		deleted += row.deleted;
		ld->paths->missing_blobs += row.kind == FILE_MISSING;
		if (wc->npaths == paths_cap)
		{
			paths_cap = paths_cap ? 2 * paths_cap : 64;
			wc->paths = wc->paths ? repalloc_huge(wc->paths, sizeof(text *) * paths_cap)
				: palloc(sizeof(text *) * paths_cap);
		}
		wc->paths[wc->npaths++] = path;
	}
	wc->values[cols->files] = Int32GetDatum((int32) nfiles);
	wc->values[cols->added] = Int64GetDatum(added);
	wc->values[cols->deleted] = Int64GetDatum(deleted);
	wc->nulls[cols->files] = wc->nulls[cols->added] = wc->nulls[cols->deleted] = false;
}

/* the hook of the mainline's walk (load_read.c), after those of the raw message */
FixesWalkHook
fixes_files_hook(void)
{
	return (FixesWalkHook) {files_begin, files_commit, files_end, palloc0(sizeof(FileRows))};
}

/*
 * The hooks of the paths of each commit, after the files hook: their
 * prefixes (load_subsystem_counts.c), and the (commit, path) pairs that
 * load_maintainers.c attributes once the releases are known.
 */

/* each path of the commit just walked, to fn */
static void
each_path(FixesLoad *ld, FixesWalkCommit *wc,
		  void (*fn) (FixesLoad *ld, uint32 idx, const char *path, int len))
{
	for (int i = 0; i < wc->npaths; i++)
		fn(ld, wc->c->idx, VARDATA_ANY(wc->paths[i]), (int) VARSIZE_ANY_EXHDR(wc->paths[i]));
}

static void
prefixes_begin(FixesLoad *ld, void *arg, const FixesCommitRows *rows)
{
	fixes_load_prefixes_begin(ld);
}

static void
prefixes_commit(FixesLoad *ld, void *arg, FixesWalkCommit *wc)
{
	each_path(ld, wc, fixes_load_prefix_path);
}

FixesWalkHook
fixes_path_prefixes_hook(void)
{
	return (FixesWalkHook) {prefixes_begin, prefixes_commit, NULL, NULL};
}

/* a walk that starts again in full: no pairs yet */
static void
maintainers_begin(FixesLoad *ld, void *arg, const FixesCommitRows *rows)
{
	fixes_load_maintainers_restart(ld);
}

static void
maintainers_commit(FixesLoad *ld, void *arg, FixesWalkCommit *wc)
{
	if (ld->paths->subsys == NULL)
		return;
	each_path(ld, wc, fixes_load_maintainers_path);
}

FixesWalkHook
fixes_maintainers_paths_hook(void)
{
	return (FixesWalkHook) {maintainers_begin, maintainers_commit, NULL, NULL};
}

/* one WARNING per load for what a partial clone lacks */
void
fixes_load_files_report(FixesLoad *ld)
{
	if (ld->paths->missing_blobs == 0 && ld->paths->missing_trees == 0)
		return;
	ereport(WARNING,
			(errmsg("repository \"%s\" lacks the content of %lld changed files and the trees of %lld commits",
					ld->args.path, (long long) ld->paths->missing_blobs, (long long) ld->paths->missing_trees),
			 errdetail("It is a partial clone. A file without content has no counts of added and deleted lines; a commit without its tree has no files. Nothing was fetched."),
			 errhint("Fetch the missing objects in the repository (for example \"git fetch --refetch\" without a filter) and load it again.")));
}


/*
 * The state of files and subsystems (load_files.h), which this file,
 * load_maintainers.c and load_subsystem_counts.c fill.
 * Allocated in ld->cxt, zeroed, before the load's first phase (run_load()).
 */
void
fixes_paths_init(FixesLoad *ld)
{
	ld->paths = MemoryContextAllocZero(ld->cxt, sizeof(FixesPaths));
}
