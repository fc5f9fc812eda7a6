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
 * all over a pack: at 1.3M commits, 777 tags cost 0.08-0.12 s of page
 * faults in the pack's index, though a load takes only the 126 that its
 * release pattern matches.  The pattern is a PostgreSQL regular expression,
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
	char		detail[2048];
	const char *m;

	loose_check(r, oid);
	rc = git_object_lookup(&obj, r->repo, oid, GIT_OBJECT_ANY);
	if (rc == 0)
		return obj;
	m = git_message();
	snprintf(detail, sizeof(detail), "libgit2: %s", m ? m : "unknown error");
	if (rc == GIT_ENOTFOUND)
		out_message('W', "01000", detail, NULL,
					"tag \"%s\" of repository \"%s\" points at a missing object, skipped",
					refname, r->path);
	else
		out_message('W', "01000", detail, NULL,
					"tag \"%s\" of repository \"%s\" cannot be read, skipped", refname, r->path);
	return NULL;
}

static void
put_str(unsigned char **p, const char *s, size_t len)
{
	wire_put_u32(*p, (uint32_t) len);
	memcpy(*p + 4, s, len);
	*p += 4 + len;
}

static void
send_tag(const char *name, const git_oid *commit, bool annotated, int64_t time,
		 const git_signature *tagger)
{
	char	   *who = NULL;
	size_t		who_len = 0;
	size_t		name_len = strlen(name);
	unsigned char *rec;
	unsigned char *p;

	if (tagger != NULL)
	{
		who_len = strlen(tagger->name) + strlen(tagger->email) + 3;
		who = xmalloc(who_len + 1);
		snprintf(who, who_len + 1, "%s <%s>", tagger->name, tagger->email);
	}
	rec = xmalloc(FIXES_OID_RAWSZ + 2 + 8 + 8 + name_len + who_len);
	memcpy(rec, commit->id, FIXES_OID_RAWSZ);
	p = rec + FIXES_OID_RAWSZ;
	*p++ = annotated ? 1 : 0;
	*p++ = 1;
	wire_put_i64(p, time);
	p += 8;
	put_str(&p, name, name_len);
	put_str(&p, who ? who : "", who_len);
	out_record(WIRE_TAG, rec, (size_t) (p - rec));
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
		char		detail[2048];
		const char *m = git_message();

		snprintf(detail, sizeof(detail), "libgit2: %s", m ? m : "unknown error");
		out_message('W', "01000", detail, NULL,
					"tag \"%s\" of repository \"%s\" cannot be resolved, skipped",
					refname, r->path);
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
	unsigned char count[4];

	for (uint32_t i = 0; i < n; i++)
	{
		const char *name = git_reference_name(all[i]);
		size_t		len;
		unsigned char *rec;

		if (strncmp(name, "refs/tags/", 10) == 0)
			name += 10;
		len = strlen(name);
		rec = xmalloc(4 + len);
		wire_put_u32(rec, (uint32_t) len);
		memcpy(rec + 4, name, len);
		out_record(WIRE_TAG_NAME, rec, 4 + len);
		free(rec);
	}
	wire_put_u32(count, n);
	out_record(WIRE_ASK, count, 4);
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
