/*
 * files.c — the changed files of one commit, as `git log --numstat --no-renames`
 *
 * A non-merge commit is compared with its parent's tree (the empty tree for
 * a root commit, or for a commit whose parent lies beyond a shallow
 * boundary).  The two trees are merged in git's tree order, identical
 * subtrees skipped, so the cost is that of what changed.  Each changed
 * entry that is not a tree on both sides becomes one row; its contents are
 * compared as git does for --numstat:
 *   - a blob is its data, a gitlink (submodule) the text "Subproject commit
 *     <hex>\n", a missing side (added, deleted) nothing;
 *   - a NUL byte in the first 8000 bytes of either side makes the file
 *     binary: no counts (git prints "-");
 *   - otherwise the lines added and deleted by a diff of the two (libgit2's
 *     xdiff, the diff git itself uses), 0 and 0 when the contents are equal.
 * A file replaced by a directory (or the reverse) is a deletion of one and
 * additions under the other, as in git's output.
 *
 * Partial clones: a blob that is not in the object database gives a row
 * with no counts (kind FILE_MISSING); a tree that is not there leaves the
 * commit without rows (state FILES_TREE_MISSING).  Nothing is fetched:
 * libgit2 has no promisor remotes, and the reader has no network anyway.
 *
 * Trees and blobs come from pack_read.c, which rebuilds delta chains
 * through a cache that keeps what it rebuilt; what it does not read (loose
 * objects, alternates, damaged entries) libgit2 reads as before, and its
 * trees are parsed here only when every mode is one git writes (else
 * libgit2's parser has them, with its errors).
 *
 * Record 'F' (wire.h), sent right after the commit's 'C' record.  The
 * worker processes of files_pool.c compare the trees of several commits at
 * once, each with send_files() as here.
 */
#include "reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BINARY_CHECK_BYTES 8000

typedef struct FileRows
{
	unsigned char *buf;
	size_t		len;
	size_t		cap;
	uint32_t	n;
	bool		tree_missing;
	char	   *path;			/* the directory being compared, with '/' */
	size_t		path_len;
	size_t		path_cap;
} FileRows;

static FileRows rows;

static void
rows_reserve(size_t more)
{
	if (rows.len + more > rows.cap)
	{
		rows.cap = (rows.len + more) * 2;
		rows.buf = xrealloc(rows.buf, rows.cap);
	}
}

static void
rows_add(int kind, uint32_t added, uint32_t deleted, const char *name, size_t name_len)
{
	size_t		plen = rows.path_len + name_len;

	unsigned char *path;

	rows_reserve(wire_size_file_row(plen));
	path = wire_encode_file_row_begin(rows.buf + rows.len, kind, added, deleted, (uint32_t) plen);
	memcpy(path, rows.path, rows.path_len);
	memcpy(path + rows.path_len, name, name_len);
	rows.len += wire_size_file_row(plen);
	rows.n++;
}

/*
 * An entry of a tree: its name (NUL-terminated, name_len bytes), its mode
 * as git_tree_entry_filemode() gives it, its id.  It points into the tree
 * it belongs to (Tree below), read from a pack (pack_read.c) or by libgit2.
 */
typedef struct TreeEnt
{
	const char *name;
	size_t		name_len;
	git_filemode_t mode;
	const git_oid *id;
} TreeEnt;

/* the content of one side of a file: blob data or a gitlink's text */
typedef struct Side
{
	git_blob   *blob;
	PackObject	obj;
	const char *data;
	size_t		size;
	char		text[64];
	bool		missing;
} Side;

static void
side_load(Repo *r, const TreeEnt *e, Side *s)
{
	const git_oid *oid;
	int			rc;

	memset(s, 0, sizeof(*s));
	if (e == NULL)
	{
		s->data = "";
		return;
	}
	oid = e->id;
	if (e->mode == GIT_FILEMODE_COMMIT)
	{
		char		hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), oid);
		s->size = (size_t) snprintf(s->text, sizeof(s->text), "Subproject commit %s\n", hex);
		s->data = s->text;
		return;
	}
	if (pack_read(r, oid, GIT_OBJECT_BLOB, &s->obj))
	{
		s->data = (const char *) s->obj.data;
		s->size = s->obj.size;
		return;
	}
	loose_check(r, oid);
	rc = git_blob_lookup(&s->blob, r->repo, oid);
	if (rc == GIT_ENOTFOUND)
	{
		s->missing = true;
		s->data = "";
		return;
	}
	if (rc < 0)
	{
		char		hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), oid);
		fail_git(rc, "XX001", "could not read blob %s of repository \"%s\"", hex, r->path);
	}
	s->data = git_blob_rawcontent(s->blob);
	s->size = (size_t) git_blob_rawsize(s->blob);
}

static bool
side_binary(const Side *s)
{
	size_t		n = s->size < BINARY_CHECK_BYTES ? s->size : BINARY_CHECK_BYTES;

	return n > 0 && memchr(s->data, '\0', n) != NULL;
}

/* the lines of a side, as a diff against nothing counts them (a last line without '\n' too) */
static uint32_t
count_lines(const Side *s)
{
	uint32_t	n = 0;
	const char *p = s->data;
	const char *end = s->data + s->size;

	while (p < end && (p = memchr(p, '\n', (size_t) (end - p))) != NULL)
	{
		n++;
		p++;
	}
	if (s->size > 0 && s->data[s->size - 1] != '\n')
		n++;
	return n;
}

/* without context lines, a hunk's old and new lines are the lines deleted and added */
static int
count_hunk(const git_diff_delta *delta, const git_diff_hunk *hunk, void *payload)
{
	uint32_t   *counts = payload;

	counts[0] += (uint32_t) hunk->new_lines;
	counts[1] += (uint32_t) hunk->old_lines;
	return 0;
}

/* one row: the file name (under rows.path) changed from old to new */
static void
file_row(Repo *r, const TreeEnt *old, const TreeEnt *new,
		 const char *name, size_t name_len)
{
	Side		a,
				b;
	uint32_t	counts[2] = {0, 0};

	side_load(r, old, &a);
	side_load(r, new, &b);
	if (a.missing || b.missing)
		rows_add(FILE_MISSING, 0, 0, name, name_len);
	else if (side_binary(&a) || side_binary(&b))
		rows_add(FILE_BINARY, 0, 0, name, name_len);
	else if (old == NULL || new == NULL)
	{
		/* an addition or a deletion: every line of the one side */
		rows_add(FILE_TEXT, count_lines(&b), count_lines(&a), name, name_len);
	}
	else
	{
		if (!git_oid_equal(old->id, new->id))
		{
			git_diff_options opts;
			int			rc;

			git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
			opts.context_lines = 0;
			opts.interhunk_lines = 0;
			opts.flags = GIT_DIFF_FORCE_TEXT;
			rc = git_diff_buffers(a.data, a.size, NULL, b.data, b.size, NULL, &opts,
								  NULL, NULL, count_hunk, NULL, counts);
			if (rc < 0)
				fail_git(rc, "XX000", "could not compare two versions of a file of repository \"%s\"",
						 r->path);
		}
		rows_add(FILE_TEXT, counts[0], counts[1], name, name_len);
	}
	git_blob_free(a.blob);
	git_blob_free(b.blob);
	pack_release(&a.obj);
	pack_release(&b.obj);
}

static void compare_trees(Repo *r, const git_oid *old, const git_oid *new);

/* every file under tree entry e (under rows.path), added or deleted */
static void
path_push(const char *name, size_t len, size_t *saved)
{
	*saved = rows.path_len;
	if (rows.path_len + len + 2 > rows.path_cap)
	{
		rows.path_cap = (rows.path_len + len + 2) * 2;
		rows.path = xrealloc(rows.path, rows.path_cap);
	}
	memcpy(rows.path + rows.path_len, name, len);
	rows.path_len += len;
	rows.path[rows.path_len++] = '/';
}

static void
subtree(Repo *r, const TreeEnt *old, const TreeEnt *new)
{
	const TreeEnt *e = old ? old : new;
	size_t		saved;

	path_push(e->name, e->name_len, &saved);
	compare_trees(r, old ? old->id : NULL, new ? new->id : NULL);
	rows.path_len = saved;
}

/* git's tree order: a tree's name is compared as if it ended in '/' */
static int
entry_cmp(const TreeEnt *a, const TreeEnt *b)
{
	size_t		n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int			c = memcmp(a->name, b->name, n);
	unsigned char cx,
				cy;

	if (c != 0)
		return c;
	cx = n < a->name_len ? (unsigned char) a->name[n] : a->mode == GIT_FILEMODE_TREE ? '/' : '\0';
	cy = n < b->name_len ? (unsigned char) b->name[n] : b->mode == GIT_FILEMODE_TREE ? '/' : '\0';
	return cx < cy ? -1 : cx > cy;
}

/*
 * A tree, read from a pack (obj) or by libgit2 (gt), and its entries.
 * Trees are reused (free_trees) with their arrays of entries.
 */
typedef struct Tree
{
	git_oid		id;
	git_tree   *gt;
	PackObject	obj;
	TreeEnt    *ents;
	size_t		n;
	size_t		cap;
	struct Tree *next_free;
} Tree;

static Tree *free_trees;

static void
tree_free(Tree *t)
{
	if (t == NULL)
		return;
	git_tree_free(t->gt);
	t->gt = NULL;
	pack_release(&t->obj);
	t->n = 0;
	t->next_free = free_trees;
	free_trees = t;
}

static TreeEnt *
tree_add(Tree *t)
{
	if (t->n == t->cap)
	{
		t->cap = t->cap ? 2 * t->cap : 32;
		t->ents = xrealloc(t->ents, sizeof(TreeEnt) * t->cap);
	}
	return &t->ents[t->n++];
}

/*
 * The entries of a tree object's data, for the trees whose every mode is
 * one git writes (as text: 40000, 100644, 100755, 120000, 160000); false
 * for anything else, which libgit2 then parses (or rejects) as before.
 * Otherwise the checks are libgit2's (git_tree__parse_raw): a name of 1 to
 * 65535 bytes up to a NUL, then 20 bytes of id.
 */
static bool
tree_parse(Tree *t, const char *data, size_t size)
{
	const char *p = data;
	const char *end = data + size;

	while (p < end)
	{
		TreeEnt    *e;
		git_filemode_t mode;
		const char *nul;
		size_t		left = (size_t) (end - p);

		if (left > 6 && memcmp(p, "100644 ", 7) == 0)
			mode = GIT_FILEMODE_BLOB, p += 7;
		else if (left > 5 && memcmp(p, "40000 ", 6) == 0)
			mode = GIT_FILEMODE_TREE, p += 6;
		else if (left > 6 && memcmp(p, "100755 ", 7) == 0)
			mode = GIT_FILEMODE_BLOB_EXECUTABLE, p += 7;
		else if (left > 6 && memcmp(p, "120000 ", 7) == 0)
			mode = GIT_FILEMODE_LINK, p += 7;
		else if (left > 6 && memcmp(p, "160000 ", 7) == 0)
			mode = GIT_FILEMODE_COMMIT, p += 7;
		else
			return false;
		nul = memchr(p, '\0', (size_t) (end - p));
		if (nul == NULL || nul == p || nul - p > UINT16_MAX || end - (nul + 1) < GIT_OID_RAWSZ)
			return false;
		e = tree_add(t);
		e->name = p;
		e->name_len = (size_t) (nul - p);
		e->mode = mode;
		e->id = (const git_oid *) (nul + 1);
		p = nul + 1 + GIT_OID_RAWSZ;
	}
	return true;
}

/*
 * The trees of the parent's side of the last comparison, kept for the next
 * one: the walk goes from a commit to its parent, so the next comparison's
 * new side is mostly this one's old side (the root tree, the directories
 * changed in both commits).  Each entry owns its tree.
 */
typedef struct TreeList
{
	Tree	  **trees;
	size_t		n;
	size_t		cap;
} TreeList;

static TreeList kept;			/* from the last comparison */
static TreeList keeping;		/* for the next one */

static void
tree_keep(Tree *t)
{
	if (t == NULL)
		return;
	if (keeping.n == keeping.cap)
	{
		keeping.cap = keeping.cap ? 2 * keeping.cap : 64;
		keeping.trees = xrealloc(keeping.trees, sizeof(Tree *) * keeping.cap);
	}
	keeping.trees[keeping.n++] = t;
}

/* a comparison is done: what it kept replaces what the last one kept */
static void
trees_rotate(void)
{
	TreeList	t;

	for (size_t i = 0; i < kept.n; i++)
		tree_free(kept.trees[i]);
	kept.n = 0;
	t = kept;
	kept = keeping;
	keeping = t;
}

static Tree *
tree_load(Repo *r, const git_oid *oid)
{
	Tree	   *t;
	git_tree   *gt = NULL;
	int			rc;

	if (oid == NULL || rows.tree_missing)
		return NULL;
	for (size_t i = 0; i < kept.n; i++)
		if (git_oid_equal(&kept.trees[i]->id, oid))
		{
			t = kept.trees[i];
			kept.trees[i] = kept.trees[--kept.n];
			return t;
		}
	if (free_trees != NULL)
	{
		t = free_trees;
		free_trees = t->next_free;
	}
	else
	{
		t = xmalloc(sizeof(Tree));
		memset(t, 0, sizeof(Tree));
	}
	git_oid_cpy(&t->id, oid);
	if (pack_read(r, oid, GIT_OBJECT_TREE, &t->obj))
	{
		if (tree_parse(t, (const char *) t->obj.data, t->obj.size))
			return t;
		pack_release(&t->obj);
		t->n = 0;
	}
	loose_check(r, oid);
	rc = git_tree_lookup(&gt, r->repo, oid);
	if (rc == GIT_ENOTFOUND)
	{
		rows.tree_missing = true;
		tree_free(t);
		return NULL;
	}
	if (rc < 0)
	{
		char		hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), oid);
		fail_git(rc, "XX001", "could not read tree %s of repository \"%s\"", hex, r->path);
	}
	t->gt = gt;
	for (size_t i = 0, n = git_tree_entrycount(gt); i < n; i++)
	{
		const git_tree_entry *ge = git_tree_entry_byindex(gt, i);
		TreeEnt    *e = tree_add(t);

		e->name = git_tree_entry_name(ge);
		e->name_len = strlen(e->name);
		e->mode = git_tree_entry_filemode(ge);
		e->id = git_tree_entry_id(ge);
	}
	return t;
}

static void
compare_trees(Repo *r, const git_oid *old, const git_oid *new)
{
	Tree	   *a,
			   *b;
	size_t		i = 0,
				j = 0,
				na,
				nb;

	if (old != NULL && new != NULL && git_oid_equal(old, new))
		return;
	a = tree_load(r, old);
	b = tree_load(r, new);
	if (rows.tree_missing)
	{
		tree_keep(a);
		tree_free(b);
		return;
	}
	na = a ? a->n : 0;
	nb = b ? b->n : 0;
	while ((i < na || j < nb) && !rows.tree_missing)
	{
		const TreeEnt *x = i < na ? &a->ents[i] : NULL;
		const TreeEnt *y = j < nb ? &b->ents[j] : NULL;
		int			c = x == NULL ? 1 : y == NULL ? -1 : entry_cmp(x, y);

		if (c == 0)
		{
			i++, j++;
			if (git_oid_equal(x->id, y->id) && x->mode == y->mode)
				continue;
			if (x->mode == GIT_FILEMODE_TREE)	/* both trees: same name with '/' */
				subtree(r, x, y);
			else
				file_row(r, x, y, x->name, x->name_len);
			continue;
		}
		/* x only (deleted) or y only (added) */
		if (c > 0)
			x = NULL, j++;
		else
			y = NULL, i++;
		{
			const TreeEnt *e = x ? x : y;

			if (e->mode == GIT_FILEMODE_TREE)
				subtree(r, x, y);
			else
				file_row(r, x, y, e->name, e->name_len);
		}
	}
	tree_keep(a);
	tree_free(b);
}

/*
 * Send the 'F' record of a commit with the given tree: a merge (nparents > 1)
 * has no rows; otherwise it is compared with parent_tree (NULL: the empty
 * tree).  parent_unreadable: the parent's commit object could not be read
 * for its tree, as if its tree were missing.
 */
void
send_files(Repo *r, const git_oid *tree, int nparents, const git_oid *parent_tree,
		   bool parent_unreadable)
{
	rows.len = 0;
	rows.n = 0;
	rows.tree_missing = false;
	rows.path_len = 0;
	rows_reserve(WIRE_FILES_HEAD_SIZE);
	rows.len = WIRE_FILES_HEAD_SIZE;
	if (parent_unreadable)
		rows.tree_missing = true;
	else if (nparents <= 1)
	{
		compare_trees(r, parent_tree, tree);
		trees_rotate();
	}
	if (rows.tree_missing)
	{
		rows.len = WIRE_FILES_HEAD_SIZE;
		rows.n = 0;
	}
	wire_encode_files_head(rows.buf,
						   nparents > 1 ? FILES_MERGE : rows.tree_missing ? FILES_TREE_MISSING : FILES_DIFFED,
						   rows.n);
	out_record(WIRE_FILES, rows.buf, rows.len);
}

/*
 * The tree of commit id, into out; false when the commit or its tree id
 * cannot be read (a missing parent: then the commit is compared with the
 * empty tree, as git does at a shallow boundary).
 */
bool
commit_tree(Repo *r, const git_oid *id, git_oid *out)
{
	git_odb_object *obj = NULL;
	const char *data;
	size_t		size;

	if (git_odb_read(&obj, r->odb, id) < 0)
		return false;
	data = git_odb_object_data(obj);
	size = git_odb_object_size(obj);
	if (git_odb_object_type(obj) != GIT_OBJECT_COMMIT || size < 5 + GIT_OID_HEXSZ ||
		memcmp(data, "tree ", 5) != 0 || git_oid_fromstrn(out, data + 5, GIT_OID_HEXSZ) < 0)
	{
		git_odb_object_free(obj);
		return false;
	}
	git_odb_object_free(obj);
	return true;
}
