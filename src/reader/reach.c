/*
 * reach.c — where release tags off the ref enter its history
 *
 * fixes-reader reach PATH: on standard input, the heads (the commits of
 * the release tags that the ref does not reach, in version order) and then
 * the ids of the history the backend holds (the ref's), both as a u32 count
 * and raw ids.  A commit of that history belongs to the first head, in the
 * order given, that reaches it (`git tag --contains`); what a head reaches
 * of it is what its entry points reach, the commits of the history that
 * are parents of commits outside it that the head reaches.
 *
 * The commits outside the history that the heads reach (the release
 * branches) are read once, each, whatever the number of heads: heads that
 * share a branch share its walk, and the walk stops at the history, so a
 * tag far from it costs the commits between them, never the history.
 * Then, in memory, the heads in order mark the commits outside that no
 * earlier head marked, as release_marking.c does (a commit an earlier head
 * marked reaches nothing that head did not reach first), and each head's
 * entry points are the known parents of the commits it marked: their total
 * is at most the number of parent links, whatever the number of heads.
 * One 'X' record per head that has entry points (several for a long list).
 *
 * "fixes-reader reach PATH lenient" (what a 'ref' load counts for its
 * NOTICE, which must not fail a load that 1.2 made): a commit missing from
 * the object database is taken as one without parents instead of an error.
 */
#include "reader.h"

#include <stdlib.h>
#include <string.h>

#include "commit_raw.h"

#define KNOWN_BIT	0x80000000u
/* entry points per 'X' record */
#define PER_RECORD	65536

typedef struct Outside
{
	OidSet	   *seen;			/* commits outside the history, by index */
	uint32_t   *par_start;		/* by index: its parents in pars (once read) */
	uint32_t   *par_end;
	uint32_t	cap;
	uint32_t   *pars;			/* an index in seen, or KNOWN_BIT | index in ents */
	size_t		npars;
	size_t		pars_cap;
	OidSet	   *ents;			/* the known parents met */
} Outside;

static void
room(Outside *o, uint32_t at)
{
	if (at < o->cap)
		return;
	while (o->cap <= at)
		o->cap = o->cap ? 2 * o->cap : 1024;
	o->par_start = xrealloc(o->par_start, sizeof(uint32_t) * o->cap);
	o->par_end = xrealloc(o->par_end, sizeof(uint32_t) * o->cap);
}

static void
push_par(Outside *o, uint32_t v)
{
	if (o->npars == o->pars_cap)
	{
		o->pars_cap = o->pars_cap ? 2 * o->pars_cap : 1024;
		o->pars = xrealloc(o->pars, sizeof(uint32_t) * o->pars_cap);
	}
	o->pars[o->npars++] = v;
}

static void
stack_push(uint32_t **stack, size_t *top, size_t *cap, uint32_t v)
{
	if (*top == *cap)
	{
		*cap = *cap ? 2 * *cap : 1024;
		*stack = xrealloc(*stack, sizeof(uint32_t) * *cap);
	}
	(*stack)[(*top)++] = v;
}

/* read every commit outside the history that a head reaches, once */
static void
discover(Repo *r, Outside *o, const FixesOid *heads, uint32_t nheads, OidSet *known, bool lenient)
{
	uint32_t   *stack = NULL;
	size_t		top = 0;
	size_t		scap = 0;

	for (uint32_t h = 0; h < nheads; h++)
	{
		bool		added;
		uint32_t	at;

		if (oidset_contains(known, heads[h].id))
			continue;
		at = oidset_add_at(o->seen, heads[h].id, &added);
		if (!added)
			continue;
		room(o, at);
		o->par_start[at] = o->par_end[at] = 0;
		stack_push(&stack, &top, &scap, at);
	}
	while (top > 0)
	{
		uint32_t	at = stack[--top];
		git_oid		oid;
		fixes_raw_commit raw;
		git_odb_object *obj;

		memcpy(oid.id, o->seen->oids[at].id, GIT_OID_RAWSZ);
		/* lenient (a 'ref' load's NOTICE): a commit that is not there has no parents */
		obj = lenient && !git_odb_exists(r->odb, &oid) ? NULL : walk_read_commit(r, &oid, &raw);
		room(o, at);
		o->par_start[at] = (uint32_t) o->npars;
		if (obj != NULL)
		{
			for (int i = 0; i < raw.nparents; i++)
			{
				git_oid		poid;
				bool		added;
				uint32_t	p;

				if (git_oid_fromstrn(&poid, fixes_raw_commit_parent(&raw, i), GIT_OID_HEXSZ) < 0)
					fail("XX001", NULL, NULL, "a commit of repository \"%s\" has a malformed parent", r->path);
				if (oidset_contains(known, poid.id))
				{
					p = oidset_add_at(o->ents, poid.id, &added);
					push_par(o, KNOWN_BIT | p);
					continue;
				}
				p = oidset_add_at(o->seen, poid.id, &added);
				push_par(o, p);
				if (added)
				{
					room(o, p);
					o->par_start[p] = o->par_end[p] = 0;
					stack_push(&stack, &top, &scap, p);
				}
			}
			git_odb_object_free(obj);
		}
		/* a commit missing beyond a shallow boundary: no parents */
		o->par_end[at] = (uint32_t) o->npars;
	}
	free(stack);
}

/* the 'X' records of head h: its entry points ents[list[0 .. n)] */
static void
send_entries(Outside *o, uint32_t h, const uint32_t *list, size_t n)
{
	for (size_t i = 0; i < n; i += PER_RECORD)
	{
		size_t		k = n - i < PER_RECORD ? n - i : PER_RECORD;
		unsigned char *rec = xmalloc(wire_size_reach((uint32_t) k));
		unsigned char *ids = wire_encode_reach_begin(rec, h, (uint32_t) k);

		for (size_t j = 0; j < k; j++)
			memcpy(ids + j * FIXES_OID_RAWSZ, o->ents->oids[list[i + j]].id, FIXES_OID_RAWSZ);
		out_record(WIRE_REACH, rec, wire_size_reach((uint32_t) k));
		free(rec);
	}
}

void
reach_entries(Repo *r, const FixesOid *heads, uint32_t nheads, OidSet *known, bool lenient)
{
	Outside		o = {0};
	uint32_t   *mark;
	uint32_t   *stamp;
	uint32_t   *stack = NULL;
	size_t		top = 0;
	size_t		scap = 0;
	uint32_t   *list = NULL;
	size_t		nlist = 0;
	size_t		lcap = 0;

	o.seen = oidset_new(0);
	o.ents = oidset_new(0);
	discover(r, &o, heads, nheads, known, lenient);
	mark = calloc(o.seen->n > 0 ? o.seen->n : 1, sizeof(uint32_t));
	stamp = calloc(o.ents->n > 0 ? o.ents->n : 1, sizeof(uint32_t));
	if (mark == NULL || stamp == NULL)
		fail("53200", NULL, NULL, "out of memory");
	for (uint32_t h = 0; h < nheads; h++)
	{
		bool		added;
		uint32_t	at;

		if (oidset_contains(known, heads[h].id))
			continue;
		at = oidset_add_at(o.seen, heads[h].id, &added);
		if (mark[at] != 0)
			continue;			/* an earlier head reaches all it reaches */
		mark[at] = h + 1;
		nlist = 0;
		stack_push(&stack, &top, &scap, at);
		while (top > 0)
		{
			uint32_t	c = stack[--top];

			for (uint32_t p = o.par_start[c]; p < o.par_end[c]; p++)
			{
				uint32_t	v = o.pars[p];

				if (v & KNOWN_BIT)
				{
					v &= ~KNOWN_BIT;
					if (stamp[v] == h + 1)
						continue;
					stamp[v] = h + 1;
					stack_push(&list, &nlist, &lcap, v);
				}
				else if (mark[v] == 0)
				{
					mark[v] = h + 1;
					stack_push(&stack, &top, &scap, v);
				}
			}
		}
		if (nlist > 0)
			send_entries(&o, h, list, nlist);
	}
	free(list);
	free(stack);
	free(stamp);
	free(mark);
}
