/*
 * tags.c — the tags that peel to a commit, in the reader
 *
 * Lightweight and annotated tags, tags of tags (peeled to the end, at most
 * 100 deep).  Tags of trees and blobs (linux's v2.6.11) are skipped; a tag
 * whose object is missing or does not parse is skipped with a WARNING, so
 * that one damaged tag does not fail a load.  The backend converts the
 * names and sorts them.
 *
 * Peeling a tag reads its object, and the tag objects of a long history lie
 * all over a pack: each costs page faults in the pack's index, though a
 * load takes only the tags that its release pattern matches.  The pattern is a PostgreSQL regular expression,
 * which only the backend evaluates; so a reader told --ask-tags first sends
 * every tag's name ('N', from the refs alone), asks ('Q'), and peels only
 * the tags the backend names on standard input (in.c).  A tag it is not
 * asked for is not read, and a damaged one is not warned about.
 */
#include "reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the object oid, loose-checked; NULL with a WARNING when unreadable */
static git_object *
lookup_checked(Repo *r, const char *refname, const git_oid *oid)
{
	git_object *obj = NULL;
	int			rc;

	loose_check(r, oid);
	rc = git_object_lookup(&obj, r->repo, oid, GIT_OBJECT_ANY);
	if (rc == 0)
		return obj;
	if (rc == GIT_ENOTFOUND)
		warn_git("tag \"%s\" of repository \"%s\" points at a missing object, skipped",
				 refname, r->path);
	else
		warn_git("tag \"%s\" of repository \"%s\" cannot be read, skipped", refname, r->path);
	return NULL;
}

static void
send_tag(const char *name, const git_oid *commit, bool annotated, int64_t time,
		 const git_signature *tagger)
{
	char	   *who = NULL;
	size_t		who_len = 0;
	WireTag		t;
	unsigned char *rec;

	if (tagger != NULL)
	{
		who_len = strlen(tagger->name) + strlen(tagger->email) + 3;
		who = xmalloc(who_len + 1);
		snprintf(who, who_len + 1, "%s <%s>", tagger->name, tagger->email);
	}
	memcpy(t.commit.id, commit->id, FIXES_OID_RAWSZ);
	t.annotated = annotated;
	t.has_time = 1;
	t.time = time;
	t.name.s = name;
	t.name.len = (uint32_t) strlen(name);
	t.tagger.s = who ? who : "";
	t.tagger.len = (uint32_t) who_len;
	rec = xmalloc(wire_size_tag(&t));
	out_record(WIRE_TAG, rec, wire_encode_tag(rec, &t));
	free(rec);
	free(who);
}

/*
 * send the tag that ref names, if it peels to a commit; false when it is
 * skipped with a WARNING (a tag of a tree, or nested too deep, is skipped
 * for good: its objects cannot change)
 */
static bool
one_tag(Repo *r, git_reference *ref)
{
	const char *refname = git_reference_name(ref);
	git_reference *resolved = NULL;
	git_object *obj;
	git_object *peeled;
	const git_signature *tagger = NULL;
	bool		annotated;
	int			rc;

	rc = git_reference_resolve(&resolved, ref);
	if (rc < 0)
	{
		warn_git("tag \"%s\" of repository \"%s\" cannot be resolved, skipped", refname, r->path);
		return false;
	}
	obj = lookup_checked(r, refname, git_reference_target(resolved));
	git_reference_free(resolved);
	if (obj == NULL)
		return false;
	annotated = git_object_type(obj) == GIT_OBJECT_TAG;
	peeled = obj;
	if (annotated)
	{
		tagger = git_tag_tagger((git_tag *) obj);
		for (int depth = 0; git_object_type(peeled) == GIT_OBJECT_TAG; depth++)
		{
			git_object *next;

			next = depth == 100 ? NULL :
				lookup_checked(r, refname, git_tag_target_id((git_tag *) peeled));
			if (peeled != obj)
				git_object_free(peeled);
			peeled = next;
			if (peeled == NULL)
			{
				git_object_free(obj);
				return depth == 100;
			}
		}
	}
	if (git_object_type(peeled) == GIT_OBJECT_COMMIT)
	{
		if (strncmp(refname, "refs/tags/", 10) == 0)
			refname += 10;
		send_tag(refname, git_object_id(peeled), annotated,
				 tagger ? (int64_t) tagger->when.time : (int64_t) git_commit_time((git_commit *) peeled),
				 tagger);
	}
	if (peeled != obj)
		git_object_free(peeled);
	git_object_free(obj);
	return true;
}

/* peel the tag ref names and send it; one skipped (a WARNING) marks refs unreadable */
static void
peel_one(Repo *r, git_reference *ref, RefList *refs)
{
	if (!one_tag(r, ref) && refs != NULL)
		refs->unreadable = true;
}

/* the name of every tag, then the question: which to peel (in.c) */
static void
ask(git_reference **all, uint32_t n)
{
	unsigned char count[WIRE_ASK_SIZE];

	for (uint32_t i = 0; i < n; i++)
	{
		const char *name = git_reference_name(all[i]);
		WireStr		s;
		unsigned char *rec;

		if (strncmp(name, "refs/tags/", 10) == 0)
			name += 10;
		s.s = name;
		s.len = (uint32_t) strlen(name);
		rec = xmalloc(wire_size_name(&s));
		out_record(WIRE_TAG_NAME, rec, wire_encode_name(rec, &s));
		free(rec);
	}
	out_record(WIRE_ASK, count, wire_encode_ask(count, n));
	/* all of it, reading ahead or not: the backend answers only then */
	out_flush();
}

/*
 * every tag (ask: every tag the backend asks for); with refs, each ref read
 * into it (refs.c), asked for or not
 */
void
send_tags(Repo *r, RefList *refs, bool asking)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	git_reference **all = NULL;
	uint32_t	n = 0;
	uint32_t	cap = 0;
	int			rc;

	rc = git_reference_iterator_glob_new(&it, r->repo, "refs/tags/*");
	if (rc < 0)
		fail_git(rc, "38000", "could not list the tags of repository \"%s\"", r->path);
	while ((rc = git_reference_next(&ref, it)) == 0)
	{
		if (refs != NULL)
			refs_add(refs, ref);
		if (!asking)
		{
			peel_one(r, ref, refs);
			git_reference_free(ref);
			continue;
		}
		if (n == UINT32_MAX)
			fail("54000", NULL, NULL, "repository \"%s\" has too many tags", r->path);
		if (n == cap)
		{
			cap = cap ? (cap > UINT32_MAX / 2 ? UINT32_MAX : cap * 2) : 64;
			all = xrealloc(all, sizeof(git_reference *) * cap);
		}
		all[n++] = ref;
	}
	if (rc != GIT_ITEROVER)
		fail_git(rc, "38000", "could not list the tags of repository \"%s\"", r->path);
	git_reference_iterator_free(it);
	if (asking)
	{
		uint32_t	k;
		uint32_t   *idx;

		ask(all, n);
		idx = in_indexes(n, &k);
		for (uint32_t i = 0; i < k; i++)
			peel_one(r, all[idx[i]], refs);
		for (uint32_t i = 0; i < n; i++)
			git_reference_free(all[i]);
		free(idx);
		free(all);
	}
}
