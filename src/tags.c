/*
 * tags.c — the tags of a repository that peel to a commit
 *
 * Lightweight and annotated tags, tags of tags (peeled to the end), sorted
 * in version order.  Tags of trees and blobs (linux's v2.6.11) are skipped.
 */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "miscadmin.h"

#include "loose_check.h"
#include "tags.h"
#include "versort.h"

typedef struct TagHandles
{
	git_reference_iterator *it;
	git_reference *ref;
	git_reference *resolved;
	git_object *obj;
	git_object *peeled;
} TagHandles;

static void
free_tag_handles(TagHandles *h)
{
	git_object_free(h->peeled);
	h->peeled = NULL;
	git_object_free(h->obj);
	h->obj = NULL;
	git_reference_free(h->resolved);
	h->resolved = NULL;
	git_reference_free(h->ref);
	h->ref = NULL;
}

static int
tag_cmp(const void *a, const void *b)
{
	return fixes_version_cmp(((const FixesTag *) a)->name, ((const FixesTag *) b)->name);
}

static char *
signature_text(FixesDecoder *d, const git_signature *sig)
{
	char	   *s = psprintf("%s <%s>", sig->name, sig->email);

	return fixes_decode_cstring(d, s, strlen(s), PG_UTF8);
}

/*
 * Look up the object a tag points at, checked first (loose_check.c); false,
 * with a WARNING, when it is missing.
 */
static bool
lookup_checked(FixesGit *git, const char *refname, const git_oid *oid, git_object **out)
{
	int			rc;

	fixes_loose_check(git, oid);
	rc = git_object_lookup(out, git->repo, oid, GIT_OBJECT_ANY);
	if (rc == GIT_ENOTFOUND)
	{
		ereport(WARNING,
				(errmsg("tag \"%s\" of repository \"%s\" points at a missing object, skipped",
						refname, git->path),
				 errdetail_git(rc)));
		return false;
	}
	fixes_git_check(rc, ERRCODE_DATA_CORRUPTED,
					"could not read tag \"%s\" of repository \"%s\"", refname, git->path);
	return true;
}

/*
 * Fill tag from the reference in h->ref; false when it does not peel to a
 * commit.
 */
static bool
read_one_tag(FixesGit *git, FixesDecoder *d, TagHandles *h, FixesTag *tag)
{
	const char *refname = git_reference_name(h->ref);
	const git_signature *tagger = NULL;
	int			rc;

	rc = git_reference_resolve(&h->resolved, h->ref);
	fixes_git_check(rc, ERRCODE_DATA_CORRUPTED,
					"could not resolve tag \"%s\" of repository \"%s\"", refname, git->path);
	if (!lookup_checked(git, refname, git_reference_target(h->resolved), &h->obj))
		return false;

	tag->annotated = git_object_type(h->obj) == GIT_OBJECT_TAG;
	fixes_git_check(git_object_dup(&h->peeled, h->obj), ERRCODE_OUT_OF_MEMORY, "out of memory");
	if (tag->annotated)
	{
		/* peel by hand, each object checked before libgit2 reads it */
		tagger = git_tag_tagger((git_tag *) h->obj);
		for (int depth = 0; git_object_type(h->peeled) == GIT_OBJECT_TAG; depth++)
		{
			git_object *next = NULL;

			if (depth == 100 ||
				!lookup_checked(git, refname, git_tag_target_id((git_tag *) h->peeled), &next))
				return false;
			git_object_free(h->peeled);
			h->peeled = next;
		}
	}
	if (git_object_type(h->peeled) != GIT_OBJECT_COMMIT)
		return false;

	if (strncmp(refname, "refs/tags/", 10) == 0)
		refname += 10;
	tag->name = fixes_decode_cstring(d, refname, strlen(refname), PG_UTF8);
	git_oid_cpy(&tag->commit, git_object_id(h->peeled));
	tag->time = tagger ? tagger->when.time : git_commit_time((git_commit *) h->peeled);
	tag->tagger = tagger ? signature_text(d, tagger) : NULL;
	return true;
}

/*
 * All tags of the repository that peel to a commit, in version order.
 */
FixesTag *
fixes_read_tags(FixesGit *git, FixesDecoder *d, int *ntags)
{
	TagHandles	h = {0};
	int			cap = 64;
	FixesTag   *tags = palloc(sizeof(FixesTag) * cap);
	int			n = 0;

	PG_TRY();
	{
		int			rc;

		fixes_git_check(git_reference_iterator_glob_new(&h.it, git->repo, "refs/tags/*"),
						ERRCODE_EXTERNAL_ROUTINE_EXCEPTION,
						"could not list the tags of repository \"%s\"", git->path);
		while ((rc = git_reference_next(&h.ref, h.it)) == 0)
		{
			CHECK_FOR_INTERRUPTS();
			if (n == cap)
			{
				cap *= 2;
				tags = repalloc(tags, sizeof(FixesTag) * cap);
			}
			if (read_one_tag(git, d, &h, &tags[n]))
				n++;
			free_tag_handles(&h);
		}
		if (rc != GIT_ITEROVER)
			fixes_git_check(rc, ERRCODE_EXTERNAL_ROUTINE_EXCEPTION,
							"could not list the tags of repository \"%s\"", git->path);
	}
	PG_FINALLY();
	{
		free_tag_handles(&h);
		git_reference_iterator_free(h.it);
	}
	PG_END_TRY();

	qsort(tags, n, sizeof(FixesTag), tag_cmp);
	*ntags = n;
	return tags;
}
