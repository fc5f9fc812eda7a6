/*
 * graph.c — the compact commit graph: ids, an id -> index map, parent lists
 *
 * The id -> index map is open addressing with linear probing over the first
 * four bytes of the id (SHA-1 output is uniform), kept at most half full.
 * All memory belongs to one memory context, so an error frees it all.
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "graph.h"

#define INITIAL_CAP 1024

static inline uint32
oid_hash(const FixesOid *oid)
{
	uint32		h;

	memcpy(&h, oid->id, sizeof(h));
	return h;
}

FixesGraph *
fixes_graph_create(MemoryContext parent)
{
	MemoryContext cxt = AllocSetContextCreate(parent, "fixes commit graph",
											  ALLOCSET_DEFAULT_SIZES);
	FixesGraph *g = MemoryContextAllocZero(cxt, sizeof(FixesGraph));

	g->cxt = cxt;
	g->cap = INITIAL_CAP;
	g->oids = MemoryContextAllocHuge(cxt, sizeof(FixesOid) * g->cap);
	g->par_start = MemoryContextAllocHuge(cxt, sizeof(uint32) * g->cap);
	g->par_end = MemoryContextAllocHuge(cxt, sizeof(uint32) * g->cap);
	g->mask = 2 * INITIAL_CAP - 1;
	g->slots = MemoryContextAllocExtended(cxt, sizeof(uint32) * (g->mask + 1),
										  MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	g->par_cap = INITIAL_CAP;
	g->parents = MemoryContextAllocHuge(cxt, sizeof(uint32) * g->par_cap);
	return g;
}

uint32
fixes_graph_lookup(const FixesGraph *g, const FixesOid *oid)
{
	uint32		i = oid_hash(oid) & g->mask;

	for (;;)
	{
		uint32		s = g->slots[i];

		if (s == 0)
			return FIXES_NO_IDX;
		if (fixes_oid_equal(&g->oids[s - 1], oid))
			return s - 1;
		i = (i + 1) & g->mask;
	}
}

/* room for cap commits in the per-commit arrays */
static void
grow_to(FixesGraph *g, uint32 cap)
{
	/*
	 * A sparse graph writes a few ids at random places: small pages, each
	 * faulted alone, rather than huge ones, which the kernel zeroes (and
	 * may compact memory for) 2 MB at a time
	 */
	if (g->sparse_room)
		g->oids = repalloc_huge(g->oids, sizeof(FixesOid) * (Size) cap);
	else
		g->oids = fixes_repalloc_big(g->cxt, g->oids, sizeof(FixesOid) * (Size) g->cap, sizeof(FixesOid) * (Size) cap);
	g->par_start = fixes_repalloc_big(g->cxt, g->par_start, sizeof(uint32) * (Size) g->cap,
									  sizeof(uint32) * (Size) cap);
	g->par_end = fixes_repalloc_big(g->cxt, g->par_end, sizeof(uint32) * (Size) g->cap,
									sizeof(uint32) * (Size) cap);
	g->cap = cap;
}

static void
rehash_to(FixesGraph *g, uint32 mask)
{
	uint32	   *slots = fixes_alloc_big(g->cxt, sizeof(uint32) * ((Size) mask + 1),
										MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	for (uint64 s = 0; s <= g->mask; s++)
	{
		uint32		idx;
		uint32		i;

		if (g->slots[s] == 0)
			continue;
		idx = g->slots[s] - 1;
		i = oid_hash(&g->oids[idx]) & mask;
		while (slots[i] != 0)
			i = (i + 1) & mask;
		slots[i] = idx + 1;
	}
	pfree(g->slots);
	g->slots = slots;
	g->mask = mask;
}

static void
rehash(FixesGraph *g)
{
	rehash_to(g, g->mask * 2 + 1);
}

/*
 * room for n commits in the per-commit arrays, none in the id map; sparse:
 * for a graph whose ids will be few (fixes_graph_append_unhashed())
 */
void
fixes_graph_reserve_room(FixesGraph *g, uint32 n, bool sparse)
{
	g->sparse_room = g->sparse_room || sparse;
	if (n > g->cap)
		grow_to(g, n);
}

/* a map of at least n ids, at most half full */
static void
reserve_slots(FixesGraph *g, uint32 n)
{
	uint32		mask = g->mask;

	while ((uint64) n * 2 > (uint64) mask + 1)
		mask = mask * 2 + 1;
	if (mask != g->mask)
		rehash_to(g, mask);
}

/*
 * Make room for n commits at once (a graph read back from a snapshot), so
 * that adding them neither reallocates nor rehashes.
 */
void
fixes_graph_reserve(FixesGraph *g, uint32 n)
{
	fixes_graph_reserve_room(g, n, false);
	reserve_slots(g, n);
}

/*
 * count commits appended whose ids are not read (a refresh's graph:
 * refresh/old_ids.c puts those it needs, fixes_graph_put()): only their parents
 * are, which the caller sets next (fixes_graph_append_parents())
 */
void
fixes_graph_append_unhashed(FixesGraph *g, uint32 count)
{
	fixes_graph_reserve_room(g, g->n + count, true);
	g->n += count;
	g->sparse_below = g->n;
}

/*
 * The id of commit idx, one of those fixes_graph_append_unhashed()
 * appended, into the map; nothing if it is there
 */
void
fixes_graph_put(FixesGraph *g, const FixesOid *oid, uint32 idx)
{
	uint32		i;

	if (idx >= g->sparse_below || fixes_graph_lookup(g, oid) != FIXES_NO_IDX)
		return;
	reserve_slots(g, g->nhashed + 1);
	i = oid_hash(oid) & g->mask;
	while (g->slots[i] != 0)
		i = (i + 1) & g->mask;
	g->oids[idx] = *oid;
	g->slots[i] = idx + 1;
	g->nhashed++;
}

/*
 * The index of oid, added as a new commit when it is not in the graph yet.
 */
uint32
fixes_graph_add(FixesGraph *g, const FixesOid *oid, bool *found)
{
	uint32		i = oid_hash(oid) & g->mask;
	uint32		idx;

	for (;;)
	{
		uint32		s = g->slots[i];

		if (s == 0)
			break;
		if (fixes_oid_equal(&g->oids[s - 1], oid))
		{
			*found = true;
			return s - 1;
		}
		i = (i + 1) & g->mask;
	}
	*found = false;

	if (g->n == PG_UINT32_MAX - 1)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many commits")));
	if (g->n == g->cap)
	{
		grow_to(g, g->cap * 2);
	}
	idx = g->n++;
	g->oids[idx] = *oid;
	g->par_start[idx] = g->par_end[idx] = 0;
	g->slots[i] = idx + 1;
	g->nhashed++;
	if ((uint64) g->nhashed * 2 > (uint64) g->mask + 1)
		rehash(g);
	return idx;
}

/* room for extra more parent links */
static void
reserve_parents(FixesGraph *g, uint64 extra)
{
	if (g->npar + extra > g->par_cap)
	{
		uint64		cap = g->par_cap;

		while (g->npar + extra > cap)
			cap *= 2;
		g->parents = fixes_repalloc_big(g->cxt, g->parents, sizeof(uint32) * g->par_cap, sizeof(uint32) * cap);
		g->par_cap = cap;
	}
}

void
fixes_graph_set_parents(FixesGraph *g, uint32 idx, const uint32 *parents, int n)
{
	reserve_parents(g, n);
	memcpy(g->parents + g->npar, parents, sizeof(uint32) * n);
	g->par_start[idx] = (uint32) g->npar;
	g->npar += n;
	g->par_end[idx] = (uint32) g->npar;
}

/*
 * Put the ids of commits lo .. hi - 1 into the map, none of them in it yet
 * and all distinct: a slot each, without comparing ids, in the order of the
 * slots they hash to (a counting sort on the top 16 bits of the slot
 * number): the slot table is then written front to back instead of at
 * random, which is several times faster for a table of millions.
 */
void
fixes_graph_hash_range(FixesGraph *g, uint32 lo, uint32 hi)
{
	uint32		count = hi - lo;
	int			bits = 0;
	int			shift;
	uint32	   *bucket_start;
	uint32	   *order;

	reserve_slots(g, g->nhashed + count);
	while (bits < 32 && ((uint64) 1 << bits) <= g->mask)
		bits++;
	shift = Max(bits - 16, 0);
	bucket_start = palloc0(sizeof(uint32) * (65536 + 1));
	order = fixes_palloc_big(sizeof(uint32) * Max(count, 1), MCXT_ALLOC_HUGE);
	for (uint32 idx = lo; idx < hi; idx++)
		bucket_start[((oid_hash(&g->oids[idx]) & g->mask) >> shift) + 1]++;
	for (int b = 0; b < 65536; b++)
		bucket_start[b + 1] += bucket_start[b];
	for (uint32 idx = lo; idx < hi; idx++)
		order[bucket_start[(oid_hash(&g->oids[idx]) & g->mask) >> shift]++] = idx;

	for (uint32 k = 0; k < count; k++)
	{
		uint32		idx = order[k];
		uint32		i = oid_hash(&g->oids[idx]) & g->mask;

		while (g->slots[i] != 0)
			i = (i + 1) & g->mask;
		g->slots[i] = idx + 1;
	}
	g->nhashed += count;
	pfree(order);
	pfree(bucket_start);
}

/*
 * Every id of the graph into the map, afresh: a refresh's graph whose ids
 * were all read after all (refresh/old_ids.c), no longer sparse
 */
void
fixes_graph_hash_all(FixesGraph *g)
{
	memset(g->slots, 0, sizeof(uint32) * ((Size) g->mask + 1));
	g->nhashed = 0;
	g->sparse_below = 0;
	fixes_graph_hash_range(g, 0, g->n);
}

/*
 * Append count commits whose ids (raw, 20 bytes each) are known to be new
 * and distinct (a snapshot of an earlier load): a copy and a slot each,
 * without comparing ids.  raw_ids may be where they go already (the oids
 * of commits n .. n + count - 1, after fixes_graph_reserve()).
 */
void
fixes_graph_append_unique(FixesGraph *g, const unsigned char *raw_ids, uint32 count)
{
	uint32		first = g->n;
	bool		in_place = raw_ids == (const unsigned char *) (g->oids + first);

	fixes_graph_reserve_room(g, g->n + count, false);
	if (!in_place)
		memcpy(g->oids + first, raw_ids, (Size) count * sizeof(FixesOid));
	for (uint32 idx = first; idx < first + count; idx++)
		g->par_start[idx] = g->par_end[idx] = 0;
	fixes_graph_hash_range(g, first, first + count);
	g->n += count;
}

/*
 * Room for total more parent links: where the next ones go, for
 * fixes_graph_append_parents(..., NULL, ...) to take as they are
 */
uint32 *
fixes_graph_parents_room(FixesGraph *g, uint64 total)
{
	reserve_parents(g, Max(total, 1));
	return g->parents + g->npar;
}

/*
 * parent lists of commits first .. first + count - 1, counts[i] parents
 * each; parents NULL: they are in place (fixes_graph_parents_room())
 */
void
fixes_graph_append_parents(FixesGraph *g, uint32 first, const uint32 *counts,
						   const uint32 *parents, uint32 count)
{
	uint64		total = 0;

	for (uint32 i = 0; i < count; i++)
		total += counts[i];
	reserve_parents(g, total);
	if (parents != NULL)
		memcpy(g->parents + g->npar, parents, sizeof(uint32) * total);
	for (uint32 i = 0; i < count; i++)
	{
		g->par_start[first + i] = (uint32) g->npar;
		g->npar += counts[i];
		g->par_end[first + i] = (uint32) g->npar;
	}
}
