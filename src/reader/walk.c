/*
 * walk.c — the history, newest first, each commit read once
 *
 * A parent is read from the object database when it is discovered, waits
 * in a heap ordered by committer time (discovery order breaks ties), and
 * is sent when it is the newest one left, as `git log` orders a history.
 * Commits the backend already holds are not read again: a stable scope's
 * walk is sent the ids of the mainline, and a refresh only the previous
 * head, whose history walk_hidden() finds as `git rev-list HEAD ^OLD`
 * would.  For each sent commit, one flag per parent tells the backend
 * whether the parent is in the history or missing beyond a shallow
 * boundary, so that it numbers the commits exactly as they were discovered.
 * walk_history() reads the commits in the same order whoever inflates them:
 * prefetch.c's worker (when turned on) hands it every other batch where
 * git's commit-graph file predicts them, and fetch_commit() takes a commit
 * from it only if it is the one the walk is about to read.
 */
#include "reader.h"

#include <stdlib.h>
#include <string.h>

#include "commit_raw.h"

typedef struct Node
{
	git_odb_object *obj;		/* read here, or NULL: */
	unsigned char *buf;			/* walk_history(): read by prefetch.c's worker */
	size_t		size;			/* of buf */
	git_oid		id;				/* walk_history(): the commit's id */
	fixes_raw_commit raw;		/* walk_history(): obj parsed (pointers into it) */
	int64_t		time;
	uint64_t	seq;
	uint32_t	at;				/* walk_hidden(): index in its set */
} Node;

typedef struct Heap
{
	Node	   *nodes;
	size_t		len;
	size_t		cap;
} Heap;

WALK_HEAP(node_heap, Node)

static void
heap_push(Heap *h, const Node *node)
{
	if (h->len == h->cap)
	{
		h->cap = h->cap ? 2 * h->cap : 64;
		h->nodes = xrealloc(h->nodes, sizeof(Node) * h->cap);
	}
	node_heap_place(h->nodes, h->len++, node);
}

static Node
heap_pop(Heap *h)
{
	return node_heap_pop(h->nodes, &h->len);
}

/* the commit oid's object obj parsed into raw, or the reader ends with an error */
static void
parse_commit(Repo *r, const git_oid *oid, git_odb_object *obj, fixes_raw_commit *raw)
{
	char		hex[GIT_OID_HEXSZ + 1];

	if (fixes_raw_commit_parse(git_odb_object_data(obj), git_odb_object_size(obj), raw) != 0)
		fail("XX001", NULL, NULL, "commit %s of repository \"%s\" is malformed",
			 git_oid_tostr(hex, sizeof(hex), oid), r->path);
}

/*
 * Read and parse the commit oid.  Returns NULL when it is missing from a
 * shallow clone; any other failure ends the reader with an error.
 */
static git_odb_object *
read_commit(Repo *r, const git_oid *oid, fixes_raw_commit *raw)
{
	git_odb_object *obj = NULL;
	char		hex[GIT_OID_HEXSZ + 1];
	int			rc;

	loose_check(r, oid);
	rc = git_odb_read(&obj, r->odb, oid);
	if (rc == GIT_ENOTFOUND && r->shallow)
		return NULL;
	git_oid_tostr(hex, sizeof(hex), oid);
	if (rc < 0)
		fail_git(rc, "XX001", "could not read commit %s of repository \"%s\"", hex, r->path);
	if (git_odb_object_type(obj) != GIT_OBJECT_COMMIT)
		fail("XX001", NULL, NULL, "object %s of repository \"%s\" is a %s, not a commit",
			 hex, r->path, git_object_type2string(git_odb_object_type(obj)));
	parse_commit(r, oid, obj, raw);
	return obj;
}

/*
 * walk_history()'s read of the commit oid into node: from prefetch.c's
 * worker when it has read this very commit, else read_commit(); false
 * when it is missing from a shallow clone
 */
static bool
fetch_commit(Repo *r, const git_oid *oid, Node *node)
{
	node->buf = prefetch_take(oid, &node->size);
	git_oid_cpy(&node->id, oid);
	if (node->buf == NULL)
	{
		node->obj = read_commit(r, oid, &node->raw);
		return node->obj != NULL;
	}
	node->obj = NULL;
	if (fixes_raw_commit_parse((const char *) node->buf, node->size, &node->raw) != 0)
	{
		char		hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), oid);
		fail("XX001", NULL, NULL, "commit %s of repository \"%s\" is malformed", hex, r->path);
	}
	return true;
}

static const char *
node_data(const Node *n)
{
	return n->obj != NULL ? git_odb_object_data(n->obj) : (const char *) n->buf;
}

static size_t
node_size(const Node *n)
{
	return n->obj != NULL ? git_odb_object_size(n->obj) : n->size;
}

/* read_commit() for reach.c */
git_odb_object *
walk_read_commit(Repo *r, const git_oid *oid, fixes_raw_commit *raw)
{
	return read_commit(r, oid, raw);
}

/* the id of parent i of the commit raw; a malformed one ends the reader */
static void
parent_oid(Repo *r, const fixes_raw_commit *raw, int i, git_oid *out)
{
	if (git_oid_fromstrn(out, fixes_raw_commit_parent(raw, i), GIT_OID_HEXSZ) < 0)
		fail("XX001", NULL, NULL, "a commit of repository \"%s\" has a malformed parent", r->path);
}

static void
fail_missing_head(Repo *r, const git_oid *head)
{
	char		hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), head);
	fail("XX001", NULL, NULL, "commit %s is missing from repository \"%s\"", hex, r->path);
}

/* the 'F' record of the commit just sent (raw: its parsed object) */
static void
files_of(Repo *r, const fixes_raw_commit *raw, const unsigned char *present)
{
	git_oid		tree;
	git_oid		ptree;
	bool		have_parent = false;

	if (git_oid_fromstrn(&tree, raw->tree_hex, GIT_OID_HEXSZ) < 0)
		fail("XX001", NULL, NULL, "a commit of repository \"%s\" has a malformed tree", r->path);
	if (raw->nparents == 1 && present[0])
	{
		git_oid		poid;

		parent_oid(r, raw, 0, &poid);
		if (!commit_tree(r, &poid, &ptree))
		{
			files_pool_send(r, &tree, raw->nparents, NULL, true);
			return;
		}
		have_parent = true;
	}
	files_pool_send(r, &tree, raw->nparents, have_parent ? &ptree : NULL, false);
}

/* the buffer of the 'C' record being built: id, parent count, flags, object */
typedef struct RecBuf
{
	unsigned char *rec;
	size_t		cap;
} RecBuf;

/*
 * Begin the 'C' record of the commit obj (raw: its parsed form); returns its
 * flags, one per parent, for the caller to set: 1 if the parent is in the
 * history, 0 if it is missing beyond a shallow boundary
 */
static unsigned char *
record_begin(RecBuf *b, const git_oid *id, size_t size, const fixes_raw_commit *raw)
{
	size_t		need = wire_size_commit((uint32_t) raw->nparents, size);
	FixesOid	oid;

	if (need > b->cap)
	{
		b->cap = need * 2;
		b->rec = xrealloc(b->rec, b->cap);
	}
	memcpy(oid.id, id->id, FIXES_OID_RAWSZ);
	return wire_encode_commit_begin(b->rec, &oid, (uint32_t) raw->nparents);
}

/* send the record record_begin() began, and with files the 'F' record */
static void
record_send(Repo *r, RecBuf *b, const char *data, size_t size, const fixes_raw_commit *raw,
			bool files)
{
	size_t		off = wire_size_commit((uint32_t) raw->nparents, 0);

	memcpy(b->rec + off, data, size);
	files_pool_record(WIRE_COMMIT, b->rec, off + size);
	if (files)
		files_of(r, raw, b->rec + FIXES_OID_RAWSZ + 4);
}

/*
 * The history of heads (in this order: the first is discovered first),
 * without the commits in known; with files, each commit is followed by its
 * 'F' record.
 */
void
walk_history(Repo *r, const git_oid *heads, int nheads, OidSet *known, bool files)
{
	Heap		heap = {0};
	uint64_t	seq = 0;
	RecBuf		b = {0};
	fixes_raw_commit raw;
	Node		node;

	if (!files)
		prefetch_begin(r, heads, nheads, known);
	for (int h = 0; h < nheads; h++)
	{
		const git_oid *head = &heads[h];

		if (oidset_contains(known, head->id))
			continue;
		if (!fetch_commit(r, head, &node))
			fail_missing_head(r, head);
		oidset_add(known, head->id);
		node.time = node.raw.committer.time;
		node.seq = seq++;
		heap_push(&heap, &node);
	}

	while (heap.len > 0)
	{
		Node		cur = heap_pop(&heap);
		unsigned char *present;

		raw = cur.raw;			/* parsed once, when it was read */
		present = record_begin(&b, &cur.id, node_size(&cur), &raw);
		for (int i = 0; i < raw.nparents; i++)
		{
			git_oid		poid;
			Node		pnode;

			parent_oid(r, &raw, i, &poid);
			present[i] = 1;
			if (oidset_contains(known, poid.id))
				continue;
			if (!fetch_commit(r, &poid, &pnode))
			{
				present[i] = 0;	/* beyond the shallow boundary */
				continue;
			}
			oidset_add(known, poid.id);
			pnode.time = pnode.raw.committer.time;
			pnode.seq = seq++;
			heap_push(&heap, &pnode);
		}
		record_send(r, &b, node_data(&cur), node_size(&cur), &raw, files);
		git_odb_object_free(cur.obj);
		free(cur.buf);
	}
	prefetch_end();
	free(heap.nodes);
	free(b.rec);
}

/* what walk_hidden() knows of a commit */
enum
{
	NEW_QUEUED = 1,				/* reachable from a head only, so far; in the heap */
	NEW_DONE,					/* the same, and its parents discovered */
	OLD,						/* reachable from a hidden commit */
	ABSENT						/* beyond a shallow boundary */
};

typedef struct Paint
{
	OidSet	   *seen;
	uint8_t    *state;			/* by index in seen */
	uint32_t   *par_start;		/* NEW_DONE: its parents' indexes in pars */
	uint32_t   *par_end;
	uint32_t	cap;
	uint32_t   *pars;
	size_t		npars;
	size_t		pars_cap;
	uint32_t   *stack;
	size_t		stack_cap;
	int64_t		new_queued;
	/* a listing pass (walk_hidden_list()): the commits it would send */
	bool		listing;
	unsigned char *list;		/* per commit: oid[20], u8 has_time, i64 time */
	size_t		nlist;
	size_t		list_cap;
	uint8_t    *listed;			/* by index in seen: 1 if listed */
	uint32_t	listed_cap;
} Paint;

/* the index of id in p->seen; *added if it is new (its state is then 0) */
static uint32_t
paint_add(Paint *p, const unsigned char *id, bool *added)
{
	uint32_t	at = oidset_add_at(p->seen, id, added);

	if (at >= p->cap)
	{
		uint32_t	cap = p->cap ? 2 * p->cap : 1024;

		p->state = xrealloc(p->state, cap);
		memset(p->state + p->cap, 0, cap - p->cap);
		p->par_start = xrealloc(p->par_start, sizeof(uint32_t) * cap);
		p->par_end = xrealloc(p->par_end, sizeof(uint32_t) * cap);
		p->cap = cap;
	}
	return at;
}

/*
 * A refresh reads the same walk twice: walk_hidden_list(), then
 * walk_hidden(), the same commits in the same order.  The listing pass
 * keeps each commit it reads (up to replay_max() bytes of them), and the
 * pass after it takes them back in turn instead of inflating each again
 * (half of what the reader spent on a refresh of 1%).  A commit asked out
 * of turn ends the replay: the rest is read again, as before.
 */
#define REPLAY_MAX ((size_t) 64 * 1024 * 1024)

/*
 * REPLAY_MAX, or an eighth of the reader's address space when
 * fixes.reader_memory_limit makes that less: what the replay keeps must
 * not make a refresh fail that read its commits twice before
 */
static size_t
replay_max(void)
{
	size_t		share = reader_address_space(SIZE_MAX) / 8;

	return share < REPLAY_MAX ? share : REPLAY_MAX;
}

typedef struct Replay
{
	git_odb_object **objs;		/* in the order read; NULL: absent (shallow) */
	git_oid    *ids;
	size_t		n;
	size_t		cap;
	size_t		next;			/* the next one the second pass takes */
	size_t		bytes;
	bool		recording;		/* a listing pass is reading */
	size_t		max;			/* replay_max() */
	bool		full;			/* max reached: no more kept */
} Replay;

static Replay replay;

static void
replay_drop(void)
{
	for (size_t i = replay.next; i < replay.n; i++)
		if (replay.objs[i] != NULL)
			git_odb_object_free(replay.objs[i]);
	free(replay.objs);
	free(replay.ids);
	memset(&replay, 0, sizeof(replay));
}

/* read_commit() for walk_hidden_pass(): from the listing pass when it read this very commit */
static git_odb_object *
hidden_read(Repo *r, const git_oid *oid, fixes_raw_commit *raw)
{
	git_odb_object *obj;

	if (!replay.recording && replay.next < replay.n)
	{
		if (git_oid_equal(&replay.ids[replay.next], oid))
		{
			obj = replay.objs[replay.next++];
			if (obj != NULL)
				parse_commit(r, oid, obj, raw);
			return obj;
		}
		replay_drop();
	}
	obj = read_commit(r, oid, raw);
	if (replay.recording && !replay.full)
	{
		size_t		size = obj != NULL ? git_odb_object_size(obj) : 0;

		if (size > replay.max - replay.bytes)
			replay.full = true;
		else
		{
			if (replay.n == replay.cap)
			{
				replay.cap = replay.cap ? 2 * replay.cap : 1024;
				replay.objs = xrealloc(replay.objs, sizeof(git_odb_object *) * replay.cap);
				replay.ids = xrealloc(replay.ids, sizeof(git_oid) * replay.cap);
			}
			replay.objs[replay.n] = NULL;
			if (obj != NULL && git_odb_object_dup(&replay.objs[replay.n], obj) < 0)
				fail("XX001", NULL, NULL, "could not keep a commit of repository \"%s\"", r->path);
			git_oid_cpy(&replay.ids[replay.n], oid);
			replay.n++;
			replay.bytes += size;
		}
	}
	return obj;
}

/* at is reachable from a hidden commit, and so is all it reaches */
static void
paint_old(Paint *p, uint32_t at)
{
	size_t		n = 0;

	if (p->stack_cap == 0)
	{
		p->stack_cap = 1024;
		p->stack = xmalloc(sizeof(uint32_t) * p->stack_cap);
	}
	p->stack[n++] = at;
	while (n > 0)
	{
		uint32_t	c = p->stack[--n];
		uint8_t		was = p->state[c];

		if (was == OLD || was == ABSENT)
			continue;
		p->state[c] = OLD;
		if (was == NEW_QUEUED)
		{
			p->new_queued--;	/* popped later, as old */
			continue;
		}
		for (uint32_t k = p->par_start[c]; k < p->par_end[c]; k++)
		{
			if (n == p->stack_cap)
			{
				p->stack_cap *= 2;
				p->stack = xrealloc(p->stack, sizeof(uint32_t) * p->stack_cap);
			}
			p->stack[n++] = p->pars[k];
		}
	}
}

/*
 * push the commit at (whose id is in p->seen) in state st, first: before
 * every commit (a head), else by its time; false if absent
 */
static bool
paint_push(Repo *r, Paint *p, Heap *heap, uint32_t at, uint8_t st, bool first, uint64_t *seq)
{
	git_oid		oid;
	fixes_raw_commit raw;
	Node		node;

	memcpy(oid.id, p->seen->oids[at].id, FIXES_OID_RAWSZ);
	node.obj = hidden_read(r, &oid, &raw);
	if (node.obj == NULL)
	{
		p->state[at] = ABSENT;
		return false;
	}
	p->state[at] = st;
	p->new_queued += st == NEW_QUEUED;
	node.time = first ? INT64_MAX : raw.committer.time;
	node.seq = (*seq)++;
	node.at = at;
	heap_push(heap, &node);
	return true;
}

/* an entry of the 'L' record: oid[20], u8 has_time, i64 time */
#define LIST_ENTRY WIRE_LIST_ENTRY

/* the commits walk_hidden() has read as new, in the order read, until they are sent */
typedef struct Fifo
{
	Node	   *nodes;
	size_t		head;
	size_t		len;
	size_t		cap;
} Fifo;

/* a listing pass: the commit at, which walk_hidden() would send, into the list */
static void
list_add(Paint *p, uint32_t at, const fixes_raw_commit *raw)
{
	unsigned char *e;

	if (p->nlist == p->list_cap)
	{
		p->list_cap = p->list_cap ? 2 * p->list_cap : 1024;
		p->list = xrealloc(p->list, p->list_cap * LIST_ENTRY);
	}
	e = p->list + p->nlist++ * LIST_ENTRY;
	wire_encode_list_entry(e, &p->seen->oids[at], raw->committer.has_time, raw->committer.time);
	if (at >= p->listed_cap)
	{
		uint32_t	cap = p->listed_cap ? p->listed_cap : 1024;

		while (at >= cap)
			cap *= 2;
		p->listed = xrealloc(p->listed, cap);
		memset(p->listed + p->listed_cap, 0, cap - p->listed_cap);
		p->listed_cap = cap;
	}
	p->listed[at] = 1;
}

/* send the first commit of f, unless it turned old meanwhile (a listing pass: list it) */
static void
send_first(Repo *r, Paint *p, Fifo *f, RecBuf *b, bool files)
{
	Node		n = f->nodes[f->head++];

	if (p->state[n.at] != OLD && p->listing)
	{
		fixes_raw_commit raw;

		if (fixes_raw_commit_parse(git_odb_object_data(n.obj), git_odb_object_size(n.obj), &raw) != 0)
			fail("XX001", NULL, NULL, "a commit of repository \"%s\" is malformed", r->path);
		list_add(p, n.at, &raw);
	}
	else if (p->state[n.at] != OLD)
	{
		fixes_raw_commit raw;
		uint32_t	np = p->par_end[n.at] - p->par_start[n.at];

		if (fixes_raw_commit_parse(git_odb_object_data(n.obj), git_odb_object_size(n.obj), &raw) != 0 ||
			(uint32_t) raw.nparents != np)
			fail("XX001", NULL, NULL, "a commit of repository \"%s\" is malformed", r->path);
		unsigned char *present;

		present = record_begin(b, git_odb_object_id(n.obj), git_odb_object_size(n.obj), &raw);
		for (uint32_t i = 0; i < np; i++)
			present[i] = p->state[p->pars[p->par_start[n.at] + i]] != ABSENT;
		record_send(r, b, git_odb_object_data(n.obj), git_odb_object_size(n.obj), &raw, files);
	}
	git_odb_object_free(n.obj);
}

/*
 * The parents of the listed commits that a listing pass would not send and
 * that are in the history (the hidden commits' and the heads' histories
 * meet there): how many, and their ids into out unless it is NULL
 */
static size_t
unlisted_parents(Paint *p, unsigned char *out)
{
	size_t		n = 0;

	for (size_t i = 0; i < p->nlist; i++)
	{
		bool		added;
		uint32_t	at = oidset_add_at(p->seen, p->list + i * LIST_ENTRY, &added);

		for (uint32_t k = p->par_start[at]; k < p->par_end[at]; k++)
		{
			uint32_t	pa = p->pars[k];

			if (p->state[pa] == ABSENT || (pa < p->listed_cap && p->listed[pa]))
				continue;
			if (out != NULL)
				memcpy(out + n * FIXES_OID_RAWSZ, p->seen->oids[pa].id, FIXES_OID_RAWSZ);
			n++;
		}
	}
	return n;
}

/*
 * The 'L' record of a listing pass: the commits it would send, with their
 * committer times, and their parents that it would not send
 * (unlisted_parents()); with more than list_max bytes, the record says so
 * instead (wire.h)
 */
static void
send_list(Paint *p, size_t list_max)
{
	size_t		nparents = unlisted_parents(p, NULL);
	size_t		len;
	unsigned char *rec;

	if (p->nlist > UINT32_MAX / 2 || nparents > UINT32_MAX / 2 ||
		(len = wire_size_list((uint32_t) p->nlist, (uint32_t) nparents)) > list_max)
	{
		unsigned char over[WIRE_LIST_OVER_SIZE];

		out_record(WIRE_LIST, over, wire_encode_list_over(over));
		return;
	}
	rec = xmalloc(len);
	(void) unlisted_parents(p, wire_encode_list_begin(rec, (uint32_t) p->nlist, p->list, (uint32_t) nparents));
	out_record(WIRE_LIST, rec, len);
	free(rec);
}

/*
 * The history of heads without what is reachable from hide (the previous
 * load's head), as `git rev-list HEADS ^HIDE` lists it, sent in the order
 * and form of walk_history(), which it would send if it were told every
 * commit reachable from hide.  Both sides are walked together, newest first,
 * each commit marked new (reached from heads only) or old; a new one that
 * an old one reaches turns old, with what it reaches.  A new commit is sent
 * once every commit left to read is older than it: where no commit is older
 * than one of its parents, no old commit can reach it after that.  The walk
 * stops when no new commit is left to read and the newest one left is older
 * than every new commit.  Where a commit is older than one of its parents
 * (clock skew), a commit of the previous load may be sent; the backend
 * holds it, and skips it.  A hidden commit that is not in the repository
 * any more hides nothing.  A single head (a refresh) is taken first, as git
 * takes its heads, whatever its date: a head dated before the previous
 * head (clock skew) waited in the heap until every old commit newer than it
 * was read, most of the history (for one commit dated years early); it is
 * the first new commit either way, so
 * the order sent is the same.  Several heads (a stable scope) keep the
 * order of their dates.
 */
static void
walk_hidden_pass(Repo *r, const git_oid *heads, int nheads, const FixesOid *hide, uint32_t nhide,
				 bool files, bool listing, size_t list_max)
{
	Paint		p = {0};
	Heap		heap = {0};
	Fifo		fifo = {0};
	RecBuf		b = {0};
	uint64_t	seq = 0;
	bool		any_done = false;
	int64_t		oldest_done = 0;

	p.seen = oidset_new(1024);
	p.listing = listing;
	/* a listing pass keeps what it reads for the pass after it; that one takes it */
	if (listing)
	{
		replay_drop();
		replay.recording = true;
		replay.max = replay_max();
	}
	for (uint32_t i = 0; i < nhide; i++)
	{
		bool		added;
		uint32_t	at;
		git_oid		oid;

		memcpy(oid.id, hide[i].id, FIXES_OID_RAWSZ);
		if (!git_odb_exists(r->odb, &oid))
			continue;
		at = paint_add(&p, hide[i].id, &added);
		if (added)
			(void) paint_push(r, &p, &heap, at, OLD, false, &seq);
	}
	for (int h = 0; h < nheads; h++)
	{
		bool		added;
		uint32_t	at = paint_add(&p, heads[h].id, &added);

		if (added && !paint_push(r, &p, &heap, at, NEW_QUEUED, nheads == 1, &seq))
			fail_missing_head(r, &heads[h]);
	}

	while (heap.len > 0)
	{
		Node		cur;
		fixes_raw_commit raw;
		bool		old;

		if (p.new_queued == 0 && (!any_done || heap.nodes[0].time < oldest_done))
			break;
		cur = heap_pop(&heap);
		old = p.state[cur.at] == OLD;
		if (fixes_raw_commit_parse(git_odb_object_data(cur.obj), git_odb_object_size(cur.obj), &raw) != 0)
			fail("XX001", NULL, NULL, "a commit of repository \"%s\" is malformed", r->path);
		if (!old)
		{
			p.state[cur.at] = NEW_DONE;
			p.new_queued--;
			if (!any_done || cur.time < oldest_done)
				oldest_done = cur.time;
			any_done = true;
			p.par_start[cur.at] = (uint32_t) p.npars;
		}
		for (int i = 0; i < raw.nparents; i++)
		{
			git_oid		poid;
			bool		added;
			uint32_t	at;

			parent_oid(r, &raw, i, &poid);
			at = paint_add(&p, poid.id, &added);
			if (added)
				(void) paint_push(r, &p, &heap, at, old ? OLD : NEW_QUEUED, false, &seq);
			else if (old)
				paint_old(&p, at);
			if (!old)
			{
				if (p.npars == p.pars_cap)
				{
					p.pars_cap = p.pars_cap ? 2 * p.pars_cap : 1024;
					p.pars = xrealloc(p.pars, sizeof(uint32_t) * p.pars_cap);
				}
				p.pars[p.npars++] = at;
			}
		}
		if (old)
			git_odb_object_free(cur.obj);
		else
		{
			p.par_end[cur.at] = (uint32_t) p.npars;
			if (fifo.len == fifo.cap)
			{
				fifo.cap = fifo.cap ? 2 * fifo.cap : 64;
				fifo.nodes = xrealloc(fifo.nodes, sizeof(Node) * fifo.cap);
			}
			fifo.nodes[fifo.len++] = cur;
		}
		/* what nothing left to read is as new as */
		while (fifo.head < fifo.len &&
			   (heap.len == 0 || heap.nodes[0].time < fifo.nodes[fifo.head].time))
			send_first(r, &p, &fifo, &b, files);
	}
	while (fifo.head < fifo.len)
		send_first(r, &p, &fifo, &b, files);
	while (heap.len > 0)
	{
		Node		rest = heap_pop(&heap);

		git_odb_object_free(rest.obj);
	}
	if (listing)
	{
		send_list(&p, list_max);
		replay.recording = false;
	}
	else
		replay_drop();

	free(fifo.nodes);
	free(b.rec);
	free(heap.nodes);
	free(p.state);
	free(p.par_start);
	free(p.par_end);
	free(p.pars);
	free(p.stack);
	free(p.list);
	free(p.listed);
	free(p.seen->slots);
	free(p.seen->oids);
	free(p.seen);
}

void
walk_hidden(Repo *r, const git_oid *heads, int nheads, const FixesOid *hide, uint32_t nhide,
			bool files)
{
	walk_hidden_pass(r, heads, nheads, hide, nhide, files, false, 0);
}

/*
 * What walk_hidden() will send, first, in one 'L' record (at most list_max
 * bytes): a pass of the same walk that sends nothing, so that the backend
 * knows which old commits the commits to come name before the first of
 * them (the backend's refresh/old_ids.c), whatever order they come in
 */
void
walk_hidden_list(Repo *r, const git_oid *heads, int nheads, const FixesOid *hide, uint32_t nhide,
				 size_t list_max)
{
	walk_hidden_pass(r, heads, nheads, hide, nhide, false, true, list_max);
}
