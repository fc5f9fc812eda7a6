/*
 * open.c — opening the repository and resolving the ref, in the reader
 *
 * A bare repository or a work tree (its .git is found), never a parent
 * directory of the path.  Failures of the file system carry the SQLSTATE
 * that their errno means, as PostgreSQL's own file access does.
 */
#include "reader.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the SQLSTATE of a failed file access, as errcode_for_file_access() maps errno */
static const char *
errno_sqlstate(int e)
{
	switch (e)
	{
		case EPERM:
		case EACCES:
		case EROFS:
			return "42501";		/* insufficient_privilege */
		case ENOENT:
			return "58P01";		/* undefined_file */
		case ENOTDIR:
		case EISDIR:
			return "42809";		/* wrong_object_type */
		case ENAMETOOLONG:
			return "42622";		/* name_too_long */
		case ELOOP:
			return "22023";		/* invalid_parameter_value */
		case ENFILE:
		case EMFILE:
		case ENOMEM:
			return "53000";		/* insufficient_resources */
		case EIO:
			return "58030";		/* io_error */
		default:
			return "58000";		/* system_error */
	}
}

static const char *
os_user(void)
{
	struct passwd *pw = getpwuid(geteuid());

	return pw != NULL ? pw->pw_name : "?";
}

/* a WARNING when git log would see another history than we read */
static void
warn_replacements(Repo *r)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	bool		replaced = false;
	char		grafts[4096];
	struct stat st;

	if (git_reference_iterator_glob_new(&it, r->repo, "refs/replace/*") == 0)
	{
		replaced = git_reference_next(&ref, it) == 0;
		git_reference_free(ref);
		git_reference_iterator_free(it);
	}
	if (replaced)
		out_message('W', "01000",
					"git log shows the replacement objects of refs/replace/; fixes reads the commits as they are stored.",
					"Run \"git log --no-replace-objects\" to see the history that fixes reads.",
					"repository \"%s\" has replace refs, which fixes does not apply", r->path);
	snprintf(grafts, sizeof(grafts), "%s/info/grafts", git_repository_commondir(r->repo));
	if (stat(grafts, &st) == 0)
		out_message('W', "01000",
					"The file info/grafts changes the parents that git shows; fixes reads the parents as they are stored.",
					"Convert the grafts to replace refs with \"git replace --convert-graft-file\", or remove them.",
					"repository \"%s\" has grafts, which fixes does not apply", r->path);
}

void
repo_open(Repo *r, const char *path)
{
	struct stat st;
	int			rc;

	memset(r, 0, sizeof(*r));
	r->path = path;
	if (path[0] != '/')
		fail("22023", NULL, "Give the absolute path of the repository on the database server.",
			 "repository path \"%s\" is not absolute", path);
	if (stat(path, &st) != 0)
		fail(errno_sqlstate(errno), NULL, NULL,
			 "could not access repository \"%.1024s\": %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		fail("22023", "It is not a directory.", NULL, "\"%s\" is not a git repository", path);
	if (access(path, R_OK | X_OK) != 0)
	{
		char		hint[256];

		snprintf(hint, sizeof(hint),
				 "The database server runs as operating system user \"%s\", which must be able to read the repository.",
				 os_user());
		fail(errno_sqlstate(errno), NULL, hint,
			 "could not read repository \"%s\": %s", path, strerror(errno));
	}

	rc = git_repository_open_ext(&r->repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (rc == GIT_ENOTFOUND)
	{
		char		detail[2048];
		const char *m = git_message();

		snprintf(detail, sizeof(detail), "libgit2: %s", m ? m : "not found");
		fail("22023", detail, NULL, "\"%s\" is not a git repository", path);
	}
	if (rc < 0)
		fail_git(rc, "38000", "could not open git repository \"%s\"", path);
	rc = git_repository_odb(&r->odb, r->repo);
	if (rc < 0)
		fail_git(rc, "38000", "could not open the object database of repository \"%s\"", path);
	r->shallow = git_repository_is_shallow(r->repo) == 1;
	loose_scan(r);
	warn_replacements(r);
}

/*
 * Resolve ref (a branch, tag, "HEAD", an id or any rev-parse expression) to
 * the commit it names.  Returns false for an empty repository asked for its
 * HEAD.  The object a plain name names is checked before libgit2 reads it;
 * what rev-parse walks beyond it is bounded by the process's limits.
 */
bool
repo_resolve(Repo *r, const char *ref, git_oid *out)
{
	git_object *obj = NULL;
	git_object *commit = NULL;
	git_oid		named;
	git_reference *dwim = NULL;
	int			rc;

	if (git_reference_name_to_id(&named, r->repo, ref) == 0 ||
		(strlen(ref) == GIT_OID_HEXSZ && git_oid_fromstr(&named, ref) == 0))
		loose_check(r, &named);
	else if (git_reference_dwim(&dwim, r->repo, ref) == 0)
	{
		git_reference *resolved = NULL;

		if (git_reference_resolve(&resolved, dwim) == 0)
		{
			loose_check(r, git_reference_target(resolved));
			git_reference_free(resolved);
		}
		git_reference_free(dwim);
	}

	rc = git_revparse_single(&obj, r->repo, ref);
	if (rc < 0 && strcmp(ref, "HEAD") == 0 && git_repository_head_unborn(r->repo) == 1)
		return false;
	if (rc == GIT_ENOTFOUND || rc == GIT_EUNBORNBRANCH || rc == GIT_EINVALIDSPEC || rc == GIT_EAMBIGUOUS)
		fail_git(rc, "42704", "reference \"%s\" not found in repository \"%s\"", ref, r->path);
	if (rc < 0)
		fail_git(rc, "38000", "could not resolve reference \"%s\" in repository \"%s\"", ref, r->path);
	rc = git_object_peel(&commit, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (rc < 0)
		fail_git(rc, "42809", "reference \"%s\" in repository \"%s\" does not name a commit",
				 ref, r->path);
	git_oid_cpy(out, git_object_id(commit));
	git_object_free(commit);
	return true;
}
