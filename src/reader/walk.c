/*
 * walk.c — the history, newest first, each commit read once
 *
 * A parent is read from the object database when it is discovered, waits
 * in a heap ordered by committer time (discovery order breaks ties), and
 * is sent when it is the newest one left, as `git log` orders a history.
 * Commits the backend already holds (a refresh sends their ids) are not
 * read again.  For each sent commit, one flag per parent tells the backend
 * whether the parent is in the history or missing beyond a shallow
 * boundary, so that it numbers the commits exactly as they were discovered.
 */
#include "reader.h"

#include <stdlib.h>
#include <string.h>

#include "../commit_raw.h"

typedef struct Node
{
	git_odb_object *obj;
	int64_t		time;
	uint64_t	seq;
} Node;

typedef struct Heap
{
	Node	   *nodes;
	size_t		len;
	size_t		cap;
} Heap;

static inline bool
node_before(const Node *a, const Node *b)
{
	return a->time > b->time || (a->time == b->time && a->seq < b->seq);
}

static void
heap_push(Heap *h, const Node *node)
{
	size_t		i;

	if (h->len == h->cap)
	{
		h->cap = h->cap ? 2 * h->cap : 64;
		h->nodes = xrealloc(h->nodes, sizeof(Node) * h->cap);
	}
	i = h->len++;
	while (i > 0)
	{
		size_t		parent = (i - 1) / 2;

		if (!node_before(node, &h->nodes[parent]))
			break;
		h->nodes[i] = h->nodes[parent];
		i = parent;
	}
	h->nodes[i] = *node;
}

static Node
heap_pop(Heap *h)
{
	Node		top = h->nodes[0];
	Node		last = h->nodes[--h->len];
	size_t		i = 0;

	for (;;)
	{
		size_t		c = 2 * i + 1;

		if (c >= h->len)
			break;
		if (c + 1 < h->len && node_before(&h->nodes[c + 1], &h->nodes[c]))
			c++;
		if (!node_before(&h->nodes[c], &last))
			break;
		h->nodes[i] = h->nodes[c];
		i = c;
	}
	if (h->len > 0)
		h->nodes[i] = last;
	return top;
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
	if (fixes_raw_commit_parse(git_odb_object_data(obj), git_odb_object_size(obj), raw) != 0)
		fail("XX001", NULL, NULL, "commit %s of repository \"%s\" is malformed", hex, r->path);
	return obj;
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

		if (git_oid_fromstrn(&poid, fixes_raw_commit_parent(raw, 0), GIT_OID_HEXSZ) < 0)
			fail("XX001", NULL, NULL, "a commit of repository \"%s\" has a malformed parent",
				 r->path);
		if (!commit_tree(r, &poid, &ptree))
		{
			send_files(r, &tree, raw->nparents, NULL, true);
			return;
		}
		have_parent = true;
	}
	send_files(r, &tree, raw->nparents, have_parent ? &ptree : NULL, false);
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
	unsigned char *rec = NULL;
	size_t		rec_cap = 0;
	fixes_raw_commit raw;
	Node		node;

	for (int h = 0; h < nheads; h++)
	{
		const git_oid *head = &heads[h];

		if (oidset_contains(known, head->id))
			continue;
		node.obj = read_commit(r, head, &raw);
		if (node.obj == NULL)
		{
			char		hex[GIT_OID_HEXSZ + 1];

			git_oid_tostr(hex, sizeof(hex), head);
			fail("XX001", NULL, NULL, "commit %s is missing from repository \"%s\"", hex, r->path);
		}
		oidset_add(known, head->id);
		node.time = raw.committer.time;
		node.seq = seq++;
		heap_push(&heap, &node);
	}

	while (heap.len > 0)
	{
		Node		cur = heap_pop(&heap);
		const void *data = git_odb_object_data(cur.obj);
		size_t		size = git_odb_object_size(cur.obj);
		size_t		need;
		size_t		off;

		if (fixes_raw_commit_parse(data, size, &raw) != 0)
			fail("XX001", NULL, NULL, "a commit of repository \"%s\" is malformed", r->path);
		need = FIXES_OID_RAWSZ + 4 + (size_t) raw.nparents + size;
		if (need > rec_cap)
		{
			rec_cap = need * 2;
			rec = xrealloc(rec, rec_cap);
		}
		memcpy(rec, git_odb_object_id(cur.obj)->id, FIXES_OID_RAWSZ);
		wire_put_u32(rec + FIXES_OID_RAWSZ, (uint32_t) raw.nparents);
		off = FIXES_OID_RAWSZ + 4;
		for (int i = 0; i < raw.nparents; i++)
		{
			git_oid		poid;
			fixes_raw_commit praw;
			Node		pnode;

			if (git_oid_fromstrn(&poid, fixes_raw_commit_parent(&raw, i), GIT_OID_HEXSZ) < 0)
				fail("XX001", NULL, NULL, "a commit of repository \"%s\" has a malformed parent",
					 r->path);
			rec[off + i] = 1;
			if (oidset_contains(known, poid.id))
				continue;
			pnode.obj = read_commit(r, &poid, &praw);
			if (pnode.obj == NULL)
			{
				rec[off + i] = 0;	/* beyond the shallow boundary */
				continue;
			}
			oidset_add(known, poid.id);
			pnode.time = praw.committer.time;
			pnode.seq = seq++;
			heap_push(&heap, &pnode);
		}
		off += (size_t) raw.nparents;
		memcpy(rec + off, data, size);
		out_record(WIRE_COMMIT, rec, off + size);
		if (files)
			files_of(r, &raw, rec + FIXES_OID_RAWSZ + 4);
		git_odb_object_free(cur.obj);
	}
	free(heap.nodes);
	free(rec);
}
