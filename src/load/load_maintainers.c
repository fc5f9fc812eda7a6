/*
 * load_maintainers.c — fixes_load(maintainers): the subsystems of each
 * commit, by the MAINTAINERS file of its time
 *
 * Subsystems of their time: a commit is attributed by the MAINTAINERS
 * file of the release that contains it, its patterns read against that
 * release's tree (the "names a directory" rule); unreleased commits by the
 * ref's; a release whose tree lacks the file by the oldest release's that
 * has it.  Each distinct version (content, and which patterns name
 * directories) is parsed once; sections are identified by name across
 * versions (fixes_subsystems: one id per name).  In a database whose SQL is
 * at 1.0 or 1.1, every commit is attributed by the ref's file, as before.
 *
 * Phase read: the ref's file (fixes_load_read_maintainers), and the
 * (commit, path) pairs of the walk (fixes_load_maintainers_path, from
 * load_files.c): the release of a commit is final only after
 * load_releases.c.
 *
 * Phase write (fixes_load_write_files): the releases' files (one reader
 * process, "fixes-reader blobs"; none for a release on the ref's commit,
 * whose file is the ref's), then each (version, distinct path)
 * matched once (maintainers.c; N: expressions with PostgreSQL's regex
 * engine), into fixes_subsystems and fixes_commit_subsystems, in bulk.  A
 * refresh attributes its new commits, and the old ones whose version
 * changed (a new tag releasing the unreleased tail under another file), or
 * all of them again when it cannot tell (refresh/kept_maintainers.c).
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
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "big_alloc.h"
#include "bulk_insert.h"
#include "load_files.h"
#include "load_maintainers.h"
#include "load_releases.h"
#include "load_state.h"
#include "refresh.h"
#include "spi_call.h"
#include "maintainers.h"
#include "string_hash.h"
#include "walk.h"

/*
 * One version of MAINTAINERS: a distinct content with a distinct set of
 * patterns that name directories (of the tree it was read from).  Its
 * sections map to the load-wide ids of their names.
 */
typedef struct MntVersion
{
	Maintainers m;
	uint64		content_hash;
	uint64		hash;			/* content and directory bits */
	bool	   *dirbits;		/* by pattern: it names a directory */
	int		   *gid;			/* by section: global id - 1 */
	regex_t    *regexes;		/* one per N: pattern that compiled */
	int			nregexes;
} MntVersion;

/* a path seen by this load (its bytes; after the insert, the load's copy) */
typedef struct PathKey
{
	const char *path;
	int32		len;
} PathKey;

/* a path seen by this load: its id is its position in paths */
typedef struct PathEntry
{
	PathKey		key;
	int32		id;
	uint32		hash;
	char		status;
} PathEntry;

#define SH_PREFIX		pathtab
#define SH_ELEMENT_TYPE	PathEntry
#define SH_KEY_TYPE		PathKey
#define SH_KEY			key
#define SH_HASH_KEY(tb, k)	hash_bytes((const unsigned char *) (k).path, (k).len)
#define SH_EQUAL(tb, a, b)	((a).len == (b).len && memcmp((a).path, (b).path, (a).len) == 0)
#define SH_STORE_HASH
#define SH_GET_HASH(tb, a)	(a)->hash
#define SH_SCOPE		static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

/* the sections of (version, path): gsecs[start .. start + n) */
typedef struct AttrEntry
{
	uint64		key;			/* version << 32 | path id */
	int32		start;
	int32		n;
	char		status;
} AttrEntry;

#define SH_PREFIX		attrtab
#define SH_ELEMENT_TYPE	AttrEntry
#define SH_KEY_TYPE		uint64
#define SH_KEY			key
#define SH_HASH_KEY(tb, k)	hash_combine(murmurhash32((uint32) ((k) >> 32)), murmurhash32((uint32) (k)))
#define SH_EQUAL(tb, a, b)	((a) == (b))
#define SH_SCOPE		static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

typedef struct FixesSubsystems
{
	MntVersion **vers;		/* each allocated once: the regex callbacks point at them */
	int			nvers;
	int			vcap;
	int			ref_ver;		/* the ref's version */
	int		   *rank_ver;		/* by release rank (0: unreleased): version */
	bool		any_missing;	/* a release's tree lacks the file */
	int			first_with;		/* the oldest release's rank whose tree has it, 0: none */
	bool	   *rank_has;		/* by rank: its tree has the file */
	bool	   *rank_read;		/* by rank: its file was read (rank_ver, rank_has set) */
	/* sections by name: id = position + 1 */
	HTAB	   *by_name;
	char	  **names;
	int			nnames;
	int			names_cap;
	int			stored_names;	/* of them, in fixes_subsystems already */
	/* the paths */
	pathtab_hash *path_ids;
	char	  **paths;
	int32	   *path_len;
	int32		npaths;
	int32		paths_cap;
	/* the attributions, per (version, path) */
	attrtab_hash *attrs;
	int		   *gsecs;
	int			ngsecs;
	int			gsecs_cap;
	/* (commit, path id) of the commits to attribute */
	uint32	   *fp;
	int64		nfp;
	int64		fp_cap;
	/* scratch */
	pg_wchar   *wbuf;			/* a path as wide characters */
	int			wcap;
	int		   *scratch;		/* a path's local sections */
	int			scratch_cap;
	bool	   *in_commit;		/* by global id - 1: in the current commit */
	int		   *commit_secs;
	int			ncommit;
	int			commit_cap;
	char	  **dirs;			/* the directories of the tree being read, sorted */
	int			ndirs;
	MemoryContext cxt;			/* the load's */
} FixesSubsystems;

typedef struct NameEntry
{
	char	   *name;			/* key */
	int			id;
} NameEntry;

static void *
mnt_palloc(void *ctx, size_t size)
{
	return MemoryContextAllocHuge((MemoryContext) ctx, size);
}

/* the compiled expressions are malloc'd by the regex engine: free them with the load */
static void
free_regexes(void *arg)
{
	MntVersion *v = arg;

	for (int i = 0; i < v->nregexes; i++)
		pg_regfree(&v->regexes[i]);
	v->nregexes = 0;
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

/* compile the N: expressions of v; a bad one is ignored (with a WARNING for the ref's file) */
static void
compile_regexes(FixesLoad *ld, MntVersion *v, bool warn)
{
	Maintainers *m = &v->m;
	int			bad = 0;
	const char *first_bad = NULL;
	char		first_msg[256] = "";
	MemoryContextCallback *cb = palloc0(sizeof(MemoryContextCallback));

	v->regexes = palloc0(sizeof(regex_t) * Max(m->npatterns, 1));
	cb->func = free_regexes;
	cb->arg = v;
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
		rc = pg_regcomp(&v->regexes[v->nregexes], w, wlen, REG_ADVANCED, C_COLLATION_OID);
		pfree(w);
		if (rc == REG_CANCEL)
			CHECK_FOR_INTERRUPTS();	/* 57014, not an invalid expression */
		if (rc != REG_OKAY)
		{
			if (bad++ == 0)
			{
				first_bad = p->text;
				pg_regerror(rc, &v->regexes[v->nregexes], first_msg, sizeof(first_msg));
			}
			continue;
		}
		p->regex = &v->regexes[v->nregexes++];
	}
	if (bad > 0 && warn)
		ereport(WARNING,
				(errcode(ERRCODE_INVALID_REGULAR_EXPRESSION),
				 errmsg_plural("%d N: field of \"%s\" is not a valid regular expression and is ignored",
							   "%d N: fields of \"%s\" are not valid regular expressions and are ignored",
							   bad, bad, ld->paths->maintainers),
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
							   n, n, ld->paths->maintainers),
				 errdetail("The first is \"%c: %.*s\". Only \"*\" and \"?\" are wildcards: other characters are matched literally, where get_maintainer.pl would read them as a regular expression.",
						   first->kind, (int) first->len, first->text)));
}

/* the id of section name (1 ..), a new one at the end */
static int
section_id(FixesSubsystems *ss, const char *name)
{
	NameEntry  *e;
	bool		found;

	e = hash_search(ss->by_name, &name, HASH_ENTER, &found);
	if (!found)
	{
		if (ss->nnames == ss->names_cap)
		{
			ss->names_cap = ss->names_cap ? ss->names_cap * 2 : 64;
			ss->names = ss->names
				? repalloc_huge(ss->names, sizeof(char *) * ss->names_cap)
				: MemoryContextAllocHuge(ss->cxt, sizeof(char *) * ss->names_cap);
		}
		e->name = ss->names[ss->nnames] = MemoryContextStrdup(ss->cxt, name);
		e->id = ++ss->nnames;
	}
	return e->id;
}

/* no section names yet (a full load numbers them again) */
static void
reset_names(FixesSubsystems *ss)
{
	if (ss->by_name != NULL)
		hash_destroy(ss->by_name);
	ss->by_name = fixes_string_hash_create("fixes section names", 256, sizeof(NameEntry), ss->cxt);
	ss->nnames = 0;
	ss->stored_names = 0;
}

/* the sections of version v by the ids of their names */
static void
map_sections(FixesSubsystems *ss, MntVersion *v)
{
	for (int s = 0; s < v->m.nsections; s++)
		v->gid[s] = section_id(ss, v->m.sections[s].name) - 1;
}

/* does version v read the same patterns as directories in the tree of ss->dirs? */
static bool
same_dirs(FixesSubsystems *ss, MntVersion *v)
{
	for (int i = 0; i < v->m.npatterns; i++)
	{
		MntPattern *p = &v->m.patterns[i];
		bool		d;

		if (p->kind == 'N')
			continue;
		if (p->len > 0 && p->text[p->len - 1] == '/')
			d = true;
		else
			d = p->len > 0 && memchr(p->text, '*', p->len) == NULL &&
				memchr(p->text, '?', p->len) == NULL && is_dir(p->text, p->len, ss);
		if (d != v->dirbits[i])
			return false;
	}
	return true;
}

/*
 * The version of content read with the directories of ss->dirs: one parsed
 * before when the content and the patterns that name directories are the
 * same, else a new one (parsed, its N: expressions compiled).  warn: the
 * ref's file, whose problems are reported.
 */
static int
find_version(FixesLoad *ld, FixesSubsystems *ss, const char *content, size_t len, bool warn)
{
	uint64		ch = hash_bytes_extended((const unsigned char *) content, (int) len, 0);
	uint64		h = ch;
	MntVersion *v;
	char	   *copy;

	for (int i = 0; i < ss->nvers; i++)
		if (ss->vers[i]->content_hash == ch && same_dirs(ss, ss->vers[i]))
			return i;
	if (ss->nvers == ss->vcap)
	{
		ss->vcap = ss->vcap ? ss->vcap * 2 : 8;
		ss->vers = ss->vers ? repalloc(ss->vers, sizeof(MntVersion *) * ss->vcap)
			: MemoryContextAlloc(ss->cxt, sizeof(MntVersion *) * ss->vcap);
	}
	v = MemoryContextAllocZero(ss->cxt, sizeof(MntVersion));
	copy = MemoryContextAlloc(ss->cxt, len + 1);
	memcpy(copy, content, len);
	copy[len] = '\0';
	mnt_parse(&v->m, copy, len, mnt_palloc, ss->cxt);
	mnt_set_dirs(&v->m, is_dir, ss);
	v->dirbits = MemoryContextAlloc(ss->cxt, sizeof(bool) * Max(v->m.npatterns, 1));
	for (int i = 0; i < v->m.npatterns; i++)
	{
		v->dirbits[i] = v->m.patterns[i].dir;
		h = hash_combine64(h, (unsigned char) v->m.patterns[i].dir);
	}
	v->content_hash = ch;
	v->hash = h;
	v->gid = MemoryContextAlloc(ss->cxt, sizeof(int) * Max(v->m.nsections, 1));
	if (warn)
	{
		if (v->m.nsections == 0)
			ereport(WARNING,
					(errmsg("\"%s\" of repository \"%s\" has no sections with F: or N: fields",
							ld->paths->maintainers, ld->args.path),
					 errdetail("No commit is attributed to a subsystem."),
					 errhint("A section is a block of lines, the first its name, separated from the next by a blank line; its F: fields name files.")));
		warn_metachars(ld, &v->m);
	}
	{
		MemoryContext old = MemoryContextSwitchTo(ss->cxt);

		compile_regexes(ld, v, warn);
		MemoryContextSwitchTo(old);
	}
	if (v->m.nsections + 1 > ss->scratch_cap)
	{
		ss->scratch_cap = v->m.nsections + 1;
		ss->scratch = ss->scratch ? repalloc(ss->scratch, sizeof(int) * ss->scratch_cap)
			: MemoryContextAlloc(ss->cxt, sizeof(int) * ss->scratch_cap);
	}
	ss->vers[ss->nvers] = v;
	return ss->nvers++;
}

/*
 * A blob record and the directory records after it, from reader.  The
 * content, decoded (in the current memory context), or NULL when the tree
 * lacks the file; the directories sorted into ss->dirs.  strict: the file of
 * the ref, which must be there and be a text file.
 */
static const char *
receive_file(FixesLoad *ld, FixesSubsystems *ss, FixesReader *reader, bool strict, size_t *len_out)
{
	const unsigned char *payload;
	uint32		len;
	WireBlob	blob;
	char		type;
	int			dcap = 256;
	const char *content = NULL;

	fixes_reader_expect(reader, WIRE_BLOB, &payload, &len);
	if (wire_decode_blob(payload, len, &blob) != 0)
		fixes_reader_protocol_error(reader, "A blob record is malformed.");
	if (strict && !blob.found)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("file \"%s\" not found in the tree of \"%s\" in repository \"%s\"",
						ld->paths->maintainers, ld->args.ref, ld->args.path),
				 errhint("maintainers is the path of the MAINTAINERS file inside the repository's tree, e.g. 'MAINTAINERS'.")));
	if (strict && blob.is_tree)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is a directory in the tree of \"%s\" in repository \"%s\"",
						ld->paths->maintainers, ld->args.ref, ld->args.path),
				 errhint("maintainers is the path of a file, e.g. 'MAINTAINERS'.")));
	if (strict && memchr(blob.data, '\0', blob.len) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" in repository \"%s\" is a binary file, not a MAINTAINERS file",
						ld->paths->maintainers, ld->args.path),
				 errdetail("It holds a NUL byte.")));
	/* a release's tree without it (or with a directory, or a binary file there) */
	if (blob.found && !blob.is_tree && memchr(blob.data, '\0', blob.len) == NULL)
	{
		content = fixes_decode_cstring(&ld->decoder, blob.data, blob.len, PG_UTF8);
		*len_out = strlen(content);
	}

	ss->ndirs = 0;
	ss->dirs = palloc(sizeof(char *) * dcap);
	while ((type = fixes_reader_next(reader, &payload, &len)) == WIRE_DIR)
	{
		WireStr		d;

		if (wire_decode_name(payload, len, &d) != 0)
			fixes_reader_protocol_error(reader, "A directory record is malformed.");
		if ((ss->ndirs & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
		if (ss->ndirs == dcap)
		{
			dcap *= 2;
			ss->dirs = repalloc_huge(ss->dirs, sizeof(char *) * dcap);
		}
		ss->dirs[ss->ndirs++] = fixes_decode_cstring(&ld->decoder, d.s, d.len, PG_UTF8);
	}
	if (!reader->ended)
		fixes_reader_unread(reader);	/* the next file's, or the caller's */
	qsort(ss->dirs, ss->ndirs, sizeof(char *), dir_cmp);
	return content;
}

/*
 * The section names of the previous load (a refresh keeps their ids); ids
 * not 1 .. n: attribute every commit again.
 */
static void
read_stored_names(FixesLoad *ld, FixesSubsystems *ss)
{
	char	   *sql = psprintf("SELECT subsystem_id, name FROM ONLY %s.fixes_subsystems "
							   "WHERE repository_id = $1 ORDER BY subsystem_id", ld->schema);
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};
	uint64		n = fixes_spi_execute(sql, 1, argtypes, args, NULL, 0, SPI_OK_SELECT);

	for (uint64 i = 0; i < n; i++)
	{
		bool		isnull;
		int32		id = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull));
		Datum		d = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2, &isnull);
		char	   *name = isnull ? NULL : TextDatumGetCString(d);

		if (id != (int32) i + 1 || name == NULL || section_id(ss, name) != id)
		{
			ld->paths->reattribute = true;
			reset_names(ss);
			break;
		}
	}
	if (SPI_tuptable)
		SPI_freetuptable(SPI_tuptable);
	ss->stored_names = ss->nnames;
}

/*
 * Read the MAINTAINERS file of the ref's tree and the tree's directories
 * (a reader process of its own, or shared: a refresh's reader sends them
 * after the tags), parse the file and compile its N: expressions: the
 * version of the unreleased commits (and of every commit in a database
 * whose SQL is older than 1.2).  Its hash (content, and which patterns
 * name directories) decides whether a refresh can keep the attributions of
 * the previous load.  The releases' files are read after the releases are
 * known (fixes_load_write_files).
 */
void
fixes_load_read_maintainers(FixesLoad *ld, FixesReader *shared)
{
	FixesReader *volatile reader = NULL;
	FixesSubsystems *ss;
	char		hex[FIXES_OID_HEXSZ + 1];
	const char *content = NULL;
	size_t		content_len = 0;

	if (!ld->has.file_tables || ld->paths->maintainers == NULL || ld->empty)
		return;
	ss = palloc0(sizeof(FixesSubsystems));
	ss->cxt = CurrentMemoryContext;
	mnt_check_interrupts = check_interrupts;
	fixes_format_oid(hex, &ld->head);
	PG_TRY();
	{
		const char *args[2];

		args[0] = pstrdup(hex);
		args[1] = ld->paths->maintainers;
		reader = shared != NULL ? shared : fixes_reader_start_args("blob", ld->args.path, args, 2, false);
		content = receive_file(ld, ss, reader, true, &content_len);
		if (shared == NULL)
		{
			if (!reader->ended)
				fixes_reader_protocol_error(reader, "A directory record was expected.");
			fixes_reader_finish(reader);
		}
	}
	PG_FINALLY();
	{
		if (shared == NULL)
			fixes_reader_stop(reader);
	}
	PG_END_TRY();

	reset_names(ss);
	ss->ref_ver = find_version(ld, ss, content, content_len, true);
	ss->wcap = 256;
	ss->wbuf = palloc(sizeof(pg_wchar) * ss->wcap);
	ss->path_ids = pathtab_create(ss->cxt, 1024, NULL);
	ss->attrs = attrtab_create(ss->cxt, 1024, NULL);
	ld->paths->subsys = ss;

	/*
	 * Another MAINTAINERS at the ref (the same setting): a refresh reads only
	 * the new commits, and attributes the old ones again from their recorded
	 * files.  The hash of a database at 1.2 differs from that of the same
	 * file at 1.1, whose attributions were all by the ref's file.
	 */
	ld->paths->maint_hash = (int64) (ld->has.maintainers_by_release
							  ? hash_combine64(ss->vers[ss->ref_ver]->hash, 12)
							  : ss->vers[ss->ref_ver]->hash);
	if (ld->prev.maint_hash_null)
		fixes_load_previous_unusable(ld);
	else if (ld->prev.maint_hash != ld->paths->maint_hash)
		ld->paths->reattribute = true;
	if (ld->known && ld->prev.usable && !ld->paths->reattribute)
		read_stored_names(ld, ss);
	map_sections(ss, ss->vers[ss->ref_ver]);
}

/*
 * The MAINTAINERS file at the tags of the releases want[r] names (all when
 * want is NULL; one reader process for them), into ss->rank_ver (-1: the
 * tree lacks the file) and ss->rank_has; each distinct version parsed once.
 */
static void
read_release_versions(FixesLoad *ld, FixesSubsystems *ss, const bool *want)
{
	FixesReader *volatile reader = NULL;
	MemoryContext tmp = AllocSetContextCreate(CurrentMemoryContext, "fixes MAINTAINERS of a release",
											  ALLOCSET_DEFAULT_SIZES);
	int		   *ranks = palloc(sizeof(int) * (ld->releases->n + 1));
	int			n = 0;

	for (int r = 1; r <= ld->releases->n; r++)
	{
		if (ss->rank_read[r] || (want != NULL && !want[r]))
			continue;
		/* a release at the ref's commit (a refresh right after a tag): the ref's file */
		if (fixes_oid_equal(&ld->releases->tags[ld->releases->tag_of[r - 1]].commit, &ld->head))
		{
			ss->rank_read[r] = true;
			ss->rank_has[r] = true;
			ss->rank_ver[r] = ss->ref_ver;
			elog(DEBUG1, "fixes_load %s: the MAINTAINERS of release %s is the ref's: not read again",
				 ld->args.name, ld->releases->tags[ld->releases->tag_of[r - 1]].name);
			continue;
		}
		ranks[n++] = r;
	}
	if (n == 0)
		return;
	elog(DEBUG1, "fixes_load %s: MAINTAINERS read at %d %s", ld->args.name, n, n == 1 ? "release" : "releases");
	PG_TRY();
	{
		const char **args = palloc(sizeof(char *) * (n + 1));

		args[0] = ld->paths->maintainers;
		for (int k = 0; k < n; k++)
		{
			char	   *hex = palloc(FIXES_OID_HEXSZ + 1);

			fixes_format_oid(hex, &ld->releases->tags[ld->releases->tag_of[ranks[k] - 1]].commit);
			args[k + 1] = hex;
		}
		reader = fixes_reader_start_args("blobs", ld->args.path, args, n + 1, false);
		for (int k = 0; k < n; k++)
		{
			MemoryContext old;
			const char *content;
			size_t		len = 0;
			int			r = ranks[k];

			CHECK_FOR_INTERRUPTS();
			old = MemoryContextSwitchTo(tmp);
			content = receive_file(ld, ss, reader, false, &len);
			MemoryContextSwitchTo(old);
			ss->rank_read[r] = true;
			ss->rank_has[r] = content != NULL;
			ss->rank_ver[r] = content == NULL ? -1 : find_version(ld, ss, content, len, false);
			MemoryContextReset(tmp);
			ss->dirs = NULL;
			ss->ndirs = 0;
		}
		if (!reader->ended)
			fixes_reader_protocol_error(reader, "A blob record was expected.");
		fixes_reader_finish(reader);
	}
	PG_FINALLY();
	{
		fixes_reader_stop(reader);
	}
	PG_END_TRY();
	MemoryContextDelete(tmp);
}

/*
 * When a release read lacks the file, the releases from the oldest up to the
 * oldest that has it: the oldest alone first (the kernel's and make-history's
 * has it), all of them when it lacks it too.  When every release read has the
 * file, none: in a large history, the oldest release's tree lies at the end
 * of delta chains, slow to read.
 */
static void
read_fallback(FixesLoad *ld, FixesSubsystems *ss)
{
	bool		lacking = false;

	for (int r = 1; r <= ld->releases->n && !lacking; r++)
		lacking = ss->rank_read[r] && !ss->rank_has[r];
	if (!lacking || ss->rank_has[1])
		return;
	if (!ss->rank_read[1])
	{
		bool	   *oldest = palloc0(sizeof(bool) * (ld->releases->n + 1));

		oldest[1] = true;
		read_release_versions(ld, ss, oldest);
		pfree(oldest);
	}
	if (!ss->rank_has[1])
		read_release_versions(ld, ss, NULL);
}

/*
 * The releases read whose tree lacks the file take the oldest release's that
 * has it (the ref's when none has): the releases before it were read.
 */
static void
resolve_fallback(FixesLoad *ld, FixesSubsystems *ss)
{
	int			first = 0;

	for (int r = 1; r <= ld->releases->n && first == 0 && ss->rank_read[r]; r++)
		if (ss->rank_has[r])
			first = r;
	ss->first_with = first;
	ss->any_missing = false;
	for (int r = 1; r <= ld->releases->n; r++)
		if (ss->rank_read[r] && !ss->rank_has[r])
		{
			ss->any_missing = true;
			ss->rank_ver[r] = first > 0 ? ss->rank_ver[first] : ss->ref_ver;
		}
}

/* the id of path, each distinct path once per load */
static int32
path_id(FixesSubsystems *ss, const char *path, int len)
{
	PathKey		key = {path, len};
	bool		found;
	PathEntry  *e = pathtab_insert(ss->path_ids, key, &found);
	int32		id;
	char	   *copy;

	if (found)
		return e->id;
	if (ss->npaths == ss->paths_cap)
	{
		ss->paths_cap = ss->paths_cap ? ss->paths_cap * 2 : 1024;
		ss->paths = ss->paths ? repalloc_huge(ss->paths, sizeof(char *) * ss->paths_cap)
			: MemoryContextAllocHuge(ss->cxt, sizeof(char *) * ss->paths_cap);
		ss->path_len = ss->path_len ? repalloc_huge(ss->path_len, sizeof(int32) * ss->paths_cap)
			: MemoryContextAllocHuge(ss->cxt, sizeof(int32) * ss->paths_cap);
	}
	id = ss->npaths++;
	copy = MemoryContextAlloc(ss->cxt, len + 1);
	memcpy(copy, path, len);
	copy[len] = '\0';
	ss->paths[id] = copy;
	ss->path_len[id] = len;
	e->key.path = copy;			/* the same bytes, kept by the load */
	e->id = id;
	return id;
}

/* commit idx changed path id: to attribute after the releases */
static void
add_file(FixesLoad *ld, FixesSubsystems *ss, uint32 idx, int32 id)
{
	if (ss->nfp + 2 > ss->fp_cap)
	{
		ss->fp_cap = ss->fp_cap ? ss->fp_cap * 2 : 8192;
		ss->fp = ss->fp == NULL
			? MemoryContextAllocHuge(ld->cxt, sizeof(uint32) * ss->fp_cap)
			: repalloc_huge(ss->fp, sizeof(uint32) * ss->fp_cap);
	}
	ss->fp[ss->nfp++] = idx;
	ss->fp[ss->nfp++] = (uint32) id;
}

/* the sections (global ids - 1) of path id under version ver, matched once */
static AttrEntry *
path_sections(FixesSubsystems *ss, int ver, int32 id)
{
	bool		found;
	AttrEntry  *e = attrtab_insert(ss->attrs, ((uint64) ver << 32) | (uint32) id, &found);
	MntVersion *v = ss->vers[ver];
	int			n;

	if (found)
		return e;
	n = mnt_match(&v->m, ss->paths[id], (size_t) ss->path_len[id], regex_search, ss, ss->scratch);
	if (ss->ngsecs + n > ss->gsecs_cap)
	{
		ss->gsecs_cap = (ss->ngsecs + n) * 2 + 1024;
		ss->gsecs = ss->gsecs ? repalloc_huge(ss->gsecs, sizeof(int) * ss->gsecs_cap)
			: MemoryContextAllocHuge(ss->cxt, sizeof(int) * ss->gsecs_cap);
	}
	for (int k = 0; k < n; k++)
		ss->gsecs[ss->ngsecs + k] = v->gid[ss->scratch[k]];
	e->start = ss->ngsecs;
	e->n = n;
	ss->ngsecs += n;
	return e;
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
 * Commit idx is in section (0-based): its row of fixes_commit_subsystems,
 * and a pair for the per-subsystem counts (only those of the new commits
 * when the counts read the old ones back, fixes_load_subsystem_counts).
 */
static void
add_pair(FixesLoad *ld, uint32 idx, int section)
{
	insert_commit_subsystem(ld->paths->subsys_bulk, ld->repository_id, idx, section);
	if (ld->refresh != NULL && !ld->paths->reattribute && idx < ld->n_old)
		return;
	if (ld->paths->ncs + 2 > ld->paths->cs_cap)
	{
		ld->paths->cs_cap = ld->paths->cs_cap ? ld->paths->cs_cap * 2 : 4096;
		ld->paths->cs_pairs = ld->paths->cs_pairs == NULL
			? MemoryContextAllocHuge(ld->cxt, sizeof(uint32) * ld->paths->cs_cap)
			: repalloc_huge(ld->paths->cs_pairs, sizeof(uint32) * ld->paths->cs_cap);
	}
	ld->paths->cs_pairs[ld->paths->ncs++] = idx;
	ld->paths->cs_pairs[ld->paths->ncs++] = (uint32) section;
}

/* the section ids 1 .. n of fixes_subsystems */
int
fixes_load_nsections(FixesLoad *ld)
{
	return ld->paths->subsys ? ld->paths->subsys->nnames : 0;
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
 * The files of old commits from fixes_commit_files, into ss->fp: those below
 * n_old (ids NULL), or those of ids[0 .. n) (sorted), read in batches through
 * a cursor.
 */
static void
read_old_files(FixesLoad *ld, FixesSubsystems *ss, const uint32 *ids, int64 n)
{
	char	   *sql;
	Oid			argtypes[2] = {INT4OID, INT4ARRAYOID};
	Datum		args[2];
	Portal		portal;

	args[0] = Int32GetDatum(ld->repository_id);
	if (ids == NULL)
	{
		sql = psprintf("SELECT commit_idx, path FROM ONLY %s.fixes_commit_files "
					   "WHERE repository_id = $1 AND commit_idx < $2 ORDER BY commit_idx",
					   ld->schema);
		argtypes[1] = INT4OID;
		args[1] = Int32GetDatum((int32) ld->n_old);
	}
	else
	{
		sql = psprintf("SELECT commit_idx, path FROM ONLY %s.fixes_commit_files "
					   "WHERE repository_id = $1 AND commit_idx = ANY ($2) ORDER BY commit_idx",
					   ld->schema);
		args[1] = fixes_spi_int4_array(ids, n);
	}
	portal = fixes_spi_cursor_open(sql, 2, argtypes, args);
	while (fixes_spi_cursor_fetch(portal, 10000) > 0)
	{
		CHECK_FOR_INTERRUPTS();
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			HeapTuple	tup = SPI_tuptable->vals[i];
			bool		isnull;
			int32		idx = DatumGetInt32(SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &isnull));
			Datum		d = SPI_getbinval(tup, SPI_tuptable->tupdesc, 2, &isnull);
			text	   *path;

			/* stored state is input: the query bounds it above */
			if (idx < 0 || isnull)
				fixes_load_stored_bad(ld, "fixes_commit_files", "A row has commit_idx %d%s.", idx,
									  isnull ? " and no path" : "");
			path = DatumGetTextPP(d);
			add_file(ld, ss, (uint32) idx, path_id(ss, VARDATA_ANY(path), (int) VARSIZE_ANY_EXHDR(path)));
		}
		SPI_freetuptable(SPI_tuptable);
	}
	fixes_spi_cursor_close(portal);
}

/* the pairs of ss->fp (each commit's together) into sections, rows and pairs */
static void
attribute(FixesLoad *ld, FixesSubsystems *ss)
{
	int64		cur = -1;
	int			ver = ss->ref_ver;

	ss->in_commit = MemoryContextAllocZero(ss->cxt, sizeof(bool) * (ss->nnames + 1));
	ss->commit_secs = MemoryContextAlloc(ss->cxt, sizeof(int) * (ss->nnames + 1));
	ss->ncommit = 0;
	for (int64 k = 0; k <= ss->nfp; k += 2)
	{
		AttrEntry  *e;

		if ((k & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
		if (k == ss->nfp || ss->fp[k] != cur)
		{
			for (int i = 0; i < ss->ncommit; i++)
			{
				add_pair(ld, (uint32) cur, ss->commit_secs[i]);
				ss->in_commit[ss->commit_secs[i]] = false;
			}
			ss->ncommit = 0;
			if (k == ss->nfp)
				break;
			cur = ss->fp[k];
			if (!ss->rank_read[ld->mark[cur]])
				elog(ERROR, "the MAINTAINERS of release %d of commit %lld was not read",
					 ld->mark[cur], (long long) cur);
			ver = ss->rank_ver[ld->mark[cur]];
		}
		e = path_sections(ss, ver, (int32) ss->fp[k + 1]);
		for (int i = 0; i < e->n; i++)
		{
			int			s = ss->gsecs[e->start + i];

			if (!ss->in_commit[s])
			{
				ss->in_commit[s] = true;
				ss->commit_secs[ss->ncommit++] = s;
			}
		}
	}
}

/*
 * After the releases: attribute each commit by the MAINTAINERS of its
 * release (the ref's when unreleased; a database at 1.0 or 1.1 SQL: the
 * ref's for all), and write fixes_subsystems and fixes_commit_subsystems.
 * A full load attributes every commit; a refresh the new ones and the old
 * ones whose version changed, or all of them again
 * (fixes_refresh_changed_commits()).
 */
void
fixes_load_write_files(FixesLoad *ld)
{
	FixesSubsystems *ss = ld->paths->subsys;
	FixesBulk  *b;
	TupleDesc	desc;
	Datum	   *v;
	bool	   *n;
	bool		full;
	uint32	   *changed = NULL;
	int64		nchanged = 0;
	int			from;

	if (!ld->has.file_tables || ss == NULL)
		return;
	ss->rank_ver = palloc(sizeof(int) * (ld->releases->n + 1));
	ss->rank_has = palloc0(sizeof(bool) * (ld->releases->n + 1));
	ss->rank_read = palloc0(sizeof(bool) * (ld->releases->n + 1));
	for (int r = 0; r <= ld->releases->n; r++)
	{
		ss->rank_ver[r] = ss->ref_ver;
		/* a database at 1.0 or 1.1 SQL: every release by the ref's file */
		ss->rank_read[r] = r == 0 || !ld->has.maintainers_by_release;
	}
	/* a refresh may keep the attributions of the old commits */
	full = ld->refresh == NULL || fixes_refresh_attribute_all(ld);
	/*
	 * The files are read when commits are released or move, when a release
	 * is new, and when one is gone or moved, even if it held no commit: its
	 * sections were listed (fixes_refresh_can_keep())
	 */
	if (ld->has.maintainers_by_release && ld->releases->n > 0 &&
		(full || fixes_refresh_release_files_needed(ld)))
	{
		bool	   *want = NULL;

		if (!full)
			full = !fixes_refresh_can_keep(ld);
		if (!full)
			want = fixes_refresh_wanted_releases(ld);
		read_release_versions(ld, ss, want);
		read_fallback(ld, ss);
		resolve_fallback(ld, ss);
		if (!full)
		{
			FixesReleaseFiles rf = {ss->ref_ver, ss->rank_ver, ss->any_missing, ss->first_with,
			ss->rank_has, ss->rank_read};

			full = !fixes_refresh_changed_commits(ld, &rf, &changed, &nchanged);
		}
		if (full)
		{
			read_release_versions(ld, ss, NULL);
			resolve_fallback(ld, ss);
		}
		fixes_load_phase(ld, "MAINTAINERS of the releases read");
	}
	if (ld->refresh != NULL && full)
		ld->paths->reattribute = true;
	ld->paths->reattribute_some = !full && nchanged > 0;

	/*
	 * The section ids: all again in the order of the releases, or new ones
	 * at the end (a refresh that keeps the old attributions only adds
	 * versions: the names of those it did not read are stored already)
	 */
	if (full)
		reset_names(ss);
	for (int r = 1; r <= ld->releases->n; r++)
		if (ss->rank_read[r])
			map_sections(ss, ss->vers[ss->rank_ver[r]]);
	map_sections(ss, ss->vers[ss->ref_ver]);

	/* the rows that go, and the files of the old commits to attribute again */
	if (ld->refresh != NULL && full)
	{
		(void) fixes_spi_delete_rows(ld->schema, "fixes_commit_subsystems", ld->repository_id);
		(void) fixes_spi_delete_rows(ld->schema, "fixes_subsystems", ld->repository_id);
		CommandCounterIncrement();
		read_old_files(ld, ss, NULL, 0);
	}
	else if (nchanged > 0)
	{
		Oid			argtypes[2] = {INT4OID, INT4ARRAYOID};
		Datum		args[2];

		args[0] = Int32GetDatum(ld->repository_id);
		args[1] = fixes_spi_int4_array(changed, nchanged);
		(void) fixes_spi_execute(psprintf("DELETE FROM ONLY %s.fixes_commit_subsystems "
										  "WHERE repository_id = $1 AND commit_idx = ANY ($2)",
										  ld->schema),
								 2, argtypes, args, NULL, 0, SPI_OK_DELETE);
		CommandCounterIncrement();
		read_old_files(ld, ss, changed, nchanged);
	}

	/* the sections: all of them, or those new to fixes_subsystems */
	from = full ? 0 : ss->stored_names;
	if (from < ss->nnames)
	{
		int			c_repo,
					c_id,
					c_name;

		b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_subsystems"));
		desc = RelationGetDescr(b->rel);
		c_repo = fixes_attnum(desc, "repository_id");
		c_id = fixes_attnum(desc, "subsystem_id");
		c_name = fixes_attnum(desc, "name");
		for (int s = from; s < ss->nnames; s++)
		{
			fixes_bulk_row(b, &v, &n);
			n[c_repo] = n[c_id] = n[c_name] = false;
			v[c_repo] = Int32GetDatum(ld->repository_id);
			v[c_id] = Int32GetDatum(s + 1);
			v[c_name] = CStringGetTextDatum(ss->names[s]);
			fixes_bulk_insert(b, v, n, 64);
		}
		fixes_bulk_end(b);
	}

	/* the commits' sections */
	ld->paths->subsys_bulk = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_commit_subsystems"));
	attribute(ld, ss);
	fixes_bulk_end(ld->paths->subsys_bulk);
	ld->paths->subsys_bulk = NULL;
	if (ss->fp)
		pfree(ss->fp);
	ss->fp = NULL;
	ss->nfp = ss->fp_cap = 0;
	/* the pairs, in order, for the counts */
	qsort(ld->paths->cs_pairs, ld->paths->ncs / 2, sizeof(uint32) * 2, pair_cmp);
	CommandCounterIncrement();
}

/* commit idx changed path: attributed after the releases (load_files.c, the read) */
void
fixes_load_maintainers_path(FixesLoad *ld, uint32 idx, const char *path, int len)
{
	FixesSubsystems *ss = ld->paths->subsys;

	add_file(ld, ss, idx, path_id(ss, path, len));
}

/* the walk starts again in full: no pairs yet */
void
fixes_load_maintainers_restart(FixesLoad *ld)
{
	if (ld->paths->subsys != NULL)
		ld->paths->subsys->nfp = 0;
}

