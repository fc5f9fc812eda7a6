/*
 * loose_check.c — check loose objects before libgit2 reads them
 *
 * libgit2 1.5 loops for ever, without a way to interrupt it, when it reads
 * a truncated loose object (libgit2 issue #7342, fixed after 1.5), and
 * writes past its buffer when a loose object is longer than its header
 * says (#7177).  A load must fail with an error instead, so every loose
 * object is inflated here first, with zlib, and its length compared with
 * its header.  Repositories keep few loose objects (git gc packs them), so
 * this costs one directory scan and a few inflates.
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "storage/fd.h"
#include "utils/memutils.h"

#include "graph.h"
#include "loose_check.h"

/*
 * Remember the ids of the loose objects of the repository (its own objects
 * directory; alternates are not scanned).
 */
void
fixes_loose_scan(FixesGit *git)
{
	const char *gitdir = git_repository_path(git->repo);

	git->objdir = psprintf("%sobjects", gitdir);
	git->loose = fixes_graph_create(CurrentMemoryContext);
	for (int d = 0; d < 256; d++)
	{
		char	   *sub = psprintf("%s/%02x", git->objdir, d);
		DIR		   *dir = AllocateDir(sub);
		struct dirent *de;

		if (dir == NULL)
		{
			pfree(sub);
			continue;
		}
		while ((de = ReadDirExtended(dir, sub, DEBUG1)) != NULL)
		{
			char		hex[GIT_OID_HEXSZ + 1];
			git_oid		oid;
			bool		found;

			if (strlen(de->d_name) != GIT_OID_HEXSZ - 2)
				continue;
			snprintf(hex, sizeof(hex), "%02x%s", d, de->d_name);
			if (git_oid_fromstrn(&oid, hex, GIT_OID_HEXSZ) == 0)
				(void) fixes_graph_add(git->loose, &oid, &found);
		}
		FreeDir(dir);
		pfree(sub);
	}
}

/*
 * Inflate data[0..len) and check it is "<type> <size>\0" and size bytes.
 * Returns NULL when it is, else what is wrong.
 */
static const char *
loose_problem(const unsigned char *data, size_t len)
{
	z_stream	zs;
	unsigned char out[16384];
	char		header[64];
	size_t		header_len = 0;
	size_t		total = 0;
	const char *problem = NULL;
	int			rc;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		return "zlib could not be initialized";
	zs.next_in = (unsigned char *) data;
	zs.avail_in = (uInt) len;
	for (;;)
	{
		size_t		produced;

		zs.next_out = out;
		zs.avail_out = sizeof(out);
		rc = inflate(&zs, Z_NO_FLUSH);
		produced = sizeof(out) - zs.avail_out;
		for (size_t i = 0; i < produced && header_len < sizeof(header) &&
			 (header_len == 0 || header[header_len - 1] != '\0'); i++)
			header[header_len++] = (char) out[i];
		total += produced;
		if (rc == Z_STREAM_END)
			break;
		if (rc != Z_OK || (produced == 0 && zs.avail_in == 0))
		{
			problem = "its zlib stream is truncated or damaged";
			break;
		}
	}
	inflateEnd(&zs);
	if (problem == NULL)
	{
		const char *space = memchr(header, ' ', header_len);
		unsigned long long size;
		char	   *end;

		if (header_len == 0 || header[header_len - 1] != '\0' || space == NULL)
			problem = "its header is malformed";
		else
		{
			size = strtoull(space + 1, &end, 10);
			if (end != header + header_len - 1 || total - header_len != size)
				problem = "its length differs from the length in its header";
		}
	}
	return problem;
}

/*
 * Error out if oid is a loose object that libgit2 cannot read safely.
 */
void
fixes_loose_check(FixesGit *git, const git_oid *oid)
{
	char		hex[GIT_OID_HEXSZ + 1];
	char	   *path;
	int			fd;
	struct stat st;
	unsigned char *data;
	const char *problem;

	if (git->loose == NULL || fixes_graph_lookup(git->loose, oid) == FIXES_NO_IDX)
		return;
	fixes_format_oid(hex, oid);
	path = psprintf("%s/%.2s/%s", git->objdir, hex, hex + 2);
	fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
	if (fd < 0)
		return;					/* gone since the scan: libgit2 will say so */
	if (fstat(fd, &st) != 0 || st.st_size > (off_t) MaxAllocHugeSize)
	{
		CloseTransientFile(fd);
		return;
	}
	data = palloc_extended(Max(st.st_size, 1), MCXT_ALLOC_HUGE);
	if (read(fd, data, st.st_size) != st.st_size)
	{
		CloseTransientFile(fd);
		return;
	}
	CloseTransientFile(fd);
	problem = loose_problem(data, st.st_size);
	pfree(data);
	if (problem != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("object %s of repository \"%s\" is corrupt", hex, git->path),
				 errdetail("The loose object file \"%s\" cannot be read: %s.", path, problem),
				 errhint("Run \"git fsck\" in the repository; a fresh clone or \"git fetch\" may restore the object.")));
	pfree(path);
}
