/*
 * load_releases.c — fixes_load(): releases and the release of each commit
 *
 * A release is a tag whose commit is in scope and whose name matches the
 * release pattern (a PostgreSQL regular expression); without a pattern,
 * every tag but pre-releases, i.e. names matching (rc|pre|alpha|beta|dev)[0-9]*$
 * case-insensitively.  Releases are in version order (the tags already
 * are); the release of a commit is the first release whose commit is it or
 * has it as an ancestor (see release_marking.c).
 *
 * release_tags: with 'ref' (the default) the releases are
 * the tags whose commit the ref reaches, as above.  With 'all', every tag
 * the pattern takes counts, wherever it sits: a project that tags its
 * releases on release branches (Open vSwitch's v3.5.0 on branch-3.5) has
 * them off the ref.  A commit still belongs to the first release, in
 * version order, whose tag reaches it (`git tag --contains`); what a tag off
 * the ref reaches of the ref's history is what its entry points reach, the
 * commits of the history that the commits outside it have as parents
 * (reader/reach.c finds them, each outside commit read once, and gives each
 * entry point only to the first tag that reaches it), so such a release
 * starts its marking at several commits.  A tag off the ref that is the
 * first to reach no commit (v3.5.1, after v3.5.0 on the same branch) is no
 * release of the mainline.  A refresh with 'all' that finds a release tag
 * off the ref becomes a full load (load.c); one that finds none is a
 * refresh as with 'ref'.  With 'ref', a full load where most commits are unreleased and
 * tags off the ref would release some says so in a NOTICE.
 */
#include "postgres.h"

#include "catalog/pg_collation.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"

#include "load_releases.h"
#include "load_stable.h"
#include "load_state.h"
#include "refresh.h"
#include "reach.h"
#include "release_marking.h"
#include "spi_call.h"

#define PRERELEASE_PATTERN "(rc|pre|alpha|beta|dev)[0-9]*$"

bool
fixes_load_is_release(const FixesLoad *ld, const char *name)
{
	Datum		tag = CStringGetTextDatum(name);

	if (ld->args.pattern != NULL)
		return DatumGetBool(DirectFunctionCall2Coll(textregexeq, C_COLLATION_OID, tag,
													CStringGetTextDatum(ld->args.pattern)));
	return !DatumGetBool(DirectFunctionCall2Coll(texticregexeq, C_COLLATION_OID, tag,
												 CStringGetTextDatum(PRERELEASE_PATTERN)));
}

/*
 * release_tags: 'ref' or 'all', or NULL to keep the repository's setting
 * ('ref' for a new one); remembered in fixes_repositories.release_tags like
 * stable_branches, with a NOTICE when it changes.  A database before 1.3
 * has neither the argument nor the column: 'ref'.  A stored value that is
 * neither (a row an administrator wrote) is taken as 'ref', with a NOTICE,
 * and the load is a full one.
 */
void
fixes_load_release_tags_setting(FixesLoad *ld, const char *arg)
{
	char	   *old = NULL;
	bool		old_all = false;

	if (arg != NULL && strcmp(arg, "ref") != 0 && strcmp(arg, "all") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("release_tags must be 'ref' or 'all', not \"%s\"", arg),
				 errhint("'ref': the tags the ref reaches are the releases; 'all': every release tag of the repository, for projects that tag their releases on release branches.")));
	ld->releases->all = false;
	ld->releases->all_changed = false;
	if (!ld->has.release_tags)
		return;
	if (ld->known)
	{
		char	   *sql = psprintf("SELECT release_tags FROM ONLY %s.fixes_repositories "
								   "WHERE repository_id = $1", ld->schema);
		Oid			argtypes[1] = {INT4OID};
		Datum		args[1] = {Int32GetDatum(ld->repository_id)};

		if (fixes_spi_execute(sql, 1, argtypes, args, NULL, 1, SPI_OK_SELECT) == 1)
		{
			char	   *v = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

			old = v ? MemoryContextStrdup(ld->cxt, v) : NULL;
		}
		SPI_freetuptable(SPI_tuptable);
		if (old != NULL && strcmp(old, "all") == 0)
			old_all = true;
		else if (old == NULL || strcmp(old, "ref") != 0)
		{
			ereport(NOTICE,
					(errmsg("the stored release_tags of repository \"%s\" is not valid: loading it in full with 'ref'",
							ld->args.name),
					 errdetail("fixes_repositories.release_tags holds \"%s\"; it must be 'ref' or 'all'.",
							   old ? old : "NULL")));
			ld->releases->all_changed = true;
		}
	}
	ld->releases->all = arg != NULL ? strcmp(arg, "all") == 0 : old_all;
	if (ld->known && old != NULL && !ld->releases->all_changed && ld->releases->all != old_all)
	{
		ld->releases->all_changed = true;
		ereport(NOTICE,
				(errmsg("the release tags of repository \"%s\" change: loading it in full", ld->args.name),
				 errdetail("release_tags was '%s' and is now '%s'.", old_all ? "all" : "ref",
						   ld->releases->all ? "all" : "ref")));
	}
}

/* Fail early, before any reading, on a pattern that does not compile. */
void
fixes_load_check_pattern(FixesLoad *ld)
{
	(void) fixes_load_is_release(ld, "");
}

/*
 * The new commits whose row the walk wrote with another release than the
 * whole graph gives them (load_read.c: releases->walked holds -1 - what it
 * wrote): across clock skew, or commits of the same second.
 */
static void
find_corrected(FixesLoad *ld)
{
	ld->releases->corrected = NULL;
	ld->releases->ncorrected = 0;
	if (ld->releases->walked == NULL)
		return;
	for (uint32 i = ld->n_old; i < ld->graph->n; i++)
	{
		int32		now = ld->mark[i] == 0 ? 0 : ld->releases->tag_of[ld->mark[i] - 1] + 1;

		if ((i & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (i - ld->n_old < ld->releases->walked_cap &&
			ld->releases->walked[i - ld->n_old] == -1 - now)
			continue;
		if (ld->releases->corrected == NULL)
			ld->releases->corrected = fixes_palloc_big(sizeof(uint32) * (ld->graph->n - ld->n_old),
											 MCXT_ALLOC_HUGE);
		ld->releases->corrected[ld->releases->ncorrected++] = i;
	}
	if (ld->releases->ncorrected > 0)
		elog(DEBUG1, "fixes_load %s: %lld commits were walked before a release reached them",
			 ld->args.name, (long long) ld->releases->ncorrected);
}

/* the entry points of the release tags off the ref (release_tags 'all') */
typedef struct OffRef
{
	int		   *head_of;		/* by tag: its index among the heads, -1: none */
	FixesOid   *heads;			/* the commits of the release tags off the ref */
	int			nheads;
	uint32	   *first;			/* by head: its entry points are */
	uint32	   *count;			/* entries[first .. first + count) */
	uint32	   *entries;		/* commit indexes, in the order of the heads */
	int64		nentries;
	int64		cap;
	FixesGraph *graph;
	int64		unknown;		/* ids sent that the graph does not hold */
} OffRef;

static void
take_entries(void *arg, uint32 head, const FixesOid *ids, uint32 n)
{
	OffRef	   *o = arg;

	if (o->count[head] == 0)
		o->first[head] = (uint32) o->nentries;
	else if (o->first[head] + o->count[head] != o->nentries)
		elog(ERROR, "the entry points of a release tag came apart");
	for (uint32 i = 0; i < n; i++)
	{
		uint32		idx = fixes_graph_lookup(o->graph, &ids[i]);

		if ((i & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		if (idx == FIXES_NO_IDX)
		{
			o->unknown++;
			continue;
		}
		if (o->nentries == o->cap)
		{
			o->cap = Max(o->cap * 2, 1024);
			o->entries = repalloc_huge(o->entries, sizeof(uint32) * o->cap);
		}
		o->entries[o->nentries++] = idx;
		o->count[head]++;
	}
}

/*
 * The release tags (those the pattern takes) whose commit the graph does
 * not hold, in version order, and the entry points of each into the
 * graph's history, from the reader (reach.c).  The graph holds every id (a
 * full load).  Nothing is started when every release tag is on the ref.
 */
static void
off_ref_entries(FixesLoad *ld, OffRef *o)
{
	FixesGraph *g = ld->graph;

	o->graph = g;
	o->head_of = palloc(sizeof(int) * Max(ld->releases->ntags, 1));
	o->heads = palloc(sizeof(FixesOid) * Max(ld->releases->ntags, 1));
	for (int t = 0; t < ld->releases->ntags; t++)
	{
		o->head_of[t] = -1;
		if ((t & 0xff) == 0xff)
			CHECK_FOR_INTERRUPTS();
		if (fixes_graph_lookup(g, &ld->releases->tags[t].commit) != FIXES_NO_IDX ||
			!fixes_load_is_release(ld, ld->releases->tags[t].name))
			continue;
		o->head_of[t] = o->nheads;
		o->heads[o->nheads++] = ld->releases->tags[t].commit;
	}
	if (o->nheads == 0 || g->n == 0)
	{
		o->head_of = NULL;
		o->nheads = 0;
		return;
	}
	if (g->sparse_below > 0)
		elog(ERROR, "the graph of repository \"%s\" lacks ids to send", ld->args.path);
	o->first = palloc0(sizeof(uint32) * o->nheads);
	o->count = palloc0(sizeof(uint32) * o->nheads);
	o->cap = 1024;
	o->entries = palloc(sizeof(uint32) * o->cap);
	fixes_reach_entries(ld->args.path, o->heads, (uint32) o->nheads, g->oids, g->n, false, take_entries, o);
	if (o->unknown > 0)
		elog(ERROR, "the reader of repository \"%s\" named %lld entry points the graph does not hold",
			 ld->args.path, (long long) o->unknown);
	elog(DEBUG1, "fixes_load %s: %d release tags off the ref, %lld entry points",
		 ld->args.name, o->nheads, (long long) o->nentries);
}

/*
 * The releases: the tags in scope that the pattern takes, in version order.
 * On a refresh, whether they only add to the old ones
 * (ld->refresh->stored.appended): every old release is still one, at the same
 * commit, and every new one comes after them.  Then an old commit keeps its
 * release, or gains one if it had none, and only the new commits and the
 * unreleased ones are marked; otherwise every commit is, through the
 * parents of every old commit (fixes_load_read_parents_rest()).
 */
void
fixes_load_find_releases(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;
	OffRef		off = {0};

	ld->releases->tag_of = palloc(sizeof(int) * Max(ld->releases->ntags, 1));
	ld->releases->commit = palloc(sizeof(uint32) * Max(ld->releases->ntags, 1));
	ld->releases->size = palloc0(sizeof(int64) * Max(ld->releases->ntags, 1));
	ld->releases->n = 0;
	ld->releases->entry_start = NULL;
	ld->releases->entries = NULL;
	ld->releases->off_ref = NULL;
	/* 'all': where the release tags off the ref enter its history */
	if (ld->releases->all && ld->refresh == NULL)
		off_ref_entries(ld, &off);
	if (off.nentries > 0)
	{
		ld->releases->entry_start = palloc(sizeof(uint32) * (ld->releases->ntags + 1));
		ld->releases->entries = MemoryContextAllocHuge(CurrentMemoryContext,
													 sizeof(uint32) * (off.nentries + ld->releases->ntags));
		ld->releases->off_ref = palloc0(sizeof(bool) * Max(ld->releases->ntags, 1));
		ld->releases->entry_start[0] = 0;
	}
	for (int t = 0; t < ld->releases->ntags; t++)
	{
		uint32		idx = fixes_graph_lookup(g, &ld->releases->tags[t].commit);
		int			h = off.head_of != NULL ? off.head_of[t] : -1;

		if (idx == FIXES_NO_IDX && (h < 0 || off.count[h] == 0))
			continue;
		if (!fixes_load_is_release(ld, ld->releases->tags[t].name))
			continue;
		ld->releases->tag_of[ld->releases->n] = t;
		if (ld->releases->entry_start != NULL)
		{
			uint32		at = ld->releases->entry_start[ld->releases->n];

			if (idx != FIXES_NO_IDX)
				ld->releases->entries[at++] = idx;
			else
			{
				memcpy(ld->releases->entries + at, off.entries + off.first[h],
					   sizeof(uint32) * off.count[h]);
				at += off.count[h];
				ld->releases->off_ref[ld->releases->n] = true;
				/* until the marking tells which of them it marks */
				idx = off.entries[off.first[h]];
			}
			ld->releases->entry_start[ld->releases->n + 1] = at;
		}
		ld->releases->commit[ld->releases->n] = idx;
		ld->releases->n++;
	}
	ld->releases->name = palloc0(sizeof(Datum) * (ld->releases->n + 1));
	for (int r = 0; r < ld->releases->n; r++)
		ld->releases->name[r + 1] = CStringGetTextDatum(ld->releases->tags[ld->releases->tag_of[r]].name);

	if (ld->refresh != NULL)
		fixes_refresh_releases_appended(ld);
}

/*
 * release_tags 'all', after the marking: a release tag off the ref that
 * marked no commit (another release reached all it reaches first) is no
 * release of the mainline, and goes; the others keep their ranks in
 * order.  releases->commit of one off the ref becomes an entry point it
 * marked.
 */
static void
keep_first_reaching(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;
	int32	   *new_rank = palloc0(sizeof(int32) * (ld->releases->n + 1));
	int			kept = 0;

	for (int r = 0; r < ld->releases->n; r++)
	{
		if (!ld->releases->off_ref[r])
		{
			new_rank[r + 1] = ++kept;
			continue;
		}
		for (uint32 k = ld->releases->entry_start[r]; k < ld->releases->entry_start[r + 1]; k++)
			if (ld->mark[ld->releases->entries[k]] == r + 1)
			{
				ld->releases->commit[r] = ld->releases->entries[k];
				new_rank[r + 1] = ++kept;
				break;
			}
	}
	if (kept < ld->releases->n)
	{
		for (uint32 i = 0; i < g->n; i++)
		{
			if ((i & 0xffff) == 0xffff)
				CHECK_FOR_INTERRUPTS();
			ld->mark[i] = new_rank[ld->mark[i]];
		}
		for (int r = 0; r < ld->releases->n; r++)
		{
			int			to = new_rank[r + 1] - 1;
			uint32		from_start = ld->releases->entry_start[r];
			uint32		from_end = ld->releases->entry_start[r + 1];

			if (to < 0)
				continue;
			ld->releases->tag_of[to] = ld->releases->tag_of[r];
			ld->releases->commit[to] = ld->releases->commit[r];
			ld->releases->size[to] = ld->releases->size[r];
			ld->releases->off_ref[to] = ld->releases->off_ref[r];
			/* the entries move down with their release (to <= r) */
			memmove(ld->releases->entries + ld->releases->entry_start[to], ld->releases->entries + from_start,
					sizeof(uint32) * (from_end - from_start));
			ld->releases->entry_start[to + 1] = ld->releases->entry_start[to] + (from_end - from_start);
		}
		elog(DEBUG1, "fixes_load %s: %d release tags off the ref reach no commit first",
			 ld->args.name, ld->releases->n - kept);
		ld->releases->n = kept;
		for (int r = 0; r < ld->releases->n; r++)
			ld->releases->name[r + 1] = CStringGetTextDatum(ld->releases->tags[ld->releases->tag_of[r]].name);
	}
	pfree(new_rank);
}

/* an unreleased commit reachable from an entry point (say_off_ref()) */
typedef struct Unreleased
{
	FixesLoad  *ld;
	bool	   *seen;
	uint32	   *stack;
	int64		count;
	int			first_tag;		/* the first tag that releases some, -1: none */
	uint32		head_tag_base;
	int		   *tag_of_head;
} Unreleased;

static void
count_unreleased(void *arg, uint32 head, const FixesOid *ids, uint32 n)
{
	Unreleased *u = arg;
	FixesGraph *g = u->ld->graph;

	for (uint32 i = 0; i < n; i++)
	{
		uint32		idx = fixes_graph_lookup(g, &ids[i]);
		uint32		top = 0;

		CHECK_FOR_INTERRUPTS();
		if (idx == FIXES_NO_IDX || u->seen[idx] || u->ld->mark[idx] != 0)
			continue;
		if (u->first_tag < 0)
			u->first_tag = u->tag_of_head[head];
		u->seen[idx] = true;
		u->stack[top++] = idx;
		while (top > 0)
		{
			uint32		c = u->stack[--top];

			u->count++;
			if ((u->count & 0xffff) == 0)
				CHECK_FOR_INTERRUPTS();
			for (uint32 p = g->par_start[c]; p < g->par_end[c]; p++)
			{
				uint32		q = g->parents[p];

				/* the ancestors of a released commit are released */
				if (!u->seen[q] && u->ld->mark[q] == 0)
				{
					u->seen[q] = true;
					u->stack[top++] = q;
				}
			}
		}
	}
}

/*
 * release_tags 'ref', a full load: when more than half of the commits are
 * unreleased and release tags off the ref would release some of them, a
 * NOTICE says how many, and how to count those tags (a project that tags
 * its releases on its release branches would otherwise see most of its
 * commits unreleased, and nothing would say why).
 */
static void
say_off_ref(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;
	int64		unreleased = 0;
	int			nheads = 0;
	FixesOid   *heads;
	Unreleased	u = {0};

	if (g->n == 0 || g->sparse_below > 0)
		return;
	for (uint32 i = 0; i < g->n; i++)
		unreleased += ld->mark[i] == 0;
	if (unreleased * 2 <= (int64) g->n)
		return;
	heads = palloc(sizeof(FixesOid) * Max(ld->releases->ntags, 1));
	u.tag_of_head = palloc(sizeof(int) * Max(ld->releases->ntags, 1));
	for (int t = 0; t < ld->releases->ntags; t++)
	{
		if ((t & 0xff) == 0xff)
			CHECK_FOR_INTERRUPTS();
		if (fixes_graph_lookup(g, &ld->releases->tags[t].commit) != FIXES_NO_IDX ||
			!fixes_load_is_release(ld, ld->releases->tags[t].name))
			continue;
		u.tag_of_head[nheads] = t;
		heads[nheads++] = ld->releases->tags[t].commit;
	}
	if (nheads == 0)
		return;
	u.ld = ld;
	u.first_tag = -1;
	u.seen = fixes_palloc_big(sizeof(bool) * g->n, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	u.stack = fixes_palloc_big(sizeof(uint32) * g->n, MCXT_ALLOC_HUGE);
	fixes_reach_entries(ld->args.path, heads, (uint32) nheads, g->oids, g->n, true, count_unreleased, &u);
	if (u.count > 0)
		ereport(NOTICE,
				(errmsg("%lld of the %lld commits of repository \"%s\" are unreleased, but release tags that \"%s\" does not reach would release %lld of them",
						(long long) unreleased, (long long) g->n, ld->args.path, ld->args.ref,
						(long long) u.count),
				 errdetail("%d release tags are off the ref, such as \"%s\": the project tags its releases on release branches.",
						   nheads, ld->releases->tags[u.first_tag].name),
				 errhint("Load it with release_tags => 'all' to count every release tag of the repository.")));
	pfree(u.stack);
	pfree(u.seen);
}

/*
 * The release of every commit, and on a refresh the old commits whose
 * release changed.  When the releases only add to the old ones, the old
 * commits start with their stored releases, at which the marking stops:
 * it walks the new commits and the unreleased old ones only.
 */
void
fixes_load_releases(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;
	uint32	   *stack;

	stack = fixes_palloc_big(sizeof(uint32) * Max(g->n, 1), MCXT_ALLOC_HUGE);
	if (ld->refresh != NULL)
		fixes_refresh_mark(ld, stack);
	else
	{
		fixes_load_marks_alloc(ld);
		if (ld->releases->entry_start != NULL)
		{
			/* release_tags 'all': releases off the ref */
			fixes_mark_releases_from(g->n, g->par_start, g->par_end, g->parents,
									 ld->releases->entries, ld->releases->entry_start,
									 ld->releases->n, ld->mark, stack);
		}
		else
			fixes_mark_releases(g->n, g->par_start, g->par_end, g->parents,
								ld->releases->commit, ld->releases->n, ld->mark, stack);
	}
	pfree(stack);

	for (uint32 i = 0; i < g->n; i++)
		if (ld->mark[i] > 0)
			ld->releases->size[ld->mark[i] - 1]++;
	if (ld->releases->entry_start != NULL)
		keep_first_reaching(ld);
	find_corrected(ld);
	if (!ld->releases->all && ld->refresh == NULL)
		say_off_ref(ld);

	if (ld->releases->n == 0 && g->n > 0)
		ereport(NOTICE,
				(errmsg("no tag of repository \"%s\" is a release: every commit is unreleased",
						ld->args.path),
				 ld->args.pattern ?
				 errdetail("No tag reachable from \"%s\" matches the release pattern \"%s\".",
						   ld->args.ref, ld->args.pattern) :
				 errdetail("No tag reachable from \"%s\" other than pre-releases was found.",
						   ld->args.ref)));
}

/*
 * A hash of what decides the releases besides the commits: every release
 * tag (name, commit, and whether annotated and its time: every field a
 * release row takes from it; the reader peels no other tag,
 * fixes_load_answer_tags()) and the release pattern; with stable branches, also the
 * expression and the matching branches (name and commit).  The same head and the same hash
 * mean a load would change nothing.
 */
int64
fixes_tags_hash(FixesLoad *ld)
{
	uint64		h = hash_bytes_extended((const unsigned char *) (ld->args.pattern ? ld->args.pattern : ""),
										ld->args.pattern ? (int) strlen(ld->args.pattern) : 0,
										ld->args.pattern ? 1 : 2);

	for (int t = 0; t < ld->releases->ntags; t++)
	{
		if (!fixes_load_is_release(ld, ld->releases->tags[t].name))
			continue;
		h = hash_bytes_extended((const unsigned char *) ld->releases->tags[t].name,
								(int) strlen(ld->releases->tags[t].name), h);
		h = hash_bytes_extended(ld->releases->tags[t].commit.id, FIXES_OID_RAWSZ, h);
		/*
		 * and every other field of the tag a release row stores: a tag
		 * made again on the same commit (a lightweight one replaced by an
		 * annotated one) changes annotated and released_at
		 */
		h = hash_bytes_extended((const unsigned char *) &ld->releases->tags[t].annotated,
								sizeof(ld->releases->tags[t].annotated), h);
		h = hash_bytes_extended((const unsigned char *) &ld->releases->tags[t].time,
								sizeof(ld->releases->tags[t].time), h);
	}
	/* release_tags 'all': 'ref' hashes as before 1.3 */
	if (ld->releases->all)
		h = hash_bytes_extended((const unsigned char *) "all", 3, h ^ 5);
	/* and the stable scope: the expression and the branches it matches */
	if (ld->args.stable_re != NULL)
	{
		h = hash_bytes_extended((const unsigned char *) ld->args.stable_re,
								(int) strlen(ld->args.stable_re), h ^ 3);
		for (int b = 0; b < ld->stable_branches->n; b++)
		{
			h = hash_bytes_extended((const unsigned char *) ld->stable_branches->branches[b].name,
									(int) strlen(ld->stable_branches->branches[b].name), h);
			h = hash_bytes_extended(ld->stable_branches->branches[b].commit.id, FIXES_OID_RAWSZ, h);
		}
	}
	return (int64) h;
}

/*
 * The releases this file owns (load_releases.h).
 * Allocated in ld->cxt, zeroed, before the load's first phase (run_load()).
 */
void
fixes_releases_init(FixesLoad *ld)
{
	ld->releases = MemoryContextAllocZero(ld->cxt, sizeof(FixesReleases));
}
