/*
 * maintainers.h — a MAINTAINERS file (Linux, DPDK, U-Boot, rdma-core), and
 * the subsystems of a path by the rules of the kernel's get_maintainer.pl
 *
 * Pure C (no PostgreSQL): unit-tested (test/unit/test_maintainers.c) and
 * fuzzed (test/fuzz/fuzz_maintainers.c).  Memory comes from the caller's
 * allocator and is never freed here (the backend passes a memory context).
 * The regular expressions of N: fields are the caller's: it compiles them
 * (the backend with PostgreSQL's engine) and searches a path with them.
 *
 * Sections: the file is read as blocks of lines separated by blank lines;
 * a line matching ^([A-Z]):\s*(.*)$ is a field of its block (trailing
 * blanks dropped); the block's first line, when it is not a field, is the
 * section's name; blocks without an F: or N: field, and blocks without a
 * name, are not subsystems.
 *
 * Matching a path: in F: and X: patterns '*' matches any characters (also
 * '/') and '?' any one character; a pattern ending in '/' matches every path
 * that starts with it; a pattern that names a directory of the tree is read
 * as if it ended in '/'; any other pattern matches a path that starts with
 * a match of it and has as many '/' as the pattern.  N: is searched in the
 * path.  A section matches a path when one of its F: or N: fields does and
 * none of its X: fields does.
 *
 * Attribution: a path belongs to the matching sections with the most
 * specific match.  An F: match ranks by the literal part of its pattern
 * (before the first '*' or '?', after a directory's '/' is added): by its
 * number of '/', then by its length; an N: match ranks just above an empty
 * literal part.  Ties keep every tied section.
 */
#ifndef FIXES_MAINTAINERS_H
#define FIXES_MAINTAINERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef void *(*mnt_alloc_fn) (void *ctx, size_t size);

typedef struct MntPattern
{
	char		kind;			/* 'F', 'X' or 'N' */
	int			section;		/* index in sections */
	const char *text;			/* as written (NUL-terminated) */
	size_t		len;
	bool		dir;			/* ends in '/', or names a directory */
	size_t		literal;		/* length of the literal part (without a directory's '/') */
	int			slashes;		/* '/' in the pattern (with a directory's '/') */
	int64_t		rank;			/* of a match (F and N) */
	bool		metachar;		/* holds a character that is special in a regex */
	void	   *regex;			/* N: the caller's compiled expression, NULL if invalid */
} MntPattern;

typedef struct MntSection
{
	const char *name;
	int			first;			/* its patterns: patterns[first .. first + n) */
	int			n;
} MntSection;

typedef struct Maintainers
{
	mnt_alloc_fn alloc;
	void	   *ctx;
	MntSection *sections;
	int			nsections;
	MntPattern *patterns;
	int			npatterns;
	/* F patterns sorted by literal part, for the look-up of candidates */
	int		   *by_literal;
	int			nby_literal;
	int		   *npats;			/* the N patterns */
	int			nn;
	/* scratch for mnt_match */
	int64_t    *best;			/* by section */
	bool	   *excluded;		/* by section */
	int		   *touched;
	int			ntouched;
} Maintainers;

/* parse buf[0..len); the directories are set afterwards by mnt_set_dirs() */
extern void mnt_parse(Maintainers *m, const char *buf, size_t len, mnt_alloc_fn alloc, void *ctx);

/*
 * Read the patterns that name a directory (is_dir(path, len, arg) true) as
 * if they ended in '/'; then index them.  Call once, after mnt_parse().
 */
extern void mnt_set_dirs(Maintainers *m, bool (*is_dir) (const char *path, size_t len, void *arg),
						 void *arg);

/* does glob pattern p[0..plen) match a prefix of s[0..slen)? */
extern void (*mnt_check_interrupts) (void);
extern bool mnt_glob_prefix(const char *p, size_t plen, const char *s, size_t slen);

/* does F:/X: pattern pat match path? */
extern bool mnt_pattern_matches(const MntPattern *pat, const char *path, size_t len);

/*
 * The sections path belongs to, into out (room for m->nsections); returns
 * their number, in increasing order.  search(regex, path, len, arg) says
 * whether an N: expression is found in the path.
 */
extern int	mnt_match(Maintainers *m, const char *path, size_t len,
					  bool (*search) (void *regex, const char *path, size_t len, void *arg),
					  void *arg, int *out);

#endif							/* FIXES_MAINTAINERS_H */
