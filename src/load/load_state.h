/*
 * load_state.h — the state of one fixes_load() call, shared by its phases
 *
 * load.c runs the phases below in this order, one file each.  What the
 * load is (nothing changed, full, refresh, a refresh that falls back to
 * full) is decided by refresh/decide.c, which load.c asks at each point
 * where it knows more; it then runs one sequence per kind.  The code only
 * a refresh runs is in refresh/ (refresh/refresh.h has its map), its state
 * in FixesRefresh (refresh/refresh_state.h): ld->refresh, NULL in a full
 * load; where a phase below differs in a refresh, it calls refresh/.
 * Everything a load allocates lives in ld->cxt, the memory context
 * "fixes_load", deleted when the call returns; every SQL statement goes
 * through spi_call.c, which returns to that context.
 *
 * Before reading (load.c: arguments, privileges, the repository's lock):
 *   load_schema.c           what the installed SQL has (ld->has)
 *   refresh/previous.c      the previous load: its row of fixes_repositories
 *                           (ld->prev)
 *   load_overrides.c        the rows of fixes_overrides and
 *                           fixes_backport_overrides
 *   load_stable.c           the stable_branches setting (remembered)
 *   load_files.c            the files and maintainers settings
 * Clearing (load_clear.c): the previous load's rows that this load writes
 *   again, deleted before the history is read (every row of a full load; the
 *   stable scope of a refresh).
 * Reading, from the reader process (reader_proc.c, walk.c):
 *   tags.c                  tags and branches; load_stable.c picks the stable ones;
 *                           refresh/refs_hash.c: none when the head and the
 *                           hash of the refs are the previous load's
 *   load_maintainers.c      the MAINTAINERS file of the ref's tree (those of
 *                           the releases: after the releases, when writing)
 *   refresh/decide.c        what the load is; for a refresh,
 *   refresh/graph_read.c    the commit graph of the previous load, without
 *                           the ids of its commits, with the stored release
 *                           of each and the parents of only the rows that
 *                           hold an unreleased commit; and
 *                           refresh/previous.c its releases
 *   refresh/old_ids.c       a refresh: the ids of the old commits the new ones
 *                           name, by probe, from the reader's list of the
 *                           commits it will send (or every id,
 *                           fixes_load_read_ids())
 *   load_read.c             the walk of the mainline (load_walk.c's loop): each
 *                           new commit into the graph and, through
 *                           load_commit_rows.c, into fixes_commits (the old
 *                           rows go first), with the release the walk can
 *                           tell; the hooks it registers, called for each
 *                           commit in this order: that release, Cc: stable
 *                           (load_walk.c), load_trailers.c and
 *                           load_trailer_keys.c (the raw message),
 *                           load_files.c (its paths to load_subsystem_counts.c
 *                           and load_maintainers.c), the newest date, the
 *                           Fixes and revert lines (load_walk.c: ld->edge_list.edges)
 *   load_releases.c         releases, and the release of every commit: only
 *                           the new and the unreleased ones when the new
 *                           releases come after the old ones (else load.c has
 *                           refresh/graph_read.c read the rest of the parents
 *                           first); refresh/old_marks.c: the old commits whose
 *                           release changed
 * Writing, in the caller's transaction:
 *   load_write_commits.c    the release of the rows that need another one
 *   load_maintainers.c      the subsystems, each commit by its release's
 *                           MAINTAINERS (fixes_commit_files was written
 *                           during the read); which old ones a refresh
 *                           keeps: refresh/kept_maintainers.c
 *   refresh/old_edges.c     a refresh: the edges of the previous load it
 *                           needs (refresh/previous.c reads them)
 *   load_resolve.c          each edge to a commit; load_overrides.c corrects
 *   refresh/old_ids.c       a refresh: the ids of the old targets of the edges
 *                           it writes (fixes_load_fetch_edge_ids())
 *   load_write_edges.c      fixes_edges
 *   load_count.c            the counting module (load_count.h): every count,
 *                           per release (lifetimes included), per commit
 *                           fixed, per trailer key, per group, per stable
 *                           release, handed to the writers (a refresh's
 *                           counts by difference: refresh/kept_counts.c):
 *   load_subsystem_counts.c the groups of each commit, fixes_subsystem_counts
 *                           and fixes_path_prefix_counts
 *   load_trailer_counts.c   fixes_release_trailers (a refresh's by
 *                           difference: refresh/kept_trailer_counts.c)
 *   load_write_releases.c   fixes_releases, fixes_fixed_commits
 *   load_graph.c            fixes_graph, for the next refresh (the rows a
 *                           refresh keeps: refresh/graph_kept.c)
 *   load_analyze.c          ANALYZE of the tables the load changed much
 *   load_stable.c           with stable_branches: the stable scope, a phase
 *                           of its own (its struct StableScope holds its rows,
 *                           edges and backport lines): its walk (load_walk.c,
 *                           hooks Cc: stable, load_backports.c's lines, the
 *                           edges), releases, series, its rows of
 *                           fixes_commits (load_commit_rows.c), its edges
 *                           resolved and written by the helpers of the
 *                           mainline (load_resolve.c, load_write_edges.c),
 *                           backports (load_backports.c: by override and
 *                           subject), fixes_affected; its counts are the
 *                           counting module's (load_count.c: backports, and
 *                           bugs_fixed, regressions_introduced, known_bugs
 *                           from each series row of fixes_affected), which
 *                           it hands to load_write_releases.c
 *   load_write_repository.c the repository's row of fixes_repositories, in
 *                           one UPDATE at the end (load.c registers it first),
 *                           refs_hash included
 *
 * Phases call helpers, never each other: the helpers of the walk are in
 * load_walk.h (the loop, its hooks, the writer of fixes_commits, edge lists
 * and the resolution and writing of a given list of edges).
 *
 * The state below: per-commit facts are flat arrays indexed by the graph's
 * commit index (graph.c), grown by load_state.c (large arrays on huge pages:
 * big_alloc.c); strings live in arenas
 * (arena.c); rows go to the tables through bulk_insert.c.
 */
#ifndef FIXES_LOAD_STATE_H
#define FIXES_LOAD_STATE_H

#include "input_limits.h"

#include "common/hashfn.h"
#include "datatype/timestamp.h"
#include "storage/itemptr.h"
#include "utils/tuplestore.h"

#include "arena.h"
#include "commit_raw.h"
#include "graph.h"
#include "progress.h"
#include "refresh_state.h"
#include "string_hash.h"
#include "table_columns.h"
#include "tags.h"
#include "text_decode.h"
#include "toast_copy.h"

typedef enum FixesEdgeStatus
{
	EDGE_RESOLVED,
	EDGE_AMBIGUOUS,
	EDGE_NOT_FOUND,
	EDGE_IGNORED				/* by a row of fixes_overrides */
} FixesEdgeStatus;

typedef enum FixesEdgeMethod
{
	METHOD_NONE,
	METHOD_HASH,
	METHOD_HASH_SUBJECT,
	METHOD_SUBJECT,
	METHOD_OVERRIDE				/* a row of fixes_overrides */
} FixesEdgeMethod;

/* fixes_edges.kind: what the line says of the commit it names */
typedef enum FixesEdgeKind
{
	KIND_FIXES,					/* Fixes: <id> */
	KIND_REVERT					/* This reverts commit <id> */
} FixesEdgeKind;

/* the resolution of an edge: what fixes_edges stores of it */
typedef struct FixesResolution
{
	uint32		target;			/* FIXES_NO_IDX unless resolved */
	int32		candidates;		/* commits the abbrev matched */
	uint8		status;			/* FixesEdgeStatus */
	uint8		method;			/* FixesEdgeMethod */
} FixesResolution;

/* fixes_edges.status and .method, by FixesEdgeStatus and FixesEdgeMethod */
extern const char *const fixes_edge_status_names[4];
extern const char *const fixes_edge_method_names[5];
extern const char *const fixes_edge_kind_names[2];

static inline bool
fixes_resolution_equal(const FixesResolution *a, const FixesResolution *b)
{
	return a->target == b->target && a->candidates == b->candidates &&
		a->status == b->status && a->method == b->method;
}

typedef struct FixesEdge
{
	uint32		fixing;			/* commit index */
	int32		line;
	FixesResolution now;		/* as resolved by this load */
	FixesResolution before;		/* as stored (old edges only) */
	bool		old;			/* read from fixes_edges, not from a message */
	ItemPointerData tid;		/* old edges: the row read */
	uint8		kind;			/* FixesEdgeKind */
	bool		fixed_at_null;
	TimestampTz fixed_at;		/* the fixing commit's committer date */
	bool		introduced_null;	/* old edges: as stored */
	TimestampTz introduced_at;	/* old edges: the target's committer date, as stored */
	uint8		abbrev_len;
	int32		subj_len;		/* -1: no quoted subject */
	uint32		raw_len;		/* new edges only */
	Size		abbrev_off;		/* in the list's text */
	Size		subj_off;
	Size		raw_off;
} FixesEdge;

/*
 * An edge list of a phase: the read phase's is ld->edge_list (its edges, n,
 * cap and text); the stable phase's its own.  The walk's edge hook
 * (load_walk.c) and a refresh's old edges (refresh/previous.c) append to it
 * through these pointers (fixes_edge_append(), load_state.c).
 */
typedef struct FixesEdgeSink
{
	FixesEdge **edges;
	int64	   *n;
	int64	   *cap;
	FixesArena *text;			/* abbrevs, quoted subjects, raw lines */
} FixesEdgeSink;

/* fixes_backports.method: how a stable commit's upstream was found */
typedef enum FixesBackportMethod
{
	BACKPORT_NONE,				/* not resolved */
	BACKPORT_ID,				/* the line's id, by unique prefix */
	BACKPORT_SUBJECT,			/* no line resolved: the one mainline commit
								 * with the same subject (line 0) */
	BACKPORT_OVERRIDE			/* a row of fixes_backport_overrides (line 0) */
} FixesBackportMethod;

extern const char *const fixes_backport_method_names[4];

/* a backport line of a stable commit (fixes_backports) */
typedef struct FixesBackportLine
{
	uint32		commit;			/* the stable commit's index */
	int32		line;			/* 0: a row of no line (subject, override) */
	uint32		upstream;		/* FIXES_NO_IDX unless resolved */
	uint8		status;			/* FixesEdgeStatus */
	uint8		method;			/* FixesBackportMethod */
	bool		superseded;		/* an override of its commit says otherwise */
	uint8		abbrev_len;
	uint32		raw_len;
	Size		abbrev_off;		/* in the list's text, lower-cased */
	Size		raw_off;
} FixesBackportLine;

/* the backport lines of the stable scope (load_stable.c, load_backports.c) */
typedef struct FixesBackportList
{
	FixesBackportLine *lines;
	int64		n;
	int64		cap;
	FixesArena	text;			/* their abbrevs and raw lines */
} FixesBackportList;

/* the counts of fixes_per_release for one release */
typedef struct FixesReleaseStats
{
	int64		fixing_commits;
	int64		bugs_fixed;
	int64		commits_fixed;
	int64		bugs_introduced;
	int64		buggy_commits_introduced;
	int64		fixed_same_release;
	/* 1.1 */
	int64		tagged_commits;
	int64		fixing_earlier_commits;
	int64		reverts;
	int64		reverted_introduced;
	/* lifetimes in days (percentile_cont); NaN: none */
	double		fixed_median_days;
	double		fixed_p90_days;
	double		introduced_median_days;
	/* 1.2 */
	int64		stable_cc_commits;	/* commits with a Cc: stable line */
	int64		stable_cc_fixing_commits;	/* ... and a resolved Fixes edge */
	int64		found_within_365d;	/* edges of bugs_introduced with a lifetime */
	int64		found_within_730d;	/* of at most 365 (730) days */
} FixesReleaseStats;

/* a commit that resolved Fixes edges point at (load_count.c) */
typedef struct FixesFixedCommit
{
	uint32		commit;			/* its graph index */
	int32		fixes;			/* the resolved edges pointing at it */
	bool		dated;			/* first and last are set: a fixing commit has a date */
	TimestampTz first;			/* the earliest and latest fixing commits' dates */
	TimestampTz last;
} FixesFixedCommit;

/*
 * What the installed SQL of the extension has (load_schema.c decides it
 * once, from the version ALTER EXTENSION fixes UPDATE last reached): a
 * database whose SQL is older is loaded as its version loaded it, and the
 * phases write only the tables and columns it has.  A table or column an
 * administrator dropped is not looked for.
 */
typedef struct FixesSchema
{
	int			version;		/* major * 10 + minor; only for tables of columns
								 * that name the version that has each
								 * (fixes_release_stat_columns) */
	bool		stable_scope;	/* fixes_commits.mainline, fixes_releases.mainline
								 * and .series, fixes_backports, fixes_affected*,
								 * fixes_repositories.stable_branches */
	bool		file_tables;	/* fixes_commit_files, the subsystem and path
								 * prefix tables, fixes_commits.files, .added,
								 * .deleted, fixes_repositories.files,
								 * .maintainers, .maintainers_hash, .missing_* */
	bool		trailer_tables; /* fixes_trailers, fixes_release_trailers */
	bool		overrides;		/* fixes_overrides */
	bool		revert_edges;	/* fixes_edges.kind and .introduced_at */
	bool		release_lifetimes;	/* the lifetime columns of fixes_releases */
	bool		release_cc_counts;	/* fixes_releases holds every count
									 * (stable_cc_commits, found_within_*) */
	bool		commit_stable_cc;	/* fixes_commits.stable_cc */
	bool		backport_overrides; /* fixes_backport_overrides */
	bool		backport_method;	/* fixes_backports.method */
	bool		graph_releases; /* fixes_graph.stable_cc and .releases */
	bool		maintainers_by_release; /* each commit's subsystems by its
										 * release's MAINTAINERS (and the
										 * hash that says so) */
	bool		refs_hash;		/* fixes_repositories.refs_hash */
	bool		last_committed_at;	/* fixes_repositories.last_committed_at */
	bool		release_tags;	/* fixes_repositories.release_tags */
} FixesSchema;

/* a release of the previous load, as fixes_releases holds it */
typedef struct FixesOldRelease
{
	char	   *tag;
	uint32		commit;
	bool		id_valid;		/* id is the commit's (refresh/old_ids.c) */
	FixesOid	id;
} FixesOldRelease;

typedef struct FixesStableHeads FixesStableHeads;

/* ---- the state every phase shares (load_state.h), embedded in FixesLoad ---- */

/*
 * fixes_load()'s arguments, as given (stable_re: as load_stable.c settles
 * it).  A full load after a refresh whose stored state did not read back
 * starts from a copy of them (copy_arguments() in load.c).
 */
typedef struct FixesLoadArgs
{
	char	   *path;
	char	   *ref;
	char	   *pattern;		/* NULL: every tag but pre-releases */
	char	   *name;
	char	   *stable_re;		/* stable_branches; NULL: none */
	bool		stable_keep;	/* stable_branches is FIXES_STABLE_KEEP */
	bool		files_set;		/* files given */
	bool		files;
	bool		maintainers_set;	/* maintainers given */
	char	   *maintainers;
	char	   *release_tags;	/* release_tags given, NULL: keep */
} FixesLoadArgs;

/* when the phase now ending started (fixes_load_phase(), load_state.c) */
typedef struct FixesPhaseClock
{
	TimestampTz start;			/* wall clock */
	double		cpu;			/* the backend's CPU seconds */
} FixesPhaseClock;

/*
 * Facts of each commit, by graph index, grown together by
 * fixes_load_ensure_room() (load_state.c) to cap commits.
 */
typedef struct FixesCommitArrays
{
	uint32		cap;			/* room in each array */
	uint64	   *subj_hash;		/* hash of the subject */
	TimestampTz *committed_at;	/* new commits only */
	bool	   *committed_null;
	bool	   *stable_cc;		/* a Cc: stable line (stable_cc.h); old
								 * commits' from fixes_graph */
} FixesCommitArrays;

/*
 * The mainline's edge list: the Fixes and revert lines the read phase
 * finds (and a refresh's old edges), grown by load_state.c.
 */
typedef struct FixesEdgeList
{
	FixesEdge  *edges;
	int64		n;
	int64		cap;
	FixesArena	text;			/* abbrevs, quoted subjects, raw lines */
} FixesEdgeList;

/*
 * A refresh's reader, started before the load knows it is one: it walks the
 * new commits ahead while the backend reads the previous load back
 * (read_repository() in load.c), and fixes_load_read() takes it over.
 */
typedef struct FixesAhead
{
	struct FixesReader *reader; /* NULL: none; stopped by read_repository() */
	bool		files;			/* it sends each commit's files */
} FixesAhead;

/* the newest committer date of the new mainline commits (load_walk.c) */
typedef struct FixesNewest
{
	bool		set;			/* a new commit has a date */
	TimestampTz at;
} FixesNewest;

/* what fixes_load() returns of the mainline's Fixes edges (load_resolve.c) */
typedef struct FixesEdgeTotals
{
	int64		edges;			/* Fixes: lines, less those ignored */
	int64		resolved;
} FixesEdgeTotals;

/* ---- the state a phase owns: declared in its header, allocated by its init ---- */
struct FixesReleases;			/* load_releases.h: fixes_releases_init() */
struct FixesEdgeOverrides;		/* load_overrides.h: fixes_overrides_init() */
struct FixesBackportOverrides;	/* load_overrides.h: fixes_overrides_init() */
struct FixesStableBranches;		/* load_stable.h: fixes_stable_branches_init() */
struct FixesCounts;				/* load_count.h: fixes_counts_init() */
struct FixesPaths;				/* load_files.h: fixes_paths_init() */

typedef struct FixesLoad
{
	FixesLoadArgs args;
	Oid			nsp;			/* the extension's schema */
	const char *schema;			/* its name, quoted for SQL */
	FixesSchema has;			/* what the installed SQL has (load_schema.c) */
	int32		repository_id;
	bool		known;			/* the name was loaded before */
	bool		stored_bad;		/* fixes_load_stored_bad() raised its error */

	FixesGraph *graph;
	FixesDecoder decoder;
	MemoryContext cxt;			/* everything of the load */
	FixesPhaseClock phase_clock;	/* for the DEBUG1 timings of each phase */
	FixesProgress progress;		/* NOTICEs (fixes.progress) and the process title */
	bool		empty;			/* the repository has no commits */
	FixesOid		head;

	/* the previous load and the refresh (refresh/refresh_state.h) */
	FixesPrevious prev;			/* its row of fixes_repositories */
	FixesRefs	refs;			/* the hash of the refs the reader read */
	FixesRefresh *refresh;		/* a refresh's own state; NULL: a full load */
	bool		unchanged;		/* same head, same tags: nothing to do */
	int64		tags_hash;		/* of this load's tags and release pattern */
	uint32		n_old;			/* commits 0 .. n_old - 1 were loaded before
								 * (0 but in a refresh) */

	/* phase read (load_read.c, load_walk.c) */
	struct FixesWalk *walk;		/* freed by the caller in PG_FINALLY */
	FixesAhead	ahead;			/* a refresh's reader, walking already */
	FixesCommitArrays by_commit;
	FixesNewest newest;			/* the newest committer date of the new mainline commits */
	int64		missing_parents;	/* beyond a shallow clone's boundary, of every walk */
	FixesEdgeList edge_list;
	struct FixesTrailerKeys *trailer_keys;	/* of new commits (load_trailer_keys.c) */
	uint32		n_mainline;		/* commits 0 .. n_mainline - 1 are mainline */
	int32	   *mark;			/* by index: release rank, 0 = unreleased
								 * (load_releases.c) */

	/* the state the phases own (declared in their headers, above) */
	struct FixesEdgeOverrides *edge_overrides;
	struct FixesBackportOverrides *backport_overrides;
	struct FixesStableBranches *stable_branches;
	struct FixesReleases *releases;

	FixesEdgeTotals totals;		/* what fixes_load() returns of the Fixes edges */

	struct FixesCounts *counts;
	struct FixesPaths *paths;	/* files and subsystems */
	FixesLimitHits limit_hits;	/* input_limits.c: the commits past each limit */
} FixesLoad;

/* the hash by which subjects are compared before their text is */
static inline uint64
fixes_subject_hash(const char *s, Size len)
{
	return hash_bytes_extended((const unsigned char *) s, (int) len, 0);
}

/*
 * The first of n elements of stride bytes, sorted by a uint64 subject hash
 * that is each element's first member, whose hash is not below h (n when
 * none): where the lines that quote a subject of hash h start.
 */
static inline int64
fixes_subject_lower_bound(const void *base, int64 n, Size stride, uint64 h)
{
	int64		a = 0;
	int64		b = n;

	while (a < b)
	{
		int64		m = a + (b - a) / 2;
		uint64		v;

		memcpy(&v, (const char *) base + m * stride, sizeof(v));
		if (v < h)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

extern void fixes_load_phase(FixesLoad *ld, const char *done);
extern void fixes_load_stored_bad(FixesLoad *ld, const char *table, const char *fmt,...)
			pg_attribute_printf(3, 4) pg_attribute_noreturn();
extern uint32 fixes_load_stored_idx(FixesLoad *ld, int64 v, int64 n, const char *table,
									const char *column);
extern double fixes_load_stored_float(FixesLoad *ld, double v, const char *table,
									  const char *column);
extern void fixes_load_ensure_room(FixesLoad *ld, uint32 idx);
extern void fixes_load_marks_alloc(FixesLoad *ld);
extern void fixes_load_marks_grow(FixesLoad *ld);
extern void fixes_load_start_full(FixesLoad *ld);
extern FixesEdge *fixes_edge_append(MemoryContext cxt, FixesEdgeSink *sink);
extern FixesEdge *fixes_load_add_edge(FixesLoad *ld);
extern void fixes_load_reserve_edges(FixesLoad *ld, int64 n);
extern void fixes_load_free_edges(FixesLoad *ld);
extern int	fixes_uint32_cmp(const void *a, const void *b);
extern int	fixes_uint64_cmp(const void *a, const void *b);
extern void fixes_sort_uint64(uint64 *v, int64 n);

extern void fixes_load_write_graph(FixesLoad *ld, int32 first, uint32 from);

#endif							/* FIXES_LOAD_STATE_H */
