/*
 * refresh.h — the refresh: a load that builds on the previous one
 *
 * load.c asks fixes_refresh_decide() what the load is, and runs one
 * sequence for each kind; the phases of src/load that a refresh runs
 * otherwise call the functions below at the points where a refresh
 * differs.  Files (src/README.md has the map):
 *   decide.c      what the load is: nothing changed, full, refresh, or a
 *                 refresh that falls back to a full load
 *   previous.c    the previous load: its row of fixes_repositories, its
 *                 releases, its edges
 *   refs_hash.c   the hash of the refs, and the tags it spares reading
 *   graph_read.c  fixes_graph read back: the previous load's commits
 *   graph_kept.c  the rows of fixes_graph a refresh keeps
 *   old_marks.c   the releases of the old commits, before and now
 *   kept_trailer_counts.c  fixes_release_trailers by difference
 *   kept_maintainers.c     which attributions by MAINTAINERS it keeps
 *   kept_counts.c the counts by difference: the releases a refresh counts
 *                 again, the stored counts of the others
 *   old_ids.c     the ids of the old commits a refresh needs, by probe
 *   old_edges.c   which old edges a refresh reads
 */
#ifndef FIXES_REFRESH_H
#define FIXES_REFRESH_H

#include "load_state.h"
#include "load_releases.h"

/* what a load is (fixes_refresh_decide()) */
typedef enum FixesLoadKind
{
	FIXES_LOAD_FULL,			/* no previous load to build on */
	FIXES_LOAD_UNCHANGED,		/* the previous load's head, tags and settings */
	FIXES_LOAD_REFRESH,			/* the new commits on the previous load's graph */
	FIXES_LOAD_REFRESH_TO_FULL	/* a refresh that found, having read the
								 * history, that it cannot build on it */
} FixesLoadKind;

/* what the driver knows when it asks */
typedef enum FixesLoadMoment
{
	FIXES_DECIDE_START,			/* the previous load's row, the settings: the
								 * kind of reader to start */
	FIXES_DECIDE_HEAD_MOVED,	/* a refresh's reader found another head: the
								 * previous graph is read now */
	FIXES_DECIDE_REFS_READ,		/* the head, the tags, MAINTAINERS */
	FIXES_DECIDE_HISTORY_READ	/* a refresh's walk too */
} FixesLoadMoment;

/* the release rank an old commit had in the previous load, 0 = unreleased */
static inline int32
fixes_old_mark(const FixesLoad *ld, uint32 idx)
{
	if (ld->refresh->old_mark != NULL)
		return ld->refresh->old_mark[idx];
	return (ld->refresh->moved_bits[idx / 8] >> (idx % 8)) & 1 ? 0 : ld->mark[idx];
}

/* decide.c */
extern FixesLoadKind fixes_refresh_decide(FixesLoad *ld, FixesLoadMoment at);
extern bool fixes_refresh_head_unmoved(FixesLoad *ld);
extern void fixes_refresh_read_kept_rows(FixesLoad *ld);

/* previous.c */
extern void fixes_load_read_previous(FixesLoad *ld);
extern void fixes_load_previous_unusable(FixesLoad *ld);
extern void fixes_load_check_stored_keys(FixesLoad *ld);
extern void fixes_load_read_old_releases(FixesLoad *ld);
extern void fixes_load_read_previous_newest(FixesLoad *ld);
extern void fixes_load_read_old_edges(FixesLoad *ld);

/* a range [lo, hi] of commit indexes */
typedef struct FixesIdxRange
{
	uint32		lo;
	uint32		hi;
} FixesIdxRange;

extern bool fixes_load_old_edges_by_range(FixesLoad *ld);
extern void fixes_load_read_old_edges_in(FixesLoad *ld, const FixesIdxRange *ranges, int64 nranges);

/* refs_hash.c: the hash of the refs, and the tags it spares reading */
extern void fixes_load_answer_tags(FixesLoad *ld, struct FixesReader *r);
extern const char *fixes_load_refs_option(FixesLoad *ld, bool compare);
extern void fixes_load_refs_received(FixesLoad *ld, struct FixesReader *r,
									 const WireRefs *refs);
extern void fixes_load_read_tags(FixesLoad *ld);

/* graph_read.c */
extern bool fixes_load_read_graph(FixesLoad *ld, bool sparse);
extern void fixes_load_read_subject_hashes(FixesLoad *ld);
extern void fixes_load_read_parents_rest(FixesLoad *ld);
extern bool fixes_load_graph_covers_scope(FixesLoad *ld);
extern void fixes_load_read_ids(FixesLoad *ld);
extern void fixes_load_read_ids_rows(FixesLoad *ld, int32 lo_row, int32 hi_row);
extern uint32 fixes_load_old_head(FixesLoad *ld);
extern const FixesOid *fixes_refresh_walk_hide(FixesLoad *ld);

/* graph_kept.c */
extern void fixes_refresh_graph_kept(FixesLoad *ld, int32 *first_row, uint32 *first_commit);
extern void fixes_refresh_write_moved_releases(FixesLoad *ld, int32 first);

/* old_marks.c: the releases of the old commits, before and now */
extern void fixes_refresh_releases_appended(FixesLoad *ld);
extern void fixes_refresh_mark(FixesLoad *ld, uint32 *stack);

/* kept_counts.c: the counts by difference */
extern const bool *fixes_count_releases_needed(FixesLoad *ld);
extern void fixes_refresh_kept_counts(FixesLoad *ld, const bool *count);
extern bool *fixes_count_trailers_changed(FixesLoad *ld, const bool *fixing_before,
										  const bool *fixing_now);
extern uint32 fixes_count_old_tag(const FixesLoad *ld, uint32 idx);

/* kept_trailer_counts.c: fixes_release_trailers by difference */
struct FixesTrailerKeys;
extern struct HTAB *fixes_refresh_trailer_counts(FixesLoad *ld, struct FixesTrailerKeys *k,
												 const bool *fixing_now);

/* kept_maintainers.c: the attributions by MAINTAINERS a refresh keeps */
typedef struct FixesReleaseFiles
{
	int			ref_ver;		/* the ref's version of the file */
	const int  *rank_ver;		/* by release rank (0: unreleased): its version */
	bool		any_missing;	/* a release's tree lacks the file */
	int			first_with;		/* the oldest release's rank whose tree has it, 0: none */
	const bool *rank_has;		/* by rank: its tree has the file */
	const bool *rank_read;		/* by rank: its file was read */
} FixesReleaseFiles;

extern bool fixes_refresh_attribute_all(FixesLoad *ld);
extern bool fixes_refresh_release_files_needed(FixesLoad *ld);
extern bool fixes_refresh_can_keep(FixesLoad *ld);
extern bool *fixes_refresh_wanted_releases(FixesLoad *ld);
extern bool fixes_refresh_changed_commits(FixesLoad *ld, const FixesReleaseFiles *ss,
										  uint32 **out, int64 *nout);

/* old_ids.c: the ids of old commits that a refresh needs, by probe */
extern bool fixes_load_ids_may_be_sparse(const FixesLoad *ld);
extern const char *fixes_load_ids_list_option(const FixesLoad *ld);
extern void fixes_load_old_ids(FixesLoad *ld);
extern void fixes_load_fetch_edge_ids(FixesLoad *ld);
extern const FixesOid *fixes_load_oid(FixesLoad *ld, uint32 idx);

/* old_edges.c: which old edges a refresh reads */
extern bool fixes_load_old_edges_some(FixesLoad *ld);
extern void fixes_load_old_edges_every(FixesLoad *ld, const char *why);
extern void fixes_load_old_edges_changeable(FixesLoad *ld);
extern void fixes_load_old_edges_counted(FixesLoad *ld);

#endif							/* FIXES_REFRESH_H */
