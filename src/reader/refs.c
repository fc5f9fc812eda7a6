/*
 * refs.c — the hash of the refs a load reads, without reading an object
 *
 * A load reads the tags (refs/tags/...) and, with stable branches, the
 * branches (refs/heads/..., refs/remotes/...), and peels them: with the tag
 * objects in a pack of millions of objects, each peel is a page fault in
 * the pack's index.  Objects are immutable:
 * when every ref has the name and the target the previous load saw, the
 * tags and branches it peeled are the same.  This file hashes the refs
 * themselves (name and direct target, or for a symbolic ref its target's
 * name and the id that resolves to, which reads refs only) from loose refs
 * and packed-refs, and sends the 'R' record (wire.h):
 *
 *   --refs=SCOPE:SALT[:HASH] (the last argument of head and refresh)
 *     SCOPE  "t" the tags, "tb" the tags and the branches;
 *     SALT   16 hex digits from the backend: the settings that decide the
 *            tags hash besides the refs (release pattern, stable_branches,
 *            overrides), hashed in, so that another setting is another hash;
 *     HASH   40 hex digits: the previous load's hash.  refresh compares it
 *            before it reads a tag, when the head is the previous load's:
 *            equal, it sends 'R' "unchanged" and no tag nor branch record.
 *
 * The hash is SHA-1 (libgit2's git_odb_hash()) over the salt, the scope and
 * the refs sorted by name, each entry length-prefixed: the refs come from
 * the repository, whose owner could otherwise choose a second set of refs
 * with the same hash.  Linear in the refs (and a sort); every entry is
 * bounded by git's own limit on a ref name.  A ref skipped with a WARNING
 * (its object missing or unreadable) makes the list "unreadable": no hash
 * is sent, because a later fetch could bring the object under the same
 * ref, and the next load peels every tag again.
 */
#include "hex.h"
#include "reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REFS_HASH_VERSION "fixes refs 1"

/* room for one more entry */
static void
list_room(RefList *l)
{
	if (l->n == l->cap)
	{
		l->cap = l->cap ? l->cap * 2 : 64;
		l->entries = xrealloc(l->entries, sizeof(char *) * l->cap);
		l->lens = xrealloc(l->lens, sizeof(size_t) * l->cap);
	}
}

static void
list_put(RefList *l, const char *name, char kind, const void *data, size_t len,
		 const char *target)
{
	size_t		name_len = strlen(name);
	size_t		target_len = target ? strlen(target) + 1 : 0;
	size_t		n = name_len + 1 + 1 + target_len + len;
	char	   *e = xmalloc(n);

	memcpy(e, name, name_len + 1);
	e[name_len + 1] = kind;
	if (target)
		memcpy(e + name_len + 2, target, target_len);
	if (len > 0)
		memcpy(e + name_len + 2 + target_len, data, len);
	list_room(l);
	l->entries[l->n] = e;
	l->lens[l->n] = n;
	l->n++;
}

/*
 * One ref into the list: its name and what it points at, as stored.  A
 * symbolic ref (refs/tags/x -> refs/heads/master) is followed to the id it
 * resolves to (refs only, as git_reference_resolve() does: no object is
 * read), so that its target moving changes the hash.
 */
void
refs_add(RefList *l, git_reference *ref)
{
	const char *name = git_reference_name(ref);

	if (git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC)
	{
		git_reference *resolved = NULL;
		unsigned char id[GIT_OID_RAWSZ];
		bool		ok = git_reference_resolve(&resolved, ref) == 0 &&
			git_reference_target(resolved) != NULL;

		if (ok)
			memcpy(id, git_reference_target(resolved)->id, GIT_OID_RAWSZ);
		git_reference_free(resolved);
		list_put(l, name, ok ? 'S' : 'U', id, ok ? GIT_OID_RAWSZ : 0,
				 git_reference_symbolic_target(ref));
	}
	else
		list_put(l, name, 'D', git_reference_target(ref)->id, GIT_OID_RAWSZ, NULL);
}

/*
 * fn(r, ref, arg) for every ref that glob matches, in the order libgit2
 * lists them; what names them in the error of a failed listing
 */
void
refs_each(Repo *r, const char *glob, const char *what,
		  void (*fn) (Repo *r, git_reference *ref, void *arg), void *arg)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	int			rc;

	rc = git_reference_iterator_glob_new(&it, r->repo, glob);
	if (rc < 0)
		fail_git(rc, "38000", "could not list the %s of repository \"%s\"", what, r->path);
	while ((rc = git_reference_next(&ref, it)) == 0)
	{
		fn(r, ref, arg);
		git_reference_free(ref);
	}
	if (rc != GIT_ITEROVER)
		fail_git(rc, "38000", "could not list the %s of repository \"%s\"", what, r->path);
	git_reference_iterator_free(it);
}

/* a ref into the list, no object read */
static void
list_ref(Repo *r, git_reference *ref, void *l)
{
	refs_add(l, ref);
}

/* every ref that glob matches into the list, no object read */
static void
list_glob(Repo *r, RefList *l, const char *glob)
{
	refs_each(r, glob, "refs", list_ref, l);
}

/* the refs the load reads, as send_tags() and send_branches() iterate them */
void
refs_list(Repo *r, RefList *l, bool branches)
{
	list_glob(r, l, "refs/tags/*");
	if (branches)
	{
		list_glob(r, l, "refs/heads/*");
		list_glob(r, l, "refs/remotes/*");
	}
}

static const RefList *sort_list;

/* by name; equal names (there are none) by the rest */
static int
entry_cmp(const void *a, const void *b)
{
	size_t		x = *(const size_t *) a;
	size_t		y = *(const size_t *) b;
	const char *ex = sort_list->entries[x];
	const char *ey = sort_list->entries[y];
	int			c = strcmp(ex, ey);
	size_t		lx = sort_list->lens[x];
	size_t		ly = sort_list->lens[y];

	if (c != 0)
		return c;
	c = memcmp(ex, ey, lx < ly ? lx : ly);
	return c != 0 ? c : (lx > ly) - (lx < ly);
}

/* the hash of the list, sorted, with the salt and the scope */
void
refs_hash(RefList *l, const char *salt, bool branches, git_oid *out)
{
	size_t	   *order = xmalloc(sizeof(size_t) * (l->n > 0 ? l->n : 1));
	size_t		len = strlen(REFS_HASH_VERSION) + 1 + strlen(salt) + 1 + 3;
	unsigned char *buf;
	unsigned char *p;
	int			rc;

	for (size_t i = 0; i < l->n; i++)
	{
		order[i] = i;
		len += 4 + l->lens[i];
	}
	sort_list = l;
	qsort(order, l->n, sizeof(size_t), entry_cmp);
	buf = xmalloc(len);
	p = buf;
	p += sprintf((char *) p, "%s\n%s\n%s\n", REFS_HASH_VERSION, salt, branches ? "tb" : "t");
	for (size_t i = 0; i < l->n; i++)
	{
		size_t		k = order[i];

		wire_put_u32(p, (uint32_t) l->lens[k]);
		memcpy(p + 4, l->entries[k], l->lens[k]);
		p += 4 + l->lens[k];
	}
	rc = git_odb_hash(out, buf, (size_t) (p - buf), GIT_OBJECT_BLOB);
	if (rc < 0)
		fail_git(rc, "38000", "could not hash the refs of the repository");
	free(buf);
	free(order);
}

/*
 * Parse "--refs=SCOPE:SALT[:HASH]" (main.c strips it from the command
 * line); false when it is not that.
 */
bool
refs_parse_option(const char *arg, RefsOption *o)
{
	const char *p;
	size_t		n;

	memset(o, 0, sizeof(*o));
	if (strncmp(arg, "--refs=", 7) != 0)
		return false;
	p = arg + 7;
	if (strncmp(p, "tb:", 3) == 0)
	{
		o->branches = true;
		p += 3;
	}
	else if (strncmp(p, "t:", 2) == 0)
		p += 2;
	else
		return false;
	n = fixes_lower_hex_span(p);
	if (n != 16 || (p[16] != '\0' && p[16] != ':'))
		return false;
	memcpy(o->salt, p, 16);
	o->salt[16] = '\0';
	p += 16;
	if (*p == '\0')
		return true;
	p++;
	if (strlen(p) != GIT_OID_HEXSZ || fixes_lower_hex_span(p) != GIT_OID_HEXSZ ||
		git_oid_fromstr(&o->previous, p) < 0)
		return false;
	o->has_previous = true;
	return true;
}

/*
 * Is the hash of the refs the previous load's?  Lists and hashes the refs
 * (no object read); only when there is a previous hash.
 */
bool
refs_unchanged(Repo *r, const RefsOption *o)
{
	RefList		l = {0};
	git_oid		h;

	if (!o->has_previous)
		return false;
	refs_list(r, &l, o->branches);
	refs_hash(&l, o->salt, o->branches, &h);
	refs_free(&l);
	return git_oid_equal(&h, &o->previous);
}

/* the 'R' record: state (REFS_*) and the hash (zeros unless known) */
void
send_refs(int state, const git_oid *hash)
{
	unsigned char rec[WIRE_REFS_SIZE];
	WireRefs	refs;

	memset(&refs, 0, sizeof(refs));
	refs.state = state;
	if (hash != NULL)
		memcpy(refs.hash.id, hash->id, FIXES_OID_RAWSZ);
	out_record(WIRE_REFS, rec, wire_encode_refs(rec, &refs));
}

/*
 * The entries of src appended to dst (src keeps none of them): the
 * branches' entries join the tags' in the hash of scope "tb"
 */
void
refs_append(RefList *dst, RefList *src)
{
	for (size_t i = 0; i < src->n; i++)
	{
		list_room(dst);
		dst->entries[dst->n] = src->entries[i];
		dst->lens[dst->n++] = src->lens[i];
		src->entries[i] = NULL;
	}
}

void
refs_free(RefList *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->entries[i]);
	free(l->entries);
	free(l->lens);
	memset(l, 0, sizeof(*l));
}
