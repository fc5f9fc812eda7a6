/*
 * load_count.h — the counting module of fixes_load() (load_count.c)
 *
 * Every count the loader stores is computed here, each rule written once,
 * and handed to a writer that only writes it:
 *   per mainline release   fixes_count_releases()  -> ld->counts->stats, ld->counts->fixed
 *                          (load_write_releases.c: fixes_releases,
 *                          fixes_fixed_commits), lifetimes included
 *   per release and key    fixes_count_trailers()  -> load_trailer_counts.c
 *   per group (subsystem,  fixes_count_groups()    -> load_subsystem_counts.c
 *   path prefix)
 *   per stable release     fixes_count_backports(), from the backport lines,
 *                          and fixes_count_stable_row() for each series row
 *                          of fixes_affected, then
 *                          fixes_count_stable_releases()
 *                          (load_stable.c hands them to
 *                          load_write_releases.c: fixes_releases)
 *
 * Adding a per-release count: a field of FixesReleaseStats (load_state.h),
 * its rule here, its column in load_write_releases.c and the SQL.
 */
#ifndef FIXES_LOAD_COUNT_H
#define FIXES_LOAD_COUNT_H

#include "utils/hsearch.h"

#include "count_rules.h"
#include "lifetime_days.h"
#include "load_state.h"

/* per mainline release, and per commit that resolved edges point at */
extern void fixes_count_releases(FixesLoad *ld);

/*
 * The columns of fixes_releases that hold the per-release counts, each with
 * its field of FixesReleaseStats: what the writer writes and what a refresh
 * reads back for the releases it keeps (refresh/previous.c).
 */
typedef struct FixesStatColumn
{
	const char *name;
	Size		offset;			/* in FixesReleaseStats */
	bool		days;			/* a double, NULL when NaN; else an int64 */
	int			version;		/* the SQL version that has it: 10, 11 or 12 */
} FixesStatColumn;

extern const FixesStatColumn fixes_release_stat_columns[];
extern const int fixes_release_nstat_columns;

/*
 * The lifetime of the bug a resolved Fixes edge names, in microseconds;
 * false when a date is missing (percentile_cont skips NULL).
 */
extern bool fixes_edge_lifetime(const FixesLoad *ld, const FixesEdge *e, int64 *usecs);

/* per release and trailer key: a change to one row of fixes_release_trailers */
typedef struct FixesTrailerCount
{
	uint64		key;			/* tag id << 32 | key id */
	int64		commits;
	int64		fixing;
} FixesTrailerCount;

struct FixesTrailerKeys;
extern bool *fixes_count_fixing_commits(FixesLoad *ld, bool before);
extern HTAB *fixes_count_trailers(FixesLoad *ld, struct FixesTrailerKeys *k,
								  const bool *changed, const bool *fixing_before,
								  const bool *fixing_now);

/* per group: the groups of each commit, CSR by commit index */
typedef struct FixesGroups
{
	uint64	   *off;			/* n + 1 */
	uint32	   *ids;
	uint32		n;
	uint32		ngroups;
} FixesGroups;

/* the counts of one group (fixes_subsystem_counts, fixes_path_prefix_counts) */
typedef struct FixesGroupCounts
{
	int64		commits;
	int64		fixing_commits;
	int64		buggy_commits;
	int64		bugs_introduced;
	int64		bugs_fixed;
	double		median;			/* NaN: none */
	const double *days;			/* the lifetimes it is the median of, ascending */
	int64		ndays;
} FixesGroupCounts;

/*
 * What a refresh changes of the lifetimes of the groups
 * (fixes_count_groups_delta()): those of the edges that changed, as stored
 * (drop) and now (add), each sorted by group, then days
 */
typedef struct FixesGroupLifetimes
{
	FixesLifetime *add;
	int64		nadd;
	FixesLifetime *drop;
	int64		ndrop;
} FixesGroupLifetimes;

extern FixesGroupCounts *fixes_count_groups(FixesLoad *ld, const FixesGroups *g,
											const uint32 *anc, int depths);
extern FixesGroupCounts *fixes_count_groups_delta(FixesLoad *ld, const FixesGroups *g,
												  const uint32 *anc, int depths,
												  const FixesGroupCounts *old,
												  uint32 nstored, bool *changed,
												  FixesGroupLifetimes *life);
extern bool fixes_count_group_lifetimes(FixesGroupCounts *cnt, uint32 ngroups,
										const FixesGroupLifetimes *life, uint32 *bad);

/* per stable release k (rank nmain + k + 1): its backported commits */
extern void fixes_count_backports(FixesLoad *ld, const FixesBackportList *bl, int nmain,
								  int64 *backports);

/* what the stable releases' rows of fixes_releases hold (load_write_releases.c) */
typedef struct FixesStableCounts
{
	int			nmain;			/* mainline releases: ranks 1 .. nmain */
	int			n;				/* stable releases: ranks nmain + 1 .. nmain + n */
	const int32 *series;		/* by k = rank - nmain - 1: mainline rank, 0 = none */
	const int64 *backports;		/* by k */
	const int64 *bugs_fixed;
	const int64 *regressions;
	const int64 *known_bugs;
} FixesStableCounts;

extern void fixes_load_write_stable_releases(FixesLoad *ld, const FixesStableCounts *st);

/*
 * The series of the stable releases (load_stable.c's): series s has the
 * stable releases rel[first[s] .. first[s + 1]) (each as k = rank - nmain
 * - 1), in version order; first has n + 1 entries.
 */
typedef struct FixesStableSeries
{
	int			n;
	const int  *first;
	const int  *rel;
} FixesStableSeries;

/*
 * Per stable release: bugs_fixed, regressions_introduced and known_bugs,
 * from the series rows of fixes_affected as load_stable.c finds them, one
 * call of fixes_count_stable_row() each (the rows are streamed into the
 * table, never held); fixes_count_stable_releases() gives the counts.
 */
typedef struct FixesStableCounter FixesStableCounter;

extern FixesStableCounter *fixes_count_stable_begin(const FixesLoad *ld, int nmain, int n,
													const FixesStableSeries *series);
extern void fixes_count_stable_row(FixesStableCounter *c, int series, int32 introduced,
								   int32 fixed);
extern void fixes_count_stable_releases(FixesStableCounter *c, FixesStableCounts *out);

/* the counts of the mainline (fixes_counts_init()) */
typedef struct FixesCounts
{
	FixesReleaseStats *stats;	/* by rank; [0] is the unreleased tail */
	FixesFixedCommit *fixed;	/* the commits resolved edges point at, sorted by index */
	int64		nfixed;
} FixesCounts;

extern void fixes_counts_init(FixesLoad *ld);
extern const FixesFixedCommit *fixes_load_fixed_commit(const FixesLoad *ld, uint32 t);

#endif							/* FIXES_LOAD_COUNT_H */
