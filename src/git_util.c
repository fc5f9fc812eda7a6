/*
 * git_util.c — opening repositories and turning libgit2 failures into ereport
 *
 * Reading a repository reads server files, so it takes the privilege that
 * COPY FROM a file takes: superuser or pg_read_server_files.  Every libgit2
 * error is raised with the operation in errmsg and libgit2's message in
 * errdetail; the handles live in a FixesGit that the caller frees in
 * PG_FINALLY.
 */
#include "postgres.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/pg_authid.h"
#include "miscadmin.h"
#include "utils/acl.h"

#include "git_util.h"
#include "loose_check.h"

/*
 * Only roles that may read server files may read a repository.
 */
void
fixes_check_read_privilege(void)
{
	if (!has_privs_of_role(GetUserId(), ROLE_PG_READ_SERVER_FILES))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read git repositories on the server"),
				 errdetail("Only superusers and roles with privileges of the \"%s\" role may read repositories.",
						   "pg_read_server_files"),
				 errhint("Query the tables that fixes_load() filled, or ask an administrator to grant \"%s\".",
						 "pg_read_server_files")));
}

/*
 * errdetail with libgit2's last error message, for use inside ereport().
 */
int
errdetail_git(int rc)
{
	const git_error *e = git_error_last();

	if (e != NULL && e->message != NULL && e->message[0] != '\0')
		return errdetail("libgit2: %s", e->message);
	return errdetail("libgit2 returned error code %d.", rc);
}

/* 40 lower-case hex digits and a terminating NUL: out has GIT_OID_HEXSZ + 1 bytes */
void
fixes_format_oid(char *out, const git_oid *oid)
{
	git_oid_fmt(out, oid);
	out[GIT_OID_HEXSZ] = '\0';
}

FixesGit *
fixes_git_new(const char *path)
{
	FixesGit   *git = palloc0(sizeof(FixesGit));

	git->path = path;
	return git;
}

static const char *
server_os_user(void)
{
	struct passwd *pw = getpwuid(geteuid());

	return pw != NULL ? pw->pw_name : "?";
}

/*
 * Open the repository at git->path: a bare repository or a work tree (its
 * .git directory is found), never a parent directory of path.
 */
void
fixes_git_open(FixesGit *git)
{
	const char *path = git->path;
	struct stat st;
	int			rc;

	if (!is_absolute_path(path))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("repository path \"%s\" is not absolute", path),
				 errhint("Give the absolute path of the repository on the database server.")));
	if (stat(path, &st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not access repository \"%s\": %m", path)));
	if (!S_ISDIR(st.st_mode))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is not a git repository", path),
				 errdetail("It is not a directory.")));
	if (access(path, R_OK | X_OK) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read repository \"%s\": %m", path),
				 errhint("The database server runs as operating system user \"%s\", which must be able to read the repository.",
						 server_os_user())));

	rc = git_repository_open_ext(&git->repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (rc == GIT_ENOTFOUND)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is not a git repository", path),
				 errdetail_git(rc)));
	fixes_git_check(rc, ERRCODE_EXTERNAL_ROUTINE_EXCEPTION,
					"could not open git repository \"%s\"", path);
	fixes_git_check(git_repository_odb(&git->odb, git->repo),
					ERRCODE_EXTERNAL_ROUTINE_EXCEPTION,
					"could not open the object database of repository \"%s\"", path);
	fixes_loose_scan(git);
}

void
fixes_git_close(FixesGit *git)
{
	if (git == NULL)
		return;
	if (git->odb != NULL)
		git_odb_free(git->odb);
	git->odb = NULL;
	if (git->repo != NULL)
		git_repository_free(git->repo);
	git->repo = NULL;
}

/*
 * Resolve ref (a branch, tag, "HEAD", an id or any rev-parse expression) to
 * the commit it names.  Returns false for an empty repository asked for its
 * HEAD: there is nothing to read, which is not an error.
 */
bool
fixes_git_resolve(FixesGit *git, const char *ref, git_oid *out)
{
	git_object *obj = NULL;
	git_object *commit = NULL;
	git_oid		named;
	int			rc;

	/* the object a plain name or id names is checked before libgit2 reads it */
	if (git_reference_name_to_id(&named, git->repo, ref) == 0 ||
		(strlen(ref) == GIT_OID_HEXSZ && git_oid_fromstr(&named, ref) == 0))
		fixes_loose_check(git, &named);
	else
	{
		git_reference *dwim = NULL;

		if (git_reference_dwim(&dwim, git->repo, ref) == 0)
		{
			git_reference *resolved = NULL;

			if (git_reference_resolve(&resolved, dwim) == 0)
			{
				git_oid_cpy(&named, git_reference_target(resolved));
				git_reference_free(resolved);
				git_reference_free(dwim);
				fixes_loose_check(git, &named);
			}
			else
				git_reference_free(dwim);
		}
	}

	rc = git_revparse_single(&obj, git->repo, ref);
	if (rc < 0 && strcmp(ref, "HEAD") == 0 && git_repository_head_unborn(git->repo) == 1)
		return false;
	if (rc == GIT_ENOTFOUND || rc == GIT_EUNBORNBRANCH || rc == GIT_EINVALIDSPEC || rc == GIT_EAMBIGUOUS)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("reference \"%s\" not found in repository \"%s\"", ref, git->path),
				 errdetail_git(rc)));
	fixes_git_check(rc, ERRCODE_EXTERNAL_ROUTINE_EXCEPTION,
					"could not resolve reference \"%s\" in repository \"%s\"", ref, git->path);

	rc = git_object_peel(&commit, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (rc < 0)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("reference \"%s\" in repository \"%s\" does not name a commit", ref, git->path),
				 errdetail_git(rc)));
	git_oid_cpy(out, git_object_id(commit));
	git_object_free(commit);
	return true;
}
