/*
 * graph.h — the compact commit graph: ids, an id -> index map, parent lists
 *
 * Commits are numbered 0..n-1 in the order they are discovered.  Everything
 * per commit lives in flat arrays indexed by that number (about 30 bytes a
 * commit), never in per-commit palloc'd structs.
 */
#ifndef FIXES_GRAPH_H
#define FIXES_GRAPH_H

#include "big_alloc.h"

#include "oid.h"

#define FIXES_NO_IDX PG_UINT32_MAX

typedef struct FixesGraph
{
	MemoryContext cxt;
	uint32		n;				/* commits */
	uint32		cap;
	FixesOid    *oids;			/* [cap] by index */
	uint32	   *slots;			/* hash map: index + 1, 0 = empty */
	uint32		mask;			/* slots has mask + 1 entries */
	uint32		nhashed;		/* indexes in slots */
	/*
	 * A refresh's graph holds the ids of only some of the previous load's
	 * commits (refresh/old_ids.c): oids[i] for i < sparse_below is set, and i is
	 * in the map, when fixes_graph_known(g, i)
	 */
	uint32		sparse_below;
	bool		sparse_room;	/* oids on small pages (fixes_graph_reserve_room()) */
	/* parents of commit i: parents[par_start[i] .. par_end[i]) */
	uint32	   *par_start;
	uint32	   *par_end;
	uint32	   *parents;
	uint64		npar;
	uint64		par_cap;
} FixesGraph;

extern FixesGraph *fixes_graph_create(MemoryContext parent);
extern void fixes_graph_reserve(FixesGraph *g, uint32 n);
extern uint32 fixes_graph_lookup(const FixesGraph *g, const FixesOid *oid);
extern uint32 fixes_graph_add(FixesGraph *g, const FixesOid *oid, bool *found);
extern void fixes_graph_set_parents(FixesGraph *g, uint32 idx, const uint32 *parents, int n);
extern void fixes_graph_reserve_room(FixesGraph *g, uint32 n, bool sparse);
extern void fixes_graph_append_unhashed(FixesGraph *g, uint32 count);
extern void fixes_graph_put(FixesGraph *g, const FixesOid *oid, uint32 idx);
extern void fixes_graph_hash_range(FixesGraph *g, uint32 lo, uint32 hi);
extern void fixes_graph_hash_all(FixesGraph *g);
extern void fixes_graph_append_unique(FixesGraph *g, const unsigned char *raw_ids, uint32 count);
extern uint32 *fixes_graph_parents_room(FixesGraph *g, uint64 total);
extern void fixes_graph_append_parents(FixesGraph *g, uint32 first, const uint32 *counts,
									   const uint32 *parents, uint32 count);

/* the id of commit idx is in the graph (always, but below sparse_below) */
static inline bool
fixes_graph_known(const FixesGraph *g, uint32 idx)
{
	return idx >= g->sparse_below || fixes_graph_lookup(g, &g->oids[idx]) == idx;
}

#endif							/* FIXES_GRAPH_H */
