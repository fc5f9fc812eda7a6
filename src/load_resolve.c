/*
 * load_resolve.c — fixes_load(), phase 3: resolve each Fixes line to a commit
 *
 * Against the commits in scope: a unique commit whose id starts with the
 * abbrev → resolved by hash; several → the one whose subject equals the
 * quoted subject, if exactly one → resolved by hash+subject, else
 * ambiguous; none → if the quoted subject equals the subject of exactly one
 * commit → resolved by subject, else not_found.
 *
 * Prefixes are looked up in one sorted array of id keys (oid_prefix.c).
 * Subjects are matched in one pass over all commits, for the few quoted
 * subjects whose abbrev matched nothing.
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#include "load.h"
#include "oid_prefix.h"

/* a quoted subject to look for among all commits */
typedef struct SubjectWanted
{
	uint64		hash;
	const char *s;
	int32		len;
	uint32		count;			/* commits with this subject */
	uint32		idx;			/* the last of them */
} SubjectWanted;

static inline uint64
subject_hash(const char *s, int32 len)
{
	return hash_bytes_extended((const unsigned char *) s, len, 0);
}

static int
wanted_cmp(const void *a, const void *b)
{
	const SubjectWanted *x = a;
	const SubjectWanted *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->s, y->s, x->len);
}

static bool
subject_equals(const FixesLoad *ld, uint32 idx, const char *s, int32 len)
{
	return ld->subj_len[idx] == (uint32) len &&
		memcmp(ld->subjects.data + ld->subj_off[idx], s, len) == 0;
}

/*
 * Count, for each wanted subject, the commits that have it: one pass over
 * every commit's subject, a binary search by hash for each.
 */
static void
count_subjects(const FixesLoad *ld, SubjectWanted *w, int nw)
{
	for (uint32 i = 0; i < ld->graph->n; i++)
	{
		const char *s = ld->subjects.data + ld->subj_off[i];
		int32		len = ld->subj_len[i];
		uint64		h = subject_hash(s, len);
		int			a = 0;
		int			b = nw;

		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		while (a < b)
		{
			int			m = a + (b - a) / 2;

			if (w[m].hash < h)
				a = m + 1;
			else
				b = m;
		}
		for (; a < nw && w[a].hash == h; a++)
		{
			if (w[a].len == len && memcmp(w[a].s, s, len) == 0)
			{
				w[a].count++;
				w[a].idx = i;
			}
		}
	}
}

static SubjectWanted *
find_wanted(SubjectWanted *w, int nw, const char *s, int32 len)
{
	SubjectWanted key;

	key.hash = subject_hash(s, len);
	key.s = s;
	key.len = len;
	return bsearch(&key, w, nw, sizeof(SubjectWanted), wanted_cmp);
}

void
fixes_load_resolve(FixesLoad *ld)
{
	FixesGraph *g = ld->graph;
	fixes_prefix_entry *entries;
	fixes_prefix_entry *tmp;
	SubjectWanted *wanted;
	int			nwanted = 0;

	entries = palloc_extended(sizeof(fixes_prefix_entry) * Max(g->n, 1), MCXT_ALLOC_HUGE);
	tmp = palloc_extended(sizeof(fixes_prefix_entry) * Max(g->n, 1), MCXT_ALLOC_HUGE);
	for (uint32 i = 0; i < g->n; i++)
	{
		entries[i].key = fixes_prefix_key(g->oids[i].id);
		entries[i].idx = i;
	}
	fixes_prefix_sort(entries, tmp, g->n);
	pfree(tmp);

	/* pass 1: hashes; remember the quoted subjects of abbrevs matching nothing */
	wanted = palloc_extended(sizeof(SubjectWanted) * Max(ld->nedges, 1), MCXT_ALLOC_HUGE);
	for (int64 k = 0; k < ld->nedges; k++)
	{
		FixesEdge  *e = &ld->edges[k];
		const char *hex = ld->edge_text.data + e->abbrev_off;
		const char *subj = ld->edge_text.data + e->subj_off;
		size_t		first;
		size_t		range = fixes_prefix_range(entries, g->n, hex, e->abbrev_len, &first);
		uint32		by_subject = FIXES_NO_IDX;
		int			subject_matches = 0;

		if ((k & 0xfff) == 0)
			CHECK_FOR_INTERRUPTS();
		e->candidates = 0;
		for (size_t j = first; j < first + range; j++)
		{
			uint32		idx = entries[j].idx;

			if (e->abbrev_len > 16 &&
				!fixes_hex_prefix_matches(g->oids[idx].id, hex, e->abbrev_len))
				continue;
			e->candidates++;
			e->target = idx;
			if (e->subj_len >= 0 && subject_equals(ld, idx, subj, e->subj_len))
			{
				subject_matches++;
				by_subject = idx;
			}
		}

		if (e->candidates == 1)
		{
			e->status = EDGE_RESOLVED;
			e->method = METHOD_HASH;
		}
		else if (e->candidates > 1 && subject_matches == 1)
		{
			e->status = EDGE_RESOLVED;
			e->method = METHOD_HASH_SUBJECT;
			e->target = by_subject;
		}
		else
		{
			e->status = e->candidates > 1 ? EDGE_AMBIGUOUS : EDGE_NOT_FOUND;
			e->method = METHOD_NONE;
			e->target = FIXES_NO_IDX;
			if (e->candidates == 0 && e->subj_len >= 0)
			{
				SubjectWanted *w = &wanted[nwanted++];

				w->s = subj;
				w->len = e->subj_len;
				w->hash = subject_hash(subj, e->subj_len);
				w->count = 0;
				w->idx = FIXES_NO_IDX;
			}
		}
	}
	pfree(entries);

	/* pass 2: abbrevs that matched nothing, by their quoted subject */
	if (nwanted > 0)
	{
		int			n = 0;

		qsort(wanted, nwanted, sizeof(SubjectWanted), wanted_cmp);
		for (int i = 0; i < nwanted; i++)
			if (n == 0 || wanted_cmp(&wanted[n - 1], &wanted[i]) != 0)
				wanted[n++] = wanted[i];
		nwanted = n;
		count_subjects(ld, wanted, nwanted);
		for (int64 k = 0; k < ld->nedges; k++)
		{
			FixesEdge  *e = &ld->edges[k];
			SubjectWanted *w;

			if (e->status != EDGE_NOT_FOUND || e->subj_len < 0)
				continue;
			w = find_wanted(wanted, nwanted, ld->edge_text.data + e->subj_off, e->subj_len);
			if (w != NULL && w->count == 1)
			{
				e->status = EDGE_RESOLVED;
				e->method = METHOD_SUBJECT;
				e->target = w->idx;
			}
		}
	}
	pfree(wanted);

	ld->resolved = 0;
	for (int64 k = 0; k < ld->nedges; k++)
		ld->resolved += ld->edges[k].status == EDGE_RESOLVED;
}
