/*
 * loose.c — check loose objects before libgit2 reads them
 *
 * libgit2 1.5 loops for ever when it reads a truncated loose object
 * (libgit2 issue #7342, fixed after 1.5) and writes past its buffer when a
 * loose object is longer than its header says (#7177).  The reader's CPU
 * limit and the backend's cancel would end such a read, but an error that
 * names the object is better: every loose object is inflated here first,
 * through zlib's API (which inflate.c implements on ISA-L, as for libgit2),
 * and its length compared with its header.  Repositories keep
 * few loose objects (git gc packs them), so this costs one directory scan
 * and a few inflates.  The objects directory is the shared one of a linked
 * worktree (git_repository_commondir), where its objects are.
 */
#include "reader.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

void
loose_scan(Repo *r)
{
	const char *common = git_repository_commondir(r->repo);
	size_t		len = strlen(common);

	r->objdir = xmalloc(len + 16);
	snprintf(r->objdir, len + 16, "%s%sobjects", common,
			 len > 0 && common[len - 1] == '/' ? "" : "/");
	r->loose = oidset_new(0);
	for (int d = 0; d < 256; d++)
	{
		char		sub[4096];
		DIR		   *dir;
		struct dirent *de;

		snprintf(sub, sizeof(sub), "%s/%02x", r->objdir, d);
		dir = opendir(sub);
		if (dir == NULL)
			continue;
		while ((de = readdir(dir)) != NULL)
		{
			char		hex[GIT_OID_HEXSZ + 1];
			FixesOid	oid;

			if (strlen(de->d_name) != GIT_OID_HEXSZ - 2)
				continue;
			snprintf(hex, sizeof(hex), "%02x%s", d, de->d_name);
			if (fixes_oid_parse(&oid, hex))
				oidset_add(r->loose, oid.id);
		}
		closedir(dir);
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

/* fail if oid is a loose object that libgit2 cannot read safely */
void
loose_check(Repo *r, const git_oid *oid)
{
	char		hex[GIT_OID_HEXSZ + 1];
	char		path[4096];
	int			fd;
	struct stat st;
	unsigned char *data;
	const char *problem;

	if (r->loose == NULL || !oidset_contains(r->loose, oid->id))
		return;
	git_oid_tostr(hex, sizeof(hex), oid);
	snprintf(path, sizeof(path), "%s/%.2s/%s", r->objdir, hex, hex + 2);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return;					/* gone since the scan: libgit2 will say so */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
	{
		close(fd);
		return;
	}
	data = xmalloc((size_t) st.st_size);
	if (read(fd, data, (size_t) st.st_size) != st.st_size)
	{
		close(fd);
		free(data);
		return;
	}
	close(fd);
	problem = loose_problem(data, (size_t) st.st_size);
	free(data);
	if (problem != NULL)
	{
		char		detail[8192];

		snprintf(detail, sizeof(detail), "The loose object file \"%s\" cannot be read: %s.",
				 path, problem);
		fail("XX001", detail,
			 "Run \"git fsck\" in the repository; a fresh clone or \"git fetch\" may restore the object.",
			 "object %s of repository \"%s\" is corrupt", hex, r->path);
	}
}
