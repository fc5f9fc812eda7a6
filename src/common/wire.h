/*
 * wire.h — the stream the reader process writes and the backend reads
 *
 * Pure C (no PostgreSQL, no libgit2): shared by the reader (reader/), the
 * backend (reader.c, walk.c, tags.c) and the fuzz harness.  A stream is a
 * sequence of records, each a type byte, a 4-byte little-endian payload
 * length and the payload.  Integers are little-endian; strings are a
 * 4-byte length and bytes (no terminating NUL, may hold any byte).
 *
 *   'H' head:    u8 found (0: the ref is an unborn HEAD), u8 shallow, oid[20]
 *   'T' tag:     oid[20] commit, u8 annotated, u8 has_time, i64 time,
 *                str name (without "refs/tags/"), str tagger ("" if none)
 *   'B' branch:  oid[20] commit, str name (the full ref name: refs/heads/...
 *                or refs/remotes/...); sent by `head` after the tags
 *   'R' refs:    u8 state (REFS_*), oid[20] the hash of the refs the load
 *                reads (refs.c of the reader; zeros unless state is
 *                REFS_READ or REFS_UNCHANGED); sent by head and refresh
 *                after the branches, or instead of the tags and branches
 *                when unchanged
 *   'N' name:    str name of a tag (without "refs/tags/"); a reader told
 *                --ask-tags sends one for each tag, in its order, before
 *                peeling any (no object read)
 *   'Q' ask:     u32 n, the number of 'N' records just before it.  The
 *                reader then reads on its standard input which tags to
 *                peel: a u32 count k and k u32 indexes into those n names,
 *                ascending, and sends a 'T' record for each of them that
 *                peels to a commit; the others it does not read
 *   'C' commit:  oid[20], u32 n, n bytes (parent i: 1 read or known,
 *                0 missing beyond a shallow boundary), then the raw commit
 *                object to the end of the payload
 *   'L' list:    u8 over (1: more than the refresh asked for; nothing
 *                follows but i64 0), else u32 n, n times: oid[20], u8
 *                has_time, i64 committer time (the commits the walk will
 *                send), then u32 m, m oid[20] (their parents it will not
 *                send that are in the history); sent by refresh with
 *                --list before its first 'C'
 *   'F' files:   the changed files of the commit of the 'C' record just
 *                before it (walks with files only): u8 state (FILES_*),
 *                u32 n, then n rows: u8 kind (FILE_*), u32 added,
 *                u32 deleted, str path; counts are 0 unless kind is
 *                FILE_TEXT, and there are no rows unless state is
 *                FILES_DIFFED
 *   'O' blob:    the content of a file (fixes-reader blob): u8 found
 *                (0: no such file), u8 is_tree (the path names a
 *                directory), then the content to the end of the payload
 *   'D' dir:     str path of a directory of the tree (fixes-reader blob
 *                sends every directory of the tree, for MAINTAINERS)
 *   'X' reach:   u32 head, u32 n, n oid[20] (fixes-reader reach):
 *                commits of the history the backend holds that head (an
 *                index into the heads it was given) is the first of them
 *                to reach, through commits the backend does not hold
 *                (its entry points); a head may have several records
 *   'M' message: u8 level ('W' warning, 'N' notice, 'D' debug), char sqlstate[5],
 *                str message, str detail, str hint
 *   'E' error:   as 'M' with level 'E'; the last record of a failed run
 *   'Z' end:     no payload; the last record of a run that succeeded
 *
 * The backend trusts nothing in a stream: every decoder checks lengths and
 * fails on anything malformed.  Input to a walk of the reader, on its
 * standard input: the ids the backend holds (a stable scope's walk: the
 * mainline), as a u32 count and count raw ids, then in the same form the
 * heads whose history the backend holds (a refresh: the previous head).
 */
#ifndef FIXES_WIRE_H
#define FIXES_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "oid.h"

#define WIRE_HEAD		'H'
#define WIRE_TAG		'T'
#define WIRE_BRANCH		'B'
#define WIRE_REFS		'R'
#define WIRE_TAG_NAME	'N'
#define WIRE_ASK		'Q'
#define WIRE_COMMIT		'C'
#define WIRE_LIST		'L'
#define WIRE_FILES		'F'
#define WIRE_BLOB		'O'
#define WIRE_DIR		'D'
#define WIRE_REACH		'X'
#define WIRE_MESSAGE	'M'
#define WIRE_ERROR		'E'
#define WIRE_END		'Z'

#define WIRE_HEADER_SIZE 5
/* a record larger than this is a protocol error (a commit object of 512 MB) */
#define WIRE_MAX_PAYLOAD ((uint32_t) 512 * 1024 * 1024)

typedef struct WireCursor
{
	const unsigned char *p;
	const unsigned char *end;
	int			bad;			/* set when a read ran past the end */
} WireCursor;

typedef struct WireStr
{
	const char *s;
	uint32_t	len;
} WireStr;

typedef struct WireHead
{
	int			found;
	int			shallow;
	FixesOid	oid;
} WireHead;

typedef struct WireTag
{
	FixesOid	commit;
	int			annotated;
	int			has_time;
	int64_t		time;
	WireStr		name;
	WireStr		tagger;
} WireTag;

typedef struct WireBranch
{
	FixesOid	commit;
	WireStr		name;
} WireBranch;

/* 'R': what the reader did with the tags and branches */
#define REFS_READ			0	/* read and sent; the hash is of the refs read */
#define REFS_UNCHANGED		1	/* the previous load's hash: none sent */
#define REFS_UNREADABLE		2	/* read and sent, one skipped: no hash */

typedef struct WireRefs
{
	int			state;
	FixesOid	hash;
} WireRefs;

/* 'L': over, or n entries of WIRE_LIST_ENTRY bytes at commits and m ids at parents */
#define WIRE_LIST_ENTRY (FIXES_OID_RAWSZ + 1 + 8)
typedef struct WireList
{
	int			over;
	uint32_t	n;
	const unsigned char *commits;
	uint32_t	m;
	const unsigned char *parents;
} WireList;

typedef struct WireCommit
{
	FixesOid	oid;
	uint32_t	nflags;
	const unsigned char *present;	/* nflags bytes */
	const char *raw;
	size_t		raw_len;
} WireCommit;

/* 'F': the state of a commit's files */
#define FILES_DIFFED		0	/* compared with its parent or the empty tree */
#define FILES_MERGE			1	/* a merge: no rows, as git log without -m */
#define FILES_TREE_MISSING	2	/* a tree is missing (partial clone): no rows */

/* 'F': the kind of one row */
#define FILE_TEXT			0	/* added and deleted lines */
#define FILE_BINARY			1	/* no counts (git --numstat prints "-") */
#define FILE_MISSING		2	/* a blob is missing (partial clone): no counts */

typedef struct WireFiles
{
	int			state;
	uint32_t	n;
	WireCursor	rows;			/* at the next row */
} WireFiles;

typedef struct WireFileRow
{
	int			kind;
	uint32_t	added;
	uint32_t	deleted;
	WireStr		path;
} WireFileRow;

typedef struct WireBlob
{
	int			found;
	int			is_tree;
	const char *data;
	size_t		len;
} WireBlob;

/* 'X': ids holds n raw ids */
typedef struct WireReach
{
	uint32_t	head;
	uint32_t	n;
	const unsigned char *ids;
} WireReach;

typedef struct WireMessage
{
	char		level;
	char		sqlstate[6];
	WireStr		message;
	WireStr		detail;
	WireStr		hint;
} WireMessage;

/* decoders: 0 on success, -1 when the payload is malformed */
extern int	wire_decode_head(const void *payload, size_t len, WireHead *out);
extern int	wire_decode_tag(const void *payload, size_t len, WireTag *out);
extern int	wire_decode_branch(const void *payload, size_t len, WireBranch *out);
extern int	wire_decode_refs(const void *payload, size_t len, WireRefs *out);
extern int	wire_decode_commit(const void *payload, size_t len, WireCommit *out);
extern int	wire_decode_list(const void *payload, size_t len, WireList *out);
/* entry i of a list: its id, and its time if it has one */
extern void wire_list_entry(const WireList *l, uint32_t i, FixesOid *oid, int *has_time, int64_t *time);
/* the whole record is checked; then wire_files_next() gives each row */
extern int	wire_decode_files(const void *payload, size_t len, WireFiles *out);
extern int	wire_files_next(WireFiles *f, WireFileRow *row);	/* 0 at the end */
extern int	wire_decode_blob(const void *payload, size_t len, WireBlob *out);
extern int	wire_decode_name(const void *payload, size_t len, WireStr *out);
extern int	wire_decode_ask(const void *payload, size_t len, uint32_t *n);
extern int	wire_decode_reach(const void *payload, size_t len, WireReach *out);
extern int	wire_decode_message(const void *payload, size_t len, WireMessage *out);

/*
 * encoders, one beside each decoder: each writes the payload of its record
 * at out, which has room for its size (a WIRE_*_SIZE or wire_size_*()), and
 * returns the payload's length.  What they write is what the decoders take
 * (test/unit/test_wire.c: a round trip of every record).  A record built in
 * place (a commit, a list, a row of files, a reach) has a _begin encoder: it
 * writes what comes first and returns where the caller writes the rest
 * (flags, ids, a path), as many bytes as it said.
 */
#define WIRE_HEAD_SIZE		(2 + FIXES_OID_RAWSZ)
#define WIRE_REFS_SIZE		(1 + FIXES_OID_RAWSZ)
#define WIRE_ASK_SIZE		4
#define WIRE_LIST_OVER_SIZE	9
#define WIRE_FILES_HEAD_SIZE 5
#define WIRE_BLOB_HEAD_SIZE	2

extern size_t wire_encode_head(unsigned char *out, const WireHead *h);
extern size_t wire_size_tag(const WireTag *t);
extern size_t wire_encode_tag(unsigned char *out, const WireTag *t);
extern size_t wire_size_branch(const WireBranch *b);
extern size_t wire_encode_branch(unsigned char *out, const WireBranch *b);
extern size_t wire_encode_refs(unsigned char *out, const WireRefs *r);
/* 'N' and 'D' */
extern size_t wire_size_name(const WireStr *name);
extern size_t wire_encode_name(unsigned char *out, const WireStr *name);
extern size_t wire_encode_ask(unsigned char *out, uint32_t n);
/* 'C': the nflags flags go at the pointer returned, the raw object after them */
extern size_t wire_size_commit(uint32_t nflags, size_t raw_len);
extern unsigned char *wire_encode_commit_begin(unsigned char *out, const FixesOid *oid, uint32_t nflags);
extern size_t wire_encode_commit(unsigned char *out, const WireCommit *c);
/* 'L': over, or n entries (each written by wire_encode_list_entry()) and m parents */
extern size_t wire_encode_list_over(unsigned char *out);
extern void wire_encode_list_entry(unsigned char *entry, const FixesOid *oid, int has_time, int64_t time);
extern size_t wire_size_list(uint32_t n, uint32_t m);
/* the n entries copied from commits; the m parents' ids go at the pointer returned */
extern unsigned char *wire_encode_list_begin(unsigned char *out, uint32_t n, const unsigned char *commits,
											 uint32_t m);
extern size_t wire_encode_list(unsigned char *out, const WireList *l);
/* 'F': the head (WIRE_FILES_HEAD_SIZE bytes), then n rows */
extern void wire_encode_files_head(unsigned char *out, int state, uint32_t n);
extern size_t wire_size_file_row(size_t path_len);
/* a row whose path_len bytes of path go at the pointer returned */
extern unsigned char *wire_encode_file_row_begin(unsigned char *out, int kind, uint32_t added,
												 uint32_t deleted, uint32_t path_len);
extern size_t wire_encode_file_row(unsigned char *out, const WireFileRow *row);
extern size_t wire_size_blob(size_t len);
extern size_t wire_encode_blob(unsigned char *out, const WireBlob *b);
/* 'X': the n ids go at the pointer returned */
extern size_t wire_size_reach(uint32_t n);
extern unsigned char *wire_encode_reach_begin(unsigned char *out, uint32_t head, uint32_t n);
extern size_t wire_encode_reach(unsigned char *out, const WireReach *r);
/* 'M' and 'E' */
extern size_t wire_size_message(const WireMessage *m);
extern size_t wire_encode_message(unsigned char *out, const WireMessage *m);

/* the payload length in a record header */
extern uint32_t wire_get_u32(const unsigned char *p);
extern void wire_put_u32(unsigned char *p, uint32_t v);
extern void wire_put_i64(unsigned char *p, int64_t v);

#endif							/* FIXES_WIRE_H */
