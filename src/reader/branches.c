/*
 * branches.c — the branches and remote-tracking branches, in the reader
 *
 * Every ref under refs/heads/ and refs/remotes/ that peels to a commit is
 * sent with its full name; the backend matches the names against the
 * stable_branches expression of fixes_load().  Symbolic refs
 * (refs/remotes/origin/HEAD) name another branch and are skipped; a ref
 * that cannot be resolved is skipped with a WARNING.
 */
#include "reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
send_branch(const char *name, const git_oid *commit)
{
	WireBranch	b;
	unsigned char *rec;

	memcpy(b.commit.id, commit->id, FIXES_OID_RAWSZ);
	b.name.s = name;
	b.name.len = (uint32_t) strlen(name);
	rec = xmalloc(wire_size_branch(&b));
	out_record(WIRE_BRANCH, rec, wire_encode_branch(rec, &b));
	free(rec);
}

/* false when the branch is skipped with a WARNING */
static bool
one_branch(Repo *r, git_reference *ref)
{
	const char *refname = git_reference_name(ref);
	git_object *peeled = NULL;
	int			rc;

	if (git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC)
		return true;
	loose_check(r, git_reference_target(ref));
	rc = git_reference_peel(&peeled, ref, GIT_OBJECT_COMMIT);
	if (rc < 0)
	{
		warn_git("branch \"%s\" of repository \"%s\" cannot be resolved to a commit, skipped",
				 refname, r->path);
		return false;
	}
	send_branch(refname, git_object_id(peeled));
	git_object_free(peeled);
	return true;
}

/* one branch of send_glob(); with refs (a RefList), the ref read into it */
static void
branch_ref(Repo *r, git_reference *ref, void *refs)
{
	if (refs != NULL)
		refs_add(refs, ref);
	if (!one_branch(r, ref) && refs != NULL)
		((RefList *) refs)->unreadable = true;
}

static void
send_glob(Repo *r, const char *glob, RefList *refs)
{
	refs_each(r, glob, "branches", branch_ref, refs);
}

/* every branch; with refs, each ref read into it (refs.c) */
void
send_branches(Repo *r, RefList *refs)
{
	send_glob(r, "refs/heads/*", refs);
	send_glob(r, "refs/remotes/*", refs);
}
