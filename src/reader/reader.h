/*
 * reader.h — the fixes-reader process: libgit2 out of the backend
 *
 * fixes-reader is started by the backend (src/reader.c) for every read of a
 * repository and writes the records of wire.h to its standard output.  No
 * PostgreSQL code runs here.  It runs under the resource limits the backend
 * set (address space, CPU time) and is killed on cancel, so whatever
 * libgit2 does with a damaged or hostile repository, only this process
 * suffers it.
 *
 *   out.c    the output stream: records, messages and the final error;
 *            the bottom: every file calls it, it calls none of them
 *   in.c     what the backend sends on standard input: a walk's ids, the
 *            tags to peel
 *   open.c   opening the repository and resolving the ref
 *   loose.c  loose objects inflated and checked before libgit2 reads them
 *   inflate.c zlib's inflateInit_, inflate, inflateReset and inflateEnd,
 *            defined here on ISA-L: libgit2's calls (and loose.c's) bind
 *            to them (FIXES_READER_INFLATE=zlib: zlib's own); calls none
 *            of the files above
 *   git_file.c what git's binary files share: big-endian numbers, a file
 *            mapped whole, a fan-out table over sorted ids (commit_graph.c,
 *            pack_read.c)
 *   oidset.c a set of object ids (known and discovered commits)
 *   walk.c   the history, newest first, each commit read once
 *   prefetch.c a worker process that inflates every other batch of the
 *            walk's commits, in the order git's commit-graph file
 *            (commit_graph.c) predicts; the walk checks each
 *   files.c  the changed files of a commit (fixes_load(files => true))
 *   pack_read.c the trees and blobs files.c reads, from the pack files
 *            through a delta-base cache that holds (libgit2's is 16 MB
 *            and emptied whole); what it cannot read is libgit2's;
 *            delta.c (no libgit2) applies git's deltas for it
 *   files_pool.c the worker processes that compare the commits' trees
 *            (with files.c), and the order in which the walk's records and
 *            theirs are written
 *   blob.c   one file of a commit's tree, and its directories (MAINTAINERS)
 *   reach.c  the commits of a history that each of some heads is the
 *            first to reach from outside it (release tags off the ref)
 *   tags.c   the tags that peel to a commit
 *   branches.c the branches and remote-tracking branches
 *   refs.c   the hash of the refs that tags.c and branches.c read, and
 *            whether it is the previous load's (no object read); main.c
 *            sends the tags, the branches and then the hash
 *   main.c   the command line: fixes-reader MODE PATH [REF]
 *
 * What it shares with the backend is in src/common/ (no postgres.h): the
 * stream's records (wire.h), object ids (oid.h, oid_prefix.h) and the
 * commit parser (commit_raw.h).
 */
#ifndef FIXES_READER_H
#define FIXES_READER_H

#include <git2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "oid.h"
#include "oid_prefix.h"
#include "wire.h"

/* out.c */
extern void out_init(void);
extern void out_header(unsigned char *header, char type, size_t len);
extern void out_record(char type, const void *payload, size_t len);
extern void out_flush(void);
extern void out_raw(const void *data, size_t len);
extern void out_before_error(void (*fn) (void));
extern void out_child(pid_t parent);
extern void out_ahead(size_t limit);
extern void out_push(void);
extern void out_message(char level, const char *sqlstate, const char *detail,
						const char *hint, const char *fmt,...)
			__attribute__((format(printf, 5, 6)));
extern void fail(const char *sqlstate, const char *detail, const char *hint,
				 const char *fmt,...)
			__attribute__((format(printf, 4, 5), noreturn));
extern void fail_git(int rc, const char *sqlstate, const char *fmt,...)
			__attribute__((format(printf, 3, 4), noreturn));
extern void warn_git(const char *fmt,...)
			__attribute__((format(printf, 1, 2)));
extern const char *git_message(void);
extern void *xmalloc(size_t n);
extern void *xrealloc(void *p, size_t n);
extern size_t reader_address_space(size_t unlimited);

/* in.c */
extern FixesOid *in_ids(uint32_t *n);
extern uint32_t *in_indexes(uint32_t n, uint32_t *k);

/* open.c */
typedef struct Repo
{
	const char *path;			/* as the user gave it */
	git_repository *repo;
	git_odb    *odb;
	char	   *objdir;			/* the shared objects directory */
	struct OidSet *loose;		/* ids of its loose objects */
	bool		shallow;
} Repo;

extern void repo_open(Repo *r, const char *path);
extern bool repo_resolve(Repo *r, const char *ref, git_oid *out);

/* loose.c */
extern void loose_scan(Repo *r);
extern void loose_check(Repo *r, const git_oid *oid);

/* oidset.c */
typedef struct OidSet
{
	FixesOid   *oids;
	uint32_t   *slots;			/* index + 1, 0 = empty */
	uint32_t	mask;
	uint32_t	n;
	uint32_t	cap;
	/* a base of ids given at once (oidset_with_base), read-only: */
	const FixesOid *base;		/* [nbase] in the order given */
	uint32_t	nbase;
	fixes_prefix_entry *base_keys;	/* [nbase] first 8 bytes and index into base, sorted */
} OidSet;

extern OidSet *oidset_new(uint32_t expected);
extern OidSet *oidset_with_base(FixesOid *base, uint32_t nbase);
extern void *xmalloc_huge(size_t n);
extern bool oidset_contains(const OidSet *s, const unsigned char *id);
extern bool oidset_add(OidSet *s, const unsigned char *id);	/* false: was there */
extern uint32_t oidset_add_at(OidSet *s, const unsigned char *id, bool *added);

/* walk.c */

/*
 * The walk's order, newest first: a commit comes before another when its
 * committer time is later, or the same and it was queued first (seq).
 * prefetch.c predicts the walk with it, so it is written once.
 */
static inline bool
walk_before(int64_t atime, uint64_t aseq, int64_t btime, uint64_t bseq)
{
	return atime > btime || (atime == btime && aseq < bseq);
}

/*
 * A binary heap of T (a struct with fields time and seq) in the walk's
 * order, first on top, over an array the caller sizes:
 * prefix_place(h, i, node) puts *node (not in h) into the hole at h[i] (the
 * end of the heap, after the caller counted it) and moves it up to its
 * place; prefix_pop(h, &len) takes the first out of h[0 .. len).  The walk
 * (walk.c) and the worker's plan of it (prefetch.c) use the same heap.
 */
#define WALK_HEAP(prefix, T) \
static inline void \
prefix##_place(T *h, size_t i, const T *node) \
{ \
	while (i > 0) \
	{ \
		size_t		parent = (i - 1) / 2; \
\
		if (!walk_before(node->time, node->seq, h[parent].time, h[parent].seq)) \
			break; \
		h[i] = h[parent]; \
		i = parent; \
	} \
	h[i] = *node; \
} \
\
static inline T \
prefix##_pop(T *h, size_t *len) \
{ \
	T			top = h[0]; \
	T			last = h[--(*len)]; \
	size_t		i = 0; \
\
	for (;;) \
	{ \
		size_t		c = 2 * i + 1; \
\
		if (c >= *len) \
			break; \
		if (c + 1 < *len && walk_before(h[c + 1].time, h[c + 1].seq, h[c].time, h[c].seq)) \
			c++; \
		if (!walk_before(h[c].time, h[c].seq, last.time, last.seq)) \
			break; \
		h[i] = h[c]; \
		i = c; \
	} \
	if (*len > 0) \
		h[i] = last; \
	return top; \
}

extern void walk_history(Repo *r, const git_oid *heads, int nheads, OidSet *known, bool files);
extern void walk_hidden(Repo *r, const git_oid *heads, int nheads, const FixesOid *hide,
						uint32_t nhide, bool files);
extern void walk_hidden_list(Repo *r, const git_oid *heads, int nheads, const FixesOid *hide,
							 uint32_t nhide, size_t list_max);

/* the parsed commit oid (NULL: missing from a shallow clone) */
struct fixes_raw_commit;
extern git_odb_object *walk_read_commit(Repo *r, const git_oid *oid, struct fixes_raw_commit *raw);

/* reach.c */
extern void reach_entries(Repo *r, const FixesOid *heads, uint32_t nheads, OidSet *known,
						  bool lenient);

/* files.c */
/* pack_read.c: trees and blobs for files.c, through a delta-base cache */
typedef struct PackObject
{
	const unsigned char *data;	/* size bytes and a NUL */
	size_t		size;
	struct Entry *entry;
} PackObject;

extern bool pack_read_enabled(void);
extern bool pack_read(Repo *r, const git_oid *id, git_object_t type, PackObject *out);
extern void pack_release(PackObject *o);
extern void pack_report(void);

extern void send_files(Repo *r, const git_oid *tree, int nparents, const git_oid *parent_tree,
					   bool parent_unreadable);
extern bool commit_tree(Repo *r, const git_oid *id, git_oid *out);

/* files_pool.c */
extern int	files_pool_workers;
extern void files_pool_send(Repo *r, const git_oid *tree, int nparents,
							const git_oid *parent_tree, bool parent_unreadable);
extern void files_pool_record(char type, const void *payload, size_t len);
extern void files_pool_drain(void);

/* prefetch.c (with commit_graph.c) */
extern void prefetch_begin(Repo *r, const git_oid *heads, int nheads, const OidSet *known);
extern unsigned char *prefetch_take(const git_oid *oid, size_t *size);
extern void prefetch_end(void);

/* blob.c */
extern void send_blob(Repo *r, const git_oid *commit, const char *path, bool lenient);

/* refs.c */
typedef struct RefList
{
	char	  **entries;		/* per ref: name, NUL, what it points at */
	size_t	   *lens;
	size_t		n;
	size_t		cap;
	bool		unreadable;		/* a ref was skipped with a WARNING */
} RefList;

/* --refs=SCOPE:SALT[:HASH], the last argument of head and refresh */
typedef struct RefsOption
{
	bool		branches;		/* scope "tb": the branches too */
	char		salt[17];
	bool		has_previous;
	git_oid		previous;		/* the previous load's hash */
} RefsOption;

extern bool refs_parse_option(const char *arg, RefsOption *o);
extern void refs_add(RefList *l, git_reference *ref);
extern void refs_each(Repo *r, const char *glob, const char *what,
					  void (*fn) (Repo *r, git_reference *ref, void *arg), void *arg);
extern void refs_list(Repo *r, RefList *l, bool branches);
extern void refs_hash(RefList *l, const char *salt, bool branches, git_oid *out);
extern void refs_free(RefList *l);
extern bool refs_unchanged(Repo *r, const RefsOption *o);
extern void send_refs(int state, const git_oid *hash);
extern void refs_append(RefList *dst, RefList *src);

/* tags.c (refs: NULL, or the list each ref read goes to; ask: --ask-tags) */
extern void send_tags(Repo *r, RefList *refs, bool ask);

/* branches.c */
extern void send_branches(Repo *r, RefList *refs);

#endif							/* FIXES_READER_H */
