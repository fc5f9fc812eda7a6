/*
 * load_subsystem_counts.c — fixes_load(files): the answers of
 * fixes_per_subsystem and fixes_per_path_prefix, stored by each load
 *
 * Per MAINTAINERS section, and per path prefix of 1 .. FIXES_PREFIX_DEPTHS
 * components: the mainline commits, those with a resolved Fixes edge, those
 * such edges point at, the edges into and out of them, and the median
 * lifetime of the bugs introduced.  Aggregating fixes_commit_subsystems and
 * fixes_commit_files at query time reads every row of both (seconds at a
 * million commits), so each load computes them from the edges it holds and
 * the groups of each commit (load_count.c), and stores them in fixes_subsystem_counts and
 * fixes_path_prefix_counts; the view and the function read those rows.
 * fixes_per_path_prefix computes a deeper depth at query time.
 *
 * The groups of a commit: its sections (load_files.c's pairs) and the
 * prefixes of its paths at depth FIXES_PREFIX_DEPTHS, ids into a dictionary
 * of (depth, prefix) kept in fixes_path_prefix_counts.prefix_id; a prefix at
 * that depth names its shorter ones, so only those are kept per commit.  A
 * refresh needs the groups of the old commits too (the targets of new
 * edges), so they are kept compactly in fixes_commit_groups: one row per
 * kind and load, for the commits that load added (per commit a count, then
 * the ids, as uint32 in the server's byte order), as fixes_trailer_keys
 * keeps trailer keys.  A full load writes one row per kind; a refresh adds
 * one; a refresh under another MAINTAINERS writes the sections' again.
 * A refresh reads those rows while the reader walks the new commits
 * (fixes_load_read_kept_groups(), load.c).  Should they not cover the old
 * commits, the groups are read from fixes_commit_subsystems and
 * fixes_commit_files (a scan of each).
 *
 * The counts are load_count.c's (fixes_count_groups()): this file reads and
 * keeps the groups of each commit and writes the rows.  A refresh at 1.2
 * SQL whose old commits keep their groups (kept rows that hold, nothing
 * attributed again under another MAINTAINERS) computes only the groups it
 * changes from their stored counts (fixes_count_groups_delta(): the new
 * commits, and the commits of the edges that are new or resolve otherwise)
 * and replaces their rows; the stored rows of the others stay.  Each row
 * keeps the lifetimes its median is over (column lifetimes: float8 days,
 * ascending, in the server's byte order); the refresh drops those of the
 * edges that changed as they were and adds them as they are
 * (fixes_count_group_lifetimes()), so it reads no edge into a group but
 * those that changed: fixes_load_groups_by_difference() tells load.c so
 * before the old edges are read (refresh/old_edges.c).  Otherwise every row is
 * written again, from every edge.
 */
#include "postgres.h"

#include <math.h>
#include <stdlib.h>

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "bulk_insert.h"
#include "load_count.h"
#include "load_files.h"
#include "load_maintainers.h"
#include "load_state.h"
#include "load_subsystem_counts.h"
#include "spi_call.h"
#include "string_hash.h"
#include "table_columns.h"
#include "toast_copy.h"

#define GROUPS_FORMAT 1

/*
 * A refresh adds one row per kind to fixes_commit_groups; once a kind has
 * this many, the refresh writes them all again as one, so that a scheduled
 * refresh every hour does not read thousands of rows back.
 */
#define MAX_SEGMENTS 16

/* a (depth, prefix) of the dictionary */
typedef struct PrefixEntry
{
	const char *key;			/* depth as one byte '1' .., then the prefix */
	uint32		id;
} PrefixEntry;

/* the (commit, group) pairs of one kind, sorted by commit at use */
typedef struct Pairs
{
	uint32	   *v;				/* commit, group, commit, group, ... */
	int64		n;				/* uint32s used */
	int64		cap;
} Pairs;

typedef struct FixesPrefixes
{
	HTAB	   *dict;			/* key -> id */
	char	  **names;			/* id -> key */
	uint32	   *anc;			/* id * DEPTHS + d - 1 -> its prefix at depth d */
	uint32		nnames;
	uint32		cap;
	uint32		nstored;		/* ids of the previous load: 0 .. nstored - 1 */
	bool		dict_read;
	bool		dict_bad;		/* the stored one was unusable */
	uint32	   *stamp;			/* by id: commit + 1 that has it already */
	Pairs		pairs;			/* of the commits this load read */
	StringInfoData key;
	MemoryContext cxt;
} FixesPrefixes;

/* the groups of the old commits as fixes_commit_groups holds them */
typedef struct OldGroups
{
	uint32	   *counts;			/* by commit 0 .. n_old - 1 */
	uint32	   *ids;			/* concatenated in commit order */
	uint64		nids;
	uint64		cap;
	uint32		ncommits;		/* n_old once read */
	uint64		nsegments;		/* rows of fixes_commit_groups read */
	bool		valid;
} OldGroups;

/* the rows of one kind that the previous load stored, by group id */
typedef struct StoredCounts
{
	FixesGroupCounts *cnt;		/* days unset */
	struct varlena **lifetimes; /* the column as each row holds it, copied: NULL if null */
	int64		n;				/* ids 0 .. n - 1; -1: not one row per id */
	bool		all_lifetimes;	/* every row has its lifetimes (a load by 1.2 wrote it) */
} StoredCounts;

/* the groups of the old commits as fixes_commit_groups keeps them, per kind */
typedef struct FixesKeptGroups
{
	OldGroups	p;				/* path prefixes */
	OldGroups	s;				/* MAINTAINERS sections */
	bool		p_ok;			/* they cover the old commits, with ids that hold */
	bool		s_ok;
	/* fixes_load_groups_by_difference(), once */
	bool		decided;
	bool		delta_p;		/* the prefixes' counts from the stored ones */
	bool		delta_s;		/* the sections' */
	StoredCounts sp;
	StoredCounts ss;
} FixesKeptGroups;

static void
pairs_add(Pairs *p, uint32 idx, uint32 group)
{
	if (p->n + 2 > p->cap)
	{
		p->cap = p->cap ? p->cap * 2 : 8192;
		p->v = p->v == NULL
			? MemoryContextAllocHuge(CurrentMemoryContext, sizeof(uint32) * p->cap)
			: repalloc_huge(p->v, sizeof(uint32) * p->cap);
	}
	p->v[p->n++] = idx;
	p->v[p->n++] = group;
}

/* ---- the dictionary of prefixes ---- */

static FixesPrefixes *
prefixes(FixesLoad *ld)
{
	FixesPrefixes *px = ld->paths->prefixes;
	MemoryContext old;

	if (px != NULL)
		return px;
	old = MemoryContextSwitchTo(ld->cxt);
	px = palloc0(sizeof(FixesPrefixes));
	px->cxt = ld->cxt;
	px->dict = fixes_string_hash_create("fixes path prefixes", 1024, sizeof(PrefixEntry), ld->cxt);
	initStringInfo(&px->key);
	MemoryContextSwitchTo(old);
	ld->paths->prefixes = px;
	return px;
}

/* the id of (depth, prefix[0 .. len)), added if new ('' is '.') */
static uint32
prefix_id(FixesPrefixes *px, int depth, const char *prefix, int len, bool *isnew)
{
	PrefixEntry *e;
	bool		found;
	const char *k;

	resetStringInfo(&px->key);
	appendStringInfoChar(&px->key, (char) ('0' + depth));
	if (len == 0)
		appendStringInfoChar(&px->key, '.');
	else
		appendBinaryStringInfo(&px->key, prefix, len);
	k = px->key.data;
	e = hash_search(px->dict, &k, HASH_ENTER, &found);
	if (isnew)
		*isnew = !found;
	if (found)
		return e->id;
	e->key = MemoryContextStrdup(px->cxt, px->key.data);
	if (px->nnames == px->cap)
	{
		uint32		cap = px->cap ? px->cap * 2 : 1024;

		px->names = px->names == NULL
			? MemoryContextAlloc(px->cxt, sizeof(char *) * cap)
			: repalloc(px->names, sizeof(char *) * cap);
		px->anc = px->anc == NULL
			? MemoryContextAlloc(px->cxt, sizeof(uint32) * FIXES_PREFIX_DEPTHS * cap)
			: repalloc(px->anc, sizeof(uint32) * FIXES_PREFIX_DEPTHS * cap);
		px->stamp = px->stamp == NULL
			? MemoryContextAlloc(px->cxt, sizeof(uint32) * cap)
			: repalloc(px->stamp, sizeof(uint32) * cap);
		memset(px->stamp + px->cap, 0, sizeof(uint32) * (cap - px->cap));
		px->cap = cap;
	}
	e->id = px->nnames++;
	px->names[e->id] = (char *) e->key;
	return e->id;
}

/* the position of the n-th '/' of s[0 .. len), -1 when it has fewer */
static int
nth_slash(const char *s, int len, int n)
{
	for (int i = 0; i < len; i++)
		if (s[i] == '/' && --n == 0)
			return i;
	return -1;
}

/*
 * The length of a path's prefix of depth components, as
 * fixes_per_path_prefix cuts string_to_array(path, '/'): up to its
 * depth-th '/', or up to its last '/' when it has fewer (its directory);
 * 0 when it has none (the top level, '.').
 */
static int
prefix_len(const char *s, int len, int depth)
{
	int			last = 0,
				n = 0;

	for (int i = 0; i < len; i++)
	{
		if (s[i] == '/')
		{
			last = i;
			if (++n == depth)
				return i;
		}
	}
	return last;
}

/* the prefixes of depth 1 .. DEPTHS of a deepest prefix s[0 .. len) */
static void
set_ancestors(FixesPrefixes *px, uint32 deep, const char *s, int len)
{
	for (int d = 1; d < FIXES_PREFIX_DEPTHS; d++)
	{
		int			c = nth_slash(s, len, d);
		uint32		id = prefix_id(px, d, s, c >= 0 ? c : len, NULL);

		px->anc[deep * FIXES_PREFIX_DEPTHS + d - 1] = id;
	}
	px->anc[deep * FIXES_PREFIX_DEPTHS + FIXES_PREFIX_DEPTHS - 1] = deep;
}

/* the deepest prefix of a path, added with its shorter ones if new */
static uint32
path_prefix(FixesPrefixes *px, const char *path, int len)
{
	int			cut = prefix_len(path, len, FIXES_PREFIX_DEPTHS);
	bool		isnew;
	uint32		deep = prefix_id(px, FIXES_PREFIX_DEPTHS, path, cut, &isnew);

	if (isnew)
		set_ancestors(px, deep, path, cut);
	return deep;
}

/*
 * The dictionary of the previous load, from fixes_path_prefix_counts (its
 * ids are 0 .. n - 1).  False when the rows are not such a dictionary: the
 * dictionary starts empty, and the old commits' groups are read again.
 */
static bool
read_dictionary(FixesLoad *ld, FixesPrefixes *px)
{
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};
	uint64		rows;
	MemoryContext cxt = CurrentMemoryContext;

	rows = fixes_spi_execute(psprintf("SELECT depth, prefix, prefix_id FROM ONLY %s.fixes_path_prefix_counts "
									  "WHERE repository_id = $1 ORDER BY prefix_id", ld->schema),
							 1, argtypes, args, NULL, 0, SPI_OK_SELECT);
	for (uint64 r = 0; r < rows; r++)
	{
		HeapTuple	tup = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		int32		depth = DatumGetInt32(SPI_getbinval(tup, desc, 1, &isnull));
		Datum		d = SPI_getbinval(tup, desc, 2, &isnull);
		char	   *prefix = isnull ? pstrdup("") : TextDatumGetCString(d);
		int32		id = DatumGetInt32(SPI_getbinval(tup, desc, 3, &isnull));
		bool		isnew;
		int			len = strcmp(prefix, ".") == 0 ? 0 : (int) strlen(prefix);

		if (isnull || depth < 1 || depth > FIXES_PREFIX_DEPTHS || id != (int32) r ||
			prefix_id(px, depth, prefix, len, &isnew) != (uint32) id || !isnew)
		{
			SPI_freetuptable(SPI_tuptable);
			MemoryContextSwitchTo(cxt);
			return false;
		}
	}
	/* the shorter prefixes of the deepest ones, all in the dictionary now */
	for (uint32 id = 0; id < px->nnames; id++)
	{
		const char *s = px->names[id] + 1;

		if (px->names[id][0] == '0' + FIXES_PREFIX_DEPTHS)
			set_ancestors(px, id, s, strcmp(s, ".") == 0 ? 0 : (int) strlen(s));
	}
	SPI_freetuptable(SPI_tuptable);
	MemoryContextSwitchTo(cxt);
	px->nstored = px->nnames;
	return px->nnames == rows;
}

/* the phase read starts: the dictionary of the previous load, for a refresh */
void
fixes_load_prefixes_begin(FixesLoad *ld)
{
	FixesPrefixes *px = prefixes(ld);

	if (px->dict_read)
		return;
	px->dict_read = true;
	if (ld->refresh != NULL && !read_dictionary(ld, px))
	{
		ld->paths->prefixes = NULL;
		px = prefixes(ld);
		px->dict_read = true;
		px->dict_bad = true;
	}
}

/* a path that commit idx changed: the pair of its deepest prefix */
void
fixes_load_prefix_path(FixesLoad *ld, uint32 idx, const char *path, int len)
{
	FixesPrefixes *px = ld->paths->prefixes;
	uint32		deep;
	MemoryContext old = MemoryContextSwitchTo(px->cxt);

	deep = path_prefix(px, path, len);
	if (px->stamp[deep] != idx + 1)
	{
		px->stamp[deep] = idx + 1;
		pairs_add(&px->pairs, idx, deep);
	}
	MemoryContextSwitchTo(old);
}

/* ---- the groups of the old commits ---- */

/*
 * Row r of SPI_tuptable, a row of fixes_commit_groups as read_segments()
 * selects it: first_commit, format, commits, counts, ids (the length of
 * ids here, that of counts asked where it is checked)
 */
typedef struct GroupsRow
{
	HeapTuple	tup;
	TupleDesc	desc;
	int32		first;
	int32		format;
	int32		commits;
	Size		ids_len;
} GroupsRow;

static GroupsRow
groups_row(uint64 r)
{
	GroupsRow	g;
	bool		isnull;

	g.tup = SPI_tuptable->vals[r];
	g.desc = SPI_tuptable->tupdesc;
	g.first = DatumGetInt32(SPI_getbinval(g.tup, g.desc, 1, &isnull));
	g.format = DatumGetInt32(SPI_getbinval(g.tup, g.desc, 2, &isnull));
	g.commits = DatumGetInt32(SPI_getbinval(g.tup, g.desc, 3, &isnull));
	g.ids_len = fixes_chunk_length(g.tup, g.desc, 5);
	return g;
}

/*
 * The groups of commits 0 .. n_old - 1 of one kind from fixes_commit_groups,
 * into o.  False unless its rows cover exactly those commits with ids below
 * ngroups.
 */
static bool
read_segments(FixesLoad *ld, const char *kind, uint32 ngroups, OldGroups *o)
{
	Oid			argtypes[2] = {INT4OID, TEXTOID};
	Datum		args[2] = {Int32GetDatum(ld->repository_id), CStringGetTextDatum(kind)};
	uint64		rows;
	uint32		next = 0;
	bool		ok = true;
	MemoryContext cxt = CurrentMemoryContext;

	o->valid = false;
	o->nids = 0;
	o->counts = fixes_palloc_big(sizeof(uint32) * Max(ld->n_old, 1), MCXT_ALLOC_HUGE);
	rows = fixes_spi_execute(psprintf("SELECT first_commit, format, commits, counts, ids "
									  "FROM ONLY %s.fixes_commit_groups "
									  "WHERE repository_id = $1 AND kind = $2 ORDER BY first_commit",
									  ld->schema),
							 2, argtypes, args, NULL, 0, SPI_OK_SELECT);
	/* the rows in order, with columns of the sizes their commits make */
	for (uint64 r = 0; r < rows && ok; r++)
	{
		GroupsRow	g = groups_row(r);

		ok = g.format == GROUPS_FORMAT && g.first == (int32) next && g.commits >= 0 &&
			(uint64) g.first + g.commits <= ld->n_old &&
			fixes_chunk_length(g.tup, g.desc, 4) == (Size) g.commits * sizeof(uint32) &&
			g.ids_len % sizeof(uint32) == 0;
		next = (uint32) g.first + g.commits;
		o->nids += g.ids_len / sizeof(uint32);
	}
	if (ok && rows > 0)
	{
		FixesToastCopy *copies = palloc(sizeof(FixesToastCopy) * 2 * rows);
		uint64		at = 0;

		o->cap = Max(o->nids, 1);
		o->ids = fixes_palloc_big(sizeof(uint32) * o->cap, MCXT_ALLOC_HUGE);
		for (uint64 r = 0; r < rows; r++)
		{
			GroupsRow	g = groups_row(r);

			fixes_chunk_copy_to(&copies[2 * r], g.tup, g.desc, 4, o->counts + g.first,
								(Size) g.commits * sizeof(uint32));
			fixes_chunk_copy_to(&copies[2 * r + 1], g.tup, g.desc, 5, o->ids + at, g.ids_len);
			at += g.ids_len / sizeof(uint32);
		}
		fixes_toast_copy(copies, (int) (2 * rows));
		pfree(copies);

		/* each row's counts add up to its ids, each below ngroups */
		at = 0;
		for (uint64 r = 0; r < rows && ok; r++)
		{
			GroupsRow	g = groups_row(r);
			uint64		nids = g.ids_len / sizeof(uint32);
			uint64		sum = 0;

			for (int32 j = 0; j < g.commits; j++)
				sum += o->counts[g.first + j];
			ok = sum == nids;
			for (uint64 q = at; q < at + nids && ok; q++)
				ok = o->ids[q] < ngroups;
			at += nids;
			CHECK_FOR_INTERRUPTS();
		}
	}
	SPI_freetuptable(SPI_tuptable);
	MemoryContextSwitchTo(cxt);
	o->nsegments = rows;
	o->valid = ok && next == ld->n_old;
	o->ncommits = o->valid ? ld->n_old : 0;
	return o->valid;
}

/*
 * The rows of fixes_commit_groups, when they hold, into ld->paths->kept_groups
 * (once): those of the prefixes, with the ids of the stored dictionary, and
 * those of the sections, unless MAINTAINERS changed.  A refresh reads them
 * while the reader walks the new commits (load.c); they do not depend on
 * them.  A full load keeps none.
 */
void
fixes_load_read_kept_groups(FixesLoad *ld)
{
	FixesKeptGroups *k;
	FixesPrefixes *px;

	if (!ld->has.file_tables || !ld->paths->files || ld->paths->kept_groups != NULL)
		return;
	k = ld->paths->kept_groups = palloc0(sizeof(FixesKeptGroups));
	fixes_load_prefixes_begin(ld);
	px = ld->paths->prefixes;
	k->p_ok = ld->refresh != NULL && !px->dict_bad &&
		read_segments(ld, "prefixes", px->nstored, &k->p);
	k->s_ok = ld->paths->subsys != NULL && ld->refresh != NULL && !ld->paths->reattribute &&
		read_segments(ld, "subsystems", (uint32) fixes_load_nsections(ld), &k->s);
}

static void
old_groups_free(OldGroups *o)
{
	if (o->counts)
		pfree(o->counts);
	if (o->ids)
		pfree(o->ids);
}

/*
 * Without usable rows in fixes_commit_groups: the groups of the old commits
 * from fixes_commit_subsystems (sections) or fixes_commit_files (prefixes),
 * read in batches through a cursor.
 */
static void
read_old_groups(FixesLoad *ld, bool prefix, Pairs *p, uint32 nsections)
{
	FixesPrefixes *px = ld->paths->prefixes;
	char	   *sql = prefix
		? psprintf("SELECT commit_idx, path FROM ONLY %s.fixes_commit_files "
				   "WHERE repository_id = $1 AND commit_idx < $2 ORDER BY commit_idx", ld->schema)
		: psprintf("SELECT commit_idx, subsystem_id - 1 FROM ONLY %s.fixes_commit_subsystems "
				   "WHERE repository_id = $1 AND commit_idx < $2 ORDER BY commit_idx", ld->schema);
	Oid			argtypes[2] = {INT4OID, INT4OID};
	Datum		args[2] = {Int32GetDatum(ld->repository_id), Int32GetDatum((int32) ld->n_old)};
	Portal		portal = fixes_spi_cursor_open(sql, 2, argtypes, args);

	p->n = 0;
	while (fixes_spi_cursor_fetch(portal, 10000) > 0)
	{
		CHECK_FOR_INTERRUPTS();
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			HeapTuple	tup = SPI_tuptable->vals[i];
			bool		isnull;
			uint32		idx = (uint32) DatumGetInt32(SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &isnull));
			Datum		d = SPI_getbinval(tup, SPI_tuptable->tupdesc, 2, &isnull);

			/* stored state is input: the query bounds commit_idx above */
			if ((int32) idx < 0 || isnull)
				fixes_load_stored_bad(ld, prefix ? "fixes_commit_files" : "fixes_commit_subsystems",
									  "A row has commit_idx %d%s.", (int32) idx, isnull ? " and a NULL" : "");
			if (prefix)
			{
				text	   *path = DatumGetTextPP(d);
				uint32		deep;
				MemoryContext old = MemoryContextSwitchTo(px->cxt);

				deep = path_prefix(px, VARDATA_ANY(path), (int) VARSIZE_ANY_EXHDR(path));
				MemoryContextSwitchTo(old);
				if (px->stamp[deep] != idx + 1)
				{
					px->stamp[deep] = idx + 1;
					pairs_add(p, idx, deep);
				}
			}
			else
				pairs_add(p, idx, fixes_load_stored_idx(ld, DatumGetInt32(d), nsections,
														"fixes_commit_subsystems", "subsystem_id - 1"));
		}
		SPI_freetuptable(SPI_tuptable);
	}
	fixes_spi_cursor_close(portal);
}

/*
 * The groups of commits 0 .. n - 1: of the old ones from o when it is
 * valid, and from pairs in any order (no duplicates) of the others.
 */
static void
build_groups(FixesGroups *g, uint32 n, uint32 ngroups, const OldGroups *o,
			 const Pairs *a, const Pairs *b)
{
	const Pairs *src[2] = {a, b};
	uint64	   *fill;

	g->n = n;
	g->ngroups = ngroups;
	g->off = fixes_palloc_big(sizeof(uint64) * ((Size) n + 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	if (o->valid)
		for (uint32 c = 0; c < o->ncommits; c++)
			g->off[c + 1] = o->counts[c];
	for (int s = 0; s < 2; s++)
		for (int64 k = 0; src[s] && k < src[s]->n; k += 2)
			g->off[src[s]->v[k] + 1]++;
	for (uint32 c = 0; c < n; c++)
		g->off[c + 1] += g->off[c];
	g->ids = fixes_palloc_big(sizeof(uint32) * Max(g->off[n], 1), MCXT_ALLOC_HUGE);
	if (o->valid && o->nids > 0)
		memcpy(g->ids, o->ids, sizeof(uint32) * o->nids);
	fill = fixes_palloc_big(sizeof(uint64) * ((Size) n + 1), MCXT_ALLOC_HUGE);
	memcpy(fill, g->off, sizeof(uint64) * ((Size) n + 1));
	for (int s = 0; s < 2; s++)
		for (int64 k = 0; src[s] && k < src[s]->n; k += 2)
			g->ids[fill[src[s]->v[k]]++] = src[s]->v[k + 1];
	pfree(fill);
}

/* ---- writing ---- */

/* the rows of fixes_commit_groups of one kind */
static void
delete_groups(FixesLoad *ld, const char *kind)
{
	Oid			argtypes[2] = {INT4OID, TEXTOID};
	Datum		args[2] = {Int32GetDatum(ld->repository_id), CStringGetTextDatum(kind)};

	fixes_spi_execute(psprintf("DELETE FROM ONLY %s.fixes_commit_groups WHERE repository_id = $1 AND kind = $2",
							   ld->schema),
					  2, argtypes, args, NULL, 0, SPI_OK_DELETE);
}

/* a row of fixes_commit_groups: the groups of commits first .. end - 1 */
static void
write_segment(FixesLoad *ld, const char *kind, const FixesGroups *g, uint32 first, uint32 end)
{
	Oid			types[6] = {INT4OID, TEXTOID, INT4OID, INT4OID, BYTEAOID, BYTEAOID};
	Datum		args[6];
	uint32	   *counts;

	if (end <= first)
		return;
	counts = fixes_palloc_big(sizeof(uint32) * (end - first), MCXT_ALLOC_HUGE);
	for (uint32 c = first; c < end; c++)
		counts[c - first] = (uint32) (g->off[c + 1] - g->off[c]);
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = CStringGetTextDatum(kind);
	args[2] = Int32GetDatum((int32) first);
	args[3] = Int32GetDatum((int32) (end - first));
	args[4] = PointerGetDatum(fixes_bytea(counts, sizeof(uint32) * (end - first)));
	args[5] = PointerGetDatum(fixes_bytea(g->ids + g->off[first],
										 sizeof(uint32) * (g->off[end] - g->off[first])));
	fixes_spi_execute(psprintf("INSERT INTO %s.fixes_commit_groups (repository_id, kind, first_commit, "
							   "format, commits, counts, ids) VALUES ($1, $2, $3, %d, $4, $5, $6)",
							   ld->schema, GROUPS_FORMAT),
					  6, types, args, NULL, 0, SPI_OK_INSERT);
	pfree(counts);
}

/*
 * A refresh: the rows of table that the previous load stored, by group id
 * (column id_col less base), into *st: st->n is how many (ids 0 .. n - 1),
 * or -1 when they are not one row per id of 0 .. at most max - 1.  The
 * lifetimes stay where they are (a TOAST pointer each, copied): only the
 * rows written again read theirs (stored_lifetimes()).
 */
static void
read_stored_counts(FixesLoad *ld, const char *table, const char *id_col, int32 base,
				   uint32 max, StoredCounts *st)
{
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};
	uint64		rows;
	MemoryContext cxt = CurrentMemoryContext;

	st->n = -1;
	st->all_lifetimes = false;
	rows = fixes_spi_execute(psprintf("SELECT %s, commits, fixing_commits, buggy_commits, bugs_introduced, "
									  "bugs_fixed, median_lifetime_days, lifetimes FROM ONLY %s.%s "
									  "WHERE repository_id = $1 ORDER BY %s",
									  id_col, ld->schema, table, id_col),
							 1, argtypes, args, NULL, 0, SPI_OK_SELECT);
	MemoryContextSwitchTo(cxt);
	if (rows > max)
	{
		SPI_freetuptable(SPI_tuptable);
		return;
	}
	st->cnt = fixes_palloc_big(sizeof(FixesGroupCounts) * Max(rows, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	st->lifetimes = fixes_palloc_big(sizeof(struct varlena *) * Max(rows, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	st->all_lifetimes = true;
	for (uint64 r = 0; r < rows; r++)
	{
		HeapTuple	tup = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		FixesGroupCounts *o = &st->cnt[r];
		bool		isnull;
		int64		v[5];
		Datum		d;

		if ((r & 0x3ff) == 0x3ff)
			CHECK_FOR_INTERRUPTS();
		if (DatumGetInt32(SPI_getbinval(tup, desc, 1, &isnull)) != (int32) r + base)
		{
			SPI_freetuptable(SPI_tuptable);
			st->all_lifetimes = false;
			return;
		}
		for (int i = 0; i < 5; i++)
		{
			v[i] = DatumGetInt64(SPI_getbinval(tup, desc, i + 2, &isnull));
			if (isnull || v[i] < 0)
				fixes_load_stored_bad(ld, table, "A count of group %d is NULL or negative.",
									  (int) r + base);
		}
		o->commits = v[0];
		o->fixing_commits = v[1];
		o->buggy_commits = v[2];
		o->bugs_introduced = v[3];
		o->bugs_fixed = v[4];
		o->median = DatumGetFloat8(SPI_getbinval(tup, desc, 7, &isnull));
		if (isnull)
			o->median = NAN;
		else
			fixes_load_stored_float(ld, o->median, table, "median_lifetime_days");
		d = SPI_getbinval(tup, desc, 8, &isnull);
		/*
		 * NULL: the groups are counted again (written before 1.2, or set so);
		 * else a float8 for each bug introduced (stored_lifetimes() checks
		 * their values)
		 */
		if (isnull)
			st->all_lifetimes = false;
		else if (fixes_toast_length((struct varlena *) DatumGetPointer(d)) != (Size) v[3] * sizeof(double))
			fixes_load_stored_bad(ld, table, "The lifetimes of group %d are %zu bytes for " INT64_FORMAT " bugs introduced.",
								  (int) r + base,
								  fixes_toast_length((struct varlena *) DatumGetPointer(d)), v[3]);
		else
			st->lifetimes[r] = (struct varlena *) DatumGetPointer(datumCopy(d, false, -1));
	}
	SPI_freetuptable(SPI_tuptable);
	st->n = (int64) rows;
}

/*
 * The stored lifetimes of the groups whose rows are written again (changed,
 * among the first nstored) into cnt[].days, all in one read of TOAST
 */
static void
stored_lifetimes(FixesLoad *ld, const char *table, const StoredCounts *st, FixesGroupCounts *cnt,
				 const bool *changed, uint32 nstored)
{
	FixesToastCopy *copies = fixes_palloc_big(sizeof(FixesToastCopy) * Max(nstored, 1), MCXT_ALLOC_HUGE);
	Size		total = 0;
	int			n = 0;
	char	   *buf;

	for (uint32 id = 0; id < nstored; id++)
		if (changed[id])
			total += fixes_toast_length(st->lifetimes[id]);
	buf = fixes_palloc_big(Max(total, 1), MCXT_ALLOC_HUGE);
	total = 0;
	for (uint32 id = 0; id < nstored; id++)
	{
		Size		len;

		if (!changed[id])
			continue;
		len = fixes_toast_length(st->lifetimes[id]);
		copies[n].value = st->lifetimes[id];
		copies[n].dest = buf + total;
		copies[n++].len = len;
		cnt[id].days = (const double *) (buf + total);
		cnt[id].ndays = (int64) (len / sizeof(double));
		total += len;
	}
	fixes_toast_copy(copies, n);
	pfree(copies);
	/* numbers, ascending (fixes_count_group_lifetimes() checks the order) */
	for (uint32 id = 0; id < nstored; id++)
	{
		if (!changed[id])
			continue;
		CHECK_FOR_INTERRUPTS();
		for (int64 i = 0; i < cnt[id].ndays; i++)
			if (isnan(cnt[id].days[i]) || isinf(cnt[id].days[i]))
				fixes_load_stored_bad(ld, table, "A lifetime of group %u is %g.", id, cnt[id].days[i]);
	}
}

/*
 * The rows of the groups a refresh computes again, among the first nstored
 * (those the previous load stored): ids column id_col holds id + base.
 */
static void
delete_group_rows(FixesLoad *ld, const char *table, const char *id_col, int32 base,
				  const bool *only, uint32 nstored)
{
	Oid			argtypes[2] = {INT4OID, INT4ARRAYOID};
	Datum		args[2];
	Datum	   *d = fixes_palloc_big(sizeof(Datum) * Max(nstored, 1), MCXT_ALLOC_HUGE);
	int			n = 0;

	for (uint32 id = 0; id < nstored; id++)
		if (only[id])
			d[n++] = Int32GetDatum((int32) id + base);
	if (n > 0)
	{
		args[0] = Int32GetDatum(ld->repository_id);
		args[1] = PointerGetDatum(construct_array(d, n, INT4OID, 4, true, TYPALIGN_INT));
		fixes_spi_execute(psprintf("DELETE FROM ONLY %s.%s WHERE repository_id = $1 AND %s = ANY ($2)",
								   ld->schema, table, id_col),
						  2, argtypes, args, NULL, 0, SPI_OK_DELETE);
	}
	pfree(d);
}

/* the counts of one group into a row: values/nulls from position first */
static void
set_counts(Datum *v, bool *n, TupleDesc desc, const FixesGroupCounts *c)
{
	static const char *const names[5] = {"commits", "fixing_commits", "buggy_commits",
	"bugs_introduced", "bugs_fixed"};
	int64		vals[5] = {c->commits, c->fixing_commits, c->buggy_commits,
	c->bugs_introduced, c->bugs_fixed};
	int			m = fixes_attnum(desc, "median_lifetime_days");

	for (int i = 0; i < 5; i++)
	{
		int			a = fixes_attnum(desc, names[i]);

		v[a] = Int64GetDatum(vals[i]);
		n[a] = false;
	}
	v[m] = Float8GetDatum(c->median);
	n[m] = isnan(c->median);
	/* the lifetimes, ascending (empty: none) */
	if ((m = fixes_attnum_if_exists(desc, "lifetimes")) >= 0)
	{
		v[m] = PointerGetDatum(fixes_bytea(c->days, sizeof(double) * c->ndays));
		n[m] = false;
	}
}

/*
 * Before the old edges are read (load.c; once): whether the counts of each
 * kind can come from the stored ones and what changed
 * (fixes_count_groups_delta()): a refresh at 1.2 SQL whose old commits
 * keep their groups (the rows of fixes_commit_groups hold, no old commit
 * attributed again under another MAINTAINERS) and whose previous load
 * stored one row per group with its lifetimes.  True when every kind can:
 * then the counts read only the edges that changed (refresh/old_edges.c);
 * otherwise a kind is counted from every edge.
 */
bool
fixes_load_groups_by_difference(FixesLoad *ld)
{
	FixesKeptGroups *k;
	FixesPrefixes *px;

	if (!ld->has.file_tables || !ld->paths->files)
		return false;
	fixes_load_read_kept_groups(ld);
	k = ld->paths->kept_groups;
	px = ld->paths->prefixes;
	if (!k->decided)
	{
		bool		old_ok = ld->refresh != NULL && ld->has.maintainers_by_release;

		k->decided = true;
		if (old_ok && k->p_ok && !px->dict_bad)
		{
			read_stored_counts(ld, "fixes_path_prefix_counts", "prefix_id", 0, px->nstored, &k->sp);
			k->delta_p = k->sp.n == (int64) px->nstored && k->sp.all_lifetimes;
		}
		if (old_ok && ld->paths->subsys != NULL && k->s_ok && !ld->paths->reattribute && !ld->paths->reattribute_some)
		{
			read_stored_counts(ld, "fixes_subsystem_counts", "subsystem_id", 1,
							   (uint32) fixes_load_nsections(ld), &k->ss);
			k->delta_s = k->ss.n >= 0 && k->ss.all_lifetimes;
		}
	}
	return k->delta_p && (ld->paths->subsys == NULL || k->delta_s);
}

static void
stored_counts_free(StoredCounts *st)
{
	if (st->cnt != NULL)
		pfree(st->cnt);
	if (st->lifetimes != NULL)
	{
		for (int64 i = 0; i < st->n; i++)
			if (st->lifetimes[i] != NULL)
				pfree(st->lifetimes[i]);
		pfree(st->lifetimes);
	}
}

/*
 * The counts of one kind: from the stored ones when st is given (changed[]
 * then says which rows are written again), else from every edge
 */
static FixesGroupCounts *
count_kind(FixesLoad *ld, const FixesGroups *g, const uint32 *anc, const StoredCounts *st,
		   bool *changed, const char *table)
{
	FixesGroupCounts *cnt;
	FixesGroupLifetimes life;
	uint32		bad;

	if (st == NULL)
		return fixes_count_groups(ld, g, anc, FIXES_PREFIX_DEPTHS);
	cnt = fixes_count_groups_delta(ld, g, anc, FIXES_PREFIX_DEPTHS, st->cnt, (uint32) st->n,
								   changed, &life);
	stored_lifetimes(ld, table, st, cnt, changed, (uint32) st->n);
	if (!fixes_count_group_lifetimes(cnt, g->ngroups, &life, &bad))
		fixes_load_stored_bad(ld, table, "The lifetimes of group %u are not in order, or lack the lifetime of an edge that changed.",
							  bad);
	if (life.add != NULL)
		pfree(life.add);
	if (life.drop != NULL)
		pfree(life.drop);
	return cnt;
}

/*
 * After the edges are resolved (load.c, before the stable scope): the
 * counts of every section and prefix into fixes_subsystem_counts and
 * fixes_path_prefix_counts, and the groups of the new commits into
 * fixes_commit_groups.
 */
void
fixes_load_subsystem_counts(FixesLoad *ld)
{
	FixesPrefixes *px;
	uint32		n = ld->graph->n;
	Pairs		old_p = {0},
				old_s = {0},
				new_s = {0};
	FixesKeptGroups *k;
	bool		rewrite_s,
				rewrite_p;
	FixesGroups gs,
				gp;
	FixesGroupCounts *cnt;
	FixesBulk  *b;
	TupleDesc	desc;
	Datum	   *v;
	bool	   *nl;
	bool	   *only_p = NULL,
			   *only_s = NULL;
	uint32		nonly_p = 0,
				nonly_s = 0;
	uint32		nsec_all;
	FixesGroupCounts *cnt_s = NULL;
	MemoryContext cxt,
				old_cxt;

	if (!ld->has.file_tables || !ld->paths->files)
		return;
	/* the groups of the old commits: kept (read already, or now), or read again */
	(void) fixes_load_groups_by_difference(ld);
	k = ld->paths->kept_groups;
	ld->paths->kept_groups = NULL;
	px = ld->paths->prefixes;
	cxt = AllocSetContextCreate(CurrentMemoryContext, "fixes per-group counts", ALLOCSET_DEFAULT_SIZES);
	old_cxt = MemoryContextSwitchTo(cxt);
	rewrite_p = !k->p_ok;
	if (ld->refresh != NULL && rewrite_p)
		read_old_groups(ld, true, &old_p, 0);
	else if (k->p.nsegments >= MAX_SEGMENTS)
		rewrite_p = true;		/* k->p holds them all: one row again */
	rewrite_s = false;
	if (ld->paths->subsys != NULL)
	{
		uint32		nsec = (uint32) fixes_load_nsections(ld);

		/* old commits attributed again (load_files.c): the kept groups are stale */
		if (ld->paths->reattribute || ld->paths->reattribute_some)
		{
			old_groups_free(&k->s);
			memset(&k->s, 0, sizeof(k->s));
			k->s_ok = false;
		}
		rewrite_s = !k->s_ok;
		if (ld->refresh != NULL && !ld->paths->reattribute && rewrite_s)
			read_old_groups(ld, false, &old_s, nsec);
		else if (k->s.nsegments >= MAX_SEGMENTS)
			rewrite_s = true;	/* k->s holds them all: one row again */
		/* the pairs of load_files.c: the new commits' (all of them, reattributed) */
		new_s.v = ld->paths->cs_pairs;
		new_s.n = ld->paths->ncs;
		build_groups(&gs, n, nsec, &k->s, &old_s, &new_s);
	}
	build_groups(&gp, n, px->nnames, &k->p, &old_p, &px->pairs);
	/* the pairs are in the groups now */
	if (px->pairs.v)
		pfree(px->pairs.v);
	px->pairs.v = NULL;
	px->pairs.n = px->pairs.cap = 0;
	if (old_p.v)
		pfree(old_p.v);
	if (old_s.v)
		pfree(old_s.v);
	old_groups_free(&k->p);
	old_groups_free(&k->s);
	fixes_load_phase(ld, "groups of the old commits read");

	/*
	 * A refresh whose old commits keep the groups they had, and whose
	 * previous load stored the counts and lifetimes of each group: the counts
	 * from the stored ones and what changed, and the rows of the groups that
	 * changed written again, the others kept.  Otherwise the answers, all of
	 * them again.
	 */
	if (k->delta_p)
		only_p = fixes_palloc_big(Max(gp.ngroups, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	if (ld->paths->subsys != NULL && k->delta_s)
		only_s = fixes_palloc_big(Max(gs.ngroups, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	nsec_all = ld->paths->subsys != NULL ? gs.ngroups : 0;
	if (ld->paths->subsys != NULL)
		cnt_s = count_kind(ld, &gs, NULL, only_s != NULL ? &k->ss : NULL, only_s,
						   "fixes_subsystem_counts");
	cnt = count_kind(ld, &gp, px->anc, only_p != NULL ? &k->sp : NULL, only_p,
					 "fixes_path_prefix_counts");
	fixes_load_phase(ld, only_p != NULL || only_s != NULL
					 ? "per-subsystem and per-prefix counts computed from the stored ones"
					 : "per-subsystem and per-prefix counts computed");
	for (uint32 id = 0; only_p != NULL && id < gp.ngroups; id++)
		nonly_p += only_p[id];
	for (uint32 id = 0; only_s != NULL && id < nsec_all; id++)
		nonly_s += only_s[id];
	if (only_p != NULL)
		delete_group_rows(ld, "fixes_path_prefix_counts", "prefix_id", 0, only_p, (uint32) k->sp.n);
	else
		(void) fixes_spi_delete_rows(ld->schema, "fixes_path_prefix_counts", ld->repository_id);
	if (only_s != NULL)
		delete_group_rows(ld, "fixes_subsystem_counts", "subsystem_id", 1, only_s,
						  (uint32) k->ss.n);
	else
		(void) fixes_spi_delete_rows(ld->schema, "fixes_subsystem_counts", ld->repository_id);
	CommandCounterIncrement();
	if (only_p != NULL || only_s != NULL)
		elog(DEBUG1, "fixes_load %s: %u of %u sections and %u of %u path prefixes changed, from their stored counts; the others kept",
			 ld->args.name, only_s ? nonly_s : nsec_all, nsec_all,
			 only_p ? nonly_p : gp.ngroups, gp.ngroups);
	if (ld->paths->subsys != NULL)
	{
		b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_subsystem_counts"));
		desc = RelationGetDescr(b->rel);
		for (uint32 s = 0; s < gs.ngroups; s++)
		{
			if (only_s != NULL && !only_s[s])
				continue;
			fixes_bulk_row(b, &v, &nl);
			v[fixes_attnum(desc, "repository_id")] = Int32GetDatum(ld->repository_id);
			v[fixes_attnum(desc, "subsystem_id")] = Int32GetDatum((int32) s + 1);
			nl[fixes_attnum(desc, "repository_id")] = nl[fixes_attnum(desc, "subsystem_id")] = false;
			set_counts(v, nl, desc, &cnt_s[s]);
			fixes_bulk_insert(b, v, nl, 128 + sizeof(double) * cnt_s[s].ndays);
		}
		fixes_bulk_end(b);
	}
	b = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_path_prefix_counts"));
	desc = RelationGetDescr(b->rel);
	for (uint32 id = 0; id < px->nnames; id++)
	{
		int			c_repo = fixes_attnum(desc, "repository_id"),
					c_depth = fixes_attnum(desc, "depth"),
					c_prefix = fixes_attnum(desc, "prefix"),
					c_id = fixes_attnum(desc, "prefix_id");

		if ((id & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
		if (only_p != NULL && !only_p[id])
			continue;
		fixes_bulk_row(b, &v, &nl);
		v[c_repo] = Int32GetDatum(ld->repository_id);
		v[c_depth] = Int32GetDatum(px->names[id][0] - '0');
		v[c_prefix] = CStringGetTextDatum(px->names[id] + 1);
		v[c_id] = Int32GetDatum((int32) id);
		nl[c_repo] = nl[c_depth] = nl[c_prefix] = nl[c_id] = false;
		set_counts(v, nl, desc, &cnt[id]);
		fixes_bulk_insert(b, v, nl, 128 + strlen(px->names[id]) + sizeof(double) * cnt[id].ndays);
	}
	fixes_bulk_end(b);

	/* the groups of the commits: those of this load, or all again */
	if (rewrite_p)
	{
		delete_groups(ld, "prefixes");
		write_segment(ld, "prefixes", &gp, 0, n);
	}
	else
		write_segment(ld, "prefixes", &gp, ld->n_old, n);
	if (ld->paths->subsys != NULL)
	{
		if (rewrite_s)
		{
			delete_groups(ld, "subsystems");
			write_segment(ld, "subsystems", &gs, 0, n);
		}
		else
			write_segment(ld, "subsystems", &gs, ld->n_old, n);
	}
	CommandCounterIncrement();
	MemoryContextSwitchTo(old_cxt);
	/* the counts, the groups and their lifetimes */
	MemoryContextDelete(cxt);
	stored_counts_free(&k->sp);
	stored_counts_free(&k->ss);
	pfree(k);
	fixes_load_phase(ld, "per-subsystem and per-prefix counts written");
}
