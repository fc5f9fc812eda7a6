/*
 * blob.c — fixes-reader blob PATH COMMITHEX FILEPATH: one file of a tree
 *
 * Sends an 'O' record with the content of FILEPATH in the tree of commit
 * COMMITHEX (or found = 0, or is_tree when it names a directory), then a 'D'
 * record per directory of that tree, so that the backend knows which
 * MAINTAINERS patterns name a directory (get_maintainer.pl reads them as if
 * they ended in '/').  A blob missing from a partial clone is an error: the
 * backend cannot attribute paths without the file.  lenient (blobs mode, the
 * file at each release): a tree or blob missing from a partial clone is sent
 * as no file (found = 0, no directories), and the backend takes the oldest
 * release's that has it, as for a release that lacks it.
 */
#include "reader.h"

#include <stdlib.h>
#include <string.h>

static int
send_dir(const char *root, const git_tree_entry *entry, void *payload)
{
	const char *name = git_tree_entry_name(entry);
	size_t		lr = strlen(root),
				ln = strlen(name);
	char	   *path;
	WireStr		dir;
	unsigned char *rec;

	if (git_tree_entry_filemode(entry) != GIT_FILEMODE_TREE)
		return 0;
	path = xmalloc(lr + ln);
	memcpy(path, root, lr);
	memcpy(path + lr, name, ln);
	dir.s = path;
	dir.len = (uint32_t) (lr + ln);
	rec = xmalloc(wire_size_name(&dir));
	out_record(WIRE_DIR, rec, wire_encode_name(rec, &dir));
	free(rec);
	free(path);
	return 0;
}

/* the 'O' record: found, is_tree, the content */
static void
send_blob_record(int found, int is_tree, const void *data, size_t len)
{
	WireBlob	b = {found, is_tree, data, len};
	unsigned char *rec = xmalloc(wire_size_blob(len));

	out_record(WIRE_BLOB, rec, wire_encode_blob(rec, &b));
	free(rec);
}

void
send_blob(Repo *r, const git_oid *commit_id, const char *path, bool lenient)
{
	git_commit *commit = NULL;
	git_tree   *tree = NULL;
	git_tree_entry *entry = NULL;
	git_blob   *blob = NULL;
	int			rc;

	loose_check(r, commit_id);
	rc = git_commit_lookup(&commit, r->repo, commit_id);
	if (rc < 0)
		fail_git(rc, "XX001", "could not read the commit of the reference of repository \"%s\"", r->path);
	rc = git_commit_tree(&tree, commit);
	if (rc == GIT_ENOTFOUND && lenient)
	{
		send_blob_record(0, 0, NULL, 0);
		git_commit_free(commit);
		return;
	}
	if (rc == GIT_ENOTFOUND)
		fail("58P01",
			 "The repository is a partial clone without the tree of the reference's commit; nothing is fetched.",
			 "Fetch it in the repository, or load without maintainers.",
			 "the tree of the reference is missing from repository \"%s\"", r->path);
	if (rc < 0)
		fail_git(rc, "XX001", "could not read the tree of the reference of repository \"%s\"", r->path);
	rc = git_tree_entry_bypath(&entry, tree, path);
	if (rc < 0 && rc != GIT_ENOTFOUND)
		fail_git(rc, "XX001", "could not look up \"%s\" in repository \"%s\"", path, r->path);
	if (rc == GIT_ENOTFOUND || git_tree_entry_filemode(entry) == GIT_FILEMODE_COMMIT)
		send_blob_record(0, 0, NULL, 0);
	else if (git_tree_entry_filemode(entry) == GIT_FILEMODE_TREE)
		send_blob_record(1, 1, NULL, 0);
	else
	{
		loose_check(r, git_tree_entry_id(entry));
		rc = git_blob_lookup(&blob, r->repo, git_tree_entry_id(entry));
		if (rc == GIT_ENOTFOUND && lenient)
		{
			send_blob_record(0, 0, NULL, 0);
			git_tree_entry_free(entry);
			git_tree_free(tree);
			git_commit_free(commit);
			return;
		}
		if (rc == GIT_ENOTFOUND)
			fail("58P01",
				 "The repository is a partial clone without the file's content; nothing is fetched.",
				 "Fetch it in the repository, e.g. \"git cat-file -p HEAD:FILE\", and load again.",
				 "the content of \"%s\" is missing from repository \"%s\"", path, r->path);
		if (rc < 0)
			fail_git(rc, "XX001", "could not read \"%s\" of repository \"%s\"", path, r->path);
		send_blob_record(1, 0, git_blob_rawcontent(blob), (size_t) git_blob_rawsize(blob));
		git_blob_free(blob);
	}
	git_tree_entry_free(entry);
	rc = git_tree_walk(tree, GIT_TREEWALK_PRE, send_dir, NULL);
	if (rc < 0 && rc != GIT_ENOTFOUND)
		fail_git(rc, "XX001", "could not read the tree of the reference of repository \"%s\"", r->path);
	git_tree_free(tree);
	git_commit_free(commit);
}
