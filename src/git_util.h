/*
 * git_util.h — opening repositories and turning libgit2 failures into ereport
 */
#ifndef FIXES_GIT_UTIL_H
#define FIXES_GIT_UTIL_H

#include <git2.h>

/*
 * The libgit2 handles one SQL call holds.  Allocate with fixes_git_new()
 * before PG_TRY and release with fixes_git_close() in PG_FINALLY: it frees
 * whatever is set and is safe to call twice.
 */
typedef struct FixesGit
{
	const char *path;			/* as given by the user */
	git_repository *repo;
	git_odb    *odb;
	char	   *objdir;			/* the objects directory */
	struct FixesGraph *loose;	/* ids of its loose objects (loose_check.c) */
} FixesGit;

extern void fixes_check_read_privilege(void);
extern FixesGit *fixes_git_new(const char *path);
extern void fixes_git_open(FixesGit *git);
extern void fixes_git_close(FixesGit *git);
extern bool fixes_git_resolve(FixesGit *git, const char *ref, git_oid *out);
extern int	errdetail_git(int rc);
extern void fixes_format_oid(char *out, const git_oid *oid);

/*
 * Raise an error for a failed libgit2 call: rc < 0.  errmsg is the caller's,
 * errdetail is libgit2's own message.
 */
#define fixes_git_check(rc, sqlstate, ...) \
	do { \
		int		fixes_rc_ = (rc); \
		if (fixes_rc_ < 0) \
			ereport(ERROR, \
					(errcode(sqlstate), \
					 errmsg(__VA_ARGS__), \
					 errdetail_git(fixes_rc_))); \
	} while (0)

#endif							/* FIXES_GIT_UTIL_H */
