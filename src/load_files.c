/*
 * load_files.c — fixes_load(files, maintainers): what each commit changed,
 * and its subsystems
 *
 * Settings: files and maintainers are kept per repository in
 * fixes_repositories; NULL keeps the current one.  A change of either makes
 * the load a full one, so that every commit is recorded the same way.  A
 * change of the MAINTAINERS file itself (its content, or the directories
 * its patterns name) does not: a refresh attributes the commits of the
 * previous load again from their recorded files.
 *
 * Phase read: the reader sends each commit's files right after it
 * (reader/files.c); their rows go straight into fixes_commit_files (a full
 * load deletes the old ones first, as load_trailers.c does for trailers), so
 * that the backend writes them while the reader diffs the next commits; the
 * sums go into the commit's row, and each path is attributed to MAINTAINERS
 * sections (maintainers.c; N: expressions with PostgreSQL's regex engine),
 * each distinct path once per load.
 *
 * Phase write: fixes_subsystems (rewritten by a full load) and
 * fixes_commit_subsystems, in bulk.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "regex/regex.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "bulk_insert.h"
#include "load_state.h"
#include "spi_call.h"
#include "maintainers.h"
#include "walk.h"

/* a path attributed already: its sections are secs[start .. start + n) */
typedef struct PathEntry
{
	uint64		hash;
	const char *path;			/* NULL: empty slot */
	int			len;
	int			start;
	int			n;
} PathEntry;

typedef struct FixesSubsystems
{
	Maintainers m;
	regex_t    *regexes;		/* one per N: pattern that compiled */
	int			nregexes;
	pg_wchar   *wbuf;			/* a path as wide characters */
	int			wcap;
	PathEntry  *paths;
	uint32		mask;
	uint32		npaths;
	int		   *secs;
	int			nsecs;
	int			secs_cap;
	int		   *scratch;		/* a path's sections (room for nsections) */
	bool	   *in_commit;		/* by section: in the current commit */
	int		   *commit_secs;	/* the sections of the current commit */
	int			ncommit;
	char	  **dirs;			/* the tree's directories, sorted */
	int			ndirs;
	MemoryContext cxt;			/* the load's */
} FixesSubsystems;

static void *
mnt_palloc(void *ctx, size_t size)
{
	return MemoryContextAllocHuge((MemoryContext) ctx, size);
}

/* the compiled expressions are malloc'd by the regex engine: free them with the load */
static void
free_regexes(void *arg)
{
	FixesSubsystems *ss = arg;

	for (int i = 0; i < ss->nregexes; i++)
		pg_regfree(&ss->regexes[i]);
	ss->nregexes = 0;
}

/*
 * The settings: NULL arguments keep the repository's (false and none for a
 * new one).  maintainers => '' removes the MAINTAINERS setting.
 */
void
fixes_load_settings(FixesLoad *ld, bool files_given, bool files,
					bool maint_given, const char *maintainers)
{
	ld->c_files = ld->c_added = ld->c_deleted = -1;
	if (!ld->v11)
		return;
	/* the previous settings: load_previous.c read them */
	ld->files = files_given ? files : ld->old_files;
	if (maint_given)
		ld->maintainers = maintainers[0] == '\0' ? NULL : MemoryContextStrdup(ld->cxt, maintainers);
	else
		ld->maintainers = ld->old_maintainers;
	if (ld->maintainers != NULL && !ld->files)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("maintainers needs files"),
				 errdetail(maint_given ? "Subsystems are attributed from the changed files of each commit."
						   : "Repository \"%s\" attributes subsystems from MAINTAINERS file \"%s\", which needs the changed files of each commit.",
						   ld->name, ld->maintainers),
				 errhint("Pass files => true, or maintainers => '' to stop attributing subsystems.")));
	if (ld->known && ld->old_files && !ld->files)
		ereport(NOTICE,
				(errmsg("the changed files of repository \"%s\" are dropped", ld->name),
				 errdetail("files => false removes the rows of fixes_commit_files and the sizes of its commits.")));
	/* another setting: every commit is read again */
	if (ld->files != ld->old_files ||
		(ld->maintainers == NULL) != (ld->old_maintainers == NULL) ||
		(ld->maintainers != NULL && strcmp(ld->maintainers, ld->old_maintainers) != 0))
		ld->old_usable = false;
}

static int
dir_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static bool
is_dir(const char *path, size_t len, void *arg)
{
	FixesSubsystems *ss = arg;
	char	   *key = pnstrdup(path, len);
	bool		found = bsearch(&key, ss->dirs, ss->ndirs, sizeof(char *), dir_cmp) != NULL;

	pfree(key);
	return found;
}

/* maintainers.c's hook (mnt_check_interrupts) */
static void
check_interrupts(void)
{
	CHECK_FOR_INTERRUPTS();
}

static bool
regex_search(void *regex, const char *path, size_t len, void *arg)
{
	FixesSubsystems *ss = arg;
	int			wlen;
	int			rc;

	if ((int) len + 1 > ss->wcap)
	{
		ss->wcap = (int) len * 2 + 16;
		ss->wbuf = repalloc(ss->wbuf, sizeof(pg_wchar) * ss->wcap);
	}
	wlen = pg_mb2wchar_with_len(path, ss->wbuf, (int) len);
	rc = pg_regexec((regex_t *) regex, ss->wbuf, wlen, 0, NULL, 0, NULL, 0);
	if (rc != REG_OKAY && rc != REG_NOMATCH)
	{
		char		msg[256];

		/* a cancel stops the regex library (REG_CANCEL): 57014, not 2201B */
		CHECK_FOR_INTERRUPTS();

		pg_regerror(rc, (regex_t *) regex, msg, sizeof(msg));
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_REGULAR_EXPRESSION),
				 errmsg("regular expression failed: %s", msg)));
	}
	return rc == REG_OKAY;
}

/* compile the N: expressions; a bad one is ignored with a WARNING */
static void
compile_regexes(FixesLoad *ld, FixesSubsystems *ss)
{
	Maintainers *m = &ss->m;
	int			bad = 0;
	const char *first_bad = NULL;
	char		first_msg[256] = "";
	MemoryContextCallback *cb = palloc0(sizeof(MemoryContextCallback));

	ss->regexes = palloc0(sizeof(regex_t) * Max(m->npatterns, 1));
	cb->func = free_regexes;
	cb->arg = ss;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, cb);
	for (int i = 0; i < m->npatterns; i++)
	{
		MntPattern *p = &m->patterns[i];
		pg_wchar   *w;
		int			wlen;
		int			rc;

		if (p->kind != 'N')
			continue;
		CHECK_FOR_INTERRUPTS();
		w = palloc(sizeof(pg_wchar) * (p->len + 1));
		wlen = pg_mb2wchar_with_len(p->text, w, (int) p->len);
		rc = pg_regcomp(&ss->regexes[ss->nregexes], w, wlen, REG_ADVANCED, C_COLLATION_OID);
		pfree(w);
		if (rc == REG_CANCEL)
			CHECK_FOR_INTERRUPTS();	/* 57014, not an invalid expression */
		if (rc != REG_OKAY)
		{
			if (bad++ == 0)
			{
				first_bad = p->text;
				pg_regerror(rc, &ss->regexes[ss->nregexes], first_msg, sizeof(first_msg));
			}
			continue;
		}
		p->regex = &ss->regexes[ss->nregexes++];
	}
	if (bad > 0)
		ereport(WARNING,
				(errcode(ERRCODE_INVALID_REGULAR_EXPRESSION),
				 errmsg_plural("%d N: field of \"%s\" is not a valid regular expression and is ignored",
							   "%d N: fields of \"%s\" are not valid regular expressions and are ignored",
							   bad, bad, ld->maintainers),
				 errdetail("The first is \"N: %s\": %s.", first_bad, first_msg)));
}

static void
warn_metachars(FixesLoad *ld, Maintainers *m)
{
	int			n = 0;
	const MntPattern *first = NULL;

	for (int i = 0; i < m->npatterns; i++)
		if (m->patterns[i].kind != 'N' && m->patterns[i].metachar)
		{
			if (n++ == 0)
				first = &m->patterns[i];
		}
	if (n > 0)
		ereport(WARNING,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg_plural("%d F: or X: pattern of \"%s\" holds a regular expression metacharacter",
							   "%d F: or X: patterns of \"%s\" hold a regular expression metacharacter",
							   n, n, ld->maintainers),
				 errdetail("The first is \"%c: %.*s\". Only \"*\" and \"?\" are wildcards: other characters are matched literally, where get_maintainer.pl would read them as a regular expression.",
						   first->kind, (int) first->len, first->text)));
}

/*
 * Read the MAINTAINERS file of the ref's tree and the tree's directories
 * (a reader process of its own, or shared: a refresh's reader sends them
 * after the tags), parse the file and compile its N: expressions.  Its
 * hash (content, and which patterns name directories) decides whether a
 * refresh can keep the attributions of the previous load.
 */
void
fixes_load_read_maintainers(FixesLoad *ld, FixesReader *shared)
{
	FixesReader *volatile reader = NULL;
	FixesSubsystems *ss;
	char		hex[FIXES_OID_HEXSZ + 1];
	const char *content = NULL;
	size_t		content_len = 0;
	uint64		h;

	if (!ld->v11 || ld->maintainers == NULL || ld->empty)
		return;
	ss = palloc0(sizeof(FixesSubsystems));
	ss->cxt = CurrentMemoryContext;
	mnt_check_interrupts = check_interrupts;
	fixes_format_oid(hex, &ld->head);
	PG_TRY();
	{
		const unsigned char *payload;
		uint32		len;
		WireBlob	blob;
		char		type;
		int			dcap = 256;
		const char *args[2];

		args[0] = pstrdup(hex);
		args[1] = ld->maintainers;
		reader = shared != NULL ? shared : fixes_reader_start_args("blob", ld->path, args, 2, false);
		fixes_reader_expect(reader, WIRE_BLOB, &payload, &len);
		if (wire_decode_blob(payload, len, &blob) != 0)
			fixes_reader_protocol_error(reader, "A blob record is malformed.");
		if (!blob.found)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_FILE),
					 errmsg("file \"%s\" not found in the tree of \"%s\" in repository \"%s\"",
							ld->maintainers, ld->ref, ld->path),
					 errhint("maintainers is the path of the MAINTAINERS file inside the repository's tree, e.g. 'MAINTAINERS'.")));
		if (blob.is_tree)
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("\"%s\" is a directory in the tree of \"%s\" in repository \"%s\"",
							ld->maintainers, ld->ref, ld->path),
					 errhint("maintainers is the path of a file, e.g. 'MAINTAINERS'.")));
		if (memchr(blob.data, '\0', blob.len) != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("\"%s\" in repository \"%s\" is a binary file, not a MAINTAINERS file",
							ld->maintainers, ld->path),
					 errdetail("It holds a NUL byte.")));
		content = fixes_decode_cstring(&ld->decoder, blob.data, blob.len, PG_UTF8);
		content_len = strlen(content);
		h = hash_bytes_extended((const unsigned char *) content, (int) content_len, 0);

		ss->dirs = palloc(sizeof(char *) * dcap);
		while ((type = fixes_reader_next(reader, &payload, &len)) == WIRE_DIR)
		{
			WireStr		d;

			if (wire_decode_dir(payload, len, &d) != 0)
				fixes_reader_protocol_error(reader, "A directory record is malformed.");
			if (ss->ndirs == dcap)
			{
				dcap *= 2;
				ss->dirs = repalloc(ss->dirs, sizeof(char *) * dcap);
			}
			ss->dirs[ss->ndirs++] = fixes_decode_cstring(&ld->decoder, d.s, d.len, PG_UTF8);
		}
		if (shared != NULL && !reader->ended)
			fixes_reader_unread(reader);	/* what follows is the caller's */
		else if (!reader->ended)
			fixes_reader_protocol_error(reader, "A directory record was expected.");
		else
			fixes_reader_finish(reader);
	}
	PG_FINALLY();
	{
		if (shared == NULL)
			fixes_reader_stop(reader);
	}
	PG_END_TRY();
	qsort(ss->dirs, ss->ndirs, sizeof(char *), dir_cmp);

	mnt_parse(&ss->m, content, content_len, mnt_palloc, CurrentMemoryContext);
	mnt_set_dirs(&ss->m, is_dir, ss);
	for (int i = 0; i < ss->m.npatterns; i++)
	{
		unsigned char dir = ss->m.patterns[i].dir;

		h = hash_combine64(h, dir);
	}
	ld->maint_hash = (int64) h;
	if (ss->m.nsections == 0)
		ereport(WARNING,
				(errmsg("\"%s\" of repository \"%s\" has no sections with F: or N: fields",
						ld->maintainers, ld->path),
				 errdetail("No commit is attributed to a subsystem."),
				 errhint("A section is a block of lines, the first its name, separated from the next by a blank line; its F: fields name files.")));
	warn_metachars(ld, &ss->m);
	compile_regexes(ld, ss);
	ss->wcap = 256;
	ss->wbuf = palloc(sizeof(pg_wchar) * ss->wcap);
	ss->mask = 1023;
	ss->paths = palloc0(sizeof(PathEntry) * (ss->mask + 1));
	ss->secs_cap = 1024;
	ss->secs = palloc(sizeof(int) * ss->secs_cap);
	ss->scratch = palloc(sizeof(int) * (ss->m.nsections + 1));
	ss->in_commit = palloc0(sizeof(bool) * (ss->m.nsections + 1));
	ss->commit_secs = palloc(sizeof(int) * (ss->m.nsections + 1));
	ld->subsys = ss;
	/*
	 * Another MAINTAINERS (the same setting): a refresh reads only the new
	 * commits, and attributes the old ones again from their recorded files.
	 */
	if (ld->old_maint_hash_null)
		ld->old_usable = false;
	else if (ld->old_maint_hash != ld->maint_hash)
		ld->reattribute = true;
}

static void
grow_paths(FixesSubsystems *ss)
{
	uint32		cap = (ss->mask + 1) * 2;
	PathEntry  *old = ss->paths;
	uint32		oldcap = ss->mask + 1;

	ss->paths = MemoryContextAllocHuge(GetMemoryChunkContext(old), sizeof(PathEntry) * cap);
	memset(ss->paths, 0, sizeof(PathEntry) * cap);
	ss->mask = cap - 1;
	for (uint32 i = 0; i < oldcap; i++)
		if (old[i].path != NULL)
		{
			uint32		j = (uint32) old[i].hash & ss->mask;

			while (ss->paths[j].path != NULL)
				j = (j + 1) & ss->mask;
			ss->paths[j] = old[i];
		}
	pfree(old);
}

/* the sections of path, attributed once per load */
static PathEntry *
path_sections(FixesSubsystems *ss, const char *path, int len)
{
	uint64		h = hash_bytes_extended((const unsigned char *) path, len, 0);
	uint32		j = (uint32) h & ss->mask;
	PathEntry  *e;
	int			n;

	for (;;)
	{
		e = &ss->paths[j];
		if (e->path == NULL)
			break;
		if (e->hash == h && e->len == len && memcmp(e->path, path, len) == 0)
			return e;
		j = (j + 1) & ss->mask;
	}
	n = mnt_match(&ss->m, path, (size_t) len, regex_search, ss, ss->scratch);
	if (ss->nsecs + n > ss->secs_cap)
	{
		ss->secs_cap = (ss->nsecs + n) * 2;
		ss->secs = repalloc_huge(ss->secs, sizeof(int) * ss->secs_cap);
	}
	memcpy(ss->secs + ss->nsecs, ss->scratch, sizeof(int) * n);
	e->hash = h;
	e->path = MemoryContextAlloc(ss->cxt, len + 1);
	memcpy((char *) e->path, path, len);
	e->len = len;
	e->start = ss->nsecs;
	e->n = n;
	ss->nsecs += n;
	if (++ss->npaths * 2 > ss->mask)
	{
		grow_paths(ss);
		return path_sections(ss, path, len);
	}
	return e;
}

/*
 * Set up the phase read: where the rows go (the old rows of a full load are
 * gone, load_clear.c).  A refresh under another MAINTAINERS
 * deletes every attribution first: those of the old commits are made again
 * after the read (fixes_load_write_files).  The stable scope's files are
 * not read.
 */
void
fixes_load_files_begin(FixesLoad *ld)
{
	if (!ld->v11)
		return;
	ld->c_files = fixes_attnum(ld->commits_desc, "files");
	ld->c_added = fixes_attnum(ld->commits_desc, "added");
	ld->c_deleted = fixes_attnum(ld->commits_desc, "deleted");
	if (ld->stable_phase || !ld->files)
		return;
	if (ld->incremental && ld->reattribute)
	{
		(void) fixes_spi_delete_rows(ld->schema, "fixes_commit_subsystems", ld->repository_id);
		(void) fixes_spi_delete_rows(ld->schema, "fixes_subsystems", ld->repository_id);
		CommandCounterIncrement();
	}
	ld->file_bulk = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_commit_files"));
	if (ld->subsys != NULL)
	{
		ld->subsys_bulk = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_commit_subsystems"));
	}
	fixes_load_prefixes_begin(ld);
}

/* the walk is over (or starts again in full): write what is left */
void
fixes_load_files_end(FixesLoad *ld)
{
	if (ld->file_bulk == NULL)
		return;
	fixes_bulk_end(ld->file_bulk);
	ld->file_bulk = NULL;
	if (ld->subsys_bulk != NULL)
		fixes_bulk_end(ld->subsys_bulk);
	ld->subsys_bulk = NULL;
	CommandCounterIncrement();
}

/* a row of fixes_commit_subsystems, its columns by name */
static void
insert_commit_subsystem(FixesBulk *b, int32 repository_id, uint32 idx, int section)
{
	TupleDesc	desc = RelationGetDescr(b->rel);
	Datum	   *v;
	bool	   *n;
	int			c_repo = fixes_attnum(desc, "repository_id"),
				c_idx = fixes_attnum(desc, "commit_idx"),
				c_id = fixes_attnum(desc, "subsystem_id");

	fixes_bulk_row(b, &v, &n);
	v[c_repo] = Int32GetDatum(repository_id);
	v[c_idx] = Int32GetDatum((int32) idx);
	v[c_id] = Int32GetDatum(section + 1);
	n[c_repo] = n[c_idx] = n[c_id] = false;
	fixes_bulk_insert(b, v, n, 32);
}

/*
 * Commit idx is in section (0-based): a pair for the per-subsystem counts;
 * during the read, also its row of fixes_commit_subsystems.
 */
static void
add_pair(FixesLoad *ld, uint32 idx, int section)
{
	if (ld->ncs + 2 > ld->cs_cap)
	{
		ld->cs_cap = ld->cs_cap ? ld->cs_cap * 2 : 4096;
		ld->cs_pairs = ld->cs_pairs == NULL
			? MemoryContextAllocHuge(ld->cxt, sizeof(uint32) * ld->cs_cap)
			: repalloc_huge(ld->cs_pairs, sizeof(uint32) * ld->cs_cap);
	}
	ld->cs_pairs[ld->ncs++] = idx;
	ld->cs_pairs[ld->ncs++] = (uint32) section;
	if (ld->subsys_bulk != NULL)
		insert_commit_subsystem(ld->subsys_bulk, ld->repository_id, idx, section);
}

/*
 * The files of commit idx (its 'F' record): rows into fixes_commit_files, sums
 * into the commit's row (values/nulls of fixes_commits), sections into the
 * pairs.  Runs in the per-row memory context of the read.
 */
void
fixes_load_commit_files(FixesLoad *ld, uint32 idx, WireFiles *wf, Datum *values, bool *nulls)
{
	FixesSubsystems *ss = ld->subsys;
	TupleDesc	desc = RelationGetDescr(ld->file_bulk->rel);
	int			c_repo = fixes_attnum(desc, "repository_id");
	int			c_idx = fixes_attnum(desc, "commit_idx");
	int			c_path = fixes_attnum(desc, "path");
	int			c_added = fixes_attnum(desc, "added");
	int			c_deleted = fixes_attnum(desc, "deleted");
	Datum	   *fv;
	bool	   *fn;
	WireFileRow row;
	int64		nfiles = 0,
				added = 0,
				deleted = 0;

	if (wf->state == FILES_TREE_MISSING)
		ld->missing_trees++;
	if (wf->state != FILES_DIFFED)
		return;					/* sums stay NULL */
	fixes_bulk_row(ld->file_bulk, &fv, &fn);
	fv[c_repo] = Int32GetDatum(ld->repository_id);
	fv[c_idx] = Int32GetDatum((int32) idx);
	fn[c_repo] = fn[c_idx] = fn[c_path] = false;
	if (ss != NULL)
		ss->ncommit = 0;
	while (wire_files_next(wf, &row))
	{
		text	   *path = fixes_decode_text(&ld->decoder, row.path.s, row.path.len, PG_UTF8);

		fv[c_path] = PointerGetDatum(path);
		fn[c_added] = fn[c_deleted] = row.kind != FILE_TEXT;
		fv[c_added] = Int32GetDatum((int32) Min(row.added, PG_INT32_MAX));
		fv[c_deleted] = Int32GetDatum((int32) Min(row.deleted, PG_INT32_MAX));
		fixes_bulk_insert(ld->file_bulk, fv, fn, 64 + VARSIZE(path));
		nfiles++;
		added += row.added;
		deleted += row.deleted;
		ld->missing_blobs += row.kind == FILE_MISSING;
		fixes_load_prefix_path(ld, idx, VARDATA_ANY(path), (int) VARSIZE_ANY_EXHDR(path));
		if (ss != NULL)
		{
			PathEntry  *e = path_sections(ss, VARDATA_ANY(path), (int) VARSIZE_ANY_EXHDR(path));

			for (int k = 0; k < e->n; k++)
			{
				int			s = ss->secs[e->start + k];

				if (!ss->in_commit[s])
				{
					ss->in_commit[s] = true;
					ss->commit_secs[ss->ncommit++] = s;
				}
			}
		}
	}
	if (ss != NULL)
	{
		for (int k = 0; k < ss->ncommit; k++)
		{
			add_pair(ld, idx, ss->commit_secs[k]);
			ss->in_commit[ss->commit_secs[k]] = false;
		}
	}
	values[ld->c_files] = Int32GetDatum((int32) nfiles);
	values[ld->c_added] = Int64GetDatum(added);
	values[ld->c_deleted] = Int64GetDatum(deleted);
	nulls[ld->c_files] = nulls[ld->c_added] = nulls[ld->c_deleted] = false;
}

/* the sections of the MAINTAINERS file (subsystem_id 1 .. n) */
int
fixes_load_nsections(FixesLoad *ld)
{
	return ld->subsys ? ld->subsys->m.nsections : 0;
}

/* one WARNING per load for what a partial clone lacks */
void
fixes_load_files_report(FixesLoad *ld)
{
	if (ld->missing_blobs == 0 && ld->missing_trees == 0)
		return;
	ereport(WARNING,
			(errmsg("repository \"%s\" lacks the content of %lld changed files and the trees of %lld commits",
					ld->path, (long long) ld->missing_blobs, (long long) ld->missing_trees),
			 errdetail("It is a partial clone. A file without content has no counts of added and deleted lines; a commit without its tree has no files. Nothing was fetched."),
			 errhint("Fetch the missing objects in the repository (for example \"git fetch --refetch\" without a filter) and load it again.")));
}

static int
pair_cmp(const void *a, const void *b)
{
	const uint32 *x = a,
			   *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/*
 * A refresh under another MAINTAINERS: the sections of the commits loaded
 * before, from their rows of fixes_commit_files (read in batches through a
 * cursor, each distinct path matched once), into the pairs.
 */
static void
reattribute_old_commits(FixesLoad *ld)
{
	FixesSubsystems *ss = ld->subsys;
	char	   *sql = psprintf("SELECT commit_idx, path FROM %s.fixes_commit_files "
							   "WHERE repository_id = $1 AND commit_idx < $2 ORDER BY commit_idx",
							   ld->schema);
	Oid			argtypes[2] = {INT4OID, INT4OID};
	Datum		args[2] = {Int32GetDatum(ld->repository_id), Int32GetDatum((int32) ld->n_old)};
	Portal		portal = fixes_spi_cursor_open(sql, 2, argtypes, args);
	int64		cur = -1;

	ss->ncommit = 0;
	while (fixes_spi_cursor_fetch(portal, 10000) > 0)
	{
		CHECK_FOR_INTERRUPTS();
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			HeapTuple	tup = SPI_tuptable->vals[i];
			bool		isnull;
			int32		idx = DatumGetInt32(SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &isnull));
			text	   *path = DatumGetTextPP(SPI_getbinval(tup, SPI_tuptable->tupdesc, 2, &isnull));
			PathEntry  *e;

			if (idx != cur)
			{
				for (int k = 0; k < ss->ncommit; k++)
				{
					add_pair(ld, (uint32) cur, ss->commit_secs[k]);
					ss->in_commit[ss->commit_secs[k]] = false;
				}
				ss->ncommit = 0;
				cur = idx;
			}
			e = path_sections(ss, VARDATA_ANY(path), (int) VARSIZE_ANY_EXHDR(path));
			for (int k = 0; k < e->n; k++)
			{
				int			sec = ss->secs[e->start + k];

				if (!ss->in_commit[sec])
				{
					ss->in_commit[sec] = true;
					ss->commit_secs[ss->ncommit++] = sec;
				}
			}
		}
		SPI_freetuptable(SPI_tuptable);
	}
	for (int k = 0; k < ss->ncommit; k++)
	{
		add_pair(ld, (uint32) cur, ss->commit_secs[k]);
		ss->in_commit[ss->commit_secs[k]] = false;
	}
	ss->ncommit = 0;
	fixes_spi_cursor_close(portal);
}

/* write the subsystems of the commits this load read (after the commits) */
void
fixes_load_write_files(FixesLoad *ld)
{
	FixesBulk  *b;
	TupleDesc	desc;
	Datum	   *v;
	bool	   *n;

	if (!ld->v11)
		return;
	if (ld->subsys == NULL)
		return;

	/*
	 * A refresh under another MAINTAINERS: the old commits' attributions
	 * again (their rows went before the read, fixes_load_files_begin)
	 */
	if (ld->incremental && ld->reattribute)
		reattribute_old_commits(ld);
	/* the sections: written by a full load, or under another MAINTAINERS */
	if (!ld->incremental || ld->reattribute)
	{
		int			c_repo,
					c_id,
					c_name;

		b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_subsystems"));
		desc = RelationGetDescr(b->rel);
		c_repo = fixes_attnum(desc, "repository_id");
		c_id = fixes_attnum(desc, "subsystem_id");
		c_name = fixes_attnum(desc, "name");
		for (int s = 0; s < ld->subsys->m.nsections; s++)
		{
			fixes_bulk_row(b, &v, &n);
			n[c_repo] = n[c_id] = n[c_name] = false;
			v[c_repo] = Int32GetDatum(ld->repository_id);
			v[c_id] = Int32GetDatum(s + 1);
			v[c_name] = CStringGetTextDatum(ld->subsys->m.sections[s].name);
			fixes_bulk_insert(b, v, n, 64);
		}
		fixes_bulk_end(b);
	}
	/* the pairs, in order, for the counts; the new commits' rows are written */
	qsort(ld->cs_pairs, ld->ncs / 2, sizeof(uint32) * 2, pair_cmp);
	if (ld->incremental && ld->reattribute)
	{
		b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_commit_subsystems"));
		for (int64 k = 0; k < ld->ncs && ld->cs_pairs[k] < ld->n_old; k += 2)
		{
			if ((k & 0x3ff) == 0)
				CHECK_FOR_INTERRUPTS();
			insert_commit_subsystem(b, ld->repository_id, ld->cs_pairs[k],
									(int) ld->cs_pairs[k + 1]);
		}
		fixes_bulk_end(b);
	}
	CommandCounterIncrement();
}

/* the settings and the partial-clone counts into fixes_repositories */
void
fixes_load_finish_files(FixesLoad *ld)
{
	char	   *sql;
	Oid			argtypes[6] = {INT4OID, BOOLOID, TEXTOID, INT8OID, INT8OID, INT8OID};
	Datum		args[6];
	char		nulls[6] = {' ', ' ', ' ', ' ', ' ', ' '};
	bool		keep = ld->unchanged || ld->incremental;

	if (!ld->v11)
		return;
	sql = psprintf("UPDATE %s.fixes_repositories SET files = $2, maintainers = $3, "
				   "maintainers_hash = $4, missing_blobs = $5, missing_trees = $6 "
				   "WHERE repository_id = $1", ld->schema);
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = BoolGetDatum(ld->files);
	args[2] = ld->maintainers ? CStringGetTextDatum(ld->maintainers) : (Datum) 0;
	nulls[2] = ld->maintainers ? ' ' : 'n';
	args[3] = Int64GetDatum(ld->maint_hash);
	nulls[3] = ld->subsys ? ' ' : 'n';
	args[4] = Int64GetDatum(ld->missing_blobs + (keep ? ld->old_missing_blobs : 0));
	args[5] = Int64GetDatum(ld->missing_trees + (keep ? ld->old_missing_trees : 0));
	(void) fixes_spi_execute(sql, 6, argtypes, args, nulls, 0, SPI_OK_UPDATE);
}
