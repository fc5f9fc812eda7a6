/*
 * commit_graph.c — git's commit-graph file, read-only and distrusted
 *
 * git writes objects/info/commit-graph (git gc, git commit-graph write), or
 * a chain of them in objects/info/commit-graphs/ (commit-graph-chain lists
 * graph-HASH.graph, the base first).  Each file holds, for the commits it
 * lists in id order, their parents (as positions in the whole chain) and
 * their commit dates, so that the history's shape is known without
 * inflating a commit (git's Documentation/technical/commit-graph-format.txt,
 * version 1, SHA-1).  libgit2 1.5 opens such a file but exposes nothing of
 * it, so it is parsed here.
 *
 * The file is input like the rest of the repository, and it may be stale
 * (commits added since it was written are not in it) or damaged.  Every
 * offset, size and count is checked against the file before it is used,
 * every position against the commits, every extra-edge index against the
 * list; what fails a check is "no commit-graph" (cgraph_open() returns
 * false) or, for one commit, "its parents are unknown" (cgraph_parents()
 * returns -1).  Nothing here decides an answer: prefetch.c only predicts
 * from it which commits the walk will read, and the walk checks each
 * prediction against the objects it reads (a wrong one costs time, never a
 * row).  The trailing checksum is not verified, for that reason.
 */
#include "reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "commit_graph.h"
#include "git_file.h"

#define CG_SIGNATURE 0x43475048	/* "CGPH" */
#define CG_CHUNK_OIDF 0x4f494446
#define CG_CHUNK_OIDL 0x4f49444c
#define CG_CHUNK_CDAT 0x43444154
#define CG_CHUNK_EDGE 0x45444745
#define CG_HASH 20
#define CG_CDAT_SIZE (CG_HASH + 16)
#define CG_PARENT_NONE 0x70000000u
#define CG_EXTRA_EDGES 0x80000000u
#define CG_LAST_EDGE 0x80000000u
#define CG_MAX_FILE ((uint64_t) 1 << 34)	/* 16 GiB: more is not a graph we read */

/*
 * Check the file l->data as layer number `index` of a chain (0: a single
 * file or the base) whose layers below hold `base` commits; fill in l.
 */
static bool
layer_parse(CGLayer *l, uint32_t index, uint64_t base)
{
	const unsigned char *d = l->data;
	size_t		size = l->size;
	unsigned	nchunks;
	uint64_t	oidf = 0,
				oidl = 0,
				oidl_end = 0,
				cdat = 0,
				cdat_end = 0,
				edge = 0,
				edge_end = 0;
	uint32_t	n;

	/* header, then (chunks + 1) entries of 12 bytes, then the checksum at the end */
	if (size < 8 + 12 + CG_HASH || git_file_be32(d) != CG_SIGNATURE || d[4] != 1 || d[5] != 1)
		return false;
	nchunks = d[6];
	if (d[7] != index)
		return false;
	if ((uint64_t) 8 + ((uint64_t) nchunks + 1) * 12 + CG_HASH > size)
		return false;
	for (unsigned c = 0; c < nchunks; c++)
	{
		const unsigned char *e = d + 8 + (size_t) c * 12;
		uint32_t	id = git_file_be32(e);
		uint64_t	start = git_file_be64(e + 4);
		uint64_t	end = git_file_be64(e + 16);	/* the next entry's offset */

		if (id == 0 || start < 8 + ((uint64_t) nchunks + 1) * 12 || end < start ||
			end > size - CG_HASH)
			return false;
		if (id == CG_CHUNK_OIDF)
		{
			if (end - start != 256 * 4)
				return false;
			oidf = start;
		}
		else if (id == CG_CHUNK_OIDL)
		{
			oidl = start;
			oidl_end = end;
		}
		else if (id == CG_CHUNK_CDAT)
		{
			cdat = start;
			cdat_end = end;
		}
		else if (id == CG_CHUNK_EDGE)
		{
			edge = start;
			edge_end = end;
		}
	}
	if (git_file_be32(d + 8 + (size_t) nchunks * 12) != 0 || oidf == 0 || oidl == 0 || cdat == 0)
		return false;
	n = git_file_be32(d + oidf + 255 * 4);
	for (int i = 1; i < 256; i++)
		if (git_file_be32(d + oidf + (size_t) i * 4) < git_file_be32(d + oidf + (size_t) (i - 1) * 4))
			return false;
	if (n == 0 || oidl_end - oidl != (uint64_t) n * CG_HASH ||
		cdat_end - cdat != (uint64_t) n * CG_CDAT_SIZE || (edge_end - edge) % 4 != 0 ||
		base + n > CG_PARENT_NONE)
		return false;
	l->fanout = d + oidf;
	l->oids = d + oidl;
	l->cdat = d + cdat;
	l->edges = edge != 0 ? d + edge : NULL;
	l->nedges = (uint32_t) ((edge_end - edge) / 4);
	l->n = n;
	l->base = (uint32_t) base;
	return true;
}

static void
layers_unmap(CommitGraph *g)
{
	for (uint32_t i = 0; i < g->nlayers; i++)
		munmap((void *) g->layers[i].data, g->layers[i].size);
	free(g->layers);
	g->layers = NULL;
	g->nlayers = 0;
	g->n = 0;
}

/* add the file at path as the next layer; false if it is missing or malformed */
static bool
layer_add(CommitGraph *g, const char *path)
{
	CGLayer		l = {0};

	if (g->nlayers >= CG_MAX_LAYERS || !git_file_map(path, CG_MAX_FILE, &l.data, &l.size))
		return false;
	if (!layer_parse(&l, g->nlayers, g->n))
	{
		munmap((void *) l.data, l.size);
		return false;
	}
	g->layers = xrealloc(g->layers, sizeof(CGLayer) * (g->nlayers + 1));
	g->layers[g->nlayers++] = l;
	g->n += l.n;
	return true;
}

/* the chain of objects/info/commit-graphs/; false if there is none or a layer is bad */
static bool
chain_open(CommitGraph *g, const char *objdir)
{
	char		path[4096];
	char		line[128];
	FILE	   *f;
	bool		ok = true;

	snprintf(path, sizeof(path), "%s/info/commit-graphs/commit-graph-chain", objdir);
	f = fopen(path, "r");
	if (f == NULL)
		return false;
	while (ok && fgets(line, sizeof(line), f) != NULL)
	{
		size_t		len = strcspn(line, "\n");

		line[len] = '\0';
		if (len != 2 * CG_HASH || strspn(line, "0123456789abcdef") != len)
			ok = false;
		else
		{
			snprintf(path, sizeof(path), "%s/info/commit-graphs/graph-%s.graph", objdir, line);
			ok = layer_add(g, path);
		}
	}
	fclose(f);
	return ok && g->nlayers > 0;
}

bool
cgraph_open(CommitGraph *g, const char *objdir)
{
	char		path[4096];

	memset(g, 0, sizeof(*g));
	snprintf(path, sizeof(path), "%s/info/commit-graph", objdir);
	if (layer_add(g, path))
		return true;
	layers_unmap(g);
	if (chain_open(g, objdir))
		return true;
	layers_unmap(g);
	return false;
}

void
cgraph_close(CommitGraph *g)
{
	layers_unmap(g);
}

/* the layer that holds position pos (< g->n) */
static const CGLayer *
layer_of(const CommitGraph *g, uint32_t pos)
{
	uint32_t	i = g->nlayers;

	while (i > 1 && g->layers[i - 1].base > pos)
		i--;
	return &g->layers[i - 1];
}

const unsigned char *
cgraph_oid(const CommitGraph *g, uint32_t pos)
{
	const CGLayer *l = layer_of(g, pos);

	return l->oids + (size_t) (pos - l->base) * CG_HASH;
}

bool
cgraph_find(const CommitGraph *g, const unsigned char *id, uint32_t *pos)
{
	for (uint32_t i = 0; i < g->nlayers; i++)
	{
		const CGLayer *l = &g->layers[i];
		uint32_t	at;

		if (git_file_fanout_find(l->fanout, l->oids, l->n, id, &at))
		{
			*pos = l->base + at;
			return true;
		}
	}
	return false;
}

int64_t
cgraph_time(const CommitGraph *g, uint32_t pos)
{
	const CGLayer *l = layer_of(g, pos);
	const unsigned char *c = l->cdat + (size_t) (pos - l->base) * CG_CDAT_SIZE;

	return (int64_t) ((((uint64_t) git_file_be32(c + CG_HASH + 8)) & 3) << 32 |
					  git_file_be32(c + CG_HASH + 12));
}

/*
 * The parents of pos, as positions, into *out (grown as needed, *cap its
 * size); their count, or -1 if the file does not say them well (a position
 * out of range, an extra edge list that runs off its chunk)
 */
int
cgraph_parents(const CommitGraph *g, uint32_t pos, uint32_t **out, uint32_t *cap)
{
	const CGLayer *l = layer_of(g, pos);
	const unsigned char *c = l->cdat + (size_t) (pos - l->base) * CG_CDAT_SIZE;
	uint32_t	p1 = git_file_be32(c + CG_HASH);
	uint32_t	p2 = git_file_be32(c + CG_HASH + 4);
	uint32_t	n = 0;

	if (*cap < 2)
	{
		*cap = 16;
		*out = xrealloc(*out, sizeof(uint32_t) * *cap);
	}
	if (p1 == CG_PARENT_NONE)
		return p2 == CG_PARENT_NONE ? 0 : -1;
	if (p1 >= g->n)
		return -1;
	(*out)[n++] = p1;
	if (p2 == CG_PARENT_NONE)
		return 1;
	if (!(p2 & CG_EXTRA_EDGES))
	{
		if (p2 >= g->n)
			return -1;
		(*out)[n++] = p2;
		return 2;
	}
	for (uint32_t e = p2 & ~CG_EXTRA_EDGES;; e++)
	{
		uint32_t	v;

		if (l->edges == NULL || e >= l->nedges)
			return -1;
		v = git_file_be32(l->edges + (size_t) e * 4);
		if ((v & ~CG_LAST_EDGE) >= g->n || n >= INT32_MAX / 2)
			return -1;
		if (n == *cap)
		{
			*cap *= 2;
			*out = xrealloc(*out, sizeof(uint32_t) * *cap);
		}
		(*out)[n++] = v & ~CG_LAST_EDGE;
		if (v & CG_LAST_EDGE)
			break;
	}
	return (int) n;
}
