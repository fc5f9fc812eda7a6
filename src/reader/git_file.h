/*
 * git_file.h — what git's binary files share (git_file.c): big-endian
 * numbers, a file mapped whole, a fan-out table over sorted object ids.
 * commit_graph.c reads the commit-graph file with them, pack_read.c the
 * pack indexes; both files are input, and these only read within the
 * sizes they are given.
 */
#ifndef FIXES_GIT_FILE_H
#define FIXES_GIT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GIT_FILE_ID 20			/* bytes of an object id (SHA-1) */

static inline uint32_t
git_file_be32(const unsigned char *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) | ((uint32_t) p[2] << 8) | p[3];
}

static inline uint64_t
git_file_be64(const unsigned char *p)
{
	return ((uint64_t) git_file_be32(p) << 32) | git_file_be32(p + 4);
}

/* path mapped read-only, whole; false unless it is a plain file of 1 to max bytes */
extern bool git_file_map(const char *path, uint64_t max, const unsigned char **data, size_t *size);

/*
 * The position of id among the n sorted ids (GIT_FILE_ID bytes each) that
 * fanout (256 big-endian counts: the ids whose first byte is at most i)
 * indexes; false if it is not there.  A count above n is taken as n.
 */
extern bool git_file_fanout_find(const unsigned char *fanout, const unsigned char *ids, uint32_t n,
								 const unsigned char *id, uint32_t *pos);

#endif							/* FIXES_GIT_FILE_H */
