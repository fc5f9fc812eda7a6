/* commit_graph.h — git's commit-graph file (commit_graph.c), for prefetch.c */
#ifndef FIXES_COMMIT_GRAPH_H
#define FIXES_COMMIT_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CG_MAX_LAYERS 512

/* one file of the chain, mapped and checked */
typedef struct CGLayer
{
	const unsigned char *data;
	size_t		size;
	const unsigned char *fanout;	/* 256 big-endian counts */
	const unsigned char *oids;	/* n ids, sorted */
	const unsigned char *cdat;	/* n entries: tree, parent 1, parent 2, generation and date */
	const unsigned char *edges; /* nedges big-endian positions, or NULL */
	uint32_t	nedges;
	uint32_t	n;
	uint32_t	base;			/* the commits of the layers below */
} CGLayer;

/* the commits of every layer: positions 0 .. n - 1, the base layer's first */
typedef struct CommitGraph
{
	CGLayer    *layers;
	uint32_t	nlayers;
	uint32_t	n;
} CommitGraph;

/* false: no commit-graph file, or one that fails a check (then g holds nothing) */
extern bool cgraph_open(CommitGraph *g, const char *objdir);
extern void cgraph_close(CommitGraph *g);
extern bool cgraph_find(const CommitGraph *g, const unsigned char *id, uint32_t *pos);
extern const unsigned char *cgraph_oid(const CommitGraph *g, uint32_t pos);
extern int64_t cgraph_time(const CommitGraph *g, uint32_t pos);
extern int	cgraph_parents(const CommitGraph *g, uint32_t pos, uint32_t **out, uint32_t *cap);

#endif							/* FIXES_COMMIT_GRAPH_H */
