/*
 * load_read.c — fixes_load(): walk the history once
 *
 * Every commit reachable from the ref is read once.  Its row of
 * fixes_commits is written at once, while the reader process goes on, with
 * the release the walk can tell (below); its rows of fixes_trailers and
 * fixes_commit_files too (load_trailers.c, load_files.c).  Only the
 * subject's hash, the commit time and the Fixes and revert lines stay in
 * memory, in flat arrays and arenas.  The rows of the stable scope wait in
 * a tuplestore, which spills to a temporary file beyond work_mem, for
 * load_stable.c to give them their releases.
 *
 * The release of a commit is the first release whose tag reaches it: the
 * first among its own tags and its children's releases.  The walk sends
 * commits newest first, so a commit's children come before it, and its
 * release is known when it comes, except where a child is older than its
 * parent (clock skew) or as old (the same second): then the child may come
 * after it.  load_releases.c marks every commit from the whole graph and
 * lists the rows that the walk got wrong, for load_write_commits.c to
 * correct (a handful, if any).
 */
#include "postgres.h"

#include "access/table.h"
#include "lib/qunique.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "backport.h"
#include "bulk_insert.h"
#include "commit_fields.h"
#include "load_state.h"
#include "stable_cc.h"
#include "trailer.h"
#include "walk.h"

/* positions of the columns of fixes_commits */
typedef struct CommitCols
{
	int			repository_id,
				commit_idx,
				authored_at,
				committed_at,
				commit_id,
				parent_ids,
				author_name,
				author_email,
				committer_name,
				committer_email,
				release,
				subject,
				message,
				mainline,		/* -1: a database still at version 1.0 */
				stable_cc;		/* -1: before version 1.2 */
} CommitCols;

static void
commit_cols(TupleDesc desc, CommitCols *c)
{
	c->repository_id = fixes_attnum(desc, "repository_id");
	c->commit_idx = fixes_attnum(desc, "commit_idx");
	c->authored_at = fixes_attnum(desc, "authored_at");
	c->committed_at = fixes_attnum(desc, "committed_at");
	c->commit_id = fixes_attnum(desc, "commit_id");
	c->parent_ids = fixes_attnum(desc, "parent_ids");
	c->author_name = fixes_attnum(desc, "author_name");
	c->author_email = fixes_attnum(desc, "author_email");
	c->committer_name = fixes_attnum(desc, "committer_name");
	c->committer_email = fixes_attnum(desc, "committer_email");
	c->release = fixes_attnum(desc, "release");
	c->subject = fixes_attnum(desc, "subject");
	c->message = fixes_attnum(desc, "message");
	c->mainline = -1;
	c->stable_cc = -1;
	for (int i = 0; i < desc->natts; i++)
	{
		const char *name = NameStr(TupleDescAttr(desc, i)->attname);

		if (TupleDescAttr(desc, i)->attisdropped)
			continue;
		if (strcmp(name, "mainline") == 0)
			c->mainline = i;
		else if (strcmp(name, "stable_cc") == 0)
			c->stable_cc = i;
	}
}

/* the backport lines of a stable commit's message */
static void
add_backports(FixesLoad *ld, uint32 idx, const text *message)
{
	const char *msg = VARDATA_ANY(message);
	size_t		len = VARSIZE_ANY_EXHDR(message);
	fixes_backport_cursor cur = {0, 0};
	fixes_backport bp;
	int			n = 0;

	while (fixes_backport_next(msg, len, &cur, &bp))
	{
		FixesBackportLine *b;
		char		abbrev[40];

		if (n++ == fixes_max_edges_per_commit)
		{
			fixes_limit_warn(&ld->limit_hits, FIXES_LIMIT_EDGES, &ld->graph->oids[idx],
							 fixes_max_edges_per_commit);
			break;
		}

		if (ld->nbackports == ld->backports_cap)
		{
			ld->backports_cap = ld->backports_cap ? 2 * ld->backports_cap : 1024;
			ld->backports = ld->backports ?
				repalloc_huge(ld->backports, sizeof(FixesBackportLine) * ld->backports_cap) :
				MemoryContextAllocHuge(ld->cxt, sizeof(FixesBackportLine) * ld->backports_cap);
		}
		b = &ld->backports[ld->nbackports++];
		b->commit = idx;
		b->line = bp.line;
		b->upstream = FIXES_NO_IDX;
		b->status = EDGE_NOT_FOUND;
		b->method = BACKPORT_NONE;
		b->superseded = false;
		for (size_t i = 0; i < bp.hex_len; i++)
			abbrev[i] = pg_ascii_tolower(msg[bp.hex_off + i]);
		b->abbrev_len = (uint8) bp.hex_len;
		b->abbrev_off = fixes_arena_add(&ld->edge_text, abbrev, bp.hex_len);
		b->raw_len = (uint32) bp.raw_len;
		b->raw_off = fixes_arena_add(&ld->edge_text, msg + bp.raw_off, bp.raw_len);
	}
}

/*
 * The Fixes lines of a commit, and its revert lines when fixes_edges has a
 * kind column (1.1).  The subject by which a revert edge is resolved is the
 * text inside Revert "..." of the reverting commit's own subject.
 */
static void
add_edges(FixesLoad *ld, uint32 idx, const text *message, const text *subject)
{
	const char *msg = VARDATA_ANY(message);
	size_t		len = VARSIZE_ANY_EXHDR(message);
	fixes_trailer_cursor cur = {0, 0};
	fixes_trailer tr;
	int			n = 0;

	while (fixes_trailer_next(msg, len, &cur, &tr))
	{
		FixesEdge  *e;
		char		abbrev[40];

		if (tr.kind == FIXES_TRAILER_REVERT && !ld->has.edge_kind)
			continue;			/* a database at 1.0 has no revert edges */
		if (n++ == fixes_max_edges_per_commit)
		{
			fixes_limit_warn(&ld->limit_hits, FIXES_LIMIT_EDGES, &ld->graph->oids[idx],
							 fixes_max_edges_per_commit);
			break;
		}
		if ((n & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
		e = fixes_load_add_edge(ld);

		e->fixing = idx;
		e->line = tr.line;
		e->kind = tr.kind == FIXES_TRAILER_REVERT ? KIND_REVERT : KIND_FIXES;
		e->fixed_at = ld->committed_at[idx];
		e->fixed_at_null = ld->committed_null[idx];
		for (size_t i = 0; i < tr.hex_len; i++)
			abbrev[i] = pg_ascii_tolower(msg[tr.hex_off + i]);
		e->abbrev_len = (uint8) tr.hex_len;
		e->abbrev_off = fixes_arena_add(&ld->edge_text, abbrev, tr.hex_len);
		if (tr.kind == FIXES_TRAILER_REVERT)
		{
			size_t		off,
						sublen;

			if (fixes_revert_subject(VARDATA_ANY(subject), VARSIZE_ANY_EXHDR(subject),
									 &off, &sublen))
			{
				e->subj_len = (int32) sublen;
				e->subj_off = fixes_arena_add(&ld->edge_text, VARDATA_ANY(subject) + off, sublen);
			}
		}
		else if (tr.has_subject)
		{
			e->subj_len = (int32) tr.subj_len;
			e->subj_off = fixes_arena_add(&ld->edge_text, msg + tr.subj_off, tr.subj_len);
		}
		e->raw_len = (uint32) tr.raw_len;
		e->raw_off = fixes_arena_add(&ld->edge_text, msg + tr.raw_off, tr.raw_len);
	}
}

/* a release tag's commit and the tag's position in ld->tags (+ 1) */
typedef struct FixesTagRelease
{
	FixesOid	commit;
	int32		pos;
} FixesTagRelease;

static int
tag_release_cmp(const void *a, const void *b)
{
	const FixesTagRelease *x = a;
	const FixesTagRelease *y = b;
	int			c = memcmp(x->commit.id, y->commit.id, FIXES_OID_RAWSZ);

	if (c != 0)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int
tag_commit_cmp(const void *a, const void *b)
{
	return memcmp(((const FixesTagRelease *) a)->commit.id,
				  ((const FixesTagRelease *) b)->commit.id, FIXES_OID_RAWSZ);
}

/*
 * The tags that are releases (their commits are in scope when the walk
 * reaches them), sorted by commit, the first in version order kept of
 * those on the same commit; and their names as text.
 */
static void
walk_releases_begin(FixesLoad *ld)
{
	FixesTagRelease *t = palloc(sizeof(FixesTagRelease) * Max(ld->ntags, 1));
	int			n = 0;

	ld->walk_release_name = palloc0(sizeof(Datum) * (ld->ntags + 1));
	for (int i = 0; i < ld->ntags; i++)
	{
		if (!fixes_load_is_release(ld, ld->tags[i].name))
			continue;
		t[n].commit = ld->tags[i].commit;
		t[n].pos = i + 1;
		ld->walk_release_name[i + 1] = CStringGetTextDatum(ld->tags[i].name);
		n++;
	}
	qsort(t, n, sizeof(FixesTagRelease), tag_release_cmp);
	ld->nrelease_tags = (int) qunique(t, n, sizeof(FixesTagRelease), tag_commit_cmp);
	ld->release_tags = t;
	ld->walk_release = NULL;
	ld->walk_release_cap = 0;
}

/*
 * Start the walk of the mainline: with the reader that walks it already
 * when read_repository() left one that fits (a refresh from the previous
 * head, with or without files), else with a new one.  False when nothing is
 * new.
 */
static bool
start_mainline(FixesLoad *ld)
{
	FixesReader *ahead = ld->ahead;

	ld->ahead = NULL;
	if (ahead != NULL && ld->walk->hide != NULL && ld->walk->files == ld->ahead_files)
		return fixes_walk_adopt(ld->walk, ahead, &ld->head);
	fixes_reader_stop(ahead);
	return fixes_walk_start(ld->walk, &ld->head);
}

/*
 * The release of the commit just walked (tag position + 1, 0: none), passed
 * on to its parents that have not been walked.  ld->walk_release holds,
 * for a commit waiting to be walked, the first release its walked children
 * gave it (>= 0); for a walked one, the release its row was written with,
 * as -1 - release (< 0), for load_releases.c to check.  By index less
 * ld->n_old: a refresh walks only the commits after the old ones.
 */
static int32
walk_release(FixesLoad *ld, const FixesCommit *c)
{
	FixesGraph *g = ld->graph;
	FixesTagRelease key;
	FixesTagRelease *t;
	int32		rel;
	uint32		base = ld->n_old;

	Assert(c->idx >= base);
	if (g->n - base > ld->walk_release_cap)
	{
		uint32		cap = Max(g->n - base, Max(ld->walk_release_cap * 2, 1024));

		ld->walk_release = fixes_repalloc_big(ld->cxt, ld->walk_release,
											  sizeof(int32) * ld->walk_release_cap, sizeof(int32) * cap);
		memset(ld->walk_release + ld->walk_release_cap, 0,
			   sizeof(int32) * (cap - ld->walk_release_cap));
		ld->walk_release_cap = cap;
	}
	rel = ld->walk_release[c->idx - base];
	Assert(rel >= 0);
	key.commit = *c->oid;
	t = ld->nrelease_tags == 0 ? NULL :
		bsearch(&key, ld->release_tags, ld->nrelease_tags, sizeof(FixesTagRelease), tag_commit_cmp);
	if (t != NULL && (rel == 0 || t->pos < rel))
		rel = t->pos;
	ld->walk_release[c->idx - base] = -1 - rel;
	if (rel != 0)
		for (uint32 p = g->par_start[c->idx]; p < g->par_end[c->idx]; p++)
		{
			int32	   *q;

			if (g->parents[p] < base)
				continue;		/* an old commit: not walked again */
			q = &ld->walk_release[g->parents[p] - base];
			if (*q == 0 || (*q > 0 && rel < *q))
				*q = rel;
		}
	return rel;
}

static void
read_commits(FixesLoad *ld)
{
	Relation	rel;
	CommitCols	cols;
	int			natts;
	Datum	   *values;
	bool	   *nulls;
	MemoryContext rowcxt;
	FixesCommit c;
	FixesBulk  *bulk = NULL;

	rel = table_open(fixes_table_oid(ld->nsp, "fixes_commits"), AccessShareLock);
	ld->commits_desc = CreateTupleDescCopy(RelationGetDescr(rel));
	table_close(rel, AccessShareLock);
	natts = ld->commits_desc->natts;
	commit_cols(ld->commits_desc, &cols);
	ld->release_att = fixes_attnum(ld->commits_desc, "release");
	values = palloc0(sizeof(Datum) * natts);
	nulls = palloc(sizeof(bool) * natts);

	/* the previous load's rows that this one replaces are gone (load_clear.c) */
	if (ld->stable_phase)
		ld->commit_rows = tuplestore_begin_heap(false, false, work_mem);
	/* a refresh may have read its old edges into it already (load.c) */
	if (ld->edge_text.data == NULL)
		fixes_arena_init(&ld->edge_text, CurrentMemoryContext);
	fixes_load_files_begin(ld);

	if (ld->empty)
		return;
	ld->walk = fixes_walk_create(ld->path, ld->graph, true);
	/* the files of the mainline only: the stable scope's are not recorded */
	ld->walk->files = ld->files && !ld->stable_phase;
	/* a refresh: the reader finds the old commits the walk meets */
	if (ld->incremental && !ld->stable_phase)
	{
		uint32		old_head = fixes_load_old_head(ld);

		if (old_head != FIXES_NO_IDX)
		{
			FixesOid   *hide = palloc(sizeof(FixesOid));

			*hide = ld->graph->oids[old_head];
			ld->walk->hide = hide;
		}
	}
	if (ld->stable_phase ? !fixes_walk_start_many(ld->walk, ld->stable_heads, ld->nstable_heads)
		: !start_mainline(ld))
		return;
	if (!ld->stable_phase)
	{
		walk_releases_begin(ld);
		bulk = fixes_bulk_begin(fixes_table_oid(ld->nsp, "fixes_commits"));
		fixes_bulk_sort_index(bulk, "fixes_commits_commit_id_idx");
		fixes_bulk_keep_room(bulk);
	}

	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "fixes_load row",
								   ALLOCSET_DEFAULT_SIZES);
	fixes_progress_phase(&ld->progress, "reading history");
	while (fixes_walk_next(ld->walk, &c))
	{
		MemoryContext old;
		FixesCommitFields f;

		fixes_progress_tick(&ld->progress);
		fixes_load_ensure_room(ld, c.idx);
		old = MemoryContextSwitchTo(rowcxt);
		/* within fixes.max_record_bytes and fixes.max_message_lines (input_limits.c) */
		c.raw.message_len = fixes_limit_message(&ld->limit_hits, c.oid, c.raw.message,
												c.raw.message_len);
		fixes_commit_fields(&ld->decoder, &c, &f);

		memset(nulls, true, sizeof(bool) * natts);
#define SET(col, datum) (values[cols.col] = (datum), nulls[cols.col] = false)
		SET(repository_id, Int32GetDatum(ld->repository_id));
		SET(commit_idx, Int32GetDatum((int32) c.idx));
		SET(commit_id, PointerGetDatum(f.commit_id));
		SET(parent_ids, PointerGetDatum(f.parent_ids));
		SET(author_name, PointerGetDatum(f.author_name));
		SET(author_email, PointerGetDatum(f.author_email));
		SET(committer_name, PointerGetDatum(f.committer_name));
		SET(committer_email, PointerGetDatum(f.committer_email));
		SET(subject, PointerGetDatum(f.subject));
		SET(message, PointerGetDatum(f.message));
		if (!f.authored_null)
			SET(authored_at, TimestampTzGetDatum(f.authored_at));
		if (!f.committed_null)
			SET(committed_at, TimestampTzGetDatum(f.committed_at));
		if (cols.mainline >= 0)
			SET(mainline, BoolGetDatum(!ld->stable_phase));
		/* a Cc: stable line anywhere in the message (1.2) */
		ld->stable_cc[c.idx] = fixes_stable_cc(VARDATA_ANY(f.message), VARSIZE_ANY_EXHDR(f.message));
		if (cols.stable_cc >= 0 && ld->has.version >= 12)
			SET(stable_cc, BoolGetDatum(ld->stable_cc[c.idx]));
		if (bulk != NULL)
		{
			int32		r = walk_release(ld, &c);

			if (r != 0)
				SET(release, ld->walk_release_name[r]);
		}
#undef SET
		/* the trailers from the raw message, before the files record is read */
		if (ld->stable_phase)
			add_backports(ld, c.idx, f.message);
		else if (ld->has.trailers)
			fixes_load_add_trailers(ld, c.idx, &c.raw);
		if (ld->walk->files)
		{
			WireFiles	wf;

			/* the commit's raw fields are not valid after this */
			fixes_walk_files(ld->walk, &wf);
			fixes_load_commit_files(ld, c.idx, &wf, values, nulls);
		}
		/* an unreleased commit's row: a new tag will set its release */
		if (bulk != NULL && nulls[cols.release])
			fixes_bulk_insert_roomy(bulk, values, nulls);
		else if (bulk != NULL)
			fixes_bulk_insert(bulk, values, nulls, 256 + VARSIZE_ANY(DatumGetPointer(values[cols.message])));
		else
			tuplestore_putvalues(ld->commit_rows, ld->commits_desc, values, nulls);

		ld->committed_at[c.idx] = f.committed_at;
		ld->committed_null[c.idx] = f.committed_null;
		if (!ld->stable_phase && !f.committed_null &&
			(!ld->newest_set || f.committed_at > ld->newest_at))
		{
			ld->newest_at = f.committed_at;
			ld->newest_set = true;
		}
		ld->subj_hash[c.idx] = fixes_subject_hash(VARDATA_ANY(f.subject),
												  VARSIZE_ANY_EXHDR(f.subject));
		add_edges(ld, c.idx, f.message, f.subject);

		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
	}
	MemoryContextDelete(rowcxt);
	if (bulk != NULL)
	{
		fixes_bulk_end(bulk);
		CommandCounterIncrement();
	}
	ld->missing_parents = ld->walk->missing_parents;
	fixes_walk_report(ld->walk);
}

/*
 * Walk the commits reachable from the ref that the graph does not hold yet
 * (all of them for a full load), their trailers straight into fixes_trailers
 * (1.1); in the stable phase, those reachable from the stable heads
 * (load_stable.c), with their backport lines.
 */
void
fixes_load_read(FixesLoad *ld)
{
	/* the trailers of the mainline; the stable phase (load_stable.c) keeps none */
	bool		trailers = ld->has.trailers && !ld->stable_phase;

	if (trailers)
		fixes_load_trailers_begin(ld);
	read_commits(ld);
	if (trailers)
		fixes_load_trailers_end(ld);
	fixes_load_files_end(ld);
}
