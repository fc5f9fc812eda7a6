/*
 * walk.c — read every commit reachable from some start points, newest first
 *
 * Each commit object is read from the object database exactly once (no
 * revwalk + git_commit_lookup double read): a parent is read when it is
 * discovered, waits in a heap ordered by committer time, and is returned
 * when it is the newest one left, as `git log` orders a history.  Objects
 * waiting in the heap are libgit2 memory: fixes_walk_release() frees them
 * and must be called in PG_FINALLY.
 */
#include "postgres.h"

#include "miscadmin.h"

#include "loose_check.h"
#include "walk.h"

FixesWalk *
fixes_walk_create(FixesGit *git, FixesGraph *graph, bool record_parents)
{
	FixesWalk  *w = palloc0(sizeof(FixesWalk));

	w->git = git;
	w->graph = graph;
	w->record_parents = record_parents;
	w->heap_cap = 64;
	w->heap = palloc(sizeof(FixesWalkNode) * w->heap_cap);
	w->pbuf_cap = 16;
	w->pbuf = palloc(sizeof(uint32) * w->pbuf_cap);
	w->shallow = git_repository_is_shallow(git->repo) == 1;
	return w;
}

void
fixes_walk_release(FixesWalk *w)
{
	if (w == NULL)
		return;
	git_odb_object_free(w->current);
	w->current = NULL;
	for (int i = 0; i < w->heap_len; i++)
		git_odb_object_free(w->heap[i].obj);
	w->heap_len = 0;
}

void
fixes_walk_report(FixesWalk *w)
{
	if (w->missing_parents > 0)
		ereport(WARNING,
				(errmsg_plural("repository \"%s\" is a shallow clone: %lld parent commit is missing",
							   "repository \"%s\" is a shallow clone: %lld parent commits are missing",
							   (unsigned long) w->missing_parents,
							   w->git->path, (long long) w->missing_parents),
				 errdetail("The history was read down to the shallow boundary."),
				 errhint("Run \"git fetch --unshallow\" in the repository to read all of it.")));
}

static inline bool
node_before(const FixesWalkNode *a, const FixesWalkNode *b)
{
	return a->time > b->time || (a->time == b->time && a->seq < b->seq);
}

static void
heap_push(FixesWalk *w, const FixesWalkNode *node)
{
	int			i;

	if (w->heap_len == w->heap_cap)
	{
		w->heap_cap *= 2;
		w->heap = repalloc(w->heap, sizeof(FixesWalkNode) * w->heap_cap);
	}
	i = w->heap_len++;
	while (i > 0)
	{
		int			parent = (i - 1) / 2;

		if (!node_before(node, &w->heap[parent]))
			break;
		w->heap[i] = w->heap[parent];
		i = parent;
	}
	w->heap[i] = *node;
}

static void
heap_pop(FixesWalk *w, FixesWalkNode *out)
{
	FixesWalkNode last;
	int			i = 0;

	*out = w->heap[0];
	last = w->heap[--w->heap_len];
	for (;;)
	{
		int			c = 2 * i + 1;

		if (c >= w->heap_len)
			break;
		if (c + 1 < w->heap_len && node_before(&w->heap[c + 1], &w->heap[c]))
			c++;
		if (!node_before(&w->heap[c], &last))
			break;
		w->heap[i] = w->heap[c];
		i = c;
	}
	if (w->heap_len > 0)
		w->heap[i] = last;
}

static void
oid_hex(char *buf, const git_oid *oid)
{
	fixes_format_oid(buf, oid);
}

/*
 * Read and parse the commit oid.  Returns NULL when the object is missing
 * from a shallow clone; any other failure is an error naming the object.
 */
static git_odb_object *
read_commit(FixesWalk *w, const git_oid *oid, fixes_raw_commit *raw)
{
	git_odb_object *obj = NULL;
	char		hex[GIT_OID_HEXSZ + 1];
	int			rc;

	fixes_loose_check(w->git, oid);
	rc = git_odb_read(&obj, w->git->odb, oid);
	if (rc == GIT_ENOTFOUND && w->shallow)
		return NULL;
	if (rc < 0)
	{
		oid_hex(hex, oid);
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("could not read commit %s of repository \"%s\"", hex, w->git->path),
				 errdetail_git(rc)));
	}
	if (git_odb_object_type(obj) != GIT_OBJECT_COMMIT)
	{
		git_object_t type = git_odb_object_type(obj);

		git_odb_object_free(obj);
		oid_hex(hex, oid);
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("object %s of repository \"%s\" is a %s, not a commit",
						hex, w->git->path, git_object_type2string(type))));
	}
	if (fixes_raw_commit_parse(git_odb_object_data(obj), git_odb_object_size(obj), raw) != 0)
	{
		git_odb_object_free(obj);
		oid_hex(hex, oid);
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("commit %s of repository \"%s\" is malformed", hex, w->git->path)));
	}
	return obj;
}

/*
 * Read the commit oid, add it to the graph and queue it.  Returns its index,
 * or FIXES_NO_IDX when it is missing from a shallow clone.
 */
static uint32
discover(FixesWalk *w, const git_oid *oid)
{
	FixesWalkNode node;
	bool		found;

	node.obj = read_commit(w, oid, &node.raw);
	if (node.obj == NULL)
		return FIXES_NO_IDX;
	node.idx = fixes_graph_add(w->graph, oid, &found);
	node.time = node.raw.committer.time;
	node.seq = w->seq++;
	heap_push(w, &node);
	return node.idx;
}

/*
 * Start the walk (also) at oid.  Returns false if it was already seen.
 */
bool
fixes_walk_push(FixesWalk *w, const git_oid *oid)
{
	if (fixes_graph_lookup(w->graph, oid) != FIXES_NO_IDX)
		return false;
	if (discover(w, oid) == FIXES_NO_IDX)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("commit %s is missing from repository \"%s\"",
						git_oid_tostr_s(oid), w->git->path)));
	return true;
}

bool
fixes_walk_next(FixesWalk *w, FixesCommit *out)
{
	FixesWalkNode node;
	int			np = 0;

	CHECK_FOR_INTERRUPTS();

	git_odb_object_free(w->current);
	w->current = NULL;
	if (w->heap_len == 0)
		return false;
	heap_pop(w, &node);
	w->current = node.obj;

	if (node.raw.nparents > w->pbuf_cap)
	{
		w->pbuf_cap = node.raw.nparents;
		w->pbuf = repalloc(w->pbuf, sizeof(uint32) * w->pbuf_cap);
	}
	for (int i = 0; i < node.raw.nparents; i++)
	{
		git_oid		poid;
		uint32		pidx;

		if (git_oid_fromstrn(&poid, fixes_raw_commit_parent(&node.raw, i), GIT_OID_HEXSZ) < 0)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("commit %s of repository \"%s\" has a malformed parent",
							git_oid_tostr_s(&w->graph->oids[node.idx]), w->git->path)));
		pidx = fixes_graph_lookup(w->graph, &poid);
		if (pidx == FIXES_NO_IDX)
		{
			pidx = discover(w, &poid);
			if (pidx == FIXES_NO_IDX)
			{
				/* beyond the boundary of a shallow clone: count each once */
				bool		found;

				if (w->missing == NULL)
					w->missing = fixes_graph_create(CurrentMemoryContext);
				(void) fixes_graph_add(w->missing, &poid, &found);
				w->missing_parents += !found;
				continue;
			}
		}
		w->pbuf[np++] = pidx;
	}
	if (w->record_parents)
		fixes_graph_set_parents(w->graph, node.idx, w->pbuf, np);

	out->idx = node.idx;
	out->oid = &w->graph->oids[node.idx];
	out->raw = node.raw;
	return true;
}
