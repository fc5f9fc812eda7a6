/*
 * load_walk.c — fixes_load(): the walk loop that both scopes share, and the
 * per-commit hooks that both register (Fixes and revert lines, Cc: stable)
 *
 * fixes_load_walk() walks the commits reachable from the scope's heads that
 * the graph does not hold yet, newest first, one reader process.  For each,
 * in order: its message within the limits of input_limits.c, its fields as
 * PostgreSQL values, the per-commit facts every later phase reads (the
 * committer date, the subject's hash), the columns of its row of
 * fixes_commits, then the scope's hooks in the order registered, and last
 * the row, to the scope's writer (load_commit_rows.c).  A hook that reads
 * the commit's raw fields must come before the files hook, which reads the
 * commit's files and so moves the reader's buffer on.
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "load_walk.h"
#include "stable_cc.h"
#include "trailer.h"

void
fixes_walk_scope_hook(FixesWalkScope *scope, FixesWalkHook hook)
{
	if (scope->nhooks == FIXES_MAX_WALK_HOOKS)
		elog(ERROR, "too many hooks for one walk");
	scope->hooks[scope->nhooks++] = hook;
}

/*
 * Start the walk: with the reader that walks the scope already when the
 * scope has one that fits (a refresh from the previous head, with or
 * without files), else with a new one.  False when nothing is new.
 */
static bool
start_walk(FixesWalk *walk, FixesWalkScope *scope)
{
	FixesReader *ahead = NULL;

	if (scope->ahead != NULL)
	{
		/* it is the walk's now */
		ahead = *scope->ahead;
		*scope->ahead = NULL;
	}
	if (ahead != NULL && !scope->many && walk->hide != NULL && walk->files == scope->ahead_files)
		return fixes_walk_adopt(walk, ahead, &scope->heads[0]);
	fixes_reader_stop(ahead);
	if (scope->many)
		return fixes_walk_start_many(walk, scope->heads, scope->nheads);
	return fixes_walk_start(walk, &scope->heads[0]);
}

/* the row of a commit, before the hooks add theirs */
static void
commit_row(FixesLoad *ld, const FixesWalkScope *scope, const FixesCommit *c,
		   const FixesCommitFields *f, const FixesCommitCols *cols, Datum *values, bool *nulls)
{
#define SET(col, datum) (values[cols->col] = (datum), nulls[cols->col] = false)
	SET(repository_id, Int32GetDatum(ld->repository_id));
	SET(commit_idx, Int32GetDatum((int32) c->idx));
	SET(commit_id, PointerGetDatum(f->commit_id));
	SET(parent_ids, PointerGetDatum(f->parent_ids));
	SET(author_name, PointerGetDatum(f->author_name));
	SET(author_email, PointerGetDatum(f->author_email));
	SET(committer_name, PointerGetDatum(f->committer_name));
	SET(committer_email, PointerGetDatum(f->committer_email));
	SET(subject, PointerGetDatum(f->subject));
	SET(message, PointerGetDatum(f->message));
	if (!f->authored_null)
		SET(authored_at, TimestampTzGetDatum(f->authored_at));
	if (!f->committed_null)
		SET(committed_at, TimestampTzGetDatum(f->committed_at));
	if (cols->mainline >= 0)
		SET(mainline, BoolGetDatum(scope->mainline));
#undef SET
}

/*
 * Walk the scope: each new commit into the graph, its facts into the
 * per-commit arrays, its row to the scope's writer, and the hooks called.
 * The walk is ld->walk, which the caller releases (in PG_FINALLY).
 */
void
fixes_load_walk(FixesLoad *ld, FixesWalkScope *scope)
{
	const FixesCommitCols *cols = fixes_commit_rows_cols(scope->rows);
	int			natts = fixes_commit_rows_desc(scope->rows)->natts;
	Datum	   *values = palloc0(sizeof(Datum) * natts);
	bool	   *nulls = palloc(sizeof(bool) * natts);
	MemoryContext rowcxt;
	FixesCommit c;
	bool		started = false;

	for (int h = 0; h < scope->nhooks; h++)
		if (scope->hooks[h].begin)
			scope->hooks[h].begin(ld, scope->hooks[h].arg, scope->rows);
	if (!ld->empty)
	{
		if (scope->begun != NULL)
		{
			/* a walk whose reader was started before (the stable scope) */
			ld->walk = scope->begun;
			scope->begun = NULL;
			started = fixes_walk_take_many(ld->walk, scope->heads, scope->nheads);
		}
		else
		{
			ld->walk = fixes_walk_create(ld->args.path, ld->graph, true);
			ld->walk->files = scope->files;
			ld->walk->hide = scope->hide;
			started = start_walk(ld->walk, scope);
		}
		if (started)
			fixes_reader_set_idle(ld->walk->reader, fixes_commit_rows_idle, scope->rows);
	}

	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "fixes_load row",
								   ALLOCSET_DEFAULT_SIZES);
	if (started)
		fixes_progress_phase(&ld->progress, "reading history");
	while (started && fixes_walk_next(ld->walk, &c))
	{
		MemoryContext old;
		FixesCommitFields f;
		FixesWalkCommit wc;

		fixes_progress_tick(&ld->progress);
		fixes_load_ensure_room(ld, c.idx);
		old = MemoryContextSwitchTo(rowcxt);
		/* within fixes.max_record_bytes and fixes.max_message_lines (input_limits.c) */
		c.raw.message_len = fixes_limit_message(&ld->limit_hits, c.oid, c.raw.message,
												c.raw.message_len);
		fixes_commit_fields(&ld->decoder, &c, &f);
		ld->by_commit.committed_at[c.idx] = f.committed_at;
		ld->by_commit.committed_null[c.idx] = f.committed_null;
		ld->by_commit.subj_hash[c.idx] = fixes_subject_hash(VARDATA_ANY(f.subject),
												  VARSIZE_ANY_EXHDR(f.subject));

		memset(nulls, true, sizeof(bool) * natts);
		commit_row(ld, scope, &c, &f, cols, values, nulls);
		wc.c = &c;
		wc.walk = ld->walk;
		wc.f = &f;
		wc.cols = cols;
		wc.values = values;
		wc.nulls = nulls;
		wc.paths = NULL;
		wc.npaths = 0;
		for (int h = 0; h < scope->nhooks; h++)
			if (scope->hooks[h].commit)
				scope->hooks[h].commit(ld, scope->hooks[h].arg, &wc);
		fixes_commit_rows_put(scope->rows, values, nulls);

		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
	}
	MemoryContextDelete(rowcxt);
	fixes_commit_rows_end(scope->rows);
	if (started)
	{
		/*
		 * Every walk of the load adds its own (the mainline's and the stable
		 * scope's): a load that missed any is never built on
		 * (refresh/previous.c), whichever walk missed them.
		 */
		ld->missing_parents += ld->walk->missing_parents;
		fixes_walk_report(ld->walk);
	}
	for (int h = 0; h < scope->nhooks; h++)
		if (scope->hooks[h].end)
			scope->hooks[h].end(ld, scope->hooks[h].arg);
	pfree(values);
	pfree(nulls);
}

/* the edge text goes into the load's context (a refresh may have begun it) */
static void
edges_begin(FixesLoad *ld, void *arg, const FixesCommitRows *rows)
{
	FixesEdgeSink *sink = arg;

	if (sink->text->data == NULL)
		fixes_arena_init(sink->text, CurrentMemoryContext);
}

/*
 * A line of commit idx's message that a hook turns into a row (a Fixes or
 * revert line, a backport line), counted in *n: false, with the load's
 * WARNING, for the one past fixes.max_edges_per_commit, where the hook stops
 */
bool
fixes_walk_line_counted(FixesLoad *ld, uint32 idx, int *n)
{
	if ((*n)++ == fixes_max_edges_per_commit)
	{
		fixes_limit_warn(&ld->limit_hits, FIXES_LIMIT_EDGES, &ld->graph->oids[idx],
						 fixes_max_edges_per_commit);
		return false;
	}
	return true;
}

/*
 * The Fixes lines of a commit, and its revert lines in a database at 1.1
 * or later (fixes_edges.kind).  The subject by which a revert edge is
 * resolved is the text inside Revert "..." of the reverting commit's own
 * subject.
 */
static void
edges_commit(FixesLoad *ld, void *arg, FixesWalkCommit *wc)
{
	FixesEdgeSink *sink = arg;
	FixesArena *arena = sink->text;
	uint32		idx = wc->c->idx;
	const text *message = wc->f->message;
	const text *subject = wc->f->subject;
	const char *msg = VARDATA_ANY(message);
	size_t		len = VARSIZE_ANY_EXHDR(message);
	fixes_trailer_cursor cur = {0, 0};
	fixes_trailer tr;
	int			n = 0;

	while (fixes_trailer_next(msg, len, &cur, &tr))
	{
		FixesEdge  *e;

		if (tr.kind == FIXES_TRAILER_REVERT && !ld->has.revert_edges)
			continue;			/* a database at 1.0 has no revert edges */
		if (!fixes_walk_line_counted(ld, idx, &n))
			break;
		if ((n & 0x3ff) == 0)
			CHECK_FOR_INTERRUPTS();
		e = fixes_edge_append(ld->cxt, sink);

		e->fixing = idx;
		e->line = tr.line;
		e->kind = tr.kind == FIXES_TRAILER_REVERT ? KIND_REVERT : KIND_FIXES;
		e->fixed_at = ld->by_commit.committed_at[idx];
		e->fixed_at_null = ld->by_commit.committed_null[idx];
		e->abbrev_len = (uint8) tr.hex_len;
		e->abbrev_off = fixes_arena_add_lower(arena, msg + tr.hex_off, tr.hex_len);
		if (tr.kind == FIXES_TRAILER_REVERT)
		{
			size_t		off,
						sublen;

			if (fixes_revert_subject(VARDATA_ANY(subject), VARSIZE_ANY_EXHDR(subject),
									 &off, &sublen))
			{
				e->subj_len = (int32) sublen;
				e->subj_off = fixes_arena_add(arena, VARDATA_ANY(subject) + off, sublen);
			}
		}
		else if (tr.has_subject)
		{
			e->subj_len = (int32) tr.subj_len;
			e->subj_off = fixes_arena_add(arena, msg + tr.subj_off, tr.subj_len);
		}
		e->raw_len = (uint32) tr.raw_len;
		e->raw_off = fixes_arena_add(arena, msg + tr.raw_off, tr.raw_len);
	}
}

/* the Fixes and revert lines of each commit, into the phase's edge list */
FixesWalkHook
fixes_edges_hook(FixesEdgeSink *sink)
{
	return (FixesWalkHook) {edges_begin, edges_commit, NULL, sink};
}

/* a Cc: stable line anywhere in the message: ld->by_commit.stable_cc and the row */
static void
stable_cc_commit(FixesLoad *ld, void *arg, FixesWalkCommit *wc)
{
	uint32		idx = wc->c->idx;

	ld->by_commit.stable_cc[idx] = fixes_stable_cc(VARDATA_ANY(wc->f->message),
										 VARSIZE_ANY_EXHDR(wc->f->message));
	if (wc->cols->stable_cc >= 0)
	{
		wc->values[wc->cols->stable_cc] = BoolGetDatum(ld->by_commit.stable_cc[idx]);
		wc->nulls[wc->cols->stable_cc] = false;
	}
}

FixesWalkHook
fixes_stable_cc_hook(void)
{
	return (FixesWalkHook) {NULL, stable_cc_commit, NULL, NULL};
}

/* the walk of ld->walk released (its reader stopped), and ld->walk cleared */
void
fixes_load_walk_end(FixesLoad *ld)
{
	FixesWalk  *w = ld->walk;

	fixes_walk_release(w);
	ld->walk = NULL;
}
