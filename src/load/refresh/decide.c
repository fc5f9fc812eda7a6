/*
 * decide.c — what a load is: nothing changed, a full load, a refresh, or a
 * refresh that falls back to a full load
 *
 * load.c asks fixes_refresh_decide() at each point where it learns more
 * (FixesLoadMoment), and runs the sequence of the kind it answers.  Before
 * reading, the previous load's row and the settings say which reader to
 * start; once the head, the tags and MAINTAINERS are read, the load is
 * unchanged, or the previous graph is read back and the load is a refresh
 * or a full one; after a refresh's walk, what only the walk can tell (the
 * previous commits no longer reachable, a release tag off the ref with
 * release_tags 'all') makes it a full load.  The last fall-back, stored
 * state that does not read back (XX001), is load.c's run_load_checked().
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#include "load_files.h"
#include "load_releases.h"
#include "load_state.h"
#include "load_subsystem_counts.h"
#include "refresh.h"
#include "spi_call.h"

/* the head is the previous load's */
bool
fixes_refresh_head_unmoved(FixesLoad *ld)
{
	char		hex[FIXES_OID_HEXSZ + 1];

	fixes_format_oid(hex, &ld->head);
	return ld->prev.head != NULL && strcmp(hex, ld->prev.head) == 0;
}

/*
 * Nothing to do when the head and the tags (and the release pattern) are
 * those of the previous load, which read the whole history.
 */
static bool
unchanged_since_last_load(FixesLoad *ld)
{
	if (!ld->prev.usable || ld->empty || ld->prev.head == NULL)
		return false;
	/* the subsystems are attributed again (load_files.c) */
	if (ld->paths->reattribute)
		return false;
	/* release_tags changed, or its stored value was not valid */
	if (ld->releases->all_changed)
		return false;
	return fixes_refresh_head_unmoved(ld) && ld->tags_hash == ld->prev.tags_hash;
}

/*
 * After the walk: is a release tag's commit outside the graph (the ref does
 * not reach it)?  On a refresh the graph holds the old commits of every
 * release tag (old_ids.c looks them up) and the new commits.
 */
static bool
release_tags_off_ref(FixesLoad *ld)
{
	for (int t = 0; t < ld->releases->ntags; t++)
	{
		if ((t & 0xff) == 0xff)
			CHECK_FOR_INTERRUPTS();
		if (fixes_graph_lookup(ld->graph, &ld->releases->tags[t].commit) == FIXES_NO_IDX &&
			fixes_load_is_release(ld, ld->releases->tags[t].name))
			return true;
	}
	return false;
}

/*
 * The graph of the previous load and its releases, if there is one to
 * build on: once per load (ld->prev.read).
 */
static void
read_previous_graph(FixesLoad *ld)
{
	if (ld->prev.read)
		return;
	ld->prev.read = true;
	/*
	 * release_tags: the first load after the setting changed is a full one;
	 * with 'all', so is a load that finds release tags off the ref (after
	 * the walk, FIXES_DECIDE_HISTORY_READ)
	 */
	if (ld->releases->all_changed)
	{
		fixes_load_phase(ld, "no previous graph (release_tags)");
		return;
	}
	/* without the ids of the old commits when old_ids.c can look them up */
	ld->refresh = fixes_refresh_create(ld);
	if (!fixes_load_read_graph(ld, fixes_load_ids_may_be_sparse(ld)))
		ld->refresh = NULL;
	else
	{
		fixes_load_check_stored_keys(ld);
		fixes_load_read_old_releases(ld);
		/* only the old edges it needs, after the walk (old_edges.c) */
		ld->refresh->edges_some = fixes_load_old_edges_some(ld);
	}
	fixes_load_phase(ld, ld->refresh != NULL ? "graph of the previous load read" : "no previous graph");
}

/* a refresh's state, empty: ld->refresh from the graph's read on */
FixesRefresh *
fixes_refresh_create(FixesLoad *ld)
{
	return MemoryContextAllocZero(ld->cxt, sizeof(FixesRefresh));
}

/*
 * What the load is, from what is known at: see the header comment.
 * FIXES_DECIDE_START answers FULL or REFRESH (a refresh's reader: a
 * previous load that read a head); HEAD_MOVED and REFS_READ read the
 * previous graph (once), REFS_READ answers UNCHANGED first when nothing
 * changed; HISTORY_READ answers REFRESH or REFRESH_TO_FULL.
 */
FixesLoadKind
fixes_refresh_decide(FixesLoad *ld, FixesLoadMoment at)
{
	switch (at)
	{
		case FIXES_DECIDE_START:
			return ld->prev.usable && ld->prev.head != NULL &&
				strlen(ld->prev.head) == FIXES_OID_HEXSZ ? FIXES_LOAD_REFRESH : FIXES_LOAD_FULL;
		case FIXES_DECIDE_REFS_READ:
			if (unchanged_since_last_load(ld))
				return FIXES_LOAD_UNCHANGED;
			/* FALLTHROUGH */
		case FIXES_DECIDE_HEAD_MOVED:
			read_previous_graph(ld);
			return ld->refresh != NULL ? FIXES_LOAD_REFRESH : FIXES_LOAD_FULL;
		case FIXES_DECIDE_HISTORY_READ:
			if (!fixes_load_graph_covers_scope(ld))
			{
				ereport(NOTICE,
						(errmsg("commits loaded before are no longer reachable from \"%s\" in repository \"%s\": loading it in full",
								ld->args.ref, ld->args.path),
						 errdetail("The history was rewritten, or the reference now names another line of history.")));
				return FIXES_LOAD_REFRESH_TO_FULL;
			}

			/*
			 * release_tags 'all': a release tag off the ref makes the
			 * releases of a full load (the entry points of its tag into the
			 * whole history, load_releases.c); the refresh becomes one
			 */
			if (ld->releases->all && release_tags_off_ref(ld))
			{
				elog(DEBUG1, "fixes_load %s: release tags off the ref: loading it in full", ld->args.name);
				return FIXES_LOAD_REFRESH_TO_FULL;
			}
			return FIXES_LOAD_REFRESH;
	}
	pg_unreachable();
}

/*
 * A refresh whose reader walks already: what the previous load left that the
 * new commits do not change (its edges, the subsystems and path prefixes of
 * its commits) is read now, while the reader compares trees and buffers its
 * records, rather than after the walk.
 */
void
fixes_refresh_read_kept_rows(FixesLoad *ld)
{
	if (!ld->refresh->edges_some)
		fixes_load_old_edges_changeable(ld);
	fixes_load_read_kept_groups(ld);
	fixes_load_phase(ld, "edges and groups of the previous load read");
}
