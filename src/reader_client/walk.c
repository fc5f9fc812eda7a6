/*
 * walk.c — the commits reachable from a start point, newest first
 *
 * The reader process (reader/walk.c) walks the history as `git log` orders
 * it and sends each commit once, with a flag per parent: in the history,
 * or missing beyond a shallow boundary.  Here each commit is checked and
 * numbered exactly as it was discovered (the start point first, then each
 * new parent of each commit in turn), so the graph's indexes do not depend
 * on where the walk ran.  The reader is told what the graph holds already
 * (send_known()), and only the new commits come back.
 */
#include "postgres.h"

#include "miscadmin.h"

#include "hex.h"
#include "walk.h"

FixesWalk *
fixes_walk_create(const char *path, FixesGraph *graph, bool record_parents)
{
	FixesWalk  *w = palloc0(sizeof(FixesWalk));

	w->path = path;
	w->graph = graph;
	w->record_parents = record_parents;
	w->pbuf_cap = 16;
	w->pbuf = palloc(sizeof(uint32) * w->pbuf_cap);
	return w;
}

void
fixes_walk_release(FixesWalk *w)
{
	if (w == NULL)
		return;
	fixes_reader_stop(w->reader);
}

void
fixes_walk_report(FixesWalk *w)
{
	if (w->missing_parents > 0)
		ereport(WARNING,
				(errmsg_plural("repository \"%s\" is a shallow clone: %lld parent commit is missing",
							   "repository \"%s\" is a shallow clone: %lld parent commits are missing",
							   (unsigned long) w->missing_parents,
							   w->path, (long long) w->missing_parents),
				 errdetail("The history was read down to the shallow boundary."),
				 errhint("Run \"git fetch --unshallow\" in the repository to read all of it.")));
}

/*
 * What the reader must not send: the ids the graph holds, or, for a
 * refresh, only the previous head, whose history the graph holds (the
 * reader then finds what of it the walk meets, as `git rev-list HEAD ^OLD`
 * does).  Either way the reader skips the commits the graph holds.
 */
static void
send_known(FixesWalk *w)
{
	FixesGraph *g = w->graph;
	unsigned char count[4];
	const uint32 per = 16384;
	uint32		nknown = w->hide != NULL ? 0 : g->n;

	/* a sparse graph (refresh/old_ids.c) is walked only from the previous head */
	if (nknown > 0 && g->sparse_below > 0)
		elog(ERROR, "the graph of repository \"%s\" lacks ids to send", w->path);
	w->n_before = g->n;
	wire_put_u32(count, nknown);
	fixes_reader_write(w->reader, count, sizeof(count));
	for (uint32 i = 0; i < nknown; i += per)
	{
		uint32		k = Min(per, nknown - i);

		CHECK_FOR_INTERRUPTS();
		fixes_reader_write(w->reader, g->oids + i, (Size) k * sizeof(FixesOid));
	}
	wire_put_u32(count, w->hide != NULL ? 1 : 0);
	fixes_reader_write(w->reader, count, sizeof(count));
	if (w->hide != NULL)
		fixes_reader_write(w->reader, w->hide, sizeof(FixesOid));
	fixes_reader_close_input(w->reader);
}

/*
 * Walk the history of head, which the graph may hold already (then nothing
 * is new).  Returns false when there is nothing to walk.
 */
bool
fixes_walk_start(FixesWalk *w, const FixesOid *head)
{
	char		hex[FIXES_OID_HEXSZ + 1];
	bool		found;

	if (fixes_graph_lookup(w->graph, head) != FIXES_NO_IDX)
		return false;
	fixes_format_oid(hex, head);
	w->reader = fixes_reader_start(w->files ? "walk-files" : "walk", w->path, pstrdup(hex), true);
	send_known(w);
	(void) fixes_graph_add(w->graph, head, &found);
	return true;
}

/*
 * Take over a reader that walks the history of head already, without that
 * of w->hide (fixes-reader refresh, started by read_repository()).  Returns
 * false, and stops it, when the graph holds head: nothing is new.
 */
bool
fixes_walk_adopt(FixesWalk *w, FixesReader *reader, const FixesOid *head)
{
	bool		found;

	Assert(w->hide != NULL);
	if (fixes_graph_lookup(w->graph, head) != FIXES_NO_IDX)
	{
		fixes_reader_stop(reader);
		return false;
	}
	w->reader = reader;
	w->n_before = w->graph->n;
	(void) fixes_graph_add(w->graph, head, &found);
	return true;
}

/*
 * Walk the history of several start points at once, without the commits
 * the graph holds (a load's stable scope: the mainline is known).  The
 * starts the graph holds already, and repeated ones, are dropped; the
 * others are discovered in the order given.  Returns false when nothing is
 * left to walk.  The start points go on the reader's stdin, before the
 * known ids ("fixes-reader walk PATH -"): a command line holds about 2 MB,
 * 50,000 of them.
 *
 * In two steps where the reader should start before the walk is read:
 * fixes_walk_begin_many() starts it (with ahead, it reads on, keeping what
 * the backend has not read, up to an eighth of its address space:
 * "fixes-reader walk PATH - --ahead"), and fixes_walk_take_many(),
 * with the same heads, adds the start points to the graph when the walk
 * is read.  The graph must not change in between: if it did, the reader
 * is stopped and started again.
 */
bool
fixes_walk_begin_many(FixesWalk *w, const FixesOid *heads, int nheads, bool ahead)
{
	FixesOid   *start = palloc(sizeof(FixesOid) * Max(nheads, 1));
	const char *args[] = {"-", "--ahead"};
	unsigned char count[4];
	int			n = 0;
	FixesGraph *seen = fixes_graph_create(CurrentMemoryContext);

	for (int i = 0; i < nheads; i++)
	{
		bool		found;

		if (fixes_graph_lookup(w->graph, &heads[i]) != FIXES_NO_IDX)
			continue;
		if ((i & 0xfff) == 0xfff)
			CHECK_FOR_INTERRUPTS();
		(void) fixes_graph_add(seen, &heads[i], &found);
		if (found)
			continue;
		start[n++] = heads[i];
	}
	if (n == 0)
		return false;
	w->reader = fixes_reader_start_args(w->files ? "walk-files" : "walk", w->path, args,
										ahead ? 2 : 1, true);
	wire_put_u32(count, (uint32) n);
	fixes_reader_write(w->reader, count, sizeof(count));
	fixes_reader_write(w->reader, start, (Size) n * sizeof(FixesOid));
	send_known(w);
	return true;
}

bool
fixes_walk_take_many(FixesWalk *w, const FixesOid *heads, int nheads)
{
	if (w->reader == NULL)
		return false;
	if (w->graph->n != w->n_before)
	{
		fixes_reader_stop(w->reader);
		w->reader = NULL;
		if (!fixes_walk_begin_many(w, heads, nheads, false))
			return false;
	}
	for (int i = 0; i < nheads; i++)
	{
		bool		found;

		if ((i & 0xfff) == 0xfff)
			CHECK_FOR_INTERRUPTS();
		(void) fixes_graph_add(w->graph, &heads[i], &found);
	}
	return true;
}

bool
fixes_walk_start_many(FixesWalk *w, const FixesOid *heads, int nheads)
{
	return fixes_walk_begin_many(w, heads, nheads, false) &&
		fixes_walk_take_many(w, heads, nheads);
}

/*
 * Walk the history of ref (fixes_git_commits).  Returns false when ref is
 * the unborn HEAD of an empty repository.
 */
bool
fixes_walk_log(FixesWalk *w, const char *ref)
{
	const unsigned char *payload;
	uint32		len;
	WireHead	head;
	bool		found;

	w->reader = fixes_reader_start("log", w->path, ref, false);
	fixes_reader_expect(w->reader, WIRE_HEAD, &payload, &len);
	if (wire_decode_head(payload, len, &head) != 0)
		fixes_reader_protocol_error(w->reader, "The head record is malformed.");
	if (!head.found)
	{
		fixes_reader_finish(w->reader);
		return false;
	}
	(void) fixes_graph_add(w->graph, &head.oid, &found);
	return true;
}

/*
 * A parent's id from the 40 bytes at s (its line is whole: the commit
 * parser checked it), as fixes_oid_parse() reads it, by table; false when
 * a byte is not a hex digit
 */
static bool
parent_oid(FixesOid *out, const char *s)
{
	unsigned char all = 0x20;

	for (int i = 0; i < FIXES_OID_RAWSZ; i++)
	{
		unsigned char hi = fixes_hex_value[(unsigned char) s[2 * i]];
		unsigned char lo = fixes_hex_value[(unsigned char) s[2 * i + 1]];

		all &= hi & lo;
		out->id[i] = (unsigned char) ((hi & 0xf) << 4 | (lo & 0xf));
	}
	return all != 0;
}

static void
malformed(FixesWalk *w, const FixesOid *oid, const char *what)
{
	char		hex[FIXES_OID_HEXSZ + 1];

	fixes_format_oid(hex, oid);
	fixes_reader_stop(w->reader);
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("commit %s of repository \"%s\" is malformed", hex, w->path),
			 errdetail("%s", what)));
}

bool
fixes_walk_next(FixesWalk *w, FixesCommit *out)
{
	const unsigned char *payload;
	uint32		len;
	WireCommit	c;
	uint32		idx;
	int			np = 0;

	if (w->reader == NULL)
		return false;
	for (;;)
	{
		char		type;

		CHECK_FOR_INTERRUPTS();
		type = fixes_reader_next(w->reader, &payload, &len);
		if (type == WIRE_LIST && w->hide != NULL)
			continue;			/* what refresh/old_ids.c did not read: not needed */
		if (type != WIRE_COMMIT)
		{
			if (!w->reader->ended)
				fixes_reader_protocol_error(w->reader, "A commit record was expected.");
			fixes_reader_finish(w->reader);
			w->reader = NULL;
			return false;
		}
		if (wire_decode_commit(payload, len, &c) != 0)
			fixes_reader_protocol_error(w->reader, "A commit record is malformed.");
		idx = fixes_graph_lookup(w->graph, &c.oid);
		if (idx == FIXES_NO_IDX)
			fixes_reader_protocol_error(w->reader, "A commit was sent that was never discovered.");
		if (idx >= w->n_before)
			break;

		/*
		 * Held already: where clock skew misled a refresh's reader (see
		 * walk_hidden() in reader/walk.c).
		 */
		if (w->hide == NULL)
			fixes_reader_protocol_error(w->reader, "A commit was sent that the backend holds.");
		if (w->files)
		{
			WireFiles	skipped;

			fixes_walk_files(w, &skipped);
		}
	}
	if (fixes_raw_commit_parse(c.raw, c.raw_len, &out->raw) != 0)
		malformed(w, &c.oid, "Its header does not parse.");
	if ((uint32) out->raw.nparents != c.nflags)
		malformed(w, &c.oid, "Its parents do not match the reader's.");

	if (out->raw.nparents > w->pbuf_cap)
	{
		w->pbuf_cap = out->raw.nparents;
		w->pbuf = repalloc(w->pbuf, sizeof(uint32) * w->pbuf_cap);
	}
	for (int i = 0; i < out->raw.nparents; i++)
	{
		FixesOid	poid;
		uint32		pidx;
		bool		found;

		if (!parent_oid(&poid, fixes_raw_commit_parent(&out->raw, i)))
			malformed(w, &c.oid, "A parent is not a commit id.");
		if (!c.present[i])
		{
			/* beyond the boundary of a shallow clone: count each once */
			if (w->missing == NULL)
				w->missing = fixes_graph_create(CurrentMemoryContext);
			(void) fixes_graph_add(w->missing, &poid, &found);
			w->missing_parents += !found;
			continue;
		}
		pidx = fixes_graph_add(w->graph, &poid, &found);
		w->pbuf[np++] = pidx;
	}
	if (w->record_parents)
		fixes_graph_set_parents(w->graph, idx, w->pbuf, np);

	out->idx = idx;
	out->oid = &w->graph->oids[idx];
	return true;
}

/*
 * The changed files of the commit fixes_walk_next() returned last (walks
 * with files only); valid until the next call.  The commit's raw fields are
 * not valid any more after this call: copy what is needed first.
 */
void
fixes_walk_files(FixesWalk *w, WireFiles *out)
{
	const unsigned char *payload;
	uint32		len;

	fixes_reader_expect(w->reader, WIRE_FILES, &payload, &len);
	if (wire_decode_files(payload, len, out) != 0)
		fixes_reader_protocol_error(w->reader, "A files record is malformed.");
}
